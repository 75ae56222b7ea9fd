import { analyzeChange, listChangePaths, toChangeRange } from '../app/analyze.js';
import {
  buildRepositoryGraph,
  DEFAULT_MAX_FILE_BYTES,
  fillInFull,
  type RepositoryGraph,
  readChangeInFull,
  updateRepositoryGraph,
} from '../app/build-graph.js';
import { loadConfig } from '../app/load/load-config.js';
import type { ChangeAnalysis } from '../model/analysis.js';
import type { ChangeSet } from '../model/change.js';
import type { Env, RevisionRange } from '../model/env.js';
import { type ReadLog, recordReads } from '../app/recorded-reads.js';
import { toTreeFingerprint } from '../app/tree-fingerprint.js';

export interface WarmGraphStats {
  builds: number;
  /** Graphs brought up to date by patching the kept one after JS/TS files changed, instead of building them again. */
  patches: number;
  reuses: number;
  /** How the last `getRepository` was served. */
  last: 'built' | 'patched' | 'reused' | undefined;
  /** Analyses computed, and analyses handed out again because nothing they read had changed. */
  analyses: number;
  analysisReuses: number;
  /** Analyses kept now (all of the current graph). */
  keptAnalyses: number;
}

/** Keeps the last repository graph and hands it out again while the working tree looks unchanged. */
export interface WarmGraph {
  /**
   * The graph of the working tree. Modules are in it with their links and words alone (what preflight and context
   * rank by, as a CLI preflight reads them); `getRepositoryFor` makes it whole for a change.
   */
  getRepository(): Promise<RepositoryGraph>;
  /**
   * The graph with every file an analysis of the range's change reads in full (build-graph.ts' readChangeInFull), and
   * that change, read through `gitEnv` (an analysis records its reads there).
   */
  getRepositoryFor(range: RevisionRange, gitEnv?: Env): Promise<{ repository: RepositoryGraph; change: ChangeSet }>;
  /**
   * The analysis of a range over the warm graph, handed out again (as a copy) while the graph is the same and every
   * input it read outside the graph (the git change, the index, coverage, execution records, repository packs) answers
   * as before.
   */
  analyze(range: RevisionRange): Promise<WarmAnalysis>;
  /**
   * Reads in full, a batch at a time and only while `isIdle()`, the modules the graph holds with their links alone: the
   * server's first call answers from links and words, and the analyses after it find the files they read in full
   * already there. Resolves when there is nothing left to read or `isIdle()` says no more; asked while it runs, it
   * returns at once and the running fill goes on (the call that ends asks again).
   */
  fill(isIdle: () => boolean): Promise<void>;
  getStats(): WarmGraphStats;
  /** Drops the kept graph and analyses; the next call rebuilds. */
  invalidate(): void;
}

/** A range's analysis over the warm graph, and what callers derived from it while it stays current. */
export interface WarmAnalysis {
  repository: RepositoryGraph;
  /** The caller's own copy, made on first read: a caller served from `derived` never pays for it. */
  readonly analysis: ChangeAnalysis;
  /**
   * Results a caller computed from exactly this analysis (a tool's rendered result per kind and format), kept as long
   * as the analysis is: on a reuse they are handed back as they are. Fresh with every newly computed analysis.
   */
  derived: Map<string, unknown>;
}

/**
 * Files read in full per step of `fill`, at least: a call that arrives meanwhile waits for one step (outline, 256 files:
 * 0.2-0.65 s of parse, 0.1-0.2 s of patch). Each patch composes the routes again, so a large tree takes at most
 * FILL_STEPS steps of more files each.
 */
const FILL_BATCH = 256;
const FILL_STEPS = 8;

/** Ranges whose analyses are kept (the newest ones asked for); a hub change's analysis at 10k files is tens of MB. */
const KEPT_ANALYSES = 4;

interface KeptAnalysis {
  repository: RepositoryGraph;
  log: ReadLog;
  analysis: ChangeAnalysis;
  derived: Map<string, unknown>;
}

function handOut(entry: KeptAnalysis): WarmAnalysis {
  let copy: ChangeAnalysis | undefined;
  return {
    repository: entry.repository,
    get analysis() {
      // Report builders own what they are given: each caller gets its own copy.
      copy ??= structuredClone(entry.analysis);
      return copy;
    },
    derived: entry.derived,
  };
}

/**
 * The graph is reused when a stat fingerprint of the scan (every path with its size, mtime and inode,
 * every skipped path, and the loaded configuration) equals the one it was built from. The scan is the
 * cheap part of a build (~90 ms on 10,000 files); the facts cache already makes re-parsing cheap, but
 * resolving and building the graph still costs seconds, which an unchanged tree skips entirely.
 * Calls are serialised so two concurrent tool calls never build twice.
 */
export function createWarmGraph(env: Env): WarmGraph {
  let kept: { fingerprint: string; repository: RepositoryGraph } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const stats: Omit<WarmGraphStats, 'keptAnalyses'> = { builds: 0, patches: 0, reuses: 0, last: undefined, analyses: 0, analysisReuses: 0 };
  const analyses = new Map<string, KeptAnalysis>();
  /** Set once a graph could not be made whole in place: from then on graphs are built from full facts. */
  let full = false;
  /**
   * Per graph's facts, `fill`'s batch size (from the files left when it began) and the files it asked for in full and
   * did not get (a parse that failed), not asked again.
   */
  const filled = new WeakMap<RepositoryGraph['parsed'], { size: number; failed: Set<string> }>();
  /** Whether `fill` runs, and whether it was asked again since its loop last looked. */
  let filling = false;
  let asked = false;

  const refresh = async (): Promise<RepositoryGraph> => {
    const config = await loadConfig(env);
    // File times are wall-clock times: a file modified after this instant is hashed again by the next patch.
    const scannedAt = Date.now();
    const scan = await env.scan({ maxFileBytes: config.config.analysis?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES });
    const fingerprint = toTreeFingerprint(config, scan);
    if (kept !== undefined && kept.fingerprint === fingerprint) {
      stats.reuses += 1;
      stats.last = 'reused';
      return kept.repository;
    }
    const previous = kept?.repository;
    // A patch that fails part-way leaves that graph half-patched: it is let go before patching starts.
    kept = undefined;
    const patched = previous === undefined ? undefined : await updateRepositoryGraph(env, previous, { config, scan, scannedAt });
    // A first call loads the graph a CLI run kept (graph-snapshot.ts) when the tree allows. The server writes none: the
    // write costs about half a build, and a first call should not wait for what only a later process would use.
    const repository = patched ?? (await buildRepositoryGraph(env, { config, scan }, { patchable: { scannedAt }, moduleLinks: !full }));
    kept = { fingerprint, repository };
    if (patched === undefined) stats.builds += 1;
    else stats.patches += 1;
    stats.last = patched === undefined ? 'built' : 'patched';
    return repository;
  };

  /** Calls are serialised: two concurrent calls never build, patch or complete the same graph at once. */
  const enqueue = <T>(step: () => Promise<T>): Promise<T> => {
    const next = queue.then(step, step);
    queue = next.catch(() => undefined);
    return next;
  };
  const getRepository = (): Promise<RepositoryGraph> => enqueue(refresh);

  /** `repository` (refreshed, if another call replaced it meanwhile) read in full where the change needs it. */
  const complete = async (repository: RepositoryGraph, paths: readonly string[]): Promise<RepositoryGraph> => {
    const current = kept?.repository === repository ? repository : await refresh();
    if (await readChangeInFull(env, current, paths)) return current;
    drop();
    return refresh();
  };
  /** A graph half-patched is dropped; it and every later graph are built from full facts. */
  const drop = (): void => {
    full = true;
    kept = undefined;
    analyses.clear();
  };

  /** One batch of `fill`: true when more is left to read. */
  const fillStep = async (): Promise<boolean> => {
    const repository = kept?.repository;
    const linkOnly = repository?.parsed.linkOnly;
    if (repository === undefined || linkOnly === undefined || linkOnly.size === 0) return false;
    const progress = filled.get(repository.parsed) ?? {
      size: Math.max(FILL_BATCH, Math.ceil(linkOnly.size / FILL_STEPS)),
      failed: new Set(),
    };
    filled.set(repository.parsed, progress);
    const batch = [...linkOnly].filter((path) => !progress.failed.has(path)).slice(0, progress.size);
    if (batch.length === 0) return false;
    if (!(await fillInFull(env, repository, batch))) {
      drop();
      return false;
    }
    for (const path of batch) if (repository.parsed.linkOnly?.has(path) === true) progress.failed.add(path);
    return true;
  };
  const fill = async (isIdle: () => boolean): Promise<void> => {
    asked = true;
    if (filling) return;
    filling = true;
    try {
      // Asked again while a step ran (a call began and ended meanwhile): the loop goes on rather than stopping for good.
      while (asked) {
        asked = false;
        // A failed read leaves the graph as it was: the analyses still read in full what they need.
        while (isIdle() && (await enqueue(fillStep).catch(() => false))) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      filling = false;
    }
  };

  /** The change of `range`, read through `gitEnv`, and `repository` made whole for it. */
  const wholeFor = async (
    repository: RepositoryGraph,
    range: RevisionRange,
    gitEnv: Env,
  ): Promise<{ repository: RepositoryGraph; change: ChangeSet }> => {
    const defaultBranch = repository.config.config.analysis?.defaultBranch;
    const change = await (await gitEnv.openGit()).readChange(toChangeRange(range, defaultBranch));
    if ((repository.parsed.linkOnly?.size ?? 0) === 0) return { repository, change };
    return { repository: await enqueue(() => complete(repository, listChangePaths(change))), change };
  };
  const getRepositoryFor = async (range: RevisionRange, gitEnv: Env = env) => wholeFor(await getRepository(), range, gitEnv);

  return {
    getRepository,
    getRepositoryFor,
    async analyze(range) {
      const current = await getRepository();
      // An analysis of an older graph can never be handed out again, and would keep that whole graph in memory.
      for (const [key, entry] of analyses) if (entry.repository !== current) analyses.delete(key);
      const key = JSON.stringify([range.base ?? null, range.head ?? null]);
      const found = analyses.get(key);
      if (found !== undefined && found.repository === current && (await found.log.isCurrent())) {
        stats.analysisReuses += 1;
        return handOut(found);
      }
      // The same repository object means the same stat fingerprint of every scanned file, so the change is checked by
      // its stamp; files the scan skipped (too large, unreadable) have no stat in the fingerprint and are asked here.
      const recorded = recordReads(env, { filesUnchanged: true });
      const { repository, change } = await wholeFor(current, range, recorded.env);
      for (const skipped of repository.scan.skipped) await recorded.env.files.stat(skipped.path);
      const analysis = await analyzeChange(recorded.env, { ...range, repository, change });
      stats.analyses += 1;
      const entry: KeptAnalysis = { repository, log: recorded.log, analysis: structuredClone(analysis), derived: new Map() };
      analyses.delete(key);
      analyses.set(key, entry);
      for (const oldest of analyses.keys()) {
        if (analyses.size <= KEPT_ANALYSES) break;
        analyses.delete(oldest);
      }
      return { repository, analysis, derived: entry.derived };
    },
    fill,
    getStats: () => ({ ...stats, keptAnalyses: analyses.size }),
    invalidate() {
      kept = undefined;
      analyses.clear();
    },
  };
}
