import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpTool } from './tools/define-tool.js';
import { isRecord } from '../text/is-record.js';
import type { ProgressEvent } from '../model/progress.js';

/** A tool as the server serves it. Its name is a plain string so tests can inject tools of their own. */
export type ServedTool = Omit<McpTool, 'name'> & { name: string };

/** What the tool worker is started with. */
export interface ToolWorkerData {
  root: string;
  /** URL of a module whose `TOOLS` export is the list of tools. */
  toolsModule: string;
  /**
   * A call's deadline: tools that start processes keep them inside it, so the call is answered with their report (a
   * replaced worker's processes are killed by the protocol thread, and their report is lost).
   */
  deadlineMs: number;
  /** Shared Int32 slots where the worker lists the process groups it runs (process-groups.ts shareProcessGroups). */
  groups: SharedArrayBuffer;
}

/** Protocol thread → tool worker. */
export type ToWorker =
  | { type: 'call'; id: number; name: string; arguments: unknown; progress?: boolean }
  | { type: 'probe'; id: number }
  | { type: 'close' };

/** Tool worker → protocol thread. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: CallToolResult }
  | { type: 'probe'; id: number }
  | { type: 'progress'; id: number; event: ProgressEvent }
  /** A process group the worker started (`isLive`) or saw end: the protocol thread kills the live ones when it stops the worker or exits. */
  | { type: 'group'; pgid: number; isLive: boolean };

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
  if (
    value.type === 'group' &&
    typeof value.pgid === 'number' &&
    Number.isSafeInteger(value.pgid) &&
    value.pgid > 1 &&
    typeof value.isLive === 'boolean'
  )
    return { type: 'group', pgid: value.pgid, isLive: value.isLive };
  if (value.type === 'progress' && typeof value.id === 'number' && isProgressEvent(value.event))
    return { type: 'progress', id: value.id, event: value.event };
  if (value.type !== 'result' || typeof value.id !== 'number') return undefined;
  const result = CallToolResultSchema.safeParse(value.result);
  return result.success ? { type: 'result', id: value.id, result: result.data } : undefined;
}

export function toToolWorkerData(value: unknown): ToolWorkerData {
  if (
    !isRecord(value) ||
    typeof value.root !== 'string' ||
    typeof value.toolsModule !== 'string' ||
    typeof value.deadlineMs !== 'number' ||
    !(value.groups instanceof SharedArrayBuffer)
  ) {
    throw new Error('internal: the tool worker was started without { root, toolsModule, deadlineMs, groups }');
  }
  return { root: value.root, toolsModule: value.toolsModule, deadlineMs: value.deadlineMs, groups: value.groups };
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

function isProgressEvent(value: unknown): value is ProgressEvent {
  if (!isRecord(value)) return false;
  const count = (key: string): boolean => typeof value[key] === 'number' && Number.isInteger(value[key]) && (value[key] as number) >= 0;
  if (value.phase === 'scan' || value.phase === 'analyse') return true;
  if (value.phase === 'read' || value.phase === 'parse') return count('done') && count('total');
  return (value.phase === 'resolve' || value.phase === 'build') && count('files');
}
