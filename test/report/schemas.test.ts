import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getValidator } from '../../src/io/schema.js';
import { renderJson } from '../../src/report/json.js';
import { buildReport, REPORT_FIXTURES, REPORT_KINDS } from '../fixtures/reports/cases.js';
import { REPORT_SCHEMAS } from '../../src/model/report-schemas.js';
import { renderJsonSchema } from '../../src/model/json-schemas.js';

const SCHEMA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'schemas');
const small = REPORT_FIXTURES[0];

function reportJson(kind: (typeof REPORT_KINDS)[number]): Record<string, unknown> {
  if (small === undefined) throw new Error('no fixture');
  const parsed: unknown = JSON.parse(renderJson(buildReport(kind, small)));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
  return { ...parsed };
}

function isValid(kind: string, data: unknown): boolean {
  return getValidator(`${kind}-report`)(data);
}

describe('analysis report schemas', () => {
  it('the schema files equal their zod source in src/model/report-schemas.ts', () => {
    assert.deepEqual(Object.keys(REPORT_SCHEMAS).sort(), [...REPORT_KINDS].sort());
    for (const kind of REPORT_KINDS) {
      const name = `${kind}-report`;
      const file = join(SCHEMA_DIR, `${name}.schema.json`);
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, renderJsonSchema(name));
      assert.equal(readFileSync(file, 'utf8'), renderJsonSchema(name), `${name}.schema.json is out of date (npm run schemas)`);
    }
  });

  it('the zod source and the generated file accept and refuse the same reports', () => {
    for (const kind of REPORT_KINDS) {
      const report = reportJson(kind);
      const schema = REPORT_SCHEMAS[kind].schema;
      const variants: unknown[] = [report, { ...report, extra: 1 }, { ...report, schemaVersion: 2 }, { ...report, range: {} }];
      for (const variant of variants) assert.equal(schema.safeParse(variant).success, isValid(kind, variant), kind);
    }
  });

  it('refuses an unknown proof state, an extra key and a string number', () => {
    const report = reportJson('audit-tests');
    const proof = JSON.parse(JSON.stringify(report.changedPathProof)) as Record<string, unknown>[];
    const first = proof[0];
    assert.ok(first !== undefined);
    assert.equal(isValid('audit-tests', { ...report, changedPathProof: [{ ...first, state: 'proven' }] }), false);
    assert.equal(isValid('audit-tests', { ...report, extra: true }), false);
    assert.equal(isValid('audit-tests', { ...report, changedPathProof: [{ ...first, reachingTestCount: '2' }] }), false);
    assert.equal(isValid('audit-tests', { ...report, changedPathProof: [first] }), true);
  });

  it('requires every edge-case field and caps the top list at eight', () => {
    const report = reportJson('edge-cases');
    const edgeCases = JSON.parse(JSON.stringify(report.edgeCases)) as { top: Record<string, unknown>[]; overflow: unknown[] };
    const first = edgeCases.top[0];
    assert.ok(first !== undefined);
    for (const field of ['trigger', 'expectedBehavior', 'userVisibleFailure', 'scope', 'provenance', 'confidence', 'recommendedProof']) {
      const { [field]: _removed, ...rest } = first;
      assert.equal(isValid('edge-cases', { ...report, edgeCases: { top: [rest], overflow: [] } }), false, field);
    }
    assert.equal(isValid('edge-cases', { ...report, edgeCases: { top: [{ ...first, confidence: 'certain' }], overflow: [] } }), false);
    assert.equal(isValid('edge-cases', { ...report, edgeCases: { top: Array.from({ length: 8 }, () => first), overflow: [] } }), true);
    assert.equal(isValid('edge-cases', { ...report, edgeCases: { top: Array.from({ length: 9 }, () => first), overflow: [] } }), false);
  });

  it('holds the redteam execution flags and willRun at false', () => {
    const report = reportJson('redteam');
    const safety = { execution: { checksRan: true, investigationRan: false, modelCalled: false, network: false }, note: 'x' };
    assert.equal(isValid('redteam', { ...report, safety }), false);
    assert.equal(isValid('redteam', { ...report, configuredChecks: [{ name: 'unit', willRun: true }] }), false);
    assert.equal(isValid('redteam', { ...report, configuredChecks: [{ name: 'unit', willRun: false }] }), true);
  });

  it('accepts a tools report without repository shape facts', () => {
    assert.equal(isValid('tools', { ...reportJson('tools'), repositoryShape: null }), true);
    assert.equal(isValid('tools', { ...reportJson('tools'), repositoryShape: {} }), false);
  });
});
