/**
 * Hand-labelled expectations for @actual-app/sync-server@25.6.0 (Express 5.1.0), read from the published
 * tarball's tsc output (`package/build/src/**\/*.js`, unbundled ES modules). Every entry below was derived
 * by reading the code, not by running checker. Repository paths are as committed by the eval test:
 * `build/src/...` plus `package.json`.
 *
 * ── How the app is wired (build/src/app.js) ─────────────────────────────────────────────────────────
 *   const app = express();
 *   app.disable('x-powered-by');                                   setting, not middleware
 *   app.use(cors());                                               line 22
 *   app.set('trust proxy', config.get('trustedProxies'));          setting
 *   if (process.env.NODE_ENV !== 'development') {
 *     app.use(rateLimit({ windowMs: 60 * 1000, max: 500, … }));   line 25, inside the `if`
 *   }
 *   app.use(bodyParser.json({ limit }));                           line 32
 *   app.use(bodyParser.raw({ type: 'application/actual-sync', … }));   line 33
 *   app.use(bodyParser.raw({ type: 'application/encrypted-file', … })); line 37
 *   app.use('/sync', syncApp.handlers);        … eight mounts, lines 41–48, each target `<ns>.handlers`
 *   app.get('/mode' | '/info' | '/health' | '/metrics', inline)    lines 49–67
 *   app.use((req, res, next) => { COOP/COEP headers; next(); })    line 74, after the four root routes
 *   if (NODE_ENV === 'development') app.use(createProxyMiddleware(…))   via `await import(...)`
 *   else { app.use(express.static(webRoot)); app.get('/{*splat}', inline) }   lines 91–92
 * Each sub-app file does `const app = express(); … export { app as handlers };` and app.js imports it
 * with `import * as syncApp from './app-sync.js'`, so the mount target is a namespace member whose
 * export is a renamed local (`handlers` → `app`).
 *
 * ── Middleware labels ───────────────────────────────────────────────────────────────────────────────
 * auth:
 *   validateSessionMiddleware (build/src/util/middlewares.js:33) awaits validateSession(req, res)
 *     (build/src/util/validate-user.js:10), which sends `res.status(401)` with reason 'unauthorized'
 *     (no token / unknown token) or 'token-expired'; on failure the middleware returns without next().
 *     Evidence: the call, and the 401 responses. NB: validateSession answers only 401, never 403; the
 *     403s in app-admin/app-openid/app-secrets are isAdmin checks inside handlers, not middleware.
 *   Used: app-level in app-sync.js (line 15), app-secrets.js (line 9), app-gocardless.js (line 17, after
 *     GET /link); route-level in app-admin.js (7 routes) and app-openid.js (/enable, /disable).
 *   validateSession itself is also called inside some handlers (POST /account/change-password,
 *     GET /account/validate, POST /admin/access, DELETE /admin/access): auth in the handler body, not a
 *     middleware, so those routes have no auth guard (see HANDLER_AUTH_ROUTES).
 * rate-limit:
 *   rateLimit({...}) from 'express-rate-limit' on the root app (app.js line 25). It is registered inside
 *   `if (process.env.NODE_ENV !== 'development')`, before every route and mount of the root app, so it
 *   applies to all 50 routes in production. Evidence: the express-rate-limit import (a careful reviewer
 *   calls this high confidence; the condition only disables it in development). Level 'app'.
 * validation: none. No middleware validates request shape. express.json/express.raw/bodyParser.* only
 *   parse (and enforce a size limit → 413); validateSyncedFile/validateUploadedFile
 *   (build/src/app-sync/validation.js) are called from inside handlers and return an error string.
 * other:
 *   cors() — CORS headers.  bodyParser.json/raw, express.json/raw/urlencoded — body parsing.
 *   requestLoggerMiddleware — expressWinston.logger(...) request logging.
 *   errorMiddleware — a 4-argument error handler (responds 500). In app-sync.js and app-account.js it is
 *     `app.use`d BEFORE the routes, so Express never routes their errors to it; in app-admin.js and
 *     app-openid.js it is registered last. Either way it does not guard anything.
 *   handleError(async (req, res) => …) (app-gocardless/util/handle-error.js) — a handler WRAPPER, not
 *     middleware: it returns `(req, res) => func(req, res).catch(...)`. The inline function is the handler.
 *   the anonymous COOP/COEP header middleware (app.js line 74), express.static, createProxyMiddleware.
 *
 * Full chain of POST /sync/sync, outermost first: [app.js, level app] cors, rateLimit, bodyParser.json,
 *   bodyParser.raw ×2; [mount '/sync' — no mount-level middleware]; [app-sync.js, level app]
 *   validateSessionMiddleware, errorMiddleware, requestLoggerMiddleware, express.raw ×2, express.json;
 *   handler: the inline async arrow function at app-sync.js:41–84. No route-level middleware.
 *
 * ── Expected to remain unresolved / not routes ─────────────────────────────────────────────────────
 *   express.static(config.get('webRoot')) and createProxyMiddleware(...) serve requests but are not
 *   routes: no route node, no unmatched-mount limitation (they have no prefix and are not routers).
 *   Routes registered under `if`/`else` (GET /{*splat}) and middleware under `if` (rateLimit) are static
 *   registrations and are expected as such. Every relative import resolves (checked file by file), so
 *   the graph should report no unresolved imports. The eight mounts must all be matched.
 */

export const PACKAGE = { name: '@actual-app/sync-server', version: '25.6.0' } as const;

/** Package-relative paths committed as the first commit. */
export const INCLUDE = ['build/src', 'package.json'] as const;

export interface ExpectedRoute {
  id: string;
  /** Declaring file and the line of the `app.<method>(` call. */
  file: string;
  line: number;
}

const r = (id: string, file: string, line: number): ExpectedRoute => ({ id, file: `build/src/${file}`, line });

/**
 * Every served route, 50 registrations (verified with a grep of `app.<method>(` over build/src, test
 * files excluded, and by reading each file): root 5, /account 6, /admin 10, /gocardless 7, /openid 4,
 * /pluggyai 3, /secret 2, /simplefin 3, /sync 10. No method+path is registered twice.
 */
export const EXPECTED_ROUTES: readonly ExpectedRoute[] = [
  r('route:GET /mode', 'app.js', 49),
  r('route:GET /info', 'app.js', 52),
  r('route:GET /health', 'app.js', 64),
  r('route:GET /metrics', 'app.js', 67),
  r('route:GET /{*splat}', 'app.js', 92),
  r('route:GET /account/needs-bootstrap', 'app-account.js', 18),
  r('route:POST /account/bootstrap', 'app-account.js', 32),
  r('route:GET /account/login-methods', 'app-account.js', 40),
  r('route:POST /account/login', 'app-account.js', 44),
  r('route:POST /account/change-password', 'app-account.js', 94),
  r('route:GET /account/validate', 'app-account.js', 105),
  r('route:GET /admin/owner-created', 'app-admin.js', 12), // declared '/owner-created/'
  r('route:GET /admin/users', 'app-admin.js', 21), // declared '/users/'
  r('route:POST /admin/users', 'app-admin.js', 29),
  r('route:PATCH /admin/users', 'app-admin.js', 69),
  r('route:DELETE /admin/users', 'app-admin.js', 108),
  r('route:GET /admin/access', 'app-admin.js', 141),
  r('route:POST /admin/access', 'app-admin.js', 166),
  r('route:DELETE /admin/access', 'app-admin.js', 210),
  r('route:GET /admin/access/users', 'app-admin.js', 250),
  r('route:POST /admin/access/transfer-ownership', 'app-admin.js', 275), // declared '/access/transfer-ownership/'
  r('route:GET /gocardless/link', 'app-gocardless/app-gocardless.js', 12),
  r('route:POST /gocardless/status', 'app-gocardless/app-gocardless.js', 18),
  r('route:POST /gocardless/create-web-token', 'app-gocardless/app-gocardless.js', 26),
  r('route:POST /gocardless/get-accounts', 'app-gocardless/app-gocardless.js', 41),
  r('route:POST /gocardless/get-banks', 'app-gocardless/app-gocardless.js', 67),
  r('route:POST /gocardless/remove-account', 'app-gocardless/app-gocardless.js', 84),
  r('route:POST /gocardless/transactions', 'app-gocardless/app-gocardless.js', 103),
  r('route:POST /openid/enable', 'app-openid.js', 12),
  r('route:POST /openid/disable', 'app-openid.js', 28),
  r('route:POST /openid/config', 'app-openid.js', 44),
  r('route:GET /openid/callback', 'app-openid.js', 71),
  r('route:POST /pluggyai/status', 'app-pluggyai/app-pluggyai.js', 10),
  r('route:POST /pluggyai/accounts', 'app-pluggyai/app-pluggyai.js', 20),
  r('route:POST /pluggyai/transactions', 'app-pluggyai/app-pluggyai.js', 47),
  r('route:POST /secret', 'app-secrets.js', 10), // declared '/' under '/secret'
  r('route:GET /secret/:name', 'app-secrets.js', 39),
  r('route:POST /simplefin/status', 'app-simplefin/app-simplefin.js', 10),
  r('route:POST /simplefin/accounts', 'app-simplefin/app-simplefin.js', 20),
  r('route:POST /simplefin/transactions', 'app-simplefin/app-simplefin.js', 55),
  r('route:POST /sync/sync', 'app-sync.js', 41),
  r('route:POST /sync/user-get-key', 'app-sync.js', 85),
  r('route:POST /sync/user-create-key', 'app-sync.js', 103),
  r('route:POST /sync/reset-user-file', 'app-sync.js', 116),
  r('route:POST /sync/upload-user-file', 'app-sync.js', 135),
  r('route:GET /sync/download-user-file', 'app-sync.js', 210),
  r('route:POST /sync/update-user-filename', 'app-sync.js', 225),
  r('route:GET /sync/list-user-files', 'app-sync.js', 234),
  r('route:GET /sync/get-user-file-info', 'app-sync.js', 253),
  r('route:POST /sync/delete-user-file', 'app-sync.js', 286),
];

/** The eight sub-app mounts of build/src/app.js. */
export const MOUNTS: readonly { prefix: string; target: string; line: number }[] = [
  { prefix: '/sync', target: 'syncApp.handlers', line: 41 },
  { prefix: '/account', target: 'accountApp.handlers', line: 42 },
  { prefix: '/gocardless', target: 'goCardlessApp.handlers', line: 43 },
  { prefix: '/simplefin', target: 'simpleFinApp.handlers', line: 44 },
  { prefix: '/pluggyai', target: 'pluggai.handlers', line: 45 },
  { prefix: '/secret', target: 'secretApp.handlers', line: 46 },
  { prefix: '/admin', target: 'adminApp.handlers', line: 47 },
  { prefix: '/openid', target: 'openidApp.handlers', line: 48 },
];

/**
 * Routes behind validateSessionMiddleware (evidence-backed auth, confidence high) and the level it is
 * registered at. 27 routes. Not here: GET /gocardless/link (registered at app-gocardless.js:12, BEFORE
 * `app.use(validateSessionMiddleware)` at line 17), GET /admin/owner-created, POST and DELETE
 * /admin/access (no middleware; the last two call validateSession in the handler), /openid/config and
 * /openid/callback, all of /account, /simplefin and /pluggyai (no session check at all in 25.6.0), and
 * the five root routes.
 */
export const AUTH_GUARDED_ROUTES: Readonly<Record<string, 'app' | 'route'>> = {
  'route:POST /sync/sync': 'app',
  'route:POST /sync/user-get-key': 'app',
  'route:POST /sync/user-create-key': 'app',
  'route:POST /sync/reset-user-file': 'app',
  'route:POST /sync/upload-user-file': 'app',
  'route:GET /sync/download-user-file': 'app',
  'route:POST /sync/update-user-filename': 'app',
  'route:GET /sync/list-user-files': 'app',
  'route:GET /sync/get-user-file-info': 'app',
  'route:POST /sync/delete-user-file': 'app',
  'route:POST /secret': 'app',
  'route:GET /secret/:name': 'app',
  'route:POST /gocardless/status': 'app',
  'route:POST /gocardless/create-web-token': 'app',
  'route:POST /gocardless/get-accounts': 'app',
  'route:POST /gocardless/get-banks': 'app',
  'route:POST /gocardless/remove-account': 'app',
  'route:POST /gocardless/transactions': 'app',
  'route:GET /admin/users': 'route',
  'route:POST /admin/users': 'route',
  'route:PATCH /admin/users': 'route',
  'route:DELETE /admin/users': 'route',
  'route:GET /admin/access': 'route',
  'route:GET /admin/access/users': 'route',
  'route:POST /admin/access/transfer-ownership': 'route',
  'route:POST /openid/enable': 'route',
  'route:POST /openid/disable': 'route',
};

/** Routes whose handler body calls validateSession itself (auth without a middleware guard). */
export const HANDLER_AUTH_ROUTES: readonly string[] = [
  'route:POST /account/change-password',
  'route:GET /account/validate',
  'route:POST /admin/access',
  'route:DELETE /admin/access',
];

export interface ChangeCase {
  description: string;
  path: string;
  search: string;
  replace: string;
  /** The (1-based) line the edit lands on, at base. */
  line: number;
  /** Exactly these routes, each reached through its handler. */
  impactedRoutes: readonly string[];
}

/**
 * Change 1: one line inside the inline handler of `app.post('/sync', async (req, res) => {…})`
 * (app-sync.js lines 41–84): the 422 body's `details` when `since` is missing (line 59).
 * Reached: POST /sync/sync only, through its handler; the route's own file changed (direct). Not the
 * nine other /sync routes in the same file, not the root routes of app.js (which imports app-sync.js).
 */
export const SYNC_HANDLER_CHANGE: ChangeCase = {
  description: 'the 422 details string inside the POST /sync handler (app-sync.js:59)',
  path: 'build/src/app-sync.js',
  search: "details: 'since-required',",
  replace: "details: 'since-missing',",
  line: 59,
  impactedRoutes: ['route:POST /sync/sync'],
};

/** Guards the reached POST /sync/sync must carry (roles other than `other`, exactly). */
export const SYNC_ROUTE_GUARDS = {
  auth: [{ name: 'validateSessionMiddleware', level: 'app', confidence: 'high' }],
  rateLimit: [{ name: /rateLimit/, level: 'app', confidence: 'high' }],
  validation: [],
} as const;

/**
 * Change 2: a helper in another module used by exactly one handler. validateUploadedFile
 * (build/src/app-sync/validation.js lines 40–64, exported at line 65) has exactly one call site in the
 * whole package: app-sync.js:167, inside the handler of `app.post('/upload-user-file', …)` (lines
 * 135–209); grep finds no other use (tests included). Its sibling validateSyncedFile, in the same file,
 * is called only by POST /sync. The edit changes the 'file-has-reset' reason on line 50, inside
 * validateUploadedFile (the same text on line 29 belongs to validateSyncedFile, hence `after`).
 * Reached: POST /sync/upload-user-file only, through its handler; not POST /sync/sync.
 */
export const HELPER_CHANGE: ChangeCase & { after: string } = {
  description: 'a return value inside validateUploadedFile (app-sync/validation.js:50)',
  path: 'build/src/app-sync/validation.js',
  after: 'const validateUploadedFile = ',
  search: "return 'file-has-reset';",
  replace: "return 'file-group-was-reset';",
  line: 50,
  impactedRoutes: ['route:POST /sync/upload-user-file'],
};

/** Rule-pack ids of the edge cases about authentication. */
export const AUTH_EDGE_CASE_RULES = {
  pack: 'route-edge-cases',
  protectedRoute: 'edge-case/route-unauthenticated',
  unprotectedMutation: 'edge-case/route-unprotected-mutation',
  /** Any rule whose id names authentication (route packs and the changed-line `edge-case/unauthenticated`). */
  authRule: /#edge-case\/(?:route-unauthenticated|route-unprotected-mutation|unauthenticated)$/,
} as const;

/** Limitation codes that must not appear for this app. */
export const FORBIDDEN_LIMITATION_CODES: readonly string[] = ['routes/unmatched-mount'];
