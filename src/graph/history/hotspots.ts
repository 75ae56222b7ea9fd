import { type FileFacts, isCodeFile } from '../../model/facts.js';
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
 * The churned files ranked by churn × complexity (ties by path), each ranked among `field`: the files the window
 * churned that are code at HEAD (`rankedFiles` counts them all, a file without functions too). `complexity` gives a
 * file's summed function complexity, undefined when it was not read in full; such a file is left out of the list and
 * must rank below every file whose rank is asked (planComplexityReads sees to it for the changed files).
 */
export function rankHotspots(
  history: Pick<MinedHistory, 'commits'>,
  isRanked: (path: string) => boolean,
  complexity: (path: string) => number | undefined,
): Hotspot[] {
  const churn = countChurn(history);
  const scored: Omit<Hotspot, 'rank' | 'rankedFiles'>[] = [];
  let rankedFiles = 0;
  for (const [path, count] of churn) {
    if (!isRanked(path)) continue;
    rankedFiles += 1;
    const value = complexity(path);
    if (value === undefined || value <= 0) continue;
    scored.push({ path, churn: count, complexity: value, score: count * value });
  }
  scored.sort((a, b) => b.score - a.score || compareText(a.path, b.path));
  return scored.map((entry, index) => ({ ...entry, rank: index + 1, rankedFiles }));
}

/** …and changed in at least this many commits: a complex file committed once or twice is not churning. */
const HOTSPOT_MIN_CHURN = 3;

/** The changed files that can be hotspots at any rank: ranked, and churned often enough. */
export function listHotspotCandidates(
  history: Pick<MinedHistory, 'commits'>,
  changedPaths: readonly string[],
  isRanked: (path: string) => boolean,
): string[] {
  const churn = countChurn(history);
  return changedPaths.filter((path) => isRanked(path) && (churn.get(path) ?? 0) >= HOTSPOT_MIN_CHURN);
}

/** What the ranking knows of each file: whether it is ranked, its complexity when read in full, a bound of it otherwise. */
export interface HotspotField {
  isRanked: (path: string) => boolean;
  /** Undefined for a file not read in full. */
  complexity: (path: string) => number | undefined;
  /** An upper bound of `complexity` for a file not read in full (FileFacts.complexityBound); Infinity when none is known. */
  bound: (path: string) => number;
}

/**
 * The field of a repository as read so far: the code files at HEAD (`scanned`, not `deleted`) are ranked; a file read
 * for its links alone (`linkOnly`) has no complexity yet, only the bound counted when it was read.
 */
export function toHotspotField(
  scanned: ReadonlySet<string>,
  deleted: ReadonlySet<string>,
  facts: ReadonlyMap<string, { facts: FileFacts }>,
  linkOnly: ReadonlySet<string> | undefined,
): HotspotField {
  return {
    isRanked: (path) => isCodeFile(path) && scanned.has(path) && !deleted.has(path),
    complexity: (path) =>
      linkOnly?.has(path) === true ? undefined : facts.get(path)?.facts.functions.reduce((total, fn) => total + fn.complexity, 0),
    bound: (path) => facts.get(path)?.facts.complexityBound ?? Number.POSITIVE_INFINITY,
  };
}

/**
 * The files to read in full so that `rankHotspots` ranks the changed candidates exactly, once the candidates' own
 * complexity is known: every ranked file not read yet whose churn × bound could reach the lowest candidate score. A
 * file below it cannot outrank any candidate, so it is not read (medusa, a hub edit scoring 85: 663 of 3,655 churned
 * code files).
 */
export function planComplexityReads(history: Pick<MinedHistory, 'commits'>, candidates: readonly string[], field: HotspotField): string[] {
  const churn = countChurn(history);
  const scores = candidates.map((path) => (churn.get(path) ?? 0) * (field.complexity(path) ?? 0));
  // A candidate below the minimum score is no hotspot whatever its rank.
  const lowest = Math.max(HOTSPOT_MIN_SCORE, Math.min(...scores.filter((score) => score >= HOTSPOT_MIN_SCORE)));
  if (!Number.isFinite(lowest)) return [];
  const wanted: string[] = [];
  for (const [path, count] of churn) {
    if (!field.isRanked(path) || field.complexity(path) !== undefined) continue;
    if (count * field.bound(path) >= lowest) wanted.push(path);
  }
  return wanted;
}

/**
 * An upper bound of a JavaScript or TypeScript file's summed function complexity (fact-walker.ts): each function read
 * starts at 1 and has a parameter list or an arrow (`(`, `=>`), and each decision it adds is spelled by a token of
 * its own (`if`, `for`, `while`, `case`, `catch`, `?` of `?:`, `?.` and `??`, `&&`, `||`). Counting those tokens
 * anywhere in the text (strings and comments too) can only count more.
 */
export function boundScriptComplexity(text: string): number {
  // A parse child counts every file it reads for links: `test` with lastIndex makes no match arrays (half matchAll's time).
  const token = /\b(?:if|for|while|case|catch)\b|[?(]|&&|\|\||=>/g;
  let count = 0;
  while (token.test(text)) count += 1;
  return count;
}

/** Whether a ranked file is a hotspot: top HOTSPOT_TOP_SHARE (at least the first), score and churn above their minimums. */
export function isHotspot(hotspot: Hotspot): boolean {
  return (
    hotspot.score >= HOTSPOT_MIN_SCORE &&
    hotspot.churn >= HOTSPOT_MIN_CHURN &&
    hotspot.rank <= Math.max(1, Math.ceil(hotspot.rankedFiles * HOTSPOT_TOP_SHARE))
  );
}
