import type { KnowledgeGraph, KnowledgeStore } from '../build.js';
import { createGraphCache } from '../graph-cache.js';

/** Per file, the route registrations it holds: each route's path and the lines of its registration's arguments. */
type RegistrationsByFile = Map<string, { path: string; start: number; end: number }[]>;

const cache = createGraphCache<RegistrationsByFile>();

/** One pass over the graph's routes per graph (patches drop it), not one per changed file. */
function getRegistrationsByFile(graph: KnowledgeStore): RegistrationsByFile {
  const cached = cache.get(graph);
  if (cached !== undefined) return cached;
  const byFile: RegistrationsByFile = new Map();
  graph.forEachNode((_id, attributes) => {
    if (attributes.kind !== 'route') return;
    for (const registration of attributes.registrations ?? []) {
      const list = byFile.get(registration.file) ?? [];
      list.push({ path: attributes.path, start: registration.span.start, end: registration.span.end });
      byFile.set(registration.file, list);
    }
  });
  cache.set(graph, byFile);
  return byFile;
}

/**
 * The paths of the routes that `path` registers where the change is: a registration in `path` whose arguments (the
 * path, the middleware, an inline handler) span one of `changedLines` (head-side line numbers). Sorted, distinct.
 * A file that registers many routes changed in one handler names that handler's route alone.
 */
export function findChangedRoutes(kg: KnowledgeGraph, path: string, changedLines: readonly number[]): string[] {
  if (changedLines.length === 0) return [];
  const found = new Set<string>();
  for (const { path: route, start, end } of getRegistrationsByFile(kg.graph).get(path) ?? [])
    if (changedLines.some((line) => line >= start && line <= end)) found.add(route);
  return [...found].sort();
}
