import { getObjectReader, UNSAFE_TREE_NAME } from './git-objects.js';
import type { GitRepository } from './git-repository.js';
import { diffTrees } from './git-tree.js';

/**
 * A tree object read for the direct walk: its bytes, and per entry where its name starts and ends and its kind. Only
 * trees parseTreeObject (src/io/git-objects.ts) would take, with ASCII names in git's order, are walked directly; any
 * other makes the whole diff go through diffTrees, so both ways give the same paths for every tree.
 */
interface IndexedTree {
  bytes: Buffer;
  /** Three numbers an entry: name start, name end (the NUL; the oid follows it), kind (KIND_*). */
  entries: Int32Array;
  count: number;
}

const KIND_BLOB = 0;
const KIND_TREE = 1;
const KIND_GITLINK = 2;
const SPACE = 0x20;
const SLASH = 0x2f;
/** Trees kept indexed per repository, cleared whole past this: a history walk reads each tree as one commit's and then as its child's parent's. */
const MAX_INDEXED_BYTES = 16 * 1024 * 1024;

const indexed = new WeakMap<GitRepository, { trees: Map<string, IndexedTree>; bytes: number }>();

/** The entry kind of a raw mode, as parseTreeObject's table has it; undefined for a mode it refuses. */
function readMode(bytes: Buffer, start: number, end: number): number | undefined {
  const length = end - start;
  if (length === 5) return bytes.toString('latin1', start, end) === '40000' ? KIND_TREE : undefined;
  if (length !== 6) return undefined;
  const mode = bytes.toString('latin1', start, end);
  if (mode === '100644' || mode === '100755' || mode === '120000') return KIND_BLOB;
  return mode === '160000' ? KIND_GITLINK : undefined;
}

/** Whether a name can be walked directly: ASCII without `\`, `/` or `:`, and none of the names UNSAFE_TREE_NAME refuses. */
function isPlainName(bytes: Buffer, start: number, end: number): boolean {
  if (end === start) return false;
  for (let index = start; index < end; index += 1) {
    const byte = bytes[index] ?? 0;
    if (byte >= 0x80 || byte === 0x5c || byte === SLASH || byte === 0x3a) return false;
  }
  const first = bytes[start] ?? 0;
  // Only names starting with `.` or `g` can match the rest of UNSAFE_TREE_NAME.
  if (first !== 0x2e && first !== 0x67 && first !== 0x47) return true;
  return !UNSAFE_TREE_NAME.test(bytes.toString('latin1', start, end));
}

/**
 * git's order of two entries (base_name_compare): by name bytes, a tree's name read as if `/` followed it. Negative
 * when `a` comes first.
 */
function compareEntries(a: IndexedTree, at: number, b: IndexedTree, bt: number): number {
  const aStart = a.entries[at * 3] ?? 0;
  const aEnd = a.entries[at * 3 + 1] ?? 0;
  const bStart = b.entries[bt * 3] ?? 0;
  const bEnd = b.entries[bt * 3 + 1] ?? 0;
  const common = Math.min(aEnd - aStart, bEnd - bStart);
  // Byte by byte: names are short and most differ early, where a Buffer.compare call costs more than the compare.
  for (let index = 0; index < common; index += 1) {
    const order = (a.bytes[aStart + index] ?? 0) - (b.bytes[bStart + index] ?? 0);
    if (order !== 0) return order;
  }
  const aNext = aStart + common < aEnd ? (a.bytes[aStart + common] ?? 0) : a.entries[at * 3 + 2] === KIND_TREE ? SLASH : 0;
  const bNext = bStart + common < bEnd ? (b.bytes[bStart + common] ?? 0) : b.entries[bt * 3 + 2] === KIND_TREE ? SLASH : 0;
  return aNext - bNext;
}

/** The tree indexed, or undefined when the direct walk must leave it (and the diff) to diffTrees. */
function readIndexedTree(repo: GitRepository, oid: string): IndexedTree | undefined {
  let kept = indexed.get(repo);
  if (kept === undefined) {
    kept = { trees: new Map(), bytes: 0 };
    indexed.set(repo, kept);
  }
  const known = kept.trees.get(oid);
  if (known !== undefined) return known;
  const raw = getObjectReader(repo).read(oid);
  if (raw === undefined || raw.type !== 'tree') return undefined;
  const { bytes } = raw;
  const entries: number[] = [];
  let cursor = 0;
  while (cursor < bytes.length) {
    const space = bytes.indexOf(SPACE, cursor);
    const nul = bytes.indexOf(0, cursor);
    if (space === -1 || nul === -1 || space > nul || nul + 21 > bytes.length) return undefined;
    const kind = readMode(bytes, cursor, space);
    if (kind === undefined || !isPlainName(bytes, space + 1, nul)) return undefined;
    entries.push(space + 1, nul, kind);
    cursor = nul + 21;
  }
  const tree: IndexedTree = { bytes, entries: Int32Array.from(entries), count: entries.length / 3 };
  // Strictly in git's order, as git writes trees: a merge walk of two trees then meets each name once.
  for (let index = 1; index < tree.count; index += 1) if (compareEntries(tree, index - 1, tree, index) >= 0) return undefined;
  if (kept.bytes + bytes.length > MAX_INDEXED_BYTES) {
    kept.trees.clear();
    kept.bytes = 0;
  }
  kept.trees.set(oid, tree);
  kept.bytes += bytes.length;
  return tree;
}

const EMPTY: IndexedTree = { bytes: Buffer.alloc(0), entries: new Int32Array(0), count: 0 };

function readName(tree: IndexedTree, at: number, prefix: string): string {
  const name = tree.bytes.toString('latin1', tree.entries[at * 3] ?? 0, tree.entries[at * 3 + 1] ?? 0);
  return prefix === '' ? name : `${prefix}/${name}`;
}

function readOid(tree: IndexedTree, at: number): string {
  const nul = tree.entries[at * 3 + 1] ?? 0;
  return tree.bytes.toString('hex', nul + 1, nul + 21);
}

function isSameOid(a: IndexedTree, at: number, b: IndexedTree, bt: number): boolean {
  const aOid = (a.entries[at * 3 + 1] ?? 0) + 1;
  const bOid = (b.entries[bt * 3 + 1] ?? 0) + 1;
  for (let index = 0; index < 20; index += 1) if (a.bytes[aOid + index] !== b.bytes[bOid + index]) return false;
  return true;
}

/**
 * The changed paths of two trees by a merge walk over their raw entries, descending only into subtrees whose oids
 * differ; false when a tree must be left to diffTrees.
 */
function walkChangedPaths(
  repo: GitRepository,
  baseOid: string | undefined,
  headOid: string | undefined,
  prefix: string,
  paths: string[],
  upTo: number,
): boolean {
  if (baseOid === headOid || paths.length > upTo) return true;
  const base = baseOid === undefined ? EMPTY : readIndexedTree(repo, baseOid);
  const head = headOid === undefined ? EMPTY : readIndexedTree(repo, headOid);
  if (base === undefined || head === undefined) return false;
  let at = 0;
  let ht = 0;
  const one = (tree: IndexedTree, index: number, isBase: boolean): boolean => {
    const kind = tree.entries[index * 3 + 2];
    if (kind === KIND_BLOB) paths.push(readName(tree, index, prefix));
    else if (kind === KIND_TREE) {
      const oid = readOid(tree, index);
      return walkChangedPaths(repo, isBase ? oid : undefined, isBase ? undefined : oid, readName(tree, index, prefix), paths, upTo);
    }
    return true;
  };
  while (at < base.count || ht < head.count) {
    const order = at >= base.count ? 1 : ht >= head.count ? -1 : compareEntries(base, at, head, ht);
    if (order < 0) {
      if (!one(base, at, true)) return false;
      at += 1;
    } else if (order > 0) {
      if (!one(head, ht, false)) return false;
      ht += 1;
    } else {
      if (!isSameOid(base, at, head, ht)) {
        const baseKind = base.entries[at * 3 + 2];
        const headKind = head.entries[ht * 3 + 2];
        // The same name and both trees or both not (the order tells a tree from a file of that name).
        if (baseKind === KIND_TREE) {
          if (!walkChangedPaths(repo, readOid(base, at), readOid(head, ht), readName(base, at, prefix), paths, upTo)) return false;
        } else if (baseKind === KIND_BLOB || headKind === KIND_BLOB) paths.push(readName(base, at, prefix));
      }
      at += 1;
      ht += 1;
    }
  }
  return true;
}

/**
 * The paths whose content differs between two trees (either may be absent: empty), sorted: the paths of
 * `diffTrees(repo, baseTree, headTree)`, found without reading each tree into entry objects. A history walk diffs a
 * commit against its parent thousands of times; the walk reads the raw trees and makes a string only of what differs.
 * With `upTo`, a walk that has found more than that many stops reading trees: the answer is then some of the paths,
 * more than `upTo` of them (a mass change's count is all the history window asks; medusa's 208 of 2,000 commits).
 */
export async function listChangedPaths(
  repo: GitRepository,
  baseTree: string | undefined,
  headTree: string | undefined,
  upTo = Number.POSITIVE_INFINITY,
): Promise<string[]> {
  const paths: string[] = [];
  if (walkChangedPaths(repo, baseTree, headTree, '', paths, upTo)) return paths.sort();
  return (await diffTrees(repo, baseTree, headTree)).map((delta) => delta.path).sort();
}
