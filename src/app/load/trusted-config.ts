import { type Config, type LoadedConfigData, type LoadedConfigFile, POWER_KEYS } from '../../model/config.js';
import { type Diagnostic, isCheckerError } from '../../model/diagnostic.js';
import type { Env, GitAccess, RevisionRange } from '../../model/env.js';
import { compareText } from '../../text/compare-text.js';
import { findConfigFile, findSafetyConflict, isExecutionAllowed, loadConfig, loadConfigAtRevision } from './load-config.js';

/** Git errors that mean there is no base to read a configuration from: the working tree's is all there is. */
const NO_HISTORY = new Set(['git/not-a-repository', 'git/no-commits']);

/** Where the keys that grant power came from, and whether the change under review alters them. */
export interface ConfigTrust {
  /**
   * base: the base revision of the change (the change does not alter them, or was not trusted to); change: the
   * change's own, because the user passed --trust-changed-config; working-tree: there is no history to read a base
   * from.
   */
  from: 'base' | 'change' | 'working-tree';
  /** The base revision they were read from (also with `change`: the revision compared with). */
  base?: { ref: string; oid: string };
  /** The power keys the change alters (`safety.allowCommands`, `checks.unit`, `products.targets.web`…), sorted. */
  changedByRange: string[];
  /** The change alters a power key and the user did not trust it: nothing may run. */
  blocked: boolean;
  /** One phrase naming the source of the power keys, for messages: `.checker/config.yml at base main (1a2b3c4)`. */
  source: string;
  /** The config files the power keys were read from, each with what it says, highest precedence first: what hints name. */
  files: LoadedConfigFile[];
}

export interface TrustedConfigData extends LoadedConfigData {
  trust: ConfigTrust;
}

export interface TrustOptions extends Pick<RevisionRange, 'base' | 'head'> {
  /** `--trust-changed-config`: the user takes the change's own power keys (never offered over MCP). */
  trustChangedConfig?: boolean;
}

type PlainRecord = Record<string, unknown>;

function isPlainRecord(value: unknown): value is PlainRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The configuration a command that may run something goes by. Keys that grant power (POWER_KEYS: the execution gate,
 * checks, tool adapters, product targets, the investigation provider, the default branch the base is found from) are
 * read from the base revision of the change under review, the rest from the working tree. When the change alters a
 * power key the run is `blocked` (nothing may start) and `config/changed-by-range` says which keys, unless the user
 * passed `trustChangedConfig`. The base is `options.base`, else the merge-base with the default branch that the base's
 * own `analysis.defaultBranch` names (or that is detected), as readChange finds it; the head is `options.head` or the
 * working tree. Without git history the working tree's configuration is used as it is.
 */
export async function loadTrustedConfig(env: Env, options: TrustOptions = {}): Promise<TrustedConfigData> {
  const working = await loadConfig(env);
  const git = await openHistory(env);
  if (git === undefined) {
    const source = describeFiles(working.sources, 'the working tree');
    return { ...working, trust: { from: 'working-tree', changedByRange: [], blocked: false, source, files: working.files ?? [] } };
  }
  const { base, config: baseConfig } = await readBaseConfig(env, git, options.base);
  const head =
    options.head === undefined ? working : await readRevisionConfig(env, git, await git.resolveBase({ base: options.head }), 'head');
  const changedByRange = diffPowerKeys(baseConfig.config, head.config);
  const trusted = options.trustChangedConfig === true && changedByRange.length > 0;
  const blocked = changedByRange.length > 0 && !trusted;
  const powerFrom = trusted ? head.config : baseConfig.config;
  const diagnostics: Diagnostic[] = [...working.diagnostics, ...baseConfig.diagnostics.map((item) => atBase(item, base))];
  const baseName = describeRevision(base);
  if (blocked) {
    diagnostics.push({
      code: 'config/changed-by-range',
      severity: 'warn',
      message: `the change under review alters ${changedByRange.join(', ')} of the checker configuration; what runs is read from the base revision ${baseName}, and nothing runs while the change alters it`,
      hint: 'Review the configuration change, then merge it (or commit it to the base branch), or pass --trust-changed-config to run the configuration this change sets (only for a change you wrote or reviewed; MCP never does).',
      location: { file: head.sources[0] ?? baseConfig.sources[0] ?? '.checker/config.yml' },
    });
  } else if (trusted) {
    diagnostics.push({
      code: 'config/trusted-change',
      severity: 'info',
      message: `--trust-changed-config: the configuration this change sets is used, including ${changedByRange.join(', ')} that it alters from ${baseName}`,
    });
  }
  const config = withPowerKeys(env, working.config, powerFrom);
  const source = trusted
    ? describeFiles(head.sources, options.head === undefined ? 'the working tree' : 'the head revision')
    : `${describeFiles(baseConfig.sources, 'no configuration file')} at base ${baseName}`;
  return {
    config,
    sources: working.sources,
    diagnostics,
    trust: {
      from: trusted ? 'change' : 'base',
      base,
      changedByRange,
      blocked,
      source,
      files: (trusted ? head.files : baseConfig.files) ?? [],
    },
  };
}

/** What a gate lets run: the configured checks (execute, differential, --with-checks) or a product target. */
export type GateAction = 'checks' | 'product';

/** How a user asks for each action: the CLI command and the MCP tool, both with execution confirmed. */
const ASK_FOR: Record<GateAction, string> = {
  checks: 'Run checker execute, or call execute_configured_checks with confirmExecution: true',
  product: 'Run checker product --target <name>, or call checker_product_run with confirmExecution: true',
};

/** The gate of a command that runs configured commands: open only when requested, allowed by trusted config and not blocked. */
export function decideGate(
  loaded: TrustedConfigData,
  confirmed: boolean,
  action: GateAction = 'checks',
): { requested: boolean; allowCommands: boolean; open: boolean; explanation: string } {
  const allowCommands = isExecutionAllowed(loaded.config);
  const { trust } = loaded;
  const open = confirmed && allowCommands && !trust.blocked;
  return { requested: confirmed, allowCommands, open, explanation: explainTrustedGate(confirmed, allowCommands, trust, action) };
}

/**
 * Why safety.allowCommands does not open the gate, naming the files: not set to true where the power keys come from,
 * or set differently in two config files, whose conflict (config/safety-conflict) made it fail closed.
 */
export function describeCommandsNotAllowed(trust: Pick<ConfigTrust, 'from' | 'base' | 'source' | 'files'>): string {
  const conflict = findSafetyConflict(trust.files, 'allowCommands');
  if (conflict.length === 0) return `safety.allowCommands is not true (${trust.source})`;
  const where = trust.from === 'base' && trust.base !== undefined ? ` at base ${describeRevision(trust.base)}` : '';
  return `${conflict.join(' and ')}${where} disagree on safety.allowCommands (config/safety-conflict), so its fail-closed value false is used`;
}

/** The config file a hint tells the user to edit for the dotted power `key`, among those the power keys were read from. */
export function findTrustedConfigFile(trust: ConfigTrust, key: string): string {
  return findConfigFile(trust.files, key);
}

/** How to open the gate's configuration half, naming the config file to edit (the one that sets the key, else the one read). */
export function adviseAllowCommands(trust: ConfigTrust): string {
  const conflict = findSafetyConflict(trust.files, 'allowCommands');
  const isBase = trust.from === 'base';
  if (conflict.length > 0) {
    return `Keep safety.allowCommands in one config file only (${conflict.join(' or ')}), or make them agree${isBase ? ', and commit that to the base branch' : ''}`;
  }
  const file = findTrustedConfigFile(trust, 'safety.allowCommands');
  return `Set safety.allowCommands: true in ${file}${isBase ? ' and commit it to the base branch' : ''} to let checker run the commands its configuration names`;
}

/** The gate record's `config`: where the power keys came from and what the change alters. */
export function toGateConfig(trust: ConfigTrust): {
  from: ConfigTrust['from'];
  base?: { ref: string; oid: string };
  changedByRange: string[];
  file?: string;
} {
  const file = trust.files.length === 0 ? undefined : findTrustedConfigFile(trust, 'checks');
  return {
    from: trust.from,
    ...(trust.base === undefined ? {} : { base: trust.base }),
    changedByRange: trust.changedByRange,
    ...(file === undefined ? {} : { file }),
  };
}

/** One sentence on the gate: open, or which condition is missing, with where the power keys came from. */
function explainTrustedGate(confirmed: boolean, allowCommands: boolean, trust: ConfigTrust, action: GateAction): string {
  if (trust.blocked) {
    return `closed: the change under review alters ${trust.changedByRange.join(', ')} of the checker configuration (config/changed-by-range); nothing was started. Review it and pass --trust-changed-config to run what the change configures, or merge it first`;
  }
  if (confirmed && allowCommands) return `open: execution was requested and safety.allowCommands is true (${trust.source})`;
  if (!allowCommands && !confirmed)
    return `closed: execution was not requested and ${describeCommandsNotAllowed(trust)}; nothing was started`;
  if (!allowCommands) return `closed: ${describeCommandsNotAllowed(trust)}; nothing was started. ${adviseAllowCommands(trust)}`;
  return `closed: execution was not requested; nothing was started. ${ASK_FOR[action]}`;
}

async function openHistory(env: Env): Promise<GitAccess | undefined> {
  try {
    const git = await env.openGit();
    return (await git.headOid()) === undefined ? undefined : git;
  } catch (error) {
    if (isCheckerError(error) && NO_HISTORY.has(error.code)) return undefined;
    throw error;
  }
}

/**
 * The base and its configuration. Without an explicit base, the base is first found without any configured default
 * branch; when that revision's own configuration names one, the base is found again from it. A default branch the
 * change sets never moves the base (it is a power key: it would pick where the rest are read).
 */
async function readBaseConfig(
  env: Env,
  git: GitAccess,
  explicit: string | undefined,
): Promise<{ base: { ref: string; oid: string }; config: LoadedConfigData }> {
  if (explicit !== undefined) {
    const base = await git.resolveBase({ base: explicit });
    return { base, config: await readRevisionConfig(env, git, base, 'base') };
  }
  const detected = await git.resolveBase({});
  const detectedConfig = await readRevisionConfig(env, git, detected, 'base');
  const named = detectedConfig.config.analysis?.defaultBranch;
  if (named === undefined) return { base: detected, config: detectedConfig };
  const base = await git.resolveBase({ defaultBranch: named });
  if (base.oid === detected.oid) return { base, config: detectedConfig };
  return { base, config: await readRevisionConfig(env, git, base, 'base') };
}

async function readRevisionConfig(
  env: Env,
  git: GitAccess,
  revision: { ref: string; oid: string },
  side: 'base' | 'head',
): Promise<LoadedConfigData> {
  const label = `${side} ${describeRevision(revision)}`;
  return loadConfigAtRevision(env, (file) => git.readFileAtRevision(revision.oid, file), label);
}

function describeRevision(revision: { ref: string; oid: string }): string {
  const short = revision.oid.slice(0, 7);
  return revision.ref === revision.oid || revision.ref === short ? short : `${revision.ref} (${short})`;
}

function describeFiles(files: string[], none: string): string {
  return files.length === 0 ? none : files.join(', ');
}

function atBase(diagnostic: Diagnostic, base: { ref: string; oid: string }): Diagnostic {
  return { ...diagnostic, message: `at base ${describeRevision(base)}: ${diagnostic.message}` };
}

function readPath(config: Config, path: string): unknown {
  let value: unknown = config;
  for (const part of path.split('.')) value = isPlainRecord(value) && Object.hasOwn(value, part) ? value[part] : undefined;
  return value;
}

/**
 * The power keys whose values differ between two configurations: for a section of named entries (`checks`,
 * `toolAdapters`, `products`, `safety`) each entry that differs (`checks.unit`, `products.targets`), else the key.
 */
export function diffPowerKeys(base: Config, head: Config): string[] {
  const changed: string[] = [];
  for (const key of POWER_KEYS) {
    const before = readPath(base, key);
    const after = readPath(head, key);
    if (canonical(before) === canonical(after)) continue;
    if (!key.includes('.') && (isPlainRecord(before) || isPlainRecord(after))) {
      const left = isPlainRecord(before) ? before : {};
      const right = isPlainRecord(after) ? after : {};
      const names = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort(compareText);
      for (const name of names) if (canonical(left[name]) !== canonical(right[name])) changed.push(`${key}.${name}`);
      continue;
    }
    changed.push(key);
  }
  return changed.sort(compareText);
}

/** JSON with object keys sorted: equal for equal values whatever order a file wrote them in. */
function canonical(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(value, (_key, item: unknown) =>
    isPlainRecord(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort(compareText)
            .map((name) => [name, item[name]]),
        )
      : item,
  );
}

/** `config` with each power key replaced by its value in `power` (removed where `power` has none). */
function withPowerKeys(env: Env, config: Config, power: Config): Config {
  const result = structuredClone(config) as PlainRecord;
  for (const key of POWER_KEYS) {
    const parts = key.split('.');
    const last = parts.pop() ?? key;
    let target: PlainRecord = result;
    for (const part of parts) {
      const next = target[part];
      if (!isPlainRecord(next)) {
        const created: PlainRecord = {};
        target[part] = created;
        target = created;
      } else target = next;
    }
    const value = readPath(power, key);
    if (value === undefined) delete target[last];
    else target[last] = structuredClone(value);
  }
  for (const section of ['analysis', 'investigation'] as const) {
    const value = result[section];
    if (isPlainRecord(value) && Object.keys(value).length === 0) delete result[section];
  }
  return env.validate<Config>('config', result, { code: 'config/invalid', file: 'merged configuration' });
}
