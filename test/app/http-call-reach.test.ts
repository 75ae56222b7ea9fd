import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AgentBundle } from '../../src/model/bundle.js';
import { createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';

/** A FastAPI back end and a TypeScript front end that calls it with fetch, tested with vitest. */
const MIXED = {
  'package.json': JSON.stringify({ name: 'shop', private: true, devDependencies: { vitest: '^2.0.0' } }),
  'pyproject.toml': '[project]\nname = "shop-api"\n',
  'api/__init__.py': '',
  'api/main.py': [
    'from fastapi import FastAPI',
    '',
    'from api.orders import place_order',
    'from api.users import list_users',
    '',
    'app = FastAPI()',
    '',
    '',
    '@app.post("/api/orders")',
    'def create_order(order: dict):',
    '    return place_order(order)',
    '',
    '',
    '@app.get("/api/users")',
    'def users():',
    '    return list_users()',
    '',
  ].join('\n'),
  'api/orders.py': 'def place_order(order):\n    return {"id": 1, **order}\n',
  'api/users.py': 'def list_users():\n    return []\n',
  'web/src/orders.ts': [
    'export async function placeOrder(items: string[]): Promise<{ id: number }> {',
    "  const response = await fetch('/api/orders', {",
    "    method: 'POST',",
    "    headers: { 'content-type': 'application/json' },",
    '    body: JSON.stringify({ items }),',
    '  });',
    '  return response.json();',
    '}',
    '',
  ].join('\n'),
  'web/src/orders.test.ts': [
    "import { expect, it, vi } from 'vitest';",
    "import { placeOrder } from './orders';",
    '',
    "it('posts the order', async () => {",
    '  globalThis.fetch = vi.fn(async () => new Response(JSON.stringify({ id: 1 })));',
    "  expect(await placeOrder(['tea'])).toEqual({ id: 1 });",
    '});',
    '',
  ].join('\n'),
  'web/src/users.ts': "export const loadUsers = (): Promise<Response> => fetch('/api/users/');\n",
};

describe('a Python route called by TypeScript client code', () => {
  let ordersChange: ChangeFixture;
  let usersChange: ChangeFixture;
  before(() => {
    ordersChange = createChangeFixture(MIXED, {
      'api/orders.py':
        'def place_order(order):\n    if not order.get("items"):\n        raise ValueError("empty")\n    return {"id": 1, **order}\n',
    });
    usersChange = createChangeFixture(MIXED, { 'api/users.py': 'def list_users():\n    return [{"id": 1}]\n' });
  });
  after(() => {
    ordersChange.repo.cleanup();
    usersChange.repo.cleanup();
  });

  test('a change in the handler chain of POST /api/orders reaches the client that calls it and the client’s test', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(ordersChange, ['ai'], 'agent-bundle');
    assert.deepEqual(
      bundle.evidence.impactedRoutes.map((route) => route.id),
      ['route:POST /api/orders'],
    );
    const caller = bundle.evidence.impactedFiles.find((file) => file.path === 'web/src/orders.ts');
    assert.deepEqual(caller, {
      id: 'file:web/src/orders.ts',
      path: 'web/src/orders.ts',
      distance: 2,
      via: ['api/orders.py', 'api/main.py'],
      typeOnly: false,
      role: 'source',
      route: 'route:POST /api/orders',
      reason: 'calls POST /api/orders on line 2, a route the change reaches',
    });
    assert.equal(
      bundle.evidence.impactedFiles.some((file) => file.path === 'web/src/users.ts'),
      false,
    );
    assert.deepEqual(
      bundle.evidence.testRun.commands.map((command) => command.files),
      [['web/src/orders.test.ts']],
    );
    // The prompt says how each file reaches the change: the client requests the route, it imports nothing of it.
    const reach = bundle.prompt.split('\n').filter((line) => /the change \(by distance|reaches? it through|`web\/src\//.test(line));
    assert.deepEqual(reach.slice(0, 3), [
      '1 file imports the change (by distance: hop 1 (1)); 2 files reach it through an HTTP call to a route it reaches.',
      '- `web/src/orders.ts`: calls POST /api/orders on line 2, a route the change reaches',
      '- `web/src/orders.test.ts`: imports web/src/orders.ts, which calls POST /api/orders on line 2, a route the change reaches',
    ]);
    // Again from the facts cache (the calls are kept beside its lists) and the kept graph: the same reach.
    const { report: again } = await runJsonReport<AgentBundle>(ordersChange, ['ai'], 'agent-bundle');
    assert.deepEqual(again.evidence.impactedFiles, bundle.evidence.impactedFiles);
    assert.deepEqual(again.evidence.testRun, bundle.evidence.testRun);
  });

  test('a change to the handler chain of another route reaches neither', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(usersChange, ['ai'], 'agent-bundle');
    assert.deepEqual(
      bundle.evidence.impactedRoutes.map((route) => route.id),
      ['route:GET /api/users'],
    );
    assert.deepEqual(
      bundle.evidence.impactedFiles.filter((file) => file.route !== undefined).map((file) => [file.path, file.route]),
      [['web/src/users.ts', 'route:GET /api/users']],
    );
    assert.equal(JSON.stringify(bundle.evidence).includes('web/src/orders.test.ts'), false);
  });
});

/** An Express back end mounted under /api, and a React client whose axios instance has the /api base URL. */
const EXPRESS = {
  'package.json': JSON.stringify({ name: 'store', private: true, devDependencies: { vitest: '^2.0.0' } }),
  'server/app.js': [
    "const express = require('express');",
    "const orders = require('./routes/orders');",
    '',
    'const app = express();',
    'app.use(express.json());',
    "app.use('/api', orders);",
    'module.exports = app;',
    '',
  ].join('\n'),
  'server/routes/orders.js': [
    "const { Router } = require('express');",
    "const { listOrders, createOrder } = require('../services/orders');",
    '',
    'const router = Router();',
    "router.get('/orders', (req, res) => res.json(listOrders()));",
    "router.post('/orders', (req, res) => res.status(201).json(createOrder(req.body)));",
    "router.get('/orders/:id', (req, res) => res.json(listOrders().find((order) => order.id === req.params.id)));",
    'module.exports = router;',
    '',
  ].join('\n'),
  'server/services/orders.js': [
    'const orders = [];',
    'function listOrders() {',
    '  return orders;',
    '}',
    'function createOrder(order) {',
    '  orders.push(order);',
    '  return order;',
    '}',
    'module.exports = { listOrders, createOrder };',
    '',
  ].join('\n'),
  'client/src/api.ts': [
    "import axios from 'axios';",
    '',
    "const api = axios.create({ baseURL: '/api' });",
    '',
    "export const fetchOrders = () => api.get('/orders').then((response) => response.data);",
    'export const fetchOrder = (id: string) => api.get(`/orders/${id}`).then((response) => response.data);',
    '',
  ].join('\n'),
  'client/src/checkout.ts': [
    "import axios from 'axios';",
    '',
    "const api = axios.create({ baseURL: '/api' });",
    '',
    "export const submitOrder = (items: string[]) => api.post('/orders', { items });",
    '',
  ].join('\n'),
  'client/src/OrderList.tsx': [
    "import { fetchOrders } from './api';",
    '',
    'export function OrderList(): JSX.Element {',
    '  void fetchOrders();',
    '  return <ul />;',
    '}',
    '',
  ].join('\n'),
  'client/src/OrderList.test.tsx': [
    "import { it, expect } from 'vitest';",
    "import { OrderList } from './OrderList';",
    '',
    "it('renders', () => expect(OrderList()).toBeTruthy());",
    '',
  ].join('\n'),
  'client/src/checkout.test.ts': [
    "import { it, expect } from 'vitest';",
    "import { submitOrder } from './checkout';",
    '',
    "it('submits', () => expect(submitOrder(['tea'])).toBeTruthy());",
    '',
  ].join('\n'),
};

describe('an Express route called through an axios instance with a base URL', () => {
  let listChange: ChangeFixture;
  before(() => {
    listChange = createChangeFixture(EXPRESS, {
      'server/services/orders.js': EXPRESS['server/services/orders.js'].replace('  return orders;', '  return orders.slice();'),
    });
  });
  after(() => listChange.repo.cleanup());

  test('a change to what the GET handlers call reaches the client calling them, the component importing it, and its test', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(listChange, ['ai'], 'agent-bundle');
    assert.deepEqual(bundle.evidence.impactedRoutes.map((route) => route.id).sort(), [
      'route:GET /api/orders',
      'route:GET /api/orders/:id',
    ]);
    assert.deepEqual(
      bundle.evidence.impactedFiles.filter((file) => file.route !== undefined).map((file) => [file.path, file.distance, file.reason]),
      [
        ['client/src/api.ts', 2, 'calls GET /api/orders on line 5, a route the change reaches'],
        ['client/src/OrderList.tsx', 3, 'imports client/src/api.ts, which calls GET /api/orders on line 5, a route the change reaches'],
        [
          'client/src/OrderList.test.tsx',
          4,
          'imports client/src/api.ts, which calls GET /api/orders on line 5, a route the change reaches',
        ],
      ],
    );
    assert.equal(
      bundle.evidence.impactedFiles.some((file) => file.path.startsWith('client/src/checkout')),
      false,
    );
    assert.deepEqual(
      bundle.evidence.testRun.commands.map((command) => command.files),
      [['client/src/OrderList.test.tsx']],
    );
  });
});

describe('an end-to-end test that calls a route under a prefix read from the environment', () => {
  // nestjs-boilerplate's shape: `app.setGlobalPrefix(config.get(…))` (here `app.use(process.env.API_PREFIX, …)`) leaves
  // the prefix unresolved; the e2e specs call the running server over supertest with the prefix written out.
  const USERS = (body: string): string =>
    `const { Router } = require('express');\nconst router = Router();\nrouter.post('/v1/users/invite', (req, res) => {\n  res.status(201).json({ invited: ${body} });\n});\nmodule.exports = router;\n`;
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({
          name: 'api',
          version: '1.0.0',
          dependencies: { express: '^4.0.0' },
          devDependencies: { jest: '^29.0.0', supertest: '^7.0.0' },
        }),
        'src/app.js':
          "const express = require('express');\nconst users = require('./users');\nconst app = express();\napp.use(process.env.API_PREFIX, users);\nmodule.exports = app;\n",
        'src/users.js': USERS('req.body.email'),
        'test/utils/constants.js': 'exports.APP_URL = `http://localhost:${process.env.APP_PORT}`;\n',
        'test/users.e2e-spec.js':
          "const request = require('supertest');\nconst { APP_URL } = require('./utils/constants');\ndescribe('users', () => {\n  it('invites', () => request(APP_URL).post('/api/v1/users/invite').send({ email: 'a@b.c' }).expect(201));\n});\n",
      },
      { 'src/users.js': USERS('String(req.body.email).toLowerCase()') },
    );
  });
  after(() => fixture.repo.cleanup());

  test('the handler change runs the spec that calls the route', async () => {
    const { report } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.deepEqual(
      report.evidence.impactedRoutes.map((route) => route.id),
      ['route:POST /{?process.env.API_PREFIX}/v1/users/invite'],
    );
    assert.deepEqual(
      report.evidence.testRun.commands.map((command) => command.command),
      ['npx jest --runTestsByPath test/users.e2e-spec.js'],
    );
  });
});
