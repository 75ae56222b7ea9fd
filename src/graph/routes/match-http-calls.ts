import type { HttpCallFact } from '../../model/facts.js';
import { escapeRegExp } from '../../text/escape-regexp.js';

/** What a route offers a call to match: its method and full path (`:id` parameters, `*rest` catch-alls). */
export interface MatchableRoute {
  id: string;
  method: string;
  path: string;
}

type RouteSegment =
  | { kind: 'text'; text: string }
  | { kind: 'pattern'; pattern: RegExp }
  | { kind: 'param' }
  | { kind: 'prefix' }
  | { kind: 'rest'; optional: boolean };

interface CompiledRoute {
  route: MatchableRoute;
  segments: RouteSegment[];
  hasRest: boolean;
}

/** Hosts a call may name and still be a call to this repository's own routes. */
const LOCAL_HOSTS: ReadonlySet<string> = new Set(['', 'localhost', '127.0.0.1', '0.0.0.0', '[::1]']);
const PLACEHOLDER = /\{[^{}/]*\}/g;

/**
 * The routes an HTTP call reaches: the method equal (a `*` call, an `ALL` route and `HEAD` to a `GET` route match too),
 * and the path segment by segment, a trailing slash ignored: equal text, a route parameter (`:id`) any segment, a call
 * placeholder (`{id}`) a parameter or any segment, a catch-all (`*rest`) the remaining segments. A call without the
 * route's prefix does not match. A catch-all route is matched only when no other route is, a route that is nothing but
 * a catch-all (an SPA fallback) never, and a call naming a host other than a local one never.
 */
export function createHttpCallMatcher(routes: readonly MatchableRoute[]): (call: HttpCallFact) => MatchableRoute[] {
  const byHead = new Map<string, CompiledRoute[]>();
  const openHead: CompiledRoute[] = [];
  for (const route of routes) {
    const compiled = compileRoute(route);
    if (compiled === undefined) continue;
    const head = compiled.segments[0];
    if (head?.kind === 'text') byHead.set(head.text, [...(byHead.get(head.text) ?? []), compiled]);
    else openHead.push(compiled);
  }
  return (call) => {
    if (!LOCAL_HOSTS.has(call.host ?? '')) return [];
    const segments = splitPath(call.path);
    const head = segments[0];
    const candidates =
      head === undefined || hasPlaceholder(head)
        ? [...byHead.values()].flat().concat(openHead)
        : [...(byHead.get(head) ?? []), ...openHead];
    const matched = candidates.filter(
      (compiled) => isMethodMatch(call.method, compiled.route.method) && isPathMatch(segments, compiled.segments),
    );
    const exact = matched.filter((compiled) => !compiled.hasRest);
    return (exact.length > 0 ? exact : matched).map((compiled) => compiled.route);
  };
}

/** Whether one call matches one route (the rule of `createHttpCallMatcher`, without its preference for exact routes). */
export function isHttpCallMatch(call: Pick<HttpCallFact, 'method' | 'path' | 'host'>, route: Omit<MatchableRoute, 'id'>): boolean {
  const compiled = compileRoute({ id: '', ...route });
  return (
    compiled !== undefined &&
    LOCAL_HOSTS.has(call.host ?? '') &&
    isMethodMatch(call.method, route.method) &&
    isPathMatch(splitPath(call.path), compiled.segments)
  );
}

function isMethodMatch(call: string, route: string): boolean {
  if (route === 'PAGE') return false;
  return call === '*' || route === 'ALL' || call === route || (call === 'HEAD' && route === 'GET');
}

function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function hasPlaceholder(segment: string): boolean {
  return segment.includes('{');
}

const URI_VERSION = /^v\d+$/;

/** Text segments a route must name after an unresolved prefix for a call to reach it through that prefix. */
const MIN_TEXT_AFTER_PREFIX = 2;

/**
 * Undefined for a route no call can be told to reach: an unresolved segment (`{?API}`) anywhere but at the head, or at
 * the head of a route that names fewer than two text segments after it; a catch-all alone. An unresolved head (a
 * global prefix read from configuration, `app.setGlobalPrefix(config.get('prefix'))`) stands for one segment, and a URI
 * version after it (`api/v1`: NestJS's default version, added where the controller names none).
 */
function compileRoute(route: MatchableRoute): CompiledRoute | undefined {
  const segments: RouteSegment[] = [];
  const parts = splitPath(route.path);
  for (const [index, segment] of parts.entries()) {
    if (segment.startsWith('{?')) {
      const named = parts.slice(index + 1).filter((part) => !part.startsWith(':') && !/[{*:]/.test(part)).length;
      if (index > 0 || named < MIN_TEXT_AFTER_PREFIX) return undefined;
      segments.push({ kind: 'prefix' });
      continue;
    }
    if (segment.startsWith(':')) segments.push({ kind: 'param' });
    else if (segment.startsWith('*')) segments.push({ kind: 'rest', optional: segment.endsWith('?') });
    else if (segment.includes(':') || segment.includes('*')) segments.push({ kind: 'pattern', pattern: toSegmentPattern(segment) });
    else segments.push({ kind: 'text', text: segment });
  }
  const hasRest = segments.some((segment) => segment.kind === 'rest');
  if (hasRest && segments[0]?.kind === 'rest') return undefined;
  return { route, segments, hasRest };
}

/** A route segment with a parameter inside (`:from-:to`, `:id.json`, `file*`): parameters as any text. */
function toSegmentPattern(segment: string): RegExp {
  const source = segment
    .split(/(:\w+\??|\*)/)
    .map((piece, index) => (index % 2 === 1 ? '[^/]*' : escapeRegExp(piece)))
    .join('');
  return new RegExp(`^${source}$`);
}

function isPathMatch(call: readonly string[], route: readonly RouteSegment[]): boolean {
  if (route[0]?.kind === 'prefix') {
    const rest = route.slice(1);
    if (call.length > 1 && isPathMatch(call.slice(1), rest)) return true;
    // NestJS URI versioning puts `v1` after the global prefix when the controller does not name its version.
    return call.length > 2 && URI_VERSION.test(call[1] ?? '') && isPathMatch(call.slice(2), rest);
  }
  let index = 0;
  for (const segment of route) {
    if (segment.kind === 'rest') return segment.optional || index < call.length;
    const text = call[index];
    if (text === undefined || !isSegmentMatch(text, segment)) return false;
    index++;
  }
  return index === call.length;
}

function isSegmentMatch(call: string, route: RouteSegment): boolean {
  if (route.kind === 'param') return true;
  if (hasPlaceholder(call)) {
    if (route.kind === 'pattern') return true;
    if (route.kind !== 'text') return false;
    const source = call
      .split(PLACEHOLDER)
      .map((piece) => escapeRegExp(piece))
      .join('[^/]*');
    return new RegExp(`^${source}$`).test(route.text);
  }
  if (route.kind === 'pattern') return route.pattern.test(call);
  return route.kind === 'text' && route.text === call;
}
