import { StringDecoder } from 'node:string_decoder';
import { CheckerError } from '../model/diagnostic.js';
import { readObjectHead } from './git-object-head.js';
import { type GitObjectHead, getObjectReader } from './git-objects.js';
import type { GitRepository } from './git-repository.js';
import { readShallowOids } from './git-repository.js';
import { loadIsomorphicGit } from './isomorphic-git.js';

/**
 * Bytes of a commit object read at most. Its tree, parents, author and committer come first; the message, which a
 * pasted log can make megabytes long, is cut here instead of inflated whole (30 commits of 50 MB messages ran
 * `checker ai` out of heap).
 */
export const COMMIT_HEAD_BYTES = 64 * 1024;

export interface CommitSignature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

/** What checker reads of a commit: its place in the graph, its author and committer, and its message or the start of it. */
export interface CommitHead {
  tree: string;
  parents: string[];
  author: CommitSignature;
  committer: CommitSignature;
  /** As isomorphic-git gives it (no carriage returns, one final newline); only its start when `isCut`. */
  message: string;
  /** The commit is larger than COMMIT_HEAD_BYTES: only its start was read, and the message is cut. */
  isCut: boolean;
}

/** A commit whose headers run past COMMIT_HEAD_BYTES, or whose start cannot be read within bounds (readObjectHead). */
export function isOversizedCommitError(error: unknown): error is CheckerError {
  return error instanceof CheckerError && error.code === 'git/oversized-commit';
}

/** `git/oversized-commit` for `oid`. */
export function buildOversizedCommitError(oid: string): CheckerError {
  return new CheckerError(
    'git/oversized-commit',
    `commit ${oid.slice(0, 12)} cannot be read within ${COMMIT_HEAD_BYTES / 1024} KiB: its headers run past that, or its pack delta chain is too long to follow`,
    { hint: 'git never writes such a commit for ordinary use; the repository may be hostile or damaged.' },
  );
}

const SIGNATURE = /^(.*) <(.*)> (.*) (.*)$/;

function parseSignature(value: string | undefined): CommitSignature | undefined {
  const match = value === undefined ? null : SIGNATURE.exec(value);
  if (match === null) return undefined;
  return { name: match[1] ?? '', email: match[2] ?? '', timestamp: Number(match[3]) };
}

/** isomorphic-git's normalizeNewlines; a cut message keeps its end as read. */
function normalizeMessage(message: string, isCut: boolean): string {
  const text = message.replace(/\r/g, '').replace(/^\n+/, '');
  return isCut ? text : `${text.replace(/\n+$/, '')}\n`;
}

/**
 * The commit read from its start, as isomorphic-git's GitCommit parses it: `tree` first, the `parent` lines right after
 * it, the first of any other header, continuation lines folded. Undefined when a header checker needs is missing,
 * malformed, or cut.
 */
function parseCommitHead(head: GitObjectHead): CommitHead | undefined {
  const isCut = head.bytes.length < head.size;
  // A cut commit may end inside a character: the decoder keeps an incomplete one back instead of inventing U+FFFD.
  const text = isCut ? new StringDecoder('utf8').write(head.bytes) : head.bytes.toString('utf8');
  const blank = text.indexOf('\n\n');
  if (blank === -1 && !isCut) return undefined;
  const folded: string[] = [];
  for (const line of text.slice(0, blank === -1 ? text.lastIndexOf('\n') : blank).split('\n')) {
    if (line.startsWith(' ') && folded.length > 0) folded[folded.length - 1] += `\n${line.slice(1)}`;
    else folded.push(line);
  }
  // Cut inside the headers: the last one read may go on past the cut.
  if (blank === -1) folded.pop();
  const keyOf = (line: string): string => line.slice(0, line.indexOf(' '));
  const valueAfterKey = (line: string): string => line.slice(line.indexOf(' ') + 1);
  const [first = ''] = folded;
  if (keyOf(first) !== 'tree') return undefined;
  const parents: string[] = [];
  let index = 1;
  for (; index < folded.length && keyOf(folded[index] ?? '') === 'parent'; index += 1) parents.push(valueAfterKey(folded[index] ?? ''));
  const headers = new Map<string, string>();
  for (const line of folded.slice(index)) if (!headers.has(keyOf(line))) headers.set(keyOf(line), valueAfterKey(line));
  const author = parseSignature(headers.get('author'));
  const committer = parseSignature(headers.get('committer'));
  if (author === undefined || committer === undefined) return undefined;
  const message = blank === -1 ? '' : normalizeMessage(text.slice(blank + 2), isCut);
  return { tree: valueAfterKey(first), parents, author, committer, message, isCut };
}

/**
 * A commit, inflating at most COMMIT_HEAD_BYTES of it. What the object reader cannot find (or finds damaged but small)
 * is read by isomorphic-git as before, so a missing object still throws its NotFoundError; a commit that cannot be read
 * within the bound throws `git/oversized-commit`, and an object of another type isomorphic-git's ObjectTypeError.
 */
export async function readCommitHead(repo: GitRepository, oid: string): Promise<CommitHead> {
  // The direct read's start is enough when it holds the headers, though a delta cut it before the bound.
  const head = await readObjectHead(
    getObjectReader(repo),
    oid,
    COMMIT_HEAD_BYTES,
    (start) => start.type !== 'commit' || parseCommitHead(start) !== undefined,
  );
  if (head === 'oversized') throw buildOversizedCommitError(oid);
  if (head !== undefined) {
    if (head.type !== 'commit') throw new (await loadIsomorphicGit()).Errors.ObjectTypeError(oid, head.type, 'commit');
    const parsed = parseCommitHead(head);
    if (parsed !== undefined) return parsed;
    if (head.bytes.length < head.size) throw buildOversizedCommitError(oid);
  }
  const { commit } = await (await loadIsomorphicGit()).readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache });
  const toSignature = ({ name, email, timestamp }: CommitSignature): CommitSignature => ({ name, email, timestamp });
  return {
    tree: commit.tree,
    parents: [...commit.parent],
    author: toSignature(commit.author),
    committer: toSignature(commit.committer),
    message: commit.message,
    isCut: false,
  };
}

/**
 * The best common ancestors of `oids`, as isomorphic-git's findMergeBase finds them (`git merge-base --all --octopus`),
 * with each commit read within COMMIT_HEAD_BYTES: walkers from every oid meet at common commits, and a common commit
 * that is an ancestor of another is dropped.
 */
export async function findMergeBases(repo: GitRepository, oids: readonly string[]): Promise<string[]> {
  const shallow = await readShallowOids(repo);
  const parentsOf = new Map<string, string[]>();
  const readParents = async (oid: string): Promise<string[]> => {
    const known = parentsOf.get(oid);
    if (known !== undefined) return known;
    const { parents: read } = await readCommitHead(repo, oid);
    const parents = shallow.has(oid) ? [] : read;
    parentsOf.set(oid, parents);
    return parents;
  };
  const visits = new Map<string, Set<number>>();
  const common = new Set<string>();
  let heads = oids.map((oid, index) => ({ oid, index }));
  while (heads.length > 0) {
    for (const { oid, index } of heads) {
      await readParents(oid);
      const seen = visits.get(oid) ?? new Set<number>();
      visits.set(oid, seen);
      seen.add(index);
      if (seen.size === oids.length) common.add(oid);
    }
    const next = new Map<string, { oid: string; index: number }>();
    for (const { oid, index } of heads) {
      if (common.has(oid)) continue;
      for (const parent of await readParents(oid)) {
        if (visits.get(parent)?.has(index) !== true) next.set(`${parent}:${index}`, { oid: parent, index });
      }
    }
    heads = [...next.values()];
  }
  if (common.size < 2) return [...common];
  const redundant = new Set<string>();
  for (const oid of common) {
    const ancestors = [...(await readParents(oid))];
    const seen = new Set<string>();
    while (ancestors.length > 0) {
      const ancestor = ancestors.pop();
      if (ancestor === undefined || seen.has(ancestor)) continue;
      seen.add(ancestor);
      if (common.has(ancestor)) redundant.add(ancestor);
      else ancestors.push(...(await readParents(ancestor)));
    }
  }
  return [...common].filter((oid) => !redundant.has(oid));
}
