/**
 * Secret redaction for untrusted or user-visible text (security.md §6). A redactor is deliberately more
 * aggressive than a scanner: no entropy floors and no `EXAMPLE` allowlists. Every pattern is either
 * bounded or scanned manually so that a 1 MB hostile input stays linear.
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

/*
 * keyword, an atomic `[\w.-]{0,30}` tail (lookahead + backreference), an assignment operator of ini/env/JSON/YAML/
 * Go/Makefile/PHP/logstash/XML forms, optional quotes, then the value.
 */
const GENERIC_ASSIGNMENT =
  /(?:api[_.-]?key|access[_.-]?key|private[_.-]?key|secret|token|passw(?:or)?d|passphrase|pwd|credentials?|authorization|auth|key)s?(?![a-z])(?=([\w.-]{0,30}))\1[\s'"`\\]{0,5}(?:=>|:{1,3}=|\?=|\.=|\|\||=|>|,|:)[\s'"`\\=]{0,6}([^\s'"`\\=,;<>(){}[\]&|][^\s'"`\\,;<>(){}[\]&|]{7,})/gi;

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

function redactAssignments(text: string, counter: Counter): string {
  const pattern = new RegExp(GENERIC_ASSIGNMENT.source, 'gi');
  let out = '';
  let last = 0;
  let found = pattern.exec(text);
  while (found !== null) {
    const value = found[2] ?? '';
    const valueStart = found.index + found[0].length - value.length;
    const valueEnd = found.index + found[0].length;
    const isCall = text.charAt(valueEnd) === '(' && IDENTIFIER_PATH.test(value);
    if (isPlaceholder(value) || isCall) {
      pattern.lastIndex = valueStart;
    } else {
      out += text.slice(last, valueStart) + marker('generic-secret');
      count(counter, 'generic-secret');
      last = valueEnd;
    }
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
