import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { extractFacts } from '../../../src/graph/parse/extract-facts.js';
import type { GrammarParsers } from '../../../src/graph/parse/syntax-tree.js';
import type { FileFacts } from '../../../src/model/facts.js';
import { getGrammarParsers } from '../../../src/worker/grammars.js';
import { buildImpactFixture, type ImpactFixture } from '../../helpers/impact-fixtures.js';

let parsers: GrammarParsers | undefined;

before(async () => {
  parsers = await getGrammarParsers(['x.py']);
});

function parse(path: string, text: string): FileFacts {
  return extractFacts(path, text, { assertionHelpers: [] }, parsers, true);
}

const nested = (depth: number): string => `total = ${'('.repeat(depth)}1${' + 1)'.repeat(depth)}\n`;

test('a syntax error is a parse/syntax failure at its line and column and, as for JavaScript, no facts', () => {
  const facts = parse('shop/broken.py', 'import os\n\n\ndef broken(:\n    return 1\n\n\ndef fine():\n    return os.sep\n');
  assert.deepEqual(facts.failure, { code: 'parse/syntax', message: 'invalid syntax: missing ")"', line: 4, col: 12 });
  assert.equal(facts.lines, 9);
  assert.deepEqual([facts.imports, facts.exports, facts.routes, facts.callables, facts.tests], [[], [], [], [], []]);
  assert.deepEqual(parse('shop/model.py', 'class Order\n    pass\n').failure, {
    code: 'parse/syntax',
    message: 'invalid syntax',
    line: 1,
    col: 1,
  });
});

test('the failure names no source text: only the grammar name of a missing token', () => {
  const facts = parse('shop/secret.py', 'TOKEN = "sk-live-1234567890abcdef"\nif TOKEN ==\n');
  assert.equal(facts.failure?.code, 'parse/syntax');
  assert.doesNotMatch(JSON.stringify(facts.failure), /sk-live/);
});

test('an empty file and a file of comments parse without failure and without facts', () => {
  for (const text of ['', '# orders are priced in shop/pricing.py\n# nothing to run here\n', '\n\n\n']) {
    const facts = parse('shop/notes.py', text);
    assert.equal(facts.failure, undefined);
    assert.deepEqual([facts.imports, facts.exports, facts.routes, facts.callables, facts.tests], [[], [], [], [], []]);
  }
  assert.equal(parse('shop/notes.py', '# one\n# two\n').lines, 2);
});

test('an expression nested 1,000 deep parses; one nested 20,000 deep is a parse/too-deep failure, not a crash', () => {
  const deep = parse('shop/deep.py', nested(1000));
  assert.equal(deep.failure, undefined);
  assert.deepEqual(
    deep.exports.map((fact) => fact.name),
    ['total'],
  );
  assert.deepEqual(parse('shop/deeper.py', nested(20000)).failure, { code: 'parse/too-deep', message: 'syntax tree too deep to walk' });
});

describe('through the parse child, on a repository', () => {
  let fixture: ImpactFixture;
  before(async () => {
    fixture = await buildImpactFixture({
      'pyproject.toml': '[project]\nname = "shop"\n',
      'shop/__init__.py': '',
      'shop/broken.py': 'from shop.pricing import price\n\n\ndef total(items:\n    return sum(price(item) for item in items)\n',
      'shop/pricing.py': 'def price(item):\n    return item * 2\n',
      'shop/empty.py': '',
      'shop/notes.py': '# prices are in cents\n',
      'shop/deep.py': nested(1000),
    });
  });
  after(() => fixture.repo.cleanup());

  test('only the file with the syntax error is a parse failure, and the graph builds around it', () => {
    assert.deepEqual(
      fixture.built.kg.parseFailures.map(({ path, failure }) => [path, failure.code, failure.line]),
      [['shop/broken.py', 'parse/syntax', 4]],
    );
    assert.deepEqual(fixture.built.resolutions.get('shop/broken.py') ?? [], []);
    assert.deepEqual(
      fixture.built.limitations.filter((item) => item.code.startsWith('parse/')).map((item) => [item.code, item.location]),
      [['parse/syntax', { file: 'shop/broken.py', line: 4, col: 1 }]],
    );
  });
});
