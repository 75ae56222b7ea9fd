import { extractFileWords } from '../graph/parse/file-words.js';
import { groundTask } from '../ranking/grounding.js';
import { isTextReason, withReasonLines } from '../ranking/reason-lines.js';
import type { FileText } from '../ranking/text-index.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Env, GitAccess } from '../model/env.js';
import { isCodeFile } from '../model/facts.js';
import type { CandidateFile, Grounding, GroundingWeights } from '../model/grounding.js';
import { toFileId } from '../graph/ids.js';
import { DEFAULT_MAX_FILE_BYTES, type RepositoryGraph } from './build-graph.js';
import { toGroundingWeights } from './grounding-weights.js';
import { loadRulePacks } from './load/load-rule-packs.js';
import { createPathClassTest, mergeClassifiers } from '../rules/classifiers.js';
import { countChurn } from '../graph/history/hotspots.js';
import { collectSubjectWords } from '../graph/history/subject-words.js';
import type { MinedHistory } from '../model/history.js';
import { loadMinedHistory, widenWithCoChange } from './load/history.js';
import { readRepoTexts } from './load/repo-text.js';

/** What each repository's files say, per built graph: a warm server asks again with the same repository. */
const textsByRepository = new WeakMap<RepositoryGraph, Promise<Map<string, FileText>>>();
/** The same texts with the subjects of the commits that changed each file, per texts map and the commit mined from. */
const textsWithHistory = new WeakMap<Map<string, FileText>, { fromOid: string; texts: Map<string, FileText> }>();
/** A commit of more files than this names none of them: its subject is not a word of any (a sweep, a release). */
const MAX_SUBJECT_FILES = 10;

/**
 * What every JS/TS file of the repository says (its words), for task grounding: from its facts, where the parse kept
 * them (the facts cache holds them beside the lists), else read now and split (files a focused run read for their
 * links alone, files whose parse crashed).
 */
export function getFileTexts(env: Env, repository: RepositoryGraph): Promise<Map<string, FileText>> {
  let texts = textsByRepository.get(repository);
  if (texts === undefined) {
    texts = collectFileTexts(env, repository);
    textsByRepository.set(repository, texts);
  }
  return texts;
}

async function collectFileTexts(env: Env, repository: RepositoryGraph): Promise<Map<string, FileText>> {
  const texts = new Map<string, FileText>();
  const missing: string[] = [];
  for (const file of repository.scan.files) {
    if (!isCodeFile(file.path)) continue;
    const words = repository.parsed.facts.get(file.path)?.facts.words;
    if (words !== undefined) texts.set(file.path, { words, isProse: false });
    else missing.push(file.path);
  }
  if (missing.length > 0) {
    const read = await readRepoTexts(env, missing, getMaxFileBytes(repository));
    missing.forEach((path, index) => {
      const text = read[index];
      if (text !== undefined) texts.set(path, { words: extractFileWords(text), isProse: false });
    });
  }
  return texts;
}

/**
 * `texts` with, per file, the words of the subjects of the window's commits that changed it (the `history` field of
 * BM25F): the same map when there is no history. Kept per texts map and commit, so that a warm server's index and its
 * looked-up postings are reused.
 */
function withSubjectWords(texts: Map<string, FileText>, history: MinedHistory | undefined): Map<string, FileText> {
  if (history === undefined) return texts;
  const kept = textsWithHistory.get(texts);
  if (kept !== undefined && kept.fromOid === history.fromOid) return kept.texts;
  const subjects = collectSubjectWords(history, (path) => texts.has(path), MAX_SUBJECT_FILES);
  const merged = new Map<string, FileText>();
  for (const [path, text] of texts) {
    const words = subjects.get(path);
    merged.set(path, words === undefined ? text : { ...text, history: words });
  }
  textsWithHistory.set(texts, { fromOid: history.fromOid, texts: merged });
  return merged;
}

function getMaxFileBytes(repository: RepositoryGraph): number {
  return repository.config.config.analysis?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
}

export interface TaskGroundingInput {
  repository: RepositoryGraph;
  git: { access: GitAccess | undefined; head: string | null };
  task: string;
  requirementsTerms: string[];
}

/**
 * The one grounding of a task that preflight and context share: groundTask over the graph, what its files say and how
 * often each changed (HEAD's mined history), widened by the files that usually change with the candidates, each text
 * match given its line.
 */
export async function groundTaskInRepository(env: Env, input: TaskGroundingInput, limitations: Diagnostic[]): Promise<Grounding> {
  const { repository } = input;
  const [packs, texts] = await Promise.all([loadRulePacks(env), getFileTexts(env, repository)]);
  // A repository pack the loader refused (pack/invalid, pack/refused) is a limitation: defaults are never used silently.
  limitations.push(...packs.diagnostics);
  const { weights } = toGroundingWeights(packs.packs);
  const isGenerated = createPathClassTest(mergeClassifiers(packs.packs), 'generated');
  const said = await readGroundingHistory(env, repository, input.git, texts, limitations);
  const ranked = rankTaskFiles(repository, input.task, {
    ...said,
    weights,
    requirementsTerms: input.requirementsTerms,
    isGenerated,
  });
  return addReasonLines(env, repository, ranked);
}

/** What rankTaskFiles ranks with: the weights, the generated-path class, and what the files and the history say. */
export interface TaskRankingInputs {
  weights: GroundingWeights;
  requirementsTerms: string[];
  isGenerated: (path: string) => boolean;
  history: MinedHistory | undefined;
  texts: Map<string, FileText>;
  churn: Map<string, number> | undefined;
}

/**
 * The ranking itself, without the reason lines: groundTask, widened by the files that usually change with the
 * candidates, tests kept apart. bench/tune-grounding.ts tunes on exactly this.
 */
export function rankTaskFiles(repository: RepositoryGraph, task: string, inputs: TaskRankingInputs): Grounding {
  const { history, ...options } = inputs;
  const grounding = groundTask(repository.kg, task, options);
  const widened = widenWithCoChange(history, grounding, (path) => repository.kg.graph.hasNode(toFileId(path)));
  return keepTestsApart(repository, grounding, widened);
}

/**
 * What the mined history of HEAD adds to grounding: per file, how often it changed (`churn`) and the words of the
 * subjects of the commits that changed it (in `texts`). Without history (no git, no commits, disabled), `texts` as given.
 */
export async function readGroundingHistory(
  env: Env,
  repository: RepositoryGraph,
  git: TaskGroundingInput['git'],
  texts: Map<string, FileText>,
  limitations: Diagnostic[],
): Promise<{ history: MinedHistory | undefined; texts: Map<string, FileText>; churn: Map<string, number> | undefined }> {
  const history =
    git.access === undefined || git.head === null
      ? undefined
      : (await loadMinedHistory(env, git.access, git.head, repository.config.config, limitations))?.history;
  return { history, texts: withSubjectWords(texts, history), churn: history === undefined ? undefined : countChurn(history) };
}

/** Test files the history widening added go to the candidate tests, as groundTask's own do (when any source is a candidate). */
function keepTestsApart(repository: RepositoryGraph, grounding: Grounding, widened: Grounding): Grounding {
  if (widened === grounding) return widened;
  const isTest = (path: string): boolean => {
    const id = toFileId(path);
    if (!repository.kg.graph.hasNode(id)) return false;
    const node = repository.kg.graph.getNodeAttributes(id);
    return node.kind === 'file' && node.role === 'test';
  };
  const known = new Set(grounding.candidateFiles.map((candidate) => candidate.path));
  if (!grounding.candidateFiles.some((candidate) => !isTest(candidate.path))) return widened;
  const added = widened.candidateFiles.filter((candidate) => !known.has(candidate.path) && isTest(candidate.path));
  if (added.length === 0) return widened;
  const moved = new Set(added.map((candidate) => candidate.path));
  // A test the task matched itself keeps its own entry; the history adds only tests it did not.
  const listed = new Set(widened.candidateTests.map((candidate) => candidate.path));
  return {
    ...widened,
    candidateFiles: widened.candidateFiles.filter((candidate) => !moved.has(candidate.path)),
    candidateTests: [...widened.candidateTests, ...added.filter((candidate) => !listed.has(candidate.path))].sort(
      (left, right) => right.score - left.score || (left.path < right.path ? -1 : left.path > right.path ? 1 : 0),
    ),
  };
}

/** The line of each text match of the candidates, read from the files (a few, the candidates only). */
async function addReasonLines(env: Env, repository: RepositoryGraph, grounding: Grounding): Promise<Grounding> {
  const paths = [...grounding.candidateFiles, ...grounding.candidateTests]
    .filter((candidate) => candidate.reasons.some(isTextReason))
    .map((candidate) => candidate.path);
  if (paths.length === 0) return grounding;
  const read = await readRepoTexts(env, paths, getMaxFileBytes(repository));
  const texts = new Map(paths.map((path, index) => [path, read[index]]));
  const withLines = (candidate: CandidateFile): CandidateFile => {
    const text = texts.get(candidate.path);
    return text === undefined ? candidate : { ...candidate, reasons: withReasonLines(candidate.reasons, text) };
  };
  return { ...grounding, candidateFiles: grounding.candidateFiles.map(withLines), candidateTests: grounding.candidateTests.map(withLines) };
}
