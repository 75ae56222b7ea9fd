import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildRepositoryGraph, type RepositoryGraph } from '../../src/app/build-graph.js';
import { createTestEnv } from '../helpers/test-env.js';
import type { RouteGuard, RouteNode } from '../../src/model/graph.js';
import { sorted } from '../helpers/analysis-fixtures.js';
import { createRepo, type FileTree, type TestRepo } from '../helpers/git-repo.js';
import { EXPRESS_FILES, FRAMEWORK_FILES, lineOf } from '../helpers/route-fixtures.js';

interface BuiltRepo {
  repo: TestRepo;
  built: RepositoryGraph;
}

/** Commits `files` and builds the knowledge graph through the real pipeline (scan, parse, resolve, build). */
async function buildRepo(files: FileTree): Promise<BuiltRepo> {
  const repo = createRepo(files);
  const env = createTestEnv(repo.dir);
  try {
    return { repo, built: await buildRepositoryGraph(env) };
  } catch (error) {
    repo.cleanup();
    throw error;
  } finally {
    await env.close();
  }
}

function getRoutes(built: RepositoryGraph): Map<string, RouteNode> {
  const routes = new Map<string, RouteNode>();
  built.kg.graph.forEachNode((id, attributes) => {
    if (attributes.kind === 'route') routes.set(id, attributes);
  });
  return routes;
}

/** Route ids declared in `file` (the route node's declaring file). */
function idsDeclaredIn(routes: Map<string, RouteNode>, file: string): string[] {
  return sorted([...routes].filter(([, node]) => node.file === file).map(([id]) => id));
}

/** The route's guards other than role `other`, as `name role level confidence`. */
function describeGuards(node: RouteNode | undefined): string[] {
  return sorted(
    (node?.guards ?? [])
      .filter((guard) => guard.role !== 'other')
      .map((guard) => `${guard.name} ${guard.role} ${guard.level} ${guard.confidence}`),
  );
}

/** Guards (role other than `other`) of every route: routes missing from `expected` must have none. */
function assertGuards(routes: Map<string, RouteNode>, expected: Record<string, string[]>): void {
  const ids = sorted(new Set([...routes.keys(), ...Object.keys(expected)]));
  const actual = Object.fromEntries(ids.map((id) => [id, routes.has(id) ? describeGuards(routes.get(id)) : ['<no such route>']]));
  const wanted = Object.fromEntries(ids.map((id) => [id, sorted(expected[id] ?? [])]));
  assert.deepEqual(actual, wanted);
}

function findGuard(routes: Map<string, RouteNode>, routeId: string, name: string): RouteGuard {
  const guard = routes.get(routeId)?.guards?.find((entry) => entry.name === name);
  assert.ok(guard !== undefined, `${routeId} has no guard ${name}`);
  return guard;
}

/** The guard's evidence rests on the code (not only its name) and mentions `pattern`. */
function assertCodeEvidence(guard: RouteGuard, pattern: RegExp): void {
  assert.equal(guard.confidence, 'high', `${guard.name}: ${JSON.stringify(guard)}`);
  assert.ok(guard.evidence.length > 0, `${guard.name} has no evidence`);
  assert.ok(!guard.evidence.includes('name only'), `${guard.name}: ${JSON.stringify(guard.evidence)}`);
  assert.match(guard.evidence.join('; '), pattern, `${guard.name}: ${JSON.stringify(guard.evidence)}`);
}

const EXPRESS_ROUTES = [
  // src/shop/app.ts: `/` stays `/`.
  'route:GET /',
  // apiRouter at /api → ordersRouter at /orders: `/` gives no trailing slash; route('/:id').get().post().
  'route:GET /api/orders',
  'route:GET /api/orders/:id',
  'route:POST /api/orders/:id',
  // One statusRouter mounted at /api/a and /api/b: two ids.
  'route:GET /api/a/status',
  'route:GET /api/b/status',
  // usersRouter mounted at `${API_BASE}/v1`: constants from the same file, a barrel and a workspace package.
  'route:GET /api/v1/users',
  'route:GET /api/v1/me/settings',
  'route:GET /api/v1/me/avatar',
  'route:GET /api/v1/billing/invoices/:invoiceId',
  // A sub-express() app exported as `handlers`, imported as a namespace and mounted as accounts.handlers.
  'route:GET /accounts/me',
  'route:POST /accounts/transactions',
  'route:GET /accounts/health',
  // A default-imported router with router-level passport; handlers are object-literal members.
  'route:GET /reports/daily',
  'route:GET /reports/weekly',
  // Unresolvable paths keep a `{?expression}` segment; the dynamic handler keeps its path.
  'route:GET /misc/{?getPath()}',
  'route:GET /misc/{?ENDPOINTS.x}',
  'route:GET /misc/dispatch',
  // app.use('/admin', requireAdmin, adminRouter).
  'route:DELETE /admin/cache',
  // CommonJS: module.exports = router, require('./catalog').
  'route:GET /legacy/items',
  // The bank app.
  'route:GET /bank/ping',
  'route:POST /bank/login',
  'route:GET /bank/help',
  'route:GET /bank/accounts',
  'route:POST /bank/accounts/transfer',
  'route:GET /bank/profile',
];

describe('express route paths and guards', () => {
  let fixture: BuiltRepo | undefined;
  let routes = new Map<string, RouteNode>();
  before(async () => {
    fixture = await buildRepo(EXPRESS_FILES);
    routes = getRoutes(fixture.built);
  });
  after(() => fixture?.repo.cleanup());

  test('every route id carries the full path of its mounts, and nothing else is a route', () => {
    assert.deepEqual(sorted(routes.keys()), sorted(EXPRESS_ROUTES));
  });

  test('mounts compose at any depth across files, and one router under two prefixes gives two routes', () => {
    assert.deepEqual(
      idsDeclaredIn(routes, 'src/shop/routes/orders.ts'),
      sorted(['route:GET /api/orders', 'route:GET /api/orders/:id', 'route:POST /api/orders/:id']),
    );
    assert.deepEqual(idsDeclaredIn(routes, 'src/shop/routes/status.ts'), ['route:GET /api/a/status', 'route:GET /api/b/status']);
    assert.deepEqual(idsDeclaredIn(routes, 'src/shop/routes/admin.ts'), ['route:DELETE /admin/cache']);
    assert.deepEqual(idsDeclaredIn(routes, 'src/shop/app.ts'), ['route:GET /']);
  });

  test('namespace import of `export { app as handlers }`, default import and CommonJS require are followed', () => {
    assert.deepEqual(
      idsDeclaredIn(routes, 'src/shop/accounts/app.ts'),
      sorted(['route:GET /accounts/me', 'route:POST /accounts/transactions', 'route:GET /accounts/health']),
    );
    assert.deepEqual(idsDeclaredIn(routes, 'src/shop/routes/reports.ts'), ['route:GET /reports/daily', 'route:GET /reports/weekly']);
    assert.deepEqual(idsDeclaredIn(routes, 'src/legacy/catalog.js'), ['route:GET /legacy/items']);
  });

  test('paths from constants: same file (template and +), a barrel `as const` member, a workspace package, a constant mount prefix', () => {
    assert.deepEqual(
      idsDeclaredIn(routes, 'src/shop/routes/users.ts'),
      sorted([
        'route:GET /api/v1/users',
        'route:GET /api/v1/me/settings',
        'route:GET /api/v1/me/avatar',
        'route:GET /api/v1/billing/invoices/:invoiceId',
      ]),
    );
  });

  test('paths that cannot be resolved keep a {?expression} segment under their mount prefix', () => {
    assert.deepEqual(
      idsDeclaredIn(routes, 'src/shop/routes/misc.ts'),
      sorted(['route:GET /misc/{?getPath()}', 'route:GET /misc/{?ENDPOINTS.x}', 'route:GET /misc/dispatch']),
    );
    assert.equal(routes.get('route:GET /misc/{?getPath()}')?.path, '/misc/{?getPath()}');
    assert.equal(routes.get('route:GET /misc/{?ENDPOINTS.x}')?.path, '/misc/{?ENDPOINTS.x}');
  });

  test('bank app: guards by role, level and confidence follow the registration order', () => {
    assertGuards(routes, {
      // Registered before app.use(validateSessionMiddleware): no auth.
      'route:GET /bank/ping': [],
      'route:POST /bank/login': ['authLimiter rate-limit route high'],
      'route:GET /bank/help': ['requireAuth auth route low'],
      // Registered after it (the mount included).
      'route:GET /bank/accounts': ['validateSessionMiddleware auth app high'],
      'route:POST /bank/accounts/transfer': ['validateSessionMiddleware auth app high', 'validateTransfer validation route high'],
      'route:GET /bank/profile': ['validateSessionMiddleware auth app high'],
      // Shop: mount-level jsonwebtoken and router-level passport.
      'route:DELETE /admin/cache': ['requireAdmin auth mount high'],
      'route:GET /reports/daily': ['passport.authenticate auth router high'],
      'route:GET /reports/weekly': ['passport.authenticate auth router high'],
    });
  });

  test('guard evidence comes from the code, followed across files; a name alone gives low confidence', () => {
    const session = findGuard(routes, 'route:GET /bank/profile', 'validateSessionMiddleware');
    assertCodeEvidence(session, /401/);
    assert.equal(session.file, 'src/bank/app.ts');
    assert.equal(session.line, lineOf(EXPRESS_FILES, 'src/bank/app.ts', 'app.use(validateSessionMiddleware)'));
    assert.equal(session.definedIn?.file, 'src/bank/middleware/session.ts');
    assertCodeEvidence(findGuard(routes, 'route:GET /bank/accounts', 'validateSessionMiddleware'), /401/);

    const admin = findGuard(routes, 'route:DELETE /admin/cache', 'requireAdmin');
    assertCodeEvidence(admin, /jsonwebtoken|jwt/);
    assert.equal(admin.file, 'src/shop/app.ts');
    assert.equal(admin.line, lineOf(EXPRESS_FILES, 'src/shop/app.ts', "app.use('/admin'"));

    assertCodeEvidence(findGuard(routes, 'route:GET /reports/daily', 'passport.authenticate'), /passport/);
    assertCodeEvidence(findGuard(routes, 'route:POST /bank/accounts/transfer', 'validateTransfer'), /zod|400/);
    assertCodeEvidence(findGuard(routes, 'route:POST /bank/login', 'authLimiter'), /rate-?limit/i);

    const requireAuth = findGuard(routes, 'route:GET /bank/help', 'requireAuth');
    assert.deepEqual([requireAuth.role, requireAuth.confidence, requireAuth.evidence], ['auth', 'low', ['name only']]);
  });

  test('a rate limiter named authLimiter is a rate limit on every route, never auth', () => {
    const limiters = [...routes.values()].flatMap((node) => (node.guards ?? []).filter((guard) => guard.name === 'authLimiter'));
    assert.deepEqual(
      limiters.map((guard) => [guard.role, guard.level]),
      [['rate-limit', 'route']],
    );
  });
});

const FRAMEWORK_ROUTES = [
  'route:GET /fastify/health',
  'route:GET /v1/invoices',
  'route:GET /v1/invoices/:id',
  'route:GET /v2/invoices',
  'route:GET /v2/invoices/:id',
  'route:GET /inline/ping',
  'route:GET /hono/health',
  'route:GET /hono/books',
  'route:GET /hono/books/:id',
  'route:GET /hono/library',
  'route:GET /hono/library/:id',
  'route:GET /koa/refunds',
  'route:POST /koa/admin/ops/purge',
  'route:GET /koa/admin/ops/stats',
  'route:GET /api/users/:id',
  'route:POST /api/users',
  'route:GET /api/health',
  'route:ALL /api/legacy-orders',
];

describe('fastify, hono, koa, nestjs and next.js route paths and guards', () => {
  let fixture: BuiltRepo | undefined;
  let routes = new Map<string, RouteNode>();
  before(async () => {
    fixture = await buildRepo(FRAMEWORK_FILES);
    routes = getRoutes(fixture.built);
  });
  after(() => fixture?.repo.cleanup());

  test('every route id carries the full path of its prefixes, and nothing else is a route', () => {
    assert.deepEqual(sorted(routes.keys()), sorted(FRAMEWORK_ROUTES));
  });

  test('fastify: a plugin in another file registered under two prefixes, and an inline plugin', () => {
    assert.deepEqual(
      idsDeclaredIn(routes, 'src/fastify/plugins/invoices.ts'),
      sorted(['route:GET /v1/invoices', 'route:GET /v1/invoices/:id', 'route:GET /v2/invoices', 'route:GET /v2/invoices/:id']),
    );
    assert.deepEqual(idsDeclaredIn(routes, 'src/fastify/server.ts'), ['route:GET /fastify/health', 'route:GET /inline/ping']);
  });

  test('hono: basePath and one sub-app routed under two prefixes', () => {
    assert.deepEqual(
      idsDeclaredIn(routes, 'src/hono/books.ts'),
      sorted(['route:GET /hono/books', 'route:GET /hono/books/:id', 'route:GET /hono/library', 'route:GET /hono/library/:id']),
    );
    assert.deepEqual(idsDeclaredIn(routes, 'src/hono/app.ts'), ['route:GET /hono/health']);
  });

  test('koa: prefix option, prefix() and a nested router mounted with use(path, child.routes())', () => {
    assert.deepEqual(idsDeclaredIn(routes, 'src/koa/router.ts'), ['route:GET /koa/refunds']);
    assert.deepEqual(idsDeclaredIn(routes, 'src/koa/admin.ts'), ['route:GET /koa/admin/ops/stats', 'route:POST /koa/admin/ops/purge']);
  });

  test('nestjs: controller prefix, method path and the global prefix set in main.ts', () => {
    assert.deepEqual(idsDeclaredIn(routes, 'src/nest/users.controller.ts'), ['route:GET /api/users/:id', 'route:POST /api/users']);
  });

  test('next.js: app route handlers and pages/api', () => {
    assert.deepEqual(idsDeclaredIn(routes, 'app/api/health/route.ts'), ['route:GET /api/health']);
    assert.deepEqual(idsDeclaredIn(routes, 'pages/api/legacy-orders.ts'), ['route:ALL /api/legacy-orders']);
  });

  test('guards: reply.code(401), jose, ctx.throw(401) and UnauthorizedException are auth with evidence', () => {
    assertGuards(routes, {
      'route:GET /v1/invoices/:id': ['requireApiKey auth route high'],
      'route:GET /v2/invoices/:id': ['requireApiKey auth route high'],
      'route:GET /hono/books/:id': ['requireJwt auth route high'],
      'route:GET /hono/library/:id': ['requireJwt auth route high'],
      'route:POST /koa/admin/ops/purge': ['requireStaff auth route high'],
      'route:POST /api/users': ['SessionGuard auth route high'],
    });
    assertCodeEvidence(findGuard(routes, 'route:GET /v1/invoices/:id', 'requireApiKey'), /401/);
    assertCodeEvidence(findGuard(routes, 'route:GET /hono/library/:id', 'requireJwt'), /jose|jwtVerify/);
    assertCodeEvidence(findGuard(routes, 'route:POST /koa/admin/ops/purge', 'requireStaff'), /401/);
    assertCodeEvidence(findGuard(routes, 'route:POST /api/users', 'SessionGuard'), /UnauthorizedException|401/);
  });
});
