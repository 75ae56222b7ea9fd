import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { blankBlockComments } from '../../src/text/block-comments.js';

describe('blankBlockComments: what block comments hold, as spaces', () => {
  test('a comment over several lines, code before and after it, and markers inside strings or regular expressions', () => {
    const text = [
      'const a = 1; /* opens',
      'NOTE: the fetch() promise rejects',
      ' * a JSDoc line',
      'ends */ call(a);',
      "const url = 'https://x/*'; // a /* line comment",
      "const trimmed = path.replace(/\\/*$/, '');",
      'const b = /* inline */ 2;',
    ].join('\n');
    assert.deepEqual(
      blankBlockComments(text).map((line) => line.trimEnd()),
      [
        'const a = 1;',
        '',
        '',
        '        call(a);',
        "const url = 'https://x/*'; // a /* line comment",
        "const trimmed = path.replace(/\\/*$/, '');",
        'const b =              2;',
      ],
    );
  });
});
