import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserServer, Page, Request, Response } from 'playwright-core';
import { CheckerError } from '../model/diagnostic.js';
import type {
  BlockedRedirect,
  ExplorationSpec,
  ExplorationStop,
  FailedRequest,
  PageLink,
  PageVisit,
  ProductExploration,
} from '../model/product-exploration.js';
import { redactDocument } from '../text/redact/tree.js';
import { sanitizeUntrustedText } from '../text/redact/redact.js';
import { createArtifactFolder, writeArtifact } from './artifacts.js';
import { findChromium, type ChromiumSearch } from './browser.js';
import { GATE_REFUSAL, type OriginGate, startOriginGate } from './origin-gate.js';
import { addExitCleanup } from './run-command.js';

const DEFAULTS = { maxPages: 20, maxDepth: 2, timeBudgetMs: 60_000, pageTimeoutMs: 15_000 } as const;
const MAX_PAGES = 500;
const MAX_DEPTH = 10;
const MAX_MESSAGES_PER_PAGE = 50;
const MAX_MESSAGE_CHARS = 2000;
const MAX_URL_CHARS = 2048;
const MAX_LINKS_PER_PAGE = 200;
const MAX_REQUESTS_PER_PAGE = 100;
/** Time after `load` for late requests (fetches, lazy images) to finish, within the page's own timeout. */
const SETTLE_MS = 1500;
/** Time the browser gets to close before its process group is killed. */
const CLOSE_GRACE_MS = 5000;

interface QueuedPage {
  url: string;
  depth: number;
}

interface Bounds {
  maxPages: number;
  maxDepth: number;
  timeBudgetMs: number;
  pageTimeoutMs: number;
}

function clampInt(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

function toBounds(spec: ExplorationSpec): Bounds {
  return {
    maxPages: clampInt(spec.maxPages, DEFAULTS.maxPages, 1, MAX_PAGES),
    maxDepth: clampInt(spec.maxDepth, DEFAULTS.maxDepth, 0, MAX_DEPTH),
    timeBudgetMs: clampInt(spec.timeBudgetMs, DEFAULTS.timeBudgetMs, 1000, 3_600_000),
    pageTimeoutMs: clampInt(spec.pageTimeoutMs, DEFAULTS.pageTimeoutMs, 500, 600_000),
  };
}

function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (error) {
    throw new CheckerError('product/invalid-base-url', `base URL ${JSON.stringify(baseUrl.slice(0, 200))} is not a URL`, {
      hint: 'set products.targets.<name>.baseUrl to an http(s) URL such as http://127.0.0.1:3000',
      cause: error,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CheckerError('product/invalid-base-url', `base URL ${JSON.stringify(baseUrl.slice(0, 200))} is not http(s)`, {
      hint: 'set products.targets.<name>.baseUrl to an http(s) URL such as http://127.0.0.1:3000',
    });
  }
  return url;
}

/** The same-origin http(s) URL without its fragment, or undefined for anything else. */
function toSameOriginUrl(raw: string, origin: string, base: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return undefined;
  }
  if (url.origin !== origin) return undefined;
  url.hash = '';
  return url.href;
}

function isSameOrigin(raw: string, origin: string): boolean {
  try {
    return new URL(raw).origin === origin;
  } catch {
    return false;
  }
}

function toPath(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function clean(text: string, maxChars = MAX_MESSAGE_CHARS): string {
  return sanitizeUntrustedText(text, maxChars);
}

function pushCapped<T>(list: T[], item: T, cap: number): void {
  if (list.length < cap) list.push(item);
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return clean(message.split('\n')[0] ?? message, 500);
}

interface PageObservations {
  consoleErrors: string[];
  pageErrors: string[];
  failedRequests: FailedRequest[];
  blockedRequests: string[];
  blockedRedirects: BlockedRedirect[];
  /** The page's own navigation, when it redirected to another origin. */
  documentRedirect?: BlockedRedirect;
  /** Resolves once every request the page started has finished or failed (at once when none is open). */
  settled(): Promise<void>;
}

/** Listens on one page; the document's own navigation request is reported as the page status, not as a failure. */
function observePage(page: Page, origin: string, blocked: Set<string>): PageObservations {
  // Requests still open. A subframe's events come on its own connection and may trail the page's `load`, so the page is
  // read only once these have ended: otherwise a busy machine drops a blocked redirect from the report.
  const open = new Set<Request>();
  let waiters: (() => void)[] = [];
  const close = (request: Request): void => {
    open.delete(request);
    if (open.size > 0) return;
    for (const wake of waiters) wake();
    waiters = [];
  };
  const settled = (): Promise<void> => (open.size === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve)));
  const seen: PageObservations = {
    consoleErrors: [],
    pageErrors: [],
    failedRequests: [],
    blockedRequests: [],
    blockedRedirects: [],
    settled,
  };
  const isDocument = (request: Request): boolean => request.isNavigationRequest() && request.frame() === page.mainFrame();
  const documents = new Set<string>();
  const redirectStatuses = new Map<Request, number>();
  page.on('request', (request) => {
    open.add(request);
    if (isDocument(request)) documents.add(request.url());
  });
  page.on('requestfinished', close);
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // The browser logs every request checker aborted ("Failed to load resource: net::ERR_FAILED"): not the page's fault.
    if (blocked.has(message.location().url)) return;
    // So is every connection the origin gate refused (a redirect hop or a WebSocket to another origin).
    if (message.text().includes(GATE_REFUSAL)) return;
    // The document's own error status is logged the same way; it is the page status already (the loads check).
    if (documents.has(message.location().url) && message.text().startsWith('Failed to load resource')) return;
    pushCapped(seen.consoleErrors, clean(message.text()), MAX_MESSAGES_PER_PAGE);
  });
  // Request interception does not see WebSockets either; the gate refused those to other origins.
  page.on('websocket', (socket) => {
    const url = socket.url();
    if (!isSameOrigin(url.replace(/^ws/, 'http'), origin) && !seen.blockedRequests.includes(url))
      pushCapped(seen.blockedRequests, url, MAX_REQUESTS_PER_PAGE);
  });
  page.on('pageerror', (error) => {
    pushCapped(seen.pageErrors, clean(error.message || String(error)), MAX_MESSAGES_PER_PAGE);
  });
  // Where each same-origin response redirected to, when that is another origin: Chromium may fail a subresource's
  // request at the refused hop without ever reporting the hop as a request of its own (seen for an XHR under load).
  const redirectsAway = new Map<Request, string>();
  page.on('response', (response: Response) => {
    const request = response.request();
    if (response.status() >= 300 && response.status() < 400) {
      redirectStatuses.set(request, response.status());
      const location = response.headers().location;
      const target = location === undefined ? undefined : resolveUrl(location, request.url());
      if (target !== undefined && !isSameOrigin(target, origin) && !isDocument(request)) {
        redirectsAway.set(request, target);
        recordRedirect(seen, request.url(), target, response.status(), request.resourceType(), false);
      }
    }
    if (response.status() < 400 || isDocument(request) || !isSameOrigin(request.url(), origin)) return;
    pushCapped(
      seen.failedRequests,
      {
        url: clean(request.url(), MAX_URL_CHARS),
        method: request.method(),
        resourceType: request.resourceType(),
        status: response.status(),
      },
      MAX_REQUESTS_PER_PAGE,
    );
  });
  page.on('requestfailed', (request) => {
    close(request);
    if (!isSameOrigin(request.url(), origin)) {
      const from = request.redirectedFrom();
      if (from !== null)
        recordRedirect(seen, from.url(), request.url(), redirectStatuses.get(from), request.resourceType(), isDocument(request));
      if (!seen.blockedRequests.includes(request.url())) pushCapped(seen.blockedRequests, request.url(), MAX_REQUESTS_PER_PAGE);
      return;
    }
    if (isDocument(request)) return;
    // The request failed at the hop the gate refused, reported under its own URL: the redirect is recorded already.
    const away = redirectsAway.get(request);
    if (away !== undefined) {
      if (!seen.blockedRequests.includes(away)) pushCapped(seen.blockedRequests, away, MAX_REQUESTS_PER_PAGE);
      return;
    }
    // The gate refuses only other origins, so a same-origin request it refused was redirected away, although the
    // browser reported neither the 3xx nor the hop: a blocked redirect whose target is unknown, not a failure of the app.
    if (request.failure()?.errorText.includes(GATE_REFUSAL)) {
      recordRedirect(seen, request.url(), undefined, redirectStatuses.get(request), request.resourceType(), false);
      return;
    }
    pushCapped(
      seen.failedRequests,
      {
        url: clean(request.url(), MAX_URL_CHARS),
        method: request.method(),
        resourceType: request.resourceType(),
        failure: clean(request.failure()?.errorText ?? 'failed', 300),
      },
      MAX_REQUESTS_PER_PAGE,
    );
  });
  return seen;
}

/**
 * A redirect hop to another origin failed: request interception never sees redirect hops, so it was the origin gate
 * that refused it. Recorded with the same-origin URL that answered it, so the report says why the page went nowhere.
 */
function recordRedirect(
  seen: PageObservations,
  from: string,
  to: string | undefined,
  status: number | undefined,
  resourceType: string,
  isDocument: boolean,
): void {
  const redirect: BlockedRedirect = {
    from: clean(from, MAX_URL_CHARS),
    ...(to === undefined ? {} : { to: clean(to, MAX_URL_CHARS) }),
    ...(status === undefined ? {} : { status }),
    resourceType,
  };
  if (isDocument) seen.documentRedirect = redirect;
  if (seen.blockedRedirects.some((known) => known.from === redirect.from && known.to === redirect.to)) return;
  pushCapped(seen.blockedRedirects, redirect, MAX_REQUESTS_PER_PAGE);
}

/** `location` read against the URL that answered it; undefined when it is no URL. */
function resolveUrl(location: string, base: string): string | undefined {
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}

interface PageFacts {
  hasMainContent: boolean;
  links: string[];
}

/**
 * Evaluated in the page: visible text in the main content, and every link's resolved href. A string, not a function,
 * because a transpiler's helpers (esbuild's `__name`) inside a function do not exist in the page.
 */
const READ_PAGE_FACTS = `(() => {
  const main = document.querySelector('main, [role="main"]') || document.body;
  const text = main && typeof main.innerText === 'string' ? main.innerText.trim() : '';
  const links = Array.from(document.querySelectorAll('a[href]'), (anchor) => String(anchor.href || ''));
  return { hasMainContent: text.length > 0, links };
})()`;

function toPageFacts(value: unknown): PageFacts {
  if (typeof value !== 'object' || value === null) return { hasMainContent: false, links: [] };
  const hasMainContent = 'hasMainContent' in value && value.hasMainContent === true;
  const links = 'links' in value && Array.isArray(value.links) ? value.links.filter((link) => typeof link === 'string') : [];
  return { hasMainContent, links };
}

interface Exploration {
  spec: ExplorationSpec;
  root: string;
  origin: string;
  bounds: Bounds;
  deadline: number;
  context: BrowserContext;
  blocked: Set<string>;
  pages: PageVisit[];
  /** Document status of every visited URL, for link checks. */
  statuses: Map<string, number | undefined>;
}

function remaining(run: Exploration): number {
  return run.deadline - Date.now();
}

async function writePageArtifacts(run: Exploration, page: Page, index: number, visit: PageVisit): Promise<void> {
  const name = String(index + 1).padStart(3, '0');
  const folder = run.spec.artifactsFolder;
  const shown = (file: string): string => `.checker/local/${folder}/${file}`;
  const timeout = Math.max(500, Math.min(run.bounds.pageTimeoutMs, remaining(run)));
  const png = await page.screenshot({ fullPage: true, timeout }).catch(() => undefined);
  if (png !== undefined) {
    await writeArtifact(run.root, `${folder}/page-${name}.png`, png);
    visit.screenshot = shown(`page-${name}.png`);
  }
  const html = await page.content().catch(() => undefined);
  if (html !== undefined) {
    await writeArtifact(run.root, `${folder}/page-${name}.html`, redactDocument('page.html', html));
    visit.domSnapshot = shown(`page-${name}.html`);
  }
}

/** Waits for the page's open requests to end, at most `ms`: a request that never ends (a long poll) must not hold the run. */
async function untilSettled(seen: PageObservations, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([seen.settled(), late]);
  clearTimeout(timer);
}

async function visitPage(run: Exploration, queued: QueuedPage): Promise<{ visit: PageVisit; links: string[] }> {
  const page = await run.context.newPage();
  const seen = observePage(page, run.origin, run.blocked);
  const visit: PageVisit = {
    url: clean(queued.url, MAX_URL_CHARS),
    path: clean(toPath(queued.url), MAX_URL_CHARS),
    depth: queued.depth,
    title: '',
    consoleErrors: seen.consoleErrors,
    pageErrors: seen.pageErrors,
    failedRequests: seen.failedRequests,
    blockedRequests: seen.blockedRequests,
    blockedRedirects: seen.blockedRedirects,
    hasMainContent: false,
    links: [],
  };
  let links: string[] = [];
  try {
    const timeout = Math.max(500, Math.min(run.bounds.pageTimeoutMs, remaining(run)));
    try {
      const response = await page.goto(queued.url, { waitUntil: 'load', timeout });
      if (response !== null) visit.status = response.status();
      await page.waitForLoadState('networkidle', { timeout: Math.min(SETTLE_MS, timeout) }).catch(() => undefined);
      await untilSettled(seen, Math.min(SETTLE_MS, timeout));
    } catch (error) {
      visit.navigationError = errorText(error);
    }
    const away = visit.navigationError === undefined ? undefined : seen.documentRedirect;
    if (away !== undefined)
      visit.navigationError = `redirected to ${away.to}, another origin: checker stays on ${run.origin} and did not follow it`;
    // A link to this page resolves to the redirect it answered, as an unvisited link checked without following redirects does.
    run.statuses.set(queued.url, away === undefined ? visit.status : away.status);
    if (visit.navigationError === undefined) {
      visit.title = clean(await page.title(), 500);
      const facts = toPageFacts(await page.evaluate(READ_PAGE_FACTS));
      visit.hasMainContent = facts.hasMainContent;
      const found = new Set<string>();
      for (const href of facts.links) {
        const url = toSameOriginUrl(href, run.origin, queued.url);
        if (url !== undefined && found.size < MAX_LINKS_PER_PAGE) found.add(url);
      }
      links = [...found];
    }
    await writePageArtifacts(run, page, run.pages.length, visit);
  } finally {
    await page.close().catch(() => undefined);
  }
  visit.blockedRequests = seen.blockedRequests.map((url) => clean(url, MAX_URL_CHARS));
  return { visit, links };
}

/** The status of a link target that was not visited; redirects are not followed, so nothing leaves the origin. */
async function checkLink(run: Exploration, url: string): Promise<Omit<PageLink, 'url'>> {
  if (run.statuses.has(url)) {
    const status = run.statuses.get(url);
    return status === undefined ? { resolved: false, error: 'navigation failed' } : { resolved: status < 400, status };
  }
  const timeout = Math.max(500, Math.min(run.bounds.pageTimeoutMs, remaining(run)));
  try {
    const response = await run.context.request.get(url, { maxRedirects: 0, timeout, failOnStatusCode: false });
    const status = response.status();
    await response.dispose();
    run.statuses.set(url, status);
    return { resolved: status < 400, status };
  } catch (error) {
    run.statuses.set(url, undefined);
    return { resolved: false, error: errorText(error) };
  }
}

async function explorePages(run: Exploration, start: QueuedPage[], linksByPage: string[][]): Promise<ExplorationStop> {
  const queue = [...start];
  const queued = new Set(start.map((item) => item.url));
  while (queue.length > 0) {
    if (run.pages.length >= run.bounds.maxPages) return 'max-pages';
    if (remaining(run) <= 0) return 'time-budget';
    const next = queue.shift();
    if (next === undefined) break;
    const { visit, links } = await visitPage(run, next);
    run.pages.push(visit);
    linksByPage.push(links);
    if (next.depth >= run.bounds.maxDepth) continue;
    for (const url of links) {
      if (queued.has(url)) continue;
      queued.add(url);
      queue.push({ url, depth: next.depth + 1 });
    }
  }
  return 'complete';
}

async function resolveLinks(run: Exploration, linksByPage: string[][]): Promise<void> {
  for (const [index, links] of linksByPage.entries()) {
    const visit = run.pages[index];
    if (visit === undefined) continue;
    for (const url of links) {
      const link: PageLink = { url: clean(url, MAX_URL_CHARS) };
      if (remaining(run) > 0 || run.statuses.has(url)) Object.assign(link, await checkLink(run, url));
      visit.links.push(link);
    }
  }
}

function toStartPages(spec: ExplorationSpec, base: URL): QueuedPage[] {
  const start: QueuedPage[] = [];
  const seen = new Set<string>();
  for (const raw of [base.href, ...(spec.startPaths ?? [])]) {
    const url = toSameOriginUrl(raw, base.origin, base.href);
    if (url === undefined || seen.has(url)) continue;
    seen.add(url);
    start.push({ url, depth: 0 });
  }
  return start;
}

interface LaunchedBrowser {
  server: BrowserServer;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Starts Chromium as a server in its own process group (Playwright spawns it detached) so that checker's exit hook can
 * kill the whole group on exit or Ctrl-C; Playwright's own signal handlers stay off, as they would exit the process.
 * `gate` keeps it on the target's origin.
 */
async function launchBrowser(executablePath: string, timeoutMs: number, gate: OriginGate): Promise<LaunchedBrowser> {
  const { chromium } = await import('playwright-core');
  let server: BrowserServer;
  try {
    server = await chromium.launchServer({
      executablePath,
      headless: true,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: timeoutMs,
      // Switches rather than Playwright's proxy option, which would also send checkLink's requests to the gate. An error
      // page reloads itself after a second, requesting the failed URL again (a refused redirect's other origin) and
      // racing page.close(), which then never returns: no auto-reload.
      args: [...gate.chromiumArgs, '--disable-auto-reload'],
    });
  } catch (error) {
    throw new CheckerError('product/browser-launch-failed', `cannot start Chromium at ${executablePath}: ${errorText(error)}`, {
      hint: 'check that it runs (`<path> --headless --version`); set CHECKER_CHROMIUM to another Chromium or Chrome',
      cause: error,
    });
  }
  const pid = server.process().pid;
  const killGroup = (): void => {
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  };
  const removeCleanup = addExitCleanup(killGroup);
  let browser: Browser;
  try {
    browser = await chromium.connect(server.wsEndpoint(), { timeout: timeoutMs });
  } catch (error) {
    killGroup();
    removeCleanup();
    throw new CheckerError('product/browser-launch-failed', `cannot connect to Chromium at ${executablePath}: ${errorText(error)}`, {
      hint: 'set CHECKER_CHROMIUM to another Chromium or Chrome',
      cause: error,
    });
  }
  return {
    server,
    browser,
    close: async () => {
      const graceful = Promise.all([browser.close().catch(() => undefined), server.close().catch(() => undefined)]);
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_GRACE_MS);
      });
      await Promise.race([graceful, expired]);
      clearTimeout(timer);
      killGroup();
      removeCleanup();
    },
  };
}

/**
 * Explores a product target in headless Chromium, breadth-first over same-origin links from the base URL and the start
 * paths, bounded by pages, depth and time. Requests to any other origin are aborted, and so is every other connection
 * there, redirect hops included (the origin gate; a blocked redirect is reported on its page). Link checks do not follow
 * redirects, and artifacts go under `.checker/local/<artifactsFolder>/`. The browser is always closed, also when the
 * time budget ends mid-page (then the pages seen so far are returned, `stoppedBy: 'time-budget'`).
 */
export async function exploreProduct(root: string, spec: ExplorationSpec, search: ChromiumSearch): Promise<ProductExploration> {
  const started = Date.now();
  const base = parseBaseUrl(spec.baseUrl);
  const bounds = toBounds(spec);
  const found = await findChromium({ ...search, ...(spec.executablePath === undefined ? {} : { configured: spec.executablePath }) });
  const folder = await createArtifactFolder(root, spec.artifactsFolder);
  const deadline = started + bounds.timeBudgetMs;
  // Request interception below aborts requests to other origins but never sees redirect hops; the gate refuses those.
  const gate = await startOriginGate(base);
  const launched = await launchBrowser(found.executablePath, Math.max(1000, deadline - Date.now()), gate).catch(async (error: unknown) => {
    await gate.close();
    throw error;
  });
  const blocked = new Set<string>();
  const pages: PageVisit[] = [];
  let stoppedBy: ExplorationStop = 'complete';
  let trace: string | undefined;
  let version = '';
  try {
    const context = await launched.browser.newContext({ serviceWorkers: 'block', acceptDownloads: false });
    await context.route(
      (url) => url.origin !== base.origin,
      (route) => {
        blocked.add(route.request().url());
        return route.abort('blockedbyclient');
      },
    );
    if (spec.trace === true) await context.tracing.start({ screenshots: true, snapshots: true });
    const run: Exploration = { spec, root, origin: base.origin, bounds, deadline, context, blocked, pages, statuses: new Map() };
    const linksByPage: string[][] = [];
    const work = (async () => {
      stoppedBy = await explorePages(run, toStartPages(spec, base), linksByPage);
      await resolveLinks(run, linksByPage);
    })();
    // A page that hangs past every Playwright timeout must not hold the run: the budget ends it, and closing the
    // browser in `finally` makes the stuck call reject.
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), Math.max(0, deadline - Date.now()) + 1000);
    });
    const outcome = await Promise.race([work.then(() => 'done' as const), expired]);
    clearTimeout(timer);
    if (outcome === 'expired') {
      stoppedBy = 'time-budget';
      work.catch(() => undefined);
    } else if (spec.trace === true) {
      await context.tracing.stop({ path: join(folder, 'trace.zip') });
      trace = `.checker/local/${spec.artifactsFolder}/trace.zip`;
    }
  } finally {
    version = launched.browser.version();
    await launched.close();
    await gate.close();
  }
  if (stoppedBy === 'complete' && Date.now() > deadline) stoppedBy = 'time-budget';
  return {
    baseUrl: base.href,
    origin: base.origin,
    browser: { executablePath: found.executablePath, version },
    limits: bounds,
    stoppedBy,
    pages: pages.map((page) => ({ ...page })),
    ...(trace === undefined ? {} : { trace }),
    durationMs: Date.now() - started,
  };
}
