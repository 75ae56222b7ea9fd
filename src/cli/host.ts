import { AsyncLocalStorage } from 'node:async_hooks';
import type { NodeEnvOptions } from '../io/node-env.js';

/** Where one CLI run writes and what it sees: the real process, or a caller running checker in process. */
export interface CliHost {
  cwd(): string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  writeStdout(text: string): Promise<void>;
  writeStderr(text: string): Promise<void>;
  /** A command's own exit code (1 for --fail-on, 2 for invalid packs); undefined means success. */
  exitCode: number | undefined;
  /** Options for every Env the run opens (an in-process host shares its parse pool). */
  readonly envOptions?: Pick<NodeEnvOptions, 'pool'>;
}

function writeTo(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((done, fail) => {
    stream.write(text, (error) => (error ? fail(error) : done()));
  });
}

const processHost: CliHost = {
  cwd: () => process.cwd(),
  env: process.env,
  get stdoutIsTTY() {
    return process.stdout.isTTY === true;
  },
  get stderrIsTTY() {
    return process.stderr.isTTY === true;
  },
  writeStdout: (text) => writeTo(process.stdout, text),
  writeStderr: (text) => writeTo(process.stderr, text),
  get exitCode() {
    return typeof process.exitCode === 'number' ? process.exitCode : undefined;
  },
  set exitCode(code) {
    process.exitCode = code;
  },
};

const hosts = new AsyncLocalStorage<CliHost>();

/** The host of the run in progress: the one `withCliHost` set, else the process itself. */
export function currentHost(): CliHost {
  return hosts.getStore() ?? processHost;
}

/** Runs `fn` with `host` as the current host of everything it awaits (runs may overlap, each with its own host). */
export function withCliHost<T>(host: CliHost, fn: () => Promise<T>): Promise<T> {
  return hosts.run(host, fn);
}
