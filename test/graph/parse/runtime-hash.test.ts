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

  test('a runtime change does: an argument, a string (also beside non-ASCII text), an operator', () => {
    assert.notEqual(hashOf(typed.replace("load<Row>(id, 'é: ü')", "load<Row>(id, 'é: ü', true)")), hashOf(typed));
    assert.notEqual(hashOf(typed.replace("'é: ü'", "'é: u'")), hashOf(typed));
    assert.notEqual(hashOf(typed.replace('rows.map', 'rows.flatMap')), hashOf(typed));
  });
});
