import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractFacts } from '../../../src/graph/parse/extract-facts.js';
import { findCatastrophicBacktracking } from '../../../src/graph/parse/regex-backtracking.js';

const signalsOf = (lines: string[], kind: string): string[] =>
  extractFacts('src/module.ts', lines.join('\n'), { assertionHelpers: [] })
    .signals.filter((signal) => signal.kind === kind)
    .map((signal) => `${signal.line} ${signal.detail}`);

describe('edge-case signals need code evidence, not words', () => {
  test('pagination: a pagination value reaching a slice or a query, never a limit alone', () => {
    const code = [
      'export function page(items, offset, limit) { return items.slice(offset, offset + limit); }',
      'export const list = (db, { skip, take }) => db.user.findMany({ skip, take });',
      'export const rows = (db, limit) => db.post.findAll({ where: {}, limit });',
      'export const sql = (size) => db.query(`SELECT * FROM t ORDER BY id LIMIT ${size}`);',
      "export const sql2 = db.query('SELECT id FROM t LIMIT $1 OFFSET $2', [a, b]);",
      // Not pagination: a retry limit, a backoff limit, a fixed page size, a page object, a limit compared.
      'export const client = got.extend({ retry: { limit: options.retry, backoffLimit: 1000 } });',
      'export function retry(attempt, limit) { if (attempt > limit) throw new Error("done"); }',
      'export const fixed = (db) => db.user.findMany({ take: 10 });',
      "export const view = (res, page) => res.render('home', { page });",
      'export const cut = (path, limit) => path.slice(0, limit);',
      // Check 89 (luxon): an offset of time, by its name or its receiver's, turns no page.
      'export const guess = (zone, zoneOffsetTs) => zone.offset(zoneOffsetTs);',
      'export const shift = (dt, offset) => dt.offset(offset);',
      // Check 100 (marked): an offset into a matched text.
      "export const mask = (match0, offset) => match0.slice(0, offset) + '[';",
    ];
    assert.deepEqual(signalsOf(code, 'pagination'), [
      '1 .slice(…offset…)',
      '2 .findMany({ skip, take })',
      '3 .findAll({ limit })',
      '4 SELECT * FROM t ORDER BY id LIMIT',
      '5 SELECT id FROM t LIMIT $1 OFFSET $2',
    ]);
  });

  test('large collections: only a list the caller supplies, worked through at a cost that grows per item', () => {
    const code = [
      'export const load = (ids) => Promise.all(ids.map(async (id) => await db.user.find(id)));',
      'export function octets(address) { const parts = [1, 2, 3, 4]; return parts[0] + parts.filter(Boolean).length; }',
      // A split gives one part at least: its first is never missing (outline's host parsing).
      "export function host(value) { return value.split(':')[0]; }",
      'export const join = (orders, users) => orders.map((order) => users.find((user) => user.id === order.userId));',
      'export function nested(rows) { return rows.filter((row) => { for (const cell of row.cells) if (cell) return true; return false; }); }',
      // A few steps per item (hoppscotch's envs.map spreading each row), a callback given by name, a reduce: no evidence.
      'export const normalise = (envs) => envs.map((env) => ({ ...env, value: env.value ?? "" }));',
      'export const names = (rows) => rows.map(toName);',
      'export const sum = (items) => items.reduce((total, item) => total + item.amount, 0);',
      // With no initial value, a reduce throws on an empty list.
      'export const longest = (words) => words.reduce((a, b) => (a.length > b.length ? a : b));',
    ];
    assert.deepEqual(signalsOf(code, 'input-collection'), ['1 ids.map', '4 orders.map', '5 rows.filter']);
    assert.deepEqual(signalsOf(code, 'collection'), ['2 parts[0]', '9 words.reduce']);
  });

  test('money: arithmetic on, or rounding of, a money-named value; a count is none', () => {
    const code = [
      'export const net = (price: number, fee: number) => price - fee;',
      'export const whole = (cents: number) => Math.round(cents);',
      'export const next = (items: number[]) => Math.round(items.length / 2);',
    ];
    assert.deepEqual(signalsOf(code, 'money'), ['1 price -', '2 Math.round(cents)']);
  });

  test('writes: ORM and driver calls that store or change state, and SQL INSERT/UPDATE; digests, reads and deletes are none', () => {
    const code = [
      'await prisma.order.create({ data });',
      'await order.save();',
      "await db.query('INSERT INTO orders (id) VALUES ($1)', [id]);",
      "const digest = createHash('sha256').update(body).digest('hex');",
      'hash.update(chunk);',
      'await prisma.order.findMany({ where });',
      'await prisma.order.delete({ where });',
      'items.push(item);',
    ];
    assert.deepEqual(signalsOf(code, 'write'), ['1 prisma.order.create', '2 order.save', '3 INSERT INTO orders (id) VALUES ($1)']);
  });

  test('body reads: a request body read through the framework, never a response body or a method alone', () => {
    const code = [
      'app.post("/a", (req, res) => res.json(req.body.items));',
      'router.post("/b", async (ctx) => { const { name } = ctx.request.body; });',
      'app.post("/c", async (c) => c.json(await c.req.json()));',
      'export async function POST(request) { const form = await request.formData(); }',
      "app.post('/d', zValidator('json', schema), (c) => c.json(c.req.valid('json')));",
      'class Orders { create(@Body() dto) { return dto; } }',
      // Not body reads: a Koa response body, a fetch response, a query read, a header.
      'router.post("/e", (ctx) => { ctx.body = { ok: true }; });',
      'const data = await response.json();',
      "app.post('/f', (c) => c.json(c.req.valid('query')));",
      'app.post("/g", (req, res) => res.send(req.headers.host));',
    ];
    assert.deepEqual(signalsOf(code, 'body-read'), [
      '1 req.body',
      '2 ctx.request.body',
      '3 c.req.json()',
      '4 request.formData()',
      '5 c.req.valid()',
      '6 @Body()',
    ]);
  });

  test('catastrophic regex: literals and RegExp with a literal pattern, analysed, not matched by their text', () => {
    const code = [
      'const methods = /^(GET|HEAD|OPTIONS)$/;',
      'const nested = /^(a+)+$/;',
      "const built = new RegExp('(\\\\w+\\\\s?)*$', 'u');",
      'const safe = /^(\\d+\\.)+\\d+$/;',
      'const dynamic = new RegExp(input);',
    ];
    assert.deepEqual(signalsOf(code, 'regex-backtracking'), [
      '2 /^(a+)+$/: nested repetition (a+)+',
      '3 RegExp("(\\\\w+\\\\s?)*$"): nested repetition (\\w+\\s?)*',
    ]);
    assert.equal(signalsOf(code, 'regex').length, 5, 'every pattern is still a regex signal, whether or not it backtracks');
  });
});

describe('findCatastrophicBacktracking', () => {
  const cases: [pattern: string, flags: string, backtracks: boolean][] = [
    ['(a+)+$', '', true],
    ['(?:a*)*b', '', true],
    ['(\\w+\\s?)*$', '', true],
    ['^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@)', '', true],
    ['(x+x+)+y', '', true],
    ['(a|ab)*c', '', true],
    ['(\\w|\\d)+$', '', true],
    ['(A|a)+$', 'i', true],
    ['^(GET|HEAD|OPTIONS)$', '', false],
    ['(\\d+\\.)+', '', false],
    ['^(\\d{1,3}\\.){3}\\d{1,3}$', '', false],
    ['(A|b)+$', '', false],
    ['(A|a)+$', '', false],
    ['^[^/]+(/[^/]+)*$', '', false],
    ['[a-z]+', '', false],
    ['(', '', false],
    // Nothing after the repetition can fail, so a match never backtracks into it (pino's NODE_OPTIONS splitter); the
    // same repetition before something that can fail still can.
    ['(?:[^\\s"\']+|"[^"]*"|\'[^\']*\')+', 'g', false],
    ['(a+)+', '', false],
    ['(a+)+\\s*', '', false],
    ['(a+)+(?=;)', '', true],
    ['((a+)+b)+', '', true],
    ['x(a|ab)*|y', '', false],
  ];
  for (const [pattern, flags, backtracks] of cases) {
    test(`/${pattern}/${flags} ${backtracks ? 'can' : 'cannot'} backtrack catastrophically`, () => {
      assert.equal(findCatastrophicBacktracking(pattern, flags) !== undefined, backtracks);
    });
  }
});
