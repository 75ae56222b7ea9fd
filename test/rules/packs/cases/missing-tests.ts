import type { RuleCases } from '../../../helpers/run-rule-cases.js';

const exported = { path: 'src/money.ts', name: 'roundCents', change: 'modified' };
const route = {
  method: 'POST',
  path: '/orders',
  file: 'src/routes/orders.ts',
  kind: 'api',
  changed: true,
  viaSharedMiddleware: false,
  viaSharedCode: false,
};

export const missingTestCases: Record<string, RuleCases> = {
  'missing-test/export-unreached': {
    valid: [
      { ...exported, reachingTests: 1 },
      { ...exported, change: 'removed' },
      { ...exported, typeOnly: true },
    ],
    invalid: [
      {
        facts: { ...exported },
        message: 'roundCents in src/money.ts changed (modified) and no test reaches it',
        params: { weight: 4, task: 'add a test that imports roundCents from src/money.ts and asserts its behaviour' },
      },
    ],
  },
  'missing-test/routed-export-unreached': {
    valid: [
      { ...exported, reachedRoutes: 0 },
      { ...exported, reachedRoutes: 2, reachingTests: 1 },
    ],
    invalid: [
      {
        facts: { ...exported, change: 'added', reachedRoutes: 2 },
        message: 'roundCents in src/money.ts is behind 2 routes and no test reaches it',
        params: { weight: 2 },
      },
    ],
  },
};

export const missingRouteTestCases: Record<string, RuleCases> = {
  'missing-test/route-unreached': {
    valid: [
      { ...route, reachingTests: 1 },
      { ...route, changed: false },
      // Reached only through a middleware other reached routes run too: its own test proves it, not one per route.
      { ...route, viaSharedMiddleware: true },
      // Reached only through a function the handlers of more than three reached routes call: its own test proves it.
      { ...route, viaSharedCode: true },
    ],
    invalid: [
      {
        facts: { ...route, request: 'a POST request' },
        message: 'POST /orders changed and no test reaches its handler src/routes/orders.ts',
        params: { weight: 5, task: 'add a test that sends a POST request to /orders and asserts status and body' },
      },
      {
        facts: { ...route, method: 'ALL', request: 'a request of any method' },
        params: { task: 'add a test that sends a request of any method to /orders and asserts status and body' },
      },
    ],
  },
  'missing-test/mutation-route-unreached': {
    // A mutating method is no evidence of a write: the handler must be seen writing.
    valid: [
      { ...route, isMutation: false, handlerWrites: true, handlerWrite: 'db.order.create at src/orders.ts:4' },
      { ...route, isMutation: true, reachingTests: 3, handlerWrites: true, handlerWrite: 'db.order.create at src/orders.ts:4' },
      { ...route, isMutation: true, handlerWrites: false, handlerWrite: '' },
      { ...route, isMutation: true, handlerWrites: true, handlerWrite: 'db.order.create at src/orders.ts:4', viaSharedMiddleware: true },
      { ...route, isMutation: true, handlerWrites: true, handlerWrite: 'db.order.create at src/orders.ts:4', viaSharedCode: true },
    ],
    invalid: [
      {
        facts: { ...route, isMutation: true, handlerWrites: true, handlerWrite: 'db.order.create at src/orders.ts:4' },
        message: 'POST /orders writes data (db.order.create at src/orders.ts:4) and no test reaches it',
        params: { weight: 3 },
      },
    ],
  },
};
