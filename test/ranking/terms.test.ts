import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  extractTaskTerms,
  isGenericTerm,
  normaliseRoutePath,
  splitPathTerms,
  splitWords,
  stemWord,
  termsOfIdentifier,
  termsOfPath,
} from '../../src/ranking/terms.js';

const describe = (text: string): string[] =>
  extractTaskTerms(text).map((term) => `${term.kind}:${term.term}${term.generic ? ' (generic)' : ''}`);

test('identifiers split on case, digits and separators', () => {
  assert.deepEqual(splitWords('applyDiscountCode'), ['apply', 'discount', 'code']);
  assert.deepEqual(splitWords('HTTPServer2Config'), ['http', 'server', '2', 'config']);
  assert.deepEqual(splitWords('order_line-items.v2:id#total'), ['order', 'line', 'items', 'v', '2', 'id', 'total']);
});

test('an acronym in the plural or before a version splits as its lower-case spelling does', () => {
  assert.deepEqual(splitWords('$ZodCIDRv6'), ['zod', ...splitWords('cidrv6')]);
  assert.deepEqual(splitWords('isIPv4'), ['is', ...splitWords('ipv4')]);
  assert.deepEqual(splitWords('getURLs(APIs, IDsToDelete)'), ['get', 'urls', 'apis', 'ids', 'to', 'delete']);
  assert.deepEqual(splitWords('URLSearchParams'), ['url', 'search', 'params']);
  assert.deepEqual(splitWords('parseWithVOn ssrVIf XMLHttpRequest'), [
    'parse',
    'with',
    'v',
    'on',
    'ssr',
    'v',
    'if',
    'xml',
    'http',
    'request',
  ]);
});

test('the stemmer is conservative and treats inflections alike', () => {
  const stems = Object.fromEntries(
    [
      'discounts',
      'payments',
      'refunding',
      'refunded',
      'orders',
      'status',
      'addresses',
      'matches',
      'shipping',
      'settings',
      'policies',
      'policy',
    ].map((word) => [word, stemWord(word)]),
  );
  assert.deepEqual(stems, {
    discounts: 'discount',
    payments: 'payment',
    refunding: 'refund',
    refunded: 'refund',
    orders: 'order',
    status: 'status',
    addresses: 'address',
    matches: 'match',
    shipping: 'ship',
    settings: 'setting',
    policies: 'polici',
    policy: 'polici',
  });
  for (const family of [
    ['price', 'prices', 'pricing', 'priced'],
    ['cache', 'caches', 'cached', 'caching'],
    ['apply', 'applies', 'applied', 'applying'],
    ['cookie', 'cookies'],
    ['route', 'routes', 'routing'],
    ['verify', 'verifies', 'verification'],
    ['validate', 'validated', 'validation', 'validations'],
    ['serialize', 'serialization'],
    ['connect', 'connection'],
    ['add', 'added'],
  ]) {
    assert.equal(new Set(family.map(stemWord)).size, 1, family.join(', '));
  }
});

test('task terms drop stop words and mark generic words', () => {
  assert.deepEqual(describe('Apply a discount code at checkout'), [
    'word:appli (generic)',
    'word:discount',
    'word:cod (generic)',
    'word:checkout',
  ]);
  assert.deepEqual(describe('fix the api'), ['word:fix (generic)', 'word:api (generic)']);
  assert.deepEqual(describe('orders endpoint returns 500 for missing id'), [
    'word:order',
    'word:endpoint (generic)',
    'word:return (generic)',
    'word:500 (generic)',
    'word:miss (generic)',
    'word:id (generic)',
  ]);
  assert.equal(isGenericTerm(stemWord('tests')), true);
  assert.equal(isGenericTerm(stemWord('refund')), false);
});

test('paths, routes, identifiers and quoted phrases are kept whole and weigh more', () => {
  const terms = extractTaskTerms(
    'Change `applyDiscountCode()` in ./src/pricing/discount.ts, GET /orders/:id and /api/orders/{id}; see "stacking discount rules" (don\'t break it).',
  );
  assert.deepEqual(
    terms.filter((term) => term.kind !== 'word').map((term) => [term.kind, term.term, term.original, term.weight]),
    [
      ['identifier', 'applydiscountcode', 'applyDiscountCode', 3],
      ['path', 'src/pricing/discount.ts', './src/pricing/discount.ts', 3],
      ['route', 'GET /orders/:param', 'GET /orders/:id', 3],
      ['path', '/api/orders/:param', '/api/orders/{id}', 3],
      ['phrase', 'stacking discount rules', 'stacking discount rules', 3],
    ],
  );
  assert.deepEqual(
    terms.filter((term) => term.kind === 'word').map((term) => term.term),
    ['chang', 'appli', 'discount', 'cod', 'pric', 'order', 'id', 'api', 'stack', 'rul', 'break'],
  );
  assert.deepEqual(
    extractTaskTerms('PaymentProvider refund').map((term) => [term.kind, term.term, term.weight, term.generic]),
    [
      ['identifier', 'paymentprovider', 3, false],
      ['word', 'payment', 1, false],
      ['word', 'provider', 1, false],
      ['word', 'refund', 1, false],
    ],
  );
});

test('terms are unique per kind and key, in task order', () => {
  assert.deepEqual(describe('Orders, orders and ORDERS'), ['word:order']);
  assert.deepEqual(extractTaskTerms(''), []);
  assert.deepEqual(extractTaskTerms('the of and'), []);
});

test('paths and identifiers share the task side splitting and stemming', () => {
  assert.deepEqual(termsOfIdentifier('applyDiscountCode'), ['appli', 'discount', 'cod']);
  assert.deepEqual(termsOfPath('src/pricing/discount-rules.test.ts'), ['discount', 'rul', 'test', 'pric']);
  assert.deepEqual(splitPathTerms('packages/payments/src/index.ts'), { fileTerms: ['index'], folderTerms: ['packag', 'payment'] });
  const task = extractTaskTerms('discount rules for pricing').map((term) => term.term);
  for (const term of task) assert.ok(termsOfPath('src/pricing/discount-rules.ts').includes(term), term);
});

test('route paths normalise their parameters', () => {
  assert.equal(normaliseRoutePath('/api/orders/:id'), '/api/orders/:param');
  assert.equal(normaliseRoutePath('/api/orders/{orderId}/'), '/api/orders/:param');
  assert.equal(normaliseRoutePath('app/blog/[...slug]'), '/app/blog/:param');
});

test('long and hostile input stays linear and bounded', () => {
  const started = performance.now();
  const terms = extractTaskTerms(`${'A'.repeat(50_000)} ${"'x ".repeat(5_000)} ${'word'.repeat(10)}`);
  assert.ok(performance.now() - started < 5_000);
  assert.deepEqual(splitWords('AAAAServer'), ['aaaa', 'server']);
  assert.ok(terms.length <= 64);
  assert.equal(
    extractTaskTerms(Array.from({ length: 200 }, (_, index) => `term${String.fromCharCode(97 + (index % 26))}${index}`).join(' ')).length,
    64,
  );
});

test('a redaction marker in the task is not asked for: its rule name is our word, not the task', () => {
  const words = extractTaskTerms('round the loyalty discount; the staging key is [REDACTED:aws-access-key]').map((term) => term.term);
  assert.equal(words.includes('aws'), false);
  assert.equal(words.includes('redact'), false);
  assert.equal(words.includes('access'), false);
  assert.ok(words.includes('loyalti') || words.includes('loyalty'), words.join(','));
});
