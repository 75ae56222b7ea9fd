import type { RiskLevel, ScoreContributor } from '../model/analysis.js';
import { compareText } from '../text/compare-text.js';

/**
 * Scores saturate: `score = round(100 × (1 − e^(−sum / SCORE_SCALE)))`, where `sum` is the sum of the
 * contributor weights, clamped at 0. With SCORE_SCALE 25 a sum of 7 gives 24 (low), 8 gives 27 (medium),
 * 18 gives 51 (high) and 35 gives 75 (critical); no sum reaches 100.
 */
const SCORE_SCALE = 25;

export interface Score {
  score: number;
  level: RiskLevel;
  /** The contributors sorted by weight (highest first), then contributor name. */
  breakdown: ScoreContributor[];
}

export function toSaturatedScore(sum: number, scale: number = SCORE_SCALE): number {
  if (!Number.isFinite(sum) || sum <= 0) return 0;
  return Math.round(100 * (1 - Math.exp(-sum / scale)));
}

/** low < 25 ≤ medium < 50 ≤ high < 75 ≤ critical. */
export function toRiskLevel(score: number): RiskLevel {
  if (score < 25) return 'low';
  if (score < 50) return 'medium';
  if (score < 75) return 'high';
  return 'critical';
}

function sortContributors(contributors: readonly ScoreContributor[]): ScoreContributor[] {
  return [...contributors].sort(
    (a, b) => b.weight - a.weight || compareText(a.contributor, b.contributor) || compareText(a.provenance ?? '', b.provenance ?? ''),
  );
}

function scoreContributors(contributors: readonly ScoreContributor[]): Score {
  const sum = contributors.reduce((total, contributor) => total + contributor.weight, 0);
  const score = toSaturatedScore(sum);
  return { score, level: toRiskLevel(score), breakdown: sortContributors(contributors) };
}

/** Merge risk (0-100) from the risk contributors (risk-pack findings folded per rule). */
export function scoreMergeRisk(contributors: readonly ScoreContributor[]): Score {
  return scoreContributors(contributors);
}

/** Decay (0-100) from the decay contributors (decay-pack findings folded per rule). */
export function scoreDecay(contributors: readonly ScoreContributor[]): Score {
  return scoreContributors(contributors);
}
