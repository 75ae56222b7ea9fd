import type { Containment, OutputExcerpt } from './command.js';

/** A long-running program (a product target's app) started without a shell in the repository root (`Env.startService`). */
export interface ServiceSpec {
  /** `argv[0]` is the program, found on PATH; the rest are passed as they are, never through a shell. */
  argv: readonly string[];
  /** Extra environment variables, added to the allowlisted inherited environment. */
  env?: Readonly<Record<string, string>>;
  /** Bytes kept from the start and from the end of each output stream (default 16 KiB each). */
  excerptBytes?: number;
  /** Where it runs: the repository root (default) or a worktree under `.checker/local/worktrees/`, as `CommandSpec.cwd`. */
  cwd?: string;
}

/** How a service's leading process ended, or why it never started. */
export interface ServiceExit {
  /** null when ended by a signal or never started. */
  exitCode: number | null;
  signal: string | null;
  /** Set when the program could not start (ENOENT, EACCES…). */
  spawnError?: string;
}

export interface ServiceStop extends ServiceExit {
  /** True when the service had ended on its own before `stop` was called. */
  exitedBeforeStop: boolean;
  /** Time from start to the end of the leading process. */
  durationMs: number;
  stdout: OutputExcerpt;
  stderr: OutputExcerpt;
}

/**
 * A running service, leader of its own process group. The group is killed (SIGTERM, then SIGKILL after a grace) by
 * `stop`, when the leader exits on its own, and when checker exits or is interrupted.
 */
export interface ServiceHandle {
  /** The process group checker controls: the app itself, or the wrapper holding its pid namespace. */
  readonly pid: number | undefined;
  /** How the app's processes are held together; absent when it never started. */
  readonly containment?: Containment;
  /** Settles when the leading process ends, on its own or by `stop`; never rejects. */
  readonly exited: Promise<ServiceExit>;
  /** Stops the whole group and waits for it; calling it again returns the same result. */
  stop(): Promise<ServiceStop>;
}

/** One HTTP GET: the response (redirects are not followed) or why there was none. */
export type HttpGetResult =
  | { ok: true; status: number; headers: Record<string, string>; body: string; bodyTruncated: boolean }
  | { ok: false; error: string };
