import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildRepositoryGraph, type RepositoryGraph } from '../../src/app/build-graph.js';
import { FACTS_CACHE_FILE } from '../../src/io/parse-cache.js';
import type { Env } from '../../src/model/env.js';
import { ageFiles } from '../helpers/age-files.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { analyse } from '../helpers/repository-shape.js';
import { createTestEnv } from '../helpers/test-env.js';

// The runs after a focused cold run (src/io/parse-files.ts' link mode `focus`): the facts cache keeps the files the cold run
// read for their links alone as link entries, the next run takes them as they are and reads for their links the files
// the cold run never scanned, reads in full what the new change needs (build-graph.ts' readFocusInFull) and keeps its
// graph with the link-only files named; the run after loads that graph and patches in what it reads in full. Each
// answers what a build from every file's full facts answers.

const SNAPSHOT_DATA = '.checker/local/cache/graph-v1.data.json';

const FILES = {
  'package.json': JSON.stringify({ name: 'shop', type: 'module', scripts: { test: 'vitest run' } }),
  'src/db.ts': 'export function findUsers(): string[] {\n  return [];\n}\n',
  'src/users.ts': "import { findUsers } from './db.js';\nexport function listUsers(): string[] {\n  return findUsers();\n}\n",
  // Says `db` without importing it: a cold run on db.ts's change reads it for its links, and needs no more.
  'src/report.ts':
    "// Totals; users.ts reads them from './db.js'.\nexport function total(values: number[]): number {\n  return values.reduce((a, b) => a + b, 0);\n}\n",
  'src/price.ts': 'export function priceOf(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n',
  'src/orders.ts':
    "import { priceOf } from './price.js';\nexport function describeOrder(cents: number): string {\n  return `order ${priceOf(cents)}`;\n}\n",
  'test/users.test.ts':
    "import { listUsers } from '../src/users.js';\nimport { describe, expect, it } from 'vitest';\ndescribe('users', () => {\n  it('lists none', () => {\n    expect(listUsers()).toEqual([]);\n  });\n});\n",
  'test/orders.test.ts':
    "import { describeOrder } from '../src/orders.js';\nimport { describe, expect, it } from 'vitest';\ndescribe('orders', () => {\n  it('prices an order', () => {\n    expect(describeOrder(150)).toBe('order 1.50');\n  });\n});\n",
};

/** The real-disk Env of a built CLI (only a build id lets a graph be kept), with the facts cache. */
function envOf(repo: TestRepo): Env {
  return { ...createTestEnv(repo.dir), buildId: 'link-runs-test' };
}

/** A focused build of the working tree's change to `changed`, as `checker ai` makes it. */
function focusedBuild(repo: TestRepo, changed: string[]): Promise<RepositoryGraph> {
  return buildRepositoryGraph(envOf(repo), undefined, { focus: { changedPaths: async () => changed } });
}

/** The same tree's analysis from every file's full facts, with no cache or kept graph to stand in. */
async function fullAnalysis(repo: TestRepo): Promise<unknown> {
  const env = createTestEnv(repo.dir, { useCache: false });
  return analyse(env, await buildRepositoryGraph(env));
}

/** The facts cache's entries, by path, as written. */
function readCacheEntries(repo: TestRepo): Record<string, { links?: true }> {
  const file = readFileSync(join(repo.dir, '.checker/local/cache', FACTS_CACHE_FILE), 'utf8');
  return (JSON.parse(file) as { entries: Record<string, { links?: true }> }).entries;
}

describe('the runs after a focused cold run', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo(FILES);
  });
  after(() => repo.cleanup());

  it('keeps the files it read for their links as link entries, and takes them as they are in the next run', async () => {
    repo.remove('.checker/local/cache');
    ageFiles(repo);
    repo.write({ 'src/db.ts': "export function findUsers(): string[] {\n  return ['root'];\n}\n" });
    ageFiles(repo, ['src/db.ts']);
    const cold = await focusedBuild(repo, ['src/db.ts']);
    assert.deepEqual([...(cold.parsed.linkOnly ?? [])].sort(), ['src/orders.ts', 'src/price.ts', 'src/report.ts', 'test/orders.test.ts']);
    assert.deepEqual([...(cold.parsed.unlinked ?? [])].sort(), ['src/orders.ts', 'src/price.ts', 'test/orders.test.ts']);
    assert.deepEqual(await analyse(envOf(repo), cold), await fullAnalysis(repo));
    const entries = readCacheEntries(repo);
    assert.equal(entries['src/report.ts']?.links, true, 'read for its links: a link entry');
    assert.equal(entries['src/users.ts']?.links, undefined, 'read in full: a full entry');
    assert.equal(entries['src/price.ts'], undefined, 'never scanned: no entry');

    // The next change, elsewhere: report.ts is taken from the cache, the three never scanned are read for their
    // links, and what price.ts's change needs (its importer and the test reaching it) is read in full.
    repo.write({ 'src/price.ts': 'export function priceOf(cents: number): string {\n  return `${(cents / 100).toFixed(2)} EUR`;\n}\n' });
    ageFiles(repo, ['src/price.ts']);
    const next = await focusedBuild(repo, ['src/price.ts']);
    assert.equal(next.source, 'build');
    assert.deepEqual([...(next.parsed.linkOnly ?? [])].sort(), ['src/report.ts']);
    assert.equal(next.parsed.stats.cached, 4, 'db, users and users.test in full, report.ts for its links');
    assert.deepEqual(await analyse(envOf(repo), next), await fullAnalysis(repo));
    const kept = JSON.parse(readFileSync(join(repo.dir, SNAPSHOT_DATA), 'utf8')) as { data: { linkOnly?: string[] } };
    assert.deepEqual(kept.data.linkOnly, ['src/report.ts'], 'the kept graph names the file it holds with its links alone');
    assert.equal(readCacheEntries(repo)['test/orders.test.ts']?.links, undefined, 'read in full: cached in full');
  });

  it('loads the kept graph after another edit and patches in the file it now reads in full', async () => {
    repo.write({
      'src/report.ts':
        "import { listUsers } from './users.js';\nexport function total(values: number[]): number {\n  return values.reduce((a, b) => a + b, listUsers().length);\n}\n",
    });
    ageFiles(repo, ['src/report.ts']);
    const loaded = await focusedBuild(repo, ['src/price.ts', 'src/report.ts']);
    assert.equal(loaded.source, 'patched snapshot');
    assert.deepEqual([...(loaded.parsed.linkOnly ?? [])], []);
    assert.deepEqual(await analyse(envOf(repo), loaded), await fullAnalysis(repo));
  });
});
