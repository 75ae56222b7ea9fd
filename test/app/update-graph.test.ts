import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { buildRepositoryGraph, type RepositoryGraph, updateRepositoryGraph } from '../../src/app/build-graph.js';
import { loadConfig } from '../../src/app/load/load-config.js';
import type { Env } from '../../src/model/env.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';
import { SHOP_EDITS, SHOP_FILES } from '../helpers/shop-repo.js';
import { analyse, describeRepository } from '../helpers/repository-shape.js';
import { edgeKeys } from '../helpers/graph-store.js';

// A patched graph must be the graph a fresh build gives for the same tree: the same nodes, edges, attributes, lists
// and limitations, and the same analysis of the change. Each case edits the repository, patches the graph built
// before the edit, builds the edited tree from scratch, and compares the two whole.

interface Built {
  env: Env;
  repository: RepositoryGraph;
}

async function build(repo: TestRepo): Promise<Built> {
  const env = createTestEnv(repo.dir, { useCache: false });
  const config = await loadConfig(env);
  const scannedAt = Date.now();
  const scan = await env.scan({ maxFileBytes: 1024 * 1024 });
  return { env, repository: await buildRepositoryGraph(env, { config, scan }, { patchable: { scannedAt } }) };
}

async function update(previous: Built): Promise<RepositoryGraph | undefined> {
  const config = await loadConfig(previous.env);
  const scannedAt = Date.now();
  const scan = await previous.env.scan({ maxFileBytes: 1024 * 1024 });
  return updateRepositoryGraph(previous.env, previous.repository, { config, scan, scannedAt });
}

/** Edits the repository, then checks the patched graph (and the analysis over it) against a fresh build. */
async function assertPatchMatchesBuild(repo: TestRepo, before: Built, edit: () => void, edited: number): Promise<Built> {
  edit();
  const patched = await update(before);
  assert.ok(patched !== undefined, 'the edit is patched, not rebuilt');
  // Only the edited files are read and parsed: the others come from the facts the graph was built from.
  assert.deepEqual([patched.parsed.stats.read, patched.parsed.stats.parsed], [edited, edited]);
  const fresh = await build(repo);
  assert.deepEqual(describeRepository(patched), describeRepository(fresh.repository));
  assert.deepEqual(await analyse(before.env, patched), await analyse(fresh.env, fresh.repository));
  return { env: before.env, repository: patched };
}

test('a patched graph equals a fresh build after each kind of source edit, one after the other', async () => {
  const repo = createRepo(SHOP_FILES);
  try {
    let current = await build(repo);
    for (const [label, files] of SHOP_EDITS) {
      await test(label, async () => {
        current = await assertPatchMatchesBuild(repo, current, () => repo.write(files), Object.keys(files).length);
      });
    }
  } finally {
    repo.cleanup();
  }
});

test('a file touched without a change keeps the graph as it is', async () => {
  const repo = createRepo(SHOP_FILES);
  try {
    const before = await build(repo);
    // graphology numbers edges as they are added: a patch (which always composes the routes again) gives new keys.
    const edges = edgeKeys(before.repository.kg.graph);
    const future = new Date(Date.now() + 5000);
    utimesSync(join(repo.dir, 'src/pricing/discount.ts'), future, future);
    const after = await update(before);
    assert.ok(after !== undefined);
    assert.deepEqual([after.parsed.stats.read, after.parsed.stats.parsed], [1, 0]);
    assert.deepEqual(edgeKeys(after.kg.graph), edges);
    assert.deepEqual(describeRepository(after), describeRepository((await build(repo)).repository));
  } finally {
    repo.cleanup();
  }
});

test('a graph is built again, not patched, when files come or go or a non-source file changes', async () => {
  const cases: [string, (repo: TestRepo) => void][] = [
    ['a file added', (repo) => repo.write({ 'src/orders/extra.ts': 'export const extra = 1;\n' })],
    ['a file removed', (repo) => repo.remove('src/pricing/tax.ts')],
    ['a document changed', (repo) => repo.write({ 'docs/adr/0001-pricing.md': '# Pricing\n\nNow `GOLD` only.\n' })],
    ['a tsconfig changed', (repo) => repo.write({ 'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext' } }) })],
    ['the configuration changed', (repo) => repo.write({ '.checker/config.yml': 'analysis:\n  ignore: ["test/**"]\n' })],
  ];
  for (const [label, edit] of cases) {
    const repo = createRepo(SHOP_FILES);
    try {
      const before = await build(repo);
      const nodes = before.repository.kg.graph.order;
      edit(repo);
      assert.equal(await update(before), undefined, label);
      assert.equal(before.repository.kg.graph.order, nodes, `${label}: the graph is left as it was`);
    } finally {
      repo.cleanup();
    }
  }
});

test('a graph not built patchable is never patched', async () => {
  const repo = createRepo(SHOP_FILES);
  try {
    const env = createTestEnv(repo.dir, { useCache: false });
    const repository = await buildRepositoryGraph(env);
    repo.write({ 'src/shared/money.ts': 'export const roundCents = (value: number): number => value;\n' });
    assert.equal(await update({ env, repository }), undefined);
  } finally {
    repo.cleanup();
  }
});
