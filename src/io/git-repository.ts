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
  await assertObjectFormat(commonDir, root);
  return { root, gitdir, commonDir, cache: {}, fs: createReadOnlyFs(gitdir, commonDir) };
}

/** A repository's config is a few KB; a larger one is read only this far for its `[extensions]` section. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The repository's object format: `sha1` unless its config sets `extensions.objectFormat` (gitrepository-layout;
 * `git init --object-format=sha256`). Only the repository's own config decides it, as git reads it.
 */
async function readObjectFormat(commonDir: string): Promise<string> {
  const text = (await readGitText(join(commonDir, 'config'), MAX_CONFIG_BYTES)) ?? '';
  let section = '';
  let format = 'sha1';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"[^"]*")?\s*\]/.exec(line);
    if (header !== null) {
      section = (header[1] ?? '').toLowerCase();
      continue;
    }
    if (section !== 'extensions') continue;
    const entry = /^objectformat\s*=\s*"?([^"#;\s]*)"?/i.exec(line);
    if (entry !== null) format = (entry[1] ?? '').toLowerCase();
  }
  return format;
}

/**
 * isomorphic-git, checker's only history reader, and its own index reader know SHA-1 objects only: a SHA-256
 * repository would otherwise read as "no commits yet" and its index as garbage names. Refused with what still works.
 */
async function assertObjectFormat(commonDir: string, root: string): Promise<void> {
  const format = await readObjectFormat(commonDir);
  if (format === 'sha1') return;
  const isNamed = /^[a-z0-9-]{1,16}$/.test(format);
  const what = isNamed ? `a ${format.toUpperCase().replace(/^SHA(?=\d)/, 'SHA-')}` : 'an unknown-format';
  throw new CheckerError(
    'git/unsupported-object-format',
    `${root} is ${what} repository (extensions.objectFormat = ${isNamed ? format : '?'}); checker's git reader supports SHA-1 repositories only`,
    {
      hint: 'Without its history, graph, preflight, context, rules and session start, context and checkpoint still work from the working tree (with no base revision); what reads a change, the history or the configuration at a base revision (analyze, impact, audit-tests, edge-cases, patterns, redteam, tools, ai and agent bundles, ci, execute, differential, product, session finish) needs a SHA-1 repository.',
      location: { file: join(commonDir, 'config') },
    },
  );
}

/** For readers that start from a git directory (the index reader): refuses a repository whose objects are not SHA-1. */
export async function assertSupportedObjectFormat(gitdir: string): Promise<void> {
  const commonDir = await readCommonDir(gitdir);
  await assertObjectFormat(commonDir, dirname(commonDir));
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
/**
 * Whether the clone borrows objects from another repository (`git clone --shared` or `--reference`:
 * objects/info/alternates names its object folders), which checker does not read.
 */
export async function borrowsObjects(repo: GitRepository): Promise<boolean> {
  const text = (await readGitText(join(repo.commonDir, 'objects', 'info', 'alternates'), MAX_POINTER_BYTES)) ?? '';
  return text.trim() !== '';
}

export async function readShallowOids(repo: GitRepository): Promise<Set<string>> {
  const text = (await readGitText(join(repo.commonDir, 'shallow'), MAX_GIT_FILE_BYTES)) ?? '';
  return new Set(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^[0-9a-f]{40}$/.test(line)),
  );
}
