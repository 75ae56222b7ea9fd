import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, openSync, readSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import type { Containment } from '../model/command.js';
import { signalGroup, startGroupLeader } from './process-groups.js';

/**
 * Keeps every process a command starts from outliving its run (issue 39). A process group is not enough: a process
 * that calls setsid leaves it, and a group outlives a checker killed with SIGKILL. On Linux the command runs in a pid
 * namespace of its own, as the only child of a small init:
 *
 *   setpriv --pdeathsig KILL -- unshare [--user --map-current-user] --pid --fork --kill-child --mount-proc -- node -e INIT -- <command>
 *
 * - the init (pid 1 of the namespace) starts the command with its environment and stdio and reports how it ended
 *   through an unlinked temporary file at fd 3, then exits with it; when pid 1 exits, the kernel kills every other
 *   process of the namespace, setsid or not. The command is the init's child, not pid 1: pid 1 ignores every signal
 *   it has no handler for, which would change what SIGTERM and a self-sent signal do to it.
 * - `--kill-child` ends the init when `unshare` dies (the timeout's SIGKILL to the group); `setpriv --pdeathsig KILL`
 *   ends `unshare` when the thread that started it dies: checker killed with SIGKILL, or the MCP tool worker terminated.
 * - `--mount-proc` gives the namespace its own /proc, so a command that reads /proc/<its own pid> reads itself.
 *
 * Root gets a namespace directly; other users through an unprivileged user namespace mapped to their own uid, where
 * the kernel allows one. Where neither works (another OS, no util-linux, user namespaces disabled, `CHECKER_CONTAINMENT=off`)
 * commands run in a process group only, and each run says so and why.
 */

/** `CHECKER_CONTAINMENT=off` runs every command in a process group only: an escape hatch for a check a namespace breaks. */
const CONTAINMENT_VARIABLE = 'CHECKER_CONTAINMENT';
export type ContainmentChoice = 'auto' | 'off';

/** The command's environment reaches the init under this prefix: no NODE_* variable (NODE_OPTIONS, NODE_V8_COVERAGE) changes the init itself. */
const ENV_PREFIX = 'CHECKER_COMMAND_ENV_';
/** How long detection waits for a trial run (one node start-up) before it gives up on namespaces. */
const PROBE_TIMEOUT_MS = 20_000;
const MAX_STATUS_BYTES = 4096;

/**
 * The init, run as `node -e INIT_SOURCE -- <1|0: status at fd 3> <program> <args...>`. It never touches
 * process.stdin/stdout/stderr: Node would make those descriptors non-blocking, and the command shares them.
 */
const INIT_SOURCE = `'use strict';
const { spawn } = require('node:child_process');
const { closeSync, openSync, writeSync } = require('node:fs');
const { constants } = require('node:os');
const [withStatus, program, ...args] = process.argv.slice(1);
let status = -1;
if (withStatus === '1') {
  // A fresh descriptor is close-on-exec: the command never sees the channel at fd 3.
  status = openSync('/proc/self/fd/3', 'r+');
  closeSync(3);
}
const env = {};
for (const [key, value] of Object.entries(process.env)) if (key.startsWith(${JSON.stringify(ENV_PREFIX)})) env[key.slice(${ENV_PREFIX.length})] = value;
// The command gets the group's signals itself; the init must outlive it, so the namespace ends after the command.
for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(name, () => {});
let done = false;
const finish = (result, code) => {
  if (done) return;
  done = true;
  if (status !== -1) writeSync(status, JSON.stringify(result));
  process.exit(code);
};
const failed = (error) => finish({ spawnError: { code: String(error.code ?? ''), message: String(error.message) } }, 127);
try {
  const child = spawn(program, args, { stdio: 'inherit', env });
  child.on('error', failed);
  child.on('exit', (code, signal) => finish({ exitCode: code, signal }, code ?? 128 + (constants.signals[signal] ?? 0)));
} catch (error) {
  failed(error);
}
`;

interface Wrapper {
  /** The argv that goes before `node -e INIT`: setpriv, unshare and their flags. */
  prefix: string[];
  containment: Containment;
  /** setpriv ties the namespace to the thread that started it: a checker killed with SIGKILL takes it along. */
  diesWithChecker: boolean;
}

type Plan = { wrapper: Wrapper; containment: Containment } | { wrapper: undefined; containment: Containment };

/** How the command ended: from the init's report when there is one, else from the spawned process itself. */
export interface ContainedOutcome {
  exitCode: number | null;
  signal: string | null;
  /** The command could not start (an Error with the errno `code`, for describeSpawnError). */
  spawnError?: Error;
}

export interface ContainedChild {
  /** The process checker spawned: the command itself, or the wrapper whose process group holds its namespace. */
  child: ChildProcess;
  containment: Containment;
  /** Whether its processes end even if checker is killed with SIGKILL (else orphan-groups.ts records the group). */
  diesWithChecker: boolean;
  /** How the command ended, given how `child` ended; read once `child` has exited. */
  outcome(exitCode: number | null, signal: NodeJS.Signals | null): ContainedOutcome;
  /** Releases the status file; call once `outcome` has been read. */
  dispose(): void;
  /**
   * Stops killing its process group when checker exits or is interrupted: call once the group has ended. The group is
   * tracked (process-groups.ts) from the moment it is spawned, with no gap a signal could fall into.
   */
  untrackGroup(): void;
}

export interface ContainedSpawnOptions {
  cwd: string;
  env: Record<string, string>;
  stdin: 'ignore' | 'pipe';
  /** 'off' runs in a process group only; default: the `CHECKER_CONTAINMENT` variable, else 'auto'. */
  choice?: ContainmentChoice | undefined;
}

let detection: Promise<Plan> | undefined;
let detected: Plan | undefined;

/** Whether the next command could outlive a checker killed with SIGKILL: no namespace, or one not tied to checker's life. */
export async function canOutliveChecker(choice?: ContainmentChoice): Promise<boolean> {
  return (await choosePlan(choice)).wrapper?.diesWithChecker !== true;
}

/** The plan for the next command; namespaces are detected once per thread (trial runs of the wrappers). */
async function choosePlan(choice: ContainmentChoice | undefined): Promise<Plan> {
  if ((choice ?? readChoice()) === 'off') return processGroupOnly(`containment turned off (${CONTAINMENT_VARIABLE}=off)`);
  detection ??= probePlan().then((plan) => {
    detected = plan;
    return plan;
  });
  return detection;
}

function readChoice(): ContainmentChoice {
  return process.env[CONTAINMENT_VARIABLE]?.trim().toLowerCase() === 'off' ? 'off' : 'auto';
}

function processGroupOnly(why: string): Plan {
  return { wrapper: undefined, containment: { mode: 'process-group', detail: why } };
}

/**
 * Starts `argv` without a shell in `cwd` with exactly `env`, as the leader of a new process group (and session), in a
 * pid namespace of its own when one is available. Throws what `spawn` throws synchronously (a NUL byte in an argument)
 * and, when wrapping, an ENOENT or EACCES error for a program exec would not find, as a direct spawn reports it.
 */
export async function spawnContained(argv: readonly string[], options: ContainedSpawnOptions): Promise<ContainedChild> {
  const plan = await choosePlan(options.choice);
  const [program = '', ...args] = argv;
  if (plan.wrapper !== undefined) {
    // The init would report a missing program only once running; found here, it fails as a direct spawn fails.
    const missing = findStartError(program, options.env.PATH, options.cwd);
    if (missing !== undefined) throw missing;
    const status = openStatusFile();
    if (status !== undefined) return spawnWrapped(plan.wrapper, program, args, options, status);
  }
  const { started: child, untrack } = startGroupLeader(() =>
    spawn(program, args, {
      cwd: options.cwd,
      shell: false,
      detached: true,
      windowsHide: true,
      stdio: [options.stdin, 'pipe', 'pipe'],
      env: options.env,
    }),
  );
  const containment: Containment =
    plan.wrapper === undefined
      ? plan.containment
      : { mode: 'process-group', detail: `no temporary file for the exit status could be made in ${tmpdir()}` };
  return {
    child,
    containment,
    diesWithChecker: false,
    outcome: (exitCode, signal) => ({ exitCode, signal }),
    dispose: () => undefined,
    untrackGroup: untrack,
  };
}

function spawnWrapped(wrapper: Wrapper, program: string, args: string[], options: ContainedSpawnOptions, status: number): ContainedChild {
  const [file = '', ...prefixArgs] = wrapper.prefix;
  let child: ChildProcess;
  let untrack: () => void;
  try {
    ({ started: child, untrack } = startGroupLeader(() =>
      spawn(file, [...prefixArgs, process.execPath, '-e', INIT_SOURCE, '--', '1', program, ...args], {
        cwd: options.cwd,
        shell: false,
        detached: true,
        windowsHide: true,
        stdio: [options.stdin, 'pipe', 'pipe', status],
        env: toInitEnv(options.env),
      }),
    ));
  } catch (error) {
    closeSync(status);
    throw error;
  }
  let isDisposed = false;
  return {
    child,
    containment: wrapper.containment,
    diesWithChecker: wrapper.diesWithChecker,
    outcome: (exitCode, signal) => readStatus(status) ?? { exitCode, signal },
    dispose: () => {
      if (isDisposed) return;
      isDisposed = true;
      closeSync(status);
    },
    untrackGroup: untrack,
  };
}

/**
 * The argv and environment that run `argv` contained, for a command whose outcome nobody reads (a teardown run while
 * checker exits); `argv` as it is when detection has not finished or found no namespace.
 */
export function toContainedCommand(
  argv: readonly string[],
  env: Record<string, string>,
): { argv: readonly string[]; env: Record<string, string> } {
  const wrapper = readChoice() === 'off' ? undefined : detected?.wrapper;
  if (wrapper === undefined) return { argv, env };
  return { argv: [...wrapper.prefix, process.execPath, '-e', INIT_SOURCE, '--', '0', ...argv], env: toInitEnv(env) };
}

function toInitEnv(env: Record<string, string>): Record<string, string> {
  const prefixed: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) prefixed[`${ENV_PREFIX}${key}`] = value;
  return prefixed;
}

/** A read-write temporary file, unlinked at once (nothing is left behind, whatever happens); undefined when none can be made. */
function openStatusFile(): number | undefined {
  const path = join(tmpdir(), `checker-status-${process.pid}-${randomBytes(6).toString('hex')}`);
  let fd: number;
  try {
    fd = openSync(path, 'wx+', 0o600);
  } catch {
    return undefined;
  }
  try {
    unlinkSync(path);
  } catch {}
  return fd;
}

function readStatus(fd: number): ContainedOutcome | undefined {
  const buffer = Buffer.alloc(MAX_STATUS_BYTES);
  let length: number;
  try {
    length = readSync(fd, buffer, 0, MAX_STATUS_BYTES, 0);
  } catch {
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(buffer.subarray(0, length).toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  if ('spawnError' in data && typeof data.spawnError === 'object' && data.spawnError !== null) {
    const { code, message } = data.spawnError as { code?: unknown; message?: unknown };
    const error = Object.assign(new Error(typeof message === 'string' ? message : 'cannot start'), {
      ...(typeof code === 'string' && code !== '' ? { code } : {}),
    });
    return { exitCode: null, signal: null, spawnError: error };
  }
  if (!('exitCode' in data) || !('signal' in data)) return undefined;
  const { exitCode, signal } = data;
  if (!(exitCode === null || (typeof exitCode === 'number' && Number.isInteger(exitCode)))) return undefined;
  if (!(signal === null || typeof signal === 'string')) return undefined;
  return { exitCode, signal };
}

interface Attempt {
  flags: string[];
  how: string;
}

const NAMESPACE_FLAGS = ['--pid', '--fork', '--kill-child', '--mount-proc'];
const AS_ROOT: Attempt = { flags: NAMESPACE_FLAGS, how: 'unshare --pid --mount-proc as root' };
const IN_USER_NAMESPACE: Attempt = {
  flags: ['--user', '--map-current-user', ...NAMESPACE_FLAGS],
  how: 'unshare --pid --mount-proc in an unprivileged user namespace (--user --map-current-user)',
};

/** Tries the wrappers that can work here, most direct first, and keeps the first whose trial run reports exit 0. */
async function probePlan(): Promise<Plan> {
  if (process.platform !== 'linux') return processGroupOnly(`pid namespaces are Linux-only (this is ${process.platform})`);
  const unshare = findProgram('unshare');
  if (unshare === undefined) return processGroupOnly('unshare (util-linux) was not found on PATH');
  const setpriv = findProgram('setpriv');
  const attempts = process.getuid?.() === 0 ? [AS_ROOT, IN_USER_NAMESPACE] : [IN_USER_NAMESPACE, AS_ROOT];
  const failures: string[] = [];
  for (const attempt of attempts) {
    const namespace = [unshare, ...attempt.flags, '--'];
    let untied = 'setpriv was not found';
    if (setpriv !== undefined) {
      const tied = [setpriv, '--pdeathsig', 'KILL', '--', ...namespace];
      const failure = await tryWrapper(tied, unshare);
      if (failure === undefined)
        return namespacePlan(tied, `${attempt.how}; setpriv --pdeathsig KILL ends it if checker itself is killed`, true);
      if (!failure.startsWith('setpriv')) {
        failures.push(`${attempt.how}: ${failure}`);
        continue;
      }
      untied = failure;
    }
    // Without setpriv (missing, or too old for --pdeathsig) a namespace still holds setsid escapes, not checker's SIGKILL.
    const failure = await tryWrapper(namespace, unshare);
    if (failure === undefined)
      return namespacePlan(namespace, `${attempt.how}; ${untied}, so a checker killed with SIGKILL leaves it running`, false);
    failures.push(`${attempt.how}: ${failure}`);
  }
  return processGroupOnly(`no pid namespace could be made (${failures.join('; ')})`);
}

function namespacePlan(prefix: string[], detail: string, diesWithChecker: boolean): Plan {
  const containment: Containment = { mode: 'pid-namespace', detail };
  return { wrapper: { prefix, containment, diesWithChecker }, containment };
}

/** Runs `unshare --version` through the wrapper; undefined when the init reported exit 0, else what went wrong. */
async function tryWrapper(prefix: string[], unshare: string): Promise<string | undefined> {
  const status = openStatusFile();
  if (status === undefined) return `no temporary file could be made in ${tmpdir()}`;
  const wrapper: Wrapper = { prefix, containment: { mode: 'pid-namespace', detail: 'trial' }, diesWithChecker: false };
  let started: ContainedChild;
  try {
    started = spawnWrapped(
      wrapper,
      unshare,
      ['--version'],
      { cwd: tmpdir(), env: { PATH: process.env.PATH ?? '' }, stdin: 'ignore' },
      status,
    );
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const { child } = started;
  let stderr = '';
  child.stdout?.resume();
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < 2000) stderr += chunk;
  });
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | { error: Error }>((resolve) => {
    const timer = setTimeout(() => {
      signalGroup(child.pid, 'SIGKILL');
      resolve({ error: new Error(`the trial run took over ${PROBE_TIMEOUT_MS / 1000} s`) });
    }, PROBE_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ error });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
  try {
    if ('error' in ended) return ended.error.message;
    const outcome = started.outcome(ended.code, ended.signal);
    if (outcome.spawnError === undefined && outcome.exitCode === 0 && ended.code === 0) return undefined;
    const said = stderr.trim().split('\n')[0]?.trim();
    return said !== undefined && said !== '' ? said : `exit ${ended.code ?? ended.signal ?? 'unknown'}`;
  } finally {
    started.dispose();
  }
}

/**
 * Why exec would fail to find `program` as spawn looks it up (a path with a slash from `cwd`, else each PATH folder):
 * ENOENT when there is none, EACCES when only something not executable is there; undefined when it is found.
 */
function findStartError(program: string, path: string | undefined, cwd: string): Error | undefined {
  // spawn itself refuses a NUL byte, with its own message.
  if (program.includes('\0')) return undefined;
  const candidates = program.includes('/')
    ? [resolve(cwd, program)]
    : (path ?? '/usr/bin:/bin').split(delimiter).map((folder) => resolve(cwd, folder === '' ? '.' : folder, program));
  let isDenied = false;
  for (const candidate of candidates) {
    try {
      if (statSync(candidate).isDirectory()) {
        isDenied = true;
        continue;
      }
    } catch {
      continue;
    }
    try {
      accessSync(candidate, constants.X_OK);
      return undefined;
    } catch {
      isDenied = true;
    }
  }
  const code = isDenied ? 'EACCES' : 'ENOENT';
  return Object.assign(new Error(`spawn ${program} ${code}`), { code });
}

/** The first executable regular file named `name` on PATH (then /usr/bin and /bin). */
function findProgram(name: string): string | undefined {
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/bin'].filter((folder) => folder.startsWith('/'));
  for (const folder of folders) {
    const candidate = join(folder, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}
