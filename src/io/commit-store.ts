import { isRecord } from '../text/is-record.js';
import { redactTree } from '../text/redact/tree.js';
import { readArtifact, writeArtifact } from './artifacts.js';
import { listChangedPaths } from './git-changed-paths.js';
import { isOversizedCommitError, readCommitHead } from './git-commit.js';
import type { GitRepository } from './git-repository.js';
import { readShallowOids } from './git-repository.js';
import { createTurnTaker } from './event-loop-turn.js';
import { hasErrorCode } from './has-error-code.js';

/**
 * What history mining reads of each commit, kept in `.checker/local/cache/commits-v1.json` across runs. A commit never
 * changes, so a kept entry never goes stale: after a new commit, a run reads that commit alone instead of walking and
 * diffing the whole window again (2.1 s for this repository's 388 commits, on every first run after a commit).
 */
export interface StoredCommit {
  parents: string[];
  tree: string;
  authorEmail: string;
  /** Seconds since the epoch. */
  authorTime: number;
  committerTime: number;
  /** The message, cut to MESSAGE_CHARS. */
  message: string;
  /** The commit is larger than COMMIT_HEAD_BYTES (src/io/git-commit.ts): only its start was read. */
  isCut?: true;
  /**
   * Paths whose content changed against the first parent (every file for a root commit), sorted; absent until asked
   * for, or when there are more than MAX_KEPT_PATHS of them (then only `pathCount` is kept).
   */
  paths?: string[];
  pathCount?: number;
  /**
   * More than this many paths changed: a listing asked for no more than that stopped there (a mass change the history
   * window leaves out). A later ask for more lists the commit again.
   */
  pathsOver?: number;
}

export interface CommitStore {
  /**
   * The commit, from the store or read from git (an unknown oid throws isomorphic-git's NotFoundError, one that cannot
   * be read within bounds `git/oversized-commit`).
   */
  read(oid: string): Promise<StoredCommit>;
  /** Whether reading the commit threw `git/oversized-commit` in this process. */
  isOversized(oid: string): boolean;
  /**
   * How many paths the commit changed against its first parent, and which (sorted); `paths` is absent only when more
   * than `pathsUpTo` changed, and `count` is then only known to be more than `pathsUpTo` (the listing stops there).
   * Undefined when the first parent cannot be read (a shallow boundary).
   */
  readChangedPaths(oid: string, pathsUpTo?: number): Promise<{ count: number; paths?: string[] } | undefined>;
  /**
   * Commits from `startOid` in the order isomorphic-git's `log` gives (newest committer time first, all parents
   * followed, a shallow commit's parents not), at most `depth`. A parent that cannot be read within bounds is left out
   * with the history behind it (`isOversized` tells).
   */
  walk(startOid: string, depth: number): Promise<{ oid: string; commit: StoredCommit }[]>;
  /** Marks a reading that ends with save(): while one is under way, an earlier one's save writes nothing. */
  begin(): void;
  /**
   * Ends a reading begun with begin() (or none), and writes what was added since the load once no reading is under
   * way; a store that cannot be written only costs the next run the reads again.
   */
  save(): Promise<void>;
}

const FILE = 'cache/commits-v1.json';
const VERSION = 1;
const MESSAGE_CHARS = 1000;
const MAX_KEPT_PATHS = 2000;
/**
 * Commits kept at most, the earliest added dropped first. Above the largest window one run walks (history.maxCommits
 * allows 50,000), so no run loses commits it just read.
 */
const MAX_ENTRIES = 60_000;
const MAX_FILE_BYTES = 128 * 1024 * 1024;

const stores = new WeakMap<GitRepository, Promise<CommitStore>>();

/** The store of `repo`, loaded once per opened repository. */
export function getCommitStore(repo: GitRepository): Promise<CommitStore> {
  let store = stores.get(repo);
  if (store === undefined) {
    store = loadCommitStore(repo);
    stores.set(repo, store);
  }
  return store;
}

async function loadCommitStore(repo: GitRepository): Promise<CommitStore> {
  const entries = await readEntries(repo.root);
  const oversized = new Map<string, unknown>();
  /** Diffs under way: the decay log and the mined window, read side by side, ask for the same recent commits. */
  const listing = new Map<string, Promise<string[]>>();
  let isDirty = false;
  let readings = 0;
  /**
   * Each entry as the file holds it: those read from it as they are (it was written redacted), the others redacted when
   * first saved. A save after a new commit redacts that commit, not the whole store again (0.2 s of every run after a
   * commit on a 2,000-commit window).
   */
  const written = new Map(entries);
  const remember = (oid: string, commit: StoredCommit): void => {
    entries.delete(oid);
    entries.set(oid, commit);
    written.delete(oid);
    isDirty = true;
  };

  const store: CommitStore = {
    async read(oid) {
      const known = entries.get(oid);
      if (known !== undefined) return known;
      if (oversized.has(oid)) throw oversized.get(oid);
      let commit: Awaited<ReturnType<typeof readCommitHead>>;
      try {
        commit = await readCommitHead(repo, oid);
      } catch (error) {
        if (isOversizedCommitError(error)) oversized.set(oid, error);
        throw error;
      }
      const stored: StoredCommit = {
        parents: commit.parents,
        tree: commit.tree,
        authorEmail: commit.author.email,
        authorTime: commit.author.timestamp,
        committerTime: commit.committer.timestamp,
        message: commit.message.slice(0, MESSAGE_CHARS),
        ...(commit.isCut ? { isCut: true as const } : {}),
      };
      remember(oid, stored);
      return stored;
    },

    isOversized: (oid) => oversized.has(oid),

    async readChangedPaths(oid, pathsUpTo = Number.POSITIVE_INFINITY) {
      const commit = await store.read(oid);
      if (commit.paths !== undefined) return { count: commit.paths.length, paths: commit.paths };
      if (commit.pathCount !== undefined && commit.pathCount > pathsUpTo) return { count: commit.pathCount };
      if (commit.pathsOver !== undefined && commit.pathsOver >= pathsUpTo) return { count: commit.pathsOver + 1 };
      const parent = commit.parents[0];
      let parentTree: string | undefined;
      if (parent !== undefined) {
        try {
          parentTree = (await store.read(parent)).tree;
        } catch (error) {
          if (hasErrorCode(error, 'NotFoundError')) return undefined;
          throw error;
        }
      }
      // A listing cut at one limit answers no other ask.
      const key = `${oid}:${pathsUpTo}`;
      let pending = listing.get(key);
      if (pending === undefined) {
        pending = listChangedPaths(repo, parentTree, commit.tree, pathsUpTo).finally(() => listing.delete(key));
        listing.set(key, pending);
      }
      const paths = await pending;
      if (paths.length > pathsUpTo) {
        // Only the count matters past the limit (a mass change): the walk stopped once it was passed.
        if (commit.pathCount === undefined) remember(oid, { ...commit, pathsOver: pathsUpTo });
        return { count: paths.length };
      }
      // A commit kept as a count is listed again each time it is asked for; the store already holds all it keeps.
      if (commit.pathCount !== undefined) return { count: paths.length, paths };
      const { pathsOver: _over, ...listed } = commit;
      remember(oid, paths.length > MAX_KEPT_PATHS ? { ...listed, pathCount: paths.length } : { ...listed, paths });
      return { count: paths.length, paths };
    },

    async walk(startOid, depth) {
      // Read each walk, as git.log does: a long-lived server sees a fetch that deepens the clone.
      const shallowOids = await readShallowOids(repo);
      const tips = [{ oid: startOid, commit: await store.read(startOid) }];
      const walked: { oid: string; commit: StoredCommit }[] = [];
      const takeTurn = createTurnTaker();
      while (tips.length > 0) {
        await takeTurn();
        const tip = tips.pop();
        if (tip === undefined) break;
        walked.push(tip);
        if (walked.length === depth) break;
        if (!shallowOids.has(tip.oid)) {
          for (const oid of tip.commit.parents) {
            const commit = await store.read(oid).catch((error: unknown) => {
              if (isOversizedCommitError(error)) return undefined;
              throw error;
            });
            if (commit !== undefined && !tips.some((queued) => queued.oid === oid)) tips.push({ oid, commit });
          }
        }
        // Oldest first, so the newest is popped next; the sort is stable, as isomorphic-git's is.
        tips.sort((a, b) => a.commit.committerTime - b.commit.committerTime);
      }
      return walked;
    },

    begin() {
      readings += 1;
    },

    async save() {
      readings = Math.max(0, readings - 1);
      if (readings > 0 || !isDirty) return;
      isDirty = false;
      const kept = [...entries].slice(-MAX_ENTRIES);
      // Messages can quote a secret: what is written is redacted, as everything under .checker/local is.
      const unwritten = kept.filter(([oid]) => !written.has(oid));
      const redacted = Object.entries(redactTree(Object.fromEntries(unwritten)));
      let document: unknown;
      // A redacted oid (oids are hex: none yet) would rename its entry: then the whole document is redacted as before.
      if (redacted.length === unwritten.length && redacted.every(([oid], index) => oid === unwritten[index]?.[0])) {
        for (const [oid, commit] of redacted) written.set(oid, commit);
        document = { version: VERSION, commits: Object.fromEntries(kept.map(([oid, commit]) => [oid, written.get(oid) ?? commit])) };
      } else document = redactTree({ version: VERSION, commits: Object.fromEntries(kept) });
      await writeArtifact(repo.root, FILE, JSON.stringify(document), {
        mode: 'replace',
      }).catch(() => undefined);
    },
  };
  return store;
}

/** The kept commits; a missing, damaged or foreign file (or entry) is read again from git, never an error. */
async function readEntries(root: string): Promise<Map<string, StoredCommit>> {
  const entries = new Map<string, StoredCommit>();
  const raw = await readArtifact(root, FILE).catch(() => undefined);
  if (raw === undefined || raw.byteLength > MAX_FILE_BYTES) return entries;
  let document: unknown;
  try {
    document = JSON.parse(raw.toString('utf8'));
  } catch {
    return entries;
  }
  if (!isRecord(document) || document.version !== VERSION || !isRecord(document.commits)) return entries;
  for (const [oid, entry] of Object.entries(document.commits)) {
    if (/^[0-9a-f]{40}$/.test(oid) && isStoredCommit(entry)) entries.set(oid, entry);
  }
  return entries;
}

function isStoredCommit(value: unknown): value is StoredCommit {
  if (!isRecord(value)) return false;
  const isOid = (item: unknown): boolean => typeof item === 'string' && /^[0-9a-f]{40}$/.test(item);
  return (
    Array.isArray(value.parents) &&
    value.parents.every(isOid) &&
    isOid(value.tree) &&
    typeof value.authorEmail === 'string' &&
    Number.isFinite(value.authorTime) &&
    Number.isFinite(value.committerTime) &&
    typeof value.message === 'string' &&
    (value.isCut === undefined || value.isCut === true) &&
    (value.paths === undefined || (Array.isArray(value.paths) && value.paths.every((path) => typeof path === 'string'))) &&
    (value.pathCount === undefined || (Number.isInteger(value.pathCount) && (value.pathCount as number) > MAX_KEPT_PATHS)) &&
    (value.pathsOver === undefined || (Number.isInteger(value.pathsOver) && (value.pathsOver as number) >= 0))
  );
}
