import type { HistorySettings, MinedHistory } from '../model/history.js';
import type { GitRepository } from './git-repository.js';
import { readShallowOids } from './git-repository.js';
import { createTurnTaker } from './event-loop-turn.js';
import { hasErrorCode } from './has-error-code.js';
import { resolveRevision } from './git-revision.js';
import { type CommitStore, getCommitStore, type StoredCommit } from './commit-store.js';
import { isOversizedCommitError } from './git-commit.js';
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

/**
 * A read of the commit store that ends with its save, also when it throws (CommitStore.begin): the decay log and the
 * mined window are read side by side, and the store is written once, by the last of them.
 */
async function readStore<T>(repo: GitRepository, read: (store: CommitStore) => Promise<T>): Promise<T> {
  const store = await getCommitStore(repo);
  store.begin();
  try {
    return await read(store);
  } finally {
    await store.save();
  }
}

/** A bounded, newest-first log (all parents followed, by commit date) with the paths each commit changed. Stops at a shallow boundary. */
export async function readHistory(repo: GitRepository, options: ReadHistoryOptions = {}): Promise<HistoryCommit[]> {
  const maxCommits = Math.max(1, Math.min(options.maxCommits ?? DEFAULT_MAX_COMMITS, HARD_MAX_COMMITS));
  const start = await resolveRevision(repo, options.ref ?? 'HEAD');
  const shallow = await readShallowOids(repo);
  const filter = buildPathFilter(options.paths);
  return readStore(repo, async (store) => {
    let entries: Awaited<ReturnType<CommitStore['walk']>>;
    try {
      entries = await store.walk(start.oid, maxCommits);
    } catch (error) {
      if (!hasErrorCode(error, 'NotFoundError')) throw error;
      entries = await store.walk(start.oid, 1);
    }
    const history: HistoryCommit[] = [];
    const takeTurn = createTurnTaker();
    for (const { oid, commit } of entries) {
      await takeTurn();
      if (commit.parents[0] !== undefined && shallow.has(oid)) continue;
      const changed = await readChangedPathsWithin(store, oid);
      if (changed === 'oversized' || changed?.paths === undefined) continue;
      const paths = filter === undefined ? changed.paths : changed.paths.filter((path) => filter(path, false));
      if (filter !== undefined && paths.length === 0) continue;
      history.push({ oid, authorEmail: commit.authorEmail, timestamp: commit.authorTime, paths });
    }
    return history;
  });
}

/** The commit's changed paths, or `oversized` when its first parent cannot be read within bounds. */
async function readChangedPathsWithin(
  store: CommitStore,
  oid: string,
  pathsUpTo?: number,
): Promise<Awaited<ReturnType<CommitStore['readChangedPaths']>> | 'oversized'> {
  try {
    return await store.readChangedPaths(oid, pathsUpTo);
  } catch (error) {
    if (isOversizedCommitError(error)) return 'oversized';
    throw error;
  }
}

/**
 * The bounded window the history facts are mined from: commits reachable from `fromOid` (itself included), newest
 * first, at most `maxCommits` walked and none older than `maxAgeDays` before its committer time. Merges and commits changing more
 * than `massChangeFiles` files are counted and left out. Stops at a shallow boundary. A commit too large to read within
 * bounds (src/io/git-commit.ts) is counted: one whose message was cut is kept, one whose headers were cut is left out.
 */
export async function mineHistory(repo: GitRepository, fromOid: string, settings: HistorySettings): Promise<MinedHistory> {
  const start = await resolveRevision(repo, fromOid);
  const shallow = await readShallowOids(repo);
  return readStore(repo, async (store) => {
    const fromTime = (await store.read(start.oid)).committerTime;
    const oldest = fromTime - settings.maxAgeDays * 86_400;
    let entries: Awaited<ReturnType<CommitStore['walk']>>;
    let stoppedBy: MinedHistory['stoppedBy'] = '';
    try {
      entries = await store.walk(start.oid, settings.maxCommits + 1);
    } catch (error) {
      if (!hasErrorCode(error, 'NotFoundError')) throw error;
      entries = await store.walk(start.oid, 1);
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
    const oversized = { messagesCut: 0, commitsLeftOut: 0 };
    const walked: StoredCommit[] = [];
    // The window is mined while the parse children work (analyze.ts starts it early): this thread answers them between commits.
    const takeTurn = createTurnTaker();
    for (const { oid, commit } of entries) {
      await takeTurn();
      if (commit.committerTime < oldest) {
        history.stoppedBy = 'max-age';
        break;
      }
      history.walked += 1;
      walked.push(commit);
      if (commit.parents.length > 1) {
        history.excluded.merges += 1;
        continue;
      }
      if (commit.parents[0] !== undefined && shallow.has(oid)) {
        history.stoppedBy = 'shallow';
        continue;
      }
      const changed = await readChangedPathsWithin(store, oid, settings.massChangeFiles);
      if (changed === 'oversized') {
        oversized.commitsLeftOut += 1;
        continue;
      }
      if (changed === undefined) {
        history.stoppedBy = 'shallow';
        continue;
      }
      if (changed.count > settings.massChangeFiles) {
        history.excluded.massChanges += 1;
        continue;
      }
      if (changed.paths === undefined || changed.count === 0) continue;
      if (commit.isCut === true) oversized.messagesCut += 1;
      history.commits.push({
        oid,
        timestamp: commit.authorTime,
        authorEmail: commit.authorEmail,
        message: commit.message,
        paths: changed.paths,
      });
    }
    // Parents the walk or a diff could not read, each once: the history behind them was not walked.
    const unreadParents = new Set(walked.flatMap((commit) => commit.parents.filter((parent) => store.isOversized(parent))));
    history.oversized = { ...oversized, commitsLeftOut: oversized.commitsLeftOut + unreadParents.size };
    return history;
  });
}
