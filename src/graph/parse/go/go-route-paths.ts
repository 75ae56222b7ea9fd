import type { PathPart } from '../../../model/facts.js';
import { joinRoutePaths } from '../route-calls.js';

const HTTP_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE']);

/**
 * A Go route pattern in the form the graph writes parameters (`:id`, `*rest`): chi's and net/http's `{id}` and
 * `{id:[0-9]+}` become `:id`, net/http's `{rest...}` becomes `*rest` and its `{$}` end anchor is dropped; gin's and
 * echo's `:id` and `*rest` stay.
 */
export function toRoutePattern(pattern: string): string {
  let result = '';
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index];
    if (char !== '{') {
      result += char;
      index++;
      continue;
    }
    let depth = 1;
    let end = index + 1;
    while (end < pattern.length && depth > 0) {
      if (pattern[end] === '{') depth++;
      else if (pattern[end] === '}') depth--;
      end++;
    }
    const inner = pattern.slice(index + 1, depth === 0 ? end - 1 : end);
    const name = inner.split(':')[0]?.trim() ?? '';
    if (name === '$') result += '';
    else if (name.endsWith('...')) result += `*${name.slice(0, -3)}`;
    else result += `:${name}`;
    index = end;
  }
  return result;
}

/** net/http's Go 1.22 pattern: `GET /items/{id}` → GET and the path; `example.com/x` → the path; else all methods. */
export function splitMethodPattern(pattern: string): { method: string; path: string } {
  const trimmed = pattern.trim();
  const space = trimmed.search(/\s/);
  let method = 'ALL';
  let rest = trimmed;
  if (space > 0 && HTTP_METHODS.has(trimmed.slice(0, space))) {
    method = trimmed.slice(0, space);
    rest = trimmed.slice(space).trim();
  }
  const slash = rest.indexOf('/');
  return { method, path: slash > 0 ? rest.slice(slash) : rest };
}

export function renderParts(parts: readonly PathPart[]): string {
  return parts.map((part) => ('text' in part ? part.text : `{?${part.ref}}`)).join('');
}

export function isStatic(parts: readonly PathPart[]): boolean {
  return parts.every((part) => 'text' in part);
}

/** A prefix and a path joined as the router joins them; a path alone stays as declared (`/` when empty). */
export function joinPattern(prefix: readonly PathPart[], path: readonly PathPart[]): string {
  const tail = renderParts(path);
  if (prefix.length === 0) return tail === '' ? '/' : tail;
  return joinRoutePaths(renderParts(prefix), tail);
}
