import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getPreflightReport } from '../../src/app/preflight.js';
import { createTestEnv } from '../helpers/test-env.js';
import { getValidator } from '../../src/io/schema.js';
import { SHOP_FILES } from '../helpers/shop-fixture.js';
import { createRepo, makeTempDir, writeTree, type TestRepo } from '../helpers/git-repo.js';
import { rmSync } from 'node:fs';

const REQUIREMENTS = JSON.stringify({
  title: 'Silver tier loyalty discount',
  acceptanceCriteria: [
    {
      id: 'AC-1',
      text: 'Silver members get a ten percent loyalty discount',
      requiredProof: ['unit test of applyLoyaltyDiscount for silver'],
    },
  ],
  expectedBehavior: 'silver members pay ninety percent',
  affectedFlows: [{ name: 'place order', kind: 'api', route: 'POST /api/orders' }],
  nonGoals: ['changing gold member pricing'],
  unresolvedQuestions: ['does the discount stack with coupons?'],
});

async function runPreflight(dir: string, task: string, requirementsPath?: string) {
  const env = createTestEnv(dir);
  try {
    return await getPreflightReport(env, { task, ...(requirementsPath === undefined ? {} : { requirementsPath }) });
  } finally {
    await env.close();
  }
}

describe('preflight grounding on a fixture repository', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo({ ...SHOP_FILES, 'docs/requirements.json': REQUIREMENTS });
  });
  after(() => repo.cleanup());

  const cases: { task: string; first: string }[] = [
    { task: 'apply the loyalty discount for silver members', first: 'src/pricing/discount.ts' },
    { task: 'sales tax rounding is off by a cent', first: 'src/pricing/tax.ts' },
    { task: 'reserve stock when an order is placed', first: 'src/inventory/stock.ts' },
    { task: 'password verification should use a constant time comparison', first: 'src/auth/login.ts' },
    { task: 'round money to cents', first: 'src/shared/money.ts' },
    { task: 'POST /api/orders returns 500 for empty items', first: 'src/orders/routes.ts' },
  ];
  for (const { task, first } of cases) {
    it(`"${task}" puts ${first} first`, async () => {
      const report = await runPreflight(repo.dir, task);
      assert.equal(report.repositoryEvidence.candidateFiles[0]?.path, first);
      assert.ok(report.repositoryEvidence.candidateFiles[0]?.why.startsWith('matches '));
      assert.equal(getValidator('preflight-report')(report), true);
    });
  }

  it('names the route surface of a task that names a route', async () => {
    const report = await runPreflight(repo.dir, 'POST /api/orders returns 500 for empty items');
    assert.equal(report.repositoryEvidence.candidateRoutes[0]?.id, 'route:POST /api/orders');
    assert.match(report.repositoryEvidence.candidateRoutes[0]?.why ?? '', /handled in src\/orders\/routes\.ts$/);
  });

  for (const task of ['frobnicate the zorblax quux', 'fix the api']) {
    it(`"${task}" yields low confidence, no candidates and exactly one question`, async () => {
      const report = await runPreflight(repo.dir, task);
      assert.equal(report.confidence, 'low');
      assert.deepEqual(report.repositoryEvidence.candidateFiles, []);
      assert.deepEqual(report.repositoryEvidence.candidateRoutes, []);
      assert.equal(report.unresolvedQuestions.length, 1);
      assert.deepEqual(
        report.suggestions.nonGoals.filter((goal) => goal.source === 'checker').map((goal) => goal.text.split(':')[0]),
        [
          'Inventing scope',
          'Treating agent claims ("tests pass") as proof',
          ...(task === 'fix the api' ? [] : ['Guessing where frobnicate, zorblax, quux live']),
        ],
      );
    });
  }

  it('matches memory, decisions and design-contract boundaries of the grounded files', async () => {
    const report = await runPreflight(repo.dir, 'apply the loyalty discount for silver members');
    const evidence = report.repositoryEvidence;
    assert.deepEqual(
      evidence.memory.invariants.map((entry) => entry.id),
      ['memory:.checker/memory/pricing.yml#discount-cap'],
    );
    assert.deepEqual(
      evidence.decisions.map((entry) => entry.id),
      ['decision:docs/adr/0001-pricing-rules.md'],
    );
    assert.deepEqual(
      evidence.contracts.map((contract) => [contract.id, contract.fromFiles, contract.toFiles]),
      // order-service.ts calls applyLoyaltyDiscount in its body: a candidate too, on the guarded side of the contract.
      [['contract:pricing-stays-pure', ['src/pricing/discount.ts'], ['src/orders/order-service.ts']]],
    );
    assert.deepEqual(evidence.candidateFiles[0]?.tests, ['test/pricing/discount.test.ts']);
    assert.deepEqual(
      evidence.impactedFiles.map((file) => file.path),
      ['src/orders/routes.ts', 'test/pricing/discount.test.ts', 'src/server.ts'],
    );
  });

  it('lists configured checks as follow-up proof that will not run', async () => {
    const report = await runPreflight(repo.dir, 'apply the loyalty discount for silver members');
    assert.deepEqual(
      report.suggestions.followUpChecks.map((check) => [check.name, check.command, check.willRun, check.allowedByPolicy]),
      [['unit', 'npm test', false, false]],
    );
    assert.deepEqual(report.execution, { modelCalled: false, commandsRun: false, network: false, investigation: false });
    assert.deepEqual(
      report.suggestions.proofPlan.map((step) => step.kind),
      ['existing-tests', 'missing-test', 'invariant', 'contract', 'configured-check'],
    );
  });

  it('keeps requirement evidence apart from repository evidence and suggestions', async () => {
    const report = await runPreflight(repo.dir, 'apply the loyalty discount for silver members', 'docs/requirements.json');
    const requirements = report.requirementEvidence;
    assert.equal(requirements.provided, true);
    assert.equal(requirements.source?.path, 'docs/requirements.json');
    assert.match(requirements.source?.hash ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual(
      requirements.acceptanceCriteria.map((criterion) => criterion.id),
      ['AC-1'],
    );
    assert.deepEqual(
      requirements.affectedFlows.map((flow) => flow.matchedRoutes),
      [['route:POST /api/orders']],
    );
    assert.deepEqual(requirements.unresolvedQuestions, ['does the discount stack with coupons?']);
    assert.equal(report.unresolvedQuestions.includes('does the discount stack with coupons?'), false);
    assert.deepEqual(report.suggestions.proofPlan[0], {
      id: 'proof:acceptance:AC-1',
      kind: 'acceptance-criterion',
      text: 'Prove acceptance criterion AC-1: Silver members get a ten percent loyalty discount',
      evidenceIds: ['requirement:docs/requirements.json#AC-1'],
      requiredProof: ['unit test of applyLoyaltyDiscount for silver'],
    });
    assert.deepEqual(report.suggestions.nonGoals[0], { text: 'changing gold member pricing', source: 'requirements' });
    assert.equal(getValidator('preflight-report')(report), true);
  });

  it('refuses a requirements path outside the repository', async () => {
    await assert.rejects(runPreflight(repo.dir, 'apply the loyalty discount', '../outside.json'), { code: 'requirements/outside-repo' });
  });

  it('refuses an empty task', async () => {
    await assert.rejects(runPreflight(repo.dir, '   '), { code: 'usage/missing-task' });
  });
});

describe('preflight outside git', () => {
  let dir: string;
  before(() => {
    dir = makeTempDir('checker-nogit-');
    writeTree(dir, SHOP_FILES);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('works in a folder that is not a git repository', async () => {
    const report = await runPreflight(dir, 'apply the loyalty discount for silver members');
    assert.deepEqual(report.revision, { git: false, head: null });
    assert.equal(report.repositoryEvidence.candidateFiles[0]?.path, 'src/pricing/discount.ts');
    assert.equal(report.limitations[0]?.code, 'git/unavailable');
    assert.equal(getValidator('preflight-report')(report), true);
  });
});
