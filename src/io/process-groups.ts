import { isMainThread } from 'node:worker_threads';
import { hasErrorCode } from './has-error-code.js';

/** Signals a whole process group by its leader's pid. A group already gone is fine (ESRCH; EPERM on macOS when only zombies are left). */
export function signalGroup(pgid: number | undefined, signal: NodeJS.Signals): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if (!hasErrorCode(error, 'ESRCH', 'EPERM')) throw error;
  }
}

/** Process groups running now, by leader pid: killed when checker exits or is interrupted. */
const live = new Set<number>();
/** Told of every group tracked and untracked: the MCP tool worker passes them on to the protocol thread. */
const watchers = new Set<(pgid: number, isLive: boolean) => void>();
/** Told when a group leader is about to be spawned (+1) and when its group is tracked or its spawn failed (-1). */
const spawnWatchers = new Set<(delta: 1 | -1) => void>();
/**
 * Slots in shared memory where another thread of this process lists its live groups (the MCP tool worker): the first
 * counts that thread's spawns in flight, the others hold one pgid each (0 when free).
 */
const sharedSlots = new Set<Int32Array>();
/** How long a signal waits for another thread's spawn in flight to list its group: the spawn of a program, not a run. */
const SPAWN_WAIT_MS = 2000;
/** Synchronous clean-ups (temporary worktrees) run on exit or interruption, after the live groups are killed. */
const exitCleanups = new Set<() => void>();
let isExitHookInstalled = false;

/**
 * Adds a process group to those killed (SIGKILL) when this thread's process exits or, on the main thread, is
 * interrupted (SIGINT, SIGTERM, SIGHUP); returns its removal. The protocol thread of the MCP server tracks the groups
 * its tool worker started this way, since a worker thread sees neither signals nor its own termination.
 */
export function trackProcessGroup(pgid: number): () => void {
  live.add(pgid);
  installExitHook();
  for (const watcher of watchers) watcher(pgid, true);
  let isTracked = true;
  return () => {
    if (!isTracked) return;
    isTracked = false;
    live.delete(pgid);
    for (const watcher of watchers) watcher(pgid, false);
  };
}

/**
 * Starts a process that leads its own group (`start` spawns it detached) and tracks its group at once, in the same
 * synchronous step: a thread sharing its groups (shareProcessGroups) counts the spawn as in flight until then, so a
 * signal that arrives while the program starts still finds its group. Returns what `start` returned and the removal.
 */
export function startGroupLeader<T extends { pid?: number | undefined }>(start: () => T): { started: T; untrack: () => void } {
  for (const watcher of spawnWatchers) watcher(1);
  try {
    const started = start();
    return { started, untrack: started.pid === undefined ? () => undefined : trackProcessGroup(started.pid) };
  } finally {
    for (const watcher of spawnWatchers) watcher(-1);
  }
}

/** Calls `watcher` for every process group tracked (`isLive` true) and untracked from now on; returns its removal. */
export function watchProcessGroups(watcher: (pgid: number, isLive: boolean) => void): () => void {
  watchers.add(watcher);
  return () => {
    watchers.delete(watcher);
  };
}

/**
 * Worker thread: lists every process group this thread tracks in `slots` (shared memory, one pgid per non-zero slot)
 * the moment it is tracked, so the main thread sees it at once: a message could still be in flight when a signal ends
 * the process.
 */
export function shareProcessGroups(slots: Int32Array): void {
  spawnWatchers.add((delta) => {
    Atomics.add(slots, 0, delta);
    if (delta < 0) Atomics.notify(slots, 0);
  });
  watchers.add((pgid, isLive) => {
    const [from, to] = isLive ? [0, pgid] : [pgid, 0];
    for (let index = 1; index < slots.length; index++) if (Atomics.compareExchange(slots, index, from, to) === from) return;
  });
}

/**
 * Main thread: kills (SIGKILL) on exit or interruption the groups another thread lists in `slots` (shareProcessGroups),
 * and installs the signal handlers now, before any group starts; returns its removal.
 */
export function watchSharedProcessGroups(slots: Int32Array): () => void {
  sharedSlots.add(slots);
  installExitHook();
  return () => {
    sharedSlots.delete(slots);
  };
}

/**
 * Registers `cleanup` to run, synchronously, when checker exits or is interrupted (SIGINT, SIGTERM, SIGHUP), after
 * the running commands' process groups are killed, so nothing still writes where it cleans. Returns its removal.
 */
export function addExitCleanup(cleanup: () => void): () => void {
  installExitHook();
  exitCleanups.add(cleanup);
  return () => {
    exitCleanups.delete(cleanup);
  };
}

/**
 * A check leads its own group, so a Ctrl-C in the terminal reaches checker only: without this, an interrupted or
 * exiting checker would leave the check running. On SIGINT, SIGTERM or SIGHUP the live groups get SIGKILL and the
 * signal is raised again, so checker still ends as the signal says. (A worker thread gets no signals and no 'exit' when
 * it is terminated: the MCP tool worker reports its groups to the protocol thread, which tracks them here too.)
 */
function installExitHook(): void {
  if (isExitHookInstalled) return;
  isExitHookInstalled = true;
  const killLive = (): void => {
    for (const pgid of live) signalGroup(pgid, 'SIGKILL');
    live.clear();
    for (const slots of sharedSlots) {
      // A spawn in flight on the other thread: its program may already run, its group not yet listed.
      const deadline = Date.now() + SPAWN_WAIT_MS;
      for (let spawning = Atomics.load(slots, 0); spawning > 0 && Date.now() < deadline; spawning = Atomics.load(slots, 0)) {
        Atomics.wait(slots, 0, spawning, Math.max(1, deadline - Date.now()));
      }
      for (let index = 1; index < slots.length; index++) {
        const pgid = Atomics.load(slots, index);
        if (pgid > 0) signalGroup(pgid, 'SIGKILL');
      }
    }
    sharedSlots.clear();
    for (const cleanup of exitCleanups) {
      // The process is ending: a clean-up that fails must not keep the others (or the re-raised signal) from running.
      try {
        cleanup();
      } catch {}
    }
    exitCleanups.clear();
  };
  process.on('exit', killLive);
  if (!isMainThread) return;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      killLive();
      for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeAllListeners(name);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
