import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import git from 'isomorphic-git';
import { analyzeChange } from '../../src/app/analyze.js';
import { findMergeBases, readCommitHead } from '../../src/io/git-commit.js';
import { mineHistory, readHistory } from '../../src/io/git-history.js';
import { readObjectHead } from '../../src/io/git-object-head.js';
import { createObjectReader } from '../../src/io/git-objects.js';
import { openRepository } from '../../src/io/git-repository.js';
import { DEFAULT_HISTORY_SETTINGS } from '../../src/model/history.js';
import { childModuleUrl, childNodeArgs } from '../helpers/child-module.js';
import { commitAt, gitAt } from '../helpers/dated-git.js';
import { createRepo, makeTempDir, type TestRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const SETTINGS = { ...DEFAULT_HISTORY_SETTINGS, maxAgeDays: 100_000 };
const MESSAGE_BYTES = 8 * 1024 * 1024;
const HEAD_BYTES = 64 * 1024;

/** `bytes` of lowercase words from a seed: text compressed about as a log is; two seeds share nothing to delta. */
function buildMessage(subject: string, bytes: number, seed: number): string {
  let state = seed;
  // The high bits: the low bits of this generator repeat every few thousand draws.
  const next = (): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state >>> 16;
  };
  const words = Array.from({ length: 4096 }, () =>
    Array.from({ length: 3 + (next() % 8) }, () => String.fromCharCode(97 + (next() % 26))).join(''),
  );
  const lines = [subject, ''];
  let length = subject.length + 1;
  while (length < bytes) {
    let line = '';
    while (line.length < 72) line += `${words[next() % words.length]} `;
    lines.push(line.trimEnd());
    length += line.length;
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `bytes` of a pasted log: a line per event (a request id from the seed) and the same stack under each. Two such
 * messages delta well, the copies taking their lines from anywhere in the other, far past its start.
 */
function buildLogMessage(subject: string, bytes: number, seed: number): string {
  let state = seed;
  const stack = ['    at fetchUpstream (src/server/upstream.ts:118:17)', '    at async retry (src/lib/retry.ts:42:12)', ''].join('\n');
  const events = [subject, ''];
  let length = subject.length + 1;
  while (length < bytes) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    const event = `ERROR request ${(state >>> 8).toString(16)} failed: upstream did not answer\n${stack}`;
    events.push(event);
    length += event.length;
  }
  return events.join('\n');
}

/** Stages everything and commits with the message in a file (`git commit -F`), as a user pasting a log would. */
function commitWithFile(repo: TestRepo, message: string, date: string, work: string): string {
  const file = join(work, 'message.txt');
  writeFileSync(file, message);
  repo.git('add', '-A');
  gitAt(repo, date, 'commit', '-q', '-F', file);
  rmSync(file);
  return repo.git('rev-parse', 'HEAD');
}

interface BigHistory {
  repo: TestRepo;
  messages: Map<string, string>;
}

/** A small first commit, then three commits with 8 MiB messages, each adding one file; objects loose. */
function buildBigHistory(work: string): BigHistory {
  const repo = createRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const messages = new Map<string, string>([[repo.git('rev-parse', 'HEAD'), 'initial\n']]);
  for (let index = 1; index <= 3; index += 1) {
    repo.write({ [`src/m${index}.ts`]: `export const m${index} = ${index};\n` });
    const message = buildMessage(`fix: the ${index}th crash, with its whole log pasted`, MESSAGE_BYTES, index);
    messages.set(commitWithFile(repo, message, `2026-02-0${index}T00:00:00Z`, work), message);
  }
  return { repo, messages };
}

function copyRepo(source: TestRepo): TestRepo {
  const copy = createRepo();
  rmSync(join(copy.dir, '.git'), { recursive: true, force: true });
  cpSync(source.dir, copy.dir, { recursive: true });
  return copy;
}

/** What `git log --name-only` says of HEAD's history: oid, author email, author time and paths, newest first. */
function readGitLog(repo: TestRepo): { oid: string; authorEmail: string; timestamp: number; paths: string[] }[] {
  const out = repo.git('log', '--format=%x00%H %ae %at', '--name-only', '--no-renames', 'HEAD');
  return out
    .split('\0')
    .filter((entry) => entry.trim() !== '')
    .map((entry) => {
      const [header = '', ...paths] = entry.trim().split('\n');
      const [oid = '', authorEmail = '', time = '0'] = header.split(' ');
      return { oid, authorEmail, timestamp: Number(time), paths: paths.filter((path) => path !== '').sort() };
    });
}

// Measured in a fresh process, on a second read after a first that loaded and compiled every module: the kept commits
// are removed in between, so the second reads every object again.
const CHILD = `
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const [{ openRepository }, { mineHistory, readHistory }, { resolveRevision }, { readCommitTree }, { getObjectReader }, { readObjectHead }] = await Promise.all([
  import(${JSON.stringify(childModuleUrl('io/git-repository'))}),
  import(${JSON.stringify(childModuleUrl('io/git-history'))}),
  import(${JSON.stringify(childModuleUrl('io/git-revision'))}),
  import(${JSON.stringify(childModuleUrl('io/git-tree'))}),
  import(${JSON.stringify(childModuleUrl('io/git-objects'))}),
  import(${JSON.stringify(childModuleUrl('io/git-object-head'))}),
]);
const settings = { maxCommits: 100, maxAgeDays: 100000, massChangeFiles: 50 };
const readAll = async (dir) => {
  const repo = await openRepository(dir);
  const head = await resolveRevision(repo, 'HEAD');
  await readCommitTree(repo, head.oid);
  const mined = await mineHistory(repo, head.oid, settings);
  const all = await readHistory(repo, { maxCommits: 50 });
  // Each commit's whole first 64 KiB, streamed down its delta chain where the direct read stops short.
  let streamed = 0;
  for (const { oid } of mined.commits) {
    const start = await readObjectHead(getObjectReader(repo), oid, 65536, () => false);
    if (typeof start === 'object' && start.bytes.length === Math.min(start.size, 65536)) streamed += 1;
  }
  return { kept: mined.commits.length, read: all.length, streamed };
};
const status = (name) => Number(new RegExp('^' + name + ':\\\\s+(\\\\d+) kB$', 'm').exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
await readAll(process.argv[1]);
rmSync(join(process.argv[1], '.checker'), { recursive: true, force: true });
globalThis.gc();
// Linux: resets the peak resident set size (VmHWM) to the current one.
writeFileSync('/proc/self/clear_refs', '5');
const before = status('VmRSS');
const counts = await readAll(process.argv[1]);
process.stdout.write(JSON.stringify({ ...counts, growth: status('VmHWM') - before }));
`;

describe('history over commits with megabyte messages (issue 39)', () => {
  const work = makeTempDir('checker-large-commits-');
  let loose: BigHistory;
  let packed: TestRepo;
  before(() => {
    loose = buildBigHistory(work);
    packed = copyRepo(loose.repo);
    packed.git('gc', '-q');
  });
  after(() => {
    loose.repo.cleanup();
    packed.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  test('mines loose and packed commits whole but for their messages, which are cut, and counts the cut', async () => {
    assert.match(packed.git('count-objects', '-v'), /^count: 0$/m);
    const expected = readGitLog(loose.repo);
    assert.equal(expected.length, 4);
    for (const repo of [loose.repo, packed]) {
      const opened = await openRepository(repo.dir);
      const mined = await mineHistory(opened, 'HEAD', SETTINGS);
      assert.deepEqual(
        mined.commits.map(({ oid, authorEmail, timestamp, paths }) => ({ oid, authorEmail, timestamp, paths })),
        expected,
      );
      for (const commit of mined.commits) {
        const message = loose.messages.get(commit.oid) ?? '';
        assert.equal(commit.message, message.slice(0, 1000), commit.oid);
      }
      assert.deepEqual(mined.oversized, { messagesCut: 3, commitsLeftOut: 0 });
      assert.deepEqual(
        (await readHistory(opened, { paths: ['src/m2.ts'] })).map((entry) => entry.oid),
        [expected[1]?.oid],
      );
      const headOid = expected[0]?.oid ?? '';
      const head = await readCommitHead(opened, headOid);
      assert.deepEqual(
        [head.isCut, head.parents, head.author.email, head.committer.timestamp, head.message.slice(0, 5)],
        [true, [expected[1]?.oid], 'dated@example.test', expected[0]?.timestamp, 'fix: '],
      );
      assert.ok(head.message.length < 64 * 1024);
    }
  });

  test('reads a bounded start of each commit: mining three 8 MiB messages grows the peak memory by less than two', (t) => {
    if (!existsSync('/proc/self/clear_refs')) {
      t.skip('needs Linux /proc/self/clear_refs to reset the peak RSS');
      return;
    }
    // Two pasted logs alike, packed: git stores one as a delta copying from far into the other.
    const alike = createRepo({ 'src/a.ts': 'export const a = 1;\n' });
    t.after(() => alike.cleanup());
    for (const index of [1, 2, 3]) {
      alike.write({ [`src/m${index}.ts`]: `export const m${index} = ${index};\n` });
      const message = buildLogMessage(`fix: the ${index}th crash`, MESSAGE_BYTES, 30 + index);
      commitWithFile(alike, message, `2026-02-0${index}T00:00:00Z`, work);
    }
    alike.git('gc', '-q');
    for (const repo of [loose.repo, packed, alike]) {
      const stdout = execFileSync(process.execPath, [...childNodeArgs(), '--expose-gc', '--input-type=module', '-e', CHILD, repo.dir], {
        cwd: repoRoot,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const run = JSON.parse(stdout) as { kept: number; read: number; streamed: number; growth: number };
      assert.deepEqual({ kept: run.kept, read: run.read, streamed: run.streamed }, { kept: 4, read: 4, streamed: 4 });
      // The old reader held all three messages (26.8 MB); the bounded one grows 0.2-4 MB, and on a busy machine the
      // runtime's own allocations have added 8 MB: two messages is the bound that tells them apart without flaking.
      assert.ok(run.growth < 2 * MESSAGE_BYTES, `peak RSS grew by ${(run.growth / 1048576).toFixed(1)} MiB`);
    }
  });

  const DELTA_SHAPES = [
    {
      what: 'a small delta: the same message and one more line',
      messages: (): [string, string] => {
        const base = buildMessage('fix: the first crash', 1024 * 1024, 7);
        return [base, `${base}and one more line\n`];
      },
      isLargeDelta: false,
    },
    {
      what: 'a delta longer than the start it makes needs: a shared start, then a megabyte of its own',
      messages: (): [string, string] => {
        const shared = buildMessage('fix: the first crash', 3 * 1024 * 1024, 11);
        return [`${shared}${buildMessage('more', 1024 * 1024, 12)}`, `${shared}${buildMessage('more', 1536 * 1024, 13)}`];
      },
      isLargeDelta: true,
    },
    {
      what: 'a delta whose start copies from far into its base: two pasted logs alike',
      messages: (): [string, string] => [
        buildLogMessage('fix: the first crash', 4 * 1024 * 1024, 21),
        buildLogMessage('fix: the first crash, again', 4 * 1024 * 1024 + 4096, 22),
      ],
      isFar: true,
    },
  ];
  for (const shape of DELTA_SHAPES) {
    test(`a commit stored as a delta of another large commit is read from the start of its base: ${shape.what}`, async (t) => {
      const repo = createRepo({ 'src/a.ts': 'export const a = 1;\n' });
      t.after(() => repo.cleanup());
      const [first, second] = shape.messages();
      const messages = new Map<string, string>();
      repo.write({ 'src/b.ts': 'export const b = 1;\n' });
      messages.set(commitWithFile(repo, first, '2026-02-01T00:00:00Z', work), first);
      repo.write({ 'src/c.ts': 'export const c = 1;\n' });
      messages.set(commitWithFile(repo, second, '2026-02-02T00:00:00Z', work), second);
      repo.git('repack', '-a', '-d', '-f', '--depth=50', '--window=50');
      const packDir = join(repo.dir, '.git/objects/pack');
      const index = readdirSync(packDir).find((name) => name.endsWith('.idx')) ?? '';
      const pack = repo.git('verify-pack', '-v', join(packDir, index));
      // oid, type, delta size, size in pack, offset, depth, base: one of the two commits is a delta of the other.
      const deltas = pack
        .split('\n')
        .map((line) => line.split(/\s+/))
        .filter((fields) => fields[1] === 'commit' && fields.length >= 7 && messages.has(fields[0] ?? ''));
      assert.equal(deltas.length, 1, pack);
      if (shape.isLargeDelta !== undefined) assert.equal(Number(deltas[0]?.[2]) > 8 * HEAD_BYTES, shape.isLargeDelta, pack);
      const reader = createObjectReader(join(repo.dir, '.git'));
      for (const oid of messages.keys()) {
        const whole = execFileSync('git', ['cat-file', 'commit', oid], { cwd: repo.dir, maxBuffer: 1 << 30 });
        const head = reader.readHead(oid, HEAD_BYTES);
        assert.ok(head !== undefined && head !== 'oversized', oid);
        assert.deepEqual([head.type, head.size], ['commit', whole.length]);
        assert.ok(head.bytes.equals(whole.subarray(0, head.bytes.length)), oid);
        // Read directly, a delta's start ends where it copies from past the first MiB of its base.
        const isCutShort = shape.isFar === true && oid === deltas[0]?.[0];
        assert.equal(head.bytes.length < HEAD_BYTES - 2048, isCutShort, `${head.bytes.length}`);
        assert.ok(head.bytes.length > 200);
        // Streamed down the chain, the whole start.
        const streamed = await readObjectHead(reader, oid, HEAD_BYTES, () => false);
        assert.ok(streamed !== undefined && streamed !== 'oversized', oid);
        assert.deepEqual([streamed.type, streamed.size, streamed.bytes.length], ['commit', whole.length, HEAD_BYTES]);
        assert.ok(streamed.bytes.equals(whole.subarray(0, HEAD_BYTES)), oid);
      }
      const mined = await mineHistory(await openRepository(repo.dir), 'HEAD', SETTINGS);
      assert.deepEqual(
        mined.commits.map((commit) => [commit.paths, commit.message.slice(0, 20)]),
        [
          [['src/c.ts'], 'fix: the first crash'],
          [['src/b.ts'], 'fix: the first crash'],
          [['src/a.ts'], 'initial\n'],
        ],
      );
      assert.deepEqual(mined.oversized, { messagesCut: 2, commitsLeftOut: 0 });
    });
  }

  test('a commit whose headers do not fit the bound is left out and counted, with the history behind it', async (t) => {
    const repo = createRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': "import { a } from './a';\nexport const b = a;\n" });
    t.after(() => repo.cleanup());
    repo.write({ 'src/a.ts': 'export const a = 2;\n' });
    repo.git('add', '-A');
    execFileSync('git', ['commit', '-q', '-m', 'fix: a'], {
      cwd: repo.dir,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: repo.dir,
        GIT_CONFIG_NOSYSTEM: '1',
        // Between the helper's first commit (00:01) and its next (00:02).
        GIT_AUTHOR_DATE: '2026-01-01T00:01:30Z',
        GIT_COMMITTER_DATE: '2026-01-01T00:01:30Z',
        GIT_AUTHOR_NAME: 'n'.repeat(100_000),
        GIT_AUTHOR_EMAIL: 'big@example.test',
        GIT_COMMITTER_NAME: 'c',
        GIT_COMMITTER_EMAIL: 'c@example.test',
      },
    });
    const huge = repo.git('rev-parse', 'HEAD');
    repo.write({ 'src/b.ts': "import { a } from './a';\nexport const b = a + 1;\n" });
    repo.commit('change b');
    repo.write({ 'src/b.ts': "import { a } from './a';\nexport const b = a + 2;\n" });
    repo.commit('change b again');

    const opened = await openRepository(repo.dir);
    await assert.rejects(readCommitHead(opened, huge), { code: 'git/oversized-commit' });
    const mined = await mineHistory(opened, 'HEAD', SETTINGS);
    assert.deepEqual(
      mined.commits.map((commit) => commit.message),
      ['change b again\n'],
    );
    assert.deepEqual(mined.oversized, { messagesCut: 0, commitsLeftOut: 2 });
    assert.deepEqual(
      (await readHistory(opened, {})).map((entry) => entry.oid),
      [repo.git('rev-parse', 'HEAD')],
    );

    const env = createTestEnv(repo.dir);
    t.after(() => env.close());
    repo.write({ 'src/a.ts': 'export const a = 3;\n' });
    const analysis = await analyzeChange(env, {});
    const limitation = analysis.limitations.find((item) => item.code === 'history/oversized-commit');
    assert.ok(limitation !== undefined, JSON.stringify(analysis.limitations));
    assert.match(limitation.message, /^2 commits /);
  });

  test('merge bases are the ones isomorphic-git finds, read within the bound', async (t) => {
    const repo = createRepo({ 'src/a.ts': 'export const a = 1;\n' });
    t.after(() => repo.cleanup());
    const root = repo.git('rev-parse', 'HEAD');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write({ 'src/f.ts': 'f\n' });
    const feature1 = commitWithFile(repo, buildMessage('feat: f', 200_000, 3), '2026-02-01T00:00:00Z', work);
    repo.git('checkout', '-q', 'main');
    repo.write({ 'src/m.ts': 'm\n' });
    const main1 = commitAt(repo, 'main 1', '2026-02-02T00:00:00Z');
    // A criss-cross: each branch merges the other's tip, so two bases are equally good.
    gitAt(repo, '2026-02-03T00:00:00Z', 'merge', '-q', '--no-ff', '-m', 'merge feature', feature1);
    const mainTip = repo.git('rev-parse', 'HEAD');
    repo.git('checkout', '-q', 'feature');
    gitAt(repo, '2026-02-03T00:00:00Z', 'merge', '-q', '--no-ff', '-m', 'merge main', main1);
    const featureTip = repo.git('rev-parse', 'HEAD');
    const opened = await openRepository(repo.dir);
    const pairs = [
      [mainTip, featureTip],
      [main1, feature1],
      [mainTip, root],
      [feature1, feature1],
    ];
    for (const [index, oids] of pairs.entries()) {
      const expected = await git.findMergeBase({ fs: opened.fs, gitdir: opened.gitdir, oids, cache: {} });
      assert.equal(expected.length, index === 0 ? 2 : 1);
      assert.deepEqual([...(await findMergeBases(opened, oids))].sort(), [...expected].sort(), oids.join(' '));
    }
  });
});
