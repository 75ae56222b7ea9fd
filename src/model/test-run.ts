/** A test runner checker can name files to: its command takes test file paths (Go's, packages and test names). */
export type TestRunner = 'vitest' | 'jest' | 'mocha' | 'ava' | 'playwright' | 'cypress' | 'node' | 'pytest' | 'go';

export const TEST_RUNNERS: readonly TestRunner[] = ['vitest', 'jest', 'mocha', 'ava', 'playwright', 'cypress', 'node', 'pytest', 'go'];

/** One command line of a test run. */
export interface TestRunCommand {
  /** The folder it runs in, relative to the repository root (`` for the root). */
  cwd: string;
  /** The runner it calls, or `script` for the whole suite (the package manager's `test` script, `python -m pytest`, `go test ./...`). */
  runner: TestRunner | 'script';
  /** The exact command, every path shell-quoted, to run from `cwd`. */
  command: string;
  /** The test files it runs, relative to the repository root, nearest to the change first (none for a script). */
  files: string[];
}

/**
 * The tests to run for a change: `reaching`, the test files that reach it (the changed tests first, then by import
 * distance), as commands of their detected runners; `full-suite`, the package manager's test script, when nothing
 * reaches the change, a manifest or config change touches everything, or no runner is detected for the files;
 * `none` when the change has neither runtime code nor tests.
 */
export interface TestRun {
  scope: 'reaching' | 'full-suite' | 'none';
  /** Why this scope, in a sentence. */
  reason: string;
  commands: TestRunCommand[];
  /** Reaching test files left out by the cap (the JSON's reaching tests list them all). */
  omitted: number;
}
