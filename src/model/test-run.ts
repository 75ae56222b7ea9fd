/** A test runner checker can name files to: its command takes test file paths (Go's, packages and test names). */
export type TestRunner =
  | 'vitest'
  | 'jest'
  | 'mocha'
  | 'jasmine'
  | 'ava'
  /** node-tap (`npx tap <files>`) and tape (`npx tape <files>`): each test file is a program that prints TAP. */
  | 'tap'
  | 'tape'
  /** hapi's lab (`npx lab <files>`). */
  | 'lab'
  /** uvu: given a folder and a pattern of file names (`npx uvu test '^(?:a\\.test\\.js)$'`). */
  | 'uvu'
  | 'playwright'
  | 'cypress'
  | 'node'
  | 'pytest'
  | 'go'
  /** Runs its whole suite from a config (`npx karma start <config> --single-run`): it cannot be given files. */
  | 'karma'
  /** Type tests (`*.test-d.ts`): tsd checks the package's whole type-test folder. */
  | 'tsd'
  /** Type tests (`*.tst.ts`). */
  | 'tstyche';

export const TEST_RUNNERS: readonly TestRunner[] = [
  'vitest',
  'jest',
  'mocha',
  'jasmine',
  'ava',
  'tap',
  'tape',
  'lab',
  'uvu',
  'playwright',
  'cypress',
  'node',
  'pytest',
  'go',
  'karma',
  'tsd',
  'tstyche',
];

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
  /** What the command runs beyond `files` when its runner cannot be given them (karma, tsd): the whole suite, and why. */
  note?: string;
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
