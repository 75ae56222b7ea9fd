import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toGroundingWeights } from '../../src/app/grounding-weights.js';
import { getPreflightReport } from '../../src/app/preflight.js';
import { loadBuiltinPacks } from '../helpers/packs.js';
import { createTestEnv } from '../helpers/test-env.js';
import { isCheckerError } from '../../src/model/diagnostic.js';
import type { LoadedPack } from '../../src/model/rules.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { SHOP_FILES } from '../helpers/shop-fixture.js';

const builtins = await loadBuiltinPacks();

function repositoryPack(grounding: LoadedPack['pack']['grounding']): LoadedPack {
  const base = builtins.find((entry) => entry.pack.id === 'context-weights');
  assert.ok(base);
  return { pack: { ...base.pack, id: 'repo:grounding', grounding }, source: 'repository', file: '.checker/rules/grounding.yml' };
}

describe('grounding weights are pack data', () => {
  test('the built-in context-weights pack sets every weight', () => {
    const { weights, source } = toGroundingWeights(builtins);
    assert.match(source, /^context-weights@/);
    assert.equal(weights.matchStrength.exactPath, 4);
    assert.equal(weights.roleFactor.test, 0.7);
    assert.equal(weights.surfaceBoost, 1.5);
    assert.equal(weights.requirementsFactor, 0.5);
  });

  test('a repository pack overrides single keys, after the built-ins whatever the order', () => {
    const override = repositoryPack({ roleFactor: { test: 3 }, matchStrength: { owner: 0 } });
    const { weights } = toGroundingWeights([override, ...builtins]);
    assert.equal(weights.roleFactor.test, 3);
    assert.equal(weights.roleFactor.source, 1);
    assert.equal(weights.matchStrength.owner, 0);
    assert.equal(weights.matchStrength.fileName, 1);
  });

  test('a missing weight is a rules/grounding-weights error naming the key', () => {
    const partial = repositoryPack({ surfaceBoost: 2 });
    assert.throws(
      () => toGroundingWeights([partial]),
      (error: unknown) =>
        isCheckerError(error) && error.code === 'rules/grounding-weights' && /matchStrength\.fileName/.test(error.message),
    );
  });
});

describe('a repository pack changes task grounding without TypeScript changes', () => {
  let repo: TestRepo;
  const task = 'apply a discount code at checkout';
  const top = async (): Promise<string | undefined> => {
    const env = createTestEnv(repo.dir);
    try {
      return (await getPreflightReport(env, { task })).candidateFiles[0];
    } finally {
      await env.close();
    }
  };
  before(() => {
    repo = createRepo(SHOP_FILES);
  });
  after(() => repo.cleanup());

  test('raising the test-file role factor puts the test first', async () => {
    assert.equal(await top(), 'src/pricing/discount.ts');
    repo.write({
      '.checker/rules/grounding.yml': [
        'schemaVersion: 1',
        'id: grounding',
        'version: 1.0.0',
        'kind: context-weight',
        'subject: edge-kind',
        'description: Tests count as much as sources when grounding a task.',
        'grounding:',
        '  roleFactor: { test: 5 }',
        'rules:',
        '  - id: context-weight/tests',
        '    description: Test edges.',
        '    rationale: Tests show intent.',
        '    conditions: { all: [{ fact: edgeKind, operator: equal, value: tests }] }',
        '    event: { type: context-weight/tests, params: { weight: 6, edgeKind: tests } }',
        '',
      ].join('\n'),
    });
    assert.equal(await top(), 'test/pricing/discount.test.ts');
  });

  test('a refused repository pack is a limitation of the preflight report, not silently ignored', async () => {
    repo.write({
      '.checker/rules/grounding.yml': [
        'schemaVersion: 1',
        'id: grounding',
        'version: 1.0.0',
        'kind: context-weight',
        'subject: edge-kind',
        'description: A typo in a weight name.',
        'grounding:',
        '  roleFactor: { tests: 5 }',
        'rules:',
        '  - id: context-weight/tests',
        '    description: Test edges.',
        '    rationale: Tests show intent.',
        '    conditions: { all: [{ fact: edgeKind, operator: equal, value: tests }] }',
        '    event: { type: context-weight/tests, params: { weight: 6, edgeKind: tests } }',
        '',
      ].join('\n'),
    });
    const env = createTestEnv(repo.dir);
    try {
      const report = await getPreflightReport(env, { task });
      const refused = report.limitations.filter((entry) => entry.code === 'pack/invalid');
      assert.deepEqual(
        refused.map((entry) => [entry.location?.file, /grounding\.roleFactor\.tests/.test(entry.message)]),
        [['.checker/rules/grounding.yml', true]],
      );
      assert.equal(report.candidateFiles[0], 'src/pricing/discount.ts', 'the built-in weights apply');
    } finally {
      await env.close();
    }
  });
});
