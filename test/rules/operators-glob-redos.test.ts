import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { findGlobProblem } from '../../src/rules/validate-pack.js';
import { RULE_LIMITS } from '../../src/model/rules.js';
import { matchesGlob } from '../../src/rules/operators/matches-glob.js';
import { compileGlob as compileTextGlob } from '../../src/text/glob.js';

/** matchesGlob's compilation: picomatch syntax with `dot`, on RE2. */
const compileGlob = (glob: string): ((path: string) => boolean) | null => compileTextGlob(glob, { dot: true });

const SEED = 20260101;

/** Generous: picomatch's RegExp took 2.1 s on a 30-character name and more than 20 s on 40. */
const FAST_MS = 1000;

const GLOBS = [
  'src/*',
  '*.md',
  'src/**',
  '**/x',
  'a/**/b',
  '**',
  'a**b',
  '[!a]x',
  '[^a]x',
  'src/(api|routes)/*.ts',
  '{a,b}/**',
  '{src/a,lib}/*.ts',
  '!src/**',
  'a{1..3}',
  '[[:digit:]]x',
  'a\\*b',
  '*/*',
  '**/*.ts',
  'a/**b',
  '{a,}b',
  'a.*',
  '**/**/x',
  'src/**/*.test.{ts,tsx}',
  '**/__tests__/**',
  '.github/**',
  '*.{js,ts}',
  'src/?/x',
  'src/*/index.ts',
  '+(a|b).ts',
  '@(a|b).ts',
  '*(a).ts',
  '?(a).ts',
  'a/b',
  'src/[a-c]*.ts',
  'src/**/[A-Z]*.tsx',
  '**/*.d.ts',
  'packages/*/src/**',
  'a*a*a*a*a*a*a*a*a*a*a*a*a*b',
  '**/**/**/**/**/x',
  'docs/**/*.md',
  '*',
  '**/.env*',
  'src/payments/**',
];
const PATHS = [
  'src',
  'src/a',
  'src/a/b',
  'src/.env',
  'a.md',
  'd/a.md',
  '.md',
  'x',
  'a/x',
  'a/b/x',
  'ax',
  'a/b',
  'a/x/b',
  'ab',
  'axb',
  'bx',
  '!x',
  'src/api/a.ts',
  'src/routes/b.ts',
  'b',
  'c/x',
  'src/a/x.ts',
  'lib/y.ts',
  'lib/a',
  'a2',
  'a4',
  '1x',
  'a*b',
  'a.ts',
  'x/a.ts',
  '.a.ts',
  'x/.y/a.ts',
  'a/xb',
  'a.',
  'a.b',
  'src/x/y.test.ts',
  'src/x/y.test.tsx',
  'a/__tests__/b/c.js',
  '.github/workflows/ci.yml',
  'a.js',
  'src/q/x',
  'src/foo/index.ts',
  'b.ts',
  'aa.ts',
  'src/b1.ts',
  'src/d.ts',
  'src/x/Y.tsx',
  'src/x/y.tsx',
  'types/a.d.ts',
  'packages/p/src/a/b.ts',
  'packages/p/lib/a.ts',
  `${'a'.repeat(30)}b`,
  'docs/x/y.md',
  'README.md',
  'x/.env.local',
  'src/payments/charge.ts',
  'src/payment/x.ts',
  'a/b/c/d/e/f/x',
];

function time<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

describe('matchesGlob runs picomatch globs on RE2', () => {
  test('hostile globs finish at once on long paths', () => {
    const cases: [string, string, boolean][] = [
      ['a*a*a*a*a*a*a*a*a*a*a*a*a*b', `src/${'a'.repeat(2000)}`, false],
      ['**/a*a*a*a*a*a*a*a*a*a*a*a*a*b', `src/${'a'.repeat(60)}b`, true],
      ['**/**/**/**/**/x', `${'a/'.repeat(2000)}y`, false],
      ['**/**/**/**/**/x', `${'a/'.repeat(2000)}x`, true],
    ];
    for (const [glob, path, expected] of cases) {
      const { value, ms } = time(() => matchesGlob(path, glob));
      assert.equal(value, expected, glob);
      assert.ok(ms < FAST_MS, `${glob} took ${ms.toFixed(0)} ms`);
    }
  });

  test('answers as picomatch (dot: true) does on a table of globs and repository paths', () => {
    for (const glob of GLOBS) {
      const matcher = compileGlob(glob);
      assert.ok(matcher !== null, glob);
      const expected = picomatch(glob, { dot: true });
      for (const path of PATHS) assert.equal(matcher(path), expected(path), `${glob} on ${path}`);
    }
  });

  test('answers as picomatch does on generated globs and paths', () => {
    const segment = fc
      .string({ unit: fc.constantFrom('a', 'b', '.', '-'), minLength: 1, maxLength: 4 })
      .filter((name) => name !== '.' && name !== '..');
    const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join('/'));
    const token = fc.constantFrom('a', 'b', '.', '*', '?', '/', '**/', '/**', '[ab]', '[!a]', '{a,b}', '{a,.b}', '\\*');
    const glob = fc.array(token, { minLength: 1, maxLength: 6 }).map((tokens) => tokens.join(''));
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 8 }), (pattern, paths) => {
        const matcher = compileGlob(pattern);
        if (matcher === null) return true;
        const expected = picomatch(pattern, { dot: true });
        for (const candidate of paths) assert.equal(matcher(candidate), expected(candidate), `${pattern} on ${candidate}`);
        return true;
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  test('a leading ! negates; a negated extglob or a glob over the length limit never matches', () => {
    assert.equal(matchesGlob('lib/a.ts', '!src/**'), true);
    assert.equal(matchesGlob('src/a.ts', '!src/**'), false);
    assert.equal(compileGlob('!(a).ts'), null);
    assert.equal(matchesGlob('b.ts', '!(a).ts'), false);
    assert.equal(matchesGlob('a', '*'.repeat(RULE_LIMITS.globLength + 1)), false);
  });

  test('pack validation refuses exactly the globs the operator cannot compile, naming the fix', () => {
    for (const glob of [...GLOBS, '!(a).ts', 'src/(?=x)', 'src/(?<!x)y', '*'.repeat(RULE_LIMITS.globLength + 1)]) {
      assert.equal(findGlobProblem(glob) === undefined, compileGlob(glob) !== null, glob);
    }
    assert.equal(
      findGlobProblem('!(a).ts'),
      'uses a negated extglob !(…) or a lookaround, which is not supported: list what to exclude in a separate not condition; repository globs run on a linear-time engine (RE2)',
    );
    assert.equal(findGlobProblem('*'.repeat(RULE_LIMITS.globLength + 1)), `is longer than ${RULE_LIMITS.globLength} characters`);
  });
});
