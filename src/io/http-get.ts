import type { HttpGetResult } from '../model/service.js';

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/**
 * One GET of an http(s) URL through Node's fetch, without following redirects (a 3xx is the answer), with a time
 * limit and the body cut to `maxBodyBytes`. A refused connection, a timeout or a bad URL is data (`ok: false`), never
 * thrown.
 */
export function httpGet(url: string, options: { timeoutMs: number; maxBodyBytes?: number }): Promise<HttpGetResult> {
  return httpRequest(url, { ...options, method: 'GET' });
}

/** As httpGet, with a method, headers and a text body: the requests of generated API checks. */
export async function httpRequest(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: string; timeoutMs: number; maxBodyBytes?: number },
): Promise<HttpGetResult> {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return { ok: false, error: `not an http(s) URL: ${JSON.stringify(url)}` };
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const response = await fetch(url, {
      method: options.method,
      headers: options.headers ?? {},
      ...(options.body === undefined ? {} : { body: options.body }),
      redirect: 'manual',
      signal: controller.signal,
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const { body, truncated } = await readCapped(response, limit);
    return { ok: true, status: response.status, headers, body, bodyTruncated: truncated };
  } catch (error) {
    return { ok: false, error: controller.signal.aborted ? `no answer within ${options.timeoutMs} ms` : describeFetchError(error) };
  } finally {
    clearTimeout(timer);
  }
}

async function readCapped(response: Response, limit: number): Promise<{ body: string; truncated: boolean }> {
  if (response.body === null) return { body: '', truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = limit - kept;
    if (value.length > room) {
      chunks.push(value.subarray(0, room));
      kept = limit;
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    kept += value.length;
  }
  return { body: Buffer.concat(chunks).toString('utf8'), truncated };
}

/** fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, a reset) is in its cause. */
function describeFetchError(error: unknown): string {
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) {
    const code = Reflect.get(cause, 'code');
    return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
