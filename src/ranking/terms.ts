import type { TaskTerm, TaskTermKind } from '../model/grounding.js';
import { STOP_WORDS, splitWords } from '../text/split-words.js';

export { splitWords };

/** Structural path noise: source folders and file extensions. */
const PATH_NOISE = new Set(
  'src lib dist ts tsx js jsx mjs cjs mts cts json jsonc yaml yml md mdx txt html css scss less vue svelte d'.split(' '),
);

/**
 * Generic words (spec 2.8 rule 1): they name no part of a repository on their own, so they only add to
 * files that domain terms already ground. Listed as words; compared by stem.
 */
const GENERIC_WORDS: readonly string[] = [
  // change verbs and their outcomes
  'fix',
  'fixing',
  'bug',
  'bugfix',
  'issue',
  'improve',
  'improvement',
  'update',
  'change',
  'add',
  'adding',
  'remove',
  'removing',
  'delete',
  'create',
  'make',
  'making',
  'handle',
  'handling',
  'support',
  'implement',
  'implementation',
  'refactor',
  'refactoring',
  'clean',
  'cleanup',
  'rewrite',
  'rename',
  'move',
  'replace',
  'modify',
  'adjust',
  'tweak',
  'ensure',
  'allow',
  'enable',
  'disable',
  'use',
  'get',
  'getting',
  'set',
  'apply',
  'run',
  'running',
  'call',
  'check',
  'load',
  'save',
  'fetch',
  'list',
  'show',
  'display',
  'return',
  'work',
  'working',
  'broken',
  'break',
  'fail',
  'failure',
  'crash',
  'wrong',
  'correct',
  'correctly',
  'properly',
  'missing',
  'invalid',
  'valid',
  'better',
  'faster',
  'slow',
  'minor',
  'small',
  'quick',
  'simple',
  // what code is made of
  'api',
  'endpoint',
  'route',
  'page',
  'component',
  'view',
  'screen',
  'ui',
  'frontend',
  'backend',
  'server',
  'http',
  'rest',
  'request',
  'response',
  'controller',
  'handler',
  'model',
  'util',
  'utils',
  'utility',
  'helper',
  'helpers',
  'logic',
  'layer',
  'code',
  'codebase',
  'repo',
  'repository',
  'project',
  'file',
  'folder',
  'directory',
  'function',
  'method',
  'class',
  'module',
  'package',
  'service',
  'app',
  'application',
  'system',
  'feature',
  'error',
  'errors',
  'exception',
  'problem',
  'test',
  'testing',
  'spec',
  'unit',
  'integration',
  'e2e',
  'data',
  'value',
  'result',
  'field',
  'param',
  'parameter',
  'argument',
  'option',
  'type',
  'string',
  'number',
  'object',
  'array',
  'id',
  'index',
  'main',
  'doc',
  'docs',
  'readme',
  'comment',
  // filler nouns
  'thing',
  'stuff',
  'way',
  'case',
  'behavior',
  'behaviour',
  'flow',
  'part',
  'step',
  'area',
  'section',
  'new',
  'old',
  'current',
];

const IRREGULAR = new Map<string, string>([
  ['paid', 'pay'],
  ['children', 'child'],
  ['indices', 'index'],
  ['analyses', 'analysis'],
  ['statuses', 'status'],
  ['aliases', 'alias'],
  ['buses', 'bus'],
  ['people', 'person'],
]);

const UNSTEMMED = new Set(
  (
    'status alias canvas atlas bias news series species analysis basis axis corpus bonus focus virus campus radius nexus plus minus ' +
    'https redis kubernetes postgres embed always perhaps data'
  ).split(' '),
);

/**
 * A light, deterministic stemmer applied to both sides of every match: plurals (`-s`, `-es`, `-ies`), nouns made
 * from verbs (`-ification`, `-ization`, `-tion`), `-ing` (when at least four letters remain), `-ed`, a doubled final
 * consonant after those, then `-y`→`i` and a final `-e` dropped, so `price`, `prices`, `pricing` and `priced` share
 * the key `pric`, and `validation` and `validate` the key `validat`.
 */
export function stemWord(word: string): string {
  if (word.length <= 3 || /^\d+$/.test(word)) return word;
  const irregular = IRREGULAR.get(word);
  if (irregular !== undefined) return irregular;
  if (UNSTEMMED.has(word)) return word;
  let stem = word;
  if (stem.endsWith('sses')) stem = stem.slice(0, -2);
  else if (stem.endsWith('ies') && stem.length >= 5) stem = `${stem.slice(0, -3)}i`;
  else if (/(?:x|ch|sh|zz)es$/.test(stem)) stem = stem.slice(0, -2);
  else if (/[tnr]uses$/.test(stem)) stem = stem.slice(0, -2);
  else if (stem.endsWith('s') && !/(?:ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);
  stem = stripNounEnding(stem);
  stem = stripVerbEnding(stem);
  if (/[^aeiouy]y$/.test(stem) && stem.length >= 4) stem = `${stem.slice(0, -1)}i`;
  if (stem.endsWith('e') && !stem.endsWith('ee') && stem.length >= 4) stem = stem.slice(0, -1);
  return stem;
}

/**
 * Nouns made from verbs meet their verbs: `-ification` → `-ifi` (verification, verify), `-ization`/`-isation` →
 * `-iz`/`-is` (serialization, serialize), and `-tion` → `-t` when five letters remain (validation, validate;
 * connection, connect): task words name the change, code names the function.
 */
function stripNounEnding(word: string): string {
  if (word.endsWith('ification')) return `${word.slice(0, -9)}ifi`;
  if (/[iy][sz]ation$/.test(word)) return word.slice(0, -5);
  if (word.endsWith('tion') && word.length - 3 >= 5) return word.slice(0, -3);
  return word;
}

function stripVerbEnding(word: string): string {
  let stem: string | undefined;
  if (word.endsWith('ied') && word.length >= 5) return `${word.slice(0, -3)}i`;
  if (word.endsWith('ing')) {
    const base = word.slice(0, -3);
    if (base.length >= 4 && /[aeiouy]/.test(base)) stem = base;
  } else if (word.endsWith('ed') && !word.endsWith('eed')) {
    const base = word.slice(0, -2);
    if (base.length >= 3 && /[aeiouy]/.test(base)) stem = base;
  }
  if (stem === undefined) return word;
  // `added` → add, not ad: a doubled consonant stays when undoubling would leave fewer than three letters.
  const undoubled = /([^aeiouylsz])\1$/.test(stem) && stem.length > 3 ? stem.slice(0, -1) : stem;
  return word.endsWith('ing') && undoubled.length < 4 ? word : undoubled;
}

const GENERIC_STEMS = new Set(GENERIC_WORDS.map((word) => stemWord(word)));

/** Whether a stem (as returned by `stemWord`) is generic; numbers are generic too. */
export function isGenericTerm(stem: string): boolean {
  return GENERIC_STEMS.has(stem) || /^\d+$/.test(stem);
}

/** The stems of a text's words, stop words and path noise left out, in order and unique. */
export function termsOfText(text: string): string[] {
  const seen = new Set<string>();
  for (const word of splitWords(text)) {
    const stem = toStem(word);
    if (stem !== undefined) seen.add(stem);
  }
  return [...seen];
}

/** The stem of one lower-case word, or undefined for a stop word, path noise or a word of one letter. */
export function toStem(word: string): string | undefined {
  if (word.length < 2 || STOP_WORDS.has(word) || PATH_NOISE.has(word)) return undefined;
  return stemWord(word);
}

/** The stems of an export, handler or package name (`applyDiscountCode` → `apply`→`appli`, `discount`, `cod`). */
export function termsOfIdentifier(name: string): string[] {
  return termsOfText(name);
}

/** Terms of a path's file name (without extensions) and of its folders. */
export function splitPathTerms(path: string): { fileTerms: string[]; folderTerms: string[] } {
  const segments = path.split('/').filter((segment) => segment.length > 0);
  const base = segments.pop() ?? '';
  const fileTerms = termsOfText(base);
  const folderTerms = termsOfText(segments.join(' ')).filter((term) => !fileTerms.includes(term));
  return { fileTerms, folderTerms };
}

/** All terms of a repository path (`src/pricing/discount-rules.ts` → `pricing`→`pric`, `discount`, `rul`). */
export function termsOfPath(path: string): string[] {
  const { fileTerms, folderTerms } = splitPathTerms(path);
  return [...fileTerms, ...folderTerms];
}

/** Lower-cased letters and digits only: `PaymentProvider`, `payment-provider` and `payment_provider` agree. */
export function toCompact(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const HTTP_METHODS = 'GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS';
const FILE_EXTENSION =
  /\.(?:[cm]?[jt]sx?|json|jsonc|ya?ml|md|mdx|css|scss|less|html|vue|svelte|astro|graphql|gql|sql|prisma|toml|env|sh|py|go|rs|java|rb)$/i;
const TOKEN_PATTERN = new RegExp(
  [
    `\\b(${HTTP_METHODS})\\s+(\\/[^\\s,;"'\`)]*)`,
    '"([^"\\n]+)"',
    '\u201c([^\u201d\\n]+)\u201d',
    '`([^`\\n]+)`',
    "(?<![\\w])'([^'\\n]+)'(?![\\w])",
    '(\\S+)',
  ].join('|'),
  'g',
);

/** Longer task texts are cut, and only the first terms count: each exact token scans every file once. */
const MAX_TASK_CHARS = 20_000;
const MAX_TERMS = 64;
const EXACT_WEIGHT = 3;
const WORD_WEIGHT = 1;
const GENERIC_WEIGHT = 0.25;

export const TERM_WEIGHTS = { exact: EXACT_WEIGHT, word: WORD_WEIGHT, generic: GENERIC_WEIGHT } as const;

/** Normalises URL path parameters (`:id`, `{id}`, `[id]`, `[...slug]`) to `:param` and drops a trailing slash. */
export function normaliseRoutePath(path: string): string {
  const normalised = path
    .toLowerCase()
    .replace(/\{[^}/]*\}|\[\[?\.{0,3}[^\]/]*\]\]?|:[A-Za-z_$][\w$]*\??/g, ':param')
    .replace(/\/{2,}/g, '/')
    .replace(/(.)\/$/, '$1');
  return normalised.startsWith('/') ? normalised : `/${normalised}`;
}

interface TermSink {
  terms: TaskTerm[];
  seen: Set<string>;
}

function push(sink: TermSink, kind: TaskTermKind, term: string, original: string, generic: boolean): void {
  const key = `${kind}\u0000${term}`;
  if (term.length === 0 || sink.seen.has(key)) return;
  sink.seen.add(key);
  const weight = kind === 'word' ? (generic ? GENERIC_WEIGHT : WORD_WEIGHT) : EXACT_WEIGHT;
  sink.terms.push({ term, original, weight, generic, kind, source: 'task' });
}

function pushWords(sink: TermSink, text: string): void {
  const withoutContractions = text.replace(/n['\u2019]t\b/gi, '').replace(/['\u2019](?:s|re|ve|ll|d|m)\b/gi, '');
  for (const word of splitWords(withoutContractions)) {
    const stem = toStem(word);
    if (stem === undefined) continue;
    if (/^\d+$/.test(stem) && stem.length < 2) continue;
    push(sink, 'word', stem, word, isGenericTerm(stem));
  }
}

const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{', '>': '<' };

function countOf(text: string, character: string): number {
  return text.split(character).length - 1;
}

/** Strips surrounding quotes and punctuation, and closing brackets the token does not open. */
function trimToken(token: string): string {
  let trimmed = token.replace(/^[([{<"'`\u201c\u2018]+/, '');
  for (;;) {
    if (trimmed.endsWith('()')) {
      trimmed = trimmed.slice(0, -2);
      continue;
    }
    const last = trimmed.at(-1);
    if (last === undefined) return trimmed;
    const opener = CLOSERS[last];
    const isUnbalanced = opener !== undefined && countOf(trimmed, opener) < countOf(trimmed, last);
    if (!isUnbalanced && !/["'`\u201d\u2019,;!?.:(]/.test(last)) return trimmed;
    trimmed = trimmed.slice(0, -1);
  }
}

function isPathToken(token: string): boolean {
  if (FILE_EXTENSION.test(token) && /[A-Za-z]/.test(token.replace(FILE_EXTENSION, ''))) return true;
  if (!token.includes('/') || /^[a-z][a-z0-9+.-]*:\/\//i.test(token)) return false;
  const words = splitWords(token);
  return words.some((word) => !STOP_WORDS.has(word) && /[a-z]/.test(word));
}

function isIdentifierToken(token: string): boolean {
  if (!/^[A-Za-z_$][\w$-]*$/.test(token)) return false;
  const parts = splitWords(token);
  return parts.length >= 2 && /[a-z][A-Z]|[A-Za-z0-9][_-][A-Za-z]/.test(token);
}

function pushChunk(sink: TermSink, raw: string, quoted: boolean): void {
  const token = trimToken(raw);
  if (token.length === 0) return;
  const route = new RegExp(`^(${HTTP_METHODS})\\s+(\\/\\S*)$`).exec(token);
  if (route !== null) {
    push(sink, 'route', `${route[1] ?? ''} ${normaliseRoutePath(route[2] ?? '/')}`, token, false);
    pushWords(sink, route[2] ?? '');
    return;
  }
  if (/\s/.test(token)) {
    const phrase = token.toLowerCase().replace(/\s+/g, ' ');
    const words = splitWords(phrase).filter((word) => !STOP_WORDS.has(word));
    if (quoted && words.some((word) => !isGenericTerm(stemWord(word)))) push(sink, 'phrase', phrase, token, false);
    for (const part of token.split(/\s+/)) pushChunk(sink, part, false);
    return;
  }
  if (isPathToken(token)) {
    const path = token.replace(/^\.\//, '');
    push(sink, 'path', path.startsWith('/') && !FILE_EXTENSION.test(path) ? normaliseRoutePath(path) : path.toLowerCase(), token, false);
  } else if (isIdentifierToken(token)) {
    push(sink, 'identifier', toCompact(token), token, false);
  }
  pushWords(sink, token);
}

/**
 * Terms of a task description: exact tokens first where the text has them (`GET /orders`, paths such as
 * `src/pricing/discount.ts` or `/api/orders/:id`, identifiers such as `applyDiscountCode`, quoted phrases),
 * each also split into its words; then stemmed words without stop words, generic words marked. Unique by
 * kind and key, in the order the text has them; at most 64, from the first 20,000 characters.
 */
const REDACTION_MARKER = /\[REDACTED:[A-Za-z0-9-]+\]/g;

export function extractTaskTerms(text: string): TaskTerm[] {
  const sink: TermSink = { terms: [], seen: new Set() };
  // A redacted secret's marker is our word, not the task's: "[REDACTED:aws-access-key]" must not ask for aws or access.
  const words = text.slice(0, MAX_TASK_CHARS).replace(REDACTION_MARKER, ' ');
  for (const match of words.matchAll(TOKEN_PATTERN)) {
    if (sink.terms.length >= MAX_TERMS) break;
    const [, method, routePath, double, curly, backtick, single, chunk] = match;
    if (method !== undefined && routePath !== undefined) {
      pushChunk(sink, `${method} ${trimToken(routePath) || '/'}`, true);
      continue;
    }
    const quoted = double ?? curly ?? backtick ?? single;
    if (quoted !== undefined) pushChunk(sink, quoted, true);
    else if (chunk !== undefined) pushChunk(sink, chunk, false);
  }
  return sink.terms.slice(0, MAX_TERMS);
}

/** A term as the task (or requirements) wrote it, for text a user reads: a word's original spelling, never its stem. */
export function toTermWord(term: Pick<TaskTerm, 'kind' | 'original'>): string {
  return term.kind === 'word' ? term.original.toLowerCase() : term.original;
}

/**
 * The words behind matching keys (`invoic` → `invoice`, `total` → `totals`), from the terms a task was split into: what
 * text shown to a user names. A key the terms do not hold (a co-change path) is shown as it is.
 */
export function createTermNamer(terms: readonly TaskTerm[]): (term: string) => string {
  const words = new Map<string, string>();
  for (const term of terms) if (!words.has(term.term)) words.set(term.term, toTermWord(term));
  return (term) => words.get(term) ?? term;
}
