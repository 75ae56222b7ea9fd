import type { HistoryInsights } from './history.js';
import type { TestRun } from './test-run.js';
import type { ChangeStatus, ChangedExport, Hunk, RevisionInfo } from './change.js';
import type { ChangedPathProof, TestEvidence } from './coverage.js';
import type { Diagnostic } from './diagnostic.js';
import type { Confidence, Finding } from './rules.js';

/**
 * The deterministic evidence of one git range (spec 1.1, 2.9, 2.10). Every report (analyze, impact,
 * audit-tests, edge-cases, tools, patterns, redteam) and the agent bundle are views of this object.
 * Lists are complete here; renderers cap them for Markdown.
 */
export interface ChangeAnalysis {
  range: { base: RevisionInfo; head: RevisionInfo };
  changedFiles: ChangedFileEvidence[];
  impactedFiles: ImpactedFile[];
  impactedRoutes: ImpactedRoute[];
  symbolImpacts: SymbolImpact[];
  impactedAreas: ImpactedAreas;
  changedPathProof: ChangedPathProof[];
  testEvidence: TestEvidence;
  /** The tests to run for the change, as commands of their runners (or the whole suite, and why). */
  testRun: TestRun;
  weakTests: WeakTest[];
  missingTests: MissingTest[];
  /** Test lines that assert a message or default value the change replaces (stale-assertions pack). */
  staleAssertions: StaleAssertion[];
  summary: AnalysisSummary;
  edgeCases: { top: EdgeCase[]; overflow: EdgeCase[] };
  context: ReviewContext;
  /** Every rule-pack finding, ranked, each with pack id, version and rule id. */
  findings: Finding[];
  limitations: Diagnostic[];
  /** Imports that look local but resolve to no file (the graph's list): impact through them is not followed. */
  unresolvedImports?: { from: string; specifier: string; line: number; reason: string }[];
}

/** What a changed file's change is: only `runtime` (and `test`) changes run, so only they carry runtime-proof tasks. */
export type ChangeKind =
  | 'docs'
  | 'config'
  | 'manifest'
  | 'lockfile'
  | 'generated'
  | 'example'
  | 'constant'
  | 'export-only'
  | 'identifier-rename'
  | 'rename'
  | 'comment-or-format'
  | 'type-only'
  | 'binary'
  | 'test'
  | 'runtime';

export interface ChangedFileEvidence {
  /** Evidence id `file:<path>`. */
  id: string;
  path: string;
  status: ChangeStatus;
  previousPath?: string;
  role: string;
  additions: number;
  deletions: number;
  hunks: Hunk[];
  binary: boolean;
  changedExports: ChangedExport[];
  owners: string[];
  /** Only comments, whitespace or documentation changed (low signal). */
  lowSignal: boolean;
  /** What the change is (docs, config, type-only, runtime …); decides whether it carries a runtime-proof obligation. */
  changeKind: ChangeKind;
  /** For compiled output kept beside its sources (`v4/x.js`, `v4/x.d.ts`): the TypeScript source it is built from. */
  compiledFrom?: string;
}

export interface ImpactedFile {
  id: string;
  path: string;
  /** Import hops from the nearest changed file. */
  distance: number;
  /**
   * The chain of files from the changed file to this file's importer: whole up to 33 entries (length = distance);
   * a longer chain keeps its first and last 16 around one `… N more files …` entry (`limits/path-shortened`).
   */
  via: string[];
  /** Reached only through type-only imports: compile-time impact, no runtime effect. */
  typeOnly: boolean;
  role: string;
  /**
   * Set when the file is reached through an HTTP call rather than imports: the evidence id of the route the change
   * reaches that the file, or a file it imports, calls. `via` is then the route's chain (the changed file to the route's
   * file), followed for an importer by its import chain from the calling file.
   */
  route?: string;
  /**
   * Why a file reached through an HTTP call is impacted: `calls POST /api/orders on line 2, a route the change reaches`,
   * or for an importer `imports web/src/api.ts, which calls …`.
   */
  reason?: string;
}

export interface ImpactedRoute {
  /** Evidence id `route:<METHOD> <path>`. */
  id: string;
  method: string;
  path: string;
  kind: 'api' | 'ui';
  framework: string;
  /** File that declares (or handles) the route. */
  file: string;
  line: number;
  /** Human-readable reason, e.g. "handler src/orders.ts imports src/lib/money.ts (changed)". */
  reason: string;
  /** File chain from the changed file to the route's file; over 33 entries shortened as in ImpactedFile.via. */
  chain: string[];
  /** The route's own file changed (not only something it imports). */
  direct: boolean;
  /**
   * `handler`: the change lies in the route's handler chain or in code the chain calls; `file`: the
   * handler could not be followed statically, so the route is reached through file imports (lower confidence).
   */
  reach: 'handler' | 'file';
  /** The shortest reason chain, handler first: `handler POST /x (src/a.ts:4)`, `calls foo (src/b.ts)`, `changed foo (src/b.ts:12)`. */
  steps: string[];
  /** The route's middleware by role with evidence (authentication, rate limiting, validation). */
  guards?: RouteGuardSummary[];
}

export interface RouteGuardSummary {
  name: string;
  role: 'auth' | 'rate-limit' | 'validation' | 'other';
  level: 'app' | 'router' | 'mount' | 'route';
  evidence: string[];
  confidence: 'high' | 'low';
}

export interface SymbolImporter {
  path: string;
  /** Local binding names in the importer (`*` for namespace, side-effect `''`). */
  locals: string[];
  /** Barrels crossed between the importer and the declaring file. */
  through: string[];
  typeOnly: boolean;
  /** `named`, `namespace` (import * as ns), `side-effect` (import 'x'), `require`, `dynamic`. */
  use: 'named' | 'namespace' | 'side-effect' | 'require' | 'dynamic';
  /**
   * For a removed export only: the importer's line that still names it (its `import { x }` or `require`, or the first
   * `ns.x` of a namespace import). Absent when the importer names it nowhere (a namespace that uses other members).
   */
  staleLine?: number;
}

export interface SymbolImpact {
  /** Evidence id `export:<path>#<name>`. */
  id: string;
  path: string;
  name: string;
  change: ChangedExport['change'];
  importers: SymbolImporter[];
  /**
   * For a removed export: the export the change added in its place in the same file (the same name but for case, or
   * the file's one added export where it removes one), so importers know what to call.
   */
  renamedTo?: string;
}

export interface ImpactedAreas {
  folders: { path: string; changed: number; impacted: number }[];
  packages: { name: string; folder: string; changed: number; impacted: number }[];
  owners: { owner: string; changed: number; impacted: number }[];
}

export interface WeakTest {
  /** Evidence id `test:<path>#<title path>`. */
  id: string;
  file: string;
  title: string;
  /** Weak-test kinds found (rule ids of the weak-test pack). */
  kinds: string[];
  message: string;
  repairTask: string;
  /** The test reaches changed code (ranked first). */
  reachesChange: boolean;
  /** The change edits lines of this test case. */
  editedByChange: boolean;
  /** The changed callables and exports this test case names: in its title, when few titles say them, or in its code, in the changed file's own test file. */
  namesChange: string[];
  findingIds: string[];
}

export interface MissingTest {
  /** Evidence id of the export or route no test reaches. */
  id: string;
  subject: 'export' | 'route' | 'file';
  path: string;
  name: string;
  message: string;
  repairTask: string;
  findingIds: string[];
}

/** A test line that holds the old text of a message, or the old value of a default, that the change replaces. */
export interface StaleAssertion {
  /** Evidence id `stale-assertion:<test file>:<line>`. */
  id: string;
  /** The changed source file and the head-side line of the replacement. */
  path: string;
  line: number;
  literalKind: 'message' | 'default';
  /** The option whose default changed; '' for a message. */
  name: string;
  /** The old literal as written in the base side (repository text). */
  before: string;
  /** What replaced it, '' when nothing did (repository text). */
  after: string;
  testFile: string;
  testLine: number;
  /** The test line, trimmed (repository text). */
  excerpt: string;
  /** The test file reaches the changed file. */
  reachesChange: boolean;
  message: string;
  repairTask: string;
  findingIds: string[];
}

export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';

export interface ScoreContributor {
  contributor: string;
  weight: number;
  detail: string;
  evidenceIds: string[];
  /** Pack provenance `pack@version#rule`. */
  provenance?: string;
}

export interface AnalysisSummary {
  changedFiles: number;
  impactedFiles: number;
  impactedRoutes: number;
  reachingTests: number;
  mergeRisk: { score: number; level: RiskLevel };
  mergeRiskBreakdown: ScoreContributor[];
  decay: { score: number; level: RiskLevel };
  decayBreakdown: ScoreContributor[];
  proofStates: Record<string, number>;
}

export interface EdgeCase {
  id: string;
  title: string;
  trigger: string;
  expectedBehavior: string;
  userVisibleFailure: string;
  scope: string;
  provenance: string;
  confidence: Confidence;
  recommendedProof: string;
  score: number;
  evidenceIds: string[];
}

/** An edge case before ranking: the EdgeCase fields plus what the ranking weighs. */
export interface EdgeCaseCandidate extends EdgeCase {
  weight: number;
  /** The signal sits on a changed line (or the route itself changed). */
  inChangedLines: boolean;
}

export interface ReviewContext {
  owners: { owner: string; files: string[] }[];
  decisions: { id: string; path: string; title: string; matchedBy: string[] }[];
  memory: { id: string; kind: string; title?: string; text: string; matchedBy: string[] }[];
  contracts: { id: string; description?: string; from: string; to: string; specifier: string; line: number }[];
  patterns: { id: string; path: string; line: number; message: string; provenance: string }[];
  tools: { tool: string; why: string; install: string; provenance: string }[];
  /** The repository-subject facts the tool recommendations were evaluated against (reports show what drove them). */
  repositoryShape?: RepositoryShape;
  /** What HEAD's mined history says about the change: missed co-change partners, fix-prone files, hotspots. */
  history?: HistoryInsights;
}

/** Repository shape facts (FACT_CATALOGUE.repository) that tool-recommendation rules read. */
export interface RepositoryShape {
  fileCount: number;
  sourceFileCount: number;
  testFileCount: number;
  routeCount: number;
  languages: string[];
  frameworks: string[];
  testRunner: string;
  packageManager: string;
  hasTypeScript: boolean;
  hasCoverage: boolean;
  hasLockfile: boolean;
  hasCi: boolean;
  hasCodeowners: boolean;
  hasLinter: boolean;
  workspaceCount: number;
}
