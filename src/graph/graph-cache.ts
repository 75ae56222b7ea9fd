/** Every per-graph cache of a derived index, so a patch can empty them for its graph. */
const caches: WeakMap<object, unknown>[] = [];

/**
 * A cache of an index derived from a whole graph. Its entry for a graph is dropped when the graph is patched in place
 * (patch.ts): node and edge counts alone cannot tell a patched graph from the one the index was built on.
 */
export function createGraphCache<T>(): WeakMap<object, T> {
  const cache = new WeakMap<object, T>();
  caches.push(cache);
  return cache;
}

export function forgetGraphCaches(graph: object): void {
  for (const cache of caches) cache.delete(graph);
}
