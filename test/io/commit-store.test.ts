import assert from 'node:assert/strict';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import git from 'isomorphic-git';
import { getCommitStore } from '../../src/io/commit-store.js';
import { listChangedPaths } from '../../src/io/git-changed-paths.js';
import { mineHistory, readHistory } from '../../src/io/git-history.js';
import { openRepository } from '../../src/io/git-repository.js';
import { DEFAULT_HISTORY_SETTINGS } from '../../src/model/history.js';
import { commitAt, gitAt } from '../helpers/dated-git.js';
import { createRepo, makeTempDir, type TestRepo } from '../helpers/git-repo.js';

const STORE = '.checker/local/cache/commits-v1.json';
const SETTINGS = { ...DEFAULT_HISTORY_SETTINGS, maxAgeDays: 100_000 };

/**
 * A history with two merged branches, a merge of a branch that forked before another merge, and commits sharing a
 * committer time (the order among those is isomorphic-git's stable sort).
 */
function buildBranchyHistory(repo: TestRepo): void {
  commitAt(repo, 'main 1', '2026-02-01T00:00:00Z');
  repo.git('checkout', '-q', '-b', 'feature');
  repo.write({ 'src/b.ts': 'b\n' });
  commitAt(repo, 'feature 1', '2026-02-02T00:00:00Z');
  repo.write({ 'src/b.ts': 'b2\n', 'docs/y.md': 'y\n' });
  commitAt(repo, 'feature 2', '2026-02-04T00:00:00Z');
  // Authored long before it was committed (a cherry-pick): the walk orders by committer time, not author time.
  repo.write({ 'src/e.ts': 'e\n' });
  commitAt(repo, 'feature 3', { author: '2026-01-15T00:00:00Z', committer: '2026-02-04T12:00:00Z' });
  repo.git('checkout', '-q', 'main');
  repo.git('checkout', '-q', '-b', 'late');
  repo.write({ 'src/c.ts': 'c\n' });
  commitAt(repo, 'late 1', '2026-02-03T00:00:00Z');
  repo.git('checkout', '-q', 'main');
  repo.write({ 'src/a.ts': 'a2\n' });
  commitAt(repo, 'main 2', '2026-02-03T00:00:00Z');
  gitAt(repo, '2026-02-05T00:00:00Z', 'merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
  gitAt(repo, '2026-02-05T00:00:00Z', 'merge', '-q', '--no-ff', '-m', 'merge late', 'late');
  repo.write({ 'docs/x.md': 'x2\n' });
  commitAt(repo, 'main 3', '2026-02-06T00:00:00Z');
}

let branchyTemplate: TestRepo | undefined;

/** A copy of the branchy history (built once per file: it takes about 20 git commands). */
function createBranchyRepo(): TestRepo {
  if (branchyTemplate === undefined) {
    branchyTemplate = createRepo({ 'src/a.ts': 'a\n', 'docs/x.md': 'x\n' });
    buildBranchyHistory(branchyTemplate);
    process.once('exit', () => branchyTemplate?.cleanup());
  }
  const repo = createRepo();
  rmSync(join(repo.dir, '.git'), { recursive: true, force: true });
  cpSync(branchyTemplate.dir, repo.dir, { recursive: true });
  return repo;
}

async function readAll(dir: string): Promise<unknown> {
  const opened = await openRepository(dir);
  return {
    mined: await mineHistory(opened, 'HEAD', SETTINGS),
    all: await readHistory(opened, { maxCommits: 50 }),
    src: await readHistory(opened, { paths: ['src'], maxCommits: 50 }),
  };
}

/** An initial commit, one changing `count` files named by `pathOf` (its oid is `mass`), then a small one. */
function buildMassHistory(count: number, pathOf: (index: number) => string): { repo: TestRepo; mass: string } {
  const files: Record<string, string> = {};
  for (let index = 0; index < count; index += 1) files[pathOf(index)] = `${index}\n`;
  const repo = createRepo({ 'src/a.ts': 'a\n' });
  repo.write(files);
  const mass = commitAt(repo, 'mass change', '2026-03-01T00:00:00Z');
  repo.write({ 'src/a.ts': 'a2\n' });
  commitAt(repo, 'small', '2026-03-02T00:00:00Z');
  return { repo, mass };
}

describe('the commit store', () => {
  test('walks commits in the order of isomorphic-git log, merges and equal times included, at every depth', async (t) => {
    const repo = createBranchyRepo();
    t.after(() => repo.cleanup());
    const opened = await openRepository(repo.dir);
    const head = repo.git('rev-parse', 'HEAD');
    const expected = (await git.log({ fs: opened.fs, gitdir: opened.gitdir, ref: head, cache: {} })).map((entry) => entry.oid);
    assert.equal(expected.length, 10);
    const store = await getCommitStore(opened);
    for (let depth = 1; depth <= expected.length + 1; depth += 1) {
      assert.deepEqual(
        (await store.walk(head, depth)).map((entry) => entry.oid),
        expected.slice(0, depth),
        `depth ${depth}`,
      );
    }
  });

  test('answers a later run without reading git objects, and the answer is the one read from git', async (t) => {
    const repo = createBranchyRepo();
    t.after(() => repo.cleanup());
    const fromGit = await readAll(repo.dir);
    assert.ok(JSON.parse(readFileSync(join(repo.dir, STORE), 'utf8')).version === 1);
    // Every object but HEAD's commit (which resolving HEAD reads) moved away: only the store can answer.
    const head = repo.git('rev-parse', 'HEAD');
    const objects = join(repo.dir, '.git/objects');
    renameSync(objects, join(repo.dir, '.git/objects-away'));
    mkdirSync(join(objects, head.slice(0, 2)), { recursive: true });
    copyFileSync(join(repo.dir, '.git/objects-away', head.slice(0, 2), head.slice(2)), join(objects, head.slice(0, 2), head.slice(2)));
    assert.deepEqual(await readAll(repo.dir), fromGit);
    rmSync(join(repo.dir, STORE));
    // Without the store the objects are missing (read as a shallow boundary): a different answer.
    assert.notDeepEqual(await readAll(repo.dir), fromGit);
  });

  test('after a new commit, reads only that commit and answers as a fresh walk does', async (t) => {
    const repo = createBranchyRepo();
    t.after(() => repo.cleanup());
    await readAll(repo.dir);
    repo.write({ 'src/d.ts': 'd\n' });
    const added = commitAt(repo, 'main 4', '2026-02-07T00:00:00Z');
    const stored = await readAll(repo.dir);
    rmSync(join(repo.dir, STORE));
    assert.deepEqual(stored, await readAll(repo.dir));
    const kept = JSON.parse(readFileSync(join(repo.dir, STORE), 'utf8')).commits;
    assert.deepEqual(kept[added].paths, ['src/d.ts']);
    assert.equal(kept[added].message, 'main 4\n');
  });

  test('the mined window and the decay log read side by side (one store, one diff a commit) answer as each alone', async (t) => {
    const repo = createBranchyRepo();
    t.after(() => repo.cleanup());
    const alone = await readAll(repo.dir);
    rmSync(join(repo.dir, STORE));
    const opened = await openRepository(repo.dir);
    const [mined, all, src] = await Promise.all([
      mineHistory(opened, 'HEAD', SETTINGS),
      readHistory(opened, { maxCommits: 50 }),
      readHistory(opened, { paths: ['src'], maxCommits: 50 }),
    ]);
    assert.deepEqual({ mined, all, src }, alone);
  });

  test('readings that overlap write the store once, when the last ends', async (t) => {
    const repo = createBranchyRepo();
    t.after(() => repo.cleanup());
    const store = await getCommitStore(await openRepository(repo.dir));
    store.begin();
    store.begin();
    await store.walk(repo.git('rev-parse', 'HEAD'), 3);
    await store.save();
    assert.equal(existsSync(join(repo.dir, STORE)), false, 'another reading is under way');
    await store.save();
    assert.ok(JSON.parse(readFileSync(join(repo.dir, STORE), 'utf8')).commits[repo.git('rev-parse', 'HEAD')]);
  });

  test('writes commit messages redacted', async (t) => {
    const repo = createRepo({ 'src/a.ts': 'a\n' });
    t.after(() => repo.cleanup());
    repo.write({ 'src/a.ts': 'a2\n' });
    const leaky = commitAt(repo, 'rotate ghp_abcdefghijklmnopqrstuvwxyz0123456789 after the leak', '2026-03-01T00:00:00Z');
    await readAll(repo.dir);
    const text = readFileSync(join(repo.dir, STORE), 'utf8');
    assert.doesNotMatch(text, /ghp_abcdefghij/);
    assert.match(JSON.parse(text).commits[leaky].message, /^rotate \[REDACTED:github-token\] after the leak/);
  });

  test('after a new commit the store redacts that commit, and holds what a store written from scratch holds', async (t) => {
    const repo = createBranchyRepo();
    t.after(() => repo.cleanup());
    await readAll(repo.dir);
    repo.write({ 'src/d.ts': 'd\n' });
    const leaky = commitAt(repo, 'use ghp_abcdefghijklmnopqrstuvwxyz0123456789 here', '2026-02-07T00:00:00Z');
    await readAll(repo.dir);
    const kept = JSON.parse(readFileSync(join(repo.dir, STORE), 'utf8')).commits;
    assert.match(kept[leaky].message, /^use \[REDACTED:github-token\] here/);
    rmSync(join(repo.dir, STORE));
    await readAll(repo.dir);
    const fresh = JSON.parse(readFileSync(join(repo.dir, STORE), 'utf8')).commits;
    const sorted = (commits: Record<string, unknown>): unknown[] => Object.entries(commits).sort(([a], [b]) => (a < b ? -1 : 1));
    assert.deepEqual(sorted(kept), sorted(fresh));
  });

  test('a damaged, foreign or symlinked store is read from git instead, and a damaged one is rewritten', async (t) => {
    const repo = createBranchyRepo();
    t.after(() => repo.cleanup());
    const fresh = await readAll(repo.dir);
    const head = repo.git('rev-parse', 'HEAD');
    const valid = JSON.parse(readFileSync(join(repo.dir, STORE), 'utf8'));
    const wrongEntry = { ...valid, commits: { ...valid.commits, [head]: { ...valid.commits[head], parents: ['nope'] } } };
    for (const text of [
      '{"version":1,"commits":',
      '[]',
      JSON.stringify({ version: 2, commits: valid.commits }),
      JSON.stringify(wrongEntry),
    ]) {
      writeFileSync(join(repo.dir, STORE), text);
      assert.deepEqual(await readAll(repo.dir), fresh, text.slice(0, 40));
      assert.deepEqual(JSON.parse(readFileSync(join(repo.dir, STORE), 'utf8')).commits[head], valid.commits[head]);
    }
    const elsewhere = join(makeTempDir('checker-elsewhere-'), 'commits.json');
    writeFileSync(elsewhere, JSON.stringify({ version: 1, commits: { [head]: { ...valid.commits[head], paths: ['planted.ts'] } } }));
    rmSync(join(repo.dir, STORE));
    symlinkSync(elsewhere, join(repo.dir, STORE));
    assert.deepEqual(await readAll(repo.dir), fresh);
    assert.match(readFileSync(elsewhere, 'utf8'), /planted\.ts/, 'the symlink target is never written');
  });

  test('keeps only the count of a commit that changed more than 2,000 paths, and lists them when asked', async (t) => {
    const { repo, mass } = buildMassHistory(2001, (index) => `gen/f${index}.txt`);
    t.after(() => repo.cleanup());
    let written: number | undefined;
    for (let run = 0; run < 2; run += 1) {
      const opened = await openRepository(repo.dir);
      const mined = await mineHistory(opened, 'HEAD', SETTINGS);
      assert.deepEqual(mined.excluded, { merges: 0, massChanges: 1 });
      assert.deepEqual(
        mined.commits.map((commit) => commit.message),
        ['small\n', 'initial\n'],
      );
      const listed = (await readHistory(opened, { paths: ['gen'] })).find((commit) => commit.oid === mass);
      assert.equal(listed?.paths.length, 2001);
      const kept = JSON.parse(readFileSync(join(repo.dir, STORE), 'utf8')).commits[mass];
      assert.equal(kept.pathCount, 2001);
      assert.equal(kept.paths, undefined);
      // Listing the mass commit again changes nothing the store keeps: the second run does not write it (a write
      // replaces the file, a new inode).
      const inode = statSync(join(repo.dir, STORE)).ino;
      if (written !== undefined) assert.equal(inode, written, 'the store was written again');
      written = inode;
    }
  });

  test('a mass change is listed only past the limit of the window, counted more than it, and listed whole when asked', async (t) => {
    const { repo, mass } = buildMassHistory(12, (index) => `pkg${index % 4}/lib/f${index}.ts`);
    t.after(() => repo.cleanup());
    const opened = await openRepository(repo.dir);
    const limit = 5;
    const tree = (oid: string): string => repo.git('rev-parse', `${oid}^{tree}`);
    // The walk stops reading trees once it has more than five: some of the twelve, never all of them.
    const cut = await listChangedPaths(opened, tree(`${mass}^`), tree(mass), limit);
    assert.ok(cut.length > limit && cut.length < 12, `${cut.length} paths`);
    assert.equal((await listChangedPaths(opened, tree(`${mass}^`), tree(mass))).length, 12);
    const mined = await mineHistory(opened, 'HEAD', { ...SETTINGS, massChangeFiles: limit });
    assert.deepEqual(mined.excluded, { merges: 0, massChanges: 1 });
    assert.deepEqual(
      mined.commits.map((commit) => commit.message),
      ['small\n', 'initial\n'],
    );
    const kept = JSON.parse(readFileSync(join(repo.dir, STORE), 'utf8')).commits[mass];
    assert.deepEqual([kept.pathsOver, kept.paths, kept.pathCount], [limit, undefined, undefined]);
    // A later run asks the store: the same window without a walk, then the whole list for the decay log.
    const again = await openRepository(repo.dir);
    assert.deepEqual(await mineHistory(again, 'HEAD', { ...SETTINGS, massChangeFiles: limit }), mined);
    const listed = (await readHistory(again, { paths: ['pkg0'] })).find((commit) => commit.oid === mass);
    assert.deepEqual(listed?.paths, ['pkg0/lib/f0.ts', 'pkg0/lib/f4.ts', 'pkg0/lib/f8.ts']);
    const whole = JSON.parse(readFileSync(join(repo.dir, STORE), 'utf8')).commits[mass];
    assert.deepEqual([whole.pathsOver, whole.paths?.length], [undefined, 12]);
  });
});
