import type { CitedCommit, FixKind, MinedCommit } from '../../model/history.js';

/** A commit as evidence: a 10-character oid and its subject line (at most 120 characters). */
export function citeCommit(commit: MinedCommit): CitedCommit {
  return { oid: commit.oid.slice(0, 10), subject: (commit.message.split('\n')[0] ?? '').slice(0, 120) };
}

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
