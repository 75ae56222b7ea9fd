import { type Dirent, lstatSync, readdirSync, type Stats } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { readArtifact, writeArtifact } from './artifacts.js';
import { readGuardedSync } from './guarded-read.js';

/** checker's own state folder, never part of the repository's content. */
export const LOCAL_STATE_DIR = '.checker/local';

const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
const CACHE_FORMAT = 2;
/**
 * A folder changed less than this before it was listed may change again within the same file-system timestamp (a
 * second on some file systems, two on FAT): its listing is not trusted by the next walk, which lists it again.
 */
const RACY_MS = 2000;

/** A listed entry's kind, from its directory entry: folder, file, symlink, FIFO, socket, character or block device, other. */
export type EntryKind = 'd' | 'f' | 'l' | 'p' | 's' | 'c' | 'b' | 'o';

export interface ListedEntry {
  name: string;
  kind: EntryKind;
}

/** A folder's entries that no ignore rule covers (never `.git` or checker's own state), by name. */
export type FolderListing = { ok: true; entries: ListedEntry[]; hasGit: boolean } | { ok: false; error: unknown };

export interface FolderLister {
  /** Lists a repository-relative folder ('' for the root); a walk lists a folder only after its parent. */
  list(folder: string): FolderListing;
  /**
   * Keeps the listings for the next walk (when it was opened with a cache and anything changed); true when the kept
   * file now holds exactly this walk's listings (written, or nothing to write).
   */
  save(): Promise<boolean>;
  /** The folders this walk read from disk (all of them without a kept listing), in the order listed. */
  readonly listedAgain: readonly string[];
}

export interface FolderListerOptions {
  /** The repository's real root. */
  root: string;
  /** The absolute path of the repository's `info/exclude`, the lowest-precedence ignore rules. */
  excludeFile: string;
  /** The cache's name under `.checker/local/cache/` (one per walker); none: every folder is listed. */
  cacheName?: string;
  /**
   * The kept listings were written (or confirmed) by a walk of this same run a moment ago, with the same `info/exclude`:
   * they are used without a folder's lstat, and never written. A folder they lack is listed as without them.
   */
  isFresh?: boolean;
}

/** size, mtime, ctime and inode of a file: a changed file changes one of them. */
type Stamp = [number, number, number, number];

interface FolderRecord {
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  listedAt: number;
  hasGit: boolean;
  /** The stamp of the folder's own `.gitignore`, when it holds one. */
  ignoreStamp: Stamp | undefined;
  entries: ListedEntry[];
}

interface IgnoreLevel {
  /** Folder of the ignore file, repository-relative, '' for the root. */
  base: string;
  matcher: Ignore;
}

/**
 * Lists the folders of a working tree with git's ignore rules applied (`.gitignore` at every level, `info/exclude`
 * below them; the user's global excludes file is not read), keeping the listings across runs as git's untracked cache
 * does: a folder whose lstat (mtime, ctime, inode) is the one recorded holds the same names, since adding, removing or
 * renaming an entry changes its folder's mtime, so it is not read again and its ignore rules are not evaluated again.
 * A changed `.gitignore` lists again its folder and everything under it; a changed `info/exclude`, everything.
 * On medusa (15k files in 9.3k folders) the walk of a run after an edit read every folder and tested every entry
 * against the ignore rules: 0.5 s of a 0.75 s scan; a folder's lstat is what it costs now.
 */
export async function openFolderLister(options: FolderListerOptions): Promise<FolderLister> {
  const { root, excludeFile, cacheName, isFresh = false } = options;
  const cachePath = cacheName === undefined ? undefined : `cache/folders-${cacheName}.json`;
  const excludeStamp = stampOf(excludeFile);
  const kept = cachePath === undefined ? new Map<string, FolderRecord>() : await loadRecords(root, cachePath, excludeFile, excludeStamp);
  const records = new Map<string, FolderRecord>();
  const levels = new Map<string, IgnoreLevel[]>();
  // Folders whose ignore rules changed: no listing at or under them is trusted.
  const dirty = new Set<string>();
  const listedAgain: string[] = [];

  for (const [folder, record] of isFresh ? [] : kept) {
    if (record.ignoreStamp !== undefined && !isSameStamp(record.ignoreStamp, stampOf(join(root, folder, '.gitignore')))) dirty.add(folder);
  }
  const isUnderDirty = (folder: string): boolean => {
    if (dirty.size === 0) return false;
    for (let at = folder; ; at = parentOf(at)) {
      if (dirty.has(at)) return true;
      if (at === '') return false;
    }
  };

  const levelsOf = (folder: string): IgnoreLevel[] => {
    const known = levels.get(folder);
    if (known !== undefined) return known;
    let inherited: IgnoreLevel[];
    if (folder === '') {
      const exclude = readIgnoreLevel(excludeFile, '');
      inherited = exclude === undefined ? [] : [exclude];
    } else inherited = levelsOf(parentOf(folder));
    const own = records.get(folder)?.ignoreStamp === undefined ? undefined : readIgnoreLevel(join(root, folder, '.gitignore'), folder);
    const result = own === undefined ? inherited : [...inherited, own];
    levels.set(folder, result);
    return result;
  };

  const listAgain = (folder: string, stats: Stats): FolderListing => {
    const listedAt = Date.now();
    let dirents: Dirent[];
    try {
      dirents = readdirSync(folder === '' ? root : join(root, folder), { withFileTypes: true });
    } catch (error) {
      return { ok: false, error };
    }
    // Read only where the listing holds one: most folders have none, and a failed open per folder cost medusa's
    // 8,079 folders half a second.
    const hasIgnoreFile = dirents.some((entry) => entry.name === '.gitignore' && entry.isFile());
    const ignoreStamp = hasIgnoreFile ? stampOf(join(root, folder, '.gitignore')) : undefined;
    const previous = kept.get(folder);
    if (previous !== undefined && !isSameStamp(previous.ignoreStamp, ignoreStamp)) dirty.add(folder);
    const record: FolderRecord = {
      mtimeMs: stats.mtimeMs,
      ctimeMs: stats.ctimeMs,
      ino: stats.ino,
      listedAt,
      hasGit: dirents.some((entry) => entry.name === '.git'),
      ignoreStamp,
      entries: [],
    };
    records.set(folder, record);
    const active = levelsOf(folder);
    for (const dirent of dirents) {
      const name = dirent.name;
      if (name === '.git') continue;
      const path = folder === '' ? name : `${folder}/${name}`;
      // checker's own state is never the repository's content: while a run writes it (its .gitignore of `*` exists but
      // is still empty for an instant), a listing on another thread would count it as untracked files.
      if (path === LOCAL_STATE_DIR) continue;
      const kind = kindOf(dirent);
      if (!isIgnored(active, path, kind === 'd')) record.entries.push({ name, kind });
    }
    record.entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    listedAgain.push(folder);
    return { ok: true, entries: record.entries, hasGit: record.hasGit };
  };

  return {
    listedAgain,
    list: (folder) => {
      const fresh = isFresh ? kept.get(folder) : undefined;
      if (fresh !== undefined) {
        records.set(folder, fresh);
        return { ok: true, entries: fresh.entries, hasGit: fresh.hasGit };
      }
      let stats: Stats;
      try {
        stats = lstatSync(folder === '' ? root : join(root, folder));
      } catch (error) {
        return { ok: false, error };
      }
      // A folder swapped for a symlink since its parent was listed is not read through: it may point anywhere.
      if (!stats.isDirectory()) return { ok: false, error: new Error('not a folder (a symlink or a file now)') };
      const record = kept.get(folder);
      if (
        record !== undefined &&
        record.mtimeMs === stats.mtimeMs &&
        record.ctimeMs === stats.ctimeMs &&
        record.ino === stats.ino &&
        record.mtimeMs < record.listedAt - RACY_MS &&
        !isUnderDirty(folder)
      ) {
        records.set(folder, record);
        return { ok: true, entries: record.entries, hasGit: record.hasGit };
      }
      return listAgain(folder, stats);
    },
    save: async () => {
      if (cachePath === undefined || isFresh) return false;
      if (listedAgain.length === 0 && records.size === kept.size) return true;
      const folders = [...records].map(([folder, record]) => [
        folder,
        record.mtimeMs,
        record.ctimeMs,
        record.ino,
        record.listedAt,
        record.hasGit,
        record.ignoreStamp ?? null,
        // One string per folder ('/' cannot be in a name): the next run parses it several times faster than an array.
        record.entries.map((entry) => `${entry.kind}${entry.name}`).join('/'),
      ]);
      const text = JSON.stringify({ format: CACHE_FORMAT, excludeFile, excludeStamp: excludeStamp ?? null, folders });
      // Listings the next run would not read (a tree of millions of folders) are not written either.
      if (Buffer.byteLength(text) > MAX_CACHE_BYTES) return false;
      // The write adds a file to the cache folder and renames it: a file system that leaves the folder's mtime and ctime
      // as they were (some network mounts) would also hide new files from kept listings, so none is kept there. Asked
      // only of a folder last changed over RACY_MS ago, whose next change no timestamp's granularity can hide.
      const cacheFolder = join(root, '.checker', 'local', 'cache');
      const stamp = stampOf(cacheFolder);
      const before = stamp !== undefined && stamp[1] < Date.now() - RACY_MS ? stamp : undefined;
      let written: string;
      try {
        written = await writeArtifact(root, cachePath, text);
      } catch {
        // A cache that cannot be written only costs the next run its listings.
        return false;
      }
      const after = stampOf(cacheFolder);
      if (before !== undefined && after !== undefined && before[1] === after[1] && before[2] === after[2]) {
        await unlink(written).catch(() => undefined);
        return false;
      }
      return true;
    },
  };
}

function parentOf(folder: string): string {
  const slash = folder.lastIndexOf('/');
  return slash === -1 ? '' : folder.slice(0, slash);
}

function stampOf(path: string): Stamp | undefined {
  try {
    const stats = lstatSync(path);
    return [stats.size, stats.mtimeMs, stats.ctimeMs, stats.ino];
  } catch {
    return undefined;
  }
}

function isSameStamp(left: Stamp | undefined, right: Stamp | undefined): boolean {
  if (left === undefined || right === undefined) return left === right;
  return left.every((value, index) => value === right[index]);
}

/** What a directory entry or an lstat says a path is. */
export function kindOf(entry: Dirent | Stats): EntryKind {
  if (entry.isDirectory()) return 'd';
  if (entry.isFile()) return 'f';
  if (entry.isSymbolicLink()) return 'l';
  if (entry.isFIFO()) return 'p';
  if (entry.isSocket()) return 's';
  if (entry.isCharacterDevice()) return 'c';
  if (entry.isBlockDevice()) return 'b';
  return 'o';
}

const KINDS = new Set<string>(['d', 'f', 'l', 'p', 's', 'c', 'b', 'o']);

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function toStamp(value: unknown): Stamp | undefined | false {
  if (value === null) return undefined;
  return Array.isArray(value) && value.length === 4 && value.every(isNumber) ? (value as Stamp) : false;
}

/** A name a folder can hold: no separator, not `.` or `..`. */
function isEntryName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\0');
}

/** The kept listings, or none when the cache is absent, unreadable, malformed, or its `info/exclude` changed. */
async function loadRecords(
  root: string,
  cachePath: string,
  excludeFile: string,
  excludeStamp: Stamp | undefined,
): Promise<Map<string, FolderRecord>> {
  const records = new Map<string, FolderRecord>();
  let data: unknown;
  try {
    const bytes = await readArtifact(root, cachePath);
    if (bytes === undefined || bytes.length > MAX_CACHE_BYTES) return records;
    data = JSON.parse(bytes.toString('utf8'));
  } catch {
    return records;
  }
  if (typeof data !== 'object' || data === null) return records;
  const { format, excludeFile: keptExclude, excludeStamp: keptStamp, folders } = data as Record<string, unknown>;
  const stamp = toStamp(keptStamp);
  if (format !== CACHE_FORMAT || keptExclude !== excludeFile || stamp === false || !isSameStamp(stamp, excludeStamp)) return records;
  if (!Array.isArray(folders)) return records;
  for (const row of folders) {
    if (!Array.isArray(row) || row.length !== 8) return new Map();
    const [folder, mtimeMs, ctimeMs, ino, listedAt, hasGit, ignoreStamp, entries] = row as unknown[];
    const own = toStamp(ignoreStamp);
    if (
      typeof folder !== 'string' ||
      (folder !== '' && !folder.split('/').every(isEntryName)) ||
      !isNumber(mtimeMs) ||
      !isNumber(ctimeMs) ||
      !isNumber(ino) ||
      !isNumber(listedAt) ||
      typeof hasGit !== 'boolean' ||
      own === false ||
      typeof entries !== 'string'
    ) {
      return new Map();
    }
    const listed: ListedEntry[] = [];
    for (const entry of entries === '' ? [] : entries.split('/')) {
      if (!KINDS.has(entry.charAt(0)) || !isEntryName(entry.slice(1))) return new Map();
      listed.push({ name: entry.slice(1), kind: entry.charAt(0) as EntryKind });
    }
    records.set(folder, { mtimeMs, ctimeMs, ino, listedAt, hasGit, ignoreStamp: own, entries: listed });
  }
  return records;
}

function readIgnoreLevel(file: string, base: string): IgnoreLevel | undefined {
  const read = readGuardedSync(file, { maxBytes: MAX_IGNORE_FILE_BYTES });
  if (!read.ok) return undefined;
  try {
    return { base, matcher: ignore({ ignorecase: false }).add(read.bytes.toString('utf8')) };
  } catch {
    return undefined;
  }
}

/** Git precedence: the deepest ignore file with a matching pattern decides; info/exclude comes last. */
function isIgnored(levels: IgnoreLevel[], path: string, isDirectory: boolean): boolean {
  for (let index = levels.length - 1; index >= 0; index -= 1) {
    const level = levels[index];
    if (level === undefined) continue;
    const local = level.base === '' ? path : path.slice(level.base.length + 1);
    let result: { ignored: boolean; unignored: boolean };
    try {
      result = level.matcher.test(isDirectory ? `${local}/` : local);
    } catch {
      continue;
    }
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}
