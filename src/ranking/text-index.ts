import type { FileWords } from '../model/facts.js';
import { toStem } from './terms.js';

/**
 * The fields of what a file says, in FileWords order, then `text` (every word of a file that is not code), then
 * `history` (the subjects of the commits that changed it).
 */
export const TEXT_FIELDS = ['declaration', 'identifier', 'string', 'comment', 'text', 'history'] as const;

/** What one file says: its words, and whether it is prose (not code: a README, a YAML file), whose words are all `text`. */
export interface FileText {
  words: FileWords;
  isProse: boolean;
  /** The words of the subjects of the mined commits that changed it (src/graph/history/subject-words.ts), when known. */
  history?: string;
}

/**
 * What files say, searched term by term for BM25F (src/ranking/text-score.ts). Nothing is inverted up front: a task
 * has a handful of terms, and each is looked up in every file's sorted word lists (a few tens of milliseconds on
 * 3,000 files), where inverting every word of every file cost 0.3-0.9 s before the first answer.
 */
export interface TextIndex {
  paths: string[];
  /** Per file, its word lists in TEXT_FIELDS order (prose: everything in `text`). */
  fields: string[][];
  /** Per field, each file's length (characters of its word list: BM25's document length), and the average over files that have it. */
  lengths: Float64Array[];
  averages: number[];
  names: string[];
  /** Postings already looked up, by stem: flat triples of file, field (TEXT_FIELDS index) and occurrences. */
  postings: Map<string, number[]>;
}

const WORD_PARTS: readonly (keyof FileWords)[] = ['declared', 'code', 'strings', 'comments'];
const PROSE_FIELD = TEXT_FIELDS.indexOf('text');
const HISTORY_FIELD = TEXT_FIELDS.indexOf('history');
const indexCache = new WeakMap<ReadonlyMap<string, FileText>, TextIndex>();
/** Words already stemmed (null: a stop word or path noise), across lookups: most words recur from file to file. */
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

/** The index of `texts` (by path), made once per map: a warm server asks again with the same map. */
export function getTextIndex(texts: ReadonlyMap<string, FileText>): TextIndex {
  const cached = indexCache.get(texts);
  if (cached !== undefined) return cached;
  const paths = [...texts.keys()];
  const index: TextIndex = {
    paths,
    fields: [],
    lengths: TEXT_FIELDS.map(() => new Float64Array(paths.length)),
    averages: TEXT_FIELDS.map(() => 1),
    names: [],
    postings: new Map(),
  };
  const sums = TEXT_FIELDS.map(() => 0);
  const present = TEXT_FIELDS.map(() => 0);
  paths.forEach((path, doc) => {
    const text = texts.get(path);
    const fields = TEXT_FIELDS.map(() => '');
    if (text !== undefined) {
      WORD_PARTS.forEach((part, partIndex) => {
        const words = text.words[part];
        if (words.length === 0) return;
        const field = text.isProse ? PROSE_FIELD : partIndex;
        fields[field] = fields[field] === '' ? words : `${fields[field]} ${words}`;
      });
      if (text.history !== undefined) fields[HISTORY_FIELD] = text.history;
    }
    fields.forEach((words, field) => {
      const lengths = index.lengths[field];
      if (words.length === 0 || lengths === undefined) return;
      lengths[doc] = words.length;
      sums[field] = (sums[field] ?? 0) + words.length;
      present[field] = (present[field] ?? 0) + 1;
    });
    index.fields.push(fields);
    index.names.push(text?.words.names ?? '');
  });
  index.averages = sums.map((sum, field) => ((present[field] ?? 0) === 0 ? 1 : sum / (present[field] ?? 1)));
  indexCache.set(texts, index);
  return index;
}

/**
 * The letters every word of a stem begins with: the stem, less a final `i` that stands for a `y` (`verifi` for
 * verify, verifies, verification).
 */
function toProbe(stem: string): string {
  return stem.endsWith('i') && stem.length > 2 ? stem.slice(0, -1) : stem;
}

/**
 * The occurrences in one word list of the words whose stem is `stem` (`token*3 tokens` → 4 for `token`): each word
 * that begins with the probe is stemmed (a list is sorted, so they sit together; prose joins several lists).
 */
function countStem(words: string, stem: string, probe: string): number {
  let times = 0;
  let at = words.startsWith(probe) ? 0 : -1;
  let from = 0;
  for (;;) {
    if (at === -1) {
      const next = words.indexOf(` ${probe}`, from);
      if (next === -1) return times;
      at = next + 1;
    }
    let end = at;
    let star = -1;
    while (end < words.length && words.charCodeAt(end) !== 32) {
      if (words.charCodeAt(end) === 42) star = end;
      end++;
    }
    if (getStem(words.slice(at, star === -1 ? end : star)) === stem) times += star === -1 ? 1 : Number(words.slice(star + 1, end)) || 1;
    if (end >= words.length) return times;
    from = end;
    at = -1;
  }
}

/** The files that say `stem`, as flat triples of file, field and occurrences; looked up once per index and stem. */
export function getPostings(index: TextIndex, stem: string): number[] {
  const known = index.postings.get(stem);
  if (known !== undefined) return known;
  const probe = toProbe(stem);
  const postings: number[] = [];
  index.fields.forEach((fields, doc) => {
    fields.forEach((words, field) => {
      if (words.length === 0) return;
      const times = countStem(words, stem, probe);
      if (times > 0) postings.push(doc, field, times);
    });
  });
  index.postings.set(stem, postings);
  return postings;
}

/** The files that say a name of several words kept whole (`verifytoken`). */
export function getNameDocs(index: TextIndex, name: string): number[] {
  const docs: number[] = [];
  index.names.forEach((names, doc) => {
    const at = names.startsWith(`${name} `) || names === name ? 0 : names.indexOf(` ${name}`);
    if (at === -1) return;
    const end = (at === 0 ? 0 : at + 1) + name.length;
    if (end === names.length || names.charCodeAt(end) === 32) docs.push(doc);
  });
  return docs;
}

const saidCache = new WeakMap<TextIndex, ReadonlySet<string>>();

/**
 * Every stem the indexed files say, in any field: made once per index, and only when asked (a task with a word that
 * nothing matched), since it stems every distinct word of the repository.
 */
export function getSaidStems(index: TextIndex): ReadonlySet<string> {
  const cached = saidCache.get(index);
  if (cached !== undefined) return cached;
  const said = new Set<string>();
  for (const fields of index.fields) {
    for (const words of fields) {
      if (words.length === 0) continue;
      for (const entry of words.split(' ')) {
        const star = entry.indexOf('*');
        const stem = getStem(star === -1 ? entry : entry.slice(0, star));
        if (stem !== undefined) said.add(stem);
      }
    }
  }
  saidCache.set(index, said);
  return said;
}
