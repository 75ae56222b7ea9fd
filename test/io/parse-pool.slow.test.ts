import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';
import type { ParseOptions } from '../../src/model/facts.js';
import { isCheckerError } from '../../src/model/diagnostic.js';
import { createParsePool, selectExecArgv, type ParseJob } from '../../src/io/parse-pool.js';
import { makeTempDir } from '../helpers/git-repo.js';
import { childModuleUrl, childNodeArgs } from '../helpers/child-module.js';
import { isProcessAlive } from '../helpers/processes.js';

const options: ParseOptions = { assertionHelpers: ['expectValid'] };
// The fact extractor refuses deep brackets itself, so crash swc (SIGSEGV, verified with @swc/core 1.16) with 12,000 nested `if` statements instead.
const segfaultingSource = `${'if (ready) '.repeat(12_000)}start();\n`;

function buildModule(index: number): ParseJob {
  return {
    path: `src/module-${index}.ts`,
    text: [
      `import { helper${index + 1} } from './module-${index + 1}.js';`,
      `export function helper${index}(value: number): number {`,
      `  return value > ${index} ? helper${index + 1}(value - 1) : parseInt(String(value), 10);`,
      '}',
      '',
    ].join('\n'),
  };
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

test('the pool parses many files across its child processes with the same facts as in-process parsing', async (t) => {
  const pool = createParsePool({ size: 2 });
  t.after(() => pool.close());
  const jobs = Array.from({ length: 300 }, (_, index) => buildModule(index));

  const results = await pool.parse(jobs, options);

  assert.equal(pool.processIds().length, 2);
  assert.deepEqual([...results.keys()].sort(), jobs.map((job) => job.path).sort());
  for (const job of jobs) assert.deepEqual(results.get(job.path), extractFacts(job.path, job.text, options));
});

test('a file that segfaults swc is reported as parse/crash while the rest of its batch is parsed, and the parent survives', async (t) => {
  const pool = createParsePool({ size: 1 });
  t.after(() => pool.close());
  const jobs = Array.from({ length: 10 }, (_, index) => buildModule(index));
  jobs.splice(4, 0, { path: 'src/hostile.ts', text: segfaultingSource });
  await pool.parse([buildModule(99)], options);
  const [firstPid] = pool.processIds();
  assert.equal(typeof firstPid, 'number');

  const results = await pool.parse(jobs, options);

  assert.deepEqual(results.get('src/hostile.ts'), {
    imports: [],
    exports: [],
    tests: [],
    mocks: [],
    routes: [],
    mounts: [],
    uses: [],
    callables: [],
    constants: [],
    signals: [],
    functions: [],
    lines: 1,
    failure: { code: 'parse/crash', message: 'the parser process died (signal SIGSEGV) while parsing this file' },
  });
  for (const job of jobs) {
    if (job.path !== 'src/hostile.ts') assert.deepEqual(results.get(job.path), extractFacts(job.path, job.text, options));
  }
  assert.equal(results.size, 11);
  assert.equal(isProcessAlive(firstPid ?? 0), false);
  assert.equal(pool.processIds().length, 1);
  assert.notEqual(pool.processIds()[0], firstPid);
  const after = await pool.parse([buildModule(7)], options);
  assert.deepEqual(after.get('src/module-7.ts'), extractFacts('src/module-7.ts', buildModule(7).text, options));
});

test('a request of a few dozen files is shared by every child, not sent to one in a single batch', async (t) => {
  const pool = createParsePool({ size: 2 });
  t.after(() => pool.close());
  const jobs = Array.from({ length: 63 }, (_, index) => buildModule(index));
  const parsing = pool.parse(jobs, options);
  // Both children are started for it: a single batch of 63 (under the 64-file limit) would have started one.
  assert.equal(pool.processIds().length, 2);
  const results = await parsing;
  assert.equal(results.size, 63);
  for (const job of jobs) assert.deepEqual(results.get(job.path), extractFacts(job.path, job.text, options));
});

test('a child is given its batch while it starts, and a file that crashes it then is still isolated', async (t) => {
  const pool = createParsePool({ size: 1 });
  t.after(() => pool.close());
  const jobs = [buildModule(1), { path: 'src/hostile.ts', text: segfaultingSource }, buildModule(2)];
  const parsing = pool.parse(jobs, options);
  const [pid] = pool.processIds();
  assert.equal(typeof pid, 'number');
  // This thread blocks and reads nothing (not the child's 'ready' either): the child can only reach the hostile file
  // and die if its batch was sent with it as it started. It sleeps in Atomics.wait rather than spinning, so that the
  // child has the CPU on a loaded machine. Left as soon as the child is gone; the cap is only a hang guard.
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const until = Date.now() + 180_000;
  while (Date.now() < until && isProcessAlive(pid ?? 0)) Atomics.wait(sleeper, 0, 0, 20);
  assert.equal(isProcessAlive(pid ?? 0), false, 'the child was still waiting for its batch');
  const results = await parsing;
  assert.deepEqual(results.get('src/hostile.ts')?.failure, {
    code: 'parse/crash',
    message: 'the parser process died (signal SIGSEGV) while parsing this file',
  });
  for (const job of [buildModule(1), buildModule(2)]) assert.deepEqual(results.get(job.path), extractFacts(job.path, job.text, options));
});

test('a batch over the time limit is killed and its file reported as parse/timeout', async (t) => {
  const pool = createParsePool({ size: 1, timeoutMs: 5 });
  t.after(() => pool.close());
  const slow = { path: 'src/slow.ts', text: 'let total = 1;\n'.repeat(200_000) };

  const results = await pool.parse([slow], options);

  assert.deepEqual(results.get('src/slow.ts')?.failure, { code: 'parse/timeout', message: 'parsing took longer than 5 ms' });
  assert.equal(results.get('src/slow.ts')?.lines, 200_000);
});

test("a batch's time limit counts from when its child is up, not while the child is still starting", async (t) => {
  // Every child spends 5 s busy before it can start (a loaded machine's node and swc start-up); the batch limit is 3 s,
  // ample for a parse of a few milliseconds even on a busy machine: counted from dispatch, the child would be killed
  // while still starting, before it parsed anything.
  const saved = process.env.NODE_OPTIONS;
  // NODE_OPTIONS splits on spaces: the module's text is percent-encoded.
  const slowStart = `data:text/javascript,${encodeURIComponent('const until = Date.now() + 5000; while (Date.now() < until) {}')}`;
  process.env.NODE_OPTIONS = `${saved ?? ''} --import=${slowStart}`.trim();
  const pool = createParsePool({ size: 1, timeoutMs: 3000 });
  t.after(() => pool.close());
  const job = buildModule(1);
  try {
    const results = await pool.parse([job], options);
    assert.deepEqual(results.get(job.path), extractFacts(job.path, job.text, options));
  } finally {
    if (saved === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = saved;
  }
});

test('close() ends every child process and later calls are refused', async () => {
  const pool = createParsePool({ size: 2 });
  await pool.parse(
    Array.from({ length: 200 }, (_, index) => buildModule(index)),
    options,
  );
  const pids = pool.processIds();
  assert.equal(pids.length, 2);

  await pool.close();

  assert.deepEqual(pool.processIds(), []);
  assert.deepEqual(pids.map(isProcessAlive), [false, false]);
  await assert.rejects(pool.parse([buildModule(1)], options), (error) => isCheckerError(error) && error.code === 'parse/pool-closed');
});

test('an empty job list resolves without starting a process', async () => {
  const pool = createParsePool();
  assert.deepEqual(await pool.parse([], options), new Map());
  assert.deepEqual(pool.processIds(), []);
  await pool.close();
});

test('warm() starts the children before the first batch and parse() then uses them', async (t) => {
  const pool = createParsePool({ size: 2 });
  t.after(() => pool.close());

  pool.warm();
  const warmed = pool.processIds();
  const results = await pool.parse([buildModule(3)], options);

  assert.equal(warmed.length, 2);
  assert.deepEqual(pool.processIds(), warmed);
  assert.deepEqual(results.get('src/module-3.ts'), extractFacts('src/module-3.ts', buildModule(3).text, options));
});

test('child processes inherit loader flags but not test, inspector or eval flags', () => {
  assert.deepEqual(
    selectExecArgv([
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      '--inspect=9229',
      '--eval',
      'code()',
      '--max-old-space-size=4096',
      '-r',
      'x.cjs',
    ]),
    ['--import', 'tsx', '--max-old-space-size=4096', '-r', 'x.cjs'],
  );
});

test('child processes exit on their own when the parent process is killed', async (t) => {
  const dir = makeTempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'parent.mjs');
  const poolModule = childModuleUrl('io/parse-pool');
  writeFileSync(
    script,
    [
      `import { createParsePool } from ${JSON.stringify(poolModule)};`,
      'const pool = createParsePool({ size: 2 });',
      "const jobs = Array.from({ length: 200 }, (_, index) => ({ path: `f${index}.ts`, text: 'export const a = 1;\\n' }));",
      'await pool.parse(jobs, { assertionHelpers: [] });',
      "process.stdout.write(JSON.stringify(pool.processIds()) + '\\n');",
      'setInterval(() => undefined, 1000);',
    ].join('\n'),
  );
  const parent = spawn(process.execPath, [...childNodeArgs(), script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: parent.stdout });
  const [line] = await once(lines, 'line');
  const pids: unknown = JSON.parse(String(line));
  assert.ok(Array.isArray(pids));
  assert.equal(pids.length, 2);

  parent.kill('SIGKILL');
  await once(parent, 'exit');

  assert.equal(await waitUntil(() => !pids.some((pid) => typeof pid === 'number' && isProcessAlive(pid)), 10_000), true);
});

test('close() resolves when children become ready only after it was called', async (t) => {
  const dir = makeTempDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'parent.mjs');
  writeFileSync(
    script,
    [
      `import { createParsePool } from ${JSON.stringify(childModuleUrl('io/parse-pool'))};`,
      'const pool = createParsePool({ size: 2 });',
      'pool.warm();',
      // Block this loop while the children start, so their "ready" messages wait in the pipe until close() has run.
      'const until = Date.now() + 3000;',
      'while (Date.now() < until);',
      'const pids = pool.processIds();',
      'await pool.close();',
      "process.stdout.write(JSON.stringify(pids) + '\\n');",
    ].join('\n'),
  );
  const parent = spawn(process.execPath, [...childNodeArgs(), script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  parent.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const [code] = await once(parent, 'exit');

  assert.equal(code, 0);
  const pids: unknown = JSON.parse(stdout || 'null');
  assert.ok(Array.isArray(pids), `close() never resolved: the parent's event loop emptied first (stdout ${JSON.stringify(stdout)})`);
  assert.equal(pids.length, 2);
  assert.deepEqual(
    pids.map((pid) => isProcessAlive(Number(pid))),
    [false, false],
  );
});

test('texts a child keeps go back to that child; after it dies, or after release, the files are read again elsewhere', async (t) => {
  const root = makeTempDir('checker-pool-hold-');
  const paths = Array.from({ length: 24 }, (_, index) => `src/file-${index}.ts`);
  for (const path of paths) writeFileSync(join(root, path.replace('src/', '')), 'export const value = 1;\n');
  const jobs = paths.map((path) => ({ path: path.replace('src/', ''), size: 24 }));
  const pool = createParsePool({ size: 2 });
  t.after(async () => {
    await pool.close();
    rmSync(root, { recursive: true, force: true });
  });
  const nothing = { words: ['/absent'], dots: false };
  const holders = async (keys: typeof nothing, withHolder?: ReadonlyMap<string, number>): Promise<Map<string, number | undefined>> => {
    const sent = jobs.map((job) => ({ ...job, ...(withHolder?.get(job.path) === undefined ? {} : { holder: withHolder.get(job.path) }) }));
    const outcomes = await pool.read({ root, maxBytes: 1 << 20, links: true, hold: true, keys: () => keys }, sent, options);
    return new Map(
      [...outcomes].map(([path, outcome]) => {
        assert.equal(outcome.kind, 'unlinked', path);
        return [path, outcome.kind === 'unlinked' ? outcome.holder : undefined];
      }),
    );
  };
  const first = await holders(nothing);
  const pids = new Set(first.values());
  assert.deepEqual([...pids].sort(), pool.processIds().sort(), 'both children keep a share of the texts');
  // Sent back with their holders, every file is answered by the child that kept it.
  assert.deepEqual(await holders(nothing, first as Map<string, number>), first);
  // One holder dies: its files go to the other child, which reads them from disk.
  const [gone, kept] = [...pids] as [number, number];
  process.kill(gone, 'SIGKILL');
  assert.ok(await waitUntil(() => !pool.processIds().includes(gone), 5000));
  const after = await holders(nothing, first as Map<string, number>);
  assert.deepEqual(
    [...after].filter(([path]) => first.get(path) === kept),
    [...first].filter(([, pid]) => pid === kept),
  );
  assert.ok([...after.values()].every((pid) => pid !== gone));
  // Released, the texts are gone; a file edited since is read again as it is now.
  pool.release();
  writeFileSync(join(root, 'file-0.ts'), "import { x } from './absent';\nexport const value = x;\n");
  const reread = await pool.read(
    { root, maxBytes: 1 << 20, links: true, keys: () => nothing },
    [{ path: 'file-0.ts', size: 48, holder: after.get('file-0.ts') as number }],
    options,
  );
  assert.equal(reread.get('file-0.ts')?.kind, 'linked');
});

// The saving itself (keys sent once per child, not with every batch) is what bench/RESULTS.md measures (2.5 GB of IPC on
// a 50k-file tree); this asserts what it must not break: a batch that names its keys by id alone is tested as the first.
test("batches after a child's first, naming the focus's keys by id, are tested against the same keys", async (t) => {
  const root = makeTempDir('checker-pool-keys-');
  const jobs = Array.from({ length: 12 }, (_, index) => {
    const path = `file-${index}.ts`;
    // Every third file names the key; the others hold nothing that could import the change.
    writeFileSync(
      join(root, path),
      index % 3 === 0 ? "import { x } from './wanted';\nexport const value = x;\n" : 'export const value = 1;\n',
    );
    return { path, size: 48 };
  });
  const pool = createParsePool({ size: 1, batchFiles: 2 });
  t.after(async () => {
    await pool.close();
    rmSync(root, { recursive: true, force: true });
  });
  const keys = { words: ['wanted'], dots: false };
  const kinds = async (): Promise<string[]> => {
    const outcomes = await pool.read({ root, maxBytes: 1 << 20, links: true, keys: () => keys }, jobs, options);
    return jobs.map((job) => outcomes.get(job.path)?.kind ?? 'missing');
  };
  const expected = jobs.map((_, index) => (index % 3 === 0 ? 'linked' : 'unlinked'));
  // Six batches to one child: the first carries the keys, the next five their id.
  assert.deepEqual(await kinds(), expected);
  // A second read is another set of keys, sent again, then named by its own id.
  assert.deepEqual(await kinds(), expected);
});
