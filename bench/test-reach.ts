/**
 * Issue 41's test-reach yardstick: on the localization benchmark's mined fix commits (bench/localize/cases) whose
 * commit also edits an existing test, does checker pick that test for the source change alone?
 *
 * For each such commit the tree is the commit with its test edits taken back (modified tests restored to the parent's
 * text, added tests removed), so checker sees only what a reviewer or agent sees before the proof is written; `checker
 * ai --base <parent> --format json` then analyses the working tree. A case counts as
 *   - reached when an edited test is among the test files that reach a changed source file: the impacted files of role
 *     test (imports), and each changed path's reaching tests in the proof table (also route callers, spawned programs,
 *     runner setup files; its first 20, nearest first);
 *   - selected when it is among the files of the bundle's test-run commands (nearest first, capped at 20).
 * Reported per split (dev: tuned on; held-out: reported only), with the median number of tests selected and reached.
 *
 *   node --import tsx bench/test-reach.ts --repos <dir> [--split dev|held-out|all] [--per-repo n] [--work <dir>]
 *     [--set localize|languages] [--keep <dir>]
 *
 * `--set languages` runs the Python and Go repositories of bench/languages/ (issue 43: the fix's test among the
 * reaching tests).
 *
 * `--keep <dir>` also writes, per commit, what a reviewer needs to judge the bundle by hand (issue 41's labelled sample):
 * `<dir>/<id>/bundle.md` (`checker ai --format markdown`, the agent's prompt), `bundle.json`, `fix.diff` (the commit's
 * own change: its source lines and the test it added or edited) and `case.json` (task, truth, edited tests).
 *
 * Runs the built CLI (bin/checker.js → dist/): `npm run build` first. Every answer goes to <work>/test-reach.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type CaseSet, type LocalizeCase, localizeDir, type Split, toCaseSet, toRepoKey } from './localize/cases.js';
import { checkoutCommit, resolveReposDir, runGit } from './localize/repo-cache.js';
import { selectReachCases } from './test-reach-cases.js';

const repoRoot = resolve(localizeDir, '..', '..');

interface ReachRecord {
  id: string;
  repository: string;
  split: Split;
  editedTests: string[];
  sources: string[];
  selected: boolean;
  reached: boolean;
  /** 1-based position of the first edited test among the selected files; undefined when none was selected. */
  rank?: number;
  /**
   * The test each changed file's proof task asks to extend (findNamedTest), for the changed files with reaching tests,
   * and the type tests a type-only change's review task names; `proofHit` when one of them is an edited test.
   */
  proofTests: string[];
  proofHit: boolean;
  /** Per changed file, its first reaching tests as the bundle lists them (to study a miss offline). */
  reaching: Record<string, string[]>;
  selectedCount: number;
  reachedCount: number;
  scope: string;
  error?: string;
}

const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

interface Options {
  reposDir: string;
  split: Split | 'all';
  perRepo: number;
  workDir: string;
  set: CaseSet;
  keep?: string;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      repos: { type: 'string' },
      split: { type: 'string', default: 'all' },
      'per-repo': { type: 'string', default: '6' },
      work: { type: 'string' },
      set: { type: 'string' },
      keep: { type: 'string' },
    },
  });
  const split = values.split;
  if (split !== 'dev' && split !== 'held-out' && split !== 'all') throw new Error(`--split ${split}: expected dev, held-out or all`);
  const perRepo = Number(values['per-repo']);
  if (!Number.isInteger(perRepo) || perRepo < 1) throw new Error(`--per-repo ${values['per-repo']}: expected a whole number ≥ 1`);
  return {
    reposDir: resolveReposDir(values.repos, process.env),
    split,
    perRepo,
    workDir: resolve(values.work ?? join(repoRoot, 'bench', 'work', 'test-reach')),
    set: toCaseSet(values.set),
    ...(values.keep === undefined ? {} : { keep: resolve(values.keep) }),
  };
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

interface AiJson {
  tasks: { id: string; detail: string }[];
  taskOverflow: { id: string; detail: string }[];
  evidence: {
    impactedFiles: { path: string; role: string }[];
    changedFiles: { path: string; role: string }[];
    changedPathProof?: { path: string; reachingTests: string[]; repairTask?: string }[];
    testRun: { scope: string; commands: { files: string[] }[] };
  };
}

/**
 * The reaching test a proof's repair task names first (the one it asks to extend: a test importing the changed
 * symbol, or the one that names the change most closely), else the first reaching test.
 */
function findNamedTest(repairTask: string, reaching: readonly string[]): string {
  let named: { path: string; at: number } | undefined;
  for (const path of reaching) {
    const at = repairTask.indexOf(path);
    if (at >= 0 && (named === undefined || at < named.at)) named = { path, at };
  }
  return named?.path ?? reaching[0] ?? '';
}

function runChecker(workDir: string, parent: string, format: 'json' | 'markdown'): string {
  return execFileSync(
    process.execPath,
    [join(repoRoot, 'bin', 'checker.js'), 'ai', '--cwd', workDir, '--base', parent, '--format', format],
    {
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 600_000,
    },
  );
}

/** What a reviewer needs to label the bundle: the prompt, the JSON, the fix itself and the case. */
function keepBundle(
  keep: string,
  gitDir: string,
  workDir: string,
  testCase: LocalizeCase,
  json: string,
  edited: { modified: string[]; added: string[] },
): void {
  const dir = join(keep, testCase.id.replace(/[^\w.-]+/g, '_'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bundle.json'), json);
  writeFileSync(join(dir, 'bundle.md'), runChecker(workDir, testCase.parent, 'markdown'));
  writeFileSync(
    join(dir, 'fix.diff'),
    runGit(['diff', testCase.parent, testCase.commit, '--', ...testCase.truth, ...edited.modified, ...edited.added], { gitDir }),
  );
  writeFileSync(join(dir, 'case.json'), `${JSON.stringify({ ...testCase, editedTests: edited }, null, 2)}\n`);
}

function runCase(
  gitDir: string,
  workDir: string,
  testCase: LocalizeCase,
  edited: { modified: string[]; added: string[] },
  keep?: string,
): ReachRecord {
  const base: Omit<
    ReachRecord,
    'selected' | 'reached' | 'selectedCount' | 'reachedCount' | 'scope' | 'proofTests' | 'proofHit' | 'reaching'
  > = {
    id: testCase.id,
    repository: testCase.repository,
    split: testCase.split,
    editedTests: edited.modified,
    sources: testCase.truth,
  };
  checkoutCommit(gitDir, workDir, testCase.commit);
  runGit(['checkout', testCase.parent, '--', ...edited.modified], { cwd: workDir });
  for (const path of edited.added) rmSync(join(workDir, path), { force: true });
  let output: string;
  try {
    output = runChecker(workDir, testCase.parent, 'json');
    if (keep !== undefined) keepBundle(keep, gitDir, workDir, testCase, output, edited);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return {
      ...base,
      selected: false,
      reached: false,
      selectedCount: 0,
      reachedCount: 0,
      scope: 'error',
      error: message,
      proofTests: [],
      proofHit: false,
      reaching: {},
    };
  }
  const { evidence, tasks, taskOverflow } = JSON.parse(output) as AiJson;
  const selected = evidence.testRun.commands.flatMap((command) => command.files);
  const reached = new Set([
    ...evidence.impactedFiles.filter((file) => file.role === 'test').map((file) => file.path),
    ...(evidence.changedPathProof ?? []).flatMap((proof) => proof.reachingTests),
  ]);
  const positions = edited.modified.map((path) => selected.indexOf(path)).filter((index) => index >= 0);
  const proofs = (evidence.changedPathProof ?? []).filter((proof) => proof.reachingTests.length > 0);
  // A type-only change has no runtime proof: its review task names the type tests named for it.
  const typeCheck = [...tasks, ...taskOverflow].find((task) => task.id.startsWith('task:type-check:'));
  const typeTests = /The type tests? named for (?:it|them): (.*)\.$/.exec(typeCheck?.detail ?? '')?.[1]?.split(', ') ?? [];
  const proofTests = [...proofs.map((proof) => findNamedTest(proof.repairTask ?? '', proof.reachingTests)), ...typeTests];
  const record: ReachRecord = {
    proofTests,
    proofHit: proofTests.some((path) => edited.modified.includes(path)),
    reaching: Object.fromEntries(proofs.map((proof) => [proof.path, proof.reachingTests])),
    ...base,
    selected: positions.length > 0,
    reached: edited.modified.some((path) => reached.has(path)),
    selectedCount: selected.length,
    reachedCount: reached.size,
    scope: evidence.testRun.scope,
  };
  if (positions.length > 0) record.rank = Math.min(...positions) + 1;
  return record;
}

function summarize(records: readonly ReachRecord[], split: Split): string {
  const rows = records.filter((record) => record.split === split && record.error === undefined);
  if (rows.length === 0) return `| ${split} | 0 | — | — | — | — | — | — |`;
  const share = (count: number): string => `${count}/${rows.length} (${((100 * count) / rows.length).toFixed(0)}%)`;
  const ranks = rows.flatMap((record) => (record.rank === undefined ? [] : [record.rank]));
  return [
    `| ${split}`,
    String(new Set(rows.map((record) => record.repository)).size),
    share(rows.filter((record) => record.reached).length),
    share(rows.filter((record) => record.selected).length),
    ranks.length === 0 ? '—' : String(median(ranks)),
    String(median(rows.map((record) => record.selectedCount))),
    String(median(rows.map((record) => record.reachedCount))),
    `${share(rows.filter((record) => record.proofHit).length)} |`,
  ].join(' | ');
}

function main(): void {
  const options = readOptions();
  const records: ReachRecord[] = [];
  const selected = selectReachCases({
    reposDir: options.reposDir,
    split: options.split,
    perRepo: options.perRepo,
    set: options.set,
    onMissing: (repository) => log(`${repository}: no clone under ${options.reposDir}, skipped`),
  });
  for (const { testCase, gitDir, edited } of selected) {
    const workDir = join(options.workDir, toRepoKey(testCase.repository));
    const record = runCase(gitDir, workDir, testCase, edited, options.keep);
    records.push(record);
    log(
      `${record.id}: ${record.error ?? `${record.selected ? `selected #${record.rank}` : record.reached ? 'reached, not selected' : 'missed'} (${record.selectedCount} selected, ${record.reachedCount} reach)`}`,
    );
  }
  mkdirSync(options.workDir, { recursive: true });
  writeFileSync(join(options.workDir, 'test-reach.json'), `${JSON.stringify(records, null, 2)}\n`);
  const errors = records.filter((record) => record.error !== undefined).length;
  process.stdout.write(
    [
      '| split | repositories | edited test reaches the change | edited test selected | median rank | median selected | median reaching | proof names the edited test |',
      '|---|---|---|---|---|---|---|---|',
      summarize(records, 'dev'),
      summarize(records, 'held-out'),
      '',
      `${records.length} commits${errors > 0 ? `, ${errors} failed to run (see test-reach.json)` : ''}.`,
      '',
    ].join('\n'),
  );
  if (!existsSync(join(repoRoot, 'dist'))) log('dist/ is missing: run npm run build');
}

main();
