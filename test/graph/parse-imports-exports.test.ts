import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ExportFact, ImportFact } from '../../src/model/facts.js';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';

const parse = (text: string, path = 'src/module.ts') => extractFacts(path, text, { assertionHelpers: [] });
const name = (imported: string, local = imported, typeOnly = false) => ({ imported, local, typeOnly });
const span = (start: number, end = start) => ({ start, end });

describe('imports', () => {
  const cases: { title: string; code: string; path?: string; expected: ImportFact[] }[] = [
    {
      title: 'default',
      code: "import React from 'react';",
      expected: [{ specifier: 'react', kind: 'static', typeOnly: false, names: [name('default', 'React')], line: 1 }],
    },
    {
      title: 'named with renames and inline type',
      code: "import { a, b as c, type T } from './x';",
      expected: [{ specifier: './x', kind: 'static', typeOnly: false, names: [name('a'), name('b', 'c'), name('T', 'T', true)], line: 1 }],
    },
    {
      title: 'namespace',
      code: "import * as path from 'node:path';",
      expected: [{ specifier: 'node:path', kind: 'static', typeOnly: false, names: [name('*', 'path')], line: 1 }],
    },
    {
      title: 'side effect',
      code: "import './polyfill.js';",
      expected: [{ specifier: './polyfill.js', kind: 'static', typeOnly: false, names: [], line: 1 }],
    },
    {
      title: 'import type',
      code: "import type { User } from './user';",
      expected: [{ specifier: './user', kind: 'static', typeOnly: true, names: [name('User', 'User', true)], line: 1 }],
    },
    {
      title: 'all names inline type',
      code: "import { type A, type B } from './t';",
      expected: [{ specifier: './t', kind: 'static', typeOnly: true, names: [name('A', 'A', true), name('B', 'B', true)], line: 1 }],
    },
    {
      title: 'default and named',
      code: "import def, { x } from 'lib';",
      expected: [{ specifier: 'lib', kind: 'static', typeOnly: false, names: [name('default', 'def'), name('x')], line: 1 }],
    },
    {
      title: 'string-named import',
      code: "import { 'a-b' as ab } from 'lib';",
      expected: [{ specifier: 'lib', kind: 'static', typeOnly: false, names: [name('a-b', 'ab')], line: 1 }],
    },
    {
      title: 'dynamic with literal',
      code: "load(import('./lazy'));",
      expected: [{ specifier: './lazy', kind: 'dynamic', typeOnly: false, names: [name('*', '*')], line: 1 }],
    },
    {
      title: 'dynamic with plain template',
      code: 'const m = import(`./tpl`);',
      expected: [{ specifier: './tpl', kind: 'dynamic', typeOnly: false, names: [name('*', 'm')], line: 1 }],
    },
    { title: 'dynamic with expression is ignored', code: 'const m = import(`./x/${name}`);', expected: [] },
    {
      title: 'dynamic destructured',
      code: "const { a, b: c } = await import('./d');",
      expected: [{ specifier: './d', kind: 'dynamic', typeOnly: false, names: [name('a'), name('b', 'c')], line: 1 }],
    },
    {
      title: 'dynamic awaited binding',
      code: "const mod = await import('./d');",
      expected: [{ specifier: './d', kind: 'dynamic', typeOnly: false, names: [name('*', 'mod')], line: 1 }],
    },
    {
      title: 'dynamic statement',
      code: "await import('./side');",
      expected: [{ specifier: './side', kind: 'dynamic', typeOnly: false, names: [], line: 1 }],
    },
    {
      title: 'require binding',
      code: "const fs = require('fs');",
      path: 'a.cjs',
      expected: [{ specifier: 'fs', kind: 'require', typeOnly: false, names: [name('*', 'fs')], line: 1 }],
    },
    {
      title: 'require destructured',
      code: "const { readFile, join: j, ...rest } = require('./util');",
      path: 'a.js',
      expected: [
        { specifier: './util', kind: 'require', typeOnly: false, names: [name('readFile'), name('join', 'j'), name('*', 'rest')], line: 1 },
      ],
    },
    {
      title: 'require member',
      code: "const parse = require('./p').parse;",
      path: 'a.js',
      expected: [{ specifier: './p', kind: 'require', typeOnly: false, names: [name('parse')], line: 1 }],
    },
    {
      title: 'require side effect',
      code: "require('./setup');",
      path: 'a.js',
      expected: [{ specifier: './setup', kind: 'require', typeOnly: false, names: [], line: 1 }],
    },
    {
      title: 'require nested',
      code: "use(require('./n'));",
      path: 'a.js',
      expected: [{ specifier: './n', kind: 'require', typeOnly: false, names: [name('*', '*')], line: 1 }],
    },
    // ajv's spec helpers join strings so that bundlers leave the require alone: still one static specifier.
    {
      title: 'require of joined string literals',
      code: 'const Ajv = typeof window == "object" ? window.ajv : require("" + "../dist/" + `jtd`);',
      path: 'a.js',
      expected: [{ specifier: '../dist/jtd', kind: 'require', typeOnly: false, names: [name('*', '*')], line: 1 }],
    },
    { title: 'require of a string joined with a name is not static', code: "require('./' + name);", path: 'a.js', expected: [] },
    { title: 'require.resolve is not an import', code: "require.resolve('./x');", path: 'a.js', expected: [] },
    {
      title: 'reexport named',
      code: "export { a as b, c } from './m';",
      expected: [{ specifier: './m', kind: 'reexport', typeOnly: false, names: [name('a', 'b'), name('c')], line: 1 }],
    },
    {
      title: 'reexport all',
      code: "export * from './all';",
      expected: [{ specifier: './all', kind: 'reexport-all', typeOnly: false, names: [name('*', '*')], line: 1 }],
    },
    {
      title: 'reexport namespace',
      code: "export * as ns from './ns';",
      expected: [{ specifier: './ns', kind: 'reexport', typeOnly: false, names: [name('*', 'ns')], line: 1 }],
    },
    {
      title: 'reexport type',
      code: "export type { T } from './types';",
      expected: [{ specifier: './types', kind: 'reexport', typeOnly: true, names: [name('T', 'T', true)], line: 1 }],
    },
    {
      title: 'import equals',
      code: "import fs = require('fs');",
      expected: [{ specifier: 'fs', kind: 'import-equals', typeOnly: false, names: [name('*', 'fs')], line: 1 }],
    },
    { title: 'import equals of a namespace is not an import', code: 'import Bar = Foo.Bar;', expected: [] },
  ];
  for (const { title, code, path, expected } of cases) {
    test(title, () => {
      const facts = parse(code, path);
      assert.equal(facts.failure, undefined);
      assert.deepEqual(facts.imports, expected);
    });
  }
});

describe('exports', () => {
  const cases: { title: string; code: string; path?: string; expected: ExportFact[] }[] = [
    {
      title: 'function',
      code: 'export function run() {\n  return 1;\n}',
      expected: [{ name: 'run', kind: 'function', span: span(1, 3), typeOnly: false }],
    },
    {
      title: 'async function',
      code: '\nexport async function run() {}',
      expected: [{ name: 'run', kind: 'function', span: span(2), typeOnly: false }],
    },
    { title: 'class', code: 'export class A {\n}', expected: [{ name: 'A', kind: 'class', span: span(1, 2), typeOnly: false }] },
    {
      title: 'decorated class starts at the decorator',
      code: '@Injectable()\nexport class S {\n}',
      expected: [{ name: 'S', kind: 'class', span: span(1, 3), typeOnly: false }],
    },
    { title: 'const', code: 'export const a = 1;', expected: [{ name: 'a', kind: 'variable', span: span(1), typeOnly: false }] },
    {
      title: 'several declarators use their own spans',
      code: 'export let a = 1,\n  b = 2;',
      expected: [
        { name: 'a', kind: 'variable', span: span(1), typeOnly: false },
        { name: 'b', kind: 'variable', span: span(2), typeOnly: false },
      ],
    },
    {
      title: 'destructuring',
      code: 'export const { a, b: c, ...d } = obj, [e, f = 1] = arr;',
      expected: ['a', 'c', 'd', 'e', 'f'].map((n) => ({ name: n, kind: 'variable' as const, span: span(1), typeOnly: false })),
    },
    { title: 'var', code: 'export var v;', path: 'a.js', expected: [{ name: 'v', kind: 'variable', span: span(1), typeOnly: false }] },
    {
      title: 'type',
      code: 'export type T = {\n  a: string;\n};',
      expected: [{ name: 'T', kind: 'type', span: span(1, 3), typeOnly: true }],
    },
    {
      title: 'interface',
      code: 'export interface I {\n  a: string;\n}',
      expected: [{ name: 'I', kind: 'interface', span: span(1, 3), typeOnly: true }],
    },
    { title: 'enum', code: 'export enum E { A }', expected: [{ name: 'E', kind: 'enum', span: span(1), typeOnly: false }] },
    {
      title: 'namespace',
      code: 'export namespace N {\n  export const x = 1;\n}',
      expected: [{ name: 'N', kind: 'namespace', span: span(1, 3), typeOnly: false }],
    },
    { title: 'module keyword', code: 'export module M {}', expected: [{ name: 'M', kind: 'namespace', span: span(1), typeOnly: false }] },
    {
      title: 'declare',
      code: 'export declare function f(): void;\nexport declare const c: number;',
      expected: [
        { name: 'f', kind: 'function', span: span(1), typeOnly: false },
        { name: 'c', kind: 'variable', span: span(2), typeOnly: false },
      ],
    },
    {
      title: 'default expression',
      code: 'export default {\n  a: 1,\n};',
      expected: [{ name: 'default', kind: 'default', span: span(1, 3), typeOnly: false }],
    },
    {
      title: 'default function',
      code: 'export default function () {}',
      expected: [{ name: 'default', kind: 'default', span: span(1), typeOnly: false }],
    },
    {
      title: 'default class',
      code: 'export default class Page {\n}',
      expected: [{ name: 'default', kind: 'default', span: span(1, 2), typeOnly: false, local: 'Page' }],
    },
    {
      title: 'default interface',
      code: 'export default interface Shape {}',
      expected: [{ name: 'default', kind: 'default', span: span(1), typeOnly: true }],
    },
    {
      title: 'default identifier resolves the local declaration',
      code: 'class Store {\n}\n\nexport default Store;',
      expected: [{ name: 'default', kind: 'default', span: span(1, 2), typeOnly: false, local: 'Store' }],
    },
    {
      title: 'local specifiers resolve their declarations',
      code: 'function a() {\n}\ntype T = string;\nexport { a, a as b, T };\nconst later = 1;\nexport { later, missing };',
      expected: [
        { name: 'a', kind: 'function', span: span(1, 2), typeOnly: false },
        { name: 'b', kind: 'function', span: span(1, 2), typeOnly: false, local: 'a' },
        { name: 'T', kind: 'type', span: span(3), typeOnly: true },
        { name: 'later', kind: 'variable', span: span(5), typeOnly: false },
        { name: 'missing', kind: 'variable', span: span(6), typeOnly: false },
      ],
    },
    {
      title: 'exporting an import is a re-export',
      code: "import { x as y } from './x';\nexport { y };",
      expected: [{ name: 'y', kind: 'reexport', span: span(2), typeOnly: false, from: './x', imported: 'x' }],
    },
    {
      title: 're-exports',
      code: "export { a as b } from './m';\nexport * as ns from './ns';\nexport type { T } from './t';\nexport * from './all';",
      expected: [
        { name: 'b', kind: 'reexport', span: span(1), typeOnly: false, from: './m', imported: 'a' },
        { name: 'ns', kind: 'reexport', span: span(2), typeOnly: false, from: './ns', imported: '*' },
        { name: 'T', kind: 'reexport', span: span(3), typeOnly: true, from: './t', imported: 'T' },
      ],
    },
    {
      title: 'export =',
      code: 'const api = {};\nexport = api;',
      expected: [{ name: 'default', kind: 'cjs', span: span(1), typeOnly: false, local: 'api' }],
    },
    {
      title: 'module.exports object',
      code: 'function parse() {\n}\nmodule.exports = {\n  parse,\n  version: 2,\n};',
      path: 'lib.cjs',
      expected: [
        { name: 'version', kind: 'cjs', span: span(5), typeOnly: false },
        { name: 'parse', kind: 'cjs', span: span(1, 2), typeOnly: false },
      ],
    },
    {
      title: 'module.exports value',
      code: 'module.exports = function () {};',
      path: 'lib.js',
      expected: [{ name: 'default', kind: 'cjs', span: span(1), typeOnly: false }],
    },
    {
      title: 'exports.x and module.exports.y',
      code: 'exports.a = 1;\nmodule.exports.b = () => {};',
      path: 'lib.js',
      expected: [
        { name: 'a', kind: 'cjs', span: span(1), typeOnly: false },
        { name: 'b', kind: 'cjs', span: span(2), typeOnly: false },
      ],
    },
  ];
  for (const { title, code, path, expected } of cases) {
    test(title, () => {
      const facts = parse(code, path);
      assert.equal(facts.failure, undefined);
      assert.deepEqual(facts.exports, expected);
    });
  }
});

describe('lines', () => {
  test('multi-byte characters before a declaration do not shift lines', () => {
    const code = "const emoji = '😀🎉 naïve 日本語テキスト';\n// 中文注释 with 🚀\nexport function after() {\n  return '€';\n}\n";
    const facts = parse(code);
    assert.deepEqual(facts.exports, [{ name: 'after', kind: 'function', span: span(3, 5), typeOnly: false }]);
    assert.equal(facts.lines, 5);
  });

  test('leading comments, blank lines and a BOM', () => {
    const code = '\uFEFF/**\n * Licence 🐉\n */\n\n\nexport const late = 1;';
    assert.deepEqual(parse(code).exports, [{ name: 'late', kind: 'variable', span: span(6), typeOnly: false }]);
  });

  test('shebang', () => {
    const code = '#!/usr/bin/env node\n// tool\nexport const main = 1;\n';
    assert.deepEqual(parse(code, 'bin/tool.mjs').exports, [{ name: 'main', kind: 'variable', span: span(3), typeOnly: false }]);
  });

  test('sequential parses give file-relative lines', () => {
    const first = parse('// 😀😀😀\n\n\n\nexport const one = 1;\n');
    const second = parse('export const two = 2;\n');
    const third = parse('\n\nexport const three = 3;\n', 'b.js');
    assert.deepEqual(first.exports[0]?.span, span(5));
    assert.deepEqual(second.exports[0]?.span, span(1));
    assert.deepEqual(third.exports[0]?.span, span(3));
  });

  test('line counts', () => {
    assert.equal(parse('').lines, 0);
    assert.equal(parse('a;').lines, 1);
    assert.equal(parse('a;\n').lines, 1);
    assert.equal(parse('a;\r\nb;\r\n\r\n').lines, 3);
  });
});

describe('declaration files', () => {
  const typings = [
    '/** The version: a const in a comment, `const x: y`, stays as it is. */',
    "import { Options } from './options';",
    'export const version: string;',
    "export const defaults: Options, label: 'const a: b';",
    'export declare const strict: boolean;',
    'export function parse(text: string, options?: Options): unknown;',
    '',
  ].join('\n');

  test('an ambient `export const x: T;` gives the file its imports and exports (swc alone rejects it)', () => {
    const facts = parse(typings, 'types/index.d.ts');
    assert.equal(facts.failure, undefined);
    assert.deepEqual(facts.imports, [{ specifier: './options', kind: 'static', typeOnly: false, names: [name('Options')], line: 2 }]);
    assert.deepEqual(
      facts.exports.map((fact: ExportFact) => [fact.name, fact.kind, fact.span, fact.typeOnly]),
      [
        ['version', 'variable', span(3), false],
        ['defaults', 'variable', span(4), false],
        ['label', 'variable', span(4), false],
        ['strict', 'variable', span(5), false],
        ['parse', 'function', span(6), false],
      ],
    );
    for (const path of ['types/index.d.mts', 'types/index.d.cts']) assert.equal(parse(typings, path).failure, undefined, path);
  });

  // nodemailer's test/mime-funcs/mime-funcs-test.js: a lone high surrogate's escape before a code point's escape is
  // valid JavaScript that swc 1.16 rejects; the file gave no test and reached nothing.
  test("a high surrogate's escape before a code point's escape gives the file its imports and tests", () => {
    const text = [
      "const mimeFuncs = require('../../lib/mime-funcs');",
      "it('encodes a lone surrogate', () => {",
      "  assert.equal(mimeFuncs.encode('\\ud800\\u{20000}'), 'x');",
      '});',
      '',
    ].join('\n');
    const facts = extractFacts('test/mime-funcs-test.js', text, { assertionHelpers: [] });
    assert.equal(facts.failure, undefined);
    assert.deepEqual(
      facts.imports.map((fact) => [fact.specifier, fact.line]),
      [['../../lib/mime-funcs', 1]],
    );
    assert.deepEqual(
      facts.tests.map((fact) => [fact.titlePath, fact.span.start, fact.assertions]),
      [[['encodes a lone surrogate'], 2, 1]],
    );
    // A surrogate's escape before anything else is left as written: a real syntax error stays one.
    assert.equal(parse("const bad = '\\u{zz}';", 'src/a.js').failure?.code, 'parse/syntax');
  });

  test('outside a declaration file the same text is the syntax error it is', () => {
    assert.deepEqual(parse(typings, 'src/index.ts').failure, {
      code: 'parse/syntax',
      message: "'const' declarations must be initialized",
      line: 3,
      col: 14,
    });
  });
});
