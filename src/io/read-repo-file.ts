import { constants } from 'node:fs';
import { lstat, open, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { CheckerError } from '../model/diagnostic.js';
import { hasErrorCode } from './has-error-code.js';

export interface ReadRepoFileOptions {
  maxBytes: number;
  /** true: invalid UTF-8 is an error (`input/invalid-utf8`); false: replaced with U+FFFD. */
  fatalUtf8: boolean;
}

/** True when `target` is `root` or lies below it (compared with path.relative, never a bare prefix test). */
export function isPathInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  if (rel === '') return true;
  if (isAbsolute(rel)) return false;
  return rel !== '..' && !rel.startsWith(`..${sep}`);
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Reads a repository input (config, requirements, SKILL.md): it must stay inside the repository lexically and
 * by realpath, be a regular file, and fit in `maxBytes`. A leading BOM is dropped.
 */
export async function readRepoFile(repoRoot: string, relativePath: string, options: ReadRepoFileOptions): Promise<string> {
  const shown = JSON.stringify(relativePath);
  if (relativePath.length === 0 || relativePath.includes('\0')) {
    throw new CheckerError('input/outside-repo', `invalid repository path ${shown}`, {
      hint: 'pass a path relative to the repository root',
    });
  }
  const root = await realpath(repoRoot);
  const lexical = resolve(root, relativePath);
  if (!isPathInside(root, lexical)) {
    throw new CheckerError('input/outside-repo', `${shown} is outside the repository`, {
      hint: 'only files inside the repository can be read; copy the file into the repository',
    });
  }
  let real: string;
  try {
    await lstat(lexical);
    real = await realpath(lexical);
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT') || hasErrorCode(error, 'ENOTDIR')) {
      throw new CheckerError('input/not-found', `${shown} does not exist`, { hint: 'check the path', cause: error });
    }
    if (hasErrorCode(error, 'ELOOP')) {
      throw new CheckerError('input/not-a-file', `${shown} is a symlink loop`, {
        hint: 'replace the symlink with a regular file',
        cause: error,
      });
    }
    throw error;
  }
  if (!isPathInside(root, real)) {
    throw new CheckerError('input/outside-repo', `${shown} resolves outside the repository (symlink)`, {
      hint: 'a symlink to a file outside the repository is refused; copy the file into the repository',
      location: { file: relativePath },
    });
  }
  const info = await lstat(real);
  if (!info.isFile()) {
    throw new CheckerError('input/not-a-file', `${shown} is not a regular file`, {
      hint: 'point to a regular file',
      location: { file: relativePath },
    });
  }
  if (info.size > options.maxBytes) {
    throw new CheckerError('input/too-large', `${shown} is ${info.size} bytes, over the ${options.maxBytes}-byte limit`, {
      hint: 'shrink the file',
      location: { file: relativePath },
    });
  }
  const handle = await open(real, constants.O_RDONLY | NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  let bytes: Buffer;
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) {
      throw new CheckerError('input/not-a-file', `${shown} is not a regular file`, {
        hint: 'point to a regular file',
        location: { file: relativePath },
      });
    }
    let buffer = Buffer.alloc(Math.min(options.maxBytes, opened.size) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const grown = Buffer.alloc(Math.min(options.maxBytes + 1, buffer.length * 2));
        buffer.copy(grown);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > options.maxBytes) {
        throw new CheckerError('input/too-large', `${shown} is over the ${options.maxBytes}-byte limit`, {
          hint: 'shrink the file',
          location: { file: relativePath },
        });
      }
    }
    bytes = buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: options.fatalUtf8, ignoreBOM: false }).decode(bytes);
  } catch (error) {
    throw new CheckerError('input/invalid-utf8', `${shown} is not valid UTF-8`, {
      hint: 'save the file as UTF-8',
      location: { file: relativePath },
      cause: error,
    });
  }
  return text;
}
