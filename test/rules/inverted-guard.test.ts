import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isMovedTest, readIfTest } from '../../src/rules/inverted-guard.js';
import type { SourceLine } from '../../src/rules/semantic-text.js';

/** A line as semantic-hunks reads it: the code form empties strings, the text keeps them. */
const line = (text: string): SourceLine => ({
  raw: text,
  text: text.trim(),
  code: text.trim().replace(/'[^']*'/g, "''"),
  isComment: false,
  inSignature: false,
});

describe('isMovedTest: an if another file of the change removed', () => {
  const removed = new Set(
    ["typeof document !== 'undefined'", "request.method !== 'GET'"].map((test) => readIfTest(`if (${test}) {`) ?? ''),
  );
  const has = (test: string): boolean => removed.has(test);

  test('the same test, or its negation leaving at once, moved', () => {
    assert.equal(isMovedTest(line("if (typeof document !== 'undefined') {"), line('  send();'), has), true);
    assert.equal(isMovedTest(line("if (typeof document === 'undefined') {"), line('  return;'), has), true);
    assert.equal(isMovedTest(line("if (typeof document === 'undefined') return;"), undefined, has), true);
  });

  test('a negation that does not leave, or a bare name, did not (another literal: semantic-edge-cases.test.ts)', () => {
    assert.equal(isMovedTest(line("if (typeof document === 'undefined') {"), line('  send();'), has), false);
    const bare = new Set(['deleted']);
    assert.equal(
      isMovedTest(line('if (deleted) {'), line('  return;'), (test) => bare.has(test)),
      false,
    );
  });
});
