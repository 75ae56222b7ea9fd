import { isAbsolute, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CoverageEvidence, CoverageKind, CoverageSource, FileCoverage } from '../../model/coverage.js';
import type { Diagnostic } from '../../model/diagnostic.js';
import type { Env } from '../../model/env.js';
import type { FileRefusal, FolderEntry } from '../../model/repo-files.js';
import { type LineCoverageResult, parseCoveragePyJson, parseGoCoverProfile } from '../../runtime-coverage/coverage-py.js';
import { parseIstanbulCoverage } from '../../runtime-coverage/istanbul.js';
import { describeJsonError } from '../../runtime-coverage/json.js';
import { parseLcov } from '../../runtime-coverage/lcov.js';
import { countUnlisted, MAX_PROBLEMS_PER_REPORT, type ProblemLog } from '../../runtime-coverage/problems.js';
import { computeV8LineHits, readV8Ranges, type V8Range } from '../../runtime-coverage/v8.js';
import { type CachedSourceMap, computeMappedLineHits, readCachedSourceMap } from '../../runtime-coverage/v8-source-map.js';
import { compareText } from '../../text/compare-text.js';
import { isRecord } from '../../text/is-record.js';
import { countOf } from '../../text/plural.js';

export const MAX_COVERAGE_BYTES = 64 * 1024 * 1024;
const MAX_SOURCE_BYTES = 8 * 1024 * 1024;
const TRANSPILED_EXTENSIONS = /\.(?:ts|tsx|mts|cts|jsx)$/;

/** A folder of V8 coverage written by a configured check's run (`checker execute`): its files carry the check as provenance. */
export interface CheckCoverageFolder {
  path: string;
  check: string;
  runId: string;
}

export interface LoadCoverageOptions {
  /** Extra folders (repository-relative) holding V8 coverage JSON, as NODE_V8_COVERAGE writes it. */
  paths?: (string | CheckCoverageFolder)[];
  /** Repository-relative paths tracked by git: a committed coverage report describes someone else's run and is skipped. */
  trackedPaths?: ReadonlySet<string>;
  /**
   * The usual report locations (lcov.info, coverage/…): read them (the default), skip them (`false`), or read only those
   * written at or after `since` (epoch ms), as the output of a configured check run then (the `coverage` adapter).
   */
  defaults?: boolean | { since: number; check: string; runId: string };
}

interface OpenedFile {
  rel: string;
  mtimeMs: number;
}

interface MappingTally {
  remapped: number;
  unmatched: number;
  foreignRoots: Set<string>;
}

interface Collector {
  env: Env;
  files: Map<string, { lines: Map<number, number>; source: CoverageKind; sources: string[] }>;
  sources: CoverageSource[];
  diagnostics: Diagnostic[];
  learnedPrefixes: string[];
  repoFileCache: Map<string, boolean>;
  absoluteCache: Map<string, boolean>;
}

interface V8Script {
  rel: string;
  ranges: V8Range[];
  sourcePath: string;
}

/**
 * Finds and reads runtime coverage (lcov, istanbul JSON, V8 JSON) below the repository root through `env.files` and
 * returns line hits keyed by repository-relative POSIX path. Coverage files are capped at MAX_COVERAGE_BYTES, must stay
 * inside the repository, and are skipped when git tracks them (someone else's run). Unreadable or malformed inputs
 * become diagnostics; nothing here throws for a bad coverage file.
 */
export async function loadCoverage(env: Env, options: LoadCoverageOptions = {}): Promise<CoverageEvidence> {
  const collector: Collector = {
    env,
    files: new Map(),
    sources: [],
    diagnostics: [],
    learnedPrefixes: [],
    repoFileCache: new Map(),
    absoluteCache: new Map(),
  };
  const tracked = options.trackedPaths ?? new Set<string>();
  const provenance = new Map<string, CheckCoverageFolder>();
  const v8Files: string[] = [];
  if (options.defaults !== false) await readDefaultLocations(collector, tracked, options.defaults, provenance, v8Files);

  for (const entry of options.paths ?? []) {
    const folder = typeof entry === 'string' ? entry : entry.path;
    const rel = toSafeRelative(folder);
    if (rel === undefined) {
      collector.diagnostics.push({
        code: 'coverage/outside-repo',
        severity: 'warn',
        message: `coverage folder ${JSON.stringify(folder)} is outside the repository`,
        hint: 'write V8 coverage inside the repository (for example NODE_V8_COVERAGE=coverage/tmp)',
      });
      continue;
    }
    for (const file of await listDirectory(collector, rel)) {
      const path = rel === '' ? file.name : `${rel}/${file.name}`;
      if (!file.name.endsWith('.json') || v8Files.includes(path)) continue;
      v8Files.push(path);
      if (typeof entry !== 'string') provenance.set(path, entry);
    }
  }
  await readV8Files(collector, v8Files, tracked);
  // A check's run writes a file per Node process (npm, the test runner, each test file); those that ran none of the
  // repository's code are no evidence and stay out of the list.
  collector.sources = collector.sources.flatMap((source) => {
    const from = provenance.get(source.path);
    if (from === undefined) return [source];
    return source.files === 0 ? [] : [{ ...source, check: from.check, runId: from.runId }];
  });

  const files = [...collector.files.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([path, entry]): [string, FileCoverage] => {
      const checks = [...new Set(entry.sources.flatMap((source) => provenance.get(source)?.check ?? []))].sort(compareText);
      return [
        path,
        {
          lines: Object.fromEntries(entry.lines),
          source: entry.source,
          sources: entry.sources,
          ...(checks.length === 0 ? {} : { checks }),
        },
      ];
    });
  return { sources: collector.sources, files: Object.fromEntries(files), diagnostics: collector.diagnostics };
}

/**
 * lcov.info, coverage/lcov.info, coverage/<tool>/lcov.info, coverage.lcov (coverage.py), coverage/coverage-final.json,
 * coverage.json (coverage.py), coverage.out and cover.out (Go) and coverage/tmp (V8).
 */
async function readDefaultLocations(
  collector: Collector,
  tracked: ReadonlySet<string>,
  fresh: { since: number; check: string; runId: string } | true | undefined,
  provenance: Map<string, CheckCoverageFolder>,
  v8Files: string[],
): Promise<void> {
  const open = async (rel: string): Promise<OpenedFile | undefined> => {
    const opened = await openCoverageFile(collector, rel, tracked);
    if (opened === undefined || typeof fresh !== 'object') return opened;
    if (opened.mtimeMs < fresh.since) return undefined;
    provenance.set(rel, { path: rel, check: fresh.check, runId: fresh.runId });
    return opened;
  };
  const lcovPaths = ['lcov.info', 'coverage/lcov.info', 'coverage.lcov'];
  for (const entry of await listDirectory(collector, 'coverage')) {
    if (entry.kind === 'directory') lcovPaths.push(`coverage/${entry.name}/lcov.info`);
  }
  for (const rel of lcovPaths) {
    const opened = await open(rel);
    if (opened !== undefined) await readLcov(collector, opened);
  }
  const istanbul = await open('coverage/coverage-final.json');
  if (istanbul !== undefined) await readIstanbul(collector, istanbul);
  const coveragePy = await open('coverage.json');
  if (coveragePy !== undefined) await readLineCoverage(collector, coveragePy, 'coverage-py');
  for (const rel of ['coverage.out', 'cover.out']) {
    const goProfile = await open(rel);
    if (goProfile !== undefined) await readLineCoverage(collector, goProfile, 'go-cover');
  }
  for (const entry of await listDirectory(collector, 'coverage/tmp')) {
    if (!/^coverage-.*\.json$/.test(entry.name)) continue;
    const rel = `coverage/tmp/${entry.name}`;
    if (typeof fresh !== 'object') v8Files.push(rel);
    else {
      const found = await collector.env.files.stat(rel);
      if (!found.ok || found.mtimeMs < fresh.since) continue;
      v8Files.push(rel);
      provenance.set(rel, { path: rel, check: fresh.check, runId: fresh.runId });
    }
  }
}

function toSafeRelative(path: string): string | undefined {
  if (path.includes('\0') || isAbsolute(path)) return undefined;
  const normal = posix.normalize(path.replace(/\\/g, '/')).replace(/\/+$/, '');
  if (normal === '.') return '';
  if (normal === '..' || normal.startsWith('../')) return undefined;
  return normal;
}

/** A refusal of a coverage path as its diagnostic; a missing path (or a symlink loop) says nothing. */
function reportRefusal(collector: Collector, rel: string, refusal: FileRefusal): void {
  if (refusal.reason === 'missing') return;
  if (refusal.reason === 'outside-repo') {
    collector.diagnostics.push({
      code: 'coverage/outside-repo',
      severity: 'warn',
      message: `${rel} is a symlink that leads outside the repository; it was not read`,
      hint: 'write coverage into the repository instead of linking to it',
      location: { file: rel },
    });
    return;
  }
  collector.diagnostics.push({
    code: 'coverage/unreadable',
    severity: 'warn',
    message: `${rel} cannot be read: ${refusal.detail ?? refusal.message}`,
    location: { file: rel },
  });
}

async function listDirectory(collector: Collector, rel: string): Promise<FolderEntry[]> {
  const listing = await collector.env.files.list(rel);
  if (listing.ok) return listing.entries;
  if (listing.reason !== 'not-a-file') reportRefusal(collector, rel, listing);
  return [];
}

async function openCoverageFile(collector: Collector, rel: string, tracked: ReadonlySet<string>): Promise<OpenedFile | undefined> {
  const found = await collector.env.files.stat(rel);
  if (!found.ok) {
    reportRefusal(collector, rel, found);
    return undefined;
  }
  if (found.kind !== 'file') {
    if (found.kind !== 'directory') {
      collector.diagnostics.push({
        code: 'coverage/not-a-file',
        severity: 'warn',
        message: `${rel} is not a regular file; it was not read`,
        location: { file: rel },
      });
    }
    return undefined;
  }
  if (tracked.has(rel)) {
    collector.diagnostics.push({
      code: 'coverage/tracked',
      severity: 'warn',
      message: `${rel} is committed to the repository, so it describes another run; it was not used as evidence`,
      hint: `remove ${rel} from git and regenerate coverage locally`,
      location: { file: rel },
    });
    return undefined;
  }
  if (found.size > MAX_COVERAGE_BYTES) {
    collector.diagnostics.push({
      code: 'coverage/too-large',
      severity: 'warn',
      message: `${rel} is ${found.size} bytes, over the ${MAX_COVERAGE_BYTES}-byte limit; it was not read`,
      hint: 'limit coverage to the files under test (coverage include/exclude settings)',
      location: { file: rel },
    });
    return undefined;
  }
  return { rel, mtimeMs: found.mtimeMs };
}

/** The whole text of an opened coverage file (at most MAX_COVERAGE_BYTES), or undefined after a diagnostic. */
async function readWholeText(collector: Collector, opened: OpenedFile): Promise<string | undefined> {
  const read = await collector.env.files.readText(opened.rel, { maxBytes: MAX_COVERAGE_BYTES, invalidUtf8: 'replace' });
  if (read.ok) return read.text;
  reportUnreadable(collector, opened, read.detail ?? read.message);
  return undefined;
}

function reportUnreadable(collector: Collector, opened: OpenedFile, detail: string): void {
  collector.diagnostics.push({
    code: 'coverage/unreadable',
    severity: 'warn',
    message: `${opened.rel} cannot be read: ${detail}`,
    location: { file: opened.rel },
  });
}

function addSource(collector: Collector, kind: CoverageKind, opened: OpenedFile, files: number, tally?: MappingTally): void {
  const source: CoverageSource = { kind, path: opened.rel, generatedAt: new Date(opened.mtimeMs).toISOString(), files };
  if (tally !== undefined && (tally.remapped > 0 || tally.unmatched > 0)) {
    source.remappedFiles = tally.remapped;
    source.unmatchedFiles = tally.unmatched;
    const roots = [...tally.foreignRoots].sort(compareText);
    collector.diagnostics.push({
      code: 'coverage/foreign-root',
      severity: tally.unmatched > 0 ? 'warn' : 'info',
      message:
        `${opened.rel} was written under another root${roots.length > 0 ? ` (${roots.join(', ')})` : ''}: ` +
        `${countOf(tally.remapped, 'file path')} mapped to repository files by suffix, ${tally.unmatched} could not be mapped`,
      hint: 'regenerate coverage in this checkout for exact paths',
      location: { file: opened.rel },
    });
  }
  collector.sources.push(source);
}

function mergeLines(collector: Collector, path: string, kind: CoverageKind, sourcePath: string, lines: Map<number, number>): void {
  let entry = collector.files.get(path);
  if (entry === undefined) {
    entry = { lines: new Map(), source: kind, sources: [] };
    collector.files.set(path, entry);
  }
  if (!entry.sources.includes(sourcePath)) entry.sources.push(sourcePath);
  for (const [line, hits] of lines) entry.lines.set(line, (entry.lines.get(line) ?? 0) + hits);
}

function reportProblems(collector: Collector, file: string, problems: ProblemLog, unit: 'line' | 'entry'): void {
  for (const problem of problems.listed) malformed(collector, file, problem.message, problem.line);
  const unlisted = countUnlisted(problems);
  if (unlisted > 0)
    malformed(collector, file, `${unlisted} more malformed ${unlisted === 1 ? unit : unit === 'entry' ? 'entries' : 'lines'} not listed`);
}

function malformed(collector: Collector, file: string, message: string, line?: number): Diagnostic {
  const diagnostic: Diagnostic = {
    code: 'coverage/malformed',
    severity: 'warn',
    message: `${file}${line === undefined ? '' : ` line ${line}`}: ${message}`,
    hint: 'regenerate the coverage report; this part of it was ignored',
    location: line === undefined ? { file } : { file, line },
  };
  collector.diagnostics.push(diagnostic);
  return diagnostic;
}

function hasNodeModulesSegment(path: string): boolean {
  return path === 'node_modules' || path.startsWith('node_modules/') || path.includes('/node_modules/');
}

/** A regular file (not a symlink) at this repository path: the test for a suffix-mapped coverage path. */
async function isRepoFile(collector: Collector, rel: string): Promise<boolean> {
  const cached = collector.repoFileCache.get(rel);
  if (cached !== undefined) return cached;
  const found = await collector.env.files.stat(rel);
  const isFile = found.ok && found.kind === 'file' && !found.isSymlink;
  collector.repoFileCache.set(rel, isFile);
  return isFile;
}

async function existsOnThisMachine(collector: Collector, absolute: string): Promise<boolean> {
  const cached = collector.absoluteCache.get(absolute);
  if (cached !== undefined) return cached;
  const found = await collector.env.files.existsOnHost(absolute);
  collector.absoluteCache.set(absolute, found);
  return found;
}

function relativeInsideRoot(collector: Collector, absolute: string): Promise<string | undefined> {
  return collector.env.files.toRepoPath(absolute);
}

/** Maps a path written by a coverage tool to a repository-relative POSIX path; undefined when it is not ours. */
async function toRepoPath(collector: Collector, raw: string, tally: MappingTally): Promise<string | undefined> {
  let path = raw.trim();
  if (path.length === 0 || path.includes('\0')) return undefined;
  if (path.startsWith('file://')) {
    try {
      path = fileURLToPath(path);
    } catch {
      return undefined;
    }
  }
  const slashed = path.replace(/\\/g, '/');
  const isWindowsAbsolute = /^[A-Za-z]:\//.test(slashed);
  if (slashed.startsWith('/') || isWindowsAbsolute) {
    if (!isWindowsAbsolute) {
      const inside = await relativeInsideRoot(collector, posix.normalize(slashed));
      if (inside !== undefined) return inside === '' || hasNodeModulesSegment(inside) ? undefined : inside;
      if (await existsOnThisMachine(collector, slashed)) return undefined;
    }
    if (hasNodeModulesSegment(slashed)) return undefined;
    const mapped = await matchBySuffix(collector, posix.normalize(slashed), tally);
    if (mapped === undefined) tally.unmatched += 1;
    else tally.remapped += 1;
    return mapped;
  }
  const normal = posix.normalize(slashed);
  if (normal === '.' || normal === '..' || normal.startsWith('../') || hasNodeModulesSegment(normal)) return undefined;
  return normal.startsWith('./') ? normal.slice(2) : normal;
}

async function matchBySuffix(collector: Collector, absolute: string, tally: MappingTally): Promise<string | undefined> {
  for (const prefix of collector.learnedPrefixes) {
    if (absolute.startsWith(`${prefix}/`)) {
      const candidate = absolute.slice(prefix.length + 1);
      if (await isRepoFile(collector, candidate)) {
        tally.foreignRoots.add(prefix);
        return candidate;
      }
    }
  }
  const segments = absolute.split('/').filter((segment) => segment.length > 0);
  for (let index = 1; index < segments.length; index += 1) {
    const candidate = segments.slice(index).join('/');
    if (await isRepoFile(collector, candidate)) {
      const prefix = `${absolute.startsWith('/') ? '/' : ''}${segments.slice(0, index).join('/')}`;
      if (!collector.learnedPrefixes.includes(prefix)) collector.learnedPrefixes.push(prefix);
      tally.foreignRoots.add(prefix);
      return candidate;
    }
  }
  return undefined;
}

/** Reads an lcov tracefile through the pure parser; malformed lines become diagnostics. */
async function readLcov(collector: Collector, opened: OpenedFile): Promise<void> {
  const text = await readWholeText(collector, opened);
  if (text === undefined) return;
  const { records, problems } = parseLcov(text);
  reportProblems(collector, opened.rel, problems, 'line');

  const tally: MappingTally = { remapped: 0, unmatched: 0, foreignRoots: new Set() };
  const contributed = new Set<string>();
  for (const [raw, lines] of records) {
    const path = await toRepoPath(collector, raw, tally);
    if (path === undefined) continue;
    mergeLines(collector, path, 'lcov', opened.rel, lines);
    contributed.add(path);
  }
  addSource(collector, 'lcov', opened, contributed.size, tally);
}

async function readJson(collector: Collector, opened: OpenedFile): Promise<unknown> {
  const text = await readWholeText(collector, opened);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    const { message, line } = describeJsonError(text);
    malformed(collector, opened.rel, message, line);
    return undefined;
  }
}

/** Reads istanbul's coverage-final.json and maps its entries to repository paths. */
async function readIstanbul(collector: Collector, opened: OpenedFile): Promise<void> {
  const data = await readJson(collector, opened);
  if (data === undefined) return;
  const parsed = parseIstanbulCoverage(data);
  if (!parsed.ok) {
    malformed(collector, opened.rel, parsed.message);
    return;
  }
  reportProblems(collector, opened.rel, parsed.problems, 'entry');
  const tally: MappingTally = { remapped: 0, unmatched: 0, foreignRoots: new Set() };
  const contributed = new Set<string>();
  for (const file of parsed.files) {
    const path = await toRepoPath(collector, file.path, tally);
    if (path === undefined) continue;
    mergeLines(collector, path, 'istanbul', opened.rel, file.lines);
    contributed.add(path);
  }
  addSource(collector, 'istanbul', opened, contributed.size, tally);
}

/**
 * Reads coverage.py's `coverage json` report (paths relative to where it ran, as lcov's) or a Go cover profile (paths
 * are import paths: mapped onto the repository by their longest suffix that is a repository file, `example.com/shop/
 * orders/orders.go` → `orders/orders.go`, which is how a module lays its packages out, so no foreign root is said).
 */
async function readLineCoverage(collector: Collector, opened: OpenedFile, kind: 'coverage-py' | 'go-cover'): Promise<void> {
  let parsed: LineCoverageResult;
  if (kind === 'go-cover') {
    const text = await readWholeText(collector, opened);
    if (text === undefined) return;
    parsed = parseGoCoverProfile(text);
  } else {
    const data = await readJson(collector, opened);
    if (data === undefined) return;
    parsed = parseCoveragePyJson(data);
  }
  if (!parsed.ok) {
    malformed(collector, opened.rel, parsed.message);
    return;
  }
  reportProblems(collector, opened.rel, parsed.problems, kind === 'go-cover' ? 'line' : 'entry');
  const tally: MappingTally = { remapped: 0, unmatched: 0, foreignRoots: new Set() };
  const importPaths: MappingTally = { remapped: 0, unmatched: 0, foreignRoots: new Set() };
  const contributed = new Set<string>();
  for (const file of parsed.files) {
    const path =
      kind === 'go-cover' && !(await isRepoFile(collector, file.path))
        ? await matchBySuffix(collector, `/${file.path}`, importPaths)
        : await toRepoPath(collector, file.path, tally);
    if (path === undefined) continue;
    mergeLines(collector, path, kind, opened.rel, file.lines);
    contributed.add(path);
  }
  addSource(collector, kind, opened, contributed.size, tally);
}

/** Where V8 counted: a script's offsets in the file on disk, or in generated code a cached source map explains. */
type V8Job =
  | { kind: 'direct'; script: V8Script }
  | { kind: 'mapped'; rel: string; ranges: V8Range[]; map: CachedSourceMap; sourcePath: string };

async function readV8Files(collector: Collector, paths: string[], tracked: ReadonlySet<string>): Promise<void> {
  const jobs: V8Job[] = [];
  const opens: OpenedFile[] = [];
  for (const rel of paths) {
    const opened = await openCoverageFile(collector, rel, tracked);
    if (opened === undefined) continue;
    const data = await readJson(collector, opened);
    if (data === undefined) continue;
    const result = isRecord(data) ? data.result : undefined;
    if (!Array.isArray(result)) {
      malformed(collector, opened.rel, 'expected V8 coverage {"result": [...]}');
      continue;
    }
    const sourceMaps = isRecord(data) && isRecord(data['source-map-cache']) ? data['source-map-cache'] : {};
    let malformedCount = 0;
    for (const [index, script] of result.entries()) {
      const url = isRecord(script) ? script.url : undefined;
      if (typeof url !== 'string') {
        malformedCount += 1;
        if (malformedCount <= MAX_PROBLEMS_PER_REPORT) malformed(collector, opened.rel, `result[${index}] has no url`);
        continue;
      }
      if (!url.startsWith('file://') && !url.startsWith('/')) continue;
      let absolute: string;
      try {
        absolute = url.startsWith('file://') ? fileURLToPath(url) : url;
      } catch {
        continue;
      }
      const rel = await relativeInsideRoot(collector, absolute);
      if (rel === undefined || rel === '' || hasNodeModulesSegment(rel)) continue;
      const ranges = readV8Ranges(isRecord(script) ? script.functions : undefined);
      if (ranges === undefined) {
        malformedCount += 1;
        if (malformedCount <= MAX_PROBLEMS_PER_REPORT)
          malformed(collector, opened.rel, `result[${index}] (${rel}) has invalid functions/ranges`);
        continue;
      }
      const map = Object.hasOwn(sourceMaps, url) ? readCachedSourceMap(sourceMaps[url], url) : undefined;
      if (map !== undefined) jobs.push({ kind: 'mapped', rel, ranges, map, sourcePath: opened.rel });
      else if (TRANSPILED_EXTENSIONS.test(rel) && Object.hasOwn(sourceMaps, url)) {
        collector.diagnostics.push({
          code: 'coverage/v8-transpiled',
          severity: 'info',
          message: `${opened.rel}: V8 offsets for ${rel} refer to transpiled code and its cached source map cannot be read; this entry was ignored`,
          hint: 'use the lcov or istanbul JSON report of your coverage tool (c8 / vitest --coverage) for TypeScript sources',
          location: { file: opened.rel },
        });
      } else jobs.push({ kind: 'direct', script: { rel, ranges, sourcePath: opened.rel } });
    }
    opens.push(opened);
  }

  const contributed = new Map<string, Set<string>>();
  const texts = new Map<string, string | undefined>();
  const readText = async (rel: string): Promise<string | undefined> => {
    if (!texts.has(rel)) texts.set(rel, await readV8Source(collector, rel));
    return texts.get(rel);
  };
  const keep = (sourcePath: string, rel: string, lines: Map<number, number>): void => {
    mergeLines(collector, rel, 'v8', sourcePath, lines);
    const files = contributed.get(sourcePath) ?? new Set<string>();
    files.add(rel);
    contributed.set(sourcePath, files);
  };
  for (const job of jobs) {
    if (job.kind === 'mapped') {
      await readMappedScript(collector, job, readText, keep);
      continue;
    }
    const { script } = job;
    const text = await readText(script.rel);
    if (text === undefined) continue;
    const lines = computeV8LineHits(text, script.ranges);
    if (lines === undefined) {
      reportMismatch(collector, script.sourcePath, script.rel);
      continue;
    }
    keep(script.sourcePath, script.rel, lines);
  }
  for (const opened of opens) addSource(collector, 'v8', opened, contributed.get(opened.rel)?.size ?? 0);
}

/**
 * A script run through a loader that transpiles (tsx, ts-node) or built with source maps: its counts land on the
 * original sources' lines. A source is used only when it is a repository file whose text still is what the map
 * carries (`sourcesContent`) and holds every mapped line; otherwise the run was of other code and says so.
 */
async function readMappedScript(
  collector: Collector,
  job: Extract<V8Job, { kind: 'mapped' }>,
  readText: (rel: string) => Promise<string | undefined>,
  keep: (sourcePath: string, rel: string, lines: Map<number, number>) => void,
): Promise<void> {
  const mapped = computeMappedLineHits(job.ranges, job.map);
  if (mapped === undefined) {
    reportMismatch(collector, job.sourcePath, job.rel);
    return;
  }
  for (const source of mapped) {
    let absolute: string;
    try {
      absolute = source.source.startsWith('file://') ? fileURLToPath(source.source) : source.source;
    } catch {
      continue;
    }
    if (!absolute.startsWith('/')) continue;
    const rel = await relativeInsideRoot(collector, absolute);
    if (rel === undefined || rel === '' || hasNodeModulesSegment(rel)) continue;
    const text = await readText(rel);
    if (text === undefined) continue;
    const lineCount = text.split('\n').length;
    const stale = source.content !== undefined && source.content !== text;
    if (stale || [...source.lines.keys()].some((line) => line > lineCount)) {
      reportMismatch(collector, job.sourcePath, rel);
      continue;
    }
    keep(job.sourcePath, rel, source.lines);
  }
}

function reportMismatch(collector: Collector, sourcePath: string, rel: string): void {
  collector.diagnostics.push({
    code: 'coverage/source-mismatch',
    severity: 'warn',
    message: `${sourcePath}: V8 offsets for ${rel} do not match the file on disk (changed since the run, or transpiled without a source map); this entry was ignored`,
    hint: 're-run the suite with coverage',
    location: { file: sourcePath },
  });
}

async function readV8Source(collector: Collector, rel: string): Promise<string | undefined> {
  const read = await collector.env.files.readText(rel, { maxBytes: MAX_SOURCE_BYTES, invalidUtf8: 'replace' });
  if (read.ok) return read.text;
  if (read.reason !== 'missing') {
    collector.diagnostics.push({
      code: 'coverage/source-unreadable',
      severity: 'warn',
      message: `${rel} is named by V8 coverage but cannot be read (${read.message}); its coverage was ignored`,
      location: { file: rel },
    });
  }
  return undefined;
}
