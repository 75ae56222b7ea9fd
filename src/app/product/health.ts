import type { Env } from '../../model/env.js';
import type { ServiceExit } from '../../model/service.js';

/** What a product target's healthcheck waits for (`products.targets.<name>.healthcheck`, with its defaults applied). */
export interface HealthcheckSettings {
  url: string;
  intervalMs: number;
  timeoutMs: number;
  /** The one status that counts as healthy; without it any 2xx or 3xx does. */
  expectStatus?: number | undefined;
}

export interface HealthWait {
  /** healthy: the expected status came; timed-out: it did not within `timeoutMs`; exited: the service ended first. */
  outcome: 'healthy' | 'timed-out' | 'exited';
  url: string;
  attempts: number;
  durationMs: number;
  /** Status of the last answer, when there was one. */
  lastStatus?: number;
  /** Why the last attempt got no answer (ECONNREFUSED, a timeout), when it got none. */
  lastError?: string;
  exit?: ServiceExit;
}

/** A single request waits at most this long, so a server that accepts and never answers still lets the loop go on. */
const MAX_REQUEST_MS = 5000;
/**
 * No attempt after the first starts with less time than this left: one with 3 ms to go answers nothing on a busy
 * machine, and its "no answer" hid the status the app had been giving (a 200 where 204 was expected).
 */
const MIN_ATTEMPT_MS = 50;

function isHealthyStatus(status: number, expectStatus: number | undefined): boolean {
  return expectStatus === undefined ? status >= 200 && status < 400 : status === expectStatus;
}

/**
 * Polls `settings.url` every `intervalMs` until it answers the expected status, `timeoutMs` passes, or `exited`
 * (the service's end) settles first; returns which, with the last status or connection error.
 */
export async function waitForHealth(env: Env, settings: HealthcheckSettings, exited?: Promise<ServiceExit>): Promise<HealthWait> {
  const started = env.now().getTime();
  const deadline = started + settings.timeoutMs;
  let exit: ServiceExit | undefined;
  void exited?.then((value) => {
    exit = value;
  });
  let attempts = 0;
  let lastStatus: number | undefined;
  let lastError: string | undefined;
  const finish = (outcome: HealthWait['outcome']): HealthWait => ({
    outcome,
    url: settings.url,
    attempts,
    durationMs: env.now().getTime() - started,
    ...(lastStatus === undefined ? {} : { lastStatus }),
    ...(lastError === undefined ? {} : { lastError }),
    ...(exit === undefined ? {} : { exit }),
  });
  for (;;) {
    if (exit !== undefined) return finish('exited');
    const left = deadline - env.now().getTime();
    if (left <= 0 || (attempts > 0 && left < MIN_ATTEMPT_MS)) return finish('timed-out');
    attempts += 1;
    const answer = await env.httpGet(settings.url, { timeoutMs: Math.max(1, Math.min(left, MAX_REQUEST_MS)), maxBodyBytes: 4096 });
    if (answer.ok) {
      lastStatus = answer.status;
      lastError = undefined;
      if (isHealthyStatus(answer.status, settings.expectStatus)) return finish('healthy');
    } else {
      lastStatus = undefined;
      lastError = answer.error;
    }
    if (exit !== undefined) return finish('exited');
    const pause = Math.min(settings.intervalMs, deadline - env.now().getTime());
    if (pause <= 0) return finish('timed-out');
    await waitOrExit(pause, exited);
  }
}

function waitOrExit(ms: number, exited: Promise<ServiceExit> | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void exited?.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
