import type { FileWords } from '../model/facts.js';
import { toStem } from './terms.js';

/** The fields of what a file says, in FileWords order, then `text`: every word of a file that is not code. */
export const TEXT_FIELDS = ['declaration', 'identifier', 'string', 'comment', 'text'] as const;

/** What one file says: its words, and whether it is prose (not code: a README, a YAML file), whose words are all `text`. */
export interface FileText {
  words: FileWords;
  isProse: boolean;
}

/** An inverted index of what files say, for BM25F (src/ranking/text-score.ts). */
export interface TextIndex {
  paths: string[];
  docByPath: Map<string, number>;
  /** Per stem, the files that say it: flat triples of file, field (TEXT_FIELDS index) and occurrences. */
  postings: Map<string, number[]>;
  /** Per name of several words kept whole (`verifytoken`), the files that say it. */
  names: Map<string, number[]>;
  /** Per field, each file's number of words in it; and the average over the files that have the field. */
  lengths: Float64Array[];
  averages: number[];
}

const WORD_PARTS: readonly (keyof FileWords)[] = ['declared', 'code', 'strings', 'comments'];
const PROSE_FIELD = TEXT_FIELDS.indexOf('text');
const indexCache = new WeakMap<ReadonlyMap<string, FileText>, TextIndex>();
/** Words already stemmed (null: a stop word or path noise), across indexes: most words recur from repository to repository. */
const stems = new Map<string, string | null>();
const MAX_STEMS = 200_000;

function getStem(word: string): string | undefined {
  const known = stems.get(word);
  if (known !== undefined) return known ?? undefined;
  if (stems.size >= MAX_STEMS) stems.clear();
  const stem = toStem(word);
  stems.set(word, stem ?? null);
  return stem;
}

/** Occurrences per stem of one field of FileWords (`token*3 tokens` → token: 4). */
function countStems(field: string, into: Map<string, number>): number {
  into.clear();
  let total = 0;
  if (field.length === 0) return total;
  for (const entry of field.split(' ')) {
    const star = entry.indexOf('*');
    const word = star === -1 ? entry : entry.slice(0, star);
    const times = star === -1 ? 1 : Number(entry.slice(star + 1)) || 1;
    const stem = getStem(word);
    if (stem === undefined) continue;
    into.set(stem, (into.get(stem) ?? 0) + times);
    total += times;
  }
  return total;
}

function addPosting(index: TextIndex, stem: string, doc: number, field: number, times: number): void {
  const list = index.postings.get(stem);
  if (list === undefined) index.postings.set(stem, [doc, field, times]);
  else list.push(doc, field, times);
}

/** The index of `texts` (by path), built once per map: a warm server asks again with the same map. */
export function getTextIndex(texts: ReadonlyMap<string, FileText>): TextIndex {
  const cached = indexCache.get(texts);
  if (cached !== undefined) return cached;
  const paths = [...texts.keys()];
  const index: TextIndex = {
    paths,
    docByPath: new Map(paths.map((path, doc) => [path, doc])),
    postings: new Map(),
    names: new Map(),
    lengths: TEXT_FIELDS.map(() => new Float64Array(paths.length)),
    averages: TEXT_FIELDS.map(() => 0),
  };
  const counts = new Map<string, number>();
  const sums = TEXT_FIELDS.map(() => 0);
  const present = TEXT_FIELDS.map(() => 0);
  paths.forEach((path, doc) => {
    const text = texts.get(path);
    if (text === undefined) return;
    WORD_PARTS.forEach((part, partIndex) => {
      const field = text.isProse ? PROSE_FIELD : partIndex;
      const total = countStems(text.words[part], counts);
      if (total === 0) return;
      for (const [stem, times] of counts) addPosting(index, stem, doc, field, times);
      const lengths = index.lengths[field];
      if (lengths !== undefined) lengths[doc] = (lengths[doc] ?? 0) + total;
    });
    if (text.words.names.length > 0) {
      for (const name of text.words.names.split(' ')) {
        const list = index.names.get(name);
        if (list === undefined) index.names.set(name, [doc]);
        else list.push(doc);
      }
    }
  });
  index.lengths.forEach((lengths, field) => {
    for (const length of lengths) {
      if (length === 0) continue;
      sums[field] = (sums[field] ?? 0) + length;
      present[field] = (present[field] ?? 0) + 1;
    }
    index.averages[field] = (present[field] ?? 0) === 0 ? 1 : (sums[field] ?? 0) / (present[field] ?? 1);
  });
  indexCache.set(texts, index);
  return index;
}
