import { toFileId } from '../graph/ids.js';
import type { GroundingMatch, GroundingWeights, TaskTerm } from '../model/grounding.js';
import type { GroundingIndex, KnowledgeEntry, RouteEntry, TestEntry } from './grounding-index.js';
import { normaliseRoutePath, toCompact, toTermWord } from './terms.js';

export interface Credit {
  term: string;
  /** The term's kind and key (`word\u0000discount`): which task term this is, whatever the file matched it on. */
  key: string;
  matchedOn: GroundingMatch;
  evidenceId: string;
  value: number;
  isDomain: boolean;
  /** Evidence carried to a file from elsewhere (a test that imports it, a decision or memory entry that mentions it, its owner or package). */
  isSupporting: boolean;
}

export interface Matcher {
  index: GroundingIndex;
  weights: GroundingWeights;
  fileCredits: Map<string, Map<string, Credit>>;
  routeCredits: Map<string, Map<string, Credit>>;
  decisionHits: Map<string, Set<string>>;
  memoryHits: Map<string, Set<string>>;
  ownerHits: Map<string, Set<string>>;
  hitTerms: Set<string>;
  routeFactor: number;
  /** Supporting evidence of the current term counts this much: the term's inverse document frequency, for words. */
  supportScale: number;
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
  setCredit(credits, key, term, matchedOn, evidenceId, term.weight * strength, isSupporting);
}

function setCredit(
  credits: Map<string, Map<string, Credit>>,
  key: string,
  term: TaskTerm,
  matchedOn: GroundingMatch,
  evidenceId: string,
  value: number,
  isSupporting: boolean,
): void {
  const byTerm = credits.get(key) ?? new Map<string, Credit>();
  credits.set(key, byTerm);
  const slot = `${term.kind}\u0000${term.term}\u0000${matchedOn}\u0000${isSupporting ? 'supporting' : 'own'}`;
  const known = byTerm.get(slot);
  if (known !== undefined && (known.value > value || (known.value === value && known.evidenceId <= evidenceId))) return;
  byTerm.set(slot, {
    term: term.term,
    key: `${term.kind}\u0000${term.term}`,
    matchedOn,
    evidenceId,
    value,
    isDomain: !term.generic,
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
  addCredit(matcher.fileCredits, path, term, matchedOn, evidenceId, isSupporting ? boosted * matcher.supportScale : boosted, isSupporting);
}

/** Credits a file with a value already computed (a term's BM25F score, a test's lent evidence); generic terms only allowed files. */
export function creditFileValue(
  matcher: Matcher,
  path: string,
  term: TaskTerm,
  matchedOn: GroundingMatch,
  evidenceId: string,
  value: number,
  isSupporting = false,
): void {
  if (matcher.allowedFiles !== undefined && !matcher.allowedFiles.has(path)) return;
  setCredit(matcher.fileCredits, path, term, matchedOn, evidenceId, value, isSupporting);
}

/** `withFiles` false: the route alone (a word's credit to the handler files is its BM25F score, src/ranking/text-score.ts). */
function creditRoute(matcher: Matcher, route: RouteEntry, term: TaskTerm, strength: number, withFiles = true): void {
  if (matcher.allowedRoutes === undefined || matcher.allowedRoutes.has(route.id)) {
    addCredit(matcher.routeCredits, route.id, term, 'route', route.id, strength, false);
  }
  if (withFiles) for (const path of route.files) creditFile(matcher, path, term, 'route', route.id, strength);
}

function creditTest(matcher: Matcher, test: TestEntry, term: TaskTerm, fileStrength: number, testedStrength: number): void {
  creditFile(matcher, test.file, term, 'test', test.id, fileStrength);
  for (const path of matcher.index.testedFiles.get(test.file) ?? []) creditFile(matcher, path, term, 'test', test.id, testedStrength, true);
}

/** Only domain terms (matched before `allowedFiles` is set) make decisions, memory and owners matched. */
function recordHit(hits: Map<string, Set<string>>, id: string, term: TaskTerm): void {
  const set = hits.get(id) ?? new Set<string>();
  set.add(toTermWord(term));
  hits.set(id, set);
}

function creditKnowledge(matcher: Matcher, kind: 'decision' | 'memory', entry: KnowledgeEntry, term: TaskTerm, strength: number): void {
  if (matcher.allowedFiles === undefined) recordHit(kind === 'decision' ? matcher.decisionHits : matcher.memoryHits, entry.id, term);
  for (const path of entry.files) creditFile(matcher, path, term, kind, entry.id, strength, true);
}

/**
 * A word's evidence beside its BM25F score on files (src/ranking/text-score.ts): the routes it names, the decisions,
 * memory entries, owners and packages it matches, and what those lend to the files they name.
 */
function matchWord(matcher: Matcher, term: TaskTerm): boolean {
  const { index } = matcher;
  const key = term.term;
  let hit = false;
  for (const id of index.routeTerms.get(key) ?? []) {
    const route = index.routeById.get(id);
    if (route === undefined) continue;
    hit = true;
    creditRoute(matcher, route, term, matcher.weights.matchStrength.route, false);
  }
  for (const id of index.decisionTerms.get(key) ?? []) {
    const entry = index.decisions.get(id);
    if (entry === undefined) continue;
    hit = true;
    creditKnowledge(matcher, 'decision', entry, term, matcher.weights.matchStrength.decision);
  }
  for (const id of index.memoryTerms.get(key) ?? []) {
    const entry = index.memory.get(id);
    if (entry === undefined) continue;
    hit = true;
    creditKnowledge(matcher, 'memory', entry, term, matcher.weights.matchStrength.memory);
  }
  for (const id of index.ownerTerms.get(key) ?? []) {
    hit = true;
    if (matcher.allowedFiles === undefined) recordHit(matcher.ownerHits, id, term);
    for (const path of index.ownerFiles.get(id) ?? [])
      creditFile(matcher, path, term, 'owner', id, matcher.weights.matchStrength.owner, true);
  }
  for (const id of index.packageTerms.get(key) ?? []) {
    hit = true;
    for (const path of index.packageFiles.get(id) ?? [])
      creditFile(matcher, path, term, 'package', id, matcher.weights.matchStrength.package, true);
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
      isSame && isSameMethod
        ? matcher.weights.matchStrength.exactRoute
        : isSameMethod
          ? matcher.weights.matchStrength.exactRouteSuffix
          : isSame
            ? matcher.weights.matchStrength.exactRouteOtherMethod
            : 0;
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
      if (file.lower === token) strength = matcher.weights.matchStrength.exactPath;
      else if (file.lower.endsWith(`/${token}`) || file.lowerNoExtension === token || file.lowerNoExtension.endsWith(`/${token}`)) {
        strength = matcher.weights.matchStrength.exactPathSuffix;
      } else if (file.lower.startsWith(`${folder}/`) || file.lower.includes(`/${folder}/`))
        strength = matcher.weights.matchStrength.exactFolder;
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
    creditFile(matcher, path, term, 'export', id, matcher.weights.matchStrength.exactExport);
  }
  for (const file of index.files) {
    if (file.compactBase !== compact) continue;
    hit = true;
    creditFile(matcher, file.path, term, 'path', toFileId(file.path), matcher.weights.matchStrength.exactFileName);
  }
  for (const route of index.routes) {
    if (route.handlerCompact !== compact) continue;
    hit = true;
    creditRoute(matcher, route, term, matcher.weights.matchStrength.exactHandler);
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
      creditTest(matcher, test, term, matcher.weights.matchStrength.exactTest, matcher.weights.matchStrength.exactTested);
    }
  }
  for (const entry of index.decisions.values()) {
    if (!entry.lowerText.includes(needle)) continue;
    hit = true;
    creditKnowledge(matcher, 'decision', entry, term, matcher.weights.matchStrength.exactKnowledge);
  }
  for (const entry of index.memory.values()) {
    if (!entry.lowerText.includes(needle)) continue;
    hit = true;
    creditKnowledge(matcher, 'memory', entry, term, matcher.weights.matchStrength.exactKnowledge);
  }
  return hit;
}

/** Credits every file, route and knowledge entry the term matches; true when it matched anything. */
export function matchTerm(matcher: Matcher, term: TaskTerm): boolean {
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
