/**
 * Secret redaction for untrusted or user-visible text (security.md §6). A redactor is deliberately more
 * aggressive than a scanner: the token rules have no entropy floors and no `EXAMPLE` allowlists. The generic
 * `key = value` rule is the exception: it must not eat our own paths, identifiers and prose, so it asks for a
 * secret-shaped value (see the comment above SECRET_KEYWORD). Every pattern is either bounded or scanned manually so
 * that a 1 MB hostile input stays linear.
 */
export interface Redaction {
  rule: string;
  count: number;
}

export interface RedactionResult {
  text: string;
  redactions: Redaction[];
}

type Counter = Map<string, number>;

interface TokenRule {
  rule: string;
  pattern: RegExp;
}

const TOKEN_RULES: readonly TokenRule[] = [
  { rule: 'private-key-base64', pattern: /LS0tLS1CRUdJTi[A-Za-z0-9+/=]*/g },
  { rule: 'slack-webhook', pattern: /(?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/_-]{8,200}/g },
  { rule: 'aws-access-key', pattern: /(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}/g },
  { rule: 'github-token', pattern: /(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255}/g },
  { rule: 'gitlab-token', pattern: /gl(?:pat|ptt|dt|rt|cbt|soat)-[A-Za-z0-9_-]{20,64}/g },
  { rule: 'slack-token', pattern: /xox[abeoprs]-[A-Za-z0-9-]{10,250}/g },
  { rule: 'npm-token', pattern: /npm_[A-Za-z0-9]{36,64}/gi },
  { rule: 'stripe-key', pattern: /(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,255}/g },
  { rule: 'gcp-api-key', pattern: /AIza[A-Za-z0-9_-]{30,64}/g },
  { rule: 'anthropic-api-key', pattern: /sk-ant-[A-Za-z0-9_-]{20,300}/g },
  { rule: 'openai-api-key', pattern: /sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,400}|[A-Za-z0-9]{32,200})/g },
];

const PRIVATE_KEY_BEGIN = /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/gi;
const PRIVATE_KEY_END = /-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/gi;

const URL_PASSWORD = /:\/\/([^\s:/@]{0,256}):([^\s@/]{1,256})@/g;

const AUTHORIZATION_HEADER =
  /(authorization["'\\]{0,3}[ \t]{0,3}[:=][ \t]{0,3}["'\\]{0,3}(?:(?:bearer|basic|token|bot|digest)[ \t]{1,8})?)([^\s"'\\,;[]{8,4096})/gi;
const BEARER = /(bearer[ \t]{1,8})([A-Za-z0-9._~+/-]{16,4096}=*)/gi;

const JWT_SEGMENT = /[A-Za-z0-9_-]/;
const JWT_TAIL = /[A-Za-z0-9_/-]/;

function marker(rule: string): string {
  return `[REDACTED:${rule}]`;
}

function count(counter: Counter, rule: string): void {
  counter.set(rule, (counter.get(rule) ?? 0) + 1);
}

function isRepeatedChar(value: string): boolean {
  for (let i = 1; i < value.length; i += 1) if (value[i] !== value[0]) return false;
  return true;
}

function redactPrivateKeys(text: string, counter: Counter): string {
  const begin = new RegExp(PRIVATE_KEY_BEGIN.source, 'gi');
  const end = new RegExp(PRIVATE_KEY_END.source, 'gi');
  let out = '';
  let last = 0;
  let found = begin.exec(text);
  while (found !== null) {
    end.lastIndex = found.index + found[0].length;
    const closing = end.exec(text);
    out += text.slice(last, found.index) + marker('private-key');
    count(counter, 'private-key');
    if (closing === null) return out;
    last = closing.index + closing[0].length;
    begin.lastIndex = last;
    found = begin.exec(text);
  }
  return out + text.slice(last);
}

function runEnd(text: string, from: number, segment: RegExp): number {
  let i = from;
  while (i < text.length && segment.test(text.charAt(i))) i += 1;
  return i;
}

/** Manual scan: a failed candidate skips its whole run, so the scan stays linear. */
function redactJwts(text: string, counter: Counter): string {
  let out = '';
  let last = 0;
  let i = text.indexOf('ey');
  while (i !== -1) {
    const headerEnd = runEnd(text, i, JWT_SEGMENT);
    let next = headerEnd;
    if (headerEnd - i >= 19 && text.charAt(headerEnd) === '.' && text.startsWith('ey', headerEnd + 1)) {
      const payloadEnd = runEnd(text, headerEnd + 1, JWT_TAIL);
      if (payloadEnd - headerEnd - 1 >= 19) {
        let end = payloadEnd;
        if (text.charAt(payloadEnd) === '.') {
          const signatureEnd = runEnd(text, payloadEnd + 1, JWT_TAIL);
          if (signatureEnd - payloadEnd - 1 >= 10) {
            end = signatureEnd;
            while (end < signatureEnd + 2 && text.charAt(end) === '=') end += 1;
          }
        }
        out += text.slice(last, i) + marker('jwt');
        count(counter, 'jwt');
        last = end;
        next = end;
      }
    }
    i = text.indexOf('ey', Math.max(next, i + 1));
  }
  return out + text.slice(last);
}

function redactTokens(text: string, rule: TokenRule, counter: Counter): string {
  return text.replace(rule.pattern, (match: string) => {
    const body = match.slice(match.search(/[_-]/) + 1);
    if (body.length > 0 && isRepeatedChar(body)) return match;
    count(counter, rule.rule);
    return marker(rule.rule);
  });
}

function redactUrlPasswords(text: string, counter: Counter): string {
  return text.replace(URL_PASSWORD, (match: string, user: string, password: string) => {
    if (password.startsWith('[REDACTED:')) return match;
    count(counter, 'url-password');
    return `://${user}:${marker('url-password')}@`;
  });
}

function redactPrefixed(text: string, pattern: RegExp, rule: string, counter: Counter): string {
  return text.replace(pattern, (match: string, prefix: string, value: string) => {
    if (isPlaceholder(value)) return match;
    count(counter, rule);
    return prefix + marker(rule);
  });
}

const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const LOWERCASE_WORDS = /^[a-z][a-z_-]*$/;
const CONSTANT_NAME = /^[A-Z][A-Z_]*$/;
const KEYWORD_VALUES = new Set(['true', 'false', 'null', 'undefined', 'none', 'required', 'optional']);

function isPlaceholder(value: string): boolean {
  if (value.startsWith('$') || value.startsWith('[REDACTED:')) return true;
  if (/^%[\w.-]+%$/.test(value)) return true;
  if (KEYWORD_VALUES.has(value.toLowerCase())) return true;
  if (isRepeatedChar(value)) return true;
  if (LOWERCASE_WORDS.test(value) || CONSTANT_NAME.test(value)) return true;
  return IDENTIFIER_PATH.test(value) && value.includes('.');
}

/*
 * Generic `key <operator> value` rule (the `generic-secret` marker). The regex below only *locates* a secret-named
 * keyword; the key's boundaries, the operator and the value are then read by hand with bounded loops, so a candidate
 * costs O(1) plus its value. A rejected value is rescanned for nested pairs (`url: https://h/?token=…`) only when it is
 * at most MAX_RESCAN characters long; a longer one is skipped whole, so the scan stays linear on hostile input.
 *
 * A value is redacted when it follows a secret-named key and an assignment operator and it is
 *   (a) a quoted literal (`'…'`, `"…"`, `` `…` ``, JSON-escaped `\"…\"`) of ≥ 4 characters, multi-word passphrases
 *       included, when the key *names* a secret (its last segment is password/passwd/pwd/passphrase/secret/token, or
 *       `<qualifier>_key` such as api_key/access_key/private_key/secret_key) and the operator is not `,`;
 *   (b) a secret-shaped token (no whitespace, ≥ 6 characters, mixing ≥ 2 of lower/upper/digit/symbol, or Shannon
 *       entropy ≥ 3.5 bits/char, or ≥ 20 characters) after any secret-named key, including weak ones (`auth`, `key`,
 *       `pass`, `authorization`, `credentials`) and qualifier keys (`token_type`, `secret_name`), quoted or not;
 *   (c) any unquoted value of ≥ 4 characters in an env/shell line (`KEY=value`, `KEY:=value`, `KEY?=value` at line start,
 *       after `export `, `ENV `, `set ` or a diff/list marker) whose UPPER_SNAKE key has a PASSWORD/PASSWD/PWD/PASS/
 *       PASSPHRASE/SECRET/TOKEN/KEY segment: there plain words and identifiers count too (`DB_PASSWORD=hunter`), since
 *       nothing but a value sits there; paths, numbers, placeholders, dotted names and `OTHER_VAR` references do not.
 * Never redacted: file paths and URLs, identifier-like words (camelCase, PascalCase, lower/UPPER_SNAKE, kebab-case)
 * without digits, dotted references (`process.env.API_KEY`), calls (`getToken(`), numbers, dates and versions,
 * true/false/null/undefined/none, placeholders (`<…>`, `${…}`, `$VAR`, `{{…}}`, `%VAR%`, `***`, `xxxx`, `…`,
 * `your_…`) and values that are already redacted. `changeme` and other default passwords are *not* placeholders:
 * they are live credentials often enough, and are redacted wherever a literal would be. Markdown table cells are never
 * values: `|` ends a key and a value, and is not an operator.
 */
const SECRET_KEYWORD =
  /(?:api[_.-]?key|access[_.-]?key|private[_.-]?key|secret[_.-]?key|client[_.-]?secret|auth[_.-]?token|passphrase|passw(?:or)?d|pass|pwd|secret|token|credentials?|creds|authorization|auth|key)s?/gi;
/** Keywords that are also common word parts (`monkey`, `oauth`, `bypass`) must start a word or a camelCase segment. */
const NEEDS_START_BOUNDARY = new Set(['key', 'keys', 'auth', 'auths', 'authorization', 'authorizations', 'pass', 'pwd', 'pwds', 'creds', 'credential', 'credentials']);
const SECRET_NOUNS = new Set(['password', 'passwd', 'passphrase', 'secret', 'token', 'pwd', 'apikey', 'secretkey', 'accesskey', 'privatekey', 'authtoken', 'clientsecret']);
const PLURAL_NOUNS = new Set(['password', 'passwd', 'passphrase', 'secret', 'token', 'pwd', 'apikey', 'key', 'credential', 'cred', 'auth']);
const SECRET_NOUN_ENDINGS = ['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'secretkey', 'accesskey', 'privatekey'];
const KEY_QUALIFIERS = new Set([
  'api', 'access', 'private', 'secret', 'client', 'signing', 'encryption', 'master', 'license', 'ssh', 'deploy', 'service',
  'app', 'account', 'shared', 'session', 'hmac', 'jwt', 'webhook', 'consumer', 'subscription', 'storage', 'admin', 'auth',
]);
const MAX_KEY_HEAD = 64;
const MAX_KEY_TAIL = 30;
const MAX_QUOTED = 512;
const MAX_RESCAN = 256;
const VALUE_STOP = new Set([...' \t\n\r\f\v\'"`\\,;<>(){}[]&|']);
const LITERAL_KEYWORDS = new Set([
  'true', 'false', 'null', 'undefined', 'none', 'nil', 'yes', 'no', 'on', 'off', 'required', 'optional', 'string', 'number',
  'boolean', 'object', 'array', 'any', 'unknown',
]);
const SOURCE_EXTENSION =
  /\.(?:[cm]?[jt]sx?|mdx?|markdown|json5?|jsonc|ya?ml|toml|ini|cfg|conf|config|env|txt|rst|adoc|html?|css|scss|less|vue|svelte|py|rb|go|rs|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|ps1|sql|xml|csv|lock|log|pem|crt|key|pub|gpg|asc|p12|pfx|jks|keystore|gradle|properties|tf|tfvars|hcl|dockerfile|graphql|gql|proto|wasm|map|snap|golden)$/i;
const URL_LIKE = /^[a-z][a-z0-9+.-]{0,15}:\/\//i;
const NUMBER_LIKE = /^[~^<>=+-]{0,2}[vV]?\d[\d.,:_/+-]{0,64}(?:T[\d.,:_+-]{1,32}Z?)?(?:%|ms|[smhdwy]|[kmgt]i?b?)?$/i;
const EMAIL_LIKE = /^[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}$/;
const CONSTANT_NAME_WITH_UNDERSCORE = /^[A-Z]+(?:_(?:[A-Z]+|\d+))+$/;
const ENV_LINE_PREFIX = /^[ \t]*(?:[+-][ \t]*)?(?:(?:export|ENV|set|setenv)[ \t]+)?$/;
const ENV_KEY = /^[A-Z][A-Z0-9_]*$/;
const ENV_SECRET_SEGMENTS = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase', 'secret', 'token', 'key', 'apikey']);

function isLower(char: string): boolean {
  return char >= 'a' && char <= 'z';
}

function isUpper(char: string): boolean {
  return char >= 'A' && char <= 'Z';
}

function isDigit(char: string): boolean {
  return char >= '0' && char <= '9';
}

function isLetter(char: string): boolean {
  return isLower(char) || isUpper(char);
}

function isKeyChar(char: string): boolean {
  return isLetter(char) || isDigit(char) || char === '_' || char === '.' || char === '-';
}

function isSpace(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\f' || char === '\v';
}

function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  const length = [...value].length;
  for (const n of counts.values()) bits -= (n / length) * Math.log2(n / length);
  return bits;
}

function characterClasses(value: string): number {
  let lower = 0;
  let upper = 0;
  let digit = 0;
  let symbol = 0;
  for (const char of value) {
    if (isLower(char)) lower = 1;
    else if (isUpper(char)) upper = 1;
    else if (isDigit(char)) digit = 1;
    else if (!isSpace(char)) symbol = 1;
  }
  return lower + upper + digit + symbol;
}

/** Long lowercase runs that are not words: few vowels or high entropy (English words stay below 3.6 bits/char). */
function isRandomLowercase(part: string): boolean {
  if (part.length < 20 || !/^[a-z]+$/.test(part)) return false;
  let vowels = 0;
  for (const char of part) if ('aeiouy'.includes(char)) vowels += 1;
  return vowels / part.length < 0.25 || shannonEntropy(part) >= 3.7;
}

/**
 * `validateSessionMiddleware`, `Trigger`, `database_credentials`, `same-origin`, `GITHUB_TOKEN`: letters only, in words
 * joined by `_` or `-`. Mixed-case letters cannot be told apart from random ones (`XMLHttpRequest`, `RTCDtlsTransport`),
 * so only an all-lowercase run of 20+ letters that does not read like a word counts as random.
 */
function isIdentifierWords(value: string): boolean {
  if (!/^[A-Za-z]+(?:[_-][A-Za-z]+)*$/.test(value)) return false;
  return !value.split(/[_-]/).some(isRandomLowercase);
}

function isPathSegment(segment: string): boolean {
  if (segment === '' || segment === '.' || segment === '..' || segment === '~') return true;
  if (/^[A-Za-z]:$/.test(segment)) return true;
  return segment.split(/[._@-]/).every((part) => /^(?:\d*|[a-z]+\d{0,4}|[A-Z]+\d{0,4}|[A-Za-z]+)$/.test(part));
}

/**
 * `src/auth/token.ts`, `dist/index-4f3a9b2c.js`, `password.js`, `~/.ssh/id_rsa`, `C:\\keys\\app.pem`,
 * `https://auth.example.com/token`; not `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY` (base64 segments are not words).
 */
function isPathLike(value: string): boolean {
  if (URL_LIKE.test(value)) return true;
  if (!/^[\w@~.:/\\-]+$/.test(value)) return false;
  // A graph node id or URI scheme in front of a path: `file:src/auth.ts`, `route:POST /x`.
  const path = value.replace(/^[a-z][a-z0-9+.-]{0,15}:(?![\\/])/, '');
  const segments = path.split(/[\\/]/);
  const hasExtension = SOURCE_EXTENSION.test(value);
  if (segments.length > 1) return hasExtension || segments.every(isPathSegment);
  return hasExtension && isPathSegment(path.replace(SOURCE_EXTENSION, ''));
}

/** `process.env.API_KEY`, `secrets.TOKEN`, `this.token`, `config.auth.secret`. */
function isDottedReference(value: string): boolean {
  const parts = value.split('.');
  if (parts.length < 2) return false;
  return parts.every((part) => {
    const core = part.replace(/^[$_]{1,4}/, '').replace(/[_\d]{1,3}$/, '');
    return core.length > 0 && isIdentifierWords(core);
  });
}

function isPlaceholderValue(value: string): boolean {
  if (value.includes('[REDACTED')) return true;
  if (/^<[^<>]*>$/.test(value)) return true;
  if (value.includes('${') || value.includes('{{') || value.includes('}}')) return true;
  if (/^\$[A-Za-z_]\w*$/.test(value) || /^%[\w.-]+%$/.test(value)) return true;
  if (/x{4,}/i.test(value) || /\*{3,}|•{3,}|…|\.{3}/.test(value)) return true;
  if (/^your[\s_-]/i.test(value)) return true;
  return isRepeatedChar(value);
}

function isPlainValue(value: string): boolean {
  return isPlaceholderValue(value) || LITERAL_KEYWORDS.has(value.toLowerCase()) || NUMBER_LIKE.test(value) || EMAIL_LIKE.test(value);
}

/** (b): a single token that looks like a secret and like nothing else. */
function isSecretShaped(value: string): boolean {
  if (value.length < 6 || /\s/.test(value)) return false;
  if (isPlainValue(value) || isPathLike(value) || isDottedReference(value) || isIdentifierWords(value)) return false;
  return characterClasses(value) >= 2 || value.length >= 20 || shannonEntropy(value) >= 3.5;
}

/** (a): a quoted literal given to a key that names a secret. */
function isSecretLiteral(content: string, quote: string): boolean {
  const value = content.trim();
  if (value.length < 4 || isPlainValue(value)) return false;
  if (/\s/.test(value)) return true;
  if (isPathLike(value) || isDottedReference(value) || CONSTANT_NAME_WITH_UNDERSCORE.test(value)) return false;
  // A Markdown code span names code (`token: \`validateToken\``); a literal in quotes is the value itself.
  return quote !== '`' || !isIdentifierWords(value);
}

/** (c): any unquoted value of an env/shell secret line, words included, except references, paths, numbers and placeholders. */
function isEnvSecret(value: string): boolean {
  if (value.length < 4 || isPlainValue(value) || isPathLike(value) || isDottedReference(value)) return false;
  return !CONSTANT_NAME_WITH_UNDERSCORE.test(value);
}

function keySegments(key: string): string[] {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  return words.map((word) => (word.endsWith('s') && PLURAL_NOUNS.has(word.slice(0, -1)) ? word.slice(0, -1) : word));
}

/** The key *names* a secret: its last segment is the secret noun (`db_password`, `apiKey`), not a qualifier of it (`token_type`). */
function isSecretNamingKey(segments: readonly string[]): boolean {
  const last = segments[segments.length - 1] ?? '';
  if (SECRET_NOUNS.has(last) || SECRET_NOUN_ENDINGS.some((noun) => last.endsWith(noun))) return true;
  return last === 'key' && KEY_QUALIFIERS.has(segments[segments.length - 2] ?? '');
}

function isEnvLine(text: string, keyStart: number, key: string, operator: string): boolean {
  if (!ENV_KEY.test(key) || !operator.endsWith('=') || operator === '==' || operator === '.=') return false;
  const segments = keySegments(key);
  if (!segments.some((segment) => ENV_SECRET_SEGMENTS.has(segment) || SECRET_NOUN_ENDINGS.some((noun) => segment.endsWith(noun)))) return false;
  let lineStart = keyStart;
  while (lineStart > 0 && keyStart - lineStart < 40 && text.charAt(lineStart - 1) !== '\n') lineStart -= 1;
  if (lineStart > 0 && text.charAt(lineStart - 1) !== '\n') return false;
  return ENV_LINE_PREFIX.test(text.slice(lineStart, keyStart));
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
  while (keyStart > 0 && index - keyStart < MAX_KEY_HEAD && (isKeyChar(text.charAt(keyStart - 1)) || text.charAt(keyStart - 1) === '$')) keyStart -= 1;
  let keyEnd = end;
  while (keyEnd < text.length && isKeyChar(text.charAt(keyEnd))) {
    if (keyEnd - end >= MAX_KEY_TAIL) return undefined;
    keyEnd += 1;
  }
  let at = keyEnd;
  let isKeyQuoted = false;
  while (at < text.length && at - keyEnd < 5 && (isSpace(text.charAt(at)) || `'"\`\\`.includes(text.charAt(at)))) {
    if (`'"\``.includes(text.charAt(at))) isKeyQuoted = true;
    at += 1;
  }
  const read = readOperator(text, at);
  if (read === undefined) return undefined;
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

function readUnquotedEnd(text: string, at: number): number {
  let end = at;
  while (end < text.length && !VALUE_STOP.has(text.charAt(end))) end += 1;
  return end;
}

function redactAssignments(text: string, counter: Counter): string {
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
      const quoted = readQuoted(text, candidate.valueAt, nextIndex);
      let start = candidate.valueAt;
      let end = candidate.valueAt;
      let isSecret = false;
      if (quoted !== undefined) {
        const content = text.slice(quoted.contentStart, quoted.contentEnd);
        start = quoted.contentStart;
        end = quoted.contentEnd;
        // `"password", "value"` (Java properties) shares its shape with lists of strings: (b) only.
        const isLiteral = candidate.operator !== ',' && isSecretNamingKey(keySegments(key));
        isSecret = isLiteral ? isSecretLiteral(content, quoted.quote) : isSecretShaped(content.trim());
        next = isSecret ? end : start;
      } else if (candidate.operator !== ',') {
        // An unterminated quote: read the token after it.
        if (`'"\``.includes(text.charAt(start))) start += 1;
        else if (text.charAt(start) === '\\' && `'"\``.includes(text.charAt(start + 1))) start += 2;
        const runEnd = readUnquotedEnd(text, start);
        end = runEnd;
        while (end > start && '.:!?'.includes(text.charAt(end - 1))) end -= 1;
        const value = text.slice(start, end);
        const isCall = text.charAt(runEnd) === '(' && /^[A-Za-z_$][\w$.]*$/.test(value);
        if (value.length >= 4 && !'=:'.includes(value.charAt(0)) && !isCall) {
          isSecret = isSecretShaped(value) || (isEnvLine(text, candidate.keyStart, key, candidate.operator) && isEnvSecret(value));
        }
        next = isSecret || runEnd - start > MAX_RESCAN ? runEnd : start;
      }
      if (isSecret) {
        out += text.slice(last, start) + marker('generic-secret');
        count(counter, 'generic-secret');
        last = end;
      }
    }
    pattern.lastIndex = Math.max(next, found.index + 1);
    found = pattern.exec(text);
  }
  return out + text.slice(last);
}

/** Replaces every secret-shaped value with `[REDACTED:<rule>]`. Pure, idempotent, linear-time. */
export function redactSecrets(text: string): RedactionResult {
  const counter: Counter = new Map();
  let out = String(text);
  out = redactPrivateKeys(out, counter);
  out = redactUrlPasswords(out, counter);
  for (const rule of TOKEN_RULES) out = redactTokens(out, rule, counter);
  out = redactJwts(out, counter);
  out = redactPrefixed(out, AUTHORIZATION_HEADER, 'authorization-header', counter);
  out = redactPrefixed(out, BEARER, 'bearer-token', counter);
  out = redactAssignments(out, counter);
  const redactions = [...counter.entries()]
    .map(([rule, n]) => ({ rule, count: n }))
    .sort((a, b) => (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
  return { text: out, redactions };
}

const ANSI_ESCAPE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]{0,4096}(?:\u0007|\u001b\\)?|[PX^_][^\u001b]{0,4096}(?:\u001b\\)?|[@-Z\\-_]|)/g;
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const INVISIBLE_CHARS = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u180e]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function cutAt(text: string, limit: number): string {
  let end = Math.max(0, limit);
  const code = text.charCodeAt(end - 1);
  if (end < text.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

function dropPartialToken(text: string): string {
  let end = text.length;
  while (end > 0 && !/\s/.test(text.charAt(end - 1))) end -= 1;
  return text.slice(0, end);
}

/**
 * Makes untrusted text safe to store and show: strips ANSI escapes, C0/C1 controls (keeps `\n` and `\t`),
 * bidi overrides and zero-width characters, caps the length with a `…[truncated N chars]` marker, and redacts secrets.
 */
export function sanitizeUntrustedText(text: string, maxChars: number): string {
  const limit = Math.max(0, Math.floor(maxChars));
  const stripped = String(text)
    .replace(/\r\n?/g, '\n')
    .replace(ANSI_ESCAPE, '')
    .replace(CONTROL_CHARS, '')
    .replace(INVISIBLE_CHARS, '')
    .replace(LONE_SURROGATE, '\ufffd');
  // Cut generously before redacting (cost), then drop the last partial token so a cut secret cannot leak.
  const budget = limit * 2 + 4096;
  const precut = stripped.length > budget ? dropPartialToken(cutAt(stripped, budget)) : stripped;
  const redacted = redactSecrets(precut).text;
  if (redacted.length <= limit && precut.length === stripped.length) return redacted;
  const kept = cutAt(redacted, Math.min(limit, redacted.length));
  const dropped = stripped.length - precut.length + (redacted.length - kept.length);
  return `${kept}…[truncated ${dropped} chars]`;
}
