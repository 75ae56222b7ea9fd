import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChangedPathProofInput, CoverageEvidence, ReachingTest } from '../../src/model/coverage.js';
import { toSiblingTestPath } from '../../src/graph/roles.js';
import { deriveChangedPathProof, isCoverageFreshFor, summarizeTestEvidence, toChangedLines } from '../../src/rules/proof.js';
import { formatLineRanges } from '../../src/text/line-ranges.js';

const DISCOUNT = 'src/pricing/discount.ts';

function reaching(testFile: string, distance: number, mocksChangedModule = false): ReachingTest {
  return { testFile, distance, via: [DISCOUNT], mocksChangedModule };
}

function input(overrides: Partial<ChangedPathProofInput>): ChangedPathProofInput {
  return {
    path: DISCOUNT,
    status: 'modified',
    changedLines: [14, 15, 16, 17, 18],
    reachingTests: [reaching('test/pricing/discount.test.ts', 1)],
    coverageFresh: true,
    ...overrides,
  };
}

describe('deriveChangedPathProof: the five states', () => {
  test('unproven: no test reaches the file', () => {
    assert.deepEqual(
      deriveChangedPathProof(input({ reachingTests: [], changedSymbols: ['applyDiscount'], coverageCommand: 'npx vitest run --coverage' })),
      {
        path: DISCOUNT,
        state: 'unproven',
        reachingTests: [],
        reachingTestCount: 0,
        coveredChangedLines: [],
        uncoveredChangedLines: [],
        instrumentedChangedLines: 0,
        reason: { messageId: 'unproven', data: { path: DISCOUNT } },
        repairTask: {
          messageId: 'unproven-task',
          data: {
            path: DISCOUNT,
            sibling: 'src/pricing/discount.test.ts',
            exercise: 'calls applyDiscount',
            onLines: ' on lines 14-18',
            command: ' (npx vitest run --coverage)',
          },
        },
      },
    );
  });

  test('mocked-boundary: every reaching test mocks the changed module', () => {
    const proof = deriveChangedPathProof(
      input({
        reachingTests: [reaching('test/checkout.test.ts', 2, true), reaching('test/cart.test.ts', 1, true)],
        coverage: { lines: { 14: 1, 15: 1 } },
      }),
    );
    assert.deepEqual(proof, {
      path: DISCOUNT,
      state: 'mocked-boundary',
      reachingTests: ['test/cart.test.ts', 'test/checkout.test.ts'],
      reachingTestCount: 2,
      coveredChangedLines: [14, 15],
      uncoveredChangedLines: [],
      instrumentedChangedLines: 2,
      reason: { messageId: 'mocked-boundary', data: { path: DISCOUNT, mockers: 'test/cart.test.ts and test/checkout.test.ts' } },
      repairTask: {
        messageId: 'mocked-boundary-task',
        data: {
          path: DISCOUNT,
          sibling: 'src/pricing/discount.test.ts',
          exercise: 'exercises the changed code',
          onLines: ' on lines 14-18',
          mockers: 'test/cart.test.ts and test/checkout.test.ts',
          mocks: 'mock',
          neverRuns: 'they never run',
        },
      },
    });
  });

  // yarl 50ba229: tests/test_url_benchmarks.py (pytest-codspeed) named the parser as often as test_url.py, and was the
  // test the proof asked to extend.
  test('a benchmark that reaches the file is the last test to extend, however closely it names the change', () => {
    const relevant = (testFile: string, relevance: number): ReachingTest => ({ ...reaching(testFile, 1), relevance });
    const proof = deriveChangedPathProof(
      input({
        reachingTests: [
          relevant('tests/test_url_benchmarks.py', 9),
          relevant('benchmarks/discount.bench.ts', 9),
          relevant('tests/test_url.py', 2),
          relevant('tests/test_workbench.py', 1),
        ],
      }),
    );
    assert.deepEqual(proof.reachingTests, [
      'tests/test_url.py',
      'tests/test_workbench.py',
      'benchmarks/discount.bench.ts',
      'tests/test_url_benchmarks.py',
    ]);
    assert.equal((proof.repairTask?.data as { nearest?: string } | undefined)?.nearest, 'tests/test_url.py');
  });

  test('a mocking test beside a non-mocking one is not a mocked boundary, and the non-mocking test is the one to extend', () => {
    const proof = deriveChangedPathProof(
      input({ reachingTests: [reaching('test/a-mocking.test.ts', 1, true), reaching('test/z-real.test.ts', 3)] }),
    );
    assert.equal(proof.state, 'static-only');
    assert.deepEqual(proof.reachingTests, ['test/a-mocking.test.ts', 'test/z-real.test.ts']);
    assert.deepEqual(proof.repairTask, {
      messageId: 'static-no-coverage-task',
      data: {
        path: DISCOUNT,
        command: '',
        lines: 'lines 14-18',
        executes: 'execute',
        nearest: 'test/z-real.test.ts',
        exercise: 'exercises the changed code',
      },
    });
  });

  test('static-only: tests reach the file but no coverage covers it', () => {
    assert.deepEqual(deriveChangedPathProof(input({ changedSymbols: ['applyDiscount'], coverageCommand: 'npx vitest run --coverage' })), {
      path: DISCOUNT,
      state: 'static-only',
      reachingTests: ['test/pricing/discount.test.ts'],
      reachingTestCount: 1,
      coveredChangedLines: [],
      uncoveredChangedLines: [],
      instrumentedChangedLines: 0,
      reason: { messageId: 'static-no-coverage', data: { path: DISCOUNT, tests: 1, testFiles: 'test file', reaches: 'reaches' } },
      repairTask: {
        messageId: 'static-no-coverage-task',
        data: {
          path: DISCOUNT,
          command: ' (npx vitest run --coverage)',
          lines: 'lines 14-18',
          executes: 'execute',
          nearest: 'test/pricing/discount.test.ts',
          exercise: 'calls applyDiscount',
        },
      },
    });
  });

  test('runtime-proven: every instrumented changed line was hit; uninstrumented changed lines do not count', () => {
    assert.deepEqual(deriveChangedPathProof(input({ coverage: { lines: { 10: 0, 14: 2, 16: 1, 18: 5 } } })), {
      path: DISCOUNT,
      state: 'runtime-proven',
      reachingTests: ['test/pricing/discount.test.ts'],
      reachingTestCount: 1,
      coveredChangedLines: [14, 16, 18],
      uncoveredChangedLines: [],
      instrumentedChangedLines: 3,
      reason: { messageId: 'runtime-proven', data: { path: DISCOUNT, coveredLines: 'lines 14, 16, 18' } },
    });
  });

  test('runtime-unproven: partial coverage names the lines that never ran', () => {
    assert.deepEqual(
      deriveChangedPathProof(input({ coverage: { lines: { 14: 3, 15: 3, 16: 0, 17: 0, 18: 1 } }, changedSymbols: ['applyDiscount'] })),
      {
        path: DISCOUNT,
        state: 'runtime-unproven',
        reachingTests: ['test/pricing/discount.test.ts'],
        reachingTestCount: 1,
        coveredChangedLines: [14, 15, 18],
        uncoveredChangedLines: [16, 17],
        instrumentedChangedLines: 5,
        reason: {
          messageId: 'runtime-unproven-some-ran',
          data: { path: DISCOUNT, covered: 3, instrumented: 5, uncoveredLines: 'lines 16-17' },
        },
        repairTask: {
          messageId: 'runtime-unproven-task',
          data: {
            path: DISCOUNT,
            nearest: 'test/pricing/discount.test.ts',
            exercise: 'calls applyDiscount',
            uncoveredLines: 'lines 16-17',
            executes: 'execute',
            them: 'them',
          },
        },
      },
    );
  });

  test('runtime-unproven: coverage exists but no changed line ran', () => {
    const proof = deriveChangedPathProof(input({ changedLines: [16], coverage: { lines: { 1: 4, 16: 0 } } }));
    assert.equal(proof.state, 'runtime-unproven');
    assert.deepEqual([proof.coveredChangedLines, proof.uncoveredChangedLines, proof.instrumentedChangedLines], [[], [16], 1]);
    assert.deepEqual(proof.reason, { messageId: 'runtime-unproven-none-ran', data: { path: DISCOUNT, uncoveredLines: 'line 16' } });
    assert.deepEqual(proof.repairTask, {
      messageId: 'runtime-unproven-task',
      data: {
        path: DISCOUNT,
        nearest: 'test/pricing/discount.test.ts',
        exercise: 'exercises the changed code',
        uncoveredLines: 'line 16',
        executes: 'executes',
        them: 'it',
      },
    });
  });
});

describe('deriveChangedPathProof: fallbacks', () => {
  test('stale coverage is not used: static-only, no line lists', () => {
    assert.deepEqual(deriveChangedPathProof(input({ coverage: { lines: { 14: 1, 15: 1, 16: 1, 17: 1, 18: 1 } }, coverageFresh: false })), {
      path: DISCOUNT,
      state: 'static-only',
      reachingTests: ['test/pricing/discount.test.ts'],
      reachingTestCount: 1,
      coveredChangedLines: [],
      uncoveredChangedLines: [],
      instrumentedChangedLines: 0,
      reason: { messageId: 'static-stale-coverage', data: { path: DISCOUNT, tests: 1, testFiles: 'test file', reaches: 'reaches' } },
      repairTask: {
        messageId: 'static-stale-coverage-task',
        data: { path: DISCOUNT, command: '', lines: 'lines 14-18', runs: 'run', nearest: 'test/pricing/discount.test.ts' },
      },
    });
  });

  test('comment- or type-only changes have no executable changed lines: static-only', () => {
    const proof = deriveChangedPathProof(input({ changedLines: [2, 3, 7], coverage: { lines: { 5: 1, 9: 0 } } }));
    assert.equal(proof.state, 'static-only');
    assert.deepEqual([proof.coveredChangedLines, proof.uncoveredChangedLines, proof.instrumentedChangedLines], [[], [], 0]);
    assert.deepEqual(proof.reason, { messageId: 'static-not-executable', data: { path: DISCOUNT, lines: 'lines 2-3, 7' } });
    assert.deepEqual(proof.repairTask, {
      messageId: 'static-not-executable-task',
      data: { path: DISCOUNT, Lines: 'Lines 2-3, 7', holds: 'hold', nearest: 'test/pricing/discount.test.ts' },
    });
  });

  test('a change that only removes lines has no executable changed lines', () => {
    const proof = deriveChangedPathProof(input({ changedLines: [], coverage: { lines: { 5: 1 } } }));
    assert.deepEqual(
      [proof.state, proof.reason, proof.repairTask],
      [
        'static-only',
        { messageId: 'static-no-changed-lines', data: { path: DISCOUNT } },
        { messageId: 'static-no-changed-lines-task', data: { path: DISCOUNT, nearest: 'test/pricing/discount.test.ts' } },
      ],
    );
  });

  // Check 48 (urfave/cli): "Fix typos" reworded two `fmt.Errorf` messages and was asked to extend a test to run them.
  test('a change that only rewords messages asks to run the reaching tests; fresh coverage still decides', () => {
    const reworded = deriveChangedPathProof(input({ changedLines: [14], messageOnly: true }));
    assert.deepEqual(
      [reworded.state, reworded.reason, reworded.repairTask],
      [
        'static-only',
        { messageId: 'static-message-only', data: { path: DISCOUNT, lines: 'line 14' } },
        { messageId: 'static-no-changed-lines-task', data: { path: DISCOUNT, nearest: 'test/pricing/discount.test.ts' } },
      ],
    );
    const covered = deriveChangedPathProof(
      input({ changedLines: [14], messageOnly: true, coverage: { lines: { 14: 2 } }, coverageFresh: true }),
    );
    assert.equal(covered.state, 'runtime-proven');
    // No test reaches the file (express-session's release script, `placegolder` → `placeholder`): none asserts the old
    // text and nothing else runs otherwise; the reason says so and there is no task.
    const unreached = deriveChangedPathProof(input({ changedLines: [14], messageOnly: true, reachingTests: [] }));
    assert.deepEqual(
      [unreached.state, unreached.reason, unreached.repairTask],
      ['unproven', { messageId: 'unproven-message-only', data: { path: DISCOUNT, lines: 'line 14' } }, undefined],
    );
    assert.equal(deriveChangedPathProof(input({ changedLines: [14], reachingTests: [] })).repairTask?.messageId, 'unproven-task');
  });

  // Check 70 (logrus): a new hooks/slog/handler.go, reached by the package's slog_test.go, which never calls it.
  test("a new Go file that no test of its package names asks for its own test, not another file's", () => {
    const added = (overrides: Partial<ChangedPathProofInput>): string | undefined => {
      const data: Record<string, string | number> | undefined = deriveChangedPathProof(
        input({
          path: 'hooks/slog/handler.go',
          status: 'added',
          changedLines: [1, 2, 3],
          reachingTests: [reaching('hooks/slog/slog_test.go', 1)],
          coverageFresh: false,
          ...overrides,
        }),
      ).repairTask?.data;
      return data?.nearest === undefined ? undefined : String(data.nearest);
    };
    assert.equal(added({}), 'hooks/slog/handler_test.go (create it: no test of the package names the new code)');
    // A test that calls the new code is the one to extend; so is one the change edits; a modified file keeps its nearest.
    assert.match(
      added({ symbolTests: [{ path: 'hooks/slog/slog_test.go', names: ['NewHandler'] }] }) ?? '',
      /^hooks\/slog\/slog_test\.go \(it imports NewHandler\)/,
    );
    assert.match(added({ updatedTests: ['hooks/slog/slog_test.go'] }) ?? '', /^hooks\/slog\/slog_test\.go \(this change edits it\)/);
    assert.equal(added({ status: 'modified' }), 'hooks/slog/slog_test.go');
  });

  test('reaching tests are deduplicated, sorted by distance then path, and capped at 20 with the full count', () => {
    const many = Array.from({ length: 25 }, (_, index) =>
      reaching(`test/case-${String(index).padStart(2, '0')}.test.ts`, index < 5 ? 2 : 1),
    );
    const proof = deriveChangedPathProof(input({ reachingTests: [...many, reaching('test/case-07.test.ts', 3)] }));
    assert.equal(proof.reachingTestCount, 25);
    assert.equal(proof.reachingTests.length, 20);
    assert.deepEqual(proof.reachingTests.slice(0, 3), ['test/case-05.test.ts', 'test/case-06.test.ts', 'test/case-07.test.ts']);
    assert.deepEqual(proof.reachingTests.slice(18), ['test/case-23.test.ts', 'test/case-24.test.ts']);
    assert.equal(proof.reachingTests.includes('test/case-00.test.ts'), false);
    assert.deepEqual(proof.reason, {
      messageId: 'static-no-coverage',
      data: { path: DISCOUNT, tests: 25, testFiles: 'test files', reaches: 'reach' },
    });
  });
});

describe('deriveChangedPathProof: deleted files', () => {
  test('tests of the base side make a deletion static-only, and the task names them', () => {
    assert.deepEqual(
      deriveChangedPathProof({
        path: 'src/legacy/rates.ts',
        status: 'deleted',
        changedLines: [],
        reachingTests: [reaching('test/rates.test.ts', 1), reaching('test/checkout.test.ts', 2)],
        coverage: { lines: { 1: 1 } },
        coverageFresh: true,
      }),
      {
        path: 'src/legacy/rates.ts',
        state: 'static-only',
        reachingTests: ['test/rates.test.ts', 'test/checkout.test.ts'],
        reachingTestCount: 2,
        coveredChangedLines: [],
        uncoveredChangedLines: [],
        instrumentedChangedLines: 0,
        reason: { messageId: 'static-deleted', data: { path: 'src/legacy/rates.ts', tests: 2, testFiles: 'test files' } },
        repairTask: {
          messageId: 'static-deleted-task',
          data: { path: 'src/legacy/rates.ts', importers: 'test/rates.test.ts and test/checkout.test.ts' },
        },
      },
    );
  });

  test('a deleted file only mocked by tests is a mocked boundary; one no test reached is unproven', () => {
    const mocked = deriveChangedPathProof({
      path: 'src/legacy/rates.ts',
      status: 'deleted',
      changedLines: [],
      reachingTests: [reaching('test/rates.test.ts', 1, true)],
      coverageFresh: false,
    });
    assert.deepEqual(
      [mocked.state, mocked.reason, mocked.repairTask],
      [
        'mocked-boundary',
        { messageId: 'mocked-boundary-deleted', data: { path: 'src/legacy/rates.ts', mockers: 'test/rates.test.ts' } },
        {
          messageId: 'mocked-boundary-deleted-task',
          data: { path: 'src/legacy/rates.ts', mockers: 'test/rates.test.ts', mocks: 'mocks' },
        },
      ],
    );
    const orphan = deriveChangedPathProof({
      path: 'src/legacy/rates.ts',
      status: 'deleted',
      changedLines: [],
      reachingTests: [],
      coverageFresh: false,
    });
    assert.deepEqual(
      [orphan.state, orphan.reason, orphan.repairTask],
      [
        'unproven',
        { messageId: 'unproven-deleted', data: { path: 'src/legacy/rates.ts' } },
        { messageId: 'unproven-deleted-task', data: { path: 'src/legacy/rates.ts' } },
      ],
    );
  });
});

describe('proof helpers', () => {
  test('toChangedLines takes the head side of zero-context hunks and skips pure deletions', () => {
    assert.deepEqual(
      toChangedLines([
        { oldStart: 3, oldLines: 1, newStart: 3, newLines: 2 },
        { oldStart: 9, oldLines: 2, newStart: 9, newLines: 0 },
        { oldStart: 12, oldLines: 0, newStart: 13, newLines: 1 },
      ]),
      [3, 4, 13],
    );
  });

  test('formatLineRanges compresses runs and caps at eight ranges', () => {
    assert.equal(formatLineRanges([4]), 'line 4');
    assert.equal(formatLineRanges([18, 14, 15, 16, 17, 22, 22]), 'lines 14-18, 22');
    assert.equal(formatLineRanges([1, 3, 5, 7, 9, 11, 13, 15, 17, 19]), 'lines 1, 3, 5, 7, 9, 11, 13, 15 and 2 more ranges');
  });

  test('toSiblingTestPath follows <dir>/<name>.test.<ext>', () => {
    assert.deepEqual(
      [
        'src/pricing/discount.ts',
        'src/ui/Button.tsx',
        'lib/util.mjs',
        'index.js',
        'src/types/api.d.ts',
        'src/styles/theme.json',
        'Makefile',
      ].map(toSiblingTestPath),
      [
        'src/pricing/discount.test.ts',
        'src/ui/Button.test.tsx',
        'lib/util.test.mjs',
        'index.test.js',
        'src/types/api.test.ts',
        'src/styles/theme.test.ts',
        'Makefile.test.ts',
      ],
    );
  });
});

const EVIDENCE: CoverageEvidence = {
  sources: [
    { kind: 'lcov', path: 'coverage/lcov.info', generatedAt: '2026-03-01T12:00:00.000Z', files: 2 },
    { kind: 'v8', path: 'coverage/tmp/coverage-1.json', generatedAt: '2026-03-01T08:00:00.000Z', files: 1 },
  ],
  files: {
    'src/cart.ts': { lines: { 1: 1 }, source: 'lcov', sources: ['coverage/lcov.info'] },
    'src/pricing/discount.ts': { lines: { 1: 1 }, source: 'lcov', sources: ['coverage/lcov.info', 'coverage/tmp/coverage-1.json'] },
  },
  diagnostics: [],
};

describe('summarizeTestEvidence and isCoverageFreshFor', () => {
  test('no coverage found', () => {
    assert.deepEqual(summarizeTestEvidence({ sources: [], files: {}, diagnostics: [] }, '2026-03-01T10:00:00.000Z'), {
      found: false,
      sources: [],
      freshness: 'unknown',
      note: 'No runtime coverage found (looked for lcov.info, coverage/lcov.info, coverage/*/lcov.info, coverage/coverage-final.json, coverage/tmp/coverage-*.json, coverage.lcov and coverage.json (coverage.py), coverage.out and cover.out (go test -coverprofile)); changed-path proof is static only.',
    });
  });

  test('fresh when every source was written at or after the newest change', () => {
    const summary = summarizeTestEvidence(EVIDENCE, '2026-03-01T08:00:00.000Z');
    assert.equal(summary.freshness, 'fresh');
    assert.deepEqual(
      summary.sources.map((source) => source.fresh),
      [true, true],
    );
    assert.equal(
      summary.note,
      'Runtime coverage from coverage/lcov.info and coverage/tmp/coverage-1.json covers 2 files and was generated at or after the newest change (2026-03-01T08:00:00.000Z).',
    );
  });

  test('stale when any source predates the newest change, naming it', () => {
    assert.deepEqual(summarizeTestEvidence(EVIDENCE, '2026-03-01T10:00:00.000Z'), {
      found: true,
      sources: [
        { ...EVIDENCE.sources[0], fresh: true },
        { ...EVIDENCE.sources[1], fresh: false },
      ],
      freshness: 'stale',
      note: 'Runtime coverage from coverage/tmp/coverage-1.json is older than the newest change (2026-03-01T10:00:00.000Z); re-run the suite with coverage to refresh it. Stale coverage is not used as proof.',
    });
  });

  test('unknown without a change time', () => {
    const summary = summarizeTestEvidence(EVIDENCE);
    assert.equal(summary.freshness, 'unknown');
    assert.deepEqual(
      summary.sources.map((source) => source.fresh),
      [null, null],
    );
    assert.equal(
      summary.note,
      'Runtime coverage from coverage/lcov.info and coverage/tmp/coverage-1.json covers 2 files; the time of the newest change is unknown, so its freshness cannot be judged.',
    );
  });

  test('per-file freshness requires every source that covered the file to postdate the change', () => {
    const change = '2026-03-01T10:00:00.000Z';
    assert.equal(isCoverageFreshFor(EVIDENCE, 'src/cart.ts', change), true);
    assert.equal(isCoverageFreshFor(EVIDENCE, 'src/pricing/discount.ts', change), false);
    assert.equal(isCoverageFreshFor(EVIDENCE, 'src/missing.ts', change), false);
    assert.equal(isCoverageFreshFor(EVIDENCE, 'src/pricing/discount.ts'), true);
  });
});

describe('repair tasks name the test that exercises the changed symbol, with the verb for its kind', () => {
  test('the test that imports the changed symbol is the one to extend, before a nearer test that only reaches the module', () => {
    const proof = deriveChangedPathProof(
      input({
        reachingTests: [reaching('test/locale.test.ts', 1), reaching('test/error-utils.test.ts', 2)],
        coverage: { lines: { 14: 0, 15: 1 } },
        changedSymbols: ['applyDiscount'],
        symbolTests: [{ path: 'test/error-utils.test.ts', names: ['applyDiscount'] }],
      }),
    );
    assert.deepEqual(proof.repairTask, {
      messageId: 'runtime-unproven-task',
      data: {
        path: DISCOUNT,
        nearest: 'test/error-utils.test.ts (it imports applyDiscount)',
        exercise: 'calls applyDiscount',
        uncoveredLines: 'line 14',
        executes: 'executes',
        them: 'it',
      },
    });
  });

  test('a type test is never the one to extend for runtime lines, even one the change edits and that imports the symbol (execa)', () => {
    const proof = deriveChangedPathProof(
      input({
        reachingTests: [reaching('test-d/pricing/discount.test-d.ts', 1), reaching('test/io/max-buffer.js', 2)],
        coverage: { lines: { 14: 0 } },
        changedSymbols: ['applyDiscount'],
        symbolTests: [{ path: 'test-d/pricing/discount.test-d.ts', names: ['applyDiscount'] }],
        updatedTests: ['test-d/pricing/discount.test-d.ts'],
      }),
    );
    assert.equal(proof.repairTask?.messageId, 'runtime-unproven-task');
    assert.equal(proof.repairTask.data.nearest, 'test/io/max-buffer.js');
  });

  test('when only a type test reaches, a new test beside the file is the one to write, not the type test (socket.io)', () => {
    const proof = deriveChangedPathProof(
      input({ reachingTests: [reaching('test/pricing.test-d.ts', 1)], coverage: { lines: { 14: 0 } }, changedSymbols: ['applyDiscount'] }),
    );
    assert.equal(proof.repairTask?.messageId, 'runtime-unproven-task');
    assert.equal(proof.repairTask.data.nearest, toSiblingTestPath(DISCOUNT));
  });

  test('of tests that import the changed symbol alike, the one the reaching tests rank first, not the first by path', () => {
    // outline: plugins/notion/…/NotionConverter.test.ts and server/models/helpers/ProseMirrorHelper.test.ts both import
    // ProsemirrorHelper; the helper's own test names the change and comes first among the reaching tests.
    const proof = deriveChangedPathProof(
      input({
        reachingTests: [
          { ...reaching('src/pricing/discount.test.ts', 1), relevance: 4 },
          { ...reaching('plugins/cart/cart.test.ts', 1), relevance: 0 },
        ],
        coverage: { lines: { 14: 0 } },
        changedSymbols: ['applyDiscount'],
        symbolTests: [
          { path: 'plugins/cart/cart.test.ts', names: ['applyDiscount'] },
          { path: 'src/pricing/discount.test.ts', names: ['applyDiscount'] },
        ],
      }),
    );
    assert.equal(proof.repairTask?.messageId, 'runtime-unproven-task');
    assert.equal(proof.repairTask.data.nearest, 'src/pricing/discount.test.ts (it imports applyDiscount)');
  });

  test('a reaching test that names the change more closely than every importer of the symbol is the one to extend (msw)', () => {
    // isHandlerKind.test.ts imports RequestHandler only to subclass it for a type guard; handleRequest.test.ts drives
    // the changed run() through the handlers it builds, and names it.
    const proof = deriveChangedPathProof(
      input({
        reachingTests: [
          { ...reaching('src/utils/handleRequest.test.ts', 2), relevance: 3 },
          { ...reaching('src/utils/isHandlerKind.test.ts', 1), relevance: 0 },
        ],
        coverage: { lines: { 14: 0 } },
        changedSymbols: ['applyDiscount'],
        symbolTests: [{ path: 'src/utils/isHandlerKind.test.ts', names: ['applyDiscount'] }],
      }),
    );
    assert.equal(proof.repairTask?.messageId, 'runtime-unproven-task');
    assert.equal(proof.repairTask.data.nearest, 'src/utils/handleRequest.test.ts');
    // An importer that names the change as closely stays the one to extend.
    const level = deriveChangedPathProof(
      input({
        reachingTests: [
          { ...reaching('src/utils/handleRequest.test.ts', 2), relevance: 3 },
          { ...reaching('src/utils/isHandlerKind.test.ts', 1), relevance: 3 },
        ],
        coverage: { lines: { 14: 0 } },
        changedSymbols: ['applyDiscount'],
        symbolTests: [{ path: 'src/utils/isHandlerKind.test.ts', names: ['applyDiscount'] }],
      }),
    );
    assert.equal(level.repairTask?.messageId, 'runtime-unproven-task');
    assert.equal(level.repairTask.data.nearest, 'src/utils/isHandlerKind.test.ts (it imports applyDiscount)');
  });

  test('among many reaching tests none of which names the change, the nearest is named as a guess (excalidraw App.tsx)', () => {
    const many = ['a', 'b', 'c', 'd', 'e'].map((name, index) => reaching(`tests/${name}.test.tsx`, index + 1));
    const guess = deriveChangedPathProof(input({ reachingTests: many, coverage: { lines: { 14: 0 } }, changedSymbols: ['default'] }));
    assert.equal(guess.repairTask?.messageId, 'runtime-unproven-task');
    assert.equal(
      guess.repairTask.data.nearest,
      `one of the 5 tests that reach ${DISCOUNT} (none names the changed code; the nearest is tests/a.test.tsx)`,
    );
    assert.equal(guess.repairTask.data.exercise, 'calls the default export');
    // One that names the change, or few tests, make the choice.
    const named = deriveChangedPathProof(
      input({ reachingTests: [...many.slice(0, 4), { ...reaching('tests/e.test.tsx', 5), relevance: 1 }], coverage: { lines: { 14: 0 } } }),
    );
    assert.equal(named.repairTask?.messageId, 'runtime-unproven-task');
    assert.equal(named.repairTask.data.nearest, 'tests/e.test.tsx');
    const few = deriveChangedPathProof(input({ reachingTests: many.slice(0, 4), coverage: { lines: { 14: 0 } } }));
    assert.equal(few.repairTask?.messageId, 'runtime-unproven-task');
    assert.equal(few.repairTask.data.nearest, 'tests/a.test.tsx');
  });

  test('a file of the test folder that declares no test case is never the one to extend (msw *.mocks.ts)', () => {
    const proof = deriveChangedPathProof(
      input({
        reachingTests: [
          { ...reaching('test/browser/find-worker.mocks.ts', 1), relevance: 5 },
          { ...reaching('test/browser/find-worker.test.ts', 2), relevance: 2 },
        ],
        coverage: { lines: { 14: 0 } },
        caselessTests: ['test/browser/find-worker.mocks.ts'],
        symbolTests: [{ path: 'test/browser/find-worker.mocks.ts', names: ['applyDiscount'] }],
      }),
    );
    assert.equal(proof.repairTask?.messageId, 'runtime-unproven-task');
    assert.equal(proof.repairTask.data.nearest, 'test/browser/find-worker.test.ts');
  });

  test('a test that mocks the symbol is not the one to extend', () => {
    const proof = deriveChangedPathProof(
      input({
        reachingTests: [reaching('test/mocking.test.ts', 1, true), reaching('test/real.test.ts', 2)],
        coverage: { lines: { 14: 0 } },
        symbolTests: [{ path: 'test/mocking.test.ts', names: ['applyDiscount'] }],
      }),
    );
    assert.equal(proof.repairTask?.messageId, 'runtime-unproven-task');
    assert.equal(proof.repairTask.data.nearest, 'test/real.test.ts');
    assert.equal(proof.repairTask.data.exercise, 'exercises the changed code');
  });

  test('verbs: call a function, construct a class, render a component, use a value', () => {
    const proof = deriveChangedPathProof(
      input({
        reachingTests: [],
        changedSymbols: [
          { name: 'applyDiscount', verb: 'calls' },
          { name: 'Cart', verb: 'constructs' },
          { name: 'PriceTag', verb: 'renders' },
          { name: 'MAX_DISCOUNT', verb: 'uses' },
          { name: 'roundPrice', verb: 'calls' },
        ],
      }),
    );
    assert.equal(proof.repairTask?.messageId, 'unproven-task');
    assert.equal(
      proof.repairTask.data.exercise,
      'calls applyDiscount and roundPrice and constructs Cart and renders PriceTag and uses MAX_DISCOUNT',
    );
    assert.equal(proof.repairTask.data.onLines, ' on lines 14-18');
  });
});
