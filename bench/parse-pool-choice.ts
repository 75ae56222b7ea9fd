/**
 * Issue 45, item 5 (second half): is the hand-written parse pool (src/io/parse-pool.ts) worth keeping against
 * tinypool? Over the git-tracked JS/TS files of each folder given:
 *
 *   node --import tsx bench/parse-pool-choice.ts <dir> [<dir> …]
 *
 * Every file read, classified and parsed with its words, as a cold run without a cache does it, four ways:
 * - our pool as parse-files uses it: `createParsePool()` at its default size, `warm()`, one `read` of every file;
 * - tinypool on worker threads, and tinypool on child processes, running bench/parse-pool-choice-task.ts (the same
 *   exported functions the parse child calls) on batches cut as our pool cuts them, as many workers as our children;
 * - the floor: the same task on the main thread alone.
 * Each way runs in a process of its own (so one's V8 flags, heap and children never touch the next), bundled with
 * esbuild into bench/work/ as the product is (dist/, scripts/bundle.mjs), so no child starts tsx. Wall time counts
 * from before the pool is made to after it is closed; CPU time is the process's (all its threads) plus its reaped
 * children's (/proc/self/stat cutime and cstime); peak RSS is the most the process and its children held together,
 * read from /proc every 20 ms by this process. One warm-up round, then three; each figure is the best of the three.
 * "Facts" compares a hash of every file's answer (kind, content hash, facts, skip reason) with the floor's.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import Tinypool from 'tinypool';
import { createParsePool, type ReadOutcome } from '../src/io/parse-pool.js';
import { DEFAULT_MAX_FILE_BYTES } from '../src/io/scan.js';
import type { ParseOptions } from '../src/model/facts.js';
import { compareText } from '../src/text/compare-text.js';
import { readSourceFile, type TaskBatch } from './parse-pool-choice-task.js';

const JS_TS = /\.(?:[cm]?[jt]sx?)$/;
const RESULT_MARKER = 'PARSE_POOL_CHOICE ';
const ROUNDS = 3;
const SAMPLE_MS = 20;
/** /proc/self/stat counts children's CPU in clock ticks; 100 a second on Linux. */
const TICK_MS = 10;
const PARSE_OPTIONS: ParseOptions = { assertionHelpers: [] };
/** Our pool's batching (src/io/parse-pool.ts): at most 64 files and 1 MiB, and each child's share of what is left, 8 at least. */
const BATCH_FILES = 64;
const BATCH_BYTES = 1024 * 1024;
const GUIDED_MIN_FILES = 8;

const METHODS = ['floor', 'ours', 'tinypool-threads', 'tinypool-processes'] as const;
type MethodName = (typeof METHODS)[number];

const LABELS: Record<MethodName, string> = {
  floor: 'floor: main thread alone',
  ours: 'our pool (`createParsePool()`, `read`)',
  'tinypool-threads': 'tinypool, worker threads',
  'tinypool-processes': "tinypool, `runtime: 'child_process'`",
};

interface ListedFile {
  path: string;
  size: number;
}

interface FileList {
  root: string;
  files: ListedFile[];
}

interface RunResult {
  wallMs: number;
  cpuMs: number;
  hash: string;
  workers: number;
}

interface Measured extends RunResult {
  peakRssBytes: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function listFiles(dir: string): ListedFile[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
    .split('\0')
    .filter((path) => JS_TS.test(path))
    .map((path) => ({ path, size: statSync(join(dir, path), { throwIfNoEntry: false })?.size ?? 0 }));
}

/** Batches of paths as our pool cuts a request without kept texts (its `buildBatches`, which it does not export). */
function cutBatches(files: readonly ListedFile[], workers: number): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  let limit = 0;
  for (const [index, file] of files.entries()) {
    if (current.length > 0 && (current.length >= limit || bytes + file.size > BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    if (current.length === 0) limit = Math.min(BATCH_FILES, Math.max(GUIDED_MIN_FILES, Math.ceil((files.length - index) / workers)));
    current.push(file.path);
    bytes += file.size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

function hashOutcomes(outcomes: Map<string, ReadOutcome>): string {
  const hash = createHash('sha256');
  for (const path of [...outcomes.keys()].sort(compareText)) hash.update(`${JSON.stringify([path, outcomes.get(path)])}\n`);
  return hash.digest('hex').slice(0, 12);
}

/** The pids of this process's children, whichever thread started them. */
function listChildren(pid: number | 'self'): number[] {
  const children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text !== '') children.push(...text.split(' ').map(Number));
    }
  } catch {
    // Gone while being read.
  }
  return children;
}

/** CPU milliseconds of this process's reaped children (cutime + cstime). */
function readChildrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

/** Until the children are reaped, their CPU is not in cutime: wait (at most 5 s) for their /proc entries to go. */
async function waitReaped(pids: readonly number[]): Promise<void> {
  const deadline = performance.now() + 5000;
  const isPresent = (pid: number): boolean => statSync(`/proc/${pid}`, { throwIfNoEntry: false }) !== undefined;
  while (pids.some(isPresent) && performance.now() < deadline) await new Promise((done) => setTimeout(done, 5));
}

async function readAll(
  method: MethodName,
  list: FileList,
  taskFile: string,
): Promise<{ outcomes: Map<string, ReadOutcome>; workers: number }> {
  const { root, files } = list;
  const maxBytes = DEFAULT_MAX_FILE_BYTES;
  if (method === 'floor') {
    return { outcomes: new Map(files.map((file) => [file.path, readSourceFile(root, file.path, maxBytes, PARSE_OPTIONS)])), workers: 0 };
  }
  if (method === 'ours') {
    const pool = createParsePool();
    pool.warm();
    try {
      return { outcomes: await pool.read({ root, maxBytes }, files, PARSE_OPTIONS), workers: pool.size };
    } finally {
      await pool.close();
    }
  }
  const workers = availableParallelism();
  const pool = new Tinypool({
    filename: taskFile,
    runtime: method === 'tinypool-processes' ? 'child_process' : 'worker_threads',
    minThreads: workers,
    maxThreads: workers,
  });
  try {
    const batches = cutBatches(files, workers).map((paths): TaskBatch => ({ root, maxBytes, options: PARSE_OPTIONS, paths }));
    const answers = await Promise.all(batches.map((batch): Promise<[string, ReadOutcome][]> => pool.run(batch)));
    return { outcomes: new Map(answers.flat()), workers };
  } finally {
    await pool.destroy();
  }
}

/** One measured run, in a process of its own (the bundled copy of this file, `--run`). */
async function runOne(method: MethodName, listFile: string): Promise<void> {
  const list = JSON.parse(readFileSync(listFile, 'utf8')) as FileList;
  const taskFile = fileURLToPath(new URL('./parse-pool-choice-task.js', import.meta.url));
  const cpuBefore = process.cpuUsage();
  const childrenBefore = readChildrenCpuMs();
  const started = performance.now();
  const children = new Set<number>();
  const watch = setInterval(() => {
    for (const pid of listChildren('self')) children.add(pid);
  }, SAMPLE_MS);
  const { outcomes, workers } = await readAll(method, list, taskFile);
  const wallMs = performance.now() - started;
  clearInterval(watch);
  await waitReaped([...children]);
  const cpu = process.cpuUsage(cpuBefore);
  const result: RunResult = {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000 + readChildrenCpuMs() - childrenBefore,
    hash: hashOutcomes(outcomes),
    workers,
  };
  process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`);
}

/** Resident bytes of `pid` and its descendants now. */
function measureTreeRss(pid: number): number {
  let bytes = 0;
  for (const child of listChildren(pid)) bytes += measureTreeRss(child);
  try {
    const resident = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    bytes += resident * 4096;
  } catch {
    // Exited between the listing and the read.
  }
  return bytes;
}

function measureRun(script: string, method: MethodName, listFile: string): Promise<Measured> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script, '--run', method, listFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    let peakRssBytes = 0;
    const sampler = setInterval(() => {
      if (child.pid !== undefined) peakRssBytes = Math.max(peakRssBytes, measureTreeRss(child.pid));
    }, SAMPLE_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', fail);
    child.on('close', (code) => {
      clearInterval(sampler);
      const line = output.split('\n').find((entry) => entry.startsWith(RESULT_MARKER));
      const parsed: unknown = line === undefined ? undefined : JSON.parse(line.slice(RESULT_MARKER.length));
      if (code !== 0 || !isRecord(parsed)) {
        fail(new Error(`${method} exited with ${code}: ${output.slice(-2000)}`));
        return;
      }
      done({ ...(parsed as unknown as RunResult), peakRssBytes });
    });
  });
}

/** This file, the task and the parse child bundled as the product's are (scripts/bundle.mjs), into bench/work/. */
async function bundle(): Promise<string> {
  const benchDir = fileURLToPath(new URL('.', import.meta.url));
  const outDir = join(benchDir, 'work', 'parse-pool-choice');
  mkdirSync(outDir, { recursive: true });
  await build({
    // The pool forks ../worker/parse-worker.js from where its code is: bench/ and worker/ side by side, as in dist/.
    entryPoints: {
      'bench/parse-pool-choice': join(benchDir, 'parse-pool-choice.ts'),
      'bench/parse-pool-choice-task': join(benchDir, 'parse-pool-choice-task.ts'),
      'worker/parse-worker': join(benchDir, '..', 'src', 'worker', 'parse-worker.ts'),
    },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    // tinypool finds its own entry files next to its modules; esbuild is only this process's.
    external: ['@swc/core', 'tinypool', 'esbuild'],
    define: { __filename: '__benchFilename' },
    banner: {
      js: "import { createRequire as __benchRequire } from 'node:module'; import { fileURLToPath as __benchPath } from 'node:url'; const require = __benchRequire(import.meta.url); const __benchFilename = __benchPath(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return join(outDir, 'bench', 'parse-pool-choice.js');
}

const formatLoad = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const [first, method, listFile] = process.argv.slice(2);
  if (first === '--run' && listFile !== undefined && (METHODS as readonly string[]).includes(method ?? '')) {
    await runOne(method as MethodName, listFile);
    return;
  }
  const dirs = process.argv.slice(2).map((dir) => resolve(dir));
  if (dirs.length === 0) {
    process.stderr.write('usage: node --import tsx bench/parse-pool-choice.ts <dir> [<dir> …]\n');
    process.exitCode = 2;
    return;
  }
  const script = await bundle();
  for (const [index, dir] of dirs.entries()) {
    const files = listFiles(dir);
    const listPath = join(script, '..', `files-${index}.json`);
    writeFileSync(listPath, JSON.stringify({ root: dir, files } satisfies FileList));
    const bytes = files.reduce((sum, file) => sum + file.size, 0);
    const loadBefore = formatLoad();
    // Rounds rather than one method's runs in a row, so a neighbour's load falls on every method alike.
    const runs = new Map<MethodName, Measured[]>(METHODS.map((name) => [name, []]));
    for (let round = 0; round <= ROUNDS; round += 1)
      for (const name of METHODS) {
        const measured = await measureRun(script, name, listPath);
        // Round 0 warms the page cache and the compile caches.
        if (round > 0) runs.get(name)?.push(measured);
      }
    process.stdout.write(`\n### ${dir}: ${files.length} JS/TS files, ${(bytes / 1e6).toFixed(1)} MB\n\n`);
    process.stdout.write('| way | workers | wall | CPU | peak RSS | facts |\n| --- | ---: | ---: | ---: | ---: | --- |\n');
    const floorHash = runs.get('floor')?.[0]?.hash;
    for (const name of METHODS) {
      const measured = runs.get(name) ?? [];
      const best = (pick: (run: Measured) => number): number => Math.min(...measured.map(pick));
      const hashes = new Set(measured.map((run) => run.hash));
      const facts = hashes.size === 1 && hashes.has(floorHash ?? '') ? `= floor (${floorHash})` : `DIFFER: ${[...hashes].join(', ')}`;
      process.stdout.write(
        `| ${LABELS[name]} | ${measured[0]?.workers ?? 0} | ${(best((run) => run.wallMs) / 1000).toFixed(2)} s | ${(best((run) => run.cpuMs) / 1000).toFixed(2)} s | ${(best((run) => run.peakRssBytes) / 2 ** 20).toFixed(0)} MiB | ${facts} |\n`,
      );
    }
    process.stdout.write(`\n(load average ${loadBefore} before, ${formatLoad()} after)\n`);
  }
}

await main();
