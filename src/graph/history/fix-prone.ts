import type { FixProneFile, MinedHistory } from '../../model/history.js';
import { compareText } from '../../text/compare-text.js';
import { citeCommit, classifyFixCommit } from './commits.js';

/** A fix this many days older than HEAD counts half. */
const FIX_HALF_LIFE_DAYS = 180;
const MAX_CITED = 5;

/**
 * Per file of `paths`: the fix and revert commits of the window that changed it, weighted by age from HEAD (half-life
 * FIX_HALF_LIFE_DAYS). Files without a fix are left out; highest fix score first.
 */
export function findFixProneFiles(history: Pick<MinedHistory, 'commits' | 'fromTime'>, paths: readonly string[]): FixProneFile[] {
  const wanted = new Set(paths);
  const byPath = new Map<string, FixProneFile & { score: number }>();
  for (const commit of history.commits) {
    const kind = classifyFixCommit(commit.message);
    for (const path of commit.paths) {
      if (!wanted.has(path)) continue;
      const entry = byPath.get(path) ?? { path, fixes: 0, commits: 0, fixScore: 0, fixRatio: 0, fixCommits: [], score: 0 };
      byPath.set(path, entry);
      entry.commits += 1;
      if (kind === undefined) continue;
      entry.fixes += 1;
      const ageDays = Math.max(0, history.fromTime - commit.timestamp) / 86_400;
      entry.score += 0.5 ** (ageDays / FIX_HALF_LIFE_DAYS);
      if (entry.fixCommits.length < MAX_CITED) entry.fixCommits.push({ ...citeCommit(commit), kind });
    }
  }
  return [...byPath.values()]
    .filter((entry) => entry.fixes > 0)
    .map(({ score, ...entry }) => ({
      ...entry,
      fixScore: Math.round(score * 100) / 100,
      fixRatio: Math.round((100 * entry.fixes) / entry.commits),
    }))
    .sort((a, b) => b.fixScore - a.fixScore || b.fixes - a.fixes || compareText(a.path, b.path));
}
