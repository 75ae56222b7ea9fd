import { isBenchmarkPath, isTypeTestPath, toSiblingTestPath } from '../graph/roles.js';
import type { SymbolImporter } from '../model/analysis.js';
import type { Hunk } from '../model/change.js';
import type {
  ChangedSymbol,
  ChangedPathProof,
  ChangedPathProofInput,
  CoverageEvidence,
  CoverageFreshness,
  ProofState,
  ReachingTest,
  TestEvidence,
  TestEvidenceSource,
} from '../model/coverage.js';
import type { ProofMessage } from '../model/rules.js';
import { compareText } from '../text/compare-text.js';
import { formatLineRanges } from '../text/line-ranges.js';

const MAX_REACHING_TESTS = 20;
const MAX_LISTED_NAMES = 3;

const SEARCHED_LOCATIONS =
  'lcov.info, coverage/lcov.info, coverage/*/lcov.info, coverage/coverage-final.json, coverage/tmp/coverage-*.json, coverage.lcov and coverage.json (coverage.py), coverage.out and cover.out (go test -coverprofile)';

/** Head-side lines added or modified by zero-context hunks (as `git diff -U0` numbers them). */
export function toChangedLines(hunks: readonly Hunk[]): number[] {
  const lines = new Set<number>();
  for (const hunk of hunks) for (let offset = 0; offset < hunk.newLines; offset += 1) lines.add(hunk.newStart + offset);
  return [...lines].sort((a, b) => a - b);
}

function joinNames(names: readonly string[]): string {
  const shown = names.slice(0, MAX_LISTED_NAMES);
  const extra = names.length - shown.length;
  if (extra > 0) return `${shown.join(', ')} and ${extra} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1] ?? ''}`;
}

/** `calls a and b, constructs Cart`: what a test does with the changed symbols; types are never among them. */
function describeExercise(symbols: readonly (string | ChangedSymbol)[]): string {
  if (symbols.length === 0) return 'exercises the changed code';
  const byVerb = new Map<ChangedSymbol['verb'], string[]>();
  for (const symbol of symbols) {
    const { name, verb } = typeof symbol === 'string' ? { name: symbol, verb: 'calls' as const } : symbol;
    byVerb.set(verb, [...(byVerb.get(verb) ?? []), name === 'default' ? 'the default export' : name]);
  }
  return [...byVerb.entries()].map(([verb, names]) => `${verb} ${joinNames(names)}`).join(' and ');
}

/** From this many reaching tests on, none of which names the change, the first by distance is a guess, not a choice. */
const MANY_REACHING_TESTS = 5;

/**
 * The test to extend when no test imports the changed symbol or is edited by the change: the one that names the
 * change most closely, or the nearest. Among many reaching tests of which none names the change (excalidraw's App.tsx,
 * which 78 tests render), the nearest is one of many alike: the task says so, and names it as the nearest only.
 */
function describeFallback(ordered: readonly { path: string; mocks: boolean; relevance: number }[], path: string, sibling: string): string {
  const candidates = ordered.filter((test) => !test.mocks && !isTypeTestPath(test.path));
  const first = candidates[0];
  // Only type tests (and mocks) reach: a type test never runs a line, so a new test beside the file, not the type test.
  if (first === undefined) return ordered.find((test) => !isTypeTestPath(test.path))?.path ?? sibling;
  if (first.relevance > 0 || candidates.length < MANY_REACHING_TESTS) return first.path;
  return `one of the ${candidates.length} tests that reach ${path} (none names the changed code; the nearest is ${first.path})`;
}

/** Reaching tests, those that name the change most closely first (relevance), then nearest by imports, then by path. */
function orderReachingTests(tests: readonly ReachingTest[]): { path: string; mocks: boolean; relevance: number }[] {
  const best = new Map<string, { distance: number; mocks: boolean; relevance: number }>();
  for (const test of tests) {
    const known = best.get(test.testFile);
    const relevance = test.relevance ?? 0;
    if (known === undefined) best.set(test.testFile, { distance: test.distance, mocks: test.mocksChangedModule, relevance });
    else
      best.set(test.testFile, {
        distance: Math.min(known.distance, test.distance),
        mocks: known.mocks && test.mocksChangedModule,
        relevance: Math.max(known.relevance, relevance),
      });
  }
  // A benchmark measures speed: a proof goes to a test of behaviour first (yarl's tests/test_url_benchmarks.py called
  // the changed parser as often as test_url.py).
  return [...best.entries()]
    .sort(
      ([a, x], [b, y]) =>
        Number(isBenchmarkPath(a)) - Number(isBenchmarkPath(b)) ||
        y.relevance - x.relevance ||
        x.distance - y.distance ||
        compareText(a, b),
    )
    .map(([path, value]) => ({ path, mocks: value.mocks, relevance: value.relevance }));
}

/**
 * Whether an importer names the changed symbol: `import { x }`, `require`, `import()` or a namespace of
 * the changed module itself. A namespace or `import()` of an index that re-exports everything
 * (`import * as z from '../../index.js'`) or a side-effect import names nothing in particular.
 */
export function namesChangedSymbol(importer: Pick<SymbolImporter, 'use' | 'through' | 'typeOnly'>): boolean {
  const whole = importer.use === 'namespace' || importer.use === 'dynamic';
  return !importer.typeOnly && importer.use !== 'side-effect' && !(whole && importer.through.length > 0);
}

/** A changed path's proof as decided: the state and evidence, with message ids and data in place of wording. */
export interface ChangedPathProofJudgement extends Omit<ChangedPathProof, 'reason' | 'repairTask'> {
  reason: ProofMessage;
  /** Absent for `runtime-proven`: nothing to repair. */
  repairTask?: ProofMessage;
}

/**
 * How strongly the tests prove a changed file. Order: no reaching test → `unproven`; every reaching
 * test mocks the file → `mocked-boundary`; deleted, or no changed line left but removed or commented-out ones → `static-only`; no fresh coverage → `static-only`;
 * no instrumented changed line → `static-only`; every instrumented changed line hit →
 * `runtime-proven`; otherwise (some or none hit) → `runtime-unproven`, naming the lines that never ran.
 * The words come from the proof pack's messages (renderChangedPathProof).
 */
export function deriveChangedPathProof(input: ChangedPathProofInput): ChangedPathProofJudgement {
  const { path } = input;
  const ordered = orderReachingTests(input.reachingTests);
  const changedLines = [...new Set(input.changedLines)].filter((line) => Number.isInteger(line) && line > 0).sort((a, b) => a - b);
  const deleted = input.status === 'deleted';
  const useCoverage = input.coverage !== undefined && input.coverageFresh && !deleted;
  const hits = useCoverage && input.coverage !== undefined ? input.coverage.lines : {};
  const instrumented = changedLines.filter((line) => Object.hasOwn(hits, line));
  const covered = instrumented.filter((line) => (hits[line] ?? 0) > 0);
  const uncovered = instrumented.filter((line) => (hits[line] ?? 0) <= 0);

  const exercise = describeExercise(input.changedSymbols ?? []);
  const command = input.coverageCommand === undefined ? '' : ` (${input.coverageCommand})`;
  const sibling = input.newTestPath ?? toSiblingTestPath(path);
  const mockers = ordered.filter((test) => test.mocks).map((test) => test.path);
  // The test that already imports a changed symbol is the one to extend, before any file that only reaches the module.
  // A test the change itself edits and that reaches the file is where its author put the proof: extend that one first.
  const updated = new Set(input.updatedTests ?? []);
  // Where only some reaching tests can run the code (a browser runner's, for a module a browser capability check
  // guards), the test to extend is one of those.
  const runnable = new Set(input.runnableTests ?? []);
  // A type test (`*.test-d.ts`) checks types and runs nothing: it cannot execute a changed line, however it is edited.
  // Nor can a file that is no test of its own (a page script a browser test loads, a helper other tests import).
  const caseless = new Set(input.caselessTests ?? []);
  // A test that runs only under a condition (credentials, a platform) is extended only when no reaching test runs always.
  const conditional = new Set(input.conditionalTests ?? []);
  const isExtensible = (path: string): boolean => !isTypeTestPath(path) && !caseless.has(path);
  const runsAlways = ordered.some((test) => !test.mocks && isExtensible(test.path) && !conditional.has(test.path));
  const canRun = (path: string): boolean =>
    isExtensible(path) && (runnable.size === 0 || runnable.has(path)) && !(runsAlways && conditional.has(path));
  // Among tests that import as many changed names, the one the reaching tests rank first (it names the change, it is
  // nearer), not the first by path: a plugin's converter test that imports the helper is no better than the helper's own.
  const rank = new Map(ordered.map((test, index) => [test.path, index]));
  // A test that imports the changed class only to subclass it for a type guard names less of the change than one
  // that drives its changed methods (msw's isHandlerKind.test.ts against handleRequest.test.ts): a reaching test that
  // names the change more closely than every importer is the one to extend.
  const relevance = new Map(ordered.map((test) => [test.path, test.relevance]));
  const closest = ordered.find((test) => !test.mocks && canRun(test.path));
  // The importer the reaching tests rank first (the test named for the file, gorilla's conn_test.go for conn.go) goes
  // before one that says more of the changed names (client_server_test.go, which drives the whole connection).
  const isClosest = (test: { path: string }): number => (test.path === closest?.path ? 1 : 0);
  const symbolTests = (input.symbolTests ?? [])
    .filter((test) => !mockers.includes(test.path) && canRun(test.path))
    .sort(
      (left, right) =>
        isClosest(right) - isClosest(left) ||
        right.names.length - left.names.length ||
        (rank.get(left.path) ?? Number.MAX_SAFE_INTEGER) - (rank.get(right.path) ?? Number.MAX_SAFE_INTEGER),
    );
  const importerNamesLess = (path: string): boolean => (relevance.get(path) ?? 0) < (closest?.relevance ?? 0);
  const symbolTest =
    symbolTests.find((test) => updated.has(test.path)) ??
    (symbolTests.every((test) => importerNamesLess(test.path)) ? undefined : symbolTests[0]);
  const updatedTest = ordered.find((test) => !test.mocks && updated.has(test.path) && canRun(test.path));
  const runnableTest = runnable.size === 0 ? undefined : ordered.find((test) => !test.mocks && runnable.has(test.path));
  // A Go package's tests all reach each of its files; where none names a new file's code, the test to write is the
  // file's own (logrus's new hooks/slog/handler.go, whose fix added handler_test.go beside a slog_test.go that never
  // calls it).
  const ownGoTest =
    path.endsWith('.go') && input.status === 'added' && symbolTest === undefined && updatedTest === undefined
      ? `${sibling} (create it: no test of the package names the new code)`
      : undefined;
  const nearest =
    symbolTest !== undefined && (updated.has(symbolTest.path) || updatedTest === undefined)
      ? `${symbolTest.path} (it imports ${symbolTest.whole === true ? `${path} whole` : joinNames(symbolTest.names)}${updated.has(symbolTest.path) ? '; this change edits it' : ''})`
      : updatedTest !== undefined
        ? `${updatedTest.path} (this change edits it)`
        : runnableTest !== undefined
          ? `${runnableTest.path} (a browser runner runs it)`
          : ownGoTest !== undefined
            ? ownGoTest
            : describeFallback(
                ordered.filter((test) => !caseless.has(test.path) && !(runsAlways && conditional.has(test.path))),
                path,
                sibling,
              );
  const onLines = changedLines.length > 0 ? ` on ${formatLineRanges(changedLines)}` : '';
  const tests = ordered.length;
  const testFiles = tests === 1 ? 'test file' : 'test files';
  const reaches = tests === 1 ? 'reaches' : 'reach';
  const lines = changedLines.length > 0 ? formatLineRanges(changedLines) : 'the changed code';
  const several = changedLines.length > 1;

  const build = (state: ProofState, reason: ProofMessage, repairTask?: ProofMessage): ChangedPathProofJudgement => ({
    path,
    state,
    reachingTests: ordered.slice(0, MAX_REACHING_TESTS).map((test) => test.path),
    reachingTestCount: ordered.length,
    coveredChangedLines: useCoverage ? covered : [],
    uncoveredChangedLines: useCoverage ? uncovered : [],
    instrumentedChangedLines: useCoverage ? instrumented.length : 0,
    reason,
    ...(repairTask === undefined ? {} : { repairTask }),
  });

  if (ordered.length === 0) {
    if (deleted) {
      return build('unproven', { messageId: 'unproven-deleted', data: { path } }, { messageId: 'unproven-deleted-task', data: { path } });
    }
    // Only the text of messages changed, and no test reaches the file (express-session's release script: `placegolder`
    // → `placeholder` in a `console.error`): nothing runs otherwise, and no test asserts the old text. No task.
    if (input.messageOnly === true && input.coverage === undefined)
      return build('unproven', { messageId: 'unproven-message-only', data: { path, lines } });
    return build(
      'unproven',
      { messageId: 'unproven', data: { path } },
      { messageId: 'unproven-task', data: { path, sibling, exercise, onLines, command } },
    );
  }

  if (mockers.length === ordered.length) {
    const mocks = mockers.length === 1 ? 'mocks' : 'mock';
    const names = joinNames(mockers);
    if (deleted) {
      return build(
        'mocked-boundary',
        { messageId: 'mocked-boundary-deleted', data: { path, mockers: names } },
        { messageId: 'mocked-boundary-deleted-task', data: { path, mockers: names, mocks } },
      );
    }
    const neverRuns = mockers.length === 1 ? 'it never runs' : 'they never run';
    return build(
      'mocked-boundary',
      { messageId: 'mocked-boundary', data: { path, mockers: names } },
      { messageId: 'mocked-boundary-task', data: { path, sibling, exercise, onLines, mockers: names, mocks, neverRuns } },
    );
  }

  if (deleted) {
    const importers = joinNames(ordered.filter((test) => !test.mocks).map((test) => test.path));
    return build(
      'static-only',
      { messageId: 'static-deleted', data: { path, tests, testFiles } },
      { messageId: 'static-deleted-task', data: { path, importers } },
    );
  }

  // Only the text of messages changed (urfave/cli's `cant` → `can't` in two `fmt.Errorf` calls): a test asserting the
  // old text is what can fail, so the reaching tests are to be run, not extended. Fresh coverage still decides.
  if (input.messageOnly === true && input.coverage === undefined) {
    return build(
      'static-only',
      { messageId: 'static-message-only', data: { path, lines } },
      { messageId: 'static-no-changed-lines-task', data: { path, nearest } },
    );
  }

  // Only removed lines (or commented-out code, or a rename): nothing of the file is left to see run.
  if (changedLines.length === 0 && input.status !== 'added') {
    return build(
      'static-only',
      { messageId: 'static-no-changed-lines', data: { path } },
      { messageId: 'static-no-changed-lines-task', data: { path, nearest } },
    );
  }

  if (input.coverage === undefined) {
    return build(
      'static-only',
      { messageId: 'static-no-coverage', data: { path, tests, testFiles, reaches } },
      {
        messageId: 'static-no-coverage-task',
        data: { path, command, lines, executes: several ? 'execute' : 'executes', nearest, exercise },
      },
    );
  }

  if (!input.coverageFresh) {
    return build(
      'static-only',
      { messageId: 'static-stale-coverage', data: { path, tests, testFiles, reaches } },
      { messageId: 'static-stale-coverage-task', data: { path, command, lines, runs: several ? 'run' : 'runs', nearest } },
    );
  }

  if (instrumented.length === 0) {
    if (changedLines.length === 0) {
      return build(
        'static-only',
        { messageId: 'static-no-changed-lines', data: { path } },
        { messageId: 'static-no-changed-lines-task', data: { path, nearest } },
      );
    }
    return build(
      'static-only',
      { messageId: 'static-not-executable', data: { path, lines } },
      {
        messageId: 'static-not-executable-task',
        data: { path, Lines: `${lines.charAt(0).toUpperCase()}${lines.slice(1)}`, holds: several ? 'hold' : 'holds', nearest },
      },
    );
  }

  if (uncovered.length === 0) {
    return build('runtime-proven', { messageId: 'runtime-proven', data: { path, coveredLines: formatLineRanges(covered) } });
  }

  const uncoveredLines = formatLineRanges(uncovered);
  const reason: ProofMessage =
    covered.length === 0
      ? { messageId: 'runtime-unproven-none-ran', data: { path, uncoveredLines } }
      : {
          messageId: 'runtime-unproven-some-ran',
          data: { path, covered: covered.length, instrumented: instrumented.length, uncoveredLines },
        };
  const many = uncovered.length > 1;
  return build('runtime-unproven', reason, {
    messageId: 'runtime-unproven-task',
    data: { path, nearest, exercise, uncoveredLines, executes: many ? 'execute' : 'executes', them: many ? 'them' : 'it' },
  });
}

function isAtOrAfter(time: string, reference: string): boolean | null {
  const a = Date.parse(time);
  const b = Date.parse(reference);
  if (Number.isNaN(a) || Number.isNaN(b)) return null;
  return a >= b;
}

/**
 * Whether the coverage of `path` may be used as proof: every source that covered it was written at
 * or after `newestChangeTime`. Unknown time → true (the test evidence summary reports `unknown`).
 */
export function isCoverageFreshFor(evidence: CoverageEvidence, path: string, newestChangeTime?: string): boolean {
  if (!Object.hasOwn(evidence.files, path)) return false;
  if (newestChangeTime === undefined) return true;
  const file = evidence.files[path];
  if (file === undefined) return false;
  return file.sources.every((sourcePath) => {
    const source = evidence.sources.find((candidate) => candidate.path === sourcePath);
    return source !== undefined && isAtOrAfter(source.generatedAt, newestChangeTime) !== false;
  });
}

/** A coverage source as a reader names it: its path, or the configured check whose run wrote it (once per check). */
function toSourceLabels(sources: readonly TestEvidenceSource[]): string[] {
  const labels = sources.map((source) =>
    source.check === undefined ? source.path : `check ${source.check} (checker execute run ${source.runId ?? '?'})`,
  );
  return [...new Set(labels)];
}

/** The `evidence.testEvidence` entry: which runtime coverage was found and whether it postdates the change. */
export function summarizeTestEvidence(evidence: CoverageEvidence, newestChangeTime?: string): TestEvidence {
  const sources: TestEvidenceSource[] = evidence.sources.map((source) => ({
    ...source,
    fresh: newestChangeTime === undefined ? null : isAtOrAfter(source.generatedAt, newestChangeTime),
  }));
  if (sources.length === 0) {
    return {
      found: false,
      sources,
      freshness: 'unknown',
      note: `No runtime coverage found (looked for ${SEARCHED_LOCATIONS}); changed-path proof is static only.`,
    };
  }
  const fileCount = Object.keys(evidence.files).length;
  const covers = `covers ${fileCount} file${fileCount === 1 ? '' : 's'}`;
  const paths = joinNames(toSourceLabels(sources));
  let freshness: CoverageFreshness;
  if (newestChangeTime === undefined || sources.some((source) => source.fresh === null)) freshness = 'unknown';
  else freshness = sources.every((source) => source.fresh === true) ? 'fresh' : 'stale';
  if (freshness === 'unknown') {
    return {
      found: true,
      sources,
      freshness,
      note: `Runtime coverage from ${paths} ${covers}; the time of the newest change is unknown, so its freshness cannot be judged.`,
    };
  }
  if (freshness === 'fresh') {
    return {
      found: true,
      sources,
      freshness,
      note: `Runtime coverage from ${paths} ${covers} and was generated at or after the newest change (${newestChangeTime}).`,
    };
  }
  const stale = joinNames(toSourceLabels(sources.filter((source) => source.fresh === false)));
  return {
    found: true,
    sources,
    freshness,
    note: `Runtime coverage from ${stale} is older than the newest change (${newestChangeTime}); re-run the suite with coverage to refresh it. Stale coverage is not used as proof.`,
  };
}
