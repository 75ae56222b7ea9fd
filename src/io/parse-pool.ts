import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CheckerError } from '../model/diagnostic.js';
import type { LinkKeys } from '../model/env.js';
import { emptyFacts, type FileFacts, type ParseFailure, type ParseOptions } from '../model/facts.js';
import type { SkippedFile } from '../model/scan.js';

export interface ParseJob {
  path: string;
  text: string;
}

/** A repository file the child reads, classifies and parses itself (src/io/read-source.ts), so its text never crosses IPC. */
export interface ReadJob {
  path: string;
  /** Its scanned size (for batching). */
  size: number;
  /** The hash of the facts the caller holds for it: when the file still hashes to it, the child does not parse it. */
  knownHash?: string;
  /** The child that keeps its text (ReadOutcome `unlinked`): its batch goes there while that child lives. */
  holder?: number;
}

/** Where read jobs are read from: the repository root, and the scan's size limit (`analysis.maxFileBytes`). */
export interface ReadSource {
  root: string;
  maxBytes: number;
  /** Read each file's imports and exports alone when the fast scanner can (answered `linked`); parse the others. */
  links?: boolean;
  /**
   * With `links`: the keys a file's text must hold to be scanned (answered `unlinked` otherwise), as known when its
   * batch goes to a child; while they are not known (undefined), none. Batches then wait for a child that is ready
   * rather than one starting, so that more of them go out with the keys.
   */
  keys?: () => LinkKeys | undefined;
  /** With `links`: the children keep the texts of the files they answer `unlinked` (ReadJob.holder) until `release`. */
  hold?: boolean;
  /**
   * With `links`: test files are parsed in full (their titles are ranked), and each file read for its links gets its
   * words (FileFacts.words): a build with no change to focus on, whose task grounding ranks every file by what it says.
   */
  modules?: boolean;
}

/** What a child made of a read job; `failed` is the pool's own answer when the child died or ran over the time limit. */
export type ReadOutcome =
  /** `clean`: redacting the facts changes nothing (src/text/redact/tree.ts), so the facts cache may store them as they are. */
  | { kind: 'parsed'; size: number; hash: string; facts: FileFacts; clean?: true }
  /** Imports, exports and lines from the fast scanner (ReadSource.links), every other list empty; `clean` as above. */
  | { kind: 'linked'; size: number; hash: string; facts: FileFacts; clean?: true }
  /** Read and hashed, but its text held none of the keys it was sent (`tested`, their number): not scanned. */
  | {
      kind: 'unlinked';
      size: number;
      hash: string;
      lines: number;
      /** FileFacts.complexityBound of the text. */
      bound: number;
      tested: { words: number; dots: boolean };
      holder?: number;
    }
  | { kind: 'unchanged'; size: number; hash: string }
  /** Classified as not worth parsing (binary, minified, generated, nested too deep): kept in the cache as such. */
  | { kind: 'skipped'; size: number; skip: SkippedFile }
  /** Not readable as a regular file inside the repository (gone, a symlink, a FIFO, too large). */
  | { kind: 'unread'; skip: SkippedFile }
  | { kind: 'failed'; failure: ParseFailure };

export interface ParsePoolOptions {
  /** Number of child processes; defaults to the number of CPUs. */
  size?: number;
  /** Per-batch time limit; a batch over it is killed and its files retried one by one. */
  timeoutMs?: number;
  /** Files per message. */
  batchFiles?: number;
  /** Approximate characters of source per message. */
  batchChars?: number;
  /** IPC encoding; `json` measured faster here (`advanced` did not scale past one child for 4 MB of source). */
  serialization?: 'json' | 'advanced';
}

export interface ParsePool {
  readonly size: number;
  /** `onParsed(done, total)` after each file's facts arrive (for a progress display). */
  parse(jobs: ParseJob[], options: ParseOptions, onParsed?: (done: number, total: number) => void): Promise<Map<string, FileFacts>>;
  /**
   * Reads (at most `maxBytes` each), classifies and parses repository files under `root` in the children (the bulk
   * path of a cold scan).
   */
  read(
    source: ReadSource,
    jobs: ReadJob[],
    options: ParseOptions,
    onParsed?: (done: number, total: number) => void,
  ): Promise<Map<string, ReadOutcome>>;
  /** Starts up to `count` child processes ahead of the first batch, so start-up overlaps the caller's reads. */
  warm(count?: number): void;
  /** Tells the children to drop the texts they keep (ReadSource.hold). */
  release(): void;
  /** Ids of the live child processes (for diagnostics and tests). */
  processIds(): number[];
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 20_000;
/** How long a child may take to start before its first batch's time limit begins. */
const START_ALLOWANCE_MS = 30_000;
const NO_KEYS: LinkKeys = { words: [], dots: false };

/** How many sets of focus keys a child keeps by id (a focused run sends one set per pass and group). */
export const MAX_KEPT_KEYS = 64;
const DEFAULT_BATCH_FILES = 64;
const DEFAULT_BATCH_CHARS = 1024 * 1024;
/**
 * A batch takes at most each child's share of the files still to batch (and GUIDED_MIN_FILES at least). Not less: a
 * child gets its next batch only when this thread reads its last result, and this thread may be busy then (loading
 * the kept graph): 50 edited files cut in batches of a quarter share took 80 ms longer than in one.
 */
const GUIDED_MIN_FILES = 8;
const VALUE_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--conditions', '-C']);
const KEPT_FLAGS =
  /^--(max-old-space-size|max-semi-space-size|stack-size|enable-source-maps|no-warnings|no-deprecation|conditions|import|require|loader|experimental-loader)(=|$)/;

interface PoolJob {
  path: string;
  /** Characters (or bytes) of source, for batching. */
  weight: number;
  /** The pid of the child that keeps its text (ReadJob.holder). */
  holder?: number | undefined;
}

interface PendingRequest {
  results: Map<string, unknown>;
  remaining: number;
  onParsed?: ((done: number, total: number) => void) | undefined;
  /** The message that asks a child for these jobs; `sentKeys`: the ids of the keys the child was already sent. */
  toMessage(id: number, jobs: PoolJob[], sentKeys: Set<string>): object;
  /** Whether its batches wait for a ready child now (ReadSource.keys). */
  awaitsReady?: () => boolean;
  /** The answer for a job whose child died, ran over the time limit or answered nothing. */
  fallback(job: PoolJob, failure: ParseFailure): unknown;
  resolve(results: Map<string, unknown>): void;
  reject(error: Error): void;
}

interface Batch {
  id: number;
  jobs: PoolJob[];
  request: PendingRequest;
  /** The child it waits for while that child lives (its jobs' holder). */
  holder?: number | undefined;
}

interface Worker {
  child: ChildProcess;
  /** The focus keys this child holds, by id (ReadRequest.keysId): a batch sends its keys once per child. */
  sentKeys: Set<string>;
  isReady: boolean;
  batch: Batch | undefined;
  timer: NodeJS.Timeout | undefined;
  hasTimedOut: boolean;
  exited: Promise<void>;
}

interface ResultMessage {
  type: 'result';
  id: number;
  results: [string, unknown][];
}

/**
 * A pool of child processes running swc. Child processes, not worker threads: swc can segfault on
 * hostile input and only a process boundary contains that. A batch whose child dies or runs over
 * the time limit is retried file by file so only the culprit is reported as `parse/crash` or
 * `parse/timeout`.
 *
 * Not workerpool (workerType 'process', evaluated for issue 12): it keeps crashes in a child and has per-task timeouts,
 * but its child replies with a bare `process.send`, so a parent killed mid-parse leaves the child printing an EPIPE stack
 * (measured with workerpool 10.0.3); it also exposes no child pids and keeps idle children referenced. The batching
 * and file-by-file retry would stay ours either way.
 */
export function createParsePool(options: ParsePoolOptions = {}): ParsePool {
  const size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const batchFiles = Math.max(1, options.batchFiles ?? DEFAULT_BATCH_FILES);
  const batchChars = Math.max(1, options.batchChars ?? DEFAULT_BATCH_CHARS);
  const serialization = options.serialization ?? 'json';
  const workerScript = resolveWorkerScript();
  const workers = new Set<Worker>();
  const queue: Batch[] = [];
  const pending = new Set<PendingRequest>();
  let nextBatchId = 1;
  let nextKeysSerial = 1;
  let isClosed = false;

  const settle = (batch: Batch, path: string, result: unknown): void => {
    const request = batch.request;
    const isNew = !request.results.has(path);
    if (isNew) request.remaining -= 1;
    request.results.set(path, result);
    if (isNew) request.onParsed?.(request.results.size, request.results.size + request.remaining);
    if (request.remaining === 0 && pending.delete(request)) request.resolve(request.results);
  };

  const failAll = (error: Error): void => {
    queue.length = 0;
    for (const request of pending) request.reject(error);
    pending.clear();
  };

  const setBusy = (worker: Worker, isBusy: boolean): void => {
    if (isBusy) {
      worker.child.ref();
      worker.child.channel?.ref();
    } else {
      worker.child.unref();
      worker.child.channel?.unref();
    }
  };

  /** Kills the child when its batch runs past `ms` from now. */
  const armTimer = (worker: Worker, ms: number): void => {
    clearTimeout(worker.timer);
    worker.timer = setTimeout(() => {
      worker.hasTimedOut = true;
      worker.child.kill('SIGKILL');
    }, ms);
    worker.timer.unref();
  };

  const dispatch = (worker: Worker, batch: Batch): void => {
    worker.batch = batch;
    worker.hasTimedOut = false;
    setBusy(worker, true);
    // The parse's time counts from when the child is up: a child still starting on a loaded machine (node, the swc
    // binding) must not spend the batch's time limit. Until its 'ready', the limit is the start allowance on top.
    armTimer(worker, worker.isReady ? timeoutMs : timeoutMs + START_ALLOWANCE_MS);
    worker.child.send(batch.request.toMessage(batch.id, batch.jobs, worker.sentKeys), (error) => {
      if (error !== null && error !== undefined) worker.child.kill('SIGKILL');
    });
  };

  // A child still starting is given its batch at once: node keeps the message in the channel until the child listens,
  // so it parses the moment it is up, whatever this thread is busy with then (reading the kept graph, build-graph.ts).
  const pump = (): void => {
    if (isClosed) return;
    for (;;) {
      for (const worker of workers) {
        if (queue.length === 0) return;
        if (worker.batch !== undefined) continue;
        if (!worker.isReady && queue[0]?.request.awaitsReady?.() === true) continue;
        const index = queue.findIndex((batch) => isFor(batch, worker));
        if (index === -1) continue;
        const [batch] = queue.splice(index, 1);
        if (batch !== undefined) dispatch(worker, batch);
      }
      if (queue.length === 0 || workers.size >= size) return;
      spawnWorker();
    }
  };

  /** A batch goes to the child that keeps its texts while that child lives, else to any. */
  const isFor = (batch: Batch, worker: Worker): boolean => {
    if (batch.holder === undefined || batch.holder === worker.child.pid) return true;
    for (const other of workers) if (other.child.pid === batch.holder) return false;
    return true;
  };

  const handleFailedBatch = (batch: Batch, failure: 'crash' | 'timeout', detail: string): void => {
    if (batch.jobs.length > 1) {
      const singles = batch.jobs.map((job) => ({ ...batch, id: nextBatchId++, jobs: [job] }));
      queue.unshift(...singles);
      return;
    }
    const job = batch.jobs[0];
    if (job === undefined) return;
    const parseFailure: ParseFailure =
      failure === 'crash'
        ? { code: 'parse/crash', message: `the parser process died (${detail}) while parsing this file` }
        : { code: 'parse/timeout', message: `parsing took longer than ${timeoutMs} ms` };
    settle(batch, job.path, batch.request.fallback(job, parseFailure));
  };

  const spawnWorker = (): void => {
    const child = fork(workerScript.file, [], {
      execArgv: workerScript.execArgv,
      serialization,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    let markExited: () => void = () => undefined;
    const worker: Worker = {
      child,
      sentKeys: new Set(),
      isReady: false,
      batch: undefined,
      timer: undefined,
      hasTimedOut: false,
      exited: new Promise((resolve) => {
        markExited = resolve;
      }),
    };
    workers.add(worker);

    child.on('message', (message: unknown) => {
      // A 'ready' or result already in the pipe when close() ran must not unref the child close() is waiting on.
      if (isClosed) return;
      if (isReadyMessage(message)) {
        worker.isReady = true;
        if (worker.batch === undefined) setBusy(worker, false);
        else armTimer(worker, timeoutMs);
        pump();
        return;
      }
      const batch = worker.batch;
      if (!isResultMessage(message) || batch === undefined || message.id !== batch.id) return;
      clearTimeout(worker.timer);
      worker.batch = undefined;
      setBusy(worker, false);
      const results = new Map(message.results);
      for (const job of batch.jobs) {
        const result = results.get(job.path);
        settle(
          batch,
          job.path,
          result ?? batch.request.fallback(job, { code: 'parse/crash', message: 'the parser process returned no facts for this file' }),
        );
      }
      pump();
    });

    let isGone = false;
    const handleGone = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (isGone) return;
      isGone = true;
      clearTimeout(worker.timer);
      workers.delete(worker);
      markExited();
      if (isClosed) return;
      const batch = worker.batch;
      // A child is given its batch while it starts, so one killed before its 'ready' was read here (its batch ran over
      // the time limit, or a file crashed it) failed on that batch: retried file by file. An exit without a signal
      // before 'ready' is a child that could not start at all.
      if (!worker.isReady && (batch === undefined || signal === null)) {
        failAll(
          new CheckerError('parse/worker-failed', `The parser process could not start (${describeExit(code, signal)}).`, {
            hint: `Check that ${workerScript.file} exists; when running from source, start node with --import tsx.`,
          }),
        );
        return;
      }
      if (batch !== undefined) {
        handleFailedBatch(batch, worker.hasTimedOut ? 'timeout' : 'crash', describeExit(code, signal));
      }
      pump();
    };
    child.on('exit', handleGone);
    // 'exit' does not follow a failed spawn; other errors (a failed send) are followed by 'exit' after the kill.
    child.on('error', () => {
      if (child.pid === undefined) handleGone(null, null);
      else child.kill('SIGKILL');
    });
  };

  // Guided: a batch holds at most each child's share of what is left, so the children finish together (a second pass
  // of 63 files was one batch, parsed by one child while the other waited).
  const buildBatches = (jobs: PoolJob[], request: PendingRequest): Batch[] => {
    const batches: Batch[] = [];
    // The jobs a child keeps the texts of go in batches of their own, for that child.
    const ordered = jobs.some((job) => job.holder !== undefined)
      ? [...jobs].sort((left, right) => (left.holder ?? 0) - (right.holder ?? 0))
      : jobs;
    let current: PoolJob[] = [];
    let chars = 0;
    let limit = 0;
    for (const [index, job] of ordered.entries()) {
      const isOther = current.length > 0 && current[0]?.holder !== job.holder;
      // A kept text costs its child no read: all of a child's go in one batch.
      const isFull = job.holder === undefined && (current.length >= limit || chars + job.weight > batchChars);
      if (current.length > 0 && (isOther || isFull)) {
        batches.push({ id: nextBatchId++, jobs: current, request, holder: current[0]?.holder });
        current = [];
        chars = 0;
      }
      if (current.length === 0) limit = Math.min(batchFiles, Math.max(GUIDED_MIN_FILES, Math.ceil((ordered.length - index) / size)));
      current.push(job);
      chars += job.weight;
    }
    if (current.length > 0) batches.push({ id: nextBatchId++, jobs: current, request, holder: current[0]?.holder });
    return batches;
  };

  const submit = <Result>(
    jobs: PoolJob[],
    ask: Pick<PendingRequest, 'toMessage' | 'fallback' | 'awaitsReady'>,
    onParsed: ((done: number, total: number) => void) | undefined,
  ): Promise<Map<string, Result>> => {
    if (isClosed) return Promise.reject(new CheckerError('parse/pool-closed', 'The parse pool was already closed.'));
    const unique = [...new Map(jobs.map((job) => [job.path, job])).values()];
    if (unique.length === 0) return Promise.resolve(new Map());
    return new Promise((resolve, reject) => {
      // Idle children are unref'd so they never keep a finished process alive; while a request is
      // outstanding this timer keeps the event loop alive whatever the children's ref state, so a
      // request can only end by settling (a full test run under load showed the loop emptying).
      const keepAlive = setInterval(() => undefined, 60_000);
      const request: PendingRequest = {
        results: new Map(),
        remaining: unique.length,
        onParsed,
        ...ask,
        resolve: (value) => {
          clearInterval(keepAlive);
          resolve(value as Map<string, Result>);
        },
        reject: (error) => {
          clearInterval(keepAlive);
          reject(error);
        },
      };
      pending.add(request);
      queue.push(...buildBatches(unique, request));
      pump();
    });
  };

  return {
    size,
    parse(jobs, parseOptions, onParsed) {
      const texts = new Map(jobs.map((job) => [job.path, job.text]));
      return submit<FileFacts>(
        jobs.map((job) => ({ path: job.path, weight: job.text.length })),
        {
          toMessage: (id, batch) => ({
            type: 'parse',
            id,
            options: parseOptions,
            files: batch.map((job) => ({ path: job.path, text: texts.get(job.path) ?? '' })),
          }),
          fallback: (job, failure) => emptyFacts(countLines(texts.get(job.path) ?? ''), failure),
        },
        onParsed,
      );
    },
    read(source, jobs, parseOptions, onParsed) {
      const known = new Map(jobs.map((job) => [job.path, job.knownHash]));
      // A focus's keys only grow within one read (words appended, dots once set): their count and dots name them.
      const keysSerial = nextKeysSerial++;
      return submit<ReadOutcome>(
        jobs.map((job) => ({ path: job.path, weight: job.size, holder: job.holder })),
        {
          toMessage: (id, batch, sentKeys) => {
            const keys = source.links === true && source.keys !== undefined ? (source.keys() ?? NO_KEYS) : undefined;
            // Sent once per child: at 50,000 files a focus tests files against ~37,000 words, and sending them with
            // each of 3,400 batches moved 2.5 GB over IPC (and each child keyed its compiled test by their JSON).
            const keysId = keys === undefined ? undefined : `${keysSerial}:${keys.words.length}:${keys.dots}`;
            const fresh = keysId !== undefined && !sentKeys.has(keysId);
            if (fresh) {
              // The child forgets its keys at the same count (parse-worker.ts): both clear on the same send.
              if (sentKeys.size >= MAX_KEPT_KEYS) sentKeys.clear();
              sentKeys.add(keysId);
            }
            return {
              type: 'read',
              id,
              root: source.root,
              maxBytes: source.maxBytes,
              ...(source.links === true ? { links: true } : {}),
              ...(keysId === undefined ? {} : { keysId }),
              ...(fresh ? { keys } : {}),
              ...(source.links === true && source.hold === true ? { hold: true } : {}),
              ...(source.links === true && source.modules === true ? { modules: true } : {}),
              options: parseOptions,
              files: batch.map((job) => ({ path: job.path, knownHash: known.get(job.path) })),
            };
          },
          fallback: (_job, failure): ReadOutcome => ({ kind: 'failed', failure }),
          ...(source.links === true && source.keys !== undefined ? { awaitsReady: () => source.keys?.() === undefined } : {}),
        },
        onParsed,
      );
    },
    release() {
      for (const worker of workers) if (worker.child.connected) worker.child.send({ type: 'release' }, noop);
    },
    warm(count = size) {
      if (isClosed) return;
      while (workers.size < Math.min(size, count)) spawnWorker();
    },
    processIds() {
      const ids: number[] = [];
      for (const worker of workers) if (worker.child.pid !== undefined) ids.push(worker.child.pid);
      return ids;
    },
    async close() {
      if (!isClosed) {
        isClosed = true;
        failAll(new CheckerError('parse/pool-closed', 'The parse pool was closed before parsing finished.'));
      }
      const exits: Promise<void>[] = [];
      for (const worker of workers) {
        clearTimeout(worker.timer);
        worker.child.ref();
        worker.child.kill('SIGKILL');
        exits.push(worker.exited);
      }
      await Promise.all(exits);
    },
  };
}

function resolveWorkerScript(): { file: string; execArgv: string[] } {
  const isSource = import.meta.url.endsWith('.ts');
  const file = fileURLToPath(new URL(`../worker/parse-worker.${isSource ? 'ts' : 'js'}`, import.meta.url));
  const execArgv = selectExecArgv(process.execArgv);
  if (isSource && !execArgv.some((flag) => flag.includes('tsx'))) execArgv.push('--import', resolveTsxLoader());
  return { file, execArgv };
}

function resolveTsxLoader(): string {
  try {
    return import.meta.resolve('tsx');
  } catch {
    return 'tsx';
  }
}

/** Keeps the loader and memory flags of the parent; drops --test, --inspect, --eval and the like. */
export function selectExecArgv(parentArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < parentArgv.length; index += 1) {
    const flag = parentArgv[index] ?? '';
    const value = parentArgv[index + 1];
    if (VALUE_FLAGS.has(flag) && value !== undefined) {
      kept.push(flag, value);
      index += 1;
    } else if (KEPT_FLAGS.test(flag)) {
      kept.push(flag);
    }
  }
  return kept;
}

/** Lines as the fact extractor counts them: the empty line after a final newline does not count. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = text.endsWith('\n') ? 0 : 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines += 1;
  return lines;
}

function noop(): void {}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal !== null ? `signal ${signal}` : `exit code ${code ?? 'unknown'}`;
}

function isReadyMessage(message: unknown): boolean {
  return typeof message === 'object' && message !== null && 'type' in message && message.type === 'ready';
}

function isResultMessage(message: unknown): message is ResultMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    'type' in message &&
    message.type === 'result' &&
    'id' in message &&
    typeof message.id === 'number' &&
    'results' in message &&
    Array.isArray(message.results)
  );
}
