import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { getValidator } from '../../io/schema.js';
import { isCheckerError } from '../../model/diagnostic.js';
import type { Env } from '../../model/env.js';
import { renderJson } from '../../report/json.js';
import { redactSecrets } from '../../text/redact/redact.js';
import { isRecord } from '../../text/is-record.js';
import { redactTree } from '../../text/redact/tree.js';
import { describeInputIssues, describePlainIssue, type OutputFormat } from '../schemas.js';
import { TOOL_TEXTS, type ToolName } from '../texts.js';
import type { WarmGraph } from '../warm.js';

/** What every handler gets: the one repository's Env (with its kept-alive parse pool) and the warm graph. */
export interface ToolContext {
  env: Env;
  warm: WarmGraph;
  /** Where internal errors are logged (stderr in the server); never stdout. */
  log(message: string): void;
  /** How long a call may take before the server answers limits/deadline and replaces the worker. */
  deadlineMs: number;
}

/** A report, the schema it validates against (`schemas/<schema>.schema.json`), and its Markdown rendering. */
export interface ToolReport<T> {
  report: T;
  schema: string;
  renderMarkdown(report: T): string;
  /**
   * Where the finished result of this very report may be kept and found again, by format: a tool whose report comes
   * from a memoised analysis (warm.ts) passes the analysis's store, and a repeat call skips building, checking,
   * redacting and rendering. `report` is then read only when nothing is kept (it may be a getter).
   */
  results?: { store: Map<string, unknown>; key: string };
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export interface ToolConfig {
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  /** Name of the JSON Schema in `schemas/` that structuredContent matches; published as the tool's outputSchema. */
  outputSchemaName: string;
  annotations: ToolAnnotations;
}

export interface McpTool {
  name: ToolName;
  config: ToolConfig;
  /** Validates the raw arguments, calls the app function, renders; every failure becomes an `isError` result. */
  handler(args: unknown, context: ToolContext): Promise<CallToolResult>;
}

/** Markdown text longer than this is cut with a marker pointing at format json (structuredContent is never cut). */
const MAX_MARKDOWN_CHARS = 200_000;
/** Lists longer than this are cut in MCP results (structuredContent and JSON text), with a `truncated` marker. */
export const MAX_LIST_ITEMS = 200;
const MAX_ERROR_CHARS = 2000;

/**
 * Binds a tool's input schema to a handler that calls one app function. The adapter logic lives here
 * once: parse the input (strict, messages naming the field and the fix), validate the report against
 * its schema, render the requested format, and map errors to `isError` results.
 */
export function defineTool<S extends z.ZodObject, T>(tool: {
  name: ToolName;
  inputSchema: S;
  outputSchemaName: string;
  annotations: ToolAnnotations;
  run(input: z.output<S>, context: ToolContext): Promise<ToolReport<T>>;
}): McpTool {
  const texts = TOOL_TEXTS[tool.name];
  const acceptedFields = Object.keys(tool.inputSchema.shape);
  return {
    name: tool.name,
    config: {
      title: texts.title,
      description: texts.description,
      inputSchema: tool.inputSchema,
      outputSchemaName: tool.outputSchemaName,
      annotations: tool.annotations,
    },
    async handler(args, context) {
      const parsed = tool.inputSchema.safeParse(args ?? {}, { error: describePlainIssue });
      if (!parsed.success) {
        return toErrorResult(
          'input/invalid',
          `${tool.name}: ${describeInputIssues(parsed.error.issues, acceptedFields, args).join('; ')}`,
          `Fix the fields named above and call ${tool.name} again; it accepts only: ${acceptedFields.join(', ')} (its inputSchema is in tools/list).`,
        );
      }
      try {
        const output = await tool.run(parsed.data, context);
        return toToolResult(output, readFormat(parsed.data));
      } catch (error) {
        return toThrownResult(tool.name, error, context);
      }
    },
  };
}

function readFormat(input: object): OutputFormat {
  return 'format' in input && input.format === 'json' ? 'json' : 'markdown';
}

/** The report as JSON text or Markdown, plus structuredContent: the report exactly as the CLI prints it with --format json. */
export function toToolResult<T>(output: ToolReport<T>, format: OutputFormat): CallToolResult {
  if (output.results === undefined) return renderToolResult(output, format);
  const key = `${output.results.key}\0${format}`;
  const kept = output.results.store.get(key) as CallToolResult | undefined;
  if (kept !== undefined) return kept;
  const result = renderToolResult(output, format);
  output.results.store.set(key, result);
  return result;
}

function renderToolResult<T>(output: ToolReport<T>, format: OutputFormat): CallToolResult {
  const validate = getValidator(output.schema);
  if (!validate(output.report)) {
    throw new Error(
      `internal: report does not match schemas/${output.schema}.schema.json: ${JSON.stringify(validate.errors?.slice(0, 3))}`,
    );
  }
  if (!isRecord(output.report)) throw new Error(`internal: report of schema ${output.schema} is not a JSON object`);
  // One redaction at the exit, for every channel: structuredContent, JSON text and Markdown (see redactTree). Lists are
  // cut first, so only what is sent is redacted (a string's redaction depends on its key and the items before it, which
  // cutting keeps): for a change reaching 9,560 files, 105 KB of JSON instead of 3.4 MB.
  const structuredContent = redactTree(JSON.parse(renderJson(capLists(output.report))) as Record<string, unknown>);
  if (format === 'json') return { content: [{ type: 'text', text: renderJson(structuredContent) }], structuredContent };
  const full = redactTree(JSON.parse(renderJson(output.report)) as T);
  return { content: [{ type: 'text', text: capMarkdown(redactSecrets(output.renderMarkdown(full)).text) }], structuredContent };
}

/**
 * A tool result goes into an agent's context window, so every list longer than MAX_LIST_ITEMS is cut
 * to its first items (they are already ranked) and `truncated` names each cut list with its counts.
 * Reports under the cap are returned unchanged, equal to the CLI's --format json.
 */
export function capLists(report: Record<string, unknown>, maxItems = MAX_LIST_ITEMS): Record<string, unknown> {
  const truncated: Record<string, { shown: number; total: number }> = {};
  const visit = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) {
      const kept = value.length > maxItems ? value.slice(0, maxItems) : value;
      if (kept !== value) truncated[path] = { shown: maxItems, total: value.length };
      return kept.map((item, index) => visit(item, `${path}[${index}]`));
    }
    if (isRecord(value)) {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) copy[key] = visit(item, path === '' ? key : `${path}.${key}`);
      return copy;
    }
    return value;
  };
  const capped = visit(report, '');
  if (!isRecord(capped)) return report;
  return Object.keys(truncated).length === 0 ? capped : { ...capped, truncated };
}

function capMarkdown(text: string): string {
  if (text.length <= MAX_MARKDOWN_CHARS) return text;
  const cut = text.lastIndexOf('\n', MAX_MARKDOWN_CHARS);
  const kept = text.slice(0, cut > 0 ? cut : MAX_MARKDOWN_CHARS);
  return `${kept}\n\n_truncated: ${kept.length} of ${text.length} characters shown; call again with format "json" or read structuredContent for the whole report._\n`;
}

export function toErrorResult(code: string, message: string, hint?: string): CallToolResult {
  const text = `${code}: ${message}${hint === undefined ? '' : `\nhint: ${hint}`}`;
  const safe = redactSecrets(text).text;
  return { isError: true, content: [{ type: 'text', text: safe.length > MAX_ERROR_CHARS ? `${safe.slice(0, MAX_ERROR_CHARS)}…` : safe }] };
}

function toThrownResult(name: string, error: unknown, context: ToolContext): CallToolResult {
  if (isCheckerError(error)) {
    const where =
      error.location === undefined ? '' : ` (${error.location.file}${error.location.line === undefined ? '' : `:${error.location.line}`})`;
    return toErrorResult(error.code, `${error.message}${where}`, error.hint);
  }
  const messages: string[] = [];
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && cause !== undefined; depth += 1) {
    messages.push(cause instanceof Error ? cause.message : String(cause));
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  context.log(
    `checker mcp: ${name} failed: ${redactSecrets(error instanceof Error ? (error.stack ?? error.message) : String(error)).text}`,
  );
  return toErrorResult(
    'internal/error',
    `${name} failed: ${messages.join(': caused by: ')}`,
    'This is a bug in checker, not in your input; the server keeps running. The stack trace is on the server stderr.',
  );
}
