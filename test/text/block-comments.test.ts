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

  // Read back: a quote inside a comment opened a string that hid the comment's end, and the code after it (and the
  // next line) was blanked; `/*/` closed the comment it opened.
  test('a quote inside a comment opens no string; `/*/` does not close itself', () => {
    assert.deepEqual(
      blankBlockComments(["/* it's */ const a = 'b';", 'run(a);', '/*/ still a comment', 'end */ go();'].join('\n')).map((line) =>
        line.trimEnd(),
      ),
      ["           const a = 'b';", 'run(a);', '', '       go();'],
    );
  });
});
