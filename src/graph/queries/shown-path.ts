/**
 * A chain (the `via` files of an impacted file or a reaching test, the steps and files of a route) longer
 * than this is shown shortened: its first and last `SHOWN_PATH_END` entries around one marker entry that
 * says how many were left out. Every file of a 50,000-file import chain carrying its whole chain made the
 * report grow with the square of the chain; capped, it grows linearly.
 */
export const MAX_SHOWN_PATH = 32;
export const SHOWN_PATH_END = MAX_SHOWN_PATH / 2;

export type OmittedNoun = 'files' | 'calls';

/** The entry that stands for `count` entries left out of the middle of a shortened chain. */
export function toOmittedMarker(count: number, noun: OmittedNoun): string {
  return `… ${count} more ${noun} …`;
}

const MARKER = /^… \d+ more (files|calls) …$/;

/** True for the marker entry of a shortened chain (never a repository path: paths do not start with `… `). */
export function isOmittedMarker(entry: string): boolean {
  return MARKER.test(entry);
}

/**
 * Ancestors of `index` through `parent` pointers, nearest last: the `count` files before `index` on its
 * path, or fewer when the path is shorter.
 */
export function collectAncestors(paths: readonly string[], parent: Int32Array, index: number, count: number): string[] {
  const found: string[] = [];
  let current = parent[index] ?? -1;
  while (current !== -1 && found.length < count) {
    found.push(paths[current] ?? '');
    current = parent[current] ?? -1;
  }
  return found.reverse();
}

/** A search from seeds with parent pointers, where `anchor[i]` is the node `SHOWN_PATH_END` hops from the seed on `i`'s path. */
export interface ParentWalk {
  distance: Int32Array;
  parent: Int32Array;
  anchor: Int32Array;
}

/** Records `next` reached from `current` at `distance` hops in a walk's parent and anchor arrays. */
export function linkParent(walk: ParentWalk, current: number, next: number, distance: number): void {
  walk.distance[next] = distance;
  walk.parent[next] = current;
  walk.anchor[next] = distance <= SHOWN_PATH_END ? next : (walk.anchor[current] ?? next);
}

/**
 * The files from the seed to the one `index` imports (`via[0]` the seed): all of them up to
 * `MAX_SHOWN_PATH`, else the first and last `SHOWN_PATH_END` around a marker. O(MAX_SHOWN_PATH) per call.
 */
export function getShownVia(paths: readonly string[], walk: ParentWalk, index: number): string[] {
  const distance = walk.distance[index] ?? 0;
  if (distance <= MAX_SHOWN_PATH) return collectAncestors(paths, walk.parent, index, distance);
  const head = collectAncestors(paths, walk.parent, walk.anchor[index] ?? index, SHOWN_PATH_END);
  const tail = collectAncestors(paths, walk.parent, index, SHOWN_PATH_END);
  return [...head, toOmittedMarker(distance - head.length - tail.length, 'files'), ...tail];
}

/** Empty walk arrays for `size` nodes: every distance, parent and anchor -1. */
export function createParentWalk(size: number): ParentWalk {
  return { distance: new Int32Array(size).fill(-1), parent: new Int32Array(size).fill(-1), anchor: new Int32Array(size).fill(-1) };
}

/** Marks `seed` as a start of the walk (distance 0, its own anchor). */
export function linkSeed(walk: ParentWalk, seed: number): void {
  walk.distance[seed] = 0;
  walk.anchor[seed] = seed;
}
