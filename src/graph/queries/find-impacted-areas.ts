import type { ImpactedAreas } from '../../model/analysis.js';
import type { KnowledgeGraph } from '../build.js';
import { toFileId } from '../ids.js';
import { compareText } from '../../text/compare-text.js';

interface Tally {
  changed: number;
  impacted: number;
}

/** The folder of a repository path; `.` for files at the root. */
function getFolder(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '.' : path.slice(0, slash);
}

function count(tallies: Map<string, Tally>, key: string, isChanged: boolean): void {
  const tally = tallies.get(key) ?? { changed: 0, impacted: 0 };
  if (isChanged) tally.changed += 1;
  else tally.impacted += 1;
  tallies.set(key, tally);
}

function byTotal<T extends Tally>(entries: T[], key: (entry: T) => string): T[] {
  return entries.sort(
    (left, right) =>
      right.changed + right.impacted - (left.changed + left.impacted) || right.changed - left.changed || compareText(key(left), key(right)),
  );
}

/**
 * Folders (each file's directory), workspace packages (`belongs` edges) and owners (`owns` edges) of the
 * changed and impacted files, with counts; a path listed in both counts as changed. Each list is sorted
 * by total count (descending), then changed count, then name.
 */
export function findImpactedAreas(knowledge: KnowledgeGraph, changed: readonly string[], impacted: readonly string[]): ImpactedAreas {
  const { graph } = knowledge;
  const changedSet = new Set(changed);
  const files = [...changedSet, ...new Set(impacted.filter((path) => !changedSet.has(path)))];
  const folders = new Map<string, Tally>();
  const packages = new Map<string, Tally>();
  const packageFolders = new Map<string, string>();
  const owners = new Map<string, Tally>();
  for (const path of files) {
    const isChanged = changedSet.has(path);
    count(folders, getFolder(path), isChanged);
    const id = toFileId(path);
    if (!graph.hasNode(id)) continue;
    const seenPackages = new Set<string>();
    graph.forEachOutEdge(id, (_edge, attributes, _source, _target, _sourceAttributes, targetAttributes) => {
      if (attributes.kind !== 'belongs' || targetAttributes.kind !== 'package' || seenPackages.has(targetAttributes.name)) return;
      seenPackages.add(targetAttributes.name);
      packageFolders.set(targetAttributes.name, targetAttributes.folder ?? '');
      count(packages, targetAttributes.name, isChanged);
    });
    const seenOwners = new Set<string>();
    graph.forEachInEdge(id, (_edge, attributes, _source, _target, sourceAttributes) => {
      if (attributes.kind !== 'owns' || sourceAttributes.kind !== 'owner' || seenOwners.has(sourceAttributes.handle)) return;
      seenOwners.add(sourceAttributes.handle);
      count(owners, sourceAttributes.handle, isChanged);
    });
  }
  return {
    folders: byTotal(
      [...folders].map(([path, tally]) => ({ path, ...tally })),
      (entry) => entry.path,
    ),
    packages: byTotal(
      [...packages].map(([name, tally]) => ({ name, folder: packageFolders.get(name) ?? '', ...tally })),
      (entry) => entry.name,
    ),
    owners: byTotal(
      [...owners].map(([owner, tally]) => ({ owner, ...tally })),
      (entry) => entry.owner,
    ),
  };
}
