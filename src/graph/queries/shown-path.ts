/**
 * A chain (the `via` files of an impacted file or a reaching test, the steps and files of a route) of
 * more than `MAX_SHOWN_PATH` entries is shown shortened: its first and last `SHOWN_PATH_END` entries
 * around one marker entry that says how many were left out (always two or more). Every file of a
 * 50,000-file import chain carrying its whole chain made the report grow with the square of the chain;
 * capped, it grows linearly.
 */
export const SHOWN_PATH_END = 16;
export const MAX_SHOWN_PATH = 2 * SHOWN_PATH_END + 1;

/** True when a chain of `length` entries is shown whole. */
export function isShownWhole(length: number): boolean {
  return length <= MAX_SHOWN_PATH;
}

export type OmittedNoun = 'files' | 'calls';

/** The entry that stands for `count` entries left out of the middle of a shortened chain. */
export function toOmittedMarker(count: number, noun: OmittedNoun): string {
  return `… ${count} more ${count === 1 ? noun.slice(0, -1) : noun} …`;
}

const MARKER = /^… \d+ more (files?|calls?) …$/;

/** True for the marker entry of a shortened chain (never a repository path: paths do not start with `… `). */
export function isOmittedMarker(entry: string): boolean {
  return MARKER.test(entry);
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

/** Writes the `count` files before `from` on its path into `via`, ending at `end` (exclusive), nearest last. */
function fillAncestors(via: string[], paths: readonly string[], parent: Int32Array, from: number, end: number, count: number): void {
  let current = parent[from] ?? -1;
  for (let slot = end - 1; slot >= end - count && current !== -1; slot -= 1) {
    via[slot] = paths[current] ?? '';
    current = parent[current] ?? -1;
  }
}

/**
 * The files from the seed to the one `index` imports (`via[0]` the seed): all of them up to
 * `MAX_SHOWN_PATH`, else the first and last `SHOWN_PATH_END` around a marker. O(MAX_SHOWN_PATH) per call,
 * one array allocated.
 */
export function getShownVia(paths: readonly string[], walk: ParentWalk, index: number): string[] {
  const distance = walk.distance[index] ?? 0;
  if (distance <= 0) return [];
  if (isShownWhole(distance)) {
    const via = new Array<string>(distance);
    fillAncestors(via, paths, walk.parent, index, distance, distance);
    return via;
  }
  const via = new Array<string>(MAX_SHOWN_PATH);
  fillAncestors(via, paths, walk.parent, walk.anchor[index] ?? index, SHOWN_PATH_END, SHOWN_PATH_END);
  via[SHOWN_PATH_END] = toOmittedMarker(distance - 2 * SHOWN_PATH_END, 'files');
  fillAncestors(via, paths, walk.parent, index, MAX_SHOWN_PATH, SHOWN_PATH_END);
  return via;
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
