import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import {
  dropCutCharacter,
  refuse,
  type FileKind,
  type FileRefusal,
  type FileStat,
  type FolderEntry,
  type FolderListing,
  type ReadTextOptions,
  type RepoFiles,
  type TextRead,
} from '../model/repo-files.js';
import { compareText } from '../text/compare-text.js';

/** One decoder per mode for the process: `decode()` without `stream` keeps no state between calls, a failed one included. */
const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const replacingDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** True when `target` is `root` or lies below it (compared with path.relative, never a bare prefix test). */
export function isPathInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  if (rel === '') return true;
  if (isAbsolute(rel)) return false;
  return rel !== '..' && !rel.startsWith(`..${sep}`);
}

// O_NOFOLLOW and O_NONBLOCK are absent on Windows, where FIFOs in a working tree do not exist.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// A FIFO swapped in after the lstat opens at once and is refused by the stat of the open descriptor.
const NONBLOCK = constants.O_NONBLOCK ?? 0;

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function toKind(info: Stats): FileKind {
  if (info.isFile()) return 'file';
  return info.isDirectory() ? 'directory' : 'other';
}

interface Resolved {
  ok: true;
  real: string;
  isSymlink: boolean;
}

/**
 * The disk side of `env.files` for one repository: paths must stay inside the repository lexically and by realpath,
 * a symlink may lead elsewhere inside it but never out, and reads open with O_NOFOLLOW | O_NONBLOCK and check the
 * open descriptor, so a FIFO, device or socket swapped in after the checks is refused instead of blocking.
 */
export function createRepoFiles(repoRoot: string): RepoFiles {
  let realRoot: Promise<string> | undefined;
  const getRoot = (): Promise<string> => {
    realRoot ??= realpath(repoRoot).catch((error: unknown) => {
      realRoot = undefined;
      throw error;
    });
    return realRoot;
  };

  /** `path` ('' for the root) resolved inside the repository, or why not. */
  const resolveInside = async (path: string): Promise<Resolved | FileRefusal> => {
    if (path.includes('\0')) return refuse.invalidPath(path);
    const root = await getRoot();
    const lexical = resolve(root, path);
    if (!isPathInside(root, lexical)) return refuse.outside(path);
    let real: string;
    let isSymlink: boolean;
    try {
      isSymlink = (await lstat(lexical)).isSymbolicLink();
      real = await realpath(lexical);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return refuse.missing(path);
      if (code === 'ELOOP') return refuse.symlinkLoop(path);
      return refuse.unreadable(path, describeError(error));
    }
    if (!isPathInside(root, real)) return refuse.symlinkOutside(path);
    return { ok: true, real, isSymlink };
  };

  const readText = async (path: string, options: ReadTextOptions): Promise<TextRead> => {
    if (path.length === 0) return refuse.invalidPath(path);
    const resolved = await resolveInside(path);
    if (!resolved.ok) return resolved;
    let info: Stats;
    try {
      info = await lstat(resolved.real);
    } catch (error) {
      return refuse.unreadable(path, describeError(error));
    }
    if (!info.isFile()) return refuse.notAFile(path);
    const head = options.head === true;
    if (!head && info.size > options.maxBytes) return refuse.tooLarge(path, options.maxBytes, info.size);
    const read = await readCapped(resolved.real, path, options.maxBytes, head);
    if (!read.ok) return read;
    const bytes = head && read.isCut ? dropCutCharacter(read.bytes) : read.bytes;
    try {
      return { ok: true, text: (options.invalidUtf8 === 'replace' ? replacingDecoder : fatalDecoder).decode(bytes) };
    } catch {
      return refuse.invalidUtf8(path);
    }
  };

  const statPath = async (path: string): Promise<FileStat> => {
    const resolved = await resolveInside(path);
    if (!resolved.ok) return resolved;
    try {
      const info = await stat(resolved.real);
      return { ok: true, kind: toKind(info), size: info.size, mtimeMs: info.mtimeMs, isSymlink: resolved.isSymlink };
    } catch (error) {
      return refuse.unreadable(path, describeError(error));
    }
  };

  const list = async (path: string): Promise<FolderListing> => {
    const found = await statPath(path);
    if (!found.ok) return found;
    if (found.kind !== 'directory') return refuse.notAFolder(path);
    const resolved = await resolveInside(path);
    if (!resolved.ok) return resolved;
    try {
      const dirents = await readdir(resolved.real, { withFileTypes: true });
      const entries = dirents.map(
        (entry): FolderEntry => ({
          name: entry.name,
          kind: entry.isSymbolicLink() ? 'symlink' : entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : 'other',
        }),
      );
      return { ok: true, entries: entries.sort((left, right) => compareText(left.name, right.name)) };
    } catch (error) {
      return refuse.unreadable(path, describeError(error));
    }
  };

  const toRepoPath = async (absolutePath: string): Promise<string | undefined> => {
    const aliases = [...new Set([await getRoot(), resolve(repoRoot)])];
    for (const alias of aliases) {
      if (isPathInside(alias, absolutePath)) return relative(alias, absolutePath).split(sep).join('/');
    }
    return undefined;
  };

  const existsOnHost = async (absolutePath: string): Promise<boolean> => {
    try {
      await lstat(posix.normalize(absolutePath));
      return true;
    } catch {
      return false;
    }
  };

  return { readText, list, stat: statPath, toRepoPath, existsOnHost };
}

/**
 * Reads at most `maxBytes` from a regular file opened without following a last-component symlink and without blocking;
 * a longer file is refused, or with `head` cut after `maxBytes` (`isCut`).
 */
async function readCapped(
  real: string,
  path: string,
  maxBytes: number,
  head: boolean,
): Promise<{ ok: true; bytes: Buffer; isCut: boolean } | FileRefusal> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(real, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR') return refuse.notAFile(path);
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse.missing(path);
    return refuse.unreadable(path, describeError(error));
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) return refuse.notAFile(path);
    let buffer = Buffer.alloc(Math.min(maxBytes, opened.size) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const grown = Buffer.alloc(Math.min(maxBytes + 1, buffer.length * 2));
        buffer.copy(grown);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) {
        if (head) return { ok: true, bytes: buffer.subarray(0, maxBytes), isCut: true };
        return refuse.tooLarge(path, maxBytes);
      }
    }
    return { ok: true, bytes: buffer.subarray(0, length), isCut: false };
  } catch (error) {
    return refuse.unreadable(path, describeError(error));
  } finally {
    await handle.close();
  }
}
