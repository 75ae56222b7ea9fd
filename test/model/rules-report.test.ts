import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rulesListSchema, rulesValidateSchema } from '../../src/model/rules-report.js';
import { assertAgreement, mutations } from './mutations.js';

const list = {
  schemaVersion: 1,
  kind: 'rules-list',
  packs: [
    {
      id: 'change-risk',
      version: '1.0.0',
      kind: 'risk',
      subject: 'change',
      source: 'builtin',
      file: 'rules/change-risk/pack.yaml',
      description: 'Merge-risk contributors of the change as a whole.',
      rules: [{ id: 'risk/many-files', description: 'Twenty or more files changed.', weight: 8, evidence: 'twenty or more changed files' }],
    },
  ],
  diagnostics: [{ code: 'rules/invalid-pack', severity: 'warn', message: '.checker/rules/x.yml: unknown key' }],
};

const validation = {
  schemaVersion: 1,
  kind: 'rules-validate',
  results: [
    { file: '.checker/rules/payments.yml', valid: true, packId: 'payments', version: '1.0.0', rules: 2 },
    { file: '.checker/rules/broken.yml', valid: false, error: 'rules[0].weight must be a number' },
  ],
};

describe('rules report contracts', () => {
  it('the zod source and schemas/rules-list.schema.json accept and refuse the same documents', () => {
    const { valid, invalid } = assertAgreement('rules-list', rulesListSchema, mutations('rules list', list));
    assert.ok(valid > 20 && invalid > 40, `${valid} valid, ${invalid} invalid`);
    assert.equal(rulesListSchema.safeParse(list).success, true);
  });

  it('the zod source and schemas/rules-validate.schema.json accept and refuse the same documents', () => {
    const { valid, invalid } = assertAgreement('rules-validate', rulesValidateSchema, mutations('rules validate', validation));
    assert.ok(valid > 10 && invalid > 20, `${valid} valid, ${invalid} invalid`);
    assert.equal(rulesValidateSchema.safeParse(validation).success, true);
  });
});
