/**
 * Issue 44, item 5: `checker ai` after a one-line edit on real trees, beside CodeDecay and the tree's own
 * `jest --findRelatedTests` / `vitest related`, in the same rounds, alternating, with CPU seconds beside wall time.
 *
 *   npm run build && npm run bench:real -- [--trees medusa,outline] [--rounds 3] [--repos /work/.mirror]
 *     [--work bench/work/real-trees] [--no-related]
 *
 * Per tree (TREES below): a `git clone -q` of the mirror at the pinned commit into `<work>/<tree>` (blobs the mirror
 * lacks are dropped in one commit on top, named in the log), its dependencies installed once with its own package
 * manager and lockfile, `--ignore-scripts` (bench/related-runners.ts, as bench/peer-related.ts installs), `.checker/`
 * and `.codedecay/` in the clone's `.git/info/exclude` so that neither tool scans the other's state. CodeDecay is
 * built once from its repository at a pinned commit into `bench/work/peers/codedecay@<commit>/` (not on the npm
 * registry). Then per edited file, after two untimed priming rounds (checker's first run after an edit keeps no graph,
 * its second builds and keeps it; CodeDecay's and jest's caches filled), `--rounds` timed rounds, each:
 *   1. a comment line appended to the file, the racy window waited out on both sides;
 *   2. warm runs, the tools in turn (the first tool moves by one each round): checker and CodeDecay with the state their
 *      earlier runs kept (the run after an edit), the runner with its own cache;
 *   3. cold runs, in the same turn: checker with `.checker/` moved aside (then put back), CodeDecay with
 *      `.codedecay/local/` moved aside, the runner with an empty cache folder.
 * checker's warm answer must equal its cold answer of the same tree (byte for byte; parity), and CodeDecay's likewise
 * (reported, not required). Wall, CPU (user+sys of the process and the children it waited for) and the largest
 * process's peak RSS come from `/usr/bin/time -v` (measure.ts `runTimed`). The table (medians) and the goals' ratios go
 * to stdout, one line per run to stderr, every run to `<work>/real-trees.json`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildRealCorpus, type CorpusPackage, WORKSPACE_CORPUS } from './corpus.js';
import { findGitDir, resolveReposDir, runGit } from './localize/repo-cache.js';
import { appendSettledLine, median, repoRoot, runTimed, type TimedProcess, toCount } from './measure.js';
import {
  baseEnv,
  failureLine,
  findPackageManager,
  findRunner,
  nodeBinFor,
  type RunnerChoice,
  readVitestFiles,
  runCommand,
  VITEST_DRIVER,
  wantedNodeMajor,
} from './related-runners.js';

interface EditSpec {
  label: string;
  path: string;
  /** How the file was chosen, for the report. */
  why: string;
}

interface TreeSpec {
  /** A mirror's repository and the commit measured; or, for `corpus`, the published packages bench/corpus.ts commits. */
  repository?: string;
  commit?: string;
  corpus?: CorpusPackage[];
  edits: EditSpec[];
}

const TREES: Record<string, TreeSpec> = {
  medusa: {
    repository: 'medusajs/medusa',
    commit: '59e6747800133e091d20c2c167f600981abc5c0d',
    edits: [
      {
        label: 'hub',
        path: 'packages/medusa/src/api/utils/validators.ts',
        why: 'the non-barrel source file of a jest project that most files import by relative path (67)',
      },
      {
        label: 'leaf',
        path: 'packages/medusa/src/api/admin/api-keys/[id]/revoke/route.ts',
        why: 'the first packages/medusa/src/api/**/route.ts by path: a file-system route, imported by nothing',
      },
    ],
  },
  /** The bench's workspace corpus (`npm run bench -- --corpus`): no lockfile, no test runner to install. */
  workspace: {
    corpus: WORKSPACE_CORPUS,
    edits: [
      {
        label: 'edit',
        path: 'packages/rxjs/src/ajax/index.ts',
        why: 'the file `npm run bench -- --corpus` edits: the first tracked src/**/*.ts by path',
      },
    ],
  },
  outline: {
    repository: 'outline/outline',
    commit: 'd77dcdf853868c5d5fe125c895c9b71f0eff5c68',
    edits: [
      { label: 'edit', path: 'server/commands/documentUpdater.ts', why: 'the file of the earlier sessions (RESULTS.md, fifth session)' },
    ],
  },
};

/** CodeDecay is not on the npm registry: built from its repository (SubmuxHQ/CodeDecay) at this commit (its CLI 0.4.1). */
const CODEDECAY = { repository: 'SubmuxHQ/CodeDecay', commit: '1ab38a3eda3b06a4b81513a92d09ac1ad27af94d', pnpm: 'pnpm@11.8.0', node: 22 };

type Tool = 'checker' | 'codedecay' | 'related';
type Temperature = 'warm' | 'cold';
const TOOLS: readonly Tool[] = ['checker', 'codedecay', 'related'];

interface RunRecord {
  tree: string;
  edit: string;
  round: number;
  tool: Tool;
  temperature: Temperature;
  code: number;
  wallSeconds: number;
  cpuSeconds: number;
  peakRssBytes: number;
  load: number;
  /** The test files the runner listed. */
  tests?: number;
  note?: string;
}

interface Options {
  trees: string[];
  rounds: number;
  reposDir: string;
  work: string;
  peersDir: string;
  toolsDir: string;
  cacheDir: string;
  related: boolean;
}

const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      trees: { type: 'string', default: 'medusa,outline' },
      rounds: { type: 'string', default: '3' },
      repos: { type: 'string' },
      work: { type: 'string', default: join(repoRoot, 'bench', 'work', 'real-trees') },
      tools: { type: 'string', default: '/tmp/peer-tools' },
      cache: { type: 'string', default: '/tmp/peer-cache' },
      'no-related': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const trees = values.trees.split(',').filter((name) => name !== '');
  for (const name of trees)
    if (TREES[name] === undefined) throw new Error(`--trees: unknown tree "${name}"; known: ${Object.keys(TREES).join(', ')}`);
  return {
    trees,
    rounds: toCount('rounds', values.rounds, 1),
    reposDir: resolveReposDir(values.repos ?? '/work/.mirror', process.env),
    work: resolve(values.work),
    peersDir: join(repoRoot, 'bench', 'work', 'peers'),
    toolsDir: resolve(values.tools),
    cacheDir: resolve(values.cache),
    related: !values['no-related'],
  };
}

const BENCH_IDENTITY = {
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@localhost',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@localhost',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

/** Tracked paths at HEAD whose blobs the clone lacks (the mirrors leave out some large files). */
function findMissingBlobs(dir: string): string[] {
  const entries = runGit(['ls-tree', '-r', '-z', 'HEAD'], { cwd: dir })
    .split('\0')
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [meta = '', path = ''] = entry.split('\t');
      const [, type, id] = meta.split(' ');
      return { type, id: id ?? '', path };
    })
    .filter((entry) => entry.type === 'blob');
  const checked = execFileSync('git', ['cat-file', '--batch-check=%(objectname)'], {
    cwd: dir,
    input: entries.map((entry) => entry.id).join('\n'),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const missing = new Set(
    checked
      .split('\n')
      .filter((line) => line.endsWith(' missing'))
      .map((line) => line.split(' ')[0]),
  );
  return entries.filter((entry) => missing.has(entry.id)).map((entry) => entry.path);
}

/**
 * The clone at the pinned commit, reused while its HEAD (or HEAD's parent, when blobs were dropped) is that commit.
 * Returns the paths dropped for want of their blobs.
 */
function prepareClone(gitDir: string, dir: string, commit: string): string[] {
  const droppedFile = join(dir, '.git', 'bench-dropped.json');
  if (existsSync(droppedFile)) {
    const dropped = JSON.parse(readFileSync(droppedFile, 'utf8')) as string[];
    const base = runGit(['rev-parse', dropped.length === 0 ? 'HEAD' : 'HEAD~1'], { cwd: dir }).trim();
    if (base === commit) return dropped;
  }
  rmSync(dir, { recursive: true, force: true });
  runGit(['clone', '-q', '--no-checkout', gitDir, dir]);
  runGit(['reset', '-q', commit], { cwd: dir });
  const dropped = findMissingBlobs(dir);
  if (dropped.length > 0) {
    execFileSync('git', ['rm', '-q', '--cached', '--pathspec-from-file=-'], { cwd: dir, input: dropped.join('\n') });
    execFileSync('git', ['commit', '-q', '--no-verify', '-m', `bench: drop the ${dropped.length} blobs missing from the mirror`], {
      cwd: dir,
      env: { ...process.env, ...BENCH_IDENTITY },
    });
  }
  runGit(['checkout', '-q', '-f', 'HEAD'], { cwd: dir });
  writeFileSync(join(dir, '.git', 'info', 'exclude'), '.checker/\n.codedecay/\n', { flag: 'a' });
  writeFileSync(droppedFile, JSON.stringify(dropped));
  return dropped;
}

/** The corpus repository, built once (bench/corpus.ts) and reused while its HEAD is the corpus's second commit. */
async function prepareCorpus(dir: string, packages: CorpusPackage[]): Promise<{ files: number; headOid: string }> {
  const label = packages.map((entry) => `${entry.name}@${entry.versions[1]}`).join(', ');
  const count = (): number =>
    runGit(['ls-files'], { cwd: dir })
      .split('\n')
      .filter((line) => line !== '').length;
  if (existsSync(join(dir, '.git')) && runGit(['log', '-1', '--format=%s'], { cwd: dir }).trim() === label) {
    return { files: count(), headOid: runGit(['rev-parse', 'HEAD'], { cwd: dir }).trim() };
  }
  rmSync(dir, { recursive: true, force: true });
  const corpus = await buildRealCorpus({ packages, workDir: dir });
  writeFileSync(join(dir, '.git', 'info', 'exclude'), '.checker/\n.codedecay/\n', { flag: 'a' });
  return corpus;
}

interface InstalledTree {
  env: NodeJS.ProcessEnv;
  /** The node binary the tree asks for (its .nvmrc or engines), or this one. */
  node: string;
  note: string;
}

/** Installs the tree's dependencies once (a marker file in .git keeps the result), like bench/peer-related.ts. */
async function installTree(dir: string, options: Options): Promise<InstalledTree | undefined> {
  const marker = join(dir, '.git', 'bench-installed.json');
  const logFile = join(options.work, `${relative(options.work, dir)}.install.log`);
  const node = await nodeBinFor(wantedNodeMajor(dir), options, baseEnv(options, undefined), logFile);
  const env = baseEnv(options, node.binDir);
  const nodeBin = node.binDir === undefined ? process.execPath : join(node.binDir, 'node');
  if (existsSync(marker)) return { env, node: nodeBin, note: readFileSync(marker, 'utf8').trim() };
  const manager = findPackageManager(dir, join(options.cacheDir, 'pnpm-store'));
  const [command, ...prefix] = manager.command;
  if (command === undefined) return undefined;
  log(`installing ${dir} with ${[...manager.command, ...manager.install].join(' ')} (node ${node.version})`);
  const install = await runCommand(command, [...prefix, ...manager.install], { cwd: dir, env, timeoutMs: 30 * 60_000, logFile });
  if (install.code !== 0) {
    log(`install failed: ${failureLine(install)}`);
    return undefined;
  }
  const note = `${manager.label}, node ${node.version}, ${install.seconds.toFixed(0)} s`;
  writeFileSync(marker, `${note}\n`);
  return { env, node: nodeBin, note };
}

/** Builds CodeDecay's CLI once from its repository: a sparse clone (its packages), pnpm install, tsup. Returns the CLI. */
async function buildCodeDecay(options: Options): Promise<string> {
  const dir = join(options.peersDir, `codedecay@${CODEDECAY.commit.slice(0, 7)}`);
  const cli = join(dir, 'packages', 'cli', 'dist', 'index.js');
  if (existsSync(cli)) return cli;
  const gitDir = findGitDir(options.reposDir, CODEDECAY.repository);
  if (gitDir === undefined) throw new Error(`no clone of ${CODEDECAY.repository} under ${options.reposDir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(options.peersDir, { recursive: true });
  runGit(['clone', '-q', '--no-checkout', gitDir, dir]);
  runGit(
    [
      'sparse-checkout',
      'set',
      '--no-cone',
      '/packages/',
      '/package.json',
      '/pnpm-lock.yaml',
      '/pnpm-workspace.yaml',
      '/tsconfig.base.json',
    ],
    {
      cwd: dir,
    },
  );
  runGit(['checkout', '-q', '--detach', CODEDECAY.commit], { cwd: dir });
  const logFile = `${dir}.build.log`;
  // pnpm 11 needs Node 22.13 or later; the CLI it builds runs on Node 20.
  const node = await nodeBinFor(CODEDECAY.node, options, baseEnv(options, undefined), logFile);
  const env = baseEnv(options, node.binDir);
  log(`building CodeDecay ${CODEDECAY.commit.slice(0, 10)} into ${dir}`);
  const steps: [string, string[], string][] = [
    ['npx', ['-y', CODEDECAY.pnpm, 'install', '--frozen-lockfile', '--ignore-scripts', '--reporter=append-only'], dir],
    [join(dir, 'node_modules', '.bin', 'tsup'), ['--config', 'tsup.config.ts'], join(dir, 'packages', 'cli')],
  ];
  for (const [command, args, cwd] of steps) {
    const result = await runCommand(command, args, { cwd, env, timeoutMs: 15 * 60_000, logFile });
    if (result.code !== 0) throw new Error(`CodeDecay build failed (${command}): ${failureLine(result)}; see ${logFile}`);
  }
  return cli;
}

interface RelatedRunner {
  choice: RunnerChoice;
  env: NodeJS.ProcessEnv;
  /** The command and its arguments up to the edited file. */
  command: (cacheDir: string, outFile: string) => [string, string[]];
  read: (result: TimedProcess, outFile: string) => number | undefined;
  describe: string;
}

/** `jest --listTests --findRelatedTests` or the vitest driver of bench/related-runners.ts, run by the tree's own install. */
function prepareRelated(dir: string, edit: EditSpec, installed: InstalledTree, options: Options): RelatedRunner | undefined {
  const choice = findRunner(dir, [edit.path]);
  if (choice === undefined) return undefined;
  const cwd = join(dir, choice.dir);
  const source = relative(cwd, join(dir, edit.path));
  const runnerNode = installed.node;
  if (choice.runner === 'jest') {
    const jest = join(cwd, 'node_modules', 'jest', 'bin', 'jest.js');
    if (!existsSync(jest)) return undefined;
    return {
      choice,
      env: installed.env,
      command: (cacheDir) => [
        runnerNode,
        [jest, '--listTests', '--no-watchman', '--ci', `--cacheDirectory=${cacheDir}`, '--findRelatedTests', source],
      ],
      read: (result) => result.stdout.split('\n').filter((line) => line.trim().startsWith('/')).length,
      describe: `jest --listTests --no-watchman --ci --cacheDirectory=<dir> --findRelatedTests ${source} (in ${choice.dir})`,
    };
  }
  const driver = join(options.toolsDir, 'vitest-related-list.mjs');
  mkdirSync(options.toolsDir, { recursive: true });
  writeFileSync(driver, VITEST_DRIVER);
  return {
    choice,
    env: installed.env,
    command: (_cacheDir, outFile) => [runnerNode, [driver, outFile, source]],
    read: (_result, outFile) => (existsSync(outFile) ? readVitestFiles(dir, choice.dir, outFile).length : undefined),
    describe: `vitest related ${source} --run, listed without running (bench/related-runners.ts VITEST_DRIVER; in ${choice.dir})`,
  };
}

interface TreeContext {
  name: string;
  dir: string;
  codedecay: string;
  related: RelatedRunner | undefined;
  scratch: string;
}

/** Moves a state folder aside for a cold run and puts it back after, whatever the run did. */
function withStateAside<T>(state: string, run: () => T): T {
  const aside = `${state}.bench-aside`;
  rmSync(aside, { recursive: true, force: true });
  if (existsSync(state)) renameSync(state, aside);
  try {
    return run();
  } finally {
    rmSync(state, { recursive: true, force: true });
    if (existsSync(aside)) renameSync(aside, state);
  }
}

function runTool(
  context: TreeContext,
  tool: Tool,
  temperature: Temperature,
): { record: Omit<RunRecord, 'tree' | 'edit' | 'round'>; stdout: string } {
  const load = loadavg()[0] ?? 0;
  let outcome: TimedProcess;
  let tests: number | undefined;
  if (tool === 'checker') {
    const args = [join(repoRoot, 'bin', 'checker.js'), 'ai', '--cwd', context.dir, '--format', 'json', '--base', 'HEAD'];
    const run = (): TimedProcess => runTimed(process.execPath, args, { cwd: context.dir });
    outcome = temperature === 'warm' ? run() : withStateAside(join(context.dir, '.checker'), run);
  } else if (tool === 'codedecay') {
    const args = [context.codedecay, 'analyze', '--cwd', context.dir, '--format', 'json'];
    const run = (): TimedProcess => runTimed(process.execPath, args, { cwd: context.dir });
    outcome = temperature === 'warm' ? run() : withStateAside(join(context.dir, '.codedecay', 'local'), run);
  } else {
    const related = context.related;
    if (related === undefined) throw new Error('no runner');
    const cacheDir = join(context.scratch, temperature === 'warm' ? 'runner-cache' : 'runner-cache-cold');
    if (temperature === 'cold') rmSync(cacheDir, { recursive: true, force: true });
    const outFile = join(context.scratch, 'related.json');
    rmSync(outFile, { force: true });
    const [command, args] = related.command(cacheDir, outFile);
    outcome = runTimed(command, args, { cwd: join(context.dir, related.choice.dir), env: related.env });
    tests = related.read(outcome, outFile);
    if (temperature === 'cold') rmSync(cacheDir, { recursive: true, force: true });
  }
  const record = {
    tool,
    temperature,
    code: outcome.code,
    wallSeconds: outcome.wallSeconds,
    cpuSeconds: outcome.cpuSeconds,
    peakRssBytes: outcome.peakRssBytes,
    load: Math.round(load * 10) / 10,
    ...(tests === undefined ? {} : { tests }),
    ...(outcome.code === 0 ? {} : { note: outcome.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 300) }),
  };
  return { record, stdout: outcome.stdout };
}

/** An answer without the time it was made at (CodeDecay's `generatedAt`; checker's JSON has none), for parity. */
function withoutRunStamp(stdout: string | undefined): string | undefined {
  if (stdout === undefined) return undefined;
  try {
    const parsed = JSON.parse(stdout) as Record<string, unknown>;
    delete parsed.generatedAt;
    return JSON.stringify(parsed);
  } catch {
    return stdout;
  }
}

interface EditResult {
  tree: string;
  edit: EditSpec;
  runs: RunRecord[];
  parity: { checker: boolean[]; codedecay: boolean[] };
  related: string | undefined;
}

async function measureEdit(context: TreeContext, edit: EditSpec, options: Options, records: RunRecord[]): Promise<EditResult> {
  const file = join(context.dir, edit.path);
  if (!existsSync(file)) throw new Error(`${context.name}: ${edit.path} is not in the tree`);
  const tools = TOOLS.filter((tool) => tool !== 'related' || context.related !== undefined);
  const result: EditResult = {
    tree: context.name,
    edit,
    runs: [],
    parity: { checker: [], codedecay: [] },
    related: context.related?.describe,
  };
  for (let round = -2; round < options.rounds; round += 1) {
    await appendSettledLine(file, `// bench edit ${edit.label} ${round + 3}`);
    const order = tools.map((_, index) => tools[(index + Math.max(round, 0)) % tools.length] as Tool);
    const outputs: Partial<Record<`${Tool}-${Temperature}`, string>> = {};
    for (const temperature of round < 0 ? (['warm'] as const) : (['warm', 'cold'] as const)) {
      for (const tool of order) {
        const { record, stdout } = runTool(context, tool, temperature);
        outputs[`${tool}-${temperature}`] = stdout;
        const label = round < 0 ? `priming ${round + 3}` : `round ${round + 1}`;
        log(
          `${context.name} ${edit.label} ${label} ${tool} ${temperature}: exit ${record.code}, ${record.wallSeconds.toFixed(2)} s wall, ${record.cpuSeconds.toFixed(2)} CPU s, ${(record.peakRssBytes / 1e6).toFixed(0)} MB, load ${record.load}${record.tests === undefined ? '' : `, ${record.tests} tests`}${record.note === undefined ? '' : `; ${record.note}`}`,
        );
        if (round < 0) continue;
        const full: RunRecord = { tree: context.name, edit: edit.label, round: round + 1, ...record };
        result.runs.push(full);
        records.push(full);
      }
    }
    if (round < 0) continue;
    for (const tool of ['checker', 'codedecay'] as const) {
      const same = withoutRunStamp(outputs[`${tool}-warm`]) === withoutRunStamp(outputs[`${tool}-cold`]);
      result.parity[tool].push(same);
      if (!same) {
        const keep = join(context.scratch, `${tool}-${edit.label}-round${round + 1}`);
        writeFileSync(`${keep}.warm.json`, outputs[`${tool}-warm`] ?? '');
        writeFileSync(`${keep}.cold.json`, outputs[`${tool}-cold`] ?? '');
        log(`${tool} warm and cold answers differ (kept at ${keep}.{warm,cold}.json)`);
      }
    }
  }
  runGit(['checkout', '-q', '--', edit.path], { cwd: context.dir });
  return result;
}

function pick(runs: readonly RunRecord[], tool: Tool, temperature: Temperature): RunRecord[] {
  return runs.filter((run) => run.tool === tool && run.temperature === temperature && run.code === 0);
}

function formatCell(runs: readonly RunRecord[]): string[] {
  if (runs.length === 0) return ['—', '—', '—'];
  const peak = Math.max(...runs.map((run) => run.peakRssBytes));
  return [
    `${median(runs.map((run) => run.wallSeconds)).toFixed(2)} s`,
    `${median(runs.map((run) => run.cpuSeconds)).toFixed(2)} s`,
    `${Math.round(peak / 1e6)} MB`,
  ];
}

function ratio(a: readonly RunRecord[], b: readonly RunRecord[], field: 'wallSeconds' | 'cpuSeconds'): number {
  return median(a.map((run) => run[field])) / median(b.map((run) => run[field]));
}

function renderResults(results: readonly EditResult[]): string {
  const lines = [
    '| tree · edit | tool | warm wall | warm CPU | warm peak RSS | cold wall | cold CPU | cold peak RSS | tests | parity (warm = cold) | load |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  const goals: string[] = ['', '| tree · edit | ratio (medians, same rounds) | wall | CPU | goal |', '| --- | --- | ---: | ---: | --- |'];
  for (const result of results) {
    for (const tool of TOOLS) {
      const warm = pick(result.runs, tool, 'warm');
      const cold = pick(result.runs, tool, 'cold');
      if (warm.length === 0 && cold.length === 0) continue;
      const all = [...warm, ...cold];
      const tests = [...new Set(all.map((run) => run.tests).filter((count) => count !== undefined))].join(', ') || '—';
      const parity = tool === 'related' ? '—' : `${result.parity[tool].filter(Boolean).length} of ${result.parity[tool].length}`;
      const loads = all.map((run) => run.load);
      const failed = result.runs.filter((run) => run.tool === tool && run.code !== 0).length;
      lines.push(
        `| ${result.tree} · ${result.edit.label} | ${tool}${failed > 0 ? ` (${failed} failed)` : ''} | ${[...formatCell(warm), ...formatCell(cold)].join(' | ')} | ${tests} | ${parity} | ${Math.min(...loads)}-${Math.max(...loads)} |`,
      );
    }
    const row = (what: string, a: RunRecord[], b: RunRecord[], limit: number, sense: '≤' | '≥'): void => {
      if (a.length === 0 || b.length === 0) return;
      const wall = ratio(a, b, 'wallSeconds');
      const cpu = ratio(a, b, 'cpuSeconds');
      const met = (value: number): boolean => (sense === '≤' ? value <= limit : value >= limit);
      const verdict = met(wall) && met(cpu) ? 'met' : met(wall) || met(cpu) ? 'met on one measure only' : 'not met';
      goals.push(
        `| ${result.tree} · ${result.edit.label} | ${what} | ${wall.toFixed(2)} | ${cpu.toFixed(2)} | ${sense} ${limit}: ${verdict} |`,
      );
    };
    const checkerWarm = pick(result.runs, 'checker', 'warm');
    const checkerCold = pick(result.runs, 'checker', 'cold');
    row('checker warm / checker cold', checkerWarm, checkerCold, 0.5, '≤');
    row('checker warm / CodeDecay warm', checkerWarm, pick(result.runs, 'codedecay', 'warm'), 0.5, '≤');
    row('checker warm / runner (its cache kept)', checkerWarm, pick(result.runs, 'related', 'warm'), 1, '≤');
    row('CodeDecay cold / checker cold', pick(result.runs, 'codedecay', 'cold'), checkerCold, 3, '≥');
  }
  return [...lines, ...goals].join('\n');
}

async function main(): Promise<void> {
  const options = readOptions();
  const revision = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  log(
    `checker ${revision}; trees ${options.trees.join(', ')}; ${options.rounds} rounds; ${cpus().length} cores; load ${loadavg().join(' ')}`,
  );
  const codedecay = await buildCodeDecay(options);
  mkdirSync(options.work, { recursive: true });
  const records: RunRecord[] = [];
  const results: EditResult[] = [];
  for (const name of options.trees) {
    const spec = TREES[name] as TreeSpec;
    const dir = join(options.work, name);
    if (spec.corpus !== undefined) {
      const corpus = await prepareCorpus(dir, spec.corpus);
      log(`${name}: ${corpus.files} files, ${corpus.headOid.slice(0, 10)} at ${dir} (bench/corpus.ts)`);
    } else {
      const gitDir = findGitDir(options.reposDir, spec.repository ?? '');
      if (gitDir === undefined || spec.commit === undefined) throw new Error(`no clone of ${spec.repository} under ${options.reposDir}`);
      const dropped = prepareClone(gitDir, dir, spec.commit);
      log(
        `${name}: ${spec.commit.slice(0, 10)} at ${dir}${dropped.length === 0 ? '' : `; dropped for want of their blobs: ${dropped.join(', ')}`}`,
      );
    }
    const installed = options.related && spec.corpus === undefined ? await installTree(dir, options) : undefined;
    if (installed !== undefined) log(`${name}: dependencies ${installed.note}`);
    const scratch = join(options.work, `${name}.scratch`);
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    for (const state of ['.checker', join('.codedecay', 'local')]) rmSync(join(dir, state), { recursive: true, force: true });
    for (const edit of spec.edits) {
      const related = installed === undefined ? undefined : prepareRelated(dir, edit, installed, options);
      if (related !== undefined) log(`${name} ${edit.label}: ${related.describe}`);
      const context: TreeContext = { name, dir, codedecay, related, scratch };
      results.push(await measureEdit(context, edit, options, records));
      writeFileSync(join(options.work, 'real-trees.json'), `${JSON.stringify(records, null, 2)}\n`);
      process.stdout.write(`${renderResults(results)}\n\n`);
    }
  }
  for (const result of results)
    process.stdout.write(`- ${result.tree} · ${result.edit.label}: \`${result.edit.path}\` (${result.edit.why})\n`);
}

await main();
