import { type FileFacts, isScriptFile, toLinkFacts } from '../../model/facts.js';
import { scanModuleLinks } from './link-scan/scan.js';
import { mayHoldFrameworkFacts } from './framework-hints.js';
import { findNextRoutes, mayBeNextRoute } from './next-routes.js';

/**
 * A file's facts as far as its imports and exports go (every other list empty), from the fast scanner (link-scan/scan.ts)
 * instead of swc and the full walk; undefined when the file needs the full walk: it may hold tests, routes or mocks,
 * it is a Next.js route, or the scanner declines it. The imports, exports and line count equal the full walk's.
 * `unlinked` when the text holds no key (`holdsKey`, link-keys.ts) and the file is no route: none of its imports can lead
 * to a file the change reaches.
 */
export function extractLinkFacts(path: string, text: string, holdsKey?: (text: string) => boolean): FileFacts | 'unlinked' | undefined {
  // Keys and the scanner know JavaScript's import syntax only: a Python or Go file always gets its full parse.
  if (!isScriptFile(path)) return undefined;
  if (mayHoldFrameworkFacts(path, text)) return undefined;
  if (holdsKey !== undefined && !mayBeNextRoute(path) && !holdsKey(text)) return 'unlinked';
  const links = scanModuleLinks(path, text);
  if (links === undefined || findNextRoutes(path, links.exports).length > 0) return undefined;
  // As the full walk says it (FileFacts.program): a `#!` program in a test folder is no test in either run.
  return toLinkFacts({ ...links, ...(text.startsWith('#!') ? { program: true } : {}) });
}
