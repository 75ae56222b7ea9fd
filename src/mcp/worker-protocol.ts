import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpTool } from './tools/define-tool.js';
import { isRecord } from '../text/is-record.js';

/** A tool as the server serves it. Its name is a plain string so tests can inject tools of their own. */
export type ServedTool = Omit<McpTool, 'name'> & { name: string };

/** What the tool worker is started with. */
export interface ToolWorkerData {
  root: string;
  /** URL of a module whose `TOOLS` export is the list of tools. */
  toolsModule: string;
  /** A call's deadline: tools that start processes keep them inside it (the worker thread cannot kill them once replaced). */
  deadlineMs: number;
}

/** Protocol thread → tool worker. */
export type ToWorker = { type: 'call'; id: number; name: string; arguments: unknown } | { type: 'probe'; id: number } | { type: 'close' };

/** Tool worker → protocol thread. */
export type FromWorker = { type: 'ready' } | { type: 'result'; id: number; result: CallToolResult } | { type: 'probe'; id: number };

export function isToWorker(value: unknown): value is ToWorker {
  if (!isRecord(value)) return false;
  if (value.type === 'call') return typeof value.id === 'number' && typeof value.name === 'string';
  if (value.type === 'probe') return typeof value.id === 'number';
  return value.type === 'close';
}

export function toFromWorker(value: unknown): FromWorker | undefined {
  if (!isRecord(value)) return undefined;
  if (value.type === 'ready') return { type: 'ready' };
  if (value.type === 'probe' && typeof value.id === 'number') return { type: 'probe', id: value.id };
  if (value.type !== 'result' || typeof value.id !== 'number') return undefined;
  const result = CallToolResultSchema.safeParse(value.result);
  return result.success ? { type: 'result', id: value.id, result: result.data } : undefined;
}

export function toToolWorkerData(value: unknown): ToolWorkerData {
  if (!isRecord(value) || typeof value.root !== 'string' || typeof value.toolsModule !== 'string' || typeof value.deadlineMs !== 'number') {
    throw new Error('internal: the tool worker was started without { root, toolsModule, deadlineMs }');
  }
  return { root: value.root, toolsModule: value.toolsModule, deadlineMs: value.deadlineMs };
}

/** The `TOOLS` export of a tools module, checked, since it is loaded by URL. */
export function toServedTools(module: unknown, url: string): readonly ServedTool[] {
  const tools = isRecord(module) ? module.TOOLS : undefined;
  if (!Array.isArray(tools) || !tools.every(isServedTool)) throw new Error(`internal: ${url} does not export TOOLS, a list of tools`);
  return tools;
}

function isServedTool(value: unknown): value is ServedTool {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    typeof value.handler === 'function' &&
    isRecord(value.config) &&
    typeof value.config.outputSchemaName === 'string'
  );
}
