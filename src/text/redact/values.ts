/** What a value looks like: placeholders, paths, references, numbers, or a secret-shaped token. */
import { isRepeatedChar } from './marks.js';

/** A password in a URL or after a flag: anything but a placeholder, however short (`postgres://u:p@h`). */
export function isHiddenValue(secret: string): boolean {
  return secret.length > 0 && (secret.length < 3 || !isPlaceholderValue(secret));
}
const IDENTIFIER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const LOWERCASE_WORDS = /^[a-z][a-z_-]*$/;
const CONSTANT_NAME = /^[A-Z][A-Z_]*$/;
const KEYWORD_VALUES = new Set(['true', 'false', 'null', 'undefined', 'none', 'required', 'optional']);

export function isPlaceholder(value: string): boolean {
  if (value.startsWith('$') || value.startsWith('[REDACTED:')) return true;
  if (/^%[\w.-]+%$/.test(value)) return true;
  if (KEYWORD_VALUES.has(value.toLowerCase())) return true;
  if (isRepeatedChar(value)) return true;
  if (LOWERCASE_WORDS.test(value) || CONSTANT_NAME.test(value)) return true;
  return IDENTIFIER_PATH.test(value) && value.includes('.');
}
export function isBlank(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\r';
}

/** A flag value in text: a quoted run on the line (`'…'`, `"…"`, JSON-escaped `\"…\"`), or a word up to a blank, backtick or quote. */
export const LITERAL_KEYWORDS = new Set([
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
export const NUMBER_LIKE = /^[~^<>=+-]{0,2}[vV]?\d[\d.,:_/+-]{0,64}(?:T[\d.,:_+-]{1,32}Z?)?(?:%|ms|[smhdwy]|[kmgt]i?b?)?$/i;
const EMAIL_LIKE = /^[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}$/;
const KEY_CHORD =
  /^(?:(?:ctrl|control|cmd|command|alt|option|opt|shift|meta|super|win|mod|hyper|fn|⌘|⌥|⇧|⌃)\+){1,4}(?:[A-Za-z0-9]|f\d{1,2}|[a-z]{2,10}|[^\sA-Za-z0-9])$/i;
/** `!vault |`, `!secret db_password`, `!Ref DbPassword`: a YAML tag names where the value comes from. */
const YAML_TAG = /^!{1,2}[A-Za-z][\w/.:-]{0,64}$/;
const ARN = /^arn:[\w-]{1,32}:[\w-]{0,64}:[\w-]{0,32}:\d{0,12}:[\w/:.+=@*-]{1,512}$/;
const CONSTANT_NAME_WITH_UNDERSCORE = /^[A-Z]+(?:_(?:[A-Z]+|\d+))+$/;
export const ENV_KEY = /^[A-Z][A-Z0-9_]*$/;

export function isLower(char: string): boolean {
  return char >= 'a' && char <= 'z';
}

export function isUpper(char: string): boolean {
  return char >= 'A' && char <= 'Z';
}

function isDigit(char: string): boolean {
  return char >= '0' && char <= '9';
}

export function isLetter(char: string): boolean {
  return isLower(char) || isUpper(char);
}

export function isKeyChar(char: string): boolean {
  return isLetter(char) || isDigit(char) || char === '_' || char === '.' || char === '-';
}

export function isSpace(char: string): boolean {
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

/**
 * `--max-nodes`, `--trust-changed-config`, `-Verbose`: an option's name, identifier words behind one or two dashes.
 * The dashes are punctuation, as around any other word: what follows a secret key in `pass --max-nodes` is the next
 * option, not a value.
 */
export function isFlagName(value: string): boolean {
  return /^--?[A-Za-z]/.test(value) && isIdentifierWords(value.replace(/^--?/, ''));
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
export function isPathLike(value: string): boolean {
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
export function isDottedReference(value: string): boolean {
  const parts = value.split('.');
  if (parts.length < 2) return false;
  return parts.every((part) => {
    const core = part.replace(/^[$_]{1,4}/, '').replace(/[_\d]{1,3}$/, '');
    return core.length > 0 && isIdentifierWords(core);
  });
}

/** `process.env.TOKEN`, `os.environ["TOKEN"]`, `env:TOKEN`, `ENV['TOKEN']`, `$TOKEN`, `${TOKEN}`, `%TOKEN%`. */
export function isEnvReference(value: string): boolean {
  if (/^\$\{?[A-Za-z_]\w*\}?$/.test(value) || /^%[\w.-]+%$/.test(value)) return true;
  if (/^(?:env|file|fd|stdin|vault|secret|secrets|op|ssm|keychain):[\w./{}-]+$/i.test(value)) return true;
  return /^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|ENV|env|System\.getenv|Deno\.env\.get)(?:\.[A-Za-z_]\w*|\[["'`]?[\w.-]+["'`]?\]|\(["'`][\w.-]+["'`]\))$/.test(
    value,
  );
}

/** `$NAME`, `${NAME}`, `${{ expr }}`, `{{ expr }}`: a reference a CI or template fills in, not a value of its own. */
const INTERPOLATION = /\$\{\{[^}]*\}\}|\{\{[^}]*\}\}|\$\{[A-Za-z_][\w.]*\}|\$[A-Za-z_]\w*/g;

/**
 * A value built from interpolated references and a little literal text (`checker-$CI_COMMIT_REF_SLUG`,
 * `${{ secrets.TOKEN }}`, `{{ .Values.key }}-v2`): what the references stand for is not in the text, and the literal
 * rest is not secret-shaped. A real secret with a reference glued on (`s3cr3tP4ssw0rd$X`) keeps its shape and is not
 * excused.
 */
export function isInterpolatedValue(value: string): boolean {
  if (!INTERPOLATION.test(value)) return false;
  INTERPOLATION.lastIndex = 0;
  const rest = value.replace(INTERPOLATION, '');
  return rest.length < 6 || !isSecretShaped(rest);
}

/** `xxxx-xxxx`, `sk_live_xxxxxxxxxxxx`: a run of x that makes up most of the value, not 4 x's inside random text. */
function isMostlyX(value: string): boolean {
  if (!/x{4,}/i.test(value)) return false;
  const alphanumerics = value.replace(/[^A-Za-z0-9]/g, '');
  return alphanumerics.replace(/[^xX]/g, '').length * 2 >= alphanumerics.length;
}

export function isPlaceholderValue(value: string): boolean {
  if (value.includes('[REDACTED')) return true;
  if (/^<[^<>]*>$/.test(value)) return true;
  if (value.includes('${') || value.includes('{{') || value.includes('}}')) return true;
  if (/^\$[A-Za-z_]\w*$/.test(value) || /^%[\w.-]+%$/.test(value)) return true;
  if (isMostlyX(value) || /\*{3,}|•{3,}|…|\.{3}/.test(value)) return true;
  if (/^your[\s_-]/i.test(value)) return true;
  return isRepeatedChar(value);
}

export function isPlainValue(value: string): boolean {
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
export function isSecretShaped(value: string): boolean {
  if (value.length < 6 || /\s/.test(value)) return false;
  if (
    isPlainValue(value) ||
    isPathLike(value) ||
    isDottedReference(value) ||
    // `#auth.config`, `#users.list`: a method or route named in a test title, an anchor; not a secret.
    (value.startsWith('#') && isDottedReference(value.slice(1))) ||
    isIdentifierWords(value) ||
    isFlagName(value) ||
    isEnvReference(value) ||
    isInterpolatedValue(value)
  )
    return false;
  // Punctuation around a word (`myapp:`, `(beta)`) is not a symbol class of its own; `hunter2!` keeps its digit.
  const core = value.replace(/^[^A-Za-z0-9]{1,3}|[^A-Za-z0-9]{1,3}$/g, '');
  return characterClasses(core) >= 2 || value.length >= 20 || shannonEntropy(value) >= 3.5;
}

/** (a): a quoted literal given to a key that names a secret. */
export function isSecretLiteral(content: string, quote: string): boolean {
  const value = content.trim();
  if (value.length < 4 || isPlainValue(value)) return false;
  if (/\s/.test(value)) return true;
  if (isPathLike(value) || isDottedReference(value) || isEnvReference(value) || CONSTANT_NAME_WITH_UNDERSCORE.test(value)) return false;
  // A Markdown code span names code (`token: \`validateToken\``); a literal in quotes is the value itself.
  return quote !== '`' || !isIdentifierWords(value);
}

/** (c): any unquoted value where only a value can sit, words included, except references, paths, numbers and placeholders. */
export function isBareSecret(value: string): boolean {
  if (value.length < 4 || isPlainValue(value) || isPathLike(value) || isDottedReference(value) || isEnvReference(value)) return false;
  return !CONSTANT_NAME_WITH_UNDERSCORE.test(value) && !isInterpolatedValue(value);
}
