import type { Hotspot, MinedHistory } from '../../model/history.js';
import { compareText } from '../../text/compare-text.js';

/** A file is a hotspot when its churn × complexity ranks in this top share of the ranked files… */
const HOTSPOT_TOP_SHARE = 0.1;
/** …and is at least this (a file changed twice with two branches is not a hotspot in a tiny repository). */
const HOTSPOT_MIN_SCORE = 20;

/** How many of the window's commits changed each file (its churn). */
export function countChurn(history: Pick<MinedHistory, 'commits'>): Map<string, number> {
  const churn = new Map<string, number>();
  for (const commit of history.commits) for (const path of commit.paths) churn.set(path, (churn.get(path) ?? 0) + 1);
  return churn;
}

/**
 * Every file with churn in the window and complexity at HEAD, ranked by churn × complexity (ties by path). `complexity`
 * gives a file's summed function complexity, undefined when the file was not parsed (deleted, not code).
 */
export function rankHotspots(history: Pick<MinedHistory, 'commits'>, complexity: (path: string) => number | undefined): Hotspot[] {
  const churn = countChurn(history);
  const scored: Omit<Hotspot, 'rank' | 'rankedFiles'>[] = [];
  for (const [path, count] of churn) {
    const value = complexity(path);
    if (value === undefined || value <= 0) continue;
    scored.push({ path, churn: count, complexity: value, score: count * value });
  }
  scored.sort((a, b) => b.score - a.score || compareText(a.path, b.path));
  return scored.map((entry, index) => ({ ...entry, rank: index + 1, rankedFiles: scored.length }));
}

/** …and changed in at least this many commits: a complex file committed once or twice is not churning. */
const HOTSPOT_MIN_CHURN = 3;

/**
 * The files whose complexity `rankHotspots` needs to rank the changed ones: every churned file, or none when no changed
 * file churned enough to be a hotspot at any rank.
 */
export function listComplexityPaths(history: Pick<MinedHistory, 'commits'>, changedPaths: readonly string[]): string[] {
  const churn = countChurn(history);
  if (!changedPaths.some((path) => (churn.get(path) ?? 0) >= HOTSPOT_MIN_CHURN)) return [];
  return [...churn.keys()];
}

/** Whether a ranked file is a hotspot: top HOTSPOT_TOP_SHARE (at least the first), score and churn above their minimums. */
export function isHotspot(hotspot: Hotspot): boolean {
  return (
    hotspot.score >= HOTSPOT_MIN_SCORE &&
    hotspot.churn >= HOTSPOT_MIN_CHURN &&
    hotspot.rank <= Math.max(1, Math.ceil(hotspot.rankedFiles * HOTSPOT_TOP_SHARE))
  );
}
