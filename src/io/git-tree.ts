import git from 'isomorphic-git';
import type { TreeEntry } from 'isomorphic-git';
import { hasErrorCode } from './git-repository.js';
import type { GitRepository } from './git-repository.js';

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

async function readTreeEntries(repo: GitRepository, oid: string): Promise<TreeEntry[]> {
  const { tree } = await git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache });
  return tree;
}

/** The tree oid of a commit. */
export async function readCommitTree(repo: GitRepository, commitOid: string): Promise<string> {
  const { commit } = await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: commitOid, cache: repo.cache });
  return commit.tree;
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
  const [baseEntries, headEntries] = await Promise.all([
    baseTree === undefined ? [] : readTreeEntries(repo, baseTree),
    headTree === undefined ? [] : readTreeEntries(repo, headTree),
  ]);
  const byName = new Map<string, { base?: TreeEntry; head?: TreeEntry }>();
  for (const entry of baseEntries) byName.set(entry.path, { base: entry });
  for (const entry of headEntries) byName.set(entry.path, { ...byName.get(entry.path), head: entry });
  const deltas: TreeDelta[] = [];
  const nested: Promise<TreeDelta[]>[] = [];
  for (const [name, { base, head }] of byName) {
    if (base !== undefined && head !== undefined && base.oid === head.oid) continue;
    const path = prefix === '' ? name : `${prefix}/${name}`;
    const baseKind = base === undefined ? undefined : toKind(base);
    const headKind = head === undefined ? undefined : toKind(head);
    const baseSubtree = baseKind === 'tree' ? base?.oid : undefined;
    const headSubtree = headKind === 'tree' ? head?.oid : undefined;
    if ((baseSubtree !== undefined || headSubtree !== undefined) && (filter === undefined || filter(path, true))) {
      nested.push(diffTrees(repo, baseSubtree, headSubtree, filter, path));
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
  for (const list of await Promise.all(nested)) deltas.push(...list);
  return deltas;
}

/** Every blob (regular file or symlink) of a tree: repo-relative path → blob oid. */
export async function flattenTree(repo: GitRepository, treeOid: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const delta of await diffTrees(repo, undefined, treeOid)) {
    if (delta.newOid !== undefined) files.set(delta.path, delta.newOid);
  }
  return files;
}

/** The raw content of a blob, or undefined when the object is not in the repository. */
export async function readBlobBytes(repo: GitRepository, oid: string): Promise<Uint8Array | undefined> {
  try {
    const { blob } = await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache });
    return blob;
  } catch (error) {
    if (hasErrorCode(error, 'NotFoundError') || hasErrorCode(error, 'ObjectTypeError')) return undefined;
    throw error;
  }
}

/** The content of `path` in a commit, or undefined when the path is absent (or not a file) there. */
export async function readBlobBytesAtCommit(repo: GitRepository, commitOid: string, path: string): Promise<Uint8Array | undefined> {
  try {
    const { blob } = await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid: commitOid, filepath: path, cache: repo.cache });
    return blob;
  } catch (error) {
    if (hasErrorCode(error, 'NotFoundError') || hasErrorCode(error, 'ObjectTypeError')) return undefined;
    throw error;
  }
}
