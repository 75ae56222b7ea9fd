import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createRepo } from './git-repo.js';

const FILES = { 'src/orders.ts': 'export const orders = [];\n', 'README.md': '# shop\n', 'assets/logo.bin': Buffer.from([0, 1, 2]) };

test('a tree built again is an independent copy with the same commits and a clean worktree', () => {
  const repos = [createRepo(FILES), createRepo(FILES), createRepo(FILES)];
  try {
    const [first, second, third] = repos;
    assert.ok(first !== undefined && second !== undefined && third !== undefined);
    const head = first.git('rev-parse', 'HEAD');
    assert.equal(second.git('rev-parse', 'HEAD'), head);
    assert.equal(third.git('rev-parse', 'HEAD'), head);
    assert.equal(new Set(repos.map((repo) => repo.dir)).size, 3);
    assert.equal(third.git('status', '--porcelain'), '');
    assert.equal(third.git('log', '--format=%s'), 'initial');
    third.write({ 'src/orders.ts': 'export const orders = [1];\n' });
    assert.equal(readFileSync(join(second.dir, 'src/orders.ts'), 'utf8'), FILES['src/orders.ts']);
    assert.equal(second.git('status', '--porcelain'), '');
    first.write({ 'src/orders.ts': 'export const orders = [1];\n' });
    assert.equal(third.commit('two'), first.commit('two'), 'the next commit has the same date, so the same oid');
  } finally {
    for (const repo of repos) repo.cleanup();
  }
});

test('a different tree, branch or an uncommitted repository is never served from another tree', () => {
  const repos = [
    createRepo(FILES),
    createRepo({ ...FILES, 'README.md': '# shop!\n' }),
    createRepo(FILES, { branch: 'trunk' }),
    createRepo(FILES, { commit: false }),
    createRepo(FILES, { commit: false }),
  ];
  try {
    const [base, changed, trunk, loose, looseAgain] = repos;
    assert.ok(base !== undefined && changed !== undefined && trunk !== undefined && loose !== undefined && looseAgain !== undefined);
    assert.notEqual(changed.git('rev-parse', 'HEAD'), base.git('rev-parse', 'HEAD'));
    assert.equal(trunk.git('rev-parse', '--abbrev-ref', 'HEAD'), 'trunk');
    for (const repo of [loose, looseAgain]) {
      assert.equal(repo.git('rev-list', '--all'), '');
      assert.match(repo.git('status', '--porcelain'), /\?\? src\//);
    }
  } finally {
    for (const repo of repos) repo.cleanup();
  }
});
