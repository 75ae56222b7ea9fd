import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, lstat, lutimes, mkdir, open, readdir, realpath, rename, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CheckerError, isCheckerError } from '../model/diagnostic.js';
import { findLocalState } from '../model/local-state.js';
import { isPathInside } from './repo-files.js';
import { hasErrorCode } from './has-error-code.js';

const LOCAL_DIR = ['.checker', 'local'] as const;
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\..*)?$/i;
const MAX_PATH_CHARS = 1024;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const GITIGNORE_CONTENT = '*\n';
/** Temp and broken-lock files are named `<target>.<12 hex>.tmp|.stale`; such names are reserved and swept. */
const STRAY_NAME = /\.[0-9a-f]{12}\.(?:tmp|stale)$/;
/** Strays younger than this may belong to a live writer in another process, so the sweep leaves them. */
export const STRAY_AGE_MS = 60_000;
const SWEEP_MAX_DEPTH = 8;
const MAX_LOCK_BYTES = 4096;
/** `link` fails with these where the filesystem has no hard links (some FUSE, SMB and FAT mounts). */
const LINK_UNSUPPORTED = ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'];

export type WriteMode = 'replace' | 'create';

/** A stale-lock breaker's own lock older than this was left by a process that died while breaking. */
const BREAKER_STALE_MS = 5000;

function ignoreMissing(error: unknown): void {
  if (!hasErrorCode(error, 'ENOENT')) throw error;
}

function toTempPath(target: string, kind: 'tmp'): string {
  return `${target}.${randomBytes(6).toString('hex')}.${kind}`;
}

function invalidPath(relativePath: string, reason: string): CheckerError {
  const shown = JSON.stringify(relativePath.length > 80 ? `${relativePath.slice(0, 80)}…` : relativePath);
  return new CheckerError('artifact/invalid-path', `invalid artifact path ${shown}: ${reason}`, {
    hint: 'artifact paths are relative to .checker/local/ and use segments of letters, digits, ".", "_" and "-"',
  });
}

/** Lexical validation of a path relative to `.checker/local/`; returns its segments. Never touches the filesystem. */
function validateArtifactPath(relativePath: string): string[] {
  if (typeof relativePath !== 'string' || relativePath.length === 0) throw invalidPath(String(relativePath), 'empty');
  if (relativePath.length > MAX_PATH_CHARS) throw invalidPath(relativePath, `longer than ${MAX_PATH_CHARS} characters`);
  if (relativePath.includes('\0')) throw invalidPath(relativePath, 'contains NUL');
  if (relativePath.includes('\\')) throw invalidPath(relativePath, 'contains a backslash');
  if (relativePath.startsWith('/') || isAbsolute(relativePath)) throw invalidPath(relativePath, 'absolute');
  const segments = relativePath.split('/');
  for (const segment of segments) {
    if (segment === '..' || segment === '.') throw invalidPath(relativePath, `"${segment}" segment`);
    if (!SEGMENT.test(segment)) throw invalidPath(relativePath, `segment ${JSON.stringify(segment.slice(0, 40))} is not allowed`);
    if (WINDOWS_RESERVED.test(segment) || segment.endsWith('.')) throw invalidPath(relativePath, `segment "${segment}" is a reserved name`);
  }
  if (STRAY_NAME.test(segments[segments.length - 1] ?? ''))
    throw invalidPath(relativePath, 'names ending in .<12 hex digits>.tmp or .stale are reserved for checker temp files');
  return segments;
}

async function realRoot(repoRoot: string): Promise<string> {
  try {
    return await realpath(repoRoot);
  } catch (error) {
    throw new CheckerError('artifact/no-repo', `repository folder ${JSON.stringify(repoRoot)} does not exist`, {
      hint: 'pass an existing --cwd',
      cause: error,
    });
  }
}

function display(root: string, full: string): string {
  return relative(root, full).split(sep).join('/');
}

/** The artifact path relative to `.checker/local/`, as withArtifactLock names it. */
function toLocalName(root: string, full: string): string {
  return relative(join(root, ...LOCAL_DIR), full)
    .split(sep)
    .join('/');
}

async function assertRealDirectory(root: string, dir: string): Promise<void> {
  const info = await lstat(dir);
  if (info.isSymbolicLink()) {
    throw new CheckerError('artifact/symlink', `${display(root, dir)} is a symlink; checker refuses to write through it`, {
      hint: `remove the symlink ${display(root, dir)} so checker can create a real folder`,
    });
  }
  if (!info.isDirectory()) {
    throw new CheckerError('artifact/not-a-directory', `${display(root, dir)} is not a folder`, {
      hint: `remove or rename ${display(root, dir)}`,
    });
  }
}

/** Creates one folder level (never recursive through unknown links); returns true if it was created now. */
async function ensureDirectory(root: string, dir: string): Promise<boolean> {
  let created = false;
  try {
    await mkdir(dir, { mode: 0o700 });
    created = true;
  } catch (error) {
    if (!hasErrorCode(error, 'EEXIST')) throw writeFailed(root, dir, error);
  }
  await assertRealDirectory(root, dir);
  return created;
}

function writeFailed(root: string, target: string, error: unknown): CheckerError {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unknown';
  return new CheckerError('artifact/write-failed', `cannot write ${display(root, target)} (${code})`, {
    hint: 'check the permissions and free space of .checker/local/',
    cause: error,
  });
}

async function writeAll(handle: FileHandle, content: string | Uint8Array): Promise<void> {
  await handle.writeFile(content);
  await handle.sync();
}

async function ensureGitignore(root: string, localDir: string): Promise<void> {
  const path = join(localDir, '.gitignore');
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'wx', 0o644);
    await writeAll(handle, GITIGNORE_CONTENT);
  } catch (error) {
    if (hasErrorCode(error, 'EEXIST')) return;
    // A half-written .gitignore would stop the next run from writing it again.
    if (handle !== undefined) await unlink(path).catch(() => undefined);
    throw writeFailed(root, path, error);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

interface ResolvedArtifact {
  root: string;
  localDir: string;
  parent: string;
  target: string;
}

/** Creates `.checker/local/<dirs>` one level at a time, refusing symlinks, and checks containment by realpath. */
async function prepareArtifact(repoRoot: string, relativePath: string, create: boolean): Promise<ResolvedArtifact | undefined> {
  const segments = validateArtifactPath(relativePath);
  const root = await realRoot(repoRoot);
  const localDir = join(root, ...LOCAL_DIR);
  const dirs = [join(root, LOCAL_DIR[0]), localDir];
  let current = localDir;
  for (const segment of segments.slice(0, -1)) {
    current = join(current, segment);
    dirs.push(current);
  }
  for (const dir of dirs) {
    if (create) {
      const created = await ensureDirectory(root, dir);
      if (dir === localDir && created) await ensureGitignore(root, localDir);
    } else {
      try {
        await assertRealDirectory(root, dir);
      } catch (error) {
        if (hasErrorCode(error, 'ENOENT')) return undefined;
        throw error;
      }
    }
  }
  if (create) await ensureGitignore(root, localDir);
  const parent = await realpath(current);
  if (!isPathInside(localDir, parent)) {
    throw new CheckerError('artifact/outside', `${relativePath} resolves outside .checker/local/`, {
      hint: 'remove symlinks under .checker/',
    });
  }
  if (create) await sweepOnce(localDir);
  return { root, localDir, parent, target: join(parent, segments[segments.length - 1] ?? '') };
}

const sweeps = new Map<string, Promise<void>>();

/**
 * Once per process and repository, before the first write: removes temp files (`*.<hex>.tmp`) and the moved-away
 * locks of older builds (`*.<hex>.stale`) that a killed writer left under `.checker/local/`. Only files older than STRAY_AGE_MS go, so a
 * concurrent writer's live temp file is left alone. Never follows symlinks.
 */
function sweepOnce(localDir: string): Promise<void> {
  let sweep = sweeps.get(localDir);
  if (sweep === undefined) {
    sweep = removeStrayFiles(localDir, Date.now() - STRAY_AGE_MS, 0);
    sweeps.set(localDir, sweep);
  }
  return sweep;
}

/** Best effort: a leftover that cannot be listed or removed now is tried again by the next process. */
async function removeStrayFiles(dir: string, olderThanMs: number, depth: number): Promise<void> {
  if (depth > SWEEP_MAX_DEPTH) return;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) await removeStrayFiles(full, olderThanMs, depth + 1);
    else if (entry.isFile() && STRAY_NAME.test(entry.name)) {
      const info = await lstat(full).catch(() => undefined);
      if (info?.isFile() === true && info.mtimeMs < olderThanMs) await unlink(full).catch(() => undefined);
    }
  }
}

const writeQueues = new Map<string, Promise<unknown>>();

/** Serialises writes to one path within this process, as write-file-atomic does. */
function enqueue<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = writeQueues.get(key) ?? Promise.resolve();
  const next = previous.then(task, task);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  writeQueues.set(key, settled);
  void settled.then(() => {
    if (writeQueues.get(key) === settled) writeQueues.delete(key);
  });
  return next;
}

/** Writes `content` to a new temp file next to `target` (`wx`, 0600, fsync); removes it again on any failure. */
async function writeTemp(target: string, content: string | Uint8Array, options: { sync: boolean }): Promise<string> {
  const temp = toTempPath(target, 'tmp');
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx', 0o600);
    await handle.writeFile(content);
    if (options.sync) await handle.sync();
    await handle.close();
    return temp;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

function artifactExists(root: string, target: string, error: unknown): CheckerError {
  return new CheckerError('artifact/exists', `${display(root, target)} already exists and is never overwritten`, {
    hint: 'choose another id, or remove the existing file if it is no longer needed',
    cause: error,
  });
}

/**
 * Never-overwrite create that a kill at any instruction leaves complete or absent: the content goes to a fsynced temp
 * file first, and `link(temp, target)` publishes it; `link` fails with EEXIST on any existing target (a dangling
 * symlink included, which it does not follow). Where the filesystem has no hard links, see renameIfAbsent.
 */
async function createExclusive(root: string, target: string, content: string | Uint8Array): Promise<void> {
  let temp: string;
  try {
    temp = await writeTemp(target, content, { sync: true });
  } catch (error) {
    throw writeFailed(root, target, error);
  }
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await link(temp, target);
        return;
      } catch (error) {
        if (hasErrorCode(error, 'EEXIST')) {
          if (attempt === 0 && (await removeEmptyLeftover(root, target))) continue;
          throw artifactExists(root, target, error);
        }
        if (!hasErrorCode(error, ...LINK_UNSUPPORTED)) throw writeFailed(root, target, error);
        await renameIfAbsent(root, target, temp);
        return;
      }
    }
  } finally {
    // After `link` the temp file is a second name of the target; a temp this cannot remove is swept later.
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * Fallback for filesystems without hard links: under `<target>.lock`, rename the complete temp file onto the target
 * only if nothing is there. Still complete-or-absent; exclusive among checker processes (they all take the lock), but
 * a file another program creates between the check and the rename would be replaced.
 */
async function renameIfAbsent(root: string, target: string, temp: string): Promise<void> {
  await withLockFile(
    `${target}.lock`,
    async () => {
      await removeEmptyLeftover(root, target, { locked: true });
      const existing = await lstat(target).catch((error: unknown) => ignoreMissing(error));
      if (existing !== undefined) throw artifactExists(root, target, undefined);
      try {
        await rename(temp, target);
      } catch (error) {
        throw writeFailed(root, target, error);
      }
    },
    { ...DEFAULT_LOCK, name: toLocalName(root, target) },
  );
}

/**
 * Versions before the link-based create opened the target with `wx` and then wrote, so a kill left a 0-byte file that
 * blocked its id for good. Such a file is no artifact (every checker artifact has content), so once it is older than
 * STRAY_AGE_MS (no writer can still be filling it) it is removed under the target's lock. Returns true if removed.
 */
async function removeEmptyLeftover(root: string, target: string, options: { locked?: boolean } = {}): Promise<boolean> {
  const isLeftover = async (): Promise<boolean> => {
    const info = await lstat(target).catch(() => undefined);
    return info?.isFile() === true && info.size === 0 && Date.now() - info.mtimeMs > STRAY_AGE_MS;
  };
  if (!(await isLeftover())) return false;
  const remove = async (): Promise<boolean> => {
    if (!(await isLeftover())) return false;
    await unlink(target).catch(ignoreMissing);
    return true;
  };
  return options.locked === true ? remove() : withLockFile(`${target}.lock`, remove, { ...DEFAULT_LOCK, name: toLocalName(root, target) });
}

async function replaceAtomically(root: string, target: string, content: string | Uint8Array): Promise<void> {
  let temp: string | undefined;
  try {
    temp = await writeTemp(target, content, { sync: true });
    await rename(temp, target);
  } catch (error) {
    if (temp !== undefined) await unlink(temp).catch(() => undefined);
    throw writeFailed(root, target, error);
  }
}

/**
 * Not write-file-atomic or proper-lockfile (evaluated for issue 12): write-file-atomic realpaths its target and so writes
 * through a symlink planted in `.checker/local/`, has no never-overwrite create, and names its temp files so the stray
 * sweep cannot tell them apart; proper-lockfile (a `mkdir` lock aged by mtime) records no holder, so a SIGKILLed holder
 * blocks every waiter for its whole stale time (at least 2 s, 10 s by default) and `artifact/locked` cannot name it.
 *
 * The one writer for `<repo>/.checker/local/`. `create` never overwrites (`artifact/exists`) and publishes a complete
 * file or nothing (temp file + `link`); `replace` writes a temp file in the same folder and renames it over the target
 * (which replaces a symlink instead of following it). Returns the absolute path written.
 */
export async function writeArtifact(
  repoRoot: string,
  relativePath: string,
  content: string | Uint8Array,
  options: { mode?: WriteMode } = {},
): Promise<string> {
  const resolved = await prepareArtifact(repoRoot, relativePath, true);
  if (resolved === undefined) throw new CheckerError('artifact/write-failed', `cannot prepare ${relativePath}`);
  const { root, target } = resolved;
  return enqueue(target, async () => {
    if (options.mode === 'create') await createExclusive(root, target, content);
    else await replaceAtomically(root, target, content);
    return target;
  });
}

/**
 * Creates a folder under `.checker/local/` (and its parents) for a program checker runs to write into, such as
 * NODE_V8_COVERAGE; returns its absolute path. The same checks as writeArtifact: no symlinked segment, inside the folder.
 */
export async function createArtifactFolder(repoRoot: string, relativePath: string): Promise<string> {
  const resolved = await prepareArtifact(repoRoot, relativePath, true);
  if (resolved === undefined) throw new CheckerError('artifact/write-failed', `cannot prepare ${relativePath}`);
  await ensureDirectory(resolved.root, resolved.target);
  return resolved.target;
}

/** Reads an artifact under `.checker/local/`; undefined when absent. Symlinks anywhere on the path are refused. */
export async function readArtifact(repoRoot: string, relativePath: string): Promise<Buffer | undefined> {
  const resolved = await prepareArtifact(repoRoot, relativePath, false);
  if (resolved === undefined) return undefined;
  const { root, target } = resolved;
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(target);
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT')) return undefined;
    throw error;
  }
  if (info.isSymbolicLink()) {
    throw new CheckerError('artifact/symlink', `${display(root, target)} is a symlink; checker refuses to read through it`, {
      hint: `remove the symlink ${display(root, target)}`,
    });
  }
  if (!info.isFile())
    throw new CheckerError('artifact/not-a-file', `${display(root, target)} is not a regular file`, {
      hint: `remove ${display(root, target)}`,
    });
  const handle = await open(target, constants.O_RDONLY | NOFOLLOW);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

export interface ResolvedOutput {
  /** Path relative to `.checker/local/`, ready for writeArtifact. */
  relativePath: string;
  absolutePath: string;
}

function outsideOutput(outputArg: string): CheckerError {
  return new CheckerError('output/outside', `--output ${JSON.stringify(outputArg)} is outside .checker/local/`, {
    hint: 'write to stdout and use shell redirection instead (checker … > file)',
  });
}

/** The real path `absolute` names: realpath of its deepest existing ancestor plus the segments not created yet. */
async function toRealPath(absolute: string): Promise<string | undefined> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return join(await realpath(current), ...missing);
    } catch (error) {
      if (!hasErrorCode(error, 'ENOENT', 'ENOTDIR')) return undefined;
      const parent = dirname(current);
      if (parent === current) return undefined;
      missing.unshift(basename(current));
      current = parent;
    }
  }
}

/**
 * Resolves `--output`: a relative path lands inside `.checker/local/` (a leading `.checker/local/` is accepted);
 * an absolute path must really lie inside `<repo>/.checker/local/` once symlinks are resolved, so a path through a
 * symlinked `--cwd` is accepted and a path through a symlink that points outside is not. Anything else is
 * `output/outside`. A path onto checker's own state (sessions, run records, caches, locks: CHECKER_LOCAL_STATE) is
 * `output/reserved`: `--output` writes by replacing, and a report must never replace what checker reads back.
 */
export async function resolveOutputPath(repoRoot: string, outputArg: string): Promise<ResolvedOutput> {
  if (outputArg.length === 0 || outputArg.includes('\0')) throw outsideOutput(outputArg);
  const root = await realRoot(repoRoot);
  const localDir = join(root, ...LOCAL_DIR);
  let relativePath: string;
  if (isAbsolute(outputArg)) {
    const real = await toRealPath(resolve(outputArg));
    if (real === undefined || real === localDir || !isPathInside(localDir, real)) throw outsideOutput(outputArg);
    relativePath = relative(localDir, real).split(sep).join('/');
  } else {
    if (outputArg.includes('\\')) throw outsideOutput(outputArg);
    const normalised = outputArg.replace(/^(?:\.\/)+/, '').replace(/^\.checker\/local\//, '');
    if (normalised.split('/').some((segment) => segment === '..')) throw outsideOutput(outputArg);
    relativePath = normalised;
  }
  validateArtifactPath(relativePath);
  const owned = findLocalState(relativePath);
  if (owned !== undefined) {
    throw new CheckerError(
      'output/reserved',
      `--output ${JSON.stringify(outputArg)} would replace checker's own state: .checker/local/${owned.path} holds ${owned.what}`,
      {
        hint: 'name a file outside that state, e.g. --output reports/<name>.md, or write to stdout and use shell redirection (checker … > file)',
      },
    );
  }
  return { relativePath, absolutePath: join(localDir, ...relativePath.split('/')) };
}

export interface LockOptions {
  timeoutMs?: number;
  staleMs?: number;
}

const DEFAULT_LOCK: Required<LockOptions> = { timeoutMs: 10_000, staleMs: 30_000 };

/** What a lock file holds: enough for a waiter to tell whether its holder is still running. */
interface LockOwner {
  pid: number;
  hostname: string;
  startedAt: string;
  token: string;
}

function toLockOwner(text: string | undefined): LockOwner | undefined {
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (
    typeof data !== 'object' ||
    data === null ||
    !('pid' in data) ||
    !('hostname' in data) ||
    !('startedAt' in data) ||
    !('token' in data)
  )
    return undefined;
  const { pid, hostname: host, startedAt, token } = data;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  if (typeof host !== 'string' || typeof startedAt !== 'string' || typeof token !== 'string') return undefined;
  return { pid, hostname: host, startedAt, token };
}

/** `kill(pid, 0)` sends nothing; ESRCH means no such process. EPERM means it exists under another user. */
function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return !hasErrorCode(error, 'ESRCH');
  }
}

/** A lock file's text, or undefined when it is absent, not a regular file, or too large to be a lock. */
async function readLockText(path: string): Promise<string | undefined> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined || !info.isFile() || info.size > MAX_LOCK_BYTES) return undefined;
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
    return await handle.readFile('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Publishes the lock complete or not at all (temp + `link`); `wx` + write where the filesystem has no hard links. */
async function tryAcquire(lockPath: string, body: string): Promise<boolean> {
  const temp = await writeTemp(lockPath, body, { sync: false });
  try {
    await link(temp, lockPath);
    return true;
  } catch (error) {
    if (hasErrorCode(error, 'EEXIST')) return false;
    if (!hasErrorCode(error, ...LINK_UNSUPPORTED)) throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  let handle: FileHandle | undefined;
  try {
    handle = await open(lockPath, 'wx', 0o600);
    await handle.writeFile(body);
    return true;
  } catch (error) {
    if (hasErrorCode(error, 'EEXIST')) return false;
    throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * Breaks the lock if its holder is gone: a holder on this host whose pid no longer runs is gone at once; any other
 * lock (another host's, an unreadable one, a reused pid) only once its mtime is older than `staleMs`, which live
 * holders keep fresh.
 */
async function breakIfAbandoned(lockPath: string, staleMs: number): Promise<void> {
  const info = await lstat(lockPath).catch(() => undefined);
  if (info === undefined) return;
  const text = await readLockText(lockPath);
  const owner = toLockOwner(text);
  const isDead = owner !== undefined && owner.hostname === hostname() && !isProcessAlive(owner.pid);
  if (!isDead && Date.now() - info.mtimeMs <= staleMs) return;
  // One breaker at a time. Renaming the judged lock away, as waiters did before, could move a live holder's lock when
  // another waiter had broken the judged one and a third had taken it in between (two holders at once, seen with six
  // waiters on one dead lock). Holding `<lock>.break`, a breaker removes the lock only while it still reads as judged:
  // no other breaker can replace it meanwhile, and no holder can take a lock that is still there.
  const breakerPath = `${lockPath}.break`;
  const breaker = `${JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString(), token: randomBytes(8).toString('hex') })}\n`;
  if (!(await tryAcquire(breakerPath, breaker))) {
    // A breaker holds it for a few system calls; one left by a process that died mid-break goes once it is stale.
    const held = await lstat(breakerPath).catch(() => undefined);
    // Not a file (a folder put there): left alone, and the waiter's timeout names it.
    if (held?.isDirectory() === false && Date.now() - held.mtimeMs > BREAKER_STALE_MS) await unlink(breakerPath).catch(ignoreMissing);
    return;
  }
  try {
    if ((await readLockText(lockPath)) === text) await unlink(lockPath).catch(ignoreMissing);
  } finally {
    if ((await readLockText(breakerPath)) === breaker) await unlink(breakerPath).catch(ignoreMissing);
  }
}

/**
 * One step of taking a lock. A lock file is written like any artifact, so a full disk or a read-only folder fails
 * here, before the locked work ran and before anything was changed: `artifact/write-failed` naming the lock, not a
 * bare system error.
 */
async function explainLockFailure<T>(name: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (isCheckerError(error)) throw error;
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unknown';
    throw new CheckerError('artifact/write-failed', `cannot write .checker/local/${name}.lock (${code}); nothing was changed`, {
      hint: 'check the permissions and free space of .checker/local/, then run the command again',
      cause: error,
    });
  }
}

/** Runs `fn` while holding the lock file `lockPath`; see withArtifactLock. */
async function withLockFile<T>(lockPath: string, fn: () => Promise<T>, options: Required<LockOptions> & { name: string }): Promise<T> {
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  const body = `${JSON.stringify(owner)}\n`;
  const deadline = Date.now() + options.timeoutMs;
  let delay = 5;
  const acquire = (): Promise<boolean> => explainLockFailure(options.name, () => tryAcquire(lockPath, body));
  while (!(await acquire())) {
    await explainLockFailure(options.name, () => breakIfAbandoned(lockPath, options.staleMs));
    if (await acquire()) break;
    if (Date.now() > deadline) {
      throw new CheckerError('artifact/locked', `${options.name} is locked by another checker process`, {
        hint: `wait for it to finish, or delete .checker/local/${options.name}.lock (and ${options.name}.lock.break, if there is one) if no checker process is running`,
      });
    }
    await sleep(delay + Math.floor(Math.random() * delay));
    delay = Math.min(delay * 2, 100);
  }
  // A live holder keeps its lock's mtime fresh, so only a dead or hung holder's lock ever looks stale.
  const heartbeat = setInterval(
    () => {
      const now = new Date();
      lutimes(lockPath, now, now).catch(() => undefined);
    },
    Math.max(10, Math.floor(options.staleMs / 3)),
  );
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    if ((await readLockText(lockPath)) === body) await unlink(lockPath).catch(ignoreMissing);
  }
}

/**
 * Runs `fn` while holding `<path>.lock`, for read-modify-write across processes. The lock file is published whole
 * (temp + `link`) and names its holder (pid, hostname, start time, token). A waiter retries with backoff up to
 * `timeoutMs` (10 s, then `artifact/locked`); it breaks the lock at once when the holder was on this host and its pid
 * is gone (killed), and otherwise when the lock has not been refreshed for `staleMs` (30 s).
 */
export async function withArtifactLock<T>(
  repoRoot: string,
  relativePath: string,
  fn: () => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const resolved = await prepareArtifact(repoRoot, `${relativePath}.lock`, true);
  if (resolved === undefined) throw new CheckerError('artifact/write-failed', `cannot prepare ${relativePath}.lock`);
  return withLockFile(resolved.target, fn, {
    timeoutMs: options.timeoutMs ?? DEFAULT_LOCK.timeoutMs,
    staleMs: options.staleMs ?? DEFAULT_LOCK.staleMs,
    name: relativePath,
  });
}
