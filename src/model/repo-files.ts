import { CheckerError } from './diagnostic.js';

/** Why a repository path was refused; each maps to one `input/*` diagnostic code. */
export type FileRefusalReason = 'missing' | 'not-a-file' | 'outside-repo' | 'too-large' | 'invalid-utf8' | 'unreadable';

export interface FileRefusal {
  ok: false;
  reason: FileRefusalReason;
  /** Names the path (JSON-quoted) and what is wrong with it. */
  message: string;
  hint: string;
  /** The size in bytes, for `too-large` when it is known before reading. */
  size?: number;
  /** The system's own words, for `unreadable`. */
  detail?: string;
}

export type TextRead = { ok: true; text: string } | FileRefusal;

/** The kind of the entry a path leads to once symlinks inside the repository are followed. */
export type FileKind = 'file' | 'directory' | 'other';

export type FileStat =
  | {
      ok: true;
      kind: FileKind;
      size: number;
      mtimeMs: number;
      /** The path itself is a symlink (its target lies inside the repository). */
      isSymlink: boolean;
    }
  | FileRefusal;

/** A folder entry as it is on disk: a symlink is reported as one, never followed. */
export interface FolderEntry {
  name: string;
  kind: FileKind | 'symlink';
}

export type FolderListing = { ok: true; entries: FolderEntry[] } | FileRefusal;

export interface ReadTextOptions {
  maxBytes: number;
  /** 'refuse' (default): invalid UTF-8 is refused (`invalid-utf8`); 'replace': decoded with U+FFFD. */
  invalidUtf8?: 'refuse' | 'replace';
  /**
   * True: the file's first `maxBytes` bytes, a longer file cut there instead of refused (`too-large`), and a character
   * the cut splits left out. For a caller that decides from a file's start whether to read it whole.
   */
  head?: boolean;
}

/** `bytes` without the UTF-8 sequence a cut at its end left incomplete (what is invalid before it stays invalid). */
export function dropCutCharacter(bytes: Uint8Array): Uint8Array {
  // A sequence is at most 4 bytes: look back at most 3 for the lead byte of the last one.
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}

/**
 * The repository's working tree as the core sees it. Every path is repository-relative POSIX and must stay inside the
 * repository lexically and by realpath; a symlink leading outside it, a FIFO, a device or a socket is refused, and so
 * is a file over the size cap, before it is read. A leading BOM is dropped. Refusals are data, never thrown.
 */
export interface RepoFiles {
  readText(path: string, options: ReadTextOptions): Promise<TextRead>;
  /** Entries of a folder sorted by name; the folder itself may be reached through a symlink inside the repository. */
  list(path: string): Promise<FolderListing>;
  stat(path: string): Promise<FileStat>;
  /** The repository-relative path of an absolute path on this machine lying inside the repository root (or its real path). */
  toRepoPath(absolutePath: string): Promise<string | undefined>;
  /** Whether an absolute path outside the repository exists on this machine (coverage written here is not remapped). */
  existsOnHost(absolutePath: string): Promise<boolean>;
}

const CODES: Readonly<Record<FileRefusalReason, string>> = {
  missing: 'input/not-found',
  'not-a-file': 'input/not-a-file',
  'outside-repo': 'input/outside-repo',
  'too-large': 'input/too-large',
  'invalid-utf8': 'input/invalid-utf8',
  unreadable: 'input/unreadable',
};

/** The `input/*` diagnostic code of a refusal. */
export function toInputCode(reason: FileRefusalReason): string {
  return CODES[reason];
}

/** A refusal as the CheckerError a caller that cannot go on throws. */
export function toInputError(path: string, refusal: FileRefusal): CheckerError {
  return new CheckerError(toInputCode(refusal.reason), refusal.message, { hint: refusal.hint, location: { file: path } });
}

/** The refusals both Env implementations give, worded once so disk and memory say the same thing. */
export const refuse = {
  invalidPath: (path: string): FileRefusal => ({
    ok: false,
    reason: 'outside-repo',
    message: `invalid repository path ${JSON.stringify(path)}`,
    hint: 'pass a path relative to the repository root',
  }),
  outside: (path: string): FileRefusal => ({
    ok: false,
    reason: 'outside-repo',
    message: `${JSON.stringify(path)} is outside the repository`,
    hint: 'only files inside the repository can be read; copy the file into the repository',
  }),
  symlinkOutside: (path: string): FileRefusal => ({
    ok: false,
    reason: 'outside-repo',
    message: `${JSON.stringify(path)} resolves outside the repository (symlink)`,
    hint: 'a symlink to a file outside the repository is refused; copy the file into the repository',
  }),
  missing: (path: string): FileRefusal => ({
    ok: false,
    reason: 'missing',
    message: `${JSON.stringify(path)} does not exist`,
    hint: 'check the path',
  }),
  symlinkLoop: (path: string): FileRefusal => ({
    ok: false,
    reason: 'not-a-file',
    message: `${JSON.stringify(path)} is a symlink loop`,
    hint: 'replace the symlink with a regular file',
  }),
  notAFile: (path: string): FileRefusal => ({
    ok: false,
    reason: 'not-a-file',
    message: `${JSON.stringify(path)} is not a regular file`,
    hint: 'point to a regular file',
  }),
  notAFolder: (path: string): FileRefusal => ({
    ok: false,
    reason: 'not-a-file',
    message: `${JSON.stringify(path)} is not a folder`,
    hint: 'point to a folder',
  }),
  tooLarge: (path: string, maxBytes: number, size?: number): FileRefusal => ({
    ok: false,
    reason: 'too-large',
    message:
      size === undefined
        ? `${JSON.stringify(path)} is over the ${maxBytes}-byte limit`
        : `${JSON.stringify(path)} is ${size} bytes, over the ${maxBytes}-byte limit`,
    hint: 'shrink the file',
    ...(size === undefined ? {} : { size }),
  }),
  invalidUtf8: (path: string): FileRefusal => ({
    ok: false,
    reason: 'invalid-utf8',
    message: `${JSON.stringify(path)} is not valid UTF-8`,
    hint: 'save the file as UTF-8',
  }),
  unreadable: (path: string, detail: string): FileRefusal => ({
    ok: false,
    reason: 'unreadable',
    message: `${JSON.stringify(path)} cannot be read: ${detail}`,
    hint: 'make it a regular, readable file inside the repository',
    detail,
  }),
};
