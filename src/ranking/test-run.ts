import { isBenchmarkPath } from '../graph/roles.js';
import type { TestRun, TestRunCommand, TestRunner } from '../model/test-run.js';
import { compareText } from '../text/compare-text.js';
import { quoteShellWord } from '../text/shell-quote.js';
import { countOf } from '../text/plural.js';

/** A test file to run: how near it is to the change (0 for a changed test) and where and how its runner runs it. */
export interface TestToRun {
  path: string;
  distance: number;
  /** The detected runner, undefined when none is. */
  runner: TestRunner | undefined;
  /** The folder the runner runs from (the package that declares it, or the root). */
  cwd: string;
  /** A TypeScript file run by `node --test` through tsx (the package depends on it). */
  viaTsx?: boolean;
  /** How closely the test names what changed (src/ranking/test-relevance.ts); 0 or absent when it names none of it. */
  relevance?: number;
  /** Go: the file's top-level test functions (`TestList`), which `go test -run` selects. */
  testNames?: string[];
  /** Go: every test file of the file's package; a command that runs them all runs the package whole, with no `-run`. */
  packageTests?: readonly string[];
  /** karma, or a config a package script names (vitest, jest, playwright): the config it runs with, repository-relative. */
  config?: string;
  /** vitest: a type test, run with `--typecheck`. */
  typecheck?: boolean;
  /** A type test (`*.test-d.ts`, `*.tst.ts`): with no runner, it is type-checked, not sent to the whole suite. */
  typeTest?: boolean;
  /** mocha and `node --test`: the load flags its package's script gives it, as flag and value pairs (`--require`, `@babel/register`). */
  flags?: readonly string[];
}

export interface TestRunInput {
  tests: TestToRun[];
  /** Set when the whole suite must run: a manifest, lockfile or config change, named. */
  fullSuiteReason?: string;
  /** Whether the change has runtime code (or tests) checker parses. */
  hasRuntimeChange: boolean;
  /** Languages of changed source files checker does not parse (Python, Go, …): their own tests are theirs to run. */
  unparsedLanguages?: readonly string[];
  /** `npm`, `pnpm`, `yarn` or `bun`: whose `test` script is the full suite; `pytest` or `go` for a Python or Go change. */
  packageManager: string;
  /** At most this many files across the commands (default 20). */
  maxFiles?: number;
}

const DEFAULT_MAX_FILES = 20;
/** `go test -run` names at most this many test functions; beyond it the selected packages run whole. */
const MAX_GO_RUN_NAMES = 40;

function toRelative(path: string, cwd: string): string {
  return cwd === '' ? path : path.slice(cwd.length + 1);
}

interface CommandGroup {
  runner: TestRunner;
  cwd: string;
  viaTsx: boolean;
  typecheck: boolean;
  config: string | undefined;
  flags: readonly string[];
  files: string[];
  testNames: string[];
  wholePackages?: boolean;
  /** Go: the test files of the packages the group's files are in. */
  packageTests: Set<string>;
}

/** `--config <path>` relative to the folder the command runs from, when the group runs with a config of its own. */
function configFlag(group: CommandGroup, flag: string): string[] {
  return group.config === undefined ? [] : [flag, quoteShellWord(toRelative(group.config, group.cwd))];
}

/** Flags each followed by its value, the values shell-quoted. */
function quoteFlagValues(flags: readonly string[]): string[] {
  return flags.map((word, index) => (index % 2 === 0 ? word : quoteShellWord(word)));
}

/** The deepest folder that holds every file ('' for none but the root). */
function commonFolder(files: readonly string[]): string {
  const folders = files.map((file) => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')).split('/') : []));
  const first = folders[0] ?? [];
  let depth = 0;
  while (depth < first.length && folders.every((parts) => parts[depth] === first[depth])) depth += 1;
  return first.slice(0, depth).join('/');
}

function buildCommand(group: CommandGroup, files: string[], testNames: readonly string[]): string {
  const words = files.map(quoteShellWord);
  switch (group.runner) {
    case 'pytest':
      return ['python', '-m', 'pytest', ...words].join(' ');
    case 'go': {
      // Go runs packages: the folders of the test files, each `./`-prefixed (a bare path names a module, not a folder).
      const folders = [...new Set(files.map((file) => (file.includes('/') ? `./${file.slice(0, file.lastIndexOf('/'))}` : '.')))];
      const names = [...new Set(testNames)].sort(compareText);
      // Past a screenful of names the pattern is unreadable and selects most of the packages anyway: run them whole.
      const run = names.length === 0 || names.length > MAX_GO_RUN_NAMES ? [] : ['-run', quoteShellWord(`^(${names.join('|')})$`)];
      return ['go', 'test', ...folders.map(quoteShellWord), ...run].join(' ');
    }
    case 'vitest':
      return ['npx', 'vitest', ...(group.typecheck ? ['--typecheck'] : []), 'run', ...configFlag(group, '--config'), ...words].join(' ');
    case 'jest':
      return ['npx', 'jest', ...configFlag(group, '--config'), '--runTestsByPath', ...words].join(' ');
    case 'mocha':
      return ['npx', 'mocha', ...quoteFlagValues(group.flags), ...words].join(' ');
    case 'jasmine':
      return ['npx', 'jasmine', ...words].join(' ');
    case 'ava':
      return ['npx', 'ava', ...words].join(' ');
    case 'tap':
      return ['npx', 'tap', ...words].join(' ');
    case 'tape':
      return ['npx', 'tape', ...words].join(' ');
    case 'lab':
      return ['npx', 'lab', ...quoteFlagValues(group.flags), ...words].join(' ');
    case 'uvu': {
      // uvu takes a folder and a pattern it tests each file's path below that folder with: the files' common folder,
      // and their paths below it, anchored.
      const folder = commonFolder(files);
      const names = files.map((file) => (folder === '' ? file : file.slice(folder.length + 1)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      return [
        'npx',
        'uvu',
        ...quoteFlagValues(group.flags),
        quoteShellWord(folder === '' ? '.' : folder),
        quoteShellWord(`^(?:${names.join('|')})$`),
      ].join(' ');
    }
    case 'playwright':
      return ['npx', 'playwright', 'test', ...configFlag(group, '--config'), ...words].join(' ');
    case 'cypress':
      return ['npx', 'cypress', 'run', '--spec', quoteShellWord(files.join(','))].join(' ');
    case 'node':
      // The script's own loader (`-r esbuild-register`) in place of tsx, which the package may not have.
      return [
        'node',
        ...(group.flags.length > 0 ? quoteFlagValues(group.flags) : group.viaTsx ? ['--import', 'tsx'] : []),
        '--test',
        ...words,
      ].join(' ');
    case 'karma':
      return [
        'npx',
        'karma',
        'start',
        ...(group.config === undefined ? [] : [quoteShellWord(toRelative(group.config, group.cwd))]),
        '--single-run',
      ].join(' ');
    case 'tsd':
      return 'npx tsd';
    case 'tstyche':
      return ['npx', 'tstyche', ...words].join(' ');
  }
}

/** Why a runner's command runs more than the files it was given, when it does. */
function getCommandNote(group: CommandGroup): string | undefined {
  if (group.runner === 'karma')
    return `karma cannot run single files: this runs the whole karma suite, which holds the ${countOf(group.files.length, 'reaching spec')}`;
  if (group.runner === 'tsd')
    return `tsd takes no file list: this checks every type test of the package, ${countOf(group.files.length, 'reaching one')} among them`;
  return undefined;
}

function fullSuite(packageManager: string, reason: string): TestRun {
  const manager = ['npm', 'pnpm', 'yarn', 'bun', 'pytest', 'go'].includes(packageManager) ? packageManager : 'npm';
  const command =
    manager === 'bun' ? 'bun run test' : manager === 'pytest' ? 'python -m pytest' : manager === 'go' ? 'go test ./...' : `${manager} test`;
  return { scope: 'full-suite', reason, commands: [{ cwd: '', runner: 'script', command, files: [] }], omitted: 0 };
}

/**
 * The commands that run the tests of a change (spec: tests to run): the changed tests and the tests that reach the
 * change, nearest first, grouped by runner and folder, at most `maxFiles` files; the full suite when a manifest or
 * config change touches everything, when nothing reaches runtime code that changed, or when no runner is detected
 * for any reaching test. Every path is shell-quoted, so a hostile file name stays one argument.
 */
export function planTestRun(input: TestRunInput): TestRun {
  if (input.fullSuiteReason !== undefined) return fullSuite(input.packageManager, input.fullSuiteReason);
  const nearest = new Map<string, TestToRun>();
  for (const test of input.tests) {
    const known = nearest.get(test.path);
    const relevance = Math.max(known?.relevance ?? 0, test.relevance ?? 0);
    nearest.set(test.path, known === undefined || test.distance < known.distance ? { ...test, relevance } : { ...known, relevance });
  }
  // Changed tests (distance 0) first, then the tests that name the change most closely, then the nearest by imports;
  // a benchmark (yarl's tests/test_url_benchmarks.py names the parser as often as test_url.py) after the tests of
  // behaviour, unless the change edits it.
  const ordered = [...nearest.values()].sort(
    (left, right) =>
      Number(right.distance === 0) - Number(left.distance === 0) ||
      Number(left.distance !== 0 && isBenchmarkPath(left.path)) - Number(right.distance !== 0 && isBenchmarkPath(right.path)) ||
      (right.relevance ?? 0) - (left.relevance ?? 0) ||
      left.distance - right.distance ||
      compareText(left.path, right.path),
  );
  if (ordered.length === 0) {
    if (input.hasRuntimeChange) return fullSuite(input.packageManager, 'no test file reaches the changed code: run the whole suite');
    const others = input.unparsedLanguages ?? [];
    const reason =
      others.length > 0
        ? `checker does not parse ${others.join(' or ')}: run the tests of the changed ${others.join(' and ')} files with their own runner`
        : 'the change has no runtime code and no tests to run';
    return { scope: 'none', reason, commands: [], omitted: 0 };
  }
  const runnable = ordered.filter((test) => test.runner !== undefined);
  const typeTests = ordered.filter((test) => test.runner === undefined && test.typeTest === true);
  if (runnable.length === 0 && typeTests.length === ordered.length) {
    return {
      scope: 'none',
      reason: `${countOf(typeTests.length, 'reaching type test')} (${typeTests.map((test) => test.path).join(', ')}) and no type-test runner declared (tsd, tstyche, vitest typecheck): type-check ${typeTests.length === 1 ? 'it' : 'them'} with the project's tsc`,
      commands: [],
      omitted: 0,
    };
  }
  if (runnable.length === 0) {
    return fullSuite(
      input.packageManager,
      `no test runner detected for the ${countOf(ordered.length, 'reaching test file')}: run the whole suite`,
    );
  }
  const maxFiles = Math.max(1, Math.floor(input.maxFiles ?? DEFAULT_MAX_FILES));
  const kept = runnable.slice(0, maxFiles);
  const groups = new Map<string, CommandGroup>();
  for (const test of kept) {
    if (test.runner === undefined) continue;
    const runner = test.runner;
    const viaTsx = runner === 'node' && test.viaTsx === true;
    const typecheck = runner === 'vitest' && test.typecheck === true;
    const config = ['karma', 'vitest', 'jest', 'playwright'].includes(runner) ? test.config : undefined;
    const flags = runner === 'mocha' || runner === 'node' || runner === 'lab' || runner === 'uvu' ? (test.flags ?? []) : [];
    const key = [runner, test.cwd, viaTsx, typecheck, config ?? '', ...flags].join('\u0000');
    const group = groups.get(key) ?? {
      runner,
      cwd: test.cwd,
      viaTsx,
      typecheck,
      config,
      flags,
      files: [],
      testNames: [],
      packageTests: new Set(),
    };
    group.files.push(test.path);
    for (const path of test.packageTests ?? []) group.packageTests.add(path);
    // A Go file whose test functions are not known runs its package whole: no `-run` for the group.
    if (runner === 'go' && (test.testNames?.length ?? 0) === 0) group.wholePackages = true;
    group.testNames.push(...(test.testNames ?? []));
    groups.set(key, group);
  }
  // Go: a group holding every test file of its packages names every test they have; `-run` would only repeat them all.
  for (const group of groups.values()) {
    const files = new Set(group.files);
    if (group.runner === 'go' && group.packageTests.size > 0 && [...group.packageTests].every((path) => files.has(path)))
      group.wholePackages = true;
  }
  const commands: TestRunCommand[] = [...groups.values()].map((group) => {
    const note = getCommandNote(group);
    return {
      cwd: group.cwd,
      runner: group.runner,
      command: buildCommand(
        group,
        group.files.map((path) => toRelative(path, group.cwd)),
        group.wholePackages === true ? [] : group.testNames,
      ),
      files: group.files,
      ...(note === undefined ? {} : { note }),
    };
  });
  const unknown = ordered.length - runnable.length;
  const omitted = runnable.length - kept.length;
  // Runtime tests no detected runner runs (tap, borp), beside only type checks: the type check alone proves no changed
  // line, so the whole suite runs too.
  const untypedRuntime = ordered.some((test) => test.runner === undefined && test.typeTest !== true);
  if (untypedRuntime && kept.every((test) => test.runner === 'tsd' || test.runner === 'tstyche' || test.typecheck === true)) {
    const suite = fullSuite(input.packageManager, '').commands;
    commands.push(...suite);
  }
  const benchmarksLast = kept.some((test) => test.distance !== 0 && isBenchmarkPath(test.path)) ? ', benchmarks last' : '';
  const parts = [
    `${countOf(kept.length, 'test file')} that ${kept.length === 1 ? 'reaches' : 'reach'} the change, the changed tests first, then those that name the changed code, then by import distance${benchmarksLast}`,
  ];
  if (omitted > 0) parts.push(`${omitted} more left out (the cap is ${maxFiles})`);
  const untyped = unknown - typeTests.length;
  if (untyped > 0)
    parts.push(
      untypedRuntime && commands.some((command) => command.runner === 'script')
        ? `${untyped} with no detected runner, run by the whole suite`
        : `${untyped} with no detected runner left out`,
    );
  if (typeTests.length > 0)
    parts.push(
      `${countOf(typeTests.length, 'type test')} with no type-test runner declared (tsd, tstyche, vitest typecheck) left out: type-check ${typeTests.length === 1 ? 'it' : 'them'} with the project's tsc`,
    );
  return { scope: 'reaching', reason: parts.join('; '), commands, omitted };
}
