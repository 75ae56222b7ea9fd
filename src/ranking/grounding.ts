import type { KnowledgeGraph } from '../graph/build.js';
import { toFileId } from '../graph/ids.js';
import type { MemoryKind } from '../model/graph.js';
import type {
  CandidateFile,
  CandidateRoute,
  ContextSeed,
  Grounding,
  GroundingReason,
  GroundingWeights,
  MatchedDecision,
  MatchedMemory,
  MatchedMemoryEntry,
  MatchedOwner,
  TaskTerm,
} from '../model/grounding.js';
import { clipRedacted } from '../text/clip.js';
import { compareText } from '../text/compare-text.js';
import { getGroundingIndex, type GroundingIndex, type RouteEntry } from './grounding-index.js';
import { coverageOf, isGrounding, judgeConfidence, type RankedFile, toCoverage, toTermKey } from './grounding-judgement.js';
import { type Credit, creditFileValue, type Matcher, matchTerm } from './grounding-match.js';
import { getFileFactor, lendImportNeighbours, lendTestEvidence, rankBelowImplementations } from './grounding-structure.js';
import { findForeignWords } from './foreign-words.js';
import { createTermNamer, extractTaskTerms, stemWord, TERM_WEIGHTS, termsOfIdentifier, toStem } from './terms.js';
import { type FileText, getSaidStems, getTextIndex } from './text-index.js';
import { getInverseFrequency, scoreName, scoreWord, type TextScorer } from './text-score.js';
import { countOf } from '../text/plural.js';

export interface GroundTaskOptions {
  /** Match strengths, role factors and boosts: the context-weights pack's `grounding` section (src/app/grounding-weights.ts). */
  weights: GroundingWeights;
  /** Texts from the requirements file (goals, acceptance criteria); their terms weigh `weights.requirementsFactor`. */
  requirementsTerms?: string[];
  /** At most this many candidate files (default 20). */
  maxCandidates?: number;
  /**
   * What each file says (its words, src/graph/parse/file-words.ts), by path: task words are scored against it as
   * well as against paths, exports, tests and routes. Without it, only those count.
   */
  texts?: ReadonlyMap<string, FileText>;
  /** Generated, vendored or built output (the classifiers packs' `generated` path class): it ranks below the code it comes from. */
  isGenerated?: (path: string) => boolean;
  /** Per file, how many commits of the mined history window changed it (`weights.historyBoost`); without it, none count. */
  churn?: ReadonlyMap<string, number>;
}

/** Words that say the task is about types: declaration files (`.d.ts`) are then not demoted. */
const TYPE_STEMS = new Set(
  ['type', 'types', 'typing', 'typings', 'typescript', 'definition', 'definitions', 'dts'].map((word) => stemWord(word)),
);

/** Words that make route evidence count `surfaceBoost` times more: the task speaks of the API surface. */
const SURFACE_STEMS = new Set(['api', 'endpoint', 'route', 'http', 'rest', 'request', 'response'].map((word) => stemWord(word)));

const DEFAULT_MAX_CANDIDATES = 20;
const MAX_REASONS = 8;

const round = (value: number): number => Math.round(value * 10000) / 10000;

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

function collectTerms(task: string, requirements: string[], requirementsFactor: number): TaskTerm[] {
  const terms = extractTaskTerms(task);
  const seen = new Set(terms.map((term) => toTermKey(term)));
  for (const text of requirements) {
    for (const term of extractTaskTerms(text)) {
      const key = toTermKey(term);
      if (seen.has(key)) continue;
      seen.add(key);
      terms.push({ ...term, weight: term.weight * requirementsFactor, source: 'requirements' });
    }
  }
  return terms;
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

/** Scores a word or name on every file that says it (BM25F) and credits them; the term's document frequency. */
function scoreOnFiles(matcher: Matcher, scorer: TextScorer, term: TaskTerm): number | undefined {
  const scored = term.kind === 'word' ? scoreWord(scorer, term) : term.kind === 'identifier' ? scoreName(scorer, term) : undefined;
  if (scored === undefined) return undefined;
  for (const [path, parts] of scored.hits) {
    for (const part of parts) creditFileValue(matcher, path, term, part.matchedOn, part.evidenceId, part.value);
  }
  return scored.documentFrequency;
}

/**
 * Grounds a task description in the repository (spec 2.8): the files, routes, decisions, memory entries and owners
 * its terms name, each candidate with the matches behind its score. Files are scored by BM25F over what they say
 * (path, exports, declared names, identifiers, strings, comments, tests, routes) plus exact tokens and supporting
 * evidence; barrels and tests rank below the code they stand for, and a matching test lends weight to the file it
 * tests. Only domain terms and exact tokens make a file a candidate; generic words add to candidates other terms
 * found. A task that names nothing of the repository, or whose best file matches too little of it (`minCoverage`),
 * yields low confidence, no candidates and one unresolved question.
 */
export function groundTask(knowledge: KnowledgeGraph, task: string, options: GroundTaskOptions): Grounding {
  const { weights } = options;
  const index = getGroundingIndex(knowledge);
  const maxCandidates = Math.max(0, Math.floor(options.maxCandidates ?? DEFAULT_MAX_CANDIDATES));
  const terms = demoteRepositoryName(knowledge, collectTerms(task, options.requirementsTerms ?? [], weights.requirementsFactor));
  const domain = terms.filter((term) => !term.generic);
  const generic = terms.filter((term) => term.generic);
  const hasSurfaceWord = generic.some((term) => SURFACE_STEMS.has(term.term));
  const files = Math.max(1, index.files.length);
  const matcher: Matcher = {
    index,
    weights,
    fileCredits: new Map(),
    routeCredits: new Map(),
    decisionHits: new Map(),
    memoryHits: new Map(),
    ownerHits: new Map(),
    hitTerms: new Set(),
    routeFactor: hasSurfaceWord ? weights.surfaceBoost : 1,
    supportScale: 1,
    allowedFiles: undefined,
    allowedRoutes: undefined,
  };
  const scorer: TextScorer = {
    index,
    text: options.texts === undefined ? undefined : getTextIndex(options.texts),
    weights,
    routeFactor: matcher.routeFactor,
    files,
  };
  const frequencies = new Map<string, number>();
  const matchOne = (term: TaskTerm): boolean => {
    const frequency = scoreOnFiles(matcher, scorer, term);
    if (frequency !== undefined) frequencies.set(toTermKey(term), frequency);
    matcher.supportScale = term.kind === 'word' ? getInverseFrequency(frequency ?? 0, files) : 1;
    return matchTerm(matcher, term) || (frequency ?? 0) > 0;
  };
  for (const term of domain) if (matchOne(term)) matcher.hitTerms.add(toTermKey(term));
  lendTestEvidence(index, weights, matcher.fileCredits, (path, credit, value, isSupporting) =>
    creditFileValue(
      matcher,
      path,
      { term: credit.term, original: credit.term, weight: 1, generic: !credit.isDomain, kind: toTermKind(credit.key), source: 'task' },
      credit.matchedOn,
      credit.evidenceId,
      value,
      isSupporting,
    ),
  );
  const groundedFiles = [...matcher.fileCredits].filter(([, credits]) => [...credits.values()].some(isGrounding));
  const groundedRoutes = [...matcher.routeCredits].filter(([, credits]) => [...credits.values()].some(isGrounding));
  matcher.allowedFiles = new Set(groundedFiles.map(([path]) => path));
  matcher.allowedRoutes = new Set(groundedRoutes.map(([id]) => id));
  const knowledgeHits = { decisions: matcher.decisionHits, memory: matcher.memoryHits, owners: matcher.ownerHits };
  for (const term of generic) matchOne(term);

  const domainTerms = [...new Set(domain.map((term) => term.term))];
  const unmatched = domain.filter((term) => !matcher.hitTerms.has(toTermKey(term)));
  const unmatchedTerms = [...new Set(unmatched.map((term) => term.term))];
  const coverage = toCoverage(domain, frequencies, matcher.hitTerms, files);
  const domainWords = [...new Set(domain.filter((term) => term.kind === 'word').map((term) => toTermKey(term)))];
  const knownShare = domainWords.length === 0 ? 1 : domainWords.filter((key) => matcher.hitTerms.has(key)).length / domainWords.length;
  const scores = new Map<string, number>();
  const kinds = {
    isGenerated: options.isGenerated ?? ((): boolean => false),
    isAboutTypes: terms.some((term) => TYPE_STEMS.has(term.term) || /\.d\.[cm]?ts$/.test(term.term)),
  };
  const churn = options.churn;
  const historyFactor = (path: string): number => 1 + weights.historyBoost * Math.log1p(churn?.get(path) ?? 0);
  for (const [path, credits] of groundedFiles) scores.set(path, sumCredits(credits) * getFileFactor(index, weights, path, kinds));
  lendImportNeighbours(index, weights, scores, matcher.fileCredits);
  // What the task's words and the structure say, before the history weighs files up: the score confidence is
  // calibrated on (its margin), so that a file's churn never makes a weak match look certain.
  const lexical = new Map(scores);
  rankBelowImplementations(index, weights, lexical);
  for (const [path, score] of scores) scores.set(path, score * historyFactor(path));
  rankBelowImplementations(index, weights, scores);
  const ranked: RankedFile[] = groundedFiles
    .map(([path, credits]) => ({
      path,
      credits,
      score: round(scores.get(path) ?? 0),
      lexicalScore: round(lexical.get(path) ?? 0),
      coverage: coverageOf([credits], coverage),
    }))
    .sort((left, right) => right.score - left.score || compareText(left.path, right.path));
  const bestCoverage = ranked.reduce((best, file) => Math.max(best, file.coverage), 0);
  // A task most of whose words this repository never uses is about something else, unless a file names it: its path,
  // exports or declared names cover as much of it (`password verification` and a declared verifyPassword).
  const isNamed = (): boolean => ranked.some((file) => coverageOf([file.credits], coverage, true) >= weights.minCoverage);
  const isMatched = ranked.length > 0 && bestCoverage >= weights.minCoverage && (knownShare >= weights.minKnownShare || isNamed());
  // Tests have their own list, so that they never crowd the code they test out of the candidates; a task only tests
  // match keeps them as its candidates, and so do weights that rate tests above sources.
  const isTest = (file: RankedFile): boolean => index.fileByPath.get(file.path)?.role === 'test';
  const sources = weights.roleFactor.test > weights.roleFactor.source ? [] : ranked.filter((file) => !isTest(file));
  const [primary, secondary] = sources.length > 0 ? [sources, ranked.filter(isTest)] : [ranked, []];
  // A task with words about something else ("knitting" on a web framework) is grounded only when its best files match
  // most of it: what such a task has left to match is usually a verb any code has ("generate").
  const text = scorer.text;
  const foreign =
    !isMatched || text === undefined
      ? []
      : findForeignWords(
          unmatched
            .filter((term) => term.kind === 'word' && term.source === 'task')
            .map((term) => ({ stem: term.term, word: term.original.toLowerCase() })),
          () => getSaidStems(text),
          toStem,
        );
  // Each of the best three files alone: together they can match a word each ("watch", "nest", "pair" in three files
  // of a UI framework for "watch the nest of a pair of storks") where no file is about the task.
  const foreignCoverage =
    foreign.length === 0 ? 1 : Math.max(0, ...primary.slice(0, 3).map((file) => coverageOf([file.credits], coverage)));
  const isAboutElse = foreign.length > 0 && foreignCoverage < weights.minForeignCoverage;
  const isGrounded = isMatched && !isAboutElse;
  const kept = isGrounded ? primary.slice(0, maxCandidates) : [];
  const toCandidate = ({ path, credits, score }: RankedFile): CandidateFile => {
    const candidate: CandidateFile = { path, id: toFileId(path), score, reasons: toReasons(credits) };
    const changes = churn?.get(path) ?? 0;
    if (changes > 0 && weights.historyBoost > 0) candidate.churn = changes;
    return candidate;
  };
  const candidateFiles: CandidateFile[] = kept.map(toCandidate);
  const candidateTests: CandidateFile[] = isGrounded ? secondary.slice(0, maxCandidates).map(toCandidate) : [];
  const candidateRoutes: CandidateRoute[] = !isGrounded
    ? []
    : groundedRoutes
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

  if (candidateFiles.length === 0) {
    return {
      terms,
      domainTerms,
      unmatchedTerms,
      candidateFiles: [],
      omittedCandidates: 0,
      candidateTests: [],
      candidateRoutes: [],
      ...collectKnowledge(knowledge, index, knowledgeHits, new Set()),
      confidence: 'low',
      confidenceReason:
        domainTerms.length === 0
          ? 'the task has only generic words'
          : isAboutElse
            ? `the task is about something else: ${listOriginals(unmatched.filter((term) => foreign.includes(term.term)))} ${foreign.length === 1 ? 'is' : 'are'} said nowhere in this repository and ${foreign.length === 1 ? 'is not a word' : 'are not words'} software uses, and the best of the top three files matches only ${Math.round(foreignCoverage * 100)}% of the task (each term weighted by how specific it is here), below ${Math.round(weights.minForeignCoverage * 100)}%`
            : ranked.length === 0
              ? 'no file of the repository matches a domain term of the task'
              : knownShare < weights.minKnownShare && bestCoverage >= weights.minCoverage
                ? `most of the task is about something else: ${Math.round(knownShare * 100)}% of its domain words are said anywhere in this repository, below ${Math.round(weights.minKnownShare * 100)}%, and no file's path, exports or declared names cover ${Math.round(weights.minCoverage * 100)}% of it`
                : `no file matches enough of the task: the best covers ${Math.round(bestCoverage * 100)}% of its domain terms (weighted by how specific each is here), below ${Math.round(weights.minCoverage * 100)}%`,
      unresolvedQuestions: [askForScope(task, terms, domain, knowledgeHits, ranked.length === 0 ? undefined : { unmatched, ranked })],
    };
  }
  const isTaskMatched = domain.some((term) => term.source !== 'requirements' && matcher.hitTerms.has(toTermKey(term)));
  const judgement = judgeConfidence(kept, coverage, isTaskMatched);
  const questions: string[] = [];
  if (unmatched.length > 0) {
    questions.push(
      `The task's terms ${listOriginals(unmatched)} match nothing in this repository; is that new behaviour, or is it named differently here?`,
    );
  }
  if (judgement.confidence === 'low' && unmatched.length === 0) {
    const names = kept
      .slice(0, 3)
      .map((candidate) => candidate.path)
      .join(', ');
    questions.push(`The task's evidence is spread across ${countOf(primary.length, 'file')} (${names}, …); which of them should change?`);
  }
  return {
    terms,
    domainTerms,
    unmatchedTerms,
    candidateFiles,
    omittedCandidates: primary.length - kept.length,
    candidateTests,
    candidateRoutes,
    ...collectKnowledge(
      knowledge,
      index,
      knowledgeHits,
      new Set([...candidateFiles, ...candidateTests].map((candidate) => candidate.path)),
    ),
    confidence: judgement.confidence,
    confidenceReason: judgement.reason,
    unresolvedQuestions: questions,
  };
}

function toTermKind(key: string): TaskTerm['kind'] {
  const kind = key.slice(0, key.indexOf('\u0000'));
  return kind === 'identifier' || kind === 'path' || kind === 'route' || kind === 'phrase' ? kind : 'word';
}

function askForScope(
  task: string,
  terms: TaskTerm[],
  domain: TaskTerm[],
  hits: { decisions: Map<string, Set<string>>; memory: Map<string, Set<string>>; owners: Map<string, Set<string>> },
  weak: { unmatched: TaskTerm[]; ranked: RankedFile[] } | undefined,
): string {
  const quoted = quoteTask(task);
  if (domain.length === 0) {
    const words = terms.length === 0 ? 'no words' : `only generic words (${listOriginals(terms)})`;
    return `The task ("${quoted}") has ${words}, which name no file, export, route, test, decision or memory entry of this repository; which module or behaviour should change?`;
  }
  if (weak !== undefined) {
    const matched = domain.filter((term) => !weak.unmatched.includes(term));
    const best = weak.ranked
      .slice(0, 3)
      .map((file) => file.path)
      .join(', ');
    return `The task ("${quoted}") matches this repository only thinly: ${matched.length === 0 ? 'none of its terms' : listOriginals(matched)} ${matched.length === 1 ? 'is' : 'are'} said in ${countOf(weak.ranked.length, 'file')} (${best}${weak.ranked.length > 3 ? ', …' : ''})${weak.unmatched.length > 0 ? ` and ${listOriginals(weak.unmatched)} nowhere` : ''}; which module or behaviour should change?`;
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
 * Seeds for context selection from a grounding: candidate files weighted by score relative to the best, candidate
 * tests at half that, candidate routes at half their own best, matched decisions and memory entries at a quarter.
 */
export function getGroundingSeeds(grounding: Grounding, limit = 12): ContextSeed[] {
  const top = grounding.candidateFiles[0]?.score ?? 0;
  if (top <= 0) return [];
  const toWord = createTermNamer(grounding.terms);
  const seeds: ContextSeed[] = grounding.candidateFiles.slice(0, limit).map((candidate) => ({
    nodeId: candidate.id,
    weight: round(candidate.score / top),
    reason: `candidate file (${[...new Set(candidate.reasons.map((reason) => `${toWord(reason.term)} on ${reason.matchedOn}`))].slice(0, 3).join(', ')})`,
  }));
  for (const test of grounding.candidateTests.slice(0, Math.ceil(limit / 2))) {
    seeds.push({ nodeId: test.id, weight: round((0.5 * test.score) / top), reason: 'candidate test' });
  }
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
