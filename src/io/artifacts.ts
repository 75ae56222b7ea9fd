import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CheckerError } from '../model/diagnostic.js';
import { isPathInside } from './read-repo-file.js';

export const LOCAL_DIR = ['.checker', 'local'] as const;
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\..*)?$/i;
const MAX_PATH_CHARS = 1024;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const GITIGNORE_CONTENT = '*\n';

export type WriteMode = 'replace' | 'create';

function hasErrorCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}

function invalidPath(relativePath: string, reason: string): CheckerError {
  const shown = JSON.stringify(relativePath.length > 80 ? `${relativePath.slice(0, 80)}…` : relativePath);
  return new CheckerError('artifact/invalid-path', `invalid artifact path ${shown}: ${reason}`, {
    hint: 'artifact paths are relative to .checker/local/ and use segments of letters, digits, ".", "_" and "-"',
  });
}

/** Lexical validation of a path relative to `.checker/local/`; returns its segments. Never touches the filesystem. */
export function validateArtifactPath(relativePath: string): string[] {
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
  return segments;
}

async function realRoot(repoRoot: string): Promise<string> {
  try {
    return await realpath(repoRoot);
  } catch (error) {
    throw new CheckerError('artifact/no-repo', `repository folder ${JSON.stringify(repoRoot)} does not exist`, { hint: 'pass an existing --cwd', cause: error });
  }
}

function display(root: string, full: string): string {
  return relative(root, full).split(sep).join('/');
}

async function assertRealDirectory(root: string, dir: string): Promise<void> {
  const info = await lstat(dir);
  if (info.isSymbolicLink()) {
    throw new CheckerError('artifact/symlink', `${display(root, dir)} is a symlink; checker refuses to write through it`, {
      hint: `remove the symlink ${display(root, dir)} so checker can create a real folder`,
    });
  }
  if (!info.isDirectory()) {
    throw new CheckerError('artifact/not-a-directory', `${display(root, dir)} is not a folder`, { hint: `remove or rename ${display(root, dir)}` });
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

async function ensureGitignore(localDir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(join(localDir, '.gitignore'), 'wx', 0o644);
    await writeAll(handle, GITIGNORE_CONTENT);
  } catch (error) {
    if (!hasErrorCode(error, 'EEXIST')) throw error;
  } finally {
    await handle?.close();
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
      if (dir === localDir && created) await ensureGitignore(localDir);
    } else {
      try {
        await assertRealDirectory(root, dir);
      } catch (error) {
        if (hasErrorCode(error, 'ENOENT')) return undefined;
        throw error;
      }
    }
  }
  if (create) await ensureGitignore(localDir);
  const parent = await realpath(current);
  if (!isPathInside(localDir, parent)) {
    throw new CheckerError('artifact/outside', `${relativePath} resolves outside .checker/local/`, { hint: 'remove symlinks under .checker/' });
  }
  return { root, localDir, parent, target: join(parent, segments[segments.length - 1] ?? '') };
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

async function createExclusive(root: string, target: string, content: string | Uint8Array): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(target, 'wx', 0o600);
  } catch (error) {
    if (hasErrorCode(error, 'EEXIST')) {
      throw new CheckerError('artifact/exists', `${display(root, target)} already exists and is never overwritten`, {
        hint: 'choose another id, or remove the existing file if it is no longer needed',
        cause: error,
      });
    }
    throw writeFailed(root, target, error);
  }
  try {
    await writeAll(handle, content);
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(target).catch(() => undefined);
    throw writeFailed(root, target, error);
  }
}

async function replaceAtomically(root: string, target: string, content: string | Uint8Array): Promise<void> {
  const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx', 0o600);
    await writeAll(handle, content);
    await handle.close();
    handle = undefined;
    await rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw writeFailed(root, target, error);
  }
}

/**
 * The one writer for `<repo>/.checker/local/`. `create` never overwrites (`artifact/exists`); `replace` writes a temp
 * file in the same folder and renames it over the target (which replaces a symlink instead of following it).
 * Returns the absolute path written.
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

/** Reads an artifact under `.checker/local/`; undefined when absent. Symlinks anywhere on the path are refused. */
export async function readArtifact(repoRoot: string, relativePath: string): Promise<Buffer | undefined> {
  const resolved = await prepareArtifact(repoRoot, relativePath, false);
  if (resolved === undefined) return undefined;
  const { root, target } = resolved;
  let info;
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
  if (!info.isFile()) throw new CheckerError('artifact/not-a-file', `${display(root, target)} is not a regular file`, { hint: `remove ${display(root, target)}` });
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

/**
 * Resolves `--output`: a relative path lands inside `.checker/local/` (a leading `.checker/local/` is accepted);
 * an absolute path must already lie inside `<repo>/.checker/local/`. Anything else is `output/outside`.
 */
export async function resolveOutputPath(repoRoot: string, outputArg: string): Promise<ResolvedOutput> {
  if (outputArg.length === 0 || outputArg.includes('\0')) throw outsideOutput(outputArg);
  const root = await realRoot(repoRoot);
  const localDirs = [join(root, ...LOCAL_DIR), join(resolve(repoRoot), ...LOCAL_DIR)];
  let relativePath: string;
  if (isAbsolute(outputArg)) {
    const absolute = resolve(outputArg);
    const base = localDirs.find((dir) => isPathInside(dir, absolute) && absolute !== dir);
    if (base === undefined) throw outsideOutput(outputArg);
    relativePath = relative(base, absolute).split(sep).join('/');
  } else {
    if (outputArg.includes('\\')) throw outsideOutput(outputArg);
    const normalised = outputArg.replace(/^(?:\.\/)+/, '').replace(/^\.checker\/local\//, '');
    if (normalised.split('/').some((segment) => segment === '..')) throw outsideOutput(outputArg);
    relativePath = normalised;
  }
  validateArtifactPath(relativePath);
  return { relativePath, absolutePath: join(root, ...LOCAL_DIR, ...relativePath.split('/')) };
}

export interface LockOptions {
  timeoutMs?: number;
  staleMs?: number;
}

async function tryAcquire(lockPath: string, token: string): Promise<boolean> {
  try {
    const handle = await open(lockPath, 'wx', 0o600);
    try {
      await handle.writeFile(token);
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if (hasErrorCode(error, 'EEXIST')) return false;
    throw error;
  }
}

async function removeIfStale(lockPath: string, staleMs: number): Promise<void> {
  try {
    const info = await stat(lockPath);
    if (Date.now() - info.mtimeMs <= staleMs) return;
    // Rename first so two waiters cannot both delete a lock that one of them has just re-created.
    const moved = `${lockPath}.${randomBytes(6).toString('hex')}.stale`;
    await rename(lockPath, moved);
    await unlink(moved);
  } catch (error) {
    if (!hasErrorCode(error, 'ENOENT')) throw error;
  }
}

/**
 * Runs `fn` while holding `<path>.lock` (created with `wx`), for read-modify-write across processes. Waits with
 * backoff up to `timeoutMs` (`artifact/locked`); a lock older than `staleMs` (30 s) is taken over.
 */
export async function withArtifactLock<T>(repoRoot: string, relativePath: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const resolved = await prepareArtifact(repoRoot, `${relativePath}.lock`, true);
  if (resolved === undefined) throw new CheckerError('artifact/write-failed', `cannot prepare ${relativePath}.lock`);
  const lockPath = resolved.target;
  const token = `${process.pid}:${randomBytes(8).toString('hex')}`;
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  while (!(await tryAcquire(lockPath, token))) {
    await removeIfStale(lockPath, staleMs);
    if (Date.now() > deadline) {
      throw new CheckerError('artifact/locked', `${relativePath} is locked by another checker process`, {
        hint: `wait for it to finish, or delete .checker/local/${relativePath}.lock if no checker process is running`,
      });
    }
    await sleep(delay + Math.floor(Math.random() * delay));
    delay = Math.min(delay * 2, 100);
  }
  try {
    return await fn();
  } finally {
    const current = await readFile(lockPath, 'utf8').catch(() => undefined);
    if (current === token) await unlink(lockPath).catch(() => undefined);
  }
}
