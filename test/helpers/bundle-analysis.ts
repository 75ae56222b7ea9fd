import type { ChangeAnalysis, EdgeCase } from '../../src/model/analysis.js';
import { createRepo, type TestRepo } from './git-repo.js';

/**
 * A frozen ChangeAnalysis of a small change: src/lib/money.ts changes `toCents`, which src/orders.ts
 * imports and the route GET /api/orders/:id reaches. The agent bundle is assembled from it in tests
 * without building a graph.
 */
export function createMoneyAnalysis(): ChangeAnalysis {
  const edge = (rank: number, title: string): EdgeCase => ({
    id: `edge:money-${rank}`,
    title,
    trigger: `toCents receives ${title.toLowerCase()}`,
    expectedBehavior: 'the amount is rounded half away from zero to whole cents',
    userVisibleFailure: 'order totals are off by one cent',
    scope: 'src/lib/money.ts#toCents',
    provenance: 'builtin.edge-cases@1.4.0#edge-case/money-rounding',
    confidence: rank === 1 ? 'high' : 'medium',
    recommendedProof: 'a unit test of toCents with that input',
    score: 100 - rank,
    evidenceIds: ['export:src/lib/money.ts#toCents'],
  });
  return {
    range: {
      base: { ref: 'HEAD~1', oid: '1111111111111111111111111111111111111111' },
      head: { ref: 'HEAD', oid: '2222222222222222222222222222222222222222' },
    },
    changedFiles: [
      {
        id: 'file:src/lib/money.ts',
        path: 'src/lib/money.ts',
        status: 'modified',
        role: 'source',
        additions: 3,
        deletions: 1,
        hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 3 }],
        binary: false,
        changedExports: [{ path: 'src/lib/money.ts', name: 'toCents', change: 'modified', span: { start: 1, end: 3 } }],
        owners: ['@shop/payments'],
        lowSignal: false,
        changeKind: 'runtime',
      },
      {
        id: 'file:README.md',
        path: 'README.md',
        status: 'modified',
        role: 'doc',
        additions: 1,
        deletions: 0,
        hunks: [{ oldStart: 2, oldLines: 0, newStart: 3, newLines: 1 }],
        binary: false,
        changedExports: [],
        owners: [],
        lowSignal: true,
        changeKind: 'docs',
      },
    ],
    impactedFiles: [
      { id: 'file:src/orders.ts', path: 'src/orders.ts', distance: 1, via: ['src/lib/money.ts'], typeOnly: false, role: 'source' },
    ],
    impactedRoutes: [
      {
        id: 'route:GET /api/orders/:id',
        method: 'GET',
        path: '/api/orders/:id',
        kind: 'api',
        framework: 'express',
        file: 'src/orders.ts',
        line: 5,
        reason: 'handler src/orders.ts imports src/lib/money.ts (changed)',
        chain: ['src/lib/money.ts', 'src/orders.ts'],
        direct: false,
        reach: 'handler',
        steps: ['handler GET /api/orders/:id (src/orders.ts:5)', 'changed toCents (src/lib/money.ts:1)'],
      },
    ],
    symbolImpacts: [
      {
        id: 'export:src/lib/money.ts#toCents',
        path: 'src/lib/money.ts',
        name: 'toCents',
        change: 'modified',
        importers: [{ path: 'src/orders.ts', locals: ['toCents'], through: [], typeOnly: false, use: 'named' }],
      },
    ],
    impactedAreas: {
      folders: [
        { path: 'src/lib', changed: 1, impacted: 0 },
        { path: 'src', changed: 0, impacted: 1 },
      ],
      packages: [{ name: 'shop', folder: '', changed: 2, impacted: 1 }],
      owners: [{ owner: '@shop/payments', changed: 1, impacted: 0 }],
    },
    changedPathProof: [
      {
        path: 'src/lib/money.ts',
        state: 'static-only',
        reachingTests: ['src/orders.test.ts'],
        reachingTestCount: 1,
        coveredChangedLines: [],
        uncoveredChangedLines: [],
        instrumentedChangedLines: 0,
        reason: 'src/orders.test.ts reaches the file by imports but no coverage report shows the changed lines ran',
        repairTask: 'Run npx vitest run --coverage and make a test execute lines 1-3 of src/lib/money.ts (toCents).',
      },
    ],
    testRun: {
      scope: 'full-suite',
      reason: 'no test file reaches the changed code: run the whole suite',
      commands: [{ cwd: '', runner: 'script', command: 'npm test', files: [] }],
      omitted: 0,
    },
    testEvidence: {
      found: false,
      sources: [],
      freshness: 'unknown',
      note: 'No coverage report found (coverage/lcov.info, coverage/coverage-final.json).',
    },
    weakTests: [
      {
        id: 'test:src/orders.test.ts#orders > has a router',
        file: 'src/orders.test.ts',
        title: 'orders > has a router',
        kinds: ['weak-test/trivial-assertion'],
        message: 'the only assertion is trivially true',
        repairTask: 'Assert the order total returned by GET /api/orders/:id instead of toBeDefined().',
        reachesChange: true,
        editedByChange: false,
        namesChange: ['orders'],
        findingIds: ['f-1'],
      },
    ],
    staleAssertions: [],
    missingTests: [
      {
        id: 'export:src/lib/money.ts#toCents',
        subject: 'export',
        path: 'src/lib/money.ts',
        name: 'toCents',
        message: 'no test imports toCents',
        repairTask: 'Add a unit test for toCents in src/lib/money.test.ts covering fractions of a cent.',
        findingIds: ['f-2'],
      },
    ],
    summary: {
      changedFiles: 2,
      impactedFiles: 1,
      impactedRoutes: 1,
      reachingTests: 1,
      mergeRisk: { score: 46, level: 'medium' },
      mergeRiskBreakdown: [
        {
          contributor: 'routes-touched',
          weight: 18,
          detail: '1 API route reached',
          evidenceIds: ['route:GET /api/orders/:id'],
          provenance: 'builtin.risk@1.0.0#risk/route-reached',
        },
        {
          contributor: 'payment-path',
          weight: 20,
          detail: 'money handling changed',
          evidenceIds: ['file:src/lib/money.ts'],
          provenance: 'builtin.risk@1.0.0#risk/payment-path',
        },
        { contributor: 'missing-proof', weight: 8, detail: 'changed lines are static-only', evidenceIds: ['file:src/lib/money.ts'] },
      ],
      decay: { score: 12, level: 'low' },
      decayBreakdown: [
        {
          contributor: 'churn',
          weight: 12,
          detail: '4 commits touched src/lib/money.ts in the last 90 days',
          evidenceIds: ['file:src/lib/money.ts'],
        },
      ],
      proofStates: { 'static-only': 1 },
    },
    edgeCases: { top: [edge(1, 'Half a cent'), edge(2, 'Negative amounts')], overflow: [edge(9, 'Very large amounts')] },
    context: {
      owners: [{ owner: '@shop/payments', files: ['src/lib/money.ts'] }],
      decisions: [
        {
          id: 'decision:docs/adr/0001-money.md',
          path: 'docs/adr/0001-money.md',
          title: 'Store money as integer cents',
          matchedBy: ['path:src/lib/money.ts'],
        },
      ],
      memory: [
        {
          id: 'memory:.checker/memory/invariants.yml#cents',
          kind: 'invariant',
          title: 'Integer cents',
          text: 'Amounts are integer cents everywhere after parsing.',
          matchedBy: ['glob:src/lib/**'],
        },
      ],
      contracts: [],
      patterns: [],
      tools: [],
    },
    findings: [],
    limitations: [],
    unresolvedImports: [],
  };
}

/**
 * The small shop repository of docs/agent-bundle.md: `toCents` in src/lib/money.ts, an Express router
 * that uses it, a test that only checks the router exists, a configured check, one skill and a
 * requirements file. The last commit changes the rounding in `toCents`.
 */
export function createShopRepo(): TestRepo {
  const repo = createRepo({
    'package.json': `${JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module', dependencies: { express: '^4.19.0' }, devDependencies: { vitest: '^2.0.0' } }, null, 2)}\n`,
    'src/lib/money.ts': 'export function toCents(amount: number): number {\n  return Math.round(amount * 100);\n}\n',
    'src/orders.ts':
      "import express from 'express';\nimport { toCents } from './lib/money.js';\n\nexport const router = express.Router();\n\nrouter.get('/orders/:id', (req, res) => {\n  res.json({ id: req.params.id, total: toCents(19.99) });\n});\n",
    'src/orders.test.ts':
      "import { describe, it, expect } from 'vitest';\nimport { router } from './orders.js';\n\ndescribe('orders', () => {\n  it('has a router', () => {\n    expect(router).toBeDefined();\n  });\n});\n",
    CODEOWNERS: 'src/lib/ @shop/payments\n',
    '.checker/config.yml': 'checks:\n  unit:\n    command: npx vitest run\n',
    '.agents/skills/release/SKILL.md':
      '---\nname: release\ndescription: How we cut a release (bump, tag, publish).\n---\n\n1. npm version patch\n',
    'docs/requirements/rounding.yml':
      'acceptanceCriteria:\n  - id: AC-1\n    text: Order totals are whole cents, rounded half away from zero\n    requiredProof:\n      - unit test of toCents with 1.005 and -1.005\naffectedFlows:\n  - name: Order lookup\n    kind: api\n    route: GET /orders/:id\nnonGoals: Changing the currency model\n',
  });
  repo.write({
    'src/lib/money.ts':
      'export function toCents(amount: number): number {\n  const cents = Number((Math.abs(amount) * 100).toFixed(2));\n  return Math.sign(amount) * Math.round(cents);\n}\n',
  });
  repo.commit('Round half away from zero');
  return repo;
}
