import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { listChangedPaths } from '../../src/io/git-changed-paths.js';
import { openRepository } from '../../src/io/git-repository.js';
import { diffTrees } from '../../src/io/git-tree.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';

/** What the history walk kept before listChangedPaths: every delta's path of diffTrees, sorted. */
async function pathsByDiffTrees(dir: string, base: string | undefined, head: string | undefined): Promise<string[]> {
  return (await diffTrees(await openRepository(dir), base, head)).map((delta) => delta.path).sort();
}

function treeOf(repo: TestRepo, revision: string): string {
  return repo.git('rev-parse', `${revision}^{tree}`);
}

/** A tree object written as given (git mktree would sort and check it): `[mode, name, oid]` entries. */
function writeRawTree(repo: TestRepo, entries: [string, string, string][]): string {
  const bytes = Buffer.concat(
    entries.map(([mode, name, oid]) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, 'hex')])),
  );
  return execFileSync('git', ['hash-object', '-t', 'tree', '-w', '--literally', '--stdin'], { cwd: repo.dir, input: bytes })
    .toString()
    .trim();
}

describe('changed paths between two trees', () => {
  it('are the paths of diffTrees on every commit of a history of adds, deletes, renames and swaps', async (t) => {
    const repo = createRepo({
      'README.md': '# r\n',
      'a.b': 'dot\n',
      'a-b': 'dash\n',
      a0: 'zero\n',
      'a/x.ts': 'x\n',
      'src/deep/one.ts': '1\n',
      'src/deep/two.ts': '2\n',
      'src/top.ts': 't\n',
    });
    t.after(() => repo.cleanup());
    // Each step changes the tree; one that stages by itself returns 'staged'.
    const steps: Array<() => unknown> = [
      () => repo.write({ 'src/deep/one.ts': '1 changed\n', 'src/new/three.ts': '3\n' }),
      // A folder becomes a file of the same name, between names that sort around it in git's order (`a-b`, `a.b`, `a/`, `a0`).
      () => {
        repo.remove('a');
        repo.write({ a: 'now a file\n' });
      },
      // …and back, with a file inside.
      () => {
        repo.remove('a');
        repo.write({ 'a/y.ts': 'y\n', 'a.b': 'dot changed\n' });
      },
      () => repo.git('mv', 'src/deep', 'src/moved'),
      () => repo.symlink('../top.ts', 'src/moved/link.ts'),
      // A mode-only change keeps the blob: no path.
      () => {
        repo.git('update-index', '--chmod=+x', 'src/top.ts');
        return 'staged';
      },
      // A submodule (gitlink) added, then replaced by a file.
      () => {
        repo.git('update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},vendor/lib`);
        return 'staged';
      },
      () => {
        repo.git('rm', '-q', '--cached', 'vendor/lib');
        repo.write({ 'vendor/lib': 'a file now\n' });
      },
      () => repo.write({ 'docs/café.md': 'non-ASCII names are left to diffTrees\n' }),
      () => repo.remove('src'),
    ];
    for (const [index, step] of steps.entries()) {
      if (step() !== 'staged') repo.git('add', '-A');
      repo.git('commit', '-q', '--allow-empty', '-m', `step ${index}`);
    }
    repo.git('repack', '-a', '-d', '-f', '--depth=50', '--window=50');
    const commits = repo.git('rev-list', 'HEAD').split('\n').reverse();
    const trees = commits.map((commit) => treeOf(repo, commit));
    const gitRepo = await openRepository(repo.dir);
    const seen = new Set<string>();
    for (const [index, tree] of trees.entries()) {
      for (const base of [undefined, trees[index - 1], trees[0]]) {
        const expected = await pathsByDiffTrees(repo.dir, base, tree);
        assert.deepEqual(await listChangedPaths(gitRepo, base, tree), expected, `step ${index} against ${base ?? 'nothing'}`);
        assert.deepEqual(
          await listChangedPaths(gitRepo, tree, base),
          await pathsByDiffTrees(repo.dir, tree, base),
          `reversed, step ${index}`,
        );
        for (const path of expected) seen.add(path);
      }
    }
    // The cases above happened: a swap both ways, a gitlink replaced by a file, a non-ASCII name, a symlink.
    for (const path of ['a', 'a/x.ts', 'a/y.ts', 'vendor/lib', 'docs/café.md', 'src/moved/link.ts']) assert.ok(seen.has(path), path);
    assert.ok(!seen.has('vendor/lib/') && [...seen].every((path) => !path.endsWith('/')));
    assert.deepEqual(await listChangedPaths(gitRepo, trees[0], trees[0]), []);
  });

  it('trees out of git order, with a name twice, or a name isomorphic-git refuses are diffed as diffTrees does', async (t) => {
    const repo = createRepo({ 'a.ts': 'a\n', 'b.ts': 'b\n' });
    t.after(() => repo.cleanup());
    const a = repo.git('rev-parse', 'HEAD:a.ts');
    const b = repo.git('rev-parse', 'HEAD:b.ts');
    const sorted = writeRawTree(repo, [
      ['100644', 'a.ts', a],
      ['100644', 'b.ts', b],
    ]);
    const cases: Record<string, string> = {
      'out of order': writeRawTree(repo, [
        ['100644', 'b.ts', a],
        ['100644', 'a.ts', b],
      ]),
      'a name twice': writeRawTree(repo, [
        ['100644', 'a.ts', a],
        ['100644', 'a.ts', b],
      ]),
      'a dotted name': writeRawTree(repo, [
        ['100644', 'a.ts', b],
        ['100644', 'gitmodules', a],
      ]),
    };
    const gitRepo = await openRepository(repo.dir);
    for (const [what, tree] of Object.entries(cases)) {
      assert.deepEqual(await listChangedPaths(gitRepo, sorted, tree), await pathsByDiffTrees(repo.dir, sorted, tree), what);
      assert.deepEqual(await listChangedPaths(gitRepo, undefined, tree), await pathsByDiffTrees(repo.dir, undefined, tree), what);
    }
    // A name isomorphic-git refuses: the walk leaves it to diffTrees, which fails as it did.
    const refused = writeRawTree(repo, [['100644', '.git', a]]);
    await assert.rejects(pathsByDiffTrees(repo.dir, sorted, refused));
    await assert.rejects(listChangedPaths(gitRepo, sorted, refused));
  });
});
