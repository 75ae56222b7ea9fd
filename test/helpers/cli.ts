import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

/** `runCli` without blocking, so independent CLI runs of one test file overlap. */
export function runCliAsync(args: string[]): Promise<CliResult> {
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

export { projectRoot };
