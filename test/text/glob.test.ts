import assert from 'node:assert/strict';
import { test } from 'node:test';
import picomatch from 'picomatch';
import { RE2JS } from 're2js';
import { compileGlob, compileGlobs, toGlobSource } from '../../src/text/glob.js';

const GLOBS = [
  'src/**/*.ts',
  '**/*.test.ts',
  'docs/**',
  '*.md',
  '!src/x.ts',
  'src/{a,b}/*.js',
  '**/node_modules/**',
  '.github/**',
  'a/?/b',
  'src/[ab]*.ts',
  'packages/*/package.json',
];
const PATHS = [
  'src/a.ts',
  'src/x.ts',
  'src/deep/y.test.ts',
  'docs/a/b.md',
  'README.md',
  'src/a/z.js',
  'x/node_modules/y.js',
  '.github/workflows/ci.yml',
  'a/1/b',
  'src/abc.ts',
  'src/.hidden.ts',
  '.hidden/x.md',
  'packages/core/package.json',
  'packages/.x/package.json',
];

test('repository globs mean what picomatch means, with and without dot names', () => {
  for (const glob of GLOBS) {
    for (const dot of [true, false]) {
      const expected = picomatch(glob, { dot });
      const actual = compileGlob(glob, { dot });
      assert.notEqual(actual, null, glob);
      for (const path of PATHS) assert.equal(actual?.(path), expected(path), `${glob} (dot ${String(dot)}) on ${path}`);
    }
  }
  assert.equal(compileGlobs(['docs/**', '*.md'])('README.md'), true);
  assert.equal(compileGlobs([])('README.md'), false);
});

test('a glob built to backtrack runs in linear time; one RE2 cannot run never matches', () => {
  const hostile = `${'a*'.repeat(13)}b`;
  // picomatch's own RegExp takes minutes here (40 characters already take seconds). The glob is translated to an RE2
  // pattern, and RE2's automaton is linear in the input by construction: that it compiles there is the guarantee (no
  // timing is asserted; a backtracking engine would hang this test until the runner's timeout).
  const translated = toGlobSource(hostile);
  assert.ok('source' in translated);
  assert.doesNotThrow(() => RE2JS.compile(translated.source));
  assert.equal(compileGlobs([hostile])('a'.repeat(2000)), false);
  assert.equal(compileGlob('!(a).ts'), null);
  assert.equal(compileGlobs(['!(a).ts'])('b.ts'), false);
  assert.equal(compileGlob('x'.repeat(501)), null);
  // compileGlobs translates each glob on first need: one it cannot translate still matches nothing, not even its own
  // text, and a negated one does not turn into "everything else".
  assert.equal(compileGlobs(['x'.repeat(501)])('x'.repeat(501)), false);
  assert.equal(compileGlobs(['!!(a).ts'])('b.ts'), false);
  assert.equal(compileGlobs(['!!(a).ts', 'src/**'])('src/a.ts'), true);
});

test('a literal folder prefix turns paths away exactly as the full match would, case-insensitively under nocase', () => {
  const globs = ['docs/adr/**/*.{md,markdown}', 'docs/adr*.md', 'src/a.ts', './docs/**', 'a/b/../c/*.ts', 'Docs/ADR/*.md', '!docs/**'];
  const paths = [
    'docs/adr/0001-x.md',
    'Docs/ADR/0002.MD',
    'docs/adr2.md',
    'docsx/adr/1.md',
    'src/a.ts',
    'src/a.tsx',
    'docs/a.md',
    'a/c/x.ts',
  ];
  for (const glob of globs) {
    for (const nocase of [false, true]) {
      const expected = picomatch(glob, { dot: true, nocase });
      const actual = compileGlob(glob, { dot: true, nocase });
      for (const path of paths) assert.equal(actual?.(path), expected(path), `${glob} (nocase ${String(nocase)}) on ${path}`);
    }
  }
});

test('a literal part anywhere in a glob turns paths away exactly as the full match would', () => {
  // The needle is looked for in `/path/`: `**/dist/**` matches `dist/a.js`, `a/**/b` matches `a/b`.
  const globs = ['**/dist/**', '**/*.min.js', '**/*.generated.*/**', 'a/**/b', 'src/*.ts', '**/Build/**', 'x?y/**'];
  const paths = ['dist/a.js', 'pkg/dist/a.js', 'pkg/distx/a.js', 'a.MIN.js', 'lib/a.min.js', 'a.minjs', 'x/a.generated.ts/y.ts'];
  const more = ['a/b', 'a/x/b', 'ab', 'src/a.ts', 'src/x/a.ts', 'pkg/build/a.js', 'pkg/BUILD/a.js', 'xzy/a', 'x/y/a'];
  for (const glob of globs) {
    for (const nocase of [false, true]) {
      const expected = picomatch(glob, { dot: true, nocase });
      const actual = compileGlob(glob, { dot: true, nocase });
      for (const path of [...paths, ...more]) {
        assert.equal(actual?.(path), expected(path), `${glob} (nocase ${String(nocase)}) on ${path}`);
      }
    }
  }
});
