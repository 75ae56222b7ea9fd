import { posix } from 'node:path';
import { readBuiltinPackSources } from '../../src/io/builtin-packs.js';
import { checkSchema, validateOrThrow } from '../../src/io/schema.js';
import type { ChangeSet } from '../../src/model/change.js';
import type { CommandRun, CommandSpec } from '../../src/model/command.js';
import { CheckerError } from '../../src/model/diagnostic.js';
import type { Env, GitAccess, HistoryEntry, UserSettingsSource } from '../../src/model/env.js';
import { dropCutCharacter, refuse, type FileRefusal, type FileStat, type FolderEntry, type RepoFiles } from '../../src/model/repo-files.js';
import { compareText } from '../../src/text/compare-text.js';

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
  /** Repository files by repository-relative path; bytes for a file that is not UTF-8. */
  files?: Record<string, string | Uint8Array>;
  /** Symlinks by repository-relative path: the target, relative to the link's folder or absolute (outside when not under root). */
  links?: Record<string, string>;
  /** Paths that are FIFOs, devices or sockets: present, but never regular files. */
  specials?: string[];
  /** Absolute paths outside the repository that exist on the pretend machine (`files.existsOnHost`). */
  hostPaths?: string[];
  /** File modification times (ms) by path; files without one report `now`. */
  times?: Record<string, number>;
  /** A scripted history; without it, openGit fails like a folder that is not a repository. */
  git?: MemoryGit;
  /**
   * Scripted command results by argv joined with spaces (`'npm test'`); fields left out are a clean, instant exit 0
   * with no output. Without a script, or for an argv it does not hold, runCommand throws.
   */
  runCommand?: Record<string, Partial<CommandRun>>;
  now?: Date;
  /** The user's own settings (user config file text and CHECKER_* variables); default none. */
  userSettings?: UserSettingsSource;
}

export interface MemoryEnv extends Env {
  /** Artifacts written under .checker/local, by relative path. */
  readonly artifacts: Map<string, string>;
  /** Every runCommand call, in order, scripted or not (so a test can assert that nothing was spawned). */
  readonly commands: CommandSpec[];
}

const emptyExcerpt = { head: '', tail: '', bytes: 0, truncated: false };

function scriptedRun(script: Partial<CommandRun>): CommandRun {
  return { exitCode: 0, signal: null, timedOut: false, durationMs: 0, stdout: emptyExcerpt, stderr: emptyExcerpt, ...script };
}

function unsupported(name: string): never {
  throw new CheckerError('internal/memory-env', `memEnv does not implement ${name}; use createNodeEnv for this test`);
}

function createGit(script: MemoryGit): GitAccess {
  return {
    readChange: async () => script.change ?? unsupported('readChange without a scripted change'),
    resolveBase: async () => {
      const base = script.change?.base;
      return base?.oid === undefined ? unsupported('resolveBase without a scripted change base') : { ref: base.ref, oid: base.oid };
    },
    readFileAtRevision: async (oid, path) => script.revisions?.[`${oid}:${path}`],
    readHistory: async ({ maxCommits }) => (script.history ?? []).slice(0, maxCommits),
    // The scripted history as a mined window: no message, nothing excluded.
    mineHistory: async (fromOid, settings) => {
      const commits = (script.history ?? []).slice(0, settings.maxCommits).map((entry) => ({ ...entry, message: '' }));
      return {
        fromOid,
        fromTime: Math.max(0, ...commits.map((commit) => commit.timestamp)),
        settings: { ...settings },
        commits,
        walked: commits.length,
        excluded: { merges: 0, massChanges: 0 },
        stoppedBy: '',
      };
    },
    headOid: async () => script.headOid,
    listTrackedFiles: async () => [...(script.tracked ?? [])].sort(),
    commitTime: async (oid) => script.commitTimes?.[oid],
  };
}

const MAX_LINK_HOPS = 40;

function isInside(path: string): boolean {
  return path !== '..' && !path.startsWith('../') && !posix.isAbsolute(path);
}

/** `env.files` over in-memory maps, with the refusals (and their wording) of the disk edge. */
function createMemoryFiles(root: string, options: MemoryEnvOptions, now: Date): RepoFiles {
  const files = new Map(Object.entries(options.files ?? {}));
  const links = new Map(Object.entries(options.links ?? {}));
  const specials = new Set(options.specials ?? []);
  const allPaths = [...files.keys(), ...links.keys(), ...specials];

  /** The real repository path `path` leads to, following links, or why it cannot. */
  const resolvePath = (path: string): { ok: true; real: string; isSymlink: boolean } | FileRefusal => {
    if (path.includes('\0')) return refuse.invalidPath(path);
    const normal = path === '' ? '.' : posix.normalize(path);
    if (!isInside(normal)) return refuse.outside(path);
    let segments = normal === '.' ? [] : normal.split('/');
    for (let hops = 0, index = 0; index < segments.length; index += 1) {
      const prefix = segments.slice(0, index + 1).join('/');
      const target = links.get(prefix);
      if (target === undefined) continue;
      if (++hops > MAX_LINK_HOPS) return refuse.symlinkLoop(path);
      const joined = posix.isAbsolute(target)
        ? target.startsWith(`${root}/`)
          ? target.slice(root.length + 1)
          : '..'
        : posix.normalize(posix.join(posix.dirname(prefix), target));
      if (!isInside(joined)) return refuse.symlinkOutside(path);
      segments = [...(joined === '.' ? [] : joined.split('/')), ...segments.slice(index + 1)];
      index = -1;
    }
    return { ok: true, real: segments.join('/'), isSymlink: links.has(normal) };
  };

  const isFolder = (real: string): boolean => real === '' || allPaths.some((key) => key.startsWith(`${real}/`));

  const statPath = async (path: string): Promise<FileStat> => {
    const resolved = resolvePath(path);
    if (!resolved.ok) return resolved;
    const content = files.get(resolved.real);
    const mtimeMs = options.times?.[resolved.real] ?? now.getTime();
    const base = { ok: true as const, mtimeMs, isSymlink: resolved.isSymlink };
    if (content !== undefined) return { ...base, kind: 'file', size: Buffer.byteLength(content) };
    if (specials.has(resolved.real)) return { ...base, kind: 'other', size: 0 };
    if (isFolder(resolved.real)) return { ...base, kind: 'directory', size: 0 };
    return refuse.missing(path);
  };

  return {
    stat: statPath,
    readText: async (path, readOptions) => {
      if (path === '') return refuse.invalidPath(path);
      const found = await statPath(path);
      if (!found.ok) return found;
      if (found.kind !== 'file') return refuse.notAFile(path);
      const isCut = readOptions.head === true && found.size > readOptions.maxBytes;
      if (!isCut && found.size > readOptions.maxBytes) return refuse.tooLarge(path, readOptions.maxBytes, found.size);
      const resolved = resolvePath(path);
      const content = resolved.ok ? files.get(resolved.real) : undefined;
      const whole = typeof content === 'string' ? Buffer.from(content) : (content ?? new Uint8Array());
      const bytes = isCut ? dropCutCharacter(whole.subarray(0, readOptions.maxBytes)) : whole;
      try {
        return { ok: true, text: new TextDecoder('utf-8', { fatal: readOptions.invalidUtf8 !== 'replace' }).decode(bytes) };
      } catch {
        return refuse.invalidUtf8(path);
      }
    },
    list: async (path) => {
      const found = await statPath(path);
      if (!found.ok) return found;
      if (found.kind !== 'directory') return refuse.notAFolder(path);
      const resolved = resolvePath(path);
      const real = resolved.ok ? resolved.real : '';
      const prefix = real === '' ? '' : `${real}/`;
      const entries = new Map<string, FolderEntry>();
      for (const key of allPaths) {
        if (!key.startsWith(prefix)) continue;
        const [name = '', ...rest] = key.slice(prefix.length).split('/');
        const kind = rest.length > 0 ? 'directory' : links.has(key) ? 'symlink' : specials.has(key) ? 'other' : 'file';
        if (!entries.has(name) || kind === 'directory') entries.set(name, { name, kind });
      }
      return { ok: true, entries: [...entries.values()].sort((left, right) => compareText(left.name, right.name)) };
    },
    toRepoPath: async (absolutePath) => {
      const normal = posix.normalize(absolutePath);
      if (normal === root) return '';
      return normal.startsWith(`${root}/`) ? normal.slice(root.length + 1) : undefined;
    },
    existsOnHost: async (absolutePath) => (options.hostPaths ?? []).includes(absolutePath),
  };
}

/**
 * An Env held in memory: files (with symlinks and special files), a scripted git, a fixed clock and an artifact map;
 * the host data (built-in packs, schema validators) is the real one. Config, rule packs, repository docs and coverage
 * are core functions over `env.files`, so they run here unchanged. Commands return scripted results and are recorded
 * in `commands`. Scanning and parsing are not implemented and throw, so a test that needs them says so.
 */
export function memEnv(options: MemoryEnvOptions = {}): MemoryEnv {
  const artifacts = new Map<string, string>();
  const now = options.now ?? new Date('2026-01-01T00:00:00.000Z');
  const locks = new Map<string, Promise<unknown>>();
  const root = options.root ?? '/memory/repo';
  const commands: CommandSpec[] = [];
  return {
    root,
    artifacts,
    commands,
    now: () => new Date(now.getTime()),
    reportProgress: () => undefined,
    files: createMemoryFiles(root, options, now),
    builtinPacks: () => readBuiltinPackSources(),
    openGit: async () => {
      if (options.git === undefined) throw new CheckerError('git/not-a-repository', `${root} is not a git repository`);
      return createGit(options.git);
    },
    readUserSettings: async () => options.userSettings ?? { variables: {} },
    readArtifact: async (relativePath) => artifacts.get(relativePath),
    createArtifactFolder: async (relativePath) => `${root}/.checker/local/${relativePath}`,
    writeArtifact: async (relativePath, content, writeOptions) => {
      if (writeOptions?.mode === 'create' && artifacts.has(relativePath)) {
        throw new CheckerError('artifact/exists', `.checker/local/${relativePath} already exists`);
      }
      artifacts.set(relativePath, content);
      return `.checker/local/${relativePath}`;
    },
    writeJsonArtifact: async (relativePath, value) => {
      artifacts.set(relativePath, `${JSON.stringify(value)}\n`);
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
    runCommand: async (spec) => {
      commands.push(spec);
      const script = options.runCommand?.[spec.argv.join(' ')];
      return script === undefined
        ? unsupported(`runCommand for ${JSON.stringify(spec.argv.join(' '))} without a scripted result`)
        : scriptedRun(script);
    },
    startService: async () => unsupported('startService (a service is a real process group)'),
    runCommandOnExit: () => unsupported('runCommandOnExit'),
    httpGet: async () => unsupported('httpGet (no network in memory)'),
    httpRequest: async () => unsupported('httpRequest (no network in memory)'),
    requestChatCompletion: async () => unsupported('requestChatCompletion (no network in memory)'),
    findBrowser: async () => ({ found: false, message: 'memEnv has no browser', hint: 'use createNodeEnv' }),
    validate: (schemaName, data, validateOptions) => validateOrThrow(schemaName, data, validateOptions),
    checkSchema: (schemaName, data) => checkSchema(schemaName, data),
    exploreProduct: async () => unsupported('exploreProduct (it drives a real browser)'),
    createWorktree: async () => unsupported('createWorktree (worktrees are written from real git objects)'),
    removeWorktrees: async () => [],
    scan: async () => unsupported('scan'),
    parseSources: async () => unsupported('parseSources'),
    parseTexts: async () => unsupported('parseTexts'),
    close: async () => undefined,
  };
}
