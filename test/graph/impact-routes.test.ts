import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ImpactedRoute } from '../../src/model/analysis.js';
import { findRouteImpacts } from '../../src/graph/queries/find-route-impacts.js';
import { buildImpactFixture, json, reachOf, type ImpactFixture } from '../helpers/impact-fixtures.js';

const MONEY = 'src/lib/money.ts';

const FILES = {
  // next: its app/ and pages/ folders are Next.js routes only in a package that serves Next.js (routes/next-packages.ts).
  'package.json': json({ name: 'routes', version: '1.0.0', type: 'module', dependencies: { next: '^15.0.0' } }),
  'tsconfig.json': json({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true, experimentalDecorators: true } }),
  [MONEY]: 'export const toCents = (value: number): number => Math.round(value * 100);\n',
  'src/express/app.ts': [
    "import express from 'express';",
    "import { ordersRouter } from './orders.js';",
    "import { router as statusRouter } from './status.js';",
    'const app = express();',
    "app.use('/api', ordersRouter);",
    "app.use('/ops', statusRouter);",
    'export default app;',
  ].join('\n'),
  'src/express/orders.ts': [
    "import { Router } from 'express';",
    "import { toCents } from '../lib/money.js';",
    'export const ordersRouter = Router();',
    "ordersRouter.get('/orders/:id', (req, res) => res.json({ total: toCents(1) }));",
  ].join('\n'),
  'src/express/status.ts': [
    "import { Router } from 'express';",
    'export const router = Router();',
    "router.get('/status', (req, res) => res.send('ok'));",
  ].join('\n'),
  'src/express/invoices-routes.ts': [
    "import { Router } from 'express';",
    "import { listInvoices } from './handlers/invoices.js';",
    'export const invoices = Router();',
    "invoices.get('/invoices', listInvoices);",
  ].join('\n'),
  'src/express/handlers/invoices.ts':
    "import { toCents } from '../../lib/money.js';\nexport const listInvoices = (req: unknown, res: { json(v: unknown): void }): void => res.json(toCents(2));\n",
  'src/fastify/server.ts': [
    "import Fastify from 'fastify';",
    'const fastify = Fastify();',
    "fastify.route({ method: 'POST', url: '/payments', handler: async () => ({ ok: true }) });",
  ].join('\n'),
  'src/hono/quote.ts': "import { toCents } from '../lib/money.js';\nexport const quote = (): number => toCents(3);\n",
  'src/hono/app.ts': [
    "import { Hono } from 'hono';",
    "import { quote } from './quote.js';",
    "const app = new Hono().basePath('/hono');",
    "app.get('/quote', (c) => c.json(quote()));",
    'export default app;',
  ].join('\n'),
  'src/koa/router.ts': [
    "import Router from '@koa/router';",
    "import { toCents } from '../lib/money.js';",
    "const router = new Router({ prefix: '/koa' });",
    "router.get('/refunds', (ctx) => { ctx.body = toCents(4); });",
    'export default router;',
  ].join('\n'),
  'src/nest/billing.controller.ts': [
    "import { Controller, Get } from '@nestjs/common';",
    "import { toCents } from '../lib/money.js';",
    "@Controller('billing')",
    'export class BillingController {',
    "  @Get('total')",
    '  total(): number { return toCents(5); }',
    '}',
  ].join('\n'),
  'app/api/cart/route.ts':
    "import { toCents } from '../../../src/lib/money.js';\nexport async function GET() {\n  return Response.json(toCents(6));\n}\n",
  'pages/api/charge.ts':
    "import { toCents } from '../../src/lib/money.js';\nexport default function handler(req: unknown, res: { json(v: unknown): void }) {\n  res.json(toCents(7));\n}\n",
  'pages/api/health.ts': 'export default function handler(req: unknown, res: { end(): void }) {\n  res.end();\n}\n',
  'openapi.yaml': [
    'openapi: 3.0.0',
    'info: { title: shop, version: 1.0.0 }',
    'paths:',
    '  /payments:',
    '    post:',
    '      responses: { "200": { description: ok } }',
    '  /legacy:',
    '    get:',
    '      responses: { "200": { description: ok } }',
  ].join('\n'),
};

type Expected = Pick<ImpactedRoute, 'id' | 'file' | 'line' | 'reason' | 'chain' | 'direct' | 'reach' | 'steps'>;

const pick = (route: ImpactedRoute): Expected => ({
  id: route.id,
  file: route.file,
  line: route.line,
  reason: route.reason,
  chain: route.chain,
  direct: route.direct,
  reach: route.reach,
  steps: route.steps,
});

/** A route whose handler (declared at file:line) reaches `toCents` through `calls`. */
const throughMoney = (id: string, file: string, line: number, calls: { name: string; file: string }[] = []): Expected => {
  const label = id.slice('route:'.length);
  const steps = [
    `handler ${label} (${file}:${line})`,
    ...calls.map((call) => `calls ${call.name} (${call.file})`),
    `changed toCents (${MONEY}:1)`,
  ];
  return {
    id,
    file,
    line,
    reason: `handler of ${label}: ${steps.slice(1).join(' → ')}`,
    chain: [MONEY, ...calls.map((call) => call.file).reverse(), file].filter((path, index, all) => all.indexOf(path) === index),
    direct: false,
    reach: 'handler',
    steps,
  };
};

describe('route impacts of each framework on a real repository', () => {
  let fixture: ImpactFixture;
  before(async () => {
    fixture = await buildImpactFixture(FILES);
  });
  after(() => fixture.repo.cleanup());

  test('routes whose handlers call a changed library function, with their call chains, plus changed handlers and OpenAPI documents', () => {
    const changed = [MONEY, 'src/fastify/server.ts', 'openapi.yaml'];
    const routes = findRouteImpacts(fixture.built.kg, changed, reachOf(fixture, changed));
    assert.deepEqual(routes.map(pick), [
      {
        id: 'route:GET /legacy',
        file: 'openapi.yaml',
        line: 1,
        reason: 'openapi.yaml (changed) documents GET /legacy',
        chain: ['openapi.yaml'],
        direct: true,
        reach: 'handler',
        steps: ['document GET /legacy (openapi.yaml:1)', 'changed openapi.yaml'],
      },
      {
        id: 'route:POST /payments',
        file: 'src/fastify/server.ts',
        line: 3,
        reason: 'src/fastify/server.ts (changed) changes the handler of POST /payments on line 3',
        chain: ['src/fastify/server.ts'],
        direct: true,
        reach: 'handler',
        steps: ['handler POST /payments (src/fastify/server.ts:3)', 'changed line 3 of the handler (src/fastify/server.ts)'],
      },
      throughMoney('route:ALL /api/charge', 'pages/api/charge.ts', 2),
      throughMoney('route:GET /api/cart', 'app/api/cart/route.ts', 2),
      throughMoney('route:GET /api/orders/:id', 'src/express/orders.ts', 4),
      throughMoney('route:GET /billing/total', 'src/nest/billing.controller.ts', 5),
      throughMoney('route:GET /koa/refunds', 'src/koa/router.ts', 4),
      throughMoney('route:GET /hono/quote', 'src/hono/app.ts', 4, [{ name: 'quote', file: 'src/hono/quote.ts' }]),
      throughMoney('route:GET /invoices', 'src/express/invoices-routes.ts', 4, [
        { name: 'listInvoices', file: 'src/express/handlers/invoices.ts' },
      ]),
    ]);
    // pages/api/health.ts, GET /ops/status and GET /health import nothing that changed.
    assert.ok(!routes.some((route) => ['route:ALL /api/health', 'route:GET /ops/status'].includes(route.id)));
  });

  test('a changed handler in another file reaches its route through the named handler', () => {
    const changed = ['src/express/handlers/invoices.ts'];
    assert.deepEqual(findRouteImpacts(fixture.built.kg, changed, reachOf(fixture, changed)).map(pick), [
      {
        id: 'route:GET /invoices',
        file: 'src/express/invoices-routes.ts',
        line: 4,
        reason: 'handler of GET /invoices: changed listInvoices (src/express/handlers/invoices.ts:2)',
        chain: ['src/express/handlers/invoices.ts', 'src/express/invoices-routes.ts'],
        direct: false,
        reach: 'handler',
        steps: ['handler GET /invoices (src/express/invoices-routes.ts:4)', 'changed listInvoices (src/express/handlers/invoices.ts:2)'],
      },
    ]);
  });

  test('a router mounted in another file keeps its full path; unrelated routes are not impacted', () => {
    const changed = ['src/express/status.ts'];
    const routes = findRouteImpacts(fixture.built.kg, changed, reachOf(fixture, changed));
    assert.deepEqual(
      routes.map((route) => [route.id, route.reason]),
      [['route:GET /ops/status', 'src/express/status.ts (changed) changes the handler of GET /ops/status on line 3']],
    );
    assert.deepEqual(findRouteImpacts(fixture.built.kg, ['README.md'], []), []);
  });
});

describe('routes a test file registers are its fixtures, not routes the product serves', () => {
  let fixture: ImpactFixture;
  before(async () => {
    fixture = await buildImpactFixture({
      'package.json': json({ name: 'server', version: '1.0.0', type: 'module' }),
      [MONEY]: FILES[MONEY],
      'src/app.ts': [
        "import express from 'express';",
        "import { toCents } from './lib/money.js';",
        'export const app = express();',
        "app.get('/total', (req, res) => res.json(toCents(1)));",
      ].join('\n'),
      'test/hooks.test.ts': [
        "import { test } from 'node:test';",
        "import express from 'express';",
        "import { toCents } from '../src/lib/money.js';",
        "test('a hook', () => {",
        '  const app = express();',
        "  app.get('/a', (req, res) => res.json(toCents(2)));",
        '});',
      ].join('\n'),
    });
  });
  after(() => fixture.repo.cleanup());

  test('the graph has the product route only, and a change reaches only it', () => {
    const ids: string[] = [];
    fixture.built.kg.graph.forEachNode((id, attributes) => {
      if (attributes.kind === 'route') ids.push(id);
    });
    assert.deepEqual(ids, ['route:GET /total']);
    const routes = findRouteImpacts(fixture.built.kg, [MONEY], reachOf(fixture, [MONEY]));
    assert.deepEqual(
      routes.map((route) => route.id),
      ['route:GET /total'],
    );
  });
});
