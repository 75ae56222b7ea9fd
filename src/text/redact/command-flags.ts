/** Command-line conventions where a short or unnamed flag carries a secret (`mysql -pX`, `curl -u user:X`). */
import { type Counter, GENERIC, replaceSpans, type Span } from './marks.js';
import { isBlank, isHiddenValue, NUMBER_LIKE } from './values.js';

const MAX_FLAG_VALUE = 512;

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

export const CONVENTION_BY_COMMAND = new Map<string, CommandSecretFlag[]>();
for (const convention of COMMAND_SECRET_FLAGS) {
  for (const command of convention.commands)
    CONVENTION_BY_COMMAND.set(command, [...(CONVENTION_BY_COMMAND.get(command) ?? []), convention]);
}
const COMMAND_WORD = new RegExp(
  `(?<![\\w.-])(?:${[...CONVENTION_BY_COMMAND.keys()].sort((a, b) => b.length - a.length).join('|')})(?:\\.exe)?(?![\\w-])`,
  'g',
);
export const COMMAND_SEPARATORS = new Set(['|', '||', '&&', ';', '&']);
const FLAG_LIKE = /^--?[A-Za-z]/;

/** `/usr/bin/mysql`, `mysql.exe`, `(curl`, `$(curl`: the command a word names, if any. */
export function commandOf(word: string): string | undefined {
  const bare = word.replace(/^[$(]{1,3}|^["']/, '');
  const base = bare.slice(bare.lastIndexOf('/') + 1).replace(/\.exe$/i, '');
  return CONVENTION_BY_COMMAND.has(base) ? base : undefined;
}

/** Where the secret sits inside a flag's value (`user:pw` → after the colon), or undefined when it carries none. */
export function secretPart(value: string, part: CommandSecretFlag['part']): Span | undefined {
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
export function matchFlag(
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
export function redactCommandFlags(text: string, counter: Counter): string {
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
