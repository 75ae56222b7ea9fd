import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { CheckerError } from '../model/diagnostic.js';
import { readGuarded } from './guarded-read.js';

/** An index of a million paths is about 100 MB. */
const MAX_INDEX_BYTES = 512 * 1024 * 1024;

export interface IndexEntry {
  path: string;
  oid: string;
  mode: number;
  size: number;
  mtimeSeconds: number;
  mtimeNanoseconds: number;
  /** 0 for a normal entry, 1-3 for the sides of an unresolved merge conflict. */
  stage: number;
  /** Sparse checkout: the file is not expected in the working tree. */
  skipWorktree: boolean;
  /** `git add -N`: the path is known but its content was never staged. */
  intentToAdd: boolean;
}

export interface GitIndex {
  entries: IndexEntry[];
  /** Modification time of the index file in ms; entries modified at or after it are "racily clean". */
  mtimeMs: number;
}

/** Reads `.git/index` (versions 2, 3 and 4) without taking a lock or writing anything back. */
export async function readGitIndex(gitdir: string): Promise<GitIndex> {
  const path = join(gitdir, 'index');
  const [read, stats] = await Promise.all([
    readGuarded(path, { maxBytes: MAX_INDEX_BYTES, followSymlinks: true }),
    fsp.stat(path).catch(() => undefined),
  ]);
  if (!read.ok && read.reason !== 'missing') {
    throw new CheckerError('git/state-invalid', `cannot read the git index ${path}: it ${read.detail}`, {
      hint: 'Run `git status` yourself to rebuild the index, or re-clone the repository.',
      location: { file: path },
    });
  }
  if (!read.ok || stats === undefined) return { entries: [], mtimeMs: 0 };
  return { entries: parseGitIndex(read.bytes, path), mtimeMs: stats.mtimeMs };
}

function parseGitIndex(buffer: Buffer, path = 'index'): IndexEntry[] {
  const fail = (reason: string): CheckerError =>
    new CheckerError('git/state-invalid', `cannot read the git index ${path}: ${reason}`, {
      hint: 'Run `git status` yourself to rebuild the index, or re-clone the repository.',
      location: { file: path },
    });
  if (buffer.length < 12 || buffer.toString('latin1', 0, 4) !== 'DIRC') throw fail('bad signature');
  const version = buffer.readUInt32BE(4);
  if (version < 2 || version > 4) throw fail(`unsupported version ${version}`);
  const count = buffer.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let offset = 12;
  let previousPath: Buffer = Buffer.alloc(0);
  for (let index = 0; index < count; index += 1) {
    const start = offset;
    if (offset + 62 > buffer.length) throw fail('truncated entry');
    const mtimeSeconds = buffer.readUInt32BE(offset + 8);
    const mtimeNanoseconds = buffer.readUInt32BE(offset + 12);
    const mode = buffer.readUInt32BE(offset + 24);
    const size = buffer.readUInt32BE(offset + 36);
    const oid = buffer.toString('hex', offset + 40, offset + 60);
    const flags = buffer.readUInt16BE(offset + 60);
    offset += 62;
    let extended = 0;
    if ((flags & 0x4000) !== 0) {
      if (version < 3) throw fail('extended flags in a version 2 index');
      extended = buffer.readUInt16BE(offset);
      offset += 2;
    }
    let pathBytes: Buffer;
    if (version === 4) {
      let strip = 0;
      let byte = buffer[offset] ?? 0;
      offset += 1;
      strip = byte & 0x7f;
      while ((byte & 0x80) !== 0) {
        byte = buffer[offset] ?? 0;
        offset += 1;
        strip = ((strip + 1) << 7) | (byte & 0x7f);
      }
      const end = buffer.indexOf(0, offset);
      if (end < 0 || strip > previousPath.length) throw fail('bad path compression');
      pathBytes = Buffer.concat([previousPath.subarray(0, previousPath.length - strip), buffer.subarray(offset, end)]);
      offset = end + 1;
    } else {
      const end = buffer.indexOf(0, offset);
      if (end < 0) throw fail('unterminated path');
      pathBytes = buffer.subarray(offset, end);
      offset = start + Math.ceil((end - start + 1) / 8) * 8;
    }
    previousPath = pathBytes;
    entries.push({
      path: pathBytes.toString('utf8'),
      oid,
      mode,
      size,
      mtimeSeconds,
      mtimeNanoseconds,
      stage: (flags >> 12) & 0x3,
      skipWorktree: (extended & 0x4000) !== 0,
      intentToAdd: (extended & 0x2000) !== 0,
    });
  }
  return entries;
}
