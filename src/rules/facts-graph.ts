import type { KnowledgeGraph } from '../graph/build.js';
import { toExportId, toFileId } from '../graph/ids.js';
import { findReachingFiles } from '../graph/queries/reverse-reach.js';
import { listTestFiles } from '../graph/queries/test-files.js';
import type { MemoryKind, RouteNode, TestNode } from '../model/graph.js';
import { compareText } from '../text/compare-text.js';

/** Memoised graph lookups shared by the fact builders of one analysis. */
export interface GraphLookup {
  kg: KnowledgeGraph;
  /** Files (paths) that reach `path` through imports, transitively; excludes `path`. */
  getReachers(path: string): string[];
  /** Test files that reach `path`: importing tests, transitively, plus `tests` edges. */
  getReachingTestFiles(path: string): string[];
  isTestFile(path: string): boolean;
  /** Files importing `path` directly (imports or re-exports). */
  getDirectImporters(path: string): string[];
  /** Routes whose handler or declaring file is one of `paths`. */
  getRoutesHandledBy(paths: ReadonlySet<string>): { id: string; route: RouteNode }[];
  getOwners(path: string): string[];
  /** Memory entries linked to the file by a `mentions` edge. */
  getMemoryMentions(path: string): { id: string; kind: MemoryKind }[];
  /** Files that use the export by name (through barrels), or import its file as a namespace or for side effects. */
  getExportUsers(path: string, name: string): string[];
  getTestNodes(): { id: string; node: TestNode }[];
}

export function sortUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareText);
}

export function createGraphLookup(kg: KnowledgeGraph): GraphLookup {
  const { graph } = kg;
  const reachers = new Map<string, string[]>();
  const reachingTests = new Map<string, string[]>();
  let routes: { id: string; route: RouteNode; files: string[] }[] | undefined;
  let testNodes: { id: string; node: TestNode }[] | undefined;

  const getTestFiles = (): ReadonlySet<string> => listTestFiles(graph);

  const getPathOfNode = (id: string): string | undefined => {
    if (!graph.hasNode(id)) return undefined;
    const attributes = graph.getNodeAttributes(id);
    return attributes.kind === 'file' ? attributes.path : undefined;
  };

  const lookup: GraphLookup = {
    kg,
    getReachers(path) {
      const cached = reachers.get(path);
      if (cached !== undefined) return cached;
      const found = findReachingFiles(kg, path);
      reachers.set(path, found);
      return found;
    },
    getReachingTestFiles(path) {
      const cached = reachingTests.get(path);
      if (cached !== undefined) return cached;
      const tests = getTestFiles();
      const found = new Set(lookup.getReachers(path).filter((entry) => tests.has(entry)));
      const id = toFileId(path);
      if (graph.hasNode(id)) {
        graph.forEachInEdge(id, (_edge, attributes, source) => {
          if (attributes.kind !== 'tests') return;
          const from = getPathOfNode(source);
          if (from !== undefined) found.add(from);
        });
      }
      found.delete(path);
      const sorted = sortUnique(found);
      reachingTests.set(path, sorted);
      return sorted;
    },
    isTestFile(path) {
      return getTestFiles().has(path);
    },
    getDirectImporters(path) {
      const id = toFileId(path);
      if (!graph.hasNode(id)) return [];
      const found: string[] = [];
      graph.forEachInEdge(id, (_edge, attributes, source) => {
        if (attributes.kind !== 'imports' && attributes.kind !== 'reexports') return;
        const from = getPathOfNode(source);
        if (from !== undefined && from !== path) found.push(from);
      });
      return sortUnique(found);
    },
    getRoutesHandledBy(paths) {
      if (routes === undefined) {
        const all: { id: string; route: RouteNode; files: string[] }[] = [];
        graph.forEachNode((id, attributes) => {
          if (attributes.kind !== 'route') return;
          const files = new Set<string>([attributes.file]);
          graph.forEachOutEdge(id, (_edge, edge, _source, target) => {
            if (edge.kind !== 'handles') return;
            const path = getPathOfNode(target);
            if (path !== undefined) files.add(path);
          });
          all.push({ id, route: attributes, files: [...files] });
        });
        all.sort((left, right) => compareText(left.id, right.id));
        routes = all;
      }
      return routes.filter((entry) => entry.files.some((file) => paths.has(file))).map(({ id, route }) => ({ id, route }));
    },
    getOwners(path) {
      const id = toFileId(path);
      if (!graph.hasNode(id)) return [];
      const owners: string[] = [];
      graph.forEachInEdge(id, (_edge, attributes, _source, _target, sourceAttributes) => {
        if (attributes.kind === 'owns' && sourceAttributes.kind === 'owner') owners.push(sourceAttributes.handle);
      });
      return sortUnique(owners);
    },
    getMemoryMentions(path) {
      const id = toFileId(path);
      if (!graph.hasNode(id)) return [];
      const found = new Map<string, MemoryKind>();
      graph.forEachInEdge(id, (_edge, attributes, source, _target, sourceAttributes) => {
        if (attributes.kind === 'mentions' && sourceAttributes.kind === 'memory') found.set(source, sourceAttributes.memoryKind);
      });
      return [...found].sort((left, right) => compareText(left[0], right[0])).map(([memoryId, kind]) => ({ id: memoryId, kind }));
    },
    getExportUsers(path, name) {
      const users = new Set<string>();
      const exportId = toExportId(path, name);
      if (graph.hasNode(exportId)) {
        graph.forEachInEdge(exportId, (_edge, attributes, source) => {
          if (attributes.kind !== 'uses') return;
          const from = getPathOfNode(source);
          if (from !== undefined) users.add(from);
        });
      }
      const fileId = toFileId(path);
      if (graph.hasNode(fileId)) {
        graph.forEachInEdge(fileId, (_edge, attributes, source) => {
          if (attributes.kind !== 'imports') return;
          if (attributes.names.length > 0 && !attributes.names.includes('*')) return;
          const from = getPathOfNode(source);
          if (from !== undefined && from !== path) users.add(from);
        });
      }
      return sortUnique(users);
    },
    getTestNodes() {
      if (testNodes === undefined) {
        const found: { id: string; node: TestNode }[] = [];
        graph.forEachNode((id, attributes) => {
          if (attributes.kind === 'test') found.push({ id, node: attributes });
        });
        found.sort((left, right) => compareText(left.id, right.id));
        testNodes = found;
      }
      return testNodes;
    },
  };
  return lookup;
}
