import type { Env, RevisionRange } from '../model/env.js';
import type { AnalysisReportKind, AnyAnalysisReport } from '../model/reports.js';
import { analyzeChange } from './analyze.js';
import { buildRepositoryGraph, type RepositoryGraph } from './build-graph.js';
import { buildAnalysisReport } from './reports.js';

/** One of the seven analysis reports (analyze, impact, audit-tests, edge-cases, tools, patterns, redteam) of a git range. */
export async function getAnalysisReport(
  env: Env,
  kind: AnalysisReportKind,
  range: RevisionRange & { repository?: RepositoryGraph } = {},
): Promise<AnyAnalysisReport> {
  const repository = range.repository ?? (await buildRepositoryGraph(env));
  const analysis = await analyzeChange(env, { ...pickRange(range), repository });
  return buildAnalysisReport(kind, analysis, repository.config.config.checks);
}

function pickRange(range: RevisionRange): RevisionRange {
  const picked: RevisionRange = {};
  if (range.base !== undefined) picked.base = range.base;
  if (range.head !== undefined) picked.head = range.head;
  return picked;
}
