import type { GroundingConfidence, GroundingMatch, TaskTerm } from '../model/grounding.js';
import type { Credit } from './grounding-match.js';
import { getInverseFrequency } from './text-score.js';
import { countOf } from '../text/plural.js';

/** The key of a task term: its kind and its stem or token (`word\u0000discount`). */
export function toTermKey(term: TaskTerm): string {
  return `${term.kind}\u0000${term.term}`;
}

/** Evidence that makes a file a candidate: a domain term, matched on the file itself (not lent by a decision or owner). */
export function isGrounding(credit: Credit): boolean {
  return credit.isDomain && !credit.isSupporting;
}

export interface Judgement {
  confidence: GroundingConfidence;
  reason: string;
}

export interface RankedFile {
  path: string;
  credits: Map<string, Credit>;
  score: number;
  /** The score before the history weighs the file up (historyBoost): what the confidence margin is measured on. */
  lexicalScore: number;
  /** The share of the task's domain terms this file matches itself, each weighted by its specificity (Coverage). */
  coverage: number;
}

/** How much of the task each file matches: the weighted share of domain terms among its own (not lent) credits. */
export interface Coverage {
  /** Per domain term key, its weight times its inverse document frequency (the largest possible for a term nothing matched). */
  weights: Map<string, number>;
  total: number;
}

/**
 * Each domain term's weight in coverage: its term weight times its specificity here (inverse document frequency); a
 * word said nowhere weighs as much as the rarest. An exact token (identifier, path, route, phrase) that matches
 * nothing is left out: its words count.
 */
export function toCoverage(domain: TaskTerm[], frequencies: Map<string, number>, hitTerms: Set<string>, files: number): Coverage {
  const weights = new Map<string, number>();
  const unmatched = getInverseFrequency(0, files);
  for (const term of domain) {
    const key = toTermKey(term);
    const frequency = frequencies.get(key) ?? 0;
    const isMatched = hitTerms.has(key);
    if (!isMatched && term.kind !== 'word') continue;
    const specificity = frequency > 0 ? getInverseFrequency(frequency, files) : isMatched ? getInverseFrequency(1, files) : unmatched;
    weights.set(key, Math.max(weights.get(key) ?? 0, term.weight * specificity));
  }
  let total = 0;
  for (const weight of weights.values()) total += weight;
  return { weights, total };
}

/** Matches that name a file's own subject: its path, its exports, the names it declares. */
const NAMING_MATCHES: ReadonlySet<GroundingMatch> = new Set(['path', 'export', 'declaration']);

/**
 * The coverage of the terms matched, as their own evidence, by one file or by several together; `isNaming`, by
 * matches that name them only (path, exports, declared names).
 */
export function coverageOf(files: Map<string, Credit>[], coverage: Coverage, isNaming = false): number {
  if (coverage.total <= 0) return 0;
  const matched = new Set<string>();
  for (const credits of files) {
    for (const credit of credits.values()) {
      if (isGrounding(credit) && (!isNaming || NAMING_MATCHES.has(credit.matchedOn))) matched.add(credit.key);
    }
  }
  let sum = 0;
  for (const key of matched) sum += coverage.weights.get(key) ?? 0;
  return sum / coverage.total;
}

/** The candidate whose score the top's is measured against: the fifth, as preflight's first five are what agents read. */
const MARGIN_RANK = 5;

/**
 * Confidence when the task is grounded, from the score margin: the best candidate score over the fifth best, both
 * before the history's weight (unbounded when fewer than five files match at all), and `together`, the share of the task's domain terms (each weighted by
 * how specific it is here) the top three match. Calibrated on the development split of bench/localize (bench/RESULTS.md):
 * high: the top leads the fifth by 2x, the top three cover half the task and at least two files match (dev: recall@5
 * 0.90 over 132 tasks);
 * low: the first five are within 1.25x of each other, a near tie (dev: 0.41 over 27 answered tasks, 0.20 with the
 * refused ones);
 * medium: anything else (dev: 0.65).
 * A task none of whose own domain terms matches (only its requirements' do) is low whatever the margin.
 */
export function judgeConfidence(candidates: RankedFile[], coverage: Coverage, isTaskMatched = true): Judgement {
  const [top] = candidates;
  if (top === undefined) return { confidence: 'low', reason: 'no file of the repository matches a domain term of the task' };
  if (!isTaskMatched) {
    return { confidence: 'low', reason: "only the requirements' terms match files here; no domain term of the task itself does" };
  }
  // Measured on the scores without the history's weight, as calibrated: the best and the fifth best of them.
  const lexical = candidates.map((candidate) => candidate.lexicalScore).sort((left, right) => right - left);
  const best = lexical[0] ?? 0;
  const fifth = lexical[MARGIN_RANK - 1];
  const margin = fifth === undefined || fifth <= 0 ? Number.POSITIVE_INFINITY : best / fifth;
  const together = coverageOf(
    candidates.slice(0, 3).map((candidate) => candidate.credits),
    coverage,
  );
  const percent = (share: number): string => `${Math.round(share * 100)}%`;
  const lead = Number.isFinite(margin)
    ? `scores ${margin.toFixed(2)}x the fifth best (on what the task's words and the imports say, before the history's weight)`
    : `is one of ${countOf(candidates.length, 'file')} that ${candidates.length === 1 ? 'matches' : 'match'} at all`;
  const detail = `the top candidate ${lead}; it matches ${percent(top.coverage)} of the task's domain terms (each weighted by how specific it is here) and the top three ${percent(together)}`;
  if (margin >= 2 && together >= 0.5 && candidates.length >= 2) return { confidence: 'high', reason: detail };
  if (margin < 1.25) return { confidence: 'low', reason: detail };
  return { confidence: 'medium', reason: detail };
}
