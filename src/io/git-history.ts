import git from 'isomorphic-git';
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
