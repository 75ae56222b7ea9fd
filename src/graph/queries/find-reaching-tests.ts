import type { ReachingTest } from '../../model/coverage.js';
import type { GraphStore, KnowledgeGraph } from '../build.js';
import { getReverseAdjacency, type ReverseAdjacency } from './reverse-reach.js';

export interface ReachingTestsOptions {
  /** Follow type-only imports too (default false: a type-only import runs none of the file's code). */
  includeTypeOnly?: boolean;
}

interface TestIndex {
  adjacency: ReverseAdjacency;
  /** 1 for test files: role `test`, or any file that declares test nodes. */
  isTest: Uint8Array;
  /** Test file index → indexes of the repository files it mocks. */
  mocks: Map<number, Set<number>>;
  /** imports[i]: the files paths[i] imports or re-exports (forward edges), for mock-cut searches. */
  imports: { to: number; typeOnly: boolean }[][];
  /** Visit stamps reused by the forward searches (one generation per search). */
  stamps: Int32Array;
  generation: number;
}

const cache = new WeakMap<GraphStore, TestIndex>();

function getTestIndex(graph: GraphStore): TestIndex {
  const adjacency = getReverseAdjacency(graph);
  const cached = cache.get(graph);
  if (cached !== undefined && cached.adjacency === adjacency) return cached;
  const isTest = new Uint8Array(adjacency.paths.length);
  const mocks = new Map<number, Set<number>>();
  graph.forEachNode((_id, attributes) => {
    if (attributes.kind === 'file' && attributes.role === 'test') {
      const index = adjacency.indexByPath.get(attributes.path);
      if (index !== undefined) isTest[index] = 1;
    } else if (attributes.kind === 'test') {
      const index = adjacency.indexByPath.get(attributes.file);
      if (index !== undefined) isTest[index] = 1;
    }
  });
  graph.forEachEdge((_edge, attributes, _source, _target, sourceAttributes, targetAttributes) => {
    if (attributes.kind !== 'mocks' || sourceAttributes.kind !== 'file' || targetAttributes.kind !== 'file') return;
    const from = adjacency.indexByPath.get(sourceAttributes.path);
    const to = adjacency.indexByPath.get(targetAttributes.path);
    if (from === undefined || to === undefined) return;
    const set = mocks.get(from) ?? new Set<number>();
    set.add(to);
    mocks.set(from, set);
  });
  const imports: { to: number; typeOnly: boolean }[][] = adjacency.paths.map(() => []);
  adjacency.importers.forEach((list, to) => {
    for (const edge of list) imports[edge.from]?.push({ to, typeOnly: edge.typeOnly });
  });
  const index: TestIndex = { adjacency, isTest, mocks, imports, stamps: new Int32Array(adjacency.paths.length), generation: 0 };
  cache.set(graph, index);
  return index;
}

/** Reverse BFS from `seed` over runtime (and optionally type-only) imports. */
function walk(adjacency: ReverseAdjacency, seed: number, followTypeOnly: boolean): { distance: Int32Array; parent: Int32Array; order: Int32Array; count: number } {
  const size = adjacency.paths.length;
  const distance = new Int32Array(size).fill(-1);
  const parent = new Int32Array(size).fill(-1);
  const order = new Int32Array(size);
  distance[seed] = 0;
  order[0] = seed;
  let head = 0;
  let tail = 1;
  while (head < tail) {
    const current = order[head] ?? 0;
    head += 1;
    const next = (distance[current] ?? 0) + 1;
    for (const edge of adjacency.importers[current] ?? []) {
      if ((edge.typeOnly && !followTypeOnly) || distance[edge.from] !== -1) continue;
      distance[edge.from] = next;
      parent[edge.from] = current;
      order[tail] = edge.from;
      tail += 1;
    }
  }
  return { distance, parent, order, count: tail };
}

/**
 * Whether the test still reaches `seed` when the files it mocks are cut out: a forward search from the
 * test over files of the seed's reverse closure (`distance` set), which is small next to the closure.
 */
function isReachableAvoiding(index: TestIndex, seed: number, test: number, mocked: Set<number>, distance: Int32Array, followTypeOnly: boolean): boolean {
  index.generation += 1;
  const stamp = index.generation;
  const queue = [test];
  index.stamps[test] = stamp;
  for (let head = 0; head < queue.length; head += 1) {
    for (const edge of index.imports[queue[head] ?? 0] ?? []) {
      if ((edge.typeOnly && !followTypeOnly) || index.stamps[edge.to] === stamp || mocked.has(edge.to) || (distance[edge.to] ?? -1) === -1) continue;
      if (edge.to === seed) return true;
      index.stamps[edge.to] = stamp;
      queue.push(edge.to);
    }
  }
  return false;
}

function isMockedAway(index: TestIndex, seed: number, test: number, walked: { distance: Int32Array; parent: Int32Array }, followTypeOnly: boolean): boolean {
  const mocked = index.mocks.get(test);
  const { distance, parent } = walked;
  if (mocked === undefined) return false;
  if (mocked.has(seed)) return true;
  let isShortestChainCut = false;
  for (let current = parent[test] ?? -1; current !== -1 && !isShortestChainCut; current = parent[current] ?? -1) isShortestChainCut = mocked.has(current);
  return isShortestChainCut && !isReachableAvoiding(index, seed, test, mocked, distance, followTypeOnly);
}

function getVia(adjacency: ReverseAdjacency, parent: Int32Array, index: number): string[] {
  const via: string[] = [];
  let current = parent[index] ?? -1;
  while (current !== -1) {
    via.push(adjacency.paths[current] ?? '');
    current = parent[current] ?? -1;
  }
  return via.reverse();
}

/**
 * The test files that reach `path` through reverse imports (one reverse BFS), with the shortest chain:
 * `via[0]` is `path`, `via.length === distance`. `mocksChangedModule` is true when the test mocks `path`
 * itself, or mocks modules that cut every import chain from the test to `path` (e.g. it mocks the
 * module it imports that leads to `path`), so the real code of `path` does not run in it.
 * Sorted by distance, then test file path. The file itself is never listed.
 */
export function findReachingTests(knowledge: KnowledgeGraph, path: string, options: ReachingTestsOptions = {}): ReachingTest[] {
  const index = getTestIndex(knowledge.graph);
  const { adjacency } = index;
  const seed = adjacency.indexByPath.get(path);
  if (seed === undefined) return [];
  const followTypeOnly = options.includeTypeOnly ?? false;
  const walked = walk(adjacency, seed, followTypeOnly);
  const { distance, parent, order, count } = walked;
  const tests: ReachingTest[] = [];
  for (let position = 1; position < count; position += 1) {
    const reached = order[position] ?? 0;
    if (index.isTest[reached] !== 1) continue;
    const mocksChangedModule = isMockedAway(index, seed, reached, walked, followTypeOnly);
    tests.push({
      testFile: adjacency.paths[reached] ?? '',
      distance: distance[reached] ?? 0,
      via: getVia(adjacency, parent, reached),
      mocksChangedModule,
    });
  }
  return tests.sort((left, right) => left.distance - right.distance || (left.testFile < right.testFile ? -1 : left.testFile > right.testFile ? 1 : 0));
}
