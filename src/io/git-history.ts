import git from 'isomorphic-git';
import type { HistorySettings, MinedHistory } from '../model/history.js';
import type { GitRepository } from './git-repository.js';
import { readShallowOids } from './git-repository.js';
import { hasErrorCode } from './has-error-code.js';
import { resolveRevision } from './git-revision.js';
import { diffTrees } from './git-tree.js';
import type { PathFilter } from './git-tree.js';

export interface HistoryCommit {
  oid: string;
  authorEmail: string;
  /** Author time, seconds since the epoch. */
  timestamp: number;
  /** Paths whose content changed against the first parent (every file for a root commit), sorted. */
  paths: string[];
}

export interface ReadHistoryOptions {
  /** Start revision; default `HEAD`. */
  ref?: string;
  /** Only commits touching these files or folders (repo-relative), and only those paths in `paths`. */
  paths?: string[];
  /** Commits walked (not returned) at most; default 200, capped at 1000. */
  maxCommits?: number;
}

const DEFAULT_MAX_COMMITS = 200;
const HARD_MAX_COMMITS = 1000;

function buildPathFilter(paths: string[] | undefined): PathFilter | undefined {
  if (paths === undefined) return undefined;
  const wanted = paths.map((path) => path.replace(/^\.\/+/, '').replace(/\/+$/, ''));
  return (path, isDirectory) =>
    wanted.some((want) => want === '' || path === want || path.startsWith(`${want}/`) || (isDirectory && want.startsWith(`${path}/`)));
}

/** A bounded, newest-first log (all parents followed, by commit date) with the paths each commit changed. Stops at a shallow boundary. */
export async function readHistory(repo: GitRepository, options: ReadHistoryOptions = {}): Promise<HistoryCommit[]> {
  const maxCommits = Math.max(1, Math.min(options.maxCommits ?? DEFAULT_MAX_COMMITS, HARD_MAX_COMMITS));
  const start = await resolveRevision(repo, options.ref ?? 'HEAD');
  const shallow = await readShallowOids(repo);
  const filter = buildPathFilter(options.paths);
  let entries: Awaited<ReturnType<typeof git.log>>;
  try {
    entries = await git.log({ fs: repo.fs, gitdir: repo.gitdir, ref: start.oid, depth: maxCommits, cache: repo.cache });
  } catch (error) {
    if (!hasErrorCode(error, 'NotFoundError')) throw error;
    entries = await git.log({ fs: repo.fs, gitdir: repo.gitdir, ref: start.oid, depth: 1, cache: repo.cache });
  }
  const history: HistoryCommit[] = [];
  for (const { oid, commit } of entries.slice(0, maxCommits)) {
    const parent = commit.parent[0];
    let parentTree: string | undefined;
    if (parent !== undefined && !shallow.has(oid)) {
      try {
        parentTree = (await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: parent, cache: repo.cache })).commit.tree;
      } catch (error) {
        if (!hasErrorCode(error, 'NotFoundError')) throw error;
        continue;
      }
    }
    if (parent !== undefined && parentTree === undefined) continue;
    const deltas = await diffTrees(repo, parentTree, commit.tree, filter);
    if (filter !== undefined && deltas.length === 0) continue;
    history.push({
      oid,
      authorEmail: commit.author.email,
      timestamp: commit.author.timestamp,
      paths: deltas.map((delta) => delta.path).sort(),
    });
  }
  return history;
}

const MESSAGE_CHARS = 1000;

/**
 * The bounded window the history facts are mined from: commits reachable from `fromOid` (itself included), newest
 * first, at most `maxCommits` walked and none older than `maxAgeDays` before its committer time. Merges and commits changing more
 * than `massChangeFiles` files are counted and left out. Stops at a shallow boundary.
 */
export async function mineHistory(repo: GitRepository, fromOid: string, settings: HistorySettings): Promise<MinedHistory> {
  const start = await resolveRevision(repo, fromOid);
  const shallow = await readShallowOids(repo);
  const head = await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: start.oid, cache: repo.cache });
  const fromTime = head.commit.committer.timestamp;
  const oldest = fromTime - settings.maxAgeDays * 86_400;
  let entries: Awaited<ReturnType<typeof git.log>>;
  let stoppedBy: MinedHistory['stoppedBy'] = '';
  try {
    entries = await git.log({ fs: repo.fs, gitdir: repo.gitdir, ref: start.oid, depth: settings.maxCommits + 1, cache: repo.cache });
  } catch (error) {
    if (!hasErrorCode(error, 'NotFoundError')) throw error;
    entries = await git.log({ fs: repo.fs, gitdir: repo.gitdir, ref: start.oid, depth: 1, cache: repo.cache });
    stoppedBy = 'shallow';
  }
  if (entries.length > settings.maxCommits) {
    entries = entries.slice(0, settings.maxCommits);
    stoppedBy = 'max-commits';
  }
  const history: MinedHistory = {
    fromOid: start.oid,
    fromTime,
    settings: { ...settings },
    commits: [],
    walked: 0,
    excluded: { merges: 0, massChanges: 0 },
    stoppedBy,
  };
  for (const { oid, commit } of entries) {
    if (commit.committer.timestamp < oldest) {
      history.stoppedBy = 'max-age';
      break;
    }
    history.walked += 1;
    if (commit.parent.length > 1) {
      history.excluded.merges += 1;
      continue;
    }
    const parent = commit.parent[0];
    let parentTree: string | undefined;
    if (parent !== undefined) {
      if (shallow.has(oid)) {
        history.stoppedBy = 'shallow';
        continue;
      }
      try {
        parentTree = (await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: parent, cache: repo.cache })).commit.tree;
      } catch (error) {
        if (!hasErrorCode(error, 'NotFoundError')) throw error;
        history.stoppedBy = 'shallow';
        continue;
      }
    }
    const deltas = await diffTrees(repo, parentTree, commit.tree);
    if (deltas.length > settings.massChangeFiles) {
      history.excluded.massChanges += 1;
      continue;
    }
    if (deltas.length === 0) continue;
    history.commits.push({
      oid,
      timestamp: commit.author.timestamp,
      authorEmail: commit.author.email,
      message: commit.message.slice(0, MESSAGE_CHARS),
      paths: deltas.map((delta) => delta.path).sort(),
    });
  }
  return history;
}
