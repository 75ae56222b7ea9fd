import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readArtifact, resolveOutputPath, STRAY_AGE_MS, withArtifactLock, writeArtifact } from '../../src/io/artifacts.js';
import { isCheckerError } from '../../src/model/diagnostic.js';
import { runCli } from '../helpers/cli.js';
import { createRepo, makeTempDir, type TestRepo } from '../helpers/git-repo.js';
import { childModuleUrl, childNodeArgs } from '../helpers/child-module.js';

const cleanups: Array<() => void> = [];
after(() => {
  for (const cleanup of cleanups) cleanup();
});

const artifactsUrl = childModuleUrl('io/artifacts');
const OLD = new Date(Date.now() - 10 * 60_000);

function makeRepo(): TestRepo {
  const repo = createRepo({ 'src/pricing/discount.ts': 'export const applyDiscount = (total: number): number => total * 0.95;\n' });
  cleanups.push(() => repo.cleanup());
  return repo;
}

function tempDir(): string {
  const dir = makeTempDir('checker-crash-safe-');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function writeScript(name: string, lines: string[]): string {
  const path = join(tempDir(), name);
  writeFileSync(path, lines.join('\n'));
  return path;
}

async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isCheckerError(error), `expected CheckerError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return true;
  });
}

/** Spawns `node script ...args` (see childNodeArgs), resolves with the child once it printed `marker` (or exited). */
function startChild(
  script: string,
  args: string[],
  marker: string,
): Promise<{ child: ReturnType<typeof spawn>; exited: Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childNodeArgs(), script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    child.on('error', reject);
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes(marker)) resolve({ child, exited });
    });
    void exited.then(() => resolve({ child, exited }));
  });
}

/** A pid that certainly ran on this host and has exited. */
function getDeadPid(): number {
  const result = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(result.stdout);
}

const HOLDER = [
  `import { withArtifactLock } from '${artifactsUrl}';`,
  'const [repo, staleMs] = process.argv.slice(2);',
  "await withArtifactLock(repo, 'agent-sessions/s1.json', async () => {",
  "  process.stdout.write('locked\\n');",
  '  await new Promise(() => setInterval(() => undefined, 60_000));',
  '}, { staleMs: Number(staleMs) });',
];

describe('withArtifactLock: a killed holder', () => {
  it('names its holder, and the next run breaks the lock of a SIGKILLed holder at once', async () => {
    const repo = makeRepo();
    const { child, exited } = await startChild(writeScript('holder.mjs', HOLDER), [repo.dir, '30000'], 'locked');
    const lockPath = join(repo.dir, '.checker/local/agent-sessions/s1.json.lock');
    const owner: unknown = JSON.parse(readFileSync(lockPath, 'utf8'));
    assert.ok(typeof owner === 'object' && owner !== null && 'pid' in owner && 'hostname' in owner);
    assert.deepEqual(Object.keys(owner).sort(), ['hostname', 'pid', 'startedAt', 'token']);
    assert.equal(owner.pid, child.pid);
    assert.equal(owner.hostname, hostname());
    child.kill('SIGKILL');
    await exited;
    const started = performance.now();
    assert.equal(await withArtifactLock(repo.dir, 'agent-sessions/s1.json', async () => 'ran'), 'ran');
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 2000, `took ${Math.round(elapsed)} ms; the stale window alone would take 30 s`);
    assert.equal(existsSync(lockPath), false);
    assert.deepEqual(readdirSync(join(repo.dir, '.checker/local/agent-sessions')), []);
  });

  it('a live holder keeps its lock fresh past the stale window, and its death frees the lock', async () => {
    const repo = makeRepo();
    // A 1 s stale window waited out three times over: a 300 ms window was missed by a holder starved on a machine at
    // load 7, which is the holder's machine, not the lock, failing.
    const { child, exited } = await startChild(writeScript('holder.mjs', HOLDER), [repo.dir, '1000'], 'locked');
    try {
      await rejectsWithCode(
        withArtifactLock(repo.dir, 'agent-sessions/s1.json', async () => 'stolen', { staleMs: 1000, timeoutMs: 3000 }),
        'artifact/locked',
      );
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    assert.equal(await withArtifactLock(repo.dir, 'agent-sessions/s1.json', async () => 'ran', { staleMs: 1000, timeoutMs: 3000 }), 'ran');
  });

  it('a lock from another host or an unreadable lock waits for the stale window; a dead pid here does not', async () => {
    const repo = makeRepo();
    const lockPath = join(repo.dir, '.checker/local/state.json.lock');
    const cases: Array<[string, string, 'waits' | 'breaks']> = [
      [
        'another host',
        JSON.stringify({ pid: getDeadPid(), hostname: `not-${hostname()}`, startedAt: new Date().toISOString(), token: 'a' }),
        'waits',
      ],
      ['unreadable', '', 'waits'],
      ['not JSON', 'pid 1', 'waits'],
      ['pid 0 (a process group, never a holder)', JSON.stringify({ pid: 0, hostname: hostname(), startedAt: '', token: 'b' }), 'waits'],
      [
        'dead pid on this host',
        JSON.stringify({ pid: getDeadPid(), hostname: hostname(), startedAt: new Date().toISOString(), token: 'c' }),
        'breaks',
      ],
      [
        'live pid on this host',
        JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString(), token: 'd' }),
        'waits',
      ],
    ];
    for (const [name, text, expected] of cases) {
      mkdirSync(join(repo.dir, '.checker/local'), { recursive: true });
      writeFileSync(lockPath, text);
      const run = withArtifactLock(repo.dir, 'state.json', async () => 'ran', { timeoutMs: 200 });
      if (expected === 'breaks') assert.equal(await run, 'ran', name);
      else {
        await rejectsWithCode(run, 'artifact/locked');
        assert.equal(readFileSync(lockPath, 'utf8'), text, name);
        utimesSync(lockPath, OLD, OLD);
        assert.equal(await withArtifactLock(repo.dir, 'state.json', async () => 'ran', { timeoutMs: 200 }), 'ran', name);
      }
      assert.equal(existsSync(lockPath), false, name);
    }
  });

  it('a dead lock is broken by one breaker at a time: not while another holds <lock>.break, and a dead breaker goes once stale', async () => {
    const repo = makeRepo();
    const lockPath = join(repo.dir, '.checker/local/state.json.lock');
    const breakerPath = `${lockPath}.break`;
    const dead = JSON.stringify({ pid: getDeadPid(), hostname: hostname(), startedAt: new Date().toISOString(), token: 'dead' });
    mkdirSync(join(repo.dir, '.checker/local'), { recursive: true });
    writeFileSync(lockPath, dead);
    writeFileSync(breakerPath, 'another waiter is breaking it');
    await rejectsWithCode(
      withArtifactLock(repo.dir, 'state.json', async () => 'stolen', { timeoutMs: 300 }),
      'artifact/locked',
    );
    assert.equal(readFileSync(lockPath, 'utf8'), dead, 'a held breaker keeps every other waiter from removing the lock');
    // A breaker whose process died mid-break: once stale it goes, and the dead lock with it.
    utimesSync(breakerPath, OLD, OLD);
    assert.equal(await withArtifactLock(repo.dir, 'state.json', async () => 'ran', { timeoutMs: 2000 }), 'ran');
    assert.deepEqual(readdirSync(join(repo.dir, '.checker/local')).sort(), ['.gitignore']);
    // A folder in the breaker's place is never removed: the waiter times out and says what to delete.
    writeFileSync(lockPath, dead);
    mkdirSync(breakerPath);
    utimesSync(breakerPath, OLD, OLD);
    const refused = await withArtifactLock(repo.dir, 'state.json', async () => 'ran', { timeoutMs: 300 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(isCheckerError(refused) && refused.code === 'artifact/locked');
    assert.match(refused.hint ?? '', /state\.json\.lock\.break/);
    assert.ok(statSync(breakerPath).isDirectory());
  });

  it('many waiters racing to break one dead lock: never two holders at once', async () => {
    const repo = makeRepo();
    const lockPath = join(repo.dir, '.checker/local/counter.json.lock');
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    for (let round = 0; round < 15; round += 1) {
      mkdirSync(join(repo.dir, '.checker/local'), { recursive: true });
      writeFileSync(
        lockPath,
        JSON.stringify({ pid: getDeadPid(), hostname: hostname(), startedAt: new Date().toISOString(), token: `dead-${round}` }),
      );
      await Promise.all(
        Array.from({ length: 6 }, () =>
          withArtifactLock(repo.dir, 'counter.json', async () => {
            active += 1;
            maxActive = Math.max(maxActive, active);
            await new Promise((resolve) => setTimeout(resolve, 2));
            runs += 1;
            active -= 1;
          }),
        ),
      );
    }
    assert.equal(runs, 90);
    assert.equal(maxActive, 1);
    assert.deepEqual(readdirSync(join(repo.dir, '.checker/local')).sort(), ['.gitignore']);
  });
});

describe('stray temp files', () => {
  it('removes strays older than STRAY_AGE_MS on the first write and keeps fresh ones, user files and symlinks', async () => {
    const repo = makeRepo();
    const outside = tempDir();
    writeFileSync(join(outside, 'victim.json.aaaaaaaaaaaa.tmp'), 'victim');
    utimesSync(join(outside, 'victim.json.aaaaaaaaaaaa.tmp'), OLD, OLD);
    const local = join(repo.dir, '.checker/local');
    mkdirSync(join(local, 'agent-sessions'), { recursive: true });
    mkdirSync(join(local, 'product-runs'), { recursive: true });
    const files: Record<string, 'old' | 'fresh'> = {
      'task-context.json.0123456789ab.tmp': 'old',
      'agent-sessions/s1.json.abcdef012345.tmp': 'old',
      'agent-sessions/s1.json.lock.abcdef012345.tmp': 'old',
      'agent-sessions/s2.json.lock.0123456789ab.stale': 'old',
      'product-runs/latest.json.fedcba987654.tmp': 'fresh',
      'notes.tmp': 'old',
      'agent-sessions/s3.json': 'old',
    };
    for (const [path, age] of Object.entries(files)) {
      writeFileSync(join(local, path), 'x');
      if (age === 'old') utimesSync(join(local, path), OLD, OLD);
    }
    symlinkSync(join(outside, 'victim.json.aaaaaaaaaaaa.tmp'), join(local, 'linked.json.bbbbbbbbbbbb.tmp'));
    symlinkSync(outside, join(local, 'linked-dir'));
    await writeArtifact(repo.dir, 'task-context.json', '{}\n');
    const left = (dir: string): string[] => readdirSync(join(local, dir)).sort();
    assert.deepEqual(left('.'), [
      '.gitignore',
      'agent-sessions',
      'linked-dir',
      'linked.json.bbbbbbbbbbbb.tmp',
      'notes.tmp',
      'product-runs',
      'task-context.json',
    ]);
    assert.deepEqual(left('agent-sessions'), ['s3.json']);
    assert.deepEqual(left('product-runs'), ['latest.json.fedcba987654.tmp']);
    assert.equal(readFileSync(join(outside, 'victim.json.aaaaaaaaaaaa.tmp'), 'utf8'), 'victim');
    assert.ok(STRAY_AGE_MS >= 10_000, 'a concurrent writer has seconds to finish its temp file');
  });

  it('refuses artifact names that look like checker temp files', async () => {
    const repo = makeRepo();
    await rejectsWithCode(writeArtifact(repo.dir, 'report.0123456789ab.tmp', 'x'), 'artifact/invalid-path');
    await rejectsWithCode(writeArtifact(repo.dir, 'runs/x.0123456789ab.stale', 'x'), 'artifact/invalid-path');
    await rejectsWithCode(resolveOutputPath(repo.dir, 'out.abcdefabcdef.tmp'), 'artifact/invalid-path');
  });

  it('SIGKILL between temp write and rename of a replace keeps the old file; the stray is swept by a later run', async () => {
    const repo = makeRepo();
    await writeArtifact(repo.dir, 'task-context.json', '{"version":1}\n');
    const script = writeScript('replace-worker.mjs', [
      "import { createRequire, syncBuiltinESMExports } from 'node:module';",
      "const fsp = createRequire(import.meta.url)('node:fs/promises');",
      'const original = fsp.rename;',
      "fsp.rename = async (from, to) => { if (String(to).endsWith('task-context.json')) { process.stdout.write('paused\\n'); await new Promise(() => setInterval(() => undefined, 60_000)); } return original(from, to); };",
      'syncBuiltinESMExports();',
      `const { writeArtifact } = await import('${artifactsUrl}');`,
      "await writeArtifact(process.argv[2], 'task-context.json', '{\"version\":2}\\n');",
    ]);
    const { child, exited } = await startChild(script, [repo.dir], 'paused');
    child.kill('SIGKILL');
    await exited;
    const local = join(repo.dir, '.checker/local');
    assert.equal(readFileSync(join(local, 'task-context.json'), 'utf8'), '{"version":1}\n');
    const strays = readdirSync(local).filter((name) => name.endsWith('.tmp'));
    assert.equal(strays.length, 1);
    assert.equal(readFileSync(join(local, strays[0] ?? ''), 'utf8'), '{"version":2}\n');
    const sweeper = writeScript('sweep-worker.mjs', [
      `const { writeArtifact } = await import('${artifactsUrl}');`,
      "await writeArtifact(process.argv[2], 'other.json', '{}');",
    ]);
    const sweep = (): Promise<number | null> => startChild(sweeper, [repo.dir], '\0').then(({ exited: done }) => done);
    assert.equal(await sweep(), 0);
    assert.ok(existsSync(join(local, strays[0] ?? '')), 'a fresh stray may still be a live writer');
    utimesSync(join(local, strays[0] ?? ''), OLD, OLD);
    assert.equal(await sweep(), 0);
    assert.deepEqual(readdirSync(local).sort(), ['.gitignore', 'other.json', 'task-context.json']);
  });
});

describe('create where the filesystem has no hard links', () => {
  const fsp = createRequire(import.meta.url)('node:fs/promises') as { link: (from: string, to: string) => Promise<void> };

  async function withoutLinks<T>(fn: () => Promise<T>): Promise<T> {
    const original = fsp.link;
    fsp.link = async () => {
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    };
    syncBuiltinESMExports();
    try {
      return await fn();
    } finally {
      fsp.link = original;
      syncBuiltinESMExports();
    }
  }

  it('falls back to lock + rename: complete or absent, never overwrites, no temp left', async () => {
    const repo = makeRepo();
    const outside = tempDir();
    await withoutLinks(async () => {
      const written = await writeArtifact(repo.dir, 'agent-sessions/s1.json', 'first', { mode: 'create' });
      await rejectsWithCode(writeArtifact(repo.dir, 'agent-sessions/s1.json', 'second', { mode: 'create' }), 'artifact/exists');
      assert.equal(readFileSync(written, 'utf8'), 'first');
      symlinkSync(join(outside, 'new.json'), join(repo.dir, '.checker/local/agent-sessions/dangling.json'));
      await rejectsWithCode(writeArtifact(repo.dir, 'agent-sessions/dangling.json', 'x', { mode: 'create' }), 'artifact/exists');
      assert.equal(await withArtifactLock(repo.dir, 'agent-sessions/s1.json', async () => 'locked'), 'locked');
    });
    assert.equal(existsSync(join(outside, 'new.json')), false);
    assert.deepEqual(readdirSync(join(repo.dir, '.checker/local/agent-sessions')).sort(), ['dangling.json', 's1.json']);
    assert.equal(statSync(join(repo.dir, '.checker/local/agent-sessions/s1.json')).mode & 0o777, 0o600);
  });

  it('four processes creating one id without hard links: exactly one wins', async () => {
    const repo = makeRepo();
    const script = writeScript('create-worker.mjs', [
      "import { createRequire, syncBuiltinESMExports } from 'node:module';",
      "const fsp = createRequire(import.meta.url)('node:fs/promises');",
      "fsp.link = async () => { throw Object.assign(new Error('no links'), { code: 'EPERM' }); };",
      'syncBuiltinESMExports();',
      `const { writeArtifact } = await import('${artifactsUrl}');`,
      "try { await writeArtifact(process.argv[2], 'agent-sessions/race.json', 'writer ' + process.pid, { mode: 'create' }); process.exitCode = 0; }",
      "catch (error) { process.exitCode = error.code === 'artifact/exists' ? 3 : 1; }",
    ]);
    const children = await Promise.all(Array.from({ length: 4 }, () => startChild(script, [repo.dir], '\0')));
    const codes = (await Promise.all(children.map(({ exited }) => exited))).sort();
    assert.deepEqual(codes, [0, 3, 3, 3]);
    assert.match(readFileSync(join(repo.dir, '.checker/local/agent-sessions/race.json'), 'utf8'), /^writer \d+$/);
    assert.deepEqual(readdirSync(join(repo.dir, '.checker/local/agent-sessions')), ['race.json']);
  });
});

describe('--output through a symlinked --cwd', () => {
  function makeLinkedLayout(): { base: string; repo: TestRepo; link: string; outside: string } {
    const base = tempDir();
    const repo = makeRepo();
    const link = join(base, 'link');
    symlinkSync(repo.dir, link);
    const outside = join(base, 'outside');
    mkdirSync(outside);
    return { base, repo, link, outside };
  }

  it('accepts an absolute output that really lands in .checker/local/, whichever root it is given', async () => {
    const { repo, link } = makeLinkedLayout();
    const expected = { relativePath: 'reports/x.md', absolutePath: join(repo.dir, '.checker/local/reports/x.md') };
    assert.deepEqual(await resolveOutputPath(repo.dir, join(link, '.checker/local/reports/x.md')), expected);
    assert.deepEqual(await resolveOutputPath(link, join(link, '.checker/local/reports/x.md')), expected);
    assert.deepEqual(await resolveOutputPath(link, join(repo.dir, '.checker/local/reports/x.md')), expected);
  });

  it('still refuses an output that a symlink sends outside', async () => {
    const { base, repo, link, outside } = makeLinkedLayout();
    mkdirSync(join(repo.dir, '.checker/local'), { recursive: true });
    symlinkSync(outside, join(repo.dir, '.checker/local/escape'));
    symlinkSync(outside, join(base, 'evil'));
    symlinkSync(join(repo.dir, 'missing-loop'), join(repo.dir, 'missing-loop'));
    for (const output of [
      join(link, '.checker/local/escape/x.md'),
      join(base, 'evil/x.md'),
      join(link, '.checker/local'),
      join(link, 'README.md'),
      join(repo.dir, 'missing-loop/.checker/local/x.md'),
    ]) {
      await rejectsWithCode(resolveOutputPath(link, output), 'output/outside');
    }
    assert.deepEqual(readdirSync(outside), []);
  });

  it('checker analyze --cwd <symlink> --output <symlink>/.checker/local/report.md writes the report; an escaping output is refused', () => {
    const { repo, link, outside } = makeLinkedLayout();
    const accepted = runCli(['analyze', '--cwd', link, '--output', join(link, '.checker/local/report.md')]);
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.ok(readFileSync(join(repo.dir, '.checker/local/report.md'), 'utf8').length > 0);
    symlinkSync(outside, join(repo.dir, '.checker/local/escape'));
    const refused = runCli(['analyze', '--cwd', link, '--output', join(link, '.checker/local/escape/report.md')]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /output\/outside/);
    assert.deepEqual(readdirSync(outside), []);
  });
});

describe('readArtifact after a crash', () => {
  it('ignores strays: only the named file is read', async () => {
    const repo = makeRepo();
    mkdirSync(join(repo.dir, '.checker/local/agent-sessions'), { recursive: true });
    writeFileSync(join(repo.dir, '.checker/local/agent-sessions/s1.json.0123456789ab.tmp'), '{"partial"');
    assert.equal(await readArtifact(repo.dir, 'agent-sessions/s1.json'), undefined);
  });
});
