import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validatePackFile } from '../helpers/packs.js';
import { findRegexProblem } from '../../src/rules/validate-pack.js';
import { CheckerError } from '../../src/model/diagnostic.js';
import { RULE_LIMITS } from '../../src/model/rules.js';

const ENGINE = 'repository patterns run on a linear-time engine (RE2 syntax)';
const FILE = '.checker/rules/team.yml';

function buildPack(pattern: string): string {
  return `schemaVersion: 1
id: team-patterns
version: 1.0.0
kind: pattern
subject: changed-line
description: Team patterns.
rules:
  - id: pattern/team-rule
    description: d
    rationale: r
    conditions:
      any:
        - { fact: fileRole, operator: equal, value: config }
        - { fact: text, operator: matchesRegex, value: ${JSON.stringify(pattern)} }
    event:
      type: pattern/team-rule
      params: { weight: 1 }
`;
}

function errorOf(run: () => unknown): CheckerError {
  try {
    run();
  } catch (error) {
    if (error instanceof CheckerError) return error;
    throw error;
  }
  assert.fail('expected a CheckerError');
}

describe('matchesRegex patterns are validated against RE2', () => {
  test('accepts what RE2 runs in linear time, nested quantifiers and inline flags included', () => {
    for (const pattern of [
      '^src/(api|routes)/.+\\.ts$',
      '(a|b)?c{2,3}',
      '(a+)+$',
      '((ab)*c)*',
      '(x+x+)+y',
      '(a|a)*!x',
      '(?i)select',
      '(?<year>\\d{4})',
      '[[:alpha:]]+',
      '\\x{263A}',
    ]) {
      assert.equal(findRegexProblem(pattern), undefined, pattern);
    }
  });

  test('names the construct RE2 lacks and the rewrite', () => {
    assert.equal(findRegexProblem('secret(?!_test)'), `uses lookahead ((?!), which is not supported: rewrite without lookahead; ${ENGINE}`);
    assert.equal(findRegexProblem('a(?=b)'), `uses lookahead ((?=), which is not supported: rewrite without lookahead; ${ENGINE}`);
    assert.equal(findRegexProblem('(?<=\\$)\\d+'), `uses lookbehind ((?<=), which is not supported: rewrite without lookbehind; ${ENGINE}`);
    assert.equal(findRegexProblem('(?<!x)y'), `uses lookbehind ((?<!), which is not supported: rewrite without lookbehind; ${ENGINE}`);
    assert.equal(
      findRegexProblem('(a)\\1'),
      `uses a back-reference (\\1), which is not supported: rewrite without back-references; ${ENGINE}`,
    );
    assert.equal(
      findRegexProblem('(?<q>["\'])\\k<q>'),
      `uses a back-reference (\\k), which is not supported: rewrite without back-references; ${ENGINE}`,
    );
    assert.equal(findRegexProblem('\\u263A'), `uses a \\u escape, which is not supported: write \\x{263A} for U+263A; ${ENGINE}`);
  });

  test('quotes RE2 for other syntax errors, and keeps the length and size limits', () => {
    assert.equal(
      findRegexProblem('(unclosed'),
      `is not a valid regular expression: missing closing ) at \`(unclosed\`; ${ENGINE}, see docs/rule-packs.md`,
    );
    assert.equal(
      findRegexProblem('a'.repeat(RULE_LIMITS.regexSourceLength + 1)),
      `is longer than ${RULE_LIMITS.regexSourceLength} characters`,
    );
    assert.equal(
      findRegexProblem('\\pL{1000}'),
      `compiles to 1002 instructions, more than the ${RULE_LIMITS.regexProgramSize} allowed: use smaller repetition counts (such as {1,50} instead of {1,1000})`,
    );
  });

  test('a pack with a refused pattern fails validation naming file, pack, rule and field', () => {
    assert.equal(
      errorOf(() => validatePackFile(FILE, buildPack('\\b(\\w+)\\s+\\1\\b'))).message,
      `${FILE}: pack "team-patterns" rule "pattern/team-rule": conditions.any[1].value pattern "\\\\b(\\\\w+)\\\\s+\\\\1\\\\b" uses a back-reference (\\1), which is not supported: rewrite without back-references; ${ENGINE}`,
    );
    assert.equal(validatePackFile(FILE, buildPack('^(a+)+$')).rules.length, 1);
  });
});
