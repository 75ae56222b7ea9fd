import type { EdgeCase, EdgeCaseCandidate } from '../model/analysis.js';
import type { Confidence } from '../model/rules.js';
import { compareText } from '../text/compare-text.js';

const TOP_EDGE_CASES = 8;

const CONFIDENCE_FACTORS: Readonly<Record<Confidence, number>> = { high: 1, medium: 0.75, low: 0.5 };
const CHANGED_LINE_FACTOR = 1.5;

/** An edge case with what ranking weighs (toEdgeCases in src/rules/evaluate-analysis.ts produces these). */
export type RankableEdgeCase = EdgeCaseCandidate;

export interface RankedEdgeCases {
  top: EdgeCase[];
  overflow: EdgeCase[];
}

/** weight × confidence factor × 1.5 when on changed lines, rounded to two decimals. */
export function scoreEdgeCase(candidate: Pick<RankableEdgeCase, 'weight' | 'confidence' | 'inChangedLines'>): number {
  const raw = candidate.weight * CONFIDENCE_FACTORS[candidate.confidence] * (candidate.inChangedLines ? CHANGED_LINE_FACTOR : 1);
  return Math.round(raw * 100) / 100;
}

function toEdgeCase(candidate: RankableEdgeCase, score: number, evidenceIds: string[]): EdgeCase {
  return {
    id: candidate.id,
    title: candidate.title,
    trigger: candidate.trigger,
    expectedBehavior: candidate.expectedBehavior,
    userVisibleFailure: candidate.userVisibleFailure,
    scope: candidate.scope,
    provenance: candidate.provenance,
    confidence: candidate.confidence,
    recommendedProof: candidate.recommendedProof,
    score,
    evidenceIds,
  };
}

/**
 * Scores, dedupes by (trigger, scope) — the best-scored copy stays and collects the others' evidence —
 * and sorts by score (highest first), then id. The first eight are `top`, the rest `overflow`.
 */
export function rankEdgeCases(candidates: readonly RankableEdgeCase[], limit: number = TOP_EDGE_CASES): RankedEdgeCases {
  const scored = candidates
    .map((candidate) => ({ candidate, score: scoreEdgeCase(candidate) }))
    .sort((a, b) => b.score - a.score || compareText(a.candidate.id, b.candidate.id));
  const kept = new Map<string, { candidate: RankableEdgeCase; score: number; evidence: Set<string> }>();
  for (const entry of scored) {
    const key = `${entry.candidate.trigger}\u0000${entry.candidate.scope}`;
    const existing = kept.get(key);
    if (existing === undefined) kept.set(key, { ...entry, evidence: new Set(entry.candidate.evidenceIds) });
    else for (const id of entry.candidate.evidenceIds) existing.evidence.add(id);
  }
  const ranked = [...kept.values()].map((entry) => toEdgeCase(entry.candidate, entry.score, [...entry.evidence].sort(compareText)));
  return { top: ranked.slice(0, limit), overflow: ranked.slice(limit) };
}
