import picomatch from 'picomatch';
import { RE2JS } from 're2js';

/**
 * Globs a repository gives us (config `analysis.ignore`, contracts, memory and session scopes, workspace
 * patterns, rule packs) with picomatch's syntax and meaning, matched on RE2: picomatch's own RegExp for
 * `a*a*a*a*a*a*a*b` backtracks for minutes on a 40-character path, and a repository's glob is its code.
 */
export interface GlobOptions {
  /** Match names starting with `.` (picomatch `dot`). */
  dot?: boolean;
  nocase?: boolean;
}

/** Longest glob compiled; longer ones never match. */
export const MAX_GLOB_LENGTH = 500;

/**
 * picomatch's guards against `.` and `..` segments and empty names. They are the only lookarounds in its
 * output for plain globs, and repository-relative paths never hold what they exclude.
 */
const PATH_GUARDS = ['(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{1,2}(?:\\/|$))', '(?!\\.{0,1}(?:\\/|$))', '(?=.)'];
const LOOKAROUND = /\(\?<?[=!]/;

/** The RE2 source of one glob (a leading `!` is the caller's), or an error saying why it cannot run on RE2. */
export function toGlobSource(glob: string, options: GlobOptions = {}): { source: string } | { problem: string } {
  if (glob.length > MAX_GLOB_LENGTH) return { problem: `is longer than ${MAX_GLOB_LENGTH} characters` };
  let source: string;
  try {
    // Always compiled with `dot`: picomatch expresses "no dot names" as lookaheads RE2 lacks; compileGlob checks it per segment.
    source = picomatch.makeRe(glob, { dot: true, nocase: options.nocase === true }).source;
  } catch {
    return { problem: 'is not a valid glob' };
  }
  for (const guard of PATH_GUARDS) source = source.split(guard).join('');
  if (LOOKAROUND.test(source)) return { problem: 'uses a negated extglob !(…), which is not supported: list what to exclude separately' };
  return { source: options.nocase === true ? `(?i)${source}` : source };
}

/**
 * One glob as a predicate: picomatch semantics (a leading `!` negates), RE2 matching. Null when the glob
 * cannot run on RE2 (too long, a negated extglob, invalid).
 */
export function compileGlob(glob: string, options: GlobOptions = {}): ((path: string) => boolean) | null {
  const lazy = createLazyGlob(glob, options);
  return lazy.getRegex() === null ? null : lazy.matcher;
}

/**
 * A glob's matcher whose pattern is translated, and its RE2 automaton built, on the first path that passes its literal
 * prefix (or when `getRegex` is asked): a monorepo's runner configs give hundreds of globs, each for its own package,
 * and a run asks about the paths of a few. A glob that does not translate or that RE2 refuses matches nothing, a
 * negated one included.
 */
function createLazyGlob(glob: string, options: GlobOptions): { matcher: (path: string) => boolean; getRegex: () => RE2JS | null } {
  const negated = glob.startsWith('!') && !glob.startsWith('!(');
  const body = negated ? glob.slice(1) : glob;
  let regex: RE2JS | null | undefined;
  const getRegex = (): RE2JS | null => {
    if (regex === undefined) {
      const compiled = toGlobSource(body, options);
      try {
        regex = 'problem' in compiled ? null : RE2JS.compile(compiled.source);
      } catch {
        regex = null;
      }
    }
    return regex;
  };
  const hidesDotNames = options.dot !== true && !isDotSafe(body);
  // A path without the glob's literal folder prefix (`docs/adr/` of `docs/adr/**/*.md`) cannot match: most paths of a
  // large repository are turned away by a string compare instead of a run of the RE2 automaton (JavaScript, slow).
  const prefix = literalPrefix(body);
  // The folder itself matches too (`src/**` matches `src`), so the prefix is compared with the path plus a `/`.
  const folded = options.nocase === true ? prefix.toLowerCase() : prefix;
  const hasPrefix =
    prefix === ''
      ? () => true
      : (path: string) => {
          const head = path.length < prefix.length ? `${path}/` : path.slice(0, prefix.length);
          return (options.nocase === true ? head.toLowerCase() : head) === folded;
        };
  // The same for a literal part anywhere (`/dist/` of `**/dist/**`, `.min.js` of `**/*.min.js`): the classifier globs
  // start with `**`, and a warm preflight asked RE2 about every scored file (34 ms of 0.9 s on outline).
  const needle = requiredLiteral(body);
  const foldedNeedle = options.nocase === true ? needle.toLowerCase() : needle;
  const hasNeedle =
    needle === '' ? () => true : (path: string) => `/${options.nocase === true ? path.toLowerCase() : path}/`.includes(foldedNeedle);
  // A glob that cannot run was left out whole: neither its own text nor, negated, everything else matches. Only those
  // two answers need the pattern before a path passes the prefix.
  const isMatch = (path: string): boolean =>
    (path === body && getRegex() !== null) ||
    (hasPrefix(path) && hasNeedle(path) && getRegex()?.test(path) === true && !(hidesDotNames && hasDotSegment(path)));
  const matcher = negated ? (path: string) => getRegex() !== null && !isMatch(path) : isMatch;
  return { matcher, getRegex };
}

/** The glob's leading folders that hold no glob syntax at all (`docs/adr/` of `docs/adr/**`), up to the last `/` before any. */
function literalPrefix(glob: string): string {
  const special = glob.search(/[*?[\]{}()!+@\\]/);
  const literal = special === -1 ? glob : glob.slice(0, special);
  // `./` and `../` segments are normalised by picomatch, not by a string compare: no prefix then.
  if (/(^|\/)\.{1,2}(\/|$)/.test(literal)) return '';
  return literal.slice(0, literal.lastIndexOf('/') + 1);
}

/**
 * The longest run of literal text a path must hold, seen in `/path/`, for the glob to match: '' when the glob uses
 * anything but `*`, `?` and plain names (braces, classes, extglobs and escapes make a run optional or not literal).
 * The path is padded with `/` since `**\/` and `/**` match nothing at either end (`**\/dist/**` matches `dist/a.js`).
 */
function requiredLiteral(glob: string): string {
  if (/[[\]{}()!+@\\]/.test(glob) || /(^|\/)\.{1,2}(\/|$)/.test(glob)) return '';
  let longest = '';
  for (const run of glob.split(/[*?]+/)) if (run.length > longest.length) longest = run;
  return longest;
}

/** Without `dot`, a wildcard never matches a name starting with `.`; a glob that names dot segments itself (`.github/**`) is checked whole. */
function isDotSafe(glob: string): boolean {
  return glob.split('/').some((segment) => segment.startsWith('.'));
}

function hasDotSegment(path: string): boolean {
  return path.split('/').some((segment) => segment.startsWith('.'));
}

/** Any of the globs matches (picomatch's list semantics); globs that cannot run on RE2 never match. */
export function compileGlobs(globs: readonly string[], options: GlobOptions = {}): (path: string) => boolean {
  const matchers = globs.map((glob) => createLazyGlob(glob, options).matcher);
  if (matchers.length === 0) return () => false;
  if (matchers.length === 1) return matchers[0] ?? (() => false);
  return (path) => matchers.some((matcher) => matcher(path));
}
