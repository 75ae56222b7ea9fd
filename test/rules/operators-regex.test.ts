import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RULE_LIMITS } from '../../src/model/rules.js';
import { getCompiledPattern, matchesRegex } from '../../src/rules/operators/matches-regex.js';
import { createRegexBudget } from '../../src/rules/operators/regex-budget.js';

/** Generous: on a backtracking RegExp each of these runs for minutes (measured figures in docs/rule-packs.md). */
const FAST_MS = 1000;

function time<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

describe('matchesRegex on RE2', () => {
  test('catastrophic patterns for a backtracking engine finish at once, with the right answer', () => {
    const cases: [string, string, boolean][] = [
      ['(a|a)*!x', 'a'.repeat(60), false],
      ['(a|a)*!x', `${'a'.repeat(60)}!x`, true],
      ['^\\w*\\w*\\w*\\w*\\w*\\w*\\w*\\w*x$', `${'a'.repeat(60)}!`, false],
      ['^\\w*\\w*\\w*\\w*\\w*\\w*\\w*\\w*x$', `${'a'.repeat(60)}x`, true],
      ['(a+)+$', `${'a'.repeat(RULE_LIMITS.regexInputLength - 1)}!`, false],
      ['([a-z]+)+!', 'a'.repeat(RULE_LIMITS.regexInputLength), false],
    ];
    for (const [pattern, text, expected] of cases) {
      const { value, ms } = time(() => matchesRegex(text, pattern));
      assert.equal(value, expected, pattern);
      assert.ok(ms < FAST_MS, `${pattern} took ${ms.toFixed(0)} ms`);
    }
  });

  test('keeps what a JavaScript author expects: unanchored search, classes, groups, named groups', () => {
    assert.equal(matchesRegex('src/api/users.ts', '^src/(api|routes)/'), true);
    assert.equal(matchesRegex('const token = "abc"', '\\btoken\\s*='), true);
    assert.equal(matchesRegex('tokenize()', '\\btoken\\b'), false);
    assert.equal(matchesRegex('2026-05-01', '(?<year>\\d{4})-\\d{2}'), true);
    assert.equal(matchesRegex('naïve café', '\\p{L}+é'), true);
    assert.equal(matchesRegex('line\nbreak', 'line.break'), false);
  });

  test('flags are written inside the pattern: (?i) for case-insensitive, (?s) for a dot that matches newlines', () => {
    assert.equal(matchesRegex('SELECT * FROM users', 'select'), false);
    assert.equal(matchesRegex('SELECT * FROM users', '(?i)select'), true);
    assert.equal(matchesRegex('line\nbreak', '(?s)line.break'), true);
  });

  test('patterns RE2 refuses, or too long or too large, never match', () => {
    assert.equal(matchesRegex('foobar', 'foo(?=bar)'), false);
    assert.equal(matchesRegex('aa', '(a)\\1'), false);
    assert.equal(matchesRegex('x', '('), false);
    assert.equal(matchesRegex('a'.repeat(10), `a{1,${RULE_LIMITS.regexProgramSize}}`), false);
    assert.equal(getCompiledPattern(`a{1,${RULE_LIMITS.regexProgramSize}}`), null);
    assert.equal(matchesRegex('a', 'a'.repeat(RULE_LIMITS.regexSourceLength + 1)), false);
    assert.equal(matchesRegex(['x'], 'x'), false);
  });

  test('tests only the first regexInputLength characters', () => {
    assert.equal(matchesRegex(`${'a'.repeat(RULE_LIMITS.regexInputLength)}END`, 'END'), false);
    assert.equal(matchesRegex(`${'a'.repeat(RULE_LIMITS.regexInputLength - 3)}END`, 'END$'), true);
  });
});

describe('regex budget for repository patterns', () => {
  test('charges tested characters × program instructions and stays silent under the limit', () => {
    const budget = createRegexBudget(1_000_000);
    const pattern = '(a|a)*!x';
    const size = getCompiledPattern(pattern)?.programSize ?? 0;
    assert.ok(size > 0);
    assert.equal(budget.matchesRegex('a'.repeat(60), pattern), false);
    assert.equal(budget.matchesRegex('aa!x', pattern), true);
    assert.equal(budget.getSpent(), (61 + 5) * size);
    assert.deepEqual(budget.getDiagnostics(), []);
  });

  test('once spent, later tests count as not matching and a diagnostic says how many', () => {
    const pattern = '^\\w*\\w*\\w*\\w*\\w*\\w*\\w*\\w*x$';
    const size = getCompiledPattern(pattern)?.programSize ?? 0;
    const budget = createRegexBudget(2 * 61 * size);
    const line = `${'a'.repeat(59)}x`;
    const results = [1, 2, 3, 4].map(() => budget.matchesRegex(line, pattern));
    assert.deepEqual(results, [true, true, false, false]);
    assert.equal(budget.getSpent(), 2 * 61 * size);
    const [diagnostic, ...rest] = budget.getDiagnostics();
    assert.deepEqual(rest, []);
    assert.equal(diagnostic?.code, 'rules/regex-budget');
    assert.equal(diagnostic?.severity, 'warn');
    assert.equal(
      diagnostic?.message,
      `repository patterns spent this run's regex budget (${2 * 61 * size} units of tested characters × pattern instructions); 2 later tests counted as not matching ("^\\\\w*\\\\w*\\\\w*\\\\w*\\\\w*\\\\w*\\\\w*\\\\w*x$"), so pattern findings may be missing`,
    );
  });

  test('reports values cut to the input limit instead of cutting them silently', () => {
    const budget = createRegexBudget();
    assert.equal(budget.matchesRegex(`${'a'.repeat(RULE_LIMITS.regexInputLength)}END`, 'END'), false);
    assert.deepEqual(budget.getDiagnostics(), [
      {
        code: 'rules/regex-input-cut',
        severity: 'info',
        message: `1 value was longer than ${RULE_LIMITS.regexInputLength} characters; repository patterns tested only the first ${RULE_LIMITS.regexInputLength}`,
      },
    ]);
  });

  test("bounds the time of a pattern that defeats RE2's DFA over many changed lines", () => {
    const budget = createRegexBudget(2_000_000);
    const pattern = 'a[ab]{20}x';
    const lines = Array.from({ length: 20_000 }, (_, index) => `${'ba'.repeat(30 + (index % 7))}x`);
    const { value: matched, ms } = time(() => lines.filter((line) => budget.matchesRegex(line, pattern)).length);
    assert.ok(budget.getSpent() <= 2_000_000);
    assert.ok(matched > 0 && matched < lines.length);
    assert.match(budget.getDiagnostics()[0]?.message ?? '', /; \d+ later tests counted as not matching \("a\[ab\]\{20\}x"\)/);
    assert.ok(ms < 5 * FAST_MS, `took ${ms.toFixed(0)} ms`);
  });
});
