import { spawnSync } from 'node:child_process';
import type { CommandSpec } from '../model/command.js';
import type { ServiceExit, ServiceHandle, ServiceSpec, ServiceStop } from '../model/service.js';
import { type ContainedChild, canOutliveChecker, spawnContained, toContainedCommand } from './containment.js';
import { killOrphanedGroups, openGroupRecorder } from './orphan-groups.js';
import { addExitCleanup, signalGroup } from './process-groups.js';
import {
  CLOSE_GRACE_MS,
  createExcerptBuffer,
  describeSpawnError,
  KILL_GRACE_MS,
  pickInheritedEnv,
  resolveCommandCwd,
} from './run-command.js';
import { sweepAbandonedWorktrees } from './worktree-folders.js';

const DEFAULT_EXCERPT_BYTES = 16 * 1024;
/** A command run while checker exits blocks the exit: it gets at most this long. */
const MAX_EXIT_COMMAND_MS = 30_000;

/**
 * Starts `spec.argv` without a shell in the repository root (or `spec.cwd`) as the leader of its own process group, in
 * a pid namespace of its own where the system allows (containment.ts), and returns once it has started (or failed to:
 * then `exited` is already settled with `spawnError`). When the leader ends, on its own or by `stop`, whatever is left
 * of its group (of its namespace) gets SIGKILL, so no grandchild outlives the service.
 */
export async function startService(root: string, spec: ServiceSpec): Promise<ServiceHandle> {
  const cwd = resolveCommandCwd(root, spec.cwd);
  // A dead run's orphaned commands are killed, and in the root its worktrees removed (the sweep kills orphans first).
  // Housekeeping, not the command's business: what cannot be removed (a symlinked .checker) must not stop the run;
  // the runs that make worktrees sweep them again and report what they could not remove.
  await (spec.cwd === undefined ? sweepAbandonedWorktrees(root) : killOrphanedGroups(root)).catch(() => undefined);
  const limit = spec.excerptBytes ?? DEFAULT_EXCERPT_BYTES;
  const stdout = createExcerptBuffer(limit);
  const stderr = createExcerptBuffer(limit);
  const started = performance.now();
  const program = spec.argv[0];
  const notStarted = (error: unknown): ServiceHandle => {
    const exit: ServiceExit = { exitCode: null, signal: null, spawnError: describeSpawnError(program, error) };
    const stopped: ServiceStop = {
      ...exit,
      exitedBeforeStop: true,
      durationMs: 0,
      stdout: stdout.finish(),
      stderr: stderr.finish(),
    };
    return { pid: undefined, exited: Promise.resolve(exit), stop: async () => stopped };
  };
  if (program === undefined || program === '') return notStarted('empty argv');
  const recorder = (await canOutliveChecker()) ? await openGroupRecorder(root).catch(() => undefined) : undefined;
  const pending = recorder?.prepare();
  let contained: ContainedChild;
  try {
    contained = await spawnContained(spec.argv, {
      cwd,
      env: { ...pickInheritedEnv(process.env), ...spec.env, ...pending?.env },
      stdin: 'ignore',
    });
  } catch (error) {
    pending?.cancel();
    return notStarted(error);
  }
  const { child } = contained;
  if (child.pid === undefined || contained.diesWithChecker) pending?.cancel();
  const forgetGroup = child.pid === undefined || contained.diesWithChecker ? undefined : pending?.record(child.pid);
  const spawned = await new Promise<unknown>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', (error) => resolve(error));
  });
  if (spawned !== undefined) {
    contained.untrackGroup();
    forgetGroup?.();
    contained.dispose();
    return notStarted(spawned);
  }
  const untrack = (): void => {
    contained.untrackGroup();
    forgetGroup?.();
  };
  return createHandle(contained, { started, stdout, stderr, untrack, program });
}

function createHandle(
  contained: ContainedChild,
  state: {
    started: number;
    stdout: ReturnType<typeof createExcerptBuffer>;
    stderr: ReturnType<typeof createExcerptBuffer>;
    untrack: () => void;
    program: string;
  },
): ServiceHandle {
  const { child } = contained;
  let endedAt: number | undefined;
  child.stdout?.on('data', (chunk: Buffer) => state.stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => state.stderr.push(chunk));
  const pipesClosed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const exited = new Promise<ServiceExit>((resolve) => {
    child.once('exit', (exitCode, signal) => {
      endedAt = performance.now();
      signalGroup(child.pid, 'SIGKILL');
      state.untrack();
      const ended = contained.outcome(exitCode, signal);
      contained.dispose();
      resolve({
        exitCode: ended.exitCode,
        signal: ended.signal,
        ...(ended.spawnError === undefined ? {} : { spawnError: describeSpawnError(state.program, ended.spawnError) }),
      });
    });
  });
  // 'close' waits for the pipes; a grandchild that left the group (setsid) could hold them open for ever.
  const closed = exited.then(async () => {
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve();
      }, CLOSE_GRACE_MS);
    });
    await Promise.race([pipesClosed, grace]);
    clearTimeout(timer);
  });
  let stopping: Promise<ServiceStop> | undefined;
  const stop = (): Promise<ServiceStop> => {
    stopping ??= (async () => {
      const exitedBeforeStop = endedAt !== undefined;
      if (!exitedBeforeStop) {
        signalGroup(child.pid, 'SIGTERM');
        const killTimer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
        await exited;
        clearTimeout(killTimer);
      }
      const exit = await exited;
      await closed;
      return {
        ...exit,
        exitedBeforeStop,
        durationMs: Math.round((endedAt ?? performance.now()) - state.started),
        stdout: state.stdout.finish(),
        stderr: state.stderr.finish(),
      };
    })();
    return stopping;
  };
  return { pid: child.pid, containment: contained.containment, exited, stop };
}

/**
 * Registers `spec` (a teardown) to run synchronously, without a shell, in the repository root (or `spec.cwd`) when checker exits or
 * is interrupted before the returned function is called, after the running process groups were killed. It blocks
 * the exit, so it gets at most 30 s, and runs in a pid namespace when one was found for the commands before it; its
 * output is dropped.
 */
export function runCommandOnExit(root: string, spec: CommandSpec): () => void {
  if (spec.argv[0] === undefined || spec.argv[0] === '') return () => undefined;
  const cwd = resolveCommandCwd(root, spec.cwd);
  return addExitCleanup(() => {
    const command = toContainedCommand(spec.argv, { ...pickInheritedEnv(process.env), ...spec.env });
    const [program = '', ...args] = command.argv;
    spawnSync(program, args, {
      cwd,
      shell: false,
      windowsHide: true,
      stdio: 'ignore',
      env: command.env,
      timeout: Math.min(spec.timeoutMs, MAX_EXIT_COMMAND_MS),
      killSignal: 'SIGKILL',
    });
  });
}
