import { RULE_LIMITS } from '../../model/rules.js';

const compiled = new Map<string, RegExp | null>();
const MAX_CACHED = 1000;

function getRegex(source: string): RegExp | null {
  let regex = compiled.get(source);
  if (regex === undefined) {
    try {
      regex = source.length > RULE_LIMITS.regexSourceLength ? null : new RegExp(source, 'u');
    } catch {
      regex = null;
    }
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(source, regex);
  }
  return regex;
}

/**
 * The fact (a string) matches the pattern. Patterns are capped in length and pack validation refuses
 * nested quantifiers; the tested text is cut to a fixed length so a hostile fact cannot stall a run.
 */
export function matchesRegex(factValue: unknown, pattern: unknown): boolean {
  if (typeof factValue !== 'string' || typeof pattern !== 'string') return false;
  const regex = getRegex(pattern);
  if (regex === null) return false;
  return regex.test(factValue.slice(0, RULE_LIMITS.regexInputLength));
}
