import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rulesListSchema } from '../../src/model/rules-report.js';
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
      rules: [{ id: 'risk/many-files', description: 'Twenty or more files changed.', weight: 8 }],
    },
  ],
  diagnostics: [{ code: 'rules/invalid-pack', severity: 'warn', message: '.checker/rules/x.yml: unknown key' }],
};

describe('rules report contracts', () => {
  it('the zod source and schemas/rules-list.schema.json accept and refuse the same documents', () => {
    const { valid, invalid } = assertAgreement('rules-list', rulesListSchema, mutations('rules list', list));
    assert.ok(valid > 20 && invalid > 40, `${valid} valid, ${invalid} invalid`);
    assert.equal(rulesListSchema.safeParse(list).success, true);
  });
});
