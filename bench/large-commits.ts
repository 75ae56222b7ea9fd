/**
 * Peak memory of the report-only commands on a repository whose commits carry huge messages (issue 39): `--commits`
 * commits (30) with `--mib` MiB messages (50) each, a pasted log that compresses about as much as the reported one
 * (30 × 50 MB in a 66 MB `.git`), each commit changing one or two of a small TypeScript tree's files, then one
 * uncommitted edit so that `ai` has a change and mines the history. Measures `ai` and `ci --base HEAD~1`, each cold
 * (`.checker/` removed first), against the target: a peak RSS under 400 MB.
 *
 *   node --import tsx bench/large-commits.ts [--commits 30] [--mib 50] [--runner cli|tsx] [--checker <dir>] [--packed]
 *     [--repo <dir>]
 *
 * `--runner cli` runs `node bin/checker.js` (the build; `npm run build` first), `--runner tsx` runs
 * `src/cli/main.ts` through tsx; the default is the build when `dist/` exists. `--checker <dir>` runs another checkout
 * of checker instead (its `bin/checker.js` or `src/cli/main.ts`, with its own node_modules or a link to ours): the
 * figure before a change. `--packed` packs the objects with `git gc` first (a reused loose repository too). `--repo <dir>` keeps the generated repository
 * there and reuses it when it is already there (generating 1.5 GB of messages takes about a minute).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot, spawnMeasured } from './measure.js';

const TARGET_RSS_BYTES = 400 * 1000 * 1000;
const ROUTES = 10;

interface Options {
  commits: number;
  mib: number;
  runner: 'cli' | 'tsx';
  checker: string;
  isPacked: boolean;
  repo: string | undefined;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      commits: { type: 'string', default: '30' },
      mib: { type: 'string', default: '50' },
      runner: { type: 'string' },
      checker: { type: 'string', default: repoRoot },
      packed: { type: 'boolean', default: false },
      repo: { type: 'string' },
    },
  });
  const checker = resolve(values.checker);
  const runner = values.runner ?? (existsSync(join(checker, 'dist', 'cli', 'main.js')) ? 'cli' : 'tsx');
  if (runner !== 'cli' && runner !== 'tsx') throw new Error(`--runner must be cli or tsx, not ${runner}`);
  return {
    commits: Number(values.commits),
    mib: Number(values.mib),
    runner,
    checker,
    isPacked: values.packed,
    repo: values.repo === undefined ? undefined : resolve(values.repo),
  };
}

function git(dir: string, args: string[], date = '2026-01-01T00:00:00Z'): string {
  return execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Bench Author',
      GIT_AUTHOR_EMAIL: 'bench@example.test',
      GIT_COMMITTER_NAME: 'Bench Author',
      GIT_COMMITTER_EMAIL: 'bench@example.test',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  }).trim();
}

/**
 * A log a user might paste into a commit, written a MiB at a time: a timestamped error line per event (worker, request
 * id, duration) and its stack, the same frames each time, so it compresses about 20:1 as the reported one did.
 */
function writeMessage(path: string, commit: number, bytes: number): void {
  const descriptor = openSync(path, 'w');
  const pad = (value: number, width: number): string => String(value).padStart(width, '0');
  const stack = [
    '    at fetchUpstream (src/server/upstream.ts:118:17)',
    '    at async retry (src/lib/retry.ts:42:12)',
    '    at async handleRequest (src/server/route.ts:77:5)',
    '    at async dispatch (node_modules/router/index.js:284:9)',
    '    at async Server.<anonymous> (src/server/index.ts:31:3)',
    '',
  ].join('\n');
  try {
    writeSync(descriptor, `fix: request timeouts under load (#${commit})\n\nThe whole log of the incident:\n\n`);
    let written = 0;
    let event = 0;
    let state = commit;
    const draw = (): number => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state >>> 8;
    };
    while (written < bytes) {
      const lines: string[] = [];
      let chunk = 0;
      while (chunk < 1024 * 1024) {
        event += 1;
        const second = Math.floor(event / 40);
        const text =
          `2026-02-${pad(1 + (commit % 28), 2)}T${pad(Math.floor(second / 3600) % 24, 2)}:${pad(Math.floor(second / 60) % 60, 2)}:` +
          `${pad(second % 60, 2)}Z ERROR [worker-${event % 4}] request ${draw().toString(16)} failed after ${draw() % 30_000} ms: ` +
          `TimeoutError: upstream did not answer\n${stack}`;
        lines.push(text);
        chunk += text.length;
      }
      writeSync(descriptor, lines.join(''));
      written += chunk;
    }
  } finally {
    closeSync(descriptor);
  }
}

function writeFile(dir: string, path: string, text: string): void {
  const full = join(dir, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
}

function generateRepo(dir: string, options: Options): void {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  writeFile(dir, 'package.json', '{ "name": "large-commits", "type": "module" }\n');
  writeFile(dir, 'src/lib/retry.ts', 'export function retry(times: number): number {\n  return times;\n}\n');
  for (let route = 0; route < ROUTES; route += 1) {
    writeFile(
      dir,
      `src/server/route-${route}.ts`,
      `import { retry } from '../lib/retry';\n\nexport function handle${route}(attempts: number): number {\n  return retry(attempts);\n}\n`,
    );
  }
  writeFile(
    dir,
    'src/server/index.ts',
    `${Array.from({ length: ROUTES }, (_, route) => `export { handle${route} } from './route-${route}';`).join('\n')}\n`,
  );
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'initial']);
  const messagePath = join(dir, '..', `${dir.split('/').pop() ?? 'repo'}-message.txt`);
  try {
    for (let commit = 1; commit <= options.commits; commit += 1) {
      const route = commit % ROUTES;
      writeFile(
        dir,
        `src/server/route-${route}.ts`,
        `import { retry } from '../lib/retry';\n\nexport function handle${route}(attempts: number): number {\n  return retry(attempts + ${commit});\n}\n`,
      );
      if (commit % 3 === 0) {
        writeFile(dir, 'src/lib/retry.ts', `export function retry(times: number): number {\n  return Math.min(times, ${commit});\n}\n`);
      }
      writeMessage(messagePath, commit, options.mib * 1024 * 1024);
      git(dir, ['add', '-A']);
      const day = 1 + Math.floor(commit / 24);
      git(
        dir,
        ['commit', '-q', '-F', messagePath],
        `2026-02-${String(day).padStart(2, '0')}T${String(commit % 24).padStart(2, '0')}:00:00Z`,
      );
      process.stderr.write(`commit ${commit}/${options.commits}\n`);
    }
  } finally {
    rmSync(messagePath, { force: true });
  }
}

/** The object store's bytes (`.git` less COMMIT_EDITMSG, which holds the last message whole). */
function readObjectBytes(dir: string): number {
  return Number(execFileSync('du', ['-sb', join(dir, '.git', 'objects')], { encoding: 'utf8' }).split('\t')[0]);
}

interface CommandRun {
  command: string;
  code: number | null;
  signal: string | null;
  seconds: number;
  mainPeakBytes: number | undefined;
  treePeakBytes: number | undefined;
  stderrTail: string;
}

async function runCommand(dir: string, options: Options, args: string[]): Promise<CommandRun> {
  rmSync(join(dir, '.checker'), { recursive: true, force: true });
  const usageFile = join(dir, '..', `usage-${process.pid}.json`);
  rmSync(usageFile, { force: true });
  const entry =
    options.runner === 'cli'
      ? [join(options.checker, 'bin', 'checker.js')]
      : ['--import', 'tsx', join(options.checker, 'src', 'cli', 'main.ts')];
  const nodeArgs = ['--import', join(repoRoot, 'bench', 'usage-hook.mjs'), ...entry, ...args, '--cwd', dir, '--format', 'json'];
  const outcome = await spawnMeasured(process.execPath, nodeArgs, { ...process.env, CHECKER_BENCH_USAGE_FILE: usageFile }, options.checker);
  let mainPeakBytes: number | undefined;
  // Written on exit by the process and by the parse children it forks (they inherit the hook), the main process last:
  // after a crash the file holds a child's figure, not the main process's.
  if (existsSync(usageFile) && outcome.signal === null) {
    const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { maxRssBytes?: number };
    mainPeakBytes = usage.maxRssBytes;
  }
  rmSync(usageFile, { force: true });
  return {
    command: `${args.join(' ')}`,
    code: outcome.code,
    signal: outcome.signal,
    seconds: outcome.seconds,
    mainPeakBytes,
    treePeakBytes: outcome.treePeakRssBytes,
    stderrTail: outcome.stderr.trim().split('\n').slice(-3).join(' / '),
  };
}

const toMb = (bytes: number | undefined): string => (bytes === undefined ? 'n/a' : `${(bytes / 1e6).toFixed(0)} MB`);

async function main(): Promise<void> {
  const options = readOptions();
  const parent = options.repo === undefined ? mkdtempSync(join(tmpdir(), 'checker-large-commits-')) : join(options.repo, '..');
  const dir = options.repo ?? join(parent, 'repo');
  try {
    if (!existsSync(join(dir, '.git'))) {
      const started = performance.now();
      generateRepo(dir, options);
      process.stderr.write(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    }
    if (options.isPacked && !/^count: 0$/m.test(git(dir, ['count-objects', '-v']))) {
      const started = performance.now();
      git(dir, ['gc', '-q']);
      process.stderr.write(`packed (git gc) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    }
    const edited = readFileSync(join(dir, 'src/server/route-1.ts'), 'utf8');
    if (!edited.endsWith('// edited\n')) writeFile(dir, 'src/server/route-1.ts', `${edited}// edited\n`);
    const runs = [await runCommand(dir, options, ['ai']), await runCommand(dir, options, ['ci', '--base', 'HEAD~1'])];
    const objects = git(dir, ['count-objects', '-v']);
    const lines = [
      `commits: ${options.commits} × ${options.mib} MiB messages; .git/objects ${toMb(readObjectBytes(dir))} (${/^count: 0$/m.test(objects) ? 'packed' : 'loose objects'}); ` +
        `checker: ${options.checker === repoRoot ? 'this checkout' : options.checker}, ${options.runner === 'cli' ? 'node bin/checker.js' : 'node --import tsx src/cli/main.ts'}`,
      '',
      '| command | exit | wall | peak RSS, main process | peak RSS, process tree | target < 400 MB |',
      '| --- | --- | ---: | ---: | ---: | --- |',
      ...runs.map((run) => {
        const peak = Math.max(run.mainPeakBytes ?? 0, run.treePeakBytes ?? 0);
        const exit = run.signal === null ? String(run.code) : run.signal;
        return `| \`${run.command}\` | ${exit} | ${run.seconds.toFixed(1)} s | ${toMb(run.mainPeakBytes)} | ${toMb(run.treePeakBytes)} | ${run.code === 0 && peak < TARGET_RSS_BYTES ? 'PASS' : 'MISS'} |`;
      }),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    for (const run of runs) if (run.code !== 0) process.stderr.write(`${run.command}: ${run.stderrTail}\n`);
  } finally {
    if (options.repo === undefined) rmSync(parent, { recursive: true, force: true });
  }
}

await main();
