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

/** The changed files that churned enough to be a hotspot at some rank. */
function listCandidates(churn: ReadonlyMap<string, number>, changedPaths: readonly string[]): string[] {
  return changedPaths.filter((path) => (churn.get(path) ?? 0) >= HOTSPOT_MIN_CHURN);
}

/** How many files must outscore a file for it to be no hotspot among `files` ranked ones at most. */
function countToOutrank(files: number): number {
  return Math.max(1, Math.ceil(files * HOTSPOT_TOP_SHARE));
}

/**
 * The files whose complexity to read first to rank the changed ones (`rankHotspots`): the changed files that churned
 * enough to be hotspots, and the churned files most likely to outscore them, the most churned first, twice as many as
 * it takes to outrank a file. None when no changed file churned enough. `listMoreComplexityPaths` says, once these are
 * read, whether the rest are needed.
 */
export function listComplexityPaths(history: Pick<MinedHistory, 'commits'>, changedPaths: readonly string[]): string[] {
  const churn = countChurn(history);
  const candidates = listCandidates(churn, changedPaths);
  if (candidates.length === 0) return [];
  const byChurn = [...churn.entries()].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0])).map(([path]) => path);
  return [...new Set([...candidates, ...byChurn.slice(0, 2 * countToOutrank(churn.size))])];
}

/**
 * The churned files whose complexity is still needed once the first ones are read (`complexity` undefined for a file
 * not read yet): none when every changed candidate is shown to be no hotspot by what is known, since a score under
 * the minimum, or as many known files outscoring it as would outrank it were every churned file ranked, leaves it out
 * of the top share whatever the others' complexity; else every churned file not read yet, for its exact rank.
 */
export function listMoreComplexityPaths(
  history: Pick<MinedHistory, 'commits'>,
  changedPaths: readonly string[],
  complexity: (path: string) => number | undefined,
): string[] {
  const churn = countChurn(history);
  const known: { path: string; score: number }[] = [];
  const unknown: string[] = [];
  for (const [path, count] of churn) {
    const value = complexity(path);
    if (value === undefined) unknown.push(path);
    else known.push({ path, score: count * value });
  }
  if (unknown.length === 0) return [];
  const needed = countToOutrank(churn.size);
  const isShownOut = (path: string): boolean => {
    const value = complexity(path);
    if (value === undefined) return false;
    const score = (churn.get(path) ?? 0) * value;
    if (score < HOTSPOT_MIN_SCORE || value <= 0) return true;
    const above = known.filter((other) => other.score > score || (other.score === score && compareText(other.path, path) < 0));
    return above.length >= needed;
  };
  return listCandidates(churn, changedPaths).every(isShownOut) ? [] : unknown;
}

/** Whether a ranked file is a hotspot: top HOTSPOT_TOP_SHARE (at least the first), score and churn above their minimums. */
export function isHotspot(hotspot: Hotspot): boolean {
  return (
    hotspot.score >= HOTSPOT_MIN_SCORE &&
    hotspot.churn >= HOTSPOT_MIN_CHURN &&
    hotspot.rank <= Math.max(1, Math.ceil(hotspot.rankedFiles * HOTSPOT_TOP_SHARE))
  );
}
