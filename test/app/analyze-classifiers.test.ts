import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import { analyzeFixture, createChangeFixture, type ChangeFixture } from '../helpers/analysis-fixtures.js';

const BASE = {
  'package.json': JSON.stringify({ name: 'ledgerless', type: 'module' }),
  'src/receivables/settle.ts': 'export function settle(cents: number): number {\n  return cents;\n}\n',
};

const classesPack = (classes: string): string => `schemaVersion: 1
id: team-classes
version: 1.0.0
kind: risk
subject: changed-file
description: Where our money code lives.
rules: []
classifiers:
${classes}`;

const ruleIdsOn = (analysis: ChangeAnalysis, subjectId: string): string[] =>
  analysis.findings
    .filter((finding) => finding.subjectId === subjectId)
    .map((finding) => finding.ruleId)
    .sort();

describe('a repository pack extends the built-in path classes (no TypeScript change)', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, {
      'src/receivables/settle.ts': 'export function settle(cents: number): number {\n  return Math.round(cents);\n}\n',
    });
  });
  after(() => fixture.repo.cleanup());

  test('a payment glob makes risk/payment-path appear on a path the built-in words miss', async () => {
    const without = await analyzeFixture(fixture);
    assert.ok(!ruleIdsOn(without, 'file:src/receivables/settle.ts').includes('risk/payment-path'));

    fixture.repo.write({ '.checker/rules/classes.yml': classesPack('  paths:\n    payment:\n      globs: ["src/receivables/**"]\n') });
    const withPack = await analyzeFixture(fixture);
    const found = withPack.findings.filter((finding) => finding.ruleId === 'risk/payment-path');
    assert.deepEqual(
      found.map((finding) => ({ packId: finding.packId, subjectId: finding.subjectId })),
      [{ packId: 'risk', subjectId: 'file:src/receivables/settle.ts' }],
    );
    assert.deepEqual(
      ruleIdsOn(withPack, 'file:src/receivables/settle.ts').filter((id) => id !== 'risk/payment-path'),
      ruleIdsOn(without, 'file:src/receivables/settle.ts'),
    );
  });

  test('an auth path word makes risk/auth-path appear only once the changed lines use auth data (a signal word the pack adds)', async () => {
    fixture.repo.write({ '.checker/rules/classes.yml': classesPack('  paths:\n    auth:\n      words: [receivables]\n') });
    const pathOnly = await analyzeFixture(fixture);
    assert.ok(!ruleIdsOn(pathOnly, 'file:src/receivables/settle.ts').includes('risk/auth-path'), 'a path word is no evidence');
    fixture.repo.write({
      '.checker/rules/classes.yml': classesPack(
        '  paths:\n    auth:\n      words: [receivables]\n  signals:\n    auth:\n      description: Our ledger ids.\n      words: [cents]\n',
      ),
    });
    const analysis = await analyzeFixture(fixture);
    assert.ok(ruleIdsOn(analysis, 'file:src/receivables/settle.ts').includes('risk/auth-path'));
    assert.ok(!ruleIdsOn(analysis, 'file:src/receivables/settle.ts').includes('risk/payment-path'));
  });

  test('a generated glob makes the file generated output: change kind generated, no payment or proof finding', async () => {
    fixture.repo.write({
      '.checker/rules/classes.yml': classesPack(
        '  paths:\n    payment:\n      words: [receivables]\n    generated:\n      globs: ["src/receivables/**"]\n',
      ),
    });
    const analysis = await analyzeFixture(fixture);
    assert.equal(analysis.changedFiles.find((file) => file.path === 'src/receivables/settle.ts')?.changeKind, 'generated');
    assert.deepEqual(
      ruleIdsOn(analysis, 'file:src/receivables/settle.ts').filter((id) => id === 'risk/payment-path' || id.startsWith('proof/')),
      [],
    );
  });

  test('an invalid class is a pack/invalid diagnostic naming the field, and the built-in classes still apply', async () => {
    fixture.repo.write({ '.checker/rules/classes.yml': classesPack('  paths:\n    payments:\n      globs: ["src/receivables/**"]\n') });
    const analysis = await analyzeFixture(fixture);
    const diagnostic = analysis.limitations.find((entry) => entry.code === 'pack/invalid');
    assert.ok(diagnostic?.message.includes('classifiers.paths.payments'), JSON.stringify(analysis.limitations));
    assert.ok(!ruleIdsOn(analysis, 'file:src/receivables/settle.ts').includes('risk/payment-path'));
  });
});
