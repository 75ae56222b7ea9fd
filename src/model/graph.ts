import type { ExportKind, FileFacts, ParseFailure, RouteContract, RouteFact, RouteFramework, Span, TestModifier } from './facts.js';
import type { Resolution } from './resolve.js';
import type { FileRole } from './scan.js';
import type { Diagnostic } from './diagnostic.js';

/**
 * The repository knowledge graph: node and edge attributes (design.md, "The knowledge graph").
 * Node ids are stable evidence ids: the same repository state always yields the same ids.
 */
export type NodeKind = 'file' | 'export' | 'route' | 'test' | 'owner' | 'decision' | 'memory' | 'contract' | 'package' | 'skill' | 'check';

/** Every edge kind, in one list: context weights, edge-kind rule subjects and the task-context schema read it. */
export const EDGE_KINDS = [
  'imports',
  'reexports',
  'declares',
  'uses',
  'tests',
  'mocks',
  'handles',
  'owns',
  'mentions',
  'belongs',
  'depends',
  'guards',
  'calls',
] as const;

export type EdgeKind = (typeof EDGE_KINDS)[number];

export type Language = 'ts' | 'tsx' | 'js' | 'jsx' | 'python' | 'go' | 'json' | 'yaml' | 'markdown' | 'other';

export interface FileNode {
  kind: 'file';
  path: string;
  language: Language;
  size: number;
  hash: string;
  role: FileRole;
  lines: number;
  parseFailure?: ParseFailure;
  /** Asserting functions the file puts on the global object (FileFacts.globalAssertionHelpers), when it puts any. */
  globalAssertionHelpers?: string[];
  /** Exported names whose function asserts (FileFacts.assertingExports), when it exports any. */
  assertingExports?: string[];
  /** The file opens with a `#!` line (FileFacts.program): a program, never a test file a runner loads. */
  program?: true;
}

export interface ExportNode {
  kind: 'export';
  path: string;
  name: string;
  exportKind: ExportKind;
  span: Span;
  typeOnly: boolean;
}

export interface RouteSource {
  file: string;
  line: number;
  framework: RouteFramework;
  /** The path as declared in `file`, before cross-file mount prefixes. */
  declaredPath: string;
}

export type MiddlewareRole = 'auth' | 'rate-limit' | 'validation' | 'other';

/** Where a middleware of a route's chain was registered. */
export type MiddlewareLevel = 'app' | 'router' | 'mount' | 'route';

/** One middleware in a route's chain, classified by what its code does (or only by its name). */
export interface RouteGuard {
  name: string;
  role: MiddlewareRole;
  level: MiddlewareLevel;
  /** The file and line of the registration (`app.use(…)`, the route's own arguments). */
  file: string;
  line: number;
  /** Where the middleware's code is declared, when it could be followed. */
  definedIn?: { file: string; line: number; name: string };
  /** The options its factory call sets (`auth({ optional: true })` → optional), when they could be read. */
  options?: string[];
  /** What the role rests on: `imports jsonwebtoken`, `responds 401`, `calls validateSession (src/auth.ts)`, `name only`. */
  evidence: string[];
  /** `high` when the code shows the role; `low` when only the name suggests it. */
  confidence: 'high' | 'low';
}

/** The display name of a chain link written inline (`async (ctx) => { … }`): its targets are what it calls. */
export const INLINE_LINK_NAME = 'inline function';

/** A chain link (handler or middleware) as the graph resolved it, for handler-level reach. */
export interface ChainLink {
  /** `handler` or the middleware level. */
  role: 'handler' | MiddlewareLevel;
  /** Display name: the reference, the callee, or `inline`. */
  name: string;
  file: string;
  span: Span;
  /** Callable keys (`path#name`) the link calls or references; `path#*` for a whole module. */
  targets: string[];
  /** The link cannot be followed statically (dynamic dispatch): reach falls back to files. */
  dynamic: boolean;
}

/** One registration of a route (a served path may be registered more than once). */
export interface RouteRegistration {
  file: string;
  line: number;
  /** Lines of the registration's arguments. */
  span: Span;
  /** Handler last, after every middleware that runs before it (app, mount, router, route level). */
  chain: ChainLink[];
  /** Files and lines of the mounts and `use` settings the route is served under, outermost first. */
  mounts: { file: string; line: number; span: Span }[];
}

export interface RouteNode {
  kind: 'route';
  method: string;
  /** Full path, with cross-file mount prefixes applied when the mount was matched. */
  path: string;
  framework: RouteFramework;
  routeKind: 'api' | 'ui';
  /** The first code declaration (OpenAPI documents only when no code declares the route). */
  file: string;
  line: number;
  handler?: string;
  /** Every middleware name of the chain, outermost first. */
  middleware?: string[];
  /** The chain's middleware classified by role, with evidence. */
  guards?: RouteGuard[];
  /** Every place that declares this method and path, sorted by file then line. */
  sources: RouteSource[];
  /** Code registrations with their resolved handler chains (none for OpenAPI-only and file-based routes). */
  registrations?: RouteRegistration[];
  /** What the route's OpenAPI operation declares (the first document, by path, that declares it). */
  contract?: RouteContract & { document: string };
}

export interface TestNode {
  kind: 'test';
  file: string;
  testKind: 'suite' | 'test';
  titlePath: string[];
  span: Span;
  modifiers: TestModifier[];
  assertions: number;
  trivialAssertions: number;
  snapshotAssertions: number;
  unawaitedAssertions: number;
  swallowedErrors: number;
  isAsync: boolean;
  /** For a test with no assertion counted in its file: plain functions it calls that the file does not import or declare. */
  freeCalls?: string[];
  /** For a test with no assertion counted in its file: the imported functions it calls, by local name. */
  importedCalls?: string[];
}

export type OwnerType = 'user' | 'team' | 'email';

export interface OwnerNode {
  kind: 'owner';
  handle: string;
  ownerType: OwnerType;
}

export interface DecisionNode {
  kind: 'decision';
  path: string;
  title: string;
  terms: string[];
}

export type MemoryKind = 'invariant' | 'architecture' | 'regression' | 'note';

export interface MemoryNode {
  kind: 'memory';
  path: string;
  id: string;
  memoryKind: MemoryKind;
  title?: string;
  text: string;
  paths: string[];
  terms: string[];
}

export interface ContractNode {
  kind: 'contract';
  id: string;
  description?: string;
  from: string[];
  to: string[];
}

export interface PackageNode {
  kind: 'package';
  name: string;
  folder?: string;
  version?: string;
  workspace: boolean;
}

export interface SkillNode {
  kind: 'skill';
  name: string;
  description: string;
  path: string;
}

export interface CheckNode {
  kind: 'check';
  name: string;
  command: string;
  source: string;
}

export type NodeAttributes =
  | FileNode
  | ExportNode
  | RouteNode
  | TestNode
  | OwnerNode
  | DecisionNode
  | MemoryNode
  | ContractNode
  | PackageNode
  | SkillNode
  | CheckNode;

export interface ImportEdge {
  kind: 'imports';
  specifier: string;
  line: number;
  /** Imported names as `imported` (source-module names); `*` for namespaces, require and unknown dynamic use. */
  names: string[];
  typeOnly: boolean;
  dynamic: boolean;
  require: boolean;
}

export interface ReexportEdge {
  kind: 'reexports';
  specifier: string;
  line: number;
  names: string[];
  typeOnly: boolean;
  /** `export * from`. */
  all: boolean;
}

export interface DeclaresEdge {
  kind: 'declares';
}

export interface UsesEdge {
  kind: 'uses';
  /** The local bindings in the importing file. */
  locals: string[];
  typeOnly: boolean;
  line: number;
  /** Barrel files crossed to reach the declaring export (empty for a direct import). */
  through: string[];
}

export interface TestsEdge {
  kind: 'tests';
  line: number;
}

export interface MocksEdge {
  kind: 'mocks';
  specifier: string;
  line: number;
  framework: 'vitest' | 'jest' | 'node';
}

export interface HandlesEdge {
  kind: 'handles';
  /** `declaration`: the file declares the route; `handler-import`: the named handler is imported from it. */
  via: 'declaration' | 'handler-import';
  line: number;
}

/** Route → the file that declares one of its middleware. */
export interface GuardsEdge {
  kind: 'guards';
  name: string;
  role: MiddlewareRole;
  level: MiddlewareLevel;
  line: number;
}

/**
 * File → a route one of its HTTP calls matches (`fetch('/api/orders', { method: 'POST' })` → `route:POST /api/orders`),
 * whatever language declares the route. One edge per file and route, at the file's first such call.
 */
export interface CallsEdge {
  kind: 'calls';
  /** The call's method (`GET` when it names none, `*` when not a literal) and path as the file writes it (`/api/items/{id}`). */
  method: string;
  path: string;
  line: number;
}

export interface OwnsEdge {
  kind: 'owns';
  /** The CODEOWNERS pattern that decided ownership and its line. */
  pattern: string;
  line: number;
}

export interface MentionsEdge {
  kind: 'mentions';
  /** `path`: the text names the path; `glob`: a memory `paths` glob matches; `symbol`: a code span names the export; `route`: `METHOD /path` in the text. */
  match: 'path' | 'glob' | 'symbol' | 'route';
}

export interface BelongsEdge {
  kind: 'belongs';
}

export interface DependsEdge {
  kind: 'depends';
}

export type EdgeAttributes =
  | ImportEdge
  | ReexportEdge
  | DeclaresEdge
  | UsesEdge
  | TestsEdge
  | MocksEdge
  | HandlesEdge
  | OwnsEdge
  | MentionsEdge
  | BelongsEdge
  | DependsEdge
  | GuardsEdge
  | CallsEdge;

/** One entry of `.checker/memory/*` (see docs/memory-and-docs.md). */
export interface MemoryEntry {
  /** Repository-relative path of the memory file. */
  path: string;
  id: string;
  kind: MemoryKind;
  title?: string;
  text: string;
  /** Globs of repository paths the entry is about. */
  paths: string[];
  terms: string[];
}

/** A repo-local skill, read as text only and never executed. */
export interface SkillSummary {
  name: string;
  description: string;
  /** Repository-relative path of the SKILL.md. */
  path: string;
}

export interface DecisionDoc {
  path: string;
  title: string;
  /** Capped at 64 KiB. */
  text: string;
}

export interface PackageManifest {
  name: string;
  /** Repository-relative folder, `''` for the root. */
  folder: string;
  version?: string;
  /** Names from dependencies, devDependencies and peerDependencies, sorted and unique. */
  dependencies: string[];
}

export interface CheckInput {
  name: string;
  command: string;
  source: string;
}

export interface ContractInput {
  id: string;
  description?: string;
  /** Globs of the layer that must not import `to`. */
  from: string[];
  to: string[];
}

export interface GraphFileInput {
  path: string;
  size: number;
  hash: string;
  facts?: FileFacts;
}

export interface GraphInput {
  files: GraphFileInput[];
  /** Per file path, one resolution per `facts.imports` entry (same order); extra entries may resolve mock specifiers. */
  resolutions: Map<string, Resolution[]>;
  openApiRoutes: { path: string; routes: RouteFact[] }[];
  codeowners?: { path: string; text: string };
  decisions: DecisionDoc[];
  memory: MemoryEntry[];
  skills: SkillSummary[];
  checks: CheckInput[];
  packages: PackageManifest[];
  contracts?: ContractInput[];
}

/** The inputs around the code: CODEOWNERS, decision docs, memory, repo-local skills and workspace manifests. */
export interface RepoDocsData {
  codeowners?: { path: string; text: string };
  decisions: DecisionDoc[];
  memory: MemoryEntry[];
  skills: SkillSummary[];
  packages: PackageManifest[];
  diagnostics: Diagnostic[];
}
