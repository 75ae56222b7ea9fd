import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ImpactedRoute } from '../../src/model/analysis.js';
import { findRouteImpacts } from '../../src/graph/queries/find-route-impacts.js';
import { buildImpactFixture, json, reachOf, type ImpactFixture } from '../helpers/impact-fixtures.js';

const MONEY = 'src/lib/money.ts';

const FILES = {
  'package.json': json({ name: 'routes', version: '1.0.0', type: 'module' }),
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
  'src/express/status.ts': ["import { Router } from 'express';", 'export const router = Router();', "router.get('/status', (req, res) => res.send('ok'));"].join('\n'),
  'src/express/invoices-routes.ts': [
    "import { Router } from 'express';",
    "import { listInvoices } from './handlers/invoices.js';",
    'export const invoices = Router();',
    "invoices.get('/invoices', listInvoices);",
  ].join('\n'),
  'src/express/handlers/invoices.ts': "import { toCents } from '../../lib/money.js';\nexport const listInvoices = (req: unknown, res: { json(v: unknown): void }): void => res.json(toCents(2));\n",
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
  'app/api/cart/route.ts': "import { toCents } from '../../../src/lib/money.js';\nexport async function GET() {\n  return Response.json(toCents(6));\n}\n",
  'pages/api/charge.ts': "import { toCents } from '../../src/lib/money.js';\nexport default function handler(req: unknown, res: { json(v: unknown): void }) {\n  res.json(toCents(7));\n}\n",
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

type Expected = Pick<ImpactedRoute, 'id' | 'framework' | 'file' | 'line' | 'reason' | 'chain' | 'direct'>;

const pick = (route: ImpactedRoute): Expected => ({
  id: route.id,
  framework: route.framework,
  file: route.file,
  line: route.line,
  reason: route.reason,
  chain: route.chain,
  direct: route.direct,
});

const reached = (id: string, framework: string, file: string, line: number, chain: string[]): Expected => {
  const steps = chain.slice(0, -1).reverse();
  const handler = chain[chain.length - 1] ?? '';
  const reason = `handler ${handler} imports ${steps.join(', which imports ')} (changed)`;
  return { id, framework, file, line, reason, chain, direct: false };
};

describe('route impacts of each framework on a real repository', () => {
  let fixture: ImpactFixture;
  before(async () => {
    fixture = await buildImpactFixture(FILES);
  });
  after(() => fixture.repo.cleanup());

  test('routes reached from a changed library file, with their reason chains, plus direct declarations and OpenAPI documents', () => {
    const changed = [MONEY, 'src/fastify/server.ts', 'openapi.yaml'];
    const routes = findRouteImpacts(fixture.built.kg, changed, reachOf(fixture, changed));
    assert.deepEqual(routes.map(pick), [
      { id: 'route:GET /legacy', framework: 'openapi', file: 'openapi.yaml', line: 1, reason: 'openapi.yaml (changed) documents GET /legacy', chain: ['openapi.yaml'], direct: true },
      {
        id: 'route:POST /payments',
        framework: 'fastify',
        file: 'src/fastify/server.ts',
        line: 3,
        reason: 'src/fastify/server.ts (changed) declares POST /payments',
        chain: ['src/fastify/server.ts'],
        direct: true,
      },
      reached('route:ALL /api/charge', 'nextjs-api', 'pages/api/charge.ts', 2, [MONEY, 'pages/api/charge.ts']),
      reached('route:GET /api/cart', 'nextjs-route', 'app/api/cart/route.ts', 2, [MONEY, 'app/api/cart/route.ts']),
      reached('route:GET /api/orders/:id', 'express', 'src/express/orders.ts', 4, [MONEY, 'src/express/orders.ts']),
      reached('route:GET /billing/total', 'nestjs', 'src/nest/billing.controller.ts', 5, [MONEY, 'src/nest/billing.controller.ts']),
      reached('route:GET /invoices', 'express', 'src/express/invoices-routes.ts', 4, [MONEY, 'src/express/handlers/invoices.ts']),
      reached('route:GET /koa/refunds', 'koa', 'src/koa/router.ts', 4, [MONEY, 'src/koa/router.ts']),
      reached('route:GET /hono/quote', 'hono', 'src/hono/app.ts', 4, [MONEY, 'src/hono/quote.ts', 'src/hono/app.ts']),
    ]);
    assert.equal(routes[6]?.reason, 'handler src/express/handlers/invoices.ts imports src/lib/money.ts (changed)');
    assert.equal(routes[8]?.reason, 'handler src/hono/app.ts imports src/hono/quote.ts, which imports src/lib/money.ts (changed)');
  });

  test('a changed handler file makes its imported-handler route direct', () => {
    const changed = ['src/express/handlers/invoices.ts'];
    assert.deepEqual(findRouteImpacts(fixture.built.kg, changed, reachOf(fixture, changed)).map(pick), [
      {
        id: 'route:GET /invoices',
        framework: 'express',
        file: 'src/express/invoices-routes.ts',
        line: 4,
        reason: 'handler src/express/handlers/invoices.ts (changed) handles GET /invoices declared in src/express/invoices-routes.ts',
        chain: ['src/express/handlers/invoices.ts'],
        direct: true,
      },
    ]);
  });

  test('a router mounted in another file keeps its full path; unrelated routes are not impacted', () => {
    const changed = ['src/express/status.ts'];
    const routes = findRouteImpacts(fixture.built.kg, changed, reachOf(fixture, changed));
    assert.deepEqual(routes.map((route) => [route.id, route.reason]), [['route:GET /ops/status', 'src/express/status.ts (changed) declares GET /ops/status']]);
    assert.deepEqual(findRouteImpacts(fixture.built.kg, ['README.md'], []), []);
  });
});
