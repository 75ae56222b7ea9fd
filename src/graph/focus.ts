import type { FileFacts } from '../model/facts.js';
import type { Resolution } from '../model/resolve.js';

export interface FocusInput {
  /** Every code file's facts: full, or imports, exports and lines alone for the files in `linkOnly`. */
  facts: ReadonlyMap<string, { facts: FileFacts }>;
  linkOnly: ReadonlySet<string>;
  /** Each file's imports as resolved, aligned with its facts' imports. */
  resolutions: ReadonlyMap<string, readonly Resolution[]>;
  /** The change's paths (both sides of a rename). */
  changed: readonly string[];
}

/**
 * The files among `linkOnly` whose full facts an analysis of the change reads: everything that imports a changed file,
 * however indirectly (impact, symbol impacts, reaching tests, route reach all walk importers, and the per-function
 * references of every file on the way), and everything a file with routes, mounts or middleware imports, however
 * indirectly (handlers, middleware and the constants of route paths are followed there). Files that may hold tests,
 * routes or mocks were never read for links alone (link-facts.ts), so their facts are full already.
 */
export function selectFocusedFiles(input: FocusInput): string[] {
  const importers = new Map<string, string[]>();
  const imported = new Map<string, string[]>();
  for (const [path, resolutions] of input.resolutions) {
    for (const resolution of resolutions) {
      const target = resolution.target;
      if (target === undefined || target === path) continue;
      push(importers, target, path);
      push(imported, path, target);
    }
  }
  const needed = new Set<string>();
  const visit = (start: Iterable<string>, next: ReadonlyMap<string, string[]>): void => {
    const queue = [...start];
    const seen = new Set<string>();
    while (queue.length > 0) {
      const path = queue.pop() as string;
      if (seen.has(path)) continue;
      seen.add(path);
      needed.add(path);
      for (const other of next.get(path) ?? []) if (!seen.has(other)) queue.push(other);
    }
  };
  visit(input.changed, importers);
  const routeFiles: string[] = [];
  for (const [path, { facts }] of input.facts) {
    if (input.linkOnly.has(path)) continue;
    if (facts.routes.length > 0 || facts.mounts.length > 0 || facts.uses.length > 0) routeFiles.push(path);
  }
  visit(routeFiles, imported);
  return [...needed].filter((path) => input.linkOnly.has(path)).sort();
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
