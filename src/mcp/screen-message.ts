import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCResultResponse,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../text/is-record.js';
import { toErrorResult } from './tools/define-tool.js';

/** What the transport does with one parsed line of input. */
export type ScreenedMessage =
  | { kind: 'message'; message: JSONRPCMessage }
  /** A request (or something that may have been one) that is answered here with a JSON-RPC error. */
  | { kind: 'rejected'; reply: JSONRPCErrorResponse; reason: string }
  /** A tool call refused here with the tool's own kind of answer (`isError`), because the SDK would hide the fault. */
  | { kind: 'answered'; reply: JSONRPCResultResponse }
  /** A malformed notification or response: JSON-RPC never answers those. */
  | { kind: 'dropped'; reason: string };

interface RequestSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** The requests this server handles, checked here so a bad `params` gets -32602 instead of the SDK's -32603 with a zod dump. */
const REQUEST_SCHEMAS = new Map<string, RequestSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

const MAX_ISSUES = 3;

/**
 * Sorts one JSON value read from the client before the SDK sees it. The SDK's stdio reader throws away
 * any line that fails its message schema (`params: null` included) and only reports it through
 * `onerror`, so such a request would never be answered. Here every request with a usable id gets
 * either through or an error reply with that id; a line that cannot be matched to an id is answered
 * without one, as JSON-RPC 2.0 asks and MCP's JSONRPCErrorResponse (id optional) allows.
 */
export function screenMessage(value: unknown): ScreenedMessage {
  if (Array.isArray(value))
    return reject(undefined, ErrorCode.InvalidRequest, 'Invalid Request: batches are not supported; send one message per line');
  if (!isRecord(value)) return reject(undefined, ErrorCode.InvalidRequest, 'Invalid Request: a JSON-RPC message must be a JSON object');
  if ('method' in value) return 'id' in value ? screenRequest(value) : screenNotification(value);
  const response = JSONRPCMessageSchema.safeParse(value);
  if (response.success) return { kind: 'message', message: response.data };
  if ('result' in value || 'error' in value)
    return { kind: 'dropped', reason: `a malformed response was ignored: ${describeIssues(response.error.issues)}` };
  return reject(
    toRequestId(value.id),
    ErrorCode.InvalidRequest,
    'Invalid Request: not a JSON-RPC request, notification or response (no "method")',
  );
}

function screenRequest(value: Record<string, unknown>): ScreenedMessage {
  const id = toRequestId(value.id);
  if (id === undefined) return reject(undefined, ErrorCode.InvalidRequest, 'Invalid Request: "id" must be a string or an integer');
  if (typeof value.method !== 'string') return reject(id, ErrorCode.InvalidRequest, 'Invalid Request: "method" must be a string');
  if ('params' in value && !isRecord(value.params)) {
    return reject(
      id,
      ErrorCode.InvalidParams,
      `Invalid params: "params" of ${value.method.slice(0, 80)} must be an object when present (got ${describeType(value.params)})`,
    );
  }
  const request = JSONRPCRequestSchema.safeParse(value);
  if (!request.success) return reject(id, ErrorCode.InvalidRequest, `Invalid Request: ${describeIssues(request.error.issues)}`);
  const schema = REQUEST_SCHEMAS.get(request.data.method);
  const checked = schema?.safeParse(request.data);
  if (checked !== undefined && !checked.success)
    return reject(id, ErrorCode.InvalidParams, `Invalid params: ${describeIssues(checked.error?.issues ?? [])}`);
  if (request.data.method === 'tools/call' && isRecord(value.params)) {
    const refused = refuseProtoKeys(id, value.params.name, value.params.arguments);
    if (refused !== undefined) return refused;
  }
  return { kind: 'message', message: request.data };
}

const PROTO = '__proto__';
const MAX_PROTO_PATHS = 3;

/**
 * `{"__proto__": {…}}` in JSON is an own key like any other, and the tool schemas refuse it like any unknown field;
 * but the SDK parses `arguments` as a record and drops a top-level `__proto__` without a word (so it cannot become
 * the prototype), and the call then ran as if the field had not been sent. Looked for here, in the arguments as they
 * were read, at every depth; the call is answered as a tool refuses its input (`input/invalid`, isError).
 */
function refuseProtoKeys(id: RequestId, name: unknown, args: unknown): ScreenedMessage | undefined {
  const paths = findProtoKeys(args);
  if (paths.length === 0) return undefined;
  const tool = typeof name === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(name) ? name : 'this tool';
  const problems = paths.map(
    (path) => `unknown field "${PROTO}": ${path === '' ? 'this tool' : `"${path}"`} does not accept it; remove it.`,
  );
  const result = toErrorResult(
    'input/invalid',
    `${tool}: ${problems.join('; ')}`,
    `Fix the fields named above and call ${tool} again; its inputSchema in tools/list names the fields it accepts.`,
  );
  return { kind: 'answered', reply: { jsonrpc: '2.0', id, result } };
}

/** Paths (`requirements.acceptanceCriteria[0]`, '' for the arguments themselves) of objects with an own `__proto__` key. */
function findProtoKeys(args: unknown): string[] {
  // Parent links instead of a path per node, so a deeply nested value costs linear time.
  const nodes: { value: unknown; parent: number; key: string | number }[] = [{ value: args, parent: -1, key: '' }];
  const found: number[] = [];
  for (let index = 0; index < nodes.length && found.length < MAX_PROTO_PATHS; index += 1) {
    const { value } = nodes[index] ?? { value: undefined };
    if (Array.isArray(value)) {
      for (let at = 0; at < value.length; at += 1) nodes.push({ value: value[at], parent: index, key: at });
    } else if (typeof value === 'object' && value !== null) {
      if (Object.hasOwn(value, PROTO)) found.push(index);
      for (const [key, item] of Object.entries(value)) if (key !== PROTO) nodes.push({ value: item, parent: index, key });
    }
  }
  return found.map((index) => {
    const keys: (string | number)[] = [];
    for (let at = index; at > 0; at = nodes[at]?.parent ?? 0) keys.unshift(nodes[at]?.key ?? '');
    return keys.map((key, at) => (typeof key === 'number' ? `[${key}]` : `${at === 0 ? '' : '.'}${toEcho(key)}`)).join('');
  });
}

function toEcho(key: string): string {
  const clean = key.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
}

function screenNotification(value: Record<string, unknown>): ScreenedMessage {
  const notification = JSONRPCNotificationSchema.safeParse(value);
  if (notification.success) return { kind: 'message', message: notification.data };
  return { kind: 'dropped', reason: `a malformed notification was ignored: ${describeIssues(notification.error.issues)}` };
}

function reject(id: RequestId | undefined, code: number, message: string): ScreenedMessage {
  const reply: JSONRPCErrorResponse =
    id === undefined ? { jsonrpc: '2.0', error: { code, message } } : { jsonrpc: '2.0', id, error: { code, message } };
  return { kind: 'rejected', reply, reason: `${message} (request id ${id === undefined ? 'unknown' : JSON.stringify(id).slice(0, 40)})` };
}

function toRequestId(value: unknown): RequestId | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  return undefined;
}

function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const described = issues
    .slice(0, MAX_ISSUES)
    .map((issue) => `${issue.path.length === 0 ? 'message' : issue.path.map(String).join('.')}: ${issue.message}`);
  const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : '';
  return `${described.join('; ')}${more}`.slice(0, 500);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
