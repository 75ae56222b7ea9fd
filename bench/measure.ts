import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_MAX_FILE_BYTES } from '../src/app/build-graph.js';
import { runGit } from './synthetic.js';

export const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
const benchDir = join(repoRoot, 'bench');
const usageHookUrl = pathToFileURL(join(benchDir, 'usage-hook.mjs')).href;
const parseableExtensions = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i;

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Absolute paths of the files a scan would see: tracked plus untracked-but-not-ignored, in path order. */
export function listRepoFiles(dir: string): string[] {
  return runGit(dir, ['ls-files', '-z', '--cached', '--others', '--exclude-standard'])
    .split('\0')
    .filter((path) => path.length > 0)
    .filter((path, index, all) => index === 0 || all[index - 1] !== path)
    .sort()
    .map((path) => join(dir, path));
}

/** The files our pipeline parses (TypeScript and JavaScript: getSwcOptions in src/graph/parse/swc-options.ts), declaration files included. */
export function isParseable(path: string): boolean {
  return parseableExtensions.test(path);
}

export interface FloorRun {
  seconds: number;
  bytes: number;
}

/** Reads every file once with readFileSync in this process. */
export function measureFloor(files: readonly string[]): FloorRun {
  const started = performance.now();
  let bytes = 0;
  for (const file of files) bytes += readFileSync(file).length;
  return { seconds: (performance.now() - started) / 1000, bytes };
}

export interface BareParseRun {
  seconds: number;
  processes: number;
  /** JS/TS files left out for being over the scan's size limit. */
  tooLarge: number;
  files: number;
  errors: number;
  failed: string[];
  maxRssBytes: number;
  cpuSeconds: number;
}

interface BareChildReport {
  files: number;
  errors: number;
  failed: string[];
  maxRssBytes: number;
  cpuMs: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function toBareChildReport(value: unknown): BareChildReport {
  if (!isRecord(value) || typeof value.files !== 'number' || typeof value.errors !== 'number' || typeof value.maxRssBytes !== 'number') {
    throw new Error(`bare parse child printed an unexpected report: ${JSON.stringify(value)}`);
  }
  const failed = Array.isArray(value.failed) ? value.failed.filter((entry): entry is string => typeof entry === 'string') : [];
  const cpuMs = typeof value.cpuMs === 'number' ? value.cpuMs : 0;
  return { files: value.files, errors: value.errors, failed, maxRssBytes: value.maxRssBytes, cpuMs };
}

/** Splits files into `count` shares of about equal bytes (largest first, each to the lightest share). */
export function splitBySize(files: readonly string[], sizes: ReadonlyMap<string, number>, count: number): string[][] {
  const shares = Array.from({ length: count }, () => ({ bytes: 0, files: [] as string[] }));
  const ordered = [...files].sort((a, b) => (sizes.get(b) ?? 0) - (sizes.get(a) ?? 0) || (a < b ? -1 : 1));
  for (const file of ordered) {
    let lightest = shares[0];
    for (const share of shares) if (lightest === undefined || share.bytes < lightest.bytes) lightest = share;
    if (lightest === undefined) break;
    lightest.files.push(file);
    lightest.bytes += sizes.get(file) ?? 0;
  }
  return shares.map((share) => share.files);
}

interface ChildOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  seconds: number;
  treePeakRssBytes: number | undefined;
}

/** Spawns a process, samples the summed RSS of its process tree (Linux /proc) and collects its output. */
export function spawnMeasured(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = repoRoot,
): Promise<ChildOutcome> {
  return new Promise((resolveOutcome, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    let treePeak: number | undefined;
    const sample = (): void => {
      if (child.pid === undefined) return;
      const rss = readTreeRss(child.pid);
      if (rss !== undefined) treePeak = Math.max(treePeak ?? 0, rss);
    };
    const timer = setInterval(sample, 100);
    child.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearInterval(timer);
      resolveOutcome({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        seconds: (performance.now() - started) / 1000,
        treePeakRssBytes: treePeak,
      });
    });
  });
}

const pageSize = 4096;

function readProcessRss(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ');
    return Number(fields[1] ?? 0) * pageSize;
  } catch {
    return 0;
  }
}

function readChildPids(pid: number): number[] {
  const children: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return children;
  }
  for (const task of tasks) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text !== '') children.push(...text.split(' ').map(Number));
    } catch {}
  }
  return children;
}

/** Summed RSS of `pid` and its descendants, or undefined where /proc is not available. */
export function readTreeRss(pid: number): number | undefined {
  if (!existsSync('/proc/self/statm')) return undefined;
  let total = 0;
  const queue = [pid];
  const seen = new Set<number>();
  while (queue.length > 0) {
    const current = queue.pop();
    if (current === undefined || seen.has(current)) continue;
    seen.add(current);
    total += readProcessRss(current);
    queue.push(...readChildPids(current));
  }
  return total;
}

/**
 * A bare swc baseline: `processes` fresh child processes each read and `parseSync` a share of the files (balanced by
 * bytes). The wall time includes spawning them.
 */
/**
 * swc over the JS/TS files our scan would parse: those over `maxFileBytes` (the scan's default limit unless given) are
 * left out, as the scan leaves them out, so the ratio compares the same work (the large real tree has 16 such files,
 * 42 of its 205 MiB, typescript's own compiler among them).
 */
export async function measureBareParse(
  files: readonly string[],
  options: { processes?: number; workDir: string; maxFileBytes?: number },
): Promise<BareParseRun> {
  const processes = options.processes ?? availableParallelism();
  const limit = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const sizes = new Map<string, number>();
  let tooLarge = 0;
  for (const file of files.filter(isParseable)) {
    const size = statSync(file).size;
    if (size > limit) tooLarge += 1;
    else sizes.set(file, size);
  }
  const parseable = [...sizes.keys()];
  mkdirSync(options.workDir, { recursive: true });
  const lists = splitBySize(parseable, sizes, processes).map((share, index) => {
    const listPath = join(options.workDir, `bare-share-${index}.txt`);
    writeFileSync(listPath, `${share.join('\n')}\n`);
    return listPath;
  });
  const child = join(benchDir, 'bare-parse-child.mjs');
  const started = performance.now();
  const outcomes = await Promise.all(lists.map((listPath) => spawnMeasured(process.execPath, [child, listPath])));
  const seconds = (performance.now() - started) / 1000;
  const reports = outcomes.map((outcome, index) => {
    if (outcome.code !== 0) {
      throw new Error(`bare parse child ${index} exited with ${outcome.code ?? outcome.signal}: ${outcome.stderr.slice(0, 2000)}`);
    }
    return toBareChildReport(JSON.parse(outcome.stdout.trim().split('\n').pop() ?? 'null'));
  });
  return {
    seconds,
    processes,
    tooLarge,
    files: reports.reduce((sum, report) => sum + report.files, 0),
    errors: reports.reduce((sum, report) => sum + report.errors, 0),
    failed: reports.flatMap((report) => report.failed),
    maxRssBytes: reports.reduce((sum, report) => sum + report.maxRssBytes, 0),
    cpuSeconds: reports.reduce((sum, report) => sum + report.cpuMs, 0) / 1000,
  };
}

export type PipelineRunner = 'cli' | 'tsx';

export interface PipelineDetection {
  runner: PipelineRunner | undefined;
  reason: string;
}

/** Prefers the built CLI (`bin/checker.js graph`), falls back to the TypeScript pipeline through tsx. */
export function detectPipelineRunner(preferred?: PipelineRunner): PipelineDetection {
  const hasOverride = (process.env.CHECKER_BENCH_PIPELINE_MODULE ?? '') !== '';
  const cliReady = !hasOverride && existsSync(join(repoRoot, 'dist', 'cli', 'main.js')) && existsSync(join(repoRoot, 'bin', 'checker.js'));
  if (preferred !== 'tsx' && cliReady) {
    const probe = spawnSync(process.execPath, [join(repoRoot, 'bin', 'checker.js'), 'graph', '--help'], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (probe.status === 0) return { runner: 'cli', reason: 'built CLI: node bin/checker.js graph --cwd <dir> --format json' };
    if (preferred === 'cli') return { runner: undefined, reason: `the built CLI has no working graph command (exit ${probe.status})` };
  } else if (preferred === 'cli') {
    return { runner: undefined, reason: 'the CLI is not built (run npm run build)' };
  }
  const override = process.env.CHECKER_BENCH_PIPELINE_MODULE;
  if (override !== undefined && override !== '') {
    return { runner: 'tsx', reason: `${override} through tsx (CHECKER_BENCH_PIPELINE_MODULE)` };
  }
  if (existsSync(join(repoRoot, 'src', 'app', 'build-graph.ts'))) {
    return { runner: 'tsx', reason: 'src/app/build-graph.ts through tsx (bench/pipeline-child.ts)' };
  }
  return { runner: undefined, reason: 'pipeline not available yet: neither the built CLI graph command nor src/app/build-graph.ts exists' };
}

export interface PipelineRun {
  ok: boolean;
  reason: string | undefined;
  seconds: number;
  maxRssBytes: number | undefined;
  treePeakRssBytes: number | undefined;
  nodes: number | undefined;
  edges: number | undefined;
  timings: unknown;
  stats: unknown;
}

export function clearPipelineCache(dir: string): void {
  rmSync(join(dir, '.checker', 'local', 'cache'), { recursive: true, force: true });
}

function readUsageFile(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  return isRecord(parsed) && typeof parsed.maxRssBytes === 'number' ? parsed.maxRssBytes : undefined;
}

const resultMarker = 'CHECKER_BENCH_RESULT ';

/** Runs our graph build in a fresh child process on `dir`: wall time, the process's own peak RSS and its tree's. */
export async function runPipeline(dir: string, runner: PipelineRunner, workDir: string): Promise<PipelineRun> {
  mkdirSync(workDir, { recursive: true });
  const usageFile = join(workDir, `usage-${process.pid}-${Date.now()}.json`);
  rmSync(usageFile, { force: true });
  const env = { ...process.env, CHECKER_BENCH_USAGE_FILE: usageFile };
  const args =
    runner === 'cli'
      ? ['--import', usageHookUrl, join(repoRoot, 'bin', 'checker.js'), 'graph', '--cwd', dir, '--format', 'json']
      : ['--import', usageHookUrl, '--import', 'tsx', join(benchDir, 'pipeline-child.ts'), dir];
  const outcome = await spawnMeasured(process.execPath, args, env);
  const maxRssBytes = readUsageFile(usageFile);
  rmSync(usageFile, { force: true });
  const base = {
    seconds: outcome.seconds,
    maxRssBytes,
    treePeakRssBytes: outcome.treePeakRssBytes,
    nodes: undefined,
    edges: undefined,
    timings: undefined,
    stats: undefined,
  };
  if (runner === 'cli') {
    if (outcome.code !== 0) {
      return { ...base, ok: false, reason: `CLI exited with ${outcome.code ?? outcome.signal}: ${outcome.stderr.trim().slice(0, 500)}` };
    }
    const parsed = parseJsonOrUndefined(outcome.stdout);
    const stats = isRecord(parsed) ? parsed.stats : undefined;
    const timings = isRecord(parsed) ? parsed.timings : undefined;
    return { ...base, ok: true, reason: undefined, stats, timings };
  }
  const line = outcome.stdout
    .split('\n')
    .reverse()
    .find((entry) => entry.startsWith(resultMarker));
  const parsed = line === undefined ? undefined : parseJsonOrUndefined(line.slice(resultMarker.length));
  if (!isRecord(parsed) || parsed.ok !== true) {
    const reason =
      isRecord(parsed) && typeof parsed.reason === 'string'
        ? parsed.reason
        : `pipeline child exited with ${outcome.code ?? outcome.signal}: ${outcome.stderr.trim().slice(0, 500)}`;
    return { ...base, ok: false, reason };
  }
  return {
    ...base,
    ok: true,
    reason: undefined,
    nodes: typeof parsed.nodes === 'number' ? parsed.nodes : undefined,
    edges: typeof parsed.edges === 'number' ? parsed.edges : undefined,
    timings: parsed.timings,
    stats: parsed.stats,
  };
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A numeric command-line option, refused (naming the flag) unless it is an integer of at least `minimum`. */
export function toCount(name: string, text: string, minimum: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum) throw new Error(`--${name} must be an integer of at least ${minimum}, got "${text}"`);
  return value;
}

export interface TimedProcess {
  /** The exit code, or -1 when the command died of a signal. */
  code: number;
  wallSeconds: number;
  /** User plus system time of the process and every child it waited for (parse children, jest workers). */
  cpuSeconds: number;
  /** The largest resident set of any single process of the tree (GNU time's maximum), not their sum. */
  peakRssBytes: number;
  stdout: string;
  stderr: string;
}

function readTimeField(report: string, label: string): string {
  const line = report.split('\n').find((candidate) => candidate.trim().startsWith(label));
  if (line === undefined) throw new Error(`/usr/bin/time -v printed no "${label}"`);
  return line.slice(line.lastIndexOf(': ') + 2).trim();
}

function toWallSeconds(text: string): number {
  return text.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/** Runs a command to its end under `/usr/bin/time -v` (its report written to a file of its own, apart from stderr). */
export function runTimed(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): TimedProcess {
  const scratch = mkdtempSync(join(tmpdir(), 'checker-timed-'));
  const reportFile = join(scratch, 'time.txt');
  try {
    const outcome = spawnSync('/usr/bin/time', ['-v', '-o', reportFile, command, ...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    const report = readFileSync(reportFile, 'utf8');
    return {
      code: outcome.status ?? -1,
      wallSeconds: toWallSeconds(readTimeField(report, 'Elapsed (wall clock) time')),
      cpuSeconds: Number(readTimeField(report, 'User time (seconds)')) + Number(readTimeField(report, 'System time (seconds)')),
      peakRssBytes: Number(readTimeField(report, 'Maximum resident set size (kbytes)')) * 1024,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** checker keeps no graph of a tree with a file modified this close to its scan (src/app/graph-snapshot.ts), plus a margin. */
const RACY_WINDOW_MS = 2100;

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, milliseconds));
}

/** Appends a line to a file with the racy window waited out on both sides, so that the runs before and after see settled files. */
export async function appendSettledLine(path: string, line: string): Promise<void> {
  await sleep(RACY_WINDOW_MS);
  appendFileSync(path, `${line}\n`);
  await sleep(RACY_WINDOW_MS);
}
