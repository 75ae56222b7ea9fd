import { z } from 'zod';
import { DEFAULT_CONTEXT_MAX_NODES, MAX_CONTEXT_MAX_NODES } from './context-packet.js';
import { INPUT_MESSAGES, MAX_TASK_CHARS, OUTPUT_FORMATS, REF_PATTERN, refFallback, RISK_LEVELS } from './input-checks.js';
import { SESSION_ID_PATTERN } from './session.js';

/**
 * Input fields both adapters take: the MCP tools use them in their input schemas, and the CLI checks the
 * same flags with the zod-free checks they are built from (src/model/input-checks.ts), so a value is refused with the
 * same words either way. Each error text names the fix, because it is what the calling agent reads.
 */

export { MAX_TASK_CHARS, type OutputFormat, RISK_LEVELS, type RiskLevelName } from './input-checks.js';

export const formatField = z
  .enum(OUTPUT_FORMATS, { error: INPUT_MESSAGES.format })
  .describe(
    'Output format of the text content: "markdown" (default, for reading) or "json" (the report as JSON; structuredContent always holds the JSON report).',
  );

export function refField(side: 'base' | 'head') {
  const fallback = refFallback(side);
  return z
    .string({ error: INPUT_MESSAGES.refType(fallback) })
    .regex(REF_PATTERN, { error: INPUT_MESSAGES.refName })
    .describe(`Git revision on the ${side} side of the range. Default: ${fallback}.`);
}

const maxNodesMessage = `must be an integer from 1 to ${MAX_CONTEXT_MAX_NODES}`;

export const maxNodesField = z
  .int({ error: maxNodesMessage })
  .min(1, { error: maxNodesMessage })
  .max(MAX_CONTEXT_MAX_NODES, { error: maxNodesMessage })
  .describe(`Upper bound on graph nodes in the packet (1-${MAX_CONTEXT_MAX_NODES}, default ${DEFAULT_CONTEXT_MAX_NODES}).`);

export const sessionIdField = z
  .string({ error: INPUT_MESSAGES.sessionIdType })
  .regex(SESSION_ID_PATTERN, { error: INPUT_MESSAGES.sessionIdName })
  .describe(
    'Session id: 1-64 characters of letters, digits, ".", "_" or "-", starting with a letter or digit. The session file is .checker/local/agent-sessions/<sessionId>.json.',
  );

export const taskField = z
  .string({ error: INPUT_MESSAGES.taskType })
  .trim()
  .min(1, { error: INPUT_MESSAGES.taskEmpty })
  .max(MAX_TASK_CHARS, { error: INPUT_MESSAGES.taskLong })
  .describe(
    `What the change is for, in plain words (at most ${MAX_TASK_CHARS} characters). Used to ground the task in repository files; never executed.`,
  );

export const failOnField = z
  .enum(RISK_LEVELS, { error: INPUT_MESSAGES.failOn })
  .describe('Exit with code 1 when the merge risk level is at or above this level.');
