import { createHash } from 'node:crypto';
import type { Env, GitAccess, RevisionRange } from '../model/env.js';
import type { ReadTextOptions, RepoFiles } from '../model/repo-files.js';

/**
 * One question an analysis asked the outside world through its Env. Questions whose answer cannot change (a file at a
 * commit oid, a commit's time, the history behind an oid) are not recorded.
 */
export type Question =
  | ['readText', string, ReadTextOptions]
  | ['list', string]
  | ['stat', string]
  | ['toRepoPath', string]
  | ['existsOnHost', string]
  | ['readArtifact', string]
  | ['headOid']
  | ['listTrackedFiles']
  | ['readChange', RevisionRange]
  | ['resolveBase', RevisionRange]
  | ['readChangeStamp', RevisionRange];

/** A question and a digest of the answer the analysis went on with: plain data, so it can be kept on disk too. */
export type RecordedRead = [question: Question, digest: string];

/** Every changeable input an analysis read, once per distinct question, in the order first asked. */
export interface ReadLog {
  readonly reads: ReadonlyMap<string, RecordedRead>;
  /** True when every recorded question gets the answer it got before; a question that now fails makes it false (it never throws). */
  isCurrent(): Promise<boolean>;
}

function digestOf(value: unknown): string {
  return createHash('sha1')
    .update(JSON.stringify(value) ?? 'undefined')
    .digest('hex');
}

/** Asks one recorded question again, of the files and git the Env reaches now. */
async function ask(env: Env, git: () => Promise<GitAccess>, question: Question): Promise<unknown> {
  switch (question[0]) {
    case 'readText':
      return env.files.readText(question[1], question[2]);
    case 'list':
      return env.files.list(question[1]);
    case 'stat':
      return env.files.stat(question[1]);
    case 'toRepoPath':
      return env.files.toRepoPath(question[1]);
    case 'existsOnHost':
      return env.files.existsOnHost(question[1]);
    case 'readArtifact':
      return env.readArtifact(question[1]);
    case 'headOid':
      return (await git()).headOid();
    case 'listTrackedFiles':
      return (await git()).listTrackedFiles();
    case 'resolveBase':
      return (await git()).resolveBase(question[1]);
    case 'readChange':
      return (await git()).readChange(question[1]);
    case 'readChangeStamp': {
      const access = await git();
      if (access.readChangeStamp === undefined) throw new Error('internal: a change stamp was recorded where git has none');
      return access.readChangeStamp(question[1]);
    }
  }
}

/**
 * True when every question of `reads` gets the answer it got when recorded. A question that now fails (a file gone
 * unreadable, a ref deleted) means the inputs changed.
 */
export async function areReadsCurrent(env: Env, reads: Iterable<RecordedRead>): Promise<boolean> {
  let git: Promise<GitAccess> | undefined;
  const openGit = (): Promise<GitAccess> => {
    git ??= env.openGit();
    return git;
  };
  try {
    for (const [question, digest] of reads) if (digestOf(await ask(env, openGit, question)) !== digest) return false;
    return true;
  } catch {
    return false;
  }
}

/** Caches under `.checker/local/cache/` hold what is derived from git objects and file texts: their content is not an input. */
const CACHE_ARTIFACT = /^cache\//;

/**
 * An Env that answers like `env` and records what it was asked: the working tree (`files`), non-cache artifacts, and
 * git's answers that depend on HEAD, the index or the working tree. App code reaches the outside world only through the
 * Env (design: core modules do no I/O), so an analysis whose every recorded question gets the same answer, over the
 * same repository graph, is the same analysis. The clock is not an input of an analysis.
 *
 * `filesUnchanged`: the caller checks by itself that the working tree's files are unchanged when it asks the log again
 * (a stat fingerprint of every scanned file), so the git change is checked by its stamp (revisions and index) instead
 * of being read again.
 */
export function recordReads(env: Env, options: { filesUnchanged?: boolean } = {}): { env: Env; log: ReadLog } {
  const reads = new Map<string, RecordedRead>();
  const remember = (question: Question, answer: unknown): void => {
    // The first answer is the one the analysis went on with; a question asked twice is checked once.
    const id = JSON.stringify(question);
    if (!reads.has(id)) reads.set(id, [question, digestOf(answer)]);
  };
  const record = async <T>(question: Question, answer: Promise<T>): Promise<T> => {
    const value = await answer;
    remember(question, value);
    return value;
  };
  const files: RepoFiles = {
    readText: (path, readOptions) => record(['readText', path, readOptions], env.files.readText(path, readOptions)),
    list: (path) => record(['list', path], env.files.list(path)),
    stat: (path) => record(['stat', path], env.files.stat(path)),
    toRepoPath: (absolutePath) => record(['toRepoPath', absolutePath], env.files.toRepoPath(absolutePath)),
    existsOnHost: (absolutePath) => record(['existsOnHost', absolutePath], env.files.existsOnHost(absolutePath)),
  };
  let git: Promise<GitAccess> | undefined;
  const openGit = (): Promise<GitAccess> => {
    git ??= env.openGit().then((real): GitAccess => {
      const headOid = (): Promise<string | undefined> => record(['headOid'], real.headOid());
      return {
        readChange: async (range) => {
          if (real.readChangeStamp === undefined || options.filesUnchanged !== true)
            return record(['readChange', range], real.readChange(range));
          // Stamped before the change is read: a state that moves in between makes the next check fail, never pass.
          await record(['readChangeStamp', range], real.readChangeStamp(range));
          return real.readChange(range);
        },
        resolveBase: (range) => record(['resolveBase', range], real.resolveBase(range)),
        readFileAtRevision: (oid, path) => real.readFileAtRevision(oid, path),
        // The log is HEAD's: the same HEAD, the same log.
        readHistory: async (historyOptions) => {
          await headOid();
          return real.readHistory(historyOptions);
        },
        mineHistory: (fromOid, settings) => real.mineHistory(fromOid, settings),
        headOid,
        listTrackedFiles: () => record(['listTrackedFiles'], real.listTrackedFiles()),
        commitTime: (oid) => real.commitTime(oid),
      };
    });
    return git;
  };
  const readArtifact = (relativePath: string): Promise<string | undefined> =>
    CACHE_ARTIFACT.test(relativePath)
      ? env.readArtifact(relativePath)
      : record(['readArtifact', relativePath], env.readArtifact(relativePath));
  const log: ReadLog = {
    reads,
    isCurrent: () => areReadsCurrent(env, reads.values()),
  };
  return { env: { ...env, files, openGit, readArtifact }, log };
}
