import type { Diagnostic } from './diagnostic.js';
import type { InvestigationResult } from './investigation.js';
import type { GroundingConfidence, GroundingMatch, MatchedDecision, MatchedOwner } from './grounding.js';
import type { MemoryKind } from './graph.js';
import type { AcceptanceCriterion, AffectedFlow } from './requirements.js';

/**
 * Preflight report (spec 2.8): a before-coding brief that needs no diff. Requirement evidence (the user's
 * requirements file), deterministic repository evidence and checker's own suggestions are kept apart.
 * schemas/preflight-report.schema.json.
 */
export interface EvidenceReason {
  term: string;
  matchedOn: GroundingMatch;
  evidenceId: string;
  /** For a match in the file's text: the first line that says the term. */
  line?: number;
}

export interface PreflightCandidateFile {
  id: string;
  path: string;
  score: number;
  /** One sentence saying why the file was chosen. */
  why: string;
  reasons: EvidenceReason[];
  /** Test files that test it (`tests` edges). */
  tests: string[];
}

/** A test file the task matches: kept apart from the candidate files, which it never outranks. */
export interface PreflightCandidateTest {
  id: string;
  path: string;
  score: number;
  why: string;
  reasons: EvidenceReason[];
  /** The source files it tests (`tests` edges). */
  testedFiles: string[];
}

export interface PreflightCandidateRoute {
  id: string;
  method: string;
  path: string;
  file: string;
  score: number;
  why: string;
  reasons: EvidenceReason[];
}

export interface PreflightMemoryEntry {
  id: string;
  kind: MemoryKind;
  title?: string;
  /** Repository text, redacted and capped. */
  text: string;
  matchedTerms: string[];
  mentionedFiles: string[];
}

export interface PreflightContract {
  id: string;
  description?: string;
  from: string[];
  to: string[];
  /** Candidate files in the layer that must not import `to`. */
  fromFiles: string[];
  /** Candidate files in the guarded layer. */
  toFiles: string[];
}

export interface PreflightImpactedFile {
  path: string;
  distance: number;
  via: string[];
  typeOnly: boolean;
}

export interface PreflightArea {
  name: string;
  candidates: number;
  impacted: number;
}

export interface RequirementEvidence {
  provided: boolean;
  /** The file as read: repository path and SHA-256 of its text. */
  source?: { path: string; hash: string };
  title?: string;
  acceptanceCriteria: AcceptanceCriterion[];
  affectedFlows: (AffectedFlow & { matchedRoutes: string[] })[];
  currentBehavior: string[];
  expectedBehavior: string[];
  nonGoals: string[];
  invariants: string[];
  architectureConstraints: string[];
  unresolvedQuestions: string[];
}

export interface RepositoryEvidence {
  terms: { domain: string[]; generic: string[]; unmatched: string[] };
  candidateFiles: PreflightCandidateFile[];
  omittedCandidates: number;
  /** Test files the task matches, best first; the tests of each candidate file are also in its `tests`. */
  candidateTests: PreflightCandidateTest[];
  candidateRoutes: PreflightCandidateRoute[];
  impactedAreas: { folders: PreflightArea[]; packages: PreflightArea[]; owners: PreflightArea[] };
  /** Files that import the candidates (reverse reach), nearest first, at most 50. */
  impactedFiles: PreflightImpactedFile[];
  impactedFilesTotal: number;
  memory: {
    invariants: PreflightMemoryEntry[];
    architecture: PreflightMemoryEntry[];
    regressions: PreflightMemoryEntry[];
    notes: PreflightMemoryEntry[];
  };
  decisions: MatchedDecision[];
  owners: MatchedOwner[];
  contracts: PreflightContract[];
}

export interface FollowUpCheck {
  name: string;
  command: string;
  source: string;
  /** Preflight never runs anything. */
  willRun: false;
  allowedByPolicy: boolean;
  reason: string;
}

export type ProofStepKind =
  | 'acceptance-criterion'
  | 'existing-tests'
  | 'missing-test'
  | 'route'
  | 'invariant'
  | 'contract'
  | 'configured-check';

export interface ProofStep {
  id: string;
  kind: ProofStepKind;
  text: string;
  evidenceIds: string[];
  requiredProof?: string[];
}

export interface NonGoal {
  text: string;
  source: 'requirements' | 'checker';
}

export interface Suggestions {
  proofPlan: ProofStep[];
  nonGoals: NonGoal[];
  followUpChecks: FollowUpCheck[];
}

export interface PreflightReport {
  schemaVersion: 1;
  kind: 'preflight-report';
  task: string;
  generatedAt: string;
  revision: { git: boolean; head: string | null };
  requirementEvidence: RequirementEvidence;
  repositoryEvidence: RepositoryEvidence;
  suggestions: Suggestions;
  /** Candidate file paths, best first (the output contract's `candidateFiles[]`); why each was chosen is in repositoryEvidence.candidateFiles. */
  candidateFiles: string[];
  confidence: GroundingConfidence;
  confidenceReason: string;
  /** Questions from grounding; requirement questions stay in requirementEvidence. */
  unresolvedQuestions: string[];
  /** All false unless `--investigate` called the configured provider (a local provider is a command; byok uses the network). */
  execution:
    | { modelCalled: false; commandsRun: false; network: false; investigation: false }
    | { modelCalled: true; commandsRun: true; network: false; investigation: true }
    | { modelCalled: true; commandsRun: false; network: true; investigation: true };
  limitations: Diagnostic[];
  /** Untrusted model output of `--investigate`; never changes the evidence or suggestions above. */
  investigation?: InvestigationResult;
}
