import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckerError } from '../../src/model/diagnostic.js';
import {
  openRepository,
  parseRevision,
  readBlobText,
  readChange,
  readFileAtRevision,
  readHistory,
  resolveRevision,
} from '../../src/io/git.js';
import { createRepo, makeTempDir } from '../helpers/git-repo.js';
import type { TestRepo } from '../helpers/git-repo.js';

async function rejectsWithCode(promise: Promise<unknown>, code: string, messagePart?: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof CheckerError, `expected CheckerError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (messagePart !== undefined)
      assert.ok(error.message.includes(messagePart), `message ${JSON.stringify(error.message)} lacks ${messagePart}`);
    assert.equal(typeof error.hint, 'string');
    return true;
  });
}

describe('resolveRevision', () => {
  let repo: TestRepo;
  const commits: string[] = [];
  let merge = '';
  let sideTip = '';
  before(() => {
    repo = createRepo({ 'app.ts': 'export const version = 1;\n' });
    commits.push(repo.git('rev-parse', 'HEAD'));
    repo.git('tag', '-a', 'v1', '-m', 'release one');
    repo.write({ 'app.ts': 'export const version = 2;\n' });
    commits.push(repo.commit('second'));
    repo.git('tag', 'light');
    repo.git('branch', 'side', commits[0] ?? '');
    repo.git('update-ref', 'refs/remotes/origin/main', commits[0] ?? '');
    repo.git('checkout', '-q', 'side');
    repo.write({ 'side.ts': 'export const side = true;\n' });
    sideTip = repo.commit('side work');
    repo.git('checkout', '-q', 'main');
    repo.write({ 'app.ts': 'export const version = 3;\n' });
    commits.push(repo.commit('third'));
    repo.git('merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    merge = repo.git('rev-parse', 'HEAD');
  });
  after(() => repo.cleanup());

  test('resolves HEAD, ~N, ^ and ^N forms', async () => {
    const opened = await openRepository(repo.dir);
    assert.deepEqual(await resolveRevision(opened, 'HEAD'), { ref: 'HEAD', oid: merge });
    assert.equal((await resolveRevision(opened, 'HEAD^')).oid, commits[2]);
    assert.equal((await resolveRevision(opened, 'HEAD^1')).oid, commits[2]);
    assert.equal((await resolveRevision(opened, 'HEAD^2')).oid, sideTip);
    assert.equal((await resolveRevision(opened, 'HEAD^0')).oid, merge);
    assert.equal((await resolveRevision(opened, 'HEAD~1')).oid, commits[2]);
    assert.equal((await resolveRevision(opened, 'HEAD~3')).oid, commits[0]);
    assert.equal((await resolveRevision(opened, 'HEAD~')).oid, commits[2]);
    assert.equal((await resolveRevision(opened, 'HEAD^2~1')).oid, commits[0]);
    assert.equal((await resolveRevision(opened, 'main~2')).oid, commits[1]);
  });

  test('resolves branches, remote-tracking branches and tags', async () => {
    const opened = await openRepository(repo.dir);
    assert.equal((await resolveRevision(opened, 'main')).oid, merge);
    assert.equal((await resolveRevision(opened, 'refs/heads/side')).oid, sideTip);
    assert.equal((await resolveRevision(opened, 'side')).oid, sideTip);
    assert.equal((await resolveRevision(opened, 'origin/main')).oid, commits[0]);
    assert.equal((await resolveRevision(opened, 'v1')).oid, commits[0], 'annotated tag peeled to its commit');
    assert.equal((await resolveRevision(opened, 'refs/tags/v1')).oid, commits[0]);
    assert.equal((await resolveRevision(opened, 'light')).oid, commits[1]);
    assert.equal((await resolveRevision(opened, 'v1~0')).oid, commits[0]);
  });

  // A clone keeps most branches and tags in packed-refs; a ref written after packing is loose and wins over its packed
  // line, as git reads them. Read from a copy, so the other tests keep loose refs.
  test('resolves refs from packed-refs, a loose ref first, and sees packed-refs rewritten', async () => {
    const dir = makeTempDir();
    try {
      const clone = join(dir, 'packed');
      repo.git('clone', '-q', '--no-local', repo.dir, clone);
      repo.git('-C', clone, 'fetch', '-q', 'origin', '+refs/tags/*:refs/tags/*');
      repo.git('-C', clone, 'pack-refs', '--all');
      assert.ok(!existsSync(join(clone, '.git', 'refs', 'tags', 'v1')), 'the tag lives only in packed-refs');
      let opened = await openRepository(clone);
      assert.equal((await resolveRevision(opened, 'v1')).oid, commits[0], 'annotated packed tag peeled to its commit');
      assert.equal((await resolveRevision(opened, 'origin/side')).oid, sideTip);
      assert.equal((await resolveRevision(opened, 'main')).oid, merge);
      // Moved after packing: the loose ref is the branch's value, the packed line is stale.
      repo.git('-C', clone, 'update-ref', 'refs/heads/main', commits[1] ?? '');
      assert.equal((await resolveRevision(opened, 'main')).oid, commits[1]);
      assert.equal((await resolveRevision(opened, 'HEAD')).oid, commits[1]);
      // Packed again (the loose file removed): the new packed-refs is read, not the one seen before.
      repo.git('-C', clone, 'pack-refs', '--all');
      assert.ok(!existsSync(join(clone, '.git', 'refs', 'heads', 'main')));
      opened = await openRepository(clone);
      assert.equal((await resolveRevision(opened, 'main')).oid, commits[1]);
      assert.equal((await resolveRevision(opened, 'HEAD~1')).oid, commits[0]);
      await rejectsWithCode(resolveRevision(opened, 'mai'), 'git/ref-not-found', 'mai');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A hostile clone's HEAD can name any file as its symbolic target; one outside the git directory holding a real
  // commit oid must not be read as the branch.
  test('a symbolic ref naming a file outside the git directory is not followed', async () => {
    const dir = makeTempDir();
    try {
      const clone = join(dir, 'clone');
      repo.git('clone', '-q', '--no-local', repo.dir, clone);
      writeFileSync(join(dir, 'outside'), `${commits[0] ?? ''}\n`);
      writeFileSync(join(clone, '.git', 'HEAD'), 'ref: ../../outside\n');
      const opened = await openRepository(clone);
      await rejectsWithCode(resolveRevision(opened, 'HEAD'), 'git/no-commits');
      writeFileSync(join(clone, '.git', 'HEAD'), 'ref: refs/heads/../../../outside\n');
      await rejectsWithCode(resolveRevision(opened, 'HEAD'), 'git/no-commits');
      // A well-formed target is followed as before.
      writeFileSync(join(clone, '.git', 'HEAD'), 'ref: refs/remotes/origin/side\n');
      assert.equal((await resolveRevision(opened, 'HEAD')).oid, sideTip);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('resolves full and short SHAs', async () => {
    const opened = await openRepository(repo.dir);
    const full = commits[1] ?? '';
    assert.deepEqual(await resolveRevision(opened, full), { ref: full, oid: full });
    assert.equal((await resolveRevision(opened, full.slice(0, 7))).oid, full);
    assert.equal((await resolveRevision(opened, full.slice(0, 12).toUpperCase())).oid, full);
    assert.equal((await resolveRevision(opened, `${full.slice(0, 7)}~1`)).oid, commits[0]);
  });

  test('unknown refs and SHAs are git/ref-not-found naming the ref', async () => {
    const opened = await openRepository(repo.dir);
    await rejectsWithCode(resolveRevision(opened, 'no-such-branch'), 'git/ref-not-found', 'no-such-branch');
    await rejectsWithCode(resolveRevision(opened, 'deadbeef'), 'git/ref-not-found', 'deadbeef');
    await rejectsWithCode(resolveRevision(opened, '0'.repeat(40)), 'git/ref-not-found', '0'.repeat(40));
    await rejectsWithCode(resolveRevision(opened, 'HEAD~9'), 'git/ref-not-found', 'HEAD~9');
    await rejectsWithCode(resolveRevision(opened, 'HEAD^3'), 'git/ref-not-found', 'HEAD^3');
  });

  // A clone made with `git clone --shared` borrows every object from the repository it came from
  // (objects/info/alternates), which checker does not read: the error says so and how to copy them in.
  test('a revision of a clone that borrows its objects says so, and repacked it resolves', async () => {
    const dir = makeTempDir();
    try {
      const clone = join(dir, 'clone');
      repo.git('clone', '-q', '--shared', repo.dir, clone);
      const full = commits[1] ?? '';
      await assert.rejects(resolveRevision(await openRepository(clone), full), (error: unknown) => {
        assert.ok(error instanceof CheckerError);
        assert.equal(error.code, 'git/ref-not-found');
        assert.match(error.message, /borrows the others from another repository \(objects\/info\/alternates\)/);
        assert.match(error.hint ?? '', /git repack -a -d/);
        return true;
      });
      repo.git('-C', clone, 'repack', '-q', '-a', '-d');
      rmSync(join(clone, '.git', 'objects', 'info', 'alternates'));
      assert.deepEqual(await resolveRevision(await openRepository(clone), full), { ref: full, oid: full });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a tree oid is not a commit', async () => {
    const opened = await openRepository(repo.dir);
    const tree = repo.git('rev-parse', 'HEAD^{tree}');
    await rejectsWithCode(resolveRevision(opened, tree), 'git/ref-not-commit', tree);
  });
});

describe('ambiguous short SHA', () => {
  test('two objects sharing a 4-character prefix are git/ref-ambiguous', async (t) => {
    const repo = createRepo({ 'readme.md': 'hello\n' });
    t.after(() => repo.cleanup());
    const seen = new Map<string, string>();
    let pair: [string, string] | undefined;
    for (let index = 0; pair === undefined; index += 1) {
      const content = `blob number ${index}\n`;
      const oid = createHash('sha1')
        .update(`blob ${Buffer.byteLength(content)}\0${content}`)
        .digest('hex');
      const other = seen.get(oid.slice(0, 4));
      if (other !== undefined) pair = [other, content];
      else seen.set(oid.slice(0, 4), content);
    }
    repo.write({ 'one.txt': pair[0], 'two.txt': pair[1] });
    const first = repo.git('hash-object', '-w', 'one.txt');
    const second = repo.git('hash-object', '-w', 'two.txt');
    assert.equal(first.slice(0, 4), second.slice(0, 4));
    const opened = await openRepository(repo.dir);
    await rejectsWithCode(resolveRevision(opened, first.slice(0, 4)), 'git/ref-ambiguous', first.slice(0, 4));
  });
});

describe('revision validation happens before git is touched', () => {
  test('option-like, control-character and path-trick refs are git/ref-invalid', async (t) => {
    const repo = createRepo({ 'a.ts': 'a\n' });
    const outside = makeTempDir('checker-ref-output-');
    t.after(() => {
      repo.cleanup();
      rmSync(outside, { recursive: true, force: true });
    });
    const opened = await openRepository(repo.dir);
    const target = join(outside, 'x');
    for (const ref of [
      '-x',
      `--output=${target}`,
      '../../etc/passwd',
      'main..HEAD',
      'a\nb',
      'tab\there',
      'HEAD@{1}',
      'x:y',
      '',
      '/abs',
      'ends.lock',
      'dir/.hidden',
    ]) {
      await rejectsWithCode(resolveRevision(opened, ref), 'git/ref-invalid');
      assert.throws(
        () => parseRevision(ref),
        (error: unknown) => error instanceof CheckerError && error.code === 'git/ref-invalid',
      );
    }
    await rejectsWithCode(readChange(opened, { base: '--output=/tmp/x' }), 'git/ref-invalid', '--output=/tmp/x');
    await rejectsWithCode(readChange(opened, { base: 'HEAD', head: '-h' }), 'git/ref-invalid', '-h');
    assert.equal(existsSync(target), false);
  });

  test('parseRevision splits ancestry suffixes', () => {
    assert.deepEqual(parseRevision('feature/x~2^2'), {
      name: 'feature/x',
      steps: [
        { kind: '~', count: 2 },
        { kind: '^', count: 2 },
      ],
    });
    assert.deepEqual(parseRevision('HEAD^'), { name: 'HEAD', steps: [{ kind: '^', count: 1 }] });
  });
});

describe('repositories without history', () => {
  test('a repository with no commits is git/no-commits', async (t) => {
    const repo = createRepo({ 'draft.ts': 'x\n' }, { commit: false });
    t.after(() => repo.cleanup());
    const opened = await openRepository(repo.dir);
    await rejectsWithCode(resolveRevision(opened, 'HEAD'), 'git/no-commits');
    await rejectsWithCode(resolveRevision(opened, 'HEAD~1'), 'git/no-commits', 'HEAD~1');
    await rejectsWithCode(resolveRevision(opened, 'main'), 'git/no-commits', 'main');
    await rejectsWithCode(readChange(opened), 'git/no-commits');
  });

  test('a shallow clone missing the base is git/shallow-missing', async (t) => {
    const repo = createRepo({ 'a.ts': 'one\n' });
    const first = repo.git('rev-parse', 'HEAD');
    repo.write({ 'a.ts': 'two\n' });
    repo.commit('two');
    repo.write({ 'a.ts': 'three\n' });
    const third = repo.commit('three');
    const cloneParent = makeTempDir('checker-shallow-');
    const clone = join(cloneParent, 'clone');
    t.after(() => {
      repo.cleanup();
      rmSync(cloneParent, { recursive: true, force: true });
    });
    repo.git('clone', '-q', '--depth', '1', `file://${repo.dir}`, clone);
    const opened = await openRepository(clone);
    assert.deepEqual(await resolveRevision(opened, 'HEAD'), { ref: 'HEAD', oid: third });
    await rejectsWithCode(resolveRevision(opened, 'HEAD~1'), 'git/shallow-missing', 'shallow');
    await rejectsWithCode(resolveRevision(opened, 'HEAD^'), 'git/shallow-missing', 'HEAD^');
    await rejectsWithCode(resolveRevision(opened, first), 'git/shallow-missing', first);
    await rejectsWithCode(readChange(opened, { base: 'HEAD~2', head: 'HEAD' }), 'git/shallow-missing');
    assert.deepEqual(await readHistory(opened), []);
  });
});

describe('openRepository', () => {
  test('opens the root and exposes root, gitdir and one cache', async (t) => {
    const repo = createRepo({ 'a.ts': 'a\n' });
    t.after(() => repo.cleanup());
    const opened = await openRepository(repo.dir);
    assert.equal(opened.root, repo.dir);
    assert.equal(opened.gitdir, join(repo.dir, '.git'));
    assert.equal(opened.commonDir, join(repo.dir, '.git'));
    assert.deepEqual(opened.cache, {});
  });

  test('a plain folder is git/not-a-repository naming it', async (t) => {
    const dir = makeTempDir('checker-plain-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    await rejectsWithCode(openRepository(dir), 'git/not-a-repository', dir);
    await rejectsWithCode(openRepository(join(dir, 'missing')), 'git/not-a-repository', join(dir, 'missing'));
  });

  test('a sub-folder of a repository is refused, not widened to the parent', async (t) => {
    const repo = createRepo({ 'packages/web/index.ts': 'x\n' });
    t.after(() => repo.cleanup());
    const sub = join(repo.dir, 'packages', 'web');
    await assert.rejects(openRepository(sub), (error: unknown) => {
      assert.ok(error instanceof CheckerError);
      assert.equal(error.code, 'git/not-a-repository');
      assert.equal(error.message, `${sub} is not the root of a git repository; it is inside the repository at ${repo.dir}`);
      assert.equal(
        error.hint,
        `Run checker from the repository root (--cwd ${repo.dir}); diff-based analyses are unavailable for a sub-folder.`,
      );
      return true;
    });
  });

  test('a .git file pointing to a missing directory is git/state-invalid', async (t) => {
    const dir = makeTempDir('checker-dangling-');
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, '.git'), 'gitdir: ../nowhere/.git/worktrees/gone\n');
    await rejectsWithCode(openRepository(dir), 'git/state-invalid', join(dir, '.git'));
  });

  test('a .git file with a gitdir pointer (separate git dir) is followed', async (t) => {
    const repo = createRepo({ 'a.ts': 'a\n' });
    const store = makeTempDir('checker-gitdir-');
    t.after(() => {
      repo.cleanup();
      rmSync(store, { recursive: true, force: true });
    });
    const head = repo.git('rev-parse', 'HEAD');
    repo.git('init', '-q', `--separate-git-dir=${join(store, 'repo.git')}`);
    const opened = await openRepository(repo.dir);
    assert.equal(opened.gitdir, join(store, 'repo.git'));
    assert.equal((await resolveRevision(opened, 'HEAD')).oid, head);
  });
});

describe('readChange between commits', () => {
  const modifyBase = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].map((line) => `${line}\n`).join('');
  const modifyHead = ['1', '2', 'three', '4', '5', '6', '7', 'new', '8', '10'].map((line) => `${line}\n`).join('');
  const similarBase = 'export function area(width, height) {\n  const product = width * height;\n  return product;\n}\n';
  const similarHead = 'export function area(width, height) {\n  const product = width * height;\n  return Math.abs(product);\n}\n';
  let repo: TestRepo;
  let baseOid = '';
  let headOid = '';
  before(() => {
    repo = createRepo({
      'src/keep.ts': 'export const keep = 1;\n',
      'src/modify.ts': modifyBase,
      'src/delete.ts': 'export const gone = 1;\nexport const alsoGone = 2;\n',
      'src/rename-me.ts': 'export const moved = 1;\n',
      'src/geometry.ts': similarBase,
      'assets/logo.bin': Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]),
      'docs/no-newline.md': 'last line',
    });
    baseOid = repo.git('rev-parse', 'HEAD');
    repo.remove('src/delete.ts', 'src/rename-me.ts', 'src/geometry.ts');
    repo.write({
      'src/modify.ts': modifyHead,
      'src/renamed.ts': 'export const moved = 1;\n',
      'src/shapes/area.ts': similarHead,
      'src/new.ts': 'export const fresh = 1;\nexport const fresher = 2;\n',
      'assets/logo.bin': Buffer.from([0x89, 0x50, 0x00, 0x01, 0x03]),
      'docs/no-newline.md': 'last line\n',
    });
    headOid = repo.commit('change everything');
  });
  after(() => repo.cleanup());

  test('reports added, modified, deleted, renamed and binary files with git -U0 hunks', async () => {
    const opened = await openRepository(repo.dir);
    const change = await readChange(opened, { base: 'HEAD~1', head: 'HEAD' });
    assert.deepEqual(change.base, { ref: 'HEAD~1', oid: baseOid });
    assert.deepEqual(change.head, { ref: 'HEAD', oid: headOid });
    assert.deepEqual(change.files, [
      { path: 'assets/logo.bin', status: 'modified', hunks: [], additions: 0, deletions: 0, binary: true },
      {
        path: 'docs/no-newline.md',
        status: 'modified',
        hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }],
        additions: 1,
        deletions: 1,
        binary: false,
      },
      {
        path: 'src/delete.ts',
        status: 'deleted',
        hunks: [{ oldStart: 1, oldLines: 2, newStart: 0, newLines: 0 }],
        additions: 0,
        deletions: 2,
        binary: false,
      },
      {
        path: 'src/modify.ts',
        status: 'modified',
        hunks: [
          { oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 },
          { oldStart: 7, oldLines: 0, newStart: 8, newLines: 1 },
          { oldStart: 9, oldLines: 1, newStart: 9, newLines: 0 },
        ],
        additions: 2,
        deletions: 2,
        binary: false,
      },
      {
        path: 'src/new.ts',
        status: 'added',
        hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 2 }],
        additions: 2,
        deletions: 0,
        binary: false,
      },
      { path: 'src/renamed.ts', status: 'renamed', previousPath: 'src/rename-me.ts', hunks: [], additions: 0, deletions: 0, binary: false },
      {
        path: 'src/shapes/area.ts',
        status: 'renamed',
        previousPath: 'src/geometry.ts',
        hunks: [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 }],
        additions: 1,
        deletions: 1,
        binary: false,
      },
    ]);
  });

  test('hunks agree with git diff -U0 for the modified file', async () => {
    const output = repo.git('diff', '-U0', 'HEAD~1', 'HEAD', '--', 'src/modify.ts');
    const headers = output.split('\n').filter((line) => line.startsWith('@@'));
    assert.deepEqual(headers, ['@@ -3 +3 @@', '@@ -7,0 +8 @@', '@@ -9 +9,0 @@']);
  });

  test('the same commit on both sides has no changes', async () => {
    const opened = await openRepository(repo.dir);
    const change = await readChange(opened, { base: 'HEAD', head: 'main' });
    assert.deepEqual(change.files, []);
  });

  test('base-side text is readable by oid, by commit and path, and by revision', async () => {
    const opened = await openRepository(repo.dir);
    assert.equal(await readFileAtRevision(opened, 'HEAD~1', 'src/modify.ts'), modifyBase);
    assert.equal(await readFileAtRevision(opened, 'HEAD', 'src/modify.ts'), modifyHead);
    assert.equal(await readFileAtRevision(opened, 'HEAD', 'src/delete.ts'), undefined);
    assert.equal(await readFileAtRevision(opened, 'HEAD', 'src'), undefined);
    assert.equal(await readFileAtRevision(opened, 'HEAD', 'assets/logo.bin'), undefined);
    assert.equal(
      await readBlobText(opened, { commit: baseOid, path: 'src/delete.ts' }),
      'export const gone = 1;\nexport const alsoGone = 2;\n',
    );
    const blob = repo.git('rev-parse', 'HEAD~1:src/keep.ts');
    assert.equal(await readBlobText(opened, blob), 'export const keep = 1;\n');
    assert.equal(await readBlobText(opened, 'f'.repeat(40)), undefined);
  });
});

describe('readHistory', () => {
  test('returns bounded commits with author, time and changed paths, newest first', async (t) => {
    const repo = createRepo({ 'src/a.ts': 'a\n', 'docs/readme.md': 'r\n' });
    t.after(() => repo.cleanup());
    const first = repo.git('rev-parse', 'HEAD');
    repo.write({ 'src/a.ts': 'a2\n', 'src/b.ts': 'b\n' });
    const second = repo.commit('second');
    repo.write({ 'docs/readme.md': 'r2\n' });
    const third = repo.commit('third');
    const opened = await openRepository(repo.dir);
    assert.deepEqual(await readHistory(opened), [
      { oid: third, authorEmail: 'author@example.test', timestamp: Date.parse('2026-01-01T00:03:00Z') / 1000, paths: ['docs/readme.md'] },
      {
        oid: second,
        authorEmail: 'author@example.test',
        timestamp: Date.parse('2026-01-01T00:02:00Z') / 1000,
        paths: ['src/a.ts', 'src/b.ts'],
      },
      {
        oid: first,
        authorEmail: 'author@example.test',
        timestamp: Date.parse('2026-01-01T00:01:00Z') / 1000,
        paths: ['docs/readme.md', 'src/a.ts'],
      },
    ]);
    assert.deepEqual(
      (await readHistory(opened, { paths: ['src'] })).map((commit) => [commit.oid, commit.paths]),
      [
        [second, ['src/a.ts', 'src/b.ts']],
        [first, ['src/a.ts']],
      ],
    );
    assert.deepEqual(
      (await readHistory(opened, { maxCommits: 1 })).map((commit) => commit.oid),
      [third],
    );
  });
});

describe('the reader never writes into the repository', () => {
  test('reading a change leaves .git untouched', async (t) => {
    const repo = createRepo({ 'a.ts': 'a\n' });
    t.after(() => repo.cleanup());
    repo.write({ 'a.ts': 'b\n' });
    const before = repo.git('count-objects', '-v');
    const indexBefore = repo.git('ls-files', '--stage', '--debug');
    const opened = await openRepository(repo.dir);
    await readChange(opened, { base: 'HEAD' });
    assert.equal(repo.git('count-objects', '-v'), before);
    assert.equal(repo.git('ls-files', '--stage', '--debug'), indexBefore);
  });

  test('hooks and core.fsmonitor from the repository config are never run', async (t) => {
    const repo = createRepo({ 'a.ts': 'a\n' });
    const marker = join(makeTempDir('checker-pwned-'), 'PWNED');
    t.after(() => {
      repo.cleanup();
      rmSync(join(marker, '..'), { recursive: true, force: true });
    });
    repo.git('config', 'core.fsmonitor', `touch ${marker}`);
    repo.git('config', 'core.pager', `touch ${marker}`);
    writeFileSync(join(repo.dir, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    repo.write({ 'a.ts': 'b\n', 'new.ts': 'n\n' });
    const opened = await openRepository(repo.dir);
    const change = await readChange(opened);
    assert.deepEqual(
      change.files.map((file) => [file.path, file.status]),
      [
        ['a.ts', 'modified'],
        ['new.ts', 'added'],
      ],
    );
    assert.equal(existsSync(marker), false);
  });
});

describe('readChange: a .js file converted to .ts keeps its history as a rename', () => {
  const js = [
    'function check(req, res) {',
    '  const started = Date.now();',
    '  const ok = ping();',
    '  if (!ok) {',
    "    res.status(503).send('down');",
    '    return;',
    '  }',
    "  res.send('up');",
    '  log(Date.now() - started);',
    '}',
    'module.exports = check;',
    '',
  ].join('\n');
  const ts = [
    "import type { Request, Response } from 'express';",
    '',
    'function check(req: Request, res: Response): void {',
    '  const started = Date.now();',
    '  const ok = ping();',
    '  if (!ok) {',
    "    res.status(503).send('down');",
    '    return;',
    '  }',
    "  res.send('up');",
    '  log(Date.now() - started);',
    '}',
    '',
    'export interface HealthReport {',
    '  ok: boolean;',
    '  tookMs: number;',
    '  checkedAt: string;',
    '}',
    '',
    'export default check;',
    '',
  ].join('\n');
  let repo: TestRepo;
  before(() => {
    repo = createRepo({
      'src/health-check.js': js,
      'src/other.js': 'module.exports = 1;\n',
      'src/unrelated.js': js.replace('check', 'probe'),
    });
    repo.remove('src/unrelated.js');
    repo.write({ 'src/unrelated-probe.ts': ts.replace(/check/g, 'probe') });
    repo.remove('src/health-check.js');
    repo.write({ 'src/health-check.ts': ts });
    repo.commit('convert health-check to TypeScript');
  });
  after(() => repo.cleanup());

  test('paired as renamed, with hunks against the .js original, not an add and a delete', async () => {
    // git's byte score is below its 50% default (the file grew), but 10 of the 11 old lines survive under the same stem.
    assert.match(repo.git('diff', '--name-status', '-M30%', 'HEAD~1', 'HEAD'), /^R\d+\tsrc\/health-check\.js\tsrc\/health-check\.ts$/m);
    const change = await readChange(await openRepository(repo.dir), { base: 'HEAD~1', head: 'HEAD' });
    // The same rewrite under a different stem stays an add and a delete: the stem rule does not widen git's score elsewhere.
    assert.deepEqual(
      change.files.map((file) => [file.path, file.status, file.previousPath ?? '']),
      [
        ['src/health-check.ts', 'renamed', 'src/health-check.js'],
        ['src/unrelated-probe.ts', 'added', ''],
        ['src/unrelated.js', 'deleted', ''],
      ],
    );
  });
});
