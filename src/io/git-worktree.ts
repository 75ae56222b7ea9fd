import { createHash } from 'node:crypto';
import { lstatSync, readlinkSync } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { readGitIndex } from './git-index.js';
import { hashBlobGuardedSync, readGuardedSync } from './guarded-read.js';
import type { IndexEntry } from './git-index.js';
import type { GitRepository } from './git-repository.js';
import { LOCAL_STATE_DIR, openFolderLister } from './folder-lister.js';
import { readTreeEntries, type TreeDelta } from './git-tree.js';

/** A change between a base tree and the working tree; `newContent` is the working-tree bytes already read. */
export interface WorktreeDelta extends TreeDelta {
  newContent?: Buffer;
}

/** A working-tree file above this is hashed in chunks and not diffed line by line. */
export const MAX_WORKTREE_DIFF_BYTES = 8 * 1024 * 1024;
const MODE_SYMLINK = 0o120000;
const MODE_GITLINK = 0o160000;
const MODE_TYPE_MASK = 0o170000;

/** The git blob oid of some content, as `git hash-object` computes it. */
function hashBlobContent(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

function lstatOrUndefined(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true });
  } catch {
    return undefined;
  }
}

/**
 * What git would store for a working-tree path: a symlink's target, or a regular file's bytes (hashed in chunks and
 * not kept above MAX_WORKTREE_DIFF_BYTES). undefined for anything git does not track: FIFOs, sockets, devices.
 */
function readWorktreeEntry(path: string, stats: BigIntStats): { oid: string; content?: Buffer } | undefined {
  if (stats.isSymbolicLink()) {
    const content = Buffer.from(readlinkSync(path, { encoding: 'buffer' }));
    return { oid: hashBlobContent(content), content };
  }
  if (!stats.isFile()) return undefined;
  const read = readGuardedSync(path, { maxBytes: MAX_WORKTREE_DIFF_BYTES });
  if (read.ok) return { oid: hashBlobContent(read.bytes), content: read.bytes };
  if (read.reason !== 'too-large') return undefined;
  const hashed = hashBlobGuardedSync(path);
  return hashed.ok ? { oid: hashed.oid } : undefined;
}

/** git does not look through a symlinked folder: `link/file.ts` under `link -> /elsewhere` is not in the working tree. */
function createSymlinkedFolderCheck(root: string): (path: string) => boolean {
  const known = new Map<string, boolean>();
  const check = (folder: string): boolean => {
    if (folder === '') return false;
    const cached = known.get(folder);
    if (cached !== undefined) return cached;
    const slash = folder.lastIndexOf('/');
    const result = check(slash === -1 ? '' : folder.slice(0, slash)) || lstatOrUndefined(join(root, folder))?.isDirectory() !== true;
    known.set(folder, result);
    return result;
  };
  return (path) => {
    const slash = path.lastIndexOf('/');
    return slash !== -1 && check(path.slice(0, slash));
  };
}

/** Same size and mtime as recorded in the index, and not written in the same instant as the index itself. */
function isStatClean(entry: IndexEntry, stats: BigIntStats, indexMtimeMs: number): boolean {
  const isSymlink = stats.isSymbolicLink();
  if (isSymlink !== ((entry.mode & MODE_TYPE_MASK) === MODE_SYMLINK)) return false;
  if (Number(stats.size % 4294967296n) !== entry.size) return false;
  const seconds = Number(stats.mtimeNs / 1_000_000_000n);
  const nanoseconds = Number(stats.mtimeNs % 1_000_000_000n);
  if (seconds !== entry.mtimeSeconds) return false;
  if (entry.mtimeNanoseconds !== 0 && nanoseconds !== entry.mtimeNanoseconds) return false;
  const entryMtimeMs = entry.mtimeSeconds * 1000 + entry.mtimeNanoseconds / 1e6;
  return entryMtimeMs < indexMtimeMs;
}

interface VirtualTree {
  oid: string;
  /** name → entry; folders carry their subtree. */
  entries: Map<string, { oid: string; subtree?: VirtualTree }>;
}

function compareTreeNames(left: Buffer, right: Buffer): number {
  return Buffer.compare(left, right);
}

/** Builds the tree objects `git write-tree` would write for the index, in memory, with their oids. */
function buildIndexTree(entries: IndexEntry[]): VirtualTree {
  interface Node {
    files: Map<string, { mode: number; oid: string }>;
    folders: Map<string, Node>;
  }
  const root: Node = { files: new Map(), folders: new Map() };
  for (const entry of entries) {
    if ((entry.mode & MODE_TYPE_MASK) === 0o040000) continue;
    const parts = entry.path.split('/');
    const name = parts.pop() ?? '';
    let node = root;
    for (const part of parts) {
      let next = node.folders.get(part);
      if (next === undefined) {
        next = { files: new Map(), folders: new Map() };
        node.folders.set(part, next);
      }
      node = next;
    }
    if (!node.files.has(name)) node.files.set(name, { mode: entry.mode, oid: entry.oid });
  }
  const seal = (node: Node): VirtualTree => {
    const rows: { sortKey: Buffer; name: string; mode: string; oid: string; subtree?: VirtualTree }[] = [];
    for (const [name, file] of node.files) rows.push({ sortKey: Buffer.from(name), name, mode: file.mode.toString(8), oid: file.oid });
    for (const [name, folder] of node.folders) {
      const subtree = seal(folder);
      rows.push({ sortKey: Buffer.from(`${name}/`), name, mode: '40000', oid: subtree.oid, subtree });
    }
    rows.sort((left, right) => compareTreeNames(left.sortKey, right.sortKey));
    const parts: Buffer[] = [];
    const map = new Map<string, { oid: string; subtree?: VirtualTree }>();
    for (const row of rows) {
      parts.push(Buffer.from(`${row.mode} ${row.name}\0`), Buffer.from(row.oid, 'hex'));
      map.set(row.name, row.subtree === undefined ? { oid: row.oid } : { oid: row.oid, subtree: row.subtree });
    }
    const body = Buffer.concat(parts);
    const oid = createHash('sha1').update(`tree ${body.length}\0`).update(body).digest('hex');
    return { oid, entries: map };
  };
  return seal(root);
}

/** Base blob oids of the paths where the base tree and the index differ (undefined: absent from the base). */
async function diffBaseWithIndex(repo: GitRepository, baseTree: string, indexTree: VirtualTree): Promise<Map<string, string | undefined>> {
  const differing = new Map<string, string | undefined>();
  const visit = async (baseOid: string | undefined, tree: VirtualTree | undefined, prefix: string): Promise<void> => {
    if (baseOid !== undefined && baseOid === tree?.oid) return;
    const baseEntries = baseOid === undefined ? [] : await readTreeEntries(repo, baseOid);
    const seen = new Set<string>();
    const nested: Promise<void>[] = [];
    for (const entry of baseEntries) {
      seen.add(entry.path);
      const path = prefix === '' ? entry.path : `${prefix}/${entry.path}`;
      const current = tree?.entries.get(entry.path);
      if (current !== undefined && current.oid === entry.oid) continue;
      if (entry.type === 'tree') {
        nested.push(visit(entry.oid, current?.subtree, path));
        if (current !== undefined && current.subtree === undefined) differing.set(path, undefined);
      } else if (entry.type === 'blob') {
        differing.set(path, entry.oid);
        if (current?.subtree !== undefined) nested.push(visit(undefined, current.subtree, path));
      } else if (current?.subtree !== undefined) {
        nested.push(visit(undefined, current.subtree, path));
      }
    }
    for (const [name, current] of tree?.entries ?? []) {
      if (seen.has(name)) continue;
      const path = prefix === '' ? name : `${prefix}/${name}`;
      if (current.subtree !== undefined) nested.push(visit(undefined, current.subtree, path));
      else differing.set(path, undefined);
    }
    await Promise.all(nested);
  };
  await visit(baseTree, indexTree, '');
  return differing;
}

/**
 * Content changes from the base tree to the working tree. The index is turned into tree oids in
 * memory, so only base subtrees that differ from the index are read; tracked files are
 * stat-compared with the index and hashed only when their stats differ; untracked files count as
 * present in the working tree.
 */
export async function diffWorktree(repo: GitRepository, baseTree: string, untrackedFiles: string[]): Promise<WorktreeDelta[]> {
  const index = await readGitIndex(repo.gitdir);
  const indexOids = new Map<string, string>();
  const worktree = new Map<string, { oid: string; content?: Buffer } | null>();
  const isBeyondSymlink = createSymlinkedFolderCheck(repo.root);
  for (const entry of index.entries) {
    if ((entry.mode & MODE_TYPE_MASK) === MODE_GITLINK || (entry.mode & MODE_TYPE_MASK) === 0o040000) continue;
    if (worktree.has(entry.path)) continue;
    indexOids.set(entry.path, entry.oid);
    if (entry.skipWorktree) {
      worktree.set(entry.path, { oid: entry.oid });
      continue;
    }
    const full = join(repo.root, entry.path);
    const stats = isBeyondSymlink(entry.path) ? undefined : lstatOrUndefined(full);
    if (stats === undefined || stats.isDirectory()) {
      worktree.set(entry.path, null);
      continue;
    }
    if (entry.stage === 0 && !entry.intentToAdd && isStatClean(entry, stats, index.mtimeMs)) {
      worktree.set(entry.path, { oid: entry.oid });
      continue;
    }
    worktree.set(entry.path, readWorktreeEntry(full, stats) ?? null);
  }
  const baseDiffers = await diffBaseWithIndex(repo, baseTree, buildIndexTree(index.entries));
  const baseOidOf = (path: string): string | undefined => (baseDiffers.has(path) ? baseDiffers.get(path) : indexOids.get(path));
  for (const path of untrackedFiles) {
    if (worktree.has(path)) continue;
    const full = join(repo.root, path);
    const stats = isBeyondSymlink(path) ? undefined : lstatOrUndefined(full);
    if (stats === undefined || stats.isDirectory()) continue;
    const file = readWorktreeEntry(full, stats);
    if (file !== undefined) worktree.set(path, file);
  }
  const deltas: WorktreeDelta[] = [];
  for (const [path, file] of worktree) {
    const oldOid = baseOidOf(path);
    if (file === null) {
      if (oldOid !== undefined) deltas.push({ path, oldOid });
      continue;
    }
    if (file.oid === oldOid) continue;
    const delta: WorktreeDelta = { path, newOid: file.oid };
    if (oldOid !== undefined) delta.oldOid = oldOid;
    if (file.content !== undefined) delta.newContent = file.content;
    deltas.push(delta);
  }
  for (const [path, oldOid] of baseDiffers) {
    if (oldOid !== undefined && !worktree.has(path)) deltas.push({ path, oldOid });
  }
  return deltas;
}

/**
 * Files in the working tree that are neither in the index nor ignored (`.gitignore` files at every
 * level plus `info/exclude`; the user's global excludes file is not read). Ignored folders
 * and nested repositories are not entered. The folder listings are kept for the next call
 * (src/io/folder-lister.ts) unless git tracks files under `.checker/local/` or `useCache` is false. `fromScan`: the
 * scan of this run kept its listings a moment ago, so they are walked without a folder's lstat and nothing is written
 * (on medusa's 9.3k folders the listing takes 30 ms instead of 230 ms, or 600 ms on a cold run that keeps its own); a
 * folder the scan did not enter (`node_modules` that no rule ignores) is listed here.
 */
export async function listUntrackedFiles(repo: GitRepository, options: { useCache?: boolean; fromScan?: boolean } = {}): Promise<string[]> {
  const index = await readGitIndex(repo.gitdir);
  const tracked = new Set<string>();
  const trackedDirectories = new Set<string>();
  let tracksLocalState = false;
  for (const entry of index.entries) {
    tracked.add(entry.path);
    if (entry.path.startsWith(`${LOCAL_STATE_DIR}/`)) tracksLocalState = true;
    for (let slash = entry.path.indexOf('/'); slash >= 0; slash = entry.path.indexOf('/', slash + 1)) {
      trackedDirectories.add(entry.path.slice(0, slash));
    }
  }
  const lister = await openFolderLister({
    root: repo.root,
    excludeFile: join(repo.commonDir, 'info', 'exclude'),
    ...(tracksLocalState || options.useCache === false
      ? {}
      : options.fromScan === true
        ? { cacheName: 'scan', isFresh: true }
        : { cacheName: 'untracked' }),
  });
  const untracked: string[] = [];
  const visit = (directory: string): void => {
    const listing = lister.list(directory);
    if (!listing.ok) return;
    for (const { name, kind } of listing.entries) {
      const path = directory === '' ? name : `${directory}/${name}`;
      if (kind === 'd') {
        if (tracked.has(path)) continue;
        const isNestedRepository = !trackedDirectories.has(path) && lstatOrUndefined(join(repo.root, path, '.git')) !== undefined;
        if (!isNestedRepository) visit(path);
      } else if (!tracked.has(path)) {
        untracked.push(path);
      }
    }
  };
  visit('');
  await lister.save();
  return untracked;
}
