import { chmodSync, lstatSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { chmod, lstat, readdir, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckerError } from '../model/diagnostic.js';
import type { WorktreeSelection } from '../model/worktree.js';
import { readArtifact, writeArtifact } from './artifacts.js';
import { hasErrorCode } from './has-error-code.js';
import { findLocalFolder } from './local-folders.js';
import { killOrphanedGroups } from './orphan-groups.js';
import { addExitCleanup } from './process-groups.js';
import { getCurrentOwner, isOwnerGone, isThisProcess, type ProcessOwner, toProcessOwner } from './process-owner.js';

/**
 * The folders of `.checker/local/worktrees/` and who owns them. Each worktree has an owner record,
 * `.checker/local/worktree-owners/<name>` (the pid, its start time and thread of the checker run that made it), written
 * before the folder: a later run removes the worktree of a dead owner at once. Kept apart from worktrees.ts, which
 * loads isomorphic-git, because every command run in the repository root sweeps here first.
 */
export const WORKTREES_FOLDER = 'worktrees';
const OWNERS_FOLDER = 'worktree-owners';
const WORKTREE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Worktrees written and not yet removed, by absolute path → their owner record: removed synchronously if checker exits or is interrupted. */
const live = new Map<string, string>();
let removeExitCleanup: (() => void) | undefined;

function assertWorktreeName(name: string): void {
  if (!WORKTREE_NAME.test(name)) throw new CheckerError('internal/worktree-name', `invalid worktree name ${JSON.stringify(name)}`);
}

/**
 * Claims `name` for this thread: writes its owner record, never over another (`worktree/exists` while that owner
 * lives). A record or folder a dead owner left under that name is removed first.
 */
export async function claimWorktree(root: string, name: string): Promise<void> {
  assertWorktreeName(name);
  await sweepAbandonedWorktrees(root);
  const record = `${JSON.stringify({ ...getCurrentOwner(), name, createdAt: new Date().toISOString() })}\n`;
  try {
    await writeArtifact(root, `${OWNERS_FOLDER}/${name}`, record, { mode: 'create' });
  } catch (error) {
    if (!(error instanceof CheckerError) || error.code !== 'artifact/exists') throw error;
    throw new CheckerError('worktree/exists', `.checker/local/worktrees/${name} is in use by a running checker process`, {
      hint: 'Wait for that run to finish; a worktree whose run died is removed by the next run.',
    });
  }
}

/** Removes this thread's owner record of `name` when its folder could not be made. */
export async function releaseWorktreeClaim(root: string, name: string): Promise<void> {
  assertWorktreeName(name);
  const owners = await findLocalFolder(root, OWNERS_FOLDER);
  if (owners !== undefined) await unlinkIfPresent(join(owners, name));
}

/** Marks a claimed worktree's folder as this process's: it is removed synchronously if checker exits or is interrupted. */
export function trackLiveWorktree(root: string, path: string, name: string): void {
  live.set(path, join(root, '.checker', 'local', OWNERS_FOLDER, name));
  removeExitCleanup ??= addExitCleanup(() => {
    for (const [left, record] of live) {
      removeTreeSync(left);
      try {
        unlinkSync(record);
      } catch {}
    }
    live.clear();
  });
}

function untrack(path: string): void {
  live.delete(path);
  if (live.size > 0) return;
  removeExitCleanup?.();
  removeExitCleanup = undefined;
}

/**
 * Removes worktrees by name, or the stale ones: every worktree whose owner record names a dead owner (at once),
 * and, for a worktree without a record (or one another host wrote), whose folder last changed before `olderThanMs`.
 * The folders are removed without following symlinks (`node_modules` is unlinked, its target untouched); a folder a
 * check made read-only is made writable first. Returns the names whose folder was removed.
 */
export async function removeWorktrees(root: string, selection: WorktreeSelection): Promise<string[]> {
  if ('names' in selection) {
    for (const name of selection.names) assertWorktreeName(name);
    return removeNamed(root, selection.names);
  }
  return sweepWorktrees(root, (owner, folderMtimeMs) =>
    owner === undefined ? folderMtimeMs !== undefined && folderMtimeMs < selection.olderThanMs : isOwnerGone(owner) === true,
  );
}

/** Removes at once every worktree whose owner is dead (by its record); those without a record are left to the age sweep. */
export function sweepAbandonedWorktrees(root: string): Promise<string[]> {
  return sweepWorktrees(root, (owner) => owner !== undefined && isOwnerGone(owner) === true);
}

/**
 * Removes the worktrees a thread of this process made: the MCP protocol thread calls it once it has terminated a tool
 * worker, which never ran its own clean-up.
 */
export function removeWorktreesOfThread(root: string, threadId: number): Promise<string[]> {
  return sweepWorktrees(root, (owner) => owner !== undefined && owner.threadId === threadId && isThisProcess(owner));
}

/**
 * Decides for every worktree name (a folder, an owner record, or both) outside this thread's live set whether it goes;
 * `owner` is undefined when there is no readable record (another host's counts as none).
 */
async function sweepWorktrees(
  root: string,
  isStale: (owner: ProcessOwner | undefined, folderMtimeMs: number | undefined) => boolean,
): Promise<string[]> {
  // A dead run's orphaned commands (where they could outlive it) go first: nothing may still write where we remove.
  await killOrphanedGroups(root).catch(() => undefined);
  const [parent, owners] = await Promise.all([findLocalFolder(root, WORKTREES_FOLDER), findLocalFolder(root, OWNERS_FOLDER)]);
  if (parent === undefined && owners === undefined) return [];
  const names = new Set<string>();
  for (const folder of [parent, owners]) {
    if (folder === undefined) continue;
    for (const entry of await readdir(folder)) if (WORKTREE_NAME.test(entry)) names.add(entry);
  }
  const stale: string[] = [];
  for (const name of names) {
    if (parent !== undefined && live.has(join(parent, name))) continue;
    const owner = await readOwner(root, name);
    const info = parent === undefined ? undefined : await lstat(join(parent, name)).catch(() => undefined);
    if (isStale(owner, info?.mtimeMs)) stale.push(name);
  }
  return removeNamed(root, stale);
}

async function readOwner(root: string, name: string): Promise<ProcessOwner | undefined> {
  let text: string | undefined;
  try {
    text = (await readArtifact(root, `${OWNERS_FOLDER}/${name}`))?.toString('utf8');
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    return toProcessOwner(JSON.parse(text));
  } catch {
    return undefined;
  }
}

async function removeNamed(root: string, names: readonly string[]): Promise<string[]> {
  const [parent, owners] = await Promise.all([findLocalFolder(root, WORKTREES_FOLDER), findLocalFolder(root, OWNERS_FOLDER)]);
  const removed: string[] = [];
  for (const name of [...names].sort()) {
    if (parent !== undefined) {
      const full = join(parent, name);
      if ((await lstat(full).catch(() => undefined)) !== undefined) {
        await removeTree(full);
        removed.push(name);
      }
      untrack(full);
    }
    // The record goes after the folder: a run killed in between leaves a record, swept next time, never a folder without one.
    if (owners !== undefined) await unlinkIfPresent(join(owners, name));
  }
  return removed;
}

async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (!hasErrorCode(error, 'ENOENT')) throw error;
  }
}

async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true, maxRetries: 2 });
  } catch (error) {
    if (!hasErrorCode(error, 'EACCES', 'EPERM', 'ENOTEMPTY')) throw error;
    await makeWritable(path);
    await rm(path, { recursive: true, force: true, maxRetries: 2 });
  }
}

/** Gives the owner write and search permission on every folder under `dir` (never following a symlink). */
async function makeWritable(dir: string): Promise<void> {
  const info = await lstat(dir).catch(() => undefined);
  if (info?.isDirectory() !== true) return;
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) await makeWritable(join(dir, entry.name));
  }
}

/** The exit-time removal: synchronous, best effort (the process is ending). */
function removeTreeSync(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    makeWritableSync(path);
    rmSync(path, { recursive: true, force: true });
  }
}

function makeWritableSync(dir: string): void {
  if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) makeWritableSync(join(dir, entry.name));
}
