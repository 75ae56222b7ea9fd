import type { ImpactedAreas } from '../../model/analysis.js';
import type { KnowledgeGraph, KnowledgeStore } from '../build.js';
import { createGraphCache } from '../graph-cache.js';
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

interface AreaIndex {
  order: number;
  size: number;
  /** File node id → the workspace packages it belongs to (`belongs` edges), each name once. */
  packages: Map<string, { name: string; folder: string }[]>;
  /** File node id → the owners of it (`owns` edges), each handle once. */
  owners: Map<string, string[]>;
}

const cache = createGraphCache<AreaIndex>();

/**
 * Packages and owners per file, read from the package and owner nodes' own edges: a change to a hub module reaches
 * most files, and walking every edge of each of them (hundreds of `uses` edges apiece) to find these two cost more
 * than the rest of the areas together.
 */
function getAreaIndex(graph: KnowledgeStore): AreaIndex {
  const cached = cache.get(graph);
  if (cached !== undefined && cached.order === graph.order && cached.size === graph.size) return cached;
  const packages = new Map<string, { name: string; folder: string }[]>();
  const owners = new Map<string, string[]>();
  graph.forEachNode((id, attributes) => {
    if (attributes.kind === 'package') {
      const entry = { name: attributes.name, folder: attributes.folder ?? '' };
      graph.forEachInEdge(id, (_edge, edge, source) => {
        if (edge.kind !== 'belongs') return;
        const known = packages.get(source) ?? [];
        if (!known.some((other) => other.name === entry.name)) known.push(entry);
        packages.set(source, known);
      });
    } else if (attributes.kind === 'owner') {
      graph.forEachOutEdge(id, (_edge, edge, _source, target) => {
        if (edge.kind !== 'owns') return;
        const known = owners.get(target) ?? [];
        if (!known.includes(attributes.handle)) known.push(attributes.handle);
        owners.set(target, known);
      });
    }
  });
  const index: AreaIndex = { order: graph.order, size: graph.size, packages, owners };
  cache.set(graph, index);
  return index;
}

/**
 * Folders (each file's directory), workspace packages (`belongs` edges) and owners (`owns` edges) of the
 * changed and impacted files, with counts; a path listed in both counts as changed. Each list is sorted
 * by total count (descending), then changed count, then name.
 */
export function findImpactedAreas(knowledge: KnowledgeGraph, changed: readonly string[], impacted: readonly string[]): ImpactedAreas {
  const index = getAreaIndex(knowledge.graph);
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
    for (const { name, folder } of index.packages.get(id) ?? []) {
      packageFolders.set(name, folder);
      count(packages, name, isChanged);
    }
    for (const handle of index.owners.get(id) ?? []) count(owners, handle, isChanged);
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
