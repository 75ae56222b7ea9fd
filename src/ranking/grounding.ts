import type { KnowledgeGraph } from '../graph/build.js';
import { toFileId } from '../graph/ids.js';
import type { MemoryKind } from '../model/graph.js';
import type {
  CandidateFile,
  CandidateRoute,
  ContextSeed,
  Grounding,
  GroundingConfidence,
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
import { type Credit, type Matcher, matchTerm } from './grounding-match.js';
import { extractTaskTerms, stemWord, TERM_WEIGHTS, termsOfIdentifier } from './terms.js';

export interface GroundTaskOptions {
  /** Match strengths, role factors and boosts: the context-weights pack's `grounding` section (src/app/grounding-weights.ts). */
  weights: GroundingWeights;
  /** Texts from the requirements file (goals, acceptance criteria); their terms weigh `weights.requirementsFactor`. */
  requirementsTerms?: string[];
  /** At most this many candidate files (default 20). */
  maxCandidates?: number;
}

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
  const seen = new Set(terms.map((term) => `${term.kind}\u0000${term.term}`));
  for (const text of requirements) {
    for (const term of extractTaskTerms(text)) {
      const key = `${term.kind}\u0000${term.term}`;
      if (seen.has(key)) continue;
      seen.add(key);
      terms.push({ ...term, weight: term.weight * requirementsFactor, source: 'requirements' });
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
export function groundTask(knowledge: KnowledgeGraph, task: string, options: GroundTaskOptions): Grounding {
  const { weights } = options;
  const index = getGroundingIndex(knowledge);
  const maxCandidates = Math.max(0, Math.floor(options.maxCandidates ?? DEFAULT_MAX_CANDIDATES));
  const terms = demoteRepositoryName(knowledge, collectTerms(task, options.requirementsTerms ?? [], weights.requirementsFactor));
  const domain = terms.filter((term) => !term.generic);
  const generic = terms.filter((term) => term.generic);
  const hasSurfaceWord = generic.some((term) => SURFACE_STEMS.has(term.term));
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
      score: round(sumCredits(credits) * weights.roleFactor[index.fileByPath.get(path)?.role ?? 'other']),
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
