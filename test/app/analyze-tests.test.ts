import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import { analyzeFixture, createChangeFixture, type ChangeFixture } from '../helpers/analysis-fixtures.js';

/** Fixture source only: spelled this way so a scan for focused tests in this suite finds none. */
const FOCUS = '.only';

const price = (step: number): string =>
  `export function price(x: number): number {\n  return x + ${step};\n}\nexport function isValid(x: number): boolean {\n  return x > 0;\n}\n`;

/** One vitest case per weak-test kind, a case that only calls the configured helper, and a sound case. */
const PRICE_TEST = `import { describe, it, expect } from 'vitest';
import { price, isValid } from './price';
import { checkValid } from './helpers';
describe('price', () => {
  it('no assertions', () => {
    price(1);
  });
  it('trivial', () => {
    price(1);
    expect(true).toBe(true);
  });
  it('snapshot', () => {
    expect(price(1)).toMatchSnapshot();
  });
  it.skip('skipped', () => {
    expect(price(1)).toBe(2);
  });
  it.todo('todo');
  it${FOCUS}('focused', () => {
    expect(price(1)).toBe(2);
  });
  it('unawaited', () => {
    Promise.resolve(price(1)).then((value) => {
      expect(value).toBe(2);
    });
  });
  it('swallowed', () => {
    try {
      expect(price(1)).toBe(2);
    } catch (error) {
      console.log(error);
    }
  });
  it('helper', () => {
    checkValid(isValid(price(1)));
  });
  it('sound', () => {
    expect(price(1)).toBe(2);
  });
  it('validity', () => {
    isValid(1);
  });
});
`;
const MOCKING_TEST = `import { it, expect, vi } from 'vitest';
import { price } from './price';
vi.mock('./price', () => ({ price: () => 5 }));
it('mocked price', () => {
  expect(price(1)).toBe(5);
});
`;

const WEAK_KINDS = {
  'test:src/price-mock.test.ts#mocked price': ['weak-test/mocks-unit-under-test'],
  'test:src/price.test.ts#price > focused': ['weak-test/focused'],
  'test:src/price.test.ts#price > no assertions': ['weak-test/no-assertions'],
  'test:src/price.test.ts#price > skipped': ['weak-test/skipped'],
  'test:src/price.test.ts#price > snapshot': ['weak-test/snapshot-only'],
  'test:src/price.test.ts#price > swallowed': ['weak-test/swallowed-errors'],
  'test:src/price.test.ts#price > todo': ['weak-test/todo'],
  'test:src/price.test.ts#price > trivial': ['weak-test/trivial-assertions-only'],
  'test:src/price.test.ts#price > unawaited': ['weak-test/unawaited-assertions'],
  'test:src/price.test.ts#price > validity': ['weak-test/no-assertions'],
};

const toKindsById = (analysis: ChangeAnalysis): Record<string, string[]> =>
  Object.fromEntries(analysis.weakTests.map((weak) => [weak.id, weak.kinds]).sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)));

describe('weak tests end to end: each kind, and configured assertion helpers', () => {
  let fixture: ChangeFixture;
  let analysis: ChangeAnalysis;
  before(async () => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'weak', type: 'module', devDependencies: { vitest: '^1.6.0' } }),
        '.checker/config.yml': 'analysis:\n  assertionHelpers: [checkValid]\n',
        'src/price.ts': price(1),
        'src/helpers.ts': "export function checkValid(value: boolean): void {\n  if (!value) throw new Error('invalid');\n}\n",
        'src/price.test.ts': PRICE_TEST,
        'src/price-mock.test.ts': MOCKING_TEST,
        // Reaches price.ts only through the app and names nothing of it: its weak case is no proof of this change
        // either way, so it is not asked to be strengthened here.
        'src/app.ts':
          "import { price } from './price';\nexport function checkout(items: number[]): number {\n  return items.reduce((sum, x) => sum + price(x), 0);\n}\n",
        'src/app.test.ts':
          "import { it } from 'vitest';\nimport { checkout } from './app';\nit('checks out', () => {\n  checkout([1, 2]);\n});\n",
      },
      { 'src/price.ts': price(2) },
    );
    analysis = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test('exact kinds per test id; the helper-only and the sound case are not weak', () => {
    assert.deepEqual(toKindsById(analysis), WEAK_KINDS);
  });

  test('a weak case of a test that reaches the change but names none of it is not judged', () => {
    const reaching = analysis.changedPathProof.find((proof) => proof.path === 'src/price.ts');
    assert.ok(JSON.stringify(reaching).includes('src/app.test.ts'), 'app.test.ts reaches price.ts');
    assert.equal(
      analysis.weakTests.some((weak) => weak.id.startsWith('test:src/app.test.ts')),
      false,
    );
  });

  test('a weak case is about the change when its code calls what changed; the bundle asks to strengthen only those', () => {
    const named = Object.fromEntries(analysis.weakTests.map((weak) => [weak.id, weak.namesChange]));
    // price.test.ts is price.ts's own test file: every case there but the todo and validity calls price().
    assert.deepEqual(named, {
      // Not price.ts's own test file (and it runs a mock of price, not price).
      'test:src/price-mock.test.ts#mocked price': [],
      'test:src/price.test.ts#price > focused': ['price'],
      'test:src/price.test.ts#price > no assertions': ['price'],
      'test:src/price.test.ts#price > skipped': ['price'],
      'test:src/price.test.ts#price > snapshot': ['price'],
      'test:src/price.test.ts#price > swallowed': ['price'],
      'test:src/price.test.ts#price > todo': [],
      'test:src/price.test.ts#price > trivial': ['price'],
      'test:src/price.test.ts#price > unawaited': ['price'],
      // Calls isValid, which the change does not touch.
      'test:src/price.test.ts#price > validity': [],
    });
    assert.equal(
      analysis.weakTests.every((weak) => !weak.editedByChange),
      true,
    );
  });

  test('every weak test reaches the change and carries a repair task and its findings', () => {
    for (const weak of analysis.weakTests) {
      assert.equal(weak.reachesChange, true, weak.id);
      assert.notEqual(weak.repairTask, '', weak.id);
      assert.equal(weak.findingIds.length, weak.kinds.length, weak.id);
    }
    const provenance = analysis.findings.filter((finding) => finding.kind === 'weak-test').map((finding) => finding.provenance);
    assert.deepEqual(
      [...new Set(provenance)].sort(),
      [...new Set(Object.values(WEAK_KINDS).flat())].map((kind) => `weak-tests@1.1.0#${kind}`).sort(),
    );
  });

  test('without the configured helper, the helper-only case has no assertion', async () => {
    fixture.repo.remove('.checker/config.yml');
    const withoutHelpers = await analyzeFixture(fixture);
    assert.deepEqual(toKindsById(withoutHelpers), { ...WEAK_KINDS, 'test:src/price.test.ts#price > helper': ['weak-test/no-assertions'] });
  });
});

describe('a weak case that only constructs a class whose method changed names no change (issue 41: koa-router)', () => {
  const cart = (step: number, size = 0): string =>
    `export class Cart {\n  items: number[] = [];\n  constructor() {\n    this.items.length = ${size};\n  }\n  total(): number {\n    return this.items.length + ${step};\n  }\n}\n`;
  const CART_TEST = `import { it } from 'vitest';
import { Cart } from './cart';
it('constructs', () => {
  new Cart();
});
it('totals', () => {
  new Cart().total();
});
it('bound', () => {
  const basket = new Cart();
  basket.total();
});
it('ledger', () => {
  const ledger = { total: () => 0 };
  ledger.total();
});
`;
  const namesOf = async (head: string): Promise<Record<string, string[]>> => {
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'cart', type: 'module', devDependencies: { vitest: '^1.6.0' } }),
        'src/cart.ts': cart(1),
        'src/cart.test.ts': CART_TEST,
      },
      { 'src/cart.ts': head },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      return Object.fromEntries(analysis.weakTests.map((weak) => [weak.id, weak.namesChange]));
    } finally {
      fixture.repo.cleanup();
    }
  };

  test('a changed method: a case calling it on the class names it; one only constructing the class, or calling another object, names nothing', async () => {
    assert.deepEqual(await namesOf(cart(2)), {
      // Calls a `total` of another object (koa-router's test saying Koa's `app.use`, not the router's).
      'test:src/cart.test.ts#ledger': [],
      'test:src/cart.test.ts#bound': ['total'],
      'test:src/cart.test.ts#constructs': [],
      'test:src/cart.test.ts#totals': ['total'],
    });
  });

  test('a changed constructor runs on every construction: each case that constructs the class names it', async () => {
    assert.deepEqual(await namesOf(cart(1, 1)), {
      'test:src/cart.test.ts#ledger': [],
      'test:src/cart.test.ts#bound': ['Cart'],
      'test:src/cart.test.ts#constructs': ['Cart'],
      'test:src/cart.test.ts#totals': ['Cart'],
    });
  });
});

describe('a route a test calls over HTTP is reached (issue 41: NestJS e2e specs that import nothing of the app)', () => {
  test('no missing route test for the route the test calls; one for the route nobody calls', async () => {
    const routes = (status: number): string =>
      `import { Router } from 'express';\nexport const orders = Router();\norders.post('/orders', (req, res) => {\n  res.status(${status}).json({ ok: true });\n});\norders.delete('/orders/:id', (req, res) => {\n  res.status(${status}).end();\n});\n`;
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({
          name: 'shop',
          type: 'module',
          dependencies: { express: '^4.19.0' },
          devDependencies: { vitest: '^1.6.0' },
        }),
        'src/orders.ts': routes(200),
        'test/orders.e2e.test.ts':
          "import { it, expect } from 'vitest';\nit('creates', async () => {\n  const res = await fetch('http://localhost:3000/orders', { method: 'POST' });\n  expect(res.status).toBe(201);\n});\n",
      },
      { 'src/orders.ts': routes(201) },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      assert.deepEqual(
        analysis.impactedRoutes.map((route) => route.id),
        ['route:DELETE /orders/:id', 'route:POST /orders'],
      );
      assert.deepEqual(
        analysis.missingTests.filter((item) => item.subject === 'route').map((item) => item.id),
        ['route:DELETE /orders/:id'],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('a test that calls a route reaches every changed file its handler chain reaches (issue 41: a controller and its service)', () => {
  test('the e2e test reaches the changed service as well as the changed controller', async () => {
    const controller = (suffix: string): string =>
      `import { Router } from 'express';\nimport { validateLogin } from './auth.service';\nexport const auth = Router();\nauth.post('/auth/login', (req, res) => {\n  res.json(validateLogin(req.body${suffix}));\n});\n`;
    const service = (check: string): string =>
      `export function validateLogin(body: { email?: string }): { ok: boolean } {\n  return { ok: ${check} };\n}\n`;
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({
          name: 'shop',
          type: 'module',
          dependencies: { express: '^4.19.0' },
          devDependencies: { vitest: '^1.6.0' },
        }),
        'src/auth.controller.ts': controller(''),
        'src/auth.service.ts': service('body.email !== undefined'),
        'test/auth.e2e.test.ts':
          "import { it, expect } from 'vitest';\nit('logs in', async () => {\n  const res = await fetch('http://localhost:3000/auth/login', { method: 'POST' });\n  expect(res.status).toBe(200);\n});\n",
      },
      { 'src/auth.controller.ts': controller(' ?? {}'), 'src/auth.service.ts': service("Boolean(body.email?.includes('@'))") },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      assert.deepEqual(
        analysis.changedPathProof.map((proof) => [proof.path, proof.reachingTests]),
        [
          ['src/auth.controller.ts', ['test/auth.e2e.test.ts']],
          ['src/auth.service.ts', ['test/auth.e2e.test.ts']],
        ],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('code commented out is code removed (issue 41: commander)', () => {
  test('the proof never asks whether comment lines execute', async () => {
    const guard = (line: string): string => `export function store(values: Record<string, unknown>): void {\n${line}\n  return;\n}\n`;
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'cli', type: 'module', devDependencies: { vitest: '^1.6.0' } }),
        'src/store.ts': guard("  if (Object.keys(values).length) throw new Error('set before storing');"),
        'src/store.test.ts':
          "import { it, expect } from 'vitest';\nimport { store } from './store';\nit('stores', () => {\n  expect(() => store({})).not.toThrow();\n});\n",
      },
      { 'src/store.ts': guard("  // if (Object.keys(values).length) throw new Error('set before storing');") },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      const proof = analysis.changedPathProof.find((entry) => entry.path === 'src/store.ts');
      assert.equal(proof?.state, 'static-only');
      assert.deepEqual(
        [proof?.reason, proof?.repairTask],
        [
          'no executable changed lines: the change only removes lines or renames the file',
          'Run src/store.test.ts (it imports store) to confirm the tests still pass after the change to src/store.ts.',
        ],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('missing tests end to end: changed exports and changed routes no test reaches', () => {
  const tax = (factor: number): string =>
    `export function tax(x: number): number {\n  return x * ${factor};\n}\nexport function fee(x: number): number {\n  return x + ${factor};\n}\nexport type Rate = number;\n`;
  let fixture: ChangeFixture;
  let analysis: ChangeAnalysis;
  before(async () => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({
          name: 'missing',
          type: 'module',
          dependencies: { express: '^4.19.0' },
          devDependencies: { vitest: '^1.6.0' },
        }),
        'src/lib/tax.ts': tax(2),
        'src/lib/tax.test.ts':
          "import { it, expect } from 'vitest';\nimport { tax } from './tax';\nit('taxes', () => {\n  expect(tax(1)).toBe(2);\n});\n",
        'src/lib/discount.ts': 'export function discount(x: number): number {\n  return x - 1;\n}\n',
        'src/routes/orders.ts':
          "import { Router } from 'express';\nexport const orders = Router();\norders.get('/orders/:id', (req, res) => {\n  res.json({ id: req.params.id });\n});\n",
        'src/routes/users.ts':
          "import { Router } from 'express';\nexport const users = Router();\nusers.get('/users', (req, res) => {\n  res.json([]);\n});\n",
        'src/routes/users.test.ts':
          "import { it, expect } from 'vitest';\nimport { users } from './users';\nit('declares one route', () => {\n  expect(users.stack.length).toBe(1);\n});\n",
        // An example program the repository ships (Go's `_examples/`): its route reaches the change, and is no route of
        // the product to test.
        '_examples/demo/server.ts':
          "import express from 'express';\nimport { discount } from '../../src/lib/discount';\nconst app = express();\napp.get('/demo', (req, res) => {\n  res.json(discount(3));\n});\napp.listen(3000);\n",
        // A minified bundle and a generated file committed beside their sources (mustache.min.js, checks 259-260): the scan
        // leaves them out, and no test is asked of their exports.
        'lib/tax.min.js': 'module.exports={tax:function(a){return a+1}};\n',
        'src/lib/api.generated.ts': 'export function rate(x: number): number {\n  return x * 2;\n}\n',
      },
      {
        'lib/tax.min.js': 'module.exports={tax:function(a){return a+2}};\n',
        'src/lib/api.generated.ts': 'export function rate(x: number): number {\n  return x * 3;\n}\n',
        'src/lib/tax.ts': tax(3),
        'src/lib/discount.ts': 'export function discount(x: number): number {\n  return x - 2;\n}\n',
        'src/routes/orders.ts':
          "import { Router } from 'express';\nexport const orders = Router();\norders.get('/orders/:id', (req, res) => {\n  res.json({ id: req.params.id, ok: true });\n});\n",
        'src/routes/users.ts':
          "import { Router } from 'express';\nexport const users = Router();\nusers.get('/users', (req, res) => {\n  res.json([1]);\n});\n",
      },
    );
    analysis = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test('exact missing-test ids: the untested export, the export its sibling test does not import, the unreached route', () => {
    assert.deepEqual(analysis.missingTests.map((item) => [item.id, item.subject]).sort(), [
      ['export:src/lib/discount.ts#discount', 'export'],
      ['export:src/lib/tax.ts#fee', 'export'],
      ['route:GET /orders/:id', 'route'],
    ]);
    assert.deepEqual(
      analysis.impactedRoutes.map((route) => route.id),
      ['route:GET /orders/:id', 'route:GET /users', 'route:GET /demo'],
    );
  });

  test('each missing test names its rule', () => {
    const rulesById = Object.fromEntries(
      analysis.missingTests.map((item) => [
        item.id,
        analysis.findings.filter((finding) => item.findingIds.includes(finding.id)).map((finding) => finding.provenance),
      ]),
    );
    assert.deepEqual(rulesById, {
      'export:src/lib/discount.ts#discount': ['missing-tests@1.1.0#missing-test/export-unreached'],
      'export:src/lib/tax.ts#fee': ['missing-tests@1.1.0#missing-test/export-unreached'],
      'route:GET /orders/:id': ['missing-route-tests@2.2.0#missing-test/route-unreached'],
    });
  });
});

// Check 97 (feathers' typebox): the test calls `querySyntax`, which calls `queryProperties`, which calls the changed
// `queryProperty`; "no test reaches it" was said of it, and its proof named no test.
describe('a changed export another export of its file calls is reached by the tests of that one', () => {
  test('reached through the chain of calls in the file; an export nothing calls is still unreached', async () => {
    const query = (n: number): string =>
      [
        `export const queryProperty = (value: number) => value + ${n};`,
        'export const queryProperties = (values: number[]) => values.map((value) => queryProperty(value));',
        'export const querySyntax = (values: number[]) => ({ $in: queryProperties(values) });',
        `export const unrelated = (value: number) => value * ${n};`,
        '',
      ].join('\n');
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'typebox', type: 'module', devDependencies: { vitest: '^1.6.0' } }),
        'src/index.ts': query(1),
        'test/index.test.ts':
          "import { it, expect } from 'vitest';\nimport { querySyntax } from '../src';\nit('builds $in', () => {\n  expect(querySyntax([1])).toEqual({ $in: [2] });\n});\n",
      },
      { 'src/index.ts': query(2) },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      assert.deepEqual(
        analysis.missingTests.map((item) => item.id),
        ['export:src/index.ts#unrelated'],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('weak tests are judged in the few reaching tests that name the change most', () => {
  const weakCase = (title: string) =>
    `import { it } from 'vitest';\nimport { price } from './price';\nit('${title}', () => {\n  price(1);\n});\n`;
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'weak-many', type: 'module', devDependencies: { vitest: '^1.6.0' } }),
        'src/price.ts': price(1),
        'src/price.test.ts': weakCase('price adds the step'),
        'src/price-rounding.test.ts': weakCase('price rounds'),
        'src/price-negative.test.ts': weakCase('price of a refund'),
        'src/cart.test.ts': weakCase('cart totals'),
      },
      { 'src/price.ts': price(2) },
    );
  });
  after(() => fixture.repo.cleanup());

  test('three test files are judged, those whose paths and titles say price; cart.test.ts only calls it', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual([...new Set(analysis.weakTests.map((weak) => weak.id.slice('test:'.length, weak.id.indexOf('#'))))].sort(), [
      'src/price-negative.test.ts',
      'src/price-rounding.test.ts',
      'src/price.test.ts',
    ]);
  });
});
