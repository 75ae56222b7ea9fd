import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getPreflightReport } from '../../src/app/preflight.js';
import { getTaskContext } from '../../src/app/task-context.js';
import { createNodeEnv } from '../../src/io/node-env.js';
import type { ParsePool } from '../../src/io/parse-pool.js';
import { buildBm25Index, searchBm25 } from './bm25.js';
import { searchGitGrep } from './grep.js';
import { isSourcePath } from './paths.js';
import { listTrackedFiles } from './repo-cache.js';

export const SYSTEMS = ['preflight', 'context', 'bm25', 'grep'] as const;
export type SystemName = (typeof SYSTEMS)[number];

/** What one system answered for one task: ranked repository-relative file paths. */
export interface SystemAnswer {
  files: string[];
  seconds: number;
  /** preflight's and the context packet's `confidence` (low, medium, high). */
  confidence?: string;
  error?: string;
}

/** Files larger than this are left out of BM25 (bundles, generated tables): checker's scan skips them too. */
const MAX_DOCUMENT_BYTES = 1024 * 1024;
const FILE_NODE_PREFIX = 'file:';

export interface TreeContext {
  workDir: string;
  pool: ParsePool;
}

async function timed(run: () => Promise<Omit<SystemAnswer, 'seconds'>>): Promise<SystemAnswer> {
  const started = performance.now();
  try {
    const answer = await run();
    return { ...answer, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { files: [], seconds: (performance.now() - started) / 1000, error: message.slice(0, 500) };
  }
}

/** `checker ai preflight --task`, in process: its `candidateFiles` in order, and its confidence. */
function runPreflight(tree: TreeContext, task: string): Promise<SystemAnswer> {
  return timed(async () => {
    const env = createNodeEnv(tree.workDir, { pool: tree.pool });
    try {
      const report = await getPreflightReport(env, { task });
      return { files: report.candidateFiles, confidence: report.confidence };
    } finally {
      await env.close();
    }
  });
}

/** `checker context --task`, in process: the packet's file nodes in their order, and its confidence. */
function runContext(tree: TreeContext, task: string): Promise<SystemAnswer> {
  return timed(async () => {
    const env = createNodeEnv(tree.workDir, { pool: tree.pool });
    try {
      const packet = await getTaskContext(env, { task });
      const files = packet.nodes.filter((node) => node.kind === 'file').map((node) => node.id.slice(FILE_NODE_PREFIX.length));
      return { files, confidence: packet.confidence };
    } finally {
      await env.close();
    }
  });
}

/** BM25 over every non-test JS/TS source file of the checkout, read and indexed afresh for each query. */
function runBm25(tree: TreeContext, task: string): Promise<SystemAnswer> {
  return timed(async () => {
    const documents = listTrackedFiles(tree.workDir)
      .filter(isSourcePath)
      .flatMap((path) => {
        const absolute = join(tree.workDir, path);
        const stats = statSync(absolute, { throwIfNoEntry: false });
        if (stats === undefined || !stats.isFile() || stats.size > MAX_DOCUMENT_BYTES) return [];
        return [{ path, text: readFileSync(absolute, 'utf8') }];
      });
    return { files: searchBm25(buildBm25Index(documents), task).map((hit) => hit.path) };
  });
}

function runGrep(tree: TreeContext, task: string): Promise<SystemAnswer> {
  return timed(async () => ({ files: searchGitGrep(tree.workDir, task) }));
}

export const RUNNERS: Record<SystemName, (tree: TreeContext, task: string) => Promise<SystemAnswer>> = {
  preflight: runPreflight,
  context: runContext,
  bm25: runBm25,
  grep: runGrep,
};
