import { classifyKey, isFlag, type KeyKind, keySegments } from './keys.js';
import { count, type Counter, GENERIC, marker } from './marks.js';
import {
  ENV_KEY,
  isBareSecret,
  isBlank,
  isEnvReference,
  isFlagName,
  isInterpolatedValue,
  isKeyChar,
  isLetter,
  isLower,
  isPathLike,
  isPlainValue,
  isSecretLiteral,
  isSecretShaped,
  isSpace,
  isUpper,
} from './values.js';

/*
 * Generic `key <operator> value` rule (the `generic-secret` marker). The regex below only *locates* a secret keyword;
 * the key's boundaries, the operator and the value are then read by hand with bounded loops, so a candidate costs O(1)
 * plus its value. A rejected value is rescanned for nested pairs (`url: https://h/?token=…`) only when it is at most
 * MAX_RESCAN characters long; a longer one is skipped whole, so the scan stays linear on hostile input.
 *
 * The key is classified first (classifyKey, shared with redactAssignedValue):
 *   - *names a secret*: its last word is the secret noun (password, passwd, pass, passphrase, secret, token,
 *     credentials, authorization, `db_password`, `apiKey`, `<qualifier>_key` such as api/access/private/secret);
 *   - *mentions a secret*: a secret word that is not the noun being valued (`token_type`, `secret_name`, `auth`,
 *     bare `key`, `pwd`, `stripeKey`);
 *   - *no secret*: key names where "key" is not a credential (`sortKey`, `primaryKey`, `cacheKey`, `idempotencyKey`,
 *     `publicKey`, …; see NON_SECRET_KEY_QUALIFIERS) and words that only contain one (`hotkey`, `keyboard`, `tokenizer`).
 * A value is then redacted when it is
 *   (a) a quoted literal (`'…'`, `"…"`, `` `…` ``, JSON-escaped `\"…\"`) of ≥ 4 characters, multi-word passphrases
 *       included, after a key that names a secret and an assignment (not `,`, `==`, `is`);
 *   (b) a secret-shaped token (no whitespace, ≥ 6 characters, mixing ≥ 2 of lower/upper/digit/symbol inside the
 *       word, or Shannon entropy ≥ 3.5 bits/char, or ≥ 20 characters) after any secret key, quoted or not. Besides
 *       `=`, `:`, `=>`, `:=` and friends, a blank counts as the operator after a key that names a secret or a flag
 *       (`password hunter2`, `--token abc123XYZ`), and so do `is`, `was`, `to` (`the password is hunter2`);
 *   (c) any unquoted value of ≥ 4 characters where nothing but a value can sit, words included: an UPPER_SNAKE key
 *       naming a secret with `=` at line start (after `export `/`ENV `/`set `/a diff or list marker) or glued mid-line
 *       (`docker run -e DB_PASS=hunter`); a flag with `=` or a blank (`--password=hunter`, `--password hunter`,
 *       `-Ddb.password=hunter`; FLAG_PROSE_WORDS such as `flag`, `option` excepted); connection strings, query
 *       strings, conninfo and logfmt (`;Password=hunter;`, `&password=hunter`, `user=app password=hunter`); `.netrc`
 *       (`login me password hunter`); and a YAML/ini line holding one word after the key (`password: hunter`,
 *       `password = MySecret`). `key=value` in code stays untouched (`connect(password=password)`, `password: hashed,`);
 *   (d) the rest of the line after a passphrase key (`passphrase: correct horse battery staple`).
 * Never redacted: file paths and URLs, identifier-like words (camelCase, PascalCase, lower/UPPER_SNAKE, kebab-case)
 * without digits, dotted references (`process.env.API_KEY`), calls (`getToken(`), numbers, dates and versions,
 * keyboard chords (`Ctrl+Shift+P`), true/false/null/undefined/none, placeholders (`<…>`, `${…}`, `$VAR`, `{{…}}`,
 * `%VAR%`, `***`, `xxxx`, `…`, `your_…`) and values that are already redacted. `changeme` and other default passwords
 * are *not* placeholders: they are live credentials often enough. Markdown table cells are never values: `|` ends a key
 * and a value, and is not an operator. An unquoted value keeps a trailing `.` or `:` (sentence punctuation) but takes
 * `!`, `?` and `&3` with it; `&name=` ends it (a query string).
 */
const SECRET_KEYWORD =
  /(?:api[_.-]?key|access[_.-]?key|private[_.-]?key|secret[_.-]?key|client[_.-]?secret|auth[_.-]?token|passphrase|passw(?:or)?d|pass|pwd|secret|token|credentials?|creds|authorization|auth|key)s?/gi;
/** Keywords that are also common word parts (`monkey`, `oauth`, `bypass`) must start a word or a camelCase segment. */
const NEEDS_START_BOUNDARY = new Set([
  'key',
  'keys',
  'auth',
  'auths',
  'authorization',
  'authorizations',
  'pass',
  'pwd',
  'pwds',
  'creds',
  'credential',
  'credentials',
]);
const MAX_KEY_HEAD = 64;
const MAX_KEY_TAIL = 30;
const MAX_QUOTED = 512;
const MAX_RESCAN = 256;
const MAX_LINE_VALUE = 256;
const VALUE_STOP = new Set([...' \t\n\r\f\v\'"`\\,;<>(){}[]|']);
const ENV_LINE_PREFIX = /^[ \t]*(?:[+-][ \t]*)?(?:(?:export|ENV|set|setenv)[ \t]+)?$/;
const ENV_KEY_BEFORE = new Set([...' \t"\'`(=;&|']);
const PROSE_OPERATORS = ['is', 'was', 'to'];
/** `the --password flag is deprecated`: words that follow a flag's name in prose, not as its value. */
const FLAG_PROSE_WORDS = new Set([
  'flag',
  'flags',
  'option',
  'options',
  'argument',
  'arguments',
  'param',
  'parameter',
  'parameters',
  'switch',
  'value',
  'values',
  'instead',
  'with',
  'without',
  'from',
  'when',
  'then',
  'only',
  'must',
  'should',
  'will',
  'also',
  'that',
  'this',
  'here',
  'there',
  'which',
  'where',
  'because',
  'unless',
  'until',
  'before',
  'after',
  'and/or',
  'works',
  'does',
  'takes',
  'accepts',
  'expects',
  'requires',
  'overrides',
  'wins',
  'alone',
  'first',
  'last',
  'too',
  'still',
  'below',
  'above',
]);
const NETRC_WORDS = new Set(['login', 'machine', 'account']);

/** A line break, or its JSON escape `\n` (a config file quoted inside a JSON string). */
function isLineBreakBefore(text: string, at: number): boolean {
  return at === 0 || text.charAt(at - 1) === '\n' || (text.charAt(at - 1) === 'n' && text.charAt(at - 2) === '\\');
}

function lineStartOf(text: string, at: number, limit: number): number | undefined {
  let start = at;
  while (start > 0 && at - start < limit && !isLineBreakBefore(text, start)) start -= 1;
  return isLineBreakBefore(text, start) ? start : undefined;
}

function isAtLineStart(text: string, keyStart: number): boolean {
  const start = lineStartOf(text, keyStart, 40);
  return start !== undefined && ENV_LINE_PREFIX.test(text.slice(start, keyStart));
}

/** `DB_PASSWORD=x` at line start (blanks allowed, as in Makefiles), or glued mid-line as a shell assignment. */
function isEnvAssignment(text: string, candidate: Candidate, key: string): boolean {
  const { keyStart, keyEnd, operator, valueAt } = candidate;
  if (!ENV_KEY.test(key) || !operator.endsWith('=') || operator === '==' || operator === '.=') return false;
  if (isAtLineStart(text, keyStart)) return true;
  const isGlued = text.startsWith(operator, keyEnd) && valueAt === keyEnd + operator.length;
  return isGlued && ENV_KEY_BEFORE.has(text.charAt(keyStart - 1));
}

/** `.netrc`: `machine h login me password hunter`, on one line or several. */
function isNetrcPassword(text: string, keyStart: number, key: string): boolean {
  if (key !== 'password' && key !== 'passwd') return false;
  let at = keyStart;
  while (at > 0 && keyStart - at < 16 && isSpace(text.charAt(at - 1))) at -= 1;
  if (at === keyStart) return false;
  const valueEnd = at;
  while (at > 0 && valueEnd - at < 256 && !isSpace(text.charAt(at - 1))) at -= 1;
  let wordEnd = at;
  while (wordEnd > 0 && at - wordEnd < 16 && isSpace(text.charAt(wordEnd - 1))) wordEnd -= 1;
  let wordStart = wordEnd;
  while (wordStart > 0 && wordEnd - wordStart < 8 && isLetter(text.charAt(wordStart - 1))) wordStart -= 1;
  return NETRC_WORDS.has(text.slice(wordStart, wordEnd)) && (wordStart === 0 || isSpace(text.charAt(wordStart - 1)));
}

/**
 * `key=value` glued where only data can sit: a connection string (`User Id=sa;Password=hunter;`), a query string
 * (`?user=me&password=hunter`), a nested pair (`--from-literal=password=hunter`), conninfo or logfmt (`user=app
 * password=hunter`). Code passes variables
 * (`connect(password=password)`), so a glued pair elsewhere needs a secret-shaped value.
 */
function isConnectionPair(text: string, candidate: Candidate, valueEnd: number): boolean {
  const { keyStart, keyEnd, operator, valueAt } = candidate;
  if (operator !== '=' || keyEnd !== valueAt - 1 || text.charAt(keyEnd) !== '=') return false;
  if ((keyStart > 0 && '?&;='.includes(text.charAt(keyStart - 1))) || text.charAt(valueEnd) === ';') return true;
  return isAfterBlankSeparatedPair(text, keyStart);
}

/** libpq conninfo and logfmt: `host=db user=app password=…`, `level=warn user=bob password=…` (not `f(a=a, b=b)`). */
function isAfterBlankSeparatedPair(text: string, keyStart: number): boolean {
  let at = keyStart;
  while (at > 0 && keyStart - at < 4 && isBlank(text.charAt(at - 1))) at -= 1;
  if (at === keyStart) return false;
  const tokenEnd = at;
  while (at > 0 && tokenEnd - at < 128 && !isSpace(text.charAt(at - 1))) at -= 1;
  return /^["'`]?[\w.-]{1,64}=[^\s,;()]*$/.test(text.slice(at, tokenEnd));
}

/**
 * `password: hunter` or `password = MySecret` on a YAML/ini line of its own: one word, then only blanks or a comment.
 * Code puts a comma or semicolon after the same shape (`password: hashed,`), so identifiers stay there.
 */
function isConfigLineWord(text: string, candidate: Candidate, key: string, value: string, valueEnd: number): boolean {
  if (candidate.operator !== ':' && candidate.operator !== '=') return false;
  if (!isBareSecret(value)) return false;
  const last = keySegments(key).pop() ?? '';
  if (last === 'pass' || last === 'credential' || last === 'cred' || last === 'authorization') return false;
  let at = valueEnd;
  while (at < text.length && isBlank(text.charAt(at))) at += 1;
  const isLineEnd =
    at >= text.length || text.charAt(at) === '\n' || text.startsWith('\\n', at) || (text.charAt(at) === '#' && at > valueEnd);
  if (!isLineEnd) return false;
  return isAtLineStart(text, candidate.keyStart);
}

const OPERATORS = ['=>', ':::=', '::=', ':=', '?=', '.=', '||', '=', '>', ',', ':'];

function readOperator(text: string, at: number): string | undefined {
  for (const operator of OPERATORS) if (text.startsWith(operator, at)) return operator;
  return undefined;
}

interface Candidate {
  /** Where the key token starts and ends (keyword plus its `[\w.-]` head and tail). */
  keyStart: number;
  keyEnd: number;
  /** An assignment operator, `,`, `==`, a prose word (`is`) or `' '` (the key and the value are only blank-separated). */
  operator: string;
  /** First character after the operator and the blanks that follow it. */
  valueAt: number;
}

function readCandidate(text: string, index: number, keyword: string): Candidate | undefined {
  const end = index + keyword.length;
  const before = text.charAt(index - 1);
  const first = text.charAt(index);
  if (NEEDS_START_BOUNDARY.has(keyword.toLowerCase()) && isLetter(before) && !(isUpper(first) && !isUpper(before))) return undefined;
  const after = text.charAt(end);
  if (isLetter(after) && !(isLower(text.charAt(end - 1)) && isUpper(after))) return undefined;
  let keyStart = index;
  while (keyStart > 0 && index - keyStart < MAX_KEY_HEAD && (isKeyChar(text.charAt(keyStart - 1)) || text.charAt(keyStart - 1) === '$')) {
    // `\npassword=…` inside a JSON string: the escape's `n` is not part of the key.
    if (text.charAt(keyStart - 2) === '\\' && 'ntr'.includes(text.charAt(keyStart - 1))) break;
    keyStart -= 1;
  }
  let keyEnd = end;
  while (keyEnd < text.length && isKeyChar(text.charAt(keyEnd))) {
    if (keyEnd - end >= MAX_KEY_TAIL) return undefined;
    keyEnd += 1;
  }
  // A sentence's last word is not a key (`…the key.`), and neither is a flag's trailing dash.
  while (keyEnd > end && '.-'.includes(text.charAt(keyEnd - 1))) keyEnd -= 1;
  let at = keyEnd;
  let isKeyQuoted = false;
  while (at < text.length && at - keyEnd < 5 && (isSpace(text.charAt(at)) || `'"\`\\`.includes(text.charAt(at)))) {
    if (`'"\``.includes(text.charAt(at))) isKeyQuoted = true;
    at += 1;
  }
  const read = readOperator(text, at);
  if (read === undefined) return readBlankCandidate(text, keyStart, keyEnd);
  const operator = read === '=' && text.charAt(at + 1) === '=' ? '==' : read;
  // `>` only closes an XML element (`<password>value`); `,` only separates a quoted key from a quoted value.
  if (operator === '>' && text.charAt(keyStart - 1) !== '<') return undefined;
  if (operator === ',' && !isKeyQuoted) return undefined;
  at += read.length;
  const afterOperator = at;
  while (at < text.length && at - afterOperator < 2 && text.charAt(at) === '=' && operator !== '=>') at += 1;
  // `**Token:** value` (Markdown bold around the key).
  while (at < text.length && at - afterOperator < 4 && text.charAt(at) === '*') at += 1;
  const blanks = at;
  while (at < text.length && at - blanks < 8 && isSpace(text.charAt(at))) at += 1;
  return { keyStart, keyEnd, operator, valueAt: at };
}

/** `password hunter2`, `--token abc123XYZ`, `the password is hunter2`: blanks on one line, then maybe a prose operator. */
function readBlankCandidate(text: string, keyStart: number, keyEnd: number): Candidate | undefined {
  // `$PASSWORD shop`: a variable reference followed by the next word.
  if (text.slice(keyStart, keyEnd).includes('$')) return undefined;
  let at = keyEnd;
  while (at < text.length && at - keyEnd < 8 && isBlank(text.charAt(at))) at += 1;
  if (at === keyEnd || at >= text.length || isSpace(text.charAt(at))) return undefined;
  for (const word of PROSE_OPERATORS) {
    if (!text.startsWith(word, at) || !isBlank(text.charAt(at + word.length))) continue;
    let valueAt = at + word.length;
    while (valueAt < text.length && valueAt - at < 12 && isBlank(text.charAt(valueAt))) valueAt += 1;
    return { keyStart, keyEnd, operator: word, valueAt };
  }
  return { keyStart, keyEnd, operator: ' ', valueAt: at };
}

interface Quoted {
  contentStart: number;
  contentEnd: number;
  quote: string;
}

/** Forward-only `indexOf` cache: candidates arrive in increasing value order, so each lookup costs amortised O(1). */
class NextIndex {
  private readonly cache = new Map<string, { from: number; found: number }>();
  constructor(private readonly text: string) {}

  of(char: string, from: number): number {
    const cached = this.cache.get(char);
    if (cached !== undefined && from >= cached.from && (cached.found >= from || cached.found === -1)) return cached.found;
    const found = this.text.indexOf(char, from);
    this.cache.set(char, { from, found });
    return found;
  }
}

/** A quoted value on one line, at most MAX_QUOTED characters; `\"…\"` (JSON inside JSON) closes on `\"`. */
function readQuoted(text: string, at: number, next: NextIndex): Quoted | undefined {
  const escaped = text.charAt(at) === '\\';
  const quote = text.charAt(escaped ? at + 1 : at);
  if (quote !== '"' && quote !== "'" && quote !== '`') return undefined;
  const contentStart = at + (escaped ? 2 : 1);
  const lineEnd = next.of('\n', contentStart);
  const limit = Math.min(lineEnd === -1 ? text.length : lineEnd, contentStart + MAX_QUOTED + 1);
  let close = next.of(quote, contentStart);
  while (close !== -1 && close < limit) {
    let backslashes = 0;
    while (close - backslashes > contentStart && text.charAt(close - backslashes - 1) === '\\') backslashes += 1;
    if (escaped ? backslashes % 2 === 1 : backslashes % 2 === 0) return { contentStart, contentEnd: escaped ? close - 1 : close, quote };
    close += 1;
    while (close < limit && text.charAt(close) !== quote) close += 1;
  }
  return undefined;
}

/** An unquoted value ends at a stop character; `&` ends it only before a blank, another `&` or a `name=` pair. */
function readUnquotedEnd(text: string, at: number): number {
  let end = at;
  while (end < text.length) {
    const char = text.charAt(end);
    if (VALUE_STOP.has(char)) break;
    if (char === '&') {
      const following = text.charAt(end + 1);
      if (following === '' || isSpace(following) || following === '&' || VALUE_STOP.has(following)) break;
      let name = end + 1;
      while (name < text.length && name - end <= 64 && isKeyChar(text.charAt(name))) name += 1;
      if (name > end + 1 && text.charAt(name) === '=') break;
    }
    end += 1;
  }
  return end;
}

/**
 * (d): a passphrase is the rest of its line, up to a ` # comment`, a quote, backtick or `|`, an escaped `\n` (the line of
 * a file quoted in JSON), or after a flag the next ` -flag`.
 */
function readLineValueEnd(text: string, at: number, next: NextIndex, isAfterFlag: boolean): number | undefined {
  const newline = next.of('\n', at);
  let end = newline === -1 ? text.length : newline;
  if (end - at > MAX_LINE_VALUE) return undefined;
  const comment = text.slice(at, end).search(isAfterFlag ? /[ \t](?:#|-)|\\n|["`|]/ : /[ \t]#|\\n|["`|]/);
  if (comment !== -1) end = at + comment;
  while (end > at && (isSpace(text.charAt(end - 1)) || '.,;'.includes(text.charAt(end - 1)))) end -= 1;
  return end;
}

interface Decision {
  start: number;
  end: number;
  isSecret: boolean;
  /** Where the keyword scan resumes. */
  next: number;
}

function decideQuoted(candidate: Candidate, kind: KeyKind, key: string, quoted: Quoted, text: string): Decision {
  const content = text.slice(quoted.contentStart, quoted.contentEnd);
  const { operator } = candidate;
  const isAssignment = operator !== ',' && operator !== '==' && !PROSE_OPERATORS.includes(operator);
  let isLiteral = kind === 'names-secret' && isAssignment;
  // A blank is an operator before a quote only for flags and passwords (`--password 'x y'`, `WITH PASSWORD 'x'`).
  if (operator === ' ' && !isFlag(key)) isLiteral = isLiteral && /pass(?:wor)?d|passphrase/i.test(keySegments(key).pop() ?? '');
  const isShapeAllowed = operator !== ' ' || isFlag(key) || kind === 'names-secret';
  const isSecret = isLiteral ? isSecretLiteral(content, quoted.quote) : isShapeAllowed && isSecretShaped(content.trim());
  return { start: quoted.contentStart, end: quoted.contentEnd, isSecret, next: isSecret ? quoted.contentEnd : quoted.contentStart };
}

function decideUnquoted(text: string, candidate: Candidate, kind: KeyKind, key: string, next: NextIndex): Decision {
  const { operator } = candidate;
  let start = candidate.valueAt;
  // An unterminated quote: read the token after it.
  if (`'"\``.includes(text.charAt(start))) start += 1;
  else if (text.charAt(start) === '\\' && `'"\``.includes(text.charAt(start + 1))) start += 2;
  const isAssignment = operator !== '==' && operator !== ' ' && !PROSE_OPERATORS.includes(operator);
  const isLineValue = isFlag(key) || isAtLineStart(text, candidate.keyStart) || isEnvAssignment(text, candidate, key);
  if ((isAssignment || (operator === ' ' && isFlag(key))) && start === candidate.valueAt && /passphrase$/i.test(key) && isLineValue) {
    const lineEnd = readLineValueEnd(text, start, next, isFlag(key));
    if (lineEnd !== undefined && /\s/.test(text.slice(start, lineEnd))) {
      const value = text.slice(start, lineEnd);
      const isNote = /^\(.*\)$/.test(value);
      const isSecret =
        value.length >= 4 && !isNote && !isPlainValue(value) && !isPathLike(value) && !isEnvReference(value) && !isInterpolatedValue(value);
      if (isSecret) return { start, end: lineEnd, isSecret, next: lineEnd };
    }
  }
  const runEnd = readUnquotedEnd(text, start);
  let end = runEnd;
  while (end > start && '.:'.includes(text.charAt(end - 1))) end -= 1;
  const value = text.slice(start, end);
  const isCall = text.charAt(runEnd) === '(' && /^[A-Za-z_$][\w$.]*$/.test(value);
  let isSecret = false;
  if (value.length >= 4 && !'=:'.includes(value.charAt(0)) && !isCall) isSecret = isUnquotedSecret(text, candidate, kind, key, value, end);
  return { start, end, isSecret, next: isSecret || runEnd - start > MAX_RESCAN ? runEnd : start };
}

function isUnquotedSecret(text: string, candidate: Candidate, kind: KeyKind, key: string, value: string, end: number): boolean {
  const { operator } = candidate;
  const names = kind === 'names-secret';
  if (operator === ' ') {
    if (isNetrcPassword(text, candidate.keyStart, key)) return isBareSecret(value);
    // `--password --verbose`: a long option after a flag is the next option (as redactArgv reads argv), not its value.
    if (isFlag(key) && names && !FLAG_PROSE_WORDS.has(value.toLowerCase())) return !isLongFlagName(value) && isBareSecret(value);
    return (names || isFlag(key)) && isSecretShaped(value);
  }
  if (PROSE_OPERATORS.includes(operator)) return names && isSecretShaped(value);
  if (isSecretShaped(value)) return true;
  if (operator === '==') return false;
  if (isFlag(key) && operator === '=') return isBareSecret(value);
  if (names && isEnvAssignment(text, candidate, key)) return isBareSecret(value);
  // A bare `PWD` is the working directory on a line of its own, but ODBC's password inside a connection string.
  const isPwd = keySegments(key).pop() === 'pwd';
  if ((names || isPwd) && isConnectionPair(text, candidate, end)) return isBareSecret(value);
  return names && isConfigLineWord(text, candidate, key, value, end);
}

function isLongFlagName(value: string): boolean {
  return value.startsWith('--') && isFlagName(value);
}

export function redactAssignments(text: string, counter: Counter): string {
  const pattern = new RegExp(SECRET_KEYWORD.source, 'gi');
  const nextIndex = new NextIndex(text);
  let out = '';
  let last = 0;
  let found = pattern.exec(text);
  while (found !== null) {
    const candidate = readCandidate(text, found.index, found[0]);
    let next = found.index + 1;
    if (candidate !== undefined) {
      const key = text.slice(candidate.keyStart, candidate.keyEnd);
      // `[REDACTED:generic-secret]` names a rule, not a key.
      const isMarker = text.startsWith('[REDACTED:', candidate.keyStart - 10);
      const kind = isMarker ? 'not-secret' : classifyKey(key);
      if (kind === 'not-secret') next = Math.max(next, candidate.keyEnd);
      else {
        const quoted = readQuoted(text, candidate.valueAt, nextIndex);
        let decision: Decision | undefined;
        if (quoted !== undefined) decision = decideQuoted(candidate, kind, key, quoted, text);
        else if (candidate.operator !== ',') decision = decideUnquoted(text, candidate, kind, key, nextIndex);
        if (decision !== undefined) {
          if (decision.isSecret) {
            out += text.slice(last, decision.start) + marker(GENERIC);
            count(counter, GENERIC);
            last = decision.end;
          }
          next = decision.next;
        }
      }
    }
    pattern.lastIndex = Math.max(next, found.index + 1);
    found = pattern.exec(text);
  }
  return out + text.slice(last);
}
