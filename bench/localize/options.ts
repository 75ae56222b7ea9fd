import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Split } from './cases.js';
import type { Variant } from './metrics.js';
import { resolveReposDir } from './repo-cache.js';
import { SYSTEMS, type SystemName } from './systems.js';

export interface RunOptions {
  reposDir: string;
  /** Render the report of a saved result file instead of running (`--from`). */
  from: string | undefined;
  workDir: string;
  outPath: string | undefined;
  splits: Split[];
  repositories: string[];
  /** At most this many cases per repository, spread evenly over its cases; undefined for all. */
  limit: number | undefined;
  variants: Variant[];
  systems: SystemName[];
  offTopic: 'yes' | 'no' | 'only';
  /** Remove `.checker/local` before every case, so that every first call is cold. */
  cold: boolean;
}

export const USAGE = `npm run bench:localize -- --repos <dir> [options]

  --repos <dir>         folder of clones named owner+name (or env CHECKER_BENCH_REPOS)
  --split <name>        dev, held-out or all (default all)
  --repo <owner/name>   only this repository (repeatable)
  --limit <n>           at most n cases per repository, spread evenly (default all)
  --variant <name>      short, long or both (default both; long runs only where the commit body gives one)
  --systems <list>      comma-separated from ${SYSTEMS.join(', ')} (default all)
  --off-topic <mode>    yes, no or only (default yes)
  --cold                clear .checker/local before every case (default: only before each repository)
  --work <dir>          where the working clones live (default bench/work/localize)
  --out <file>          result JSON (default bench/localize/results/<time>.json)
  --from <file>         print the report of a saved result JSON instead of running (with --split and --systems)
  --help                this text`;

function pick<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  const found = allowed.find((item) => item === value);
  if (found === undefined) throw new Error(`--${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return found;
}

function toLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(number) || number < 1) throw new Error(`--limit must be a whole number of at least 1, got "${value}"`);
  return number;
}

function toSystems(value: string): SystemName[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new Error('--systems must name at least one system');
  return [...new Set(names.map((name) => pick('systems', name, SYSTEMS)))];
}

/** The runner's options from argv and the environment; anything unknown or malformed is refused by name. */
export function readRunOptions(argv: readonly string[], env: NodeJS.ProcessEnv, defaultWorkDir: string): RunOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      repos: { type: 'string' },
      split: { type: 'string', default: 'all' },
      repo: { type: 'string', multiple: true },
      limit: { type: 'string' },
      variant: { type: 'string', default: 'both' },
      systems: { type: 'string', default: SYSTEMS.join(',') },
      'off-topic': { type: 'string', default: 'yes' },
      cold: { type: 'boolean', default: false },
      work: { type: 'string' },
      out: { type: 'string' },
      from: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) return 'help';
  if (positionals.length > 0) throw new Error(`unexpected argument "${positionals[0]}" (options start with --)`);
  const split = pick('split', values.split, ['dev', 'held-out', 'all'] as const);
  const variant = pick('variant', values.variant, ['short', 'long', 'both'] as const);
  // Properties are evaluated in order: every flag's value is checked before the repository folder is looked for.
  return {
    workDir: resolve(values.work ?? defaultWorkDir),
    outPath: values.out === undefined ? undefined : resolve(values.out),
    splits: split === 'all' ? ['held-out', 'dev'] : [split],
    repositories: values.repo ?? [],
    limit: toLimit(values.limit),
    variants: variant === 'both' ? ['short', 'long'] : [variant],
    systems: toSystems(values.systems),
    offTopic: pick('off-topic', values['off-topic'], ['yes', 'no', 'only'] as const),
    cold: values.cold,
    from: values.from === undefined ? undefined : resolve(values.from),
    reposDir: values.from === undefined ? resolveReposDir(values.repos, env) : '',
  };
}
