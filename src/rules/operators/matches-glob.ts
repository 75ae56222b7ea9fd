import picomatch from 'picomatch';
import { RE2JS } from 're2js';
import { RULE_LIMITS } from '../../model/rules.js';

/**
 * picomatch's guards against `.` and `..` segments and empty names (with `dot: true`). They are the only
 * lookarounds in its output for plain globs, and repository-relative paths never hold what they exclude.
 */
const PATH_GUARDS = ['(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{1,2}(?:\\/|$))', '(?!\\.{0,1}(?:\\/|$))', '(?=.)'];
const LOOKAROUND = /\(\?<?[=!]/;

const matchers = new Map<string, ((path: string) => boolean) | null>();
const MAX_CACHED = 1000;

/**
 * Compiles a glob with picomatch's syntax and meaning (`dot: true`; a leading `!` negates) but matches it
 * on RE2: picomatch's RegExp for `a*a*a*a*a*a*a*b` backtracks for minutes on a 40-character name.
 * Null when the glob is too long or needs a lookaround RE2 lacks (a negated extglob `!(…)`).
 */
export function compileGlob(glob: string): ((path: string) => boolean) | null {
  if (glob.length > RULE_LIMITS.globLength) return null;
  const negated = glob.startsWith('!') && !glob.startsWith('!(');
  const body = negated ? glob.slice(1) : glob;
  try {
    let source = picomatch.makeRe(body, { dot: true }).source;
    for (const guard of PATH_GUARDS) source = source.split(guard).join('');
    if (LOOKAROUND.test(source)) return null;
    const regex = RE2JS.compile(source);
    return (path) => (path === body || regex.test(path)) !== negated;
  } catch {
    return null;
  }
}

function getMatcher(glob: string): ((path: string) => boolean) | null {
  let matcher = matchers.get(glob);
  if (matcher === undefined) {
    matcher = compileGlob(glob);
    if (matchers.size >= MAX_CACHED) matchers.clear();
    matchers.set(glob, matcher);
  }
  return matcher;
}

/** The fact (a path) matches the glob, or any of the globs when the value is a list. */
export function matchesGlob(factValue: unknown, globs: unknown): boolean {
  if (typeof factValue !== 'string') return false;
  const list = Array.isArray(globs) ? globs : [globs];
  for (const glob of list) {
    if (typeof glob !== 'string') continue;
    const matcher = getMatcher(glob);
    if (matcher !== null && matcher(factValue)) return true;
  }
  return false;
}
