import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CommandRun, CommandSpec, OutputExcerpt } from '../model/command.js';
import { compactV8Folder } from './v8-coverage.js';
import { CheckerError } from '../model/diagnostic.js';
import { type ContainedChild, type ContainmentChoice, canOutliveChecker, spawnContained } from './containment.js';
import { hasErrorCode } from './has-error-code.js';
import { signalGroup } from './process-groups.js';
import { killOrphanedGroups, openGroupRecorder } from './orphan-groups.js';
import { isPathInside } from './repo-files.js';
import { sweepAbandonedWorktrees } from './worktree-folders.js';

// explore-product.ts registers its browser's clean-up through here.
export { addExitCleanup } from './process-groups.js';

const DEFAULT_EXCERPT_BYTES = 16 * 1024;
/** Time a timed-out group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;
/** Time the pipes get to close once the child has exited and its group was killed (a grandchild that left the group may hold them). */
export const CLOSE_GRACE_MS = 2000;
/** setTimeout fires at once for delays past 2^31 - 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ExcerptBuffer {
  push(chunk: Uint8Array): void;
  finish(): OutputExcerpt;
}

/**
 * Keeps the first `limit` bytes of a stream and a ring of the last `limit` bytes after them, and counts every byte:
 * memory stays at 2 × `limit` whatever the stream's length.
 */
export function createExcerptBuffer(limit: number): ExcerptBuffer {
  const head = Buffer.alloc(limit);
  const ring = Buffer.alloc(limit);
  let headLength = 0;
  let ringStart = 0;
  let ringLength = 0;
  let bytes = 0;

  const pushToRing = (chunk: Uint8Array): void => {
    if (limit === 0) return;
    if (chunk.length >= limit) {
      ring.set(chunk.subarray(chunk.length - limit));
      ringStart = 0;
      ringLength = limit;
      return;
    }
    let end = (ringStart + ringLength) % limit;
    for (let offset = 0; offset < chunk.length; ) {
      const part = chunk.subarray(offset, offset + Math.min(chunk.length - offset, limit - end));
      ring.set(part, end);
      offset += part.length;
      end = (end + part.length) % limit;
    }
    const overflow = Math.max(0, ringLength + chunk.length - limit);
    ringStart = (ringStart + overflow) % limit;
    ringLength = Math.min(limit, ringLength + chunk.length);
  };

  return {
    push: (chunk) => {
      bytes += chunk.length;
      const toHead = Math.min(limit - headLength, chunk.length);
      head.set(chunk.subarray(0, toHead), headLength);
      headLength += toHead;
      if (toHead < chunk.length) pushToRing(chunk.subarray(toHead));
    },
    finish: () => {
      const tail = Buffer.concat([
        ring.subarray(ringStart, Math.min(limit, ringStart + ringLength)),
        ring.subarray(0, Math.max(0, ringStart + ringLength - limit)),
      ]);
      const truncated = bytes > headLength + tail.length;
      const kept = head.subarray(0, headLength);
      return truncated
        ? { head: kept.toString('utf8'), tail: tail.toString('utf8'), bytes, truncated }
        : { head: Buffer.concat([kept, tail]).toString('utf8'), tail: '', bytes, truncated };
    },
  };
}

export function describeSpawnError(program: string | undefined, error: unknown): string {
  const code = hasErrorCode(error, 'ENOENT') ? 'not found' : hasErrorCode(error, 'EACCES') ? 'permission denied' : undefined;
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  return `cannot start ${JSON.stringify(program ?? '')}: ${detail}`;
}

export interface RunOptions {
  /** 'off' runs the command in a process group only (default: the CHECKER_CONTAINMENT variable, else a pid namespace where available). */
  containment?: ContainmentChoice;
}

/**
 * Runs `spec.argv` without a shell in `cwd`, as the leader of its own process group and, where the system allows, in a
 * pid namespace of its own (containment.ts): on timeout the group gets SIGTERM then SIGKILL, and whatever is left when
 * the command exits is killed, so no grandchild outlives the run (in a namespace, not even one that called setsid).
 * Output is kept as bounded head and tail excerpts. Resolves for every outcome of the command itself (exit code,
 * signal, timeout, a program that cannot start); rejects only on a bug. A run in the repository root first removes
 * the worktrees of checker runs that died (their owner pid is gone), so a test runner searching the tree never finds
 * a stale copy.
 */
export async function runCommand(root: string, spec: CommandSpec, options: RunOptions = {}): Promise<CommandRun> {
  // A dead run's orphaned commands are killed, and in the root its worktrees removed (the sweep kills orphans first).
  // Housekeeping, not the command's business: what cannot be removed (a symlinked .checker) must not stop the run;
  // the runs that make worktrees sweep them again and report what they could not remove.
  await (spec.cwd === undefined ? sweepAbandonedWorktrees(root) : killOrphanedGroups(root)).catch(() => undefined);
  const run = await runInGroup(root, spec, options);
  if (spec.v8CoverageDir !== undefined) await compactV8Folder(await resolveCoverageDir(root, spec.v8CoverageDir), await realpath(root));
  return run;
}

async function runInGroup(root: string, spec: CommandSpec, options: RunOptions): Promise<CommandRun> {
  const cwd = resolveCommandCwd(root, spec.cwd);
  const coverageDir = spec.v8CoverageDir === undefined ? undefined : await resolveCoverageDir(root, spec.v8CoverageDir);
  const started = performance.now();
  const limit = spec.excerptBytes ?? DEFAULT_EXCERPT_BYTES;
  const stdout = createExcerptBuffer(limit);
  const stderr = createExcerptBuffer(limit);
  const program = spec.argv[0];
  const finish = (outcome: Pick<CommandRun, 'exitCode' | 'signal' | 'timedOut' | 'spawnError' | 'containment'>): CommandRun => ({
    ...outcome,
    durationMs: Math.round(performance.now() - started),
    stdout: stdout.finish(),
    stderr: stderr.finish(),
  });

  if (program === undefined || program === '') {
    return finish({ exitCode: null, signal: null, timedOut: false, spawnError: describeSpawnError(program, 'empty argv') });
  }
  const recorder = (await canOutliveChecker(options.containment)) ? await openGroupRecorder(root).catch(() => undefined) : undefined;
  const pending = recorder?.prepare();
  let contained: ContainedChild;
  try {
    contained = await spawnContained(spec.argv, {
      cwd,
      env: {
        ...pickInheritedEnv(process.env),
        ...spec.env,
        ...(coverageDir === undefined ? {} : { NODE_V8_COVERAGE: coverageDir }),
        ...pending?.env,
      },
      stdin: spec.stdin === undefined ? 'ignore' : 'pipe',
      choice: options.containment,
    });
  } catch (error) {
    // Arguments Node refuses before spawning (a NUL byte, a Windows batch file without a shell).
    pending?.cancel();
    return finish({ exitCode: null, signal: null, timedOut: false, spawnError: describeSpawnError(program, error) });
  }
  const { child, containment } = contained;
  if (child.pid === undefined || contained.diesWithChecker) pending?.cancel();
  const forgetGroup = child.pid === undefined || contained.diesWithChecker ? undefined : pending?.record(child.pid);
  return new Promise((resolve) => {
    let timedOut = false;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let closeTimer: NodeJS.Timeout | undefined;
    const timeoutTimer = setTimeout(
      () => {
        timedOut = true;
        signalGroup(child.pid, 'SIGTERM');
        killTimer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
      },
      Math.min(spec.timeoutMs, MAX_TIMER_MS),
    );
    const settle = (outcome: Parameters<typeof finish>[0]): void => {
      clearTimeout(timeoutTimer);
      clearTimeout(killTimer);
      clearTimeout(closeTimer);
      if (settled) return;
      settled = true;
      contained.untrackGroup();
      contained.dispose();
      forgetGroup?.();
      resolve(finish(outcome));
    };

    if (spec.stdin !== undefined && child.stdin !== null) {
      // A program that exits without reading its input closes the pipe: EPIPE is its answer, not checker's failure.
      child.stdin.on('error', () => {});
      child.stdin.end(spec.stdin);
    }
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', (error) => {
      // Only a failed start reaches here: signals go through process.kill, never child.kill.
      if (child.pid !== undefined) return;
      settle({ exitCode: null, signal: null, timedOut: false, spawnError: describeSpawnError(program, error), containment });
    });
    child.once('exit', (exitCode, signal) => {
      clearTimeout(timeoutTimer);
      clearTimeout(killTimer);
      signalGroup(child.pid, 'SIGKILL');
      const ended = contained.outcome(exitCode, signal);
      const outcome = {
        exitCode: ended.exitCode,
        signal: ended.signal,
        timedOut,
        ...(ended.spawnError === undefined ? {} : { spawnError: describeSpawnError(program, ended.spawnError) }),
        containment,
      };
      // 'close' waits for the pipes; a grandchild that left the group (setsid) could hold them open for ever.
      child.once('close', () => settle(outcome));
      closeTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        settle(outcome);
      }, CLOSE_GRACE_MS);
    });
  });
}

/**
 * The folder a command runs in: the repository root, or a worktree inside `<root>/.checker/local/worktrees/`, both
 * by real path (a symlinked segment that leads elsewhere is refused). Anything else is a bug in the caller: it throws.
 */
export function resolveCommandCwd(root: string, cwd: string | undefined): string {
  const realRoot = realpathSync(root);
  if (cwd === undefined) return realRoot;
  let real: string | undefined;
  try {
    real = realpathSync(resolve(realRoot, cwd));
  } catch {
    real = undefined;
  }
  const worktrees = join(realRoot, '.checker', 'local', 'worktrees');
  if (real !== undefined && (real === realRoot || (real !== worktrees && isPathInside(worktrees, real)))) return real;
  throw new CheckerError(
    'internal/command-cwd',
    `a command may run only in the repository root or a worktree under .checker/local/worktrees/, not ${JSON.stringify(cwd)}`,
  );
}

/** The NODE_V8_COVERAGE folder: an existing folder inside `<root>/.checker/local/`, by real path; anything else is a caller bug. */
async function resolveCoverageDir(root: string, dir: string): Promise<string> {
  const local = join(await realpath(root), '.checker', 'local');
  const real = await realpath(resolve(root, dir)).catch(() => undefined);
  if (real !== undefined && isPathInside(local, real) && real !== local) return real;
  throw new CheckerError('internal/coverage-dir', `V8 coverage may be written only inside .checker/local/, not ${JSON.stringify(dir)}`);
}

/** Variables a check inherits from checker's own environment: what programs need to run, nothing that carries a secret. */
const INHERITED_ENV = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'TMPDIR',
  'TMP',
  'TEMP',
  'CI',
]);

/**
 * The allowlisted part of an environment (security V8, H29): a configured check never sees GITHUB_TOKEN, cloud keys
 * or npm tokens from the shell that started checker, nor NODE_OPTIONS or NODE_TEST_CONTEXT that would change how it runs.
 */
export function pickInheritedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && (INHERITED_ENV.has(key) || key.startsWith('LC_'))) picked[key] = value;
  }
  return picked;
}
