import type { ChangeAnalysis, ReviewContext } from '../model/analysis.js';
import type { CheckConfig } from '../model/config.js';
import type { ProofState } from '../model/coverage.js';
import type {
  AnalysisReport,
  AnalysisReportKind,
  AnyAnalysisReport,
  AuditTestsReport,
  ConfiguredCheckRef,
  EdgeCasesReport,
  FixTask,
  ImpactReport,
  MemorySummary,
  PatternGroup,
  PatternsReport,
  RecommendedChecks,
  RecommendedTestFile,
  RedteamReport,
  ReportSummary,
  ToolsReport,
} from '../model/reports.js';
import { redactSecrets } from '../text/redact/redact.js';
import type { HistoryInsights } from '../model/history.js';
import { compareText } from '../text/compare-text.js';

export type ConfiguredChecks = Readonly<Record<string, CheckConfig>> | undefined;

const MEMORY_EXCERPT_CHARS = 200;

export const TOOLS_NOTE = 'Recommendations only: checker installed nothing, ran nothing and used no network to produce them.';
const REDTEAM_SAFETY_NOTE =
  'Deterministic, report-only: no configured check, tool adapter, investigation or model ran, and nothing left this machine. Configured checks are listed as follow-up proof.';

const PROOF_STATE_ORDER: Record<ProofState, number> = {
  unproven: 0,
  'mocked-boundary': 1,
  'static-only': 2,
  'runtime-unproven': 3,
  'runtime-proven': 4,
};

function toReportSummary(analysis: ChangeAnalysis): ReportSummary {
  const { changedFiles, impactedFiles, impactedRoutes, reachingTests, mergeRisk } = analysis.summary;
  return { changedFiles, impactedFiles, impactedRoutes, reachingTests, mergeRisk: { ...mergeRisk } };
}

function redact(text: string): string {
  return redactSecrets(text).text;
}

/** Memory notes and decision titles are repository text: secrets in them never reach a report. */
function toRedactedContext(context: ReviewContext): ReviewContext {
  return {
    ...context,
    decisions: context.decisions.map((decision) => ({ ...decision, title: redact(decision.title) })),
    memory: context.memory.map((item) => ({
      ...item,
      ...(item.title === undefined ? {} : { title: redact(item.title) }),
      text: redact(item.text),
    })),
    ...(context.history === undefined ? {} : { history: redactHistory(context.history) }),
  };
}

/** Commit subjects are repository text too. */
function redactHistory(history: HistoryInsights): HistoryInsights {
  const cite = <T extends { subject: string }>(commit: T): T => ({ ...commit, subject: redact(commit.subject) });
  return {
    ...history,
    missedPartners: history.missedPartners.map((partner) => ({ ...partner, commits: partner.commits.map(cite) })),
    fixProne: history.fixProne.map((file) => ({ ...file, fixCommits: file.fixCommits.map(cite) })),
  };
}

function toConfiguredCheckRefs(checks: ConfiguredChecks): ConfiguredCheckRef[] {
  if (checks === undefined) return [];
  return Object.keys(checks)
    .sort(compareText)
    .map((name) => {
      const description = checks[name]?.description;
      return description === undefined ? { name, willRun: false } : { name, description, willRun: false };
    });
}

function toRecommendedTestFiles(analysis: ChangeAnalysis): RecommendedTestFile[] {
  const reaches = new Map<string, Set<string>>();
  for (const proof of analysis.changedPathProof) {
    for (const test of proof.reachingTests) {
      const set = reaches.get(test) ?? new Set<string>();
      set.add(proof.path);
      reaches.set(test, set);
    }
  }
  const changedTests = new Set(
    analysis.changedFiles.filter((file) => file.role === 'test' && file.status !== 'deleted').map((file) => file.path),
  );
  for (const path of changedTests) if (!reaches.has(path)) reaches.set(path, new Set());
  return [...reaches.entries()]
    .map(([path, files]) => ({ path, reaches: [...files].sort(compareText), changed: changedTests.has(path) }))
    .sort((a, b) => b.reaches.length - a.reaches.length || compareText(a.path, b.path));
}

function toRecommendedChecks(analysis: ChangeAnalysis, checks: ConfiguredChecks): RecommendedChecks {
  return {
    testFiles: toRecommendedTestFiles(analysis),
    complete: analysis.changedPathProof.every((proof) => proof.reachingTestCount <= proof.reachingTests.length),
    testRun: analysis.testRun,
    configuredChecks: toConfiguredCheckRefs(checks),
  };
}

function toOneLine(text: string, maxChars: number): string {
  const line = redact(text).replace(/\s+/g, ' ').trim();
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}

function toMemorySummary(context: ReviewContext): MemorySummary {
  const byKind: Record<string, number> = {};
  for (const item of context.memory) byKind[item.kind] = (byKind[item.kind] ?? 0) + 1;
  return {
    count: context.memory.length,
    byKind: Object.fromEntries(Object.entries(byKind).sort(([a], [b]) => compareText(a, b))),
    items: context.memory.map((item) => ({
      id: item.id,
      kind: item.kind,
      ...(item.title === undefined ? {} : { title: toOneLine(item.title, MEMORY_EXCERPT_CHARS) }),
      excerpt: toOneLine(item.text, MEMORY_EXCERPT_CHARS),
      matchedBy: [...item.matchedBy],
    })),
  };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** Fix tasks in order: proof repairs (weakest state first), then missing tests, then weak tests that reach the change. */
export function deriveFixTasks(analysis: ChangeAnalysis): FixTask[] {
  const proofTasks: FixTask[] = analysis.changedPathProof
    .filter((proof) => proof.state !== 'runtime-proven' && proof.repairTask !== '')
    .sort((a, b) => PROOF_STATE_ORDER[a.state] - PROOF_STATE_ORDER[b.state] || compareText(a.path, b.path))
    .map((proof) => ({
      id: `fix:proof:file:${proof.path}`,
      kind: 'proof',
      path: proof.path,
      task: proof.repairTask,
      evidenceIds: [`file:${proof.path}`],
      state: proof.state,
    }));
  const missingTasks: FixTask[] = analysis.missingTests
    .filter((missing) => missing.repairTask !== '')
    .map((missing) => ({
      id: `fix:missing-test:${missing.id}`,
      kind: 'missing-test',
      path: missing.path,
      task: missing.repairTask,
      evidenceIds: unique([missing.id, ...missing.findingIds]),
    }));
  const weakTasks: FixTask[] = analysis.weakTests
    .filter((weak) => weak.repairTask !== '')
    .map((weak, index) => ({ weak, index }))
    .sort((a, b) => Number(b.weak.reachesChange) - Number(a.weak.reachesChange) || a.index - b.index)
    .map(({ weak }) => ({
      id: `fix:weak-test:${weak.id}`,
      kind: 'weak-test',
      path: weak.file,
      task: weak.repairTask,
      evidenceIds: unique([weak.id, ...weak.findingIds]),
    }));
  return [...proofTasks, ...missingTasks, ...weakTasks];
}

function groupPatterns(context: ReviewContext): PatternGroup[] {
  const groups = new Map<string, PatternGroup>();
  for (const match of context.patterns) {
    const hash = match.provenance.lastIndexOf('#');
    const rule = hash === -1 ? match.provenance : match.provenance.slice(hash + 1);
    const group = groups.get(match.provenance) ?? { rule, provenance: match.provenance, matches: [] };
    group.matches.push({ id: match.id, path: match.path, line: match.line, message: match.message });
    groups.set(match.provenance, group);
  }
  for (const group of groups.values())
    group.matches.sort((a, b) => compareText(a.path, b.path) || a.line - b.line || compareText(a.id, b.id));
  return [...groups.values()].sort(
    (a, b) => b.matches.length - a.matches.length || compareText(a.rule, b.rule) || compareText(a.provenance, b.provenance),
  );
}

/** checker analyze / analyze_pr: the whole analysis, with secrets removed from memory notes and decision titles. */
export function toAnalysisReport(analysis: ChangeAnalysis): AnalysisReport {
  return {
    schemaVersion: 1,
    kind: 'analysis',
    range: analysis.range,
    summary: analysis.summary,
    changedFiles: analysis.changedFiles,
    impactedFiles: analysis.impactedFiles,
    impactedRoutes: analysis.impactedRoutes,
    symbolImpacts: analysis.symbolImpacts,
    impactedAreas: analysis.impactedAreas,
    changedPathProof: analysis.changedPathProof,
    testEvidence: analysis.testEvidence,
    testRun: analysis.testRun,
    weakTests: analysis.weakTests,
    missingTests: analysis.missingTests,
    staleAssertions: analysis.staleAssertions.map((item) => ({
      ...item,
      before: redact(item.before),
      after: redact(item.after),
      excerpt: redact(item.excerpt),
      message: redact(item.message),
      repairTask: redact(item.repairTask),
    })),
    edgeCases: analysis.edgeCases,
    context: toRedactedContext(analysis.context),
    findings: analysis.findings,
    limitations: analysis.limitations,
  };
}

/** checker impact / impact_map. */
export function toImpactReport(analysis: ChangeAnalysis): ImpactReport {
  return {
    schemaVersion: 1,
    kind: 'impact',
    range: analysis.range,
    summary: toReportSummary(analysis),
    changedFiles: analysis.changedFiles,
    impactedFiles: analysis.impactedFiles,
    impactedRoutes: analysis.impactedRoutes,
    symbolImpacts: analysis.symbolImpacts,
    impactedAreas: analysis.impactedAreas,
    limitations: analysis.limitations,
  };
}

/** checker audit-tests / audit_tests: proof, weak and missing tests, and what to run next (nothing is run). */
export function toAuditTestsReport(analysis: ChangeAnalysis, checks?: ConfiguredChecks): AuditTestsReport {
  return {
    schemaVersion: 1,
    kind: 'audit-tests',
    range: analysis.range,
    summary: toReportSummary(analysis),
    changedPathProof: analysis.changedPathProof,
    testEvidence: analysis.testEvidence,
    weakTests: analysis.weakTests,
    missingTests: analysis.missingTests,
    recommendedChecks: toRecommendedChecks(analysis, checks),
    limitations: analysis.limitations,
  };
}

/** checker edge-cases / suggest_edge_cases: the top eight and the ranked overflow. */
export function toEdgeCasesReport(analysis: ChangeAnalysis): EdgeCasesReport {
  return {
    schemaVersion: 1,
    kind: 'edge-cases',
    range: analysis.range,
    summary: toReportSummary(analysis),
    edgeCases: analysis.edgeCases,
    limitations: analysis.limitations,
  };
}

/** checker tools / tool_recommendations. */
export function toToolsReport(analysis: ChangeAnalysis): ToolsReport {
  return {
    schemaVersion: 1,
    kind: 'tools',
    range: analysis.range,
    summary: toReportSummary(analysis),
    tools: analysis.context.tools,
    repositoryShape: analysis.context.repositoryShape ?? null,
    note: TOOLS_NOTE,
    limitations: analysis.limitations,
  };
}

/** checker patterns / pattern_search: pattern-pack matches in changed hunks, grouped by rule. */
export function toPatternsReport(analysis: ChangeAnalysis): PatternsReport {
  return {
    schemaVersion: 1,
    kind: 'patterns',
    range: analysis.range,
    summary: toReportSummary(analysis),
    matchCount: analysis.context.patterns.length,
    groups: groupPatterns(analysis.context),
    limitations: analysis.limitations,
  };
}

/** checker redteam / redteam_report: the deterministic merge-safety report. */
export function toRedteamReport(analysis: ChangeAnalysis, checks?: ConfiguredChecks): RedteamReport {
  return {
    schemaVersion: 1,
    kind: 'redteam',
    range: analysis.range,
    summary: toReportSummary(analysis),
    mergeRiskBreakdown: analysis.summary.mergeRiskBreakdown,
    impactedAreas: analysis.impactedAreas,
    changedPathProof: analysis.changedPathProof,
    weakTests: analysis.weakTests,
    missingTests: analysis.missingTests,
    edgeCases: analysis.edgeCases,
    configuredChecks: toConfiguredCheckRefs(checks),
    memory: toMemorySummary(analysis.context),
    fixTasks: deriveFixTasks(analysis),
    safety: {
      execution: { checksRan: false, investigationRan: false, modelCalled: false, network: false },
      note: REDTEAM_SAFETY_NOTE,
    },
    limitations: analysis.limitations,
  };
}

/** The schema a report kind validates against: `schemas/<name>.schema.json`, for `getValidator(name)`. */
export function getReportSchemaName(kind: AnalysisReportKind): `${AnalysisReportKind}-report` {
  return `${kind}-report`;
}

/** Builds the report of one kind; `checks` (config.checks) feeds audit-tests and redteam only. */
export function buildAnalysisReport(kind: AnalysisReportKind, analysis: ChangeAnalysis, checks?: ConfiguredChecks): AnyAnalysisReport {
  switch (kind) {
    case 'analysis':
      return toAnalysisReport(analysis);
    case 'impact':
      return toImpactReport(analysis);
    case 'audit-tests':
      return toAuditTestsReport(analysis, checks);
    case 'edge-cases':
      return toEdgeCasesReport(analysis);
    case 'tools':
      return toToolsReport(analysis);
    case 'patterns':
      return toPatternsReport(analysis);
    case 'redteam':
      return toRedteamReport(analysis, checks);
  }
}
