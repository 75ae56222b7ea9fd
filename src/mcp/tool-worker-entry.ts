import { parentPort, workerData } from 'node:worker_threads';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createNodeEnv } from '../io/node-env.js';
import { shareProcessGroups, watchProcessGroups } from '../io/process-groups.js';
import { redactSecrets } from '../text/redact/redact.js';
import { toErrorResult, type ToolContext } from './tools/define-tool.js';
import { createWarmGraph } from './warm.js';
import { isToWorker, toServedTools, toToolWorkerData, type FromWorker, type ToWorker } from './worker-protocol.js';

/*
 * The tool worker: owns the repository's Env (with its kept-alive parse pool) and the warm graph, and
 * runs tool calls, so a slow call never holds up the protocol thread. Started by `tool-worker.ts`.
 */
const port = parentPort;
if (port === null) throw new Error('internal: tool-worker-entry.ts runs only as a worker thread');
const { root, toolsModule, deadlineMs, groups } = toToolWorkerData(workerData);
const tools = toServedTools(await import(toolsModule), toolsModule);
const byName = new Map(tools.map((tool) => [tool.name, tool]));
const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};
const post = (message: FromWorker): void => port.postMessage(message);
// A thread gets no signals and no 'exit' when terminated: the protocol thread kills what this one started.
watchProcessGroups((pgid, isLive) => post({ type: 'group', pgid, isLive }));
// …and lists them in shared memory at once, for a signal that ends the server before the message is read.
shareProcessGroups(new Int32Array(groups));
/** Calls whose client asked for progress: the graph build's events go to each of them while it runs. */
const listening = new Set<number>();
const env = createNodeEnv(root, {
  keepPool: true,
  onProgress: (event) => {
    for (const id of listening) post({ type: 'progress', id, event });
  },
});
const context: ToolContext = { env, warm: createWarmGraph(env), log, deadlineMs };
/** Tool calls started and not yet answered, and the timer that starts `fill` once none has run for FILL_AFTER_MS. */
let running = 0;
let idle: NodeJS.Timeout | undefined;
let closing = false;
const FILL_AFTER_MS = 1000;

async function runCall(call: Extract<ToWorker, { type: 'call' }>): Promise<CallToolResult> {
  const tool = byName.get(call.name);
  if (tool === undefined) return toErrorResult('tool/unknown', `there is no tool ${JSON.stringify(call.name.slice(0, 80))}`);
  try {
    return await tool.handler(call.arguments, context);
  } catch (error) {
    log(`checker mcp: ${call.name} threw: ${redactSecrets(error instanceof Error ? (error.stack ?? error.message) : String(error)).text}`);
    return toErrorResult(
      'internal/error',
      `${call.name} failed: ${error instanceof Error ? error.message : String(error)}`,
      'This is a bug in checker; the stack trace is on the server stderr.',
    );
  }
}

port.on('message', (message: unknown) => {
  if (!isToWorker(message)) return;
  if (message.type === 'probe') {
    post({ type: 'probe', id: message.id });
  } else if (message.type === 'close') {
    closing = true;
    clearTimeout(idle);
    void env.close().finally(() => port.close());
  } else {
    if (message.progress === true) listening.add(message.id);
    running += 1;
    clearTimeout(idle);
    void runCall(message).then((result) => {
      listening.delete(message.id);
      post({ type: 'result', id: message.id, result });
      running -= 1;
      // Once no call has run for a while, the modules the graph holds with their links alone are read in full (warm.ts'
      // fill); calls that come one after another are not made to wait for it.
      if (running === 0 && !closing) {
        idle = setTimeout(() => void context.warm.fill(() => running === 0 && !closing).catch(() => undefined), FILL_AFTER_MS);
        idle.unref();
      }
    });
  }
});
post({ type: 'ready' });
