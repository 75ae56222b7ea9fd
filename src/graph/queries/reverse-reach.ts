import { createGraphCache } from '../graph-cache.js';
import type { KnowledgeGraph, KnowledgeStore } from '../build.js';
import { createParentWalk, getShownVia, linkParent, linkSeed, type ParentWalk } from './shown-path.js';
import { compareText } from '../../text/compare-text.js';

export interface ReverseReachOptions {
  /** Stop after this many import hops (default: no limit). */
  maxDistance?: number;
  /** Follow type-only imports too, marking files reached only through them (default true). */
  includeTypeOnly?: boolean;
  /** Build each file's `via` (default true); false leaves every `via` empty, for callers that only need the files. */
  includeVia?: boolean;
}

export interface ReachedFile {
  path: string;
  /** Import hops from the nearest seed. */
  distance: number;
  /**
   * The files from the seed up to the one this file imports: `via[0]` is the seed, `via.length === distance`
   * up to `MAX_SHOWN_PATH` hops; a longer chain keeps its first and last `SHOWN_PATH_END` files around one
   * `… N more files …` marker (`isOmittedMarker`).
   */
  via: string[];
  /** No runtime import chain reaches this file from a seed; only chains with a type-only import do. */
  typeOnly: boolean;
}

export interface ReverseAdjacency {
  order: number;
  size: number;
  paths: string[];
  indexByPath: Map<string, number>;
  /** importers[i]: files that import or re-export paths[i], sorted by path; flag true when every such edge is type-only (as a JavaScript file's import of a declaration file is). */
  importers: { from: number; typeOnly: boolean }[][];
}

const cache = createGraphCache<ReverseAdjacency>();
const JAVASCRIPT = /\.[cm]?jsx?$/;
const DECLARATION = /\.d\.[cm]?ts$/;

/** Sorted file paths and, per file, its importers (cached per graph until nodes or edges are added). */
export function getReverseAdjacency(graph: KnowledgeStore): ReverseAdjacency {
  const cached = cache.get(graph);
  if (cached !== undefined && cached.order === graph.order && cached.size === graph.size) return cached;
  const paths: string[] = [];
  graph.forEachNode((_id, attributes) => {
    if (attributes.kind === 'file') paths.push(attributes.path);
  });
  paths.sort(compareText);
  const indexByPath = new Map(paths.map((path, index) => [path, index]));
  const runtime = paths.map(() => new Map<number, boolean>());
  graph.forEachEdge((_id, attributes, _source, _target, sourceAttributes, targetAttributes) => {
    if (attributes.kind !== 'imports' && attributes.kind !== 'reexports') return;
    if (sourceAttributes.kind !== 'file' || targetAttributes.kind !== 'file') return;
    const from = indexByPath.get(sourceAttributes.path);
    const to = indexByPath.get(targetAttributes.path);
    if (from === undefined || to === undefined) return;
    const known = runtime[to];
    if (known === undefined) return;
    // A JavaScript file runs the code beside a declaration file, never the declaration its import resolves to for types.
    const typeOnly = attributes.typeOnly || (JAVASCRIPT.test(sourceAttributes.path) && DECLARATION.test(targetAttributes.path));
    known.set(from, (known.get(from) ?? false) || !typeOnly);
  });
  const importers = runtime.map((byFrom) =>
    [...byFrom].sort((left, right) => left[0] - right[0]).map(([from, isRuntime]) => ({ from, typeOnly: !isRuntime })),
  );
  const adjacency: ReverseAdjacency = { order: graph.order, size: graph.size, paths, indexByPath, importers };
  cache.set(graph, adjacency);
  return adjacency;
}

function walk(adjacency: ReverseAdjacency, seeds: number[], maxDistance: number, followTypeOnly: boolean): ParentWalk {
  const count = adjacency.paths.length;
  const walked = createParentWalk(count);
  const { distance } = walked;
  const queue = new Int32Array(count);
  let head = 0;
  let tail = 0;
  for (const seed of seeds) {
    if (distance[seed] !== -1) continue;
    linkSeed(walked, seed);
    queue[tail] = seed;
    tail += 1;
  }
  while (head < tail) {
    const current = queue[head] ?? 0;
    head += 1;
    const next = (distance[current] ?? 0) + 1;
    if (next > maxDistance) continue;
    for (const edge of adjacency.importers[current] ?? []) {
      if (edge.typeOnly && !followTypeOnly) continue;
      if (distance[edge.from] !== -1) continue;
      linkParent(walked, current, edge.from, next);
      queue[tail] = edge.from;
      tail += 1;
    }
  }
  return walked;
}

/**
 * Every file that reaches `path` through `imports`/`reexports` edges, type-only ones included, sorted by path
 * (`compareText`); `path` itself is left out, and a path that is not a file of the graph reaches nothing. The set
 * `findReverseReach(…, [path])` gives, without distances, chains or a sort: one BFS over the cached adjacency, read
 * back in the adjacency's path order. An analysis asks this of every changed file and export user, and a change
 * to a hub module reaches most of the repository each time.
 */
export function findReachingFiles(knowledge: KnowledgeGraph, path: string): string[] {
  const adjacency = getReverseAdjacency(knowledge.graph);
  const seed = adjacency.indexByPath.get(path);
  if (seed === undefined) return [];
  const count = adjacency.paths.length;
  const seen = new Uint8Array(count);
  const queue = new Int32Array(count);
  seen[seed] = 1;
  queue[0] = seed;
  let tail = 1;
  for (let head = 0; head < tail; head += 1) {
    for (const edge of adjacency.importers[queue[head] ?? 0] ?? []) {
      if (seen[edge.from] === 1) continue;
      seen[edge.from] = 1;
      queue[tail] = edge.from;
      tail += 1;
    }
  }
  seen[seed] = 0;
  const reached: string[] = [];
  for (let index = 0; index < count; index += 1) if (seen[index] === 1) reached.push(adjacency.paths[index] ?? '');
  return reached;
}

/**
 * Files that depend on the seed files through `imports`/`reexports` edges (multi-source reverse BFS),
 * seeds excluded, ordered by distance then path. A file with a runtime chain reports that chain; a file
 * reached only through a type-only import reports its shortest chain and `typeOnly: true`. Linear in
 * the graph: two BFS with parent pointers, and at most `MAX_SHOWN_PATH` via entries per file.
 */
export function findReverseReach(knowledge: KnowledgeGraph, seeds: string[], options: ReverseReachOptions = {}): ReachedFile[] {
  const adjacency = getReverseAdjacency(knowledge.graph);
  const maxDistance = options.maxDistance ?? Number.POSITIVE_INFINITY;
  const includeTypeOnly = options.includeTypeOnly ?? true;
  const includeVia = options.includeVia ?? true;
  const seedIndexes = [...new Set(seeds)]
    .map((path) => adjacency.indexByPath.get(path))
    .filter((index): index is number => index !== undefined)
    .sort((left, right) => left - right);
  const runtime = walk(adjacency, seedIndexes, maxDistance, false);
  const all = includeTypeOnly ? walk(adjacency, seedIndexes, maxDistance, true) : runtime;
  const reached: ReachedFile[] = [];
  for (let index = 0; index < adjacency.paths.length; index += 1) {
    const runtimeDistance = runtime.distance[index] ?? -1;
    const anyDistance = all.distance[index] ?? -1;
    if (anyDistance <= 0 && runtimeDistance <= 0) continue;
    const path = adjacency.paths[index] ?? '';
    if (runtimeDistance > 0) {
      reached.push({
        path,
        distance: runtimeDistance,
        via: includeVia ? getShownVia(adjacency.paths, runtime, index) : [],
        typeOnly: false,
      });
    } else {
      reached.push({ path, distance: anyDistance, via: includeVia ? getShownVia(adjacency.paths, all, index) : [], typeOnly: true });
    }
  }
  return reached.sort((left, right) => left.distance - right.distance || (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
}
