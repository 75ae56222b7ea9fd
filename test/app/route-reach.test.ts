import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChangeAnalysis, EdgeCase, ImpactedRoute } from '../../src/model/analysis.js';
import { sorted } from '../helpers/analysis-fixtures.js';
import {
  EXPRESS_FILES,
  FRAMEWORK_FILES,
  createScenarioRepo,
  edit,
  editMany,
  lineOf,
  type ScenarioRepo,
} from '../helpers/route-fixtures.js';

/**
 * Handler-level route reach: a change reaches a route only through its handler, its middleware chain,
 * code they call, or a mount it is served under; routes whose handler cannot be followed fall back to
 * file imports (`reach: 'file'`). Each scenario is one commit on top of the same base.
 */

const X = EXPRESS_FILES;
const F = FRAMEWORK_FILES;

const EXPRESS_SCENARIOS = {
  // An inline handler in a file that declares two other routes on the same app.
  transactionsHandler: edit(X, 'src/shop/accounts/app.ts', 'json({ created: true })', 'json({ created: true, pending: false })'),
  // A helper called only by listOrders, the handler of GET /api/orders (getOrder calls toCents, beside it).
  formatTotal: edit(X, 'src/lib/money.ts', 'return `$${value.toFixed(2)}`;', 'return `USD ${value.toFixed(2)}`;'),
  // app.use(logger) is registered after every bank route but GET /bank/profile.
  logger: edit(X, 'src/bank/middleware/logger.ts', 'console.log(req.method, req.url);', 'console.log(`${req.method} ${req.url}`);'),
  // Called by validateSessionMiddleware, registered app-wide before the accounts mount and GET /bank/profile.
  sessionReject: edit(X, 'src/bank/middleware/reject.ts', "error: 'unauthorized'", "error: 'session expired'"),
  // Route-level middleware of POST /bank/accounts/transfer, declared in the router's file.
  validateTransfer: edit(
    X,
    'src/bank/routes/accounts.ts',
    "{ error: 'invalid transfer' }",
    "{ error: 'invalid transfer', issues: parsed.error.issues }",
  ),
  // Router-level middleware of accountsRouter, used before both of its routes.
  auditTrail: edit(X, 'src/bank/middleware/audit.ts', '  next();', "  res.setHeader('x-audit', req.method);\n  next();"),
  // An object-literal member used as a handler (reportHandlers.weekly), beside reportHandlers.daily.
  weeklyReport: edit(X, 'src/shop/handlers/reports.ts', "{ week: 'this' }", "{ week: 'this', days: 7 }"),
  // The registration of GET /reports/weekly gains a route-level guard in front of its handler.
  weeklyRegistration: edit(
    X,
    'src/shop/routes/reports.ts',
    "reports.get('/weekly', reportHandlers.weekly);",
    "reports.get('/weekly', passport.authenticate('basic', { session: false }), reportHandlers.weekly);",
  ),
  // The handler of POST /bank/login, whose only middleware is authLimiter.
  loginHandler: edit(X, 'src/bank/handlers/login.ts', "token: 'issued'", "token: 'issued', expiresIn: 3600"),
  // The inline handler of GET /bank/help, behind requireAuth from an npm package (name only).
  helpHandler: edit(X, 'src/bank/app.ts', "res.send('help');", "res.send('help is on the way');"),
  // The /api/a mount line changes (the /api/b mount of the same router does not).
  mountLine: edit(X, 'src/shop/routes/api.ts', "apiRouter.use('/a', statusRouter);", "apiRouter.use('/a', betaHeader, statusRouter);"),
  // Middleware of the /api/b mount only.
  betaHeader: edit(X, 'src/shop/middleware/beta.ts', "res.setHeader('x-beta', '1');", "res.setHeader('x-beta', '2');"),
  // The one handler of statusRouter, served under /api/a and /api/b.
  statusHandler: edit(X, 'src/shop/routes/status.ts', "res.send('ok');", "res.send('ok!');"),
  // Mount-level middleware: app.use('/admin', requireAdmin, adminRouter).
  requireAdmin: edit(X, 'src/shop/middleware/admin.ts', "process.env.JWT_SECRET ?? ''", "process.env.JWT_SECRET ?? 'dev'"),
  // Handlers of routes whose paths come from a same-file constant and a workspace package.
  constantPathHandlers: editMany(X, 'src/shop/routes/users.ts', [
    ["res.send('avatar');", "res.send('avatar!');"],
    ['res.json({ id: req.params.invoiceId });', 'res.json({ id: req.params.invoiceId, paid: false });'],
  ]),
  // The inline handler of the route with an unresolvable path, in the file that also holds the dynamic dispatch.
  unresolvedPathHandler: edit(X, 'src/shop/routes/misc.ts', "res.send('dynamic path');", "res.send('dynamic path!');"),
  // The inline handler of the CommonJS router.
  legacyCatalog: edit(X, 'src/legacy/catalog.js', "res.send('items');", "res.send('all items');"),
  // Only the route whose handler is `handlers[name]` can be reached, through the file import.
  dynamicDispatch: edit(X, 'src/shop/routes/dynamic-handlers.ts', "res.send('ping');", "res.send('PING');"),
};

const FRAMEWORK_SCENARIOS = {
  inlinePlugin: edit(F, 'src/fastify/server.ts', "return 'pong';", "return 'pong!';"),
  renderInvoice: edit(F, 'src/fastify/render.ts', 'return { invoice: params };', 'return { invoice: params, rendered: true };'),
  findBook: edit(F, 'src/hono/store.ts', "title: 'Dune'", "title: 'Dune Messiah'"),
  purge: edit(F, 'src/koa/purge.ts', 'purged: 0', 'purged: 1'),
  formatUser: edit(F, 'src/nest/format.ts', 'return `user ${id}`;', 'return `user #${id}`;'),
  createMethod: edit(F, 'src/nest/users.controller.ts', "return 'created';", "return 'created!';"),
};

/** Routes whose auth middleware shows auth in its code: the only routes a high-confidence route-unauthenticated edge case may name. */
const EVIDENCE_BACKED_AUTH = new Set([
  'route:GET /bank/accounts',
  'route:POST /bank/accounts/transfer',
  'route:GET /bank/profile',
  'route:DELETE /admin/cache',
  'route:GET /reports/daily',
  'route:GET /reports/weekly',
  'route:GET /v1/invoices/:id',
  'route:GET /v2/invoices/:id',
  'route:GET /hono/books/:id',
  'route:GET /hono/library/:id',
  'route:POST /koa/admin/ops/purge',
  'route:POST /api/users',
]);

/** `id [reach]` of every impacted route, sorted. */
const reachOf = (analysis: ChangeAnalysis): string[] => sorted(analysis.impactedRoutes.map((route) => `${route.id} [${route.reach}]`));

function getRoute(analysis: ChangeAnalysis, id: string): ImpactedRoute {
  const route = analysis.impactedRoutes.find((entry) => entry.id === id);
  assert.ok(route !== undefined, `${id} is not impacted`);
  return route;
}

/** Handler-reached routes explain themselves from the handler to the changed code. */
function assertSteps(analysis: ChangeAnalysis): void {
  for (const route of analysis.impactedRoutes) {
    if (route.reach !== 'handler') continue;
    const first = route.steps[0] ?? '';
    const last = route.steps[route.steps.length - 1] ?? '';
    assert.ok(
      route.steps.length > 0 && first.startsWith('handler ') && last.startsWith('changed '),
      `${route.id} steps: ${JSON.stringify(route.steps)}`,
    );
  }
}

/** The impacted route's guards other than role `other`, as `name role level confidence`. */
const guardsOf = (route: ImpactedRoute): string[] =>
  sorted(
    (route.guards ?? [])
      .filter((guard) => guard.role !== 'other')
      .map((guard) => `${guard.name} ${guard.role} ${guard.level} ${guard.confidence}`),
  );

const isUnauthenticatedCase = (edgeCase: EdgeCase): boolean =>
  edgeCase.id.includes('route-unauthenticated') || edgeCase.provenance.includes('route-unauthenticated');

/** `route id confidence` of every route-unauthenticated edge case (top and overflow), sorted. */
function unauthenticatedCases(analysis: ChangeAnalysis): string[] {
  const cases = [...analysis.edgeCases.top, ...analysis.edgeCases.overflow].filter(isUnauthenticatedCase);
  return sorted(
    cases.flatMap((edgeCase) => edgeCase.evidenceIds.filter((id) => id.startsWith('route:')).map((id) => `${id} ${edgeCase.confidence}`)),
  );
}

/** No high-confidence route-unauthenticated edge case for a route without evidence-backed auth. */
function assertNoUnbackedHighAuth(analysis: ChangeAnalysis): void {
  const high = [...analysis.edgeCases.top, ...analysis.edgeCases.overflow].filter(
    (edgeCase) => isUnauthenticatedCase(edgeCase) && edgeCase.confidence === 'high',
  );
  const unbacked = high.filter((edgeCase) => {
    const routes = edgeCase.evidenceIds.filter((id) => id.startsWith('route:'));
    return routes.length === 0 || routes.some((id) => !EVIDENCE_BACKED_AUTH.has(id));
  });
  assert.deepEqual(
    unbacked.map((edgeCase) => [edgeCase.title, edgeCase.evidenceIds]),
    [],
  );
}

/** Common checks, then the exact impacted routes with their reach. */
function assertReach(analysis: ChangeAnalysis, expected: string[]): void {
  assert.deepEqual(reachOf(analysis), sorted(expected));
  assertSteps(analysis);
  assertNoUnbackedHighAuth(analysis);
}

function limitationsWithCode(analysis: ChangeAnalysis, code: string): string[] {
  return analysis.limitations.filter((diagnostic) => diagnostic.code === code).map((diagnostic) => diagnostic.message);
}

/** The message names the file, the line (as a whole number) and every given fragment. */
function mentions(message: string, file: string, line: number, fragments: string[]): boolean {
  return (
    message.includes(file) &&
    new RegExp(`(^|\\D)${String(line)}(\\D|$)`).test(message) &&
    fragments.every((fragment) => message.includes(fragment))
  );
}

describe('express: handler-level route reach', () => {
  let fixture: ScenarioRepo | undefined;
  const analyze = (name: keyof typeof EXPRESS_SCENARIOS): Promise<ChangeAnalysis> => {
    assert.ok(fixture !== undefined);
    return fixture.analyze(name);
  };
  before(() => {
    fixture = createScenarioRepo(EXPRESS_FILES, EXPRESS_SCENARIOS);
  });
  after(() => fixture?.cleanup());

  test('an inline handler change reaches its route only, not the routes beside it in the same file', async () => {
    assertReach(await analyze('transactionsHandler'), ['route:POST /accounts/transactions [handler]']);
  });

  test('a changed helper reaches only the route whose handler calls it, across files', async () => {
    const analysis = await analyze('formatTotal');
    assertReach(analysis, ['route:GET /api/orders [handler]']);
    const last = getRoute(analysis, 'route:GET /api/orders').steps.at(-1) ?? '';
    assert.ok(last.includes('formatTotal') && last.includes('src/lib/money.ts'), last);
  });

  test('app-level middleware reaches only the routes registered after it; a logger change asks no auth case of them', async () => {
    const analysis = await analyze('logger');
    assertReach(analysis, ['route:GET /bank/profile [handler]']);
    // Neither the handler nor the guard changed (route-edge-cases 3.2.0): the route is as protected as it was.
    assert.deepEqual(unauthenticatedCases(analysis), []);
  });

  test('code called by app-level auth middleware reaches every route registered after it, which carry the auth guard', async () => {
    const analysis = await analyze('sessionReject');
    assertReach(analysis, [
      'route:GET /bank/accounts [handler]',
      'route:POST /bank/accounts/transfer [handler]',
      'route:GET /bank/profile [handler]',
    ]);
    assert.deepEqual(guardsOf(getRoute(analysis, 'route:GET /bank/accounts')), ['validateSessionMiddleware auth app high']);
    assert.deepEqual(guardsOf(getRoute(analysis, 'route:POST /bank/accounts/transfer')), [
      'validateSessionMiddleware auth app high',
      'validateTransfer validation route high',
    ]);
    assert.deepEqual(guardsOf(getRoute(analysis, 'route:GET /bank/profile')), ['validateSessionMiddleware auth app high']);
    assert.deepEqual(unauthenticatedCases(analysis), [
      'route:GET /bank/accounts high',
      'route:GET /bank/profile high',
      'route:POST /bank/accounts/transfer high',
    ]);
  });

  test('route-level middleware reaches its route; a validator change asks no auth case of the route behind auth', async () => {
    const analysis = await analyze('validateTransfer');
    assertReach(analysis, ['route:POST /bank/accounts/transfer [handler]']);
    // The guard (validateSessionMiddleware) and the handler are as they were; the auth case comes with a change to
    // either (sessionReject above).
    assert.deepEqual(unauthenticatedCases(analysis), []);
  });

  test('router-level middleware reaches every route of its router', async () => {
    assertReach(await analyze('auditTrail'), ['route:GET /bank/accounts [handler]', 'route:POST /bank/accounts/transfer [handler]']);
  });

  test('an object-literal member handler change reaches its route only, behind router-level passport', async () => {
    const analysis = await analyze('weeklyReport');
    assertReach(analysis, ['route:GET /reports/weekly [handler]']);
    assert.deepEqual(guardsOf(getRoute(analysis, 'route:GET /reports/weekly')), ['passport.authenticate auth router high']);
    // The handler's body runs after the guard and leaves it as it was (route-edge-cases 3.5.0).
    assert.deepEqual(unauthenticatedCases(analysis), []);
  });

  test('a registration that changes its middleware list asks the unauthenticated case of its route only', async () => {
    const analysis = await analyze('weeklyRegistration');
    assert.deepEqual(unauthenticatedCases(analysis), ['route:GET /reports/weekly high']);
  });

  test('a route whose only middleware is authLimiter is rate limited and gets no route-unauthenticated edge case', async () => {
    const analysis = await analyze('loginHandler');
    assertReach(analysis, ['route:POST /bank/login [handler]']);
    assert.deepEqual(guardsOf(getRoute(analysis, 'route:POST /bank/login')), ['authLimiter rate-limit route high']);
    assert.deepEqual(unauthenticatedCases(analysis), []);
  });

  test('a route behind a name-only auth middleware gets route-unauthenticated with low confidence at most', async () => {
    const analysis = await analyze('helpHandler');
    assertReach(analysis, ['route:GET /bank/help [handler]']);
    const help = getRoute(analysis, 'route:GET /bank/help');
    assert.deepEqual(guardsOf(help), ['requireAuth auth route low']);
    assert.deepEqual(
      (help.guards ?? []).filter((guard) => guard.name === 'requireAuth').map((guard) => guard.evidence),
      [['name only']],
    );
    assert.deepEqual(
      unauthenticatedCases(analysis).filter((entry) => !entry.endsWith(' low')),
      [],
    );
  });

  test('a changed mount line reaches the routes served under it, not the same router under another prefix', async () => {
    assertReach(await analyze('mountLine'), ['route:GET /api/a/status [handler]']);
  });

  test('mount-level middleware reaches the routes of its mount only', async () => {
    assertReach(await analyze('betaHeader'), ['route:GET /api/b/status [handler]']);
  });

  test('one handler served under two prefixes reaches both route ids', async () => {
    assertReach(await analyze('statusHandler'), ['route:GET /api/a/status [handler]', 'route:GET /api/b/status [handler]']);
  });

  test('middleware between the prefix and the router (app.use(prefix, mw, router)) reaches that mount and carries auth', async () => {
    const analysis = await analyze('requireAdmin');
    assertReach(analysis, ['route:DELETE /admin/cache [handler]']);
    assert.deepEqual(guardsOf(getRoute(analysis, 'route:DELETE /admin/cache')), ['requireAdmin auth mount high']);
    assert.deepEqual(unauthenticatedCases(analysis), ['route:DELETE /admin/cache high']);
  });

  test('routes whose paths come from constants are reached under their resolved ids', async () => {
    assertReach(await analyze('constantPathHandlers'), [
      'route:GET /api/v1/billing/invoices/:invoiceId [handler]',
      'route:GET /api/v1/me/avatar [handler]',
    ]);
  });

  test('an unresolved path stays a reachable route; its file change also reaches the dynamic-dispatch route by file; both paths are reported', async () => {
    const analysis = await analyze('unresolvedPathHandler');
    assertReach(analysis, ['route:GET /misc/{?getPath()} [handler]', 'route:GET /misc/dispatch [file]']);
    const unresolved = limitationsWithCode(analysis, 'routes/unresolved-path');
    const file = 'src/shop/routes/misc.ts';
    assert.equal(unresolved.length, 2, JSON.stringify(unresolved));
    assert.ok(
      unresolved.some((message) => mentions(message, file, lineOf(EXPRESS_FILES, file, 'miscRouter.get(getPath()'), ['getPath()'])),
      JSON.stringify(unresolved),
    );
    assert.ok(
      unresolved.some((message) => mentions(message, file, lineOf(EXPRESS_FILES, file, 'miscRouter.get(ENDPOINTS.x'), ['ENDPOINTS.x'])),
      JSON.stringify(unresolved),
    );
  });

  test('CommonJS: a handler change reaches the required router under its prefix; the mount of a missing module is reported', async () => {
    const analysis = await analyze('legacyCatalog');
    assertReach(analysis, ['route:GET /legacy/items [handler]']);
    const unmatched = limitationsWithCode(analysis, 'routes/unmatched-mount');
    const file = 'src/legacy/server.js';
    assert.equal(unmatched.length, 1, JSON.stringify(unmatched));
    assert.ok(mentions(unmatched[0] ?? '', file, lineOf(EXPRESS_FILES, file, "app.use('/ghost'"), []), JSON.stringify(unmatched));
  });

  test('a handler that cannot be followed statically falls back to file reach through imports', async () => {
    assertReach(await analyze('dynamicDispatch'), ['route:GET /misc/dispatch [file]']);
  });
});

describe('fastify, hono, koa and nestjs: handler-level route reach', () => {
  let fixture: ScenarioRepo | undefined;
  const analyze = (name: keyof typeof FRAMEWORK_SCENARIOS): Promise<ChangeAnalysis> => {
    assert.ok(fixture !== undefined);
    return fixture.analyze(name);
  };
  before(() => {
    fixture = createScenarioRepo(FRAMEWORK_FILES, FRAMEWORK_SCENARIOS);
  });
  after(() => fixture?.cleanup());

  test('fastify: an inline plugin handler reaches its prefixed route only', async () => {
    const analysis = await analyze('inlinePlugin');
    assertReach(analysis, ['route:GET /inline/ping [handler]']);
    assert.deepEqual(
      analysis.limitations.filter((diagnostic) => diagnostic.code.startsWith('routes/')).map((diagnostic) => diagnostic.message),
      [],
    );
  });

  test('fastify: a helper of a plugin handler reaches the route under both register prefixes', async () => {
    const analysis = await analyze('renderInvoice');
    assertReach(analysis, ['route:GET /v1/invoices/:id [handler]', 'route:GET /v2/invoices/:id [handler]']);
    assert.deepEqual(guardsOf(getRoute(analysis, 'route:GET /v1/invoices/:id')), ['requireApiKey auth route high']);
  });

  test('hono: a helper of a sub-app handler reaches the route under both app.route prefixes', async () => {
    assertReach(await analyze('findBook'), ['route:GET /hono/books/:id [handler]', 'route:GET /hono/library/:id [handler]']);
  });

  test('koa: a helper reaches the nested-router route behind ctx.throw(401) auth', async () => {
    const analysis = await analyze('purge');
    assertReach(analysis, ['route:POST /koa/admin/ops/purge [handler]']);
    assert.deepEqual(guardsOf(getRoute(analysis, 'route:POST /koa/admin/ops/purge')), ['requireStaff auth route high']);
    // purge is code the inline handler calls, not the handler: the guard in front of it is as it was, so no auth case.
    assert.deepEqual(unauthenticatedCases(analysis), []);
  });

  test('nestjs: a function called by a controller method reaches that method route only', async () => {
    const analysis = await analyze('formatUser');
    assertReach(analysis, ['route:GET /api/users/:id [handler]']);
    // The route's own chain is as it was: no path-parameter or guard case for code its handler calls further down.
    const routeCases = [...analysis.edgeCases.top, ...analysis.edgeCases.overflow].filter((edgeCase) =>
      edgeCase.evidenceIds.includes('route:GET /api/users/:id'),
    );
    assert.deepEqual(routeCases, []);
  });

  test('nestjs: a changed controller method reaches its route only, behind its guard', async () => {
    const analysis = await analyze('createMethod');
    assertReach(analysis, ['route:POST /api/users [handler]']);
    assert.deepEqual(guardsOf(getRoute(analysis, 'route:POST /api/users')), ['SessionGuard auth route high']);
    // The method's body changed, not its decorators: the guard in front of it is as it was (route-edge-cases 3.5.0).
    assert.deepEqual(unauthenticatedCases(analysis), []);
  });
});
