import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifySource } from '../../src/io/read-source.js';

/** The minified judgement looks at the whole file: one long line never gets a readable file skipped. */

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const skipOf = (path: string, text: string) => {
  const result = classifySource(path, encode(text));
  return result.ok ? undefined : result.skip;
};

/** A hand-written test file: `lines` ordinary lines of test code. */
function readableTestFile(lines: number): string[] {
  const out = ["import { describe, expect, it } from 'vitest';", "import { z } from 'zod';", "describe('strings', () => {"];
  for (let index = 0; out.length < lines - 1; index++) {
    out.push(`  it('parses case ${index}', () => {`, `    expect(z.string().parse('value ${index}')).toBe('value ${index}');`, '  });');
  }
  out.push('});');
  return out;
}

test('a 1,080-line hand-written test file with one long emoji line is read', () => {
  const lines = readableTestFile(1080);
  // 3,000 emoji: 12,000 bytes on one line, past the old 10,000-character single-line limit.
  lines.splice(40, 0, `  const emoji = '${'😀'.repeat(3000)}';`);
  const text = `${lines.join('\n')}\n`;
  assert.equal(lines.length, 1082);
  assert.ok(encode(text).length > 45_000);
  const result = classifySource('test/emoji.test.ts', encode(text));
  assert.equal(result.ok, true);
});

test('a readable file with a few dense long lines holding most of its bytes is still read', () => {
  // 1,000 ordinary lines and 5 inline fixtures of 12,000 bytes without whitespace: 0.5% of the lines.
  const lines = readableTestFile(1000);
  for (let index = 0; index < 5; index++) lines.splice(100 * (index + 1), 0, `const fixture${index} = '${'QUJD'.repeat(3000)}';`);
  const text = `${lines.join('\n')}\n`;
  const longBytes = lines.filter((line) => line.length > 1000).reduce((sum, line) => sum + line.length, 0);
  assert.ok(longBytes > text.length / 2 && text.length / lines.length < 500);
  assert.equal(skipOf('test/fixtures.test.ts', text), undefined);
});

test('a single-line bundle is minified', () => {
  const bundle = `!function(){${'var a=1;'.repeat(25_000)}}();`;
  assert.equal(bundle.length, 200_016);
  assert.deepEqual(skipOf('dist/bundle.js', bundle), {
    path: 'dist/bundle.js',
    reason: 'minified',
    detail: 'has a 200016-character line (minified)',
  });
});

test('a bundle of a few lines under a short banner is minified by its average line length', () => {
  const text = `/*! lib v1.0.0 | MIT */\n'use strict';\n${`${'function(e){return e+1},'.repeat(100)}\n`.repeat(4)}`;
  assert.deepEqual(skipOf('vendor/lib.js', text), {
    path: 'vendor/lib.js',
    reason: 'minified',
    detail: 'averages 1607 characters a line (minified)',
  });
});

test('bundler output with many dense long lines between short wrapper lines is minified', () => {
  // 60 short lines and 20 dense 1,500-byte lines: the average stays under 500, the long lines hold 96%.
  const lines: string[] = [];
  for (let index = 0; index < 20; index++) {
    lines.push(`/***/ "./src/m${index}.js":`, '/***/ (function(module) {', `${'a=b(c,d);'.repeat(166)}e=1;`, '/***/ })');
  }
  const text = `${lines.join('\n')}\n`;
  assert.ok(text.length / 80 < 500);
  assert.deepEqual(skipOf('public/app.js', text), {
    path: 'public/app.js',
    reason: 'minified',
    detail: '20 of 80 lines are over 1000 characters with little whitespace and hold 96% of the file (minified)',
  });
});

test('long lines with ordinary whitespace (prose fixtures) do not make a file minified', () => {
  const lines: string[] = [];
  for (let index = 0; index < 20; index++) {
    lines.push(
      `it('renders ${index}', () => {`,
      `  const text = '${'the quick brown fox jumps over '.repeat(50)}';`,
      '  expect(render(text)).toContain("fox");',
      '});',
    );
  }
  const text = `${lines.join('\n')}\n`;
  assert.ok(text.length / lines.length < 500);
  assert.equal(skipOf('test/render.test.ts', text), undefined);
  // The same layout without the spaces is dense enough to be bundler output.
  const dense = text.replaceAll('the quick brown fox jumps over ', 'the_quick_brown_fox_jumps_over_');
  assert.equal(skipOf('test/render.test.ts', dense)?.reason, 'minified');
});

test('files of 2 KiB or less are never minified', () => {
  assert.equal(skipOf('src/tiny.js', 'x'.repeat(2048)), undefined);
  assert.equal(skipOf('src/tiny.js', 'x'.repeat(2049))?.reason, 'minified');
});
