import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadDecayHistory } from '../../../src/app/load/history.js';
import type { Env, GitAccess } from '../../../src/model/env.js';
import { commitAt } from '../../helpers/dated-git.js';
import { createRepo, type TestRepo } from '../../helpers/git-repo.js';
import { createTestEnv } from '../../helpers/test-env.js';

const CACHE = '.checker/local/cache/decay-history-v1.json';

/** The repository's real git access, counting the log walks that reach it. */
async function countingGit(env: Env): Promise<{ git: GitAccess; walks: () => number }> {
  const real = await env.openGit();
  let walks = 0;
  const git: GitAccess = {
    ...real,
    readHistory: (options) => {
      walks += 1;
      return real.readHistory(options);
    },
  };
  return { git, walks: () => walks };
}

describe('the decay history cache', () => {
  let repo: TestRepo;
  let env: Env;
  before(() => {
    repo = createRepo();
    repo.write({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 1;\n' });
    commitAt(repo, 'initial', '2026-01-01T00:00:00Z');
    repo.write({ 'src/a.ts': 'export const a = 2;\n' });
    commitAt(repo, 'change a', '2026-01-02T00:00:00Z');
    repo.write({ 'src/b.ts': 'export const b = 2;\n' });
    commitAt(repo, 'change b', '2026-01-03T00:00:00Z');
    env = createTestEnv(repo.dir);
  });
  after(async () => {
    await env.close();
    repo.cleanup();
  });

  test('a second run with the same HEAD, paths (any order) and bound is served from the cache, unchanged', async () => {
    const { git, walks } = await countingGit(env);
    const direct = await (await env.openGit()).readHistory({ paths: ['src/a.ts', 'src/b.ts'], maxCommits: 200 });
    const first = await loadDecayHistory(env, git, ['src/a.ts', 'src/b.ts'], 200);
    assert.deepEqual(first, direct);
    assert.deepEqual(
      first.map((entry) => entry.paths),
      [['src/b.ts'], ['src/a.ts'], ['src/a.ts', 'src/b.ts']],
    );
    const second = await loadDecayHistory(env, git, ['src/b.ts', 'src/a.ts'], 200);
    assert.deepEqual(second, direct);
    assert.equal(walks(), 1);
    // Another bound or other paths are other questions.
    assert.equal((await loadDecayHistory(env, git, ['src/a.ts'], 200)).length, 2);
    assert.equal((await loadDecayHistory(env, git, ['src/a.ts', 'src/b.ts'], 2)).length, 2);
    assert.equal(walks(), 3);
  });

  test('a new commit moves HEAD and the log is walked again', async () => {
    const { git, walks } = await countingGit(env);
    await loadDecayHistory(env, git, ['src/a.ts'], 200);
    assert.equal(walks(), 0);
    repo.write({ 'src/a.ts': 'export const a = 3;\n' });
    commitAt(repo, 'change a again', '2026-01-04T00:00:00Z');
    const moved = await loadDecayHistory(env, git, ['src/a.ts'], 200);
    assert.equal(walks(), 1);
    assert.equal(moved.length, 3);
  });

  test('a damaged or foreign cache file is a miss, then written again', async () => {
    const { git, walks } = await countingGit(env);
    for (const text of [
      '{ not json',
      JSON.stringify({ version: 2, entries: [] }),
      JSON.stringify({ version: 1, entries: [['k', [{ oid: 1 }]]] }),
    ]) {
      writeFileSync(join(repo.dir, CACHE), text);
      const read = await loadDecayHistory(env, git, ['src/b.ts'], 200);
      assert.deepEqual(
        read.map((entry) => entry.paths),
        [['src/b.ts'], ['src/b.ts']],
      );
    }
    assert.equal(walks(), 3);
    assert.equal(JSON.parse(readFileSync(join(repo.dir, CACHE), 'utf8')).version, 1);
    await loadDecayHistory(env, git, ['src/b.ts'], 200);
    assert.equal(walks(), 3);
  });
});
