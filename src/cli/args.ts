import type { ArgsDef } from 'citty';
import type { z } from 'zod';
import { CheckerError } from '../model/diagnostic.js';
import {
  type Checked,
  checkFailOn,
  checkFormat,
  checkRef,
  checkSessionId,
  checkTask,
  type OutputFormat,
  type RiskLevelName,
  RISK_LEVELS,
} from '../model/input-checks.js';

export const cwdArg = {
  cwd: { type: 'string', description: 'Repository to analyse (its root folder)', default: '.', valueHint: 'path' },
} as const satisfies ArgsDef;

export const formatArg = {
  format: { type: 'string', description: 'Output format: markdown or json', default: 'markdown', valueHint: 'markdown|json' },
  output: { type: 'string', description: 'Write the output to a file inside .checker/local/ instead of stdout', valueHint: 'path' },
} as const satisfies ArgsDef;

export const rangeArgs = {
  base: { type: 'string', description: 'Base revision (default: merge-base with the default branch, or HEAD on it)', valueHint: 'ref' },
  head: { type: 'string', description: 'Head revision (default: the working tree, uncommitted changes included)', valueHint: 'ref' },
} as const satisfies ArgsDef;

export type { OutputFormat } from '../model/input-checks.js';

export const failOnArg = {
  'fail-on': {
    type: 'string',
    description:
      'Exit with code 1 (after printing the report) when the merge risk level is at or above this: low, medium, high or critical',
    valueHint: 'level',
  },
} as const satisfies ArgsDef;

export type RiskThreshold = RiskLevelName;

const MAX_ECHO_CHARS = 80;

/**
 * A flag's value checked by the zod field the MCP tools use for the same input (src/model/input-fields.ts),
 * so both adapters refuse it with the same words: `--<flag> <field message> (got <value>)`.
 */
export function parseFlag<T extends z.ZodType>(
  field: T,
  flag: string,
  value: unknown,
  refusal: { code: string; hint: string; given?: unknown },
): z.output<T> {
  const parsed = field.safeParse(value);
  return takeChecked(
    parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: parsed.error.issues[0]?.message ?? 'is not valid' },
    flag,
    value,
    refusal,
  );
}

/**
 * A flag's value checked by the zod-free check its MCP field is built from (src/model/input-checks.ts): the same
 * words as parseFlag, without loading zod for the flags every command takes.
 */
function takeChecked<T>(checked: Checked<T>, flag: string, value: unknown, refusal: { code: string; hint: string; given?: unknown }): T {
  if (checked.ok) return checked.value;
  const given = String(refusal.given ?? value).slice(0, MAX_ECHO_CHARS);
  throw new CheckerError(refusal.code, `--${flag} ${checked.message} (got ${JSON.stringify(given)})`, { hint: refusal.hint });
}

/** --fail-on as given, checked before any work; undefined when absent. */
export function toFailOn(value: unknown): RiskThreshold | undefined {
  if (value === undefined || value === '') return undefined;
  return takeChecked(checkFailOn(value), 'fail-on', value, {
    code: 'usage/invalid-fail-on',
    hint: 'For a CI gate that blocks high-risk merges: --fail-on high.',
  });
}

/** Whether a report's merge-risk level reaches the --fail-on threshold (exit code 1). */
export function isAtOrAbove(level: string, threshold: RiskThreshold): boolean {
  return (RISK_LEVELS as readonly string[]).indexOf(level) >= RISK_LEVELS.indexOf(threshold);
}

const refHint =
  'Name a branch, tag, commit id or HEAD~N, e.g. --base main; leave --base out for the merge-base and --head out for the working tree.';

/** --base/--head as given, checked as the MCP tools' ref fields check them, before any git call. */
export function toRange(args: { base?: unknown; head?: unknown }): { base?: string; head?: string } {
  const range: { base?: string; head?: string } = {};
  for (const side of ['base', 'head'] as const) {
    const value = args[side];
    if (value === undefined || value === '') continue;
    range[side] = takeChecked(checkRef(side, value), side, value, { code: 'git/ref-invalid', hint: refHint });
  }
  return range;
}

export function toFormat(value: unknown): OutputFormat {
  return takeChecked(checkFormat(value), 'format', value, {
    code: 'usage/invalid-format',
    hint: 'Use --format markdown (the default) or --format json.',
  });
}

/** --task checked as the MCP tools' task field checks it (trimmed, not empty, at most MAX_TASK_CHARS); the text itself is never echoed. */
export function toTask(value: unknown): string {
  return takeChecked(checkTask(value), 'task', value, {
    code: 'usage/invalid-task',
    hint: 'Describe the change in a few sentences, e.g. --task "apply the loyalty discount at checkout"; put details in a --requirements file.',
    given: typeof value === 'string' ? `${value.length} characters` : value,
  });
}

/** --session checked as the MCP tools' sessionId field checks it, so both refuse an id with the same words. */
export function toSessionId(value: unknown): string {
  return takeChecked(checkSessionId(value), 'session', value, {
    code: 'session/invalid-id',
    hint: 'Use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit, e.g. --session fix-discount-1.',
  });
}

/**
 * citty accepts any flag silently; a misspelt flag must not be ignored (a typo in --base would
 * analyse the wrong range), so every flag is checked against the command's declared arguments.
 */
export function assertKnownFlags(rawArgs: string[], argsDef: ArgsDef, commandName: string): void {
  const byFlag = new Map<string, ArgsDef[string]>();
  const booleanNegations = new Set<string>();
  for (const [name, def] of Object.entries(argsDef)) {
    if (def.type === 'positional') continue;
    byFlag.set(name, def);
    byFlag.set(toKebab(name), def);
    if (def.type === 'boolean') booleanNegations.add(`no-${toKebab(name)}`);
    const aliases = 'alias' in def && def.alias !== undefined ? (Array.isArray(def.alias) ? def.alias : [def.alias]) : [];
    for (const alias of aliases) byFlag.set(alias, def);
  }
  const positionals = Object.values(argsDef).filter((def) => def.type === 'positional').length;
  let seenPositionals = 0;
  for (let index = 0; index < rawArgs.length; index += 1) {
    const arg = rawArgs[index] ?? '';
    if (arg === '--') break;
    if (arg.startsWith('-') && arg !== '-') {
      const name = arg.replace(/^--?/, '').split('=')[0] ?? '';
      if (name === 'help' || name === 'h' || booleanNegations.has(name)) continue;
      const def = byFlag.get(name);
      if (def === undefined) {
        const flags = Object.keys(argsDef)
          .filter((key) => argsDef[key]?.type !== 'positional')
          .map((key) => `--${toKebab(key)}`);
        throw new CheckerError('usage/unknown-flag', `Unknown option ${arg.split('=')[0]} for "checker ${commandName}"`, {
          hint: `Valid options: ${flags.join(', ')}. Run "checker ${commandName} --help" for details.`,
        });
      }
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : undefined;
      if (def.type === 'boolean' && value !== undefined && value !== 'true' && value !== 'false') {
        throw new CheckerError(
          'usage/invalid-value',
          `Option ${arg.split('=')[0]} is a switch: give it alone, or =true / =false (got "${value.slice(0, 40)}")`,
          {
            hint: `Example: checker ${commandName} ${arg.split('=')[0]}`,
          },
        );
      }
      if (def.type !== 'boolean' && !arg.includes('=')) {
        if (rawArgs[index + 1] === undefined) {
          throw new CheckerError('usage/missing-value', `Option ${arg} needs a value`, {
            hint: `Example: checker ${commandName} ${arg} <${def.valueHint ?? 'value'}>`,
          });
        }
        index += 1;
      }
    } else {
      seenPositionals += 1;
      if (seenPositionals > positionals) {
        throw new CheckerError('usage/unexpected-argument', `Unexpected argument "${arg}" for "checker ${commandName}"`, {
          hint: `Run "checker ${commandName} --help" to see its options; text values go after their flag, e.g. --task "…".`,
        });
      }
    }
  }
}

function toKebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
