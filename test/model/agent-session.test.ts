import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { agentSessionSchema } from '../../src/model/session-schemas.js';
import { assertAgreement, mutations } from './mutations.js';

/** A finished session written by `checker session start/context/checkpoint/finish`, with every optional field filled in. */
const session = JSON.parse(readFileSync(new URL('./fixtures/agent-session.json', import.meta.url), 'utf8'));
const active = { ...session, status: 'active', finish: null, contextEvidence: null, requirements: null };

describe('agent session contract', () => {
  it('the zod source and schemas/agent-session.schema.json accept and refuse the same documents', () => {
    const documents = [...mutations('session', session), { name: 'active session', data: active }];
    const { valid, invalid } = assertAgreement('agent-session', agentSessionSchema, documents);
    assert.ok(valid > 250 && invalid > 600, `${valid} valid, ${invalid} invalid`);
    assert.equal(agentSessionSchema.safeParse(session).success, true);
    assert.equal(agentSessionSchema.safeParse(active).success, true);
  });

  it('refuses a context packet path other than the one the session writes, and an agent checkpoint claiming trust', () => {
    const moved = { ...session.contextEvidence, packetPath: '.checker/local/other.json' };
    assert.equal(agentSessionSchema.safeParse({ ...session, contextEvidence: moved }).success, false);
    const trusted = { ...session.checkpoints[0], trust: 'deterministic' };
    assert.equal(agentSessionSchema.safeParse({ ...session, checkpoints: [trusted] }).success, false);
  });
});
