import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { openRepository, readChange } from '../../src/io/git.js';
import { buildRepositoryGraph } from '../../src/app/build-graph.js';
import { createNodeEnv } from '../../src/io/node-env.js';
import type { ChangeSet } from '../../src/model/change.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';

// A run that analyses the working tree reads its change on another thread while the graph loads (`prefetchChange`).
// The change it gets must be the one read in place, and the stamp the analysis memo keeps must be taken before it.
// Only a run with a facts cache prefetches: one without parses every file, and reads the change on its own thread.

function editedRepo(): TestRepo {
  const repo = createRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n', 'README.md': '# r\n' });
  repo.write({ 'src/a.ts': 'export const a = 10;\nexport const extra = 3;\n', 'src/new.ts': 'export const n = 0;\n' });
  repo.remove('README.md');
  return repo;
}

/** The worker from its source, as src/io/node-env.ts starts it from sources: the thread registers tsx itself. */
function runChangeWorker(root: string, range: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
    const entry = JSON.stringify(new URL('../../src/worker/change-worker.ts', import.meta.url).href);
    const worker = new Worker(`import(${tsx}).then((api) => { api.register(); return import(${entry}); });`, {
      eval: true,
      workerData: { root, range },
    });
    worker.once('message', (message: unknown) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

describe('the working-tree change read on another thread', () => {
  test('the worker reads the same change as the main thread, and answers nothing for a folder that is no repository', async (t) => {
    const repo = editedRepo();
    t.after(() => repo.cleanup());
    const inPlace = await readChange(await openRepository(repo.dir));
    assert.deepEqual(
      inPlace.files.map((file) => [file.path, file.status]),
      [
        ['README.md', 'deleted'],
        ['src/a.ts', 'modified'],
        ['src/new.ts', 'added'],
      ],
    );
    assert.deepEqual(await runChangeWorker(repo.dir, {}), { change: inPlace });
    assert.deepEqual(await runChangeWorker('/nonexistent-checker-folder', {}), {});
    assert.deepEqual(await runChangeWorker(repo.dir, 'not a range'), {});
  });

  test('a prefetched change is the one read in place; its stamp is the one taken before it was read', async (t) => {
    const repo = editedRepo();
    t.after(() => repo.cleanup());
    await buildWithCache(repo, t);
    const fresh = async (): Promise<{ change: ChangeSet; stamp: unknown }> => {
      const git = await createNodeEnv(repo.dir).openGit();
      return { stamp: await git.readChangeStamp?.({}), change: await git.readChange({}) };
    };
    const expected = await fresh();
    const git = await createNodeEnv(repo.dir).openGit();
    git.prefetchChange?.({});
    const early = await git.readChangeStamp?.({});
    assert.deepEqual(early, expected.stamp);
    // The index moves after the prefetch: the stamp stays the one taken before, so a memo keyed by it cannot outlive
    // the change it was read with; a fresh stamp differs.
    await new Promise((resolve) => setTimeout(resolve, 20));
    repo.git('add', 'src/new.ts');
    assert.deepEqual(await git.readChangeStamp?.({}), early);
    assert.deepEqual(await git.readChange({}), expected.change);
    assert.notDeepEqual(await git.readChangeStamp?.({}), early, 'taken once the prefetched change was handed out');
    // Another range is not answered from the prefetch.
    assert.equal((await git.readChange({ base: 'HEAD', head: 'HEAD' })).files.length, 0);
  });

  test('with no facts cache nothing is prefetched: the stamp and the change are read when asked', async (t) => {
    const repo = editedRepo();
    t.after(() => repo.cleanup());
    const git = await createNodeEnv(repo.dir).openGit();
    git.prefetchChange?.({});
    const early = await git.readChangeStamp?.({});
    await new Promise((resolve) => setTimeout(resolve, 20));
    repo.git('add', 'src/new.ts');
    assert.notDeepEqual(await git.readChangeStamp?.({}), early, 'a prefetch would have kept the stamp taken before the index moved');
    const change = await git.readChange({});
    assert.equal(change.files.find((file) => file.path === 'src/new.ts')?.status, 'added');
  });

  test('a committed range is not prefetched', async (t) => {
    const repo = editedRepo();
    t.after(() => repo.cleanup());
    repo.commit('second');
    const git = await createNodeEnv(repo.dir).openGit();
    git.prefetchChange?.({ base: 'HEAD~1', head: 'HEAD' });
    repo.write({ 'src/b.ts': 'export const b = 20;\n' });
    repo.commit('third');
    // Read now, not when the prefetch was asked: HEAD has moved, and the change with it.
    const change = await git.readChange({ base: 'HEAD~1', head: 'HEAD' });
    assert.deepEqual(
      change.files.map((file) => file.path),
      ['src/b.ts'],
    );
  });
});

/** A graph build of the repository, which leaves the facts cache a warm run has; its parse children are closed after. */
async function buildWithCache(repo: TestRepo, t: { after: (fn: () => Promise<void> | void) => void }): Promise<void> {
  const env = createNodeEnv(repo.dir);
  t.after(() => env.close());
  await buildRepositoryGraph(env);
}
