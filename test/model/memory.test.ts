import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getValidator } from '../../src/io/schema.js';
import { memoryFileSchema } from '../../src/model/memory.js';

const entry = {
  id: 'INV-1',
  kind: 'invariant',
  title: 'Totals',
  text: 'Totals never go negative',
  paths: ['src/cart/**'],
  terms: ['total'],
};

const cases: { name: string; data: unknown; ok: boolean }[] = [
  { name: 'every field', data: { schemaVersion: 1, entries: [entry] }, ok: true },
  { name: 'no entries', data: { entries: [] }, ok: true },
  { name: 'entries missing', data: {}, ok: false },
  { name: 'unknown top-level key', data: { entries: [], owner: 'x' }, ok: false },
  { name: 'schema version 2', data: { schemaVersion: 2, entries: [] }, ok: false },
  { name: 'entry without text', data: { entries: [{ id: 'a', kind: 'note' }] }, ok: false },
  { name: 'unknown kind', data: { entries: [{ ...entry, kind: 'rule' }] }, ok: false },
  { name: 'kind as a number', data: { entries: [{ ...entry, kind: 1 }] }, ok: false },
  { name: 'id with a slash', data: { entries: [{ ...entry, id: 'a/b' }] }, ok: false },
  { name: 'empty title', data: { entries: [{ ...entry, title: '' }] }, ok: false },
  { name: 'text too long', data: { entries: [{ ...entry, text: 'x'.repeat(8193) }] }, ok: false },
  { name: 'entry with an extra key', data: { entries: [{ ...entry, severity: 'high' }] }, ok: false },
  { name: '51 terms', data: { entries: [{ ...entry, terms: Array.from({ length: 51 }, () => 't') }] }, ok: false },
  { name: 'empty path glob', data: { entries: [{ ...entry, paths: [''] }] }, ok: false },
];

describe('memory contract', () => {
  it('the zod source and schemas/memory.schema.json accept and refuse the same documents', () => {
    const validate = getValidator('memory');
    for (const { name, data, ok } of cases) {
      assert.equal(memoryFileSchema.safeParse(data).success, ok, `zod: ${name}`);
      assert.equal(validate(data), ok, `ajv: ${name}`);
    }
  });
});
