import type { SignalKind, SignalWordList, SignalWordLists } from '../../model/facts.js';
import { clipRedacted } from '../../text/clip.js';
import { BUILTIN_SIGNAL_WORDS } from './builtin-signal-words.js';

/** The identifier signals of one set of signal words, compiled once. */
export interface SignalWordMatcher {
  /**
   * `auth` for identifiers such as `authToken`, `userRoles`. Pagination is no identifier signal: a `limit` is as often
   * a retry count; the collector needs a pagination name reaching a slice or a query (`isPaginationName`).
   */
  classifyIdentifier(name: string): SignalKind | undefined;
  /** True for identifiers with a pagination word (`pageSize`, `offset`, `cursor`). */
  isPaginationName(name: string | undefined): boolean;
  /** True for identifiers with a money word (`totalCents`, `price`). */
  isMoneyName(name: string | undefined): boolean;
}

function splitWords(name: string): string[] {
  return name.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g)?.map((word) => word.toLowerCase()) ?? [];
}

function compileWordList(list: SignalWordList): (word: string) => boolean {
  const words = new Set(list.words.map((word) => word.toLowerCase()));
  const prefixes = list.prefixes.map((prefix) => prefix.toLowerCase());
  return (word) => words.has(word) || prefixes.some((prefix) => word.startsWith(prefix));
}

/** Compiles pack signal words: an identifier is split into words (`pageSize` → page, size) and each is looked up. */
function compileSignalWords(lists: SignalWordLists): SignalWordMatcher {
  const all = [lists.auth, lists.pagination, lists.money].flatMap((list) => [...list.words, ...list.prefixes]);
  // A name holding none of the words anywhere (most identifiers) is refused before it is split.
  const candidates =
    all.length === 0 ? undefined : new RegExp(all.map((word) => word.replace(/[^A-Za-z0-9]/g, (char) => `\\${char}`)).join('|'), 'i');
  const isAuth = compileWordList(lists.auth);
  const isPagination = compileWordList(lists.pagination);
  const isMoney = compileWordList(lists.money);
  return {
    classifyIdentifier(name) {
      if (candidates === undefined || !candidates.test(name)) return undefined;
      return splitWords(name).some(isAuth) ? 'auth' : undefined;
    },
    isPaginationName(name) {
      if (name === undefined || candidates === undefined || !candidates.test(name)) return false;
      return splitWords(name).some(isPagination);
    },
    isMoneyName(name) {
      if (name === undefined || candidates === undefined || !candidates.test(name)) return false;
      return splitWords(name).some(isMoney);
    },
  };
}

const builtinMatcher = compileSignalWords(BUILTIN_SIGNAL_WORDS);
const compiled = new WeakMap<SignalWordLists, SignalWordMatcher>();

/** The matcher of a parse's words (compiled once per options object), or of the built-in pack's when it has none. */
export function getSignalWordMatcher(lists: SignalWordLists | undefined): SignalWordMatcher {
  if (lists === undefined) return builtinMatcher;
  let matcher = compiled.get(lists);
  if (matcher === undefined) {
    matcher = compileSignalWords(lists);
    compiled.set(lists, matcher);
  }
  return matcher;
}

/**
 * Calls that parse, build or format dates. Not `Date.now()`: it gives the milliseconds since the epoch, the same in every
 * time zone, from no input, so it asks neither a time-zone case nor an invalid date (ky's timeout budget).
 */
const dateFunctions = new Set(['Date.parse', 'Date.UTC', 'Intl.DateTimeFormat', 'dayjs', 'moment']);
const dateMethods = new Set([
  'toISOString',
  'getTimezoneOffset',
  'toLocaleDateString',
  'toLocaleTimeString',
  'toUTCString',
  'toDateString',
  // A calendar read or set on a Date: what a zone shifts (`new Date().getFullYear()`, `today.setHours(0, 0, 0, 0)`).
  'getFullYear',
  'getMonth',
  'getDate',
  'getDay',
  'getHours',
  'setFullYear',
  'setMonth',
  'setDate',
  'setHours',
]);
const fileModules = new Set(['fs', 'fsp', 'fsPromises', 'fse', 'fs.promises']);
const networkFunctions = new Set(['fetch', 'axios', 'got', 'ky', 'http.request', 'https.request', 'http.get', 'https.get']);

/** Signal for a call, from its dotted callee name (`JSON.parse`) or its last segment (`x.toFixed`). */
export function classifyCall(name: string, method: string, root: string): SignalKind | undefined {
  switch (name) {
    case 'parseInt':
    case 'parseFloat':
    case 'Number':
    case 'Number.parseInt':
    case 'Number.parseFloat':
      return 'parse-number';
    case 'JSON.parse':
      return 'parse-json';
    case 'Promise.all':
    case 'Promise.allSettled':
    case 'Promise.race':
    case 'Promise.any':
      return 'promise-concurrency';
    case 'Promise.reject':
      return 'async-failure';
    case 'RegExp':
      return 'regex';
  }
  if (dateFunctions.has(name) || root === 'dayjs' || root === 'moment') return 'date-time';
  if (networkFunctions.has(name) || root === 'axios') return 'network';
  if (name !== method && fileModules.has(root)) return 'file-io';
  if (/^(readFile|writeFile|appendFile)(Sync)?$/.test(method)) return 'file-io';
  if (name === method) return undefined;
  if (dateMethods.has(method)) return 'date-time';
  if (method === 'toFixed') return 'money';
  if (method === 'slice') return 'collection';
  if (method === 'catch') return 'async-failure';
  if (method === 'query' || method === '$queryRaw' || method === '$executeRaw') return 'sql';
  return undefined;
}

export function classifyConstructor(name: string): SignalKind | undefined {
  switch (name) {
    case 'Date':
    case 'Intl.DateTimeFormat':
      return 'date-time';
    case 'RegExp':
      return 'regex';
    case 'WebSocket':
    case 'XMLHttpRequest':
      return 'network';
  }
  return undefined;
}

const dateModules = /^(dayjs|moment|moment-timezone|date-fns|date-fns-tz|luxon)(\/|$)/;

export function isDateModule(specifier: string): boolean {
  return dateModules.test(specifier);
}

const sqlStart = /^\s*(SELECT|INSERT|UPDATE|DELETE)\s/i;

export function isSqlText(text: string): boolean {
  return text.length >= 8 && sqlStart.test(text);
}

export function truncateDetail(detail: string): string {
  return clipRedacted(detail, 79);
}
