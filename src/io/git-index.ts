import { constants as fsConstants, promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { CheckerError } from '../model/diagnostic.js';
import { readGuarded } from './guarded-read.js';
import { assertSupportedObjectFormat } from './git-repository.js';

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

/**
 * The last index read per path: a command asks for the index up to three times (the scan's tracked paths, the
 * untracked files, the worktree diff), about 25 ms of parsing each at 20,000 entries. An index ends with the SHA-1 of
 * everything before it, so the same size and the same last 20 bytes mean the same entries; an index written without
 * that hash (`index.skipHash`: zeros) is always read again. The kept entries are frozen: callers share them.
 */
const lastRead = new Map<string, { size: number; checksum: Buffer; entries: IndexEntry[] }>();
const CHECKSUM_BYTES = 20;

/** Reads `.git/index` (versions 2, 3 and 4) of a SHA-1 repository without taking a lock or writing anything back. */
export async function readGitIndex(gitdir: string): Promise<GitIndex> {
  const path = join(gitdir, 'index');
  const stats = await fsp.stat(path).catch(() => undefined);
  const kept = lastRead.get(path);
  if (kept !== undefined && stats?.isFile() === true && stats.size === kept.size) {
    const tail = await readTail(path, stats.size);
    if (tail?.equals(kept.checksum) === true) return { entries: kept.entries, mtimeMs: stats.mtimeMs };
  }
  const read = await readGuarded(path, { maxBytes: MAX_INDEX_BYTES, followSymlinks: true });
  if (!read.ok && read.reason !== 'missing') {
    throw new CheckerError('git/state-invalid', `cannot read the git index ${path}: it ${read.detail}`, {
      hint: 'Run `git status` yourself to rebuild the index, or re-clone the repository.',
      location: { file: path },
    });
  }
  if (!read.ok || stats === undefined) return { entries: [], mtimeMs: 0 };
  // A SHA-256 index has 32-byte ids where this parser reads 20: its names would come out as garbage.
  await assertSupportedObjectFormat(gitdir);
  const entries = parseGitIndex(read.bytes, path);
  const checksum = Buffer.from(read.bytes.subarray(read.bytes.length - CHECKSUM_BYTES));
  if (checksum.some((byte) => byte !== 0)) {
    for (const entry of entries) Object.freeze(entry);
    lastRead.set(path, { size: read.bytes.length, checksum, entries: Object.freeze(entries) as IndexEntry[] });
  } else lastRead.delete(path);
  return { entries, mtimeMs: stats.mtimeMs };
}

/** The last 20 bytes of the file, or undefined when they cannot be read. */
async function readTail(path: string, size: number): Promise<Buffer | undefined> {
  if (size < CHECKSUM_BYTES) return undefined;
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    const tail = Buffer.alloc(CHECKSUM_BYTES);
    const { bytesRead } = await handle.read(tail, 0, CHECKSUM_BYTES, size - CHECKSUM_BYTES);
    return bytesRead === CHECKSUM_BYTES ? tail : undefined;
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
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
