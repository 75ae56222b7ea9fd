import { createGraphCache } from '../graph/graph-cache.js';
import type { KnowledgeGraph } from '../graph/build.js';
import type { FileRole } from '../model/scan.js';
import { normaliseRoutePath, splitPathTerms, termsOfIdentifier, termsOfPath, termsOfText, toCompact } from './terms.js';
import { compareText } from '../text/compare-text.js';

export interface FileEntry {
  path: string;
  lower: string;
  lowerNoExtension: string;
  compactBase: string;
  role: FileRole;
}

export interface RouteEntry {
  id: string;
  method: string;
  path: string;
  normalised: string;
  file: string;
  files: string[];
  handlerCompact: string | undefined;
}

export interface TestEntry {
  id: string;
  file: string;
  lowerTitle: string;
}

export interface KnowledgeEntry {
  id: string;
  lowerText: string;
  files: string[];
}

export interface GroundingIndex {
  order: number;
  size: number;
  files: FileEntry[];
  fileByPath: Map<string, FileEntry>;
  pathTerms: Map<string, { path: string; strength: 'fileName' | 'folder' }[]>;
  exportTerms: Map<string, string[]>;
  exportsByCompact: Map<string, string[]>;
  exportPaths: Map<string, string>;
  routes: RouteEntry[];
  routeById: Map<string, RouteEntry>;
  routeTerms: Map<string, string[]>;
  tests: Map<string, TestEntry>;
  testTerms: Map<string, string[]>;
  testedFiles: Map<string, string[]>;
  /** Per file, the files it imports at runtime and the files that import it so (its import neighbours), sorted. */
  importNeighbours: Map<string, string[]>;
  decisions: Map<string, KnowledgeEntry>;
  decisionTerms: Map<string, string[]>;
  memory: Map<string, KnowledgeEntry>;
  memoryTerms: Map<string, string[]>;
  ownerFiles: Map<string, string[]>;
  ownersByFile: Map<string, string[]>;
  ownerTerms: Map<string, string[]>;
  packageFiles: Map<string, string[]>;
  packageTerms: Map<string, string[]>;
  /** Barrels: files that re-export from others and declare no more exports of their own than files they re-export; their targets. */
  barrels: Map<string, string[]>;
}

const indexCache = createGraphCache<GroundingIndex>();

function addTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function addTerms(map: Map<string, string[]>, terms: Iterable<string>, id: string): void {
  for (const term of new Set(terms)) addTo(map, term, id);
}

function stripExtension(path: string): string {
  return path.replace(/(?:\.[A-Za-z0-9]+)+$/, '');
}

/** The graph's files, routes, tests, knowledge, owners and packages keyed by their terms; cached per graph. */
export function getGroundingIndex(knowledge: KnowledgeGraph): GroundingIndex {
  const graph = knowledge.graph;
  const cached = indexCache.get(graph);
  if (cached !== undefined && cached.order === graph.order && cached.size === graph.size) return cached;
  const index: GroundingIndex = {
    order: graph.order,
    size: graph.size,
    files: [],
    fileByPath: new Map(),
    pathTerms: new Map(),
    exportTerms: new Map(),
    exportsByCompact: new Map(),
    exportPaths: new Map(),
    routes: [],
    routeById: new Map(),
    routeTerms: new Map(),
    tests: new Map(),
    testTerms: new Map(),
    testedFiles: new Map(),
    importNeighbours: new Map(),
    decisions: new Map(),
    decisionTerms: new Map(),
    memory: new Map(),
    memoryTerms: new Map(),
    ownerFiles: new Map(),
    ownersByFile: new Map(),
    ownerTerms: new Map(),
    packageFiles: new Map(),
    packageTerms: new Map(),
    barrels: new Map(),
  };
  const ownExports = new Map<string, number>();
  const reexported = new Map<string, Set<string>>();
  graph.forEachNode((id, node) => {
    switch (node.kind) {
      case 'file': {
        const lower = node.path.toLowerCase();
        const base = node.path.slice(node.path.lastIndexOf('/') + 1);
        const entry: FileEntry = {
          path: node.path,
          lower,
          lowerNoExtension: stripExtension(lower),
          compactBase: toCompact(stripExtension(base)),
          role: node.role,
        };
        index.files.push(entry);
        index.fileByPath.set(node.path, entry);
        const { fileTerms, folderTerms } = splitPathTerms(node.path);
        for (const term of fileTerms) addTo(index.pathTerms, term, { path: node.path, strength: 'fileName' });
        for (const term of folderTerms) addTo(index.pathTerms, term, { path: node.path, strength: 'folder' });
        break;
      }
      case 'export':
        index.exportPaths.set(id, node.path);
        if (node.exportKind !== 'reexport') ownExports.set(node.path, (ownExports.get(node.path) ?? 0) + 1);
        if (node.name === 'default') break;
        addTerms(index.exportTerms, termsOfIdentifier(node.name), id);
        addTo(index.exportsByCompact, toCompact(node.name), id);
        break;
      case 'route': {
        const entry: RouteEntry = {
          id,
          method: node.method,
          path: node.path,
          normalised: normaliseRoutePath(node.path),
          file: node.file,
          files: [],
          handlerCompact: node.handler === undefined ? undefined : toCompact(node.handler.split('.').pop() ?? node.handler),
        };
        index.routes.push(entry);
        index.routeById.set(id, entry);
        addTerms(index.routeTerms, [...termsOfPath(node.path), ...termsOfIdentifier(node.handler ?? '')], id);
        break;
      }
      case 'test': {
        const title = node.titlePath.join(' ');
        index.tests.set(id, { id, file: node.file, lowerTitle: title.toLowerCase() });
        addTerms(index.testTerms, termsOfText(title), id);
        break;
      }
      case 'decision':
        index.decisions.set(id, { id, lowerText: node.title.toLowerCase(), files: [] });
        addTerms(index.decisionTerms, [...termsOfText(node.title), ...node.terms.flatMap((term) => termsOfText(term))], id);
        break;
      case 'memory':
        index.memory.set(id, { id, lowerText: `${node.title ?? ''}\n${node.text}`.toLowerCase(), files: [] });
        addTerms(
          index.memoryTerms,
          [
            ...termsOfText(`${node.title ?? ''}\n${node.text}`),
            ...node.terms.flatMap((term) => termsOfText(term)),
            ...node.paths.flatMap((glob) => termsOfPath(glob.replace(/[*?{}[\]!]+/g, '/'))),
          ],
          id,
        );
        break;
      case 'owner':
        index.ownerFiles.set(id, []);
        addTerms(index.ownerTerms, termsOfText(node.handle), id);
        break;
      case 'package':
        index.packageFiles.set(id, []);
        addTerms(index.packageTerms, termsOfText(node.name), id);
        break;
      default:
        break;
    }
  });
  const routeFiles = new Map<string, Set<string>>();
  const pendingMentions: { source: string; target: string }[] = [];
  graph.forEachEdge((_edge, attributes, source, target, sourceNode, targetNode) => {
    switch (attributes.kind) {
      case 'handles':
        if (targetNode.kind === 'file') {
          const set = routeFiles.get(source) ?? new Set<string>();
          set.add(targetNode.path);
          routeFiles.set(source, set);
        }
        break;
      case 'tests':
        if (sourceNode.kind === 'file' && targetNode.kind === 'file') addTo(index.testedFiles, sourceNode.path, targetNode.path);
        break;
      case 'imports':
        if (sourceNode.kind === 'file' && targetNode.kind === 'file' && sourceNode.path !== targetNode.path && !attributes.typeOnly) {
          addTo(index.importNeighbours, sourceNode.path, targetNode.path);
          addTo(index.importNeighbours, targetNode.path, sourceNode.path);
        }
        break;
      case 'reexports':
        if (sourceNode.kind === 'file' && targetNode.kind === 'file' && sourceNode.path !== targetNode.path) {
          const targets = reexported.get(sourceNode.path) ?? new Set<string>();
          targets.add(targetNode.path);
          reexported.set(sourceNode.path, targets);
        }
        break;
      case 'owns':
        if (targetNode.kind === 'file') {
          index.ownerFiles.get(source)?.push(targetNode.path);
          addTo(index.ownersByFile, targetNode.path, source);
        }
        break;
      case 'belongs':
        if (sourceNode.kind === 'file') index.packageFiles.get(target)?.push(sourceNode.path);
        break;
      case 'mentions':
        pendingMentions.push({ source, target });
        break;
      default:
        break;
    }
  });
  for (const route of index.routes) {
    const files = routeFiles.get(route.id);
    route.files = files !== undefined ? [...files].sort(compareText) : index.fileByPath.has(route.file) ? [route.file] : [];
  }
  for (const { source, target } of pendingMentions) {
    const entry = index.decisions.get(source) ?? index.memory.get(source);
    if (entry === undefined) continue;
    const node = graph.getNodeAttributes(target);
    if (node.kind === 'file') entry.files.push(node.path);
    else if (node.kind === 'export') entry.files.push(node.path);
    else if (node.kind === 'route') entry.files.push(...(index.routeById.get(target)?.files ?? []));
  }
  for (const entry of [...index.decisions.values(), ...index.memory.values()]) entry.files = [...new Set(entry.files)].sort(compareText);
  for (const [path, neighbours] of index.importNeighbours) index.importNeighbours.set(path, [...new Set(neighbours)].sort(compareText));
  for (const [path, targets] of reexported) {
    if ((ownExports.get(path) ?? 0) <= targets.size) index.barrels.set(path, [...targets].sort(compareText));
  }
  indexCache.set(graph, index);
  return index;
}
