import { RE2JS } from 're2js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { OwnerType } from '../model/graph.js';
import { escapeRegExp } from '../text/escape-regexp.js';

export interface CodeownersRule {
  pattern: string;
  /** Empty when the line unsets ownership. */
  owners: string[];
  line: number;
  /** Compiled on RE2: a repository's pattern matches in time linear in the path, whatever its wildcards. */
  matcher: RE2JS;
}

export interface CodeownersMatch {
  owners: string[];
  rule: CodeownersRule;
}

export interface Codeowners {
  path: string;
  rules: CodeownersRule[];
  diagnostics: Diagnostic[];
  /** The last matching rule decides; undefined when no rule matches. */
  matchPath(path: string): CodeownersMatch | undefined;
  /** Owners of a repository path; empty when no rule matches or the deciding rule has no owners. */
  ownersOf(path: string): string[];
}

/** Longer patterns are skipped: the compiled program, and so the work per path, grows with the pattern. */
export const MAX_CODEOWNERS_PATTERN_LENGTH = 1024;

const USER = /^@[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const TEAM = /^@[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function getOwnerType(owner: string): OwnerType | undefined {
  if (TEAM.test(owner)) return 'team';
  if (USER.test(owner)) return 'user';
  if (EMAIL.test(owner)) return 'email';
  return undefined;
}

/**
 * Compiles one CODEOWNERS pattern with GitHub's semantics, which differ from .gitignore in one
 * documented place: `docs/*` matches `docs/a.md` but not `docs/build/b.md` (the `ignore` package
 * would treat the matched directory as covering everything below it, so it is not exact here).
 * - a leading `/` anchors at the root; a pattern with no `/` except a trailing one matches at any depth;
 * - a trailing `/` means "everything below"; a last segment other than a bare `*` also covers paths below;
 * - `*` and `?` never cross `/`; `**` spans zero or more folders (a run of them is one); `\` escapes the next character;
 * - character ranges and `!` negation are not supported by GitHub and are taken literally.
 *
 * The pattern is a repository's input, so it runs on RE2: `a*a*a*a*b` or a run of `**` segments
 * would backtrack for minutes on a long path in a JavaScript RegExp.
 */
export function compileCodeownersPattern(pattern: string): RE2JS | undefined {
  if (pattern === '' || pattern.includes('***') || pattern.length > MAX_CODEOWNERS_PATTERN_LENGTH) return undefined;
  if (pattern === '/') return RE2JS.compile('^$');
  let segments = pattern.split('/');
  if (segments[0] === '') {
    segments = segments.slice(1);
  } else if (segments.length === 1 || (segments.length === 2 && segments[1] === '')) {
    if (segments[0] !== '**') segments = ['**', ...segments];
  }
  if (segments.length > 1 && segments[segments.length - 1] === '') segments[segments.length - 1] = '**';
  segments = segments.filter((segment, index) => segment !== '**' || segments[index - 1] !== '**');
  const last = segments.length - 1;
  let source = '^';
  let needSlash = false;
  segments.forEach((segment, index) => {
    if (segment === '**') {
      if (index === 0 && index === last) source += '.+';
      else if (index === 0) {
        source += '(?:.+/)?';
        needSlash = false;
      } else if (index === last) source += '/.*';
      else {
        source += '(?:/.+)?';
        needSlash = true;
      }
      return;
    }
    if (needSlash) source += '/';
    if (segment === '*') {
      source += '[^/]+';
      needSlash = true;
      return;
    }
    let escaped = false;
    for (const char of segment) {
      if (escaped) {
        source += escapeRegExp(char);
        escaped = false;
      } else if (char === '\\') escaped = true;
      else if (char === '*') source += '[^/]*';
      else if (char === '?') source += '[^/]';
      else source += escapeRegExp(char);
    }
    if (index === last) source += '(?:/.*)?';
    needSlash = true;
  });
  try {
    return RE2JS.compile(`${source}$`);
  } catch {
    return undefined;
  }
}

function splitTokens(line: string): string[] {
  const tokens: string[] = [];
  let current = '';
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index] ?? '';
    if (char === '\\' && index + 1 < line.length) {
      current += char + (line[index + 1] ?? '');
      index += 1;
    } else if (char === ' ' || char === '\t') {
      if (current !== '') tokens.push(current);
      current = '';
    } else current += char;
  }
  if (current !== '') tokens.push(current);
  return tokens;
}

/** Parses a CODEOWNERS file; lines with invalid syntax are skipped with a diagnostic, as GitHub skips them. */
export function parseCodeowners(path: string, text: string): Codeowners {
  const rules: CodeownersRule[] = [];
  const diagnostics: Diagnostic[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const tokens = splitTokens(trimmed);
    const commentAt = tokens.findIndex((token, position) => position > 0 && token.startsWith('#'));
    const kept = commentAt === -1 ? tokens : tokens.slice(0, commentAt);
    const [rawPattern, ...owners] = kept;
    if (rawPattern === undefined) return;
    const pattern = rawPattern.replace(/^\\#/, '#');
    const matcher = compileCodeownersPattern(rawPattern);
    if (matcher === undefined) {
      diagnostics.push({
        code: 'codeowners/invalid-pattern',
        severity: 'warn',
        message: `CODEOWNERS line ${line}: pattern "${pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern}" is not valid; the line is skipped.`,
        hint: `Use a gitignore-style pattern without "***", at most ${MAX_CODEOWNERS_PATTERN_LENGTH} characters long.`,
        location: { file: path, line },
      });
      return;
    }
    const invalid = owners.filter((owner) => getOwnerType(owner) === undefined);
    if (invalid.length > 0) {
      diagnostics.push({
        code: 'codeowners/invalid-owner',
        severity: 'warn',
        message: `CODEOWNERS line ${line}: ${invalid.map((owner) => `"${owner}"`).join(', ')} is not an @user, @org/team or email; the line is skipped.`,
        hint: 'Write owners as @user, @org/team or user@example.com, as GitHub requires.',
        location: { file: path, line },
      });
      return;
    }
    rules.push({ pattern, owners, line, matcher });
  });
  const matchPath = (target: string): CodeownersMatch | undefined => {
    for (let index = rules.length - 1; index >= 0; index -= 1) {
      const rule = rules[index];
      if (rule?.matcher.test(target)) return { owners: rule.owners, rule };
    }
    return undefined;
  };
  return {
    path,
    rules,
    diagnostics,
    matchPath,
    ownersOf: (target) => matchPath(target)?.owners ?? [],
  };
}
