import type { ChangeSet } from '../../src/model/change.js';
import { CheckerError } from '../../src/model/diagnostic.js';
import type { Env, GitAccess, HistoryEntry } from '../../src/model/env.js';
import { validateOrThrow } from '../../src/io/schema.js';

export interface MemoryGit {
  change?: ChangeSet;
  /** Text per `oid:path`. */
  revisions?: Record<string, string>;
  history?: HistoryEntry[];
  headOid?: string;
  tracked?: string[];
  commitTimes?: Record<string, number>;
}

export interface MemoryEnvOptions {
  root?: string;
  /** Repository files by repository-relative path. */
  files?: Record<string, string>;
  /** File modification times (ms) by path; files without one report `now`. */
  times?: Record<string, number>;
  /** A scripted history; without it, openGit fails like a folder that is not a repository. */
  git?: MemoryGit;
  now?: Date;
}

export interface MemoryEnv extends Env {
  /** Artifacts written under .checker/local, by relative path. */
  readonly artifacts: Map<string, string>;
}

function unsupported(name: string): never {
  throw new CheckerError('internal/memory-env', `memEnv does not implement ${name}; use createNodeEnv for this test`);
}

function createGit(script: MemoryGit): GitAccess {
  return {
    readChange: async () => script.change ?? unsupported('readChange without a scripted change'),
    readFileAtRevision: async (oid, path) => script.revisions?.[`${oid}:${path}`],
    readHistory: async ({ maxCommits }) => (script.history ?? []).slice(0, maxCommits),
    headOid: async () => script.headOid,
    listTrackedFiles: async () => [...(script.tracked ?? [])].sort(),
    commitTime: async (oid) => script.commitTimes?.[oid],
  };
}

/**
 * An Env held in memory: files, a scripted git, a fixed clock and an artifact map; schemas are the real ones.
 * Domain operations that still sit behind Env (config, scan, parsing, packs, coverage, repository docs) are not
 * implemented and throw, so a test that needs them says so.
 */
export function memEnv(options: MemoryEnvOptions = {}): MemoryEnv {
  const files = new Map(Object.entries(options.files ?? {}));
  const artifacts = new Map<string, string>();
  const now = options.now ?? new Date('2026-01-01T00:00:00.000Z');
  const locks = new Map<string, Promise<unknown>>();
  return {
    root: options.root ?? '/memory/repo',
    artifacts,
    now: () => new Date(now.getTime()),
    readRepoText: async (path, maxBytes) => {
      const text = files.get(path);
      return text === undefined || Buffer.byteLength(text) > maxBytes ? undefined : text;
    },
    fileTime: async (path) => (files.has(path) ? (options.times?.[path] ?? now.getTime()) : undefined),
    openGit: async () => {
      if (options.git === undefined)
        throw new CheckerError('git/not-a-repository', `${options.root ?? '/memory/repo'} is not a git repository`);
      return createGit(options.git);
    },
    readArtifact: async (relativePath) => artifacts.get(relativePath),
    writeArtifact: async (relativePath, content, writeOptions) => {
      if (writeOptions?.mode === 'create' && artifacts.has(relativePath)) {
        throw new CheckerError('artifact/exists', `.checker/local/${relativePath} already exists`);
      }
      artifacts.set(relativePath, content);
      return `.checker/local/${relativePath}`;
    },
    withArtifactLock: async (relativePath, fn) => {
      const previous = locks.get(relativePath) ?? Promise.resolve();
      const run = previous.then(fn, fn);
      locks.set(
        relativePath,
        run.catch(() => undefined),
      );
      return run;
    },
    validate: (schemaName, data, validateOptions) => validateOrThrow(schemaName, data, validateOptions),
    loadConfig: async () => unsupported('loadConfig'),
    scan: async () => unsupported('scan'),
    parseSources: async () => unsupported('parseSources'),
    parseTexts: async () => unsupported('parseTexts'),
    readCoverage: async () => unsupported('readCoverage'),
    loadRulePacks: async () => unsupported('loadRulePacks'),
    validateRulePack: async () => unsupported('validateRulePack'),
    readRepoDocs: async () => unsupported('readRepoDocs'),
    close: async () => undefined,
  };
}
