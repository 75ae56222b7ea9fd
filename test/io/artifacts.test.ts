import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { isCheckerError } from '../../src/model/diagnostic.js';
import { readArtifact, resolveOutputPath, withArtifactLock, writeArtifact } from '../../src/io/artifacts.js';
import { createRepoFiles } from '../../src/io/repo-files.js';
import { toInputError } from '../../src/model/repo-files.js';
import { createRepo, makeTempDir } from '../helpers/git-repo.js';
import { childModuleUrl, childNodeArgs } from '../helpers/child-module.js';

/** The edge's text read, throwing its refusal as the `input/*` CheckerError a caller that cannot go on would. */
async function readRepoFile(root: string, path: string, options: { maxBytes: number; fatalUtf8: boolean }): Promise<string> {
  const read = await createRepoFiles(root).readText(path, {
    maxBytes: options.maxBytes,
    invalidUtf8: options.fatalUtf8 ? 'refuse' : 'replace',
  });
  if (!read.ok) throw toInputError(path, read);
  return read.text;
}

const cleanups: Array<() => void> = [];
after(() => {
  for (const cleanup of cleanups) cleanup();
});

function tempDir(): string {
  const dir = makeTempDir('checker-artifacts-');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A repo folder and a sibling `outside` folder holding a victim file. */
function makeLayout(): { repo: string; outside: string } {
  const base = tempDir();
  const repo = join(base, 'repo');
  const outside = join(base, 'outside');
  mkdirSync(repo);
  mkdirSync(outside);
  writeFileSync(join(outside, 'victim.txt'), 'victim content\n');
  return { repo, outside };
}

function hashTree(dir: string): string {
  const hash = createHash('sha256');
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(current, entry.name);
      hash.update(`${full}\0`);
      if (entry.isSymbolicLink()) hash.update(`link:${readlinkSync(full)}`);
      else if (entry.isDirectory()) walk(full);
      else hash.update(readFileSync(full));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isCheckerError(error), `expected CheckerError, got ${String(error)}`);
    assert.equal(error.code, code);
    return true;
  });
}

describe('writeArtifact: path validation', () => {
  const invalid = [
    '../x',
    '../../../../tmp/pwn',
    'a/../../x',
    '/abs/path.json',
    '',
    'x\u0000y',
    'a\\b',
    '..\\..\\x',
    'x'.repeat(10_000),
    '.',
    '..',
    'a//b',
    '.hidden',
    'CON',
    'nul.json',
    'trailing.',
    'ses sion',
    '\u202Eevil',
    'ＦＵＬＬＷＩＤＴＨ',
  ];
  for (const relativePath of invalid) {
    it(`refuses ${JSON.stringify(relativePath.slice(0, 30))} before touching the disk`, async () => {
      const { repo } = makeLayout();
      await rejectsWithCode(writeArtifact(repo, relativePath, 'x'), 'artifact/invalid-path');
      assert.equal(existsSync(join(repo, '.checker')), false);
    });
  }
});

describe('writeArtifact: writing', () => {
  it('creates .checker/local with a .gitignore of * and writes the file with mode 0600', async () => {
    const { repo } = makeLayout();
    const written = await writeArtifact(repo, 'agent-sessions/s1.json', '{"a":1}\n');
    assert.equal(written, join(repo, '.checker', 'local', 'agent-sessions', 's1.json'));
    assert.equal(readFileSync(written, 'utf8'), '{"a":1}\n');
    assert.equal(readFileSync(join(repo, '.checker', 'local', '.gitignore'), 'utf8'), '*\n');
    assert.equal(statSync(written).mode & 0o777, 0o600);
  });

  it('keeps git status clean in a real repository', async () => {
    const repo = createRepo({ 'src/app.ts': 'export const app = 1;\n' });
    cleanups.push(() => repo.cleanup());
    await writeArtifact(repo.dir, 'task-context.json', '{}');
    await writeArtifact(repo.dir, 'product-runs/latest.json', '{}');
    assert.equal(repo.git('status', '--porcelain', '--untracked-files=all'), '');
  });

  it('writes bytes as given', async () => {
    const { repo } = makeLayout();
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const written = await writeArtifact(repo, 'cache/blob.bin', bytes);
    assert.deepEqual([...readFileSync(written)], [0, 1, 2, 255]);
  });

  it('refuses to create twice and leaves the first file byte-identical', async () => {
    const { repo } = makeLayout();
    const written = await writeArtifact(repo, 'agent-sessions/s1.json', 'first', { mode: 'create' });
    await rejectsWithCode(writeArtifact(repo, 'agent-sessions/s1.json', 'second', { mode: 'create' }), 'artifact/exists');
    assert.equal(readFileSync(written, 'utf8'), 'first');
  });

  it('lets exactly one of 20 concurrent creates win', async () => {
    const { repo } = makeLayout();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => writeArtifact(repo, 'agent-sessions/race.json', `writer ${i}`, { mode: 'create' })),
    );
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    assert.match(readFileSync(join(repo, '.checker/local/agent-sessions/race.json'), 'utf8'), /^writer \d+$/);
  });

  it('serialises concurrent replaces of one path and leaves no temp files', async () => {
    const { repo } = makeLayout();
    const contents = Array.from({ length: 30 }, (_, i) => `content ${i} `.repeat(1000));
    await Promise.all(contents.map((content) => writeArtifact(repo, 'task-context.json', content)));
    assert.ok(contents.includes(readFileSync(join(repo, '.checker/local/task-context.json'), 'utf8')));
    assert.deepEqual(readdirSync(join(repo, '.checker/local')).sort(), ['.gitignore', 'task-context.json']);
  });

  it('removes the temp file when the rename fails', async () => {
    const { repo } = makeLayout();
    mkdirSync(join(repo, '.checker/local/task-context.json'), { recursive: true });
    await rejectsWithCode(writeArtifact(repo, 'task-context.json', 'x'), 'artifact/write-failed');
    assert.deepEqual(readdirSync(join(repo, '.checker/local')).sort(), ['.gitignore', 'task-context.json']);
  });
});

describe('writeArtifact: symlinks', () => {
  it('refuses a symlinked .checker/local pointing outside and writes nothing outside', async () => {
    const { repo, outside } = makeLayout();
    mkdirSync(join(repo, '.checker'));
    symlinkSync(outside, join(repo, '.checker', 'local'));
    const before = hashTree(outside);
    await rejectsWithCode(writeArtifact(repo, 'task-context.json', 'x'), 'artifact/symlink');
    await rejectsWithCode(writeArtifact(repo, 'agent-sessions/s1.json', 'x', { mode: 'create' }), 'artifact/symlink');
    assert.equal(hashTree(outside), before);
  });

  it('refuses a symlinked .checker', async () => {
    const { repo, outside } = makeLayout();
    symlinkSync(outside, join(repo, '.checker'));
    const before = hashTree(outside);
    await rejectsWithCode(writeArtifact(repo, 'task-context.json', 'x'), 'artifact/symlink');
    assert.equal(hashTree(outside), before);
  });

  it('refuses a symlinked sub-folder and a dangling symlinked .checker', async () => {
    const { repo, outside } = makeLayout();
    mkdirSync(join(repo, '.checker/local'), { recursive: true });
    symlinkSync(outside, join(repo, '.checker/local/agent-sessions'));
    const before = hashTree(outside);
    await rejectsWithCode(writeArtifact(repo, 'agent-sessions/s1.json', 'x', { mode: 'create' }), 'artifact/symlink');
    assert.equal(hashTree(outside), before);

    const other = makeLayout();
    symlinkSync(join(other.outside, 'missing-dir'), join(other.repo, '.checker'));
    await rejectsWithCode(writeArtifact(other.repo, 'x.json', 'x'), 'artifact/symlink');
    assert.equal(existsSync(join(other.outside, 'missing-dir')), false);
  });

  it('refuses a regular file where a folder is expected', async () => {
    const { repo } = makeLayout();
    writeFileSync(join(repo, '.checker'), 'not a folder');
    await rejectsWithCode(writeArtifact(repo, 'x.json', 'x'), 'artifact/not-a-directory');
  });

  it('create mode on a dangling symlink target fails with artifact/exists and creates nothing outside', async () => {
    const { repo, outside } = makeLayout();
    mkdirSync(join(repo, '.checker/local/agent-sessions'), { recursive: true });
    symlinkSync(join(outside, 'new.json'), join(repo, '.checker/local/agent-sessions/s1.json'));
    await rejectsWithCode(writeArtifact(repo, 'agent-sessions/s1.json', 'x', { mode: 'create' }), 'artifact/exists');
    assert.equal(existsSync(join(outside, 'new.json')), false);
  });

  it('replace over a symlink replaces the link, not the victim', async () => {
    const { repo, outside } = makeLayout();
    mkdirSync(join(repo, '.checker/local/product-runs'), { recursive: true });
    const link = join(repo, '.checker/local/product-runs/latest.json');
    symlinkSync(join(outside, 'victim.txt'), link);
    await writeArtifact(repo, 'product-runs/latest.json', '{"ok":true}');
    assert.equal(readFileSync(join(outside, 'victim.txt'), 'utf8'), 'victim content\n');
    assert.equal(lstatSync(link).isSymbolicLink(), false);
    assert.equal(readFileSync(link, 'utf8'), '{"ok":true}');
  });
});

describe('readArtifact', () => {
  it('returns undefined when absent and the bytes when present', async () => {
    const { repo } = makeLayout();
    assert.equal(await readArtifact(repo, 'agent-sessions/s1.json'), undefined);
    await writeArtifact(repo, 'agent-sessions/s1.json', 'data');
    assert.equal((await readArtifact(repo, 'agent-sessions/s1.json'))?.toString('utf8'), 'data');
    assert.equal(await readArtifact(repo, 'agent-sessions/s2.json'), undefined);
  });

  it('refuses symlinks and invalid paths', async () => {
    const { repo, outside } = makeLayout();
    mkdirSync(join(repo, '.checker/local'), { recursive: true });
    symlinkSync(join(outside, 'victim.txt'), join(repo, '.checker/local/task-context.json'));
    await rejectsWithCode(readArtifact(repo, 'task-context.json'), 'artifact/symlink');
    await rejectsWithCode(readArtifact(repo, '../victim.txt'), 'artifact/invalid-path');
  });
});

describe('resolveOutputPath', () => {
  it('resolves relative paths inside .checker/local', async () => {
    const { repo } = makeLayout();
    assert.deepEqual(await resolveOutputPath(repo, 'report.md'), {
      relativePath: 'report.md',
      absolutePath: join(repo, '.checker/local/report.md'),
    });
    assert.deepEqual(await resolveOutputPath(repo, './.checker/local/runs/out.json'), {
      relativePath: 'runs/out.json',
      absolutePath: join(repo, '.checker/local/runs/out.json'),
    });
    assert.deepEqual(await resolveOutputPath(repo, join(repo, '.checker/local/bundle.md')), {
      relativePath: 'bundle.md',
      absolutePath: join(repo, '.checker/local/bundle.md'),
    });
  });

  it('refuses anything outside .checker/local with the redirection hint', async () => {
    const { repo } = makeLayout();
    for (const output of [
      '../x.md',
      '/tmp/x.md',
      join(repo, 'README.md'),
      join(repo, '.checker/local-evil/x.md'),
      `${repo}2/x.md`,
      join(repo, '.checker/local'),
      'a\\..\\..\\x',
    ]) {
      await assert.rejects(resolveOutputPath(repo, output), (error: unknown) => {
        assert.ok(isCheckerError(error));
        assert.equal(error.code, 'output/outside', output);
        assert.equal(error.hint, 'write to stdout and use shell redirection instead (checker … > file)');
        return true;
      });
    }
  });
});

describe('withArtifactLock', () => {
  async function increment(repo: string): Promise<void> {
    await withArtifactLock(repo, 'counter.json', async () => {
      const current = Number((await readArtifact(repo, 'counter.json'))?.toString('utf8') ?? '0');
      await new Promise((resolve) => setImmediate(resolve));
      await writeArtifact(repo, 'counter.json', String(current + 1));
    });
  }

  it('two concurrent read-modify-write loops of 20 lose no update', async () => {
    const { repo } = makeLayout();
    const loop = async (): Promise<void> => {
      for (let i = 0; i < 20; i += 1) await increment(repo);
    };
    await Promise.all([loop(), loop()]);
    assert.equal((await readArtifact(repo, 'counter.json'))?.toString('utf8'), '40');
    assert.equal(existsSync(join(repo, '.checker/local/counter.json.lock')), false);
  });

  it('two processes incrementing 20 times each lose no update', async () => {
    const { repo } = makeLayout();
    const script = join(tempDir(), 'lock-worker.mjs');
    const artifactsModule = childModuleUrl('io/artifacts');
    writeFileSync(
      script,
      [
        `import { readArtifact, withArtifactLock, writeArtifact } from '${artifactsModule}';`,
        'const repo = process.argv[2] ?? "";',
        'for (let i = 0; i < 20; i += 1) {',
        "  await withArtifactLock(repo, 'counter.json', async () => {",
        "    const current = Number((await readArtifact(repo, 'counter.json'))?.toString('utf8') ?? '0');",
        "    await writeArtifact(repo, 'counter.json', String(current + 1));",
        '  });',
        '}',
      ].join('\n'),
    );
    const run = (): Promise<number | null> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [...childNodeArgs(), script, repo], { stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('error', reject);
        child.on('exit', (code) => resolve(code));
      });
    assert.deepEqual(await Promise.all([run(), run()]), [0, 0]);
    assert.equal((await readArtifact(repo, 'counter.json'))?.toString('utf8'), '40');
  });

  it('takes over a stale lock and times out on a fresh one', async () => {
    const { repo } = makeLayout();
    await writeArtifact(repo, 'session.json.lock', 'other');
    const lock = join(repo, '.checker/local/session.json.lock');
    await rejectsWithCode(
      withArtifactLock(repo, 'session.json', async () => 'never', { timeoutMs: 100 }),
      'artifact/locked',
    );
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    assert.equal(await withArtifactLock(repo, 'session.json', async () => 'ran', { timeoutMs: 1000 }), 'ran');
    assert.equal(existsSync(lock), false);
  });
});

describe('readRepoFile', () => {
  it('reads a file inside the repository, dropping a BOM, and follows in-repo symlinks', async () => {
    const { repo } = makeLayout();
    writeFileSync(join(repo, 'req.json'), '\ufeff{"a":1}');
    symlinkSync('req.json', join(repo, 'link.json'));
    assert.equal(await readRepoFile(repo, 'req.json', { maxBytes: 100, fatalUtf8: true }), '{"a":1}');
    assert.equal(await readRepoFile(repo, 'link.json', { maxBytes: 100, fatalUtf8: true }), '{"a":1}');
  });

  it('maps every refusal to its input/* code', async () => {
    const { repo, outside } = makeLayout();
    writeFileSync(join(repo, 'big.txt'), 'x'.repeat(101));
    writeFileSync(join(repo, 'bad.txt'), Buffer.from([0x61, 0xff, 0x62]));
    mkdirSync(join(repo, 'folder'));
    symlinkSync(join(outside, 'victim.txt'), join(repo, 'escape.txt'));
    symlinkSync(outside, join(repo, 'escape-dir'));
    execFileSync('mkfifo', [join(repo, 'pipe.ts')]);
    const options = { maxBytes: 100, fatalUtf8: true };
    const cases: Array<[string, string]> = [
      ['../outside/victim.txt', 'input/outside-repo'],
      [join(outside, 'victim.txt'), 'input/outside-repo'],
      ['escape.txt', 'input/outside-repo'],
      ['escape-dir/victim.txt', 'input/outside-repo'],
      ['x\u0000y', 'input/outside-repo'],
      ['folder', 'input/not-a-file'],
      ['pipe.ts', 'input/not-a-file'],
      ['big.txt', 'input/too-large'],
      ['bad.txt', 'input/invalid-utf8'],
      ['missing.txt', 'input/not-found'],
    ];
    for (const [path, code] of cases) {
      await assert.rejects(readRepoFile(repo, path, options), (error: unknown) => {
        assert.ok(isCheckerError(error));
        assert.equal(error.code, code, path);
        return true;
      });
    }
    assert.equal(await readRepoFile(repo, 'bad.txt', { maxBytes: 100, fatalUtf8: false }), 'a\ufffdb');
  });

  it('with head, reads a longer file up to the cap, leaving out a character the cut splits', async () => {
    const { repo } = makeLayout();
    // 'é' is two bytes and '€' three: a cap of 4 falls inside the euro sign, 5 after it.
    writeFileSync(join(repo, 'text.txt'), 'é€z and more');
    writeFileSync(join(repo, 'bad.txt'), Buffer.from([0x61, 0xff, 0x62, 0x63]));
    const files = createRepoFiles(repo);
    const head = async (path: string, maxBytes: number): Promise<string> => {
      const read = await files.readText(path, { maxBytes, head: true });
      return read.ok ? read.text : `refused: ${read.reason}`;
    };
    assert.deepEqual(
      [await head('text.txt', 1), await head('text.txt', 2), await head('text.txt', 4), await head('text.txt', 5)],
      ['', 'é', 'é', 'é€'],
    );
    assert.equal(await head('text.txt', 100), 'é€z and more');
    // What is invalid before the cut stays refused.
    assert.equal(await head('bad.txt', 3), 'refused: invalid-utf8');
    assert.equal((await files.readText('text.txt', { maxBytes: 5 })).ok, false);
  });
});
