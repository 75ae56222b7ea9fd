import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isInvertedGuard, isMovedTest, readIfTest } from '../../src/rules/inverted-guard.js';
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

// Check 153 (handlebars 3105ca7): `if (requireTerminal) { return [...] } else { return stack; }` became `if
// (!requireTerminal) { return stack; }` above the old branch's body, and the flipped test was asked as a new condition.
describe('isInvertedGuard: an else that exits, taken first', () => {
  const base = [
    'function strictLookup(requireTerminal, stack) {',
    '  if (requireTerminal) {',
    "    return ['container.strict(', stack, ')'];",
    '  } else {',
    '    return stack;',
    '  }',
    '}',
  ].map(line);

  test("the negated test leaving with the else's own statement decides nothing new", () => {
    assert.equal(isInvertedGuard(base, 1, line('if (!requireTerminal) {'), line('  return stack;')), true);
    assert.equal(isInvertedGuard(base, 1, line('if (!requireTerminal) return stack;'), undefined), true);
  });

  test('another exit, the same test, or an else that does more is a change', () => {
    assert.equal(isInvertedGuard(base, 1, line('if (!requireTerminal) {'), line('  return undefined;')), false);
    assert.equal(isInvertedGuard(base, 1, line('if (requireTerminal) {'), line('  return stack;')), false);
    const busy = [...base.slice(0, 4), line('    log(stack);'), ...base.slice(4)];
    assert.equal(isInvertedGuard(busy, 1, line('if (!requireTerminal) {'), line('  return stack;')), false);
  });
});
