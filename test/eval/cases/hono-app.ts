/**
 * Hand-labelled Hono case: @spotlightjs/sidecar@2.5.0 (Sentry Spotlight's local sidecar, Hono ^4.10), read from
 * the published tarball's tsc output (`package/dist/**\/*.js`, one plain ES module per source file, not a
 * bundle). Every entry below was derived by reading the code, not by running checker.
 *
 * Repository layout: the tarball's `dist/**` is committed as `src/**` (re-keyed), because checker rightly
 * treats `dist/` as generated output and would ask no proof of it; the 69 generated `*.d.ts` declarations
 * are left out (a source repository has none beside its modules). package.json is committed as published
 * (its `main`/`exports` still say `dist/...`). Relative imports are unchanged by the re-keying.
 *
 * ── How the app is wired ────────────────────────────────────────────────────────────────────────────
 * src/main.js, inside `export async function startServer(options)`:
 *   const app = new Hono().use(cors());                                   line 28, CORS for every route
 *   app.use(async (ctx, next) => { header, ctx.set(...), startSpan(… next()) })   line 30, tracing, no guard
 *      .route("/", routes);                                               line 63, `routes` = default export
 *                                                                          of ./routes/index.js
 *   if (filesToServe) app.get("/*", serveFilesHandler(filesToServe));     line 65, static UI files
 * src/routes/index.js: `const router = new Hono()` (line 9), then six mounts, each target the default export
 *   (`const router = new Hono(); … export default router;`) of a sibling file:
 *     router.route("/mcp", mcpRouter);                     line 10 → routes/mcp.js
 *     router.route("/health", healthRouter);               line 11 → routes/health.js
 *     router.route("/clear", clearRouter);                 line 12 → routes/clear.js
 *     router.route("/", streamRouter);                     line 13 → routes/stream/index.js
 *     router.route("/open", openRouter);                   line 14 → routes/open.js
 *     router.route(CONTEXT_LINES_ENDPOINT, contextLinesRouter);   line 15 → routes/contextlines/index.js;
 *       the prefix is a constant imported from ../constants.js (line 3: `CONTEXT_LINES_ENDPOINT = "/contextlines"`)
 * Hono joins a mount prefix and a sub-path with mergePath: '/health' + '/' is '/health', '/' + '/stream' is
 * '/stream'; the root mount '/' adds nothing. Served routes (10 registrations, 10 method+path pairs):
 *   ALL    /mcp                 routes/mcp.js:7            `router.all("/", connectMiddleware, handler)`
 *   GET    /health              routes/health.js:3
 *   DELETE /clear               routes/clear.js:4
 *   GET    /stream              routes/stream/index.js:15  chained on `new Hono()` (line 14)
 *   GET    /envelope/:id        routes/stream/index.js:52  chained
 *   POST   /stream              routes/stream/index.js:66  `.on("POST", ["/stream", "/api/:id/envelope"], h)`:
 *   POST   /api/:id/envelope    routes/stream/index.js:66    ONE handler registered for both paths
 *   POST   /open                routes/open.js:7
 *   PUT    /contextlines        routes/contextlines/index.js:5
 *   GET    /*                   main.js:65, only when `filesToServe` is set
 * No auth, rate-limit or validation middleware anywhere: cors() and the tracing middleware are `other`.
 * The PUT /contextlines handler writes nothing: it parses the body (parseStackTrace), reads the named source
 * files (readFileSync) or fetches generated code, and answers the enriched stack trace as JSON.
 * src/routes/__tests__/server.test.js imports the router of routes/index.js and drives it with
 * `app.request(...)` (health, stream, clear, mcp); it has no /contextlines test yet, so it is the test
 * file to extend.
 *
 * ── The change ──────────────────────────────────────────────────────────────────────────────────────
 * src/routes/contextlines/index.js, inside the inline handler of `router.put("/", async (ctx) => {…})`
 * (lines 5–45), line 9: when the request body does not parse as a stack trace (`parseStackTrace` returns
 * nothing), the handler now answers 400 instead of 500 (`return ctx.body(null, 500)` → `400`): a body that
 * is not a stack trace is the client's error. Hono passes the status as the second argument of
 * `ctx.body`/`ctx.json`/`ctx.text`, so this is an error-path change (the failure status callers see).
 * Reached: PUT /contextlines only, through its handler, with the /contextlines prefix of routes/index.js:15.
 * Not reached: the other nine routes (no other handler or middleware calls into contextlines/index.js; the
 * module only registers this one route), and not main.js's GET /*.
 */
import type { FileTree } from '../../helpers/git-repo.js';
import { moveFolder, readPackageFiles } from '../../helpers/eval-corpus.js';
import { buildEditedRepo, type EvalCase } from '../case.js';

export const PACKAGE = { name: '@spotlightjs/sidecar', version: '2.5.0' } as const;

/** The published `dist/**` as `src/**` (no `.d.ts`), plus package.json. */
const readAsSource = (): FileTree =>
  moveFolder(readPackageFiles(PACKAGE.name, PACKAGE.version, ['dist', 'package.json']), 'dist', 'src', (path) => !path.endsWith('.d.ts'));

export const HONO_APP: EvalCase = {
  id: 'hono-sidecar-contextlines-status',
  kind: 'hono app',
  description:
    'PUT /contextlines answers 400 instead of 500 when the body is not a stack trace (src/routes/contextlines/index.js:9, a Hono sub-app mounted with router.route(CONTEXT_LINES_ENDPOINT, …))',
  build: async () =>
    buildEditedRepo(
      readAsSource(),
      [
        {
          path: 'src/routes/contextlines/index.js',
          after: 'router.put("/"',
          search: 'return ctx.body(null, 500);',
          replace: 'return ctx.body(null, 400);',
        },
      ],
      'contextlines: a body that is not a stack trace is a bad request',
    ),
  expect: {
    // The edited line runs on every PUT /contextlines whose body does not parse.
    changeKinds: { 'src/routes/contextlines/index.js': 'runtime' },
    // A one-line change in one handler: a proof task and a handful of edge cases, not a dozen.
    maxTasks: 8,
    // The failure status of a served HTTP route changes and no test covers /contextlines.
    riskLevels: ['medium', 'high'],
    // One runtime file changed, so exactly one proof task.
    proofTasks: 1,
    impactedRoutes: ['route:PUT /contextlines'],
    mustTasks: [
      {
        kind: 'proof',
        text: /^(?=[\s\S]*src\/routes\/contextlines\/index\.js)(?=[\s\S]*src\/routes\/__tests__\/server\.test\.js)/,
        why: 'the edited handler must be run; server.test.js already drives the routes/index.js router (which mounts /contextlines) with app.request and is the test to extend',
      },
      {
        kind: 'edge-case',
        text: /PUT \/contextlines/,
        why: 'the one route the change reaches, named by its served path (prefix from CONTEXT_LINES_ENDPOINT)',
      },
    ],
    mustNotTasks: [
      {
        text: /GET \/health|DELETE \/clear|POST \/open|ALL \/mcp|GET \/stream|POST \/stream|\/envelope|GET \/\*/,
        why: 'the change is inside the PUT /contextlines handler: no other route is reached',
      },
      { text: /PUT \/(?!contextlines)/, why: 'the route must carry its /contextlines prefix, not the unprefixed sub-path' },
      {
        text: /submitted twice|exactly one write|one stored result/,
        why: 'PUT is idempotent by definition, and this handler stores nothing (it parses the body, reads source files and returns JSON): a double-submit case is noise',
      },
      // "PUT /contextlines writes data and no auth middleware is declared on it" (low confidence) stays allowed: a
      // PUT is a write by HTTP's definition, and the real concern is close (an anonymous caller makes the sidecar
      // read local files named in the body).

      { text: /README/, why: 'no documentation changed or is relevant' },
      { text: /\.test\.test\./, why: 'a test file gets no test of its own' },
    ],
    semanticEdgeCase: {
      file: 'src/routes/contextlines/index.js',
      line: 9,
      kind: 'error-path',
      values: /asserting the new status 400 \(was 500\)/,
    },
  },
};
