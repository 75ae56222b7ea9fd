import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createNodeEnv } from '../../src/io/node-env.js';
import { createWarmGraph } from '../../src/mcp/warm.js';
import { createRepo } from '../helpers/git-repo.js';

describe('createWarmGraph', () => {
  const repo = createRepo({
    'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }),
    'src/lib/money.ts': 'export function toCents(amount: number): number {\n  return Math.round(amount * 100);\n}\n',
    'src/orders.ts': "import { toCents } from './lib/money.js';\nexport const total = toCents(1);\n",
  });
  const env = createNodeEnv(repo.dir, { keepPool: true });
  after(async () => {
    await env.close();
    repo.cleanup();
  });

  it('reuses the graph while the tree is unchanged, patches it after a source edit, and rebuilds after a new file or a config change', async () => {
    const warm = createWarmGraph(env);
    const first = await warm.getRepository();
    assert.deepEqual(warm.getStats(), { builds: 1, patches: 0, reuses: 0, last: 'built', analyses: 0, analysisReuses: 0, keptAnalyses: 0 });
    assert.equal(await warm.getRepository(), first);
    assert.deepEqual(warm.getStats(), {
      builds: 1,
      patches: 0,
      reuses: 1,
      last: 'reused',
      analyses: 0,
      analysisReuses: 0,
      keptAnalyses: 0,
    });

    repo.write({
      'src/lib/money.ts':
        'export function toCents(amount: number): number {\n  return Math.round(amount * 100) + 0;\n}\nexport const CENTS = 100;\n',
    });
    const edited = await warm.getRepository();
    assert.notEqual(edited, first);
    assert.equal(warm.getStats().last, 'patched');
    assert.equal(edited.kg.graph.hasNode('export:src/lib/money.ts#CENTS'), true);

    repo.write({ 'src/tax.ts': 'export const rate = 0.2;\n' });
    const added = await warm.getRepository();
    assert.deepEqual(
      added.scan.files.map((file) => file.path),
      ['package.json', 'src/lib/money.ts', 'src/orders.ts', 'src/tax.ts'],
    );

    repo.write({ '.checker/config.yml': 'analysis:\n  ignore:\n    - src/tax.ts\n' });
    const configured = await warm.getRepository();
    assert.deepEqual(
      configured.scan.files.map((file) => file.path),
      ['.checker/config.yml', 'package.json', 'src/lib/money.ts', 'src/orders.ts'],
    );
    assert.equal(await warm.getRepository(), configured);
    assert.deepEqual(warm.getStats(), {
      builds: 3,
      patches: 1,
      reuses: 2,
      last: 'reused',
      analyses: 0,
      analysisReuses: 0,
      keptAnalyses: 0,
    });
  });

  it('serialises concurrent calls so an unchanged tree is built once, and rebuilds after invalidate', async () => {
    const warm = createWarmGraph(env);
    const [one, two, three] = await Promise.all([warm.getRepository(), warm.getRepository(), warm.getRepository()]);
    assert.equal(one, two);
    assert.equal(two, three);
    assert.deepEqual(warm.getStats(), {
      builds: 1,
      patches: 0,
      reuses: 2,
      last: 'reused',
      analyses: 0,
      analysisReuses: 0,
      keptAnalyses: 0,
    });
    warm.invalidate();
    assert.notEqual(await warm.getRepository(), one);
    assert.deepEqual(warm.getStats(), { builds: 2, patches: 0, reuses: 2, last: 'built', analyses: 0, analysisReuses: 0, keptAnalyses: 0 });
  });
});
