import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  clearPipelineCache,
  detectPipelineRunner,
  listRepoFiles,
  isParseable,
  measureBareParse,
  measureFloor,
  median,
  repoRoot,
  runPipeline,
  spawnMeasured,
  toCount,
  type PipelineRun,
  type PipelineRunner,
} from './measure.js';
import { buildRealCorpus, type CorpusPackage, LARGE_CORPUS, WORKSPACE_CORPUS } from './corpus.js';
import { measurePeer, type PeerFigures, toPeerNames } from './peers.js';
import { generateSyntheticRepo, touchFiles } from './synthetic.js';

const workRoot = join(repoRoot, 'bench', 'work');
const resultsPath = join(repoRoot, 'bench', 'RESULTS.md');

const targets = { coldOverBare: 1.15, warmOverFloor: 5, touchedSeconds: 1, rssBytes: 1024 ** 3 };
/** checker keeps no graph of a tree with a file modified this close to its scan (src/app/graph-snapshot.ts), plus a margin. */
const RACY_WINDOW_MS = 2100;

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

interface BenchOptions {
  files: number;
  seed: number;
  reps: number;
  touched: number;
  processes: number;
  corpus: boolean;
  corpusPackage: string | undefined;
  /** The packages of `--corpus` without `--package`: the workspace corpus or the large one. */
  corpusSet: CorpusPackage[];
  corpusVersions: string[];
  record: boolean;
  runner: PipelineRunner | undefined;
  touchCommit: boolean;
  /** Other tools run on the same tree (peers.ts). */
  peers: string[];
}

function readOptions(): BenchOptions {
  const { values } = parseArgs({
    options: {
      files: { type: 'string', default: '10000' },
      seed: { type: 'string', default: '1' },
      reps: { type: 'string', default: '3' },
      touched: { type: 'string', default: '50' },
      processes: { type: 'string', default: String(availableParallelism()) },
      corpus: { type: 'boolean', default: false },
      'corpus-set': { type: 'string', default: 'workspace' },
      package: { type: 'string' },
      versions: { type: 'string', default: '' },
      record: { type: 'boolean', default: false },
      runner: { type: 'string' },
      'touch-uncommitted': { type: 'boolean', default: false },
      peers: { type: 'string', default: '' },
    },
    strict: true,
  });
  if (values.package !== undefined && values['corpus-set'] !== 'workspace') {
    throw new Error('--package builds a corpus of one package; leave out --corpus-set, or --package to use the set');
  }
  const runner = values.runner;
  if (runner !== undefined && runner !== 'cli' && runner !== 'tsx') throw new Error(`--runner must be cli or tsx, got "${runner}"`);
  return {
    files: toCount('files', values.files, 80),
    seed: toCount('seed', values.seed, 0),
    reps: toCount('reps', values.reps, 1),
    touched: toCount('touched', values.touched, 1),
    processes: toCount('processes', values.processes, 1),
    corpus: values.corpus || values['corpus-set'] !== 'workspace',
    corpusPackage: values.package,
    corpusSet: toCorpusSet(values['corpus-set']),
    corpusVersions: values.versions
      .split(',')
      .map((version) => version.trim())
      .filter((version) => version !== ''),
    record: values.record,
    runner,
    touchCommit: !values['touch-uncommitted'],
    peers: toPeerNames(values.peers),
  };
}

const CORPUS_SETS: Record<string, CorpusPackage[]> = { workspace: WORKSPACE_CORPUS, large: LARGE_CORPUS };

function toCorpusSet(name: string): CorpusPackage[] {
  const set = CORPUS_SETS[name];
  if (set === undefined) throw new Error(`--corpus-set must be one of ${Object.keys(CORPUS_SETS).join(', ')}, got "${name}"`);
  return set;
}

const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

interface Subject {
  label: string;
  dir: string;
  restoreAfterTouch: boolean;
  /** The corpus commits one version of each package, then the next: `ai` over HEAD~1..HEAD is a real release change. */
  hasReleaseRange: boolean;
}

async function prepareSynthetic(options: BenchOptions): Promise<Subject> {
  const dir = join(workRoot, `synthetic-${options.files}-s${options.seed}`);
  rmSync(dir, { recursive: true, force: true });
  const started = performance.now();
  const summary = await generateSyntheticRepo(dir, { files: options.files, seed: options.seed });
  log(
    `generated ${summary.files} files (${formatBytes(summary.bytes)}) in ${formatSeconds((performance.now() - started) / 1000)} at ${dir}`,
  );
  return { label: `synthetic N=${options.files} seed=${options.seed}`, dir, restoreAfterTouch: false, hasReleaseRange: false };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

async function prepareCorpus(options: BenchOptions): Promise<Subject> {
  const single = options.corpusPackage !== undefined;
  const versions = options.corpusVersions;
  if (single && versions.length !== 2) throw new Error(`--versions needs two versions separated by a comma, got "${versions.join(',')}"`);
  const [from = '', to = ''] = versions;
  const packages = single ? [{ name: options.corpusPackage ?? '', versions: [from, to] as [string, string] }] : options.corpusSet;
  const slug = packages
    .map((entry) => `${entry.name}@${entry.versions[1]}`)
    .join('+')
    .replace(/[^\w.+@-]+/g, '_');
  const dir = join(workRoot, `corpus-${slug}`);
  rmSync(dir, { recursive: true, force: true });
  const started = performance.now();
  const corpus = await buildRealCorpus({ packages, workDir: dir });
  log(`built the real corpus (${corpus.files} files) in ${formatSeconds((performance.now() - started) / 1000)} at ${dir}`);
  const label = packages.map((entry) => `${entry.name}@${entry.versions[0]}..${entry.versions[1]}`).join(', ');
  return { label: `corpus ${label}`, dir: corpus.dir, restoreAfterTouch: true, hasReleaseRange: true };
}

function restoreFromHead(dir: string, paths: readonly string[]): void {
  for (const path of paths) {
    const content = execFileSync('git', ['--git-dir', join(dir, '.git'), '--work-tree', dir, 'show', `HEAD:${path}`], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
    writeFileSync(join(dir, path), content);
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function formatSeconds(seconds: number): string {
  return Number.isFinite(seconds) ? `${seconds.toFixed(seconds < 1 ? 3 : 2)} s` : 'n/a';
}

const formatCount = (value: number): string => value.toLocaleString('en-US');
const judge = (passed: boolean): string => (passed ? 'PASS' : 'MISS');

interface PipelineFigures {
  available: boolean;
  reason: string;
  cold: number;
  /** The first run after the cold one: it builds from the facts cache and keeps the graph snapshot. */
  firstWarm: number;
  warm: number;
  touched: number;
  maxRss: number | undefined;
  treeRss: number | undefined;
  coldTimings: unknown;
  warmTimings: unknown;
  touchedTimings: unknown;
  nodes: number | undefined;
  edges: number | undefined;
}

/** Runs the pipeline figures; `beforeCold` runs before each cold run so that the bare baseline sees the same load. */
async function measurePipeline(subject: Subject, options: BenchOptions, beforeCold: () => Promise<void>): Promise<PipelineFigures> {
  const detection = detectPipelineRunner(options.runner);
  const none: PipelineFigures = {
    available: false,
    reason: detection.reason,
    cold: Number.NaN,
    firstWarm: Number.NaN,
    warm: Number.NaN,
    touched: Number.NaN,
    maxRss: undefined,
    treeRss: undefined,
    coldTimings: undefined,
    warmTimings: undefined,
    touchedTimings: undefined,
    nodes: undefined,
    edges: undefined,
  };
  if (detection.runner === undefined) {
    log(detection.reason);
    for (let rep = 0; rep < options.reps; rep += 1) await beforeCold();
    return none;
  }
  const runner = detection.runner;
  log(`pipeline runner: ${detection.reason}`);
  const workDir = join(workRoot, 'usage');
  const runs: PipelineRun[] = [];
  const runOnce = async (what: string): Promise<PipelineRun | undefined> => {
    const run = await runPipeline(subject.dir, runner, workDir);
    if (!run.ok) {
      log(`${what} failed: ${run.reason ?? 'unknown reason'}`);
      return undefined;
    }
    log(`${what}: ${formatSeconds(run.seconds)}`);
    runs.push(run);
    return run;
  };
  const cold: number[] = [];
  let coldTimings: unknown;
  let nodes: number | undefined;
  let edges: number | undefined;
  for (let rep = 0; rep < options.reps; rep += 1) {
    await beforeCold();
    clearPipelineCache(subject.dir);
    const run = await runOnce(`cold run ${rep + 1}`);
    if (run === undefined) return { ...none, reason: 'the pipeline failed on the cold run (see above)' };
    cold.push(run.seconds);
    coldTimings ??= run.timings;
    nodes ??= run.nodes;
    edges ??= run.edges;
  }
  const firstWarm = await runOnce('first warm run (keeps the graph snapshot)');
  const warm: number[] = [];
  let warmTimings: unknown;
  for (let rep = 0; rep < options.reps; rep += 1) {
    const run = await runOnce(`warm run ${rep + 1}`);
    if (run !== undefined) warm.push(run.seconds);
    warmTimings ??= run?.timings;
  }
  const touched: number[] = [];
  let touchedTimings: unknown;
  let touchedAt: number | undefined;
  for (let rep = 0; rep < options.reps; rep += 1) {
    // The re-warm keeps a graph of the tree only once its files are older than checker's racy window (2 s): run
    // right after the previous touch, it kept none, and the next touch was measured 100, then 150 files behind the
    // kept graph instead of 50.
    if (touchedAt !== undefined) await sleep(Math.max(0, touchedAt + RACY_WINDOW_MS - Date.now()));
    await runOnce(`re-warm before touch ${rep + 1}`);
    const touch = await touchFiles(subject.dir, options.touched, options.seed * 1000 + rep + 1, {
      commit: options.touchCommit && !subject.restoreAfterTouch,
    });
    touchedAt = Date.now();
    const run = await runOnce(`after touching ${options.touched} files, run ${rep + 1}`);
    if (run !== undefined) touched.push(run.seconds);
    touchedTimings ??= run?.timings;
    if (subject.restoreAfterTouch) {
      restoreFromHead(subject.dir, touch.paths);
      touchedAt = Date.now();
    }
  }
  const maxima = (values: Array<number | undefined>): number | undefined => {
    const known = values.filter((value): value is number => value !== undefined);
    return known.length === 0 ? undefined : Math.max(...known);
  };
  return {
    available: true,
    reason: detection.reason,
    cold: median(cold),
    firstWarm: firstWarm?.seconds ?? Number.NaN,
    warm: median(warm),
    touched: median(touched),
    maxRss: maxima(runs.map((run) => run.maxRssBytes)),
    treeRss: maxima(runs.map((run) => run.treePeakRssBytes)),
    coldTimings,
    warmTimings,
    touchedTimings,
    nodes,
    edges,
  };
}

interface RangeFigures {
  /** Why there is no figure, when there is none. */
  missing: string | undefined;
  changedFiles: number;
  cold: number;
  warm: number;
  treePeakRssBytes: number | undefined;
}

/**
 * `checker ai` (the built CLI) over the corpus's release commit, as a user runs it on a dependency or release bump:
 * cold with `.checker/local/cache` removed, then warm. Every changed file is diffed, classified and analysed, so this
 * measures the change analysis at scale, which the graph pipeline above leaves out.
 */
async function measureReleaseRange(subject: Subject, options: BenchOptions): Promise<RangeFigures> {
  const none = { changedFiles: 0, cold: Number.NaN, warm: Number.NaN, treePeakRssBytes: undefined };
  if (!subject.hasReleaseRange) return { ...none, missing: 'the synthetic repository has no release commit' };
  const cli = join(repoRoot, 'bin', 'checker.js');
  if (!existsSync(join(repoRoot, 'dist'))) return { ...none, missing: 'dist/ is not built (npm run build)' };
  const changedFiles = execFileSync('git', ['diff', '--name-only', 'HEAD~1', 'HEAD'], {
    cwd: subject.dir,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
    .split('\n')
    .filter((line) => line !== '').length;
  const args = [cli, 'ai', '--base', 'HEAD~1', '--head', 'HEAD', '--format', 'json', '--cwd', subject.dir];
  const cold: number[] = [];
  const warm: number[] = [];
  let peak: number | undefined;
  for (const [label, runs] of [
    ['cold', cold],
    ['warm', warm],
  ] as const) {
    for (let rep = 0; rep < options.reps; rep += 1) {
      if (label === 'cold') clearPipelineCache(subject.dir);
      const outcome = await spawnMeasured(process.execPath, args, process.env, subject.dir);
      if (outcome.code !== 0)
        return { ...none, changedFiles, missing: `ai exited ${outcome.code ?? outcome.signal}: ${outcome.stderr.trim().slice(0, 300)}` };
      peak = Math.max(peak ?? 0, outcome.treePeakRssBytes ?? 0) || undefined;
      runs.push(outcome.seconds);
      log(`ai on the release range, ${label} run ${rep + 1}: ${formatSeconds(outcome.seconds)}`);
    }
  }
  return { missing: undefined, changedFiles, cold: median(cold), warm: median(warm), treePeakRssBytes: peak };
}

function renderRangeRows(range: RangeFigures): string[][] {
  const label = `\`ai\` on the release range (HEAD~1..HEAD, ${formatCount(range.changedFiles)} files changed)`;
  if (range.missing !== undefined) return [[label, 'n/a', range.missing, '', '—']];
  return [
    [
      `${label}, cold`,
      formatSeconds(range.cold),
      range.treePeakRssBytes === undefined ? '' : `peak RSS ${formatBytes(range.treePeakRssBytes)}`,
      '',
      '',
    ],
    [`${label}, warm`, formatSeconds(range.warm), '', '', ''],
  ];
}

interface EditFigures {
  /** Why there is no figure, when there is none. */
  missing: string | undefined;
  path: string;
  cold: number;
  warm: number;
}

/** The file the edit loop edits: the first tracked TypeScript source under a `src/` folder, by path (stable per corpus). */
function pickEditedFile(dir: string): string | undefined {
  const tracked = execFileSync('git', ['ls-files'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 })
    .split('\n')
    .filter((line) => line !== '')
    .sort();
  return tracked.find((path) => /(^|\/)src\/.+\.ts$/.test(path) && !path.endsWith('.d.ts'));
}

/**
 * `checker ai` (the built CLI) after a one-line edit of one source file, as a user runs it in the loop of an agent that
 * just changed a file: warm (the graph and facts kept from the tree before the edit, each rep a fresh edit) and cold
 * (no cache, as a CI job runs it). Each write waits out checker's 2 s racy window first, so that the run before it keeps
 * its graph and the measured run sees the edit as an edit.
 */
async function measureEditLoop(subject: Subject, options: BenchOptions): Promise<EditFigures> {
  const none = { path: '', cold: Number.NaN, warm: Number.NaN };
  if (!subject.hasReleaseRange) return { ...none, missing: 'measured on the corpora only' };
  const path = pickEditedFile(subject.dir);
  if (path === undefined) return { ...none, missing: 'no tracked src/**/*.ts file to edit' };
  const file = join(subject.dir, path);
  const original = readFileSync(file);
  const args = [join(repoRoot, 'bin', 'checker.js'), 'ai', '--format', 'json', '--cwd', subject.dir];
  const run = async (what: string): Promise<number | string> => {
    const outcome = await spawnMeasured(process.execPath, args, process.env, subject.dir);
    if (outcome.code !== 0) return `ai exited ${outcome.code ?? outcome.signal} (${what}): ${outcome.stderr.trim().slice(0, 300)}`;
    return outcome.seconds;
  };
  const warm: number[] = [];
  const cold: number[] = [];
  try {
    // Warm is the steady state: every file's facts cached and the graph kept. A focused cold run before this (the
    // release range's) cached only the files it parsed; `checker graph` parses the rest, and a second one keeps the graph.
    writeFileSync(file, original);
    await sleep(RACY_WINDOW_MS);
    for (const what of ['settling the cache', 'keeping the graph']) {
      const settled = await spawnMeasured(
        process.execPath,
        [args[0] as string, 'graph', '--format', 'json', '--cwd', subject.dir],
        process.env,
        subject.dir,
      );
      if (settled.code !== 0) return { ...none, path, missing: `graph exited ${settled.code ?? settled.signal} (${what})` };
    }
    // At least three warm runs whatever --reps says: each costs seconds, not the cold run's minutes, and one is noisy.
    for (let rep = 0; rep < Math.max(options.reps, 3); rep += 1) {
      writeFileSync(file, original);
      await sleep(RACY_WINDOW_MS);
      const before = await run('before the edit');
      if (typeof before === 'string') return { ...none, path, missing: before };
      writeFileSync(file, Buffer.concat([original, Buffer.from(`\n// checker bench edit ${rep + 1}\n`)]));
      await sleep(RACY_WINDOW_MS);
      const seconds = await run('after the edit');
      if (typeof seconds === 'string') return { ...none, path, missing: seconds };
      warm.push(seconds);
      log(`ai after a one-line edit of ${path}, warm run ${rep + 1}: ${formatSeconds(seconds)}`);
    }
    for (let rep = 0; rep < options.reps; rep += 1) {
      clearPipelineCache(subject.dir);
      const seconds = await run('cold, after the edit');
      if (typeof seconds === 'string') return { ...none, path, missing: seconds };
      cold.push(seconds);
      log(`ai after a one-line edit of ${path}, cold run ${rep + 1}: ${formatSeconds(seconds)}`);
    }
  } finally {
    writeFileSync(file, original);
  }
  return { missing: undefined, path, cold: median(cold), warm: median(warm) };
}

function renderEditRows(edit: EditFigures, figures: Figures, options: BenchOptions): string[][] {
  const label = `\`ai\` after a one-line edit${edit.path === '' ? '' : ` of \`${edit.path}\``}`;
  if (edit.missing !== undefined) return [[label, 'n/a', edit.missing, '', '—']];
  const madge = figures.peers.find((peer) => peer.name === 'madge' && Number.isFinite(peer.seconds));
  const versusMadge = madge === undefined ? '' : `madge ${(madge.seconds / edit.cold).toFixed(2)} × slower`;
  const isLarge = options.corpusSet === LARGE_CORPUS;
  // Issue 18's table times `ai`: on the workspace corpus its cold run is judged against madge's target too.
  const madgeTarget = isLarge ? undefined : madge?.coldTarget;
  let coldTarget = '';
  let coldJudgement = '';
  if (isLarge) {
    coldTarget = 'issue 18: ≤ 13 s';
    coldJudgement = judge(edit.cold <= 13);
  } else if (madge !== undefined && madgeTarget !== undefined) {
    coldTarget = `issue 18: ≥ ${madgeTarget} × faster than madge`;
    coldJudgement = judge(madge.seconds / edit.cold >= madgeTarget);
  }
  return [
    [`${label}, cold (no cache)`, formatSeconds(edit.cold), versusMadge, coldTarget, coldJudgement],
    [`${label}, warm`, formatSeconds(edit.warm), '', isLarge ? 'issue 18: ≤ 1.5 s' : '', isLarge ? judge(edit.warm <= 1.5) : ''],
  ];
}

function renderTimings(timings: unknown): string | undefined {
  if (!isRecord(timings)) return undefined;
  const parts = Object.entries(timings)
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
    .map(([name, ms]) => `${name} ${formatCount(Math.round(ms))} ms`);
  return parts.length === 0 ? undefined : parts.join(', ');
}

interface Figures {
  files: number;
  parseable: number;
  bytes: number;
  floor: number;
  bare: number;
  bareCpu: number;
  processes: number;
  bareErrors: number;
  /** JS/TS files over the scan's size limit, left out of the bare parse as the scan leaves them out. */
  bareTooLarge: number;
  pipeline: PipelineFigures;
  peers: PeerFigures[];
  range: RangeFigures;
  edit: EditFigures;
}

/** Issue 18's targets for this subject: the large real tree, the workspace corpus, or the 10k synthetic repository. */
function issue18Rows(figures: Figures, options: BenchOptions): string[][] {
  const { pipeline } = figures;
  const row = (figure: string, seconds: number, target: string, passed: boolean): string[] => [
    `issue 18: ${figure}`,
    formatSeconds(seconds),
    '',
    target,
    judge(passed),
  ];
  if (options.corpusPackage !== undefined) return [];
  if (options.corpus && options.corpusSet === LARGE_CORPUS) {
    return [row('cold', pipeline.cold, '≤ 13 s', pipeline.cold <= 13), row('warm', pipeline.warm, '≤ 1.5 s', pipeline.warm <= 1.5)];
  }
  if (options.corpus) {
    const limit = 5 * figures.floor + 0.3;
    return [row('warm', pipeline.warm, `≤ 5 × floor + 0.3 s (${formatSeconds(limit)})`, pipeline.warm <= limit)];
  }
  return options.files >= 10_000
    ? [row(`after touching ${options.touched} files`, pipeline.touched, '≤ 1.5 s', pipeline.touched <= 1.5)]
    : [];
}

function renderTable(figures: Figures, options: BenchOptions): string {
  const { pipeline } = figures;
  const missing = 'n/a';
  const coldRatio = pipeline.cold / figures.bare;
  const warmRatio = pipeline.warm / figures.floor;
  const rss =
    pipeline.treeRss === undefined || pipeline.maxRss === undefined
      ? (pipeline.treeRss ?? pipeline.maxRss)
      : Math.max(pipeline.treeRss, pipeline.maxRss);
  const rows: string[][] = [
    ['files', `${formatCount(figures.files)} (${formatCount(figures.parseable)} parsed)`, '', '', ''],
    ['bytes', `${formatCount(figures.bytes)} (${formatBytes(figures.bytes)})`, '', '', ''],
    ['floor: readFileSync of every file, 1 process', formatSeconds(figures.floor), '', '', ''],
    [
      `bare swc parseSync, ${figures.processes} processes (incl. spawn)${figures.bareTooLarge === 0 ? '' : `, ${formatCount(figures.bareTooLarge)} files over the scan's size limit left out`}`,
      formatSeconds(figures.bare),
      `CPU ${formatSeconds(figures.bareCpu)}${figures.bareErrors === 0 ? '' : `, ${figures.bareErrors} parse errors`}`,
      '',
      '',
    ],
  ];
  if (pipeline.available) {
    rows.push(
      [
        'cold graph build (empty cache)',
        formatSeconds(pipeline.cold),
        `${coldRatio.toFixed(2)} × bare parse`,
        `≤ ${targets.coldOverBare} ×`,
        judge(coldRatio <= targets.coldOverBare),
      ],
      ['first warm run (builds from the facts cache, keeps the graph snapshot)', formatSeconds(pipeline.firstWarm), '', '', ''],
      [
        'warm run (cache, nothing changed)',
        formatSeconds(pipeline.warm),
        `${warmRatio.toFixed(2)} × floor`,
        `< ${targets.warmOverFloor} ×`,
        judge(warmRatio < targets.warmOverFloor),
      ],
      [
        `after touching ${options.touched} files`,
        formatSeconds(pipeline.touched),
        '',
        `< ${targets.touchedSeconds} s`,
        judge(pipeline.touched < targets.touchedSeconds),
      ],
      ...issue18Rows(figures, options),
      [
        pipeline.treeRss !== undefined ? 'peak RSS (process tree sampled, or main process if higher)' : 'peak RSS (main process)',
        rss === undefined ? 'n/a' : formatBytes(rss),
        pipeline.treeRss !== undefined && pipeline.maxRss !== undefined ? `main process ${formatBytes(pipeline.maxRss)}` : '',
        '< 1 GiB',
        rss === undefined ? '—' : judge(rss < targets.rssBytes),
      ],
    );
  } else {
    rows.push(
      ['cold graph build (empty cache)', missing, '', `≤ ${targets.coldOverBare} × bare`, '—'],
      ['warm run (cache, nothing changed)', missing, '', `< ${targets.warmOverFloor} × floor`, '—'],
      [`after touching ${options.touched} files`, missing, '', `< ${targets.touchedSeconds} s`, '—'],
      ['peak RSS', missing, '', '< 1 GiB', '—'],
    );
  }
  for (const peer of figures.peers) rows.push(renderPeerRow(peer, pipeline));
  if (options.corpus) rows.push(...renderRangeRows(figures.range), ...renderEditRows(figures.edit, figures, options));
  const lines = [
    '| figure | value | ratio | target | result |',
    '| --- | ---: | --- | --- | --- |',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
  const phases = [
    ['Cold', renderTimings(pipeline.coldTimings)],
    ['Warm', renderTimings(pipeline.warmTimings)],
    [`Touched-${options.touched}`, renderTimings(pipeline.touchedTimings)],
  ];
  const notes: string[] = [];
  notes.push(pipeline.available ? `Pipeline: ${pipeline.reason}.` : `Pipeline: n/a, ${pipeline.reason}.`);
  if (pipeline.nodes !== undefined) notes.push(`Graph: ${formatCount(pipeline.nodes)} nodes, ${formatCount(pipeline.edges ?? 0)} edges.`);
  for (const [label, timings] of phases) if (timings !== undefined) notes.push(`${label} phases (first run, in-process): ${timings}.`);
  notes.push(`Each figure is the median of ${options.reps} run(s); the pipeline runs in a fresh process each time.`);
  for (const peer of figures.peers) {
    notes.push(
      `${peer.name} ${peer.version}: \`${peer.command}\` in the tree's root, no configuration, cold every run (it keeps no cache).`,
    );
    if (peer.failure !== undefined) notes.push(`${peer.name} failed at least once: ${peer.failure}`);
  }
  return `${lines.join('\n')}\n\n${notes.join('\n')}\n`;
}

/** A peer's row: its time, how many times faster our cold and warm runs are, and its target when the issue sets one. */
function renderPeerRow(peer: PeerFigures, pipeline: PipelineFigures): string[] {
  const label = `${peer.name} ${peer.version}${peer.treePeakRssBytes === undefined ? '' : `, peak RSS ${formatBytes(peer.treePeakRssBytes)}`}`;
  if (!Number.isFinite(peer.seconds))
    return [label, 'failed', '', peer.coldTarget === undefined ? '' : `cold ≥ ${peer.coldTarget} × faster`, '—'];
  if (!pipeline.available) return [label, formatSeconds(peer.seconds), '', '', '—'];
  const cold = peer.seconds / pipeline.cold;
  const warm = peer.seconds / pipeline.warm;
  return [
    label,
    formatSeconds(peer.seconds),
    `our cold ${cold.toFixed(2)} × faster, warm ${warm.toFixed(1)} × faster`,
    peer.coldTarget === undefined ? '' : `cold ≥ ${peer.coldTarget} × faster`,
    peer.coldTarget === undefined ? '' : judge(cold >= peer.coldTarget),
  ];
}

function describeMachine(): string {
  const model = cpus()[0]?.model.trim() ?? 'unknown cpu';
  return `${cpus().length} cpus (${model}), availableParallelism ${availableParallelism()}, node ${process.version}, ${process.platform}/${process.arch}`;
}

function recordResults(heading: string, body: string): void {
  const header =
    '# Benchmark results\n\nAppended by `npm run bench -- --record`; a run with the same date, subject and machine replaces its section.\n';
  const existing = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : header;
  const sections = existing.split(/\n(?=## )/);
  const section = `## ${heading}\n\n${body}`;
  const index = sections.findIndex((entry) => entry.startsWith(`## ${heading}\n`));
  if (index === -1) sections.push(section);
  else sections[index] = section;
  writeFileSync(resultsPath, `${sections.map((entry) => entry.trimEnd()).join('\n\n')}\n`);
}

async function main(): Promise<void> {
  const options = readOptions();
  const subject = options.corpus ? await prepareCorpus(options) : await prepareSynthetic(options);
  const files = listRepoFiles(subject.dir);
  measureFloor(files);
  const floors: number[] = [];
  let bytes = 0;
  for (let rep = 0; rep < options.reps; rep += 1) {
    const floor = measureFloor(files);
    floors.push(floor.seconds);
    bytes = floor.bytes;
    log(`floor run ${rep + 1}: ${formatSeconds(floor.seconds)}`);
  }
  const bares: number[] = [];
  const bareCpus: number[] = [];
  let bareErrors = 0;
  let bareTooLarge = 0;
  const measureBare = async (): Promise<void> => {
    const bare = await measureBareParse(files, { processes: options.processes, workDir: join(workRoot, 'bare') });
    bares.push(bare.seconds);
    bareCpus.push(bare.cpuSeconds);
    bareErrors = bare.errors;
    bareTooLarge = bare.tooLarge;
    const failures = bare.failed.length > 0 ? `: ${bare.failed.join(', ')}` : '';
    log(
      `bare parse run ${bares.length}: ${formatSeconds(bare.seconds)}, CPU ${formatSeconds(bare.cpuSeconds)} (${bare.files} files, ${bare.errors} errors${failures})`,
    );
  };
  const pipeline = await measurePipeline(subject, options, measureBare);
  const peers: PeerFigures[] = [];
  for (const name of options.peers) {
    peers.push(await measurePeer(name, subject.dir, { reps: options.reps, peersDir: join(workRoot, 'peers'), log }));
  }
  const range = await measureReleaseRange(subject, options);
  const edit = await measureEditLoop(subject, options);
  const figures: Figures = {
    range,
    edit,
    files: files.length,
    parseable: files.filter(isParseable).length,
    bytes,
    floor: median(floors),
    bare: median(bares),
    bareCpu: median(bareCpus),
    processes: options.processes,
    bareErrors,
    bareTooLarge,
    pipeline,
    peers,
  };
  const machine = describeMachine();
  const body = `Machine: ${machine}.\n\n${renderTable(figures, options)}`;
  process.stdout.write(`## ${subject.label}\n\n${body}`);
  if (options.record) {
    const date = new Date().toISOString().slice(0, 10);
    recordResults(
      `${date} · ${subject.label} · ${cpus().length}× ${cpus()[0]?.model.trim() ?? 'unknown cpu'} · node ${process.version}`,
      body,
    );
    log(`recorded in ${resultsPath}`);
  }
}

await main();
