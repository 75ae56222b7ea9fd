import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { median, repoRoot, toCount } from './measure.js';
import { generateSyntheticRepo, runGit, touchFiles } from './synthetic.js';

/**
 * First call vs later calls of the MCP server on one repository: the server keeps the repository graph
 * and reuses it while a stat fingerprint of the scan is unchanged. Run with
 * `node --import tsx bench/mcp-warm.ts [--files 10000] [--reps 3] [--touched 50] [--tool impact_map] [--runner cli|tsx] [--record]`.
 * The server is the built CLI when there is one (`npm run build`; only a bundle has the build id a kept graph needs),
 * else the sources through tsx.
 */

const HEADING = '## MCP warm calls';
const workRoot = join(repoRoot, 'bench', 'work');
const resultsPath = join(repoRoot, 'bench', 'RESULTS.md');
const mainSource = join(repoRoot, 'src', 'cli', 'main.ts');
const builtBin = join(repoRoot, 'bin', 'checker.js');
type Runner = 'cli' | 'tsx';
let runner: Runner = 'tsx';

/** The node arguments that start checker: the bundle, or the sources through tsx. */
function checkerArgv(): string[] {
  return runner === 'cli' ? [builtBin] : ['--import', 'tsx', mainSource];
}

interface CallTimes {
  repository: string;
  files: number;
  /** New server, facts cache deleted: scan, parse everything, build, analyse (not measured on this project, whose cache other runs share). */
  coldCache: number | undefined;
  /** New server, facts cache in place, no kept graph: scan, read cached facts, build, analyse. */
  first: number;
  /** New server after a CLI run kept the graph (graph-v1.json): scan, read cached facts, load the graph, analyse. */
  firstKept: number | undefined;
  /** Same server, nothing changed: scan fingerprint matches, graph reused, analyse. */
  second: number;
  third: number;
  /** Same server after editing one file: the kept graph patched (one re-parse), analysed again. */
  afterTouch: number;
  /** Same server after editing `--touched` files at once (synthetic repository only). */
  afterTouchMany: number | undefined;
}

function parseOptions(): {
  files: number;
  reps: number;
  tool: string;
  record: boolean;
  skipSynthetic: boolean;
  touched: number;
  runner: Runner;
} {
  const { values } = parseArgs({
    options: {
      runner: { type: 'string' },
      files: { type: 'string', default: '10000' },
      reps: { type: 'string', default: '3' },
      tool: { type: 'string', default: 'impact_map' },
      record: { type: 'boolean', default: false },
      'skip-synthetic': { type: 'boolean', default: false },
      touched: { type: 'string', default: '50' },
    },
  });
  return {
    files: toCount('files', values.files, 80),
    reps: toCount('reps', values.reps, 1),
    tool: values.tool,
    record: values.record,
    skipSynthetic: values['skip-synthetic'],
    touched: toCount('touched', values.touched, 1),
    runner: toRunner(values.runner),
  };
}

function toRunner(value: string | undefined): Runner {
  if (value === undefined) return existsSync(join(repoRoot, 'dist', 'bundle', 'build-id.json')) ? 'cli' : 'tsx';
  if (value !== 'cli' && value !== 'tsx') throw new Error(`--runner must be cli or tsx, got "${value}"`);
  if (value === 'cli' && !existsSync(join(repoRoot, 'dist', 'bundle', 'build-id.json'))) {
    throw new Error('--runner cli needs the built CLI: run npm run build first');
  }
  return value;
}

const keptGraph = (dir: string): string => join(dir, '.checker', 'local', 'cache', 'graph-v1.json');

/** A CLI run of `graph` on the tree, which keeps the graph when its facts all come from the cache; true when it did. */
function keepGraphWithCli(dir: string): boolean {
  const result = spawnSync(process.execPath, [...checkerArgv(), 'graph', '--cwd', dir, '--format', 'json'], { stdio: 'ignore' });
  return result.status === 0 && existsSync(keptGraph(dir));
}

async function startClient(dir: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...checkerArgv(), 'mcp', '--cwd', dir],
    cwd: repoRoot,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'checker-bench', version: '0' });
  await client.connect(transport);
  return client;
}

async function timeCall(client: Client, tool: string, args: Record<string, unknown>): Promise<number> {
  const start = performance.now();
  const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 600_000 });
  const seconds = (performance.now() - start) / 1000;
  if (result.isError === true) throw new Error(`${tool} failed: ${JSON.stringify(result.content).slice(0, 500)}`);
  return seconds;
}

type Run = Omit<CallTimes, 'repository' | 'files'>;

async function measureOnce(
  dir: string,
  tool: string,
  args: Record<string, unknown>,
  clearCache: boolean,
  touch: () => Promise<void>,
  touchMany: (() => Promise<void>) | undefined,
): Promise<Run> {
  let coldCache: number | undefined;
  if (clearCache) {
    rmSync(join(dir, '.checker', 'local', 'cache'), { recursive: true, force: true });
    const cold = await startClient(dir);
    coldCache = await timeCall(cold, tool, args);
    await cold.close();
  }
  for (const name of ['graph-v1.json', 'graph-v1.data.json']) rmSync(join(dir, '.checker', 'local', 'cache', name), { force: true });
  const fresh = await startClient(dir);
  let first: number;
  try {
    first = await timeCall(fresh, tool, args);
  } finally {
    await fresh.close();
  }
  // The server writes no snapshot: a CLI run keeps it, then a new server's first call loads it (built CLI only).
  const kept = runner === 'cli' && keepGraphWithCli(dir);
  const client = await startClient(dir);
  try {
    const firstCall = await timeCall(client, tool, args);
    const firstKept = kept ? firstCall : undefined;
    const second = await timeCall(client, tool, args);
    const third = await timeCall(client, tool, args);
    await touch();
    const afterTouch = await timeCall(client, tool, args);
    let afterTouchMany: number | undefined;
    if (touchMany !== undefined) {
      await touchMany();
      afterTouchMany = await timeCall(client, tool, args);
    }
    return { coldCache, first, firstKept, second, third, afterTouch, afterTouchMany };
  } finally {
    await client.close();
  }
}

interface Target {
  repository: string;
  dir: string;
  args: Record<string, unknown>;
  clearCache: boolean;
  touch(rep: number): Promise<void>;
  touchMany?: (rep: number) => Promise<void>;
}

async function measure(target: Target, reps: number, tool: string): Promise<CallTimes> {
  const { repository, dir, args } = target;
  const files = countFiles(dir);
  const runs: Run[] = [];
  for (let rep = 0; rep < reps; rep += 1) {
    const many = target.touchMany;
    const run = await measureOnce(
      dir,
      tool,
      args,
      target.clearCache,
      () => target.touch(rep),
      many === undefined ? undefined : () => many(rep),
    );
    process.stderr.write(`${repository} rep ${rep + 1}: ${JSON.stringify(run)}\n`);
    runs.push(run);
  }
  const pick = (key: 'first' | 'second' | 'third' | 'afterTouch'): number => median(runs.map((run) => run[key]));
  const colds = runs.flatMap((run) => (run.coldCache === undefined ? [] : [run.coldCache]));
  const manies = runs.flatMap((run) => (run.afterTouchMany === undefined ? [] : [run.afterTouchMany]));
  const kepts = runs.flatMap((run) => (run.firstKept === undefined ? [] : [run.firstKept]));
  return {
    repository,
    files,
    coldCache: colds.length === 0 ? undefined : median(colds),
    first: pick('first'),
    firstKept: kepts.length === 0 ? undefined : median(kepts),
    second: pick('second'),
    third: pick('third'),
    afterTouch: pick('afterTouch'),
    afterTouchMany: manies.length === 0 ? undefined : median(manies),
  };
}

function countFiles(dir: string): number {
  return runGit(dir, ['ls-files', '--cached', '--others', '--exclude-standard', '-z'])
    .split('\0')
    .filter((path) => path !== '').length;
}

function renderTable(rows: CallTimes[], tool: string, reps: number, touched: number): string {
  const seconds = (value: number | undefined): string => (value === undefined ? 'n/a' : `${value.toFixed(2)} s`);
  const server = runner === 'cli' ? 'the built CLI (`bin/checker.js mcp`)' : 'the sources through tsx (no build id: no kept graph)';
  const lines = [
    HEADING,
    '',
    `\`${tool}\` (format json) called over stdio by the SDK Client against \`checker mcp --cwd <repo>\`, the server being ${server}; median of ${reps} repetition${reps === 1 ? '' : 's'}, measured ${new Date().toISOString().slice(0, 10)} with \`node --import tsx bench/mcp-warm.ts\` on ${availableParallelism()} CPUs (load average ${loadavg()[0]?.toFixed(1) ?? '?'} at the end).`,
    `Cold cache: a new server with \`.checker/local/cache/\` deleted. First call: a new server with the facts cache in place and no kept graph. First call, kept graph: a new server after a CLI \`checker graph\` kept the graph (\`graph-v1.json\`; n/a when the run kept none, as on a tree edited in the last two seconds). Second/third call: that server, nothing changed on disk (the kept graph is reused after a stat fingerprint of the scan). After touching: the same server after one source file was edited, then after ${touched} more were (the kept graph is patched: only those files are parsed, their edges and the uses edges of their importers replaced; the range analysed again). A second or third call asks the memoised analysis's recorded inputs again (the git change by its stamp, the index, coverage and execution records) and reuses it when they answer the same.`,
    '',
    `| repository | files | cold cache | first call | first call, kept graph | second call | third call | second / first | after touching 1 file | after touching ${touched} files |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.repository} | ${row.files} | ${seconds(row.coldCache)} | ${seconds(row.first)} | ${seconds(row.firstKept)} | ${seconds(row.second)} | ${seconds(row.third)} | ${((row.second / row.first) * 100).toFixed(0)}% | ${seconds(row.afterTouch)} | ${seconds(row.afterTouchMany)} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

/** Replaces this benchmark's section of bench/RESULTS.md (or appends it), leaving every other section alone. */
function recordResults(section: string): void {
  const existing = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '# Benchmark results\n';
  const start = existing.indexOf(`${HEADING}\n`);
  if (start === -1) {
    writeFileSync(resultsPath, `${existing.replace(/\n*$/, '\n\n')}${section}`);
    return;
  }
  const next = existing.indexOf('\n## ', start + HEADING.length);
  const after = next === -1 ? '' : existing.slice(next + 1);
  writeFileSync(resultsPath, `${existing.slice(0, start)}${section}${after === '' ? '' : `\n${after}`}`);
}

async function main(): Promise<void> {
  const options = parseOptions();
  runner = options.runner;
  const rows: CallTimes[] = [];
  if (!options.skipSynthetic) {
    const dir = join(workRoot, `mcp-warm-synthetic-${options.files}`);
    rmSync(dir, { recursive: true, force: true });
    process.stderr.write(`generating ${options.files} files in ${dir}\n`);
    await generateSyntheticRepo(dir, { files: options.files, seed: 1 });
    await touchFiles(dir, 5, 7, { commit: false });
    const touch = async (rep: number): Promise<void> => {
      await touchFiles(dir, 1, 100 + rep, { commit: false });
    };
    const touchMany = async (rep: number): Promise<void> => {
      await touchFiles(dir, options.touched, 200 + rep, { commit: false });
    };
    rows.push(
      await measure(
        { repository: `synthetic (${options.files} files, 5 edited)`, dir, args: {}, clearCache: true, touch, touchMany },
        options.reps,
        options.tool,
      ),
    );
  }
  // On this project "touching" only bumps the mtime of this benchmark's own source: the content (and git) stay as they are.
  const ownSource = join(repoRoot, 'bench', 'mcp-warm.ts');
  const touch = async (): Promise<void> => {
    const now = new Date();
    utimesSync(ownSource, now, now);
  };
  rows.push(
    await measure(
      { repository: 'this project (HEAD~1..worktree)', dir: repoRoot, args: { base: 'HEAD~1' }, clearCache: false, touch },
      options.reps,
      options.tool,
    ),
  );
  const table = renderTable(rows, options.tool, options.reps, options.touched);
  process.stdout.write(`${table}\n`);
  if (options.record) recordResults(table);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
