import type { FileFacts } from '../model/facts.js';
import type { Resolution } from '../model/resolve.js';
import { classifyRole } from './roles.js';

export interface FocusInput {
  /** Every code file's facts: full, or imports, exports and lines alone for the files in `linkOnly`. */
  facts: ReadonlyMap<string, { facts: FileFacts }>;
  linkOnly: ReadonlySet<string>;
  /** Who imports whom, from each file's imports as resolved. */
  links: LinkIndex;
  /** The change's paths (both sides of a rename). */
  changed: readonly string[];
}

/**
 * The files among `linkOnly` whose full facts an analysis of the change reads: everything that imports a changed file,
 * however indirectly (impact, symbol impacts, reaching tests, route reach all walk importers, and the per-function
 * references of every file on the way), and everything one of those with routes, mounts or middleware imports, however
 * indirectly (handlers, middleware, mounted routers and the constants of route paths are followed there). A route the
 * change reaches is registered in a file that imports it, and so is every mount above it: a file with routes that the
 * change does not reach is not followed (its routes are not the change's, nor are its route limitations, analyze.ts).
 * And what each reaching test imports directly: a helper may assert for it. Files that may hold routes or mocks, and
 * test cases outside a test file, were never read for links alone (link-facts.ts): their facts are full.
 */
export function selectFocusedFiles(input: FocusInput): string[] {
  const index = input.links;
  const needed = visit(input.changed, index.importers);
  const routeFiles: string[] = [];
  const testFiles: string[] = [];
  for (const path of needed) {
    if (classifyRole(path) === 'test') testFiles.push(path);
    const facts = input.facts.get(path)?.facts;
    if (facts === undefined || input.linkOnly.has(path)) continue;
    if (facts.routes.length > 0 || facts.mounts.length > 0 || facts.uses.length > 0) routeFiles.push(path);
  }
  for (const path of visit(routeFiles, index.imported)) needed.add(path);
  // What a reaching test imports may assert for it (a helper whose exported function calls `expect`): read for its links
  // alone, its asserting exports were unknown and the test was said to assert nothing.
  for (const path of testFiles) for (const imported of index.imported.get(path) ?? []) needed.add(imported);
  return [...needed].filter((path) => input.linkOnly.has(path)).sort();
}

/** Who imports whom among the files resolved so far; `set` replaces a file's imports (read again, in full). */
export interface LinkIndex {
  importers: Map<string, Set<string>>;
  imported: Map<string, Set<string>>;
  set(path: string, resolutions: readonly Resolution[]): void;
}

export function createLinkIndex(): LinkIndex {
  const importers = new Map<string, Set<string>>();
  const imported = new Map<string, Set<string>>();
  return {
    importers,
    imported,
    set(path, resolutions) {
      for (const target of imported.get(path) ?? []) importers.get(target)?.delete(path);
      const targets = new Set<string>();
      for (const resolution of resolutions) {
        // What Node runs beside a declaration the import lands on (Resolution.runtimeTarget) is imported too (build-modules.ts).
        for (const target of [resolution.target, resolution.runtimeTarget, ...(resolution.packageFiles ?? [])]) {
          if (target === undefined || target === path) continue;
          targets.add(target);
          const list = importers.get(target);
          if (list === undefined) importers.set(target, new Set([path]));
          else list.add(path);
        }
      }
      imported.set(path, targets);
    },
  };
}

/** The changed files and everything that imports one of them, however indirectly. */
export function listImporters(index: LinkIndex, changed: readonly string[]): string[] {
  return [...visit(changed, index.importers)];
}

function visit(start: Iterable<string>, next: ReadonlyMap<string, Iterable<string>>): Set<string> {
  const queue = [...start];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const path = queue.pop() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    for (const other of next.get(path) ?? []) if (!seen.has(other)) queue.push(other);
  }
  return seen;
}
