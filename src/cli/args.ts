import type { ArgsDef } from 'citty';
import { CheckerError } from '../model/diagnostic.js';

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

export type OutputFormat = 'markdown' | 'json';

export const failOnArg = {
  'fail-on': {
    type: 'string',
    description:
      'Exit with code 1 (after printing the report) when the merge risk level is at or above this: low, medium, high or critical',
    valueHint: 'level',
  },
} as const satisfies ArgsDef;

const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export type RiskThreshold = (typeof RISK_LEVELS)[number];

/** --fail-on as given, checked before any work; undefined when absent. */
export function toFailOn(value: unknown): RiskThreshold | undefined {
  if (value === undefined || value === '') return undefined;
  const level = RISK_LEVELS.find((item) => item === value);
  if (level === undefined) {
    throw new CheckerError('usage/invalid-fail-on', `--fail-on must be one of ${RISK_LEVELS.join(', ')} (got ${JSON.stringify(value)})`, {
      hint: 'For a CI gate that blocks high-risk merges: --fail-on high.',
    });
  }
  return level;
}

/** Whether a report's merge-risk level reaches the --fail-on threshold (exit code 1). */
export function isAtOrAbove(level: string, threshold: RiskThreshold): boolean {
  return (RISK_LEVELS as readonly string[]).indexOf(level) >= RISK_LEVELS.indexOf(threshold);
}

/** --base/--head as given; refs are validated by the change reader (a ref starting with '-' is refused there). */
export function toRange(args: { base?: unknown; head?: unknown }): { base?: string; head?: string } {
  const range: { base?: string; head?: string } = {};
  if (typeof args.base === 'string' && args.base !== '') range.base = args.base;
  if (typeof args.head === 'string' && args.head !== '') range.head = args.head;
  return range;
}

export function toFormat(value: unknown): OutputFormat {
  if (value === 'markdown' || value === 'json') return value;
  throw new CheckerError('usage/invalid-format', `--format must be markdown or json (got ${JSON.stringify(value)})`, {
    hint: 'Use --format markdown (the default) or --format json.',
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
