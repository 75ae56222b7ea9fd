import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { analyzeFixture, createChangeFixture, type ChangeFixture } from '../helpers/analysis-fixtures.js';

const TOTAL =
  '// Sums the items.\nexport function total(items: number[]): number {\n  return items.reduce((sum, item) => sum + item, 0);\n}\n';
const ORDERS =
  "import { Router } from 'express';\nimport { total } from '../payments/total';\nexport const orders = Router();\norders.post('/orders/:id', (req, res) => {\n  res.json({ id: req.params.id, total: total(req.body.items) });\n});\n";
const BASE = {
  'package.json': JSON.stringify({ name: 'low-signal', type: 'module', dependencies: { express: '^4.19.0' } }),
  'README.md': '# Shop\n\nSells things.\n',
  'docs/guide.md': '# Guide\n\nStep one.\n',
  'src/payments/total.ts': TOTAL,
  'src/app.ts': "import { total } from './payments/total';\nexport const sum = total([1]);\n",
  'src/routes/orders.ts': ORDERS,
};

const CHANGES: Record<string, Record<string, string>> = {
  'docs only': { 'README.md': '# Shop\n\nSells many things.\n', 'docs/guide.md': '# Guide\n\nStep one.\nStep two.\n' },
  'comments only': {
    'src/payments/total.ts':
      '// Sums the items, in cents.\n/* no rounding here */\nexport function total(items: number[]): number {\n  // a plain sum\n  return items.reduce((sum, item) => sum + item, 0);\n}\n',
  },
  'formatting only': { 'src/payments/total.ts': TOTAL.replace('  return', '    return') },
  'a comment in a route file and a doc': {
    'src/routes/orders.ts': `// The orders API.\n${ORDERS}`,
    'README.md': '# Shop\n\nSells orders.\n',
  },
};

describe('low-signal changes score low', () => {
  const fixtures: ChangeFixture[] = [];
  after(() => {
    for (const fixture of fixtures) fixture.repo.cleanup();
  });

  for (const [name, change] of Object.entries(CHANGES)) {
    describe(name, () => {
      let fixture: ChangeFixture;
      before(() => {
        fixture = createChangeFixture(BASE, change);
        fixtures.push(fixture);
      });

      test('merge risk low with score 0, every file low-signal, no missing tests or edge cases (routes included)', async () => {
        const analysis = await analyzeFixture(fixture);
        assert.deepEqual(analysis.summary.mergeRisk, { score: 0, level: 'low' });
        assert.deepEqual(
          analysis.changedFiles.map((file) => [file.path, file.lowSignal]),
          Object.keys(change)
            .sort()
            .map((path) => [path, true]),
        );
        assert.deepEqual(
          analysis.summary.mergeRiskBreakdown.map((item) => [item.contributor, item.weight]),
          [['risk/low-signal-change', 0]],
        );
        assert.deepEqual(analysis.missingTests, []);
        assert.deepEqual(analysis.edgeCases, { top: [], overflow: [] });
      });
    });
  }
});

describe('a low-signal file beside a behaviour change', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, {
      'src/routes/orders.ts': `// The orders API.\n${ORDERS}`,
      'src/payments/total.ts': TOTAL.replace('sum + item, 0', 'sum + item, 1'),
    });
  });
  after(() => fixture.repo.cleanup());

  test('the route the behaviour change reaches still asks for a test and its edge cases', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(
      analysis.changedFiles.map((file) => [file.path, file.lowSignal]),
      [
        ['src/payments/total.ts', false],
        ['src/routes/orders.ts', true],
      ],
    );
    assert.deepEqual(analysis.missingTests.map((item) => item.id).sort(), ['export:src/payments/total.ts#total', 'route:POST /orders/:id']);
    assert.deepEqual(
      [...analysis.edgeCases.top, ...analysis.edgeCases.overflow]
        .map((item) => item.provenance)
        .filter((provenance) => provenance.startsWith('route-edge-cases@'))
        .sort(),
      // total is code the inline handler calls, not the handler: how the route reads its parameters did not change
      // (route-edge-cases 3.2.0). The handler reads req.body, but not on a changed line: how it takes its body did not
      // change (3.3.0). No double submit and no unprotected write: it computes a total and stores nothing.
      [],
    );
  });
});

describe('a changed line that reads the request body', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, { 'src/routes/orders.ts': ORDERS.replace('req.body.items', 'req.body.lines ?? []') });
  });
  after(() => fixture.repo.cleanup());

  test('asks the request-body case', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(
      [...analysis.edgeCases.top, ...analysis.edgeCases.overflow]
        .map((item) => item.provenance)
        .filter((provenance) => provenance === 'route-edge-cases@3.6.0#edge-case/route-body'),
      ['route-edge-cases@3.6.0#edge-case/route-body'],
    );
  });
});
