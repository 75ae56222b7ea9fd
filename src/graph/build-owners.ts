import { toOwnerId, toPackageId } from './ids.js';
import { parseCodeowners, getOwnerType } from './codeowners.js';
import type { NodeAttributes } from '../model/graph.js';
import { compareText } from '../text/compare-text.js';
import { addEdge, addNodeOnce, type Builder, getFileId } from './build-context.js';

/** CODEOWNERS owners and workspace packages. */

export function addOwners(builder: Builder): void {
  const source = builder.input.codeowners;
  if (source === undefined) return;
  const codeowners = parseCodeowners(source.path, source.text);
  builder.result.codeowners = codeowners;
  builder.result.diagnostics.push(...codeowners.diagnostics);
  const handles = [...new Set(codeowners.rules.flatMap((rule) => rule.owners))].sort(compareText);
  for (const handle of handles) {
    const ownerType = getOwnerType(handle);
    if (ownerType !== undefined) builder.graph.addNode(toOwnerId(handle), { kind: 'owner', handle, ownerType });
  }
  for (const file of builder.files) {
    const match = codeowners.matchPath(file.path);
    if (match === undefined) continue;
    for (const owner of match.owners) {
      addEdge(builder, toOwnerId(owner), getFileId(builder, file.path), {
        kind: 'owns',
        pattern: match.rule.pattern,
        line: match.rule.line,
      });
    }
  }
}

export function addPackages(builder: Builder): void {
  const packages = [...builder.input.packages].sort(
    (left, right) => compareText(left.name, right.name) || compareText(left.folder, right.folder),
  );
  const folders: { folder: string; id: string }[] = [];
  for (const manifest of packages) {
    const id = toPackageId(manifest.name);
    const attributes: NodeAttributes = { kind: 'package', name: manifest.name, folder: manifest.folder, workspace: true };
    if (manifest.version !== undefined) attributes.version = manifest.version;
    if (addNodeOnce(builder.graph, id, attributes)) folders.push({ folder: manifest.folder, id });
  }
  const external = [...new Set(packages.flatMap((manifest) => manifest.dependencies))]
    .filter((name) => !builder.graph.hasNode(toPackageId(name)))
    .sort(compareText);
  for (const name of external) builder.graph.addNode(toPackageId(name), { kind: 'package', name, workspace: false });
  for (const manifest of packages) {
    const id = toPackageId(manifest.name);
    const node = builder.graph.getNodeAttributes(id);
    if (node.kind !== 'package' || node.folder !== manifest.folder) continue;
    for (const dependency of [...new Set(manifest.dependencies)].sort(compareText)) {
      if (dependency !== manifest.name) addEdge(builder, id, toPackageId(dependency), { kind: 'depends' });
    }
  }
  folders.sort((left, right) => right.folder.length - left.folder.length || compareText(left.folder, right.folder));
  for (const file of builder.files) {
    const owner = folders.find(({ folder }) => folder === '' || file.path.startsWith(`${folder}/`));
    if (owner !== undefined) addEdge(builder, getFileId(builder, file.path), owner.id, { kind: 'belongs' });
  }
}
