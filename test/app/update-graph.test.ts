import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeChange } from '../../src/app/analyze.js';
import { buildRepositoryGraph, type RepositoryGraph, updateRepositoryGraph } from '../../src/app/build-graph.js';
import { loadConfig } from '../../src/app/load-config.js';
import type { Env } from '../../src/model/env.js';
import { createRepo, type FileTree, type TestRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

// A patched graph must be the graph a fresh build gives for the same tree: the same nodes, edges, attributes, lists
// and limitations, and the same analysis of the change. Each case edits the repository, patches the graph built
// before the edit, builds the edited tree from scratch, and compares the two whole.

const FILES: FileTree = {
  'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module', dependencies: { express: '4.0.0' } }),
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', strict: true } }),
  '.github/CODEOWNERS': '/src/pricing/ @acme/pricing\n/src/orders/ @acme/orders\n',
  'docs/adr/0001-pricing.md': '# Pricing\n\nDiscounts go through `applyDiscount` in src/pricing/discount.ts; see GET /orders/list.\n',
  'src/shared/money.ts': 'export function roundCents(value: number): number {\n  return Math.round(value * 100) / 100;\n}\n',
  'src/pricing/discount.ts': [
    "import { roundCents } from '../shared/money.js';",
    'export function applyDiscount(total: number, rate: number): number {',
    '  return roundCents(total * (1 - rate));',
    '}',
    'export const GOLD = 0.2;',
    '',
  ].join('\n'),
  'src/pricing/tax.ts': "export { roundCents as round } from '../shared/money.js';\nexport const VAT = 0.2;\n",
  'src/pricing/index.ts': "export * from './discount.js';\nexport * from './tax.js';\n",
  'src/orders/service.ts': [
    "import { applyDiscount, GOLD } from '../pricing/index.js';",
    "import { round } from '../pricing/tax.js';",
    'export async function listOrders(): Promise<number[]> {',
    '  return [round(applyDiscount(100, GOLD))];',
    '}',
    '',
  ].join('\n'),
  'src/orders/routes.ts': [
    "import { Router } from 'express';",
    "import { listOrders } from './service.js';",
    'export const orders = Router();',
    "orders.get('/list', async (_req, res) => { res.json(await listOrders()); });",
    '',
  ].join('\n'),
  'src/server.ts': [
    "import express from 'express';",
    "import { orders } from './orders/routes.js';",
    'const app = express();',
    "app.use('/orders', orders);",
    'export default app;',
    '',
  ].join('\n'),
  'test/pricing.test.ts': [
    "import { describe, it, expect, vi } from 'vitest';",
    "import { applyDiscount } from '../src/pricing/index.js';",
    "vi.mock('../src/shared/money.js');",
    "describe('pricing', () => { it('discounts', () => { expect(applyDiscount(100, 0.5)).toBe(50); }); });",
    '',
  ].join('\n'),
};

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

/** Everything a build yields that a report can see, with maps and node and edge lists in a fixed order. */
function describe(repository: RepositoryGraph): unknown {
  const { kg } = repository;
  const nodes: [string, unknown][] = [];
  kg.graph.forEachNode((id, attributes) => {
    nodes.push([id, attributes]);
  });
  const edges: string[] = [];
  kg.graph.forEachEdge((_key, attributes, source, target) => {
    edges.push(JSON.stringify([source, target, attributes]));
  });
  const sortedEntries = <T>(map: Map<string, T> | undefined): [string, T][] =>
    [...(map ?? [])].sort(([left], [right]) => (left < right ? -1 : 1));
  return {
    nodes: nodes.sort(([left], [right]) => (left < right ? -1 : 1)),
    edges: edges.sort(),
    fileIds: sortedEntries(kg.fileIds),
    unresolvedImports: kg.unresolvedImports,
    externalImports: kg.externalImports,
    parseFailures: kg.parseFailures,
    unmatchedMounts: kg.unmatchedMounts,
    routeLimitations: kg.routeLimitations ?? [],
    diagnostics: kg.diagnostics,
    reexportBindings: sortedEntries(kg.reexportBindings),
    facts: sortedEntries(repository.parsed.facts),
    skipped: repository.parsed.skipped,
    parseDiagnostics: repository.parsed.diagnostics,
    resolutions: sortedEntries(repository.resolutions),
    limitations: repository.limitations,
    scan: repository.scan.files.map((file) => file.path),
  };
}

/** The analysis of the working tree's change, without its timings. */
async function analyse(env: Env, repository: RepositoryGraph): Promise<unknown> {
  const analysis = await analyzeChange(env, { repository });
  return JSON.parse(JSON.stringify(analysis, (key, value: unknown) => (key === 'timings' ? undefined : value)));
}

/** Edits the repository, then checks the patched graph (and the analysis over it) against a fresh build. */
async function assertPatchMatchesBuild(repo: TestRepo, before: Built, edit: () => void, edited: number): Promise<Built> {
  edit();
  const patched = await update(before);
  assert.ok(patched !== undefined, 'the edit is patched, not rebuilt');
  // Only the edited files are read and parsed: the others come from the facts the graph was built from.
  assert.deepEqual([patched.parsed.stats.read, patched.parsed.stats.parsed], [edited, edited]);
  const fresh = await build(repo);
  assert.deepEqual(describe(patched), describe(fresh.repository));
  assert.deepEqual(await analyse(before.env, patched), await analyse(fresh.env, fresh.repository));
  return { env: before.env, repository: patched };
}

test('a patched graph equals a fresh build after each kind of source edit, one after the other', async () => {
  const repo = createRepo(FILES);
  try {
    let current = await build(repo);
    const edits: [string, FileTree][] = [
      [
        'a function body',
        { 'src/shared/money.ts': 'export function roundCents(value: number): number {\n  return Math.round(value * 1000) / 1000;\n}\n' },
      ],
      [
        'lines added above an export that other files use',
        {
          'src/shared/money.ts':
            '// Money helpers.\n\nexport function roundCents(value: number): number {\n  return Math.round(value * 1000) / 1000;\n}\n',
        },
      ],
      [
        'an export renamed behind a barrel',
        {
          'src/pricing/discount.ts': [
            "import { roundCents } from '../shared/money.js';",
            'export function discountTotal(total: number, rate: number): number {',
            '  return roundCents(total * (1 - rate));',
            '}',
            'export const GOLD = 0.2;',
            '',
          ].join('\n'),
          'src/orders/service.ts': [
            "import { discountTotal, GOLD } from '../pricing/index.js';",
            "import { round } from '../pricing/tax.js';",
            'export async function listOrders(): Promise<number[]> {',
            '  return [round(discountTotal(100, GOLD))];',
            '}',
            '',
          ].join('\n'),
        },
      ],
      ['a barrel that stops re-exporting', { 'src/pricing/index.ts': "export * from './discount.js';\n" }],
      [
        'a route added to a mounted router',
        {
          'src/orders/routes.ts': [
            "import { Router } from 'express';",
            "import { listOrders } from './service.js';",
            'export const orders = Router();',
            "orders.get('/list', async (_req, res) => { res.json(await listOrders()); });",
            "orders.post('/refund', async (_req, res) => { res.json(await listOrders()); });",
            '',
          ].join('\n'),
        },
      ],
      ['a syntax error', { 'src/pricing/tax.ts': 'export const VAT = ;\n' }],
      [
        'the syntax error fixed',
        { 'src/pricing/tax.ts': "export { roundCents as round } from '../shared/money.js';\nexport const VAT = 0.2;\n" },
      ],
      [
        'a test that stops mocking and imports another file',
        {
          'test/pricing.test.ts': [
            "import { describe, it, expect } from 'vitest';",
            "import { listOrders } from '../src/orders/service.js';",
            "import { missing } from '../src/nowhere.js';",
            "describe('orders', () => { it('lists', async () => { expect(await listOrders()).toEqual([missing]); }); });",
            '',
          ].join('\n'),
        },
      ],
    ];
    for (const [label, files] of edits) {
      await test(label, async () => {
        current = await assertPatchMatchesBuild(repo, current, () => repo.write(files), Object.keys(files).length);
      });
    }
  } finally {
    repo.cleanup();
  }
});

test('a file touched without a change keeps the graph as it is', async () => {
  const repo = createRepo(FILES);
  try {
    const before = await build(repo);
    // graphology numbers edges as they are added: a patch (which always composes the routes again) gives new keys.
    const edges = before.repository.kg.graph.edges();
    const future = new Date(Date.now() + 5000);
    utimesSync(join(repo.dir, 'src/pricing/discount.ts'), future, future);
    const after = await update(before);
    assert.ok(after !== undefined);
    assert.deepEqual([after.parsed.stats.read, after.parsed.stats.parsed], [1, 0]);
    assert.deepEqual(after.kg.graph.edges(), edges);
    assert.deepEqual(describe(after), describe((await build(repo)).repository));
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
    const repo = createRepo(FILES);
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
  const repo = createRepo(FILES);
  try {
    const env = createTestEnv(repo.dir, { useCache: false });
    const repository = await buildRepositoryGraph(env);
    repo.write({ 'src/shared/money.ts': 'export const roundCents = (value: number): number => value;\n' });
    assert.equal(await update({ env, repository }), undefined);
  } finally {
    repo.cleanup();
  }
});
