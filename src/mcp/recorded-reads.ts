import { createHash } from 'node:crypto';
import type { Env, GitAccess } from '../model/env.js';
import type { RepoFiles } from '../model/repo-files.js';

/**
 * One question an analysis asked the outside world through its Env, and a digest of the answer. Asking it again and
 * getting the same digest means that input has not changed. Questions whose answer cannot change (a file at a commit
 * oid, a commit's time, the history behind an oid) are not recorded.
 */
interface RecordedRead {
  ask(): Promise<unknown>;
  digest: string;
}

/** Every changeable input an analysis read, once per distinct question; `isCurrent` asks them all again. */
export interface ReadLog {
  readonly reads: ReadonlyMap<string, RecordedRead>;
  /** True when every recorded question gets the answer it got before. */
  isCurrent(): Promise<boolean>;
}

function digestOf(value: unknown): string {
  return createHash('sha1')
    .update(JSON.stringify(value) ?? 'undefined')
    .digest('hex');
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
 * (the warm graph's stat fingerprint), so the git change is checked by its stamp (revisions and index) instead of being
 * read again.
 */
export function recordReads(env: Env, options: { filesUnchanged?: boolean } = {}): { env: Env; log: ReadLog } {
  const reads = new Map<string, RecordedRead>();
  const remember = (key: unknown[], ask: () => Promise<unknown>, answer: unknown): void => {
    // The first answer is the one the analysis went on with; a question asked twice is checked once.
    const id = JSON.stringify(key);
    if (!reads.has(id)) reads.set(id, { ask, digest: digestOf(answer) });
  };
  const record = async <T>(key: unknown[], ask: () => Promise<T>): Promise<T> => {
    const answer = await ask();
    remember(key, ask, answer);
    return answer;
  };
  const files: RepoFiles = {
    readText: (path, options) => record(['readText', path, options], () => env.files.readText(path, options)),
    list: (path) => record(['list', path], () => env.files.list(path)),
    stat: (path) => record(['stat', path], () => env.files.stat(path)),
    toRepoPath: (absolutePath) => record(['toRepoPath', absolutePath], () => env.files.toRepoPath(absolutePath)),
    existsOnHost: (absolutePath) => record(['existsOnHost', absolutePath], () => env.files.existsOnHost(absolutePath)),
  };
  let git: Promise<GitAccess> | undefined;
  const openGit = (): Promise<GitAccess> => {
    git ??= env.openGit().then((real): GitAccess => {
      const headOid = (): Promise<string | undefined> => record(['headOid'], () => real.headOid());
      return {
        readChange: async (range) => {
          const readStamp = real.readChangeStamp?.bind(real);
          if (readStamp === undefined || options.filesUnchanged !== true)
            return record(['readChange', range], () => real.readChange(range));
          // Stamped before the change is read: a state that moves in between makes the next check fail, never pass.
          const stamp = (): Promise<unknown> => readStamp(range);
          remember(['readChangeStamp', range], stamp, await stamp());
          return real.readChange(range);
        },
        readFileAtRevision: (oid, path) => real.readFileAtRevision(oid, path),
        // The log is HEAD's: the same HEAD, the same log.
        readHistory: async (options) => {
          await headOid();
          return real.readHistory(options);
        },
        mineHistory: (fromOid, settings) => real.mineHistory(fromOid, settings),
        headOid,
        listTrackedFiles: () => record(['listTrackedFiles'], () => real.listTrackedFiles()),
        commitTime: (oid) => real.commitTime(oid),
      };
    });
    return git;
  };
  const readArtifact = (relativePath: string): Promise<string | undefined> =>
    CACHE_ARTIFACT.test(relativePath)
      ? env.readArtifact(relativePath)
      : record(['readArtifact', relativePath], () => env.readArtifact(relativePath));
  const log: ReadLog = {
    reads,
    async isCurrent() {
      for (const read of reads.values()) if (digestOf(await read.ask()) !== read.digest) return false;
      return true;
    },
  };
  return { env: { ...env, files, openGit, readArtifact }, log };
}
