import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { graphReportSchema } from '../../src/model/graph-report.js';
import { assertAgreement, mutations } from './mutations.js';

const report = {
  schemaVersion: 1,
  kind: 'graph-report',
  files: { scanned: 3, parsed: 2, cached: 0, reparsed: 2 },
  languages: [
    { language: 'TypeScript', files: 2, parsed: true },
    { language: 'Ruby', files: 1, parsed: false },
  ],
  nodes: { total: 5, byKind: { export: 1, file: 3, package: 1 } },
  edges: { total: 4, byKind: { belongs: 3, declares: 1 } },
  parseFailures: [{ path: 'src/broken.ts', code: 'parse/syntax', message: 'Unexpected token `=`', line: 1 }],
  skipped: [{ path: 'src/link.ts', reason: 'symlink-outside', detail: 'the link points outside the repository' }],
  unresolvedImports: [{ from: 'src/a.ts', specifier: './gone.js', line: 1, reason: 'no file for src/gone.js' }],
  routes: { api: 0, ui: 0, unmatchedMounts: 0 },
  diagnostics: [
    {
      code: 'parse/syntax',
      severity: 'warn',
      message: 'src/broken.ts could not be parsed',
      hint: 'Fix it',
      location: { file: 'src/broken.ts', line: 1, col: 2 },
      evidenceIds: ['file:src/broken.ts'],
    },
  ],
  timings: { scan: 3.5, parse: 12 },
};

describe('graph-report contract', () => {
  it('the zod source and schemas/graph-report.schema.json accept and refuse the same documents', () => {
    const { valid, invalid } = assertAgreement('graph-report', graphReportSchema, mutations('graph report', report));
    assert.ok(valid > 50 && invalid > 150, `${valid} valid, ${invalid} invalid`);
    assert.equal(graphReportSchema.safeParse(report).success, true);
  });
});
