import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ProgressEvent } from '../model/progress.js';
import { describeProgress } from '../report/progress-text.js';
import { z } from 'zod';
import { getValidator } from '../io/schema.js';
import { createStdioTransport } from './stdio-transport.js';
import { SERVER_INSTRUCTIONS } from './texts.js';
import { createToolWorker, DEFAULT_DEADLINE_MS, DEFAULT_TOOLS_MODULE } from './tool-worker.js';
import { toErrorResult } from './tools/define-tool.js';
import { toServedTools, type ServedTool } from './worker-protocol.js';
import { isRecord } from '../text/is-record.js';

export { DEFAULT_DEADLINE_MS } from './tool-worker.js';

export interface CheckerServerOptions {
  root: string;
  version: string;
  /** URL of a module whose `TOOLS` export lists the tools (default: `tool-list`); both threads load it, so tests inject tools this way. */
  toolsModule?: string;
  /** Time limit of one tool call in milliseconds (default DEFAULT_DEADLINE_MS). */
  deadlineMs?: number;
  log?: (message: string) => void;
}

export interface CheckerServer {
  server: Server;
  root: string;
  deadlineMs: number;
  /** Waits (at most `timeoutMs`) for the tool calls under way, so a client that half-closes stdin still gets its answers. */
  settle(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * One MCP server bound to one repository. The low-level SDK Server is used (not McpServer) so that the
 * adapter owns two things: input errors are `isError` results whose text names the field and the fix
 * (McpServer answers with its own wording), and each tool's outputSchema is the project's canonical
 * `schemas/<name>.schema.json` that the CLI validates against, not a second zod copy that could drift.
 *
 * This thread only speaks the protocol; tool calls run in a worker thread (`tool-worker.ts`) under a
 * deadline, so a slow or hostile call never stops ping, tools/list or protocol errors being answered.
 */
async function createCheckerServer(options: CheckerServerOptions): Promise<CheckerServer> {
  const toolsModule = options.toolsModule ?? DEFAULT_TOOLS_MODULE;
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  // Started first so that both threads load the tool modules at the same time.
  const worker = createToolWorker({ root: options.root, toolsModule, deadlineMs, log });
  const tools = await loadTools(toolsModule).catch(async (error: unknown) => {
    await worker.close();
    throw error;
  });
  const names = new Set(tools.map((tool) => tool.name));
  const listed: Tool[] = tools.map(toListedTool);
  const inFlight = new Set<Promise<unknown>>();

  const server = new Server(
    { name: 'checker', version: options.version },
    { capabilities: { tools: {} }, instructions: SERVER_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const name = request.params.name;
    if (!names.has(name)) {
      return toErrorResult(
        'tool/unknown',
        `there is no tool ${JSON.stringify(name.slice(0, 80))}`,
        `Use one of: ${tools.map((item) => item.name).join(', ')}.`,
      );
    }
    const label = `${name} (request ${JSON.stringify(extra.requestId).slice(0, 40)})`;
    const progressToken = request.params._meta?.progressToken;
    const onProgress = progressToken === undefined ? undefined : toProgressNotifier(progressToken, extra.sendNotification);
    const call = worker.run(
      { name, arguments: request.params.arguments ?? {}, label, ...(onProgress === undefined ? {} : { onProgress }) },
      extra.signal,
    );
    inFlight.add(call);
    try {
      return await call;
    } finally {
      inFlight.delete(call);
    }
  });
  server.onerror = (error) => log(`checker mcp: protocol error: ${error.message}`);

  return {
    server,
    root: options.root,
    deadlineMs,
    settle: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      // Requests read in the same chunk as the end of input are dispatched a few ticks later.
      for (let tick = 0; tick < 3; tick += 1) await new Promise<void>((resolve) => setImmediate(resolve));
      while (inFlight.size > 0 && Date.now() < deadline) {
        const remaining = new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref());
        await Promise.race([Promise.allSettled([...inFlight]), remaining]);
      }
    },
    close: async () => {
      await server.close();
      await worker.close();
    },
  };
}

async function loadTools(url: string): Promise<readonly ServedTool[]> {
  return toServedTools(await import(url), url);
}

function toListedTool(tool: ServedTool): Tool {
  return {
    name: tool.name,
    title: tool.config.title,
    description: tool.config.description,
    inputSchema: toInputJsonSchema(tool.config.inputSchema),
    outputSchema: toOutputJsonSchema(tool.config.outputSchemaName),
    annotations: { title: tool.config.title, ...tool.config.annotations },
  };
}

function toInputJsonSchema(schema: z.ZodObject): Tool['inputSchema'] {
  const json: unknown = JSON.parse(JSON.stringify(z.toJSONSchema(schema, { target: 'draft-7', io: 'input' })));
  if (!isRecord(json)) throw new Error('internal: an input schema is not an object');
  const { $schema: _schema, ...rest } = json;
  return { ...rest, type: 'object' };
}

/** The published output schema is the project's JSON Schema without `$schema`/`$id`, so any client validator compiles it. */
function toOutputJsonSchema(name: string): Tool['outputSchema'] {
  const schema: unknown = getValidator(name).schema;
  if (!isRecord(schema)) throw new Error(`internal: schemas/${name}.schema.json is not an object`);
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return { ...rest, type: 'object' };
}

/** Every call ends by its deadline, so waiting this much longer on end of input only covers the replies being written. */
const SETTLE_MARGIN_MS = 5_000;

/**
 * `checker mcp --cwd <repo>`: serves the tools over stdio until the client closes stdin. stdout carries
 * only protocol frames; every log line goes to stderr.
 */
export async function runStdioServer(options: CheckerServerOptions): Promise<void> {
  const checker = await createCheckerServer(options);
  const transport = createStdioTransport({ input: process.stdin, output: process.stdout });
  const closed = new Promise<void>((resolve) => {
    checker.server.onclose = () => resolve();
  });
  // A client may send its last request and close stdin at once; answer what is under way first.
  const closeOnEnd = (): void => {
    void checker.settle(checker.deadlineMs + SETTLE_MARGIN_MS).then(() => checker.server.close());
  };
  process.stdin.once('end', closeOnEnd);
  process.stdin.once('close', closeOnEnd);
  await checker.server.connect(transport);
  process.stderr.write(`checker mcp: serving ${checker.root} over stdio (tool calls time out after ${checker.deadlineMs / 1000} s)\n`);
  await closed;
  process.stdin.off('end', closeOnEnd);
  process.stdin.off('close', closeOnEnd);
  await checker.close();
}

/** Parse counts are sent at most this often; a new phase is always sent. */
const PROGRESS_INTERVAL_MS = 250;

/**
 * `notifications/progress` for a call whose client sent a progress token: the graph build's phases in words, with
 * `progress` rising by one per notification (the spec wants it to increase; there is no honest total across phases).
 */
function toProgressNotifier(
  progressToken: string | number,
  send: (notification: ServerNotification) => Promise<void>,
): (event: ProgressEvent) => void {
  let sent = 0;
  let lastPhase: ProgressEvent['phase'] | undefined;
  let lastAt = Number.NEGATIVE_INFINITY;
  return (event) => {
    const now = performance.now();
    const isLastCount = (event.phase === 'read' || event.phase === 'parse') && event.done === event.total;
    if (event.phase === lastPhase && !isLastCount && now - lastAt < PROGRESS_INTERVAL_MS) return;
    lastPhase = event.phase;
    lastAt = now;
    sent += 1;
    void send({ method: 'notifications/progress', params: { progressToken, progress: sent, message: describeProgress(event) } }).catch(
      () => undefined,
    );
  };
}
