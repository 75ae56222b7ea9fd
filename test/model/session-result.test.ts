import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sessionResultSchema } from '../../src/model/session-schemas.js';
import { assertAgreement, mutations } from './mutations.js';

/** The results of a real session's start, context, checkpoint and finish merged into one, so every optional part is present. */
const result = JSON.parse(readFileSync(new URL('./fixtures/session-result.json', import.meta.url), 'utf8'));
const { preflight: _preflight, context: _context, checkpoint: _checkpoint, finish: _finish, truncated: _truncated, ...bare } = result;

describe('session result contract', () => {
  it('the zod source and schemas/session-result.schema.json accept and refuse the same documents', () => {
    const documents = [...mutations('session result', result), { name: 'no optional part', data: bare }];
    const { valid, invalid } = assertAgreement('session-result', sessionResultSchema, documents);
    assert.ok(valid > 200 && invalid > 450, `${valid} valid, ${invalid} invalid`);
    assert.equal(sessionResultSchema.safeParse(result).success, true);
    assert.equal(sessionResultSchema.safeParse(bare).success, true);
  });

  it('refuses a session path outside the sessions folder and a context packet carrying MCP caps of its own', () => {
    assert.equal(sessionResultSchema.safeParse({ ...result, sessionPath: '.checker/local/s1.json' }).success, false);
    const capped = { ...result.context, truncated: { nodes: { shown: 1, total: 2 } } };
    assert.equal(sessionResultSchema.safeParse({ ...result, context: capped }).success, false);
  });
});
