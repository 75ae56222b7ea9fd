import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createNodeEnv } from '../io/node-env.js';
import { getValidator } from '../io/schema.js';
import type { Env } from '../model/env.js';
import { SERVER_INSTRUCTIONS } from './texts.js';
import agentPreflight from './tools/agent-preflight.js';
import agentSession from './tools/agent-session.js';
import agentTaskBundle from './tools/agent-task-bundle.js';
import analyzePr from './tools/analyze-pr.js';
import auditTests from './tools/audit-tests.js';
import { toErrorResult, type McpTool, type ToolContext } from './tools/define-tool.js';
import impactMap from './tools/impact-map.js';
import patternSearch from './tools/pattern-search.js';
import redteamReport from './tools/redteam-report.js';
import suggestEdgeCases from './tools/suggest-edge-cases.js';
import taskContext from './tools/task-context.js';
import toolRecommendations from './tools/tool-recommendations.js';
import { createWarmGraph, type WarmGraph } from './warm.js';

/** The report-only tools, in the order tools/list shows them. */
export const TOOLS: readonly McpTool[] = [
  analyzePr,
  impactMap,
  auditTests,
  suggestEdgeCases,
  toolRecommendations,
  patternSearch,
  redteamReport,
  agentTaskBundle,
  agentPreflight,
  agentSession,
  taskContext,
];

export interface CheckerServer {
  server: Server;
  env: Env;
  warm: WarmGraph;
  /** Waits (at most `timeoutMs`) for the tool calls under way, so a client that half-closes stdin still gets its answers. */
  settle(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * One MCP server bound to one repository. The low-level SDK Server is used (not McpServer) so that the
 * adapter owns two things: input errors are `isError` results whose text names the field and the fix
 * (McpServer answers with its own wording), and each tool's outputSchema is the project's canonical
 * `schemas/<name>.schema.json` that the CLI validates against, not a second zod copy that could drift.
 */
export function createCheckerServer(options: { root: string; version: string; tools?: readonly McpTool[]; log?: (message: string) => void }): CheckerServer {
  const tools = options.tools ?? TOOLS;
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const env = createNodeEnv(options.root, { keepPool: true });
  const warm = createWarmGraph(env);
  const context: ToolContext = { env, warm, log };
  const byName = new Map<string, McpTool>(tools.map((tool) => [tool.name, tool]));
  const listed: Tool[] = tools.map(toListedTool);
  const inFlight = new Set<Promise<unknown>>();

  const server = new Server({ name: 'checker', version: options.version }, { capabilities: { tools: {} }, instructions: SERVER_INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (tool === undefined) {
      return toErrorResult('tool/unknown', `there is no tool ${JSON.stringify(request.params.name.slice(0, 80))}`, `Use one of: ${tools.map((item) => item.name).join(', ')}.`);
    }
    const call = tool.handler(request.params.arguments ?? {}, context);
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
    env,
    warm,
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
      await env.close();
    },
  };
}

function toListedTool(tool: McpTool): Tool {
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `checker mcp --cwd <repo>`: serves the tools over stdio until the client closes stdin. stdout carries
 * only protocol frames; every log line goes to stderr.
 */
const SETTLE_ON_CLOSE_MS = 120_000;

export async function runStdioServer(options: { root: string; version: string }): Promise<void> {
  const checker = createCheckerServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    checker.server.onclose = () => resolve();
  });
  // A client may send its last request and close stdin at once; answer what is under way first.
  const closeOnEnd = (): void => {
    void checker.settle(SETTLE_ON_CLOSE_MS).then(() => checker.server.close());
  };
  process.stdin.once('end', closeOnEnd);
  process.stdin.once('close', closeOnEnd);
  await checker.server.connect(transport);
  process.stderr.write(`checker mcp: serving ${checker.env.root} over stdio\n`);
  await closed;
  process.stdin.off('end', closeOnEnd);
  process.stdin.off('close', closeOnEnd);
  await checker.env.close();
}
