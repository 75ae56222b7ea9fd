import { emptyFacts, type FileFacts } from '../../model/facts.js';
import { scanModuleLinks } from './link-scan.js';
import { mayHoldFrameworkFacts } from './framework-hints.js';
import { findNextRoutes } from './next-routes.js';

/**
 * A file's facts as far as its imports and exports go (every other list empty), from the fast scanner (link-scan.ts)
 * instead of swc and the full walk; undefined when the file needs the full walk: it may hold tests, routes or mocks,
 * it is a Next.js route, or the scanner declines it. The imports, exports and line count equal the full walk's.
 */
export function extractLinkFacts(path: string, text: string): FileFacts | undefined {
  if (mayHoldFrameworkFacts(path, text)) return undefined;
  const links = scanModuleLinks(path, text);
  if (links === undefined || findNextRoutes(path, links.exports).length > 0) return undefined;
  return { ...emptyFacts(links.lines), imports: links.imports, exports: links.exports };
}
