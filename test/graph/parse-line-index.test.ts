import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildLineIndex, getLineAt, measureLeadingTrivia } from '../../src/graph/parse/line-index.js';

describe('line index over UTF-8 bytes', () => {
  test('line starts count bytes, not UTF-16 units', () => {
    const text = 'a😀\né\n日本\nz';
    const index = buildLineIndex(text);
    assert.deepEqual(index.lineStarts, [0, 6, 9, 16]);
    assert.equal(index.lines, 4);
    assert.equal(getLineAt(index, 0), 1);
    assert.equal(getLineAt(index, 5), 1);
    assert.equal(getLineAt(index, 6), 2);
    assert.equal(getLineAt(index, 16), 4);
    assert.equal(getLineAt(index, 999), 4);
    assert.equal(getLineAt(index, -3), 1);
  });

  test('a lone surrogate counts as the three bytes of U+FFFD', () => {
    assert.deepEqual(buildLineIndex('\uD800\nx').lineStarts, [0, 4]);
  });

  test('bracket depth', () => {
    assert.equal(buildLineIndex('f({a: [1, (2)]})').maxBracketDepth, 4);
  });

  test('leading trivia in bytes', () => {
    assert.equal(measureLeadingTrivia('  // 😀\n/* é */\nx'), 19);
    assert.equal(measureLeadingTrivia('#!/usr/bin/env node\n'), 0);
    assert.equal(measureLeadingTrivia('/* unterminated'), 15);
    assert.equal(measureLeadingTrivia(''), 0);
  });
});
