import { toFileId } from '../graph/ids.js';
import type { GroundingMatch, GroundingWeights, TaskTerm } from '../model/grounding.js';
import type { GroundingIndex } from './grounding-index.js';
import { getNameDocs, getPostings, TEXT_FIELDS, type TextIndex } from './text-index.js';

/** What scoring a term on files needs: the graph's index, what files say (when known), the weights. */
export interface TextScorer {
  index: GroundingIndex;
  text: TextIndex | undefined;
  weights: GroundingWeights;
  /** `surfaceBoost` when the task speaks of the API surface, else 1: how much more a route's words count. */
  routeFactor: number;
  /** Files in the repository: BM25's N. */
  files: number;
}

/** Part of one term's BM25F contribution on one file: what one field added, and the node there that said it most. */
export interface TermHit {
  value: number;
  matchedOn: GroundingMatch;
  evidenceId: string;
}

/** A term's hits by file path (its contribution split over the fields that said it, largest first), and how many files it matched (its document frequency). */
export interface TermScore {
  hits: Map<string, TermHit[]>;
  documentFrequency: number;
}

const TEXT_MATCHES: Record<(typeof TEXT_FIELDS)[number], GroundingMatch> = {
  declaration: 'declaration',
  identifier: 'identifier',
  string: 'string',
  comment: 'comment',
  text: 'text',
  history: 'history',
};

interface FieldFrequency {
  frequency: number;
  best: number;
  evidenceId: string;
}

/** Per file, its weighted term frequency, and per field what that field added and its strongest node. */
interface Accumulated {
  frequency: number;
  fields: Map<GroundingMatch, FieldFrequency>;
}

function accumulate(into: Map<string, Accumulated>, path: string, amount: number, matchedOn: GroundingMatch, evidenceId: string): void {
  if (amount <= 0) return;
  let file = into.get(path);
  if (file === undefined) {
    file = { frequency: 0, fields: new Map() };
    into.set(path, file);
  }
  file.frequency += amount;
  const field = file.fields.get(matchedOn);
  if (field === undefined) file.fields.set(matchedOn, { frequency: amount, best: amount, evidenceId });
  else {
    field.frequency += amount;
    if (amount > field.best || (amount === field.best && evidenceId < field.evidenceId)) {
      field.best = amount;
      field.evidenceId = evidenceId;
    }
  }
}

/** Inverse document frequency (BM25's, never negative): how specific a term found in `documentFrequency` of `files` files is. */
export function getInverseFrequency(documentFrequency: number, files: number): number {
  return Math.log(1 + (files - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * A word's BM25F score on every file that says it: per field (file name, folders, exports, test titles, routes, and
 * what the text says: declared names, identifiers, strings, comments, prose) each occurrence counts the field's
 * strength, text fields normalised by their length; the sum saturates (`saturation`) and is weighted by the term's
 * weight and inverse document frequency.
 */
export function scoreWord(scorer: TextScorer, term: TaskTerm): TermScore {
  const { index, text, weights } = scorer;
  const strength = weights.matchStrength;
  const frequencies = new Map<string, Accumulated>();
  for (const { path, strength: kind } of index.pathTerms.get(term.term) ?? []) {
    accumulate(frequencies, path, strength[kind], 'path', toFileId(path));
  }
  for (const id of index.exportTerms.get(term.term) ?? []) {
    const path = index.exportPaths.get(id);
    if (path !== undefined) accumulate(frequencies, path, strength.export, 'export', id);
  }
  for (const id of index.testTerms.get(term.term) ?? []) {
    const test = index.tests.get(id);
    if (test !== undefined) accumulate(frequencies, test.file, strength.testFile, 'test', id);
  }
  for (const id of index.routeTerms.get(term.term) ?? []) {
    for (const path of index.routeById.get(id)?.files ?? [])
      accumulate(frequencies, path, strength.route * scorer.routeFactor, 'route', id);
  }
  const postings = text === undefined ? undefined : getPostings(text, term.term);
  if (text !== undefined && postings !== undefined) {
    const b = Math.min(1, Math.max(0, weights.lengthNormalisation));
    for (let at = 0; at < postings.length; at += 3) {
      const doc = postings[at] ?? 0;
      const field = postings[at + 1] ?? 0;
      const times = postings[at + 2] ?? 0;
      const path = text.paths[doc];
      const name = TEXT_FIELDS[field];
      if (path === undefined || name === undefined) continue;
      const length = text.lengths[field]?.[doc] ?? 0;
      const average = text.averages[field] ?? 1;
      const normalised = times / (1 - b + (b * length) / average);
      accumulate(frequencies, path, strength[name] * normalised, TEXT_MATCHES[name], toFileId(path));
    }
  }
  return toTermScore(scorer, term, frequencies);
}

/**
 * A name of several words (`verifyToken`, `If-None-Match`) kept whole: the files whose code or strings say it, at the
 * strength of `name`, scored like a word.
 */
export function scoreName(scorer: TextScorer, term: TaskTerm): TermScore {
  const frequencies = new Map<string, Accumulated>();
  const docs = scorer.text === undefined ? undefined : getNameDocs(scorer.text, term.term);
  if (scorer.text !== undefined && docs !== undefined) {
    for (const doc of docs) {
      const path = scorer.text.paths[doc];
      if (path !== undefined) accumulate(frequencies, path, scorer.weights.matchStrength.name, 'identifier', toFileId(path));
    }
  }
  return toTermScore(scorer, term, frequencies);
}

function toTermScore(scorer: TextScorer, term: TaskTerm, frequencies: Map<string, Accumulated>): TermScore {
  const saturation = Math.max(0, scorer.weights.saturation);
  const inverse = getInverseFrequency(frequencies.size, scorer.files);
  const hits = new Map<string, TermHit[]>();
  for (const [path, { frequency, fields }] of frequencies) {
    const value = (term.weight * inverse * frequency * (saturation + 1)) / (saturation + frequency);
    const parts = [...fields].map(([matchedOn, field]) => ({
      value: (value * field.frequency) / frequency,
      matchedOn,
      evidenceId: field.evidenceId,
    }));
    hits.set(
      path,
      parts.sort(
        (left, right) => right.value - left.value || (left.matchedOn < right.matchedOn ? -1 : left.matchedOn > right.matchedOn ? 1 : 0),
      ),
    );
  }
  return { hits, documentFrequency: frequencies.size };
}
