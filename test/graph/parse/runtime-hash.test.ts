import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractFacts } from '../../../src/graph/parse/extract-facts.js';

const hashOf = (text: string, path = 'src/cart.ts'): string | undefined => extractFacts(path, text, { assertionHelpers: [] }).runtimeHash;

describe('runtimeHash: what a file runs, without its type syntax', () => {
  const plain = [
    "import { load } from './load.js';",
    'export function names(id) {',
    "  const rows = load(id, 'é: ü');",
    '  return rows.map((row) => row.name);',
    '}',
    '',
  ].join('\n');
  const typed = [
    "import { load } from './load.js';",
    "import type { Row } from './row.js';",
    'export interface Named { name: string }',
    'export function names<T extends Named>(id: string): string[] {',
    "  const rows = load<Row>(id, 'é: ü');",
    '  return rows.map((row: Row): string => row.name);',
    '}',
    '',
  ].join('\n');

  test('annotations, type arguments and parameters, type imports and interfaces do not change it', () => {
    assert.equal(hashOf(typed), hashOf(plain));
  });

  test('type assertions do not change it: `as T`, `satisfies T`, `!`, `as const`, `<T>x` (hono: `[func.call(null, props) as Child]`)', () => {
    const call = '  return [load(id)];';
    const base = ['export function rows(id) {', call, '}', ''].join('\n');
    for (const cast of [
      '[load(id) as Row[]]',
      '[load(id) satisfies unknown]',
      '[load(id)!]',
      '[load(id) as const]',
      '[<Row[]>load(id)]',
      '[(load(id) as unknown as Row)]',
    ])
      assert.equal(
        hashOf(base.replace('[load(id)]', cast)),
        hashOf(base.replace('[load(id)]', cast.startsWith('[(') ? '[(load(id))]' : '[load(id)]')),
        cast,
      );
    // What it asserts runs, as before: another expression under the same cast is a runtime change.
    assert.notEqual(hashOf(base.replace('[load(id)]', '[load(id, 1) as Row[]]')), hashOf(base));
  });

  test('a runtime change does: an argument, a string (also beside non-ASCII text), an operator', () => {
    assert.notEqual(hashOf(typed.replace("load<Row>(id, 'é: ü')", "load<Row>(id, 'é: ü', true)")), hashOf(typed));
    assert.notEqual(hashOf(typed.replace("'é: ü'", "'é: u'")), hashOf(typed));
    assert.notEqual(hashOf(typed.replace('rows.map', 'rows.flatMap')), hashOf(typed));
  });
});

describe('type lines of a class (yup: overloads above a method, a declare field, a default-exported interface)', () => {
  const base = ['export default abstract class Schema {', '  oneOf(enums: unknown[]) {', '    return enums.length;', '  }', '}', ''].join(
    '\n',
  );
  const head = [
    'export default abstract class Schema {',
    '  declare spec: { types?: unknown };',
    '  oneOf<U>(enums: readonly U[]): this;',
    '  oneOf(enums: unknown[], message: string): any;',
    '  oneOf(enums: unknown[]) {',
    '    return enums.length;',
    '  }',
    '  abstract cast(value: unknown): unknown;',
    '  [key: string]: unknown;',
    '}',
    '',
  ].join('\n');

  test('overload signatures, abstract methods, declare fields and index signatures run nothing', () => {
    assert.equal(hashOf(head), hashOf(base));
    const spans = extractFacts('src/schema.ts', head, { assertionHelpers: [] }).typeSpans ?? [];
    for (const line of [2, 3, 4, 8, 9])
      assert.ok(
        spans.some((span) => span.start <= line && line <= span.end),
        `line ${line}`,
      );
    assert.ok(!spans.some((span) => span.start <= 6 && 6 <= span.end), 'the method body runs');
  });

  test('a method given a body, or a field without declare, does run', () => {
    assert.notEqual(
      hashOf(head.replace('  abstract cast(value: unknown): unknown;', '  cast(value: unknown) { return value; }')),
      hashOf(head),
    );
    assert.notEqual(hashOf(head.replace('  declare spec:', '  spec:')), hashOf(head));
  });

  test('an interface exported as the default is a type span', () => {
    const text = 'export default class S {}\nexport default interface S {\n  run(): void;\n}\n';
    const spans = extractFacts('src/s.ts', text, { assertionHelpers: [] }).typeSpans ?? [];
    assert.ok(
      spans.some((span) => span.start === 2 && span.end === 4),
      JSON.stringify(spans),
    );
  });
});
