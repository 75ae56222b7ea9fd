/** Token-shaped secrets found by pattern alone: private keys, vendor tokens, JWTs, URL passwords, SQL `IDENTIFIED BY`. */
import { count, type Counter, GENERIC, isRepeatedChar, marker, replaceSpans, runEnd, type Span } from './marks.js';
import { isHiddenValue, isPlaceholder, isPlaceholderValue } from './values.js';

interface TokenRule {
  rule: string;
  pattern: RegExp;
}

export const TOKEN_RULES: readonly TokenRule[] = [
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

export const AUTHORIZATION_HEADER =
  /(authorization["'\\]{0,3}[ \t]{0,3}[:=][ \t]{0,3}["'\\]{0,3}(?:(?:bearer|basic|token|bot|digest)[ \t]{1,8})?)([^\s"'\\,;[]{8,4096})/gi;
export const BEARER = /(bearer[ \t]{1,8})([A-Za-z0-9._~+/-]{16,4096}=*)/gi;
/** `IDENTIFIED BY 'x'` (MySQL), `IDENTIFIED WITH mysql_native_password BY "x"`; `WITH PASSWORD 'x'` is the generic rule's. */
const SQL_IDENTIFIED_BY =
  /\bidentified[ \t]{1,8}(?:with[ \t]{1,8}[\w$]{1,64}[ \t]{1,8})?by[ \t]{1,8}(?:'([^'\n]{1,512})'|"([^"\n]{1,512})")/gi;

const JWT_SEGMENT = /[A-Za-z0-9_-]/;
const JWT_TAIL = /[A-Za-z0-9_/-]/;

const MAX_URL_AUTHORITY = 512;
export function redactPrivateKeys(text: string, counter: Counter): string {
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

/** Manual scan: a failed candidate skips its whole run, so the scan stays linear. */
export function redactJwts(text: string, counter: Counter): string {
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

export function redactTokens(text: string, rule: TokenRule, counter: Counter): string {
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
export function redactUrlPasswords(text: string, counter: Counter): string {
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

export function redactPrefixed(text: string, pattern: RegExp, rule: string, counter: Counter): string {
  return text.replace(pattern, (match: string, prefix: string, value: string) => {
    if (isPlaceholder(value)) return match;
    count(counter, rule);
    return prefix + marker(rule);
  });
}

export function redactSqlPasswords(text: string, counter: Counter): string {
  return text.replace(SQL_IDENTIFIED_BY, (match: string, single: string | undefined, double: string | undefined) => {
    const password = single ?? double ?? '';
    if (isPlaceholderValue(password)) return match;
    count(counter, GENERIC);
    return match.replace(password, marker(GENERIC));
  });
}
