import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RouteFact } from '../../src/model/facts.js';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';

const LEGACY_ROUTE_KEYS = ['method', 'path', 'framework', 'kind', 'line', 'handler', 'middleware', 'router'] as const;
const LEGACY_MOUNT_KEYS = ['prefix', 'target', 'line'] as const;
/** The declared-route fields these tests pin down; chain entries, spans and offsets have tests of their own (route-entries.test.ts). */
const pick = <T extends object>(value: T, keys: readonly string[]): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([key]) => keys.includes(key))) as Partial<T>;
const parse = (text: string, path = 'src/server.ts') => {
  const facts = extractFacts(path, text, { assertionHelpers: [] });
  return {
    ...facts,
    routes: facts.routes.map((route) => pick(route, LEGACY_ROUTE_KEYS)),
    mounts: facts.mounts.map((mount) => pick(mount, LEGACY_MOUNT_KEYS)),
  };
};
const api = (method: string, path: string, framework: RouteFact['framework'], line: number, extra: Partial<RouteFact> = {}): RouteFact => ({
  method,
  path,
  framework,
  kind: 'api',
  line,
  ...extra,
});

// Check 103 (typicode/json-server): `new App()` of @tinyhttp/app registers routes as express does, and none was found.
describe('express-like frameworks: tinyhttp and polka', () => {
  test("routes of tinyhttp's `new App()` and polka's `polka()`; an App of another module is no router", () => {
    const tinyhttp = [
      "import { App } from '@tinyhttp/app';",
      'export function createApp() {',
      '  const app = new App();',
      "  app.get('/:name', (req, res) => res.json([]));",
      "  app.post('/:name', create);",
      '  return app;',
      '}',
    ].join('\n');
    assert.deepEqual(parse(tinyhttp).routes, [
      api('GET', '/:name', 'express', 4, { router: 'app' }),
      api('POST', '/:name', 'express', 5, { handler: 'create', router: 'app' }),
    ]);
    const polka = ["import polka from 'polka';", 'const app = polka();', "app.get('/users', listUsers);"].join('\n');
    assert.deepEqual(parse(polka).routes, [api('GET', '/users', 'express', 3, { handler: 'listUsers', router: 'app' })]);
    const other = ["import { App } from './ui';", 'const view = new App();', "view.get('/users', listUsers);"].join('\n');
    assert.deepEqual(parse(other).routes, []);
  });
});

describe('express', () => {
  test('app, Router, route() chains and mounts', () => {
    const code = [
      "import express, { Router } from 'express';",
      "import { requireAuth } from './auth';",
      'const app = express();',
      'const users = Router();',
      'const admin = express.Router();',
      "app.get('/health', (req, res) => res.send('ok'));",
      "users.post('/', requireAuth, validate.body, createUser);",
      "users.route('/:id').get(getUser).put(requireAuth, updateUser);",
      "admin.delete('/cache', [requireAuth, requireRole('admin')], asyncHandler(clearCache));",
      "app.all('*', notFound);",
      "app.use('/users', users);",
      "app.use('/admin', requireAuth, admin);",
      'app.use(express.json());',
      "app.get('title');",
      "app.get('/x', { cache: true });",
    ].join('\n');
    const facts = parse(code);
    assert.deepEqual(facts.routes, [
      api('GET', '/health', 'express', 6, { router: 'app' }),
      api('POST', '/', 'express', 7, { router: 'users', handler: 'createUser', middleware: ['requireAuth', 'validate.body'] }),
      api('GET', '/:id', 'express', 8, { router: 'users', handler: 'getUser' }),
      api('PUT', '/:id', 'express', 8, { router: 'users', handler: 'updateUser', middleware: ['requireAuth'] }),
      api('DELETE', '/cache', 'express', 9, { router: 'admin', handler: 'clearCache', middleware: ['requireAuth', 'requireRole'] }),
      api('ALL', '*', 'express', 10, { router: 'app', handler: 'notFound' }),
    ]);
    assert.deepEqual(facts.mounts, [
      { prefix: '/users', target: 'users', line: 11 },
      { prefix: '/admin', target: 'admin', line: 12 },
    ]);
  });

  test('router passed as a parameter or created by require', () => {
    const code = [
      "const express = require('express');",
      'const router = express.Router();',
      "router.get('/a', a);",
      'module.exports = function register(app) {',
      "  app.patch('/b', b);",
      "  app.use(require('./x'));",
      '};',
    ].join('\n');
    assert.deepEqual(parse(code, 'routes.js').routes, [
      api('GET', '/a', 'express', 3, { router: 'router', handler: 'a' }),
      api('PATCH', '/b', 'express', 5, { router: 'app', handler: 'b' }),
    ]);
  });

  // Check 112 (etherpad): plugin hooks get the app as a field of their argument, `(hookName, {app}) => …` or
  // `args.app.get(…)`, in files that import no framework; their tests request the paths through a supertest agent made
  // in a shared helper (`agent = await common.init()`).
  test('an app handed over in a destructured parameter or as a field of one, and an agent requesting it', () => {
    const code = [
      'exports.expressPreSession = async (hookName, {app}) => {',
      "  app.get('/health', (req, res) => res.send('ok'));",
      '};',
      'exports.expressCreateServer = (hookName, args) => {',
      "  args.app.get('/favicon.ico', (req, res) => res.send(''));",
      "  args.client.get('/not-a-route', (err, res) => res);",
      '};',
    ].join('\n');
    assert.deepEqual(parse(code, 'src/hooks.js').routes, [
      api('GET', '/health', 'express', 2, { router: 'app' }),
      api('GET', '/favicon.ico', 'express', 5, { router: 'app' }),
    ]);
    const spec = [
      "const common = require('../common');",
      'let agent;',
      'before(async () => { agent = await common.init(); });',
      "it('serves the icon', async () => { await agent.get('/favicon.ico').expect(200); });",
      "it('asks another host', async () => { await client.get('/favicon.ico'); });",
    ].join('\n');
    assert.deepEqual(
      (extractFacts('src/tests/favicon.js', spec, { assertionHelpers: [] }).httpCalls ?? []).map((call) => [
        call.client,
        call.method,
        call.path,
      ]),
      [['supertest', 'GET', '/favicon.ico']],
    );
  });

  test('unmounted-prefix use of a router mounts at the root', () => {
    const code =
      "import express from 'express';\nimport apiRouter from './api';\nconst app = express();\napp.use(apiRouter);\napp.use(cors);";
    // A bare `use(identifier)` may be a router or a middleware: the graph decides once it can see the target.
    assert.deepEqual(parse(code).mounts, [
      { prefix: '/', target: 'apiRouter', line: 4 },
      { prefix: '/', target: 'cors', line: 5 },
    ]);
  });
});

describe('false positives', () => {
  test('Map.get, clients and unknown receivers are not routes', () => {
    const code = [
      'const map = new Map();',
      "map.get('/x', 1);",
      "const cache = createCache(); cache.get('/y', loader);",
      "const api = axios.create(); api.get('/users', config);",
      "http.get('/z', onResponse);",
      "thing.post('/w', handler);",
      "function f(app) { app.get('relative', handler); }",
    ].join('\n');
    const facts = parse(code);
    assert.deepEqual(facts.routes, []);
    assert.deepEqual(facts.mounts, []);
  });
});

describe('fastify', () => {
  test('shorthand, route() with method arrays, register prefix', () => {
    const code = [
      "import Fastify from 'fastify';",
      'const fastify = Fastify({ logger: true });',
      "fastify.get('/items', { schema }, listItems);",
      "fastify.route({ method: ['GET', 'HEAD'], url: '/items/:id', preHandler: [auth], handler: getItem });",
      "fastify.route({ method: 'POST', url: '/items', handler: async (request) => create(request) });",
      "fastify.register(itemsPlugin, { prefix: '/v1' });",
    ].join('\n');
    const facts = parse(code);
    assert.deepEqual(facts.routes, [
      api('GET', '/items', 'fastify', 3, { router: 'fastify', handler: 'listItems' }),
      api('GET', '/items/:id', 'fastify', 4, { router: 'fastify', handler: 'getItem', middleware: ['auth'] }),
      api('HEAD', '/items/:id', 'fastify', 4, { router: 'fastify', handler: 'getItem', middleware: ['auth'] }),
      api('POST', '/items', 'fastify', 5, { router: 'fastify' }),
    ]);
    assert.deepEqual(facts.mounts, [{ prefix: '/v1', target: 'itemsPlugin', line: 6 }]);
  });

  test('plugin function parameter', () => {
    const code = "export default async function plugin(fastify, opts) {\n  fastify.delete('/items/:id', removeItem);\n}";
    assert.deepEqual(parse(code, 'plugins/items.js').routes, [
      api('DELETE', '/items/:id', 'fastify', 2, { router: 'fastify', handler: 'removeItem' }),
    ]);
  });
});

describe('hono', () => {
  test('basePath, chained methods, on() and route() mounts', () => {
    const code = [
      "import { Hono } from 'hono';",
      "const app = new Hono().basePath('/api');",
      'const books = new Hono();',
      "books.get('/', listBooks).post('/', createBook);",
      "app.on(['PUT', 'DELETE'], '/books/:id', handleBook);",
      "app.route('/books', books);",
      "const v2 = app.basePath('/v2');",
      "v2.get('/ping', (c) => c.text('pong'));",
    ].join('\n');
    const facts = parse(code);
    assert.deepEqual(facts.routes, [
      api('GET', '/', 'hono', 4, { router: 'books', handler: 'listBooks' }),
      api('POST', '/', 'hono', 4, { router: 'books', handler: 'createBook' }),
      api('PUT', '/api/books/:id', 'hono', 5, { router: 'app', handler: 'handleBook' }),
      api('DELETE', '/api/books/:id', 'hono', 5, { router: 'app', handler: 'handleBook' }),
      api('GET', '/api/v2/ping', 'hono', 8, { router: 'v2' }),
    ]);
    assert.deepEqual(facts.mounts, [{ prefix: '/api/books', target: 'books', line: 6 }]);
  });
});

describe('koa', () => {
  test('router prefix option, named routes, prefix() and nested routers', () => {
    const code = [
      "import Router from '@koa/router';",
      "const router = new Router({ prefix: '/api' });",
      "router.get('user', '/users/:id', loadUser, showUser);",
      "router.post('/users', createUser);",
      'const admin = new Router();',
      "admin.prefix('/admin');",
      "admin.del('/sessions', dropSessions);",
      "router.use('/nested', admin.routes());",
    ].join('\n');
    const facts = parse(code);
    assert.deepEqual(facts.routes, [
      api('GET', '/api/users/:id', 'koa', 3, { router: 'router', handler: 'showUser', middleware: ['loadUser'] }),
      api('POST', '/api/users', 'koa', 4, { router: 'router', handler: 'createUser' }),
      api('DELETE', '/admin/sessions', 'koa', 7, { router: 'admin', handler: 'dropSessions' }),
    ]);
    assert.deepEqual(facts.mounts, [{ prefix: '/api/nested', target: 'admin', line: 8 }]);
  });
});

describe('nestjs', () => {
  test('controller prefix and method decorators', () => {
    const code = [
      "import { Controller, Get, Post, Delete, UseGuards } from '@nestjs/common';",
      "@Controller('users')",
      '@UseGuards(AuthGuard)',
      'export class UsersController {',
      '  @Get()',
      '  findAll() {}',
      "  @Get(':id')",
      '  findOne() {}',
      '  @Post()',
      '  @UseGuards(AdminGuard)',
      '  create() {}',
      "  @Delete(['a', 'b'])",
      '  remove() {}',
      '  helper() {}',
      '}',
      "@Controller({ path: 'health' })",
      'class HealthController {',
      "  @Get('/')",
      '  check() {}',
      '}',
    ].join('\n');
    const common = { framework: 'nestjs' as const, kind: 'api' as const };
    assert.deepEqual(parse(code, 'src/users.controller.ts').routes, [
      { method: 'GET', path: '/users', ...common, line: 5, router: 'UsersController', handler: 'findAll', middleware: ['AuthGuard'] },
      { method: 'GET', path: '/users/:id', ...common, line: 7, router: 'UsersController', handler: 'findOne', middleware: ['AuthGuard'] },
      {
        method: 'POST',
        path: '/users',
        ...common,
        line: 9,
        router: 'UsersController',
        handler: 'create',
        middleware: ['AuthGuard', 'AdminGuard'],
      },
      { method: 'DELETE', path: '/users/a', ...common, line: 12, router: 'UsersController', handler: 'remove', middleware: ['AuthGuard'] },
      { method: 'DELETE', path: '/users/b', ...common, line: 12, router: 'UsersController', handler: 'remove', middleware: ['AuthGuard'] },
      { method: 'GET', path: '/health', ...common, line: 18, router: 'HealthController', handler: 'check' },
    ]);
  });
});

describe('next.js', () => {
  const routesOf = (path: string, code = 'export default function Page() { return null; }') => parse(code, path).routes;

  test('pages/api', () => {
    assert.deepEqual(routesOf('pages/api/users/[id].ts', 'const x = 1;\nexport default function handler(req, res) {}'), [
      { method: 'ALL', path: '/api/users/:id', framework: 'nextjs-api', kind: 'api', line: 2 },
    ]);
    assert.deepEqual(routesOf('src/pages/api/index.js'), [{ method: 'ALL', path: '/api', framework: 'nextjs-api', kind: 'api', line: 1 }]);
  });

  test('app route handlers, one route per exported method', () => {
    const code =
      'export async function GET() {}\nexport const POST = async () => {};\nconst h = () => {};\nexport { h as DELETE };\nexport const config = {};\nexport type PUT = string;';
    assert.deepEqual(routesOf('app/api/(admin)/items/[...slug]/route.ts', code), [
      { method: 'GET', path: '/api/items/*slug', framework: 'nextjs-route', kind: 'api', line: 1, handler: 'GET' },
      { method: 'POST', path: '/api/items/*slug', framework: 'nextjs-route', kind: 'api', line: 2, handler: 'POST' },
      { method: 'DELETE', path: '/api/items/*slug', framework: 'nextjs-route', kind: 'api', line: 3, handler: 'DELETE' },
    ]);
  });

  test('pages and app pages are UI routes', () => {
    const ui = (path: string, line = 1): RouteFact => ({ method: 'PAGE', path, framework: 'nextjs-page', kind: 'ui', line });
    assert.deepEqual(routesOf('pages/index.tsx'), [ui('/')]);
    assert.deepEqual(routesOf('pages/blog/[slug].jsx'), [ui('/blog/:slug')]);
    assert.deepEqual(routesOf('src/pages/docs/[[...path]].tsx'), [ui('/docs/*path?')]);
    assert.deepEqual(routesOf('app/page.tsx'), [ui('/')]);
    assert.deepEqual(routesOf('src/app/(shop)/@modal/cart/[id]/page.tsx'), [ui('/cart/:id')]);
    assert.deepEqual(routesOf('apps/web/app/settings/page.js'), [ui('/settings')]);
  });

  test('special files and non-route paths', () => {
    for (const path of [
      'pages/_app.tsx',
      'pages/_document.tsx',
      'pages/_error.js',
      'app/layout.tsx',
      'app/_components/page.tsx',
      'lib/pages/home.tsx',
      'pages/home.test.tsx',
      'src/components/page.tsx',
    ]) {
      assert.deepEqual(routesOf(path), [], path);
    }
  });
});
