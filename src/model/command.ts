/** One command to run without a shell, in the repository root or a worktree (`Env.runCommand`). */
export interface CommandSpec {
  /** `argv[0]` is the program, found on PATH as execFile does; the rest are passed as they are, never through a shell. */
  argv: readonly string[];
  /** After this, the whole process group gets SIGTERM, then SIGKILL after a short grace. */
  timeoutMs: number;
  /** Bytes kept from the start and from the end of each stream (default 16 KiB each). */
  excerptBytes?: number;
  /**
   * An absolute folder under `.checker/local/` for NODE_V8_COVERAGE: every Node process of the command writes its
   * coverage there, and once the command has ended each file is cut down to the repository's own scripts.
   */
  v8CoverageDir?: string;
  /** Extra environment variables, added to the inherited environment. */
  env?: Readonly<Record<string, string>>;
  /**
   * Where it runs (default: the repository root). Only the root or a folder inside `<root>/.checker/local/worktrees/`
   * (`Env.createWorktree`) is accepted; anything else throws.
   */
  cwd?: string;
  /** Text written to the program's standard input, which is then closed (default: no input, stdin ignored). */
  stdin?: string;
}

/**
 * A bounded view of one output stream, decoded as UTF-8 (invalid or cut sequences become U+FFFD). Output that fits
 * in twice the excerpt size is all in `head` and `tail` is empty; longer output keeps the first and the last
 * `excerptBytes` bytes and drops the middle.
 */
export interface OutputExcerpt {
  head: string;
  tail: string;
  /** Every byte the stream produced, kept or not. */
  bytes: number;
  truncated: boolean;
}

/**
 * How the processes of one command are kept from outliving its run. `pid-namespace`: the command runs as the only
 * child of a small init in a pid namespace of its own (Linux, util-linux `unshare`), so every process it starts, one
 * that left its process group with setsid included, ends when the command ends, times out or checker exits.
 * `process-group`: only the command's process group is killed; a process that calls setsid escapes it.
 */
export interface Containment {
  mode: 'pid-namespace' | 'process-group';
  /** How the namespace was made, or why there is none (`process-group only: <why>`). */
  detail: string;
}

export interface CommandRun {
  /** null when the process was ended by a signal or never started. */
  exitCode: number | null;
  /** The signal that ended the process (`SIGTERM`, `SIGKILL`…), or null. */
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdout: OutputExcerpt;
  stderr: OutputExcerpt;
  /** Set when the program could not start (ENOENT, EACCES…): a short message naming argv[0]. */
  spawnError?: string;
  /** How its processes were held together; absent when nothing was started (an empty argv, a NUL byte). */
  containment?: Containment;
}
