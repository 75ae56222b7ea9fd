import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AnalysisReport } from '../../src/model/reports.js';
import { createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';

/**
 * src/pricing/total.ts changes (owned by @org/pricing and @alice, named by ADR 0001, under the
 * cents-only invariant's glob); src/ui/cart-view.ts now imports src/db/orders.ts, which the
 * ui-not-db contract forbids. ADR 0002, the log-format invariant and src/log.ts are not touched.
 */
const BASE = {
  'package.json': JSON.stringify({ name: 'context', type: 'module' }),
  '.github/CODEOWNERS': '* @org/core\nsrc/pricing/ @org/pricing @alice\nsrc/ui/ @org/frontend\n',
  'docs/adr/0001-pricing.md':
    '# 1. Prices are integers in cents\n\nAll amounts in `src/pricing/total.ts` are integer cents; rounding happens once, at display.\n',
  'docs/adr/0002-logging.md': '# 2. Logging\n\nWe log through `src/log.ts`.\n',
  '.checker/memory/invariants.yml':
    'entries:\n  - id: cents-only\n    kind: invariant\n    title: Money is integer cents\n    text: Never store fractional cents.\n    paths: ["src/pricing/**"]\n  - id: log-format\n    kind: invariant\n    text: Log lines are JSON.\n    paths: ["src/log.ts"]\n',
  '.checker/contracts.yml':
    'contracts:\n  - id: ui-not-db\n    description: The UI never talks to the database directly.\n    from: ["src/ui/**"]\n    to: ["src/db/**"]\n',
  'src/log.ts': 'export function log(message: string): void {\n  console.info(message);\n}\n',
  'src/db/orders.ts': 'export function loadOrders(): number[] {\n  return [100, 250];\n}\n',
  'src/pricing/total.ts': 'export function total(items: number[]): number {\n  return items.reduce((sum, item) => sum + item, 0);\n}\n',
  'src/ui/cart-view.ts':
    "import { total } from '../pricing/total';\nexport function render(items: number[]): string {\n  return String(total(items));\n}\n",
};

describe('checker analyze --format json: owners, decisions, memory and contracts', () => {
  let fixture: ChangeFixture;
  let report: AnalysisReport;
  before(async () => {
    fixture = createChangeFixture(BASE, {
      'src/pricing/total.ts':
        'export function total(items: number[]): number {\n  return Math.round(items.reduce((sum, item) => sum + item, 0));\n}\n',
      'src/ui/cart-view.ts':
        "import { total } from '../pricing/total';\nimport { loadOrders } from '../db/orders';\nexport function render(items: number[]): string {\n  return String(total(items.length > 0 ? items : loadOrders()));\n}\n",
    });
    report = (await runJsonReport<AnalysisReport>(fixture, ['analyze'], 'analysis-report')).report;
  });
  after(() => fixture.repo.cleanup());

  test('owners of the changed and impacted files, last matching CODEOWNERS rule winning', () => {
    assert.deepEqual(report.context.owners, [
      { owner: '@alice', files: ['src/pricing/total.ts'] },
      { owner: '@org/frontend', files: ['src/ui/cart-view.ts'] },
      { owner: '@org/pricing', files: ['src/pricing/total.ts'] },
    ]);
    assert.deepEqual(
      report.changedFiles.map((file) => [file.path, file.owners]),
      [
        ['src/pricing/total.ts', ['@org/pricing', '@alice']],
        ['src/ui/cart-view.ts', ['@org/frontend']],
      ],
    );
  });

  test('the ADR that names the changed file, and only it', () => {
    assert.deepEqual(report.context.decisions, [
      {
        id: 'decision:docs/adr/0001-pricing.md',
        path: 'docs/adr/0001-pricing.md',
        title: '1. Prices are integers in cents',
        matchedBy: ['mentions src/pricing/total.ts'],
      },
    ]);
  });

  test('the invariant whose paths glob matches, and only it', () => {
    assert.deepEqual(report.context.memory, [
      {
        id: 'memory:.checker/memory/invariants.yml#cents-only',
        kind: 'invariant',
        title: 'Money is integer cents',
        text: 'Never store fractional cents.',
        matchedBy: ['mentions src/pricing/total.ts', 'path src/pricing/total.ts'],
      },
    ]);
    assert.ok(
      report.summary.mergeRiskBreakdown.some(
        (item) => item.contributor === 'risk/invariants-touched' && item.evidenceIds.includes('file:src/pricing/total.ts'),
      ),
    );
  });

  test('the contract boundary the change crosses', () => {
    assert.deepEqual(report.context.contracts, [
      {
        id: 'ui-not-db',
        description: 'The UI never talks to the database directly.',
        from: 'src/ui/cart-view.ts',
        to: 'src/db/orders.ts',
        specifier: '../db/orders',
        line: 2,
      },
    ]);
  });
});
