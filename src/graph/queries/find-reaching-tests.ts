import { createGraphCache } from '../graph-cache.js';
import type { ReachingTest } from '../../model/coverage.js';
import type { KnowledgeGraph, KnowledgeStore } from '../build.js';
import { getReverseAdjacency, type ReverseAdjacency } from './reverse-reach.js';
import { listTestFiles } from './test-files.js';
import { isNamePatch } from '../name-patch.js';
import { createParentWalk, getShownVia, linkParent, linkSeed, type ParentWalk } from './shown-path.js';

export interface ReachingTestsOptions {
  /** Follow type-only imports too (default false: a type-only import runs none of the file's code). */
  includeTypeOnly?: boolean;
}

interface TestIndex {
  adjacency: ReverseAdjacency;
  /** 1 for test files as listTestFiles says (test support is not one). */
  isTest: Uint8Array;
  /** Test file index → indexes of the repository files it mocks. */
  mocks: Map<number, Set<number>>;
  /** imports[i]: the files paths[i] imports or re-exports (forward edges), for mock-cut searches. */
  imports: { to: number; typeOnly: boolean }[][];
  /** Visit stamps reused by the forward searches (one generation per search). */
  stamps: Int32Array;
  generation: number;
}

const cache = createGraphCache<TestIndex>();

function getTestIndex(graph: KnowledgeStore): TestIndex {
  const adjacency = getReverseAdjacency(graph);
  const cached = cache.get(graph);
  if (cached !== undefined && cached.adjacency === adjacency) return cached;
  const isTest = new Uint8Array(adjacency.paths.length);
  const mocks = new Map<number, Set<number>>();
  for (const path of listTestFiles(graph)) {
    const index = adjacency.indexByPath.get(path);
    if (index !== undefined) isTest[index] = 1;
  }
  graph.forEachEdge((_edge, attributes, _source, _target, sourceAttributes, targetAttributes) => {
    if (attributes.kind !== 'mocks' || sourceAttributes.kind !== 'file' || targetAttributes.kind !== 'file') return;
    // A patch of one name (requests' `patch("requests.utils.proxy_bypass")`) leaves the rest of the module running.
    if (isNamePatch(sourceAttributes.path, attributes.specifier, targetAttributes.path)) return;
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

interface TestWalk extends ParentWalk {
  /** Files in BFS order, `order[0]` the seed. */
  order: Int32Array;
  count: number;
}

/** Reverse BFS from `seed` over runtime (and optionally type-only) imports. */
function walk(adjacency: ReverseAdjacency, seed: number, followTypeOnly: boolean): TestWalk {
  const size = adjacency.paths.length;
  const walked = createParentWalk(size);
  const { distance } = walked;
  const order = new Int32Array(size);
  linkSeed(walked, seed);
  order[0] = seed;
  let head = 0;
  let tail = 1;
  while (head < tail) {
    const current = order[head] ?? 0;
    head += 1;
    const next = (distance[current] ?? 0) + 1;
    for (const edge of adjacency.importers[current] ?? []) {
      if ((edge.typeOnly && !followTypeOnly) || distance[edge.from] !== -1) continue;
      linkParent(walked, current, edge.from, next);
      order[tail] = edge.from;
      tail += 1;
    }
  }
  return { ...walked, order, count: tail };
}

/**
 * Whether the test still reaches `seed` when the files it mocks are cut out: a forward search from the
 * test over files of the seed's reverse closure (`distance` set), which is small next to the closure.
 */
function isReachableAvoiding(
  index: TestIndex,
  seed: number,
  test: number,
  mocked: Set<number>,
  distance: Int32Array,
  followTypeOnly: boolean,
): boolean {
  index.generation += 1;
  const stamp = index.generation;
  const queue = [test];
  index.stamps[test] = stamp;
  for (let head = 0; head < queue.length; head += 1) {
    for (const edge of index.imports[queue[head] ?? 0] ?? []) {
      if ((edge.typeOnly && !followTypeOnly) || index.stamps[edge.to] === stamp || mocked.has(edge.to) || (distance[edge.to] ?? -1) === -1)
        continue;
      if (edge.to === seed) return true;
      index.stamps[edge.to] = stamp;
      queue.push(edge.to);
    }
  }
  return false;
}

/**
 * Entry and exit times of a depth-first pass over the walk's shortest-path tree: `a` is an ancestor of
 * `b` when enter[a] <= enter[b] and exit[b] <= exit[a]. Built once per walk, iteratively, so asking
 * whether a mocked file lies on a test's chain costs O(1) instead of a walk up the whole chain.
 */
interface TreeIntervals {
  enter: Int32Array;
  exit: Int32Array;
}

function buildTreeIntervals(walked: TestWalk): TreeIntervals {
  const size = walked.parent.length;
  const childCount = new Int32Array(size + 1);
  for (let position = 1; position < walked.count; position += 1) {
    const slot = (walked.parent[walked.order[position] ?? 0] ?? 0) + 1;
    childCount[slot] = (childCount[slot] ?? 0) + 1;
  }
  for (let index = 0; index < size; index += 1) childCount[index + 1] = (childCount[index + 1] ?? 0) + (childCount[index] ?? 0);
  const children = new Int32Array(Math.max(walked.count - 1, 0));
  const filled = childCount.slice(0, size);
  for (let position = 1; position < walked.count; position += 1) {
    const node = walked.order[position] ?? 0;
    const from = walked.parent[node] ?? 0;
    children[filled[from] ?? 0] = node;
    filled[from] = (filled[from] ?? 0) + 1;
  }
  const enter = new Int32Array(size).fill(-1);
  const exit = new Int32Array(size).fill(-1);
  const stack = new Int32Array(walked.count);
  const cursor = new Int32Array(size);
  let clock = 0;
  let top = 0;
  const root = walked.order[0] ?? 0;
  stack[0] = root;
  enter[root] = clock++;
  cursor[root] = childCount[root] ?? 0;
  while (top >= 0) {
    const node = stack[top] ?? 0;
    const position = cursor[node] ?? 0;
    if (position < (childCount[node + 1] ?? 0)) {
      cursor[node] = position + 1;
      const child = children[position] ?? 0;
      enter[child] = clock++;
      cursor[child] = childCount[child] ?? 0;
      top += 1;
      stack[top] = child;
    } else {
      exit[node] = clock++;
      top -= 1;
    }
  }
  return { enter, exit };
}

/** True when `ancestor` is `node` or above it in the tree the intervals were built from. */
function isAncestor(intervals: TreeIntervals, ancestor: number, node: number): boolean {
  const enter = intervals.enter[ancestor] ?? -1;
  return enter !== -1 && enter <= (intervals.enter[node] ?? -1) && (intervals.exit[node] ?? -1) <= (intervals.exit[ancestor] ?? -1);
}

/**
 * The dominator tree of the walk's reverse import graph rooted at the seed (Cooper, Harvey and Kennedy's
 * iterative algorithm over a depth-first reverse postorder, which settles in two passes on import graphs): file
 * `d` dominates test `t` when every import chain from `t` to the seed passes through `d`, so mocking `d` alone cuts
 * the seed out of `t`. Shaped as a `TestWalk` (`order` lists parents before children) so `buildTreeIntervals`
 * answers dominance in O(1).
 */
function buildDominatorTree(index: TestIndex, walked: TestWalk, followTypeOnly: boolean): TestWalk {
  const { importers } = index.adjacency;
  const size = walked.parent.length;
  const postorder = new Int32Array(size).fill(-1);
  const reversePostorder = new Int32Array(walked.count);
  const stack = new Int32Array(walked.count);
  const cursor = new Int32Array(size);
  const visited = new Uint8Array(size);
  const seed = walked.order[0] ?? 0;
  let top = 0;
  let clock = 0;
  stack[0] = seed;
  visited[seed] = 1;
  while (top >= 0) {
    const node = stack[top] ?? 0;
    const edges = importers[node] ?? [];
    const position = cursor[node] ?? 0;
    if (position < edges.length) {
      cursor[node] = position + 1;
      const edge = edges[position];
      if (edge === undefined || (edge.typeOnly && !followTypeOnly) || visited[edge.from] === 1) continue;
      visited[edge.from] = 1;
      top += 1;
      stack[top] = edge.from;
    } else {
      postorder[node] = clock;
      reversePostorder[walked.count - 1 - clock] = node;
      clock += 1;
      top -= 1;
    }
  }
  const dominator = new Int32Array(size).fill(-1);
  dominator[seed] = seed;
  for (let changed = true; changed; ) {
    changed = false;
    for (let at = 1; at < walked.count; at += 1) {
      const node = reversePostorder[at] ?? 0;
      let next = -1;
      for (const edge of index.imports[node] ?? []) {
        if ((edge.typeOnly && !followTypeOnly) || (dominator[edge.to] ?? -1) === -1) continue;
        if (next === -1) {
          next = edge.to;
          continue;
        }
        // The nearest common dominator of the two, by climbing the one that finished earlier.
        let a = edge.to;
        let b = next;
        while (a !== b) {
          while ((postorder[a] ?? 0) < (postorder[b] ?? 0)) a = dominator[a] ?? seed;
          while ((postorder[b] ?? 0) < (postorder[a] ?? 0)) b = dominator[b] ?? seed;
        }
        next = a;
      }
      if (next !== -1 && dominator[node] !== next) {
        dominator[node] = next;
        changed = true;
      }
    }
  }
  dominator[seed] = -1;
  return { ...walked, parent: dominator, order: reversePostorder };
}

interface MockCut {
  /** The walk's shortest-path tree. */
  getShortest(): TreeIntervals;
  /** The dominator tree of the seed's reverse closure. */
  getDominators(): TreeIntervals;
}

function isMockedAway(index: TestIndex, seed: number, test: number, walked: TestWalk, cut: MockCut, followTypeOnly: boolean): boolean {
  const mocked = index.mocks.get(test);
  if (mocked === undefined) return false;
  if (mocked.has(seed)) return true;
  const onChains = [...mocked].filter((file) => file !== test && (walked.distance[file] ?? -1) !== -1);
  // Every chain from the test to the seed is cut only if its shortest one is.
  const shortest = cut.getShortest();
  if (!onChains.some((file) => isAncestor(shortest, file, test))) return false;
  const dominators = cut.getDominators();
  if (onChains.some((file) => isAncestor(dominators, file, test))) return true;
  // No one mocked file is on every chain; several together may still cut them all.
  return onChains.length > 1 && !isReachableAvoiding(index, seed, test, mocked, walked.distance, followTypeOnly);
}

/**
 * The test files that reach `path` through reverse imports (one reverse BFS), with the shortest chain:
 * `via[0]` is `path`, `via.length === distance` (shortened past `MAX_SHOWN_PATH`, see `getShownVia`). `mocksChangedModule` is true when the test mocks `path`
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
  const { distance, order, count } = walked;
  const tests: ReachingTest[] = [];
  let shortest: TreeIntervals | undefined;
  let dominators: TreeIntervals | undefined;
  const cut: MockCut = {
    getShortest: () => (shortest ??= buildTreeIntervals(walked)),
    getDominators: () => (dominators ??= buildTreeIntervals(buildDominatorTree(index, walked, followTypeOnly))),
  };
  for (let position = 1; position < count; position += 1) {
    const reached = order[position] ?? 0;
    if (index.isTest[reached] !== 1) continue;
    const mocksChangedModule = isMockedAway(index, seed, reached, walked, cut, followTypeOnly);
    tests.push({
      testFile: adjacency.paths[reached] ?? '',
      distance: distance[reached] ?? 0,
      via: getShownVia(adjacency.paths, walked, reached),
      mocksChangedModule,
    });
  }
  return tests.sort(
    (left, right) => left.distance - right.distance || (left.testFile < right.testFile ? -1 : left.testFile > right.testFile ? 1 : 0),
  );
}
