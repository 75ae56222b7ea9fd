import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import type { Config } from '../model/config.js';
import { CheckerError, isCheckerError } from '../model/diagnostic.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { redactSecrets } from '../text/redact.js';
import { readRepoFile } from './read-repo-file.js';
import { validateOrThrow } from './schema.js';
import { hasErrorCode } from './has-error-code.js';

/** Highest precedence first. Only these paths at the repository root are read: never `.checker/local/`, env or parents. */
const CONFIG_FILES = ['.checker/config.yml', '.checker/config.yaml', 'checker.config.yml', 'checker.config.yaml'] as const;
const MAX_CONFIG_BYTES = 256 * 1024;

/** Fail-closed value of every `safety.*` gate, used when config files disagree. */
const FAIL_CLOSED_SAFETY: Readonly<Record<string, boolean>> = { allowCommands: false };
/** Dropped while merging; every other key is copied with defineProperty, so no key can reach a prototype. */
const UNSAFE_KEYS = new Set(['__proto__']);

export interface LoadedConfig {
  config: Config;
  /** Repository-relative paths of the files read, highest precedence first. */
  sources: string[];
  diagnostics: Diagnostic[];
}

type PlainRecord = Record<string, unknown>;

function isPlainRecord(value: unknown): value is PlainRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function isPresent(root: string, file: string): Promise<boolean> {
  try {
    await lstat(join(root, file));
    return true;
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT') || hasErrorCode(error, 'ENOTDIR')) return false;
    throw error;
  }
}

function toYamlError(file: string, error: unknown, fallback: string): CheckerError {
  const raw = error instanceof Error ? error.message : fallback;
  // yaml's messages quote the surrounding source lines; keep only the first line so no config value is echoed (H38).
  const headline = redactSecrets(raw.split('\n')[0] ?? fallback).text.replace(/:\s*$/, '');
  const position = readLinePos(error);
  const where = position === undefined ? file : `${file}:${position.line}:${position.col}`;
  return new CheckerError('config/yaml', `${where}: ${headline}`, {
    hint: 'fix the YAML syntax at that position (source lines are not quoted so no secret is printed)',
    location: position === undefined ? { file } : { file, line: position.line, col: position.col },
    cause: error,
  });
}

function readLinePos(error: unknown): { line: number; col: number } | undefined {
  if (typeof error !== 'object' || error === null || !('linePos' in error)) return undefined;
  const linePos: unknown = error.linePos;
  const first: unknown = Array.isArray(linePos) ? linePos[0] : undefined;
  if (!isPlainRecord(first)) return undefined;
  const { line, col } = first;
  return typeof line === 'number' && typeof col === 'number' ? { line, col } : undefined;
}

/** Parses one YAML (or JSON) document with the library's default alias limit and unique keys. */
export function parseConfigText(text: string, file: string): unknown {
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  } catch (error) {
    throw toYamlError(file, error, 'cannot parse YAML');
  }
  const firstError = doc.errors[0];
  if (firstError !== undefined) throw toYamlError(file, firstError, 'invalid YAML');
  try {
    return doc.toJS();
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw new CheckerError('config/yaml', `${file}: alias expansion limit exceeded (excessive YAML aliases)`, {
        hint: 'remove the anchors and aliases; documents that expand aliases excessively are refused',
        location: { file },
        cause: error,
      });
    }
    throw toYamlError(file, error, 'cannot convert YAML');
  }
}

async function readConfigFile(root: string, file: string): Promise<Config> {
  const text = await readRepoFile(root, file, { maxBytes: MAX_CONFIG_BYTES, fatalUtf8: true });
  const data = parseConfigText(text, file);
  const document = data === null || data === undefined ? {} : data;
  return validateOrThrow<Config>('config', document, { code: 'config/invalid', file });
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

function applySafetyGate(merged: PlainRecord, loaded: Array<{ file: string; config: Config }>, diagnostics: Diagnostic[]): void {
  const keys = new Set<string>();
  for (const { config } of loaded) for (const key of Object.keys(config.safety ?? {})) keys.add(key);
  for (const key of [...keys].sort()) {
    const setters = loaded.filter(({ config }) => config.safety !== undefined && Object.hasOwn(config.safety, key));
    const values = new Set(setters.map(({ config }) => JSON.stringify(Reflect.get(config.safety ?? {}, key))));
    if (values.size <= 1) continue;
    const safety = merged.safety;
    if (isPlainRecord(safety)) safety[key] = FAIL_CLOSED_SAFETY[key] ?? false;
    const files = setters.map(({ file }) => file);
    diagnostics.push({
      code: 'config/safety-conflict',
      severity: 'warn',
      message: `${files.join(' and ')} disagree on safety.${key}; using the fail-closed value ${String(FAIL_CLOSED_SAFETY[key] ?? false)}`,
      hint: `set safety.${key} in one config file only, or make the files agree`,
      location: { file: files[0] ?? CONFIG_FILES[0] },
    });
  }
}

function toConfig(value: PlainRecord): Config {
  return validateOrThrow<Config>('config', value, { code: 'config/invalid', file: 'merged configuration' });
}

/**
 * Loads `.checker/config.yml` and `checker.config.yml` (or `.yaml`) from the repository root. Files are merged key by
 * key with `.checker/config.yml` winning, except `safety.*`: files that disagree yield the fail-closed value plus a
 * warning.
 */
export async function loadConfig(root: string): Promise<LoadedConfig> {
  const diagnostics: Diagnostic[] = [];
  const loaded: Array<{ file: string; config: Config }> = [];
  for (const file of CONFIG_FILES) {
    if (!(await isPresent(root, file))) continue;
    try {
      loaded.push({ file, config: await readConfigFile(root, file) });
    } catch (error) {
      if (isCheckerError(error) && error.code.startsWith('input/')) {
        throw new CheckerError(error.code, `config file ${error.message}`, {
          ...(error.hint === undefined ? {} : { hint: error.hint }),
          location: { file },
          cause: error,
        });
      }
      throw error;
    }
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
  return { config: toConfig(merged), sources: loaded.map(({ file }) => file), diagnostics };
}

/** The execution gate: only a schema-validated boolean `true` opens it. */
export function isExecutionAllowed(config: Config): boolean {
  return config.safety?.allowCommands === true;
}
