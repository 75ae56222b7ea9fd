import type { AgentProfile } from '../../model/config.js';
import type { CiRunRecord, ResolvedCiRange } from '../../model/ci.js';
import type { Env } from '../../model/env.js';
import type { RiskLevelName } from '../../model/input-fields.js';
import type { AnalysisReport } from '../../model/reports.js';
import type { AgentBundle } from '../../model/bundle.js';
import { renderCiJobSummary, renderCiPrComment } from '../../report/ci-summary.js';
import type { SarifLog } from '../../report/sarif.js';
import { renderJson } from '../../report/json.js';
import { redactTree } from '../../text/redact/tree.js';
import { buildAgentBundle } from '../agent-bundle.js';
import { analyzeChange } from '../analyze.js';
import { readBundleInputs, toResolvedRange } from '../load/read-bundle-inputs.js';
import { toAnalysisReport } from '../reports.js';
import type { CiDetection } from './detect-ci.js';
import { buildAnalysisSarif } from './sarif-log.js';

/** Where `checker ci` writes, under `.checker/local/`. */
const CI_FOLDER = 'ci';
export const CI_FILES = {
  analysis: `${CI_FOLDER}/analysis.json`,
  bundle: `${CI_FOLDER}/bundle.json`,
  sarif: `${CI_FOLDER}/checker.sarif`,
  summary: `${CI_FOLDER}/summary.md`,
  comment: `${CI_FOLDER}/pr-comment.md`,
  record: `${CI_FOLDER}/ci.json`,
} as const;

export interface RunCiOptions {
  detection: CiDetection;
  range: ResolvedCiRange;
  profile: AgentProfile;
  failOn?: RiskLevelName;
  /** Whether the merge risk reaches `failOn` (the caller's comparison, so the CLI gate stays the one place it is decided). */
  isAtOrAbove: (level: string, threshold: RiskLevelName) => boolean;
  toolVersion: string;
  /** The command line after `checker`, for SARIF's invocation. */
  arguments: string[];
}

export interface CiRunResult {
  record: CiRunRecord;
  report: AnalysisReport;
  bundle: AgentBundle;
  sarif: SarifLog;
  summary: string;
  comment: string;
  /** Absolute paths written, by file. */
  written: Record<keyof typeof CI_FILES, string>;
}

/**
 * `checker ci`: the analysis `checker analyze` and `checker ai` run, over the range the CI named, written as the
 * analysis, the task bundle, SARIF, a job summary and a pull-request comment under `.checker/local/ci/`. Report-only:
 * runs no check, calls no model.
 */
export async function runCi(env: Env, options: RunCiOptions): Promise<CiRunResult> {
  const started = env.now();
  const analysis = await analyzeChange(env, {
    ...(options.range.base === undefined ? {} : { base: options.range.base.oid }),
    ...(options.range.head === undefined ? {} : { head: options.range.head.oid }),
  });
  const report = redactTree(toAnalysisReport(analysis));
  const bundle = redactTree(
    buildAgentBundle(analysis, await readBundleInputs(env, { profile: options.profile }, toResolvedRange(analysis))),
  );
  const sarif = await buildAnalysisSarif(env, report, {
    arguments: options.arguments,
    started,
    toolVersion: options.toolVersion,
  });
  const level = report.summary.mergeRisk.level;
  const failed = options.failOn !== undefined && options.isAtOrAbove(level, options.failOn);
  const byKind: Record<string, number> = {};
  for (const finding of report.findings) {
    if (finding.kind !== 'context-weight') byKind[finding.kind] = (byKind[finding.kind] ?? 0) + 1;
  }
  const notes = [
    `${options.detection.name} (${options.detection.provider}), event ${options.detection.event}`,
    ...options.detection.notes,
    ...options.range.notes,
    `base: ${describeSide(options.range.base, 'the merge-base with the default branch (checker default)')}`,
    `head: ${describeSide(options.range.head, 'the working tree (checker default)')}`,
  ];
  const summaryInput = {
    ci: {
      name: options.detection.name,
      event: options.detection.event,
      ...(options.detection.pullRequest === undefined ? {} : { pullRequest: options.detection.pullRequest }),
    },
    range: report.range,
    summary: report.summary,
    tasks: bundle.tasks,
    taskOverflow: bundle.taskOverflow.length,
    routes: report.impactedRoutes,
    proof: report.changedPathProof,
    findings: { total: Object.values(byKind).reduce((sum, count) => sum + count, 0), byKind },
    sarifResults: sarif.runs[0]?.results.length ?? 0,
    gate: { ...(options.failOn === undefined ? {} : { failOn: options.failOn }), failed },
    notes,
  };
  const summary = renderCiJobSummary(summaryInput);
  const comment = renderCiPrComment(summaryInput);
  const record: CiRunRecord = {
    schemaVersion: 1,
    kind: 'ci-run',
    ci: { provider: options.detection.provider, ...summaryInput.ci },
    range: {
      base: {
        ref: report.range.base.ref,
        ...(report.range.base.oid ? { oid: report.range.base.oid } : {}),
        source: options.range.base?.source ?? 'default',
      },
      head: {
        ref: report.range.head.ref,
        ...(report.range.head.oid ? { oid: report.range.head.oid } : {}),
        source: options.range.head?.source ?? 'default',
      },
      shallow: options.range.shallow,
    },
    mergeRisk: report.summary.mergeRisk,
    gate: summaryInput.gate,
    findings: summaryInput.findings.total,
    sarifResults: summaryInput.sarifResults,
    files: { ...CI_FILES },
    notes,
  };
  // The record is a contract like every JSON artifact: one that breaks its schema is a bug, so it stops here.
  const issue = env.checkSchema('ci-run', record);
  if (issue !== undefined) throw new Error(`internal: ci.json does not match schemas/ci-run.schema.json: ${JSON.stringify(issue)}`);
  const written = {
    analysis: await env.writeArtifact(CI_FILES.analysis, renderJson(report)),
    bundle: await env.writeArtifact(CI_FILES.bundle, renderJson(bundle)),
    sarif: await env.writeArtifact(CI_FILES.sarif, renderJson(sarif)),
    summary: await env.writeArtifact(CI_FILES.summary, summary),
    comment: await env.writeArtifact(CI_FILES.comment, comment),
    record: await env.writeArtifact(CI_FILES.record, renderJson(record)),
  };
  return { record, report, bundle, sarif, summary, comment, written };
}

function describeSide(side: ResolvedCiRange['base'], fallback: string): string {
  return side === undefined ? fallback : `${side.oid.slice(0, 12)} from ${side.source}`;
}
