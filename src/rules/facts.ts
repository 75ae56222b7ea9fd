import { type AssertedLiteral, deriveAssertedLiteralSubjects } from './replaced-literals.js';
import type { KnowledgeGraph } from '../graph/build.js';
import { toExportId, toFileId } from '../graph/ids.js';
import { classifyRole, getLanguage, isBenchmarkPath, isTypeTestPath } from '../graph/roles.js';
import type { ChangeKind, ImpactedRoute } from '../model/analysis.js';
import type { PathClassifier } from './classifiers.js';
import { describeManifestChange } from './manifest-change.js';
import { findSemanticChanges, isErrorPathLine, listRemovedTests } from './semantic-hunks.js';
import type { ChangeStatus, ChangedExport, Hunk } from '../model/change.js';
import type { ChangedPathProof, ReachingTest } from '../model/coverage.js';
import type { HistoryEntry } from '../model/env.js';
import type { HistoryInsights } from '../model/history.js';
import {
  findInnermostFunction,
  getSourceLanguage,
  type FunctionFact,
  type SignalFact,
  type SignalKind,
  type Span,
} from '../model/facts.js';
import { EDGE_KINDS, INLINE_LINK_NAME, type MemoryKind, type RouteNode } from '../model/graph.js';
import type { FactSubject } from '../model/rules.js';
import { findReverseReach } from '../graph/queries/reverse-reach.js';
import { createGraphLookup, sortUnique, type GraphLookup } from './facts-graph.js';
import { deriveRouteFacts, getRouteCallingTests, type HeadCode } from './facts-routes.js';
import { deriveTestCaseFacts, deriveTestFileFacts } from './facts-tests.js';
import { classifyTextChange, getCommentSyntax, isIndentSignificant } from './facts-text.js';
import { deriveRepositoryFacts, type RepositoryFactOptions } from './facts-repository.js';
import { toChangedLines } from './proof.js';
import { findOptionGates } from './option-gates.js';
import { getBaseChangedLines, selectChangedSignals } from './changed-signals.js';
import { formatLineRanges } from '../text/line-ranges.js';

export interface ChangedFileInput {
  path: string;
  status: ChangeStatus;
  previousPath?: string;
  additions: number;
  deletions: number;
  hunks: Hunk[];
  binary: boolean;
  headText?: string;
  baseText?: string;
  changedExports: ChangedExport[];
  /** What the change is (rules/change-kind.ts); `runtime` when not given. */
  changeKind?: ChangeKind;
  /** Set for compiled output kept beside its TypeScript source: the source's path. */
  compiledFrom?: string;
  headFunctions?: FunctionFact[];
  baseFunctions?: FunctionFact[];
  /** Head-side signals of the whole file (the parser's `signals`). */
  headSignals?: SignalFact[];
  /** Head-side type-only declarations (interfaces, type aliases, `declare`): no decision of theirs runs. */
  headTypeSpans?: readonly Span[];
}

export interface ImpactedInput {
  path: string;
  distance: number;
  via: string[];
  typeOnly: boolean;
}

/** A memory entry matched to a changed path by terms (the graph's `mentions` edges are added automatically). */
export interface MemoryMatch {
  id: string;
  kind: MemoryKind;
  paths: string[];
}

export interface AnalysisFactsInput {
  kg: KnowledgeGraph;
  changedFiles: ChangedFileInput[];
  impacted: ImpactedInput[];
  impactedRoutes: ImpactedRoute[];
  reachingTestsByPath: Map<string, ReachingTest[]>;
  proofByPath: Map<string, ChangedPathProof>;
  /** Bounded git history (newest first or any order). */
  history: HistoryEntry[];
  /** What the mined history window says about the change (co-change partners, fixes, hotspots); absent when not mined. */
  historyInsights?: HistoryInsights;
  memoryMatches?: MemoryMatch[];
  config?: { assertionHelpers?: string[] };
  repository?: RepositoryFactOptions;
  /** The merged path classes of the loaded packs (rules/classifiers.ts): isAuthPath, isPaymentPath, isMigration, isGenerated. */
  pathClasses: PathClassifier;
  /** What context weights are for; default `change`. */
  taskKind?: string;
  /** Test lines holding the old value of a literal the change replaced (rules/replaced-literals.ts). */
  assertedLiterals?: AssertedLiteral[];
  /**
   * When set, only test cases and test files of these files and only these routes become subjects:
   * deriving facts for every test of a large repository on each call cost seconds for findings
   * the report never shows.
   */
  scope?: { testFiles: ReadonlySet<string>; routeIds: ReadonlySet<string> };
}

const MAX_LINE_TEXT = 400;
const MAX_LINES_PER_FILE = 2000;
const MAX_CHANGED_LINES = 20000;

const PARSER_SIGNALS = new Set<SignalKind>(['parse-number', 'parse-json', 'date-time', 'money', 'regex']);

function getExtension(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
}

function getRole(lookup: GraphLookup, path: string): string {
  const id = toFileId(path);
  if (lookup.kg.graph.hasNode(id)) {
    const attributes = lookup.kg.graph.getNodeAttributes(id);
    if (attributes.kind === 'file') return attributes.role;
  }
  return classifyRole(path);
}

function overlaps(span: { start: number; end: number }, lines: ReadonlySet<number>): boolean {
  for (const line of lines) if (line >= span.start && line <= span.end) return true;
  return false;
}

/** Summed complexity of the head functions touched by the change minus that of the base functions touched. */
export function deriveComplexityDelta(file: Pick<ChangedFileInput, 'hunks' | 'headFunctions' | 'baseFunctions' | 'status'>): number {
  const headLines = new Set(toChangedLines(file.hunks));
  const baseLines = new Set(getBaseChangedLines(file.hunks));
  const sum = (functions: readonly FunctionFact[] | undefined, lines: ReadonlySet<number>, all: boolean): number =>
    (functions ?? []).filter((fn) => all || overlaps(fn.span, lines)).reduce((total, fn) => total + fn.complexity, 0);
  const head = file.status === 'deleted' ? 0 : sum(file.headFunctions, headLines, file.status === 'added');
  const base = file.status === 'added' ? 0 : sum(file.baseFunctions, baseLines, file.status === 'deleted');
  return head - base;
}

interface HistoryIndex {
  byPath: Map<string, { count: number; authors: Set<string>; last: number }>;
}

function indexHistory(history: readonly HistoryEntry[]): HistoryIndex {
  const byPath = new Map<string, { count: number; authors: Set<string>; last: number }>();
  for (const entry of history) {
    for (const path of new Set(entry.paths)) {
      const known = byPath.get(path) ?? { count: 0, authors: new Set<string>(), last: Number.NEGATIVE_INFINITY };
      known.count += 1;
      known.authors.add(entry.authorEmail.toLowerCase());
      known.last = Math.max(known.last, entry.timestamp);
      byPath.set(path, known);
    }
  }
  return { byPath };
}

function getHistoryStats(index: HistoryIndex, paths: readonly string[]): { churn: number; authors: number; last: number | undefined } {
  let churn = 0;
  const authors = new Set<string>();
  let last: number | undefined;
  for (const path of new Set(paths)) {
    const stats = index.byPath.get(path);
    if (stats === undefined) continue;
    churn += stats.count;
    for (const author of stats.authors) authors.add(author);
    last = last === undefined ? stats.last : Math.max(last, stats.last);
  }
  return { churn, authors: authors.size, last };
}

function getSignalsOnLines(signals: readonly SignalFact[] | undefined, lines: ReadonlySet<number>): string[] {
  return sortUnique((signals ?? []).filter((signal) => lines.has(signal.line)).map((signal) => signal.kind));
}

interface Context {
  input: AnalysisFactsInput;
  lookup: GraphLookup;
  history: HistoryIndex;
  changedPaths: Set<string>;
  memoryByPath: Map<string, Map<string, MemoryKind>>;
}

function createContext(input: AnalysisFactsInput): Context {
  const memoryByPath = new Map<string, Map<string, MemoryKind>>();
  for (const match of input.memoryMatches ?? []) {
    for (const path of match.paths) {
      const known = memoryByPath.get(path) ?? new Map<string, MemoryKind>();
      known.set(match.id, match.kind);
      memoryByPath.set(path, known);
    }
  }
  return {
    input,
    lookup: createGraphLookup(input.kg),
    history: indexHistory(input.history),
    changedPaths: new Set(input.changedFiles.filter((file) => file.status !== 'deleted').map((file) => file.path)),
    memoryByPath,
  };
}

function getMemoryKinds(context: Context, path: string): MemoryKind[] {
  const found = new Map<string, MemoryKind>(context.memoryByPath.get(path) ?? []);
  for (const mention of context.lookup.getMemoryMentions(path)) found.set(mention.id, mention.kind);
  return [...found.values()];
}

function getReachingTestFiles(context: Context, path: string): string[] {
  const given = context.input.reachingTestsByPath.get(path);
  if (given !== undefined) return sortUnique(given.map((test) => test.testFile));
  return context.lookup.getReachingTestFiles(path);
}

/** The catalogue facts of one changed file. */
function deriveChangedFileFacts(
  input: AnalysisFactsInput,
  file: ChangedFileInput,
  context: Context = createContext(input),
): Record<string, unknown> {
  const { lookup } = context;
  const { path } = file;
  const role = getRole(lookup, path);
  const language = getLanguage(path);
  const headLines = new Set(toChangedLines(file.hunks));
  const signals = file.status === 'deleted' ? [] : getSignalsOnLines(file.headSignals, headLines);
  // A `runtime` or `type-only` kind was decided after the same comparison found neither (rules/change-kind.ts).
  const textChange =
    file.binary || file.changeKind === 'runtime' || file.changeKind === 'type-only'
      ? { formattingOnly: false, commentOnly: false }
      : classifyTextChange(file.baseText, file.headText, getCommentSyntax(language, path), isIndentSignificant(language));
  const isDocOnly = role === 'doc';
  const reachers = lookup.getReachers(path);
  // Routes whose handler chain this file's change reaches (handler-level reach), not every route of an importer.
  const routes = input.impactedRoutes.filter((route) => route.chain[0] === path && !input.pathClasses(route.file).example);
  const reachingTests = getReachingTestFiles(context, path);
  const owners = lookup.getOwners(path);
  const historyPaths = file.previousPath === undefined ? [path] : [path, file.previousPath];
  const stats = getHistoryStats(context.history, historyPaths);
  const testsUpdated = reachingTests.some((test) => context.changedPaths.has(test));
  const testLast = getHistoryStats(context.history, reachingTests).last;
  const testsStale =
    !testsUpdated && reachingTests.length > 0 && stats.last !== undefined && (testLast === undefined || testLast < stats.last);
  const memoryKinds = getMemoryKinds(context, path);
  const proof = context.input.proofByPath.get(path);
  const changeKind = file.changeKind ?? 'runtime';
  const pathClasses = input.pathClasses(path);
  // Nothing new runs: documentation, comments, formatting, type declarations, generated or compiled output.
  const lowSignalReason = isDocOnly
    ? 'documentation'
    : textChange.commentOnly || textChange.formattingOnly || changeKind === 'comment-or-format'
      ? 'comments or formatting'
      : changeKind === 'type-only'
        ? 'type declarations (the type checker proves them, nothing new runs)'
        : changeKind === 'example'
          ? "example or playground code (it shows or drives the product; the product's own tests carry the proof)"
          : changeKind === 'constant'
            ? 'new names for literal values (they run when the module loads; the code that uses them carries the proof)'
            : changeKind === 'export-only'
              ? 'declarations exported, unchanged (what runs is the same; the code that imports them carries the proof)'
              : changeKind === 'identifier-rename'
                ? 'names the file declares renamed throughout it, nothing else (what runs is the same)'
                : // A compiled mirror of a source in the repository carries no proof of its own. A dist/ or build/
                  // folder (generated by path) may be the only code a repository has, so it keeps its signal.
                  file.compiledFrom !== undefined
                  ? `compiled output of ${file.compiledFrom} (the source carries the proof)`
                  : '';
  const lowSignal = lowSignalReason !== '';
  const manifestChanges =
    role === 'manifest' ? describeManifestChange(path, file.baseText, file.status === 'deleted' ? undefined : file.headText) : [];
  // Which hunks a contributor is about: "lines 4-5, 9", or what happened to the whole file.
  const changedHunks =
    file.status === 'deleted'
      ? 'deleted'
      : headLines.size === 0
        ? file.status === 'renamed'
          ? 'renamed, no line changed'
          : 'no changed line'
        : formatLineRanges([...headLines]);
  return {
    path,
    previousPath: file.previousPath ?? path,
    status: file.status,
    changedHunks,
    changeKind,
    role,
    language,
    extension: getExtension(path),
    additions: file.additions,
    deletions: file.deletions,
    hunkCount: file.hunks.length,
    isBinary: file.binary,
    changedExportCount: file.changedExports.length,
    fanIn: lookup.getDirectImporters(path).length,
    reachedFiles: reachers.length,
    reachedRoutes: routes.length,
    reachedRoutesLabel: routes.length === 1 ? '1 route' : `${routes.length} routes`,
    reachingTests: reachingTests.length,
    reachingTestsLabel: reachingTests.length === 1 ? '1 test file' : `${reachingTests.length} test files`,
    // Path-based only: identifier signals (`token`, `role`, `total`) fired on ordinary code and made
    // every refactor look like an auth or payment change.
    isAuthPath: pathClasses.auth,
    isPaymentPath: pathClasses.payment,
    isMigration: pathClasses.migration,
    isConfig: role === 'config',
    isManifest: role === 'manifest',
    manifestChanges,
    manifestChangeCount: manifestChanges.length,
    isTest: role === 'test',
    isDocOnly,
    isGenerated: changeKind === 'generated' || pathClasses.generated,
    commentOnly: textChange.commentOnly,
    proofState: proof?.state ?? 'unproven',
    owners,
    ownerCount: owners.length,
    churn: stats.churn,
    authorCount: stats.authors,
    complexityDelta: deriveComplexityDelta(file),
    signals,
    changedLines: file.additions + file.deletions,
    formattingOnly: textChange.formattingOnly,
    lowSignal,
    lowSignalReason,
    invariantsTouched: memoryKinds.filter((kind) => kind === 'invariant').length,
    regressionsTouched: memoryKinds.filter((kind) => kind === 'regression').length,
    testsUpdated,
    testsStale,
    proofReason: proof?.reason ?? '',
    proofTask: proof?.repairTask ?? '',
    ...deriveHistoryFacts(input.historyInsights, historyPaths),
  };
}

const formatCommits = (commits: readonly { oid: string }[]): string => commits.map((commit) => commit.oid.slice(0, 7)).join(', ');

/** The co-change, fix-prone and hotspot facts of a changed file (and its base-side path after a rename). */
function deriveHistoryFacts(insights: HistoryInsights | undefined, paths: readonly string[]): Record<string, unknown> {
  const mine = new Set(paths);
  const missed = (insights?.missedPartners ?? []).filter((partner) => mine.has(partner.path));
  const fix = insights?.fixProne.find((entry) => mine.has(entry.path));
  const hotspot = insights?.hotspots.find((entry) => mine.has(entry.path));
  return {
    missedPartners: missed.map((partner) => partner.partner),
    missedPartnerCount: missed.length,
    missedPartnerEvidence: missed
      .slice(0, 3)
      .map(
        (partner) =>
          `${partner.partner} changed in ${partner.support} of the ${partner.pathCommits} commits that changed ${partner.path} (${formatCommits(partner.commits)})`,
      )
      .join('; '),
    fixCount: fix?.fixes ?? 0,
    fixScore: fix?.fixScore ?? 0,
    fixRatio: fix?.fixRatio ?? 0,
    fixCommits: (fix?.fixCommits ?? []).map((commit) => `${commit.oid.slice(0, 7)} ${commit.subject}`),
    fixEvidence:
      fix === undefined ? '' : `${fix.fixes} of its ${fix.commits} recent commits were fixes or reverts (${formatCommits(fix.fixCommits)})`,
    isHotspot: hotspot !== undefined,
    hotspotScore: hotspot?.score ?? 0,
    hotspotEvidence:
      hotspot === undefined
        ? ''
        : `churn ${hotspot.churn} × complexity ${hotspot.complexity} = ${hotspot.score}, rank ${hotspot.rank} of ${hotspot.rankedFiles} churned code files`,
  };
}

function findFunction(
  functions: readonly FunctionFact[] | undefined,
  name: string,
  span: { start: number; end: number } | undefined,
): FunctionFact | undefined {
  const list = functions ?? [];
  return (
    list.find((fn) => fn.name === name) ??
    (span === undefined ? undefined : list.find((fn) => fn.span.start >= span.start && fn.span.end <= span.end))
  );
}

/** The file's functions that call `name`, directly or through other functions of the file, by their head text. */
function findInFileCallers(file: ChangedFileInput, name: string): string[] {
  const functions = file.headFunctions ?? [];
  if (file.headText === undefined || functions.length === 0) return [];
  const lines = file.headText.split('\n');
  const bodies = new Map(functions.map((fn) => [fn.name, lines.slice(fn.span.start - 1, fn.span.end).join('\n')]));
  const callers = new Set<string>();
  const queue = [name];
  for (let callee = queue.shift(); callee !== undefined; callee = queue.shift()) {
    const called = new RegExp(`(?<![\\w$.])${callee.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\(`);
    for (const [caller, body] of bodies) {
      if (caller === name || callers.has(caller) || !called.test(body)) continue;
      callers.add(caller);
      queue.push(caller);
    }
  }
  return [...callers];
}

/** The catalogue facts of one changed export (symbol-level reach: only files that use the name). */
function deriveChangedExportFacts(
  input: AnalysisFactsInput,
  file: ChangedFileInput,
  changed: ChangedExport,
  context: Context = createContext(input),
): Record<string, unknown> {
  const { lookup } = context;
  const node = lookup.kg.graph.hasNode(toExportId(changed.path, changed.name))
    ? lookup.kg.graph.getNodeAttributes(toExportId(changed.path, changed.name))
    : undefined;
  const exportNode = node?.kind === 'export' ? node : undefined;
  // `export class Adapter …` and `export default Adapter`: one binding under two names (the same declaration's span),
  // so what uses either uses both.
  const names = [
    changed.name,
    ...file.changedExports
      .filter((other) => other.name !== changed.name && other.span.start === changed.span.start && other.span.end === changed.span.end)
      .map((other) => other.name),
  ];
  const users = changed.change === 'removed' ? [] : sortUnique(names.flatMap((name) => lookup.getExportUsers(changed.path, name)));
  const reached = new Set<string>(users);
  for (const user of users) for (const reacher of lookup.getReachers(user)) reached.add(reacher);
  reached.delete(changed.path);
  const routeFiles = new Set([changed.path, ...reached]);
  const routes =
    changed.change === 'removed'
      ? []
      : lookup
          .getRoutesHandledBy(users.length === 0 ? new Set([changed.path]) : routeFiles)
          .filter(({ route }) => !input.pathClasses(route.file).example);
  const tests = new Set<string>();
  for (const path of reached) if (lookup.isTestFile(path)) tests.add(path);
  // A test that runs a file using the export without importing it (a runner's setup file, a spawned program: the last
  // file of its `via`) reaches it too: parse-server's specs run spec/helper.js, which uses the storage adapters.
  for (const test of input.reachingTestsByPath.get(changed.path) ?? []) {
    const runs = test.via.length >= 2 ? test.via[test.via.length - 1] : undefined;
    if (runs !== undefined && reached.has(runs)) tests.add(test.testFile);
  }
  // A test that imports another export of the file whose function calls this one, directly or through the file's own
  // functions, reaches it too (feathers' typebox test calls `querySyntax`, which calls `queryProperties`, which calls
  // the changed `queryProperty`).
  if (changed.change !== 'removed' && tests.size === 0)
    for (const caller of findInFileCallers(file, changed.name))
      for (const user of lookup.getExportUsers(changed.path, caller))
        for (const path of [user, ...lookup.getReachers(user)]) if (lookup.isTestFile(path)) tests.add(path);
  // A test that sends the request of a route the export handles, or whose handler calls it, reaches it too (an e2e
  // spec of a NestJS controller and of the service its handler calls).
  if (changed.change !== 'removed')
    for (const route of input.impactedRoutes)
      if (route.reach === 'handler' && isRouteReachedThrough(route, changed))
        for (const test of getRouteCallingTests(lookup, route.id)) tests.add(test);
  const headFn = findFunction(file.headFunctions, changed.name, changed.change === 'removed' ? undefined : changed.span);
  const baseFn = findFunction(file.baseFunctions, changed.name, changed.change === 'removed' ? changed.span : undefined);
  const headComplexity = changed.change === 'removed' ? 0 : (headFn?.complexity ?? 0);
  const baseComplexity = changed.change === 'added' ? 0 : (baseFn?.complexity ?? 0);
  const signalLines = new Set<number>();
  if (changed.change !== 'removed') for (let line = changed.span.start; line <= changed.span.end; line += 1) signalLines.add(line);
  return {
    path: changed.path,
    name: changed.name,
    exportKind: exportNode?.exportKind ?? 'unknown',
    change: changed.change,
    typeOnly: exportNode?.typeOnly ?? false,
    isDefault: changed.name === 'default',
    importerCount: users.length,
    reachedFiles: reached.size,
    reachedRoutes: routes.length,
    reachingTests: tests.size,
    lineCount: Math.max(0, changed.span.end - changed.span.start + 1),
    complexityDelta: headComplexity - baseComplexity,
    proofState: context.input.proofByPath.get(changed.path)?.state ?? 'unproven',
    signals: getSignalsOnLines(file.headSignals, signalLines),
  };
}

/**
 * Whether the change reaches the route through this export: the route's changed handler or registration lies inside
 * it, or the route's chain ends at a callable it declares (`changed AuthService.validateLogin (src/auth/auth.service.ts:40)`).
 */
function isRouteReachedThrough(route: ImpactedRoute, changed: ChangedExport): boolean {
  const last = route.steps[route.steps.length - 1] ?? '';
  const callable = /^changed (\S+) \((.+):\d+\)$/.exec(last);
  if (callable !== null)
    return callable[2] === changed.path && (callable[1] === changed.name || callable[1]?.startsWith(`${changed.name}.`) === true);
  const own = /^changed line \d+ of the (?:handler|registration) \((.+)\)$/.exec(last);
  return (
    own !== null &&
    own[1] === changed.path &&
    route.file === changed.path &&
    changed.span.start <= route.line &&
    route.line <= changed.span.end
  );
}

/** Test files (paths) that reach a changed path. */
function getTestsReachingChange(context: Context): Set<string> {
  const tests = new Set<string>();
  for (const path of context.changedPaths) for (const test of getReachingTestFiles(context, path)) tests.add(test);
  for (const file of context.input.changedFiles)
    if (file.status === 'deleted') for (const test of getReachingTestFiles(context, file.path)) tests.add(test);
  return tests;
}

/** One `changed-line` subject per added line (head side) of a text file, capped at MAX_LINES_PER_FILE. */
export function deriveChangedLineSubjects(
  path: string,
  headText: string | undefined,
  hunks: readonly Hunk[],
  role: string = classifyRole(path),
): FactSubject[] {
  if (headText === undefined) return [];
  const lines = headText.split(/\r?\n/);
  const language = getLanguage(path);
  const extension = getExtension(path);
  const subjects: FactSubject[] = [];
  for (const line of toChangedLines(hunks)) {
    if (subjects.length >= MAX_LINES_PER_FILE) break;
    const text = lines[line - 1];
    if (text === undefined || text.trim() === '') continue;
    subjects.push({
      subject: 'changed-line',
      id: `line:${path}:${line}`,
      facts: { path, line, text: text.slice(0, MAX_LINE_TEXT), fileRole: role, language, extension },
    });
  }
  return subjects;
}

export interface SignalFileInput {
  path: string;
  role: string;
  signals: readonly SignalFact[];
  /** Every signal of the head, changed lines or not: the writes an async failure could leave half-done (`writesBefore`). */
  allSignals?: readonly SignalFact[];
  functions?: readonly FunctionFact[];
  routeMethods?: readonly string[];
  /** The head text's lines, for what an auth-word signal's line does (`authCheck`). */
  lines?: readonly string[];
}

/**
 * What shows that a line with an auth word checks credentials: a credential API called (`jwt.verify`, `bcrypt.compare`,
 * `passport.authenticate`, `getServerSession`), the request's credentials or the user's role read (`.authorization`,
 * `req.user`, `ctx.state.user`, `.roles`, `.permissions`, `isAdmin`), or a refusal (401, 403, an Unauthorized or
 * Forbidden error). An HTTP/2 session set, a command-line token or a DTO field named `oldPassword` shows none.
 */
const AUTH_CHECKS: readonly [RegExp, string][] = [
  [/\b(?:jwt|jsonwebtoken|jose)\.(?:verify|decode|sign)\b|\bjwtVerify\b/, 'verifies a token'],
  [/\b(?:bcrypt|argon2|scrypt)\.(?:compare|verify|hash)(?:Sync)?\b|\btimingSafeEqual\b/, 'compares a secret'],
  [
    /\b(?:passport\.authenticate|getServerSession|getSession|auth\(\)|currentUser\(\)|verifyToken|verifyPassword|checkPassword|isAuthenticated)\b/,
    'calls an auth API',
  ],
  [
    /\.(?:authorization|headers\[['"]authorization['"]\])|\b(?:req|request|ctx\.state|ctx\.request|session)\.user\b/,
    'reads the request credentials',
  ],
  [/\.(?:roles?|permissions?|scopes|isAdmin)\b/, "reads the user's role"],
  [/\b(?:401|403)\b|\b(?:Unauthori[sz]ed|Forbidden)\w*/, 'refuses with 401 or 403'],
];

/** A refusal that says the input was wrong (400, 422), not that the caller may not: a field's check, not a login. */
const INVALID_INPUT = /\b(?:400|422)\b|\b(?:UNPROCESSABLE_ENTITY|BAD_REQUEST|UnprocessableEntity\w*|BadRequest\w*)\b/;
const REFUSED = /\b(?:401|403)\b|\b(?:UNAUTHORIZED|FORBIDDEN|Unauthori[sz]ed\w*|Forbidden\w*)\b/;

/**
 * What the auth-word signal's line does to check credentials; '' when it shows none. A secret compared in a function
 * that refuses only as invalid input (nestjs-boilerplate's old password checked on a profile update answers 422)
 * checks a form field of a caller already signed in: no request without credentials reaches it.
 */
function findAuthCheck(lines: readonly string[] | undefined, line: number, fn: FunctionFact | undefined): string {
  const text = lines?.[line - 1];
  if (text === undefined) return '';
  const check = AUTH_CHECKS.find(([pattern]) => pattern.test(text))?.[1] ?? '';
  if (check !== 'compares a secret' || fn === undefined || lines === undefined) return check;
  const body = lines.slice(fn.span.start - 1, fn.span.end);
  return body.some((code) => INVALID_INPUT.test(code)) && !body.some((code) => REFUSED.test(code)) ? '' : check;
}

/** A line that tests what follows: `if (`, `} else if (`, `while (`, a ternary or a short-circuit (`||`, `&&`; not `??`). */
const CONDITION_LINE = /^(?:\}\s*else\s+)?(?:if|while)\s*\(|(?<!\?)\?(?![.?])|&&|\|\|/;
/** How far above a read its enclosing condition is looked for. */
const MAX_GUARD_DISTANCE = 30;

/**
 * Whether a condition already tests the environment variable `detail` (`process.env.NODE_OPTIONS`) read on `line`: the
 * line itself, or one of the lines that open the code around it (each indented less than the lines below it), is a
 * condition that names the same variable. Such a read cannot see the variable unset unless the condition lets it.
 */
function isEnvChecked(lines: readonly string[], line: number, detail: string): boolean {
  const names = (text: string): boolean => detail !== '' && text.includes(detail);
  const own = (lines[line - 1] ?? '').trim();
  if (CONDITION_LINE.test(own) && names(own)) return true;
  let indent = (lines[line - 1] ?? '').length - (lines[line - 1] ?? '').trimStart().length;
  for (let index = line - 2; index >= 0 && index >= line - 1 - MAX_GUARD_DISTANCE && indent > 0; index -= 1) {
    const text = lines[index] ?? '';
    const trimmed = text.trim();
    const depth = text.length - text.trimStart().length;
    if (trimmed === '' || depth >= indent) continue;
    indent = depth;
    if (CONDITION_LINE.test(trimmed) && names(trimmed)) return true;
  }
  return false;
}

/** One `changed-signal` subject per signal of a changed file, flagged when it sits on a changed line. */
export function deriveSignalSubjects(file: SignalFileInput, changedLines: readonly number[]): FactSubject[] {
  const changed = new Set(changedLines);
  const seen = new Set<string>();
  const subjects: FactSubject[] = [];
  const methods = sortUnique(file.routeMethods ?? []);
  const writes = (file.allSignals ?? file.signals).filter((signal) => signal.kind === 'write');
  for (const signal of [...file.signals].sort((a, b) => a.line - b.line || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0))) {
    const id = `signal:${file.path}:${signal.line}:${signal.kind}`;
    if (seen.has(id)) continue;
    seen.add(id);
    // The innermost: a method of an object a factory returns writes nothing its sibling methods wrote before it.
    const fn = findInnermostFunction(file.functions ?? [], signal.line);
    subjects.push({
      subject: 'changed-signal',
      id,
      facts: {
        path: file.path,
        line: signal.line,
        signalKind: signal.kind,
        detail: signal.detail,
        inChangedLines: changed.has(signal.line),
        fileRole: file.role,
        functionName: fn?.name ?? '',
        isAsyncFunction: fn?.isAsync ?? false,
        routeMethods: methods,
        isRouteFile: methods.length > 0,
        authCheck: signal.kind === 'auth' ? findAuthCheck(file.lines, signal.line, fn) : '',
        envChecked: signal.kind === 'env-config' && isEnvChecked(file.lines ?? [], signal.line, signal.detail),
        // `new Intl.DateTimeFormat(locale, { timeZone })` formats dates and builds none: no invalid date reaches it.
        dateFormatter: signal.kind === 'date-time' && /^(?:new )?Intl\.DateTimeFormat$/.test(signal.detail),
        writesBefore: writes.some((write) => write.line < signal.line && (fn === undefined || write.line >= fn.span.start)),
        functionWrites: fn !== undefined && writes.some((write) => write.line >= fn.span.start && write.line <= fn.span.end),
      },
    });
  }
  return subjects;
}

/** One `edge-kind` subject per edge kind (imports twice: runtime and type-only), for the context-weight pack. */
export function deriveEdgeKindSubjects(taskKind = 'change'): FactSubject[] {
  const subjects: FactSubject[] = [];
  for (const edgeKind of EDGE_KINDS) {
    const variants = edgeKind === 'imports' ? [false, true] : [false];
    for (const typeOnly of variants) {
      subjects.push({
        subject: 'edge-kind',
        id: `edge-kind:${edgeKind}${typeOnly ? ':type-only' : ''}`,
        facts: { edgeKind, fromKind: '', toKind: '', typeOnly, taskKind },
      });
    }
  }
  return subjects;
}

/** Facts of the change as a whole; low-signal files are left out of sizes, owners and areas. */
function deriveChangeFacts(input: AnalysisFactsInput, fileFacts: readonly Record<string, unknown>[]): Record<string, unknown> {
  const signalful = fileFacts.filter((facts) => facts.lowSignal !== true);
  const owners = sortUnique(
    signalful.flatMap((facts) =>
      Array.isArray(facts.owners) ? facts.owners.filter((owner): owner is string => typeof owner === 'string') : [],
    ),
  );
  const areas = new Set(
    signalful.map((facts) => {
      const path = typeof facts.path === 'string' ? facts.path : '';
      const slash = path.indexOf('/');
      return slash === -1 ? '.' : path.slice(0, slash);
    }),
  );
  const lines = signalful.reduce((total, facts) => total + (typeof facts.changedLines === 'number' ? facts.changedLines : 0), 0);
  return {
    fileCount: fileFacts.length,
    signalFileCount: signalful.length,
    changedLines: lines,
    owners,
    ownerCount: owners.length,
    areaCount: areas.size,
    impactedFiles: input.impacted.length,
    impactedRoutes: input.impactedRoutes.length,
    lowSignal: fileFacts.length > 0 && signalful.length === 0,
  };
}

/**
 * Impacted routes that a behaviour change reaches: a route reached only from comment-, formatting- or
 * documentation-only files is not changed, so it asks for no test and no edge case.
 */
function selectChangedRouteIds(
  input: AnalysisFactsInput,
  files: readonly ChangedFileInput[],
  fileFacts: readonly Record<string, unknown>[],
): Set<string> {
  const signalPaths = files
    .filter((file, index) => fileFacts[index]?.lowSignal !== true && file.status !== 'deleted')
    .map((file) => file.path);
  if (signalPaths.length === files.length) return new Set(input.impactedRoutes.map((route) => route.id));
  const reached = new Set([
    ...signalPaths,
    ...findReverseReach(
      input.kg,
      signalPaths.filter((path) => input.kg.fileIds.has(path)),
      { includeVia: false },
    ).map((entry) => entry.path),
  ]);
  const ids = new Set<string>();
  for (const route of input.impactedRoutes) {
    const handlerFiles = new Set([route.file]);
    input.kg.graph.forEachOutEdge(route.id, (_edge, edge, _source, _target, _sourceAttributes, target) => {
      if (edge.kind === 'handles' && target.kind === 'file') handlerFiles.add(target.path);
    });
    if ([...handlerFiles].some((path) => reached.has(path))) ids.add(route.id);
  }
  return ids;
}

function getRouteMethodsByFile(lookup: GraphLookup): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  lookup.kg.graph.forEachNode((id, attributes) => {
    if (attributes.kind !== 'route') return;
    const files = new Set([attributes.file]);
    lookup.kg.graph.forEachOutEdge(id, (_edge, edge, _source, _target, _sourceAttributes, targetAttributes) => {
      if (edge.kind === 'handles' && targetAttributes.kind === 'file') files.add(targetAttributes.path);
    });
    for (const file of files) byFile.set(file, [...(byFile.get(file) ?? []), attributes.method]);
  });
  return byFile;
}

function countParserSignals(files: readonly ChangedFileInput[]): number {
  return files.reduce((total, file) => total + (file.headSignals ?? []).filter((signal) => PARSER_SIGNALS.has(signal.kind)).length, 0);
}

/**
 * Every subject of the analysis with all catalogue facts filled: changed files, the change, changed
 * exports, test cases, test files, routes, the repository, changed lines, signals and edge kinds.
 */
export function buildAnalysisSubjects(input: AnalysisFactsInput): FactSubject[] {
  const context = createContext(input);
  const { lookup } = context;
  const subjects: FactSubject[] = [];
  const files = [...input.changedFiles].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const fileFacts: Record<string, unknown>[] = [];
  for (const file of files) {
    const facts = deriveChangedFileFacts(input, file, context);
    fileFacts.push(facts);
    subjects.push({ subject: 'changed-file', id: toFileId(file.path), facts });
  }
  subjects.push({ subject: 'change', id: 'change', facts: deriveChangeFacts(input, fileFacts) });
  for (const [index, file] of files.entries()) {
    // A comment- or formatting-only change changes no behaviour, so its exports need no new test; nor do a
    // configuration file's (vite.config.ts's default export is read by the tool, not called by a test).
    if (fileFacts[index]?.lowSignal === true || fileFacts[index]?.role === 'config') continue;
    for (const changed of file.changedExports) {
      subjects.push({
        subject: 'changed-export',
        id: toExportId(changed.path, changed.name),
        facts: deriveChangedExportFacts(input, file, changed, context),
      });
    }
  }
  const changedPaths = [...context.changedPaths];
  const testsReachingChange = getTestsReachingChange(context);
  const testFiles = new Set<string>();
  for (const { id, node } of lookup.getTestNodes()) {
    if (input.scope !== undefined && !input.scope.testFiles.has(node.file)) continue;
    testFiles.add(node.file);
    // A type test is checked by the compiler and never run: what would make a run weak (an assertion never awaited, none
    // at all) says nothing of it. Nor of a benchmark, which times a call and asserts nothing by design (yarl's
    // tests/test_url_benchmarks.py).
    if (node.testKind !== 'test' || isTypeTestPath(node.file) || isBenchmarkPath(node.file)) continue;
    subjects.push({ subject: 'test-case', id, facts: deriveTestCaseFacts(input.kg, id, { changedPaths, testsReachingChange, lookup }) });
  }
  for (const path of sortUnique(testFiles)) {
    subjects.push({ subject: 'test-file', id: toFileId(path), facts: deriveTestFileFacts(lookup, path, context.changedPaths) });
  }
  const changedRouteIds = selectChangedRouteIds(input, files, fileFacts);
  const routes: { id: string; route: RouteNode }[] = [];
  input.kg.graph.forEachNode((id, attributes) => {
    if (attributes.kind !== 'route' || (input.scope !== undefined && !input.scope.routeIds.has(id))) return;
    // A route an example program declares (chi's `_examples/fileserver`) is no route of the product to test.
    if (!input.pathClasses(attributes.file).example) routes.push({ id, route: attributes });
  });
  routes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const headCode = new Map(
    files
      .filter((file) => file.status !== 'deleted')
      .map((file): [string, HeadCode] => {
        const changedLines = toChangedLines(file.hunks);
        const head = file.headText?.split('\n') ?? [];
        const errorPathLines = new Set(changedLines.filter((line) => isErrorPathLine(head[line - 1] ?? '')));
        return [
          file.path,
          { signals: file.headSignals ?? [], functions: file.headFunctions ?? [], changedLines: new Set(changedLines), errorPathLines },
        ];
      }),
  );
  const chainChanges = new Map(input.impactedRoutes.map((route) => [route.id, describeChainChange(input.kg, route)]));
  // How many reached routes the change reaches through each middleware alone, and through each changed callable from
  // outside the route's own chain (code its handler or a middleware calls, further down than a helper).
  const middlewareRoutes = new Map<string, number>();
  const calleeRoutes = new Map<string, number>();
  for (const change of chainChanges.values()) {
    if (change.own) continue;
    if (change.middleware !== undefined) middlewareRoutes.set(change.middleware, (middlewareRoutes.get(change.middleware) ?? 0) + 1);
    if (isOutsideChain(change)) calleeRoutes.set(change.changed ?? '', (calleeRoutes.get(change.changed ?? '') ?? 0) + 1);
  }
  const gatesByChange = new Map<string, string[] | undefined>();
  const findGates = (change: ChainChange): string[] | undefined => {
    const key = change.changed ?? '';
    if (!gatesByChange.has(key)) {
      const changed = /^changed (\S+) \((.+)\)$/.exec(key);
      const file = changed === null ? undefined : files.find((candidate) => candidate.path === changed[2]);
      gatesByChange.set(key, file === undefined || changed?.[1] === undefined ? undefined : findOptionGates(file, changed[1]));
    }
    return gatesByChange.get(key);
  };
  for (const { id, route } of routes) {
    const facts = deriveRouteFacts(lookup, id, route, changedRouteIds, headCode);
    const change = chainChanges.get(id);
    const guards = (route.guards ?? []).filter((guard) => guard.role === 'auth').map((guard) => guard.name);
    // A middleware counts as changed when its own code or a helper near it changed, not code further down.
    const nearMiddleware = change?.middleware !== undefined && change.middlewareDepth <= 1 ? change.middleware : undefined;
    const viaCallee = change !== undefined && isOutsideChain(change);
    // A helper the guard calls is an auth helper only when it is not shared code the change reaches many routes through
    // otherwise (outline's parseDomain, called by apexAuthRedirect and, further down, by most handlers).
    const sharedHelper = change?.changed !== undefined && (calleeRoutes.get(change.changed) ?? 0) > MAX_SCOPE_ROUTES;
    // A guard changed only behind an option (`if (options.optional …)`) that this route's registration does not set.
    const gatedOut = change?.guardItself === true && isGatedOut(route, change, findGates(change));
    subjects.push({
      subject: 'route',
      id,
      facts: {
        ...facts,
        chainChanged: change !== undefined && (change.own || nearMiddleware !== undefined),
        handlerChanged: change?.own === true,
        registrationChanged: isRegistrationChanged(route, headCode),
        guardChanged:
          nearMiddleware !== undefined && guards.includes(nearMiddleware) && (change?.guardItself === true || !sharedHelper) && !gatedOut,
        viaSharedMiddleware:
          change !== undefined && !change.own && change.middleware !== undefined && (middlewareRoutes.get(change.middleware) ?? 0) > 1,
        viaSharedCode: viaCallee && sharedHelper,
      },
    });
  }
  subjects.push({
    subject: 'repository',
    id: 'repository',
    facts: deriveRepositoryFacts(input.kg, { parserSignalCount: countParserSignals(files), ...input.repository }),
  });
  const methodsByFile = getRouteMethodsByFile(lookup);
  let lineBudget = MAX_CHANGED_LINES;
  const removedTests = collectRemovedTests(files);
  const removedLines = collectRemovedLines(files);
  const addedGuards = collectAddedGuards(files);
  for (const [index, file] of files.entries()) {
    const facts = fileFacts[index];
    if (file.status === 'deleted' || file.binary || facts === undefined) continue;
    const role = typeof facts.role === 'string' ? facts.role : classifyRole(file.path);
    if (role !== 'manifest' && facts.lowSignal !== true && lineBudget > 0) {
      const lines = deriveChangedLineSubjects(file.path, file.headText, file.hunks, role).slice(0, lineBudget);
      lineBudget -= lines.length;
      subjects.push(...lines);
    }
    if (facts.lowSignal !== true)
      subjects.push(
        ...deriveSemanticSubjects(
          file,
          role,
          getHandlerRoutes(input.impactedRoutes, file.path),
          removedTests(file),
          removedLines(file),
          addedGuards(file),
        ),
      );
    if (facts.lowSignal !== true && file.headSignals !== undefined) {
      const changedLines = toChangedLines(file.hunks);
      const signals = selectChangedSignals(file, changedLines);
      subjects.push(
        ...deriveSignalSubjects(
          {
            path: file.path,
            role,
            signals,
            allSignals: file.headSignals,
            functions: file.headFunctions ?? [],
            routeMethods: methodsByFile.get(file.path) ?? [],
            ...(file.headText === undefined ? {} : { lines: file.headText.split('\n') }),
          },
          changedLines,
        ),
      );
    }
  }
  subjects.push(...deriveAssertedLiteralSubjects(input.assertedLiterals ?? []));
  subjects.push(...deriveEdgeKindSubjects(input.taskKind));
  return subjects;
}

/**
 * How a change reaches a route's own chain. `own`: a changed line of its registration or of its handler (where it is
 * defined, or the changed function is the handler itself). `middleware`: the middleware through which it reaches the
 * route, when a middleware changed or code it calls did, with `middlewareDepth` functions between them (0: the
 * middleware or a function it calls directly changed; 1: one a helper of it calls). `changed`: the changed callable the steps end at.
 * A change only further down the code the handler calls is neither own nor a middleware's.
 */
interface ChainChange {
  own: boolean;
  middleware: string | undefined;
  middlewareDepth: number;
  /** The changed function is the middleware itself. */
  guardItself: boolean;
  changed: string | undefined;
}

/**
 * A changed line in a registration's own arguments outside its handler: the path, the middleware list, a decorator
 * (`router.post('/pins', auth(), …)` losing `auth()`). A change inside the handler's body leaves the chain in front of it
 * as it was.
 */
function isRegistrationChanged(route: RouteNode, headCode: ReadonlyMap<string, HeadCode>): boolean {
  return (route.registrations ?? []).some((registration) => {
    const lines = headCode.get(registration.file)?.changedLines;
    if (lines === undefined) return false;
    const handler = registration.chain.find((link) => link.role === 'handler' && link.file === registration.file);
    for (const line of lines) {
      const inRegistration = line >= registration.span.start && line <= registration.span.end;
      // The handler's first line is the registration's too (`router.post('/x', auth, async (req) => {`, a reference
      // `reportHandlers.weekly` among the arguments): only the lines of its body are the handler's alone.
      const inHandler = handler !== undefined && line > handler.span.start && line <= handler.span.end;
      if (inRegistration && !inHandler) return true;
    }
    return false;
  });
}

/**
 * The route's own registrations of the changed middleware all leave out every option that gates the change, so none
 * of them can run the changed lines. Unknown options (a variable passed, a spread) or no gate keep the route reached.
 */
function isGatedOut(route: RouteNode, change: ChainChange, gates: readonly string[] | undefined): boolean {
  if (gates === undefined || change.middleware === undefined) return false;
  const registered = (route.guards ?? []).filter((guard) => guard.name === change.middleware);
  if (registered.length === 0) return false;
  return registered.every((guard) => guard.options !== undefined && gates.every((option) => !guard.options?.includes(option)));
}

/** The change reaches the route only through code further down than its registration, handler or a middleware's helper. */
function isOutsideChain(change: ChainChange): boolean {
  return !change.own && change.changed !== undefined && (change.middleware === undefined || change.middlewareDepth > 1);
}

function describeChainChange(kg: KnowledgeGraph, route: ImpactedRoute): ChainChange {
  const own =
    route.steps.some((step) => /^changed line \d+ of the (?:handler|registration) /.test(step)) || isHandlerItselfChanged(kg, route);
  const index = route.steps.findIndex((candidate) => candidate.startsWith('middleware '));
  const middleware = index < 0 ? undefined : /^middleware (.+?) \(/.exec(route.steps[index] ?? '')?.[1];
  const last = route.steps.at(-1) ?? '';
  const changed = /^changed \S+ \(.+\)$/.test(last) ? last.replace(/:\d+\)$/, ')') : undefined;
  // `calls auth (…)` right after `middleware auth (…)` is the middleware's own function (a factory's), not a helper.
  const calls = index < 0 ? [] : route.steps.slice(index + 1).filter((step) => step.startsWith('calls '));
  const middlewareDepth = calls.filter((step, position) => position > 0 || !step.startsWith(`calls ${middleware} (`)).length;
  const guardItself = middleware !== undefined && last.startsWith(`changed ${middleware} (`);
  return { own, middleware, middlewareDepth, guardItself, changed };
}

/**
 * The route's handler is the changed function itself, defined elsewhere (`router.get('/weekly', reports.weeklyReport)`).
 * An inline handler's targets are the functions it calls, so a change to one of them is code the handler calls.
 */
function isHandlerItselfChanged(kg: KnowledgeGraph, route: ImpactedRoute): boolean {
  if (route.steps.length !== 2) return false;
  const changed = /^changed (\S+) \((.+):\d+\)$/.exec(route.steps[1] ?? '');
  if (changed === null) return false;
  const key = `${changed[2]}#${changed[1]}`;
  const node = kg.graph.hasNode(route.id) ? kg.graph.getNodeAttributes(route.id) : undefined;
  if (node?.kind !== 'route') return false;
  return (node.registrations ?? []).some((registration) =>
    registration.chain.some((link) => link.role === 'handler' && link.name !== INLINE_LINK_NAME && link.targets.includes(key)),
  );
}

const MAX_SCOPE_ROUTES = 3;

/** `METHOD path` of the routes whose handler chain the change of `path` reaches (handler-level reach, not imports). */
function getHandlerRoutes(routes: readonly ImpactedRoute[], path: string): string[] {
  return routes.filter((route) => route.chain[0] === path && route.reach === 'handler').map((route) => `${route.method} ${route.path}`);
}

/** The routes a changed decision is served through, or its line when it reaches none. */
function toWhere(routes: readonly string[], path: string, line: number): string {
  if (routes.length === 0) return `${path}:${line}`;
  const shown = routes.slice(0, MAX_SCOPE_ROUTES).join(', ');
  return routes.length > MAX_SCOPE_ROUTES ? `${shown} and ${routes.length - MAX_SCOPE_ROUTES} more` : shown;
}

/**
 * The `if` tests each runtime file of the change removed, read once: for a file, whether another file removed a test
 * (one made there the same way was moved there).
 */
function collectRemovedTests(files: readonly ChangedFileInput[]): (own: ChangedFileInput) => (test: string) => boolean {
  const removed = new Map<ChangedFileInput, Set<string>>();
  const counts = new Map<string, number>();
  for (const file of files) {
    if (file.status === 'added' || (file.changeKind ?? 'runtime') !== 'runtime') continue;
    const tests = new Set(listRemovedTests(file.baseText, file.hunks, getSourceLanguage(file.path) ?? 'javascript'));
    removed.set(file, tests);
    for (const test of tests) counts.set(test, (counts.get(test) ?? 0) + 1);
  }
  return (own) => {
    const mine = removed.get(own);
    return (test) => (counts.get(test) ?? 0) > (mine?.has(test) === true ? 1 : 0);
  };
}

/** The length below which a removed line is too plain to say that a line elsewhere moved (`}`, `return`, `break;`). */
const MIN_MOVED_LINE = 12;

/** A statement that tests, loops or exits: `if (…)`, `} else if (…)`, `while`, `for`, `switch`, `case`, `return`, `throw`. */
const CONTROL_LINE = /^(?:\}\s*)?(?:else\b\s*)?(?:if|while|for|switch|case|return|throw|elif|except)\b/;

/** A line of code as compared across files: trimmed, its spaces collapsed. */
const toComparedLine = (line: string): string => line.trim().replace(/\s+/g, ' ');

/**
 * The code lines the hunks of the change's other runtime files removed: a line one file adds and another removed word
 * for word moved between them (router's `const methods = METHODS.map((method) => method.toLowerCase())` from
 * lib/route.js to index.js), and decides nothing new.
 */
function collectRemovedLines(files: readonly ChangedFileInput[]): (own: ChangedFileInput) => (line: string) => boolean {
  const removed = new Map<ChangedFileInput, Set<string>>();
  for (const file of files) {
    if (file.status === 'added' || file.baseText === undefined || (file.changeKind ?? 'runtime') !== 'runtime') continue;
    const base = file.baseText.split('\n');
    const lines = new Set<string>();
    for (const hunk of file.hunks)
      for (let line = hunk.oldStart; line < hunk.oldStart + hunk.oldLines; line++) {
        const code = toComparedLine(base[line - 1] ?? '');
        // A brace or a bare keyword moves with any block: only a line that says something counts. A test or an exit
        // means what the names it reads mean where it stands (ky's `if (deleted)` in two scopes): isMovedTest decides those.
        if (code.length >= MIN_MOVED_LINE && !CONTROL_LINE.test(code)) lines.add(code);
      }
    removed.set(file, lines);
  }
  return (own) => (line) => {
    const code = toComparedLine(line);
    return [...removed].some(([file, lines]) => file !== own && lines.has(code));
  };
}

/** A guard's opening line as compared across files: its trailing `{` and its spaces dropped. */
const toComparedGuard = (line: string): string => toComparedLine(line).replace(/\s*\{$/, '');

/**
 * The `if` lines the change's other runtime files added: a guard one file removes and another adds moved with its
 * code (uptime-kuma moved the steam monitor out of monitor.js, `if (!steamAPIKey)` and all, into steam.js).
 */
function collectAddedGuards(files: readonly ChangedFileInput[]): (own: ChangedFileInput) => (guard: string) => boolean {
  const added = new Map<ChangedFileInput, Set<string>>();
  for (const file of files) {
    if (file.headText === undefined || (file.changeKind ?? 'runtime') !== 'runtime') continue;
    const head = file.headText.split('\n');
    const lines = new Set<string>();
    for (const hunk of file.hunks)
      for (let line = hunk.newStart; line < hunk.newStart + hunk.newLines; line++) {
        const code = toComparedGuard(head[line - 1] ?? '');
        if (code.length >= MIN_MOVED_LINE && /^(?:if|elif)\b/.test(code)) lines.add(code);
      }
    added.set(file, lines);
  }
  return (own) => (guard) => {
    const code = toComparedGuard(guard);
    return [...added].some(([file, lines]) => file !== own && lines.has(code));
  };
}

/** One `changed-semantic` subject per decision the diff changed in a runtime source file (rules/semantic-hunks.ts). */
function deriveSemanticSubjects(
  file: ChangedFileInput,
  role: string,
  routes: readonly string[],
  removedElsewhere: (test: string) => boolean,
  movedFromElsewhere: (line: string) => boolean = () => false,
  guardAddedElsewhere: (guard: string) => boolean = () => false,
): FactSubject[] {
  if ((file.changeKind ?? 'runtime') !== 'runtime' || role !== 'source') return [];
  const language = getSourceLanguage(file.path) ?? 'javascript';
  // A conditional type (`T extends { … } ? A : B` in a type alias) decides a type, not a value: no input reaches it.
  const isTyped = (line: number): boolean => (file.headTypeSpans ?? []).some((span) => span.start <= line && line <= span.end);
  const head = file.headText?.split('\n') ?? [];
  const changes = findSemanticChanges(file.baseText, file.headText, file.hunks, language, removedElsewhere).filter(
    (change) =>
      !isTyped(change.line) &&
      !(change.before === '' && movedFromElsewhere(head[change.line - 1] ?? '')) &&
      !(change.kind === 'exit' && change.after === '' && guardAddedElsewhere(change.before)),
  );
  return changes.map((change) => ({
    subject: 'changed-semantic',
    id: `semantic:${file.path}:${change.line}:${change.kind}`,
    facts: {
      path: file.path,
      line: change.line,
      semanticKind: change.kind,
      before: change.before,
      after: change.after,
      edit:
        change.before === ''
          ? `new line: ${change.after}`
          : change.after === ''
            ? `removed line: ${change.before}`
            : `${change.before} → ${change.after}`,
      subject: change.subject,
      limit: change.limit,
      values: change.values,
      functionName: (file.headFunctions ?? []).find((fn) => fn.span.start <= change.line && change.line <= fn.span.end)?.name ?? '',
      routes: [...routes],
      where: toWhere(routes, file.path, change.line),
      fileRole: role,
      changeKind: file.changeKind ?? 'runtime',
    },
  }));
}
