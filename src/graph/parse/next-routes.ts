import type { ExportFact, RouteFact } from '../../model/facts.js';

const routeMethods = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const pageExtensions = /\.(tsx|jsx|ts|js)$/;
const scriptExtensions = /\.(tsx|jsx|ts|js|mts|mjs|cts|cjs)$/;
const notRoutable = /(\.test|\.spec|\.stories|\.d)\.[a-z]+$|(^|\/)__tests__\//;
const specialPages = new Set(['_app', '_document', '_error', '_middleware']);
/** `pages/` or `app/` at the root, under `src/`, or inside a monorepo package (`apps/web/`). */
const nextRoot = /^(?:(?:apps|packages)\/[^/]+\/)?(?:src\/)?(pages|app)\/(.*)$/;

/** Whether a file's path may make it a Next.js route (findNextRoutes decides with its exports). */
export function mayBeNextRoute(path: string): boolean {
  return nextRoot.test(path) && !notRoutable.test(path);
}

/**
 * Next.js routes implied by a file's path. Dynamic segments: `[id]` → `:id`, `[...slug]` →
 * `*slug`, `[[...slug]]` → `*slug?`; route groups `(group)`, parallel slots `@slot` and
 * interception markers `(.)` are dropped; `index` is the folder itself.
 */
export function findNextRoutes(path: string, exports: ExportFact[]): RouteFact[] {
  const match = nextRoot.exec(path);
  if (match === null || notRoutable.test(path)) return [];
  const [, root, rest = ''] = match;
  const defaultLine = exports.find((fact) => fact.name === 'default')?.span.start;
  if (root === 'pages') {
    if (!scriptExtensions.test(rest)) return [];
    const segments = rest.replace(scriptExtensions, '').split('/');
    const last = segments[segments.length - 1] ?? '';
    if (specialPages.has(last)) return [];
    if (segments[0] === 'api') {
      return [{ method: 'ALL', path: toRoutePath(segments), framework: 'nextjs-api', kind: 'api', line: defaultLine ?? 1 }];
    }
    if (!pageExtensions.test(rest)) return [];
    return [{ method: 'PAGE', path: toRoutePath(segments), framework: 'nextjs-page', kind: 'ui', line: defaultLine ?? 1 }];
  }
  const segments = rest.split('/');
  const file = segments.pop() ?? '';
  if (segments.some((segment) => segment.startsWith('_'))) return [];
  const routePath = toRoutePath(segments);
  if (/^route\.(ts|js|tsx|jsx|mts|mjs)$/.test(file)) {
    const routes: RouteFact[] = [];
    for (const fact of exports) {
      if (!routeMethods.has(fact.name) || fact.typeOnly) continue;
      routes.push({
        method: fact.name,
        path: routePath,
        framework: 'nextjs-route',
        kind: 'api',
        line: fact.span.start,
        handler: fact.name,
      });
    }
    return routes;
  }
  if (/^page\.(tsx|jsx|ts|js)$/.test(file)) {
    return [{ method: 'PAGE', path: routePath, framework: 'nextjs-page', kind: 'ui', line: defaultLine ?? 1 }];
  }
  return [];
}

function toRoutePath(segments: string[]): string {
  const parts: string[] = [];
  for (const [index, segment] of segments.entries()) {
    if (segment === '' || segment.startsWith('@')) continue;
    if (/^\([^.][^)]*\)$/.test(segment)) continue;
    if (segment === 'index' && index === segments.length - 1) continue;
    parts.push(toRouteSegment(segment.replace(/^(\(\.{1,3}\))+/, '')));
  }
  return `/${parts.join('/')}`;
}

function toRouteSegment(segment: string): string {
  const optionalCatchAll = /^\[\[\.\.\.(.+)\]\]$/.exec(segment);
  if (optionalCatchAll !== null) return `*${optionalCatchAll[1] ?? ''}?`;
  const catchAll = /^\[\.\.\.(.+)\]$/.exec(segment);
  if (catchAll !== null) return `*${catchAll[1] ?? ''}`;
  const dynamic = /^\[(.+)\]$/.exec(segment);
  if (dynamic !== null) return `:${dynamic[1] ?? ''}`;
  return segment;
}
