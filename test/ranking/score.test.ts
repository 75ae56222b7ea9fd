import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScoreContributor } from '../../src/model/analysis.js';
import type { Finding } from '../../src/model/rules.js';
import { rankEdgeCases, scoreEdgeCase, type RankableEdgeCase } from '../../src/ranking/rank-edge-cases.js';
import { scoreDecay, scoreMergeRisk, toRiskLevel, toSaturatedScore } from '../../src/ranking/score.js';
import { toScoreContributors } from '../../src/rules/evaluate-analysis.js';

const contributor = (name: string, weight: number): ScoreContributor => ({
  contributor: name,
  weight,
  detail: name,
  evidenceIds: [`file:${name}`],
});

describe('scoreMergeRisk and scoreDecay', () => {
  it('saturates the weight sum into 0-100', () => {
    assert.deepEqual(
      [0, -5, 7, 8, 18, 35, 1000].map((sum) => toSaturatedScore(sum)),
      [0, 0, 24, 27, 51, 75, 100],
    );
  });

  it('maps scores to levels at 25, 50 and 75', () => {
    assert.deepEqual([0, 24, 25, 49, 50, 74, 75, 100].map(toRiskLevel), [
      'low',
      'low',
      'medium',
      'medium',
      'high',
      'high',
      'critical',
      'critical',
    ]);
  });

  it('returns score, level and the breakdown sorted by weight then name', () => {
    const result = scoreMergeRisk([
      contributor('risk/b', 5),
      contributor('risk/low-signal-change', 0),
      contributor('risk/a', 5),
      contributor('risk/c', 8),
    ]);
    assert.deepEqual({ score: result.score, level: result.level }, { score: 51, level: 'high' });
    assert.deepEqual(
      result.breakdown.map((entry) => entry.contributor),
      ['risk/c', 'risk/a', 'risk/b', 'risk/low-signal-change'],
    );
  });

  it('scores only low-signal contributors as 0 / low', () => {
    assert.deepEqual(scoreMergeRisk([contributor('risk/low-signal-change', 0)]).score, 0);
    assert.deepEqual(scoreMergeRisk([]), { score: 0, level: 'low', breakdown: [] });
  });

  it('lets negative weights lower the score', () => {
    assert.deepEqual(
      { ...scoreDecay([contributor('decay/a', 10), contributor('decay/b', -4)]), breakdown: [] },
      { score: 21, level: 'low', breakdown: [] },
    );
  });
});

function finding(ruleId: string, subjectId: string, weight: number): Finding {
  return {
    id: `finding:${ruleId}|${subjectId}`,
    packId: 'risk',
    packVersion: '1.0.0',
    ruleId,
    kind: 'risk',
    subject: 'changed-file',
    subjectId,
    priority: 1,
    weight,
    message: `${ruleId} on ${subjectId}`,
    params: { weight },
    provenance: `risk@1.0.0#${ruleId}`,
  };
}

describe('toScoreContributors', () => {
  it('folds findings per rule, sums weights capped at three times the largest', () => {
    const findings = [
      finding('risk/large-diff', 'file:b.ts', 5),
      finding('risk/large-diff', 'file:a.ts', 5),
      finding('risk/auth-path', 'file:a.ts', 8),
      ...['c', 'd', 'e', 'f'].map((name) => finding('risk/large-diff', `file:${name}.ts`, 5)),
      { ...finding('decay/high-churn', 'file:a.ts', 5), kind: 'decay' as const },
    ];
    assert.deepEqual(toScoreContributors(findings, 'risk'), [
      {
        contributor: 'risk/large-diff',
        weight: 15,
        detail: 'risk/large-diff on file:a.ts (and 5 more)',
        evidenceIds: ['file:a.ts', 'file:b.ts', 'file:c.ts', 'file:d.ts', 'file:e.ts', 'file:f.ts'],
        provenance: 'risk@1.0.0#risk/large-diff',
      },
      {
        contributor: 'risk/auth-path',
        weight: 8,
        detail: 'risk/auth-path on file:a.ts',
        evidenceIds: ['file:a.ts'],
        provenance: 'risk@1.0.0#risk/auth-path',
      },
    ]);
  });
});

function edgeCase(
  id: string,
  weight: number,
  confidence: RankableEdgeCase['confidence'],
  inChangedLines: boolean,
  trigger = `trigger ${id}`,
  scope = 'src/a.ts',
): RankableEdgeCase {
  return {
    id,
    title: id,
    trigger,
    expectedBehavior: 'e',
    userVisibleFailure: 'u',
    scope,
    provenance: `edge-cases@1.4.0#edge-case/${id}`,
    confidence,
    recommendedProof: 'p',
    score: 0,
    evidenceIds: [`signal:${id}`],
    weight,
    inChangedLines,
  };
}

describe('rankEdgeCases', () => {
  it('scores weight × confidence × 1.5 on changed lines', () => {
    assert.deepEqual(
      [edgeCase('a', 4, 'high', true), edgeCase('b', 4, 'medium', false), edgeCase('c', 3, 'low', true)].map(scoreEdgeCase),
      [6, 3, 2.25],
    );
  });

  it('dedupes by trigger and scope, keeps the best copy with all evidence, and splits top eight from overflow', () => {
    const candidates = [
      edgeCase('k', 4, 'high', false, 'same', 'src/a.ts'),
      edgeCase('j', 4, 'high', true, 'same', 'src/a.ts'),
      edgeCase('i', 4, 'high', true, 'same', 'src/b.ts'),
      ...['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id, index) => edgeCase(id, 1 + index * 0.5, 'medium', false)),
    ];
    const ranked = rankEdgeCases(candidates);
    assert.deepEqual(
      ranked.top.map((entry) => [entry.id, entry.score]),
      [
        ['i', 6],
        ['j', 6],
        ['h', 3.38],
        ['g', 3],
        ['f', 2.63],
        ['e', 2.25],
        ['d', 1.88],
        ['c', 1.5],
      ],
    );
    assert.deepEqual(
      ranked.overflow.map((entry) => [entry.id, entry.score]),
      [
        ['b', 1.13],
        ['a', 0.75],
      ],
    );
    assert.deepEqual(ranked.top[1]?.evidenceIds, ['signal:j', 'signal:k']);
    assert.equal(Object.hasOwn(ranked.top[0] ?? {}, 'weight'), false);
  });

  it('asks a rule once per scope: two lines of one file computing money make one case with both signals', () => {
    const atLine = (line: number, inChangedLines: boolean): RankableEdgeCase => ({
      ...edgeCase(`money-${line}`, 5, 'high', inChangedLines, `amounts reach line ${line}`, 'src/money.ts'),
      provenance: 'edge-cases@1.4.0#edge-case/money-rounding',
    });
    const ranked = rankEdgeCases([atLine(2, true), atLine(3, false), { ...atLine(9, true), scope: 'src/other.ts' }]);
    assert.deepEqual(
      ranked.top.map((entry) => [entry.id, entry.scope, entry.evidenceIds]),
      [
        ['money-2', 'src/money.ts', ['signal:money-2', 'signal:money-3']],
        ['money-9', 'src/other.ts', ['signal:money-9']],
      ],
    );
  });
});
