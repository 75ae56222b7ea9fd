import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { productFailureSchema } from '../../src/model/product-failure.js';
import { getValidator } from '../../src/io/schema.js';
import { assertAgreement, mutations } from './mutations.js';

const BUNDLE = {
  schemaVersion: 1,
  id: 'failure:ui:web:/about:no-page-errors',
  checkId: 'ui:web:/about:no-page-errors',
  checkKind: 'ui',
  priority: 'high',
  target: { id: 'web', environment: 'local', baseUrl: 'http://127.0.0.1:4010' },
  title: 'The /about page throws in the browser',
  summary: 'Loading /about raised an uncaught TypeError.',
  classification: 'confirmed-regression',
  classificationConfidence: 0.8,
  classificationEvidence: ['failed on the automatic rerun too'],
  failedStep: { index: 1, label: 'no uncaught page errors', status: 'failed', expected: 'none', actual: 'TypeError: x is undefined' },
  neighboringSteps: [{ index: 0, label: 'open /about', status: 'passed' }],
  artifacts: [{ kind: 'screenshot', path: '.checker/local/product-runs/r/about.png', label: '/about' }],
  expected: 'no uncaught page errors',
  actual: 'TypeError: x is undefined',
  impactedFiles: ['public/about.js'],
  suggestedFixTasks: ['Fix the TypeError thrown by public/about.js'],
  rerunCommand: 'checker product --target web --test-id ui:web:/about:no-page-errors',
};

describe('product failure bundle contract (spec 2.1-2.3)', () => {
  it('the zod source and schemas/product-failure.schema.json accept and refuse the same documents', () => {
    const { valid, invalid } = assertAgreement('product-failure', productFailureSchema, [
      { name: 'example', data: BUNDLE },
      ...mutations('failure', BUNDLE),
    ]);
    assert.ok(valid >= 1 && invalid > 20, `${valid} valid, ${invalid} invalid`);
  });

  it('refuses an extra field at every level, a second schema version, a confidence above 1 and an empty expected', () => {
    const check = getValidator('product-failure');
    assert.equal(check(BUNDLE), true);
    for (const broken of [
      { ...BUNDLE, extra: 1 },
      { ...BUNDLE, target: { ...BUNDLE.target, port: 4010 } },
      { ...BUNDLE, failedStep: { ...BUNDLE.failedStep, screenshot: 'x' } },
      { ...BUNDLE, neighboringSteps: [{ ...BUNDLE.neighboringSteps[0], extra: true }] },
      { ...BUNDLE, artifacts: [{ kind: 'screenshot', bytes: 10 }] },
      { ...BUNDLE, schemaVersion: 2 },
      { ...BUNDLE, classificationConfidence: 1.5 },
      { ...BUNDLE, expected: '' },
      { ...BUNDLE, classification: 'probably-fine' },
    ]) {
      assert.equal(check(broken), false, JSON.stringify(broken).slice(0, 120));
      assert.equal(productFailureSchema.safeParse(broken).success, false);
    }
  });
});
