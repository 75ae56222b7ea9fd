import type { KnowledgeGraph } from '../build.js';

/**
 * The paths of the routes that `path` registers where the change is: a registration in `path` whose arguments (the
 * path, the middleware, an inline handler) span one of `changedLines` (head-side line numbers). Sorted, distinct.
 * A file that registers many routes changed in one handler names that handler's route alone.
 */
export function findChangedRoutes(kg: KnowledgeGraph, path: string, changedLines: readonly number[]): string[] {
  if (changedLines.length === 0) return [];
  const found = new Set<string>();
  kg.graph.forEachNode((_id, attributes) => {
    if (attributes.kind !== 'route') return;
    for (const registration of attributes.registrations ?? []) {
      if (registration.file !== path) continue;
      const { start, end } = registration.span;
      if (changedLines.some((line) => line >= start && line <= end)) found.add(attributes.path);
    }
  });
  return [...found].sort();
}
