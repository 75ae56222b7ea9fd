import { RULE_LIMITS } from '../../model/rules.js';
import { compileGlob } from '../../text/glob.js';

const matchers = new Map<string, ((path: string) => boolean) | null>();
const MAX_CACHED = 1000;

function getMatcher(glob: string): ((path: string) => boolean) | null {
  let matcher = matchers.get(glob);
  if (matcher === undefined) {
    // picomatch syntax with `dot`, matched on RE2 (src/text/glob.ts): a repository glob cannot stall a run.
    matcher = glob.length > RULE_LIMITS.globLength ? null : compileGlob(glob, { dot: true });
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
    if (matcher?.(factValue)) return true;
  }
  return false;
}
