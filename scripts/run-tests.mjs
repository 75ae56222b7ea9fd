#!/usr/bin/env node
// The test files behind `npm test`, `npm run test:slow` and `npm run test:all`, in two tiers, with node's own test
// runner.
//
//   node scripts/run-tests.mjs [--tier fast|slow|all] [--isolate] [path-fragment …]
//
// fast: every test/**/*.test.ts but the slow ones, in a dozen shared processes (`--isolate`: one process per file,
//       as node --test does by default). `npm test` runs it after the build and the static checks (the loop a change
//       waits for); `npm run test:fast` runs it alone, from the sources.
// slow: test/**/*.slow.test.ts, the suites that must stay real and take long for it: a real Chromium, published
//       packages as corpora, an npm install, crash and kill tests, many CLI processes. One process per file, the
//       longest first. `npm run test:slow` (after a build); CI runs it after `npm test` (.ci/run).
// all (the default; `npm run test:all`): the fast tier, then the slow one. Both always run, so a failure in one does
// not hide the other's; the exit status is 1 when either failed, 2 for a bad argument.
// Fragments keep only the files whose path contains one of them (`node scripts/run-tests.mjs product session`).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const TIERS = ['fast', 'slow', 'all'];
const SHARDS = 12;

function parseArgs(argv) {
  let tier = 'all';
  let isolate = false;
  const fragments = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === '--tier') {
      tier = argv[index + 1] ?? '';
      index += 1;
      if (!TIERS.includes(tier)) throw new Error(`--tier must be one of ${TIERS.join(', ')} (got "${tier}")`);
    } else if (arg === '--isolate') {
      isolate = true;
    } else if (arg.startsWith('--')) {
      throw new Error(`unknown option ${arg}; use --tier fast|slow|all, --isolate and path fragments`);
    } else fragments.push(arg);
  }
  return { tier, isolate, fragments };
}

function listTestFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listTestFiles(path));
    else if (entry.name.endsWith('.test.ts')) files.push(relative(root, path));
  }
  return files.sort();
}

/**
 * The fast tier's files grouped into shards, each one process that imports its files in turn: a test file then costs
 * its tests, not a process that loads the TypeScript loader and half of src again (about 1.3 s of CPU a file, measured).
 * Files are dealt round-robin in name order, so the heavy folders spread over the shards.
 */
function writeShards(files, count) {
  const dir = mkdtempSync(join(tmpdir(), 'checker-test-shards-'));
  const shards = [];
  for (let index = 0; index < count; index += 1) {
    const own = files.filter((_, position) => position % count === index);
    if (own.length === 0) continue;
    const path = join(dir, `shard-${String(index + 1).padStart(2, '0')}.test.mjs`);
    const lines = own.map((file) => `await import(${JSON.stringify(pathToFileURL(join(root, file)).href)});`);
    writeFileSync(path, `// ${own.join(', ')}\n${lines.join('\n')}\n`);
    shards.push(path);
  }
  return { dir, shards };
}

/**
 * The slow tier's files that take longest alone (wall seconds measured one file at a time, 2026-11-29), started first
 * so that no long file starts last and runs on alone: the tier took 341 s in name order. A file not listed runs after
 * these, in name order; a stale entry costs nothing.
 */
const LONGEST_FIRST = [
  'test/app/impact-corpus.slow.test.ts',
  'test/graph/parse/link-scan.slow.test.ts',
  'test/eval/corpus.slow.test.ts',
  'test/cli/product.slow.test.ts',
  'test/cli/product-rerun.slow.test.ts',
  'test/graph/parse/link-facts.slow.test.ts',
  'test/cli/execute.slow.test.ts',
  'test/app/graph-snapshot.slow.test.ts',
  'test/security/hostile-repository.slow.test.ts',
  'test/io/browser.slow.test.ts',
  'test/io/parse-pool.slow.test.ts',
  'test/graph/resolve-oracle.slow.test.ts',
  'test/cli/investigation.slow.test.ts',
  'test/graph/deep-chain.slow.test.ts',
  'test/app/analysis-memo.slow.test.ts',
  'test/cli/install.slow.test.ts',
];

function orderSlowest(files) {
  const rank = (file) => {
    const index = LONGEST_FIRST.indexOf(file);
    return index === -1 ? LONGEST_FIRST.length : index;
  };
  return [...files].sort((left, right) => rank(left) - rank(right) || (left < right ? -1 : 1));
}

/** Runs one tier with node's test runner, its report to this terminal as it comes. */
function runTier(name, files, { shard, concurrency }) {
  if (files.length === 0) return Promise.resolve({ name, files: 0, seconds: 0, ok: true });
  const grouped = shard ? writeShards(files, SHARDS) : undefined;
  const entries = grouped?.shards ?? files;
  const how = grouped === undefined ? 'one process each' : `in ${entries.length} processes`;
  process.stdout.write(`\n# ${name} tier: ${files.length} test files, ${how}, ${concurrency} at a time\n`);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...entries],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: process.env },
  );
  return new Promise((resolve) => {
    child.on('close', (status) => {
      if (grouped !== undefined) rmSync(grouped.dir, { recursive: true, force: true });
      resolve({ name, files: files.length, seconds: (performance.now() - started) / 1000, ok: status === 0 });
    });
  });
}

try {
  const { tier, isolate, fragments } = parseArgs(process.argv.slice(2));
  const all = listTestFiles(join(root, 'test')).filter(
    (file) => fragments.length === 0 || fragments.some((fragment) => file.includes(fragment)),
  );
  if (all.length === 0) throw new Error(`no test file matches ${fragments.join(', ')}`);
  const slow = all.filter((file) => file.endsWith('.slow.test.ts'));
  const fast = all.filter((file) => !file.endsWith('.slow.test.ts'));
  const concurrency = Math.max(3, availableParallelism() + 1);
  // One tier after the other: the machine is CPU-bound, and both at once took longer in all (579 s against 557 s).
  const results = [];
  if (tier !== 'slow') results.push(await runTier('fast', fast, { shard: !isolate, concurrency }));
  if (tier !== 'fast') results.push(await runTier('slow', orderSlowest(slow), { shard: false, concurrency }));
  process.stdout.write('\n');
  if (tier === 'fast' && slow.length > 0)
    process.stdout.write(`# slow tier: ${slow.length} files not run here; \`npm run test:slow\` runs them (CI does)\n`);
  for (const result of results)
    process.stdout.write(
      `# ${result.name} tier: ${result.files} files in ${result.seconds.toFixed(0)} s, ${result.ok ? 'passed' : 'FAILED'}\n`,
    );
  process.exitCode = results.every((result) => result.ok) ? 0 : 1;
} catch (error) {
  process.stderr.write(`run-tests: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
