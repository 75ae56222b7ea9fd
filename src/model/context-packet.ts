import type { Diagnostic } from './diagnostic.js';
import type { EdgeKind, NodeKind } from './graph.js';
import type { ContextSeed, GroundingConfidence } from './grounding.js';

/** Task context packet (spec 2.7), written to `.checker/local/task-context.json`; schemas/task-context.schema.json. */
export const DEFAULT_CONTEXT_MAX_NODES = 80;
/** `--max-nodes` / `maxNodes` above this is refused (`context/max-nodes`). */
export const MAX_CONTEXT_MAX_NODES = 1000;
export const TASK_CONTEXT_ARTIFACT = 'task-context.json';

/**
 * `deterministic`: computed from the repository (files, exports, routes, tests, owners, packages, checks, skills, contracts);
 * `requirement`: from the requirements file; `memory`: `.checker/memory/`; `decision`: ADRs and design docs;
 * `untrusted-agent`: written by a coding agent (checkpoint summaries), a proposal until verified.
 */
export type TrustClass = 'deterministic' | 'requirement' | 'memory' | 'decision' | 'untrusted-agent';

/**
 * `current`: the node's file is unchanged since `anchor` (the session base, or HEAD outside a session);
 * `stale`: it (or, for memory and decisions, a file it mentions) changed since the commit in `since`;
 * `unknown`: no git history, or the node has no file of its own.
 */
export interface Freshness {
  state: 'current' | 'stale' | 'unknown';
  since?: string;
  reason?: string;
}

export interface Provenance {
  file?: string;
  line?: number;
  commit?: string;
}

export interface PacketExplanation {
  /** `seed`, `term`, `rank` (a seed lifted to the relevance of the rows below it), or `<edge kind><arrow> <neighbour id>`. */
  via: string;
  edgeKind?: EdgeKind;
  neighbour?: string;
  direction?: 'forward' | 'reverse';
  detail?: string;
  contribution: number;
}

export interface PacketNode {
  id: string;
  kind: NodeKind;
  /** 1-based position in the packet. */
  rank: number;
  label: string;
  relevance: number;
  pinned: boolean;
  /** Task terms that grounded this node directly (candidate files and routes). */
  matchedTerms: string[];
  explanation: PacketExplanation[];
  provenance: Provenance;
  trust: TrustClass;
  freshness: Freshness;
}

export interface PacketEdge {
  source: string;
  target: string;
  kind: EdgeKind;
}

/** Evidence of the task that is not a graph node: acceptance criteria and agent checkpoints. */
export interface PacketTaskEvidence {
  id: string;
  trust: TrustClass;
  text: string;
  provenance: Provenance;
}

export interface PacketOmitted {
  count: number;
  byKind: Record<string, number>;
  top: { id: string; relevance: number }[];
  /** Omitted ids by relevance, at most 500 (`idsTruncated` says when more were left out). */
  ids: string[];
  idsTruncated: boolean;
  /** Every file the grounded (and changed) files impact that the bound left out. */
  impacted: string[];
}

export interface TaskContextPacket {
  schemaVersion: 1;
  kind: 'task-context';
  task: string;
  sessionId?: string;
  generatedAt: string;
  revision: { git: boolean; anchor: string | null; head: string | null };
  maxNodes: number;
  /** Nodes ranked before the cut (within reach of the seeds); the packet holds min(maxNodes, considered). */
  considered: number;
  confidence: GroundingConfidence;
  weights: { source: string; edgeWeights: Record<EdgeKind, number> };
  seeds: ContextSeed[];
  nodes: PacketNode[];
  edges: PacketEdge[];
  taskEvidence: PacketTaskEvidence[];
  impactClosure: { total: number; included: number; omitted: number };
  omitted: PacketOmitted;
  limitations: Diagnostic[];
}
