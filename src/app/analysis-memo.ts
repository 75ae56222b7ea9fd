import { listHotspotCandidates, planComplexityReads, toHotspotField } from '../graph/history/hotspots.js';
import { createHash } from 'node:crypto';
import type { ChangeAnalysis } from '../model/analysis.js';
import type { ChangeSet } from '../model/change.js';
import type { Env, RevisionRange } from '../model/env.js';
import { analyzeChange, type HistoryReads, listChangePaths, startHistoryReads, toChangeRange } from './analyze.js';
import { buildRepositoryGraph, DEFAULT_MAX_FILE_BYTES } from './build-graph.js';
import { loadConfig } from './load/load-config.js';
import { areReadsCurrent, type RecordedRead, recordReads } from './recorded-reads.js';
import { toTreeFingerprint } from './tree-fingerprint.js';
import { toAsciiJson } from '../text/ascii-json.js';

const MEMO_PATH = 'cache/analysis-v1.json';
/** Ranges kept (the newest). */
const KEPT = 4;
/** An analysis larger than this is not kept (a release of ten packages, 943 changed files, is about 10 MB). */
const MAX_KEPT_CHARS = 64_000_000;

interface MemoEntry {
  /** Build, range and tree (named `id`: a `key` holding hex reads as a secret to the redaction at the exit). */
  id: string;
  /** When it was written (ms): a file modified at or after it may have changed within one timestamp tick. */
  writtenAt: number;
  reads: RecordedRead[];
  /**
   * In `cache/analysis-slot-<slot>.json` (one of KEPT slots, reused as entries leave the index), read only when its
   * range matches; inline in an index an earlier build wrote.
   */
  analysis?: ChangeAnalysis;
  slot?: number;
}

const slotPath = (slot: number): string => `cache/analysis-slot-${slot}.json`;

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
        ((typeof entry.analysis === 'object' && entry.analysis !== null) ||
          (Number.isInteger(entry.slot) && (entry.slot as number) >= 0 && (entry.slot as number) < KEPT)),
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
  const scannedAt = env.now().getTime();
  const scan = await env.scan({ maxFileBytes: config.config.analysis?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES });
  const repositoryInputs = { config, scan, scannedAt };
  if ((scan.trackedLocalState ?? []).length > 0) {
    return analyzeChange(env, { ...range, repository: await buildRepositoryGraph(env, repositoryInputs) });
  }
  const id = createHash('sha256')
    .update(JSON.stringify([env.buildId, range.base ?? null, range.head ?? null, toTreeFingerprint(config, scan)]))
    .digest('hex');
  const entries = parseMemo(await env.readArtifact(MEMO_PATH));
  const found = entries.find((entry) => entry.id === id);
  const newestFile = scan.files.reduce((newest, file) => Math.max(newest, file.mtimeMs), 0);
  if (found !== undefined && newestFile < found.writtenAt && (await areReadsCurrent(env, found.reads))) {
    const analysis = found.analysis ?? (await readSlot(env, found));
    if (analysis !== undefined) return analysis;
  }

  // A working-tree change does not depend on the graph: it is read on another thread while the graph loads, stamped
  // before it is read (the stamp the memo keeps). The range is the one analyzeChange asks for.
  const defaultBranch = config.config.analysis?.defaultBranch;
  if (range.head === undefined) {
    await env
      .openGit()
      .then((git) =>
        git.prefetchChange?.({
          ...(range.base === undefined ? {} : { base: range.base }),
          ...(defaultBranch === undefined ? {} : { defaultBranch }),
        }),
      )
      .catch(() => undefined);
  }
  const recorded = recordReads(env, { filesUnchanged: true });
  // The change is read once the parse children have started, through the recorded git like the analysis's own read,
  // and handed to the analysis: a build with no facts cache is focused on it (build-graph.ts), and its history reads
  // start with it (they need the change alone, and this thread mostly waits on the children meanwhile).
  let change: Promise<ChangeSet> | undefined;
  let historyReads: HistoryReads | undefined;
  const readChange = (): Promise<ChangeSet> =>
    (change ??= recorded.env.openGit().then(async (git) => {
      const read = await git.readChange(toChangeRange(range, defaultBranch));
      historyReads = startHistoryReads(recorded.env, git, read, config.config);
      return read;
    }));
  const repository = await buildRepositoryGraph(env, repositoryInputs, {
    focus: {
      changedPaths: async () => listChangePaths(await readChange()),
      // Read while the children parse; a failure is thrown where the change is asked for.
      onParseStarted: () => void readChange().catch(() => undefined),
      // The hotspot ranking needs the complexity of every churned file that could outrank a changed one: asked once the
      // change's files are read in full (their scores set the bar), those are parsed by the same children.
      alsoInFull: async ({ facts, linkOnly }) => {
        const read = await readChange();
        const mined = historyReads === undefined ? undefined : (await historyReads.mined).value;
        if (mined === undefined) return [];
        const deleted = new Set(read.files.filter((file) => file.status === 'deleted').map((file) => file.path));
        const field = toHotspotField(new Set(scan.files.map((file) => file.path)), deleted, facts, linkOnly);
        const candidates = listHotspotCandidates(mined.history, listChangePaths(read), field.isRanked);
        return planComplexityReads(mined.history, candidates, field);
      },
    },
  });
  // The fingerprint stands for the scanned files; files the scan skipped (too large, unreadable) are asked here.
  for (const skipped of repository.scan.skipped) await recorded.env.files.stat(skipped.path);
  const writtenAt = env.now().getTime();
  const analysis = await analyzeChange(recorded.env, {
    ...range,
    repository,
    ...(change === undefined ? {} : { change: await change }),
    ...(historyReads === undefined ? {} : { historyReads }),
  });
  const reads = [...recorded.log.reads.values()];
  // ASCII (non-ASCII characters escaped): the next run decodes and parses it about twice as fast.
  const text = toAsciiJson(analysis);
  if (text.length > MAX_KEPT_CHARS) return analysis;
  const others = entries.filter((other) => other.id !== id).slice(-(KEPT - 1));
  try {
    // Each analysis in a slot of its own, written once: every write is redacted whole on its way out, and an index
    // holding the kept analyses inline cost every `ai` after an edit on outline ~50 ms to redact four of them again.
    const taken = new Set(others.map((other) => other.slot));
    const slot = [...Array(KEPT).keys()].find((candidate) => !taken.has(candidate)) ?? 0;
    await env.writeArtifact(slotPath(slot), `{"version":1,"id":${JSON.stringify(id)},"analysis":${text}}\n`);
    const entry: MemoEntry = { id, writtenAt, reads, slot };
    await env.writeArtifact(MEMO_PATH, `${toAsciiJson({ version: 1, entries: [...others, entry] })}\n`);
  } catch {
    // A memo that cannot be written costs the next run the analysis, not this run its answer.
  }
  return analysis;
}

/** The analysis in the entry's slot file; undefined when the file is gone, damaged, or holds another range's. */
async function readSlot(env: Env, entry: MemoEntry): Promise<ChangeAnalysis | undefined> {
  if (entry.slot === undefined) return undefined;
  try {
    const data = JSON.parse((await env.readArtifact(slotPath(entry.slot))) ?? 'null') as { id?: unknown; analysis?: unknown } | null;
    if (data === null || typeof data !== 'object' || data.id !== entry.id) return undefined;
    return typeof data.analysis === 'object' && data.analysis !== null ? (data.analysis as ChangeAnalysis) : undefined;
  } catch {
    return undefined;
  }
}
