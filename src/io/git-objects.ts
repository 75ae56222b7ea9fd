import { closeSync, lstatSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlibConstants, inflateSync } from 'node:zlib';
import { openRegularFileSync, readGuardedSync } from './guarded-read.js';
import { hasErrorCode } from './has-error-code.js';

/**
 * Git objects read one at a time, straight from the pack: the pack index is searched and only the object's bytes (and
 * its delta bases') are read. isomorphic-git reads a whole pack file into memory at its first object: 420 ms and
 * 39 MB for one blob of the large tree, and a real repository's pack runs to gigabytes. Anything this reader does not
 * handle (an object it cannot find, a pack index other than version 2, a damaged object) is left to isomorphic-git,
 * which answers or fails as before.
 */
export type GitObjectType = 'commit' | 'tree' | 'blob' | 'tag';

export interface RawGitObject {
  type: GitObjectType;
  bytes: Buffer;
}

/** The start of an object, read without inflating the rest of it. */
export interface GitObjectHead {
  type: GitObjectType;
  /** The whole object's size in bytes. */
  size: number;
  /**
   * The whole object when `size` is at most the limit asked for, else its first bytes: the limit at most, fewer when a
   * pack delta copies the next ones from far into its base (readObjectHead in src/io/git-object-head.ts streams those).
   */
  bytes: Buffer;
}

/** A loose object's file, or the offset of its entry in a pack. */
export type ObjectLocation = { kind: 'loose'; path: string } | { kind: 'packed'; packPath: string; offset: number };

/** A tree entry as isomorphic-git's readTree gives it (its TreeEntry): mode normalised, sorted by path. */
export interface RawTreeEntry {
  mode: string;
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

const TREE_MODES: Readonly<Record<string, RawTreeEntry['type']>> = {
  '40000': 'tree',
  '100644': 'blob',
  '100755': 'blob',
  '120000': 'blob',
  '160000': 'commit',
};
/**
 * Names isomorphic-git refuses in a tree (git's verify_path), and names where its code-point order differs from the
 * `<` order used here (U+D800 and above): such a tree is left to it, to fail or sort as it does.
 */
export const UNSAFE_TREE_NAME = /[\\/:\u200C-\u200F\u202A-\u202E\u206A-\u206F\uD800-\uFFFF]|^\.{1,2}$|^\.git[. ]*$|^\.?git~[1-9][. ]*$/i;

/** The entries of a tree object; undefined for a mode or name isomorphic-git would not accept. */
export function parseTreeObject(bytes: Buffer): RawTreeEntry[] | undefined {
  const entries: RawTreeEntry[] = [];
  let cursor = 0;
  while (cursor < bytes.length) {
    const space = bytes.indexOf(32, cursor);
    const nul = bytes.indexOf(0, cursor);
    if (space === -1 || nul === -1 || space > nul || nul + 21 > bytes.length) return undefined;
    const rawMode = bytes.toString('latin1', cursor, space);
    const type = TREE_MODES[rawMode];
    const path = bytes.toString('utf8', space + 1, nul);
    if (type === undefined || UNSAFE_TREE_NAME.test(path)) return undefined;
    entries.push({ mode: rawMode === '40000' ? '040000' : rawMode, path, oid: bytes.toString('hex', nul + 1, nul + 21), type });
    cursor = nul + 21;
  }
  return entries.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
}

/** The header lines of a commit or tag (before the first empty line), as name → values. */
export function parseObjectHeaders(bytes: Buffer): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  const end = bytes.indexOf('\n\n');
  for (const line of bytes.toString('utf8', 0, end === -1 ? bytes.length : end).split('\n')) {
    if (line.startsWith(' ')) continue;
    const space = line.indexOf(' ');
    if (space <= 0) continue;
    const name = line.slice(0, space);
    headers.set(name, [...(headers.get(name) ?? []), line.slice(space + 1)]);
  }
  return headers;
}

const readers = new WeakMap<object, ObjectReader>();

/** One reader per repository object (its pack list is read once). */
export function getObjectReader(repo: { gitdir: string }): ObjectReader {
  let reader = readers.get(repo);
  if (reader === undefined) {
    reader = createObjectReader(repo.gitdir);
    readers.set(repo, reader);
  }
  return reader;
}

export interface ObjectReader {
  /** The object, or undefined when this reader cannot answer (then isomorphic-git is asked). */
  read(oid: string): RawGitObject | undefined;
  /**
   * The object's type, size and first `limit` bytes (fewer where a delta copies from far into its base), inflating
   * little more than that: a commit's headers come first, and its message may run to megabytes. `oversized` when the
   * object is there but its start cannot be read this way (a delta chain past HEAD_READ_BUDGET, a file padded past what
   * is read: readObjectHead in src/io/git-object-head.ts then streams it); undefined when this reader cannot answer.
   */
  readHead(oid: string, limit: number): GitObjectHead | 'oversized' | undefined;
  /** Where the object's bytes are (a loose file first, as reads look), or undefined when this reader cannot tell. */
  locate(oid: string): ObjectLocation | undefined;
  /**
   * Whether a loose object file or a pack index holds the object, without reading it; false when this reader cannot
   * tell (then isomorphic-git is asked).
   */
  has(oid: string): boolean;
}

/** Objects larger than this are left to isomorphic-git (it reads them whole either way). */
const MAX_OBJECT_BYTES = 512 * 1024 * 1024;
/** Delta chains are at most 50 deep with git's defaults; a longer one is left to isomorphic-git. */
const MAX_DELTA_DEPTH = 1000;
/** Bases kept while a run reads objects: the same base serves the next delta of its chain. */
const MAX_CACHED_BASE_BYTES = 32 * 1024 * 1024;
/**
 * Delta bytes that can make an object's first `limit` bytes: a copy instruction takes at most 8 bytes and yields at
 * least one, after the two sizes. A longer delta is inflated only this far.
 */
const bindDeltaPrefix = (limit: number): number => 8 * limit + 32;
/** Bytes of a delta's base read for an object's start: a copy from further in ends the start there. */
const MAX_HEAD_BASE_BYTES = 1024 * 1024;
/** Delta bytes one start read inflates along its chain at most. */
const HEAD_READ_BUDGET = 8 * 1024 * 1024;
/** `<type> <size>\0` in front of a loose object. */
const LOOSE_HEADER_BYTES = 32;
/** Output allowed past the limit while bisecting: deflate yields at most about 1,032 bytes per input byte. */
const INFLATE_SLACK = 4096;
const TYPES: readonly (GitObjectType | undefined)[] = [undefined, 'commit', 'tree', 'blob', 'tag'];
const OFS_DELTA = 6;
const REF_DELTA = 7;
const OID = /^[0-9a-f]{40}$/;
/**
 * A pack stays open while reads keep coming, and is closed once none came for this long: a history walk reads tens of
 * thousands of objects, and an open, fstat and close around each was a sixth of its time; closed when idle, a
 * long-lived server holds no descriptor between calls (nor keeps a pack `git gc` deleted from being freed).
 */
const PACK_IDLE_MS = 250;

/** A pack file open for reading, with its size when opened (a pack is written once and never changes). */
interface OpenPack {
  descriptor: number;
  size: number;
}

/**
 * A version-2 pack index, read in parts: its fanout table when listed, then per first byte of an oid the names and
 * offsets of that fanout range, on the first lookup there. Reading outline's whole 9.8 MB index cost every `ai` after an
 * edit 85 ms of the main thread (and as much of the change worker's) to look up two commits.
 */
interface PackIndex {
  packPath: string;
  indexPath: string;
  /** The index's size when listed: a part is read only from the same file (an index is written once, never changed). */
  size: number;
  fanout: Uint32Array;
  count: number;
  /** By first byte: that range's sorted 20-byte names and 32-bit offsets; null when it could not be read. */
  ranges: (PackIndexRange | null | undefined)[];
  /** The 64-bit offsets (and the trailer), read on first need; null when they could not be read. */
  offsets64?: Buffer | null;
}

interface PackIndexRange {
  names: Buffer;
  offsets32: Buffer;
}

const PACK_INDEX_HEADER_BYTES = 8 + 1024;

/**
 * A reader over `gitdir/objects`: loose objects and version-2 pack indexes, listed once and again when an object is
 * not found and the pack folder has changed since (a long-lived server after a fetch or `git gc`).
 */
export function createObjectReader(gitdir: string): ObjectReader {
  const objectsDir = join(gitdir, 'objects');
  const packDir = join(objectsDir, 'pack');
  let packs: PackIndex[] | undefined;
  let listedMtimeMs: number | undefined;
  const readPackDirTime = (): number | undefined => {
    try {
      return statSync(packDir).mtimeMs;
    } catch {
      return undefined;
    }
  };
  const bases = new Map<string, RawGitObject>();
  let baseBytes = 0;
  const openPacks = new Map<string, OpenPack>();
  /** A timer is watching for the open packs to go idle; reads since its last look. */
  let isWatching = false;
  let isUsed = false;
  const closePacks = (): void => {
    for (const open of openPacks.values()) closeSync(open.descriptor);
    openPacks.clear();
  };
  const checkIdle = (): void => {
    if (isUsed) {
      isUsed = false;
      setTimeout(checkIdle, PACK_IDLE_MS).unref();
    } else {
      isWatching = false;
      closePacks();
    }
  };
  const openPack = (packPath: string): OpenPack | undefined => {
    isUsed = true;
    const known = openPacks.get(packPath);
    if (known !== undefined) return known;
    const opened = openRegularFileSync(packPath);
    if (opened === undefined) return undefined;
    openPacks.set(packPath, opened);
    if (!isWatching) {
      isWatching = true;
      setTimeout(checkIdle, PACK_IDLE_MS).unref();
    }
    return opened;
  };

  const listPacks = (): PackIndex[] => {
    if (packs !== undefined) return packs;
    closePacks();
    packs = [];
    listedMtimeMs = readPackDirTime();
    let names: string[];
    try {
      names = readdirSync(packDir).filter((name) => /^pack-[0-9a-f]+\.idx$/.test(name));
    } catch {
      return packs;
    }
    for (const name of names.sort()) {
      const index = readPackIndex(join(packDir, name));
      if (index !== undefined) packs.push(index);
    }
    return packs;
  };

  const remember = (key: string, object: RawGitObject): void => {
    if (object.bytes.byteLength > MAX_CACHED_BASE_BYTES / 4) return;
    if (baseBytes + object.bytes.byteLength > MAX_CACHED_BASE_BYTES) {
      bases.clear();
      baseBytes = 0;
    }
    bases.set(key, object);
    baseBytes += object.bytes.byteLength;
  };

  const readAt = (pack: PackIndex, offset: number, depth: number): RawGitObject | undefined => {
    const key = `${pack.packPath}:${offset}`;
    const known = bases.get(key);
    if (known !== undefined) return known;
    if (depth > MAX_DELTA_DEPTH) return undefined;
    const opened = openPack(pack.packPath);
    const entry = opened === undefined ? undefined : readPackEntry(opened, offset);
    if (entry === undefined) return undefined;
    let object: RawGitObject | undefined;
    if (entry.kind === 'whole') object = entry.object;
    else {
      const base =
        entry.kind === 'ofs'
          ? readAt(pack, entry.baseOffset, depth + 1)
          : (readFromPacks(entry.baseOid, depth + 1) ?? readLoose(entry.baseOid));
      const bytes = base === undefined ? undefined : applyDelta(base.bytes, entry.delta);
      object = base === undefined || bytes === undefined ? undefined : { type: base.type, bytes };
    }
    if (object !== undefined) remember(key, object);
    return object;
  };

  const readFromPacks = (oid: string, depth: number): RawGitObject | undefined => {
    for (const pack of listPacks()) {
      const offset = findOffset(pack, oid);
      if (offset !== undefined) return readAt(pack, offset, depth);
    }
    return undefined;
  };

  const readLoose = (oid: string): RawGitObject | undefined => {
    const read = readGuardedSync(join(objectsDir, oid.slice(0, 2), oid.slice(2)), { maxBytes: MAX_OBJECT_BYTES });
    if (!read.ok) return undefined;
    let inflated: Buffer;
    try {
      inflated = inflateSync(read.bytes, { maxOutputLength: MAX_OBJECT_BYTES });
    } catch {
      return undefined;
    }
    const nul = inflated.indexOf(0);
    const header = nul === -1 ? '' : inflated.toString('latin1', 0, nul);
    const match = /^(commit|tree|blob|tag) (\d+)$/.exec(header);
    if (match === null || Number(match[2]) !== inflated.length - nul - 1) return undefined;
    return { type: match[1] as GitObjectType, bytes: inflated.subarray(nul + 1) };
  };

  const readLooseHead = (oid: string, limit: number): GitObjectHead | 'oversized' | undefined => {
    const opened = openRegularFileSync(join(objectsDir, oid.slice(0, 2), oid.slice(2)));
    if (opened === undefined) return undefined;
    try {
      const compressed = readBytes(opened.descriptor, 0, Math.min(opened.size, bindCompressed(limit + LOOSE_HEADER_BYTES)));
      const inflated = inflatePrefix(compressed, limit + LOOSE_HEADER_BYTES);
      const nul = inflated?.subarray(0, LOOSE_HEADER_BYTES).indexOf(0) ?? -1;
      const match = nul === -1 ? null : /^(commit|tree|blob|tag) (\d+)$/.exec(inflated?.toString('latin1', 0, nul) ?? '');
      if (inflated === undefined || match === null) return undefined;
      const size = Number(match[2]);
      const bytes = inflated.subarray(nul + 1, nul + 1 + Math.min(size, limit));
      // Short of what the object declares: a damaged file, or one padded with empty blocks past what was read.
      if (bytes.length < Math.min(size, limit)) return compressed.length < opened.size ? 'oversized' : undefined;
      if (size <= limit && inflated.length - nul - 1 !== size) return undefined;
      return { type: match[1] as GitObjectType, size, bytes };
    } finally {
      closeSync(opened.descriptor);
    }
  };

  const readHeadAt = (
    pack: PackIndex,
    offset: number,
    depth: number,
    limit: number,
    budget: { bytes: number },
  ): GitObjectHead | 'oversized' | undefined => {
    const known = bases.get(`${pack.packPath}:${offset}`);
    if (known !== undefined) return { type: known.type, size: known.bytes.length, bytes: known.bytes.subarray(0, limit) };
    if (depth > MAX_DELTA_DEPTH) return undefined;
    const opened = openPack(pack.packPath);
    const entry = opened === undefined ? undefined : readPackEntry(opened, offset, limit);
    if (entry === undefined || entry === 'oversized') return entry;
    if (entry.kind === 'whole') return { type: entry.object.type, size: entry.object.bytes.length, bytes: entry.object.bytes };
    if (entry.kind === 'head') return entry.head;
    budget.bytes -= entry.delta.length;
    if (budget.bytes < 0) return 'oversized';
    const isCut = entry.isCut === true;
    const plan = walkDelta(entry.delta, limit, undefined, MAX_HEAD_BASE_BYTES, isCut);
    if (plan === undefined) return undefined;
    const base =
      entry.kind === 'ofs'
        ? readHeadAt(pack, entry.baseOffset, depth + 1, plan.baseNeeded, budget)
        : (readHeadFromPacks(entry.baseOid, depth + 1, plan.baseNeeded, budget) ?? readLooseHead(entry.baseOid, plan.baseNeeded));
    if (base === undefined || base === 'oversized') return base;
    if (base.size !== plan.baseSize) return undefined;
    const bytes = walkDelta(entry.delta, limit, base.bytes, base.bytes.length, isCut)?.bytes;
    return bytes === undefined ? undefined : { type: base.type, size: plan.resultSize, bytes };
  };

  const readHeadFromPacks = (
    oid: string,
    depth: number,
    limit: number,
    budget: { bytes: number },
  ): GitObjectHead | 'oversized' | undefined => {
    for (const pack of listPacks()) {
      const offset = findOffset(pack, oid);
      if (offset !== undefined) return readHeadAt(pack, offset, depth, limit, budget);
    }
    return undefined;
  };

  const locateListed = (oid: string): ObjectLocation | undefined => {
    const path = join(objectsDir, oid.slice(0, 2), oid.slice(2));
    if (lstatSync(path, { throwIfNoEntry: false })?.isFile() === true) return { kind: 'loose', path };
    for (const pack of listPacks()) {
      const offset = findOffset(pack, oid);
      if (offset !== undefined) return { kind: 'packed', packPath: pack.packPath, offset };
    }
    return undefined;
  };

  const isListed = (oid: string): boolean => {
    if (listPacks().some((pack) => findOffset(pack, oid) !== undefined)) return true;
    try {
      return lstatSync(join(objectsDir, oid.slice(0, 2), oid.slice(2))).isFile();
    } catch {
      return false;
    }
  };

  return {
    has(oid) {
      if (!OID.test(oid)) return false;
      if (isListed(oid)) return true;
      if (packs === undefined || readPackDirTime() === listedMtimeMs) return false;
      packs = undefined;
      return isListed(oid);
    },
    locate(oid) {
      if (!OID.test(oid)) return undefined;
      const found = locateListed(oid);
      if (found !== undefined || packs === undefined || readPackDirTime() === listedMtimeMs) return found;
      packs = undefined;
      return locateListed(oid);
    },
    readHead(oid, limit) {
      if (!OID.test(oid)) return undefined;
      const readFromPacks = (): GitObjectHead | 'oversized' | undefined => readHeadFromPacks(oid, 0, limit, { bytes: HEAD_READ_BUDGET });
      try {
        // Packs first: a pack index answers from memory, where a missing loose object costs a failed open (and its
        // thrown error); a history walk of a packed clone reads tens of thousands of objects none of which is loose.
        const found = readFromPacks() ?? readLooseHead(oid, limit);
        if (found !== undefined || packs === undefined || readPackDirTime() === listedMtimeMs) return found;
        packs = undefined;
        return readFromPacks();
      } catch {
        return undefined;
      }
    },
    read(oid) {
      if (!OID.test(oid)) return undefined;
      try {
        const found = readFromPacks(oid, 0) ?? readLoose(oid);
        if (found !== undefined || packs === undefined || readPackDirTime() === listedMtimeMs) return found;
        packs = undefined;
        return readFromPacks(oid, 0);
      } catch {
        return undefined;
      }
    },
  };
}

function readPackIndex(path: string): PackIndex | undefined {
  const opened = openRegularFileSync(path);
  if (opened === undefined) return undefined;
  let header: Buffer;
  try {
    if (opened.size > MAX_OBJECT_BYTES) return undefined;
    header = readBytes(opened.descriptor, 0, PACK_INDEX_HEADER_BYTES);
  } catch {
    return undefined;
  } finally {
    closeSync(opened.descriptor);
  }
  if (header.length < PACK_INDEX_HEADER_BYTES || header.readUInt32BE(0) !== 0xff744f63 || header.readUInt32BE(4) !== 2) return undefined;
  const fanout = new Uint32Array(256);
  for (let index = 0; index < 256; index += 1) {
    fanout[index] = header.readUInt32BE(8 + index * 4);
    if (index > 0 && (fanout[index] ?? 0) < (fanout[index - 1] ?? 0)) return undefined;
  }
  const count = fanout[255] ?? 0;
  // Names (20 bytes each), their CRCs and their 32-bit offsets (4 bytes each) follow the fanout.
  if (PACK_INDEX_HEADER_BYTES + count * 28 > opened.size) return undefined;
  return { packPath: path.replace(/\.idx$/, '.pack'), indexPath: path, size: opened.size, fanout, count, ranges: new Array(256) };
}

/** `length` bytes of the index at `position`, from the file it was listed from; undefined when that cannot be read. */
function readIndexBytes(pack: PackIndex, position: number, length: number): Buffer | undefined {
  const opened = openRegularFileSync(pack.indexPath);
  if (opened === undefined) return undefined;
  try {
    if (opened.size !== pack.size) return undefined;
    const bytes = readBytes(opened.descriptor, position, length);
    return bytes.length === length ? bytes : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(opened.descriptor);
  }
}

/** The names and offsets of the oids starting with byte `first`, read once. */
function getIndexRange(pack: PackIndex, first: number): PackIndexRange | undefined {
  const known = pack.ranges[first];
  if (known !== undefined) return known ?? undefined;
  const start = first === 0 ? 0 : (pack.fanout[first - 1] ?? 0);
  const entries = (pack.fanout[first] ?? 0) - start;
  const names = readIndexBytes(pack, PACK_INDEX_HEADER_BYTES + start * 20, entries * 20);
  const offsets32 =
    names === undefined ? undefined : readIndexBytes(pack, PACK_INDEX_HEADER_BYTES + pack.count * 24 + start * 4, entries * 4);
  const range = names === undefined || offsets32 === undefined ? null : { names, offsets32 };
  pack.ranges[first] = range;
  return range ?? undefined;
}

function getOffsets64(pack: PackIndex): Buffer | undefined {
  if (pack.offsets64 === undefined) {
    const from = PACK_INDEX_HEADER_BYTES + pack.count * 28;
    pack.offsets64 = readIndexBytes(pack, from, pack.size - from) ?? null;
  }
  return pack.offsets64 ?? undefined;
}

/** Where findOffset decodes the oid it looks for: each search decodes it again before reading it. */
const NAME_SCRATCH = Buffer.alloc(20);

/**
 * The object's offset in the pack, by binary search within its first byte's fanout range. The names are compared byte
 * by byte here: most differ in their first bytes, where a Buffer.compare call per step cost more than the compare.
 */
function findOffset(pack: PackIndex, oid: string): number | undefined {
  const name = NAME_SCRATCH;
  if (name.write(oid, 'hex') !== 20) return undefined;
  const range = getIndexRange(pack, name[0] ?? 0);
  if (range === undefined) return undefined;
  const { names } = range;
  let low = 0;
  let high = names.length / 20 - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = middle * 20;
    let order = 0;
    for (let index = 0; index < 20 && order === 0; index += 1) order = (names[at + index] ?? 0) - (name[index] ?? 0);
    if (order === 0) {
      const small = range.offsets32.readUInt32BE(middle * 4);
      if ((small & 0x80000000) === 0) return small;
      const offsets64 = getOffsets64(pack);
      const at64 = (small & 0x7fffffff) * 8;
      if (offsets64 === undefined || at64 + 8 > offsets64.length) return undefined;
      const offset = Number(offsets64.readBigUInt64BE(at64));
      return Number.isSafeInteger(offset) ? offset : undefined;
    }
    if (order > 0) high = middle - 1;
    else low = middle + 1;
  }
  return undefined;
}

/** `isCut`: a start read inflated only the delta's start (bindDeltaPrefix). */
type WholeOrDelta =
  | { kind: 'whole'; object: RawGitObject }
  | { kind: 'ofs'; baseOffset: number; delta: Buffer; isCut?: true }
  | { kind: 'ref'; baseOid: string; delta: Buffer; isCut?: true };
type PackEntry = WholeOrDelta | { kind: 'head'; head: GitObjectHead };

/** Compressed bytes that hold at least the first `size` bytes of a zlib stream: deflate grows data by < 0.1%. */
function bindCompressed(size: number): number {
  return size + Math.ceil(size / 256) + 1024;
}

function readBytes(descriptor: number, position: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const count = readSync(descriptor, bytes, filled, length - filled, position + filled);
    if (count === 0) break;
    filled += count;
  }
  return bytes.subarray(0, filled);
}

/**
 * The first `limit` bytes (at most) of a zlib stream, given the stream or its start, never inflating much more: zlib
 * refuses output past a cap, so when the input holds more than that, the longest start of the input whose output fits
 * is found by bisection. Undefined for a damaged stream.
 */
function inflatePrefix(compressed: Buffer, limit: number): Buffer | undefined {
  const inflate = (length: number): Buffer | 'over' | undefined => {
    try {
      return inflateSync(compressed.subarray(0, length), {
        finishFlush: zlibConstants.Z_SYNC_FLUSH,
        maxOutputLength: limit + INFLATE_SLACK,
      });
    } catch (error) {
      return hasErrorCode(error, 'ERR_BUFFER_TOO_LARGE') ? 'over' : undefined;
    }
  };
  const whole = inflate(compressed.length);
  if (whole !== 'over') return whole?.subarray(0, limit);
  let fits = 0;
  let over = compressed.length;
  let best: Buffer = Buffer.alloc(0);
  while (over - fits > 1 && best.length < limit) {
    const middle = Math.floor((fits + over) / 2);
    const output = inflate(middle);
    if (output === undefined) return undefined;
    if (output === 'over') over = middle;
    else {
      fits = middle;
      best = output;
    }
  }
  return best.subarray(0, limit);
}

/**
 * One entry of a pack: its header, then as many bytes as zlib can need for its size. With `limit` (a start read), an
 * object larger than that is inflated only as far as the limit, a delta only as far as its first `limit` bytes of
 * result can need.
 */
function readPackEntry(pack: OpenPack, offset: number, limit: number): PackEntry | 'oversized' | undefined;
function readPackEntry(pack: OpenPack, offset: number): WholeOrDelta | undefined;
function readPackEntry(pack: OpenPack, offset: number, limit?: number): PackEntry | 'oversized' | undefined {
  const { descriptor, size: packSize } = pack;
  const windowLength = readSync(descriptor, ENTRY_WINDOW, 0, ENTRY_WINDOW_BYTES, offset);
  const header = parsePackEntryHeader(ENTRY_WINDOW, windowLength, offset);
  if (header === undefined) return undefined;
  // The entry's compressed bytes from the window read with its header when they are all there.
  const readData = (from: number, length: number): Buffer =>
    from - offset + length <= windowLength
      ? ENTRY_WINDOW.subarray(from - offset, from - offset + length)
      : readBytes(descriptor, from, length);
  const { kind, size, baseOffset, baseOid, dataStart: start } = header;
  // A start read inflates only the start, whatever the size.
  if (size > MAX_OBJECT_BYTES && limit === undefined) return undefined;
  const isDelta = kind === 'ofs' || kind === 'ref';
  const wanted = limit === undefined ? size : isDelta ? bindDeltaPrefix(limit) : limit;
  if (size > wanted) {
    const compressed = readData(start, Math.max(0, Math.min(bindCompressed(wanted), packSize - start)));
    const bytes = inflatePrefix(compressed, wanted);
    if (bytes === undefined) return undefined;
    if (bytes.length < wanted) return 'oversized';
    if (kind === 'ofs') return { kind, baseOffset, delta: bytes, isCut: true };
    if (kind === 'ref') return { kind, baseOid, delta: bytes, isCut: true };
    return { kind: 'head', head: { type: kind, size, bytes } };
  }
  const length = Math.min(size + Math.ceil(size / 256) + 64, packSize - start);
  if (length <= 0) return undefined;
  const compressed = readData(start, length);
  let data: Buffer;
  try {
    // One output buffer of the size the header gives: zlib's default 16 KiB chunk is allocated (outside the buffer pool)
    // for every object however small, and a larger object is inflated in chunks and joined.
    data = inflateSync(compressed, { maxOutputLength: Math.max(size, 1), chunkSize: Math.max(64, size + 1) });
  } catch {
    return undefined;
  }
  if (data.length !== size) return undefined;
  if (kind === 'ofs') return { kind, baseOffset, delta: data };
  if (kind === 'ref') return { kind, baseOid, delta: data };
  return { kind: 'whole', object: { type: kind, bytes: data } };
}

/** A pack entry's header: what it holds, its inflated size, and where its zlib stream starts. */
export interface PackEntryHeader {
  /** The object's type, or a delta against the entry at `baseOffset` (`ofs`) or the object `baseOid` (`ref`). */
  kind: GitObjectType | 'ofs' | 'ref';
  /** Inflated bytes: the object's, or the delta's. */
  size: number;
  dataStart: number;
  baseOffset: number;
  baseOid: string;
}

/** Bytes of an entry's header read at most: what a header can take (an ofs distance or a ref oid, after the size). */
const HEADER_BYTES = 64;
/**
 * Bytes read at an entry's offset in one read: its header, and the compressed data of most trees, commits and deltas
 * after it, which then need no second read. Parsed (and inflated) before the next read, all synchronous: none is kept.
 */
const ENTRY_WINDOW_BYTES = 4096;
const ENTRY_WINDOW = Buffer.alloc(ENTRY_WINDOW_BYTES);

/** The header of the entry at `offset` of an open pack; undefined when it is not one. */
export function readPackEntryHeader(descriptor: number, offset: number): PackEntryHeader | undefined {
  const length = readSync(descriptor, ENTRY_WINDOW, 0, HEADER_BYTES, offset);
  return parsePackEntryHeader(ENTRY_WINDOW, length, offset);
}

/** The header at the start of `head`, of which `headLength` bytes were read (at most HEADER_BYTES count; past them, zeros). */
function parsePackEntryHeader(head: Buffer, readLength: number, offset: number): PackEntryHeader | undefined {
  const headLength = Math.min(readLength, HEADER_BYTES);
  const at = (index: number): number => (index < headLength ? (head[index] ?? 0) : 0);
  let cursor = 0;
  let byte = at(cursor++);
  const type = (byte >> 4) & 7;
  let size = byte & 15;
  let shift = 4;
  while ((byte & 0x80) !== 0) {
    if (cursor >= headLength || shift > 49) return undefined;
    byte = at(cursor++);
    size += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  }
  if (type === OFS_DELTA) {
    byte = at(cursor++);
    let distance = byte & 0x7f;
    while ((byte & 0x80) !== 0) {
      if (cursor >= headLength) return undefined;
      byte = at(cursor++);
      distance = (distance + 1) * 128 + (byte & 0x7f);
    }
    const baseOffset = offset - distance;
    if (baseOffset < 0 || distance === 0) return undefined;
    return { kind: 'ofs', size, dataStart: offset + cursor, baseOffset, baseOid: '' };
  }
  if (type === REF_DELTA) {
    if (cursor + 20 > headLength) return undefined;
    return { kind: 'ref', size, dataStart: offset + cursor + 20, baseOffset: 0, baseOid: head.toString('hex', cursor, cursor + 20) };
  }
  const kind = TYPES[type];
  return kind === undefined ? undefined : { kind, size, dataStart: offset + cursor, baseOffset: 0, baseOid: '' };
}

/** A size of git's delta header: 7 bits a byte, low bits first, while the high bit is set. */
function readDeltaSize(delta: Buffer, start: number): { value: number; next: number } {
  let cursor = start;
  let value = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = delta[cursor++] ?? 0;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while ((byte & 0x80) !== 0 && cursor < delta.length);
  return { value, next: cursor };
}

/**
 * A copy instruction's offset and size, read from `start` (just after the op byte): the op's low 4 bits say which
 * offset bytes follow, the next 3 which size bytes; a size of 0 means 64 KiB. `next` may pass the delta's end when it is
 * cut short.
 */
function readDeltaCopy(delta: Buffer, op: number, start: number): { copyOffset: number; copySize: number; next: number } {
  let at = start;
  let copyOffset = 0;
  let copySize = 0;
  for (let bit = 0; bit < 4; bit += 1) if ((op & (1 << bit)) !== 0) copyOffset += (delta[at++] ?? 0) * 2 ** (8 * bit);
  for (let bit = 0; bit < 3; bit += 1) if ((op & (1 << (4 + bit))) !== 0) copySize += (delta[at++] ?? 0) * 2 ** (8 * bit);
  return { copyOffset, copySize: copySize === 0 ? 0x10000 : copySize, next: at };
}

/** Git's delta format: the base and result sizes, then copy (from the base) and insert (literal) instructions. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer | undefined {
  let cursor = 0;
  const readSize = (): number => {
    const read = readDeltaSize(delta, cursor);
    cursor = read.next;
    return read.value;
  };
  if (readSize() !== base.length) return undefined;
  const size = readSize();
  if (size > MAX_OBJECT_BYTES) return undefined;
  const result = Buffer.allocUnsafe(size);
  let written = 0;
  while (cursor < delta.length) {
    const op = delta[cursor++] ?? 0;
    if ((op & 0x80) !== 0) {
      const { copyOffset, copySize, next } = readDeltaCopy(delta, op, cursor);
      cursor = next;
      if (copyOffset + copySize > base.length || written + copySize > size) return undefined;
      base.copy(result, written, copyOffset, copyOffset + copySize);
      written += copySize;
    } else if (op !== 0) {
      if (cursor + op > delta.length || written + op > size) return undefined;
      delta.copy(result, written, cursor, cursor + op);
      cursor += op;
      written += op;
    } else {
      return undefined;
    }
  }
  return written === size ? result : undefined;
}

/**
 * The start of a delta's result: as much of its first `limit` bytes as the delta's bytes at hand and `base` (the start
 * of its base) make, stopping at a copy from past the end of `base`, or at the end of a delta cut short (`isCut`).
 * Without `base`, the same walk over a base of `maxBase` bytes works out how far into the base it copies from
 * (`baseNeeded`). Undefined for a malformed delta.
 */
function walkDelta(
  delta: Buffer,
  limit: number,
  base: Buffer | undefined,
  maxBase: number,
  isCut: boolean,
): { baseSize: number; resultSize: number; baseNeeded: number; bytes: Buffer } | undefined {
  let cursor = 0;
  const readSize = (): number => {
    const read = readDeltaSize(delta, cursor);
    cursor = read.next;
    return read.value;
  };
  const baseSize = readSize();
  const resultSize = readSize();
  const available = Math.min(base?.length ?? maxBase, maxBase);
  const wanted = Math.min(resultSize, limit);
  const bytes = Buffer.allocUnsafe(base === undefined ? 0 : wanted);
  let baseNeeded = 0;
  let written = 0;
  while (written < wanted && cursor < delta.length) {
    const op = delta[cursor] ?? 0;
    if ((op & 0x80) !== 0) {
      const { copyOffset, copySize, next: at } = readDeltaCopy(delta, op, cursor + 1);
      if (at > delta.length) break;
      if (copyOffset + copySize > baseSize || written + copySize > resultSize) return undefined;
      const whole = Math.min(copySize, wanted - written);
      const take = Math.min(whole, Math.max(0, available - copyOffset));
      if (take > 0) {
        baseNeeded = Math.max(baseNeeded, copyOffset + take);
        if (base !== undefined) base.copy(bytes, written, copyOffset, copyOffset + take);
        written += take;
      }
      // A copy from past what is read of the base ends the start here.
      if (take < whole) break;
      cursor = at;
    } else if (op !== 0) {
      if (written + op > resultSize) return undefined;
      if (cursor + 1 + op > delta.length) {
        if (!isCut) return undefined;
        break;
      }
      const take = Math.min(op, wanted - written);
      if (base !== undefined) delta.copy(bytes, written, cursor + 1, cursor + 1 + take);
      cursor += 1 + op;
      written += take;
    } else {
      return undefined;
    }
  }
  if (written < wanted && cursor >= delta.length && !isCut) return undefined;
  return { baseSize, resultSize, baseNeeded, bytes: bytes.subarray(0, written) };
}
