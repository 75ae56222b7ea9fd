import type { TreeEntry } from 'isomorphic-git';
import { hasErrorCode } from './has-error-code.js';
import type { GitRepository } from './git-repository.js';
import { readCommitHead } from './git-commit.js';
import { getObjectReader, parseTreeObject } from './git-objects.js';
import { loadIsomorphicGit } from './isomorphic-git.js';

/** A content change between two trees; gitlinks (submodules) and mode-only changes are not reported. */
export interface TreeDelta {
  path: string;
  /** Blob oid on the base side; absent for additions. */
  oldOid?: string;
  /** Blob oid on the head side; absent for deletions. */
  newOid?: string;
}

/** Decides whether a path (file or folder) is of interest; folders returning false are not read. */
export type PathFilter = (path: string, isDirectory: boolean) => boolean;

type EntryKind = 'blob' | 'tree' | 'other';

function toKind(entry: TreeEntry): EntryKind {
  if (entry.type === 'tree') return 'tree';
  if (entry.type === 'blob') return 'blob';
  return 'other';
}

/**
 * Trees, commit trees and small blobs already read, per repository. Git objects are immutable, so
 * the caches never go stale; a large change reads the same trees for every one of its files, and
 * the analysis reads each changed blob again after the diff did.
 */
interface ObjectCaches {
  trees: Map<string, TreeEntry[]>;
  commitTrees: Map<string, string>;
  blobs: Map<string, Uint8Array>;
  blobBytes: number;
}

const MAX_CACHED_BLOB_BYTES = 64 * 1024 * 1024;
const objectCaches = new WeakMap<GitRepository, ObjectCaches>();

function getCaches(repo: GitRepository): ObjectCaches {
  let caches = objectCaches.get(repo);
  if (caches === undefined) {
    caches = { trees: new Map(), commitTrees: new Map(), blobs: new Map(), blobBytes: 0 };
    objectCaches.set(repo, caches);
  }
  return caches;
}

/** A tree's entries (read from the pack directly, src/io/git-objects.ts; isomorphic-git for what that leaves). */
export async function readTreeEntries(repo: GitRepository, oid: string): Promise<TreeEntry[]> {
  const caches = getCaches(repo);
  const known = caches.trees.get(oid);
  if (known !== undefined) return known;
  const raw = getObjectReader(repo).read(oid);
  const parsed = raw?.type === 'tree' ? parseTreeObject(raw.bytes) : undefined;
  const tree = parsed ?? (await (await loadIsomorphicGit()).readTree({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).tree;
  caches.trees.set(oid, tree);
  return tree;
}

/** The tree oid of a commit (read within COMMIT_HEAD_BYTES, src/io/git-commit.ts). */
export async function readCommitTree(repo: GitRepository, commitOid: string): Promise<string> {
  const caches = getCaches(repo);
  const known = caches.commitTrees.get(commitOid);
  if (known !== undefined) return known;
  const { tree } = await readCommitHead(repo, commitOid);
  caches.commitTrees.set(commitOid, tree);
  return tree;
}

/** The root tree oid of a commit, after reading that tree: a commit whose tree is damaged fails here, not later. */
export async function readReadableRootTree(repo: GitRepository, commitOid: string): Promise<string> {
  const tree = await readCommitTree(repo, commitOid);
  await readTreeEntries(repo, tree);
  return tree;
}

/** The blob oid at `path` in a commit, walking cached trees; undefined when absent or not a file. */
async function findBlobOid(repo: GitRepository, commitOid: string, path: string): Promise<string | undefined> {
  let treeOid = await readCommitTree(repo, commitOid);
  const segments = path.split('/');
  for (const [index, segment] of segments.entries()) {
    const entry = (await readTreeEntries(repo, treeOid)).find((item) => item.path === segment);
    if (entry === undefined) return undefined;
    if (index === segments.length - 1) return entry.type === 'blob' ? entry.oid : undefined;
    if (entry.type !== 'tree') return undefined;
    treeOid = entry.oid;
  }
  return undefined;
}

/** A tree's entries when the pack or loose reader has it (read synchronously); undefined to take the async path. */
function readTreeEntriesSync(repo: GitRepository, oid: string): TreeEntry[] | undefined {
  const caches = getCaches(repo);
  const known = caches.trees.get(oid);
  if (known !== undefined) return known;
  const raw = getObjectReader(repo).read(oid);
  const tree = raw?.type === 'tree' ? parseTreeObject(raw.bytes) : undefined;
  if (tree !== undefined) caches.trees.set(oid, tree);
  return tree;
}

/** One level of a tree diff: the blob deltas of this level, and the subtree pairs to descend into, in entry order. */
function diffLevel(
  baseEntries: readonly TreeEntry[],
  headEntries: readonly TreeEntry[],
  filter: PathFilter | undefined,
  prefix: string,
): { deltas: TreeDelta[]; nested: Array<{ path: string; base: string | undefined; head: string | undefined }> } {
  const byName = new Map<string, { base?: TreeEntry; head?: TreeEntry }>();
  for (const entry of baseEntries) byName.set(entry.path, { base: entry });
  for (const entry of headEntries) byName.set(entry.path, { ...byName.get(entry.path), head: entry });
  const deltas: TreeDelta[] = [];
  const nested: Array<{ path: string; base: string | undefined; head: string | undefined }> = [];
  for (const [name, { base, head }] of byName) {
    if (base !== undefined && head !== undefined && base.oid === head.oid) continue;
    const path = prefix === '' ? name : `${prefix}/${name}`;
    const baseKind = base === undefined ? undefined : toKind(base);
    const headKind = head === undefined ? undefined : toKind(head);
    const baseSubtree = baseKind === 'tree' ? base?.oid : undefined;
    const headSubtree = headKind === 'tree' ? head?.oid : undefined;
    if ((baseSubtree !== undefined || headSubtree !== undefined) && (filter === undefined || filter(path, true))) {
      nested.push({ path, base: baseSubtree, head: headSubtree });
    }
    const oldOid = baseKind === 'blob' ? base?.oid : undefined;
    const newOid = headKind === 'blob' ? head?.oid : undefined;
    if (oldOid === undefined && newOid === undefined) continue;
    if (filter !== undefined && !filter(path, false)) continue;
    const delta: TreeDelta = { path };
    if (oldOid !== undefined) delta.oldOid = oldOid;
    if (newOid !== undefined) delta.newOid = newOid;
    deltas.push(delta);
  }
  return { deltas, nested };
}

/**
 * diffTrees without a promise per tree, when every tree it needs is read synchronously (a history walk diffs thousands
 * of commits: the promises cost more than the reads); undefined when one is not, and the async path then runs.
 */
function diffTreesSync(
  repo: GitRepository,
  baseTree: string | undefined,
  headTree: string | undefined,
  filter: PathFilter | undefined,
  prefix: string,
): TreeDelta[] | undefined {
  if (baseTree === headTree) return [];
  const baseEntries = baseTree === undefined ? [] : readTreeEntriesSync(repo, baseTree);
  const headEntries = headTree === undefined ? [] : readTreeEntriesSync(repo, headTree);
  if (baseEntries === undefined || headEntries === undefined) return undefined;
  const { deltas, nested } = diffLevel(baseEntries, headEntries, filter, prefix);
  for (const pair of nested) {
    const below = diffTreesSync(repo, pair.base, pair.head, filter, pair.path);
    if (below === undefined) return undefined;
    deltas.push(...below);
  }
  return deltas;
}

/** Blob-level differences between two trees, skipping identical subtrees by oid. Either side may be absent (empty). */
export async function diffTrees(
  repo: GitRepository,
  baseTree: string | undefined,
  headTree: string | undefined,
  filter?: PathFilter,
  prefix = '',
): Promise<TreeDelta[]> {
  if (baseTree === headTree) return [];
  const sync = diffTreesSync(repo, baseTree, headTree, filter, prefix);
  if (sync !== undefined) return sync;
  const [baseEntries, headEntries] = await Promise.all([
    baseTree === undefined ? [] : readTreeEntries(repo, baseTree),
    headTree === undefined ? [] : readTreeEntries(repo, headTree),
  ]);
  const { deltas, nested } = diffLevel(baseEntries, headEntries, filter, prefix);
  for (const list of await Promise.all(nested.map((pair) => diffTrees(repo, pair.base, pair.head, filter, pair.path))))
    deltas.push(...list);
  return deltas;
}

/** The raw content of a blob, or undefined when the object is not in the repository. */
export async function readBlobBytes(repo: GitRepository, oid: string): Promise<Uint8Array | undefined> {
  const caches = getCaches(repo);
  const known = caches.blobs.get(oid);
  if (known !== undefined) return known;
  try {
    const raw = getObjectReader(repo).read(oid);
    if (raw !== undefined && raw.type !== 'blob') return undefined;
    const blob =
      raw?.bytes ?? (await (await loadIsomorphicGit()).readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).blob;
    if (caches.blobBytes + blob.byteLength <= MAX_CACHED_BLOB_BYTES) {
      caches.blobs.set(oid, blob);
      caches.blobBytes += blob.byteLength;
    }
    return blob;
  } catch (error) {
    if (hasErrorCode(error, 'NotFoundError') || hasErrorCode(error, 'ObjectTypeError')) return undefined;
    throw error;
  }
}

/** The content of `path` in a commit, or undefined when the path is absent (or not a file) there. */
export async function readBlobBytesAtCommit(repo: GitRepository, commitOid: string, path: string): Promise<Uint8Array | undefined> {
  try {
    const oid = await findBlobOid(repo, commitOid, path);
    return oid === undefined ? undefined : await readBlobBytes(repo, oid);
  } catch (error) {
    if (hasErrorCode(error, 'NotFoundError') || hasErrorCode(error, 'ObjectTypeError')) return undefined;
    throw error;
  }
}
