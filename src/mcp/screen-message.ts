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
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../text/is-record.js';

/** What the transport does with one parsed line of input. */
export type ScreenedMessage =
  | { kind: 'message'; message: JSONRPCMessage }
  /** A request (or something that may have been one) that is answered here with a JSON-RPC error. */
  | { kind: 'rejected'; reply: JSONRPCErrorResponse; reason: string }
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
  return { kind: 'message', message: request.data };
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
