import { Worker } from 'node:worker_threads';
import { signalGroup, trackProcessGroup, watchSharedProcessGroups } from '../io/process-groups.js';
import { removeWorktreesOfThread } from '../io/worktree-folders.js';
import type { ProgressEvent } from '../model/progress.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toErrorResult } from './tools/define-tool.js';
import { toFromWorker, type ToolWorkerData, type ToWorker } from './worker-protocol.js';

/** The default time limit of one tool call. */
export const DEFAULT_DEADLINE_MS = 120_000;
/** The URL of the module listing the served tools, next to this file in either build. */
export const DEFAULT_TOOLS_MODULE = new URL(`./tool-list.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url).href;

/** How long a worker may leave a probe unanswered before it counts as stuck in synchronous code. */
const PROBE_GRACE_MS = 1_000;
/** How long a worker may take to load before it is replaced; deadlines count from when it is ready. */
const START_LIMIT_MS = 60_000;
/** How long a closing worker may take to close its parse pool before it is terminated. */
const CLOSE_GRACE_MS = 2_000;
/** Process groups one tool call can run at once, as far as the shared list goes (the messages track any number). */
const GROUP_SLOTS = 256;

export interface ToolWorkerOptions extends Omit<ToolWorkerData, 'groups'> {
  deadlineMs: number;
  log(message: string): void;
}

export interface ToolCall {
  name: string;
  arguments: unknown;
  /** How messages name the call: the tool and the client's request id. */
  label: string;
  /** Told what the graph build is doing while the call runs (the client asked with a progress token). */
  onProgress?: (event: ProgressEvent) => void;
}

/** Runs tool calls in a worker thread; every call is answered, by the tool, by its deadline, or by a restart. */
export interface ToolWorker {
  run(call: ToolCall, signal?: AbortSignal): Promise<CallToolResult>;
  close(): Promise<void>;
}

interface PendingCall {
  id: number;
  call: ToolCall;
  /** The worker that has (or will get) the call; a held call can move to a fresh one. */
  slot: Slot;
  /** Armed when the worker is ready, so the deadline measures the call, not the worker's start-up. */
  timer: NodeJS.Timeout | undefined;
  /** The caller has its answer (cancelled); the worker may still be running the call. */
  isAnswered: boolean;
  answer(result: CallToolResult): void;
}

interface Slot {
  worker: Worker;
  /** Calls posted to the worker and not yet answered by it. */
  posted: Map<number, PendingCall>;
  /** Set while a probe is out: new calls wait here, unseen by the worker, so they can move if it is replaced. */
  held: PendingCall[] | undefined;
  probes: Map<number, (isAlive: boolean) => void>;
  isReady: boolean;
  startTimer: NodeJS.Timeout;
  isStopping: boolean;
  failure: string | undefined;
  exited: Promise<void>;
  /** Process groups the worker started and that still run, with their removal from this thread's exit hook. */
  groups: Map<number, () => void>;
  /** Read at start: a Worker's threadId reads -1 once it has exited. */
  threadId: number;
}

/**
 * One worker thread owns the Env and the warm graph; the protocol thread keeps the SDK Server, so ping,
 * tools/list and protocol errors are answered while calls run. One worker, not a pool: the warm graph
 * and the parse pool's child processes are per worker, so a second worker would double the memory
 * and build the graph twice for little gain on the 2-core machines we target, while calls that await
 * the parse pool or the disk already overlap inside the one worker.
 *
 * A call's deadline counts from when the worker can take it (a fresh worker loads in a second or two;
 * one that takes over a minute is replaced). A call past its deadline gets `limits/deadline` and the
 * worker is terminated, since app functions take no abort signal; the other calls posted to it get
 * `worker/restarted` naming that call, and the next call starts a fresh worker, which rebuilds the
 * graph. A cancelled call is dropped (the SDK sends no reply, as the spec asks). If only dropped calls
 * are left on the worker, it is probed: no answer within a second means it is stuck in synchronous
 * code, so it is terminated, and the calls that arrived meanwhile (held back, never seen by it) go to
 * a fresh worker. A dropped call still counts against its deadline.
 */
export function createToolWorker(options: ToolWorkerOptions): ToolWorker {
  const seconds = formatSeconds(options.deadlineMs);
  let current: Slot | undefined;
  let nextId = 1;
  let isClosed = false;

  const updateRef = (slot: Slot): void => {
    if (slot.posted.size > 0 || (slot.held?.length ?? 0) > 0) slot.worker.ref();
    else slot.worker.unref();
  };

  const arm = (pending: PendingCall): void => {
    pending.timer ??= setTimeout(() => expire(pending), options.deadlineMs);
  };

  const post = (slot: Slot, pending: PendingCall): void => {
    slot.posted.set(pending.id, pending);
    slot.worker.postMessage({
      type: 'call',
      id: pending.id,
      name: pending.call.name,
      arguments: pending.call.arguments,
      ...(pending.call.onProgress === undefined ? {} : { progress: true }),
    } satisfies ToWorker);
  };

  const dispatch = (pending: PendingCall): void => {
    if (isClosed) {
      pending.answer(toErrorResult('server/closed', `${pending.call.label} arrived after the server began to close`));
      return;
    }
    const slot = current ?? start();
    pending.slot = slot;
    if (slot.isReady) arm(pending);
    if (slot.held === undefined) post(slot, pending);
    else slot.held.push(pending);
    updateRef(slot);
  };

  /** SIGKILL to every process group the worker reported live: its checks end with it, setsid escapes included where namespaced. */
  const killGroups = (slot: Slot): void => {
    for (const [pgid, untrack] of slot.groups) {
      signalGroup(pgid, 'SIGKILL');
      untrack();
    }
    slot.groups.clear();
  };

  const stop = (slot: Slot, reason: string, code = 'worker/restarted'): void => {
    if (slot.isStopping) return;
    slot.isStopping = true;
    killGroups(slot);
    clearTimeout(slot.startTimer);
    if (current === slot) current = undefined;
    for (const pending of slot.posted.values()) {
      clearTimeout(pending.timer);
      pending.answer(
        toErrorResult(
          code,
          `${pending.call.label} was stopped: the tool worker was restarted because ${reason}`,
          'Call again; a fresh worker takes the next call and rebuilds the repository graph.',
        ),
      );
    }
    slot.posted.clear();
    for (const resolve of slot.probes.values()) resolve(false);
    slot.probes.clear();
    if (!isClosed) options.log(`checker mcp: restarting the tool worker: ${reason}`);
    const { threadId } = slot;
    void slot.worker.terminate();
    // Groups reported while it was being stopped, and the worktrees its clean-up never removed.
    void slot.exited.then(async () => {
      killGroups(slot);
      await removeWorktreesOfThread(options.root, threadId).catch((error: unknown) =>
        options.log(
          `checker mcp: could not remove the stopped worker's worktrees: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    });
    const held = slot.held ?? [];
    slot.held = undefined;
    for (const pending of held) dispatch(pending);
  };

  const expire = (pending: PendingCall): void => {
    const slot = pending.slot;
    const heldAt = slot.held?.indexOf(pending) ?? -1;
    if (heldAt !== -1) slot.held?.splice(heldAt, 1);
    else if (!slot.posted.delete(pending.id)) return;
    pending.answer(
      toErrorResult(
        'limits/deadline',
        `${pending.call.label} ran past its deadline of ${seconds} and was stopped`,
        'The repository may be too large, or built to be slow, for one call within the limit. Start the server with a longer one (checker mcp --deadline <seconds>) or ask for less; the next call starts a fresh worker and rebuilds the graph.',
      ),
    );
    if (heldAt === -1) stop(slot, `${pending.call.label} ran past its deadline of ${seconds}`);
  };

  const release = (slot: Slot): void => {
    const held = slot.held ?? [];
    slot.held = undefined;
    for (const pending of held) post(slot, pending);
  };

  /** Answers whether the worker's event loop turns within PROBE_GRACE_MS; calls arriving meanwhile are held. */
  const probe = (slot: Slot): Promise<boolean> =>
    new Promise((resolve) => {
      const id = nextId++;
      slot.held ??= [];
      const timer = setTimeout(() => {
        slot.probes.delete(id);
        resolve(false);
      }, PROBE_GRACE_MS);
      slot.probes.set(id, (isAlive) => {
        clearTimeout(timer);
        resolve(isAlive);
      });
      slot.worker.postMessage({ type: 'probe', id } satisfies ToWorker);
    });

  const cancel = (pending: PendingCall): void => {
    const slot = pending.slot;
    if (isClosed || pending.isAnswered) return;
    pending.answer(toErrorResult('call/cancelled', `${pending.call.label} was cancelled by the client`));
    const heldAt = slot.held?.indexOf(pending) ?? -1;
    if (heldAt !== -1) {
      slot.held?.splice(heldAt, 1);
      clearTimeout(pending.timer);
      return;
    }
    const isOnlyDropped = [...slot.posted.values()].every((item) => item.isAnswered);
    if (!slot.posted.has(pending.id) || !slot.isReady || !isOnlyDropped || slot.held !== undefined) return;
    void probe(slot).then((isAlive) => {
      if (slot.isStopping) return;
      if (isAlive) release(slot);
      else stop(slot, `${pending.call.label} was cancelled while stuck in synchronous code`);
    });
  };

  const start = (): Slot => {
    const groups = new SharedArrayBuffer(GROUP_SLOTS * Int32Array.BYTES_PER_ELEMENT);
    const unwatchGroups = watchSharedProcessGroups(new Int32Array(groups));
    const worker = startWorkerThread({ root: options.root, toolsModule: options.toolsModule, deadlineMs: options.deadlineMs, groups });
    let markExited: () => void = () => undefined;
    const slot: Slot = {
      worker,
      posted: new Map(),
      held: undefined,
      probes: new Map(),
      isReady: false,
      startTimer: setTimeout(() => stop(slot, `it did not start within ${formatSeconds(START_LIMIT_MS)}`), START_LIMIT_MS),
      isStopping: false,
      failure: undefined,
      exited: new Promise((resolve) => {
        markExited = resolve;
      }),
      groups: new Map(),
      threadId: worker.threadId,
    };
    worker.on('message', (raw: unknown) => {
      const message = toFromWorker(raw);
      if (message === undefined) {
        options.log('checker mcp: the tool worker sent a message that is not a tool result; ignored');
      } else if (message.type === 'ready') {
        slot.isReady = true;
        clearTimeout(slot.startTimer);
        for (const pending of slot.posted.values()) arm(pending);
        for (const pending of slot.held ?? []) arm(pending);
      } else if (message.type === 'probe') {
        slot.probes.get(message.id)?.(true);
        slot.probes.delete(message.id);
      } else if (message.type === 'group') {
        if (!message.isLive) {
          slot.groups.get(message.pgid)?.();
          slot.groups.delete(message.pgid);
        } else if (slot.isStopping) {
          signalGroup(message.pgid, 'SIGKILL');
        } else if (!slot.groups.has(message.pgid)) {
          slot.groups.set(message.pgid, trackProcessGroup(message.pgid));
        }
      } else if (message.type === 'progress') {
        const pending = slot.posted.get(message.id);
        if (pending !== undefined && !pending.isAnswered) pending.call.onProgress?.(message.event);
      } else {
        const pending = slot.posted.get(message.id);
        if (pending === undefined) return;
        slot.posted.delete(message.id);
        clearTimeout(pending.timer);
        pending.answer(message.result);
        updateRef(slot);
      }
    });
    worker.on('error', (error) => {
      slot.failure = error.message;
      options.log(`checker mcp: the tool worker failed: ${error.stack ?? error.message}`);
    });
    worker.on('exit', (code) => {
      unwatchGroups();
      markExited();
      if (slot.isStopping) return;
      if (isClosed) stop(slot, 'the server is closing', 'server/closed');
      else
        stop(slot, `it exited unexpectedly (${slot.failure ?? `exit code ${code}`}; the error is on the server stderr)`, 'worker/crashed');
    });
    worker.stdout.setEncoding('utf8').on('data', (text: string) => {
      options.log(`checker mcp: tool output (kept off stdout): ${text.trimEnd()}`);
    });
    slot.startTimer.unref();
    worker.unref();
    current = slot;
    return slot;
  };

  start();

  return {
    run(call, signal) {
      if (isClosed) return Promise.resolve(toErrorResult('server/closed', `${call.label} arrived after the server began to close`));
      return new Promise<CallToolResult>((resolve) => {
        const pending: PendingCall = {
          id: nextId++,
          call,
          slot: current ?? start(),
          timer: undefined,
          isAnswered: false,
          answer(result) {
            if (pending.isAnswered) return;
            pending.isAnswered = true;
            resolve(result);
          },
        };
        dispatch(pending);
        if (signal?.aborted === true) cancel(pending);
        else signal?.addEventListener('abort', () => cancel(pending), { once: true });
      });
    },
    async close() {
      isClosed = true;
      const slot = current;
      current = undefined;
      if (slot === undefined) return;
      // Calls still running here were given up (cancelled or past their deadline): their processes end now.
      killGroups(slot);
      slot.worker.postMessage({ type: 'close' } satisfies ToWorker);
      const timer = setTimeout(() => stop(slot, 'the server is closing'), CLOSE_GRACE_MS);
      await slot.exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Compiled, the entry is `tool-worker-entry.js` beside this file. From the TypeScript sources (tests,
 * `node --import tsx`), tsx's `--import` hook does not reach a worker's entry module on Node 20, so
 * the worker registers tsx itself before it imports the entry (same split as `io/parse-pool.ts`).
 */
function startWorkerThread(data: ToolWorkerData): Worker {
  const isSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`./tool-worker-entry.${isSource ? 'ts' : 'js'}`, import.meta.url);
  const options = { workerData: data, stdout: true, execArgv: [], name: 'checker-tools' };
  if (!isSource) return new Worker(entry, options);
  const bootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
