import { createHash, randomUUID } from 'node:crypto';
import { lstat, readdir, unlink } from 'node:fs/promises';
import { lstatSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import { join } from 'node:path';
import type { Diagnostic } from '../model/diagnostic.js';
import type { FileFacts, FileWords, ParseOptions } from '../model/facts.js';
import type { SkipReason } from '../model/scan.js';
import { writeArtifact } from './artifacts.js';
import { readGuarded } from './guarded-read.js';
import { redactTree } from '../text/redact/tree.js';
import { isRecord } from '../text/is-record.js';
import { toAsciiJson } from '../text/ascii-json.js';
import { compareText } from '../text/compare-text.js';

/** Bump whenever extracted facts change shape or meaning, or the cache files their layout: every entry is then re-parsed. */
export const PARSER_VERSION = 100;

export const FACTS_CACHE_FILE = `facts-v${PARSER_VERSION}.json`;
/**
 * The entries changed since the cache file was written, against its `baseId`: a run that parsed a few files rewrites
 * this small file instead of the whole cache (42 MB on a 17k-file tree: 0.85 s of every run after an edit).
 */
export const FACTS_JOURNAL_FILE = `facts-v${PARSER_VERSION}.journal.json`;
/**
 * Every list of the facts, kept apart from the cache file and parsed per file on first use: a run that loads the kept
 * graph parses no file's facts, and a build only the lists it reads. The cache file holds the stats, the hash and the
 * line count (0.7 MB instead of 25 MB on the 10k synthetic repository). Written with the cache file, before it; the
 * cache file names its length and the id it ends with.
 */
export const FACTS_DETAIL_FILE = `facts-v${PARSER_VERSION}.detail.json`;
/** The lists of parsed facts before `typeSpans` and `lines`, and after them (the order of model/facts.ts). */
const LEADING_FIELDS = ['imports', 'exports', 'tests', 'mocks', 'routes', 'mounts', 'uses'] as const;
const TRAILING_FIELDS = ['callables', 'constants', 'signals'] as const;
/**
 * The functions (with their complexity) are a part of their own: the hotspot ranking reads them for every file the
 * history window churned, and parsing the whole trailing part for them cost an `ai` after an edit on outline 67-111 ms.
 */
const FUNCTION_FIELDS = ['functions'] as const;
/** Fields of FileFacts kept in the detail file, left out of the cache file. */
const DETAIL_FIELDS = [...LEADING_FIELDS, ...TRAILING_FIELDS, ...FUNCTION_FIELDS] as const;
/** The words of a file (FileFacts.words), read by task grounding alone: a third part of the detail file, after the lists. */
const WORDS_FIELD = 'words';
const DETAIL_FIELD_SET: ReadonlySet<string> = new Set([...DETAIL_FIELDS, WORDS_FIELD]);
type DetailField = (typeof DETAIL_FIELDS)[number];
/**
 * Where an entry's parts are in the detail file: the start of its first part, and the length of each (leading,
 * trailing, words, functions; words: 0 when none).
 */
type DetailPlace = [number, number, number, number, number];
const WORD_FIELDS = ['declared', 'code', 'strings', 'comments', 'names'] as const;
/**
 * The journal is folded into the cache file once it holds more entries than this, or than a tenth of the cache. Every
 * run reads the whole journal, each entry's facts parsed at once (the cache file's wait in the detail file until used),
 * and a run that parses a file writes it again: the 461 entries the first edit run after a focused cold one parsed on
 * outline (0.8 MB) cost every later run ~60 ms, where folding them cost the run that parsed them once.
 */
const MAX_JOURNAL_ENTRIES = 128;
const CACHE_DIR = ['.checker', 'local', 'cache'];
/** The facts of 100k files are about 150 MB of JSON; a bigger cache file is discarded, not parsed. */
const MAX_CACHE_BYTES = 512 * 1024 * 1024;
const FACT_LISTS = ['imports', 'exports', 'tests', 'mocks', 'routes', 'mounts', 'signals', 'functions'] as const;
const SKIP_REASONS: ReadonlySet<string> = new Set<SkipReason>([
  'binary',
  'invalid-utf8',
  'minified',
  'generated',
  'nesting-too-deep',
  'unsafe-name',
]);

export interface CachedSkip {
  reason: SkipReason;
  detail: string;
}

export interface FactsCacheEntry {
  hash: string;
  size: number;
  mtimeMs: number;
  ino: number;
  /** Exactly one of `facts` and `skip` is set. */
  facts?: FileFacts;
  skip?: CachedSkip;
  /**
   * The facts hold the file's imports, exports and lines alone, read by the link scanner (a focused run's `linked`
   * outcome, src/io/parse-files.ts): a focused run takes them as they are, any other run parses the file in full.
   */
  links?: true;
  /** On disk only: where the facts' lists are in the detail file (start byte, then each part's length). */
  detail?: DetailPlace;
}

export interface FactsCache {
  readonly entries: Map<string, FactsCacheEntry>;
  readonly optionsHash: string;
  /**
   * Modification time of the loaded cache file, or of its journal when that is newer; entries modified at or after it
   * are re-hashed (racy-git rule).
   */
  readonly loadedMtimeMs: number;
  /** False when `.checker` or `.checker/local` is a symlink or not a directory: nothing is read or written. */
  readonly isWritable: boolean;
  isDirty: boolean;
  /** The loaded cache file's id, which a journal must name; absent when the next save must write the whole file. */
  baseId?: string;
  /** What the cache file lacks: the loaded journal, then every change since (null for a removed entry). */
  journal: Map<string, FactsCacheEntry | null>;
}

interface CacheDocument {
  parserVersion: number;
  optionsHash: string;
  baseId?: string;
  /** The detail file this cache file was written with (absent in a cache that holds every field inline). */
  /**
   * The detail file this cache file was written with: its length, and the id it ends with (`\n` and the id), which
   * no other write of it shares.
   */
  detail?: { id: string; bytes: number };
  entries: Record<string, FactsCacheEntry>;
}

interface JournalDocument {
  parserVersion: number;
  optionsHash: string;
  baseId: string;
  entries: Record<string, FactsCacheEntry | null>;
}

/** Records that an entry has nothing to redact (a parse child redacted its facts and nothing changed): a save writes it as it is. */
export function markRedacted(entry: FactsCacheEntry): FactsCacheEntry {
  redactedOnDisk.add(entry);
  return entry;
}

/** Sets an entry, recording it for the journal. */
export function setCacheEntry(cache: FactsCache, path: string, entry: FactsCacheEntry): void {
  cache.entries.set(path, entry);
  cache.journal.set(path, entry);
  cache.isDirty = true;
}

/** Removes an entry, recording the removal for the journal. */
export function deleteCacheEntry(cache: FactsCache, path: string): void {
  if (!cache.entries.delete(path)) return;
  cache.journal.set(path, null);
  cache.isDirty = true;
}

/** Facts depend on the options: a changed assertion helper or pack signal word makes every cached entry stale. */
export function hashParseOptions(options: ParseOptions): string {
  const canonical = JSON.stringify({ assertionHelpers: [...options.assertionHelpers].sort(), signalWords: options.signalWords ?? null });
  return createHash('sha1').update(canonical).digest('hex');
}

/**
 * Entries read back from the cache file, which were redacted when they were written, and entries whose parse child found
 * nothing to redact (markRedacted): a save redacts only the others (redacting the whole 3 MB document again cost 0.25 s
 * of every run that parsed one file).
 */
const redactedOnDisk = new WeakSet<FactsCacheEntry>();

export function createEmptyCache(options: ParseOptions, isWritable = true): FactsCache {
  return { entries: new Map(), optionsHash: hashParseOptions(options), loadedMtimeMs: 0, isWritable, isDirty: false, journal: new Map() };
}

/** When the facts cache (file or journal) was last written (ms), or undefined when there is none; a cheap look before loading it. */
export function readFactsCacheTime(root: string): number | undefined {
  const timeOf = (name: string): number | undefined => {
    try {
      const stats = lstatSync(join(root, ...CACHE_DIR, name));
      return stats.isFile() ? stats.mtimeMs : undefined;
    } catch {
      return undefined;
    }
  };
  const base = timeOf(FACTS_CACHE_FILE);
  return base === undefined ? undefined : Math.max(base, timeOf(FACTS_JOURNAL_FILE) ?? base);
}

/** Loads the facts cache; a missing, corrupt or foreign cache yields an empty one and never fails the run. */
export async function loadFactsCache(root: string, options: ParseOptions): Promise<{ cache: FactsCache; diagnostics: Diagnostic[] }> {
  const symlinked = await findUnsafeComponent(root, CACHE_DIR);
  if (symlinked !== undefined) {
    return {
      cache: createEmptyCache(options, false),
      diagnostics: [
        {
          code: 'cache/unsafe-path',
          severity: 'warn',
          message: `${symlinked} is a symlink or not a directory, so the facts cache is neither read nor written.`,
          hint: `Remove ${symlinked} (checker recreates .checker/local as a plain folder).`,
          location: { file: symlinked },
        },
      ],
    };
  }
  const empty = createEmptyCache(options);
  const relativeFile = [...CACHE_DIR, FACTS_CACHE_FILE].join('/');
  const file = join(root, relativeFile);
  let text: string;
  let mtimeMs: number;
  let detailRead: Promise<Buffer | undefined> | undefined;
  try {
    const stats = await lstat(file);
    if (!stats.isFile()) return { cache: { ...empty, isDirty: true }, diagnostics: [discarded(relativeFile, 'it is not a regular file')] };
    mtimeMs = stats.mtimeMs;
    // The detail file is read in the thread pool while the cache file is read, decoded and parsed.
    detailRead = readDetailFile(root);
    const read = await readGuarded(file, { maxBytes: MAX_CACHE_BYTES });
    if (!read.ok) {
      if (read.reason === 'missing') return { cache: empty, diagnostics: [] };
      return { cache: { ...empty, isDirty: true }, diagnostics: [discarded(relativeFile, `it ${read.detail}`)] };
    }
    text = decodeCacheText(read.bytes);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { cache: empty, diagnostics: [] };
    return {
      cache: { ...empty, isDirty: true },
      diagnostics: [discarded(relativeFile, `it could not be read (${errorCode(error) ?? 'error'})`)],
    };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return { cache: { ...empty, isDirty: true }, diagnostics: [discarded(relativeFile, 'it is not valid JSON')] };
  }
  if (!isCacheDocument(document)) {
    return { cache: { ...empty, isDirty: true }, diagnostics: [discarded(relativeFile, 'it does not have the expected shape')] };
  }
  if (document.parserVersion !== PARSER_VERSION) {
    return {
      cache: { ...empty, isDirty: true },
      diagnostics: [discarded(relativeFile, `it was written by parser version ${document.parserVersion}`)],
    };
  }
  if (document.optionsHash !== empty.optionsHash) return { cache: { ...empty, isDirty: true }, diagnostics: [] };

  let detail: Buffer | undefined;
  if (document.detail !== undefined) {
    const read = await detailRead;
    detail = read !== undefined && isDetailOf(read, document.detail) ? read : undefined;
    if (detail === undefined) {
      return {
        cache: { ...empty, isDirty: true },
        diagnostics: [discarded(relativeFile, `its ${FACTS_DETAIL_FILE} is missing, damaged or from another write`)],
      };
    }
  }

  const entries = new Map<string, FactsCacheEntry>();
  let invalid = 0;
  for (const [path, entry] of Object.entries(document.entries)) {
    const loaded = detail === undefined ? (isCacheEntry(entry) ? entry : undefined) : takeDetailedEntry(entry, detail);
    if (loaded !== undefined) {
      entries.set(path, loaded);
      redactedOnDisk.add(loaded);
    } else invalid += 1;
  }
  const journal = invalid > 0 || document.baseId === undefined ? undefined : await loadJournal(root, document.baseId, empty.optionsHash);
  for (const [path, entry] of journal?.entries ?? []) {
    if (entry === null) entries.delete(path);
    else entries.set(path, entry);
  }
  invalid += journal?.invalid ?? 0;
  const diagnostics = invalid === 0 ? [] : [discarded(relativeFile, `${invalid} entries were malformed`, 'Those entries')];
  const cache: FactsCache = {
    entries,
    optionsHash: empty.optionsHash,
    loadedMtimeMs: Math.max(mtimeMs, journal?.mtimeMs ?? 0),
    isWritable: true,
    // Malformed entries are dropped by writing the whole file again; so is a file of an older build, with every field
    // inline, rewritten once with its detail file.
    isDirty: invalid > 0 || (detail === undefined && entries.size > 0),
    journal: journal?.entries ?? new Map(),
  };
  if (invalid === 0 && detail !== undefined && document.baseId !== undefined) cache.baseId = document.baseId;
  return { cache, diagnostics };
}

/** The journal of the cache file `baseId`; undefined when there is none, it belongs to another, or it is damaged. */
async function loadJournal(
  root: string,
  baseId: string,
  optionsHash: string,
): Promise<{ entries: Map<string, FactsCacheEntry | null>; mtimeMs: number; invalid: number } | undefined> {
  const file = join(root, ...CACHE_DIR, FACTS_JOURNAL_FILE);
  let mtimeMs: number;
  let document: unknown;
  try {
    const stats = await lstat(file);
    if (!stats.isFile()) return undefined;
    mtimeMs = stats.mtimeMs;
    const read = await readGuarded(file, { maxBytes: MAX_CACHE_BYTES });
    if (!read.ok) return undefined;
    document = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (
    !isRecord(document) ||
    document.parserVersion !== PARSER_VERSION ||
    document.optionsHash !== optionsHash ||
    document.baseId !== baseId ||
    !isRecord(document.entries)
  ) {
    return undefined;
  }
  const entries = new Map<string, FactsCacheEntry | null>();
  let invalid = 0;
  for (const [path, entry] of Object.entries(document.entries)) {
    if (entry === null) entries.set(path, null);
    else if (isCacheEntry(entry)) {
      entries.set(path, entry);
      redactedOnDisk.add(entry);
    } else invalid += 1;
  }
  return { entries, mtimeMs, invalid };
}

/**
 * Writes what changed, atomically (temp file + rename): the journal when the loaded cache file can take one and it
 * stays small, else the whole cache file (with a new id, which leaves any journal behind). Failures become diagnostics.
 */
export async function saveFactsCache(root: string, cache: FactsCache): Promise<Diagnostic[]> {
  if (!cache.isWritable || !cache.isDirty) return [];
  // Facts hold names and strings from code (test titles, route paths, literals): no secret is written to disk.
  const redacted = (entry: FactsCacheEntry): FactsCacheEntry => (redactedOnDisk.has(entry) ? entry : redactTree(entry));
  const directory = join(root, ...CACHE_DIR);
  try {
    if (cache.baseId !== undefined && cache.journal.size <= Math.max(MAX_JOURNAL_ENTRIES, cache.entries.size / 10)) {
      const journal: JournalDocument = {
        parserVersion: PARSER_VERSION,
        optionsHash: cache.optionsHash,
        baseId: cache.baseId,
        entries: Object.fromEntries(
          [...cache.journal.entries()]
            .sort(([a], [b]) => compareText(a, b))
            .map(([path, entry]) => [path, entry === null ? null : redacted(entry)]),
        ),
      };
      await writeArtifact(root, `cache/${FACTS_JOURNAL_FILE}`, JSON.stringify(journal), { mode: 'replace' });
    } else {
      const sorted = [...cache.entries.entries()]
        .sort(([a], [b]) => compareText(a, b))
        .map(([path, entry]): [string, FactsCacheEntry] => [path, redacted(entry)]);
      const baseId = randomUUID();
      const split = splitDetail(sorted, baseId);
      // The detail file first: a cache file is never on disk before the detail file it names.
      await writeArtifact(root, `cache/${FACTS_DETAIL_FILE}`, split.detail, { mode: 'replace' });
      const document: CacheDocument = {
        parserVersion: PARSER_VERSION,
        optionsHash: cache.optionsHash,
        baseId,
        detail: { id: baseId, bytes: split.detail.byteLength },
        entries: Object.fromEntries(split.entries),
      };
      await writeArtifact(root, `cache/${FACTS_CACHE_FILE}`, toAsciiJson(document), { mode: 'replace' });
      cache.baseId = baseId;
      cache.journal.clear();
      await unlink(join(directory, FACTS_JOURNAL_FILE)).catch(() => undefined);
      await removeStaleVersions(directory);
    }
    cache.isDirty = false;
    return [];
  } catch (error) {
    return [
      {
        code: 'cache/write-failed',
        severity: 'warn',
        message: `The facts cache could not be written: ${error instanceof Error ? error.message : String(error)}`,
        hint: 'The next run parses the changed files again; check the permissions of .checker/local.',
        location: { file: [...CACHE_DIR].join('/') },
      },
    ];
  }
}

/**
 * Each loaded entry's lists come in parts, each parsed on first use: the lists before `lines` (what a graph is
 * built from: imports, exports, tests, routes) and those after (callables, constants, signals: most of the
 * bytes, read by an analysis for the files it looks at). A run that patches a kept graph parses every file's first
 * part, and the second only of the files whose routes it composes again (515 of 10,000 synthetic files). A part is kept on its facts under a symbol: its bytes until read, then its parsed lists,
 * which the lists' getters return (they stay getters: turning each into a plain value cost a map change per list).
 * A third part holds the file's words (FileFacts.words), which only task grounding reads, and a fourth the functions
 * (FUNCTION_FIELDS), which the hotspot ranking reads for every churned file.
 */
const LEADING_PART = Symbol('leading lists');
const TRAILING_PART = Symbol('trailing lists');
const FUNCTIONS_PART = Symbol('functions');
const WORDS_PART = Symbol('words');
/** Where loaded facts' parts are in the detail file: one object per entry, where two Buffer views cost twice as much. */
const PLACE = Symbol('detail place');
type PartKey = typeof LEADING_PART | typeof TRAILING_PART | typeof FUNCTIONS_PART;
interface Place {
  detail: Buffer;
  start: number;
  leading: number;
  trailing: number;
  words: number;
  functions: number;
}
type LoadedFacts = FileFacts & {
  [LEADING_PART]?: Record<string, unknown[]>;
  [TRAILING_PART]?: Record<string, unknown[]>;
  [FUNCTIONS_PART]?: Record<string, unknown[]>;
  /** The parsed words part: null when the entry has none or it does not read as words. */
  [WORDS_PART]?: FileWords | null;
  [PLACE]?: Place;
};

/**
 * The entries as the cache file holds them (facts without their lists, each entry with its parts' place) and the
 * detail file: per entry, each part as the bytes it was loaded with when it was never read, else as ASCII JSON.
 */
function splitDetail(sorted: [string, FactsCacheEntry][], id: string): { entries: [string, FactsCacheEntry][]; detail: Buffer } {
  const chunks: Buffer[] = [];
  let offset = 0;
  const entries = sorted.map(([path, entry]): [string, FactsCacheEntry] => {
    const facts = entry.facts;
    if (facts === undefined) return [path, entry];
    const loaded = facts as LoadedFacts;
    const leading = unreadPart(loaded, LEADING_PART) ?? toPartBytes(facts, LEADING_FIELDS);
    const trailing = unreadPart(loaded, TRAILING_PART) ?? toPartBytes(facts, TRAILING_FIELDS);
    const words = unreadPart(loaded, WORDS_PART) ?? toWordsBytes(facts.words);
    const functions = unreadPart(loaded, FUNCTIONS_PART) ?? toPartBytes(facts, FUNCTION_FIELDS);
    chunks.push(leading, trailing, words, functions);
    const place: DetailPlace = [offset, leading.byteLength, trailing.byteLength, words.byteLength, functions.byteLength];
    offset += leading.byteLength + trailing.byteLength + words.byteLength + functions.byteLength;
    const { detail: _, ...rest } = entry;
    return [path, { ...rest, facts: withoutDetail(facts), detail: place }];
  });
  const trailer = Buffer.from(`\n${id}`, 'latin1');
  chunks.push(trailer);
  return { entries, detail: Buffer.concat(chunks, offset + trailer.byteLength) };
}

/** The bytes of a part never read since the load; undefined once read (or for facts not loaded from the cache). */
function unreadPart(facts: LoadedFacts, key: PartKey | typeof WORDS_PART): Buffer | undefined {
  const place = facts[PLACE];
  if (facts[key] !== undefined || place === undefined) return undefined;
  // The parts lie in this order, each after the one before.
  const lengths = [place.leading, place.trailing, place.words, place.functions];
  const index = [LEADING_PART, TRAILING_PART, WORDS_PART, FUNCTIONS_PART].indexOf(key);
  let start = place.start;
  for (let before = 0; before < index; before += 1) start += lengths[before] ?? 0;
  return place.detail.subarray(start, start + (lengths[index] ?? 0));
}

function toWordsBytes(words: FileWords | undefined): Buffer {
  return words === undefined ? Buffer.alloc(0) : Buffer.from(toAsciiJson(words), 'latin1');
}

function isFileWords(value: unknown): value is FileWords {
  return isRecord(value) && WORD_FIELDS.every((field) => typeof value[field] === 'string');
}

function toPartBytes(facts: FileFacts, fields: readonly DetailField[]): Buffer {
  return Buffer.from(toAsciiJson(Object.fromEntries(fields.map((field) => [field, facts[field] ?? []]))), 'latin1');
}

/** A copy of the facts without their lists (their getters are not run: unread parts stay unread). */
function withoutDetail(facts: FileFacts): FileFacts {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(facts)) if (!DETAIL_FIELD_SET.has(key)) copy[key] = (facts as unknown as Record<string, unknown>)[key];
  return copy as unknown as FileFacts;
}

/**
 * The detail file, or undefined when it cannot be read. Not hashed: a cache file and a detail file of two writes
 * cannot pass for each other, since each write ends its detail file with its own id (a SHA-1 of the 17k-file tree's
 * detail file cost every warm run 0.1 s).
 */
async function readDetailFile(root: string): Promise<Buffer | undefined> {
  try {
    const read = await readGuarded(join(root, ...CACHE_DIR, FACTS_DETAIL_FILE), { maxBytes: MAX_CACHE_BYTES });
    return read.ok ? Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `bytes` is the detail file a cache file names: its length, and its own id at its end. */
function isDetailOf(bytes: Buffer, named: { id: string; bytes: number }): boolean {
  const trailer = `\n${named.id}`;
  return (
    bytes.byteLength === named.bytes &&
    bytes.byteLength >= trailer.length &&
    bytes.toString('latin1', bytes.byteLength - trailer.length) === trailer
  );
}

/**
 * An entry of a cache file written with a detail file: its facts get each list as a getter that parses the entry's
 * part of the detail file on first use. Undefined when the entry is malformed or its parts are out of range.
 */
function takeDetailedEntry(value: unknown, detail: Buffer): FactsCacheEntry | undefined {
  if (!isRecord(value) || value.facts === undefined) return isCacheEntry(value) && value.detail === undefined ? value : undefined;
  const place = value.detail;
  if (
    !Array.isArray(place) ||
    place.length !== 5 ||
    !place.every((number) => Number.isSafeInteger(number) && number >= 0) ||
    place[0] + place[1] + place[2] + place[3] + place[4] > detail.byteLength
  ) {
    return undefined;
  }
  const inline = value.facts;
  if (!isRecord(inline) || [...DETAIL_FIELD_SET].some((field) => Object.hasOwn(inline, field))) return undefined;
  delete value.detail;
  if (!isCacheEntry(value, true)) return undefined;
  // A new object with the lists where parsed facts have them, so that loaded facts list their fields in the same order
  // and share their few V8 maps (the accessors are shared); `typeSpans`, `lines` and `failure` sit between them.
  const facts = Object.defineProperties({}, LEADING_ACCESSORS) as Record<string, unknown>;
  for (const key of Object.keys(inline)) facts[key] = inline[key];
  Object.defineProperties(facts, TRAILING_ACCESSORS);
  const [start, leading, trailing, words, functions] = place as DetailPlace;
  if (words > 0) Object.defineProperty(facts, WORDS_FIELD, WORDS_ACCESSOR);
  // Not enumerable: copies, comparisons and JSON of the facts see only their fields.
  Object.defineProperty(facts, PLACE, {
    value: { detail, start, leading, trailing, words, functions },
    writable: true,
    enumerable: false,
    configurable: true,
  });
  value.facts = facts as unknown as LoadedFacts;
  return value;
}

/** The lists of one part of loaded facts, parsed from its bytes on first use. */
function readPart(facts: LoadedFacts, key: PartKey, fields: readonly DetailField[]): Record<string, unknown[]> {
  const read = facts[key];
  if (read !== undefined) return read;
  const part = unreadPart(facts, key);
  let parsed: unknown;
  try {
    parsed = part === undefined ? undefined : JSON.parse(decodeCacheText(part));
  } catch {
    parsed = undefined;
  }
  // The detail file was checked on load: a malformed part can only be a forged one, read as empty lists.
  const lists: Record<string, unknown[]> = {};
  for (const field of fields) {
    const list = isRecord(parsed) ? parsed[field] : undefined;
    lists[field] = Array.isArray(list) ? list : [];
  }
  Object.defineProperty(facts, key, { value: lists, writable: true, enumerable: false, configurable: true });
  return lists;
}

function toAccessors(key: PartKey, fields: readonly DetailField[]): PropertyDescriptorMap {
  return Object.fromEntries(
    fields.map((field) => [
      field,
      {
        get(this: LoadedFacts): unknown {
          return readPart(this, key, fields)[field];
        },
        set(this: LoadedFacts, value: unknown[]): void {
          readPart(this, key, fields)[field] = value;
        },
        enumerable: true,
        configurable: true,
      },
    ]),
  );
}

const LEADING_ACCESSORS = toAccessors(LEADING_PART, LEADING_FIELDS);
/** The lists after `lines`, in the order of model/facts.ts: `functions` (a part of its own) between constants and signals. */
const TRAILING_ACCESSORS = ((trailing: PropertyDescriptorMap, functions: PropertyDescriptorMap): PropertyDescriptorMap => ({
  callables: trailing.callables as PropertyDescriptor,
  constants: trailing.constants as PropertyDescriptor,
  functions: functions.functions as PropertyDescriptor,
  signals: trailing.signals as PropertyDescriptor,
}))(toAccessors(TRAILING_PART, TRAILING_FIELDS), toAccessors(FUNCTIONS_PART, FUNCTION_FIELDS));

/** The words of loaded facts, parsed from their part on first use; a part that does not read as words is none. */
function readWords(facts: LoadedFacts): FileWords | undefined {
  const read = facts[WORDS_PART];
  if (read !== undefined) return read ?? undefined;
  const part = unreadPart(facts, WORDS_PART);
  let parsed: unknown;
  try {
    parsed = part === undefined || part.byteLength === 0 ? undefined : JSON.parse(decodeCacheText(part));
  } catch {
    parsed = undefined;
  }
  const words = isFileWords(parsed) ? parsed : null;
  Object.defineProperty(facts, WORDS_PART, { value: words, writable: true, enumerable: false, configurable: true });
  return words ?? undefined;
}

const WORDS_ACCESSOR: PropertyDescriptor = {
  get(this: LoadedFacts): FileWords | undefined {
    return readWords(this);
  },
  set(this: LoadedFacts, value: FileWords | undefined): void {
    Object.defineProperty(this, WORDS_PART, { value: value ?? null, writable: true, enumerable: false, configurable: true });
  },
  enumerable: true,
  configurable: true,
};

/** An ASCII file (written by toAsciiJson) is read as Latin-1, the fast way; any other as UTF-8. */
function decodeCacheText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** The first existing component of `.checker/local/cache` that is a symlink or not a directory. */
async function findUnsafeComponent(root: string, components: string[]): Promise<string | undefined> {
  for (let index = 1; index <= components.length; index += 1) {
    const relativePath = components.slice(0, index).join('/');
    try {
      const stats = await lstat(join(root, relativePath));
      if (stats.isSymbolicLink() || !stats.isDirectory()) return relativePath;
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      return relativePath;
    }
  }
  return undefined;
}

async function removeStaleVersions(directory: string): Promise<void> {
  const names = await readdir(directory);
  await Promise.all(
    names
      .filter(
        (name) =>
          /^facts-v\d+(\.journal|\.detail)?\.json$/.test(name) &&
          name !== FACTS_CACHE_FILE &&
          name !== FACTS_JOURNAL_FILE &&
          name !== FACTS_DETAIL_FILE,
      )
      .map((name) => unlink(join(directory, name)).catch(() => undefined)),
  );
}

function discarded(file: string, reason: string, subject = 'The facts cache'): Diagnostic {
  return {
    code: 'cache/discarded',
    severity: 'info',
    message: `${subject} in ${file} ${subject === 'The facts cache' ? 'was' : 'were'} discarded because ${reason}; files are parsed again.`,
    location: { file },
  };
}

function isCacheDocument(value: unknown): value is CacheDocument {
  if (!isRecord(value) || typeof value.parserVersion !== 'number' || typeof value.optionsHash !== 'string' || !isRecord(value.entries)) {
    return false;
  }
  const detail = value.detail;
  return detail === undefined || (isRecord(detail) && typeof detail.id === 'string' && Number.isSafeInteger(detail.bytes));
}

function isCacheEntry(value: unknown, detailApart = false): value is FactsCacheEntry {
  if (!isRecord(value)) return false;
  if (
    typeof value.hash !== 'string' ||
    typeof value.size !== 'number' ||
    typeof value.mtimeMs !== 'number' ||
    typeof value.ino !== 'number'
  ) {
    return false;
  }
  const hasFacts = value.facts !== undefined;
  const hasSkip = value.skip !== undefined;
  if (hasFacts === hasSkip || (value.links !== undefined && (value.links !== true || !hasFacts))) return false;
  if (hasSkip)
    return (
      isRecord(value.skip) &&
      typeof value.skip.reason === 'string' &&
      SKIP_REASONS.has(value.skip.reason) &&
      typeof value.skip.detail === 'string'
    );
  return isFileFactsShape(value.facts, detailApart);
}

/** `detailApart`: the detail fields are in the detail file, not checked here. */
export function isFileFactsShape(value: unknown, detailApart = false): value is FileFacts {
  if (!isRecord(value) || typeof value.lines !== 'number') return false;
  for (const list of FACT_LISTS) if (!(detailApart && DETAIL_FIELD_SET.has(list)) && !Array.isArray(value[list])) return false;
  if (!detailApart && value.words !== undefined && !isFileWords(value.words)) return false;
  return value.failure === undefined || (isRecord(value.failure) && typeof value.failure.code === 'string');
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}
