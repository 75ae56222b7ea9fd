import type { FileWords } from '../../model/facts.js';
import { STOP_WORDS, splitWords } from '../../text/split-words.js';

/** Keywords and built-in type names of JavaScript and TypeScript: words of the language, not of the code. */
const KEYWORDS: ReadonlySet<string> = new Set(
  (
    'abstract any as asserts async await bigint boolean break case catch class const constructor continue debugger declare default ' +
    'delete do else enum export extends false finally for from function get if implements import in infer instanceof interface is ' +
    'keyof let module namespace never new null number object of override package private protected public readonly require return ' +
    'satisfies set static string super switch symbol this throw true try type typeof undefined unique unknown var void while with yield'
  ).split(' '),
);
/** The keywords whose next identifier (after blanks, or the `*` of a generator) is a name the file declares. */
const DECLARERS: ReadonlySet<string> = new Set(['function', 'class', 'interface', 'type', 'enum', 'const', 'let', 'var', 'namespace']);
/** The keywords whose next string (after blanks or a `(`) names a module, not something the code says. */
const SPECIFIER_KEYWORDS: ReadonlySet<string> = new Set(['from', 'import', 'require']);
/** A string written like one name of several words: `If-None-Match`, `verifyToken`, `max_age`. */
export const NAME_LIKE = /^[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+$|^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;
const MAX_FIELD_WORDS = 1024;
const MAX_COUNT = 9;
const MAX_WORD_LENGTH = 32;
export const MAX_NAME_LENGTH = 64;
/** Identifiers already split, across the files of one child: most names recur from file to file. */
const splitCache = new Map<string, string[]>();
const MAX_SPLIT_CACHE = 100_000;

function isKept(word: string): boolean {
  return word.length >= 2 && word.length <= MAX_WORD_LENGTH && !STOP_WORDS.has(word) && !(word.charCodeAt(0) <= 57);
}

function wordsOfIdentifier(identifier: string): string[] {
  let words = splitCache.get(identifier);
  if (words === undefined) {
    if (splitCache.size >= MAX_SPLIT_CACHE) splitCache.clear();
    words = splitWords(identifier);
    splitCache.set(identifier, words);
  }
  return words;
}

export function count(bag: Map<string, number>, key: string, times = 1): void {
  bag.set(key, (bag.get(key) ?? 0) + times);
}

export function countWords(bag: Map<string, number>, text: string): void {
  for (const word of splitWords(text)) if (isKept(word)) count(bag, word);
}

/** Only blanks (and, after a declaring keyword, a generator's `*`; before a specifier, a call's `(`) between two tokens. */
function isBlankBetween(text: string, start: number, end: number, allowed: number): boolean {
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13 && code !== allowed) return false;
  }
  return true;
}

export function toCompactName(text: string): string | undefined {
  const compact = text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return compact.length > MAX_NAME_LENGTH ? undefined : compact;
}

export function encode(bag: Map<string, number>): string {
  let entries = [...bag];
  if (entries.length > MAX_FIELD_WORDS) {
    entries = entries.sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1)).slice(0, MAX_FIELD_WORDS);
  }
  entries.sort((left, right) => (left[0] < right[0] ? -1 : 1));
  return entries.map(([word, times]) => (times > 1 ? `${word}*${Math.min(times, MAX_COUNT)}` : word)).join(' ');
}

/** Where the quoted literal opening at `start` ends (after its closing quote, or its line's or the text's end). */
function findLiteralEnd(text: string, start: number, quote: number): number {
  const isTemplate = quote === 96;
  for (let index = start + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === quote) return index + 1;
    if (code === 92) index++;
    else if (code === 10 && !isTemplate) return index;
  }
  return text.length;
}

function isIdentifierStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === 36;
}

function isIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || (code >= 48 && code <= 57);
}

/**
 * The words of a JavaScript or TypeScript text by where they stand (model FileWords): declared names, other
 * identifiers, strings, comments, and names of several words kept whole. A lexical pass, not a parse: it never throws
 * and reads any text, so a file swc refused still has its words. Numbers, punctuation and a regular expression's body
 * (read as code) give nothing; a `'` inside a regular expression opens a string that ends with its line.
 */
export function extractFileWords(text: string): FileWords {
  const identifiers = new Map<string, number>();
  const declarations = new Map<string, number>();
  const strings = new Map<string, number>();
  const comments = new Map<string, number>();
  const names = new Set<string>();
  let previous = '';
  let previousEnd = 0;
  const length = text.length;
  let index = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (isIdentifierStart(code)) {
      const start = index;
      index++;
      while (index < length && isIdentifierPart(text.charCodeAt(index))) index++;
      const token = text.slice(start, index);
      const isDeclared = DECLARERS.has(previous) && isBlankBetween(text, previousEnd, start, 42);
      previous = token;
      previousEnd = index;
      if (!KEYWORDS.has(token)) count(isDeclared ? declarations : identifiers, token);
    } else if (code === 47 && (text.charCodeAt(index + 1) === 47 || text.charCodeAt(index + 1) === 42)) {
      const isLine = text.charCodeAt(index + 1) === 47;
      const close = isLine ? text.indexOf('\n', index + 2) : text.indexOf('*/', index + 2);
      const end = close === -1 ? length : isLine ? close : close + 2;
      countWords(comments, text.slice(index + 2, end));
      index = end;
    } else if (code === 39 || code === 34 || code === 96) {
      const end = findLiteralEnd(text, index, code);
      if (!(SPECIFIER_KEYWORDS.has(previous) && isBlankBetween(text, previousEnd, index, 40))) {
        const content = text.slice(index + 1, text.charCodeAt(end - 1) === code && end - 1 > index ? end - 1 : end);
        countWords(strings, content);
        if (content.length <= MAX_NAME_LENGTH && NAME_LIKE.test(content)) {
          const compact = toCompactName(content);
          if (compact !== undefined) names.add(compact);
        }
      }
      previous = '';
      previousEnd = end;
      index = end;
    } else if (code >= 48 && code <= 57) {
      index++;
      while (index < length && isIdentifierPart(text.charCodeAt(index))) index++;
    } else {
      index++;
    }
  }
  return {
    declared: encode(toWordBag(declarations, names)),
    code: encode(toWordBag(identifiers, names)),
    strings: encode(strings),
    comments: encode(comments),
    names: encodeNames(names),
  };
}

export function encodeNames(names: Set<string>): string {
  const sorted = [...names].sort();
  return (sorted.length > MAX_FIELD_WORDS ? sorted.slice(0, MAX_FIELD_WORDS) : sorted).join(' ');
}

/** The words of counted identifiers, each identifier of two words or more also kept whole in `names`. */
export function toWordBag(identifiers: Map<string, number>, names: Set<string>): Map<string, number> {
  const bag = new Map<string, number>();
  for (const [identifier, times] of identifiers) {
    const words = wordsOfIdentifier(identifier);
    if (words.length >= 2) {
      const compact = toCompactName(identifier);
      if (compact !== undefined) names.add(compact);
    }
    for (const word of words) if (isKept(word)) count(bag, word, times);
  }
  return bag;
}
