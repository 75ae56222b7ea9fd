import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { threadId } from 'node:worker_threads';
import { isRecord } from '../text/is-record.js';
import { hasErrorCode } from './has-error-code.js';

/**
 * Who owns something checker left on disk (a worktree): enough for a later run to tell, at once, that the owner is
 * dead. The pid alone is not: pids are reused, so on Linux the process's start time (clock ticks since boot) and the
 * boot id are kept beside it; `threadId` names the MCP tool worker that made it, which dies without its process.
 */
export interface ProcessOwner {
  pid: number;
  hostname: string;
  threadId: number;
  /** Field 22 of /proc/<pid>/stat; absent off Linux. */
  startTicks?: string;
  /** /proc/sys/kernel/random/boot_id; absent off Linux. */
  bootId?: string;
}

let self: ProcessOwner | undefined;

/** This thread as an owner. */
export function getCurrentOwner(): ProcessOwner {
  if (self === undefined) {
    const startTicks = readStat(process.pid)?.startTicks;
    const bootId = readBootId();
    self = {
      pid: process.pid,
      hostname: hostname(),
      threadId,
      ...(startTicks === undefined ? {} : { startTicks }),
      ...(bootId === undefined ? {} : { bootId }),
    };
  }
  return self;
}

/**
 * true when the owner's process is certainly gone: not running, a zombie, started at another time than recorded (its
 * pid was reused), or recorded before the last boot. false when it runs. undefined when this host cannot tell (the
 * record is another host's): callers then fall back on age.
 */
export function isOwnerGone(owner: ProcessOwner): boolean | undefined {
  if (owner.hostname !== hostname()) return undefined;
  const bootId = readBootId();
  if (owner.bootId !== undefined && bootId !== undefined && owner.bootId !== bootId) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it runs, under another user.
    if (hasErrorCode(error, 'ESRCH')) return true;
  }
  const stat = readStat(owner.pid);
  if (stat === undefined) return false;
  if (stat.state === 'Z' || stat.state === 'X') return true;
  return owner.startTicks !== undefined && owner.startTicks !== stat.startTicks;
}

/** Whether `owner` is this process (any of its threads). */
export function isThisProcess(owner: ProcessOwner): boolean {
  const current = getCurrentOwner();
  return owner.pid === current.pid && owner.hostname === current.hostname && owner.startTicks === current.startTicks;
}

/** A recorded owner read back, or undefined when it is not one. */
export function toProcessOwner(value: unknown): ProcessOwner | undefined {
  if (!isRecord(value)) return undefined;
  const { pid, hostname: host, threadId: thread, startTicks, bootId } = value;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  if (typeof host !== 'string' || typeof thread !== 'number' || !Number.isSafeInteger(thread)) return undefined;
  if (startTicks !== undefined && typeof startTicks !== 'string') return undefined;
  if (bootId !== undefined && typeof bootId !== 'string') return undefined;
  return {
    pid,
    hostname: host,
    threadId: thread,
    ...(startTicks === undefined ? {} : { startTicks }),
    ...(bootId === undefined ? {} : { bootId }),
  };
}

/** When `pid` started, in clock ticks since boot (Linux); undefined when it does not run or this is not Linux. */
export function readProcessStartTicks(pid: number): string | undefined {
  return readStat(pid)?.startTicks;
}

function readStat(pid: number): { state: string; startTicks: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it start past its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTicks = fields[19];
  return state === undefined || startTicks === undefined ? undefined : { state, startTicks };
}

function readBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
