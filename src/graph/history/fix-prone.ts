import type { FixKind, FixProneFile, MinedHistory } from '../../model/history.js';
import { compareText } from '../../text/compare-text.js';
import { citeCommit } from './co-change.js';

/** A fix this many days older than HEAD counts half. */
const FIX_HALF_LIFE_DAYS = 180;
const MAX_CITED = 5;

const REVERT_SUBJECT = /^revert\b|^Revert "/i;
const REVERTS_COMMIT = /\bThis reverts commit ([0-9a-f]{7,40})\b/i;
// Conventional commits (`fix:`, `fix(scope)!:`), `hotfix`, and subjects that start with the word.
const FIX_SUBJECT = /^(?:fix|bugfix|hotfix)(?:\([^)]*\))?!?:|^(?:bug\s*fix|fix(?:es|ed)?|hotfix)\b/i;
// Issue-closing keywords with an issue reference, anywhere in the message (GitHub, GitLab and Jira forms).
const CLOSES_ISSUE =
  /\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s+(?:[\w.-]+\/[\w.-]+)?#\d+|\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s+[A-Z][A-Z0-9]+-\d+\b/i;

// A "fix" of wording, docs or layout repairs no behaviour: `fix typo`, `fix(docs): …`, `Fixed README links`.
const COSMETIC_FIX =
  /\btypos?\b|\bspelling\b|\bwording\b|^\w+\((?:docs?|readme|ci|lint|style|deps-dev)\)|\b(?:docs?|readme|changelog|history\.md|whitespace|formatting|lint(?:ing)?)\b/i;

// A sweep below the mass-change bound: lint, format, typo or style passes touch many files for no logical reason.
const SWEEP_SUBJECT =
  /\btypos?\b|\bspelling\b|\blint(?:ing|er)?\b|\beslint\b|\bprettier\b|\bformat(?:ting)?\b|\bwhitespace\b|^style(?:\([^)]*\))?!?:/i;

/** Whether a commit is a cosmetic sweep (lint, format, typo, style) whose files are not logically coupled. */
export function isSweepCommit(message: string): boolean {
  return SWEEP_SUBJECT.test(message.split('\n')[0] ?? '');
}

/** `revert` for a revert (by subject or git's "This reverts commit"), `fix` for a fix by message convention, else undefined. */
export function classifyFixCommit(message: string): FixKind | undefined {
  const subject = message.split('\n')[0]?.trim() ?? '';
  if (REVERT_SUBJECT.test(subject) || REVERTS_COMMIT.test(message)) return 'revert';
  if ((FIX_SUBJECT.test(subject) || CLOSES_ISSUE.test(message)) && !COSMETIC_FIX.test(subject)) return 'fix';
  return undefined;
}

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
