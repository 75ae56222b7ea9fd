import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord } from '../text/is-record.js';
import { createArtifactFolder, readArtifact } from './artifacts.js';
import { hasErrorCode } from './has-error-code.js';
import { findLocalFolder } from './local-folders.js';
import { signalGroup } from './process-groups.js';
import { getCurrentOwner, isOwnerGone, type ProcessOwner, readProcessStartTicks, toProcessOwner } from './process-owner.js';

/**
 * The fallback for commands that do not die with checker (no pid namespace, or no setpriv to tie one to checker's
 * life): while one runs, `.checker/local/process-groups/<pgid>` records its group, its leader's start time and the
 * checker process that owns it. A checker killed with SIGKILL cannot kill the group; the next run in the repository
 * does, once it sees the owner dead and the same leader still running (same pid and start time: never a reused pid).
 * A group whose leader has already exited is left alone, since its pgid can no longer be told apart from a new one.
 */
const FOLDER = 'process-groups';
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The variable a recorded command's environment carries: the token of its pending record. */
const TOKEN_VARIABLE = 'CHECKER_GROUP_TOKEN';

/** A group about to be started: its pending record is written, its token goes into the command's environment. */
export interface PendingGroup {
  env: Record<string, string>;
  /** Records `pgid` as this process's (and drops the pending record); returns its removal. Never throws. */
  record(pgid: number): () => void;
  /** The command did not start: the pending record goes. */
  cancel(): void;
}

/** Writes group records: `prepare` before spawning, then `record` right after, both synchronous. */
export interface GroupRecorder {
  /**
   * Writes a pending record (a random token and this process as owner) before the command is spawned. A checker killed
   * between the spawn and `record` (a millisecond, on a loaded machine) still leaves the group findable: the next run
   * finds the processes whose environment carries the token. Never throws: a record is a fallback, never the run's business.
   */
  prepare(): PendingGroup;
}

/** Written whole under a name the next run ignores, then renamed: a checker killed mid-write leaves no half record. */
function writeRecordFile(folder: string, name: string, value: unknown): boolean {
  const partial = join(folder, `.${name}.partial`);
  try {
    // O_NOFOLLOW: a link planted under that name is not written through.
    const fd = openSync(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW, 0o600);
    try {
      writeSync(fd, `${JSON.stringify(value)}\n`);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, join(folder, name));
    return true;
  } catch {
    return false;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}

/** Creates the records folder (refusing a symlinked segment) for commands that would outlive a checker killed with SIGKILL. */
export async function openGroupRecorder(root: string): Promise<GroupRecorder> {
  const folder = await createArtifactFolder(root, FOLDER);
  return {
    prepare() {
      const token = randomBytes(12).toString('hex');
      const pendingName = `pending-${token}`;
      const pending = writeRecordFile(folder, pendingName, { token, owner: getCurrentOwner() });
      const dropPending = (): void => {
        if (pending) unlinkQuietly(join(folder, pendingName));
      };
      return {
        env: pending ? { [TOKEN_VARIABLE]: token } : ({} as Record<string, string>),
        cancel: dropPending,
        record(pgid) {
          const leaderStartTicks = readProcessStartTicks(pgid);
          const written =
            leaderStartTicks !== undefined && writeRecordFile(folder, String(pgid), { pgid, leaderStartTicks, owner: getCurrentOwner() });
          // Without its own record the group stays findable by its token until this run forgets it.
          if (!written) return dropPending;
          dropPending();
          return () => unlinkQuietly(join(folder, String(pgid)));
        },
      };
    },
  };
}

/** The process group of `pid` (field 5 of /proc/<pid>/stat), or undefined. */
function readProcessGroup(pid: number): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const group = Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[2]);
    return Number.isSafeInteger(group) && group > 0 ? group : undefined;
  } catch {
    return undefined;
  }
}

/** The process groups led by a process whose environment holds `CHECKER_GROUP_TOKEN=<token>` (this user's processes). */
async function findGroupsByToken(token: string): Promise<number[]> {
  const marker = Buffer.from(`${TOKEN_VARIABLE}=${token}\0`);
  const groups = new Set<number>();
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^[1-9]\d*$/.test(name)) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${name}/environ`);
    } catch {
      continue;
    }
    if (!environ.includes(marker)) continue;
    const pid = Number(name);
    // Only a group's leader is signalled: a process that inherited the token in a group of its own is its own leader.
    if (readProcessGroup(pid) === pid) groups.add(pid);
  }
  return [...groups];
}

/** Kills (SIGKILL) the recorded groups whose owner is dead and whose leader still runs; returns their pgids. */
export async function killOrphanedGroups(root: string): Promise<number[]> {
  const folder = await findLocalFolder(root, FOLDER);
  if (folder === undefined) return [];
  const killed: number[] = [];
  for (const name of await readdir(folder)) {
    if (/^pending-[0-9a-f]{24}$/.test(name)) {
      killed.push(...(await killPendingGroups(root, folder, name)));
      continue;
    }
    if (!/^[1-9]\d{0,9}$/.test(name)) continue;
    const record = toGroupRecord(await readRecord(root, name));
    if (record !== undefined && isOwnerGone(record.owner) !== true) continue;
    if (record !== undefined && record.pgid === Number(name) && readProcessStartTicks(record.pgid) === record.leaderStartTicks) {
      signalGroup(record.pgid, 'SIGKILL');
      killed.push(record.pgid);
    }
    await unlinkIfPresent(join(folder, name));
  }
  return killed;
}

/** A pending record whose owner is gone: the groups its token marks are killed, and the record goes. */
async function killPendingGroups(root: string, folder: string, name: string): Promise<number[]> {
  const value = await readRecord(root, name);
  const owner = isRecord(value) ? toProcessOwner(value.owner) : undefined;
  const token = isRecord(value) && typeof value.token === 'string' && /^[0-9a-f]{24}$/.test(value.token) ? value.token : undefined;
  if (owner !== undefined && isOwnerGone(owner) !== true) return [];
  const groups = token === undefined ? [] : await findGroupsByToken(token);
  for (const group of groups) signalGroup(group, 'SIGKILL');
  await unlinkIfPresent(join(folder, name));
  return groups;
}

async function readRecord(root: string, name: string): Promise<unknown> {
  try {
    const text = (await readArtifact(root, `${FOLDER}/${name}`))?.toString('utf8');
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toGroupRecord(value: unknown): { pgid: number; leaderStartTicks: string; owner: ProcessOwner } | undefined {
  if (!isRecord(value) || typeof value.pgid !== 'number' || typeof value.leaderStartTicks !== 'string') return undefined;
  const owner = toProcessOwner(value.owner);
  return owner === undefined ? undefined : { pgid: value.pgid, leaderStartTicks: value.leaderStartTicks, owner };
}

async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (!hasErrorCode(error, 'ENOENT')) throw error;
  }
}
