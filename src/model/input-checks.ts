import { SESSION_ID_PATTERN } from './session.js';

/**
 * The checks behind the input fields both adapters take (src/model/input-fields.ts), without zod: the CLI checks its
 * flags with these (src/cli/args.ts) and so starts without loading zod, about 30 ms of module compilation on every
 * command; the MCP tools keep the zod fields, built from the same values and messages. test/model/input-checks.test.ts
 * holds each check to its field: the same values pass, with the same result, and the same values fail, in the same
 * words.
 */

export const OUTPUT_FORMATS = ['markdown', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export type RiskLevelName = (typeof RISK_LEVELS)[number];

/** Characters of task text kept (preflight, context, sessions, bundles); a longer task is refused. */
export const MAX_TASK_CHARS = 4000;

export const REF_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._/@{}~^-]{0,199}$/;

export const INPUT_MESSAGES = {
  format: 'must be markdown or json; leave it out for markdown',
  failOn: `must be one of ${RISK_LEVELS.join(', ')}`,
  refType: (fallback: string) => `must be a git revision string such as "main", "HEAD~1" or a commit id; leave it out for ${fallback}`,
  refName: 'must be a git revision name (letters, digits, . _ / @ ~ ^ { } -; not starting with "-"), such as "main" or "HEAD~1"',
  sessionIdType: 'must be a string such as "fix-checkout-rounding"',
  sessionIdName:
    'must be 1-64 characters of letters, digits, ".", "_" or "-", starting with a letter or digit (no "/", "..", spaces or other characters), e.g. "fix-checkout-rounding"',
  taskType: 'must be a string describing the change in words, e.g. "apply the loyalty discount at checkout"',
  taskEmpty: 'must not be empty; describe the change in words, e.g. "apply the loyalty discount at checkout"',
  taskLong: `is longer than ${MAX_TASK_CHARS} characters; summarise the task and put details in requirements.acceptanceCriteria`,
} as const;

/** What a side of a range defaults to, as the ref field and its message say. */
export function refFallback(side: 'base' | 'head'): string {
  return side === 'base' ? 'the merge-base with the default branch (or HEAD on it)' : 'the working tree, uncommitted changes included';
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const pass = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = <T>(message: string): Checked<T> => ({ ok: false, message });

function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

export function checkFormat(value: unknown): Checked<OutputFormat> {
  return isOneOf(OUTPUT_FORMATS, value) ? pass(value) : fail(INPUT_MESSAGES.format);
}

export function checkFailOn(value: unknown): Checked<RiskLevelName> {
  return isOneOf(RISK_LEVELS, value) ? pass(value) : fail(INPUT_MESSAGES.failOn);
}

export function checkRef(side: 'base' | 'head', value: unknown): Checked<string> {
  if (typeof value !== 'string') return fail(INPUT_MESSAGES.refType(refFallback(side)));
  return REF_PATTERN.test(value) ? pass(value) : fail(INPUT_MESSAGES.refName);
}

export function checkSessionId(value: unknown): Checked<string> {
  if (typeof value !== 'string') return fail(INPUT_MESSAGES.sessionIdType);
  return SESSION_ID_PATTERN.test(value) ? pass(value) : fail(INPUT_MESSAGES.sessionIdName);
}

/** Trimmed, then not empty and at most MAX_TASK_CHARS, as the task field checks it. */
export function checkTask(value: unknown): Checked<string> {
  if (typeof value !== 'string') return fail(INPUT_MESSAGES.taskType);
  const text = value.trim();
  if (text.length < 1) return fail(INPUT_MESSAGES.taskEmpty);
  return text.length > MAX_TASK_CHARS ? fail(INPUT_MESSAGES.taskLong) : pass(text);
}
