import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { productRunSchema } from '../../src/model/product-run.js';
import { assertAgreement, mutations } from './mutations.js';

const run = {
  schemaVersion: 1,
  target: 'web',
  generatedAt: '2026-01-02T03:04:05.000Z',
  checks: [
    {
      id: 'checkout:pay',
      kind: 'ui',
      status: 'failed',
      title: 'Pay with a saved card',
      expected: 'the order is confirmed',
      actual: 'a 500 page',
      impactedFiles: ['src/pay.ts'],
      artifacts: [{ kind: 'screenshot', path: 'shots/pay.png', label: 'after submit', description: 'the error page' }],
    },
    { id: 'api.health', kind: 'api', status: 'passed', title: 'Health' },
  ],
};

const dates: [string, boolean][] = [
  ['2026-01-01T00:00:00Z', true],
  ['2026-01-01T00:00:00.5+02:00', true],
  ['2026-01-01t00:00:00z', true],
  ['2026-01-01T00:00:00', false],
  ['2026-01-01', false],
  ['yesterday', false],
];

describe('product run contract', () => {
  it('the zod source and schemas/product-run.schema.json accept and refuse the same documents', () => {
    const dated = dates.map(([generatedAt]) => ({ name: `generatedAt ${generatedAt}`, data: { ...run, generatedAt } }));
    const { valid, invalid } = assertAgreement('product-run', productRunSchema, [...mutations('product run', run), ...dated]);
    assert.ok(valid > 20 && invalid > 70, `${valid} valid, ${invalid} invalid`);
    for (const [generatedAt, ok] of dates) assert.equal(productRunSchema.safeParse({ ...run, generatedAt }).success, ok, generatedAt);
  });
});
