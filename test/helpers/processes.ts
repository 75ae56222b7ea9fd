import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether `pid` runs; a zombie (exited, not reaped by an init that does not reap) counts as dead. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls until `pid` is gone; false when it is still alive after `timeoutMs`. */
export async function isGoneSoon(pid: number, timeoutMs = 2000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

/** Pids of every live process (this one excepted) whose `/proc/<pid>/<entry>` satisfies `matches`; unreadable ones are skipped. */
function scanProcesses(read: (pid: string) => string, matches: (value: string) => boolean): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let value: string;
    try {
      value = read(entry);
    } catch {
      continue;
    }
    if (matches(value) && isProcessAlive(Number(entry))) found.push(Number(entry));
  }
  return found;
}

/** Polls until `find` finds nothing; false when it still does after `timeoutMs` (what it finds is then killed). */
async function areAllGoneSoon(find: () => number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (find().length > 0) {
    if (Date.now() > deadline) {
      for (const pid of find()) killQuietly(pid);
      return false;
    }
    await sleep(25);
  }
  return true;
}

/**
 * Pids (as this process sees them) of every live process whose command line contains `token`, this one excepted. A
 * command run in its own pid namespace knows itself by another pid, so tests find it by a token in its arguments.
 */
export function findProcesses(token: string): number[] {
  return scanProcesses(
    (pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8'),
    (cmdline) => cmdline.includes(token),
  );
}

/** What a failing test should say of the processes carrying `token`: pid, parent, group, state and command line of each. */
export function describeProcesses(token: string): string {
  const lines = findProcesses(token).map((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      return `pid ${pid} ppid ${ppid} pgid ${pgid} state ${state}: ${cmdline}`;
    } catch {
      return `pid ${pid}: gone while described`;
    }
  });
  return lines.length === 0 ? 'none' : lines.join('\n');
}

/** Polls until no process carries `token`; false when some still do after `timeoutMs` (they are then killed). */
export function areGoneSoon(token: string, timeoutMs = 5000): Promise<boolean> {
  return areAllGoneSoon(() => findProcesses(token), timeoutMs);
}

/**
 * Polls until no process carries `token`; undefined then, else (after `timeoutMs`) a description of those that still
 * do, which are then killed: what an assertion should print when something outlives what should have ended it.
 */
export async function whatOutlives(token: string, timeoutMs = 5000): Promise<string | undefined> {
  if (await waitFor(() => findProcesses(token).length === 0, timeoutMs)) return undefined;
  const described = describeProcesses(token);
  for (const pid of findProcesses(token)) killQuietly(pid);
  return described;
}

/** Pids of every live process whose working folder is `dir` or inside it, this one excepted (wherever its pid namespace). */
export function findProcessesIn(dir: string): number[] {
  return scanProcesses(
    (pid) => readlinkSync(`/proc/${pid}/cwd`),
    (cwd) => cwd === dir || cwd.startsWith(`${dir}/`),
  );
}

/** Polls until no process works in `dir`; false when some still do after `timeoutMs` (they are then killed). */
export function areGoneSoonIn(dir: string, timeoutMs = 5000): Promise<boolean> {
  return areAllGoneSoon(() => findProcessesIn(dir), timeoutMs);
}

/** Polls until `check` holds; false when it still does not after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {}
}
