import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { getTaskContext } from '../../src/app/task-context.js';
import { createTestEnv } from '../helpers/test-env.js';
import { getValidator } from '../../src/io/schema.js';
import { findImpactClosure } from '../../src/ranking/context-select.js';
import { groundTask } from '../../src/ranking/grounding.js';
import { buildRepositoryGraph } from '../../src/app/build-graph.js';
import { getFileTexts } from '../../src/app/task-grounding.js';
import type { TaskContextPacket } from '../../src/model/context-packet.js';
import { SHOP_FILES } from '../helpers/shop-fixture.js';
import { createRepo, makeTempDir, writeTree, type TestRepo } from '../helpers/git-repo.js';
import { BUILTIN_GROUNDING_WEIGHTS } from '../helpers/grounding-weights.js';

const TASK = 'apply the loyalty discount for silver members';

async function runContext(dir: string, task: string, maxNodes?: number): Promise<TaskContextPacket> {
  const env = createTestEnv(dir);
  try {
    return await getTaskContext(env, { task, ...(maxNodes === undefined ? {} : { maxNodes }) });
  } finally {
    await env.close();
  }
}

async function getImpacted(dir: string, task: string): Promise<string[]> {
  const env = createTestEnv(dir);
  try {
    const repository = await buildRepositoryGraph(env);
    const texts = await getFileTexts(env, repository);
    const grounding = groundTask(repository.kg, task, { weights: BUILTIN_GROUNDING_WEIGHTS, texts });
    return findImpactClosure(
      repository.kg,
      grounding.candidateFiles.map((file) => file.path),
    ).ids;
  } finally {
    await env.close();
  }
}

describe('task context packet', () => {
  let repo: TestRepo;
  let head: string;
  before(() => {
    repo = createRepo(SHOP_FILES);
    head = repo.git('rev-parse', 'HEAD');
  });
  after(() => repo.cleanup());

  for (const maxNodes of [1, 5, undefined]) {
    it(`--max-nodes ${maxNodes ?? 'default (80)'} bounds the packet exactly`, async () => {
      const packet = await runContext(repo.dir, TASK, maxNodes);
      const bound = maxNodes ?? 80;
      assert.equal(packet.maxNodes, bound);
      assert.ok(packet.considered > 5);
      assert.equal(packet.nodes.length, Math.min(bound, packet.considered));
      assert.equal(packet.omitted.count, packet.considered - packet.nodes.length);
      assert.deepEqual(
        packet.nodes.map((node) => node.rank),
        packet.nodes.map((_node, index) => index + 1),
      );
      assert.equal(packet.nodes[0]?.id, 'file:src/pricing/discount.ts');
      const ids = new Set(packet.nodes.map((node) => node.id));
      for (const edge of packet.edges) assert.ok(ids.has(edge.source) && ids.has(edge.target));
      assert.equal(getValidator('task-context')(packet), true);
      const written: unknown = JSON.parse(readFileSync(join(repo.dir, '.checker/local/task-context.json'), 'utf8'));
      assert.deepEqual(written, packet);
    });
  }

  it('accounts for every file the grounded files impact, in the packet or named as left out', async () => {
    const impacted = await getImpacted(repo.dir, TASK);
    // order-service.ts calls applyLoyaltyDiscount: a candidate. The test of discount.ts is a candidate test, not a
    // candidate file: it is among what the candidates impact.
    assert.deepEqual(impacted, ['file:src/orders/routes.ts', 'file:test/pricing/discount.test.ts', 'file:src/server.ts']);
    for (const maxNodes of [1, 3, 80]) {
      const packet = await runContext(repo.dir, TASK, maxNodes);
      const inPacket = new Set(packet.nodes.map((node) => node.id));
      const named = new Set(packet.omitted.impacted);
      for (const id of impacted) assert.ok(inPacket.has(id) !== named.has(id), `${id} at --max-nodes ${maxNodes}`);
      assert.equal(packet.impactClosure.total, 3);
      assert.equal(packet.impactClosure.included + packet.impactClosure.omitted, 3);
    }
  });

  it('refuses a bound above the maximum, zero and fractions before writing anything', async () => {
    const fresh = createRepo({ 'src/pricing/discount.ts': 'export const applyLoyaltyDiscount = 1;\n' });
    try {
      for (const maxNodes of [1001, 0, 1.5, -3]) {
        await assert.rejects(
          runContext(fresh.dir, TASK, maxNodes),
          (error: Error & { code?: string }) => error.code === 'context/max-nodes' && /--max-nodes/.test(error.message),
        );
      }
      assert.equal(existsSync(join(fresh.dir, '.checker')), false);
    } finally {
      fresh.cleanup();
    }
  });

  it('gives each node a trust class, provenance and freshness', async () => {
    const packet = await runContext(repo.dir, TASK);
    const byId = new Map(packet.nodes.map((node) => [node.id, node]));
    const discount = byId.get('file:src/pricing/discount.ts');
    assert.deepEqual(discount?.provenance, { file: 'src/pricing/discount.ts', commit: head });
    assert.deepEqual(discount?.freshness, { state: 'current' });
    assert.equal(discount?.trust, 'deterministic');
    // `member` is lent by its test, whose title says "gold members".
    assert.deepEqual(discount?.matchedTerms, ['discount', 'loyalty', 'members']);
    assert.equal(
      discount?.explanation.some((entry) => entry.via === 'seed' && /candidate file/.test(entry.detail ?? '')),
      true,
    );
    assert.equal(byId.get('memory:.checker/memory/pricing.yml#discount-cap')?.trust, 'memory');
    assert.equal(byId.get('decision:docs/adr/0001-pricing-rules.md')?.trust, 'decision');
    const exported = byId.get('export:src/pricing/discount.ts#applyLoyaltyDiscount');
    assert.deepEqual(exported?.provenance, { file: 'src/pricing/discount.ts', line: 2, commit: head });
    assert.deepEqual(packet.revision, { git: true, anchor: head, head });
    assert.match(packet.weights.source, /^rule packs context-weights@/);
  });

  it('marks nodes whose files changed since the anchor as stale, and knowledge that mentions them', async () => {
    repo.write({ 'src/pricing/discount.ts': `${SHOP_FILES['src/pricing/discount.ts']}// silver tier next\n` });
    try {
      const packet = await runContext(repo.dir, TASK);
      const byId = new Map(packet.nodes.map((node) => [node.id, node]));
      assert.deepEqual(byId.get('file:src/pricing/discount.ts')?.freshness, {
        state: 'stale',
        since: head,
        reason: `src/pricing/discount.ts changed since ${head.slice(0, 12)}`,
      });
      assert.deepEqual(byId.get('file:src/pricing/discount.ts')?.provenance, { file: 'src/pricing/discount.ts' });
      assert.equal(byId.get('decision:docs/adr/0001-pricing-rules.md')?.freshness.state, 'stale');
      assert.deepEqual(byId.get('file:src/pricing/tax.ts')?.freshness, { state: 'current' });
    } finally {
      repo.git('checkout', '--', 'src/pricing/discount.ts');
    }
  });

  it('has no nodes and says why when the task cannot be grounded', async () => {
    const packet = await runContext(repo.dir, 'fix the api');
    assert.deepEqual(packet.nodes, []);
    assert.equal(packet.confidence, 'low');
    assert.equal(
      packet.limitations.some((item) => item.code === 'context/ungrounded'),
      true,
    );
    assert.equal(getValidator('task-context')(packet), true);
  });
});

describe('task context outside git', () => {
  let dir: string;
  before(() => {
    dir = makeTempDir('checker-nogit-');
    writeTree(dir, SHOP_FILES);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reports freshness unknown and no anchor', async () => {
    const packet = await runContext(dir, TASK, 5);
    assert.equal(packet.nodes.length, 5);
    assert.deepEqual(packet.revision, { git: false, anchor: null, head: null });
    assert.deepEqual([...new Set(packet.nodes.map((node) => node.freshness.state))], ['unknown']);
    assert.equal(getValidator('task-context')(packet), true);
  });
});

describe('task context edge weights from packs', () => {
  it('applies a pack weight to every edge kind, guards included (each weight sums over packs, /10)', async () => {
    const pack = [
      'schemaVersion: 1',
      'id: repo-weights',
      'version: 1.0.0',
      'kind: context-weight',
      'subject: edge-kind',
      'description: Route middleware matters more in this repository.',
      'rules:',
      '  - id: context-weight/repo-guards',
      '    description: Guards weigh more here.',
      '    rationale: Most regressions here came from middleware.',
      '    since: 1.0.0',
      '    conditions:',
      '      all:',
      '        - { fact: edgeKind, operator: equal, value: guards }',
      '    event:',
      '      type: context-weight/repo-guards',
      '      params:',
      '        weight: 2',
      '        edgeKind: guards',
      '        message: "{{edgeKind}} edges weigh 2 more"',
      '',
    ].join('\n');
    const repo = createRepo({ ...SHOP_FILES, '.checker/rules/weights.yml': pack });
    try {
      const packet = await runContext(repo.dir, TASK, 5);
      assert.match(packet.weights.source, /repo-weights@1\.0\.0/);
      // Built-in 6 plus the repository's 2, over the pack scale of 10.
      assert.equal(packet.weights.edgeWeights.guards, 0.8);
      assert.equal(packet.weights.edgeWeights.imports, 0.8);
    } finally {
      repo.cleanup();
    }
  });
});
