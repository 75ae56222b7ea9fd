import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FileFacts } from '../../../src/model/facts.js';
import { extractFacts } from '../../../src/graph/parse/extract-facts.js';
import { getGrammarParsers } from '../../../src/worker/grammars.js';

const parsers = await getGrammarParsers(['x.go']);

const factsOf = (path: string, lines: string[]): FileFacts => extractFacts(path, lines.join('\n'), { assertionHelpers: [] }, parsers, true);

describe('Go imports and exports', () => {
  const facts = factsOf('internal/orders/service.go', [
    'package orders',
    '',
    'import (',
    '\t"fmt"',
    '\tchi "github.com/go-chi/chi/v5"',
    '\t"github.com/jackc/pgx/v5"',
    '\t_ "github.com/lib/pq"',
    '\t. "example.com/shop/internal/money"',
    '\tyaml "gopkg.in/yaml.v3"',
    ')',
    '',
    'const DefaultLimit = 50',
    'const basePath = "/orders"',
    '',
    'var (',
    '\tErrNotFound = fmt.Errorf("order not found")',
    '\tcache       map[string]Order',
    ')',
    '',
    'type Order struct {',
    '\tID string',
    '}',
    '',
    'type Store interface {',
    '\tList() []Order',
    '}',
    '',
    'type ID = string',
    '',
    'type service struct{ db *pgx.Conn }',
    '',
    'func New(db *pgx.Conn) *service { return &service{db: db} }',
    '',
    'func (s *service) List() []Order { return nil }',
    '',
    'func (s service) reload() {}',
    '',
    'func init() {}',
  ]);

  test('every import spec binds its alias or last path segment, and the file imports its own package', () => {
    const local = (specifier: string, name: string, line: number) => ({
      specifier,
      kind: 'static',
      typeOnly: false,
      names: [{ imported: '*', local: name, typeOnly: false }],
      line,
    });
    assert.deepEqual(facts.imports, [
      local('fmt', 'fmt', 4),
      local('github.com/go-chi/chi/v5', 'chi', 5),
      local('github.com/jackc/pgx/v5', 'pgx', 6),
      local('github.com/lib/pq', '_', 7),
      local('example.com/shop/internal/money', '.', 8),
      local('gopkg.in/yaml.v3', 'yaml', 9),
      local('.', '.', 1),
    ]);
  });

  test('upper-case top-level names are exported; methods as Type.Method; init and lower-case names are not', () => {
    assert.deepEqual(
      facts.exports.map((fact) => `${fact.kind} ${fact.name} ${fact.span.start}-${fact.span.end}`),
      [
        'variable DefaultLimit 12-12',
        'variable ErrNotFound 16-16',
        'class Order 20-22',
        'interface Store 24-26',
        'type ID 28-28',
        'function New 32-32',
        'function service.List 34-34',
      ],
    );
  });

  test('string constants are kept for route paths', () => {
    assert.deepEqual(facts.constants, [{ name: 'basePath', parts: [{ text: '/orders' }] }]);
  });

  test('an external test package does not import its own package implicitly', () => {
    const external = factsOf('internal/orders/service_test.go', ['package orders_test', '', 'import "example.com/shop/internal/orders"']);
    assert.deepEqual(
      external.imports.map((fact) => `${fact.specifier} ${fact.names[0]?.local}`),
      ['example.com/shop/internal/orders orders'],
    );
  });
});
