import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSync } from '@swc/core';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';
import { FactWalker } from '../../src/graph/parse/fact-walker.js';
import { buildLineIndex, measureLeadingTrivia } from '../../src/graph/parse/line-index.js';
import { getSpan, isAstNode } from '../../src/graph/parse/swc-node.js';
import { getSwcOptions } from '../../src/graph/parse/swc-options.js';
import { isAssertionHelperName } from '../../src/graph/parse/assertion-calls.js';
import { findExpectErrorLines } from '../../src/graph/parse/test-calls.js';
import type { FileFacts, TestCaseFact } from '../../src/model/facts.js';

/**
 * Assertion counting calibrated on idioms of real suites (zod, vitest, jest, node:test, chai, ava,
 * supertest): each case states the exact counts, and the negative cases keep the rules biting.
 */

type Counts = Pick<TestCaseFact, 'assertions' | 'trivialAssertions' | 'snapshotAssertions' | 'unawaitedAssertions' | 'swallowedErrors'>;

const counts = (assertions: number, extra: Partial<Counts> = {}): Counts => ({
  assertions,
  trivialAssertions: 0,
  snapshotAssertions: 0,
  unawaitedAssertions: 0,
  swallowedErrors: 0,
  ...extra,
});

const countsOf = (fact: TestCaseFact): Counts => {
  const { assertions, trivialAssertions, snapshotAssertions, unawaitedAssertions, swallowedErrors } = fact;
  return { assertions, trivialAssertions, snapshotAssertions, unawaitedAssertions, swallowedErrors };
};

/** Counts of every test case (suites left out), keyed by the title path. */
function testCounts(facts: FileFacts): Record<string, Counts> {
  assert.equal(facts.failure, undefined);
  const result: Record<string, Counts> = {};
  for (const fact of facts.tests) if (fact.kind === 'test') result[fact.titlePath.join(' > ')] = countsOf(fact);
  return result;
}

const parse = (code: string, helpers: string[] = []) =>
  testCounts(extractFacts('test/sample.test.ts', code, { assertionHelpers: helpers }));

/** The walker given the source text, as extractFacts does once it hands the text over (for `@ts-expect-error`). */
function parseWithSource(code: string, path = 'test/sample.test.ts'): Record<string, Counts> {
  const lineIndex = buildLineIndex(code);
  const options = getSwcOptions(path)[0];
  assert.ok(options !== undefined);
  const module: unknown = parseSync(code, options);
  assert.ok(isAstNode(module));
  const span = getSpan(module);
  assert.ok(span !== undefined);
  const walker = new FactWalker(lineIndex, span.start - measureLeadingTrivia(code), { assertionHelpers: [] }, code);
  walker.walkModule(module);
  return testCounts(walker.toFacts(lineIndex.lines));
}

/** One test named `case` around `body`, with the imports real suites use. */
const single = (body: string, header = '') => parse(`${header}\ntest('case', async () => {\n${body}\n});`).case;

describe('type-level assertions', () => {
  test('expectTypeOf matchers count, the bare subject does not', () => {
    const header = "import { expectTypeOf, test } from 'vitest';";
    assert.deepEqual(single('expectTypeOf(schema.parse(x)).toEqualTypeOf<string>();\nexpectTypeOf<A>().not.toBeAny();', header), counts(2));
    assert.deepEqual(single('expectTypeOf(x);\nexpectTypeOf<A>();', header), counts(0));
  });

  test('assertType<T>(x) is one assertion', () => {
    assert.deepEqual(single('assertType<string>(schema.parse("a"));', "import { assertType, test } from 'vitest';"), counts(1));
  });

  test("zod's util.assertEqual<A, B>(true) is a non-trivial assertion", () => {
    const body = 'type t1 = z.infer<typeof schema>;\nutil.assertEqual<t1, string>(true);\nassertEqual<t1, string>(true);';
    assert.deepEqual(single(body, "import { util } from '../helpers/util.js';"), counts(2));
  });

  test('a callee named like an assertion helper counts', () => {
    const body = 'expectValid(schema, input);\nh.assertFoo();\nassert_ok(value);\nexpectError(() => run());\nt.assert(value);';
    assert.deepEqual(single(body), counts(5));
  });

  test('names that only start with the letters are not helpers', () => {
    const body =
      'const expected = expectedOutput();\nassertions(list);\nasserted(x);\nexpectation(y);\nexpect.assertions(1);\nexpect(x);\nexpectTypeOf(x);';
    assert.deepEqual(single(body), counts(0));
    assert.deepEqual(
      [
        'assertEqual',
        'expectValid',
        'assert',
        'assert_ok',
        'assertType',
        'expect',
        'expectTypeOf',
        'expectAsync',
        'expected',
        'assertions',
      ].map(isAssertionHelperName),
      [true, true, true, true, true, false, false, false, false, false],
    );
  });

  test('// @ts-expect-error lines inside a test are type assertions, @ts-ignore is not', () => {
    const code = [
      "import { test, describe } from 'vitest';",
      "const label = '😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀';",
      "describe('types', () => {",
      '  // @ts-expect-error a suite-level check belongs to no test',
      "  const n: number = 'x';",
      "  test('only type checks', () => {",
      '    // @ts-expect-error',
      '    schema.parse(12);',
      '    /* @ts-expect-error wrong argument */',
      "    fn('x');",
      '  });',
      "  test('ignored', () => {",
      '    // @ts-ignore',
      '    schema.parse(12);',
      '    // see the @ts-expect-error docs',
      '  });',
      "  test('parent', async (t) => {",
      '    // @ts-expect-error',
      '    parent(1);',
      "    await t.test('child', () => {",
      '      // @ts-expect-error',
      '      child(1);',
      '    });',
      '  });',
      '});',
    ].join('\n');
    assert.deepEqual(parseWithSource(code), {
      'types > only type checks': counts(2),
      'types > ignored': counts(0),
      'types > parent': counts(1),
      'types > parent > child': counts(1),
    });
  });

  test('a node:test test that only runs subtests (t.test) is a suite: it has no assertions of its own to lack', () => {
    const facts = extractFacts(
      'test/404s.test.js',
      [
        "const { test } = require('node:test');",
        "test('400 in case of bad url', async (t) => {",
        "  await t.test('dynamic route', (t, done) => {",
        '    t.plan(1);',
        "    inject('/hello/%world', (err, res) => { t.assert.strictEqual(res.statusCode, 400); done(); });",
        '  });',
        '});',
        "test('asserts and runs a subtest', async (t) => {",
        '  t.assert.ok(setup());',
        "  await t.test('inner', () => { assert.ok(run()); });",
        '});',
      ].join('\n'),
      { assertionHelpers: [] },
    );
    assert.deepEqual(
      facts.tests.map((fact) => `${fact.kind} ${fact.titlePath.join(' > ')}`),
      [
        'suite 400 in case of bad url',
        'test 400 in case of bad url > dynamic route',
        'test asserts and runs a subtest',
        'test asserts and runs a subtest > inner',
      ],
    );
  });

  test('idioms of real suites that assert (tspl plans, t.plan with t.pass, an error kept for later) or skip only sometimes', () => {
    const code = [
      "const { test } = require('node:test');",
      "const tspl = require('@matteo.collina/tspl');",
      "test('tspl', async (t) => {",
      '  const plan = tspl(t, { plan: 1 });',
      "  logger.on('data', (line) => plan.equal(line.level, 30));",
      '  await plan;',
      '});',
      "test('ava-style plan', (t) => {",
      '  t.plan(2);',
      '  emitter.on("a", () => t.pass());',
      '  emitter.on("b", () => t.pass());',
      '});',
      "test('error kept', async () => {",
      '  let caught;',
      '  try {',
      '    await run();',
      '  } catch (error) {',
      '    caught = error;',
      '  }',
      "  assert.equal(caught.code, 'E_RUN');",
      '});',
      "test('skips without IPv6', (t) => {",
      '  if (!hasIPv6) t.skip();',
      '  assert.ok(listen("::1"));',
      '});',
    ].join('\n');
    const facts = extractFacts('test/idioms.test.js', code, { assertionHelpers: [] });
    assert.deepEqual(
      facts.tests.map((fact) => [fact.titlePath.join(' > '), fact.assertions, fact.swallowedErrors, fact.modifiers]),
      [
        ['tspl', 1, 0, []],
        ['ava-style plan', 2, 0, []],
        ['error kept', 1, 0, []],
        ['skips without IPv6', 1, 0, []],
      ],
    );
    // Check 316 (fastify/avvio): under a plan, `t.pass()` in a callback proves the callback ran (it is no trivially true
    // assertion); in the test's own flow, or without a plan, it still is.
    const passes = [
      "const { test } = require('tap');",
      "test('planned callbacks', (t) => {",
      '  t.plan(2);',
      "  const app = boot(() => { t.pass('booted'); });",
      "  app.use(function (server, opts, done) { t.pass('loaded'); done(); });",
      '});',
      "test('no plan', (t) => {",
      "  boot(() => { t.pass('booted'); });",
      '  t.end();',
      '});',
      "test('planned, own flow', (t) => {",
      '  t.plan(1);',
      "  t.pass('ok');",
      '});',
    ].join('\n');
    assert.deepEqual(
      extractFacts('test/boot.test.js', passes, { assertionHelpers: [] }).tests.map((fact) => [fact.titlePath[0], fact.trivialAssertions]),
      [
        ['planned callbacks', 0],
        ['no plan', 1],
        ['planned, own flow', 1],
      ],
    );
  });

  // winston's suites assert with assume (`assume(info.message).equals('test')`), inside the callback a logger calls.
  test('a call of an assertion library bound by import asserts: assume, must; a local function of that name does not', () => {
    const code = [
      "const assume = require('assume');",
      "const demand = require('must');",
      "it('autobinds', (done) => {",
      '  const logger = createLogger((info) => {',
      "    assume(info.message).equals('test');",
      '    done();',
      '  });',
      "  logger.info('test');",
      '});',
      "it('must', () => { demand(parse('1')).must.equal(1); });",
    ].join('\n');
    assert.deepEqual(
      extractFacts('test/logger.test.js', code, { assertionHelpers: [] }).tests.map((fact) => [fact.titlePath[0], fact.assertions]),
      // autobinds: the assertion, and `done` called where the logger calls back (as with `assert.equal` there).
      [
        ['autobinds', 2],
        ['must', 1],
      ],
    );
    const local = ['function assume(value) { return value; }', "it('local', () => { assume(run()); });"].join('\n');
    assert.equal(extractFacts('test/local.test.js', local, { assertionHelpers: [] }).tests[0]?.assertions, 0);
  });

  test("a catch that hands the error to a helper calling jasmine's fail() swallows nothing (parse-server)", () => {
    const code = [
      'function handleError(e) {',
      '  if (e && e.networkError) fail(e.networkError.result.errors);',
      '  else fail(e);',
      '}',
      "it('is healthy', async () => {",
      '  try {',
      '    expect(await health()).toBeTruthy();',
      '  } catch (e) {',
      '    handleError(e);',
      '  }',
      '});',
      "it('fails on error', async () => {",
      '  try {',
      '    await health();',
      '  } catch (e) {',
      '    fail(e);',
      '  }',
      '});',
    ].join('\n');
    const facts = extractFacts('spec/graphql.spec.js', code, { assertionHelpers: [] });
    assert.deepEqual(
      facts.tests.map((fact) => [fact.titlePath.join(' > '), fact.assertions, fact.swallowedErrors]),
      [
        ['is healthy', 2, 0],
        ['fails on error', 1, 0],
      ],
    );
  });

  // Check 90 (loguru): `try: 1 / 0` then `except: logger.exception(…)` makes an error on purpose to log it, then asserts.
  test('a try that throws on purpose swallows nothing; one around the code under test does (python-facts: the same in Python)', () => {
    const js = [
      "it('logs the error', () => {",
      '  try {',
      "    throw new Error('boom');",
      '  } catch {',
      "    logger.error('caught');",
      '  }',
      "  expect(lines()).toContain('caught');",
      '});',
      "it('hides a failure', () => {",
      '  try {',
      '    run();',
      '  } catch {',
      "    logger.error('caught');",
      '  }',
      '});',
    ].join('\n');
    assert.deepEqual(
      extractFacts('test/log.test.js', js, { assertionHelpers: [] }).tests.map((fact) => [fact.titlePath[0], fact.swallowedErrors]),
      [
        ['logs the error', 0],
        ['hides a failure', 1],
      ],
    );
  });

  // Check 149 (bottle, in Python): the catch makes the same value another way, and the test checks it after the block.
  test('a catch that makes the value its try would have made is a fallback; one that sets something else swallows', () => {
    const js = [
      "it('reads the cookie', () => {",
      '  let cookies;',
      '  try {',
      '    cookies = headers.getSetCookie();',
      '  } catch {',
      "    cookies = headers.get('set-cookie').split(',');",
      '  }',
      "  expect(cookies).toContain('b=b');",
      '});',
      "it('sets a flag', () => {",
      '  let cookies;',
      '  let failed;',
      '  try {',
      '    cookies = headers.getSetCookie();',
      '  } catch {',
      '    failed = true;',
      '  }',
      "  expect(cookies).toContain('b=b');",
      '});',
    ].join('\n');
    assert.deepEqual(
      extractFacts('test/cookie.test.js', js, { assertionHelpers: [] }).tests.map((fact) => [fact.titlePath[0], fact.swallowedErrors]),
      [
        ['reads the cookie', 0],
        ['sets a flag', 1],
      ],
    );
  });

  // Check 227 (koa-router): a route handler in the test turns its failed assertions into a 500 the request expects not
  // to see; the error is answered, not swallowed. A catch that answers 200 (or nothing) still swallows.
  test('a catch that answers with an HTTP error status swallows nothing; one answering success does', () => {
    const js = [
      "it('echoes', async () => {",
      "  router.get('/:saying', (ctx) => {",
      '    try {',
      "      assert.strictEqual(ctx.params.saying, 'hello');",
      '    } catch (err) {',
      '      ctx.status = 500;',
      '      ctx.body = err.message;',
      '    }',
      '  });',
      "  await request(server).get('/hello').expect(200);",
      '});',
      "it('sends', async () => {",
      "  app.get('/', (req, res) => {",
      '    try {',
      '      check(req);',
      '    } catch (err) {',
      '      res.status(400).send(err.message);',
      '    }',
      '  });',
      "  await request(app).get('/').expect(200);",
      '});',
      "it('hides', async () => {",
      "  app.get('/', (req, res) => {",
      '    try {',
      '      check(req);',
      '    } catch (err) {',
      '      res.status(200).end();',
      '    }',
      '  });',
      "  await request(app).get('/').expect(200);",
      '});',
    ].join('\n');
    assert.deepEqual(
      extractFacts('test/router.test.js', js, { assertionHelpers: [] }).tests.map((fact) => [fact.titlePath[0], fact.swallowedErrors]),
      [
        ['echoes', 0],
        ['sends', 0],
        ['hides', 1],
      ],
    );
  });

  // Check 97 (feathers): a listener's `callback` parameter was read as another test's asserting `const callback`, an
  // assertion left unawaited in every test that stubs a connection.
  test("a call of a parameter is the parameter's, not a helper of the same name declared in another test", () => {
    const code = [
      "it('creates', async () => {",
      "  connection.once('create', (path, data, callback) => callback(null, path));",
      "  assert.equal(await service.create({}), 'todos');",
      '});',
      "it('listens', (done) => {",
      '  const callback = (data) => {',
      '    assert.deepEqual(data, { hello: 1 });',
      '    done();',
      '  };',
      "  service.on('test', callback);",
      '});',
    ].join('\n');
    assert.deepEqual(
      extractFacts('test/client.test.js', code, { assertionHelpers: [] }).tests.map((fact) => [
        fact.titlePath[0],
        fact.assertions,
        fact.unawaitedAssertions,
      ]),
      [
        ['creates', 1, 0],
        ['listens', 1, 0],
      ],
    );
  });

  test('a statement that is only `x satisfies T` is a type assertion; a declaration using satisfies is not', () => {
    const body =
      'z.string() satisfies z.ZodString;\nz.number().def.type satisfies "number";\nconst schema = z.object({}) satisfies z.ZodType;\nschema.parse({});';
    assert.deepEqual(single(body), counts(2));
    assert.deepEqual(single('const schema = z.string() satisfies z.ZodString;\nschema.parse("a");'), counts(0));
  });

  test('the directive scanner finds directive lines only', () => {
    const text = [
      '// @ts-expect-error',
      'a();',
      "const s = 'x // @ts-expect-error';",
      '  /** @ts-expect-error */',
      '// @ts-expect-errors',
      '{/* @ts-expect-error */}',
      '// @ts-expect-error -- mentions @ts-expect-error twice',
    ].join('\n');
    assert.deepEqual(findExpectErrorLines(text), [0, 3, 5, 6]);
    assert.deepEqual(findExpectErrorLines('no directives here\n'), []);
  });

  test('extractFacts counts @ts-expect-error once it passes the source to the walker', () => {
    const code = "test('only type checks', () => {\n  // @ts-expect-error\n  schema.parse(12);\n});";
    assert.deepEqual(parse(code), { 'only type checks': counts(1) });
  });
});

describe('snapshots', () => {
  test('an inline snapshot with content is explicit; toMatchSnapshot and empty inline snapshots are snapshots', () => {
    const code = [
      "import { expect, test } from 'vitest';",
      "test('inline with content', () => {",
      '  expect(parse("a")).toMatchInlineSnapshot(`',
      '    {',
      '      "success": true,',
      '    }',
      '  `);',
      '});',
      "test('inline with property matchers and content', () => {",
      '  expect(user).toMatchInlineSnapshot({ id: expect.any(String) }, `{ "id": Any<String> }`);',
      '});',
      "test('file snapshot', () => {",
      '  expect(parse("a")).toMatchSnapshot();',
      '});',
      "test('empty inline', () => {",
      '  expect(parse("a")).toMatchInlineSnapshot();',
      '  expect(parse("b")).toMatchInlineSnapshot(``);',
      '  expect(parse("c")).toMatchInlineSnapshot({ id: expect.any(String) });',
      '});',
      "test('mixed', () => {",
      '  expect(a).toMatchSnapshot();',
      '  expect(b).toMatchInlineSnapshot(`"b"`);',
      '});',
    ].join('\n');
    assert.deepEqual(parse(code), {
      'inline with content': counts(1),
      'inline with property matchers and content': counts(1),
      'file snapshot': counts(1, { snapshotAssertions: 1 }),
      'empty inline': counts(3, { snapshotAssertions: 3 }),
      mixed: counts(2, { snapshotAssertions: 1 }),
    });
  });
});

describe('throws, rejects and resolves', () => {
  test('vitest and jest', () => {
    const body = [
      'expect(() => schema.parse(1)).toThrow();',
      'expect(() => schema.parse(1)).toThrowError(/expected string/);',
      "await expect(schema.parseAsync(1)).rejects.toThrow('Expected string');",
      "await expect(schema.parseAsync('a')).resolves.toBe('a');",
      'await expect(p).resolves.not.toThrow();',
    ].join('\n');
    assert.deepEqual(single(body, "import { expect, test } from 'vitest';"), counts(5));
    assert.deepEqual(
      single('expect(() => schema.parse(1));\nawait expect(p).resolves;', "import { expect, test } from 'vitest';"),
      counts(0),
    );
  });

  test('node:test with node:assert', () => {
    const code = [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import * as nodeAssert from 'node:assert';",
      "import { rejects } from 'node:assert';",
      "test('throws', async (t) => {",
      '  assert.throws(() => parse(1), /Expected/);',
      '  await assert.rejects(parseAsync(1));',
      '  nodeAssert.doesNotThrow(() => parse("a"));',
      '  await rejects(parseAsync(2));',
      '  t.assert.throws(() => parse(1));',
      '});',
      "test('no assertion', () => {",
      '  parse("a");',
      '  const error = new assert.AssertionError({ message: "x" });',
      '});',
    ].join('\n');
    assert.deepEqual(parse(code), { throws: counts(5), 'no assertion': counts(0) });
  });

  test('ava and tap context assertions', () => {
    const code = [
      "import test from 'ava';",
      "test('ava', async (t) => {",
      '  t.throws(() => parse(1));',
      '  await t.throwsAsync(parseAsync(1));',
      '  t.notThrows(() => parse("a"));',
      '  await t.notThrowsAsync(parseAsync("a"));',
      '});',
      "test('plan only', (t) => {",
      '  t.plan(1);',
      '  t.log("x");',
      '});',
    ].join('\n');
    assert.deepEqual(parse(code), { ava: counts(4), 'plan only': counts(0) });
  });

  test('chai and chai-as-promised', () => {
    const code = [
      "import { expect } from 'chai';",
      "describe('chai', () => {",
      "  it('throws', () => {",
      '    expect(() => parse(1)).to.throw(TypeError);',
      '    expect(fn).to.throw;',
      '    expect(p).to.be.rejectedWith(Error);',
      '  });',
      "  it('arrow body', () => expect(p).to.be.fulfilled);",
      "  it('arrow body without assertion', () => p.then);",
      '});',
    ].join('\n');
    assert.deepEqual(parse(code), {
      'chai > throws': counts(3),
      'chai > arrow body': counts(1),
      'chai > arrow body without assertion': counts(0),
    });
  });

  test('supertest expectations in an Express app', () => {
    const code = [
      "import request from 'supertest';",
      "describe('GET /users', () => {",
      "  it('returns', () => request(app).get('/users').expect(200));",
      "  it('returns json', async () => {",
      "    await request(app).get('/users').expect(200).expect('Content-Type', /json/);",
      '  });',
      "  it('only calls', async () => {",
      "    await request(app).get('/users');",
      '  });',
      "  it('context expect is a subject', (ctx) => {",
      '    ctx.expect(a).toBe(1);',
      '    chai.expect(b).to.be.true;',
      '    chai.expect(c).to.equal(1);',
      '  });',
      "  it('expectation on a request variable', function (done) {",
      "    var test = request(app).post('/');",
      "    test.set('Content-Type', 'application/octet-stream');",
      '    test.write(buf);',
      '    test.expect(413, done);',
      '  });',
      "  it('request variable without expectation', function (done) {",
      "    var test = request(app).post('/');",
      '    test.end(done);',
      '  });',
      '});',
    ].join('\n');
    assert.deepEqual(parse(code), {
      'GET /users > returns': counts(1),
      'GET /users > returns json': counts(2),
      'GET /users > only calls': counts(0),
      'GET /users > context expect is a subject': counts(3),
      'GET /users > expectation on a request variable': counts(1),
      'GET /users > request variable without expectation': counts(0),
    });
  });
});

describe('helpers declared in the test file', () => {
  test('calls of a local function whose body asserts count in the calling test', () => {
    const code = [
      "import { expect, test, describe } from 'vitest';",
      "import assert from 'node:assert';",
      "test('function declared below', () => {",
      "  check('a');",
      "  check('b');",
      '});',
      "test('arrow helper and iteration', () => {",
      '  verify(res);',
      "  ['a', 'b'].forEach(check);",
      '});',
      "test('transitive', () => {",
      "  checkBoth('a', 'b');",
      '});',
      "describe('suite', () => {",
      '  function inSuite(v) {',
      '    for (const item of v) expect(item).toBeDefined();',
      '  }',
      "  test('suite helper', () => inSuite(list));",
      '});',
      "test('node:test style helper', (t) => {",
      '  checkStatus(t, res);',
      '});',
      'function check(input) {',
      '  expect(parse(input)).toBe(true);',
      '}',
      'const verify = (r) => {',
      '  assert.equal(r.status, 200);',
      '};',
      'function checkBoth(a, b) {',
      '  check(a);',
      '  check(b);',
      '}',
      'function checkStatus(t, res) {',
      '  t.equal(res.status, 200);',
      '}',
    ].join('\n');
    assert.deepEqual(parse(code), {
      'function declared below': counts(2),
      'arrow helper and iteration': counts(2),
      transitive: counts(1),
      'suite > suite helper': counts(1),
      'node:test style helper': counts(1),
    });
  });

  test('functions that do not assert are not helpers', () => {
    const code = [
      "test('calls a builder', () => {",
      '  const user = build();',
      '  loop(3);',
      "  defineCases('x');",
      '});',
      'function build() { return make({ id: 1 }); }',
      'function loop(n) { if (n > 0) loop(n - 1); }',
      'function defineCases(name) { it(name, () => { expect(parse(name)).toBe(true); }); }',
    ].join('\n');
    // The test defined inside defineCases keeps its own assertion; the caller gains none from it.
    assert.deepEqual(parse(code), { 'calls a builder': counts(0), name: counts(1) });
  });

  test('a helper declared inside the test is counted where it is written, not per call', () => {
    const code = [
      "test('inner helper', () => {",
      '  const check = (v) => { expect(parse(v)).toBe(true); };',
      "  check('a');",
      "  check('b');",
      '});',
    ].join('\n');
    assert.deepEqual(parse(code), { 'inner helper': counts(1) });
  });

  test('a helper call carries what the helper proves: snapshot, trivial, unawaited, caught errors', () => {
    const code = [
      "test('snapshot helper', () => { snap(render()); });",
      "test('snapshot helper on a chai subject', () => { snapVia(render()); });",
      "test('trivial helper', () => { sanity(); });",
      "test('unawaited helper', () => { load().then((v) => check(v)); });",
      "test('caught error checked by a helper', () => {",
      '  try { run(); } catch (error) { checkError(error); }',
      '});',
      "test('caught error only logged', () => {",
      '  try { run(); } catch (error) { log(error); }',
      '});',
      'function snap(value) { expect(value).toMatchSnapshot(); }',
      'function snapVia(value) { chai.expect(value).toMatchSnapshot(); }',
      'function sanity() { expect(true).toBe(true); }',
      'function check(value) { expect(value).toBe(1); }',
      'function checkError(error) { expect(error.message).toMatch(/boom/); }',
      'function log(error) { console.error(error); }',
    ].join('\n');
    assert.deepEqual(parse(code), {
      'snapshot helper': counts(1, { snapshotAssertions: 1 }),
      'snapshot helper on a chai subject': counts(1, { snapshotAssertions: 1 }),
      'trivial helper': counts(1, { trivialAssertions: 1 }),
      'unawaited helper': counts(1, { unawaitedAssertions: 1 }),
      'caught error checked by a helper': counts(1),
      'caught error only logged': counts(0, { swallowedErrors: 1 }),
    });
  });

  test('a promise kept in a variable and awaited later awaits the assertions of its listener (issue 41: koa)', () => {
    const code = [
      "it('awaited later', async () => {",
      '  const handled = new Promise((resolve, reject) => {',
      "    app.on('error', (err) => {",
      "      try { assert.strictEqual(err.message, 'boom'); resolve(); } catch (e) { reject(e); }",
      '    });',
      '  });',
      "  await request(app.callback()).get('/');",
      '  await handled;',
      '});',
      "it('never awaited', async () => {",
      '  const forgotten = new Promise((resolve) => {',
      "    app.on('error', (err) => { assert.strictEqual(err.message, 'boom'); resolve(); });",
      '  });',
      "  await request(app.callback()).get('/');",
      '});',
    ].join('\n');
    assert.deepEqual(parse(code), {
      'awaited later': counts(1),
      'never awaited': counts(1, { unawaitedAssertions: 1 }),
    });
  });

  test('a test that fails itself on a condition with an error it makes checks by hand (issue 41: knex); passing an error on does not', () => {
    const code = [
      "it('compares by hand', function () {",
      '  const promise = new Promise((resolve, reject) => {',
      "    stream.on('error', function (actual) {",
      '      if (actual === expected) resolve();',
      "      else reject(new Error('Stream emitted unexpected error'));",
      '    });',
      '  });',
      '  return promise;',
      '});',
      "it('throws on a mismatch', async () => {",
      '  const res = await fetch(url);',
      '  if (res.status !== 200) throw new Error(`status ${res.status}`);',
      '});',
      "it('fails done on a mismatch', (done) => {",
      "  db.load((err, value) => { if (value !== 2) return done(new Error('not two')); done(); });",
      '});',
      "it('passes an error on', (done) => {",
      '  db.load((err) => { if (err) return done(err); done(); });',
      '});',
      "it('rethrows', async () => {",
      '  try { await run(); } catch (err) { if (err.code) throw err; }',
      '});',
      "it('ends on a count', (done) => {",
      "  stream.on('data', () => { count++; if (count === 6) done(); });",
      '});',
      "it('ends once', (done) => {",
      "  stream.on('end', () => { if (!finished) { finished = true; done(); } });",
      '});',
      "it('throws in a loop', async () => {",
      "  for (const item of await list()) throw new Error('unexpected ' + item);",
      '});',
      "it('ends in a loop', (done) => {",
      '  for (let i = 0; i < 3; i++) done();',
      '});',
      "it('always throws', async () => {",
      "  await run(); throw new Error('unreachable?');",
      '});',
    ].join('\n');
    assert.deepEqual(parse(code), {
      'compares by hand': counts(1),
      'throws on a mismatch': counts(1),
      'fails done on a mismatch': counts(1),
      'passes an error on': counts(0),
      rethrows: counts(0),
      'ends on a count': counts(1),
      'ends once': counts(0),
      'throws in a loop': counts(0),
      'ends in a loop': counts(0),
      'always throws': counts(0),
    });
  });

  test('a listener that sets a flag the test asserts after the request ran (issue 41: koa); a flag never asserted proves nothing', () => {
    const code = [
      "it('flag asserted', async () => {",
      '  let errorCaught = false;',
      "  app.on('error', (err) => {",
      "    assert.strictEqual(err.message, 'test error');",
      '    errorCaught = true;',
      '  });',
      "  await request(app.callback()).get('/').expect(500);",
      '  assert.strictEqual(errorCaught, true);',
      '});',
      "it('counted and expected', async () => {",
      '  let calls = 0;',
      "  app.on('error', (err) => { expect(err.status).toBe(500); calls++; });",
      "  await request(app.callback()).get('/');",
      '  expect(calls).toBe(1);',
      '});',
      "it('flag never asserted', async () => {",
      '  let errorCaught = false;',
      "  app.on('error', (err) => { assert.strictEqual(err.message, 'test error'); errorCaught = true; });",
      "  await request(app.callback()).get('/').expect(500);",
      '  assert.strictEqual(status, 500);',
      '});',
    ].join('\n');
    assert.deepEqual(parse(code), {
      'flag asserted': counts(3),
      'counted and expected': counts(2),
      'flag never asserted': counts(3, { unawaitedAssertions: 1 }),
    });
  });

  test('a test that declares its plan fails when its callbacks do not assert, so none is unawaited (issue 41: undici)', () => {
    const code = [
      "test('tspl plan', async (t) => {",
      '  t = tspl(t, { plan: 2 });',
      "  client.request({ path: '/' }, (err, { body }) => { body.on('end', () => { t.ifError(err); t.strictEqual(body.size, 5); }); });",
      '  await t.completed;',
      '});',
      "test('node:test plan', (t) => {",
      '  t.plan(1);',
      "  emitter.on('done', (value) => { t.assert.strictEqual(value, 1); });",
      '});',
      "test('jest assertions', () => {",
      '  expect.assertions(1);',
      '  load().then((value) => { expect(value).toBe(1); });',
      '});',
      "test('no plan', async (t) => {",
      "  emitter.on('done', (value) => { assert.strictEqual(value, 1); });",
      '});',
      "test('a billing plan is data, not a test plan', async (t) => {",
      "  subscribe({ plan: 'pro' });",
      "  emitter.on('done', (value) => { assert.strictEqual(value, 'pro'); });",
      '});',
      "test('a plan inside a callback plans nothing', async (t) => {",
      '  setTimeout(() => { t.plan(1); });',
      '  load().then((value) => { assert.strictEqual(value, 1); });',
      '});',
    ].join('\n');
    assert.deepEqual(parse(code), {
      'tspl plan': counts(1),
      'node:test plan': counts(1),
      'jest assertions': counts(1),
      'no plan': counts(1, { unawaitedAssertions: 1 }),
      'a billing plan is data, not a test plan': counts(1, { unawaitedAssertions: 1 }),
      'a plan inside a callback plans nothing': counts(1, { unawaitedAssertions: 1 }),
    });
  });

  test('a catch that hands its error on, or a finally that asserts, swallows nothing (issue 41: axios, trpc, parse-server)', () => {
    const code = [
      "test('finally asserts', async () => {",
      '  let streamError;',
      '  try { await pipeline(data); } catch (e) { console.log(`pipeline error: ${e}`); } finally {',
      "    assert.strictEqual(streamError && streamError.code, 'ERR_CANCELED');",
      '  }',
      '});',
      "test('pushed to a list', async () => {",
      '  const errors = [];',
      '  try { await consume(); } catch (err) { errors.push(err); }',
      '  expect(errors).toHaveLength(1);',
      '});',
      "test('handed to a global helper', async () => {",
      '  try { await request(); } catch (e) { handleError(e); }',
      '});',
      "test('only logged', () => {",
      '  try { run(); } catch (error) { console.error(error); }',
      '});',
      "test('given to a local function that does not assert', () => {",
      '  try { run(); } catch (error) { note(error); }',
      '});',
      'function note(error) { console.error(error); }',
    ].join('\n');
    assert.deepEqual(parse(code), {
      'finally asserts': counts(1),
      'pushed to a list': counts(1),
      'handed to a global helper': counts(0),
      'only logged': counts(0, { swallowedErrors: 1 }),
      'given to a local function that does not assert': counts(0, { swallowedErrors: 1 }),
    });
  });

  test('configured assertionHelpers keep working alongside local helpers', () => {
    const code = "test('configured', () => {\n  checkShape(a);\n  lib.verifyAll(b);\n});";
    assert.deepEqual(parse(code, ['checkShape', 'verifyAll']), { configured: counts(2) });
    assert.deepEqual(parse(code), { configured: counts(0) });
  });
});

describe('calls that are no test declaration, and listeners that only fail (issue 41)', () => {
  const declared = (code: string, path = 'test/sample.test.ts') =>
    extractFacts(path, code, { assertionHelpers: [] }).tests.map((fact) => `${fact.kind} ${fact.titlePath.join(' > ')}`);

  test("the file's own function or variable named `test` declares no test where it is in scope", () => {
    assert.deepEqual(
      declared('function test(n: number): boolean {\n  return n > 2;\n}\nexport const ok = test(123);\n', 'test/helpers/numbers.ts'),
      [],
    );
    assert.deepEqual(declared("const test = (value: string) => /a/.test(value);\nexport const ok = test('abc');\n", 'src/check.ts'), []);
    assert.deepEqual(
      declared(
        [
          "import { describe, it } from 'vitest';",
          "describe('digits', () => {",
          '  function test(input: string) {',
          '    return input;',
          '  }',
          "  it('runs', () => {",
          "    test('123');",
          '  });',
          '});',
          "it('outside the describe, it is the runner', () => {});",
        ].join('\n'),
      ),
      ['suite digits', 'test digits > runs', 'test outside the describe, it is the runner'],
    );
    // A parameter named `it` shadows only inside its function.
    assert.deepEqual(
      declared("import { it } from 'vitest';\nfunction each(it: (title: string) => void) {\n  it('row');\n}\nit('real', () => {});\n"),
      ['test real'],
    );
  });

  test("the runner's test under a variable (`base.extend`, `require('tape')`) and a number as title", () => {
    assert.deepEqual(
      declared("import { test as base } from '@playwright/test';\nconst test = base.extend({});\ntest('extended', async () => {});\n"),
      ['test extended'],
    );
    assert.deepEqual(declared("const test = require('tape');\ntest('taped', (t) => { t.end(); });\n"), ['test taped']);
    assert.deepEqual(declared("import { test } from 'vitest';\ntest(123, () => {});\ntest(`row ${1}`, () => {});\n"), ['test row ${…}']);
  });

  test('an assertion in a listener that only fails is a guard, counted but not unawaited; timers and value checks still are', () => {
    const header = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n";
    assert.deepEqual(
      parse(
        `${header}test('guarded', async (t) => {\n  stream.once('error', () => t.assert.fail());\n  emitter.on('x', () => assert.fail('no x'));\n  emitter.on('y', (error) => {\n    throw error;\n  });\n  assert.equal(await read(stream), 'a');\n});\n`,
      ),
      { guarded: counts(3) },
    );
    assert.deepEqual(
      parse(
        `${header}test('later', () => {\n  setTimeout(() => assert.fail('late'), 10);\n  emitter.on('x', (value) => assert.equal(value, 1));\n  emitter.on('z', () => {\n    log('z');\n    assert.fail('z');\n  });\n});\n`,
      ),
      { later: counts(3, { unawaitedAssertions: 3 }) },
    );
    // Check 15 (socket.io's adapter): expect.js fails with `expect().fail()`; the listeners guard the test the same way.
    assert.deepEqual(
      parse(
        "import expect from 'expect.js';\nit('one ack', async () => {\n  client.on('test', () => expect().fail());\n  expect(await server.emitWithAck('test')).to.eql(2);\n});\n",
      ),
      { 'one ack': counts(2) },
    );
  });
});
