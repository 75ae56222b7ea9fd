import { analyzeChange } from '../app/analyze.js';
import { buildRepositoryGraph, DEFAULT_MAX_FILE_BYTES, type RepositoryGraph, updateRepositoryGraph } from '../app/build-graph.js';
import { loadConfig } from '../app/load/load-config.js';
import type { ChangeAnalysis } from '../model/analysis.js';
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
  getRepository(): Promise<RepositoryGraph>;
  /**
   * The analysis of a range over the warm graph, handed out again (as a copy) while the graph is the same and every
   * input it read outside the graph (the git change, the index, coverage, execution records, repository packs) answers
   * as before.
   */
  analyze(range: RevisionRange): Promise<WarmAnalysis>;
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
    const repository = patched ?? (await buildRepositoryGraph(env, { config, scan }, { patchable: { scannedAt } }));
    kept = { fingerprint, repository };
    if (patched === undefined) stats.builds += 1;
    else stats.patches += 1;
    stats.last = patched === undefined ? 'built' : 'patched';
    return repository;
  };

  const getRepository = (): Promise<RepositoryGraph> => {
    const next = queue.then(refresh, refresh);
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    getRepository,
    async analyze(range) {
      const repository = await getRepository();
      // An analysis of an older graph can never be handed out again, and would keep that whole graph in memory.
      for (const [key, entry] of analyses) if (entry.repository !== repository) analyses.delete(key);
      const key = JSON.stringify([range.base ?? null, range.head ?? null]);
      const found = analyses.get(key);
      if (found !== undefined && found.repository === repository && (await found.log.isCurrent())) {
        stats.analysisReuses += 1;
        return handOut(found);
      }
      // The same repository object means the same stat fingerprint of every scanned file, so the change is checked by
      // its stamp; files the scan skipped (too large, unreadable) have no stat in the fingerprint and are asked here.
      const recorded = recordReads(env, { filesUnchanged: true });
      for (const skipped of repository.scan.skipped) await recorded.env.files.stat(skipped.path);
      const analysis = await analyzeChange(recorded.env, { ...range, repository });
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
    getStats: () => ({ ...stats, keptAnalyses: analyses.size }),
    invalidate() {
      kept = undefined;
      analyses.clear();
    },
  };
}
