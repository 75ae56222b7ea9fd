import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileCodeownersPattern, MAX_CODEOWNERS_PATTERN_LENGTH, parseCodeowners } from '../../src/graph/codeowners.js';

/** Generous: each case took minutes on the RegExp the pattern used to compile to (30 characters took 2 s). */
const FAST_MS = 1000;

function timeMatch(pattern: string, path: string): { matched: boolean; ms: number } {
  const codeowners = parseCodeowners('.github/CODEOWNERS', `${pattern} @team-lead\n`);
  assert.deepEqual(codeowners.diagnostics, []);
  const start = performance.now();
  const matched = codeowners.matchPath(path) !== undefined;
  return { matched, ms: performance.now() - start };
}

describe('CODEOWNERS patterns match in linear time', () => {
  test('repeated stars in one segment against a long name', () => {
    const { matched, ms } = timeMatch('a*a*a*a*a*a*a*a*a*a*a*a*a*b', `src/${'a'.repeat(2000)}`);
    assert.equal(matched, false);
    assert.ok(ms < FAST_MS, `took ${ms.toFixed(0)} ms`);
  });

  test('a run of ** segments against a deep path', () => {
    const { matched, ms } = timeMatch('**/**/**/**/**/x', `${'a/'.repeat(2000)}y`);
    assert.equal(matched, false);
    assert.ok(ms < FAST_MS, `took ${ms.toFixed(0)} ms`);
  });

  test('hostile patterns still match what they describe; a run of ** is one **', () => {
    assert.equal(timeMatch('a*a*a*a*a*a*a*a*a*a*a*a*a*b', `src/${'a'.repeat(60)}b`).matched, true);
    assert.equal(timeMatch('**/**/**/**/**/x', 'deep/er/x').matched, true);
    assert.equal(timeMatch('**/**/**/**/**/x', 'x').matched, true);
    assert.equal(timeMatch('**/**/**/**/**/x', 'deep/er/y').matched, false);
  });

  test('RE2 gives the answers a RegExp gives on the same compiled source', () => {
    const patterns = [
      '*',
      '*.js',
      '/build/logs/',
      'docs/*',
      'apps/',
      '/docs/',
      '**/logs',
      '/scripts/**',
      'a/**/b',
      'src/*.ts',
      'file?.md',
      'a\\*b',
      'docs/**/',
      '**/**',
    ];
    const paths = [
      'a.js',
      'src/a.js',
      'build/logs/x.log',
      'docs/a.md',
      'docs/build/b.md',
      'apps/web/x',
      'x/apps/y',
      'deep/logs/z',
      'scripts/run.sh',
      'a/b',
      'a/x/y/b',
      'src/a.ts',
      'file1.md',
      'a*b',
      '',
    ];
    for (const pattern of patterns) {
      const matcher = compileCodeownersPattern(pattern);
      assert.ok(matcher !== undefined, pattern);
      const native = new RegExp(matcher.pattern());
      for (const path of paths) assert.equal(matcher.test(path), native.test(path), `${pattern} on ${path}`);
    }
  });

  test('a pattern over the length limit is skipped with a diagnostic', () => {
    const long = `${'a*'.repeat(MAX_CODEOWNERS_PATTERN_LENGTH / 2)}b`;
    assert.equal(compileCodeownersPattern(long), undefined);
    const codeowners = parseCodeowners('CODEOWNERS', `${long} @team-lead\n`);
    assert.deepEqual(codeowners.rules, []);
    assert.deepEqual(
      codeowners.diagnostics.map((diagnostic) => diagnostic.code),
      ['codeowners/invalid-pattern'],
    );
    assert.match(
      codeowners.diagnostics[0]?.message ?? '',
      /^CODEOWNERS line 1: pattern "(?:a\*){40}…" is not valid; the line is skipped\.$/,
    );
  });
});
