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
 * Scores, dedupes — one case per (trigger, scope), and one per rule and scope, so that a rule whose scope is a file
 * (`computes money`) asks once per file however many of its lines carry the signal; the best-scored copy stays and
 * collects the others' evidence — and sorts by score (highest first), then id. The first eight are `top`, the rest
 * `overflow`.
 */
export function rankEdgeCases(candidates: readonly RankableEdgeCase[], limit: number = TOP_EDGE_CASES): RankedEdgeCases {
  const scored = candidates
    .map((candidate) => ({ candidate, score: scoreEdgeCase(candidate) }))
    .sort((a, b) => b.score - a.score || compareText(a.candidate.id, b.candidate.id));
  const kept: { candidate: RankableEdgeCase; score: number; evidence: Set<string> }[] = [];
  const byKey = new Map<string, (typeof kept)[number]>();
  for (const entry of scored) {
    const keys = [
      `trigger\u0000${entry.candidate.trigger}\u0000${entry.candidate.scope}`,
      `rule\u0000${entry.candidate.provenance}\u0000${entry.candidate.scope}`,
    ];
    const existing = keys.map((key) => byKey.get(key)).find((found) => found !== undefined);
    if (existing !== undefined) {
      for (const id of entry.candidate.evidenceIds) existing.evidence.add(id);
      continue;
    }
    const added = { ...entry, evidence: new Set(entry.candidate.evidenceIds) };
    kept.push(added);
    for (const key of keys) byKey.set(key, added);
  }
  const ranked = kept.map((entry) => toEdgeCase(entry.candidate, entry.score, [...entry.evidence].sort(compareText)));
  return { top: ranked.slice(0, limit), overflow: ranked.slice(limit) };
}
