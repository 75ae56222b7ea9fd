import { z } from 'zod';
import { PROFILES } from '../app/profiles.js';
import {
  formatField as sharedFormatField,
  maxNodesField as sharedMaxNodesField,
  refField,
  sessionIdField,
  taskField,
} from '../model/input-fields.js';
import { requirementsSchema } from '../model/requirements.js';

/**
 * Input schemas of the MCP tools. Every object is `.strict()`: an unknown field (a `command`, a `cwd`,
 * an `env`) is refused, never ignored (security H32). Each field's error text names the fix, because
 * it is what the calling agent reads.
 */

const formatField = sharedFormatField.optional();

const rangeShape = { base: refField('base').optional(), head: refField('head').optional() };

export const requirementsField = requirementsSchema
  .optional()
  .describe(
    'Requirements object (spec 2.5), the same fields as a requirements file: acceptanceCriteria, currentBehavior, expectedBehavior, affectedFlows, nonGoals, invariants, architectureConstraints, unresolvedQuestions. Recorded as requirement evidence, kept apart from checker suggestions.',
  );

const profileField = z
  .enum(PROFILES, { error: `must be one of ${PROFILES.join(', ')}; leave it out for generic` })
  .optional()
  .describe(
    `Agent profile that shapes only the hand-off wording (${PROFILES.join(', ')}); default generic. Selecting one calls no agent and sends nothing anywhere.`,
  );

const maxNodesField = sharedMaxNodesField.optional();

export const analysisInputSchema = z.object({ format: formatField, ...rangeShape }).strict();

export const executeInputSchema = z
  .object({
    confirmExecution: z
      .boolean({ error: 'must be true to run the configured checks, or false (the default) to see what would run' })
      .optional()
      .describe(
        'true runs the checks configured in the repository (only when its configuration has safety.allowCommands: true); false or absent runs nothing and reports what would run.',
      ),
    all: z
      .boolean({ error: 'must be a boolean' })
      .optional()
      .describe('true runs every configured check, also those whose paths the change does not touch.'),
    format: formatField,
    ...rangeShape,
  })
  .strict();

export const agentTaskBundleInputSchema = z
  .object({
    profile: profileField,
    task: taskField.optional(),
    format: formatField,
    ...rangeShape,
  })
  .strict();

export const agentInvestigationInputSchema = z
  .object({
    confirmInvestigation: z
      .boolean({ error: 'must be true to call the configured provider, or false (the default) to see the payload only' })
      .optional()
      .describe(
        'true calls the provider configured in investigation.provider (local command or bring-your-own-key endpoint); false or absent sends nothing and returns the exact redacted payload.',
      ),
    subject: z
      .enum(['change', 'preflight'], { error: 'must be "change" or "preflight"' })
      .optional()
      .describe(
        '"change" investigates a git range (base/head, default the working tree); "preflight" a task before coding. Default: preflight when task is given without base/head, else change.',
      ),
    task: taskField.optional(),
    requirements: requirementsField,
    profile: profileField,
    format: formatField,
    ...rangeShape,
  })
  .strict();

export const agentPreflightInputSchema = z.object({ task: taskField, requirements: requirementsField, format: formatField }).strict();

export const taskContextInputSchema = z
  .object({ task: taskField, requirements: requirementsField, maxNodes: maxNodesField, format: formatField })
  .strict();

export const agentSessionInputSchema = z
  .object({
    operation: z
      .enum(['start', 'context', 'checkpoint', 'finish'], { error: 'must be one of start, context, checkpoint, finish' })
      .describe(
        'start creates the session (needs task); context refreshes the bounded context packet; checkpoint records a plan or diff summary (needs checkpointKind and summary); finish returns the verification boundary.',
      ),
    sessionId: sessionIdField,
    task: taskField.optional().describe('For start: what the change is for, in plain words.'),
    requirements: requirementsField,
    checkpointKind: z
      .enum(['plan', 'diff'], { error: 'must be "plan" or "diff"' })
      .optional()
      .describe('For checkpoint: "plan" before coding, "diff" after changing files.'),
    summary: z
      .string({ error: 'must be a string' })
      .min(1, { error: 'must not be empty; summarise the plan or the diff in a few sentences' })
      .max(64 * 1024, { error: 'is longer than 65536 characters; summarise it (stored summaries are cut to 8192 characters)' })
      .optional()
      .describe('For checkpoint: your summary of the plan or the diff. Stored redacted as untrusted agent text.'),
    maxNodes: maxNodesField,
    format: formatField,
  })
  .strict()
  .superRefine((input, context) => {
    const rules = SESSION_FIELDS[input.operation];
    for (const field of rules.required) {
      if (input[field] === undefined)
        context.addIssue({ code: 'custom', path: [field], input: undefined, message: `is required for operation "${input.operation}"` });
    }
    for (const field of SESSION_OPTIONAL_FIELDS) {
      if (input[field] !== undefined && !rules.required.includes(field) && !rules.optional.includes(field)) {
        const users = SESSION_OPERATIONS.filter(
          (operation) => SESSION_FIELDS[operation].required.includes(field) || SESSION_FIELDS[operation].optional.includes(field),
        );
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `does not apply to operation "${input.operation}" (only to ${users.join(', ')}); remove it`,
        });
      }
    }
  });

type SessionField = 'task' | 'requirements' | 'checkpointKind' | 'summary' | 'maxNodes';
const SESSION_OPERATIONS = ['start', 'context', 'checkpoint', 'finish'] as const;
const SESSION_OPTIONAL_FIELDS: readonly SessionField[] = ['task', 'requirements', 'checkpointKind', 'summary', 'maxNodes'];
const SESSION_FIELDS: Record<
  (typeof SESSION_OPERATIONS)[number],
  { required: readonly SessionField[]; optional: readonly SessionField[] }
> = {
  start: { required: ['task'], optional: ['requirements'] },
  context: { required: [], optional: ['maxNodes'] },
  checkpoint: { required: ['checkpointKind', 'summary'], optional: [] },
  finish: { required: [], optional: [] },
};

export type { OutputFormat } from '../model/input-fields.js';
export type AgentPreflightInput = z.infer<typeof agentPreflightInputSchema>;
export type AgentSessionInput = z.infer<typeof agentSessionInputSchema>;
export type RequirementsObject = NonNullable<AgentPreflightInput['requirements']>;

const MAX_ECHO_CHARS = 80;

/** One line per problem, each naming the field and how to fix it; unknown fields list the accepted ones. */
export function describeInputIssues(issues: readonly z.core.$ZodIssue[], acceptedFields: readonly string[], input: unknown): string[] {
  return issues.map((issue) => {
    const field = toFieldName(issue.path);
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.slice(0, 5).map((key) => JSON.stringify(toEcho(key)));
      const more = issue.keys.length > 5 ? ` and ${issue.keys.length - 5} more` : '';
      const where = field === '' ? 'this tool' : `"${field}"`;
      const accepted = field === '' ? ` Accepted fields: ${acceptedFields.join(', ')}.` : '';
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${keys.join(', ')}${more}: ${where} does not accept ${issue.keys.length === 1 ? 'it' : 'them'}; remove ${issue.keys.length === 1 ? 'it' : 'them'}.${accepted}`;
    }
    const isPlain = issue.message.startsWith('expected ');
    if (issue.code === 'invalid_type' && !hasPath(input, issue.path))
      return `"${field}" is required: ${isPlain ? issue.message : `it ${issue.message}`}`;
    if (field === '') return issue.message;
    return isPlain ? `"${field}": ${issue.message}` : `"${field}" ${issue.message}`;
  });
}

/**
 * Zod's own words for a field that has no error text of ours ("Invalid input: expected string, received number"), said
 * plainly: what was expected and what came instead ("expected a string, got a number"). Passed to safeParse as its
 * error map, so a field's own text still wins; describeInputIssues puts the field name before it.
 */
export const describePlainIssue: z.core.$ZodErrorMap = (issue) => {
  const got = issue.input === undefined ? '' : `, got ${describeValue(issue.input)}`;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${withArticle(issue.expected)}${got}`;
    case 'invalid_value':
      return `expected ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map((value) => JSON.stringify(value)).join(', ')}${got}`;
    case 'invalid_union': {
      const expected = [...new Set(issue.errors.flatMap((errors) => errors.flatMap(toExpectedType)))];
      return expected.length === 0 ? undefined : `expected ${expected.map(withArticle).join(' or ')}${got}`;
    }
    case 'too_small':
      return `expected ${describeBound(issue.origin, 'at least', Number(issue.minimum), issue.inclusive !== false)}`;
    case 'too_big':
      return `expected ${describeBound(issue.origin, 'at most', Number(issue.maximum), issue.inclusive !== false)}`;
    default:
      return undefined;
  }
};

function toExpectedType(issue: z.core.$ZodIssue): string[] {
  return issue.code === 'invalid_type' && issue.path.length === 0 ? [issue.expected] : [];
}

function withArticle(type: string): string {
  if (type === 'int') return 'an integer';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'a fraction';
  return withArticle(typeof value);
}

function describeBound(origin: string, side: 'at least' | 'at most', limit: number, isInclusive: boolean): string {
  const count = (unit: string): string => `${side} ${limit} ${unit}${limit === 1 ? '' : 's'}`;
  if (origin === 'string') return `a string of ${count('character')}`;
  if (origin === 'array' || origin === 'set') return `${count('item')}`;
  const relation = side === 'at least' ? (isInclusive ? '>=' : '>') : isInclusive ? '<=' : '<';
  return `${withArticle(origin === 'int' ? 'int' : 'number')} ${relation} ${limit}`;
}

function hasPath(input: unknown, path: readonly PropertyKey[]): boolean {
  let current: unknown = input;
  for (const part of path) {
    if (typeof current !== 'object' || current === null || typeof part === 'symbol' || !Object.hasOwn(current, part)) return false;
    current = Reflect.get(current, part);
  }
  return current !== undefined;
}

function toFieldName(path: readonly PropertyKey[]): string {
  let name = '';
  for (const part of path) {
    if (typeof part === 'number') name += `[${part}]`;
    else name += name === '' ? toEcho(String(part)) : `.${toEcho(String(part))}`;
  }
  return name;
}

function toEcho(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes or refuses.
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, '?');
  return clean.length > MAX_ECHO_CHARS ? `${clean.slice(0, MAX_ECHO_CHARS)}…` : clean;
}

const targetField = z
  .string({ error: 'must be the name of a target under products.targets in the repository configuration' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, { error: 'must be a target name: letters, digits, ".", "_" and "-", at most 64' })
  .describe('Name of a product target configured under products.targets.');

const testIdField = z
  .string({ error: 'must be a generated check id such as api:web:post.orders:missing-body-4xx' })
  .regex(/^(ui|api|workflow):[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, {
    error: 'must be a generated check id (ui:…, api:… or workflow:…) as a failure bundle names it',
  })
  .describe('The generated check to rerun; default: the first failure of the latest product run.');

const confirmField = z
  .boolean({ error: 'must be true to start the target and run checks, or false (the default) to see what would run' })
  .optional()
  .describe(
    'true starts the configured target and runs the checks (only when the configuration has safety.allowCommands: true); false or absent starts nothing.',
  );

const atBaseField = z
  .boolean({ error: 'must be true to rerun at the base revision every failure that reproduced, or false (the default)' })
  .optional()
  .describe(
    'true brings the target up a second time from the base revision (a worktree under .checker/local/worktrees/, removed afterwards) and reruns there each failure that reproduced: only one that passes at base is a confirmed-regression. Needs the same gate as the run, and time for a second start within the call.',
  );

const CHECK_KINDS = ['ui', 'api', 'workflow'] as const;

const checkKindField = z
  .enum(CHECK_KINDS, { error: `must be one of ${CHECK_KINDS.join(', ')}; leave it out for the first failure of any kind` })
  .optional()
  .describe(
    'Rerun the first failure of this kind of the latest product run: ui (a page check), api (a generated API check) or workflow (the target did not come up: the whole target runs again).',
  );

export const productPlanInputSchema = z.object({ format: formatField }).strict();
export const productFailuresInputSchema = z.object({ format: formatField }).strict();

export const productRunInputSchema = z
  .object({
    confirmExecution: confirmField,
    target: targetField,
    generateApiTests: z
      .boolean({ error: 'must be a boolean' })
      .optional()
      .describe('true writes the generated API checks as a node:test file.'),
    runGeneratedApiTests: z
      .boolean({ error: 'must be a boolean' })
      .optional()
      .describe('true sends the generated API checks to the target (an api target always does).'),
    base: rangeShape.base,
    atBase: atBaseField,
    trace: z
      .boolean({ error: 'must be a boolean' })
      .optional()
      .describe('true records a Playwright trace of the exploration, an artifact of every UI failure.'),
    format: formatField,
  })
  .strict();

export const productRerunInputSchema = z
  .object({
    confirmExecution: confirmField,
    target: targetField.optional(),
    testId: testIdField.optional(),
    checkKind: checkKindField,
    atBase: atBaseField,
    format: formatField,
  })
  .strict()
  .superRefine((input, context) => {
    if (input.testId === undefined) return;
    // A check id names its kind and its target: `<kind>:<target>:…`.
    const [kind, target] = input.testId.split(':');
    if (input.checkKind !== undefined && input.checkKind !== kind)
      context.addIssue({
        code: 'custom',
        path: ['checkKind'],
        message: `is "${input.checkKind}" but testId names a check of kind "${kind}"; pass checkKind "${kind}" or leave it out`,
      });
    if (input.target !== undefined && input.target !== target)
      context.addIssue({
        code: 'custom',
        path: ['target'],
        message: `is "${input.target}" but testId names a check of target "${target}"; leave target out (the id names it) or pass a check of target "${input.target}"`,
      });
  });
