import type { ChangeStatus } from './change.js';
import type { Diagnostic } from './diagnostic.js';

/** The report formats read: lcov (coverage.py's `coverage lcov` too), istanbul JSON, V8 JSON, coverage.py JSON, Go cover profiles. */
export type CoverageKind = 'lcov' | 'istanbul' | 'v8' | 'coverage-py' | 'go-cover';

export interface CoverageSource {
  kind: CoverageKind;
  /** Repository-relative POSIX path of the coverage file. */
  path: string;
  /** ISO time of the coverage file's mtime. */
  generatedAt: string;
  /** Repository files this source contributed line data for. */
  files: number;
  /** Paths written on another machine (different absolute root) that were mapped by suffix to repository files. */
  remappedFiles?: number;
  /** Paths of another root that matched no repository file. */
  unmatchedFiles?: number;
  /** The configured check whose passing run wrote this file (`checker execute`), and that run's id. */
  check?: string;
  runId?: string;
}

export interface FileCoverage {
  /** Line (1-based) → hit count; only instrumented lines appear. */
  lines: Record<number, number>;
  /** Kind of the first source that covered the file. */
  source: CoverageKind;
  /** Paths of every coverage source merged into `lines` (hits are summed). */
  sources: string[];
  /** The configured checks whose runs (`checker execute`) wrote any of those sources. */
  checks?: string[];
}

export interface CoverageEvidence {
  sources: CoverageSource[];
  /** Keyed by repository-relative POSIX path. */
  files: Record<string, FileCoverage>;
  diagnostics: Diagnostic[];
}

export type ProofState = 'runtime-proven' | 'runtime-unproven' | 'static-only' | 'mocked-boundary' | 'unproven';

export interface ReachingTest {
  testFile: string;
  distance: number;
  via: string[];
  mocksChangedModule: boolean;
  /**
   * Set when the test is reached through an HTTP call: the evidence id of the route the change reaches (`route:POST
   * /api/orders`) that the test calls, or that a file it imports calls. `via` then runs from the changed file to the
   * route's file, then from the calling file to the test's importer.
   */
  route?: string;
  /**
   * How closely the test names what changed (its path, titles and code against the changed file's name and changed
   * callables; src/ranking/test-relevance.ts): orders the reaching tests, 0 or absent when it names none of it.
   */
  relevance?: number;
}

/** A changed symbol and the verb a test uses on it: call a function, construct a class, render a component, use a value. */
export interface ChangedSymbol {
  name: string;
  verb: 'calls' | 'constructs' | 'renders' | 'uses';
}

export interface ChangedPathProofInput {
  path: string;
  status: ChangeStatus;
  /** Head-side lines added or modified. */
  changedLines: number[];
  /** For deleted files: the tests that reached the file on the base side. */
  reachingTests: ReachingTest[];
  coverage?: { lines: Record<number, number> };
  /** False when the coverage is older than the newest change. */
  coverageFresh: boolean;
  /** Changed exports or functions to name in the repair task, with how a test exercises them (default `calls`). */
  changedSymbols?: (string | ChangedSymbol)[];
  /** Test files that import a changed symbol of this file (not only the file): the first is the one to extend. */
  symbolTests?: {
    path: string;
    names: string[];
    /** It imports the module whole (`import * as ns`): it may name none of `names`, so the task does not say it imports them. */
    whole?: boolean;
  }[];
  /** Test files the change itself edits (they are where its author put the proof). */
  updatedTests?: string[];
  /**
   * Reaching tests that can run the code where it runs, when that is not everywhere: a module whose code a browser
   * capability check guards (`typeof XMLHttpRequest !== 'undefined'`) and the tests a browser runner (karma) runs. The
   * first of them is the one to extend, before a Node test that reaches the module but cannot run it.
   */
  runnableTests?: string[];
  /**
   * Reaching files that are no test of their own: not named as a test, and declaring no test case (a page script a
   * browser test loads by path) or imported by other tests (a helper). None is extended.
   */
  caselessTests?: string[];
  /**
   * Reaching test files whose every case runs only where a condition holds (unstorage's S3 suite,
   * `describe.skipIf(!accessKeyId)`, which needs credentials): another reaching test is extended first.
   */
  conditionalTests?: string[];
  /**
   * Where a new test of the file goes, as the repository places the tests of its sources (test-placement.ts:
   * `test/locale/it.test.js` for `src/locale/it.js`); the sibling `<name>.test.<ext>` when absent.
   */
  newTestPath?: string;
  /**
   * The change only rewords messages (an error's text, a log line: src/rules/message-text.ts): what can fail is a test
   * that asserts the old text, so the task is to run the reaching tests rather than to make the lines run.
   */
  messageOnly?: boolean;
  /** The repository's coverage command, e.g. `npx vitest run --coverage`. */
  coverageCommand?: string;
}

export interface ChangedPathProof {
  path: string;
  state: ProofState;
  /** Reaching test files sorted by distance then path, at most 20. */
  reachingTests: string[];
  /** All distinct reaching test files, before the cap. */
  reachingTestCount: number;
  coveredChangedLines: number[];
  uncoveredChangedLines: number[];
  instrumentedChangedLines: number;
  reason: string;
  /** Concrete instruction for the coding agent; empty for `runtime-proven`. */
  repairTask: string;
  /** The configured checks whose passing run (`checker execute`) gave the runtime evidence, when one did. */
  runtimeChecks?: string[];
}

export type CoverageFreshness = 'fresh' | 'stale' | 'unknown';

export interface TestEvidenceSource extends CoverageSource {
  /** null when the time of the newest change is unknown. */
  fresh: boolean | null;
}

export interface TestEvidence {
  found: boolean;
  sources: TestEvidenceSource[];
  freshness: CoverageFreshness;
  note: string;
}
