import type { ChatCompletionOutcome, ChatCompletionSpec } from '../model/chat-completion.js';
import { redactSecrets, sanitizeUntrustedText } from '../text/redact/redact.js';
import { httpRequest } from './http-get.js';

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
const RETRIED_ERRORS = /^(?:ECONNRESET|EPIPE|UND_ERR_SOCKET)\b/;
const ERROR_EXCERPT_CHARS = 200;
/** No attempt starts with less time than this left in `totalBudgetMs`. */
const MIN_ATTEMPT_MS = 1000;

/**
 * Sends one chat-completions request (POST, JSON, redirects not followed) and returns the first choice's message
 * content. Bounded: `timeoutMs` per attempt, at most `maxAttempts` attempts with exponential backoff on 429/5xx, the
 * body cut at `maxResponseBytes` (a cut body is an error). The key is read from `processEnv[apiKeyEnv]` here and goes
 * only into the Authorization header; no message returned names it, and error excerpts are redacted.
 */
export async function requestChatCompletion(spec: ChatCompletionSpec, processEnv: NodeJS.ProcessEnv): Promise<ChatCompletionOutcome> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (spec.apiKeyEnv !== undefined) {
    const key = processEnv[spec.apiKeyEnv];
    if (key === undefined || key.trim() === '') {
      return {
        ok: false,
        error: `the environment variable ${spec.apiKeyEnv} (investigation.provider.apiKeyEnv) is not set or empty`,
        attempts: 0,
        durationMs: elapsed(),
      };
    }
    headers.authorization = `Bearer ${key.trim()}`;
  }
  const url = toCompletionsUrl(spec.endpoint);
  const body = JSON.stringify(spec.body);
  let attempts = 0;
  const left = (): number => (spec.totalBudgetMs === undefined ? Number.POSITIVE_INFINITY : spec.totalBudgetMs - elapsed());
  const canRetry = (wait: number): boolean => attempts < spec.maxAttempts && left() - wait >= MIN_ATTEMPT_MS;
  for (;;) {
    attempts += 1;
    const timeoutMs = Math.max(1, Math.floor(Math.min(spec.timeoutMs, left())));
    const response = await httpRequest(url, {
      method: 'POST',
      headers,
      body,
      timeoutMs,
      maxBodyBytes: spec.maxResponseBytes + 1,
    });
    if (!response.ok) {
      const wait = backoff(spec, attempts, undefined);
      if (!RETRIED_ERRORS.test(response.error) || !canRetry(wait))
        return { ok: false, error: response.error, attempts, durationMs: elapsed() };
      await sleep(wait);
      continue;
    }
    if (RETRIED_STATUSES.has(response.status)) {
      const wait = backoff(spec, attempts, response.headers['retry-after']);
      if (canRetry(wait)) {
        await sleep(wait);
        continue;
      }
    }
    if (response.status < 200 || response.status > 299) {
      const after = attempts > 1 ? ` after ${attempts} attempts` : '';
      return {
        ok: false,
        status: response.status,
        error: `the endpoint answered HTTP ${response.status}${after}: ${toExcerpt(response.body)}`,
        attempts,
        durationMs: elapsed(),
      };
    }
    if (response.bodyTruncated || Buffer.byteLength(response.body) > spec.maxResponseBytes) {
      return {
        ok: false,
        status: response.status,
        error: `the response is larger than ${spec.maxResponseBytes} bytes; it was not read further`,
        attempts,
        durationMs: elapsed(),
        unusable: true,
      };
    }
    const content = readContent(response.body);
    if (typeof content !== 'string')
      return { ok: false, status: response.status, error: content.error, attempts, durationMs: elapsed(), unusable: true };
    return { ok: true, content, status: response.status, attempts, durationMs: elapsed() };
  }
}

function toCompletionsUrl(endpoint: string): string {
  const trimmed = endpoint.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(trimmed) ? trimmed : `${trimmed}/chat/completions`;
}

/** `choices[0].message.content` of a chat-completions answer, or why there is none. */
function readContent(body: string): string | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { error: `the answer is not JSON: ${toExcerpt(body)}` };
  }
  const choices: unknown = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'choices') : undefined;
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message: unknown = typeof first === 'object' && first !== null ? Reflect.get(first, 'message') : undefined;
  const content: unknown = typeof message === 'object' && message !== null ? Reflect.get(message, 'content') : undefined;
  if (typeof content !== 'string') return { error: 'the answer has no choices[0].message.content string (not a chat-completions answer)' };
  return content;
}

function backoff(spec: ChatCompletionSpec, attempt: number, retryAfter: string | undefined): number {
  const seconds = retryAfter === undefined ? Number.NaN : Number(retryAfter);
  const wanted = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : spec.backoffMs * 2 ** (attempt - 1);
  return Math.min(wanted, spec.maxBackoffMs);
}

function toExcerpt(text: string): string {
  const flat = sanitizeUntrustedText(redactSecrets(text).text, ERROR_EXCERPT_CHARS).replace(/\s+/g, ' ').trim();
  return flat === '' ? '(empty body)' : JSON.stringify(flat);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
