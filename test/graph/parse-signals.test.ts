import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';

const parse = (text: string, path = 'src/module.ts') => extractFacts(path, text, { assertionHelpers: [] });
const signalsOf = (text: string) => parse(text).signals.map((signal) => `${signal.line} ${signal.kind} ${signal.detail}`);

describe('signals', () => {
  test('JSON.parse in a try block whose catch takes its failure is handled; in a try with only a finally it is not (check 29: kit)', () => {
    const code = [
      'function read(dir) {',
      "  try { pkg = JSON.parse(fs.readFileSync(dir, 'utf8')); } catch {}",
      '  try { cleanup(); } finally { config = JSON.parse(raw); }',
      '  try {',
      '    once(() => JSON.parse(later));',
      '  } catch (error) { log(error); }',
      '  try { lock(); value = JSON.parse(text); } finally { unlock(); }',
      '}',
    ].join('\n');
    assert.deepEqual(
      signalsOf(code).filter((signal) => signal.includes('parse-json')),
      ['3 parse-json JSON.parse', '5 parse-json JSON.parse', '7 parse-json JSON.parse'],
    );
  });

  test('one signal per kind and line, in source order', () => {
    const code = [
      "import dayjs from 'dayjs';",
      "const port = parseInt(process.env.PORT ?? '3000', 10);",
      'const data = JSON.parse(raw);',
      'const now = new Date(); const iso = now.toISOString();',
      'const total = price * quantity;',
      'const cents = amount.toFixed(2);',
      'if (items.length === 0) stop();',
      'const first = list[0];',
      'const name = user?.profile?.name;',
      "async function load(ids) { const rows = await db.query('SELECT * FROM users'); return ids.map((id) => rows.find((row) => row.id === id)); }",
      'promise.catch(log);',
      'await Promise.all([a(), b()]);',
      'const { page, pageSize } = query;',
      'const token = req.headers.authorization;',
      'const re = /^[a-z]+$/i; const re2 = new RegExp(pattern);',
      'await fs.promises.readFile(path); writeFileSync(p, d);',
      'await fetch(url); axios.get(u);',
      "throw new Error('boom');",
      'try { x(); } catch (error) { handle(error); }',
      'const sql = `UPDATE accounts SET balance = ${b}`;',
      'const v = Number(input); const t = Date.now();',
      'const last = rows.slice(-1); const env = import.meta.env.VITE_API;',
      'sum += item.price; const ok = Promise.reject(err);',
    ].join('\n');
    assert.deepEqual(signalsOf(code), [
      '2 parse-number parseInt',
      '2 env-config process.env.PORT',
      '2 optional-access ??',
      '3 parse-json JSON.parse',
      '4 date-time now.toISOString',
      '5 money price *',
      '6 money amount.toFixed',
      '7 collection items.length === 0',
      '8 collection list[0]',
      '9 optional-access ?.',
      '10 async-failure await outside try',
      '10 sql db.query',
      '10 input-collection ids.map',
      '11 async-failure promise.catch',
      '12 async-failure await outside try',
      '12 promise-concurrency Promise.all',
      '14 auth token',
      '15 regex /^[a-z]+$/i',
      '16 async-failure await outside try',
      '16 file-io fs.promises.readFile',
      '17 async-failure await outside try',
      '17 network fetch',
      '18 throw throw',
      '19 catch catch',
      '20 sql UPDATE accounts SET balance =',
      '20 write UPDATE accounts SET balance =',
      '21 parse-number Number',
      '22 collection rows.slice',
      '22 env-config import.meta.env.VITE_API',
      '23 money price +=',
      '23 async-failure Promise.reject',
    ]);
  });

  // Check 81 (jsonschema): `total = len(instance)` then `total - prefix` was asked for cents and currencies.
  test('a money word declared as a length is a count, no money', () => {
    const code = [
      'const total = items.length;',
      'const extra = total - prefix;',
      'const amount = order.total;',
      'const due = amount - paid;',
    ];
    assert.deepEqual(
      signalsOf(code.join('\n')).filter((signal) => signal.includes('money')),
      ['4 money amount -'],
    );
  });

  // Check 79 (auth0/node-jsonwebtoken): `new Date(maxAgeTimestamp * 1000)` was asked for DST and for "2024-02-30".
  test('a Date made from a number is an instant, no date handling; one made from anything else is', () => {
    const code = [
      'const a = new Date(seconds * 1000);',
      'const b = new Date(0);',
      'const c = new Date(Date.now() + ttl);',
      'const d = new Date(input);',
      'const e = new Date();',
      'const f = new Date(start.getTime() - offset);',
      'const g = new Date(year, month, 1);',
    ].join('\n');
    assert.deepEqual(
      signalsOf(code).filter((signal) => signal.includes('date-time')),
      ['4 date-time new Date', '7 date-time new Date'],
    );
  });

  // Fourth independent check (outline 4c36bd83de): `import { subSeconds } from "date-fns"` and a ten-second window
  // from `new Date()` were asked for DST and for "2024-02-30".
  test("a date library's calls are date code, its import and its zone-free arithmetic are not", () => {
    const code = [
      "import { subSeconds, format, parseISO } from 'date-fns';",
      "import * as dateFns from 'date-fns';",
      'const since = subSeconds(new Date(), 10);',
      "const label = format(day, 'yyyy-MM-dd');",
      'const parsed = parseISO(input);',
      'const later = dateFns.addHours(now, 1);',
      'const start = dateFns.startOfDay(now);',
      'today.setHours(0, 0, 0, 0);',
      'const shown = isBefore(a, b) ? subSeconds : format;',
      'const year = new Date().getFullYear();',
    ].join('\n');
    assert.deepEqual(
      signalsOf(code).filter((signal) => signal.includes('date-time')),
      [
        '4 date-time format',
        '5 date-time parseISO',
        '7 date-time dateFns.startOfDay',
        '8 date-time today.setHours',
        '10 date-time .getFullYear',
      ],
    );
  });

  test("the build's mode is no configuration and no optional field; a deployment's variable still is (issue 41: jotai)", () => {
    const code = [
      "if (import.meta.env?.MODE !== 'production') warn();",
      "if (process.env.NODE_ENV === 'development') warn();",
      'if (import.meta.env.DEV) warn();',
      'const url = import.meta.env.VITE_API_URL;',
      'const port = process.env.PORT;',
      'const name = user?.name;',
    ].join('\n');
    assert.deepEqual(signalsOf(code), [
      '4 env-config import.meta.env.VITE_API_URL',
      '5 env-config process.env.PORT',
      '6 optional-access ?.',
    ]);
  });

  test('await inside try is not an async failure, inside a nested function it is', () => {
    const code = 'async function a() {\n  try {\n    await x();\n    const f = async () => {\n      await y();\n    };\n  } catch {}\n}';
    assert.deepEqual(signalsOf(code), ['5 async-failure await outside try', '7 catch catch']);
  });

  test('slicing a string is no collection: a literal, a string method, a value named like text', () => {
    const code = [
      'const a = req.path.slice(1);',
      'const b = filePath.slice(0, -3);',
      "const c = 'abc'.slice(1);",
      'const d = value.trim().slice(0, 10);',
      'const e = String(count).slice(-2);',
      'const f = lines.slice(1);',
      'const g = req.body.items.slice(0, 10);',
      'const h = names.join(", ").slice(0, 80);',
      'const i = input.slice(1);',
    ].join('\n');
    assert.deepEqual(
      signalsOf(code).filter((signal) => !signal.includes(' body-read ')),
      ['6 collection lines.slice', '7 collection req.body.items.slice', '9 collection input.slice'],
    );
  });

  test('a slice of nothing copies the list: no collection case (hono)', () => {
    assert.deepEqual(signalsOf('const sorted = accepts.slice().sort(byQuality);\nconst head = accepts.slice(0, 1);'), [
      '2 collection accepts.slice',
    ]);
  });

  test('an optional call made as a statement drops its result: no missing-field case; one whose value is used is (hono)', () => {
    const code = [
      'cleanups.get(element)?.();',
      'timer?.unref();',
      'await this.options.onDone?.(result);',
      'const value = getter?.();',
      'send(options?.body);',
    ].join('\n');
    assert.deepEqual(
      signalsOf(code).filter((signal) => signal.includes(' optional-access ')),
      ['4 optional-access ?.', '5 optional-access ?.'],
    );
  });

  test('map on a local that is not a parameter, and words inside other words, are not signals', () => {
    assert.deepEqual(signalsOf('const list = [];\nlist.map(f);\nconst packages = 1;\nconst homepage = 2;\nconst totalWidth = a + b;'), []);
  });

  test('long operator chains are walked without deep recursion', () => {
    const code = `const s = ${Array.from({ length: 5000 }, (_, index) => `v${index}`).join(' + ')} + price * 2;`;
    const facts = parse(code);
    assert.equal(facts.failure, undefined);
    assert.deepEqual(facts.signals, [{ kind: 'money', line: 1, detail: 'price *' }]);
  });

  test('signals are capped at 200 per file and details at 80 characters', () => {
    const many = Array.from({ length: 250 }, (_, index) => `parseInt(v${index});`).join('\n');
    assert.equal(parse(many).signals.length, 200);
    const long = parse(`const q = 'SELECT ${'x'.repeat(200)} FROM t';`).signals;
    assert.equal(long.length, 1);
    assert.equal(long[0]?.detail.length, 80);
  });
});

describe('functions', () => {
  test('declarations, exported arrows, class members and complexity', () => {
    const code = [
      'export function decide(a, b, c) {',
      '  if (a && b) return 1;',
      '  for (const x of c) { while (x) {} }',
      '  switch (a) { case 1: break; case 2: break; default: break; }',
      '  const y = a ? b : c ?? 0;',
      '  try { run(); } catch { a ||= b; }',
      '  function inner(d) { if (d) {} }',
      '  return items.filter((item) => item.ok || item.forced);',
      '}',
      'export const handler = async (event) => event.body;',
      'const local = function named() {};',
      'class Service {',
      '  constructor(private readonly db) {}',
      '  async find(id) { return id > 0 ? this.db.get(id) : null; }',
      '  #secret() {}',
      '  onClick = () => {};',
      '  static get value() { return 1; }',
      '}',
      'export default function () { do {} while (false); }',
    ].join('\n');
    assert.deepEqual(parse(code).functions, [
      { name: 'decide', span: { start: 1, end: 9 }, complexity: 12, isAsync: false, params: 3 },
      { name: 'inner', span: { start: 7, end: 7 }, complexity: 2, isAsync: false, params: 1 },
      { name: 'handler', span: { start: 10, end: 10 }, complexity: 1, isAsync: true, params: 1 },
      { name: 'local', span: { start: 11, end: 11 }, complexity: 1, isAsync: false, params: 0 },
      { name: 'Service.constructor', span: { start: 13, end: 13 }, complexity: 1, isAsync: false, params: 1 },
      { name: 'Service.find', span: { start: 14, end: 14 }, complexity: 2, isAsync: true, params: 1 },
      { name: 'Service.#secret', span: { start: 15, end: 15 }, complexity: 1, isAsync: false, params: 0 },
      { name: 'Service.onClick', span: { start: 16, end: 16 }, complexity: 1, isAsync: false, params: 0 },
      { name: 'Service.value', span: { start: 17, end: 17 }, complexity: 1, isAsync: false, params: 0 },
      { name: 'default', span: { start: 19, end: 19 }, complexity: 2, isAsync: false, params: 0 },
    ]);
  });
});

describe('functions assigned to members', () => {
  // Check 133 (markdown-it): `module.exports = function autolink(state, silent) {…}` had no function fact, so an edge
  // case's checks looked five lines around the change instead of at the function (`state.src.charCodeAt` above it).
  test("express's res.send = function send(), module.exports = function, exports.x = () =>, a named callback", () => {
    const code = [
      'res.send = function send(body) {',
      '  if (body) return 1;',
      '  return 0;',
      '};',
      'module.exports = function autolink(state) { return state.pos; };',
      'exports.parse = (text) => text.trim();',
      'module.exports.compile = function () {};',
      'module.exports = async () => {};',
      'app.use(function handler(req, res) {});',
      'routes[key] = function () {};',
      'Router.prototype.findRoute = function findNode(method) { return method; };',
    ].join('\n');
    assert.deepEqual(parse(code).functions, [
      { name: 'send', span: { start: 1, end: 4 }, complexity: 2, isAsync: false, params: 1 },
      { name: 'autolink', span: { start: 5, end: 5 }, complexity: 1, isAsync: false, params: 1 },
      { name: 'parse', span: { start: 6, end: 6 }, complexity: 1, isAsync: false, params: 1 },
      { name: 'compile', span: { start: 7, end: 7 }, complexity: 1, isAsync: false, params: 0 },
      { name: 'default', span: { start: 8, end: 8 }, complexity: 1, isAsync: true, params: 0 },
      { name: 'handler', span: { start: 9, end: 9 }, complexity: 1, isAsync: false, params: 2 },
      // Check 137 (find-my-way): named as its callers and its test (find-route.test.js) say it, not by its own name.
      { name: 'findRoute', span: { start: 11, end: 11 }, complexity: 1, isAsync: false, params: 1 },
    ]);
  });
});

describe('syntax and failures', () => {
  test('a syntax error gives empty facts with its position', () => {
    const facts = parse('import a from "a";\n\nconst x = ;\n');
    assert.deepEqual(facts, {
      imports: [],
      exports: [],
      tests: [],
      uses: [],
      callables: [],
      constants: [],
      mocks: [],
      routes: [],
      mounts: [],
      signals: [],
      functions: [],
      lines: 3,
      failure: { code: 'parse/syntax', message: 'Expression expected', line: 3, col: 11 },
    });
  });

  test('the error message does not quote the source excerpt', () => {
    const facts = parse('const secret = "ghp_notARealToken";\nlet = = 1;');
    assert.equal(facts.failure?.code, 'parse/syntax');
    assert.equal(facts.failure?.message.includes('ghp_'), false);
    assert.equal(facts.failure?.line, 2);
  });

  test('deep nesting is refused before swc sees it', () => {
    const facts = parse(`const x = ${'('.repeat(3000)}0${')'.repeat(3000)};`);
    assert.deepEqual(facts.failure, { code: 'parse/too-deep', message: 'brackets nested 3000 deep (limit 1000)' });
    assert.equal(facts.lines, 1);
  });

  test('syntax by extension: JSX in .js and .tsx, generics in .ts, plain .js retried without JSX', () => {
    assert.equal(parse('export const A = () => <div>{x}</div>;', 'a.jsx').failure, undefined);
    assert.equal(parse('export const A = () => <div />;', 'a.js').failure, undefined);
    assert.equal(parse('export const A = () => <div />;', 'a.tsx').failure, undefined);
    assert.equal(parse('const a = <T,>(x: T) => x; const b = <string>y;', 'a.ts').failure, undefined);
    assert.equal(parse('export const A = () => <div />;', 'a.ts').failure?.code, 'parse/syntax');
    assert.equal(parse('with (obj) { x = 1; }\nreturn;', 'legacy.cjs').failure, undefined);
    // A .js file may be CommonJS, which returns at its top level (nock's tests/test_unix_socket.js); a .mjs never is.
    const script = parse("const os = require('os');\nif (os.platform() === 'win32') {\n  return\n}\ndescribe('socket', () => {});", 'a.js');
    assert.equal(script.failure, undefined);
    assert.deepEqual(
      script.imports.map((item) => item.specifier),
      ['os'],
    );
    assert.equal(parse('if (x) {\n  return\n}\n', 'a.mjs').failure?.code, 'parse/syntax');
    assert.equal(parse('@decorator class A {}', 'a.mjs').failure, undefined);
  });

  test("Flow-typed JavaScript is read through TypeScript's syntax, its imports and exports kept (parse-server)", () => {
    const facts = parse(
      "// @flow\nimport { loadRouters } from './routers';\nexport function start(options: Object, port: number = 1337): string {\n  return loadRouters(options, port);\n}\n",
      'src/ParseServer.js',
    );
    assert.equal(facts.failure, undefined);
    assert.deepEqual(
      facts.imports.map((item) => item.specifier),
      ['./routers'],
    );
    assert.deepEqual(
      facts.exports.map((item) => item.name),
      ['start'],
    );
    // What neither syntax reads keeps the JavaScript parse's own failure.
    assert.equal(parse('let = = 1;', 'a.js').failure?.code, 'parse/syntax');
  });

  test('never throws on odd input', () => {
    for (const text of ['\u0000', '\uD800', '`${', '/*', 'import', '\uFEFF', '#!']) {
      assert.equal(typeof parse(text).lines, 'number');
    }
  });
});
