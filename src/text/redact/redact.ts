import { redactAssignments } from './assignments.js';
import {
  COMMAND_SEPARATORS,
  commandOf,
  type CommandSecretFlag,
  CONVENTION_BY_COMMAND,
  matchFlag,
  redactCommandFlags,
  secretPart,
} from './command-flags.js';
import { classifyKey } from './keys.js';
import { type Counter, GENERIC, marker, type Span } from './marks.js';
import {
  AUTHORIZATION_HEADER,
  BEARER,
  redactJwts,
  redactPrefixed,
  redactPrivateKeys,
  redactSqlPasswords,
  redactTokens,
  redactUrlPasswords,
  TOKEN_RULES,
} from './patterns.js';
import {
  isDottedReference,
  isEnvReference,
  isPathLike,
  isInterpolatedValue,
  isPlaceholderValue,
  isSecretShaped,
  LITERAL_KEYWORDS,
  NUMBER_LIKE,
} from './values.js';

/**
 * Secret redaction for untrusted or user-visible text (security.md §6). A redactor is deliberately more
 * aggressive than a scanner: the token rules have no entropy floors and no `EXAMPLE` allowlists. The generic
 * `key = value` rule is the exception: it must not eat our own paths, identifiers and prose, so it asks for a
 * secret-shaped value (see the comment at the top of assignments.ts). Every pattern is either bounded or scanned manually so
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
  if (isPlaceholderValue(trimmed) || isEnvReference(trimmed) || isDottedReference(trimmed) || isInterpolatedValue(trimmed)) return true;
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

// Not util.stripVTControlCharacters: on untrusted text it leaves payloads behind. "\u001b]0;my title\u0007" becomes
// "y title\u0007" and "\u001bPq#0;2\u001b\\" keeps "q#0;2" (Node 20); this removes the whole OSC/DCS/APC sequence.
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
