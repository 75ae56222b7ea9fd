import type { FileTree } from './git-repo.js';

/** A small shop repository (pricing, orders routes, payments, tests, an ADR, memory) shared by the preflight, context and session suites. */
export const SHOP_FILES: FileTree = {
  'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }),
  'src/pricing/discount.ts': [
    "import { roundCents } from '../shared/money.js';",
    'export function applyLoyaltyDiscount(total: number, tier: string): number {',
    "  const rate = tier === 'gold' ? 0.2 : 0.05;",
    '  return roundCents(total * (1 - rate));',
    '}',
    '',
  ].join('\n'),
  'src/pricing/tax.ts':
    "import { roundCents } from '../shared/money.js';\nexport function computeSalesTax(total: number): number {\n  return roundCents(total * 0.08);\n}\n",
  'src/shared/money.ts': 'export function roundCents(value: number): number {\n  return Math.round(value * 100) / 100;\n}\n',
  'src/orders/order-service.ts': [
    "import { applyLoyaltyDiscount } from '../pricing/discount.js';",
    "import { computeSalesTax } from '../pricing/tax.js';",
    "import { reserveStock } from '../inventory/stock.js';",
    'export function createOrder(items: number[], tier: string) {',
    '  const total = applyLoyaltyDiscount(items.reduce((a, b) => a + b, 0), tier);',
    '  reserveStock(items.length);',
    '  return { total, tax: computeSalesTax(total) };',
    '}',
    '',
  ].join('\n'),
  'src/orders/routes.ts': [
    "import express from 'express';",
    "import { createOrder } from './order-service.js';",
    'export const router = express.Router();',
    "router.post('/api/orders', (req, res) => { res.json(createOrder(req.body.items, req.body.tier)); });",
    "router.get('/api/orders/:id', (req, res) => { res.json({ id: req.params.id }); });",
    '',
  ].join('\n'),
  'src/inventory/stock.ts':
    'let reserved = 0;\nexport function reserveStock(count: number): number {\n  reserved += count;\n  return reserved;\n}\n',
  'src/auth/login.ts': 'export function verifyPassword(input: string, expected: string): boolean {\n  return input === expected;\n}\n',
  'src/server.ts':
    "import express from 'express';\nimport { router } from './orders/routes.js';\nconst app = express();\napp.use(router);\napp.listen(3000);\n",
  'test/pricing/discount.test.ts': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { applyLoyaltyDiscount } from '../../src/pricing/discount.js';",
    "test('applyLoyaltyDiscount gives gold members twenty percent', () => {",
    "  assert.equal(applyLoyaltyDiscount(100, 'gold'), 80);",
    '});',
    '',
  ].join('\n'),
  '.checker/memory/pricing.yml': [
    'entries:',
    '  - id: discount-cap',
    '    kind: invariant',
    '    title: Loyalty discount never exceeds twenty percent',
    '    text: The loyalty discount rate is capped at twenty percent for every tier.',
    '    paths: ["src/pricing/**"]',
    '    terms: [loyalty, discount]',
    '',
  ].join('\n'),
  'docs/adr/0001-pricing-rules.md':
    '# Pricing rules live in one module\n\nAll discount and tax rules live in `src/pricing/discount.ts` and `src/pricing/tax.ts`.\n',
  '.checker/contracts.yml':
    'contracts:\n  - id: pricing-stays-pure\n    description: Pricing must not depend on orders.\n    from: ["src/pricing/**"]\n    to: ["src/orders/**"]\n',
  '.checker/config.yml': 'checks:\n  unit:\n    command: npm test\n',
};
