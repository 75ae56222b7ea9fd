import type { Env, RevisionRange } from '../model/env.js';
import type { AnalysisReportKind, AnyAnalysisReport } from '../model/reports.js';
import { analyzeChange } from './analyze.js';
import { analyzeRange } from './analysis-memo.js';
import type { RepositoryGraph } from './build-graph.js';
import { toResolvedRange } from './load/read-bundle-inputs.js';
import { buildAnalysisReport } from './reports.js';
import { loadTrustedConfig } from './load/trusted-config.js';

/** One of the seven analysis reports (analyze, impact, audit-tests, edge-cases, tools, patterns, redteam) of a git range. */
export async function getAnalysisReport(
  env: Env,
  kind: AnalysisReportKind,
  range: RevisionRange & { repository?: RepositoryGraph } = {},
): Promise<AnyAnalysisReport> {
  if (range.repository === undefined) {
    // A run of its own: the analysis may be the one kept from an earlier run on the same tree (analysis-memo.ts).
    const analysis = await analyzeRange(env, pickRange(range));
    return buildAnalysisReport(kind, analysis, await readTrustedChecks(env, analysis));
  }
  const analysis = await analyzeChange(env, { ...pickRange(range), repository: range.repository });
  return buildAnalysisReport(kind, analysis, await readTrustedChecks(env, analysis));
}

/** The checks a report says to run are the base revision's: a change cannot name its own commands as the proof to run. */
async function readTrustedChecks(env: Env, analysis: Parameters<typeof toResolvedRange>[0]) {
  return (await loadTrustedConfig(env, toResolvedRange(analysis))).config.checks;
}

function pickRange(range: RevisionRange): RevisionRange {
  const picked: RevisionRange = {};
  if (range.base !== undefined) picked.base = range.base;
  if (range.head !== undefined) picked.head = range.head;
  return picked;
}
