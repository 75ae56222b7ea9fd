import { createHash } from 'node:crypto';
import type { ChangeAnalysis } from '../model/analysis.js';
import type { Env, RevisionRange } from '../model/env.js';
import { analyzeChange } from './analyze.js';
import { buildRepositoryGraph, DEFAULT_MAX_FILE_BYTES } from './build-graph.js';
import { loadConfig } from './load-config.js';
import { areReadsCurrent, type RecordedRead, recordReads } from './recorded-reads.js';
import { toTreeFingerprint } from './tree-fingerprint.js';

const MEMO_PATH = 'cache/analysis-v1.json';
/** Ranges kept (the newest). */
const KEPT = 4;
/**
 * An analysis larger than this (JSON characters) is not kept: every run reads the whole file, match or not, and a hub
 * change of a 10,000-file repository is 7 MB. The MCP server keeps those in memory instead.
 */
const MAX_KEPT_CHARS = 2_000_000;

interface MemoEntry {
  /** Build, range and tree (named `id`: a `key` holding hex reads as a secret to the redaction at the exit). */
  id: string;
  /** When it was written (ms): a file modified at or after it may have changed within one timestamp tick. */
  writtenAt: number;
  reads: RecordedRead[];
  analysis: ChangeAnalysis;
}

function parseMemo(text: string | undefined): MemoEntry[] {
  if (text === undefined) return [];
  try {
    const data = JSON.parse(text) as { version?: unknown; entries?: unknown } | null;
    if (data === null || typeof data !== 'object' || data.version !== 1 || !Array.isArray(data.entries)) return [];
    return data.entries.filter(
      (entry: Partial<MemoEntry> | null): entry is MemoEntry =>
        entry !== null &&
        typeof entry === 'object' &&
        typeof entry.id === 'string' &&
        typeof entry.writtenAt === 'number' &&
        Array.isArray(entry.reads) &&
        typeof entry.analysis === 'object' &&
        entry.analysis !== null,
    );
  } catch {
    return [];
  }
}

/**
 * The analysis of a range, kept across runs under `.checker/local/cache/analysis-v1.json`: a rerun on an unchanged
 * repository loads it instead of loading every file's facts, building the graph and analysing again. It is used when
 * the build of checker is the same (`env.buildId`), the working tree scans the same (a stat fingerprint of every file,
 * and the configuration), no file was modified at or after it was written, and every question the analysis asked
 * outside the graph (the git change by its stamp, HEAD, the index, coverage, execution records, repository packs)
 * gets the answer it got. Not used from sources, or when git tracks files under `.checker/local/` (a committed cache
 * could forge an analysis).
 */
export async function analyzeRange(env: Env, range: RevisionRange): Promise<ChangeAnalysis> {
  if (env.buildId === undefined) return analyzeChange(env, range);
  const config = await loadConfig(env);
  const scan = await env.scan({ maxFileBytes: config.config.analysis?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES });
  const repositoryInputs = { config, scan };
  if ((scan.trackedLocalState ?? []).length > 0) {
    return analyzeChange(env, { ...range, repository: await buildRepositoryGraph(env, repositoryInputs) });
  }
  const id = createHash('sha256')
    .update(JSON.stringify([env.buildId, range.base ?? null, range.head ?? null, toTreeFingerprint(config, scan)]))
    .digest('hex');
  const entries = parseMemo(await env.readArtifact(MEMO_PATH));
  const found = entries.find((entry) => entry.id === id);
  const newestFile = scan.files.reduce((newest, file) => Math.max(newest, file.mtimeMs), 0);
  if (found !== undefined && newestFile < found.writtenAt && (await areReadsCurrent(env, found.reads))) return found.analysis;

  const repository = await buildRepositoryGraph(env, repositoryInputs);
  // The fingerprint stands for the scanned files; files the scan skipped (too large, unreadable) are asked here.
  const recorded = recordReads(env, { filesUnchanged: true });
  for (const skipped of repository.scan.skipped) await recorded.env.files.stat(skipped.path);
  const writtenAt = env.now().getTime();
  const analysis = await analyzeChange(recorded.env, { ...range, repository });
  const entry: MemoEntry = { id, writtenAt, reads: [...recorded.log.reads.values()], analysis };
  if (JSON.stringify(entry).length > MAX_KEPT_CHARS) return analysis;
  const kept = [...entries.filter((other) => other.id !== id), entry];
  try {
    await env.writeArtifact(MEMO_PATH, `${JSON.stringify({ version: 1, entries: kept.slice(-KEPT) })}\n`);
  } catch {
    // A memo that cannot be written costs the next run the analysis, not this run its answer.
  }
  return analysis;
}
