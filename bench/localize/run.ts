/**
 * Issue 40's yardstick: how often preflight's candidate files and the context packet's files hold the files a real
 * commit changed, beside a plain BM25 and `git grep`, on mined commits of public repositories (bench/localize/cases),
 * and how often they name files for tasks that have nothing to do with the repository (off-topic.json).
 *
 *   npm run bench:localize -- --repos <dir> [--split dev|held-out|all] [--repo owner/name] [--limit n] …
 *
 * The table goes to stdout, progress to stderr, every answer to a JSON file under bench/localize/results/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createParsePool } from '../../src/io/parse-pool.js';
import {
  findStrayCaseFiles,
  type LocalizeCase,
  loadCases,
  loadOffTopicCases,
  loadRepoEntries,
  localizeDir,
  type OffTopicCase,
  type RepoEntry,
  toRepoKey,
} from './cases.js';
import { getRecallAt, type RecordedAnswer, type RunKind, type RunRecord, type Variant } from './metrics.js';
import { readRunOptions, type RunOptions, USAGE } from './options.js';
import { checkoutCommit, findGitDir } from './repo-cache.js';
import { renderReport } from './report.js';
import { RUNNERS, type SystemName, type TreeContext } from './systems.js';

const repoRoot = resolve(localizeDir, '..', '..');
const CHECKER_SYSTEMS = new Set<SystemName>(['preflight', 'context']);
const STORED_FILES = 20;

const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

/** `count` of `items`, spread evenly (first and last kept). */
function spread<T>(items: readonly T[], count: number | undefined): T[] {
  if (count === undefined || items.length <= count) return [...items];
  if (count === 1) return items.slice(0, 1);
  return [...Array(count).keys()].map((index) => items[Math.round((index * (items.length - 1)) / (count - 1))] as T);
}

/** Tracks how warm checker is on the current tree: cold after `.checker/local` was cleared, then first, then later. */
class Warmth {
  private cleared = true;
  private callsOnTree = 0;

  clear(workDir: string): void {
    rmSync(join(workDir, '.checker', 'local'), { recursive: true, force: true });
    this.cleared = true;
  }

  newTree(): void {
    this.callsOnTree = 0;
  }

  next(): RunKind {
    const kind: RunKind = this.cleared ? 'cold' : this.callsOnTree === 0 ? 'first' : 'later';
    this.cleared = false;
    this.callsOnTree += 1;
    return kind;
  }
}

async function answerTask(
  tree: TreeContext,
  warmth: Warmth,
  systems: readonly SystemName[],
  task: string,
  checkerFirst: SystemName,
): Promise<Partial<Record<SystemName, RecordedAnswer>>> {
  // Alternate which checker system runs first on a tree, so both have first-call and later-call times.
  const ordered = [...systems].sort((a, b) => Number(b === checkerFirst) - Number(a === checkerFirst));
  const answers: Partial<Record<SystemName, RecordedAnswer>> = {};
  for (const system of ordered) {
    const run = CHECKER_SYSTEMS.has(system) ? warmth.next() : undefined;
    const answer = await RUNNERS[system](tree, task);
    answers[system] = { ...answer, files: answer.files.slice(0, STORED_FILES), ...(run === undefined ? {} : { run }) };
  }
  return answers;
}

function describeCase(record: RunRecord): string {
  const parts = Object.entries(record.answers).map(([system, answer]) => {
    if (answer === undefined) return '';
    if (answer.error !== undefined) return `${system} ERROR`;
    const score = record.kind === 'task' ? `R@5 ${getRecallAt(answer.files, record.truth, 5).toFixed(2)}` : `${answer.files.length} files`;
    return `${system} ${score} ${answer.seconds.toFixed(1)}s`;
  });
  return parts.filter((part) => part !== '').join(' · ');
}

interface RepoPlan {
  entry: RepoEntry;
  gitDir: string;
  cases: LocalizeCase[];
  offTopic: OffTopicCase[];
}

async function runRepository(
  plan: RepoPlan,
  options: RunOptions,
  pool: TreeContext['pool'],
  counter: { done: number; total: number },
): Promise<RunRecord[]> {
  const workDir = join(options.workDir, toRepoKey(plan.entry.repository));
  const tree: TreeContext = { workDir, pool };
  const warmth = new Warmth();
  const records: RunRecord[] = [];
  if (existsSync(workDir)) warmth.clear(workDir);
  const cases = [...plan.cases].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  for (const [index, item] of cases.entries()) {
    checkoutCommit(plan.gitDir, workDir, item.parent);
    if (options.cold) warmth.clear(workDir);
    warmth.newTree();
    const variants: Array<[Variant, string]> = options.variants.flatMap((variant): Array<[Variant, string]> => {
      if (variant === 'short') return [['short', item.task]];
      return item.longTask === undefined ? [] : [['long', item.longTask]];
    });
    for (const [variant, task] of variants) {
      const answers = await answerTask(tree, warmth, options.systems, task, index % 2 === 0 ? 'preflight' : 'context');
      const record: RunRecord = {
        kind: 'task',
        id: item.id,
        repository: item.repository,
        split: item.split,
        variant,
        task,
        truth: item.truth,
        answers,
      };
      records.push(record);
      log(`[${counter.done + 1}/${counter.total}] ${item.id} ${variant}: ${describeCase(record)}`);
    }
    counter.done += 1;
  }
  const commits = [...new Set(plan.offTopic.map((item) => item.commit))];
  for (const commit of commits) {
    checkoutCommit(plan.gitDir, workDir, commit);
    if (options.cold) warmth.clear(workDir);
    warmth.newTree();
    for (const [index, item] of plan.offTopic.filter((candidate) => candidate.commit === commit).entries()) {
      const answers = await answerTask(tree, warmth, options.systems, item.task, index % 2 === 0 ? 'preflight' : 'context');
      const record: RunRecord = {
        kind: 'off-topic',
        id: item.id,
        repository: item.repository,
        split: item.split,
        task: item.task,
        answers,
      };
      records.push(record);
      log(`[${counter.done + 1}/${counter.total}] ${item.id}: ${describeCase(record)}`);
      counter.done += 1;
    }
  }
  return records;
}

function planRepositories(options: RunOptions): RepoPlan[] {
  const entries = loadRepoEntries();
  const stray = findStrayCaseFiles(entries);
  if (stray.length > 0) throw new Error(`bench/localize/cases/ holds files for repositories not in repos.json: ${stray.join(', ')}`);
  const unknown = options.repositories.filter((name) => !entries.some((entry) => entry.repository === name));
  if (unknown.length > 0) throw new Error(`--repo ${unknown.join(', ')}: not in bench/localize/repos.json`);
  const chosen = entries.filter(
    (entry) =>
      options.splits.includes(entry.split) && (options.repositories.length === 0 || options.repositories.includes(entry.repository)),
  );
  if (chosen.length === 0) throw new Error('no repository matches --split and --repo');
  const cases = options.offTopic === 'only' ? [] : loadCases(chosen);
  const offTopic =
    options.offTopic === 'no'
      ? []
      : loadOffTopicCases(entries).filter((item) => chosen.some((entry) => entry.repository === item.repository));
  const missing = chosen.filter((entry) => findGitDir(options.reposDir, entry.repository) === undefined);
  if (missing.length > 0)
    throw new Error(
      `no clone in ${options.reposDir} for ${missing.map((entry) => entry.repository).join(', ')} (expected folders named owner+name; bench/README.md says how to fill it, or pass --repo to run fewer)`,
    );
  return chosen.map((entry) => ({
    entry,
    gitDir: findGitDir(options.reposDir, entry.repository) ?? '',
    cases: spread(
      cases.filter((item) => item.repository === entry.repository),
      options.limit,
    ),
    offTopic: offTopic.filter((item) => item.repository === entry.repository),
  }));
}

/**
 * The checker commit measured, and how many files under src/ differ from it. A copy that is not its own git checkout
 * (a `git archive` export, to measure a commit while others edit the working tree) names its commit with
 * CHECKER_BENCH_REVISION.
 */
function describeChecker(env: NodeJS.ProcessEnv): CheckerRevision {
  const given = env.CHECKER_BENCH_REVISION;
  if (given !== undefined && given !== '') return { commit: `${given} (CHECKER_BENCH_REVISION)`, dirtySourceFiles: 0 };
  const git = (args: string[]): string =>
    execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  let topLevel: string;
  try {
    topLevel = realpathSync(git(['rev-parse', '--show-toplevel']));
  } catch {
    return { commit: 'unknown (not a git checkout; set CHECKER_BENCH_REVISION)', dirtySourceFiles: 0 };
  }
  if (topLevel !== realpathSync(repoRoot))
    return { commit: 'unknown (not a git checkout; set CHECKER_BENCH_REVISION)', dirtySourceFiles: 0 };
  return {
    commit: git(['rev-parse', 'HEAD']),
    dirtySourceFiles: git(['status', '--porcelain', '--', 'src'])
      .split('\n')
      .filter((line) => line !== '').length,
  };
}

interface CheckerRevision {
  commit: string;
  dirtySourceFiles: number;
}

function describeRun(checker: CheckerRevision, startedAt: string): string {
  const dirty =
    checker.dirtySourceFiles === 0 ? '' : ` (${checker.dirtySourceFiles} files under src/ differed from it in the working tree)`;
  const commit = /^[0-9a-f]{40}$/.test(checker.commit) ? checker.commit.slice(0, 10) : checker.commit;
  return `checker at ${commit}${dirty}, run started ${startedAt}`;
}

/** A result file written by an earlier run: its records and what it ran (records are trusted as this runner wrote them). */
function readSavedRecords(path: string): { records: RunRecord[]; checker: CheckerRevision; startedAt: string } {
  if (!existsSync(path)) throw new Error(`--from ${path}: no such file`);
  const saved: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (typeof saved !== 'object' || saved === null || !('records' in saved) || !Array.isArray(saved.records))
    throw new Error(`--from ${path}: not a bench:localize result file`);
  const checker = 'checker' in saved && typeof saved.checker === 'object' && saved.checker !== null ? saved.checker : {};
  return {
    records: saved.records,
    checker: {
      commit: 'commit' in checker && typeof checker.commit === 'string' ? checker.commit : 'unknown',
      dirtySourceFiles: 'dirtySourceFiles' in checker && typeof checker.dirtySourceFiles === 'number' ? checker.dirtySourceFiles : 0,
    },
    startedAt: 'startedAt' in saved && typeof saved.startedAt === 'string' ? saved.startedAt : 'unknown',
  };
}

async function main(): Promise<void> {
  const options = readRunOptions(process.argv.slice(2), process.env, join(repoRoot, 'bench', 'work', 'localize'));
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (options.from !== undefined) {
    const saved = readSavedRecords(options.from);
    process.stdout.write(
      `${describeRun(saved.checker, saved.startedAt)}\n\n${renderReport(saved.records, options.systems, options.splits)}`,
    );
    return;
  }
  const plans = planRepositories(options);
  const startedAt = new Date();
  const outPath = options.outPath ?? join(localizeDir, 'results', `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  const total = plans.reduce((sum, plan) => sum + plan.cases.length + plan.offTopic.length, 0);
  log(`${plans.length} repositories, ${total} cases and off-topic tasks; results to ${outPath}`);
  const checker = describeChecker(process.env);
  const pool = createParsePool();
  const records: RunRecord[] = [];
  const repositorySeconds: Record<string, number> = {};
  const counter = { done: 0, total };
  const save = (finishedAt?: Date): void => {
    mkdirSync(dirname(outPath), { recursive: true });
    const result = {
      schemaVersion: 1,
      startedAt: startedAt.toISOString(),
      ...(finishedAt === undefined ? { partial: true } : { finishedAt: finishedAt.toISOString() }),
      checker,
      machine: { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown' },
      options: { ...options, reposDir: undefined },
      repositorySeconds,
      records,
    };
    writeFileSync(outPath, `${JSON.stringify(result)}\n`);
  };
  try {
    for (const plan of plans) {
      const started = performance.now();
      records.push(...(await runRepository(plan, options, pool, counter)));
      repositorySeconds[plan.entry.repository] = Math.round(performance.now() - started) / 1000;
      log(`${plan.entry.repository}: ${repositorySeconds[plan.entry.repository]} s`);
      save();
    }
  } finally {
    await pool.close();
  }
  save(new Date());
  process.stdout.write(`${describeRun(checker, startedAt.toISOString())}\n\n${renderReport(records, options.systems, options.splits)}`);
  log(`total ${Math.round((Date.now() - startedAt.getTime()) / 1000)} s; results in ${outPath}`);
}

main().catch((error: unknown) => {
  log(`bench:localize: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});
