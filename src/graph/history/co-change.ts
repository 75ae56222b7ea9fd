import type { CoChangePartner, MinedCommit, MinedHistory } from '../../model/history.js';
import { compareText } from '../../text/compare-text.js';
import { citeCommit, isSweepCommit } from './commits.js';

/** Co-changes below this many commits are coincidence, whatever the ratio (two commits at 100% prove little). */
const CO_CHANGE_MIN_SUPPORT = 4;
/** A partner is reported when it changed in at least this share of the commits that changed the file. */
const CO_CHANGE_MIN_CONFIDENCE = 0.7;
/** And when it changes with the file more often than with the window at large (it is not just in every commit). */
const CO_CHANGE_MIN_LIFT = 1.5;
/**
 * Only commits of at most this many files couple the files they change: a feature or refactor across a dozen files
 * says little about which two belong together. Over the 540 most recent fixes of the localization benchmark's
 * development repositories, a partner counted over every commit was one the fix changed in 46 of 76 suggestions; over
 * commits of at most 8 files, in 44 of 54 (bench/RESULTS.md, 2026-12-03, eighteenth session).
 */
const CO_CHANGE_MAX_COMMIT_FILES = 8;
const MAX_CITED = 5;

const round2 = (value: number): number => Math.round(value * 100) / 100;

export interface CoChangeOptions {
  minSupport?: number;
  minConfidence?: number;
  minLift?: number;
  maxCommitFiles?: number;
}

/**
 * Partners of each of `paths`: files that changed in at least `minSupport` of the window's commits that changed the
 * path, in at least `minConfidence` of them, with a lift of at least `minLift`. Strongest first (confidence, support,
 * path). Only pairs with one of `paths` are counted, so the cost is the window's size, not its pairs. Cosmetic sweeps
 * (lint, format, typo, style commits) and commits of more than `maxCommitFiles` files are left out: the files they touch
 * together are not coupled.
 */
export function findCoChangePartners(
  history: Pick<MinedHistory, 'commits'>,
  paths: readonly string[],
  options: CoChangeOptions = {},
): Map<string, CoChangePartner[]> {
  const minSupport = options.minSupport ?? CO_CHANGE_MIN_SUPPORT;
  const minConfidence = options.minConfidence ?? CO_CHANGE_MIN_CONFIDENCE;
  const minLift = options.minLift ?? CO_CHANGE_MIN_LIFT;
  const maxCommitFiles = options.maxCommitFiles ?? CO_CHANGE_MAX_COMMIT_FILES;
  const wanted = new Set(paths);
  const fileCommits = new Map<string, number>();
  const together = new Map<string, Map<string, MinedCommit[]>>();
  // The window is the commits that can couple files: lift compares a partner's rate with the file against its rate among them.
  const coupling = history.commits.filter((commit) => !isSweepCommit(commit.message) && commit.paths.length <= maxCommitFiles);
  for (const commit of coupling) {
    for (const path of commit.paths) fileCommits.set(path, (fileCommits.get(path) ?? 0) + 1);
    for (const path of commit.paths) {
      if (!wanted.has(path)) continue;
      const partners = together.get(path) ?? new Map<string, MinedCommit[]>();
      together.set(path, partners);
      for (const partner of commit.paths) {
        if (partner === path) continue;
        const shared = partners.get(partner) ?? [];
        shared.push(commit);
        partners.set(partner, shared);
      }
    }
  }
  const total = coupling.length;
  const result = new Map<string, CoChangePartner[]>();
  for (const path of wanted) {
    const pathCommits = fileCommits.get(path) ?? 0;
    const found: CoChangePartner[] = [];
    for (const [partner, shared] of together.get(path) ?? []) {
      const support = shared.length;
      if (support < minSupport) continue;
      const confidence = support / pathCommits;
      const lift = confidence / ((fileCommits.get(partner) ?? 1) / total);
      if (confidence < minConfidence || lift < minLift) continue;
      found.push({
        path,
        partner,
        support,
        pathCommits,
        confidence: round2(confidence),
        lift: round2(lift),
        commits: shared.slice(0, MAX_CITED).map(citeCommit),
      });
    }
    found.sort((a, b) => b.confidence - a.confidence || b.support - a.support || compareText(a.partner, b.partner));
    if (found.length > 0) result.set(path, found);
  }
  return result;
}

/**
 * Partners of the changed files that the change did not touch and that still exist, strongest first. A partner
 * counts once: under the changed file it co-changes with most confidently.
 */
export function findMissedPartners(
  history: Pick<MinedHistory, 'commits'>,
  changedPaths: readonly string[],
  exists: (path: string) => boolean,
  options: CoChangeOptions = {},
  /** The partners of `changedPaths` found already (findCoChangePartners with the same options). */
  found: ReadonlyMap<string, readonly CoChangePartner[]> = findCoChangePartners(history, changedPaths, options),
): CoChangePartner[] {
  const changed = new Set(changedPaths);
  const best = new Map<string, CoChangePartner>();
  for (const partners of found.values()) {
    for (const partner of partners) {
      if (changed.has(partner.partner) || !exists(partner.partner)) continue;
      const known = best.get(partner.partner);
      if (
        known === undefined ||
        partner.confidence > known.confidence ||
        (partner.confidence === known.confidence && partner.support > known.support)
      )
        best.set(partner.partner, partner);
    }
  }
  return [...best.values()].sort(
    (a, b) => b.confidence - a.confidence || b.support - a.support || compareText(a.path, b.path) || compareText(a.partner, b.partner),
  );
}
