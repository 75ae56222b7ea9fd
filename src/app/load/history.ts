import { createHash } from 'node:crypto';
import type { Config } from '../../model/config.js';
import type { Diagnostic } from '../../model/diagnostic.js';
import type { Env, GitAccess, HistoryEntry } from '../../model/env.js';
import { findCoChangePartners } from '../../graph/history/co-change.js';
import type { CandidateFile, Grounding } from '../../model/grounding.js';
import { DEFAULT_HISTORY_SETTINGS, type HistorySettings, type MinedHistory } from '../../model/history.js';

/** Bumped when the mined shape or what counts as kept changes: older cache files are then never read. */
const CACHE_VERSION = 1;

/** The mining bounds of `history.*` in config, defaults filled in; undefined when `history.enabled` is false. */
function readHistorySettings(config: Config): HistorySettings | undefined {
  const configured = config.history;
  if (configured?.enabled === false) return undefined;
  return {
    maxCommits: configured?.maxCommits ?? DEFAULT_HISTORY_SETTINGS.maxCommits,
    maxAgeDays: configured?.maxAgeDays ?? DEFAULT_HISTORY_SETTINGS.maxAgeDays,
    massChangeFiles: configured?.massChangeFiles ?? DEFAULT_HISTORY_SETTINGS.massChangeFiles,
  };
}

function getCachePath(fromOid: string, settings: HistorySettings): string {
  const key = createHash('sha256')
    .update(JSON.stringify([CACHE_VERSION, fromOid, settings.maxCommits, settings.maxAgeDays, settings.massChangeFiles]))
    .digest('hex')
    .slice(0, 32);
  return `cache/history/${key}.json`;
}

function isSameSettings(a: HistorySettings, b: HistorySettings): boolean {
  return a.maxCommits === b.maxCommits && a.maxAgeDays === b.maxAgeDays && a.massChangeFiles === b.massChangeFiles;
}

/** A cache file is local state another process may have left half-written or edited: anything odd is a miss. */
function parseCached(text: string | undefined, fromOid: string, settings: HistorySettings): MinedHistory | undefined {
  if (text === undefined) return undefined;
  try {
    const data = JSON.parse(text) as Partial<MinedHistory> | null;
    if (data === null || typeof data !== 'object' || data.fromOid !== fromOid || !Array.isArray(data.commits)) return undefined;
    if (data.settings === undefined || !isSameSettings(data.settings, settings)) return undefined;
    const valid = data.commits.every(
      (commit) =>
        typeof commit?.oid === 'string' &&
        typeof commit.timestamp === 'number' &&
        typeof commit.message === 'string' &&
        typeof commit.authorEmail === 'string' &&
        Array.isArray(commit.paths) &&
        commit.paths.every((path) => typeof path === 'string'),
    );
    return valid ? (data as MinedHistory) : undefined;
  } catch {
    return undefined;
  }
}

export interface LoadedHistory {
  history: MinedHistory;
  /** Read from `.checker/local/cache/history/` rather than mined now. */
  cached: boolean;
}

/** Commits of the window too large to read within bounds, named once: the facts were mined without them. */
function noteCommitsLeftOut(history: MinedHistory, limitations: Diagnostic[]): void {
  const count = history.oversized?.commitsLeftOut ?? 0;
  if (count === 0 || limitations.some((item) => item.code === 'history/oversized-commit')) return;
  limitations.push({
    code: 'history/oversized-commit',
    severity: 'info',
    message:
      `${count} commit${count === 1 ? '' : 's'} of the history window could not be read within checker's bound for one commit ` +
      `(headers that run past it, or a pack delta too large to follow) and ${count === 1 ? 'was' : 'were'} left out of co-change, fix-prone and hotspot facts, with the history behind ${count === 1 ? 'it' : 'them'}.`,
    hint: 'git does not write such commits in ordinary use; check where the history came from.',
  });
}

/**
 * The mined history window behind commit `fromOid` (a change's base), from the cache when the commit and the settings
 * are the same as when it was written, else mined through isomorphic-git and cached. Undefined (with a limitation
 * saying why) when disabled or when the history cannot be read.
 */
export async function loadMinedHistory(
  env: Env,
  git: GitAccess,
  fromOid: string,
  config: Config,
  limitations: Diagnostic[],
): Promise<LoadedHistory | undefined> {
  const settings = readHistorySettings(config);
  if (settings === undefined) return undefined;
  try {
    const path = getCachePath(fromOid, settings);
    const cached = parseCached(await env.readArtifact(path), fromOid, settings);
    if (cached !== undefined) {
      noteCommitsLeftOut(cached, limitations);
      return { history: cached, cached: true };
    }
    const history = await git.mineHistory(fromOid, settings);
    await env.writeArtifact(path, `${JSON.stringify(history)}\n`);
    noteCommitsLeftOut(history, limitations);
    return { history, cached: false };
  } catch (error) {
    limitations.push({
      code: 'git/history-unavailable',
      severity: 'info',
      message: `History for co-change, fix-prone and hotspot facts could not be read: ${error instanceof Error ? error.message : String(error)}`,
    });
    return undefined;
  }
}

const DECAY_CACHE_PATH = 'cache/decay-history-v1.json';
/** Questions kept in the decay cache file: the newest, by write order. */
const DECAY_CACHE_ENTRIES = 64;

function isHistoryEntry(value: unknown): value is HistoryEntry {
  if (value === null || typeof value !== 'object') return false;
  const entry = value as Partial<HistoryEntry>;
  return (
    typeof entry.oid === 'string' &&
    typeof entry.authorEmail === 'string' &&
    typeof entry.timestamp === 'number' &&
    Array.isArray(entry.paths) &&
    entry.paths.every((path) => typeof path === 'string')
  );
}

/** The cache file's entries, key → commits; anything odd is a miss, never an error (another process may be writing it). */
function parseDecayCache(text: string | undefined): Map<string, HistoryEntry[]> {
  const entries = new Map<string, HistoryEntry[]>();
  if (text === undefined) return entries;
  try {
    const data = JSON.parse(text) as { version?: unknown; entries?: unknown } | null;
    if (data === null || typeof data !== 'object' || data.version !== 1 || !Array.isArray(data.entries)) return entries;
    for (const item of data.entries as unknown[]) {
      if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'string' || !Array.isArray(item[1])) continue;
      if ((item[1] as unknown[]).every(isHistoryEntry)) entries.set(item[0], item[1] as HistoryEntry[]);
    }
  } catch {
    return new Map();
  }
  return entries;
}

/**
 * The bounded log of the commits that touched `paths` (decay analysis), from `.checker/local/cache/decay-history-v1.json`
 * when HEAD, the paths and the bound are those of an earlier run: commits never change, so the answer cannot either.
 * Walking 200 commits' trees cost about 0.6 s of every warm `checker ai` on this repository. Without a HEAD (no commits)
 * it reads the log directly, which then is empty anyway.
 */
export async function loadDecayHistory(env: Env, git: GitAccess, paths: string[], maxCommits: number): Promise<HistoryEntry[]> {
  const head = await git.headOid();
  if (head === undefined) return git.readHistory({ paths, maxCommits });
  const key = createHash('sha256')
    .update(JSON.stringify([head, maxCommits, [...new Set(paths)].sort()]))
    .digest('hex')
    .slice(0, 32);
  const cache = parseDecayCache(await env.readArtifact(DECAY_CACHE_PATH));
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const history = await git.readHistory({ paths, maxCommits });
  cache.delete(key);
  cache.set(key, history);
  const kept = [...cache].slice(-DECAY_CACHE_ENTRIES);
  try {
    await env.writeArtifact(DECAY_CACHE_PATH, `${JSON.stringify({ version: 1, entries: kept })}\n`);
  } catch {
    // A cache that cannot be written (a read-only checkout) costs the next run the walk again, not this run its answer.
  }
  return history;
}

/** Candidates whose partners are looked up, and partners added at most. */
const WIDEN_FROM = 5;
const WIDEN_MAX = 5;
/** A partner's score: the candidate's, times the co-change confidence, times this. */
const PARTNER_SCORE_FACTOR = 0.5;

/**
 * Widens a task's candidate files with the co-change partners of the top candidates (the mined history of HEAD,
 * loadMinedHistory): the test, schema or migration that usually changes with a file is a candidate too. Each added
 * file carries a `co-change` reason naming the candidate it changes with; scores stay sorted. The grounding is
 * returned unchanged without a history or without candidates.
 */
export function widenWithCoChange(history: MinedHistory | undefined, grounding: Grounding, exists: (path: string) => boolean): Grounding {
  if (history === undefined || grounding.candidateFiles.length === 0) return grounding;
  const top = grounding.candidateFiles.slice(0, WIDEN_FROM);
  const known = new Set(grounding.candidateFiles.map((candidate) => candidate.path));
  const partners = findCoChangePartners(
    history,
    top.map((candidate) => candidate.path),
  );
  const added = new Map<string, CandidateFile>();
  for (const candidate of top) {
    for (const partner of partners.get(candidate.path) ?? []) {
      if (known.has(partner.partner) || !exists(partner.partner)) continue;
      const score = Math.round(candidate.score * partner.confidence * PARTNER_SCORE_FACTOR * 1e6) / 1e6;
      const reason = { term: candidate.path, matchedOn: 'co-change' as const, evidenceId: candidate.id };
      const entry = added.get(partner.partner);
      if (entry === undefined)
        added.set(partner.partner, { path: partner.partner, id: `file:${partner.partner}`, score, reasons: [reason] });
      else {
        entry.score = Math.max(entry.score, score);
        entry.reasons.push(reason);
      }
    }
  }
  if (added.size === 0) return grounding;
  const widened = [...added.values()].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).slice(0, WIDEN_MAX);
  return {
    ...grounding,
    candidateFiles: [...grounding.candidateFiles, ...widened].sort(
      (a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
    ),
  };
}
