import type { TestRun } from './test-run.js';
import type {
  AnalysisSummary,
  ChangedFileEvidence,
  EdgeCase,
  ImpactedAreas,
  ImpactedFile,
  ImpactedRoute,
  MissingTest,
  StaleAssertion,
  ReviewContext,
  SymbolImpact,
  WeakTest,
} from './analysis.js';
import type { RevisionInfo } from './change.js';
import type { AgentProfile, ToolAdapterKind } from './config.js';
import type { ChangedPathProof, TestEvidence } from './coverage.js';
import type { Location } from './diagnostic.js';
import type { InvestigationRanRecord, InvestigationResult } from './investigation.js';

/**
 * The agent task bundle (spec 2.9, design.md "Output contracts"), validated by
 * `schemas/agent-bundle.schema.json`. Evidence is deterministic; requirement evidence sits apart in
 * `requirements`; repository text (skills, memory, decisions, requirement and product text) is data,
 * redacted, never copied into `tasks`.
 */
export interface AgentBundle {
  schemaVersion: 1;
  kind: 'agent-bundle';
  profile: AgentProfile;
  range: { base: RevisionInfo; head: RevisionInfo };
  task?: string;
  requirements?: RequirementEvidence;
  evidence: BundleEvidence;
  checks: BundleCheck[];
  toolAdapters: BundleToolAdapter[];
  skills: BundleSkill[];
  /** The highest-ranked tasks (at most `analysis.maxPromptTasks`, default 12), deduplicated by subject and action. */
  tasks: BundleTask[];
  /** The rest of the ranked task list, in rank order. */
  taskOverflow: BundleTask[];
  proofObligations: ProofObligation[];
  handoff: Handoff;
  prompt: string;
  limitations: BundleLimitation[];
  safety: string[];
  execution: BundleExecution;
  verification: BundleVerification;
  /** Untrusted model output of `--investigate`; never changes the evidence, tasks or prompt above. */
  investigation?: InvestigationResult;
}

export interface ProofEntry extends ChangedPathProof {
  /** Evidence id `proof:<path>`. */
  id: string;
}

export interface ProductFailure {
  /** Evidence id `product:<check id>`. */
  id: string;
  checkId: string;
  checkKind: 'ui' | 'api' | 'workflow';
  target: string;
  /** Untrusted (generated check output), redacted. */
  title: string;
  expected?: string;
  actual?: string;
  impactedFiles: string[];
  artifacts: { kind: string; path?: string; label?: string; description?: string }[];
  rerunCommand: string;
}

export interface BundleEvidence {
  changedFiles: ChangedFileEvidence[];
  impactedFiles: ImpactedFile[];
  impactedRoutes: ImpactedRoute[];
  symbolImpacts: SymbolImpact[];
  impactedAreas: ImpactedAreas;
  changedPathProof: ProofEntry[];
  weakTests: WeakTest[];
  missingTests: MissingTest[];
  staleAssertions: StaleAssertion[];
  edgeCases: { top: EdgeCase[]; overflow: EdgeCase[] };
  summary: AnalysisSummary;
  testEvidence: TestEvidence;
  /** The tests to run for the change, as commands of their runners (or the whole suite, and why). */
  testRun: TestRun;
  productFailures: ProductFailure[];
  owners: ReviewContext['owners'];
  decisions: ReviewContext['decisions'];
  memory: ReviewContext['memory'];
  contracts: ReviewContext['contracts'];
  patterns: ReviewContext['patterns'];
  toolRecommendations: ReviewContext['tools'];
  /** Missed co-change partners, fix-prone files and hotspots from the mined history (absent when not mined). */
  history?: ReviewContext['history'];
}

export interface RequirementCriterionEvidence {
  /** Evidence id `requirement:<criterion id>`. */
  id: string;
  criterionId: string;
  text: string;
  requiredProof: string[];
}

export interface RequirementFlowEvidence {
  /** Evidence id `flow:<index>`. */
  id: string;
  name: string;
  kind: string;
  route?: string;
  /** Route evidence ids of `evidence.impactedRoutes` this flow names (api flows only). */
  matchedRoutes: string[];
}

export interface RequirementEvidence {
  path: string;
  sha256: string;
  title?: string;
  acceptanceCriteria: RequirementCriterionEvidence[];
  affectedFlows: RequirementFlowEvidence[];
  currentBehavior: string[];
  expectedBehavior: string[];
  nonGoals: string[];
  invariants: string[];
  architectureConstraints: string[];
  unresolvedQuestions: string[];
}

export interface BundleCheck {
  /** Evidence id `check:<name>`. */
  id: string;
  name: string;
  /** Repository configuration text: shown fenced, never run by the bundle. */
  command: string;
  source: string;
  willRun: false;
  reason: string;
}

export interface BundleToolAdapter {
  kind: ToolAdapterKind | 'agentProcess';
  command?: string;
  enabled: boolean;
  willRun: false;
}

export interface BundleSkill {
  /** Evidence id `skill:<name>`. */
  id: string;
  name: string;
  /** Front-matter description: untrusted, size-capped, redacted. */
  description: string;
  path: string;
}

export type TaskKind =
  | 'check-failure'
  | 'product-failure'
  | 'requirement'
  | 'proof'
  | 'missing-test'
  | 'weak-test'
  | 'stale-assertion'
  | 'edge-case'
  | 'review';

export interface BundleTask {
  /** `task:<evidence id of the subject>`. */
  id: string;
  kind: TaskKind;
  title: string;
  detail: string;
  /** Evidence ids of this bundle that justify the task (at least one). */
  evidenceIds: string[];
}

export interface ProofObligation {
  /** Evidence id of the acceptance criterion. */
  id: string;
  criterionId: string;
  /** Untrusted requirement text. */
  requiredProof: string[];
  /** Route evidence ids of the api flows matched in this change. */
  routes: string[];
  status: 'open';
}

export interface Handoff {
  profile: AgentProfile;
  audience: string;
  deliver: string;
  runTests: string;
  reportBack: string;
}

export interface BundleLimitation {
  code: string;
  message: string;
  hint?: string;
  location?: Location;
}

/**
 * What ran for the bundle. Investigation only with `--investigate` and a configured provider (then the model was
 * called, and the network used for a byok provider); checks only with `--with-checks` and the gate open.
 */
export type BundleExecution = {
  /** `ran` only with `--with-checks` and the gate open; then the run's id and record. */
  checks:
    | { ran: false; reason: string; runId?: string; recordPath?: string }
    | { ran: true; reason: string; runId: string; recordPath: string };
  agentCalled: false;
} & (
  | { investigation: { ran: false; reason: string }; modelCalled: false; network: false }
  | { investigation: InvestigationRanRecord<'local'>; modelCalled: true; network: false }
  | { investigation: InvestigationRanRecord<'byok'>; modelCalled: true; network: true }
);

/** One configured check's result from a `--with-checks` run; `output` is the redacted tail of what it printed (untrusted). */
export interface BundleCheckResult {
  id: string;
  status: 'passed' | 'failed' | 'timed-out' | 'not-started' | 'skipped' | 'refused';
  reason: string;
  durationMs?: number;
  output?: string;
}

export interface BundleVerification {
  /** The checks `--with-checks` ran (or why it could not), from its execution record. */
  checks?: { runId: string; gateOpen: boolean; results: BundleCheckResult[] };
  testEvidence: { found: boolean; freshness: TestEvidence['freshness']; sources: number };
  proofStates: Record<string, number>;
  reachingTests: number;
  productRun: {
    status: 'absent' | 'read' | 'malformed';
    generatedAt?: string;
    target?: string;
    passed: number;
    failed: number;
    skipped: number;
  };
  requirements: { given: boolean; criteria: number; flowsMatched: number; flowsUnmatched: number };
}

export type { ProductRunReport } from './product-run.js';
