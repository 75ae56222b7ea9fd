import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyFacts, type ExportKind, type FileFacts, type ImportFact, type TestCaseFact } from '../../src/model/facts.js';
import type { GraphInput } from '../../src/model/graph.js';
import type { Resolution } from '../../src/model/resolve.js';
import { buildKnowledgeGraph, type KnowledgeGraph } from '../../src/graph/build.js';
import { getGroundingSeeds, groundTask } from '../../src/ranking/grounding.js';
import { judgeConfidence } from '../../src/ranking/grounding-judgement.js';
import type { Grounding } from '../../src/model/grounding.js';
import { BUILTIN_GROUNDING_WEIGHTS } from '../helpers/grounding-weights.js';

function makeFacts(partial: Partial<FileFacts>): FileFacts {
  return { ...emptyFacts(20), ...partial };
}

function named(specifier: string, names: string[], typeOnly = false): ImportFact {
  return { specifier, kind: 'static', typeOnly, line: 1, names: names.map((name) => ({ imported: name, local: name, typeOnly })) };
}

function exported(name: string, kind: ExportKind = 'function', typeOnly = false): FileFacts['exports'][number] {
  return { name, kind, span: { start: 1, end: 5 }, typeOnly };
}

function testCase(titlePath: string[], kind: 'suite' | 'test' = 'test'): TestCaseFact {
  return {
    kind,
    titlePath,
    span: { start: 1, end: 4 },
    modifiers: [],
    assertions: kind === 'test' ? 1 : 0,
    trivialAssertions: 0,
    snapshotAssertions: 0,
    unawaitedAssertions: 0,
    swallowedErrors: 0,
    isAsync: false,
  };
}

/** A small shop: pricing/discount, orders routes, auth middleware, payments, users, tests, an ADR and memory. */
function buildShopInput(): GraphInput {
  const sources: { path: string; facts?: FileFacts; imports?: [string, string][] }[] = [
    {
      path: 'src/app.ts',
      facts: makeFacts({
        imports: [
          named('./routes/orders.js', ['ordersRouter']),
          named('./routes/checkout.js', ['checkoutRouter']),
          named('./routes/users.js', ['usersRouter']),
        ],
        routes: [{ method: 'GET', path: '/health', framework: 'express', kind: 'api', line: 6, router: 'app' }],
        mounts: [
          { prefix: '/api', target: 'ordersRouter', line: 7 },
          { prefix: '/api', target: 'checkoutRouter', line: 8 },
          { prefix: '/api', target: 'usersRouter', line: 9 },
        ],
        exports: [exported('app', 'variable')],
      }),
      imports: [
        ['./routes/orders.js', 'src/routes/orders.ts'],
        ['./routes/checkout.js', 'src/routes/checkout.ts'],
        ['./routes/users.js', 'src/routes/users.ts'],
      ],
    },
    {
      path: 'src/routes/orders.ts',
      facts: makeFacts({
        imports: [named('../orders/order-repository.js', ['findOrder', 'listOrders']), named('../middleware/auth.js', ['requireAuth'])],
        exports: [exported('ordersRouter', 'variable')],
        routes: [
          { method: 'GET', path: '/orders', framework: 'express', kind: 'api', line: 5, router: 'ordersRouter' },
          {
            method: 'GET',
            path: '/orders/:id',
            framework: 'express',
            kind: 'api',
            line: 9,
            router: 'ordersRouter',
            middleware: ['requireAuth'],
          },
        ],
      }),
      imports: [
        ['../orders/order-repository.js', 'src/orders/order-repository.ts'],
        ['../middleware/auth.js', 'src/middleware/auth.ts'],
      ],
    },
    {
      path: 'src/orders/order-repository.ts',
      facts: makeFacts({ imports: [named('../db/client.js', ['db'])], exports: [exported('findOrder'), exported('listOrders')] }),
      imports: [['../db/client.js', 'src/db/client.ts']],
    },
    {
      path: 'src/routes/checkout.ts',
      facts: makeFacts({
        imports: [
          named('../pricing/discount.js', ['applyDiscountCode']),
          named('../payments/payment-provider.js', ['createPaymentProvider']),
        ],
        exports: [exported('checkoutRouter', 'variable')],
        routes: [{ method: 'POST', path: '/checkout', framework: 'express', kind: 'api', line: 6, router: 'checkoutRouter' }],
      }),
      imports: [
        ['../pricing/discount.js', 'src/pricing/discount.ts'],
        ['../payments/payment-provider.js', 'src/payments/payment-provider.ts'],
      ],
    },
    {
      path: 'src/pricing/discount.ts',
      facts: makeFacts({
        imports: [named('./price.js', ['roundCents'])],
        exports: [exported('applyDiscountCode'), exported('DiscountCode', 'type', true), exported('validateDiscountCode')],
      }),
      imports: [['./price.js', 'src/pricing/price.ts']],
    },
    { path: 'src/pricing/price.ts', facts: makeFacts({ exports: [exported('roundCents'), exported('formatPrice')] }) },
    { path: 'src/middleware/auth.ts', facts: makeFacts({ exports: [exported('requireAuth'), exported('verifyToken')] }) },
    {
      path: 'src/payments/payment-provider.ts',
      facts: makeFacts({ exports: [exported('PaymentProvider', 'interface', true), exported('createPaymentProvider')] }),
    },
    {
      path: 'src/payments/stripe-provider.ts',
      facts: makeFacts({
        imports: [named('./payment-provider.js', ['PaymentProvider'], true)],
        exports: [exported('StripeProvider', 'class')],
      }),
      imports: [['./payment-provider.js', 'src/payments/payment-provider.ts']],
    },
    {
      path: 'src/payments/refunds.ts',
      facts: makeFacts({ imports: [named('./payment-provider.js', ['createPaymentProvider'])], exports: [exported('issueRefund')] }),
      imports: [['./payment-provider.js', 'src/payments/payment-provider.ts']],
    },
    {
      path: 'src/users/user-service.ts',
      facts: makeFacts({ imports: [named('../db/client.js', ['db'])], exports: [exported('getUser'), exported('createUser')] }),
      imports: [['../db/client.js', 'src/db/client.ts']],
    },
    {
      path: 'src/routes/users.ts',
      facts: makeFacts({
        imports: [named('../users/user-service.js', ['getUser'])],
        exports: [exported('usersRouter', 'variable')],
        routes: [
          { method: 'GET', path: '/users/:id', framework: 'express', kind: 'api', line: 4, router: 'usersRouter', handler: 'getUser' },
        ],
      }),
      imports: [['../users/user-service.js', 'src/users/user-service.ts']],
    },
    { path: 'src/db/client.ts', facts: makeFacts({ exports: [exported('db', 'variable')] }) },
    {
      path: 'test/pricing/discount.test.ts',
      facts: makeFacts({
        imports: [named('../../src/pricing/discount.js', ['applyDiscountCode'])],
        tests: [
          testCase(['applyDiscountCode'], 'suite'),
          testCase(['applyDiscountCode', 'takes a percentage off the total']),
          testCase(['applyDiscountCode', 'rejects an expired discount code']),
        ],
      }),
      imports: [['../../src/pricing/discount.js', 'src/pricing/discount.ts']],
    },
    {
      path: 'test/orders.test.ts',
      facts: makeFacts({
        imports: [named('../src/app.js', ['app'])],
        tests: [testCase(['GET /api/orders/:id'], 'suite'), testCase(['GET /api/orders/:id', 'returns 404 for a missing order'])],
      }),
      imports: [['../src/app.js', 'src/app.ts']],
    },
    {
      path: 'test/payments/refunds.test.ts',
      facts: makeFacts({
        imports: [named('../../src/payments/refunds.js', ['issueRefund'])],
        mocks: [{ specifier: '../../src/payments/payment-provider.js', framework: 'vitest', line: 2 }],
        tests: [testCase(['issueRefund'], 'suite'), testCase(['issueRefund', 'refunds the full amount'])],
      }),
      imports: [
        ['../../src/payments/refunds.js', 'src/payments/refunds.ts'],
        ['../../src/payments/payment-provider.js', 'src/payments/payment-provider.ts'],
      ],
    },
    { path: 'docs/adr/0003-discounts-before-tax.md' },
    { path: 'README.md' },
    { path: 'package.json' },
  ];
  const resolutions = new Map<string, Resolution[]>();
  for (const source of sources) {
    resolutions.set(
      source.path,
      (source.imports ?? []).map(([specifier, target]) => ({ specifier, kind: 'relative', target })),
    );
  }
  return {
    files: sources.map((source, index) => ({ path: source.path, size: 100 + index, hash: `h${index}`, facts: source.facts })),
    resolutions,
    openApiRoutes: [],
    codeowners: {
      path: '.github/CODEOWNERS',
      text: '* @acme/core\n/src/pricing/ @acme/pricing-team\n/src/payments/ @acme/payments-team\n',
    },
    decisions: [
      {
        path: 'docs/adr/0003-discounts-before-tax.md',
        title: 'Discount codes are applied before tax',
        text: 'We apply `applyDiscountCode` in src/pricing/discount.ts before computing tax.',
      },
    ],
    memory: [
      {
        path: '.checker/memory/invariants.yaml',
        id: 'discount-cap',
        kind: 'invariant',
        title: 'Discounts never exceed the order total',
        text: 'A discount may never make the order total negative.',
        paths: ['src/pricing/**'],
        terms: [],
      },
      {
        path: '.checker/memory/architecture.yaml',
        id: 'auth-boundary',
        kind: 'architecture',
        title: 'Auth boundary',
        text: 'Every /api route passes through requireAuth from src/middleware/auth.ts.',
        paths: ['src/middleware/**'],
        terms: [],
      },
    ],
    skills: [],
    checks: [],
    packages: [{ name: 'shop', folder: '', dependencies: ['express'] }],
  };
}

const shop: KnowledgeGraph = buildKnowledgeGraph(buildShopInput());

const paths = (grounding: Grounding): string[] => grounding.candidateFiles.map((candidate) => candidate.path);

test('a domain concept grounds the task on the file that implements it, first', () => {
  const grounding = groundTask(shop, 'apply a discount code at checkout', { weights: BUILTIN_GROUNDING_WEIGHTS });
  assert.deepEqual(grounding.domainTerms, ['discount', 'checkout']);
  assert.deepEqual(grounding.unmatchedTerms, []);
  assert.deepEqual(paths(grounding), ['src/pricing/discount.ts', 'src/routes/checkout.ts', 'docs/adr/0003-discounts-before-tax.md']);
  // Tests have their own list, never among the candidate files they would crowd.
  assert.deepEqual(
    grounding.candidateTests.map((candidate) => candidate.path),
    ['test/pricing/discount.test.ts'],
  );
  assert.deepEqual(grounding.candidateFiles[0]?.reasons.slice(0, 5), [
    { term: 'discount', matchedOn: 'export', evidenceId: 'export:src/pricing/discount.ts#DiscountCode' },
    { term: 'discount', matchedOn: 'decision', evidenceId: 'decision:docs/adr/0003-discounts-before-tax.md' },
    { term: 'discount', matchedOn: 'memory', evidenceId: 'memory:.checker/memory/invariants.yaml#discount-cap' },
    { term: 'discount', matchedOn: 'test', evidenceId: 'file:test/pricing/discount.test.ts' },
    { term: 'discount', matchedOn: 'path', evidenceId: 'file:src/pricing/discount.ts' },
  ]);
  assert.deepEqual(
    grounding.candidateRoutes.map((route) => route.id),
    ['route:POST /api/checkout'],
  );
  assert.deepEqual(grounding.matchedDecisions, [
    {
      id: 'decision:docs/adr/0003-discounts-before-tax.md',
      path: 'docs/adr/0003-discounts-before-tax.md',
      title: 'Discount codes are applied before tax',
      matchedTerms: ['discount'],
      mentionedFiles: ['src/pricing/discount.ts'],
    },
  ]);
  assert.deepEqual(
    grounding.matchedMemory.invariants.map((entry) => [entry.id, entry.matchedTerms, entry.mentionedFiles]),
    [['memory:.checker/memory/invariants.yaml#discount-cap', ['discount'], ['src/pricing/discount.ts']]],
  );
  assert.deepEqual(grounding.matchedMemory.architecture, []);
  assert.deepEqual(
    grounding.matchedOwners.map((owner) => [owner.handle, owner.ownedFiles]),
    [
      ['@acme/core', ['docs/adr/0003-discounts-before-tax.md', 'src/routes/checkout.ts', 'test/pricing/discount.test.ts']],
      ['@acme/pricing-team', ['src/pricing/discount.ts']],
    ],
  );
  assert.equal(grounding.confidence, 'high');
  assert.deepEqual(grounding.unresolvedQuestions, []);
});

test('an endpoint task grounds on the route file and its route', () => {
  const grounding = groundTask(shop, 'orders endpoint returns 500 for missing id', { weights: BUILTIN_GROUNDING_WEIGHTS });
  assert.deepEqual(grounding.domainTerms, ['order']);
  assert.equal(grounding.candidateFiles[0]?.path, 'src/routes/orders.ts');
  assert.deepEqual(paths(grounding), ['src/routes/orders.ts', 'src/orders/order-repository.ts']);
  assert.deepEqual(
    grounding.candidateTests.map((candidate) => candidate.path),
    ['test/orders.test.ts'],
  );
  assert.deepEqual(
    grounding.candidateRoutes.map((route) => route.id),
    ['route:GET /api/orders/:id', 'route:GET /api/orders'],
  );
  assert.equal(grounding.confidence, 'high');
});

test('an identifier in the task is an exact export match', () => {
  const grounding = groundTask(shop, 'PaymentProvider refund', { weights: BUILTIN_GROUNDING_WEIGHTS });
  assert.deepEqual(grounding.domainTerms, ['paymentprovider', 'payment', 'provider', 'refund']);
  assert.deepEqual(paths(grounding), ['src/payments/payment-provider.ts', 'src/payments/refunds.ts', 'src/payments/stripe-provider.ts']);
  assert.deepEqual(
    grounding.candidateTests.map((candidate) => candidate.path),
    ['test/payments/refunds.test.ts'],
  );
  assert.deepEqual(grounding.candidateFiles[0]?.reasons[0], {
    term: 'paymentprovider',
    matchedOn: 'export',
    evidenceId: 'export:src/payments/payment-provider.ts#PaymentProvider',
  });
  assert.equal(grounding.confidence, 'high');
});

test('exact path and route tokens outrank word matches', () => {
  const byPath = groundTask(shop, 'update src/pricing/price.ts rounding', { weights: BUILTIN_GROUNDING_WEIGHTS });
  assert.equal(byPath.candidateFiles[0]?.path, 'src/pricing/price.ts');
  assert.deepEqual(byPath.candidateFiles[0]?.reasons[0], {
    term: 'src/pricing/price.ts',
    matchedOn: 'path',
    evidenceId: 'file:src/pricing/price.ts',
  });
  const byRoute = groundTask(shop, 'GET /api/orders/:id returns 500', { weights: BUILTIN_GROUNDING_WEIGHTS });
  assert.equal(byRoute.candidateFiles[0]?.path, 'src/routes/orders.ts');
  assert.equal(byRoute.candidateRoutes[0]?.id, 'route:GET /api/orders/:id');
  assert.deepEqual(byRoute.candidateRoutes[0]?.reasons[0], {
    term: 'GET /api/orders/:param',
    matchedOn: 'route',
    evidenceId: 'route:GET /api/orders/:id',
  });
});

test('a task that names nothing of the repository is not grounded', () => {
  const grounding = groundTask(shop, 'flibber the wobbulator', { weights: BUILTIN_GROUNDING_WEIGHTS });
  assert.deepEqual(grounding.domainTerms, ['flibber', 'wobbulator']);
  assert.deepEqual(grounding.unmatchedTerms, ['flibber', 'wobbulator']);
  assert.deepEqual(grounding.candidateFiles, []);
  assert.deepEqual(grounding.candidateRoutes, []);
  assert.equal(grounding.confidence, 'low');
  assert.deepEqual(grounding.unresolvedQuestions, [
    'No term of the task ("flibber the wobbulator") names a file, export, route, test, decision or memory entry of this repository; which module or behaviour should change?',
  ]);
});

for (const task of ['fix the api', 'improve the code']) {
  test(`generic words alone ground nothing: "${task}"`, () => {
    const grounding = groundTask(shop, task, { weights: BUILTIN_GROUNDING_WEIGHTS });
    assert.deepEqual(grounding.domainTerms, []);
    assert.deepEqual(grounding.candidateFiles, []);
    assert.deepEqual(grounding.candidateRoutes, []);
    assert.equal(grounding.confidence, 'low');
    assert.equal(grounding.unresolvedQuestions.length, 1);
    const words = task
      .split(' ')
      .filter((word) => word !== 'the')
      .join(', ');
    assert.equal(
      grounding.unresolvedQuestions[0],
      `The task ("${task}") has only generic words (${words}), which name no file, export, route, test, decision or memory entry of this repository; which module or behaviour should change?`,
    );
  });
}

test('a generic word beside a domain term grounds on the domain term only', () => {
  const grounding = groundTask(shop, 'fix the discount api', { weights: BUILTIN_GROUNDING_WEIGHTS });
  assert.deepEqual(grounding.domainTerms, ['discount']);
  assert.deepEqual(paths(grounding), ['src/pricing/discount.ts', 'docs/adr/0003-discounts-before-tax.md']);
  for (const candidate of [...grounding.candidateFiles, ...grounding.candidateTests]) {
    assert.deepEqual([...new Set(candidate.reasons.map((reason) => reason.term))], ['discount'], candidate.path);
  }
  assert.deepEqual(grounding.candidateRoutes, []);
});

test("the repository's own package name is generic: it names every file, so it grounds nothing alone", () => {
  const alone = groundTask(shop, 'fix the shop', { weights: BUILTIN_GROUNDING_WEIGHTS });
  assert.deepEqual(alone.domainTerms, []);
  assert.deepEqual(alone.candidateFiles, []);
  assert.equal(alone.confidence, 'low');
  assert.equal(alone.unresolvedQuestions.length, 1);
  const withDomain = groundTask(shop, 'fix the shop discount', { weights: BUILTIN_GROUNDING_WEIGHTS });
  assert.deepEqual(withDomain.domainTerms, ['discount']);
  assert.deepEqual(paths(withDomain), paths(groundTask(shop, 'fix the discount', { weights: BUILTIN_GROUNDING_WEIGHTS })));
});

test('a task matching only memory has no candidates and one question naming the entry', () => {
  const grounding = groundTask(shop, 'negative balances', { weights: BUILTIN_GROUNDING_WEIGHTS });
  assert.deepEqual(grounding.candidateFiles, []);
  assert.equal(grounding.confidence, 'low');
  assert.deepEqual(grounding.unmatchedTerms, ['balanc']);
  assert.deepEqual(
    grounding.matchedMemory.invariants.map((entry) => [entry.id, entry.matchedTerms]),
    [['memory:.checker/memory/invariants.yaml#discount-cap', ['negative']]],
  );
  assert.deepEqual(grounding.unresolvedQuestions, [
    'The task ("negative balances") matches memory:.checker/memory/invariants.yaml#discount-cap but no file of this repository; which files or behaviour should change?',
  ]);
});

test('requirement terms ground at half weight and unmatched task terms raise a question', () => {
  const grounding = groundTask(shop, 'flibber', { weights: BUILTIN_GROUNDING_WEIGHTS, requirementsTerms: ['refund the payment'] });
  assert.deepEqual(
    grounding.terms.map((term) => [term.term, term.source, term.weight]),
    [
      ['flibber', 'task', 1],
      ['refund', 'requirements', 0.5],
      ['payment', 'requirements', 0.5],
    ],
  );
  assert.equal(grounding.candidateFiles[0]?.path, 'src/payments/refunds.ts');
  assert.deepEqual(grounding.unmatchedTerms, ['flibber']);
  // The task's own word matches nothing: what grounds it is the requirements alone.
  assert.equal(grounding.confidence, 'low');
  assert.deepEqual(grounding.unresolvedQuestions, [
    "The task's terms flibber match nothing in this repository; is that new behaviour, or is it named differently here?",
  ]);
});

test('maxCandidates bounds the list and counts what it left out', () => {
  const grounding = groundTask(shop, 'PaymentProvider refund', { weights: BUILTIN_GROUNDING_WEIGHTS, maxCandidates: 2 });
  assert.deepEqual(paths(grounding), ['src/payments/payment-provider.ts', 'src/payments/refunds.ts']);
  assert.equal(grounding.omittedCandidates, 1);
});

test('grounding is deterministic', () => {
  const again = buildKnowledgeGraph(buildShopInput());
  assert.deepEqual(
    groundTask(again, 'apply a discount code at checkout', { weights: BUILTIN_GROUNDING_WEIGHTS }),
    groundTask(shop, 'apply a discount code at checkout', { weights: BUILTIN_GROUNDING_WEIGHTS }),
  );
});

test('context seeds come from candidates, routes and matched knowledge', () => {
  const seeds = getGroundingSeeds(groundTask(shop, 'apply a discount code at checkout', { weights: BUILTIN_GROUNDING_WEIGHTS }));
  assert.deepEqual(
    seeds.map((seed) => [seed.nodeId, seed.weight]),
    [
      ['file:src/pricing/discount.ts', 1],
      // checkout.ts imports discount.ts, the best match: it gains part of its score (neighbourLend).
      ['file:src/routes/checkout.ts', 0.5851],
      ['file:docs/adr/0003-discounts-before-tax.md', 0.1251],
      ['file:test/pricing/discount.test.ts', 0.1878],
      ['route:POST /api/checkout', 0.5],
      ['decision:docs/adr/0003-discounts-before-tax.md', 0.25],
      ['memory:.checker/memory/invariants.yaml#discount-cap', 0.25],
    ],
  );
  assert.deepEqual(getGroundingSeeds(groundTask(shop, 'fix the api', { weights: BUILTIN_GROUNDING_WEIGHTS })), []);
});

test('the history reorders candidates and each weighed-up candidate carries its churn', () => {
  const task = 'apply a discount code at checkout';
  const plain = groundTask(shop, task, { weights: BUILTIN_GROUNDING_WEIGHTS });
  const churned = groundTask(shop, task, { weights: BUILTIN_GROUNDING_WEIGHTS, churn: new Map([['src/routes/checkout.ts', 5000]]) });
  assert.deepEqual(paths(plain).slice(0, 2), ['src/pricing/discount.ts', 'src/routes/checkout.ts']);
  assert.deepEqual(paths(churned).slice(0, 2), ['src/routes/checkout.ts', 'src/pricing/discount.ts']);
  assert.equal(churned.candidateFiles[0]?.churn, 5000);
  assert.equal(plain.candidateFiles[0]?.churn, undefined);
});

test('the confidence margin is the best score over the fifth best before the history weighs files up', () => {
  // Six files the words match equally (a near tie: low), one of which the history weighs up tenfold.
  const candidates = ['a', 'b', 'c', 'd', 'e', 'f'].map((name, index) => ({
    path: `src/${name}.ts`,
    credits: new Map(),
    score: index === 0 ? 10 : 1,
    lexicalScore: 1,
    coverage: 1,
  }));
  const judged = judgeConfidence(candidates, { weights: new Map(), total: 0 });
  assert.equal(judged.confidence, 'low');
  assert.match(judged.reason, /scores 1\.00x the fifth best/);
});
