import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toAuditTestsReport } from '../../src/app/reports.js';
import { renderAuditTestsMarkdown } from '../../src/report/audit-tests-markdown.js';
import { analyzeFixture, type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';

const PAYOUT = (fee: number): string => `export function payout(amount: number): number {\n  return amount - ${fee};\n}\n`;

const PROOF_WORDS = [
  'schemaVersion: 1',
  'id: proof-words',
  'version: 1.0.0',
  'kind: proof',
  'subject: changed-file',
  'description: Our team words untested changes its own way.',
  'messages:',
  '  unproven: "nothing in our suite touches {{path}}"',
  '  unproven-task: "Pair with QA on {{path}}: start from {{sibling}}{{onLines}}."',
  'rules: []',
  '',
].join('\n');

describe('a repository pack rewords a proof message with no TypeScript change', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      { 'package.json': JSON.stringify({ name: 'payouts', type: 'module' }), 'src/payout.ts': PAYOUT(1) },
      { 'src/payout.ts': PAYOUT(2) },
    );
  });
  after(() => fixture.repo.cleanup());

  test('the built-in words, then the repository pack words in the proof, its finding and the report', async () => {
    const builtin = await analyzeFixture(fixture);
    const [proof] = builtin.changedPathProof;
    assert.equal(proof?.state, 'unproven');
    assert.equal(proof?.reason, 'no test reaches src/payout.ts through imports');

    fixture.repo.write({ '.checker/rules/proof-words.yml': PROOF_WORDS });
    const reworded = await analyzeFixture(fixture);
    assert.deepEqual(
      reworded.changedPathProof.map(({ path, state, reason, repairTask }) => ({ path, state, reason, repairTask })),
      [
        {
          path: 'src/payout.ts',
          state: 'unproven',
          reason: 'nothing in our suite touches src/payout.ts',
          repairTask: 'Pair with QA on src/payout.ts: start from src/payout.test.ts on line 2.',
        },
      ],
    );
    const finding = reworded.findings.find((item) => item.ruleId === 'proof/unproven');
    assert.equal(finding?.message, 'src/payout.ts: no test reaches it (nothing in our suite touches src/payout.ts)');
    const markdown = renderAuditTestsMarkdown(toAuditTestsReport(reworded));
    assert.match(markdown, /Pair with QA on src\/payout\.ts: start from src\/payout\.test\.ts on line 2\./);
    assert.doesNotMatch(markdown, /Add a test in src\/payout\.test\.ts/);
  });
});
