import { createHash, randomUUID } from 'node:crypto';
import type { LoadedConfigData } from '../model/config.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Env } from '../model/env.js';
import { isPatchableCodeFile, type ParseOptions, type RouteFact } from '../model/facts.js';
import type { RepoDocsData } from '../model/graph.js';
import type { Resolution } from '../model/resolve.js';
import type { ScanResult, ScannedFile } from '../model/scan.js';
import type { KnowledgeGraphSnapshot } from '../graph/snapshot.js';
import type { ConfigProblem } from '../graph/resolve/tsconfig.js';
import { isRecord } from '../text/is-record.js';
import { areReadsCurrent, type RecordedRead } from './recorded-reads.js';
import { describeConfig } from './tree-fingerprint.js';

/**
 * The CLI's warm graph: what a build made of the working tree, kept under `.checker/local/cache/` as
 * `graph-v1.json` (the tree it was built from) and `graph-v1.data.json` (the graph), so that the next process loads
 * it instead of resolving imports, reading the documents and building the graph again.
 *
 * It stands for a build when:
 * - the build of checker, the configuration and the packs' signal words are the same (`id`; never from sources);
 * - the working tree scans the same: every path with its size, mtime and inode, every skipped path. A tree that
 *   differs only in a few JS/TS files' stats is loaded and patched (src/graph/patch.ts) for those files instead;
 * - every file was last modified more than two seconds before the scan that wrote it, so a later edit cannot leave
 *   the same mtime behind on a file system with coarse timestamps (the racy-git rule, with FAT's 2 s as the tick);
 * - what the build read outside the scanned files (a `tsconfig` extended from node_modules, the memory and skills
 *   folders' listings) reads the same;
 * - git tracks nothing under `.checker/local/` (a committed cache could forge a graph).
 *
 * It is written by a CLI run that builds from facts the facts cache holds as they are (so everything in it derives
 * from inputs as stored, redacted, on disk): from the cache, or parsed in this run with nothing to redact (an edit run
 * on a tree with no kept graph). Files held with their links alone (the cache's link entries) are named in `linkOnly`;
 * a focused cold run, which leaves files unscanned, keeps none. Files modified too close to the scan are kept with a stat no scan matches, so the
 * next run hashes them again and patches in those that changed. A run that loads and patches it does not write it
 * unless its facts all came from the cache and no file is that close to its scan; the MCP server's first call loads
 * it too (then patches it in memory as it would a built graph) but writes none.
 */
const INDEX_PATH = 'cache/graph-v1.json';
/** The graph itself, read only when the index matches the tree (a run that builds anyway reads only the index). */
const DATA_PATH = 'cache/graph-v1.data.json';
/** 2: route nodes name their guards, chain links and mounts in a table of their own (graph/snapshot.ts). */
const VERSION = 2;
/** Files modified this close to the scan (ms) may change again without a new mtime on a coarse file system. */
const RACY_MS = 2000;

export interface GraphSnapshotData {
  graph: KnowledgeGraphSnapshot;
  resolutions: [string, Resolution[]][];
  docs: RepoDocsData;
  openApiRoutes: { routes: { path: string; routes: RouteFact[] }[]; diagnostics: Diagnostic[] };
  configProblems: ConfigProblem[];
  /** By path, the digest of what routes are made of in the facts the graph was built from (graph/patch.ts). */
  routeDigests?: [string, string][];
  /**
   * The files whose facts the graph was built from held their links alone (a focused run's, FactsCacheEntry.links): a
   * run that reads one of them in full patches it in (build-graph.ts). Absent: every file was read in full.
   */
  linkOnly?: string[];
}

interface SnapshotIndex {
  version: number;
  /** Build, configuration and signal words (named `id`: a `key` holding hex reads as a secret to the redaction). */
  id: string;
  /** Names the data file written with this index: a data file of another write is not used. */
  dataId: string;
  /** The scan the graph was built from, after `analysis.ignore`: path, size, mtime (ms) and inode of every file. */
  files: [string, number, number, number][];
  skipped: [string, string][];
  reads: RecordedRead[];
}

interface SnapshotData {
  version: number;
  dataId: string;
  data: GraphSnapshotData;
}

/** A kept graph and how the tree differs from the one it was built from: not at all, or in `touched` JS/TS files. */
export interface KeptGraph {
  data: GraphSnapshotData;
  touched: string[];
  /** What the build that kept it read outside the scanned files (and still reads the same). */
  reads: RecordedRead[];
}

/** The id of the snapshots that may stand for this configuration's graphs, or undefined when none may. */
export function toGraphSnapshotId(
  env: Env,
  config: LoadedConfigData,
  scanned: ScanResult,
  signalWords: ParseOptions['signalWords'],
): string | undefined {
  if (env.buildId === undefined || (scanned.trackedLocalState ?? []).length > 0) return undefined;
  return createHash('sha256')
    .update(JSON.stringify([VERSION, env.buildId, describeConfig(config), signalWords ?? null]))
    .digest('hex');
}

/**
 * The kept graph of configuration `id`, when the tree `scanned` is the one it was built from or differs from it only
 * in JS/TS files' stats (the same paths, the same skipped ones) and `accepts` those touched files; undefined otherwise,
 * or when the snapshot is missing, damaged, or something it read outside the scan reads differently now.
 */
export async function loadGraphSnapshot(
  env: Env,
  id: string,
  scanned: ScanResult,
  accepts: (touched: readonly string[]) => boolean,
): Promise<KeptGraph | undefined> {
  const index = await readJsonArtifact(env, INDEX_PATH);
  if (!isSnapshotIndex(index) || index.version !== VERSION || index.id !== id) return undefined;
  const touched = findTouchedFiles(index, scanned);
  // Asked before the data is read: a run that parsed more than the touched files (--no-cache, a lost facts cache)
  // or a tree edited in too many files would only throw it away.
  if (touched === undefined || !accepts(touched)) return undefined;
  if (!(await areReadsCurrent(env, index.reads))) return undefined;
  const stored = await readJsonArtifact(env, DATA_PATH);
  if (!isSnapshotData(stored) || stored.version !== VERSION || stored.dataId !== index.dataId) return undefined;
  if (stored.data.routeDigests !== undefined && !isStringPairList(stored.data.routeDigests)) delete stored.data.routeDigests;
  // Which files it holds with their links alone cannot be guessed: without a readable list the graph is not used.
  const linkOnly: unknown = stored.data.linkOnly;
  if (linkOnly !== undefined && !(Array.isArray(linkOnly) && linkOnly.every((path) => typeof path === 'string'))) return undefined;
  return { data: stored.data, touched, reads: index.reads };
}

/** A cache file's JSON; undefined when it is missing, damaged or refused (a symlink, a folder): the run builds. */
async function readJsonArtifact(env: Env, path: string): Promise<unknown> {
  try {
    const text = await env.readArtifact(path);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function findTouchedFiles(document: SnapshotIndex, scanned: ScanResult): string[] | undefined {
  if (document.files.length !== scanned.files.length || document.skipped.length !== scanned.skipped.length) return undefined;
  for (let index = 0; index < scanned.skipped.length; index += 1) {
    const kept = document.skipped[index];
    const now = scanned.skipped[index];
    if (kept === undefined || now === undefined || kept[0] !== now.path || kept[1] !== now.reason) return undefined;
  }
  const touched: string[] = [];
  for (let index = 0; index < scanned.files.length; index += 1) {
    const kept = document.files[index];
    const now = scanned.files[index];
    if (kept === undefined || now === undefined || kept[0] !== now.path) return undefined;
    if (kept[1] === now.size && kept[2] === now.mtimeMs && kept[3] === now.ino) continue;
    if (!isPatchableCodeFile(now.path)) return undefined;
    touched.push(now.path);
  }
  return touched;
}

/** True when `scanned` may be kept: no file is racy against a scan that began at `scannedAt`. */
export function isSnapshotSafe(scanned: ScanResult, scannedAt: number): boolean {
  for (const file of scanned.files) if (isRacy(file, scannedAt)) return false;
  return true;
}

/** True when `scanned` may be kept with its racy files unsettled (saveGraphSnapshot): all of them are JS/TS files. */
export function isSnapshotSettleable(scanned: ScanResult, scannedAt: number): boolean {
  for (const file of scanned.files) if (isRacy(file, scannedAt) && !isPatchableCodeFile(file.path)) return false;
  return true;
}

function isRacy(file: ScannedFile, scannedAt: number): boolean {
  return file.mtimeMs >= scannedAt - RACY_MS;
}

/** The mtime kept for a file no scan may take as unchanged: the next run hashes it and patches it in if it changed. */
const UNSETTLED_MTIME = -1;

/**
 * Keeps the graph built from `scanned` under configuration `id`. `reads` are what the build read; questions about
 * scanned files are left out (their stats stand for them). Given the time the scan began, files modified too close to
 * it are kept unsettled (a stat no scan matches; isSnapshotSettleable). A snapshot that cannot be written costs the
 * next run a build, not this run its answer.
 */
export async function saveGraphSnapshot(
  env: Env,
  id: string,
  reads: Iterable<RecordedRead>,
  scanned: ScanResult,
  data: GraphSnapshotData,
  scannedAt?: number,
): Promise<void> {
  const scannedPaths = new Set(scanned.files.map((file) => file.path));
  const outside = new Map<string, RecordedRead>();
  for (const read of reads) {
    const [question] = read;
    if (question[0] === 'readText' && scannedPaths.has(question[1])) continue;
    const key = JSON.stringify(question);
    if (!outside.has(key)) outside.set(key, read);
  }
  const dataId = randomUUID();
  const index: SnapshotIndex = {
    version: VERSION,
    id,
    dataId,
    files: scanned.files.map((file) => [
      file.path,
      file.size,
      scannedAt !== undefined && isRacy(file, scannedAt) ? UNSETTLED_MTIME : file.mtimeMs,
      file.ino,
    ]),
    skipped: scanned.skipped.map((skip) => [skip.path, skip.reason]),
    reads: [...outside.values()],
  };
  try {
    // The data first: an index is never on disk before the data it names.
    await env.writeJsonArtifact(DATA_PATH, { version: VERSION, dataId, data } satisfies SnapshotData);
    await env.writeJsonArtifact(INDEX_PATH, index);
  } catch {
    // As above: the next run builds.
  }
}

function isSnapshotIndex(value: unknown): value is SnapshotIndex {
  return (
    isRecord(value) &&
    typeof value.version === 'number' &&
    typeof value.id === 'string' &&
    typeof value.dataId === 'string' &&
    Array.isArray(value.reads) &&
    Array.isArray(value.files) &&
    value.files.every(isFileEntry) &&
    Array.isArray(value.skipped) &&
    value.skipped.every((entry) => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string')
  );
}

function isSnapshotData(value: unknown): value is SnapshotData {
  if (!isRecord(value) || typeof value.version !== 'number' || typeof value.dataId !== 'string') return false;
  const data = value.data;
  if (!isRecord(data) || !Array.isArray(data.resolutions) || !isRecord(data.docs) || !Array.isArray(data.configProblems)) return false;
  const graph = data.graph;
  const openApi = data.openApiRoutes;
  return (
    isRecord(graph) &&
    Array.isArray(graph.ids) &&
    Array.isArray(graph.nodes) &&
    Array.isArray(graph.ends) &&
    Array.isArray(graph.edges) &&
    Array.isArray(graph.unresolvedImports) &&
    Array.isArray(graph.externalImports) &&
    Array.isArray(graph.parseFailures) &&
    Array.isArray(graph.unmatchedMounts) &&
    Array.isArray(graph.diagnostics) &&
    Array.isArray(graph.routeParts) &&
    isRecord(openApi) &&
    Array.isArray(openApi.routes) &&
    Array.isArray(openApi.diagnostics)
  );
}

function isStringPairList(value: unknown): boolean {
  return (
    Array.isArray(value) && value.every((entry) => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string')
  );
}

function isFileEntry(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    typeof value[0] === 'string' &&
    typeof value[1] === 'number' &&
    typeof value[2] === 'number' &&
    typeof value[3] === 'number'
  );
}
