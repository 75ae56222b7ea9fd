import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultBase, listUntrackedFiles, openRepository, readChange, resolveRevision } from '../../src/io/git.js';
import { createRepo, makeTempDir } from '../helpers/git-repo.js';

describe('readChange with the working tree as head', () => {
  test('reports unstaged, staged, deleted and untracked changes; ignored files are left out', async (t) => {
    const repo = createRepo({
      '.gitignore': 'dist/\n*.log\n',
      'src/edit.ts': 'one\ntwo\nthree\n',
      'src/staged.ts': 'alpha\n',
      'src/remove.ts': 'bye\n',
      'src/keep.ts': 'same\n',
      'lib/.gitignore': 'generated.ts\n!important.log\n',
    });
    t.after(() => repo.cleanup());
    const headOid = repo.git('rev-parse', 'HEAD');
    repo.write({
      'src/edit.ts': 'one\nTWO\nthree\n',
      'src/staged.ts': 'alpha\nbeta\n',
      'src/new-file.ts': 'fresh\n',
      'dist/bundle.js': 'ignored\n',
      'debug.log': 'ignored\n',
      'lib/generated.ts': 'ignored\n',
      'lib/important.log': 'kept\n',
      'lib/util.ts': 'u\n',
    });
    repo.git('add', 'src/staged.ts');
    repo.remove('src/remove.ts');
    const opened = await openRepository(repo.dir);
    assert.deepEqual(await listUntrackedFiles(opened), ['lib/important.log', 'lib/util.ts', 'src/new-file.ts']);
    const change = await readChange(opened, { base: 'HEAD' });
    assert.deepEqual(change.base, { ref: 'HEAD', oid: headOid });
    assert.deepEqual(change.head, { ref: 'WORKTREE' });
    assert.deepEqual(change.files, [
      {
        path: 'lib/important.log',
        status: 'added',
        hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }],
        additions: 1,
        deletions: 0,
        binary: false,
      },
      {
        path: 'lib/util.ts',
        status: 'added',
        hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }],
        additions: 1,
        deletions: 0,
        binary: false,
      },
      {
        path: 'src/edit.ts',
        status: 'modified',
        hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
        additions: 1,
        deletions: 1,
        binary: false,
      },
      {
        path: 'src/new-file.ts',
        status: 'added',
        hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }],
        additions: 1,
        deletions: 0,
        binary: false,
      },
      {
        path: 'src/remove.ts',
        status: 'deleted',
        hunks: [{ oldStart: 1, oldLines: 1, newStart: 0, newLines: 0 }],
        additions: 0,
        deletions: 1,
        binary: false,
      },
      {
        path: 'src/staged.ts',
        status: 'modified',
        hunks: [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 }],
        additions: 1,
        deletions: 0,
        binary: false,
      },
    ]);
  });

  test('untrackedFiles given by the caller replace the computed list', async (t) => {
    const repo = createRepo({ 'a.ts': 'a\n' });
    t.after(() => repo.cleanup());
    repo.write({ 'b.ts': 'b\n', 'c.ts': 'c\n' });
    const opened = await openRepository(repo.dir);
    const change = await readChange(opened, { base: 'HEAD', untrackedFiles: ['c.ts', 'missing.ts'] });
    assert.deepEqual(
      change.files.map((file) => [file.path, file.status]),
      [['c.ts', 'added']],
    );
    const none = await readChange(opened, { base: 'HEAD', untrackedFiles: [] });
    assert.deepEqual(none.files, []);
  });

  test('a staged change later reverted in the working tree is no change; a staged new file is added', async (t) => {
    const repo = createRepo({ 'a.ts': 'a\n' });
    t.after(() => repo.cleanup());
    repo.write({ 'a.ts': 'staged\n', 'staged-new.ts': 'n\n' });
    repo.git('add', 'a.ts', 'staged-new.ts');
    repo.write({ 'a.ts': 'a\n' });
    const opened = await openRepository(repo.dir);
    const change = await readChange(opened, { base: 'HEAD', untrackedFiles: [] });
    assert.deepEqual(
      change.files.map((file) => [file.path, file.status]),
      [['staged-new.ts', 'added']],
    );
  });

  test('git rm deletes; git rm --cached keeps an unchanged untracked copy; a symlink retarget is a change to its target text', async (t) => {
    const repo = createRepo({ 'removed.ts': 'r\n', 'uncached.ts': 'u\n', 'keep.ts': 'k\n' });
    repo.symlink('keep.ts', 'link.ts');
    repo.commit('with link');
    t.after(() => repo.cleanup());
    repo.git('rm', '-q', 'removed.ts');
    repo.git('rm', '-q', '--cached', 'uncached.ts');
    repo.remove('link.ts');
    repo.symlink('removed.ts', 'link.ts');
    const opened = await openRepository(repo.dir);
    assert.deepEqual(await listUntrackedFiles(opened), ['uncached.ts']);
    const change = await readChange(opened, { base: 'HEAD' });
    assert.deepEqual(change.files, [
      {
        path: 'link.ts',
        status: 'modified',
        hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }],
        additions: 1,
        deletions: 1,
        binary: false,
      },
      {
        path: 'removed.ts',
        status: 'deleted',
        hunks: [{ oldStart: 1, oldLines: 1, newStart: 0, newLines: 0 }],
        additions: 0,
        deletions: 1,
        binary: false,
      },
    ]);
  });

  test('a renamed file in the working tree pairs with its deleted original', async (t) => {
    const repo = createRepo({ 'old-name.ts': 'export const value = 1;\n' });
    t.after(() => repo.cleanup());
    repo.git('mv', 'old-name.ts', 'new-name.ts');
    const opened = await openRepository(repo.dir);
    const change = await readChange(opened, { base: 'HEAD' });
    assert.deepEqual(change.files, [
      { path: 'new-name.ts', status: 'renamed', previousPath: 'old-name.ts', hunks: [], additions: 0, deletions: 0, binary: false },
    ]);
  });

  test('comparing an older base with the working tree combines commits and uncommitted edits', async (t) => {
    const repo = createRepo({ 'a.ts': '1\n2\n3\n' });
    t.after(() => repo.cleanup());
    repo.write({ 'a.ts': '1\n2\n3\n4\n' });
    repo.commit('append');
    repo.write({ 'a.ts': 'one\n2\n3\n4\n', 'bin.dat': Buffer.from([0, 1, 2]) });
    const opened = await openRepository(repo.dir);
    const change = await readChange(opened, { base: 'HEAD~1' });
    assert.deepEqual(change.files, [
      {
        path: 'a.ts',
        status: 'modified',
        hunks: [
          { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 },
          { oldStart: 3, oldLines: 0, newStart: 4, newLines: 1 },
        ],
        additions: 2,
        deletions: 1,
        binary: false,
      },
      { path: 'bin.dat', status: 'added', hunks: [], additions: 0, deletions: 0, binary: true },
    ]);
  });

  test('files whose size and mtime match the index are trusted without hashing', async (t) => {
    const repo = createRepo({});
    t.after(() => repo.cleanup());
    repo.write({ 'a.ts': 'aaaa\n' });
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(repo.dir, 'a.ts'), past, past);
    repo.commit('first');
    writeFileSync(join(repo.dir, 'a.ts'), 'bbbb\n');
    utimesSync(join(repo.dir, 'a.ts'), past, past);
    const opened = await openRepository(repo.dir);
    assert.deepEqual((await readChange(opened, { base: 'HEAD', untrackedFiles: [] })).files, []);
    utimesSync(join(repo.dir, 'a.ts'), new Date('2021-01-01T00:00:00Z'), new Date('2021-01-01T00:00:00Z'));
    const change = await readChange(opened, { base: 'HEAD', untrackedFiles: [] });
    assert.deepEqual(
      change.files.map((file) => [file.path, file.status, file.additions, file.deletions]),
      [['a.ts', 'modified', 1, 1]],
    );
  });

  test('nested repositories are not listed as untracked files', async (t) => {
    const repo = createRepo({ 'a.ts': 'a\n' });
    const nested = createRepo({ 'inner.ts': 'i\n' });
    t.after(() => {
      repo.cleanup();
      nested.cleanup();
    });
    repo.git('clone', '-q', nested.dir, join(repo.dir, 'vendor', 'inner'));
    repo.write({ 'vendor/readme.md': 'r\n' });
    const opened = await openRepository(repo.dir);
    assert.deepEqual(await listUntrackedFiles(opened), ['vendor/readme.md']);
  });
});

describe('defaultBase', () => {
  test('on a feature branch it is the merge-base with main; on main and detached it is HEAD', async (t) => {
    const repo = createRepo({ 'a.ts': 'a\n' });
    t.after(() => repo.cleanup());
    const forkPoint = repo.git('rev-parse', 'HEAD');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write({ 'feature.ts': 'f\n' });
    const featureTip = repo.commit('feature work');
    repo.git('checkout', '-q', 'main');
    repo.write({ 'a.ts': 'a2\n' });
    const mainTip = repo.commit('main moves on');
    repo.git('checkout', '-q', 'feature');
    const opened = await openRepository(repo.dir);
    assert.deepEqual(await defaultBase(opened), { ref: 'merge-base(HEAD, main)', oid: forkPoint, defaultBranch: 'refs/heads/main' });
    const change = await readChange(opened, { head: 'HEAD' });
    assert.deepEqual(change.base, { ref: 'merge-base(HEAD, main)', oid: forkPoint });
    assert.deepEqual(
      change.files.map((file) => [file.path, file.status]),
      [['feature.ts', 'added']],
    );
    repo.git('checkout', '-q', 'main');
    assert.deepEqual(await defaultBase(opened), { ref: 'HEAD', oid: mainTip, defaultBranch: 'refs/heads/main' });
    repo.git('checkout', '-q', '--detach', featureTip);
    assert.deepEqual(await defaultBase(opened), { ref: 'HEAD', oid: featureTip });
  });

  test('origin/HEAD names the default branch; master is the fallback', async (t) => {
    const repo = createRepo({ 'a.ts': 'a\n' }, { branch: 'master' });
    t.after(() => repo.cleanup());
    const first = repo.git('rev-parse', 'HEAD');
    repo.git('checkout', '-q', '-b', 'topic');
    repo.write({ 'b.ts': 'b\n' });
    repo.commit('topic');
    const opened = await openRepository(repo.dir);
    assert.deepEqual(await defaultBase(opened), { ref: 'merge-base(HEAD, master)', oid: first, defaultBranch: 'refs/heads/master' });
    repo.git('checkout', '-q', 'master');
    repo.write({ 'c.ts': 'c\n' });
    const second = repo.commit('release line');
    repo.git('update-ref', 'refs/remotes/origin/release', second);
    repo.git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/release');
    repo.git('checkout', '-q', 'topic');
    assert.deepEqual(await defaultBase(opened), {
      ref: 'merge-base(HEAD, origin/release)',
      oid: first,
      defaultBranch: 'refs/remotes/origin/release',
    });
  });

  test('a repository without commits is git/no-commits', async (t) => {
    const repo = createRepo({}, { commit: false });
    t.after(() => repo.cleanup());
    const opened = await openRepository(repo.dir);
    await assert.rejects(defaultBase(opened), { code: 'git/no-commits' });
  });
});

describe('linked worktrees', () => {
  test('a git worktree is opened through its .git file and shares objects and refs', async (t) => {
    const repo = createRepo({ 'a.ts': 'a\n', 'b.ts': 'b\n' });
    const holder = makeTempDir('checker-worktree-');
    const worktree = join(holder, 'wt');
    t.after(() => {
      repo.cleanup();
      rmSync(holder, { recursive: true, force: true });
    });
    const mainTip = repo.git('rev-parse', 'HEAD');
    repo.git('worktree', 'add', '-q', '-b', 'wt-branch', worktree);
    writeFileSync(join(worktree, 'a.ts'), 'changed\n');
    writeFileSync(join(worktree, 'c.ts'), 'c\n');
    const opened = await openRepository(worktree);
    assert.equal(opened.root, worktree);
    assert.equal(opened.gitdir, join(repo.dir, '.git', 'worktrees', 'wt'));
    assert.equal(opened.commonDir, join(repo.dir, '.git'));
    assert.equal((await resolveRevision(opened, 'HEAD')).oid, mainTip);
    assert.equal((await resolveRevision(opened, 'main')).oid, mainTip);
    assert.deepEqual(await defaultBase(opened), { ref: 'merge-base(HEAD, main)', oid: mainTip, defaultBranch: 'refs/heads/main' });
    const change = await readChange(opened);
    assert.deepEqual(
      change.files.map((file) => [file.path, file.status, file.hunks]),
      [
        ['a.ts', 'modified', [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }]],
        ['c.ts', 'added', [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }]],
      ],
    );
    const fromMain = await readChange(await openRepository(repo.dir), { base: 'HEAD' });
    assert.deepEqual(fromMain.files, []);
  });
});
