import { availableParallelism } from 'node:os';
import type { Diagnostic } from '../model/diagnostic.js';
import type { FocusSelector, KnownFacts } from '../model/env.js';
import { emptyFacts, type FileFacts, isCodeFile, type ParseFailure, type ParseOptions } from '../model/facts.js';
import type { ScannedFile, SkippedFile } from '../model/scan.js';
import {
  createEmptyCache,
  deleteCacheEntry,
  markRedacted,
  setCacheEntry,
  loadFactsCache,
  readFactsCacheTime,
  saveFactsCache,
  type FactsCache,
  type FactsCacheEntry,
} from './parse-cache.js';
import { countLines, createParsePool, type ParsePool, type ReadJob, type ReadOutcome, type ReadSource } from './parse-pool.js';
import type { ProgressSink } from '../model/progress.js';
import { classifySource, readFileBytes } from './read-source.js';
import { DEFAULT_MAX_FILE_BYTES } from './scan.js';
import { compareText } from '../text/compare-text.js';

export { readTextFile } from './read-source.js';

const WARM_START_FILES = 128;
/** How many needed files a focused run parses alongside a round of scans (FocusSelector.step), at most. */
const PARSED_ALONGSIDE = 64;

export interface ParseRepositoryOptions extends ParseOptions {
  /** Told, with their number, once the files that need reading are with the parse children (ParseSourcesOptions.onStarted). */
  onStarted?: (files: number) => void;
  /** A pool to reuse (MCP server); without it a pool is created for this call and closed after. */
  pool?: ParsePool;
  /** The scan's size limit (`analysis.maxFileBytes`): a file read for parsing may not be larger; default 1 MiB. */
  maxFileBytes?: number;
  /** Read and write `.checker/local/cache/`; default true. */
  useCache?: boolean;
  /** Drop cache entries for code files not in `files` (deleted files); default true. Pass false when `files` is a subset. */
  pruneCache?: boolean;
  /** Told how many of the files that needed parsing are parsed, as they arrive. */
  onProgress?: ProgressSink;
  /**
   * Facts the caller already holds (the MCP server's warm graph): they stand in for the cache file, which is then
   * neither read nor written, so only files changed since that scan are read and parsed.
   */
  known?: KnownFacts;
  /**
   * A focused run (ParseSourcesOptions.focus): with no facts cache to start from, files are read for their imports and
   * exports alone where the fast scanner can tell them, and `focus` is asked which of those need their full facts.
   */
  focus?: FocusSelector;
  /**
   * With no focus (a build with no change: preflight, context): a file that is neither a test nor may hold framework
   * facts is read for its links and words alone, and such link entries of the cache are taken as they are; tests and
   * every other file are parsed in full (ReadSource.modules); `isTest` says which files are tests (graph/roles.ts).
   * Not with `known`.
   */
  moduleLinks?: { isTest: (path: string) => boolean };
}

export interface ParsedFile {
  hash: string;
  facts: FileFacts;
}

export interface ParseStats {
  /** Taken from the cache without reading the file (size, mtime and inode unchanged). */
  cached: number;
  /** Sent to the parser in this run. */
  parsed: number;
  /** Read from disk and hashed. */
  read: number;
  /** Parsed in this run and reported as `parse/crash` or `parse/timeout`. */
  crashed: number;
}

export interface ParseRepositoryResult {
  facts: Map<string, ParsedFile>;
  skipped: SkippedFile[];
  diagnostics: Diagnostic[];
  stats: ParseStats;
  /** The cached facts of files parsed again in this run: their earlier version (ParsedSources.previous). */
  previous: Map<string, ParsedFile>;
  /** Files whose facts hold their imports, exports and lines alone (a focused run), cached as such (FactsCacheEntry.links). */
  linkOnly: Set<string>;
  /** Among `linkOnly`: files a cold focused run never scanned (their text held no key of the change): their lines alone. */
  unlinked: Set<string>;
  /** Files parsed in this run whose facts may hold what the facts cache redacts (ParsedSources.unclean). */
  unclean: Set<string>;
}

/**
 * Facts for every JS/TS file among `files`: from the cache when the file is unchanged, otherwise
 * read, classified and parsed in the child-process pool. Other files are ignored here.
 */
export async function parseRepositoryFiles(
  root: string,
  files: ScannedFile[],
  options: ParseRepositoryOptions,
): Promise<ParseRepositoryResult> {
  const parseOptions: ParseOptions = {
    assertionHelpers: [...options.assertionHelpers],
    ...(options.signalWords === undefined ? {} : { signalWords: options.signalWords }),
  };
  const diagnostics: Diagnostic[] = [];
  const stats: ParseStats = { cached: 0, parsed: 0, read: 0, crashed: 0 };
  const facts = new Map<string, ParsedFile>();
  const previous = new Map<string, ParsedFile>();
  const linkOnly = new Set<string>();
  const skipped: SkippedFile[] = [];

  const codeFiles = files.filter((file) => isCodeFile(file.path));
  // A code file written at or after the cache (or no cache at all) is most likely parsed: start one parse child now,
  // so its ~0.2 s start (node and swc's native binding) overlaps loading the cache instead of following it. An edit to
  // one file and a rerun is the common loop; a touch without a change costs that child's start in the background.
  // A pool the caller holds (the CLI's for its command, the MCP server's) is started the same way.
  const isLikely = options.known === undefined && isParseLikely(root, codeFiles, options.useCache !== false);
  const early = options.pool === undefined && isLikely ? createParsePool() : undefined;
  (early ?? (isLikely ? options.pool : undefined))?.warm(1);

  let cache: FactsCache;
  if (options.known !== undefined) {
    cache = createKnownCache(options.known, parseOptions);
  } else if (options.useCache === false) {
    cache = createEmptyCache(parseOptions, false);
  } else {
    const loaded = await loadFactsCache(root, parseOptions).catch(async (error: unknown) => {
      await early?.close();
      throw error;
    });
    cache = loaded.cache;
    diagnostics.push(...loaded.diagnostics);
  }

  const links = toLinkMode(cache, options, codeFiles);
  const toRead = codeFiles.filter((file) => {
    const entry = cache.entries.get(file.path);
    return entry === undefined || !isStatUnchanged(entry, file, cache) || !isUsable(entry, file.path, links, options);
  }).length;
  if (toRead === 0) await early?.close();
  const ownPool =
    options.pool === undefined && toRead > 0
      ? (early ?? createParsePool({ size: Math.min(availableWorkers(), Math.ceil(toRead / 64)) }))
      : undefined;
  // Starting the children costs ~0.3 s; with much to read, start them all before the first batch is ready.
  if (toRead >= WARM_START_FILES) (ownPool ?? options.pool)?.warm();
  try {
    const run = options.known === undefined ? options : { ...options, useCache: false };
    return await parseWithPool(root, codeFiles, parseOptions, cache, run, ownPool ?? options.pool, links, {
      diagnostics,
      stats,
      facts,
      previous,
      linkOnly,
      unlinked: new Set(),
      tested: new Map(),
      holders: new Map(),
      skipped,
      unclean: new Set(),
    });
  } finally {
    await ownPool?.close();
  }
}

interface RunState {
  diagnostics: Diagnostic[];
  stats: ParseStats;
  facts: Map<string, ParsedFile>;
  previous: Map<string, ParsedFile>;
  linkOnly: Set<string>;
  /** Among `linkOnly`: read, but holding no key of the focus, so not scanned (ReadOutcome `unlinked`). */
  unlinked: Set<string>;
  /** How many of the focus's keys (FocusStep.keys) each unlinked file was tested against, and whether dots were. */
  tested: Map<string, { words: number; dots: boolean }>;
  /** The child that keeps each unlinked file's text (ReadOutcome `unlinked`), when one does. */
  holders: Map<string, number>;
  skipped: SkippedFile[];
  unclean: Set<string>;
}

/**
 * How a run takes the link entries of its facts cache (FactsCacheEntry.links) and reads the files with no entry:
 * - `focus`: a focused run after a focused cold run takes every link entry as it is and reads for their links the files
 *   that run never read, so it reads no file that run read for its links alone (build-graph.ts reads in full what the
 *   change needs);
 * - `modules`: a build with no change (ParseRepositoryOptions.moduleLinks) takes those of modules and reads modules
 *   for their links and words, tests in full;
 *   The MCP server's patch of its graph (`known` facts holding files read for their links alone) takes them the same way.
 * - `none`: every other run (a cold focused run, which tests keys first; no focus) parses a link entry's file in full.
 */
type LinkMode = 'focus' | 'modules' | 'none';

function toLinkMode(cache: FactsCache, options: ParseRepositoryOptions, codeFiles: readonly ScannedFile[]): LinkMode {
  if (options.known !== undefined) return (options.known.parsed.linkOnly?.size ?? 0) > 0 ? 'focus' : 'none';
  if (options.focus === undefined) return options.moduleLinks === undefined ? 'none' : 'modules';
  // An empty cache is a focused cold run's, which tests keys first (parseWithPool).
  if (cache.entries.size === 0) return 'none';
  for (const entry of cache.entries.values()) if (entry.links === true) return 'focus';
  // A cache an earlier run left with most files never read (an `ai` with nothing changed reads a few dozen): those are
  // read for their links, as after a focused cold run, not parsed in full (the workspace corpus: 6.3 s, not 2.5 s).
  let missing = 0;
  for (const file of codeFiles) if (!cache.entries.has(file.path)) missing += 1;
  return missing > Math.max(UNREAD_FILES, codeFiles.length / 10) ? 'focus' : 'none';
}

/** Past this many code files with no cache entry (or a tenth of them), a focused run reads them for their links first. */
const UNREAD_FILES = 256;

async function parseWithPool(
  root: string,
  codeFiles: ScannedFile[],
  parseOptions: ParseOptions,
  cache: FactsCache,
  options: ParseRepositoryOptions,
  pool: ParsePool | undefined,
  links: LinkMode,
  state: RunState,
): Promise<ParseRepositoryResult> {
  const { stats, facts, skipped, linkOnly } = state;
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const jobs: ReadJob[] = [];
  /** Each job's scanned file and the cache entry it was sent against (the source of its `knownHash`). */
  const sent = new Map<string, { file: ScannedFile; entry: FactsCacheEntry | undefined }>();
  /**
   * In a link run (toLinkMode), the files read for their links: those with no entry (a focused cold run never scanned
   * them). A file with an entry that reads anew was most likely edited, and an edited file is read in full by any
   * analysis of the change: it is parsed now rather than scanned now and parsed after.
   */
  const scanned = new Set<string>();
  for (const file of codeFiles) {
    const entry = cache.entries.get(file.path);
    const usable = entry !== undefined && isUsable(entry, file.path, links, options);
    if (usable && isStatUnchanged(entry, file, cache)) {
      stats.cached += 1;
      takeEntry(file.path, entry, facts, skipped);
      if (entry.links === true) linkOnly.add(file.path);
      continue;
    }
    stats.read += 1;
    // A link entry's hash stands for its text only where its link facts are taken (a link run).
    const known = entry?.facts !== undefined && usable ? { knownHash: entry.hash } : {};
    jobs.push({ path: file.path, size: file.size, ...known });
    sent.set(file.path, { file, entry });
    // A build with no change needs no module in full: a link entry it could not take is read for its links and words.
    if ((links !== 'none' && entry === undefined) || (links === 'modules' && entry?.links === true)) scanned.add(file.path);
  }
  if (jobs.length === 0) return finish(root, codeFiles, cache, options, state);
  if (links !== 'none') {
    const activePool = pool ?? createParsePool({ size: 1 });
    try {
      const linkJobs = jobs.filter((job) => scanned.has(job.path));
      const fullJobs = jobs.filter((job) => !scanned.has(job.path));
      const source = { root, maxBytes };
      const linkSource = { ...source, links: true, ...(links === 'modules' ? { modules: true } : {}) };
      const reads = [
        linkJobs.length === 0 ? undefined : readInPool(activePool, linkSource, linkJobs, parseOptions, options),
        fullJobs.length === 0 ? undefined : readInPool(activePool, source, fullJobs, parseOptions, options),
      ];
      options.onStarted?.(jobs.length);
      const [linkRead, fullRead] = await Promise.all(reads);
      if (linkRead !== undefined) takeOutcomes(linkJobs, linkRead, sent, cache, source, state);
      if (fullRead !== undefined) takeOutcomes(fullJobs, fullRead, sent, cache, source, state);
    } finally {
      if (pool === undefined) await activePool.close();
    }
    return finish(root, codeFiles, cache, options, state);
  }

  // The children read, classify, hash and parse: the parent neither reads the files nor sends their texts over IPC.
  const activePool = pool ?? createParsePool({ size: 1 });
  try {
    // Focused only with no cached facts at all (a first run, `--no-cache`): a run with a cache parses what changed.
    const focus = options.known === undefined && cache.entries.size === 0 ? options.focus : undefined;
    const reading = readInPool(
      activePool,
      { root, maxBytes, ...(focus === undefined ? {} : { links: true, hold: true, keys: () => focus.firstKeys() }) },
      jobs,
      parseOptions,
      options,
    );
    options.onStarted?.(jobs.length);
    takeOutcomes(jobs, await reading, sent, cache, { root, maxBytes }, state);
    if (focus !== undefined) {
      try {
        await readFocused(focus, activePool, { root, maxBytes }, jobs, sent, cache, parseOptions, options, state);
      } finally {
        activePool.release();
      }
    }
  } finally {
    if (pool === undefined) await activePool.close();
  }
  return finish(root, codeFiles, cache, options, state);
}

/**
 * A focused run's later passes, as its selector asks (FocusSelector.step). While some unlinked file was not tested
 * against every key, or one the selector needs was never scanned (a file a route file in the reach imports), those are
 * tested or scanned for their links (in the child that keeps their text); once none is left, the files the selector
 * needs are parsed in full in one pass, both children busy to its end. Until a step asks for nothing more.
 */
async function readFocused(
  focus: FocusSelector,
  pool: ParsePool,
  source: ReadSource,
  jobs: readonly ReadJob[],
  sent: ReadonlyMap<string, { file: ScannedFile; entry: FactsCacheEntry | undefined }>,
  cache: FactsCache,
  parseOptions: ParseOptions,
  options: ParseRepositoryOptions,
  state: RunState,
): Promise<void> {
  const { facts, linkOnly, unlinked, tested } = state;
  // The short rounds between the first pass and the parse pass are not shown (nor the few files parsed alongside them):
  // the progress line stays on the first pass's count until the parse pass starts its own.
  const { onProgress: _shown, ...quiet } = options;
  // A file a child keeps the text of goes back to that child.
  const withHolder = (job: ReadJob): ReadJob => {
    const holder = state.holders.get(job.path);
    return holder === undefined ? job : { ...job, holder };
  };
  const take = (group: ReadJob[]): void => {
    for (const job of group) {
      linkOnly.delete(job.path);
      unlinked.delete(job.path);
      state.holders.delete(job.path);
    }
  };
  let askedAlso = false;
  while (linkOnly.size > 0) {
    const step = await focus.step({ facts, linkOnly, unlinked });
    const needed = new Set(step.parse.filter((path) => linkOnly.has(path)));
    const scanning = jobs.filter((job) => needed.has(job.path) && unlinked.has(job.path)).map(withHolder);
    // Files tested against the same keys so far go together, each group sent the keys it was not tested against.
    const groups = new Map<string, { from: { words: number; dots: boolean }; jobs: ReadJob[] }>();
    const keys = step.keys;
    if (keys !== undefined) {
      for (const job of jobs) {
        const from = tested.get(job.path);
        if (from === undefined || !unlinked.has(job.path) || needed.has(job.path)) continue;
        if (from.words >= keys.words.length && (from.dots || !keys.dots)) continue;
        const id = `${from.words}:${from.dots}`;
        const group = groups.get(id) ?? { from, jobs: [] };
        group.jobs.push(withHolder(job));
        groups.set(id, group);
      }
    }
    if (scanning.length > 0 || groups.size > 0) {
      // A few files already scanned and needed are parsed alongside (they fill a child's gaps); many wait for the
      // parse pass, which keeps both children busy to its end.
      const early = jobs.filter((job) => needed.has(job.path) && !unlinked.has(job.path));
      const parsing = early.length <= PARSED_ALONGSIDE ? early : [];
      take(parsing);
      take(scanning);
      for (const group of groups.values()) take(group.jobs);
      const parsed = parsing.length === 0 ? undefined : readInPool(pool, source, parsing, parseOptions, quiet);
      // Counted once: they were read in the first pass.
      const reads = [...groups.values()].map(async ({ from, jobs: group }) => {
        const rest = { words: keys?.words.slice(from.words) ?? [], dots: keys?.dots === true && !from.dots };
        const outcomes = await readInPool(pool, { ...source, links: true, hold: true, keys: () => rest }, group, parseOptions, quiet);
        return () => takeOutcomes(group, outcomes, sent, cache, source, state, from);
      });
      const scanned =
        scanning.length === 0
          ? new Map<string, ReadOutcome>()
          : await readInPool(pool, { ...source, links: true }, scanning, parseOptions, quiet);
      takeOutcomes(scanning, scanned, sent, cache, source, state);
      if (parsed !== undefined) takeOutcomes(parsing, await parsed, sent, cache, source, state);
      for (const read of await Promise.all(reads)) read();
      continue;
    }
    // Parsed wherever a child is free: a parse costs far more than the read a kept text saves.
    let parsing = jobs.filter((job) => needed.has(job.path));
    if (parsing.length === 0 && !askedAlso) {
      askedAlso = true;
      const also = new Set(await focus.alsoInFull?.({ facts, linkOnly, unlinked }).catch(() => []));
      parsing = jobs.filter((job) => also.has(job.path) && linkOnly.has(job.path));
    }
    if (parsing.length === 0) return;
    take(parsing);
    takeOutcomes(parsing, await readInPool(pool, source, parsing, parseOptions, options), sent, cache, source, state);
  }
}

function readInPool(
  pool: ParsePool,
  source: ReadSource,
  jobs: ReadJob[],
  parseOptions: ParseOptions,
  options: ParseRepositoryOptions,
): Promise<Map<string, ReadOutcome>> {
  const report = options.onProgress;
  // A focused run's first pass reads most files for their imports and exports alone: shown as reading, not parsing.
  const phase = source.links === true ? 'read' : 'parse';
  report?.({ phase, done: 0, total: jobs.length });
  return pool.read(source, jobs, parseOptions, report === undefined ? undefined : (done, total) => report({ phase, done, total }));
}

/**
 * Each job's outcome into the run's facts, skipped files and cache; a `linked` one into `linkOnly` and the cache as a
 * link entry; an `unlinked` one, its lines alone, into `linkOnly` and `unlinked`, never the cache.
 */
function takeOutcomes(
  jobs: readonly ReadJob[],
  outcomes: ReadonlyMap<string, ReadOutcome>,
  sent: ReadonlyMap<string, { file: ScannedFile; entry: FactsCacheEntry | undefined }>,
  cache: FactsCache,
  source: ReadSource,
  state: RunState,
  /** The keys the files were tested against before (ReadOutcome `unlinked` counts those sent this time). */
  before: { words: number; dots: boolean } = { words: 0, dots: false },
): void {
  const { stats, facts, previous, skipped, linkOnly, unlinked, tested, holders } = state;
  for (const job of jobs) {
    const answer = outcomes.get(job.path);
    const { file, entry } = sent.get(job.path) ?? {};
    if (file === undefined || answer === undefined) continue;
    // A child that died or ran out of time: the file is read here for its hash and lines, and reported as the child left it.
    const outcome = answer.kind === 'failed' ? describeFailed(source.root, job.path, source.maxBytes, answer.failure) : answer;
    if (outcome.kind === 'unread') {
      skipped.push(outcome.skip);
      deleteCacheEntry(cache, job.path);
      continue;
    }
    const stat = { size: outcome.size, mtimeMs: file.mtimeMs, ino: file.ino };
    if (outcome.kind === 'skipped') {
      skipped.push(outcome.skip);
      setCacheEntry(cache, job.path, { hash: '', ...stat, skip: { reason: outcome.skip.reason, detail: outcome.skip.detail } });
      continue;
    }
    // `unchanged` answers a `knownHash`, which is only sent for an entry with facts (link facts only in a link run).
    if (outcome.kind === 'unchanged' && entry?.facts !== undefined) {
      facts.set(job.path, { hash: outcome.hash, facts: entry.facts });
      setCacheEntry(cache, job.path, { ...entry, ...stat });
      if (entry.links === true) linkOnly.add(job.path);
      continue;
    }
    if (outcome.kind === 'linked') {
      if (entry?.facts !== undefined) previous.set(job.path, { hash: entry.hash, facts: entry.facts });
      facts.set(job.path, { hash: outcome.hash, facts: outcome.facts });
      linkOnly.add(job.path);
      const linked: FactsCacheEntry = { hash: outcome.hash, ...stat, facts: outcome.facts, links: true };
      setCacheEntry(cache, job.path, outcome.clean === true ? markRedacted(linked) : linked);
      if (outcome.clean !== true) state.unclean.add(job.path);
      continue;
    }
    if (outcome.kind === 'unlinked') {
      facts.set(job.path, { hash: outcome.hash, facts: { ...emptyFacts(outcome.lines), complexityBound: outcome.bound } });
      linkOnly.add(job.path);
      unlinked.add(job.path);
      tested.set(job.path, { words: before.words + outcome.tested.words, dots: before.dots || outcome.tested.dots });
      if (outcome.holder !== undefined) holders.set(job.path, outcome.holder);
      continue;
    }
    if (outcome.kind !== 'parsed') throw new Error(`internal: ${job.path} was answered ${outcome.kind} without facts to keep`);
    stats.parsed += 1;
    facts.set(job.path, { hash: outcome.hash, facts: outcome.facts });
    if (outcome.clean !== true) state.unclean.add(job.path);
    if (entry?.facts !== undefined) previous.set(job.path, { hash: entry.hash, facts: entry.facts });
    const code = outcome.facts.failure?.code;
    if (code === 'parse/crash' || code === 'parse/timeout') stats.crashed += 1;
    if (code === 'parse/timeout') deleteCacheEntry(cache, job.path);
    else {
      const parsed: FactsCacheEntry = { hash: outcome.hash, ...stat, facts: outcome.facts };
      setCacheEntry(cache, job.path, outcome.clean === true ? markRedacted(parsed) : parsed);
    }
  }
}

/** A file whose child died or timed out, as the parent reads it: its hash and line count with the child's failure. */
function describeFailed(root: string, path: string, maxBytes: number, failure: ParseFailure): Exclude<ReadOutcome, { kind: 'failed' }> {
  const read = readFileBytes(root, path, maxBytes);
  if (!read.ok) return { kind: 'unread', skip: read.skip };
  const source = classifySource(path, read.bytes);
  const size = read.bytes.byteLength;
  if (!source.ok) return { kind: 'skipped', size, skip: source.skip };
  return { kind: 'parsed', size, hash: source.hash, facts: emptyFacts(countLines(source.text), failure) };
}

async function finish(
  root: string,
  codeFiles: ScannedFile[],
  cache: FactsCache,
  options: ParseRepositoryOptions,
  state: RunState,
): Promise<ParseRepositoryResult> {
  const { diagnostics, stats, facts, previous, skipped, linkOnly, unlinked, unclean } = state;
  if (options.pruneCache !== false) {
    const present = new Set(codeFiles.map((file) => file.path));
    for (const path of [...cache.entries.keys()]) if (!present.has(path)) deleteCacheEntry(cache, path);
  }
  if (options.useCache !== false) diagnostics.push(...(await saveFactsCache(root, cache)));

  for (const [path, parsed] of [...facts.entries()].sort(([a], [b]) => compareText(a, b))) {
    const failure = parsed.facts.failure;
    if (failure === undefined) continue;
    diagnostics.push({
      code: failure.code,
      severity: 'warn',
      message: `${path} could not be parsed: ${failure.message}`,
      hint:
        failure.code === 'parse/syntax'
          ? 'Fix the syntax error; until then the file contributes no imports, exports or tests.'
          : 'The file is left out of the graph; report the parser failure if the file is valid.',
      location: {
        file: path,
        ...(failure.line === undefined ? {} : { line: failure.line }),
        ...(failure.col === undefined ? {} : { col: failure.col }),
      },
    });
  }
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { facts, skipped, diagnostics, stats, previous, linkOnly, unlinked, unclean };
}

/** Whether some code file will need reading: none is cached (no cache, or not used) or one was written since the cache. */
export function isParseLikely(root: string, codeFiles: ScannedFile[], useCache: boolean): boolean {
  if (codeFiles.length === 0) return false;
  const cacheTime = useCache ? readFactsCacheTime(root) : undefined;
  return cacheTime === undefined || codeFiles.some((file) => file.mtimeMs >= cacheTime);
}

/** Whether a run of this link mode takes the entry as it is: a full entry always, a link entry as toLinkMode says. */
function isUsable(entry: FactsCacheEntry, path: string, links: LinkMode, options: ParseRepositoryOptions): boolean {
  if (entry.links !== true) return true;
  if (links === 'focus') return true;
  // A module's link entry from a focused run has no words (grounding would read the file on the main thread for them).
  return (
    links === 'modules' && options.moduleLinks?.isTest(path) === false && entry.facts !== undefined && Object.hasOwn(entry.facts, 'words')
  );
}

/** Racy-git rule: a file modified at or after the cache was written may have changed within the same timestamp. */
function isStatUnchanged(entry: FactsCacheEntry, file: ScannedFile, cache: FactsCache): boolean {
  return entry.size === file.size && entry.mtimeMs === file.mtimeMs && entry.ino === file.ino && entry.mtimeMs < cache.loadedMtimeMs;
}

/**
 * The facts of an earlier parse as a cache: an entry per file with the stat its scan saw. Files modified at or after
 * that scan began are hashed again (the racy-git rule of the cache file, with the scan's start as the cache's time).
 */
function createKnownCache(known: KnownFacts, options: ParseOptions): FactsCache {
  const cache = createEmptyCache(options, false);
  const skipped = new Map(known.parsed.skipped.map((skip) => [skip.path, skip]));
  for (const file of known.files) {
    const stat = { size: file.size, mtimeMs: file.mtimeMs, ino: file.ino };
    const parsed = known.parsed.facts.get(file.path);
    const skip = skipped.get(file.path);
    const links = known.parsed.linkOnly?.has(file.path) === true ? { links: true as const } : {};
    if (parsed !== undefined) cache.entries.set(file.path, { hash: parsed.hash, ...stat, facts: parsed.facts, ...links });
    else if (skip !== undefined) cache.entries.set(file.path, { hash: '', ...stat, skip: { reason: skip.reason, detail: skip.detail } });
  }
  return { ...cache, loadedMtimeMs: known.scannedAt };
}

function takeEntry(path: string, entry: FactsCacheEntry, facts: Map<string, ParsedFile>, skipped: SkippedFile[]): void {
  if (entry.facts !== undefined) facts.set(path, { hash: entry.hash, facts: entry.facts });
  else if (entry.skip !== undefined) skipped.push({ path, reason: entry.skip.reason, detail: entry.skip.detail });
}

function availableWorkers(): number {
  return Math.max(1, availableParallelism());
}
