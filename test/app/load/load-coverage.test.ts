import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadCoverage, MAX_COVERAGE_BYTES } from '../../../src/app/load/load-coverage.js';
import { memEnv } from '../../helpers/memory-env.js';

function lcovRecord(sf: string, lines: [number, number][]): string {
  return [`SF:${sf}`, ...lines.map(([line, hits]) => `DA:${line},${hits}`), 'end_of_record', ''].join('\n');
}

const GENERATED = Date.parse('2026-02-01T10:00:00.000Z');

describe('loadCoverage over memEnv (no disk)', () => {
  test('maps lcov and istanbul paths to repository files: relative, under the root, foreign roots by suffix', async () => {
    const env = memEnv({
      files: {
        'src/cart.js': 'export const total = 1;\n',
        'src/pricing/discount.js': 'export const discount = 2;\n',
        'coverage/lcov.info': [
          lcovRecord('src/pricing/discount.js', [[1, 3]]),
          lcovRecord('/memory/repo/src/cart.js', [[1, 1]]),
          lcovRecord('/home/ci/work/shop/src/cart.js', [[1, 4]]),
          lcovRecord('/home/me/other-project/src/cart.js', [[1, 9]]),
          lcovRecord('/memory/repo/node_modules/lib/index.js', [[1, 1]]),
        ].join(''),
        'coverage/coverage-final.json': JSON.stringify({
          '/memory/repo/src/pricing/discount.js': {
            path: '/memory/repo/src/pricing/discount.js',
            statementMap: { 0: { start: { line: 1, column: 0 }, end: { line: 1, column: 20 } } },
            s: { 0: 2 },
            fnMap: {},
            f: {},
            branchMap: {},
            b: {},
          },
        }),
      },
      hostPaths: ['/home/me/other-project/src/cart.js'],
      times: { 'coverage/lcov.info': GENERATED, 'coverage/coverage-final.json': GENERATED + 1000 },
    });
    const evidence = await loadCoverage(env);
    assert.deepEqual(evidence.sources, [
      { kind: 'lcov', path: 'coverage/lcov.info', generatedAt: '2026-02-01T10:00:00.000Z', files: 2, remappedFiles: 1, unmatchedFiles: 0 },
      { kind: 'istanbul', path: 'coverage/coverage-final.json', generatedAt: '2026-02-01T10:00:01.000Z', files: 1 },
    ]);
    assert.deepEqual(evidence.files, {
      'src/cart.js': { lines: { 1: 5 }, source: 'lcov', sources: ['coverage/lcov.info'] },
      'src/pricing/discount.js': { lines: { 1: 5 }, source: 'lcov', sources: ['coverage/lcov.info', 'coverage/coverage-final.json'] },
    });
    assert.deepEqual(
      evidence.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity, diagnostic.message]),
      [
        [
          'coverage/foreign-root',
          'info',
          'coverage/lcov.info was written under another root (/home/ci/work/shop): 1 file path mapped to repository files by suffix, 0 could not be mapped',
        ],
      ],
    );
  });

  test('refuses coverage that is tracked, too large, not a regular file or a symlink out of the repository', async () => {
    const env = memEnv({
      files: {
        'src/cart.js': 'export const total = 1;\n',
        'lcov.info': 'x'.repeat(MAX_COVERAGE_BYTES + 1),
        'coverage/coverage-final.json': '{}',
      },
      links: { 'coverage/web/lcov.info': '/tmp/elsewhere/lcov.info' },
      specials: ['coverage/lcov.info'],
    });
    const evidence = await loadCoverage(env, { trackedPaths: new Set(['coverage/coverage-final.json']) });
    assert.deepEqual([evidence.sources, evidence.files], [[], {}]);
    assert.deepEqual(
      evidence.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message]),
      [
        ['coverage/too-large', `lcov.info is ${MAX_COVERAGE_BYTES + 1} bytes, over the ${MAX_COVERAGE_BYTES}-byte limit; it was not read`],
        ['coverage/not-a-file', 'coverage/lcov.info is not a regular file; it was not read'],
        ['coverage/outside-repo', 'coverage/web/lcov.info is a symlink that leads outside the repository; it was not read'],
        [
          'coverage/tracked',
          'coverage/coverage-final.json is committed to the repository, so it describes another run; it was not used as evidence',
        ],
      ],
    );
  });
});
