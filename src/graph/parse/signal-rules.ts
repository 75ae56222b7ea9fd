import type { SignalKind } from '../../model/facts.js';
import { clipRedacted } from '../../text/clip.js';

const wordCandidates =
  /page|limit|offset|cursor|auth|token|session|permission|role|jwt|password|price|amount|total|currency|cents|money|balance/i;
const paginationWords = new Set(['page', 'pages', 'limit', 'limits', 'offset', 'offsets', 'cursor', 'cursors', 'pagesize', 'perpage']);
const authWords = new Set([
  'token',
  'tokens',
  'session',
  'sessions',
  'permission',
  'permissions',
  'role',
  'roles',
  'jwt',
  'password',
  'passwords',
]);
const moneyWords = new Set([
  'price',
  'prices',
  'amount',
  'amounts',
  'total',
  'totals',
  'subtotal',
  'currency',
  'cents',
  'money',
  'balance',
  'balances',
]);

function splitWords(name: string): string[] {
  return name.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g)?.map((word) => word.toLowerCase()) ?? [];
}

/** `pagination` or `auth` for identifiers such as `pageSize`, `authToken`, `userRoles`. */
export function classifyIdentifier(name: string): SignalKind | undefined {
  if (!wordCandidates.test(name)) return undefined;
  const words = splitWords(name);
  for (const word of words) {
    if (word.startsWith('auth') || authWords.has(word)) return 'auth';
  }
  for (const word of words) if (paginationWords.has(word)) return 'pagination';
  return undefined;
}

export function isMoneyName(name: string | undefined): boolean {
  if (name === undefined || !wordCandidates.test(name)) return false;
  return splitWords(name).some((word) => moneyWords.has(word));
}

const dateFunctions = new Set(['Date.parse', 'Date.now', 'Date.UTC', 'Intl.DateTimeFormat', 'dayjs', 'moment']);
const dateMethods = new Set(['toISOString', 'getTimezoneOffset', 'toLocaleDateString', 'toLocaleTimeString', 'toUTCString']);
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
