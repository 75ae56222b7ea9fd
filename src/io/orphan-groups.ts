import { closeSync, constants, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
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

/** Writes group records; `record` is synchronous, so it runs right after spawn, before the command has done anything. */
export interface GroupRecorder {
  /** Records `pgid` as this process's; returns its removal. Neither throws: a record is a fallback, never the run's business. */
  record(pgid: number): () => void;
}

/** Creates the records folder (refusing a symlinked segment) for commands that would outlive a checker killed with SIGKILL. */
export async function openGroupRecorder(root: string): Promise<GroupRecorder> {
  const folder = await createArtifactFolder(root, FOLDER);
  return {
    record(pgid) {
      const leaderStartTicks = readProcessStartTicks(pgid);
      if (leaderStartTicks === undefined) return () => undefined;
      const path = join(folder, String(pgid));
      // Written whole under a name the next run ignores, then renamed: a checker killed between creating the record
      // and writing it must not leave an empty one, which the next run would discard without killing the group.
      const partial = join(folder, `.${pgid}.partial`);
      try {
        // O_NOFOLLOW: a link planted under that name is not written through.
        const fd = openSync(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW, 0o600);
        try {
          writeSync(fd, `${JSON.stringify({ pgid, leaderStartTicks, owner: getCurrentOwner() })}\n`);
        } finally {
          closeSync(fd);
        }
        renameSync(partial, path);
      } catch {
        return () => undefined;
      }
      return () => {
        try {
          unlinkSync(path);
        } catch {}
      };
    },
  };
}

/** Kills (SIGKILL) the recorded groups whose owner is dead and whose leader still runs; returns their pgids. */
export async function killOrphanedGroups(root: string): Promise<number[]> {
  const folder = await findLocalFolder(root, FOLDER);
  if (folder === undefined) return [];
  const killed: number[] = [];
  for (const name of await readdir(folder)) {
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
