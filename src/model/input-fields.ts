import { z } from 'zod';
import { DEFAULT_CONTEXT_MAX_NODES, MAX_CONTEXT_MAX_NODES } from './context-packet.js';
import { SESSION_ID_PATTERN } from './session.js';

/**
 * Input fields both adapters take: the MCP tools use them in their input schemas, and the CLI checks the
 * same flags with them (src/cli/args.ts), so a value is refused with the same words either way. Each
 * error text names the fix, because it is what the calling agent reads.
 */

export const OUTPUT_FORMATS = ['markdown', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const formatField = z
  .enum(OUTPUT_FORMATS, { error: 'must be markdown or json; leave it out for markdown' })
  .describe(
    'Output format of the text content: "markdown" (default, for reading) or "json" (the report as JSON; structuredContent always holds the JSON report).',
  );

const REF_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._/@{}~^-]{0,199}$/;

export function refField(side: 'base' | 'head') {
  const fallback =
    side === 'base' ? 'the merge-base with the default branch (or HEAD on it)' : 'the working tree, uncommitted changes included';
  return z
    .string({ error: `must be a git revision string such as "main", "HEAD~1" or a commit id; leave it out for ${fallback}` })
    .regex(REF_PATTERN, {
      error: `must be a git revision name (letters, digits, . _ / @ ~ ^ { } -; not starting with "-"), such as "main" or "HEAD~1"`,
    })
    .describe(`Git revision on the ${side} side of the range. Default: ${fallback}.`);
}

const maxNodesMessage = `must be an integer from 1 to ${MAX_CONTEXT_MAX_NODES}`;

export const maxNodesField = z
  .int({ error: maxNodesMessage })
  .min(1, { error: maxNodesMessage })
  .max(MAX_CONTEXT_MAX_NODES, { error: maxNodesMessage })
  .describe(`Upper bound on graph nodes in the packet (1-${MAX_CONTEXT_MAX_NODES}, default ${DEFAULT_CONTEXT_MAX_NODES}).`);

export const sessionIdField = z
  .string({ error: 'must be a string such as "fix-checkout-rounding"' })
  .regex(SESSION_ID_PATTERN, {
    error:
      'must be 1-64 characters of letters, digits, ".", "_" or "-", starting with a letter or digit (no "/", "..", spaces or other characters), e.g. "fix-checkout-rounding"',
  })
  .describe(
    'Session id: 1-64 characters of letters, digits, ".", "_" or "-", starting with a letter or digit. The session file is .checker/local/agent-sessions/<sessionId>.json.',
  );

/** Characters of task text kept (preflight, context, sessions, bundles); a longer task is refused by taskField. */
export const MAX_TASK_CHARS = 4000;

export const taskField = z
  .string({ error: 'must be a string describing the change in words, e.g. "apply the loyalty discount at checkout"' })
  .trim()
  .min(1, { error: 'must not be empty; describe the change in words, e.g. "apply the loyalty discount at checkout"' })
  .max(MAX_TASK_CHARS, {
    error: `is longer than ${MAX_TASK_CHARS} characters; summarise the task and put details in requirements.acceptanceCriteria`,
  })
  .describe(
    `What the change is for, in plain words (at most ${MAX_TASK_CHARS} characters). Used to ground the task in repository files; never executed.`,
  );

export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export type RiskLevelName = (typeof RISK_LEVELS)[number];

export const failOnField = z
  .enum(RISK_LEVELS, { error: `must be one of ${RISK_LEVELS.join(', ')}` })
  .describe('Exit with code 1 when the merge risk level is at or above this level.');
