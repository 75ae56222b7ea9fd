import type { EdgeKind, MemoryKind, NodeKind } from './graph.js';
import type { FileRole } from './scan.js';

/**
 * Task grounding (spec 2.8) and task-scoped context selection (spec 2.7): what src/ranking returns
 * for a task description before any code changes.
 */

/**
 * `word`: one stemmed word; `identifier`: a camelCase/PascalCase/snake_case/kebab-case token kept whole;
 * `path`: a file path or URL path (`src/pricing/discount.ts`, `/api/orders/:id`); `route`: `GET /orders`;
 * `phrase`: a quoted phrase of several words.
 */
export type TaskTermKind = 'word' | 'identifier' | 'path' | 'route' | 'phrase';

export interface TaskTerm {
  /** The matching key: the stem for words, the lower-cased token for exact kinds. */
  term: string;
  /** The text as the task wrote it. */
  original: string;
  weight: number;
  /** A generic word (`api`, `fix`, `code`, numbers) only adds to files that other terms already ground. */
  generic: boolean;
  kind: TaskTermKind;
  /** Requirement terms weigh half as much as task terms. */
  source: 'task' | 'requirements';
}

/**
 * Where a term matched. What a file's text says: `declaration` (a name it declares), `identifier` (any other name in its
 * code, or a name of several words kept whole), `string` (a string literal), `comment`, `text` (a file that is not code).
 * `history`: the subject of a commit of the mined history window that changed the file says the term.
 * `co-change`: not a task term but history: the file usually changes with a candidate (`term` is that candidate's path).
 */
export type GroundingMatch =
  | 'path'
  | 'export'
  | 'declaration'
  | 'identifier'
  | 'string'
  | 'comment'
  | 'text'
  | 'history'
  | 'route'
  | 'test'
  | 'decision'
  | 'memory'
  | 'owner'
  | 'package'
  | 'import'
  | 'co-change';

export const GROUNDING_MATCHES: readonly GroundingMatch[] = [
  'path',
  'export',
  'declaration',
  'identifier',
  'string',
  'comment',
  'text',
  'history',
  'route',
  'test',
  'decision',
  'memory',
  'owner',
  'package',
  'import',
  'co-change',
];

export interface GroundingReason {
  term: string;
  matchedOn: GroundingMatch;
  /** The node the match was made on (a file, export, route, test, decision, memory, owner or package id). */
  evidenceId: string;
  /** For a match in the file's text: the first line that says the term, when the file could be read. */
  line?: number;
}

export interface CandidateFile {
  path: string;
  id: string;
  score: number;
  reasons: GroundingReason[];
  /** The commits of the mined history window that changed the file, when they weighed its score up (historyBoost). */
  churn?: number;
}

export interface CandidateRoute {
  id: string;
  method: string;
  path: string;
  file: string;
  score: number;
  reasons: GroundingReason[];
}

export interface MatchedDecision {
  id: string;
  path: string;
  title: string;
  /** Task terms found in the title or terms of the decision (empty when it is listed for mentioning a candidate). */
  matchedTerms: string[];
  /** Candidate files the decision mentions. */
  mentionedFiles: string[];
}

export interface MatchedMemoryEntry {
  id: string;
  path: string;
  entryId: string;
  memoryKind: MemoryKind;
  title?: string;
  text: string;
  matchedTerms: string[];
  /** Candidate files the entry mentions or whose paths its globs match. */
  mentionedFiles: string[];
}

export interface MatchedMemory {
  invariants: MatchedMemoryEntry[];
  architecture: MatchedMemoryEntry[];
  regressions: MatchedMemoryEntry[];
  notes: MatchedMemoryEntry[];
}

export interface MatchedOwner {
  id: string;
  handle: string;
  matchedTerms: string[];
  /** Candidate files this owner owns. */
  ownedFiles: string[];
}

export type GroundingConfidence = 'low' | 'medium' | 'high';

export interface Grounding {
  terms: TaskTerm[];
  /** Keys of the non-generic terms, in task order. */
  domainTerms: string[];
  /** Domain terms that match nothing in the repository. */
  unmatchedTerms: string[];
  /** Sorted by score desc then path, at most `maxCandidates`. */
  candidateFiles: CandidateFile[];
  /** Candidates left out by `maxCandidates`. */
  omittedCandidates: number;
  /**
   * Test files the task matches, in their own list (at most `maxCandidates`), so that they never crowd out the code
   * they test; they lend weight to it. Empty when only tests match: they are then the candidate files.
   */
  candidateTests: CandidateFile[];
  candidateRoutes: CandidateRoute[];
  matchedDecisions: MatchedDecision[];
  matchedMemory: MatchedMemory;
  matchedOwners: MatchedOwner[];
  confidence: GroundingConfidence;
  /** One sentence saying why the confidence is what it is. */
  confidenceReason: string;
  unresolvedQuestions: string[];
}

export interface ContextSeed {
  nodeId: string;
  weight: number;
  reason: string;
}

/** Per edge kind, the strength with which relevance flows along an edge (a context-weight pack). */
export type EdgeWeights = Record<EdgeKind, number>;

export interface ContextExplanation {
  /** `seed`, or the edge kind, its direction and the neighbour the relevance came from (`imports← file:src/app.ts`). */
  via: string;
  edgeKind?: EdgeKind;
  neighbour?: string;
  /** `forward`: the edge runs neighbour → this node; `reverse`: this node → neighbour. */
  direction?: 'forward' | 'reverse';
  /** The seed's reason, for `seed`. */
  detail?: string;
  contribution: number;
}

export interface ContextNode {
  id: string;
  kind: NodeKind;
  score: number;
  /** Pinned by `mustInclude` or a seed. */
  pinned: boolean;
  /** The three largest contributions to the score, largest first. */
  explanation: ContextExplanation[];
}

export interface ContextEdge {
  source: string;
  target: string;
  kind: EdgeKind;
}

export interface ContextOmitted {
  /** Considered nodes (the hop-bounded subgraph, `mustInclude` and `accountFor`) that were not selected. */
  count: number;
  byKind: Record<string, number>;
  /** The ten best-scored omitted nodes. */
  top: { id: string; score: number }[];
  /** Every omitted node, by score desc then id. */
  ids: string[];
  /** `accountFor` ids that were not selected, sorted. */
  accountedFor: string[];
}

export interface ContextStats {
  /** Nodes considered: the subgraph within `maxHops` of the seeds plus `mustInclude` and `accountFor`. */
  considered: number;
  subgraphNodes: number;
  subgraphEdges: number;
  iterations: number;
  /** L1 change of the last iteration. */
  residual: number;
}

export interface ContextSelection {
  /** Pinned nodes first (`mustInclude` in order, then seeds by weight), then by score desc then id. */
  nodes: ContextNode[];
  /** Edges among selected nodes, sorted by source, target, kind. */
  edges: ContextEdge[];
  omitted: ContextOmitted;
  /** Seed, `mustInclude` and `accountFor` ids that are not nodes of the graph. */
  unknownIds: string[];
  stats: ContextStats;
}

/**
 * Kinds of match between a task term and the repository, each with a strength in the context-weights
 * pack's `grounding.matchStrength`: plain word matches (`fileName`, `folder`, `export`…) and exact-token
 * matches (`exactPath`, `exactRoute`…).
 */
export const GROUNDING_MATCH_STRENGTHS = [
  'fileName',
  'folder',
  'export',
  'declaration',
  'identifier',
  'string',
  'comment',
  'text',
  'history',
  'name',
  'route',
  'testFile',
  'testedFile',
  'decision',
  'memory',
  'owner',
  'package',
  'exactPath',
  'exactPathSuffix',
  'exactFolder',
  'exactRoute',
  'exactRouteSuffix',
  'exactRouteOtherMethod',
  'exactExport',
  'exactFileName',
  'exactHandler',
  'exactTest',
  'exactTested',
  'exactKnowledge',
] as const;
export type GroundingMatchStrength = (typeof GROUNDING_MATCH_STRENGTHS)[number];

export const GROUNDING_FILE_ROLES: readonly FileRole[] = ['source', 'test', 'config', 'doc', 'manifest', 'other'];

/** The single-number grounding weights (docs/rule-packs.md, Grounding weights). */
export const GROUNDING_SCALARS = [
  'surfaceBoost',
  'requirementsFactor',
  'saturation',
  'lengthNormalisation',
  'barrelFactor',
  'declarationFileFactor',
  'generatedFactor',
  'testLend',
  'neighbourLend',
  'historyBoost',
  'minCoverage',
  'minKnownShare',
  'minForeignCoverage',
] as const;
export type GroundingScalar = (typeof GROUNDING_SCALARS)[number];

/** The weights task grounding uses, complete: the built-in context-weights pack's `grounding` section with any repository overrides. */
export interface GroundingWeights extends Record<GroundingScalar, number> {
  /**
   * Per kind of match, how strongly one occurrence ties a file to a term: the field weights of the BM25F score over
   * what files say (path, exports, declared names, identifiers, strings, comments, tests, routes) and the strengths of
   * exact tokens and supporting evidence.
   */
  matchStrength: Record<GroundingMatchStrength, number>;
  /** A candidate file's score is multiplied by the factor of its role. */
  roleFactor: Record<FileRole, number>;
  /** Route evidence counts this much more when the task speaks of the API surface (`api`, `endpoint`, `route`…). */
  surfaceBoost: number;
  /** Requirement-file terms weigh this fraction of task terms. */
  requirementsFactor: number;
  /** BM25's k1: how soon more occurrences of a term in one file stop adding to its score. */
  saturation: number;
  /** BM25's b for the fields of a file's text: how much a long file's occurrences count for less (0 to 1). */
  lengthNormalisation: number;
  /** A barrel (a file that mostly re-exports) scores this fraction, and never more than a file it re-exports. */
  barrelFactor: number;
  /** A declaration file (`.d.ts`) scores this fraction, unless the task speaks of types. */
  declarationFileFactor: number;
  /** Generated, vendored or built output (the classifiers packs' `generated` paths) scores this fraction. */
  generatedFactor: number;
  /** The share of a matching test's own score lent to the file it tests (its name's subject; others share less). */
  testLend: number;
  /**
   * The share of a top source file's score lent to each import neighbour that matches the task too (divided by the
   * square root of its number of source neighbours): structure re-ranks what the words found.
   */
  neighbourLend: number;
  /**
   * A file's score is multiplied by 1 + historyBoost x ln(1 + its churn): the commits of the mined history window
   * (history.*) that changed it. Code that changes often is where the next change lands.
   */
  historyBoost: number;
  /**
   * A task is grounded only when its best file matches this share of the task's domain terms, each weighted by how
   * specific it is in this repository (its inverse document frequency); below it the task gets no candidate files.
   */
  minCoverage: number;
  /**
   * A task is grounded only when at least this share of its domain words is said somewhere in the repository: a task
   * most of whose words this repository never uses is about something else.
   */
  minKnownShare: number;
  /**
   * A task with a word about something else (said nowhere here, not software's language, not a misspelling: "knitting"
   * on a web framework) is grounded only when the top three candidates together match at least this share of its domain
   * terms, each weighted by how specific it is here: what is left of such a task is usually a verb any code has.
   */
  minForeignCoverage: number;
}

/** A pack's `grounding` section: any subset of the weights (a repository pack overrides single keys). */
export interface GroundingWeightsSection extends Partial<Record<GroundingScalar, number>> {
  matchStrength?: Partial<Record<GroundingMatchStrength, number>>;
  roleFactor?: Partial<Record<FileRole, number>>;
}
