import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalRegexLiteral } from '../../src/rules/regex-canonical.js';
import { findSemanticChanges } from '../../src/rules/semantic-hunks.js';

const same = (left: string, right: string): boolean => canonicalRegexLiteral(left) === canonicalRegexLiteral(right);

describe('canonicalRegexLiteral: one spelling per pattern', () => {
  test('escapes that change nothing, quantifier spellings and flag order read the same', () => {
    assert.ok(same('/[\\\\|\\/]+/g', '/[\\\\|/]+/g'));
    assert.ok(same('/a\\/b/', '/a\\/b/'));
    assert.ok(same('/[\\.]/', '/[.]/'));
    assert.ok(same('/x+/', '/x{1,}/'));
    assert.ok(same('/a/gi', '/a/ig'));
  });

  test('patterns that match other strings, or the same strings otherwise, do not', () => {
    assert.ok(!same('/[\\\\|\\/]+/g', '/[\\\\|\\/]*/g'));
    assert.ok(!same('/\\./', '/./'));
    assert.ok(!same('/a+/', '/a+?/'));
    assert.ok(!same('/(a)/', '/(?:a)/'));
    assert.ok(!same('/a/g', '/a/gi'));
    assert.ok(!same('/^a/', '/a/'));
  });

  test('what regexpp cannot parse is kept as written', () => {
    assert.equal(canonicalRegexLiteral('/(/'), '/(/');
    assert.equal(canonicalRegexLiteral("new RegExp('a')"), "new RegExp('a')");
  });

  test('a regex respelled with the same meaning asks no pattern case; a changed one does (msw cli/init.js)', () => {
    const pattern = (before: string, after: string) =>
      findSemanticChanges(`  return input.replace(${before}, path.sep)\n`, `  return input.replace(${after}, path.sep)\n`, [
        { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 },
      ]).map((change) => [change.kind, change.subject]);
    assert.deepEqual(pattern('/[\\\\|\\/]+/g', '/[\\\\|/]+/g'), []);
    assert.deepEqual(pattern('/[\\\\|\\/]+/g', '/[\\\\/]+/g'), [['regex', '/[\\\\/]+/g']]);
  });
});
