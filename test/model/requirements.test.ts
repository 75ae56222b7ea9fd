import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getValidator } from '../../src/io/schema.js';
import { requirementsSchema } from '../../src/model/requirements.js';

const valid = {
  schemaVersion: 1,
  title: 'Loyalty discount',
  acceptanceCriteria: [{ id: 'AC-1', text: 'Members pay 10% less', requiredProof: ['unit test of applyDiscount'] }],
  currentBehavior: 'Everyone pays full price',
  expectedBehavior: ['Members pay 10% less', 'Guests pay full price'],
  affectedFlows: [{ name: 'checkout', kind: 'api', route: 'POST /checkout' }],
  nonGoals: [],
  invariants: 'Totals never go negative',
};

const cases: { name: string; data: unknown; ok: boolean }[] = [
  { name: 'every field', data: valid, ok: true },
  { name: 'empty object', data: {}, ok: true },
  { name: 'unknown field', data: { ...valid, owner: 'x' }, ok: false },
  { name: 'schema version 2', data: { ...valid, schemaVersion: 2 }, ok: false },
  { name: 'criterion id with a space', data: { acceptanceCriteria: [{ id: 'AC 1', text: 'x', requiredProof: [] }] }, ok: false },
  { name: 'criterion without proof list', data: { acceptanceCriteria: [{ id: 'AC-1', text: 'x' }] }, ok: false },
  { name: 'empty criterion text', data: { acceptanceCriteria: [{ id: 'AC-1', text: '', requiredProof: [] }] }, ok: false },
  { name: 'flow kind in capitals', data: { affectedFlows: [{ name: 'checkout', kind: 'API' }] }, ok: false },
  { name: 'flow with an extra key', data: { affectedFlows: [{ name: 'checkout', kind: 'api', owner: 'x' }] }, ok: false },
  { name: 'statement as a number', data: { invariants: 3 }, ok: false },
  { name: 'statement too long', data: { nonGoals: 'x'.repeat(4001) }, ok: false },
  { name: 'too many statements', data: { nonGoals: Array.from({ length: 201 }, () => 'x') }, ok: false },
];

describe('requirements contract', () => {
  it('the zod source and schemas/requirements.schema.json accept and refuse the same documents', () => {
    const validate = getValidator('requirements');
    for (const { name, data, ok } of cases) {
      assert.equal(requirementsSchema.safeParse(data).success, ok, `zod: ${name}`);
      assert.equal(validate(data), ok, `ajv: ${name}`);
    }
  });

  it('keeps the field messages an agent reads', () => {
    const messages = (data: unknown): string[] => requirementsSchema.safeParse(data).error?.issues.map((issue) => issue.message) ?? [];
    assert.deepEqual(messages({ schemaVersion: 2 }), ['must be 1 or left out']);
    assert.deepEqual(messages({ acceptanceCriteria: [{ id: 'AC 1', text: 'x', requiredProof: [] }] }), [
      'must be a plain id such as "AC-1" (letters, digits, . _ : -; at most 64 characters)',
    ]);
    assert.deepEqual(messages({ affectedFlows: [{ name: 'checkout', kind: 'API' }] }), ['must be a lower-case word such as "api" or "ui"']);
    assert.deepEqual(messages({ invariants: 3 }), ['must be a string or an array of strings (each at most 4000 characters)']);
  });
});
