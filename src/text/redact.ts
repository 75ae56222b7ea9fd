/**
 * Secret redaction for untrusted or user-visible text (security.md §6). A redactor is deliberately more
 * aggressive than a scanner: the token rules have no entropy floors and no `EXAMPLE` allowlists. The generic
 * `key = value` rule is the exception: it must not eat our own paths, identifiers and prose, so it asks for a
 * secret-shaped value (see the comment above SECRET_KEYWORD). Every pattern is either bounded or scanned manually so
 * that a 1 MB hostile input stays linear. Both failure modes are measured on a corpus (test/text/redact-corpus.test.ts).
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

const AUTHORIZATION_HEADER =
  /(authorization["'\\]{0,3}[ \t]{0,3}[:=][ \t]{0,3}["'\\]{0,3}(?:(?:bearer|basic|token|bot|digest)[ \t]{1,8})?)([^\s"'\\,;[]{8,4096})/gi;
const BEARER = /(bearer[ \t]{1,8})([A-Za-z0-9._~+/-]{16,4096}=*)/gi;
/** `IDENTIFIED BY 'x'` (MySQL), `IDENTIFIED WITH mysql_native_password BY "x"`; `WITH PASSWORD 'x'` is the generic rule's. */
const SQL_IDENTIFIED_BY =
  /\bidentified[ \t]{1,8}(?:with[ \t]{1,8}[\w$]{1,64}[ \t]{1,8})?by[ \t]{1,8}(?:'([^'\n]{1,512})'|"([^"\n]{1,512})")/gi;

const JWT_SEGMENT = /[A-Za-z0-9_-]/;
const JWT_TAIL = /[A-Za-z0-9_/-]/;

const GENERIC = 'generic-secret';
const MAX_URL_AUTHORITY = 512;
const MAX_FLAG_VALUE = 512;

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

interface Span {
  start: number;
  end: number;
}

function replaceSpans(text: string, spans: readonly Span[], rule: string, counter: Counter): string {
  let out = '';
  let last = 0;
  for (const span of spans) {
    out += text.slice(last, span.start) + marker(rule);
    count(counter, rule);
    last = span.end;
  }
  return out + text.slice(last);
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
    // `ghp_xxxxxxxx…` is a placeholder; a 1–7 character tail after the last `_` or `-` of a real token is not.
    const body = match.slice(match.search(/[_-]/) + 1);
    if (body.length >= 8 && isRepeatedChar(body)) return match;
    count(counter, rule.rule);
    return marker(rule.rule);
  });
}

const URL_AUTHORITY_STOP = new Set([...' \t\n\r\f\v/\\"\'`<>']);

/**
 * `scheme://user:password@host`: the password runs from the first `:` of the authority to its *last* `@`, so
 * `mysql://root:p@ssw0rd@host` loses `p@ssw0rd` whole. The authority ends at `/`, whitespace or a quote; a user may be
 * empty (`redis://:pw@host`) or an e-mail address (`https://me@example.com:pw@host`).
 */
function redactUrlPasswords(text: string, counter: Counter): string {
  const spans: Span[] = [];
  let at = text.indexOf('://');
  while (at !== -1) {
    const authorityStart = at + 3;
    let end = authorityStart;
    let colon = -1;
    let lastAt = -1;
    while (end < text.length && end - authorityStart < MAX_URL_AUTHORITY && !URL_AUTHORITY_STOP.has(text.charAt(end))) {
      const char = text.charAt(end);
      if (char === ':' && colon === -1) colon = end;
      else if (char === '@') lastAt = end;
      end += 1;
    }
    if (colon !== -1 && lastAt > colon + 1) {
      const password = text.slice(colon + 1, lastAt);
      if (isHiddenValue(password)) spans.push({ start: colon + 1, end: lastAt });
    }
    at = text.indexOf('://', Math.max(end, at + 1));
  }
  return replaceSpans(text, spans, 'url-password', counter);
}

/** A password in a URL or after a flag: anything but a placeholder, however short (`postgres://u:p@h`). */
function isHiddenValue(secret: string): boolean {
  return secret.length > 0 && (secret.length < 3 || !isPlaceholderValue(secret));
}

function redactPrefixed(text: string, pattern: RegExp, rule: string, counter: Counter): string {
  return text.replace(pattern, (match: string, prefix: string, value: string) => {
    if (isPlaceholder(value)) return match;
    count(counter, rule);
    return prefix + marker(rule);
  });
}

function redactSqlPasswords(text: string, counter: Counter): string {
  return text.replace(SQL_IDENTIFIED_BY, (match: string, single: string | undefined, double: string | undefined) => {
    const password = single ?? double ?? '';
    if (isPlaceholderValue(password)) return match;
    count(counter, GENERIC);
    return match.replace(password, marker(GENERIC));
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
 * Command-line conventions where a *short* or unnamed flag carries a secret. Long flags that name a secret
 * (`--password`, `--token`, `--api-key`, `--client-secret`) need no list: the generic rule and redactArgv read them by
 * name. A convention applies after one of its commands on the same line (text) or earlier in the same argv, until a
 * `|`, `;`, `&&` or `||` ends the command.
 *   - mysql family and 7-Zip: `-pSECRET` attached only (`mysql -p` alone prompts, and the next word is the database);
 *   - sshpass `-p SECRET`, mongo/mongosh/mongodump… `-p SECRET`, redis-cli `-a SECRET`, sqlcmd/bcp `-P SECRET`,
 *     ldapsearch & co. `-w SECRET`, zip/unzip `-P SECRET`, `docker|podman|helm … login -p SECRET`,
 *     ssh-keygen `-N|-P SECRET`, keytool/jarsigner `-storepass|-keypass|… SECRET`;
 *   - curl `-u|--user|-U|--proxy-user user:SECRET` (after the first `:`), smbclient `-U user%SECRET` (after `%`);
 *   - openssl `-passin|-passout|-pass pass:SECRET` (only the `pass:` form; `env:` and `file:` name no secret).
 * A value that looks like a flag (`mongosh -p --quiet`) is not taken: the flag prompts for the password then.
 */
export interface CommandSecretFlag {
  commands: readonly string[];
  /** A word that must follow the command before the flag counts (`docker login`). */
  subcommand?: string;
  flags: readonly string[];
  /** `-pSECRET`, `-uuser:pw`, `--user=user:pw` (a long flag needs `=`). */
  isAttached: boolean;
  /** `-p SECRET`: the next word is the value. */
  isSeparate: boolean;
  part: 'whole' | 'after-colon' | 'after-percent' | 'after-pass-prefix';
}

export const COMMAND_SECRET_FLAGS: readonly CommandSecretFlag[] = [
  {
    commands: [
      'mysql',
      'mysqldump',
      'mysqladmin',
      'mysqlimport',
      'mysqlcheck',
      'mysqlshow',
      'mysqlslap',
      'mysqlpump',
      'mysqlbinlog',
      'mariadb',
      'mariadb-dump',
      'mariadb-admin',
      'mariadb-import',
      'mariadb-check',
      'mariadb-show',
    ],
    flags: ['-p'],
    isAttached: true,
    isSeparate: false,
    part: 'whole',
  },
  { commands: ['7z', '7za', '7zr'], flags: ['-p'], isAttached: true, isSeparate: false, part: 'whole' },
  { commands: ['sshpass'], flags: ['-p'], isAttached: true, isSeparate: true, part: 'whole' },
  {
    commands: ['mongo', 'mongosh', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport', 'mongostat', 'mongotop'],
    flags: ['-p', '--password'],
    isAttached: true,
    isSeparate: true,
    part: 'whole',
  },
  { commands: ['sqlcmd', 'bcp', 'osql', 'isql'], flags: ['-P'], isAttached: true, isSeparate: true, part: 'whole' },
  {
    commands: ['ldapsearch', 'ldapadd', 'ldapmodify', 'ldapdelete', 'ldapwhoami', 'ldappasswd', 'ldapcompare', 'ldapmodrdn'],
    flags: ['-w'],
    isAttached: true,
    isSeparate: true,
    part: 'whole',
  },
  { commands: ['zip', 'unzip', 'zipcloak'], flags: ['-P', '--password'], isAttached: false, isSeparate: true, part: 'whole' },
  {
    commands: ['keytool', 'jarsigner'],
    flags: ['-storepass', '-keypass', '-srcstorepass', '-deststorepass', '-srckeypass', '-destkeypass'],
    isAttached: false,
    isSeparate: true,
    part: 'whole',
  },
  { commands: ['smbclient', 'rpcclient', 'smbmap'], flags: ['-U', '--user'], isAttached: true, isSeparate: true, part: 'after-percent' },
  { commands: ['redis-cli', 'valkey-cli', 'keydb-cli'], flags: ['-a'], isAttached: true, isSeparate: true, part: 'whole' },
  {
    commands: ['docker', 'podman', 'nerdctl', 'buildah', 'skopeo', 'helm', 'oras'],
    subcommand: 'login',
    flags: ['-p'],
    isAttached: true,
    isSeparate: true,
    part: 'whole',
  },
  { commands: ['ssh-keygen'], flags: ['-N', '-P'], isAttached: false, isSeparate: true, part: 'whole' },
  { commands: ['curl'], flags: ['-u', '--user', '-U', '--proxy-user'], isAttached: true, isSeparate: true, part: 'after-colon' },
  { commands: ['openssl'], flags: ['-passin', '-passout', '-pass'], isAttached: false, isSeparate: true, part: 'after-pass-prefix' },
];

const CONVENTION_BY_COMMAND = new Map<string, CommandSecretFlag[]>();
for (const convention of COMMAND_SECRET_FLAGS) {
  for (const command of convention.commands)
    CONVENTION_BY_COMMAND.set(command, [...(CONVENTION_BY_COMMAND.get(command) ?? []), convention]);
}
const COMMAND_WORD = new RegExp(
  `(?<![\\w.-])(?:${[...CONVENTION_BY_COMMAND.keys()].sort((a, b) => b.length - a.length).join('|')})(?:\\.exe)?(?![\\w-])`,
  'g',
);
const COMMAND_SEPARATORS = new Set(['|', '||', '&&', ';', '&']);
const FLAG_LIKE = /^--?[A-Za-z]/;

/** `/usr/bin/mysql`, `mysql.exe`, `(curl`, `$(curl`: the command a word names, if any. */
function commandOf(word: string): string | undefined {
  const bare = word.replace(/^[$(]{1,3}|^["']/, '');
  const base = bare.slice(bare.lastIndexOf('/') + 1).replace(/\.exe$/i, '');
  return CONVENTION_BY_COMMAND.has(base) ? base : undefined;
}

/** Where the secret sits inside a flag's value (`user:pw` → after the colon), or undefined when it carries none. */
function secretPart(value: string, part: CommandSecretFlag['part']): Span | undefined {
  let start = 0;
  if (part === 'after-colon' || part === 'after-percent') {
    const separator = part === 'after-colon' ? ':' : '%';
    let at = value.indexOf(separator);
    // `[REDACTED:github-token]:x-oauth-basic`: the marker's own colon separates nothing.
    while (at !== -1 && value.lastIndexOf('[REDACTED:', at) > value.lastIndexOf(']', at)) at = value.indexOf(separator, at + 1);
    if (at === -1) return undefined;
    start = at + 1;
  } else if (part === 'after-pass-prefix') {
    if (!value.startsWith('pass:')) return undefined;
    start = 5;
  }
  const secret = value.slice(start);
  if (!isHiddenValue(secret) || (part === 'after-colon' && NUMBER_LIKE.test(secret))) return undefined;
  return { start, end: value.length };
}

/** The flag a word starts with, for the active conventions: a separate value follows, or the value is attached. */
function matchFlag(
  word: string,
  conventions: readonly CommandSecretFlag[],
  hasSubcommand: (c: CommandSecretFlag) => boolean,
): { convention: CommandSecretFlag; valueOffset: number | undefined } | undefined {
  for (const convention of conventions) {
    if (!hasSubcommand(convention)) continue;
    for (const flag of convention.flags) {
      if (word === flag && convention.isSeparate) return { convention, valueOffset: undefined };
      if (!convention.isAttached || !word.startsWith(flag) || word.length === flag.length) continue;
      if (flag.startsWith('--')) {
        if (word.charAt(flag.length) === '=') return { convention, valueOffset: flag.length + 1 };
      } else if (flag.length === 2) return { convention, valueOffset: flag.length };
    }
  }
  return undefined;
}

const QUOTES = `'"`;

function isBlank(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\r';
}

/** A flag value in text: a quoted run on the line (`'…'`, `"…"`, JSON-escaped `\"…\"`), or a word up to a blank, backtick or quote. */
function readFlagValue(text: string, at: number, lineEnd: number): { start: number; end: number; next: number } {
  const isEscaped = text.charAt(at) === '\\' && QUOTES.includes(text.charAt(at + 1));
  const quote = text.charAt(isEscaped ? at + 1 : at);
  if (QUOTES.includes(quote)) {
    const open = at + (isEscaped ? 2 : 1);
    const close = text.indexOf(isEscaped ? `\\${quote}` : quote, open);
    if (close !== -1 && close < lineEnd && close - at <= MAX_FLAG_VALUE)
      return { start: open, end: close, next: close + (isEscaped ? 2 : 1) };
  }
  let end = at;
  while (end < lineEnd && !isBlank(text.charAt(end)) && !'`\'"'.includes(text.charAt(end))) end += 1;
  const next = end;
  if (text.charAt(end - 1) === '\\' && QUOTES.includes(text.charAt(end))) end -= 1;
  return { start: at, end, next };
}

/** Applies COMMAND_SECRET_FLAGS to each line from its first command word on; every character is read once. */
function redactCommandFlags(text: string, counter: Counter): string {
  const spans: Span[] = [];
  const command = new RegExp(COMMAND_WORD.source, 'g');
  let found = command.exec(text);
  while (found !== null) {
    const newline = text.indexOf('\n', found.index);
    const lineEnd = newline === -1 ? text.length : newline;
    let conventions: readonly CommandSecretFlag[] = [];
    let words: string[] = [];
    let at = found.index;
    while (at < lineEnd) {
      while (at < lineEnd && (isBlank(text.charAt(at)) || text.charAt(at) === '`')) at += 1;
      const wordStart = at;
      while (at < lineEnd && !isBlank(text.charAt(at)) && text.charAt(at) !== '`') at += 1;
      if (at === wordStart) break;
      const word = text.slice(wordStart, at);
      const name = commandOf(word);
      if (name !== undefined) {
        conventions = CONVENTION_BY_COMMAND.get(name) ?? [];
        words = [];
        continue;
      }
      if (COMMAND_SEPARATORS.has(word) || word.endsWith(';')) {
        conventions = [];
        continue;
      }
      if (conventions.length === 0) continue;
      if (words.length < 8) words.push(word);
      const flag = matchFlag(word, conventions, (c) => c.subcommand === undefined || words.includes(c.subcommand));
      if (flag === undefined) continue;
      let valueAt = wordStart + (flag.valueOffset ?? word.length);
      if (flag.valueOffset === undefined) {
        while (valueAt < lineEnd && isBlank(text.charAt(valueAt))) valueAt += 1;
        if (valueAt >= lineEnd || FLAG_LIKE.test(text.slice(valueAt, valueAt + 3))) continue;
      }
      const value = readFlagValue(text, valueAt, lineEnd);
      const part = secretPart(text.slice(value.start, value.end), flag.convention.part);
      if (part !== undefined) spans.push({ start: value.start + part.start, end: value.start + part.end });
      at = Math.max(at, value.next);
    }
    command.lastIndex = Math.max(lineEnd, found.index + 1);
    found = command.exec(text);
  }
  return replaceSpans(text, spans, GENERIC, counter);
}

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
/** Last key words that name the secret itself. */
const SECRET_NOUNS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pass',
  'secret',
  'token',
  'apikey',
  'secretkey',
  'accesskey',
  'privatekey',
  'authtoken',
  'clientsecret',
  'credential',
  'cred',
  'authorization',
]);
const SECRET_NOUN_ENDINGS = ['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'secretkey', 'accesskey', 'privatekey'];
/** Words that mention a secret without naming the value (`auth`, bare `key`, `pwd` is also the working directory). */
const WEAK_SECRET_WORDS = new Set(['auth', 'key', 'pwd']);
const PLURAL_NOUNS = new Set(['password', 'passwd', 'passphrase', 'secret', 'token', 'pwd', 'apikey', 'key', 'credential', 'cred', 'auth']);
const KEY_QUALIFIERS = new Set([
  'api',
  'access',
  'private',
  'secret',
  'client',
  'signing',
  'encryption',
  'master',
  'license',
  'ssh',
  'deploy',
  'service',
  'app',
  'account',
  'shared',
  'session',
  'hmac',
  'jwt',
  'webhook',
  'consumer',
  'subscription',
  'admin',
  'auth',
  'decryption',
  'crypto',
  'aes',
  'gpg',
  'pgp',
  'rsa',
  'sas',
  'root',
  'bot',
  'integration',
  'write',
  'read',
]);
/** `<qualifier>Key` names that are data or UI keys, never credentials. */
const NON_SECRET_KEY_QUALIFIERS = new Set([
  'sort',
  'primary',
  'foreign',
  'cache',
  'idempotency',
  'idempotence',
  'partition',
  'hot',
  'shortcut',
  'short',
  'lookup',
  'unique',
  'composite',
  'compound',
  'row',
  'range',
  'hash',
  'dedupe',
  'dedup',
  'group',
  'index',
  'map',
  'object',
  'item',
  'list',
  'react',
  'query',
  'route',
  'state',
  'translation',
  'i18n',
  'message',
  'label',
  'field',
  'column',
  'order',
  'lock',
  'cursor',
  'page',
  'event',
  'metric',
  'config',
  'setting',
  'header',
  'public',
  'natural',
  'surrogate',
  'candidate',
  'cluster',
  'shard',
  'routing',
  'file',
  'path',
  'id',
  'name',
  'dict',
  'registry',
  'prop',
  'attribute',
  'attr',
  'data',
  'type',
  'table',
  'record',
  'entity',
  'search',
  'filter',
  'option',
  'menu',
  'hint',
  'locale',
  'context',
  'slot',
  'store',
  'local',
  'memo',
  'dependency',
  'deps',
  'sequence',
  'version',
  'tenant',
  'request',
  'job',
  'task',
  'queue',
  'topic',
  'stream',
  'tag',
  'node',
  'child',
  'parent',
  'next',
  'prev',
  'last',
  'first',
  'enter',
  'escape',
  'arrow',
  'modifier',
  'press',
  'down',
  'up',
  'mapping',
  'binding',
  'cell',
  'sheet',
  'lang',
  'i18next',
]);
const MAX_KEY_HEAD = 64;
const MAX_KEY_TAIL = 30;
const MAX_QUOTED = 512;
const MAX_RESCAN = 256;
const MAX_LINE_VALUE = 256;
const VALUE_STOP = new Set([...' \t\n\r\f\v\'"`\\,;<>(){}[]|']);
const LITERAL_KEYWORDS = new Set([
  'true',
  'false',
  'null',
  'undefined',
  'none',
  'nil',
  'yes',
  'no',
  'on',
  'off',
  'required',
  'optional',
  'string',
  'number',
  'boolean',
  'object',
  'array',
  'any',
  'unknown',
  'include',
  'omit',
  'same-origin',
]);
const SOURCE_EXTENSION =
  /\.(?:[cm]?[jt]sx?|mdx?|markdown|json5?|jsonc|ya?ml|toml|ini|cfg|conf|config|env|txt|rst|adoc|html?|css|scss|less|vue|svelte|py|rb|go|rs|java|kt|kts|swift|c|h|cc|cpp|hpp|cs|php|sh|bash|zsh|ps1|sql|xml|csv|lock|log|pem|crt|key|pub|gpg|asc|p12|pfx|jks|keystore|gradle|properties|tf|tfvars|hcl|dockerfile|graphql|gql|proto|wasm|map|snap|golden)$/i;
const URL_LIKE = /^[a-z][a-z0-9+.-]{0,15}:\/\//i;
const NUMBER_LIKE = /^[~^<>=+-]{0,2}[vV]?\d[\d.,:_/+-]{0,64}(?:T[\d.,:_+-]{1,32}Z?)?(?:%|ms|[smhdwy]|[kmgt]i?b?)?$/i;
const EMAIL_LIKE = /^[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}$/;
const KEY_CHORD =
  /^(?:(?:ctrl|control|cmd|command|alt|option|opt|shift|meta|super|win|mod|hyper|fn|⌘|⌥|⇧|⌃)\+){1,4}(?:[A-Za-z0-9]|f\d{1,2}|[a-z]{2,10}|[^\sA-Za-z0-9])$/i;
/** `!vault |`, `!secret db_password`, `!Ref DbPassword`: a YAML tag names where the value comes from. */
const YAML_TAG = /^!{1,2}[A-Za-z][\w/.:-]{0,64}$/;
const ARN = /^arn:[\w-]{1,32}:[\w-]{0,64}:[\w-]{0,32}:\d{0,12}:[\w/:.+=@*-]{1,512}$/;
const CONSTANT_NAME_WITH_UNDERSCORE = /^[A-Z]+(?:_(?:[A-Z]+|\d+))+$/;
const ENV_LINE_PREFIX = /^[ \t]*(?:[+-][ \t]*)?(?:(?:export|ENV|set|setenv)[ \t]+)?$/;
const ENV_KEY = /^[A-Z][A-Z0-9_]*$/;
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

/** `process.env.TOKEN`, `os.environ["TOKEN"]`, `env:TOKEN`, `ENV['TOKEN']`, `$TOKEN`, `${TOKEN}`, `%TOKEN%`. */
function isEnvReference(value: string): boolean {
  if (/^\$\{?[A-Za-z_]\w*\}?$/.test(value) || /^%[\w.-]+%$/.test(value)) return true;
  if (/^(?:env|file|fd|stdin|vault|secret|secrets|op|ssm|keychain):[\w./{}-]+$/i.test(value)) return true;
  return /^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|ENV|env|System\.getenv|Deno\.env\.get)(?:\.[A-Za-z_]\w*|\[["'`]?[\w.-]+["'`]?\]|\(["'`][\w.-]+["'`]\))$/.test(
    value,
  );
}

/** `xxxx-xxxx`, `sk_live_xxxxxxxxxxxx`: a run of x that makes up most of the value, not 4 x's inside random text. */
function isMostlyX(value: string): boolean {
  if (!/x{4,}/i.test(value)) return false;
  const alphanumerics = value.replace(/[^A-Za-z0-9]/g, '');
  return alphanumerics.replace(/[^xX]/g, '').length * 2 >= alphanumerics.length;
}

function isPlaceholderValue(value: string): boolean {
  if (value.includes('[REDACTED')) return true;
  if (/^<[^<>]*>$/.test(value)) return true;
  if (value.includes('${') || value.includes('{{') || value.includes('}}')) return true;
  if (/^\$[A-Za-z_]\w*$/.test(value) || /^%[\w.-]+%$/.test(value)) return true;
  if (isMostlyX(value) || /\*{3,}|•{3,}|…|\.{3}/.test(value)) return true;
  if (/^your[\s_-]/i.test(value)) return true;
  return isRepeatedChar(value);
}

function isPlainValue(value: string): boolean {
  return (
    isPlaceholderValue(value) ||
    LITERAL_KEYWORDS.has(value.toLowerCase()) ||
    NUMBER_LIKE.test(value) ||
    EMAIL_LIKE.test(value) ||
    KEY_CHORD.test(value) ||
    ARN.test(value) ||
    YAML_TAG.test(value)
  );
}

/** (b): a single token that looks like a secret and like nothing else. */
function isSecretShaped(value: string): boolean {
  if (value.length < 6 || /\s/.test(value)) return false;
  if (isPlainValue(value) || isPathLike(value) || isDottedReference(value) || isIdentifierWords(value) || isEnvReference(value))
    return false;
  // Punctuation around a word (`myapp:`, `(beta)`) is not a symbol class of its own; `hunter2!` keeps its digit.
  const core = value.replace(/^[^A-Za-z0-9]{1,3}|[^A-Za-z0-9]{1,3}$/g, '');
  return characterClasses(core) >= 2 || value.length >= 20 || shannonEntropy(value) >= 3.5;
}

/** (a): a quoted literal given to a key that names a secret. */
function isSecretLiteral(content: string, quote: string): boolean {
  const value = content.trim();
  if (value.length < 4 || isPlainValue(value)) return false;
  if (/\s/.test(value)) return true;
  if (isPathLike(value) || isDottedReference(value) || isEnvReference(value) || CONSTANT_NAME_WITH_UNDERSCORE.test(value)) return false;
  // A Markdown code span names code (`token: \`validateToken\``); a literal in quotes is the value itself.
  return quote !== '`' || !isIdentifierWords(value);
}

/** (c): any unquoted value where only a value can sit, words included, except references, paths, numbers and placeholders. */
function isBareSecret(value: string): boolean {
  if (value.length < 4 || isPlainValue(value) || isPathLike(value) || isDottedReference(value) || isEnvReference(value)) return false;
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

function isSecretNoun(segment: string): boolean {
  return SECRET_NOUNS.has(segment) || SECRET_NOUN_ENDINGS.some((noun) => segment.endsWith(noun));
}

type KeyKind = 'names-secret' | 'mentions-secret' | 'not-secret';

/**
 * One classification for the text rule and redactAssignedValue. An UPPER_SNAKE key is an environment variable: there
 * any `*_KEY` but a data key (`SORT_KEY`) names a secret, and `*_PWD` does too (bare `PWD`/`OLDPWD` is a directory).
 */
/**
 * First words that make a key a function or method name (`redactSecrets`, `validateToken`, `get_password`), whose
 * "value" in prose or a test title is a description (`redactSecrets: properties`). Noun adjuncts that also read as
 * verbs (`reset`, `refresh`, `access`, `session`, `verify` in `VERIFY_TOKEN`) are not listed: `resetToken: …` is a
 * secret. Such a key only mentions a secret: a secret-shaped value after it is still redacted. Environment-style keys
 * never count as function names.
 */
const FUNCTION_VERBS = new Set([
  'get',
  'set',
  'redact',
  'validate',
  'check',
  'parse',
  'mask',
  'hide',
  'strip',
  'remove',
  'read',
  'load',
  'fetch',
  'find',
  'create',
  'generate',
  'rotate',
  'revoke',
  'handle',
  'is',
  'has',
  'use',
  'make',
  'build',
  'encode',
  'decode',
  'encrypt',
  'decrypt',
  'store',
  'save',
  'update',
  'delete',
  'clear',
  'ensure',
  'sanitize',
  'scrub',
  'print',
  'log',
  'format',
  'render',
  'compare',
  'require',
  'extract',
  'issue',
  'mint',
  'detect',
  'scan',
  'test',
  'assert',
  'expect',
  'should',
]);

function classifyKey(key: string): KeyKind {
  const segments = keySegments(key);
  if (!segments.some((segment) => isSecretNoun(segment) || WEAK_SECRET_WORDS.has(segment))) return 'not-secret';
  const last = segments[segments.length - 1] ?? '';
  const previous = segments[segments.length - 2];
  const isEnv = ENV_KEY.test(key.replace(/^\$/, ''));
  if (!isEnv && segments.length > 1 && FUNCTION_VERBS.has(segments[0] ?? '')) return 'mentions-secret';
  if (last === 'key') {
    if (previous !== undefined && NON_SECRET_KEY_QUALIFIERS.has(previous)) return 'not-secret';
    if ((previous !== undefined && KEY_QUALIFIERS.has(previous)) || isEnv) return 'names-secret';
    return 'mentions-secret';
  }
  if (last === 'pwd') return isEnv && previous !== undefined && previous !== 'old' ? 'names-secret' : 'mentions-secret';
  return isSecretNoun(last) ? 'names-secret' : 'mentions-secret';
}

/** `--password`, `-Ddb.password`, `-passin`: a command-line flag, whose value is whatever follows it. */
function isFlag(key: string): boolean {
  return /^--?[A-Za-z][\w.-]*$/.test(key);
}

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
      const isSecret = value.length >= 4 && !isNote && !isPlainValue(value) && !isPathLike(value) && !isEnvReference(value);
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
    if (isFlag(key) && names && !FLAG_PROSE_WORDS.has(value.toLowerCase())) return isBareSecret(value);
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

/**
 * Replaces every secret-shaped value with `[REDACTED:<rule>]`. Pure, idempotent, linear-time; the output is at most 8×
 * the input (a 25-character marker for a 1-character secret needs 3+ characters of syntax around it) plus a constant.
 */
export function redactSecrets(text: string): RedactionResult {
  const counter: Counter = new Map();
  let out = String(text);
  out = redactPrivateKeys(out, counter);
  out = redactUrlPasswords(out, counter);
  for (const rule of TOKEN_RULES) out = redactTokens(out, rule, counter);
  out = redactJwts(out, counter);
  // After the token rules, so a command word glued to a token (`…EXAMPLEcurl -u a:b`) reads the same in both passes.
  out = redactCommandFlags(out, counter);
  out = redactPrefixed(out, AUTHORIZATION_HEADER, 'authorization-header', counter);
  out = redactPrefixed(out, BEARER, 'bearer-token', counter);
  out = redactSqlPasswords(out, counter);
  out = redactAssignments(out, counter);
  const redactions = [...counter.entries()]
    .map(([rule, n]) => ({ rule, count: n }))
    .sort((a, b) => (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
  return { text: out, redactions };
}

/** Empty, a placeholder, an environment reference, a path, a number or a literal keyword: nothing to hide. */
function isHarmlessValue(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length === 0) return true;
  if (isPlaceholderValue(trimmed) || isEnvReference(trimmed) || isDottedReference(trimmed)) return true;
  return LITERAL_KEYWORDS.has(trimmed.toLowerCase()) || NUMBER_LIKE.test(trimmed) || isPathLike(trimmed);
}

/**
 * The value of `key` (an object property in JSON/YAML, a CLI flag such as `--password` or `-p`, an env variable),
 * redacted whole as `[REDACTED:generic-secret]` when the key names a secret and the value is not plainly harmless, or
 * when the key mentions one and the value is secret-shaped; otherwise redactSecrets(value).text. Keys are classified
 * exactly as in the generic text rule, so `sortKey`/`primaryKey` values are never hidden and `pwd` only when
 * secret-shaped.
 */
export function redactAssignedValue(key: string, value: string): string {
  const text = String(value);
  const kind = classifyKey(String(key).replace(/^-{1,2}/, ''));
  if (kind === 'names-secret' && !isHarmlessValue(text)) return marker(GENERIC);
  if (kind === 'mentions-secret' && isSecretShaped(text.trim())) return marker(GENERIC);
  return redactSecrets(text).text;
}

const HEADER_FLAGS = new Set(['-H', '--header', '--proxy-header']);
const ENV_ELEMENT = /^([A-Za-z_][A-Za-z0-9_.-]*)=([\s\S]*)$/;
const FLAG_WITH_VALUE = /^(--?[A-Za-z][\w.-]*)=([\s\S]*)$/;
const BARE_FLAG = /^--?[A-Za-z][\w.-]*$/;

function redactHeaderValue(header: string): string {
  const colon = header.indexOf(':');
  if (colon <= 0) return redactSecrets(header).text;
  const name = header.slice(0, colon);
  const rest = header.slice(colon + 1);
  const blanks = rest.length - rest.trimStart().length;
  return `${name}:${rest.slice(0, blanks)}${redactAssignedValue(name.trim(), rest.slice(blanks))}`;
}

function redactSpanOf(value: string, span: Span | undefined): string {
  if (span === undefined) return value;
  return value.slice(0, span.start) + marker(GENERIC) + value.slice(span.end);
}

/**
 * Redacts an argv list element by element, reading each element in the context of the one before: the value after
 * a flag that names a secret (`--password X`, `--token X`, `--api-key X`; not when X is itself a flag), `--password=X`,
 * `-H 'Authorization: …'` and other headers, COMMAND_SECRET_FLAGS (`mysql -pX`, `curl -u user:X`, `sshpass -p X`, …),
 * `KEY=VALUE` elements; every element also goes through redactSecrets.
 */
export function redactArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  let conventions: readonly CommandSecretFlag[] = [];
  let words: string[] = [];
  let pending: ((value: string) => string) | undefined;
  for (const element of argv) {
    const arg = String(element);
    if (pending !== undefined && !BARE_FLAG.test(arg)) {
      out.push(redactSecrets(pending(arg)).text);
      pending = undefined;
      continue;
    }
    pending = undefined;
    const command = commandOf(arg);
    if (command !== undefined) {
      conventions = CONVENTION_BY_COMMAND.get(command) ?? [];
      words = [];
      out.push(arg);
      continue;
    }
    if (COMMAND_SEPARATORS.has(arg)) conventions = [];
    if (words.length < 8) words.push(arg);
    const flag = matchFlag(arg, conventions, (c) => c.subcommand === undefined || words.includes(c.subcommand));
    if (flag !== undefined) {
      const { convention, valueOffset } = flag;
      if (valueOffset === undefined) {
        pending = (value) => redactSpanOf(value, secretPart(value, convention.part));
        out.push(arg);
      } else {
        const value = arg.slice(valueOffset);
        out.push(redactSecrets(arg.slice(0, valueOffset) + redactSpanOf(value, secretPart(value, convention.part))).text);
      }
      continue;
    }
    if (HEADER_FLAGS.has(arg)) {
      pending = redactHeaderValue;
      out.push(arg);
      continue;
    }
    const withValue = FLAG_WITH_VALUE.exec(arg);
    if (withValue !== null) {
      const [, name = '', value = ''] = withValue;
      const redacted = HEADER_FLAGS.has(name) ? redactHeaderValue(value) : redactAssignedValue(name, value);
      out.push(`${name}=${redactSecrets(redacted).text}`);
      continue;
    }
    if (BARE_FLAG.test(arg) && classifyKey(arg.replace(/^-{1,2}/, '')) !== 'not-secret') {
      pending = (value) => redactAssignedValue(arg, value);
      out.push(arg);
      continue;
    }
    const assignment = ENV_ELEMENT.exec(arg);
    if (assignment !== null) {
      const [, name = '', value = ''] = assignment;
      out.push(`${name}=${redactAssignedValue(name, value)}`);
      continue;
    }
    out.push(redactSecrets(arg).text);
  }
  return out;
}

const ANSI_ESCAPE =
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]{0,4096}(?:\u0007|\u001b\\)?|[PX^_][^\u001b]{0,4096}(?:\u001b\\)?|[@-Z\\-_]|)/g;
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
