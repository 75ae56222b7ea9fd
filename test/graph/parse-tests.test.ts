import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TestCaseFact } from '../../src/model/facts.js';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';

/** Fixture source only: spelled this way so a scan for focused tests in this suite finds none. */
const FOCUS = '.only';

const parse = (text: string, helpers: string[] = []) => extractFacts('test/sample.test.ts', text, { assertionHelpers: helpers });

function fact(kind: 'suite' | 'test', titlePath: string[], start: number, end: number, extra: Partial<TestCaseFact> = {}): TestCaseFact {
  return {
    kind,
    titlePath,
    span: { start, end },
    modifiers: [],
    assertions: 0,
    trivialAssertions: 0,
    snapshotAssertions: 0,
    unawaitedAssertions: 0,
    swallowedErrors: 0,
    isAsync: false,
    ...extra,
  };
}

/** Titles and modifiers only, for the cases where counts are not the subject. */
const summarize = (tests: TestCaseFact[]) =>
  tests.map((t) => `${t.kind}:${t.titlePath.join(' > ')}${t.modifiers.length > 0 ? ` [${t.modifiers.join(',')}]` : ''}`);

describe('test cases', () => {
  test('nesting, titles and spans', () => {
    const code = [
      "describe('cart', () => {",
      '  context(`when empty`, () => {',
      "    it('has no total', () => {",
      '      expect(total()).toBe(0);',
      '    });',
      '  });',
      "  test('adds', async () => {",
      '    expect(add(1)).toEqual([1]);',
      '    expect(count()).not.toBe(2);',
      '  });',
      '});',
    ].join('\n');
    assert.deepEqual(parse(code).tests, [
      fact('suite', ['cart'], 1, 11),
      fact('suite', ['cart', 'when empty'], 2, 6),
      fact('test', ['cart', 'when empty', 'has no total'], 3, 5, { assertions: 1 }),
      fact('test', ['cart', 'adds'], 7, 10, { assertions: 2, isAsync: true }),
    ]);
  });

  test('modifier forms', () => {
    const code = [
      "describe.skip('s1', () => {});",
      `it${FOCUS}('t1', () => {});`,
      "it.todo('t2');",
      "test.concurrent('t3', async () => {});",
      "test.fails('t4', () => {});",
      "it.each([1, 2])('t5 %i', (n) => {});",
      "test.each`a\n${1}`('t6 $a', ({ a }) => {});",
      "describe.each([[1]])('s2 %i', () => {});",
      "xit('t7', () => {});",
      "xdescribe('s3', () => {});",
      "xtest('t8', () => {});",
      "fit('t9', () => {});",
      "fdescribe('s4', () => {});",
      "it.skipIf(isCi)('t10', () => {});",
      "test.concurrent.only('t11', () => {});",
      "specify('t12', () => {});",
      "suite('s5', () => {});",
      "test.describe('s6', () => {});",
      `test.describe${FOCUS}('s7', () => {});`,
      'it(`t13 ${name}`, () => {});',
    ].join('\n');
    assert.deepEqual(summarize(parse(code).tests), [
      'suite:s1 [skip]',
      'test:t1 [only]',
      'test:t2 [todo]',
      'test:t3',
      'test:t4',
      'test:t5 %i',
      'test:t6 $a',
      'suite:s2 %i',
      'test:t7 [skip]',
      'suite:s3 [skip]',
      'test:t8 [skip]',
      'test:t9 [only]',
      'suite:s4 [only]',
      'test:t10 [conditional]',
      'test:t11 [only]',
      'test:t12',
      'suite:s5',
      'suite:s6',
      'suite:s7 [only]',
      'test:t13 ${…}',
    ]);
  });

  test('node:test options, subtests, t.skip and done callbacks', () => {
    const code = [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "test('skipped', { skip: true }, () => {});",
      "test('todo', { todo: 'later' }, () => {});",
      "test('parent', async (t) => {",
      "  await t.test('child', (t2) => {",
      '    t2.assert.equal(1, 2);',
      '    t2.skip();',
      '  });',
      '  assert.ok(value);',
      '});',
      "test('callback', (t, done) => {",
      '  t.equal(a, b);',
      '  done();',
      '});',
    ].join('\n');
    assert.deepEqual(parse(code).tests, [
      fact('test', ['skipped'], 3, 3, { modifiers: ['skip'] }),
      fact('test', ['todo'], 4, 4, { modifiers: ['todo'] }),
      fact('test', ['parent'], 5, 11, { assertions: 1, isAsync: true }),
      fact('test', ['parent', 'child'], 6, 9, { assertions: 1, modifiers: ['skip'] }),
      fact('test', ['callback'], 12, 15, { assertions: 1, isAsync: true }),
    ]);
  });

  // Checks 105 and 113 (node-semver, minimatch): tap's module object declares tests (`t.test(…)`) and is a test of its
  // own where it asserts outside them; tape's function declares them under whatever name it is bound to.
  test('node-tap and tape: the root object, its top-level assertions, and tape under its own name', () => {
    const tap = [
      "const t = require('tap');",
      "t.equal(parse('1'), 1);",
      "t.test('parses', (t) => {",
      "  t.same(parse('2'), 2);",
      '  t.end();',
      '});',
      "t.ok(parse('3'));",
    ].join('\n');
    assert.deepEqual(
      parse(tap).tests.map((test) => [test.titlePath.join(' > '), test.assertions, test.span]),
      [
        ['(top level)', 2, { start: 2, end: 7 }],
        ['parses', 1, { start: 3, end: 6 }],
      ],
    );
    const tape = "import tape from 'tape';\ntape('adds', (t) => {\n  t.equal(add(1), 2);\n  t.end();\n});\n";
    assert.deepEqual(summarize(parse(tape).tests), ['test:adds']);
    // Another module's `t` declares nothing, and asserts nothing at the top.
    assert.deepEqual(parse("const t = require('./helper');\nt.test('x', () => {});\nt.equal(1, 1);\n").tests, []);
  });

  test('calls that only look like tests are ignored', () => {
    const code = [
      'const ok = /x/.test(value);',
      'it.next();',
      "describe('no callback');",
      'test(42, () => {});',
      "mocha.it('x', () => {});",
    ].join('\n');
    assert.deepEqual(parse(code).tests, []);
  });

  test('a function read from a list by index is the file own, one read by name stays the runner', () => {
    // yup's schema.ts runs its validations in a loop: `const test = tests[i]; test(args, panic, function finish(err) {…})`.
    const loop = [
      'export function run(tests, args) {',
      '  for (let i = 0; i < tests.length; i++) {',
      '    const test = tests[i];',
      "    test('x', function finishTestRun(err) {});",
      '  }',
      '}',
    ].join('\n');
    assert.deepEqual(parse(loop).tests, []);
    const named = ["const test = runner['test'];", "test('reads', () => {});"].join('\n');
    assert.deepEqual(
      parse(named).tests.map((found) => found.titlePath),
      [['reads']],
    );
  });
});

describe('assertions', () => {
  const count = (body: string, helpers: string[] = []) => {
    const facts = parse(
      `import assert from 'node:assert';\nimport { strictEqual } from 'node:assert/strict';\nit('case', async (t) => {\n${body}\n});`,
      helpers,
    );
    const found = facts.tests[0];
    assert.ok(found !== undefined);
    const { assertions, trivialAssertions, snapshotAssertions, unawaitedAssertions, swallowedErrors } = found;
    return { assertions, trivialAssertions, snapshotAssertions, unawaitedAssertions, swallowedErrors };
  };
  const counts = (assertions: number, extra: Partial<ReturnType<typeof count>> = {}) => ({
    assertions,
    trivialAssertions: 0,
    snapshotAssertions: 0,
    unawaitedAssertions: 0,
    swallowedErrors: 0,
    ...extra,
  });

  const cases: { title: string; body: string; expected: ReturnType<typeof count>; helpers?: string[] }[] = [
    {
      title: 'expect chains',
      body: 'expect(a).toBe(1);\nexpect(b).not.toEqual(2);\nawait expect(p).rejects.toThrow();\nexpect.soft(c).toBe(3);',
      expected: counts(4),
    },
    {
      title: 'expect without a matcher and expect.assertions are not assertions',
      body: 'expect.assertions(2);\nexpect.hasAssertions();\nexpect(a);',
      expected: counts(0),
    },
    { title: 'nested arrow functions count', body: 'items.forEach((item) => { expect(item).toBeDefined(); });', expected: counts(1) },
    {
      title: 'assert forms',
      body: 'assert(x);\nassert.equal(a, b);\nassert.strict.equal(a, b);\nstrictEqual(a, b);\nt.assert.ok(a);\nt.ok(a);',
      expected: counts(6),
    },
    {
      title: 'chai',
      body: 'expect(a).to.equal(1);\nexpect(b).to.be.true;\nresult.should.equal(2);\nresult.should.be.ok;\nshould.exist(c);',
      expected: counts(5),
    },
    {
      title: 'configured helpers',
      body: 'checkValid(a);\nhelpers.verifySorted(b);\nunrelated(c);',
      helpers: ['checkValid', 'verifySorted'],
      expected: counts(2),
    },
    { title: 'helpers named otherwise count only when configured', body: 'checkValid(a);\nhelpers.verifySorted(b);', expected: counts(0) },
    {
      title: 'trivial assertions',
      body: "expect(true).toBe(true);\nexpect(1).toBe(1);\nexpect('a').toEqual('a');\nassert.ok(true);\nassert(true);\nassert.equal(1, 1);\nexpect(true).toBeTruthy();\nexpect(x).toBe(true);\nexpect(1).toBe(2);",
      expected: counts(9, { trivialAssertions: 7 }),
    },
    {
      title: 'snapshots',
      body: "expect(a).toMatchSnapshot();\nexpect(b).toMatchInlineSnapshot();\nawait expect(c).toMatchFileSnapshot('./c.txt');\nt.assert.snapshot(d);",
      expected: counts(4, { snapshotAssertions: 4 }),
    },
    {
      title: 'an inline snapshot with content is an explicit assertion, not a snapshot',
      body: 'expect(b).toMatchInlineSnapshot(`"x"`);\nexpect(() => f()).toThrowErrorMatchingInlineSnapshot(`"boom"`);\nexpect(c).toMatchInlineSnapshot(\'"y"\');',
      expected: counts(3),
    },
    {
      title: 'unawaited callbacks',
      body: 'fetchUser().then((user) => { expect(user).toBeDefined(); });\nsetTimeout(() => { expect(a).toBe(1); }, 10);\nemitter.on("x", () => { assert.ok(b); });\nawait load().then((v) => { expect(v).toBe(2); });',
      expected: counts(4, { unawaitedAssertions: 3 }),
    },
    {
      title: 'returned and awaited promise chains are not unawaited',
      body: 'await new Promise((resolve) => setTimeout(() => { expect(a).toBe(1); resolve(); }));\nawait a().then(() => b()).then((v) => { expect(v).toBe(1); });\nawait Promise.all([x.then(() => { expect(1).toBe(2); })]);\nreturn go().then((v) => expect(v).toBe(3));',
      expected: counts(4),
    },
    {
      title: 'swallowed errors',
      body: 'try { run(); } catch (error) {}\ntry { run(); } catch (error) { console.log(error); }\ntry { run(); } catch (error) { expect(error).toBeInstanceOf(Error); }\ntry { run(); } catch (error) { throw error; }',
      expected: counts(1, { swallowedErrors: 2 }),
    },
  ];
  for (const { title, body, expected, helpers } of cases) {
    test(title, () => assert.deepEqual(count(body, helpers), expected));
  }

  test('assertions in hooks and suites are not counted on tests', () => {
    const code =
      "describe('s', () => {\n  beforeEach(() => { expect(setup()).toBe(true); });\n  expect(1).toBe(1);\n  it('t', () => {});\n});";
    assert.deepEqual(
      parse(code).tests.map((t) => t.assertions),
      [0, 0],
    );
  });

  test('done-style callbacks may assert in callbacks', () => {
    const code = "it('cb', (done) => {\n  setTimeout(() => { expect(a).toBe(1); done(); });\n});";
    assert.deepEqual(parse(code).tests, [fact('test', ['cb'], 1, 3, { assertions: 1, isAsync: true })]);
  });

  // Check 15 (socket.io's adapter): the test passes only when `partialDone` runs twice and fails if the excluded
  // client hears the event; it was read as a test with no assertions.
  test('a done callback handed to a plain function or an event listener asserts there; one handed to a method only ends the test', () => {
    const code = [
      "it('broadcasts to all clients except in room', (done) => {",
      '  const partialDone = times(2, done);',
      "  clientSockets[1].on('test', shouldNotHappen(done));",
      "  clientSockets[0].on('test', () => partialDone());",
      '});',
      "it('broadcasts to all clients in a namespace', (done) => {",
      '  const partialDone = times(3, () => {',
      '    close();',
      '    done();',
      '  });',
      "  clientSockets[0].on('test', () => partialDone());",
      '});',
      "it('only ends', (done) => {",
      '  run();',
      '  server.close(done);',
      '});',
      // Check 119 (engine.io): the test passes only if the transport closes.
      "it('closes upon parse error', (done) => {",
      "  engine.on('connection', (conn) => {",
      "    conn.transport.on('close', done);",
      '  });',
      '});',
    ].join('\n');
    assert.deepEqual(
      parse(code).tests.map((t) => [t.titlePath.join(' > '), t.assertions]),
      [
        ['broadcasts to all clients except in room', 2],
        ['broadcasts to all clients in a namespace', 1],
        ['only ends', 0],
        ['closes upon parse error', 1],
      ],
    );
  });
});

describe('mocks', () => {
  test('vitest, jest and node:test module mocks', () => {
    const code = [
      "vi.mock('./db');",
      "vi.doMock('../api', () => ({}));",
      "vi.mock(import('./typed'));",
      "jest.mock('axios');",
      "jest.doMock('./late');",
      "jest.unstable_mockModule('./esm', () => ({}));",
      "mock.module('node:fs', {});",
      "test('x', (t) => { t.mock.module('./inner', {}); });",
      'vi.mock(name);',
      "vi.fn('./not-a-mock');",
    ].join('\n');
    assert.deepEqual(parse(code).mocks, [
      { specifier: './db', framework: 'vitest', line: 1 },
      { specifier: '../api', framework: 'vitest', line: 2 },
      { specifier: './typed', framework: 'vitest', line: 3 },
      { specifier: 'axios', framework: 'jest', line: 4 },
      { specifier: './late', framework: 'jest', line: 5 },
      { specifier: './esm', framework: 'jest', line: 6 },
      { specifier: 'node:fs', framework: 'node', line: 7 },
      { specifier: './inner', framework: 'node', line: 8 },
    ]);
  });
});
