/** A plain Okapi BM25 over a tree's source files: the baseline issue 40 has to beat. */

const K1 = 1.2;
const B = 0.75;

/**
 * Identifier-ish words, lowercased: split on anything not a letter or digit, then on camelCase humps, acronym
 * boundaries (`XMLHttpRequest` → xml, http, request); digits stay with their word (`http2`, `base64`); words of one
 * character are dropped.
 */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const word of text.split(/[^\p{L}\p{N}]+/u)) {
    if (word === '') continue;
    const parts = word
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .split(' ');
    for (const part of parts) if (part.length > 1) tokens.push(part.toLowerCase());
  }
  return tokens;
}

interface IndexedDocument {
  path: string;
  length: number;
  termFrequencies: Map<string, number>;
}

export interface Bm25Index {
  documents: IndexedDocument[];
  documentFrequencies: Map<string, number>;
  averageLength: number;
}

/** Indexes documents whose words are their path's tokens followed by their text's. */
export function buildBm25Index(documents: ReadonlyArray<{ path: string; text: string }>): Bm25Index {
  const indexed: IndexedDocument[] = [];
  const documentFrequencies = new Map<string, number>();
  let totalLength = 0;
  for (const document of documents) {
    const tokens = [...tokenize(document.path), ...tokenize(document.text)];
    const termFrequencies = new Map<string, number>();
    for (const token of tokens) termFrequencies.set(token, (termFrequencies.get(token) ?? 0) + 1);
    for (const term of termFrequencies.keys()) documentFrequencies.set(term, (documentFrequencies.get(term) ?? 0) + 1);
    indexed.push({ path: document.path, length: tokens.length, termFrequencies });
    totalLength += tokens.length;
  }
  return { documents: indexed, documentFrequencies, averageLength: indexed.length === 0 ? 0 : totalLength / indexed.length };
}

/** Paths of the documents sharing at least one word with the query, best BM25 score first (ties by path). */
export function searchBm25(index: Bm25Index, query: string): Array<{ path: string; score: number }> {
  const total = index.documents.length;
  const terms = [...new Set(tokenize(query))].flatMap((term) => {
    const frequency = index.documentFrequencies.get(term);
    return frequency === undefined ? [] : [{ term, idf: Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5)) }];
  });
  const scored: Array<{ path: string; score: number }> = [];
  for (const document of index.documents) {
    let score = 0;
    const norm = K1 * (1 - B + (B * document.length) / (index.averageLength || 1));
    for (const { term, idf } of terms) {
      const frequency = document.termFrequencies.get(term);
      if (frequency !== undefined) score += (idf * frequency * (K1 + 1)) / (frequency + norm);
    }
    if (score > 0) scored.push({ path: document.path, score });
  }
  return scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
