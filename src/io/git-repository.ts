import { promises as fsp } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { PromiseFsClient } from 'isomorphic-git';
import { CheckerError } from '../model/diagnostic.js';
import { readGuarded } from './guarded-read.js';

/** An opened repository: its work-tree root, git directories and one shared isomorphic-git object cache. */
export interface GitRepository {
  /** Absolute, real path of the working tree root (the folder that holds `.git`). */
  root: string;
  /** The repository's git directory (for a linked worktree: `.git/worktrees/<name>`). */
  gitdir: string;
  /** Where objects, refs and config live (differs from `gitdir` for linked worktrees). */
  commonDir: string;
  /** Shared isomorphic-git cache: packfiles are loaded once per repository. */
  cache: object;
  /** Read-only file system client given to isomorphic-git; it maps linked-worktree paths onto `commonDir`. */
  fs: PromiseFsClient;
}

/** Per-worktree files; everything else under the gitdir lives in the common dir (gitrepository-layout). */
/** A `.git` file or `commondir` holds one path. */
const MAX_POINTER_BYTES = 64 * 1024;
/** Pack files are read whole by isomorphic-git; above this a repository is refused rather than exhausting memory. */
const MAX_GIT_FILE_BYTES = 2 * 1024 * 1024 * 1024;
const PER_WORKTREE = new Set(['HEAD', 'index', 'ORIG_HEAD', 'FETCH_HEAD', 'MERGE_HEAD', 'CHERRY_PICK_HEAD', 'logs/HEAD']);

/** Opens the repository whose root is exactly `cwd`; never widens to a parent repository. */
export async function openRepository(cwd: string): Promise<GitRepository> {
  const root = await toRealDirectory(cwd);
  const dotGit = join(root, '.git');
  const stats = await fsp.stat(dotGit).catch(() => undefined);
  if (stats === undefined) throw await buildNotRepositoryError(root);
  let gitdir: string;
  if (stats.isDirectory()) {
    gitdir = dotGit;
  } else if (stats.isFile()) {
    gitdir = await readGitdirPointer(dotGit, root);
  } else {
    throw new CheckerError('git/state-invalid', `${dotGit} is neither a directory nor a gitdir file`, {
      hint: 'Repair the repository or run checker from a regular clone.',
      location: { file: dotGit },
    });
  }
  const commonDir = await readCommonDir(gitdir);
  await assertGitDirectory(gitdir, commonDir);
  return { root, gitdir, commonDir, cache: {}, fs: createReadOnlyFs(gitdir, commonDir) };
}

async function toRealDirectory(cwd: string): Promise<string> {
  const absolute = resolve(cwd);
  const real = await fsp.realpath(absolute).catch(() => undefined);
  const stats = real === undefined ? undefined : await fsp.stat(real).catch(() => undefined);
  if (real === undefined || stats === undefined || !stats.isDirectory()) {
    throw new CheckerError('git/not-a-repository', `${absolute} does not exist or is not a directory`, {
      hint: 'Pass --cwd with the root folder of a git repository.',
      location: { file: absolute },
    });
  }
  return real;
}

async function buildNotRepositoryError(root: string): Promise<CheckerError> {
  const parent = await findEnclosingRepository(dirname(root));
  if (parent !== undefined && parent !== root) {
    return new CheckerError(
      'git/not-a-repository',
      `${root} is not the root of a git repository; it is inside the repository at ${parent}`,
      {
        hint: `Run checker from the repository root (--cwd ${parent}); diff-based analyses are unavailable for a sub-folder.`,
        location: { file: root },
      },
    );
  }
  return new CheckerError('git/not-a-repository', `${root} is not a git repository (no .git found)`, {
    hint: 'Run checker from the root of a git repository, or run `git init` there; diff-based analyses are unavailable without one.',
    location: { file: root },
  });
}

async function findEnclosingRepository(start: string): Promise<string | undefined> {
  let current = start;
  for (;;) {
    const found = await fsp.lstat(join(current, '.git')).then(
      () => true,
      () => false,
    );
    if (found) return current;
    const up = dirname(current);
    if (up === current) return undefined;
    current = up;
  }
}

async function readGitdirPointer(dotGit: string, root: string): Promise<string> {
  const text = (await readGitText(dotGit, MAX_POINTER_BYTES)) ?? '';
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  const target = match?.[1];
  if (target === undefined) {
    throw new CheckerError('git/state-invalid', `${dotGit} is a file without a "gitdir:" line`, {
      hint: 'A .git file must point to the git directory of a worktree or submodule; repair or re-clone it.',
      location: { file: dotGit },
    });
  }
  const gitdir = isAbsolute(target) ? target : resolve(root, target);
  const stats = await fsp.stat(gitdir).catch(() => undefined);
  if (stats === undefined || !stats.isDirectory()) {
    throw new CheckerError('git/state-invalid', `${dotGit} points to ${gitdir}, which does not exist`, {
      hint: 'The worktree or submodule git directory is missing; run `git worktree prune` / `git submodule update --init`, or re-clone.',
      location: { file: dotGit },
    });
  }
  return fsp.realpath(gitdir);
}

async function readCommonDir(gitdir: string): Promise<string> {
  const text = await readGitText(join(gitdir, 'commondir'), MAX_POINTER_BYTES);
  if (text === undefined || text.trim() === '') return gitdir;
  const target = text.trim();
  const commonDir = isAbsolute(target) ? target : resolve(gitdir, target);
  return fsp.realpath(commonDir).catch(() => commonDir);
}

async function assertGitDirectory(gitdir: string, commonDir: string): Promise<void> {
  const head = await fsp.stat(join(gitdir, 'HEAD')).catch(() => undefined);
  const objects = await fsp.stat(join(commonDir, 'objects')).catch(() => undefined);
  if (head === undefined || objects === undefined || !objects.isDirectory()) {
    throw new CheckerError('git/state-invalid', `${gitdir} is not a valid git directory (missing HEAD or objects)`, {
      hint: 'Repair the repository or re-clone it.',
      location: { file: gitdir },
    });
  }
}

function mapPath(path: string, gitdir: string, commonDir: string): string {
  if (gitdir === commonDir || typeof path !== 'string') return path;
  const prefix = gitdir + sep;
  if (!path.startsWith(prefix)) return path;
  const inner = path.slice(prefix.length);
  if (PER_WORKTREE.has(inner) || inner.startsWith('refs/worktree/') || inner.startsWith('refs/bisect/')) return path;
  return join(commonDir, inner);
}

/**
 * A file inside the git directory. Links are followed (alternates and some tools use them), but a FIFO, a device or a
 * socket is refused on the open descriptor, so a hostile `.git` cannot block or flood a read.
 */
async function readGitFile(path: string, maxBytes = MAX_GIT_FILE_BYTES): Promise<Buffer> {
  const read = await readGuarded(path, { maxBytes, followSymlinks: true });
  if (read.ok) return read.bytes;
  const code = read.reason === 'missing' ? 'ENOENT' : 'EINVAL';
  throw Object.assign(new Error(`${path} ${read.detail}`), { code });
}

async function readGitText(path: string, maxBytes: number): Promise<string | undefined> {
  return readGitFile(path, maxBytes).then(
    (bytes) => bytes.toString('utf8'),
    () => undefined,
  );
}

function refuseWrite(): Promise<never> {
  return Promise.reject(Object.assign(new Error('checker reads repositories only'), { code: 'EROFS' }));
}

/** The product never writes into a repository: every mutating call fails with EROFS. */
function createReadOnlyFs(gitdir: string, commonDir: string): PromiseFsClient {
  const map = (path: string): string => mapPath(path, gitdir, commonDir);
  return {
    promises: {
      readFile: async (path: string, options?: BufferEncoding | { encoding?: BufferEncoding | null }) => {
        // isomorphic-git probes every fs it wraps (twice per API call) with readFile() and no path: answer without I/O.
        if (typeof path !== 'string') throw Object.assign(new TypeError('readFile needs a path'), { code: 'ERR_INVALID_ARG_TYPE' });
        const encoding = typeof options === 'string' ? options : options?.encoding;
        const bytes = await readGitFile(map(path));
        return encoding ? bytes.toString(encoding) : bytes;
      },
      readdir: async (path: string) => fsp.readdir(map(path)),
      stat: async (path: string) => fsp.stat(map(path)),
      lstat: async (path: string) => fsp.lstat(map(path)),
      readlink: async (path: string) => fsp.readlink(map(path)),
      writeFile: refuseWrite,
      unlink: refuseWrite,
      mkdir: refuseWrite,
      rmdir: refuseWrite,
      symlink: refuseWrite,
      chmod: refuseWrite,
    },
  };
}

/** True when isomorphic-git (or node) failed with the given error code. */
/** Oids listed in the repository's `shallow` file (empty for a complete clone). */
export async function readShallowOids(repo: GitRepository): Promise<Set<string>> {
  const text = (await readGitText(join(repo.commonDir, 'shallow'), MAX_GIT_FILE_BYTES)) ?? '';
  return new Set(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^[0-9a-f]{40}$/.test(line)),
  );
}
