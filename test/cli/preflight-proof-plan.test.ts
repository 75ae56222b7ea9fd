import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PreflightReport } from '../../src/model/preflight.js';
import { runCliAsync, type CliResult } from '../helpers/cli.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';

function parse(result: CliResult): PreflightReport {
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as PreflightReport;
}

const INVOICE_SOURCE = 'export function parseInvoiceTotal(text: string): number {\n  return Number(text.replace(/\\s/g, ""));\n}\n';
const INVOICE_TEST =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('invoice rounding', () => {\n  assert.equal(1, 1);\n});\n";
const INVOICE_REQUIREMENTS = 'acceptanceCriteria:\n  - id: AC-1\n    text: invoice totals parse with spaces\n    requiredProof: [unit]\n';

describe('preflight proof plan: tests are asked for testable source files only', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo({
      'package.json': JSON.stringify({ name: 'ledger', type: 'module' }),
      'src/invoice.ts': INVOICE_SOURCE,
      'docs/invoice-requirements.yml': INVOICE_REQUIREMENTS,
    });
  });
  after(() => repo.cleanup());

  it('asks for a test of the source file and none of the YAML requirements file, which both are candidates', async () => {
    const report = parse(await runCliAsync(['ai', 'preflight', '--cwd', repo.dir, '--task', 'parse invoice totals', '--format', 'json']));
    assert.deepEqual(
      report.repositoryEvidence.candidateFiles.map((candidate) => candidate.path),
      ['src/invoice.ts', 'docs/invoice-requirements.yml'],
    );
    assert.deepEqual(
      report.suggestions.proofPlan.map((step) => [step.kind, step.text]),
      [['missing-test', 'Add a test that exercises src/invoice.ts; no test file tests it today']],
    );
    const yaml = report.repositoryEvidence.candidateFiles[1];
    assert.ok(yaml !== undefined && !yaml.why.includes('no test file tests it'), yaml?.why);
  });

  it('never asks for a test of a test file: a task only a test matches has it run and extended', async () => {
    const onlyTests = createRepo({
      'package.json': JSON.stringify({ name: 'billing', type: 'module' }),
      'src/billing.ts':
        'export function sumLines(amounts: number[]): number {\n  return amounts.reduce((sum, amount) => sum + amount, 0);\n}\n',
      'test/invoice.test.ts': INVOICE_TEST,
    });
    try {
      const result = await runCliAsync(['ai', 'preflight', '--cwd', onlyTests.dir, '--task', 'invoice rounding', '--format', 'json']);
      const report = parse(result);
      assert.deepEqual(
        report.repositoryEvidence.candidateFiles.map((candidate) => candidate.path),
        ['test/invoice.test.ts'],
      );
      assert.deepEqual(
        report.suggestions.proofPlan.map((step) => [step.kind, step.text]),
        [['existing-tests', 'Run and extend test/invoice.test.ts so it covers the new behaviour']],
      );
      const markdown = await runCliAsync(['ai', 'preflight', '--cwd', onlyTests.dir, '--task', 'invoice rounding', '--format', 'markdown']);
      assert.equal(markdown.code, 0, markdown.stderr);
      assert.ok(!markdown.stdout.includes('Add a test that exercises'), markdown.stdout);
      assert.ok(!markdown.stdout.includes('no test file tests it'), markdown.stdout);
    } finally {
      onlyTests.cleanup();
    }
  });
});
