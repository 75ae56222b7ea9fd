// A repository that is one long import chain: src/chain/m0.ts imports m1.ts imports m2.ts … the deepest
// file. A test imports m0 and an Express route in src/server.ts calls step0, so changing the deepest file
// impacts every file, the test and the route through the whole chain. Measures `checker analyze` and
// `checker ai` (the built CLI in dist/) for time, peak RSS and output size.
//
//   node --import tsx bench/deep-chain.ts --files 5000,15000,50000 [--change deepest|first] [--commands analyze,ai]
//     [--no-route] [--timeout seconds] [--checker path/to/bin/checker.js (another build, e.g. an older commit's)]
//
// Memory that grows with the square of the chain length shows as a peak-RSS ratio near 4 when N doubles.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

export type ChainChange = 'deepest' | 'first';

export interface DeepChainOptions {
  files: number;
  /** Which chain file the second commit edits (default `deepest`: every other file depends on it). */
  change?: ChainChange;
  /** Add the Express route in src/server.ts (default true). */
  route?: boolean;
}

export interface DeepChainRepo {
  dir: string;
  /** Chain files, m0 first (imported by the test), the deepest last. */
  chain: string[];
  testFile: string;
  serverFile: string | undefined;
  changed: string;
}

const gitEnvironment = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/tmp',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.test',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.test',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  LANG: 'C',
});

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    env: gitEnvironment(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

const chainPath = (index: number): string => `src/chain/m${index}.ts`;

function renderLink(index: number, count: number, factor: number): string {
  if (index === count - 1) return `export function step${index}(value: number): number {\n  return value * ${factor};\n}\n`;
  return `import { step${index + 1} } from './m${index + 1}';\n\nexport function step${index}(value: number): number {\n  return step${index + 1}(value) + 1;\n}\n`;
}

function write(dir: string, path: string, text: string): void {
  const full = join(dir, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
}

/** Writes and commits the chain repository in `dir` (emptied first), then commits the edit of one chain file. */
export function generateDeepChainRepo(dir: string, options: DeepChainOptions): DeepChainRepo {
  const count = options.files;
  if (!Number.isInteger(count) || count < 2) throw new RangeError(`a chain needs at least 2 files, got ${count}`);
  const hasRoute = options.route ?? true;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  write(
    dir,
    'package.json',
    `${JSON.stringify({ name: 'deep-chain', private: true, type: 'module', dependencies: { express: '^4.21.0' }, devDependencies: { vitest: '^2.1.0' } }, null, 2)}\n`,
  );
  write(
    dir,
    'tsconfig.json',
    `${JSON.stringify({ compilerOptions: { strict: true, module: 'esnext', moduleResolution: 'bundler' } }, null, 2)}\n`,
  );
  const chain: string[] = [];
  for (let index = 0; index < count; index += 1) {
    chain.push(chainPath(index));
    write(dir, chainPath(index), renderLink(index, count, 2));
  }
  const testFile = 'test/chain.test.ts';
  write(
    dir,
    testFile,
    `import { describe, expect, it } from 'vitest';\nimport { step0 } from '../src/chain/m0';\n\ndescribe('chain', () => {\n  it('adds one per link', () => {\n    expect(step0(1)).toBe(${count - 1 + 2});\n  });\n});\n`,
  );
  const serverFile = hasRoute ? 'src/server.ts' : undefined;
  if (serverFile !== undefined) {
    write(
      dir,
      serverFile,
      `import express from 'express';\nimport { step0 } from './chain/m0';\n\nexport const app = express();\n\napp.get('/chain', (req, res) => {\n  res.json({ value: step0(Number(req.query.value ?? 1)) });\n});\n`,
    );
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'chain');
  const changedIndex = options.change === 'first' ? 0 : count - 1;
  const changed = chainPath(changedIndex);
  write(
    dir,
    changed,
    changedIndex === count - 1 ? renderLink(changedIndex, count, 3) : renderLink(changedIndex, count, 2).replace('+ 1;', '+ 2;'),
  );
  git(dir, 'commit', '-q', '-am', `change ${changed}`);
  return { dir, chain, testFile, serverFile, changed };
}

export interface CommandRun {
  command: string;
  exitCode: number | null;
  seconds: number;
  maxRssBytes: number | undefined;
  outputBytes: number;
  /** The first line of stderr that is not /usr/bin/time's report, when the command failed. */
  error: string | undefined;
}

const hasGnuTime = (): boolean => existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-v', 'true']).status === 0;

/** Runs `checker <command> --cwd dir --base HEAD~1 --format json` through bin/checker.js (dist/), stdout to a file. */
export function runChecker(dir: string, command: string, options: { timeoutMs?: number; checker?: string } = {}): CommandRun {
  const outputPath = join(dir, '..', `${command}.json`);
  const argv = [options.checker ?? join(repoRoot, 'bin', 'checker.js'), command, '--cwd', dir, '--base', 'HEAD~1', '--format', 'json'];
  const useTime = hasGnuTime();
  const output = openSync(outputPath, 'w');
  const started = performance.now();
  // stdout goes straight to a file: a quadratic report can be gigabytes, more than any pipe buffer we would keep.
  const result = spawnSync(useTime ? '/usr/bin/time' : process.execPath, useTime ? ['-v', process.execPath, ...argv] : argv, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', output, 'pipe'],
    timeout: options.timeoutMs ?? 30 * 60 * 1000,
  });
  const seconds = (performance.now() - started) / 1000;
  closeSync(output);
  const stderr = result.stderr ?? '';
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  const exited = /Exit status: (\d+)/.exec(stderr);
  // GNU time reports "Exit status: 0" for a process killed by a signal (a V8 heap abort is SIGABRT).
  const signalled = /Command terminated by signal (\d+)/.exec(stderr);
  const exitCode = signalled !== null ? 128 + Number(signalled[1]) : useTime && exited !== null ? Number(exited[1]) : result.status;
  writeFileSync(join(dir, '..', `${command}.stderr.txt`), stderr);
  const lines = stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('\t') && !line.startsWith('Command '));
  return {
    command,
    exitCode,
    seconds,
    maxRssBytes: rss === null ? undefined : Number(rss[1]) * 1024,
    outputBytes: existsSync(outputPath) ? statSync(outputPath).size : 0,
    error:
      exitCode === 0
        ? undefined
        : (lines.find((line) => /error|checker:|heap/i.test(line)) ??
          (signalled === null ? undefined : `signal ${signalled[1]}`) ??
          lines[0] ??
          `signal ${result.signal ?? '?'}`),
  };
}

const toMb = (bytes: number | undefined): string => (bytes === undefined ? '?' : `${Math.round(bytes / 1024 / 1024)} MB`);

function main(): void {
  const { values } = parseArgs({
    options: {
      files: { type: 'string', default: '5000,15000,50000' },
      change: { type: 'string', default: 'deepest' },
      commands: { type: 'string', default: 'analyze,ai' },
      'no-route': { type: 'boolean', default: false },
      timeout: { type: 'string', default: '1800' },
      checker: { type: 'string' },
    },
    strict: true,
  });
  const checker = resolve(values.checker ?? join(repoRoot, 'bin', 'checker.js'));
  if (!existsSync(join(dirname(checker), '..', 'dist', 'cli', 'main.js')))
    throw new Error(`${checker}: its dist/ is missing: run npm run build first`);
  const change: ChainChange = values.change === 'first' ? 'first' : 'deepest';
  const counts = values.files.split(',').map((text) => Number(text.trim()));
  const commands = values.commands
    .split(',')
    .map((text) => text.trim())
    .filter((text) => text !== '');
  const rows: string[] = [
    '| files | change | command | exit | seconds | peak RSS | output | error |',
    '| ---: | --- | --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const count of counts) {
    const dir = join(repoRoot, 'bench', 'work', `deep-chain-${count}${change === 'first' ? '-first' : ''}`, 'repo');
    const generated = performance.now();
    generateDeepChainRepo(dir, { files: count, change, route: !values['no-route'] });
    process.stderr.write(`deep-chain: ${count} files written and committed in ${((performance.now() - generated) / 1000).toFixed(1)} s\n`);
    for (const command of commands) {
      const run = runChecker(dir, command, { timeoutMs: Number(values.timeout) * 1000, checker });
      const row = `| ${count} | ${change} | ${command} | ${run.exitCode ?? 'killed'} | ${run.seconds.toFixed(1)} | ${toMb(run.maxRssBytes)} | ${toMb(run.outputBytes)} | ${(run.error ?? '').replaceAll('|', '\\|').slice(0, 160)} |`;
      process.stderr.write(`${row}\n`);
      rows.push(row);
    }
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
