import picomatch from 'picomatch';
import { RULE_LIMITS } from '../../model/rules.js';

const matchers = new Map<string, (path: string) => boolean>();
const MAX_CACHED = 1000;

function getMatcher(glob: string): ((path: string) => boolean) | undefined {
  if (glob.length > RULE_LIMITS.globLength) return undefined;
  let matcher = matchers.get(glob);
  if (matcher === undefined) {
    matcher = picomatch(glob, { dot: true });
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
    if (matcher !== undefined && matcher(factValue)) return true;
  }
  return false;
}
