/**
 * Bounded exploration of a product target in a real browser (design.md "Execution and product checks"): what
 * `Env.exploreProduct` is asked to do and what it saw. The result is plain JSON; the product run turns it into
 * generated UI checks. Text taken from the page (titles, console and page errors) is untrusted and already redacted.
 */
export interface ExplorationSpec {
  /** The target's configured base URL; only its origin is ever requested. */
  baseUrl: string;
  /** Paths (or same-origin URLs) explored at depth 0 after the base URL, such as the graph's UI routes. */
  startPaths?: string[];
  /** Folder relative to `.checker/local/` that screenshots, DOM snapshots and the trace are written into. */
  artifactsFolder: string;
  /** Pages visited at most (default 20). */
  maxPages?: number;
  /** Link hops from a start page (default 2; 0 visits the start pages only). */
  maxDepth?: number;
  /** Wall time for the whole exploration, browser start included (default 60 s). */
  timeBudgetMs?: number;
  /** Time one page gets to load (default 15 s, never more than what is left of the budget). */
  pageTimeoutMs?: number;
  /** Record a Playwright trace (`trace.zip`, open with `npx playwright show-trace`). */
  trace?: boolean;
  /** Config `products.browser.executablePath`; when absent, CHECKER_CHROMIUM, then well-known install paths. */
  executablePath?: string;
}

export interface FailedRequest {
  url: string;
  method: string;
  resourceType: string;
  /** HTTP status >= 400; absent when the request failed without a response. */
  status?: number;
  /** The network error (`net::ERR_CONNECTION_REFUSED`), when there was no response. */
  failure?: string;
}

/** A same-origin request answered with a redirect to another origin, which the browser was not allowed to follow. */
export interface BlockedRedirect {
  /** The same-origin URL that answered the redirect (the last hop, after any same-origin ones). */
  from: string;
  /**
   * Where it pointed: another origin, never requested. Absent when the browser failed the request at the refused hop
   * without reporting the hop (seen for an XHR under load): a same-origin request the gate refused can only have been
   * redirected away.
   */
  to?: string;
  /** The 3xx status, when the browser reported it. */
  status?: number;
  /** `document` for a page or frame navigation, else what the page loaded (`image`, `script`, `fetch`, …). */
  resourceType: string;
}

export interface PageLink {
  /** Absolute same-origin URL, without its fragment. */
  url: string;
  /** Absent when the time budget ran out before the link was checked. */
  resolved?: boolean;
  /** HTTP status of the link's target (redirects are not followed, so a redirect elsewhere is its 3xx). */
  status?: number;
  error?: string;
}

export interface PageVisit {
  url: string;
  /** Path and query relative to the origin (`/about`). */
  path: string;
  depth: number;
  /** HTTP status of the document; absent when navigation failed. */
  status?: number;
  /** Why navigation failed (timeout, connection refused). */
  navigationError?: string;
  title: string;
  consoleErrors: string[];
  /** Uncaught exceptions thrown in the page. */
  pageErrors: string[];
  /** Same-origin subresource requests that failed or answered >= 400. */
  failedRequests: FailedRequest[];
  /** Requests to other origins that were aborted (never sent), redirect targets included. */
  blockedRequests: string[];
  /** Same-origin requests that redirected to another origin; the redirect was not followed. */
  blockedRedirects: BlockedRedirect[];
  /** `main`, `[role=main]` or else `body` holds visible text. */
  hasMainContent: boolean;
  /** Same-origin links found on the page, in document order. */
  links: PageLink[];
  /** Repository-relative paths (`.checker/local/…`). */
  screenshot?: string;
  domSnapshot?: string;
}

export type ExplorationStop = 'complete' | 'max-pages' | 'time-budget';

export interface ProductExploration {
  baseUrl: string;
  origin: string;
  browser: { executablePath: string; version: string };
  limits: { maxPages: number; maxDepth: number; timeBudgetMs: number; pageTimeoutMs: number };
  /** Why exploration ended: nothing left to visit, the page limit, or the time budget. */
  stoppedBy: ExplorationStop;
  pages: PageVisit[];
  /** Repository-relative path of `trace.zip`, when a trace was asked for. */
  trace?: string;
  durationMs: number;
}
