import type { Diagnostic } from '../../model/diagnostic.js';
import { RULE_LIMITS } from '../../model/rules.js';
import type { OperatorEvaluator } from './index.js';
import { getCompiledPattern } from './matches-regex.js';

/** `matchesRegex` for one evaluation run of repository packs, charged to a budget that reports what it cut. */
export interface RegexBudget {
  matchesRegex: OperatorEvaluator;
  /** Work charged so far: tested characters × program instructions, summed over every test. */
  getSpent(): number;
  /** Limitations for the run's report: tests skipped once the budget was spent, values cut to the input limit. */
  getDiagnostics(): Diagnostic[];
}

/**
 * RE2 is linear in the input, but its constant grows with the compiled program, and a pack can test
 * thousands of changed lines with many rules: measured, a 24-instruction pattern that defeats RE2's
 * DFA costs about 0.3 ms on a 60-character line. The budget bounds the whole run. Once it is spent,
 * further tests count as not matching, and the diagnostics say so.
 */
export function createRegexBudget(limit: number = RULE_LIMITS.regexWorkPerRun): RegexBudget {
  let spent = 0;
  let skipped = 0;
  let cut = 0;
  const skippedPatterns = new Set<string>();
  const matchesRegex: OperatorEvaluator = (factValue, pattern) => {
    if (typeof factValue !== 'string' || typeof pattern !== 'string') return false;
    const compiled = getCompiledPattern(pattern);
    if (compiled === null) return false;
    let input = factValue;
    if (input.length > RULE_LIMITS.regexInputLength) {
      input = input.slice(0, RULE_LIMITS.regexInputLength);
      cut += 1;
    }
    const cost = (input.length + 1) * compiled.programSize;
    if (spent + cost > limit) {
      skipped += 1;
      skippedPatterns.add(pattern);
      return false;
    }
    spent += cost;
    return compiled.regex.test(input);
  };
  const getDiagnostics = (): Diagnostic[] => {
    const diagnostics: Diagnostic[] = [];
    if (skipped > 0) {
      const patterns = [...skippedPatterns]
        .sort()
        .slice(0, 3)
        .map((pattern) => JSON.stringify(pattern.slice(0, 60)));
      diagnostics.push({
        code: 'rules/regex-budget',
        severity: 'warn',
        message:
          `repository patterns spent this run's regex budget (${limit} units of tested characters × pattern instructions); ` +
          `${skipped} later test${skipped === 1 ? '' : 's'} counted as not matching (${patterns.join(', ')}${skippedPatterns.size > 3 ? ', …' : ''}), so pattern findings may be missing`,
        hint: 'narrow the repository patterns (smaller counted repetitions such as {1,20}) or put a cheaper condition (matchesGlob, equal) before matchesRegex; see docs/rule-packs.md',
      });
    }
    if (cut > 0) {
      diagnostics.push({
        code: 'rules/regex-input-cut',
        severity: 'info',
        message: `${cut} value${cut === 1 ? ' was' : 's were'} longer than ${RULE_LIMITS.regexInputLength} characters; repository patterns tested only the first ${RULE_LIMITS.regexInputLength}`,
      });
    }
    return diagnostics;
  };
  return { matchesRegex, getSpent: () => spent, getDiagnostics };
}
