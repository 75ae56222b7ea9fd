import type { FileTree } from './git-repo.js';

/**
 * A small shop: an Express app with a router mounted under a prefix, a barrel, a re-export under another name, a
 * mocked module, CODEOWNERS and a decision record. The graph patch (test/app/update-graph.test.ts) and the kept graph
 * (test/app/graph-snapshot.slow.test.ts) are both checked against fresh builds of it after each of `SHOP_EDITS`.
 */
export const SHOP_FILES: FileTree = {
  'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module', dependencies: { express: '4.0.0' } }),
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', strict: true } }),
  '.github/CODEOWNERS': '/src/pricing/ @acme/pricing\n/src/orders/ @acme/orders\n',
  'docs/adr/0001-pricing.md': '# Pricing\n\nDiscounts go through `applyDiscount` in src/pricing/discount.ts; see GET /orders/list.\n',
  'src/shared/money.ts': 'export function roundCents(value: number): number {\n  return Math.round(value * 100) / 100;\n}\n',
  'src/pricing/discount.ts': [
    "import { roundCents } from '../shared/money.js';",
    'export function applyDiscount(total: number, rate: number): number {',
    '  return roundCents(total * (1 - rate));',
    '}',
    'export const GOLD = 0.2;',
    '',
  ].join('\n'),
  'src/pricing/tax.ts': "export { roundCents as round } from '../shared/money.js';\nexport const VAT = 0.2;\n",
  'src/pricing/index.ts': "export * from './discount.js';\nexport * from './tax.js';\n",
  'src/orders/service.ts': [
    "import { applyDiscount, GOLD } from '../pricing/index.js';",
    "import { round } from '../pricing/tax.js';",
    'export async function listOrders(): Promise<number[]> {',
    '  return [round(applyDiscount(100, GOLD))];',
    '}',
    '',
  ].join('\n'),
  'src/orders/routes.ts': [
    "import { Router } from 'express';",
    "import { listOrders } from './service.js';",
    'export const orders = Router();',
    "orders.get('/list', async (_req, res) => { res.json(await listOrders()); });",
    '',
  ].join('\n'),
  'src/server.ts': [
    "import express from 'express';",
    "import { orders } from './orders/routes.js';",
    'const app = express();',
    "app.use('/orders', orders);",
    'export default app;',
    '',
  ].join('\n'),
  'test/pricing.test.ts': [
    "import { describe, it, expect, vi } from 'vitest';",
    "import { applyDiscount } from '../src/pricing/index.js';",
    "vi.mock('../src/shared/money.js');",
    "describe('pricing', () => { it('discounts', () => { expect(applyDiscount(100, 0.5)).toBe(50); }); });",
    '',
  ].join('\n'),
};

/** src/pricing/discount.ts once its `applyDiscount` is renamed `discountTotal` (the edits below build on it). */
const RENAMED_DISCOUNT = [
  "import { roundCents } from '../shared/money.js';",
  'export function discountTotal(total: number, rate: number): number {',
  '  return roundCents(total * (1 - rate));',
  '}',
  'export const GOLD = 0.2;',
];

/** Source edits of every kind a patch handles, applied one after the other to `SHOP_FILES`. */
export const SHOP_EDITS: [string, FileTree][] = [
  [
    'a function body',
    { 'src/shared/money.ts': 'export function roundCents(value: number): number {\n  return Math.round(value * 1000) / 1000;\n}\n' },
  ],
  [
    'lines added above an export that other files use',
    {
      'src/shared/money.ts':
        '// Money helpers.\n\nexport function roundCents(value: number): number {\n  return Math.round(value * 1000) / 1000;\n}\n',
    },
  ],
  [
    'an export renamed behind a barrel',
    {
      'src/pricing/discount.ts': [...RENAMED_DISCOUNT, ''].join('\n'),
      'src/orders/service.ts': [
        "import { discountTotal, GOLD } from '../pricing/index.js';",
        "import { round } from '../pricing/tax.js';",
        'export async function listOrders(): Promise<number[]> {',
        '  return [round(discountTotal(100, GOLD))];',
        '}',
        '',
      ].join('\n'),
    },
  ],
  ['a barrel that stops re-exporting', { 'src/pricing/index.ts': "export * from './discount.js';\n" }],
  [
    'a route added to a mounted router',
    {
      'src/orders/routes.ts': [
        "import { Router } from 'express';",
        "import { listOrders } from './service.js';",
        'export const orders = Router();',
        "orders.get('/list', async (_req, res) => { res.json(await listOrders()); });",
        "orders.post('/refund', async (_req, res) => { res.json(await listOrders()); });",
        '',
      ].join('\n'),
    },
  ],
  ['a syntax error', { 'src/pricing/tax.ts': 'export const VAT = ;\n' }],
  [
    'the syntax error fixed',
    { 'src/pricing/tax.ts': "export { roundCents as round } from '../shared/money.js';\nexport const VAT = 0.2;\n" },
  ],
  [
    'a test that stops mocking and imports another file',
    {
      'test/pricing.test.ts': [
        "import { describe, it, expect } from 'vitest';",
        "import { listOrders } from '../src/orders/service.js';",
        "import { missing } from '../src/nowhere.js';",
        "describe('orders', () => { it('lists', async () => { expect(await listOrders()).toEqual([missing]); }); });",
        '',
      ].join('\n'),
    },
  ],
  [
    'a file importing from a barrel a name it does not expose yet',
    {
      'src/orders/routes.ts': [
        "import { Router } from 'express';",
        "import { PLATINUM } from '../pricing/index.js';",
        "import { listOrders } from './service.js';",
        'export const orders = Router();',
        "orders.get('/list', async (_req, res) => { res.json(await listOrders()); });",
        "orders.post('/refund', async (_req, res) => { res.json([PLATINUM, ...(await listOrders())]); });",
        '',
      ].join('\n'),
    },
  ],
  [
    // Only the files importing a name whose exports moved get their uses edges again: routes.ts, not edited now,
    // must gain its use of PLATINUM; service.ts, importing other names from the same barrel, keeps its own.
    'an export added behind that barrel, under the name imported before',
    {
      'src/pricing/discount.ts': [...RENAMED_DISCOUNT, 'export const PLATINUM = 0.3;', ''].join('\n'),
    },
  ],
  [
    // What routes are made of is unchanged in service.ts: the patch leaves the route nodes as they stand.
    'a comment appended to a file a route handler calls',
    {
      'src/orders/service.ts': [
        "import { discountTotal, GOLD } from '../pricing/index.js';",
        "import { round } from '../pricing/tax.js';",
        'export async function listOrders(): Promise<number[]> {',
        '  return [round(discountTotal(100, GOLD))];',
        '}',
        '// Orders are listed newest first.',
        '',
      ].join('\n'),
    },
  ],
  [
    'a comment appended to the file declaring the routes',
    {
      'src/orders/routes.ts': [
        "import { Router } from 'express';",
        "import { PLATINUM } from '../pricing/index.js';",
        "import { listOrders } from './service.js';",
        'export const orders = Router();',
        "orders.get('/list', async (_req, res) => { res.json(await listOrders()); });",
        "orders.post('/refund', async (_req, res) => { res.json([PLATINUM, ...(await listOrders())]); });",
        '// Refunds are listed too.',
        '',
      ].join('\n'),
    },
  ],
  [
    'a route handler renamed in the file it is imported from',
    {
      'src/orders/service.ts': [
        "import { discountTotal, GOLD } from '../pricing/index.js';",
        "import { round } from '../pricing/tax.js';",
        'export async function listAllOrders(): Promise<number[]> {',
        '  return [round(discountTotal(100, GOLD))];',
        '}',
        'export const listOrders = listAllOrders;',
        '',
      ].join('\n'),
    },
  ],
];
