import type { TestRun } from './test-run.js';
import type {
  AnalysisSummary,
  ChangeAnalysis,
  ChangedFileEvidence,
  EdgeCase,
  ImpactedAreas,
  ImpactedFile,
  ImpactedRoute,
  MissingTest,
  RepositoryShape,
  ReviewContext,
  SymbolImpact,
  WeakTest,
} from './analysis.js';
import type { ChangedPathProof, ProofState, TestEvidence } from './coverage.js';
import type { Diagnostic } from './diagnostic.js';

/**
 * The seven analysis reports (checker analyze, impact, audit-tests, edge-cases, tools, patterns, redteam).
 * Each is a JSON-serialisable view of one ChangeAnalysis, validated by `schemas/<kind>-report.schema.json`.
 */
export const ANALYSIS_REPORT_KINDS = ['analysis', 'impact', 'audit-tests', 'edge-cases', 'tools', 'patterns', 'redteam'] as const;
export type AnalysisReportKind = (typeof ANALYSIS_REPORT_KINDS)[number];

export interface ReportHeader<K extends AnalysisReportKind> {
  schemaVersion: 1;
  kind: K;
  range: ChangeAnalysis['range'];
}

/** The headline every report opens with. */
export type ReportSummary = Pick<AnalysisSummary, 'changedFiles' | 'impactedFiles' | 'impactedRoutes' | 'reachingTests' | 'mergeRisk'>;

/** The whole analysis; the per-import list stays out (`limitations` carries the unresolved-import count). */
export interface AnalysisReport extends ReportHeader<'analysis'>, Omit<ChangeAnalysis, 'range' | 'unresolvedImports'> {}

export interface ImpactReport extends ReportHeader<'impact'> {
  summary: ReportSummary;
  changedFiles: ChangedFileEvidence[];
  impactedFiles: ImpactedFile[];
  impactedRoutes: ImpactedRoute[];
  symbolImpacts: SymbolImpact[];
  impactedAreas: ImpactedAreas;
  limitations: Diagnostic[];
}

/** A configured check named as follow-up proof; reports never run it. */
export interface ConfiguredCheckRef {
  name: string;
  description?: string;
  willRun: false;
}

export interface RecommendedTestFile {
  path: string;
  /** Changed files this test file reaches (empty for a changed test file that reaches none). */
  reaches: string[];
  /** The test file itself changed. */
  changed: boolean;
}

export interface RecommendedChecks {
  testFiles: RecommendedTestFile[];
  /** False when a changed file had more reaching tests than its proof entry lists. */
  complete: boolean;
  /** The commands that run them (or the whole suite, and why). */
  testRun: TestRun;
  configuredChecks: ConfiguredCheckRef[];
}

export interface AuditTestsReport extends ReportHeader<'audit-tests'> {
  summary: ReportSummary;
  changedPathProof: ChangedPathProof[];
  testEvidence: TestEvidence;
  weakTests: WeakTest[];
  missingTests: MissingTest[];
  recommendedChecks: RecommendedChecks;
  limitations: Diagnostic[];
}

export interface EdgeCasesReport extends ReportHeader<'edge-cases'> {
  summary: ReportSummary;
  edgeCases: { top: EdgeCase[]; overflow: EdgeCase[] };
  limitations: Diagnostic[];
}

export interface ToolsReport extends ReportHeader<'tools'> {
  summary: ReportSummary;
  tools: ReviewContext['tools'];
  /** The repository facts the recommendation rules read; null when the analysis did not record them. */
  repositoryShape: RepositoryShape | null;
  note: string;
  limitations: Diagnostic[];
}

export interface PatternMatch {
  id: string;
  path: string;
  line: number;
  message: string;
}

export interface PatternGroup {
  /** Rule id (the part of the provenance after `#`). */
  rule: string;
  provenance: string;
  matches: PatternMatch[];
}

export interface PatternsReport extends ReportHeader<'patterns'> {
  summary: ReportSummary;
  matchCount: number;
  groups: PatternGroup[];
  limitations: Diagnostic[];
}

export type FixTaskKind = 'proof' | 'missing-test' | 'weak-test';

export interface FixTask {
  /** `fix:<kind>:<subject evidence id>`. */
  id: string;
  kind: FixTaskKind;
  /** Path of the file the task is about. */
  path: string;
  task: string;
  /** Evidence ids the task cites (the subject first). */
  evidenceIds: string[];
  /** Proof state for `proof` tasks. */
  state?: ProofState;
}

export interface MemorySummaryItem {
  id: string;
  kind: string;
  title?: string;
  /** Redacted, single-line, at most 200 characters. */
  excerpt: string;
  matchedBy: string[];
}

export interface MemorySummary {
  count: number;
  byKind: Record<string, number>;
  items: MemorySummaryItem[];
}

export interface ExecutionFlags {
  checksRan: false;
  investigationRan: false;
  modelCalled: false;
  network: false;
}

export interface RedteamReport extends ReportHeader<'redteam'> {
  summary: ReportSummary;
  mergeRiskBreakdown: AnalysisSummary['mergeRiskBreakdown'];
  impactedAreas: ImpactedAreas;
  changedPathProof: ChangedPathProof[];
  weakTests: WeakTest[];
  missingTests: MissingTest[];
  edgeCases: { top: EdgeCase[]; overflow: EdgeCase[] };
  configuredChecks: ConfiguredCheckRef[];
  memory: MemorySummary;
  fixTasks: FixTask[];
  safety: { execution: ExecutionFlags; note: string };
  limitations: Diagnostic[];
}

export type AnyAnalysisReport =
  | AnalysisReport
  | ImpactReport
  | AuditTestsReport
  | EdgeCasesReport
  | ToolsReport
  | PatternsReport
  | RedteamReport;
