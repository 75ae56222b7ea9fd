import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CliHost } from '../../src/cli/host.js';
import { sharedParsePool } from './test-env.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const mainSource = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const builtBin = fileURLToPath(new URL('../../bin/checker.js', import.meta.url));

/**
 * The node arguments that start the CLI. `npm test` builds dist/ first and sets CHECKER_TEST_CLI=dist, so the
 * tests run the built CLI a user installs (about 0.5 s a call instead of 1-3 s through tsx); a single test file run
 * by hand uses the TypeScript sources, so it never runs a stale build.
 */
export function cliArgv(): string[] {
  return process.env.CHECKER_TEST_CLI === 'dist' ? [builtBin] : ['--import', 'tsx', mainSource];
}

/** Runs the CLI in a child process, as a user would (see cliArgv for built or from sources). */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): CliResult {
  const result = spawnSync(process.execPath, [...cliArgv(), ...args], {
    cwd: options.cwd ?? projectRoot,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    input: options.input ?? '',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `runCli` without blocking, in a real child process: for what only processes show (two runs racing on one lock,
 * a run killed midway). Everything else uses `runCliAsync`.
 */
export function spawnCliAsync(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cliArgv(), ...args], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs one command line in this process, through the same `runChecker` bin/checker calls, with output captured,
 * not a terminal, and the test process's shared parse pool: a spawned run costs 1-1.5 s of CPU to start node, load
 * the CLI and start a parse child, which was a fifth of the suite. Runs may overlap (each has its own host).
 * Exit codes, help text and piping are still checked on real processes with `runCli`.
 */
export async function runCliAsync(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; stderrIsTTY?: boolean } = {},
): Promise<CliResult> {
  const [{ runChecker }, { withCliHost }] = await Promise.all([import('../../src/cli/run.js'), import('../../src/cli/host.js')]);
  let stdout = '';
  let stderr = '';
  const host: CliHost = {
    cwd: () => options.cwd ?? projectRoot,
    env: { ...process.env, ...options.env },
    stdoutIsTTY: false,
    stderrIsTTY: options.stderrIsTTY === true,
    writeStdout: async (text) => {
      stdout += text;
    },
    writeStderr: async (text) => {
      stderr += text;
    },
    exitCode: undefined,
    envOptions: { pool: sharedParsePool() },
  };
  const code = await withCliHost(host, () => runChecker(args));
  return { code, stdout, stderr };
}

export { projectRoot };
