import type git from 'isomorphic-git';
import { CheckerError } from '../model/diagnostic.js';
import type { RevisionInfo } from '../model/change.js';
import { borrowsObjects, readShallowOids } from './git-repository.js';
import { buildOversizedCommitError, COMMIT_HEAD_BYTES, findMergeBases, readCommitHead } from './git-commit.js';
import { readObjectHead } from './git-object-head.js';
import { getObjectReader, parseObjectHeaders } from './git-objects.js';
import { hasErrorCode } from './has-error-code.js';
import { loadIsomorphicGit } from './isomorphic-git.js';
import { readSymbolicRef, resolveRefOid } from './git-refs.js';
import type { GitRepository } from './git-repository.js';
import { countOf } from '../text/plural.js';

export interface ResolvedRevision extends RevisionInfo {
  oid: string;
}

export interface DefaultBase extends ResolvedRevision {
  /** The default branch the merge-base was taken with, when one was found. */
  defaultBranch?: string;
}

interface RevisionStep {
  kind: '~' | '^';
  count: number;
}

const SHALLOW_HINT = 'The clone is shallow; fetch more history with `git fetch --deepen=<n>` or `git fetch --unshallow`.';
const MAX_REF_LENGTH = 512;

/** Resolves `HEAD`, `HEAD~N`, `HEAD^N`, branches, remote-tracking branches, tags and (short) SHAs to a commit oid. */
export async function resolveRevision(repo: GitRepository, ref: string): Promise<ResolvedRevision> {
  const { name, steps } = parseRevision(ref);
  const start = await resolveName(repo, ref, name);
  let oid = await peelToCommit(repo, ref, start);
  for (const step of steps) {
    if (step.kind === '^') {
      if (step.count > 0) oid = await readParent(repo, ref, oid, step.count - 1);
      continue;
    }
    for (let index = 0; index < step.count; index += 1) oid = await readParent(repo, ref, oid, 0);
  }
  return { ref, oid };
}

/** Rejects option-like, control-character and path-trick refs before git is touched; splits `~N`/`^N` suffixes. */
export function parseRevision(ref: string): { name: string; steps: RevisionStep[] } {
  const invalid = (reason: string): CheckerError =>
    new CheckerError('git/ref-invalid', `invalid revision ${JSON.stringify(ref)}: ${reason}`, {
      hint: 'Pass a branch, tag, commit SHA or HEAD~N (for example --base main or --base HEAD~1).',
    });
  if (ref.length === 0) throw invalid('it is empty');
  if (ref.length > MAX_REF_LENGTH) throw invalid('it is too long');
  if (ref.startsWith('-')) throw invalid('it starts with "-"');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes or refuses.
  if (/[\u0000-\u0020\u007f]/.test(ref)) throw invalid('it contains whitespace or control characters');
  if (ref.includes('..')) throw invalid('it contains ".."');
  if (/[\\:?*[\]{}]/.test(ref) || ref.includes('@{')) throw invalid('it contains a character git does not allow in ref names');
  const suffix = /(?:[~^]\d*)+$/.exec(ref);
  const name = suffix === null ? ref : ref.slice(0, suffix.index);
  if (name.length === 0) throw invalid('it has no name before ~ or ^');
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.includes('//') || name.endsWith('.lock')) {
    throw invalid('it is not a well-formed ref name');
  }
  if (name.split('/').some((part) => part.startsWith('.'))) throw invalid('a path component starts with "."');
  const steps: RevisionStep[] = [];
  for (const match of (suffix?.[0] ?? '').matchAll(/([~^])(\d*)/g)) {
    const kind = match[1] === '~' ? '~' : '^';
    const digits = match[2] ?? '';
    const count = digits === '' ? 1 : Number(digits);
    if (!Number.isSafeInteger(count) || count > 100_000) throw invalid('the ancestry number is too large');
    steps.push({ kind, count });
  }
  return { name, steps };
}

function buildRefCandidates(name: string): string[] {
  if (name === 'HEAD' || name === 'ORIG_HEAD' || name === 'FETCH_HEAD' || name === 'MERGE_HEAD') return [name];
  if (name.startsWith('refs/')) return [name];
  return [`refs/tags/${name}`, `refs/heads/${name}`, `refs/remotes/${name}`, `refs/remotes/${name}/HEAD`];
}

async function resolveName(repo: GitRepository, ref: string, name: string): Promise<string> {
  const { fs, gitdir, cache } = repo;
  if (/^[0-9a-f]{40}$/i.test(name)) {
    const oid = name.toLowerCase();
    // Our reader looks in the pack indexes and loose objects; isomorphic-git (which loads every pack index whole) is
    // asked only when it finds nothing, for what it cannot see (alternates).
    const exists =
      getObjectReader(repo).has(oid) ||
      (await (await loadIsomorphicGit()).expandOid({ fs, gitdir, oid, cache }).then(
        () => true,
        () => false,
      ));
    if (exists) return oid;
    throw await buildNotFoundError(repo, ref, true);
  }
  for (const candidate of buildRefCandidates(name)) {
    const oid = await resolveRefOid(repo, candidate).catch((error: unknown) => {
      throw toStateError(repo, ref, error);
    });
    if (oid !== undefined) return oid;
  }
  if (/^[0-9a-f]{4,39}$/i.test(name)) {
    try {
      return await (await loadIsomorphicGit()).expandOid({ fs, gitdir, oid: name.toLowerCase(), cache });
    } catch (error) {
      if (hasErrorCode(error, 'AmbiguousError')) {
        throw new CheckerError('git/ref-ambiguous', `short SHA ${name} is ambiguous: more than one object starts with it`, {
          hint: 'Pass more characters of the commit SHA.',
        });
      }
      if (!hasErrorCode(error, 'NotFoundError')) throw toStateError(repo, ref, error);
    }
  }
  throw await buildNotFoundError(repo, ref, false);
}

async function buildNotFoundError(repo: GitRepository, ref: string, isFullSha: boolean): Promise<CheckerError> {
  const hasHead = await resolveRefOid(repo, 'HEAD').then(
    (oid) => oid !== undefined,
    () => false,
  );
  if (!hasHead) {
    return new CheckerError('git/no-commits', `cannot resolve ${ref}: the repository has no commits yet`, {
      hint: 'Commit something first; diff-based analyses need at least one commit.',
    });
  }
  const shallow = (await readShallowOids(repo)).size > 0;
  if (shallow && isFullSha) {
    return new CheckerError('git/shallow-missing', `base revision not available: ${ref} is not in this shallow clone`, {
      hint: SHALLOW_HINT,
    });
  }
  // A clone made with `--shared` or `--reference` keeps only what it added itself and borrows the rest from another
  // repository's objects (objects/info/alternates), which checker does not read: say so, not "check the name".
  if (await borrowsObjects(repo)) {
    return new CheckerError(
      'git/ref-not-found',
      `revision ${ref} was not found among this clone's own objects: it borrows the others from another repository (objects/info/alternates), which checker does not read`,
      {
        hint: 'Copy the borrowed objects in with `git repack -a -d` (then delete objects/info/alternates), or clone without --shared or --reference.',
      },
    );
  }
  return new CheckerError('git/ref-not-found', `revision ${ref} was not found in the repository`, {
    hint: shallow
      ? `Check the branch, tag or SHA name. ${SHALLOW_HINT}`
      : 'Check the branch, tag or SHA name (`git branch -a`, `git tag`); fetch the branch if it exists only on a remote.',
  });
}

function toStateError(repo: GitRepository, ref: string, error: unknown): CheckerError {
  const reason = error instanceof Error ? error.message : String(error);
  return new CheckerError('git/state-invalid', `cannot read ${ref} from ${repo.gitdir}: ${reason}`, {
    hint: 'The repository looks damaged; run `git fsck` or re-clone it.',
    location: { file: repo.gitdir },
    cause: error,
  });
}

async function peelToCommit(repo: GitRepository, ref: string, start: string): Promise<string> {
  let oid = start;
  for (let depth = 0; depth < 32; depth += 1) {
    // The start of the object is enough: a commit's or tag's message can run to megabytes.
    const head = await readObjectHead(
      getObjectReader(repo),
      oid,
      COMMIT_HEAD_BYTES,
      (start) => start.type !== 'tag' || parseObjectHeaders(start.bytes).has('object'),
    );
    if (head === 'oversized') throw buildOversizedCommitError(oid);
    if (head?.type === 'commit') return oid;
    const tagged = head?.type === 'tag' ? parseObjectHeaders(head.bytes).get('object')?.[0] : undefined;
    if (tagged !== undefined) {
      oid = tagged;
      continue;
    }
    if (head !== undefined) break;
    const object = await readObjectOrThrow(repo, ref, oid);
    if (object.type === 'commit') return oid;
    if (object.type !== 'tag' || object.format !== 'parsed') break;
    oid = object.object.object;
  }
  throw new CheckerError('git/ref-not-commit', `revision ${ref} does not name a commit`, {
    hint: 'Pass a branch, a tag of a commit, or a commit SHA.',
  });
}

/** Runs a git object read; a missing object in a shallow clone becomes `git/shallow-missing`, anything else a state error. */
async function readNamingShallow<T>(repo: GitRepository, ref: string, oid: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof CheckerError) throw error;
    if (hasErrorCode(error, 'NotFoundError') && (await readShallowOids(repo)).size > 0) {
      throw new CheckerError(
        'git/shallow-missing',
        `base revision not available: the clone is shallow and ${ref} needs ${oid.slice(0, 12)}`,
        {
          hint: SHALLOW_HINT,
        },
      );
    }
    throw toStateError(repo, ref, error);
  }
}

function readObjectOrThrow(repo: GitRepository, ref: string, oid: string): Promise<Awaited<ReturnType<typeof git.readObject>>> {
  return readNamingShallow(repo, ref, oid, async () =>
    (await loadIsomorphicGit()).readObject({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache }),
  );
}

/** A commit's parents; a missing object in a shallow clone becomes `git/shallow-missing`. */
async function readCommitParents(repo: GitRepository, oid: string, ref = oid): Promise<string[]> {
  return (await readNamingShallow(repo, ref, oid, () => readCommitHead(repo, oid))).parents;
}

async function readParent(repo: GitRepository, ref: string, oid: string, index: number): Promise<string> {
  const parents = await readCommitParents(repo, oid, ref);
  const shallow = await readShallowOids(repo);
  if (shallow.has(oid)) {
    throw new CheckerError(
      'git/shallow-missing',
      `base revision not available: the clone is shallow and ${ref} goes past its oldest commit ${oid.slice(0, 12)}`,
      {
        hint: SHALLOW_HINT,
      },
    );
  }
  const parent = parents[index];
  if (parent === undefined) {
    const what = parents.length === 0 ? 'has no parent (it is the first commit)' : `has only ${countOf(parents.length, 'parent')}`;
    throw new CheckerError('git/ref-not-found', `revision ${ref} was not found: commit ${oid.slice(0, 12)} ${what}`, {
      hint: 'Use a smaller ancestry number or name the base commit directly.',
    });
  }
  await readCommitParents(repo, parent, ref);
  return parent;
}

const DEFAULT_BRANCH_CANDIDATES = ['main', 'master', 'trunk', 'develop'];

/** The merge-base with the default branch when HEAD is on another branch; otherwise HEAD itself. */
export async function defaultBase(repo: GitRepository, preferredBranch?: string): Promise<DefaultBase> {
  const head = await resolveRevision(repo, 'HEAD');
  const branch = await readSymbolicRef(repo, 'HEAD').catch(() => undefined);
  if (typeof branch !== 'string') return head;
  const target = preferredBranch === undefined ? await findDefaultBranch(repo) : await findConfiguredBranch(repo, preferredBranch);
  if (target === undefined) return head;
  const shortName = target.replace(/^refs\/(heads|remotes\/[^/]+)\//, '');
  if (branch === target || branch === `refs/heads/${shortName}`) return { ...head, defaultBranch: target };
  const targetOid = await resolveRevision(repo, target);
  const bases = await findMergeBases(repo, [head.oid, targetOid.oid]);
  const oid = [...bases].sort()[0];
  if (oid === undefined) return { ...head, defaultBranch: target };
  return { ref: `merge-base(HEAD, ${target.replace(/^refs\/(heads|remotes)\//, '')})`, oid, defaultBranch: target };
}

/** `analysis.defaultBranch` from config: it must name a local or origin branch, or the run stops with a clear error. */
async function findConfiguredBranch(repo: GitRepository, name: string): Promise<string> {
  for (const ref of [`refs/heads/${name}`, `refs/remotes/origin/${name}`]) {
    const exists = await resolveRefOid(repo, ref).then(
      (oid) => oid !== undefined,
      () => false,
    );
    if (exists) return ref;
  }
  throw new CheckerError('config/default-branch-not-found', `analysis.defaultBranch "${name}" names no local or origin branch`, {
    hint: 'Fix analysis.defaultBranch in the checker config, or pass --base <ref> explicitly.',
  });
}

async function findDefaultBranch(repo: GitRepository): Promise<string | undefined> {
  const remoteHead = await readSymbolicRef(repo, 'refs/remotes/origin/HEAD').catch(() => undefined);
  if (remoteHead !== undefined) {
    const exists = await resolveRefOid(repo, remoteHead).then(
      (oid) => oid !== undefined,
      () => false,
    );
    if (exists) return remoteHead;
  }
  for (const name of DEFAULT_BRANCH_CANDIDATES) {
    for (const ref of [`refs/heads/${name}`, `refs/remotes/origin/${name}`]) {
      const exists = await resolveRefOid(repo, ref).then(
        (oid) => oid !== undefined,
        () => false,
      );
      if (exists) return ref;
    }
  }
  return undefined;
}
