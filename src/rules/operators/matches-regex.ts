import { RE2JS } from 're2js';
import { RULE_LIMITS } from '../../model/rules.js';

/** A pattern compiled on RE2JS, with its program size (the engine's cost per tested character). */
export interface CompiledPattern {
  regex: RE2JS;
  programSize: number;
}

const compiled = new Map<string, CompiledPattern | null>();
const MAX_CACHED = 1000;

function compilePattern(source: string): CompiledPattern | null {
  if (source.length > RULE_LIMITS.regexSourceLength) return null;
  try {
    const regex = RE2JS.compile(source);
    const programSize = regex.programSize();
    return programSize > RULE_LIMITS.regexProgramSize ? null : { regex, programSize };
  } catch {
    return null;
  }
}

/**
 * The pattern compiled on RE2 (RE2 syntax, no flags; `(?i)` inside the pattern for case-insensitive), or
 * null when pack validation would refuse it: too long, not RE2 syntax, or too large a program.
 */
export function getCompiledPattern(source: string): CompiledPattern | null {
  let pattern = compiled.get(source);
  if (pattern === undefined) {
    pattern = compilePattern(source);
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(source, pattern);
  }
  return pattern;
}

/**
 * The fact (a string) matches the pattern somewhere (unanchored, like RegExp#test). Patterns run on RE2,
 * whose matching time is linear in the input whatever the pattern, so a repository's pattern cannot
 * backtrack catastrophically; the tested text is cut to a fixed length.
 */
export function matchesRegex(factValue: unknown, pattern: unknown): boolean {
  if (typeof factValue !== 'string' || typeof pattern !== 'string') return false;
  const compiledPattern = getCompiledPattern(pattern);
  if (compiledPattern === null) return false;
  return compiledPattern.regex.test(factValue.slice(0, RULE_LIMITS.regexInputLength));
}
