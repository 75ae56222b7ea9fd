import type { Diagnostic } from './diagnostic.js';
import type { GroundingConfidence } from './grounding.js';
import type {
  FollowUpCheck,
  NonGoal,
  PreflightCandidateFile,
  PreflightCandidateRoute,
  PreflightContract,
  PreflightMemoryEntry,
  ProofStep,
} from './preflight.js';
import type { MatchedDecision } from './grounding.js';
import type { TaskContextPacket } from './context-packet.js';
import type { RequirementsInput } from './requirements.js';

/** Durable agent session (spec 2.6, 3): `.checker/local/agent-sessions/<id>.json`, schemas/agent-session.schema.json. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const SESSIONS_FOLDER = 'agent-sessions';
/** Checkpoint summaries are cut to this many characters (after stripping controls) before they are stored. */
export const MAX_SUMMARY_CHARS = 8 * 1024;
export const MAX_CHECKPOINTS = 500;

export type SessionStatus = 'active' | 'finished';
export type CheckpointKind = 'plan' | 'diff';
export type SessionOperation = 'start' | 'context' | 'checkpoint' | 'finish';

/** A content fingerprint of the working tree: SHA-256 over (path, SHA-1 of content) of every scanned file. */
export interface TreeObservation {
  fingerprint: string;
  observedAt: string;
  fileCount: number;
  /** Path → first 16 hex digits of the content SHA-1 (size and mtime for files the scan skips). */
  files: Record<string, string>;
}

export interface StaleState {
  isStale: boolean;
  /** When the observation the change was measured against was taken. */
  since?: string;
  detectedAt?: string;
  changedFiles: string[];
  reason?: string;
}

export interface SessionBase {
  git: boolean;
  /** The commit the session started from, or null outside git or before the first commit. */
  oid: string | null;
  reason?: string;
}

export interface Checkpoint {
  seq: number;
  kind: CheckpointKind;
  createdAt: string;
  /** Redacted, control characters stripped, at most MAX_SUMMARY_CHARS plus a truncation marker. */
  summary: string;
  truncated: boolean;
  redactions: { rule: string; count: number }[];
  trust: 'untrusted-agent';
  /** Files changed since the previous observation when the checkpoint was taken. */
  changedFiles: string[];
  treeFingerprint: string;
  /** `diff` checkpoints: fingerprint of the session's change set (files changed since base, with their content hashes). */
  diffFingerprint?: string;
  diffFiles?: string[];
}

export interface ProofObligation {
  id: string;
  source: 'acceptance-criterion' | 'preflight';
  text: string;
  requiredProof: string[];
  evidenceIds: string[];
  /** Nothing in a session verifies; obligations stay open until tests, checks or review prove them. */
  status: 'open';
}

export interface SessionPreflight {
  confidence: GroundingConfidence;
  confidenceReason: string;
  candidateFiles: PreflightCandidateFile[];
  candidateRoutes: PreflightCandidateRoute[];
  unresolvedQuestions: string[];
  proofPlan: ProofStep[];
  nonGoals: NonGoal[];
  followUpChecks: FollowUpCheck[];
}

export interface SessionContextEvidence {
  generatedAt: string;
  maxNodes: number;
  nodeIds: string[];
  omittedCount: number;
  packetPath: string;
}

export interface VerificationBoundary {
  allowCommands: boolean;
  policySource: string | null;
  allowedChecks: FollowUpCheck[];
  blockedChecks: FollowUpCheck[];
  acceptanceCriteria: { id: string; text: string; requiredProof: string[]; status: 'needs-proof' }[];
  openObligations: number;
  changedFiles: string[];
  notes: string[];
}

export interface SessionFinish {
  finishedAt: string;
  tree: { fingerprint: string; fileCount: number; head: string | null; changedFiles: string[]; diffFingerprint: string };
  verificationBoundary: VerificationBoundary;
}

export interface AgentSession {
  schemaVersion: 1;
  kind: 'agent-session';
  id: string;
  status: SessionStatus;
  createdAt: string;
  updatedAt: string;
  /** Incremented by every write; a write that finds another number on disk is refused. */
  revision: number;
  task: string;
  requirements: RequirementsInput | null;
  base: SessionBase;
  preflight: SessionPreflight;
  memory: PreflightMemoryEntry[];
  designConstraints: {
    contracts: PreflightContract[];
    decisions: MatchedDecision[];
    architecture: PreflightMemoryEntry[];
    invariants: PreflightMemoryEntry[];
  };
  contextEvidence: SessionContextEvidence | null;
  checkpoints: Checkpoint[];
  proofObligations: ProofObligation[];
  observation: TreeObservation;
  /** Every file seen changing during the session (observations and the diff since base). */
  touchedFiles: string[];
  stale: StaleState;
  finish: SessionFinish | null;
}

/** What each session operation returns (schemas/session-result.schema.json). */
export interface SessionResult {
  schemaVersion: 1;
  kind: 'session-result';
  operation: SessionOperation;
  sessionId: string;
  status: SessionStatus;
  /** Repository-relative path of the session file. */
  sessionPath: string;
  stale: StaleState;
  checkpointRequested: boolean;
  message: string;
  preflight?: SessionPreflight;
  context?: TaskContextPacket;
  checkpoint?: Checkpoint;
  finish?: SessionFinish;
  limitations: Diagnostic[];
}
