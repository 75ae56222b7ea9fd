import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contractsFileSchema } from '../../src/model/contracts.js';
import { assertAgreement, mutations } from './mutations.js';

const file = {
  contracts: [
    { id: 'ui-not-db', description: 'UI never imports the database layer', from: ['src/ui/**', 'src/pages/**'], to: ['src/db/**'] },
    { id: 'core', from: ['src/core/**'], to: ['src/io/**'] },
  ],
};

const edges = [
  { name: 'no contracts', data: { contracts: [] }, ok: true },
  { name: 'a repeated glob', data: { contracts: [{ id: 'a', from: ['src/**', 'src/**'], to: ['lib/**'] }] }, ok: false },
  { name: 'an upper-case id', data: { contracts: [{ id: 'UI', from: ['src/**'], to: ['lib/**'] }] }, ok: false },
  { name: '501 contracts', data: { contracts: Array.from({ length: 501 }, () => ({ id: 'a', from: ['x'], to: ['y'] })) }, ok: false },
  { name: '101 globs', data: { contracts: [{ id: 'a', from: Array.from({ length: 101 }, (_, i) => `g${i}`), to: ['y'] }] }, ok: false },
];

describe('design contracts file', () => {
  it('the zod source and schemas/contracts.schema.json accept and refuse the same documents', () => {
    const { valid, invalid } = assertAgreement('contracts', contractsFileSchema, [...mutations('contracts', file), ...edges]);
    assert.ok(valid > 5 && invalid > 30, `${valid} valid, ${invalid} invalid`);
    for (const { name, data, ok } of edges) assert.equal(contractsFileSchema.safeParse(data).success, ok, name);
  });
});
