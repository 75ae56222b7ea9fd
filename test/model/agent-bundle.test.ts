import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { agentBundleSchema } from '../../src/model/bundle-schema.js';
import { assertAgreement, mutations } from './mutations.js';

const GOLDEN = new URL('../report/golden/', import.meta.url);
const goldens = readdirSync(GOLDEN)
  .filter((name) => name.startsWith('bundle-') && name.endsWith('.json'))
  .map((name) => ({ name, data: JSON.parse(readFileSync(new URL(name, GOLDEN), 'utf8')) as Record<string, unknown> }));

describe('agent bundle contract', () => {
  it('every bundle golden is valid, and zod and schemas/agent-bundle.schema.json agree on its broken variants', () => {
    assert.ok(goldens.length >= 8, `${goldens.length} bundle goldens`);
    for (const { name, data } of goldens) assert.equal(agentBundleSchema.safeParse(data).success, true, name);
    const rich = goldens.find((golden) => golden.name === 'bundle-frozen-all-sections.json');
    assert.ok(rich !== undefined);
    const { valid, invalid } = assertAgreement('agent-bundle', agentBundleSchema, [...goldens, ...mutations('bundle', rich.data)]);
    assert.ok(valid > 500 && invalid > 1000, `${valid} valid, ${invalid} invalid`);
  });

  it('refuses a bundle that says it ran a check or called a model', () => {
    const data = goldens[0]?.data ?? {};
    const execution = data.execution as Record<string, unknown>;
    assert.equal(agentBundleSchema.safeParse({ ...data, execution: { ...execution, modelCalled: true } }).success, false);
    assert.equal(agentBundleSchema.safeParse({ ...data, execution: { ...execution, checks: { ran: true, reason: 'x' } } }).success, false);
    // --with-checks ran them: the run is named and its record given.
    const ran = {
      ran: true,
      reason: 'x',
      runId: '20261124T093812Z-f02102',
      recordPath: '.checker/local/executions/20261124T093812Z-f02102/result.json',
    };
    assert.equal(agentBundleSchema.safeParse({ ...data, execution: { ...execution, checks: ran } }).success, true);
    // --investigate called a byok provider: the model was called and the network used, and the record says which.
    const investigated = { ran: true, reason: 'x', provider: 'byok', status: 'answered', durationMs: 12 };
    const byok = { ...execution, investigation: investigated, modelCalled: true, network: true };
    assert.equal(agentBundleSchema.safeParse({ ...data, execution: byok }).success, true);
    assert.equal(agentBundleSchema.safeParse({ ...data, execution: { ...byok, network: false } }).success, false);
  });
});
