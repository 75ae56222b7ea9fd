import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitForHealth } from '../../../src/app/product/health.js';
import type { Env } from '../../../src/model/env.js';
import { memEnv } from '../../helpers/memory-env.js';

/**
 * An app that answers 200 to any request given time to answer, and nothing within a window shorter than 50 ms (a busy
 * machine): what the healthcheck saw once in CI, where its last attempt had 3 ms left.
 */
function slowToAnswer(): { env: Env; windows: number[] } {
  const windows: number[] = [];
  const env: Env = {
    ...memEnv(),
    now: () => new Date(),
    httpGet: async (_url, options) => {
      const timeoutMs = options?.timeoutMs ?? 0;
      windows.push(timeoutMs);
      if (timeoutMs < 50) return { ok: false as const, error: `no answer within ${timeoutMs} ms` };
      return { ok: true as const, status: 200, headers: {}, body: '', bodyTruncated: false };
    },
  };
  return { env, windows };
}

describe('the product healthcheck', () => {
  it('names the status the app gave when the wait ends, and starts no attempt with under 50 ms left', async () => {
    const { env, windows } = slowToAnswer();
    const health = await waitForHealth(env, { url: 'http://127.0.0.1:1/', intervalMs: 10, timeoutMs: 300, expectStatus: 204 });
    assert.equal(health.outcome, 'timed-out');
    assert.equal(health.lastStatus, 200);
    assert.equal(health.lastError, undefined);
    assert.ok(windows.length >= 2, `${windows.length} attempts`);
    assert.ok(
      windows.every((window) => window >= 50),
      `attempt windows: ${windows.join(', ')}`,
    );
  });

  it('a first attempt is made even when the whole wait is shorter than 50 ms', async () => {
    const { env, windows } = slowToAnswer();
    const health = await waitForHealth(env, { url: 'http://127.0.0.1:1/', intervalMs: 10, timeoutMs: 20 });
    assert.equal(health.outcome, 'timed-out');
    assert.equal(windows.length, 1);
    assert.match(health.lastError ?? '', /^no answer within \d+ ms$/);
  });
});
