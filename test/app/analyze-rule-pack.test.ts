import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import { analyzeFixture, createChangeFixture, type ChangeFixture } from '../helpers/analysis-fixtures.js';
import { runCli } from '../helpers/cli.js';

const teamPack = (weight: string): string => `schemaVersion: 1
id: team
version: 1.2.0
kind: risk
subject: changed-file
description: Risks our team cares about.
rules:
  - id: risk/pricing-touched
    description: Pricing code changed.
    rationale: Pricing mistakes cost money and trust.
    conditions:
      all:
        - { fact: path, operator: matchesGlob, value: "src/pricing/**" }
    event:
      type: risk/pricing-touched
      params:
        weight: ${weight}
        message: "{{path}} changes pricing"
`;

const BASE = {
  'package.json': JSON.stringify({ name: 'team', type: 'module' }),
  'src/pricing/total.ts': 'export function total(price: number): number {\n  return price;\n}\n',
  'src/cart.ts': 'export function count(items: number[]): number {\n  return items.length;\n}\n',
};

describe('a repository rule pack in .checker/rules', () => {
  let fixture: ChangeFixture;
  let without: ChangeAnalysis;
  before(async () => {
    fixture = createChangeFixture(BASE, {
      'src/pricing/total.ts': 'export function total(price: number): number {\n  return price + 1;\n}\n',
    });
    without = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test('a valid pack adds its repo:team finding to the findings and the risk breakdown, and the score rises', async () => {
    fixture.repo.write({ '.checker/rules/team.yml': teamPack('30') });
    const analysis = await analyzeFixture(fixture);
    const own = analysis.findings.filter((finding) => finding.packId === 'repo:team');
    assert.deepEqual(
      own.map((finding) => ({
        packVersion: finding.packVersion,
        ruleId: finding.ruleId,
        subjectId: finding.subjectId,
        weight: finding.weight,
        message: finding.message,
        provenance: finding.provenance,
      })),
      [
        {
          packVersion: '1.2.0',
          ruleId: 'risk/pricing-touched',
          subjectId: 'file:src/pricing/total.ts',
          weight: 30,
          message: 'src/pricing/total.ts changes pricing',
          provenance: 'repo:team@1.2.0#risk/pricing-touched',
        },
      ],
    );
    const contributor = analysis.summary.mergeRiskBreakdown.find((item) => item.provenance === 'repo:team@1.2.0#risk/pricing-touched');
    assert.deepEqual(contributor, {
      contributor: 'risk/pricing-touched',
      weight: 30,
      detail: 'src/pricing/total.ts changes pricing',
      evidenceIds: ['file:src/pricing/total.ts'],
      provenance: 'repo:team@1.2.0#risk/pricing-touched',
    });
    assert.deepEqual(
      analysis.summary.mergeRiskBreakdown.filter((item) => item !== contributor),
      without.summary.mergeRiskBreakdown,
    );
    // Built-ins alone: payment-path 8 + missing-proof 6 = 14 → 43; with the pack, 44 → 83.
    assert.deepEqual(without.summary.mergeRisk, { score: 43, level: 'medium' });
    assert.deepEqual(analysis.summary.mergeRisk, { score: 83, level: 'critical' });
    assert.deepEqual(
      analysis.limitations.filter((item) => item.code.startsWith('pack/')),
      [],
    );
  });

  test('an invalid pack is refused by checker rules validate, naming the pack, rule and field', () => {
    fixture.repo.write({ '.checker/rules/team.yml': teamPack('"high"') });
    const result = runCli(['rules', 'validate', '.checker/rules/team.yml', '--cwd', fixture.repo.dir]);
    assert.equal(result.code, 2, result.stderr);
    const message =
      '.checker/rules/team.yml: pack "team" rule "risk/pricing-touched": event.params.weight must be a number (got string "high")';
    assert.equal(result.stderr, `checker: pack/invalid: ${message}\n`);
    assert.match(result.stdout, /INVALID/);
  });

  test('during analysis the invalid pack becomes a pack/invalid limitation and the run completes without it', async () => {
    fixture.repo.write({ '.checker/rules/team.yml': teamPack('"high"') });
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(
      analysis.limitations
        .filter((item) => item.code.startsWith('pack/'))
        .map((item) => ({ code: item.code, message: item.message, file: item.location?.file })),
      [
        {
          code: 'pack/invalid',
          message:
            '.checker/rules/team.yml: pack "team" rule "risk/pricing-touched": event.params.weight must be a number (got string "high")',
          file: '.checker/rules/team.yml',
        },
      ],
    );
    assert.deepEqual(
      analysis.findings.filter((finding) => finding.packId.startsWith('repo:')),
      [],
    );
    assert.deepEqual(analysis.summary.mergeRisk, without.summary.mergeRisk);
    assert.deepEqual(analysis.summary.mergeRiskBreakdown, without.summary.mergeRiskBreakdown);
  });
});
