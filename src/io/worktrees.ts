import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, stat, symlink, unlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import git from 'isomorphic-git';
import { CheckerError } from '../model/diagnostic.js';
import type { Worktree, WorktreeRequest } from '../model/worktree.js';
import { createArtifactFolder } from './artifacts.js';
import type { GitRepository } from './git-repository.js';
import { readCommitTree } from './git-tree.js';
import { hasErrorCode } from './has-error-code.js';
import { isPathInside } from './repo-files.js';
import { claimWorktree, releaseWorktreeClaim, removeWorktrees, trackLiveWorktree, WORKTREES_FOLDER } from './worktree-folders.js';

export { removeWorktrees };

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

class CapReached extends Error {}

/** A tree entry name git itself would refuse to check out: empty, `.`, `..`, `.git`, or with a slash or NUL. */
function isUnsafeName(name: string): boolean {
  return name === '' || name === '.' || name === '..' || name.toLowerCase() === '.git' || /[/\\\0]/.test(name);
}

/** Whether a symlink at `path` (worktree-relative) pointing at `target` stays inside the worktree, lexically. */
function isTargetInside(path: string, target: string): boolean {
  if (target === '' || target.includes('\0') || posix.isAbsolute(target) || target.includes('\\')) return false;
  const joined = posix.normalize(posix.join(posix.dirname(path), target));
  return joined !== '..' && !joined.startsWith('../');
}

interface WriteState {
  request: WorktreeRequest;
  files: number;
  bytes: number;
  skipped: Worktree['skipped'];
  links: { path: string; target: string }[];
  blobs: { path: string; oid: string; mode: string }[];
}

/** Blobs read and written at once: isomorphic-git and the disk overlap, about 3x faster than one by one. */
const WRITE_CONCURRENCY = 16;

/** Every worker stops at the first failure and all have settled before it is thrown, so nothing writes after removal starts. */
async function writeBlobs(repo: GitRepository, dir: string, state: WriteState): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < state.blobs.length) {
      const blob = state.blobs[next];
      next += 1;
      if (blob === undefined) continue;
      try {
        await writeBlob(repo, dir, blob.path, blob.oid, blob.mode, state);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, worker));
  if (failure !== undefined) throw failure.error;
}

async function writeBlob(repo: GitRepository, dir: string, path: string, oid: string, mode: string, state: WriteState): Promise<void> {
  const { blob } = await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache });
  if (state.bytes + blob.byteLength > state.request.maxBytes) throw new CapReached(`more than ${state.request.maxBytes} bytes`);
  state.bytes += blob.byteLength;
  const handle = await open(join(dir, path), WRITE_FLAGS, mode === '100755' ? 0o755 : 0o644);
  try {
    await handle.writeFile(blob);
  } finally {
    await handle.close();
  }
  state.files += 1;
}

/** Writes the folders of tree `oid` at `prefix` (worktree-relative) into `dir`; files and symlinks are collected for later. */
async function writeTree(repo: GitRepository, dir: string, oid: string, prefix: string, state: WriteState): Promise<void> {
  const { tree } = await git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache });
  for (const entry of tree) {
    const path = prefix === '' ? entry.path : `${prefix}/${entry.path}`;
    if (isUnsafeName(entry.path)) {
      state.skipped.push({ path, reason: 'a name git would not check out' });
      continue;
    }
    if (entry.mode === '040000') {
      await mkdir(join(dir, path), { mode: 0o755 });
      await writeTree(repo, dir, entry.oid, path, state);
    } else if (entry.mode === '160000') {
      state.skipped.push({ path, reason: 'a submodule (gitlink): its commit is not checked out' });
    } else if (entry.mode === '120000') {
      const { blob } = await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid: entry.oid, cache: repo.cache });
      state.links.push({ path, target: Buffer.from(blob).toString('utf8') });
    } else {
      if (state.blobs.length + 1 > state.request.maxFiles) throw new CapReached(`more than ${state.request.maxFiles} files`);
      state.blobs.push({ path, oid: entry.oid, mode: entry.mode });
    }
  }
}

/**
 * Writes `request.commit`'s tree into a new `.checker/local/worktrees/<name>/`: files with their executable bit,
 * symlinks only when their target stays inside the worktree (written last, so no write goes through one), and
 * `node_modules` linked to the repository's own when it has one. Submodules, unsafe names and symlinks leading out are
 * skipped and listed; past the caps writing stops and `incomplete` says so. An owner record (this process) is written
 * first, so a later run removes the folder at once if this one dies; the folder is removed on exit or interrupt until
 * removeWorktrees removes it.
 */
export async function createWorktree(repo: GitRepository, root: string, request: WorktreeRequest): Promise<Worktree> {
  await claimWorktree(root, request.name);
  const parent = await createArtifactFolder(root, WORKTREES_FOLDER);
  const path = join(parent, request.name);
  try {
    await mkdir(path, { mode: 0o700 });
  } catch (error) {
    if (!hasErrorCode(error, 'EEXIST')) throw error;
    // A folder without a live owner's record (an older checker's): it is left alone, and so is the name.
    await releaseWorktreeClaim(root, request.name);
    throw new CheckerError('worktree/exists', `.checker/local/worktrees/${request.name} already exists`, {
      hint: 'A run of an older checker left it: it is removed after an hour, or remove it by hand.',
    });
  }
  trackLiveWorktree(root, path, request.name);
  const state: WriteState = { request, files: 0, bytes: 0, skipped: [], links: [], blobs: [] };
  let incomplete: string | undefined;
  try {
    // The bounded commit reader: a commit with a 50 MB message must not be inflated whole to find its tree.
    await writeTree(repo, path, await readCommitTree(repo, request.commit), '', state);
    await writeBlobs(repo, path, state);
  } catch (error) {
    if (!(error instanceof CapReached)) throw error;
    incomplete = `the tree of ${request.commit.slice(0, 12)} has ${error.message}; writing stopped at ${state.files} files (${state.bytes} bytes)`;
  }
  if (incomplete === undefined) {
    for (const link of state.links) {
      if (!isTargetInside(link.path, link.target)) {
        state.skipped.push({ path: link.path, reason: `a symlink to ${JSON.stringify(link.target.slice(0, 200))}, outside the worktree` });
        continue;
      }
      await symlink(link.target, join(path, link.path));
    }
    await dropEscapingLinks(path, state);
  }
  const linkedNodeModules = incomplete === undefined && (await linkNodeModules(root, path, state));
  return {
    name: request.name,
    path,
    files: state.files,
    bytes: state.bytes,
    skipped: state.skipped,
    ...(incomplete === undefined ? {} : { incomplete }),
    linkedNodeModules,
  };
}

/**
 * Lexically inside is not enough: `a -> b/..` where `b -> .` ends outside. Every link written is resolved, and one
 * that is dangling or lands outside the worktree is removed again (a dangling one could create a file outside).
 */
async function dropEscapingLinks(path: string, state: WriteState): Promise<void> {
  const realWorktree = await realpath(path);
  const written = state.links.filter((link) => !state.skipped.some((item) => item.path === link.path));
  for (const link of written) {
    const full = join(path, link.path);
    const real = await realpath(full).catch(() => undefined);
    if (real !== undefined && isPathInside(realWorktree, real)) continue;
    await unlink(full);
    state.skipped.push({
      path: link.path,
      reason: `a symlink to ${JSON.stringify(link.target.slice(0, 200))}, which ${real === undefined ? 'leads nowhere' : 'resolves outside the worktree'}`,
    });
  }
}

/** `<worktree>/node_modules` → the repository's `node_modules` (the same folder, shared), unless the tree has its own. */
async function linkNodeModules(root: string, path: string, state: WriteState): Promise<boolean> {
  const source = join(root, 'node_modules');
  const found = await stat(source).catch(() => undefined);
  if (found?.isDirectory() !== true) return false;
  if (state.links.some((link) => link.path === 'node_modules')) return false;
  const existing = await lstat(join(path, 'node_modules')).catch(() => undefined);
  if (existing !== undefined) return false;
  await symlink(source, join(path, 'node_modules'), 'dir');
  return true;
}
