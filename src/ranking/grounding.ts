import type { KnowledgeGraph, GraphStore } from '../graph/build.js';
import { toFileId } from '../graph/ids.js';
import type { MemoryKind } from '../model/graph.js';
import type {
  CandidateFile,
  CandidateRoute,
  ContextSeed,
  Grounding,
  GroundingConfidence,
  GroundingMatch,
  GroundingReason,
  MatchedDecision,
  MatchedMemory,
  MatchedMemoryEntry,
  MatchedOwner,
  TaskTerm,
} from '../model/grounding.js';
import type { FileRole } from '../model/scan.js';
import { clipRedacted } from '../text/clip.js';
import {
  extractTaskTerms,
  normaliseRoutePath,
  splitPathTerms,
  stemWord,
  TERM_WEIGHTS,
  termsOfIdentifier,
  termsOfPath,
  termsOfText,
  toCompact,
} from './terms.js';

export interface GroundTaskOptions {
  /** Texts from the requirements file (goals, acceptance criteria); their terms weigh half. */
  requirementsTerms?: string[];
  /** At most this many candidate files (default 20). */
  maxCandidates?: number;
}

/**
 * How strongly one match ties a file to a term; a file's score is the sum over (term, kind of match) of
 * term weight × the strongest such match, times the factor of the file's role. Words weigh 1, generic
 * words 0.25, exact tokens (paths, routes, identifiers, quoted phrases) 3.
 */
const STRENGTH = {
  fileName: 1,
  folder: 0.6,
  export: 0.8,
  route: 0.9,
  testFile: 0.6,
  testedFile: 0.4,
  decision: 0.5,
  memory: 0.5,
  owner: 0.2,
  package: 0.3,
  exactPath: 4,
  exactPathSuffix: 3,
  exactFolder: 1.5,
  exactRoute: 4,
  exactRouteSuffix: 3,
  exactRouteOtherMethod: 2,
  exactExport: 3,
  exactFileName: 2.5,
  exactHandler: 2,
  exactTest: 2,
  exactTested: 1,
  exactKnowledge: 2,
} as const;

/** Route evidence counts this much more when the task speaks of the API surface (`api`, `endpoint`, `route`…). */
const SURFACE_BOOST = 1.5;
const SURFACE_STEMS = new Set(['api', 'endpoint', 'route', 'http', 'rest', 'request', 'response'].map((word) => stemWord(word)));

const ROLE_FACTOR: Record<FileRole, number> = { source: 1, test: 0.7, config: 0.6, doc: 0.5, manifest: 0.4, other: 0.5 };

const DEFAULT_MAX_CANDIDATES = 20;
const MAX_REASONS = 8;
const REQUIREMENTS_FACTOR = 0.5;

const compareText = (left: string, right: string): number => (left < right ? -1 : left > right ? 1 : 0);
const round = (value: number): number => Math.round(value * 10000) / 10000;

interface FileEntry {
  path: string;
  lower: string;
  lowerNoExtension: string;
  compactBase: string;
  role: FileRole;
}

interface RouteEntry {
  id: string;
  method: string;
  path: string;
  normalised: string;
  file: string;
  files: string[];
  handlerCompact: string | undefined;
}

interface TestEntry {
  id: string;
  file: string;
  lowerTitle: string;
}

interface KnowledgeEntry {
  id: string;
  lowerText: string;
  files: string[];
}

interface GroundingIndex {
  order: number;
  size: number;
  files: FileEntry[];
  fileByPath: Map<string, FileEntry>;
  pathTerms: Map<string, { path: string; strength: number }[]>;
  exportTerms: Map<string, string[]>;
  exportsByCompact: Map<string, string[]>;
  exportPaths: Map<string, string>;
  routes: RouteEntry[];
  routeById: Map<string, RouteEntry>;
  routeTerms: Map<string, string[]>;
  tests: Map<string, TestEntry>;
  testTerms: Map<string, string[]>;
  testedFiles: Map<string, string[]>;
  decisions: Map<string, KnowledgeEntry>;
  decisionTerms: Map<string, string[]>;
  memory: Map<string, KnowledgeEntry>;
  memoryTerms: Map<string, string[]>;
  ownerFiles: Map<string, string[]>;
  ownersByFile: Map<string, string[]>;
  ownerTerms: Map<string, string[]>;
  packageFiles: Map<string, string[]>;
  packageTerms: Map<string, string[]>;
}

const indexCache = new WeakMap<GraphStore, GroundingIndex>();

function addTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function addTerms(map: Map<string, string[]>, terms: Iterable<string>, id: string): void {
  for (const term of new Set(terms)) addTo(map, term, id);
}

function stripExtension(path: string): string {
  return path.replace(/(?:\.[A-Za-z0-9]+)+$/, '');
}

function getIndex(knowledge: KnowledgeGraph): GroundingIndex {
  const graph = knowledge.graph;
  const cached = indexCache.get(graph);
  if (cached !== undefined && cached.order === graph.order && cached.size === graph.size) return cached;
  const index: GroundingIndex = {
    order: graph.order,
    size: graph.size,
    files: [],
    fileByPath: new Map(),
    pathTerms: new Map(),
    exportTerms: new Map(),
    exportsByCompact: new Map(),
    exportPaths: new Map(),
    routes: [],
    routeById: new Map(),
    routeTerms: new Map(),
    tests: new Map(),
    testTerms: new Map(),
    testedFiles: new Map(),
    decisions: new Map(),
    decisionTerms: new Map(),
    memory: new Map(),
    memoryTerms: new Map(),
    ownerFiles: new Map(),
    ownersByFile: new Map(),
    ownerTerms: new Map(),
    packageFiles: new Map(),
    packageTerms: new Map(),
  };
  graph.forEachNode((id, node) => {
    switch (node.kind) {
      case 'file': {
        const lower = node.path.toLowerCase();
        const base = node.path.slice(node.path.lastIndexOf('/') + 1);
        const entry: FileEntry = {
          path: node.path,
          lower,
          lowerNoExtension: stripExtension(lower),
          compactBase: toCompact(stripExtension(base)),
          role: node.role,
        };
        index.files.push(entry);
        index.fileByPath.set(node.path, entry);
        const { fileTerms, folderTerms } = splitPathTerms(node.path);
        for (const term of fileTerms) addTo(index.pathTerms, term, { path: node.path, strength: STRENGTH.fileName });
        for (const term of folderTerms) addTo(index.pathTerms, term, { path: node.path, strength: STRENGTH.folder });
        break;
      }
      case 'export':
        index.exportPaths.set(id, node.path);
        if (node.name === 'default') break;
        addTerms(index.exportTerms, termsOfIdentifier(node.name), id);
        addTo(index.exportsByCompact, toCompact(node.name), id);
        break;
      case 'route': {
        const entry: RouteEntry = {
          id,
          method: node.method,
          path: node.path,
          normalised: normaliseRoutePath(node.path),
          file: node.file,
          files: [],
          handlerCompact: node.handler === undefined ? undefined : toCompact(node.handler.split('.').pop() ?? node.handler),
        };
        index.routes.push(entry);
        index.routeById.set(id, entry);
        addTerms(index.routeTerms, [...termsOfPath(node.path), ...termsOfIdentifier(node.handler ?? '')], id);
        break;
      }
      case 'test': {
        const title = node.titlePath.join(' ');
        index.tests.set(id, { id, file: node.file, lowerTitle: title.toLowerCase() });
        addTerms(index.testTerms, termsOfText(title), id);
        break;
      }
      case 'decision':
        index.decisions.set(id, { id, lowerText: node.title.toLowerCase(), files: [] });
        addTerms(index.decisionTerms, [...termsOfText(node.title), ...node.terms.flatMap((term) => termsOfText(term))], id);
        break;
      case 'memory':
        index.memory.set(id, { id, lowerText: `${node.title ?? ''}\n${node.text}`.toLowerCase(), files: [] });
        addTerms(
          index.memoryTerms,
          [
            ...termsOfText(`${node.title ?? ''}\n${node.text}`),
            ...node.terms.flatMap((term) => termsOfText(term)),
            ...node.paths.flatMap((glob) => termsOfPath(glob.replace(/[*?{}[\]!]+/g, '/'))),
          ],
          id,
        );
        break;
      case 'owner':
        index.ownerFiles.set(id, []);
        addTerms(index.ownerTerms, termsOfText(node.handle), id);
        break;
      case 'package':
        index.packageFiles.set(id, []);
        addTerms(index.packageTerms, termsOfText(node.name), id);
        break;
      default:
        break;
    }
  });
  const routeFiles = new Map<string, Set<string>>();
  const pendingMentions: { source: string; target: string }[] = [];
  graph.forEachEdge((_edge, attributes, source, target, sourceNode, targetNode) => {
    switch (attributes.kind) {
      case 'handles':
        if (targetNode.kind === 'file') {
          const set = routeFiles.get(source) ?? new Set<string>();
          set.add(targetNode.path);
          routeFiles.set(source, set);
        }
        break;
      case 'tests':
        if (sourceNode.kind === 'file' && targetNode.kind === 'file') addTo(index.testedFiles, sourceNode.path, targetNode.path);
        break;
      case 'owns':
        if (targetNode.kind === 'file') {
          index.ownerFiles.get(source)?.push(targetNode.path);
          addTo(index.ownersByFile, targetNode.path, source);
        }
        break;
      case 'belongs':
        if (sourceNode.kind === 'file') index.packageFiles.get(target)?.push(sourceNode.path);
        break;
      case 'mentions':
        pendingMentions.push({ source, target });
        break;
      default:
        break;
    }
  });
  for (const route of index.routes) {
    const files = routeFiles.get(route.id);
    route.files = files !== undefined ? [...files].sort(compareText) : index.fileByPath.has(route.file) ? [route.file] : [];
  }
  for (const { source, target } of pendingMentions) {
    const entry = index.decisions.get(source) ?? index.memory.get(source);
    if (entry === undefined) continue;
    const node = graph.getNodeAttributes(target);
    if (node.kind === 'file') entry.files.push(node.path);
    else if (node.kind === 'export') entry.files.push(node.path);
    else if (node.kind === 'route') entry.files.push(...(index.routeById.get(target)?.files ?? []));
  }
  for (const entry of [...index.decisions.values(), ...index.memory.values()]) entry.files = [...new Set(entry.files)].sort(compareText);
  indexCache.set(graph, index);
  return index;
}

interface Credit {
  term: string;
  matchedOn: GroundingMatch;
  evidenceId: string;
  value: number;
  isDomain: boolean;
  isExact: boolean;
  /** Evidence carried to a file from elsewhere (a test that imports it, a decision or memory entry that mentions it, its owner or package). */
  isSupporting: boolean;
}

interface Matcher {
  index: GroundingIndex;
  fileCredits: Map<string, Map<string, Credit>>;
  routeCredits: Map<string, Map<string, Credit>>;
  decisionHits: Map<string, Set<string>>;
  memoryHits: Map<string, Set<string>>;
  ownerHits: Map<string, Set<string>>;
  hitTerms: Set<string>;
  routeFactor: number;
  /** Generic terms credit only these files and routes. */
  allowedFiles: Set<string> | undefined;
  allowedRoutes: Set<string> | undefined;
}

function addCredit(
  credits: Map<string, Map<string, Credit>>,
  key: string,
  term: TaskTerm,
  matchedOn: GroundingMatch,
  evidenceId: string,
  strength: number,
  isSupporting: boolean,
): void {
  const value = term.weight * strength;
  const byTerm = credits.get(key) ?? new Map<string, Credit>();
  credits.set(key, byTerm);
  const slot = `${term.kind}\u0000${term.term}\u0000${matchedOn}\u0000${isSupporting ? 'supporting' : 'own'}`;
  const known = byTerm.get(slot);
  if (known !== undefined && (known.value > value || (known.value === value && known.evidenceId <= evidenceId))) return;
  byTerm.set(slot, {
    term: term.term,
    matchedOn,
    evidenceId,
    value,
    isDomain: !term.generic,
    isExact: term.kind !== 'word',
    isSupporting,
  });
}

function creditFile(
  matcher: Matcher,
  path: string,
  term: TaskTerm,
  matchedOn: GroundingMatch,
  evidenceId: string,
  strength: number,
  isSupporting = false,
): void {
  if (matcher.allowedFiles !== undefined && !matcher.allowedFiles.has(path)) return;
  const boosted = matchedOn === 'route' ? strength * matcher.routeFactor : strength;
  addCredit(matcher.fileCredits, path, term, matchedOn, evidenceId, boosted, isSupporting);
}

function creditRoute(matcher: Matcher, route: RouteEntry, term: TaskTerm, strength: number): void {
  if (matcher.allowedRoutes === undefined || matcher.allowedRoutes.has(route.id)) {
    addCredit(matcher.routeCredits, route.id, term, 'route', route.id, strength, false);
  }
  for (const path of route.files) creditFile(matcher, path, term, 'route', route.id, strength);
}

function creditTest(matcher: Matcher, test: TestEntry, term: TaskTerm, fileStrength: number, testedStrength: number): void {
  creditFile(matcher, test.file, term, 'test', test.id, fileStrength);
  for (const path of matcher.index.testedFiles.get(test.file) ?? []) creditFile(matcher, path, term, 'test', test.id, testedStrength, true);
}

/** Only domain terms (matched before `allowedFiles` is set) make decisions, memory and owners matched. */
function recordHit(hits: Map<string, Set<string>>, id: string, term: TaskTerm): void {
  const set = hits.get(id) ?? new Set<string>();
  set.add(term.term);
  hits.set(id, set);
}

function creditKnowledge(matcher: Matcher, kind: 'decision' | 'memory', entry: KnowledgeEntry, term: TaskTerm, strength: number): void {
  if (matcher.allowedFiles === undefined) recordHit(kind === 'decision' ? matcher.decisionHits : matcher.memoryHits, entry.id, term);
  for (const path of entry.files) creditFile(matcher, path, term, kind, entry.id, strength, true);
}

function matchWord(matcher: Matcher, term: TaskTerm): boolean {
  const { index } = matcher;
  const key = term.term;
  let hit = false;
  for (const { path, strength } of index.pathTerms.get(key) ?? []) {
    hit = true;
    creditFile(matcher, path, term, 'path', toFileId(path), strength);
  }
  for (const id of index.exportTerms.get(key) ?? []) {
    hit = true;
    const path = index.exportPaths.get(id);
    if (path !== undefined) creditFile(matcher, path, term, 'export', id, STRENGTH.export);
  }
  for (const id of index.routeTerms.get(key) ?? []) {
    const route = index.routeById.get(id);
    if (route === undefined) continue;
    hit = true;
    creditRoute(matcher, route, term, STRENGTH.route);
  }
  for (const id of index.testTerms.get(key) ?? []) {
    const test = index.tests.get(id);
    if (test === undefined) continue;
    hit = true;
    creditTest(matcher, test, term, STRENGTH.testFile, STRENGTH.testedFile);
  }
  for (const id of index.decisionTerms.get(key) ?? []) {
    const entry = index.decisions.get(id);
    if (entry === undefined) continue;
    hit = true;
    creditKnowledge(matcher, 'decision', entry, term, STRENGTH.decision);
  }
  for (const id of index.memoryTerms.get(key) ?? []) {
    const entry = index.memory.get(id);
    if (entry === undefined) continue;
    hit = true;
    creditKnowledge(matcher, 'memory', entry, term, STRENGTH.memory);
  }
  for (const id of index.ownerTerms.get(key) ?? []) {
    hit = true;
    if (matcher.allowedFiles === undefined) recordHit(matcher.ownerHits, id, term);
    for (const path of index.ownerFiles.get(id) ?? []) creditFile(matcher, path, term, 'owner', id, STRENGTH.owner, true);
  }
  for (const id of index.packageTerms.get(key) ?? []) {
    hit = true;
    for (const path of index.packageFiles.get(id) ?? []) creditFile(matcher, path, term, 'package', id, STRENGTH.package, true);
  }
  return hit;
}

function matchRoutePath(matcher: Matcher, term: TaskTerm, normalised: string, method: string | undefined): boolean {
  let hit = false;
  for (const route of matcher.index.routes) {
    const isSame = route.normalised === normalised;
    const isSuffix = !isSame && normalised !== '/' && route.normalised.endsWith(normalised);
    if (!isSame && !isSuffix) continue;
    const isSameMethod = method === undefined || method === route.method;
    const strength =
      isSame && isSameMethod ? STRENGTH.exactRoute : isSameMethod ? STRENGTH.exactRouteSuffix : isSame ? STRENGTH.exactRouteOtherMethod : 0;
    if (strength === 0) continue;
    hit = true;
    creditRoute(matcher, route, term, strength);
  }
  return hit;
}

function matchPath(matcher: Matcher, term: TaskTerm): boolean {
  const token = term.term.replace(/^\/+/, '').toLowerCase();
  let hit = false;
  if (token.length > 0) {
    const folder = token.replace(/\/+$/, '');
    for (const file of matcher.index.files) {
      let strength = 0;
      if (file.lower === token) strength = STRENGTH.exactPath;
      else if (file.lower.endsWith(`/${token}`) || file.lowerNoExtension === token || file.lowerNoExtension.endsWith(`/${token}`)) {
        strength = STRENGTH.exactPathSuffix;
      } else if (file.lower.startsWith(`${folder}/`) || file.lower.includes(`/${folder}/`)) strength = STRENGTH.exactFolder;
      if (strength === 0) continue;
      hit = true;
      creditFile(matcher, file.path, term, 'path', toFileId(file.path), strength);
    }
  }
  if (term.term.startsWith('/')) hit = matchRoutePath(matcher, term, normaliseRoutePath(term.term), undefined) || hit;
  return hit;
}

function matchRoute(matcher: Matcher, term: TaskTerm): boolean {
  const space = term.term.indexOf(' ');
  return matchRoutePath(matcher, term, term.term.slice(space + 1), term.term.slice(0, space).toUpperCase());
}

function matchCompact(matcher: Matcher, term: TaskTerm, compact: string): boolean {
  const { index } = matcher;
  let hit = false;
  for (const id of index.exportsByCompact.get(compact) ?? []) {
    const path = index.exportPaths.get(id);
    if (path === undefined) continue;
    hit = true;
    creditFile(matcher, path, term, 'export', id, STRENGTH.exactExport);
  }
  for (const file of index.files) {
    if (file.compactBase !== compact) continue;
    hit = true;
    creditFile(matcher, file.path, term, 'path', toFileId(file.path), STRENGTH.exactFileName);
  }
  for (const route of index.routes) {
    if (route.handlerCompact !== compact) continue;
    hit = true;
    creditRoute(matcher, route, term, STRENGTH.exactHandler);
  }
  return hit;
}

function matchText(matcher: Matcher, term: TaskTerm, needle: string, withTests: boolean): boolean {
  const { index } = matcher;
  let hit = false;
  if (withTests) {
    for (const test of index.tests.values()) {
      if (!test.lowerTitle.includes(needle)) continue;
      hit = true;
      creditTest(matcher, test, term, STRENGTH.exactTest, STRENGTH.exactTested);
    }
  }
  for (const entry of index.decisions.values()) {
    if (!entry.lowerText.includes(needle)) continue;
    hit = true;
    creditKnowledge(matcher, 'decision', entry, term, STRENGTH.exactKnowledge);
  }
  for (const entry of index.memory.values()) {
    if (!entry.lowerText.includes(needle)) continue;
    hit = true;
    creditKnowledge(matcher, 'memory', entry, term, STRENGTH.exactKnowledge);
  }
  return hit;
}

function matchTerm(matcher: Matcher, term: TaskTerm): boolean {
  switch (term.kind) {
    case 'word':
      return matchWord(matcher, term);
    case 'path':
      return matchPath(matcher, term);
    case 'route':
      return matchRoute(matcher, term);
    case 'identifier': {
      const isCompactHit = matchCompact(matcher, term, term.term);
      return matchText(matcher, term, term.original.toLowerCase(), false) || isCompactHit;
    }
    case 'phrase': {
      const isCompactHit = matchCompact(matcher, term, toCompact(term.term));
      return matchText(matcher, term, term.term, true) || isCompactHit;
    }
  }
}

/**
 * The root package's own name describes the whole repository ("checker" in checker), so in a task it
 * is as generic as "code": it must not make every file that mentions it a candidate.
 */
function demoteRepositoryName(knowledge: KnowledgeGraph, terms: TaskTerm[]): TaskTerm[] {
  const nameTerms = new Set<string>();
  knowledge.graph.forEachNode((_id, attributes) => {
    if (attributes.kind === 'package' && attributes.workspace && attributes.folder === '') {
      for (const term of termsOfIdentifier(attributes.name.replace(/^@[^/]+\//, ''))) nameTerms.add(term);
    }
  });
  if (nameTerms.size === 0) return terms;
  return terms.map((term) =>
    term.kind === 'word' && !term.generic && nameTerms.has(term.term) ? { ...term, generic: true, weight: TERM_WEIGHTS.generic } : term,
  );
}

function collectTerms(task: string, requirements: string[]): TaskTerm[] {
  const terms = extractTaskTerms(task);
  const seen = new Set(terms.map((term) => `${term.kind}\u0000${term.term}`));
  for (const text of requirements) {
    for (const term of extractTaskTerms(text)) {
      const key = `${term.kind}\u0000${term.term}`;
      if (seen.has(key)) continue;
      seen.add(key);
      terms.push({ ...term, weight: term.weight * REQUIREMENTS_FACTOR, source: 'requirements' });
    }
  }
  return terms;
}

function isGrounding(credit: Credit): boolean {
  return credit.isDomain && !credit.isSupporting;
}

function toReasons(credits: Map<string, Credit>): GroundingReason[] {
  return [...credits.values()]
    .sort(
      (left, right) =>
        right.value - left.value ||
        compareText(left.term, right.term) ||
        compareText(left.matchedOn, right.matchedOn) ||
        compareText(left.evidenceId, right.evidenceId),
    )
    .slice(0, MAX_REASONS)
    .map(({ term, matchedOn, evidenceId }) => ({ term, matchedOn, evidenceId }));
}

function sumCredits(credits: Map<string, Credit>): number {
  let total = 0;
  for (const credit of credits.values()) total += credit.value;
  return total;
}

function quoteTask(task: string): string {
  const flat = task.replace(/\s+/g, ' ').replace(/"/g, "'").trim();
  return clipRedacted(flat, 119);
}

function listOriginals(terms: TaskTerm[]): string {
  return [...new Set(terms.map((term) => term.original.toLowerCase()))].join(', ');
}

interface Judgement {
  confidence: GroundingConfidence;
  reason: string;
}

/**
 * Confidence when at least one file is a candidate. `coverage` is the share of domain terms that match
 * anything; the top candidate is `strong` when an exact token (path, route, identifier, quoted phrase)
 * grounds it, `kinds` counts the kinds of evidence behind it, `lead` is its score over the runner-up's.
 * high: every domain term matches and the top is strong, or has two kinds of evidence and leads by 1.25x;
 * medium: half the domain terms match and the top is strong, has two kinds of evidence or leads by 1.5x;
 * low: anything else (evidence spread thin or most terms unmatched).
 */
function judgeConfidence(candidates: { score: number; credits: Map<string, Credit> }[], coverage: number): Judgement {
  const [top, second] = candidates;
  if (top === undefined) return { confidence: 'low', reason: 'no file of the repository matches a domain term of the task' };
  const grounding = [...top.credits.values()].filter(isGrounding);
  const isStrong = grounding.some((credit) => credit.isExact);
  const kinds = new Set(grounding.map((credit) => credit.matchedOn)).size;
  const lead = second === undefined || second.score === 0 ? Number.POSITIVE_INFINITY : top.score / second.score;
  const detail = `${Math.round(coverage * 100)}% of domain terms matched; top candidate has ${kinds} kind(s) of evidence${isStrong ? ' including an exact token' : ''} and leads by ${Number.isFinite(lead) ? `${lead.toFixed(2)}x` : 'all others'}`;
  if (coverage === 1 && (isStrong || (kinds >= 2 && lead >= 1.25))) return { confidence: 'high', reason: detail };
  if (coverage >= 0.5 && (isStrong || kinds >= 2 || lead >= 1.5)) return { confidence: 'medium', reason: detail };
  return { confidence: 'low', reason: detail };
}

function emptyMemory(): MatchedMemory {
  return { invariants: [], architecture: [], regressions: [], notes: [] };
}

const MEMORY_GROUP: Record<MemoryKind, keyof MatchedMemory> = {
  invariant: 'invariants',
  architecture: 'architecture',
  regression: 'regressions',
  note: 'notes',
};

function sortHits(hits: Map<string, Set<string>>): string[] {
  return [...hits.keys()].sort(compareText);
}

/**
 * Grounds a task description in the repository (spec 2.8): the files, routes, decisions, memory entries
 * and owners its terms name, each candidate with the matches behind its score. Only domain terms and exact
 * tokens make a file a candidate; generic words add to candidates other terms found. A task that names
 * nothing of the repository yields low confidence, no candidates and one unresolved question.
 */
export function groundTask(knowledge: KnowledgeGraph, task: string, options: GroundTaskOptions = {}): Grounding {
  const index = getIndex(knowledge);
  const maxCandidates = Math.max(0, Math.floor(options.maxCandidates ?? DEFAULT_MAX_CANDIDATES));
  const terms = demoteRepositoryName(knowledge, collectTerms(task, options.requirementsTerms ?? []));
  const domain = terms.filter((term) => !term.generic);
  const generic = terms.filter((term) => term.generic);
  const hasSurfaceWord = generic.some((term) => SURFACE_STEMS.has(term.term));
  const matcher: Matcher = {
    index,
    fileCredits: new Map(),
    routeCredits: new Map(),
    decisionHits: new Map(),
    memoryHits: new Map(),
    ownerHits: new Map(),
    hitTerms: new Set(),
    routeFactor: hasSurfaceWord ? SURFACE_BOOST : 1,
    allowedFiles: undefined,
    allowedRoutes: undefined,
  };
  for (const term of domain) if (matchTerm(matcher, term)) matcher.hitTerms.add(`${term.kind}\u0000${term.term}`);
  const groundedFiles = [...matcher.fileCredits].filter(([, credits]) => [...credits.values()].some(isGrounding));
  const groundedRoutes = [...matcher.routeCredits].filter(([, credits]) => [...credits.values()].some(isGrounding));
  matcher.allowedFiles = new Set(groundedFiles.map(([path]) => path));
  matcher.allowedRoutes = new Set(groundedRoutes.map(([id]) => id));
  const knowledgeHits = { decisions: matcher.decisionHits, memory: matcher.memoryHits, owners: matcher.ownerHits };
  for (const term of generic) matchTerm(matcher, term);

  const domainTerms = [...new Set(domain.map((term) => term.term))];
  const unmatched = domain.filter((term) => !matcher.hitTerms.has(`${term.kind}\u0000${term.term}`));
  const unmatchedTerms = [...new Set(unmatched.map((term) => term.term))];
  const ranked = groundedFiles
    .map(([path, credits]) => ({
      path,
      credits,
      score: round(sumCredits(credits) * ROLE_FACTOR[index.fileByPath.get(path)?.role ?? 'other']),
    }))
    .sort((left, right) => right.score - left.score || compareText(left.path, right.path));
  const kept = ranked.slice(0, maxCandidates);
  const candidateFiles: CandidateFile[] = kept.map(({ path, credits, score }) => ({
    path,
    id: toFileId(path),
    score,
    reasons: toReasons(credits),
  }));
  const candidateRoutes: CandidateRoute[] = groundedRoutes
    .map(([id, credits]) => ({ route: index.routeById.get(id), credits, score: round(sumCredits(credits)) }))
    .filter((entry): entry is { route: RouteEntry; credits: Map<string, Credit>; score: number } => entry.route !== undefined)
    .sort((left, right) => right.score - left.score || compareText(left.route.id, right.route.id))
    .map(({ route, credits, score }) => ({
      id: route.id,
      method: route.method,
      path: route.path,
      file: route.file,
      score,
      reasons: toReasons(credits),
    }));

  const coverage = domainTerms.length === 0 ? 0 : (domainTerms.length - unmatchedTerms.length) / domainTerms.length;
  if (candidateFiles.length === 0) {
    return {
      terms,
      domainTerms,
      unmatchedTerms,
      candidateFiles: [],
      omittedCandidates: 0,
      candidateRoutes: [],
      ...collectKnowledge(knowledge, index, knowledgeHits, new Set()),
      confidence: 'low',
      confidenceReason:
        domainTerms.length === 0 ? 'the task has only generic words' : 'no file of the repository matches a domain term of the task',
      unresolvedQuestions: [askForScope(task, terms, domain, knowledgeHits)],
    };
  }
  const judgement = judgeConfidence(kept, coverage);
  const questions: string[] = [];
  if (unmatched.length > 0) {
    questions.push(
      `The task's terms ${listOriginals(unmatched)} match nothing in this repository; is that new behaviour, or is it named differently here?`,
    );
  }
  if (judgement.confidence === 'low') {
    const names = kept
      .slice(0, 3)
      .map((candidate) => candidate.path)
      .join(', ');
    questions.push(`The task's evidence is spread across ${ranked.length} file(s) (${names}, …); which of them should change?`);
  }
  return {
    terms,
    domainTerms,
    unmatchedTerms,
    candidateFiles,
    omittedCandidates: ranked.length - kept.length,
    candidateRoutes,
    ...collectKnowledge(knowledge, index, knowledgeHits, new Set(kept.map((candidate) => candidate.path))),
    confidence: judgement.confidence,
    confidenceReason: judgement.reason,
    unresolvedQuestions: questions,
  };
}

function askForScope(
  task: string,
  terms: TaskTerm[],
  domain: TaskTerm[],
  hits: { decisions: Map<string, Set<string>>; memory: Map<string, Set<string>>; owners: Map<string, Set<string>> },
): string {
  const quoted = quoteTask(task);
  if (domain.length === 0) {
    const words = terms.length === 0 ? 'no words' : `only generic words (${listOriginals(terms)})`;
    return `The task ("${quoted}") has ${words}, which name no file, export, route, test, decision or memory entry of this repository; which module or behaviour should change?`;
  }
  const knowledge = [...sortHits(hits.decisions), ...sortHits(hits.memory), ...sortHits(hits.owners)];
  if (knowledge.length > 0) {
    return `The task ("${quoted}") matches ${knowledge.slice(0, 3).join(', ')}${knowledge.length > 3 ? ', …' : ''} but no file of this repository; which files or behaviour should change?`;
  }
  return `No term of the task ("${quoted}") names a file, export, route, test, decision or memory entry of this repository; which module or behaviour should change?`;
}

function collectKnowledge(
  knowledge: KnowledgeGraph,
  index: GroundingIndex,
  hits: { decisions: Map<string, Set<string>>; memory: Map<string, Set<string>>; owners: Map<string, Set<string>> },
  candidates: Set<string>,
): { matchedDecisions: MatchedDecision[]; matchedMemory: MatchedMemory; matchedOwners: MatchedOwner[] } {
  const graph = knowledge.graph;
  const inCandidates = (files: string[]): string[] => files.filter((path) => candidates.has(path));
  const byRelevance = <T extends { id: string; matchedTerms: string[]; mentionedFiles?: string[]; ownedFiles?: string[] }>(
    list: T[],
  ): T[] => list.sort((left, right) => right.matchedTerms.length - left.matchedTerms.length || compareText(left.id, right.id));

  const matchedDecisions: MatchedDecision[] = [];
  for (const entry of index.decisions.values()) {
    const matchedTerms = [...(hits.decisions.get(entry.id) ?? [])].sort(compareText);
    const mentionedFiles = inCandidates(entry.files);
    if (matchedTerms.length === 0 && mentionedFiles.length === 0) continue;
    const node = graph.getNodeAttributes(entry.id);
    if (node.kind !== 'decision') continue;
    matchedDecisions.push({ id: entry.id, path: node.path, title: node.title, matchedTerms, mentionedFiles });
  }
  const matchedMemory = emptyMemory();
  const memoryEntries: MatchedMemoryEntry[] = [];
  for (const entry of index.memory.values()) {
    const matchedTerms = [...(hits.memory.get(entry.id) ?? [])].sort(compareText);
    const mentionedFiles = inCandidates(entry.files);
    if (matchedTerms.length === 0 && mentionedFiles.length === 0) continue;
    const node = graph.getNodeAttributes(entry.id);
    if (node.kind !== 'memory') continue;
    const matched: MatchedMemoryEntry = {
      id: entry.id,
      path: node.path,
      entryId: node.id,
      memoryKind: node.memoryKind,
      text: node.text,
      matchedTerms,
      mentionedFiles,
    };
    if (node.title !== undefined) matched.title = node.title;
    memoryEntries.push(matched);
  }
  for (const entry of byRelevance(memoryEntries)) matchedMemory[MEMORY_GROUP[entry.memoryKind]].push(entry);
  const owners = new Set([...hits.owners.keys()]);
  for (const path of candidates) for (const owner of index.ownersByFile.get(path) ?? []) owners.add(owner);
  const matchedOwners: MatchedOwner[] = [];
  for (const id of owners) {
    const node = graph.getNodeAttributes(id);
    if (node.kind !== 'owner') continue;
    matchedOwners.push({
      id,
      handle: node.handle,
      matchedTerms: [...(hits.owners.get(id) ?? [])].sort(compareText),
      ownedFiles: inCandidates(index.ownerFiles.get(id) ?? []).sort(compareText),
    });
  }
  return { matchedDecisions: byRelevance(matchedDecisions), matchedMemory, matchedOwners: byRelevance(matchedOwners) };
}

/**
 * Seeds for context selection from a grounding: candidate files weighted by score relative to the best,
 * candidate routes at half that, matched decisions and memory entries at a quarter.
 */
export function getGroundingSeeds(grounding: Grounding, limit = 12): ContextSeed[] {
  const top = grounding.candidateFiles[0]?.score ?? 0;
  if (top <= 0) return [];
  const seeds: ContextSeed[] = grounding.candidateFiles.slice(0, limit).map((candidate) => ({
    nodeId: candidate.id,
    weight: round(candidate.score / top),
    reason: `candidate file (${[...new Set(candidate.reasons.map((reason) => `${reason.term} on ${reason.matchedOn}`))].slice(0, 3).join(', ')})`,
  }));
  const routeTop = grounding.candidateRoutes[0]?.score ?? 0;
  for (const route of grounding.candidateRoutes.slice(0, Math.ceil(limit / 2))) {
    seeds.push({ nodeId: route.id, weight: round((0.5 * route.score) / (routeTop || 1)), reason: 'candidate route' });
  }
  const knowledge = [
    ...grounding.matchedDecisions.filter((entry) => entry.matchedTerms.length > 0),
    ...Object.values(grounding.matchedMemory)
      .flat()
      .filter((entry) => entry.matchedTerms.length > 0),
  ];
  for (const entry of knowledge.slice(0, Math.ceil(limit / 2))) {
    seeds.push({ nodeId: entry.id, weight: 0.25, reason: `matches ${entry.matchedTerms.join(', ')}` });
  }
  return seeds;
}
