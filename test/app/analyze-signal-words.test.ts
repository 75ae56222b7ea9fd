import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import { analyzeFixture, type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';

const BASE = {
  'package.json': JSON.stringify({ name: 'scoreboard', type: 'module' }),
  'src/scores/settle.ts': 'export function settle(tally: number): number {\n  return tally;\n}\n',
};
const HEAD = { 'src/scores/settle.ts': 'export function settle(tally: number): number {\n  return tally * 1.2;\n}\n' };

const wordsPack = `schemaVersion: 1
id: team-words
version: 1.0.0
kind: risk
subject: changed-file
description: Our scores are amounts of money.
rules: []
classifiers:
  signals:
    money:
      words: [tally]
`;

const moneyEdgeCases = (analysis: ChangeAnalysis) =>
  [...analysis.edgeCases.top, ...analysis.edgeCases.overflow]
    .map((edgeCase) => ({ ruleId: edgeCase.provenance.split('#')[1], scope: edgeCase.scope, evidenceIds: edgeCase.evidenceIds }))
    .filter((edgeCase) => edgeCase.ruleId?.startsWith('edge-case/money') === true)
    .sort((a, b) => (a.ruleId ?? '').localeCompare(b.ruleId ?? ''));

const EXPECTED = ['edge-case/money-negative-currency', 'edge-case/money-rounding'].map((ruleId) => ({
  ruleId,
  scope: 'src/scores/settle.ts',
  evidenceIds: ['file:src/scores/settle.ts', 'signal:src/scores/settle.ts:2:money'],
}));

for (const worktree of [false, true]) {
  // Committed, the head side is parsed by analyze; left in the working tree, its facts come from the graph's (cached) parse.
  describe(`a repository pack adds a money signal word, no TypeScript change (change ${worktree ? 'in the working tree' : 'committed'})`, () => {
    let fixture: ChangeFixture;
    before(() => {
      fixture = createChangeFixture(BASE, HEAD, { worktree });
    });
    after(() => fixture.repo.cleanup());

    test('arithmetic on a tally variable becomes a money signal with the money edge cases', async () => {
      const without = await analyzeFixture(fixture);
      assert.deepEqual(moneyEdgeCases(without), []);

      fixture.repo.write({ '.checker/rules/words.yml': wordsPack });
      const withPack = await analyzeFixture(fixture);
      assert.deepEqual(moneyEdgeCases(withPack), EXPECTED);
    });
  });
}
