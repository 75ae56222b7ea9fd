import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { preflightReportSchema } from '../../src/model/session-schemas.js';
import { assertAgreement, mutations } from './mutations.js';

/** A real `checker ai preflight --requirements` report (memory, an ADR, an owner), with candidates, areas, a contract and a check added. */
const report = JSON.parse(readFileSync(new URL('./fixtures/preflight-report.json', import.meta.url), 'utf8'));

describe('preflight report contract', () => {
  it('the zod source and schemas/preflight-report.schema.json accept and refuse the same documents', () => {
    const { valid, invalid } = assertAgreement('preflight-report', preflightReportSchema, mutations('preflight', report));
    assert.ok(valid > 250 && invalid > 550, `${valid} valid, ${invalid} invalid`);
    assert.equal(preflightReportSchema.safeParse(report).success, true);
  });

  it('refuses a report that claims to have run a command, and a candidate file id that is not a file node', () => {
    assert.equal(preflightReportSchema.safeParse({ ...report, execution: { ...report.execution, commandsRun: true } }).success, false);
    // Only --investigate with a local provider runs a command, and then the model was called.
    const local = { modelCalled: true, commandsRun: true, network: false, investigation: true };
    assert.equal(preflightReportSchema.safeParse({ ...report, execution: local }).success, true);
    const evidence = report.repositoryEvidence;
    const candidate = { ...evidence.candidateFiles[0], id: 'route:GET /a' };
    assert.equal(
      preflightReportSchema.safeParse({ ...report, repositoryEvidence: { ...evidence, candidateFiles: [candidate] } }).success,
      false,
    );
  });
});
