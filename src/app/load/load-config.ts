import { type Config, CONFIG_FILES, DEFAULT_CONFIG_FILE, type LoadedConfigData, type LoadedConfigFile } from '../../model/config.js';
import { CheckerError, type Diagnostic } from '../../model/diagnostic.js';
import type { Env } from '../../model/env.js';
import { toInputCode } from '../../model/repo-files.js';
import { parseConfigText } from '../../repo-text/config-text.js';

const MAX_CONFIG_BYTES = 256 * 1024;

/** Fail-closed value of every `safety.*` gate, used when config files disagree. */
const FAIL_CLOSED_SAFETY: Readonly<Record<string, boolean>> = { allowCommands: false };
/** Dropped while merging; every other key is copied with defineProperty, so no key can reach a prototype. */
const UNSAFE_KEYS = new Set(['__proto__']);

type PlainRecord = Record<string, unknown>;

function isPlainRecord(value: unknown): value is PlainRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of one config file, or undefined when it is absent: the working tree's, or a revision's. */
type ReadConfigText = (file: string) => Promise<string | undefined>;

/** The working tree's config files, read through the contained reader; a refusal (symlink out, FIFO, too large, not UTF-8) throws `input/*`. */
function readWorkingTreeText(env: Env): ReadConfigText {
  return async (file) => {
    const found = await env.files.stat(file);
    if (!found.ok && found.reason === 'missing') return undefined;
    const read = await env.files.readText(file, { maxBytes: MAX_CONFIG_BYTES });
    if (!read.ok) {
      throw new CheckerError(toInputCode(read.reason), `config file ${read.message}`, { hint: read.hint, location: { file } });
    }
    return read.text;
  };
}

function parseConfigFile(env: Env, text: string, file: string): Config {
  const data = parseConfigText(text, file);
  const document = data === null || data === undefined ? {} : data;
  return env.validate<Config>('config', document, { code: 'config/invalid', file });
}

function mergeInto(target: PlainRecord, source: PlainRecord): void {
  for (const key of Object.keys(source)) {
    if (UNSAFE_KEYS.has(key) || Object.hasOwn(target, key)) {
      const existing = target[key];
      const incoming = source[key];
      if (!UNSAFE_KEYS.has(key) && isPlainRecord(existing) && isPlainRecord(incoming)) mergeInto(existing, incoming);
      continue;
    }
    Object.defineProperty(target, key, { value: cloneValue(source[key]), enumerable: true, writable: true, configurable: true });
  }
}

function cloneValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneValue);
  if (isPlainRecord(value)) {
    const copy: PlainRecord = {};
    mergeInto(copy, value);
    return copy;
  }
  return value;
}

/** Merges configs key by key; earlier (higher-precedence) entries win. */
function mergeConfigs(configs: Config[]): PlainRecord {
  const merged: PlainRecord = {};
  for (const config of configs) mergeInto(merged, { ...config });
  return merged;
}

function applySafetyGate(merged: PlainRecord, loaded: LoadedConfigFile[], diagnostics: Diagnostic[]): void {
  const keys = new Set<string>();
  for (const { config } of loaded) for (const key of Object.keys(config.safety ?? {})) keys.add(key);
  for (const key of [...keys].sort()) {
    const files = findSafetyConflict(loaded, key);
    if (files.length === 0) continue;
    const safety = merged.safety;
    if (isPlainRecord(safety)) safety[key] = FAIL_CLOSED_SAFETY[key] ?? false;
    diagnostics.push({
      code: 'config/safety-conflict',
      severity: 'warn',
      message: `${files.join(' and ')} disagree on safety.${key}; using the fail-closed value ${String(FAIL_CLOSED_SAFETY[key] ?? false)}`,
      hint: `set safety.${key} in one config file only, or make the files agree`,
      location: { file: files[0] ?? DEFAULT_CONFIG_FILE },
    });
  }
}

/** The files that set `safety.<key>` when they disagree on it (highest precedence first); empty when they agree. */
export function findSafetyConflict(files: readonly LoadedConfigFile[], key: string): string[] {
  const setters = files.filter(({ config }) => config.safety !== undefined && Object.hasOwn(config.safety, key));
  const values = new Set(setters.map(({ config }) => JSON.stringify(Reflect.get(config.safety ?? {}, key))));
  return values.size <= 1 ? [] : setters.map(({ file }) => file);
}

/**
 * The config file a hint tells the user to edit for the dotted `key` (`safety.allowCommands`, `products.targets`): the
 * highest-precedence file that sets it, else the first file read, else `.checker/config.yml`. Naming a file that is
 * not read, or one that a lower file contradicts, would make the hint create a second config or a safety conflict.
 */
export function findConfigFile(files: readonly LoadedConfigFile[], key: string): string {
  const setter = files.find(({ config }) => readConfigPath(config, key) !== undefined);
  return setter?.file ?? files[0]?.file ?? DEFAULT_CONFIG_FILE;
}

function readConfigPath(config: Config, key: string): unknown {
  let value: unknown = config;
  for (const part of key.split('.')) value = isPlainRecord(value) && Object.hasOwn(value, part) ? value[part] : undefined;
  return value;
}

function toConfig(env: Env, value: PlainRecord): Config {
  return env.validate<Config>('config', value, { code: 'config/invalid', file: 'merged configuration' });
}

/**
 * Loads `.checker/config.yml` and `checker.config.yml` (or `.yaml`) from the repository root. Files are merged key by
 * key with `.checker/config.yml` winning, except `safety.*`: files that disagree yield the fail-closed value plus a
 * warning. A config file that is present but refused (outside the repository, not a regular file, too large, not
 * UTF-8) throws its `input/*` code. What a command may run is read by loadTrustedConfig (src/app/load/trusted-config.ts).
 */
export function loadConfig(env: Env): Promise<LoadedConfigData> {
  return loadConfigFiles(env, readWorkingTreeText(env));
}

/** The configuration as committed at `oid` (its files read from git objects), merged as loadConfig merges the working tree's. */
export function loadConfigAtRevision(
  env: Env,
  readAt: (path: string) => Promise<string | undefined>,
  label: string,
): Promise<LoadedConfigData> {
  return loadConfigFiles(env, async (file) => {
    const text = await readAt(file);
    if (text !== undefined && text.length > MAX_CONFIG_BYTES) {
      throw new CheckerError('config/too-large', `config file ${file} at ${label} is larger than ${MAX_CONFIG_BYTES} characters`, {
        hint: 'A checker configuration is a few kilobytes; look at what that revision committed there.',
        location: { file },
      });
    }
    return text;
  });
}

async function loadConfigFiles(env: Env, readText: ReadConfigText): Promise<LoadedConfigData> {
  const diagnostics: Diagnostic[] = [];
  const loaded: LoadedConfigFile[] = [];
  for (const file of CONFIG_FILES) {
    const text = await readText(file);
    if (text === undefined) continue;
    loaded.push({ file, config: parseConfigFile(env, text, file) });
  }
  for (const stem of ['.checker/config', 'checker.config']) {
    const both = loaded.filter(({ file }) => file.startsWith(`${stem}.`));
    if (both.length > 1) {
      diagnostics.push({
        code: 'config/duplicate-file',
        severity: 'warn',
        message: `both ${stem}.yml and ${stem}.yaml exist; ${stem}.yml takes precedence`,
        hint: `keep only one of ${stem}.yml and ${stem}.yaml`,
        location: { file: `${stem}.yaml` },
      });
    }
  }
  if (loaded.length === 0) return { config: {}, sources: [], diagnostics };
  const merged = mergeConfigs(loaded.map(({ config }) => config));
  applySafetyGate(merged, loaded, diagnostics);
  return { config: toConfig(env, merged), sources: loaded.map(({ file }) => file), diagnostics, files: loaded };
}

/** The execution gate: only a schema-validated boolean `true` opens it. */
export function isExecutionAllowed(config: Config): boolean {
  return config.safety?.allowCommands === true;
}
