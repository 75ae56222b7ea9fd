import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCoveragePyJson, parseGoCoverProfile } from '../../src/runtime-coverage/coverage-py.js';
import { parseIstanbulCoverage } from '../../src/runtime-coverage/istanbul.js';
import { createLcovParser, parseLcov } from '../../src/runtime-coverage/lcov.js';
import { MAX_PROBLEMS_PER_REPORT } from '../../src/runtime-coverage/problems.js';

test('lcov records of one path are summed, whatever the chunk boundaries', () => {
  const text = 'TN:\nSF:src/cart.js\nDA:1,2\nDA:2,0\nend_of_record\nSF:src/cart.js\nDA:1,3\nend_of_record\n';
  const whole = parseLcov(text);
  const parser = createLcovParser();
  for (const char of text) parser.write(char);
  const chunked = parser.end();
  assert.deepEqual(Object.fromEntries(whole.records.get('src/cart.js') ?? []), { 1: 5, 2: 0 });
  assert.deepEqual(chunked.records, whole.records);
  assert.equal(whole.problems.total, 0);
});

test('lcov problems carry their line, and only the first ones are listed', () => {
  const result = parseLcov(['DA:1,1', 'SF:a.js', 'DA:x,1', 'BOGUS', 'SF:b.js'].join('\n'));
  assert.deepEqual(
    result.problems.listed.map((problem) => problem.line),
    [1, 3, 4, 5, 5],
  );
  const many = parseLcov('BOGUS\n'.repeat(MAX_PROBLEMS_PER_REPORT + 3));
  assert.equal(many.problems.total, MAX_PROBLEMS_PER_REPORT + 3);
  assert.equal(many.problems.listed.length, MAX_PROBLEMS_PER_REPORT);
});

test('istanbul line hits are the highest statement count starting on the line', () => {
  const result = parseIstanbulCoverage({
    '/repo/src/cart.js': {
      path: '/repo/src/cart.js',
      statementMap: { 0: { start: { line: 1 } }, 1: { start: { line: 1 } }, 2: { start: { line: 2 } } },
      s: { 0: 1, 1: 4, 2: 0 },
    },
    broken: { s: {} },
  });
  assert.equal(result.ok, true);
  if (!result.ok) return;
  assert.deepEqual(
    result.files.map((file) => [file.path, Object.fromEntries(file.lines)]),
    [['/repo/src/cart.js', { 1: 4, 2: 0 }]],
  );
  assert.equal(result.problems.total, 1);
  assert.deepEqual(parseIstanbulCoverage([]), { ok: false, message: 'expected an object keyed by file path' });
});

test("coverage.py's JSON report: executed lines hit once, missing lines not at all; a file without line lists is a problem", () => {
  const result = parseCoveragePyJson({
    meta: { version: '7.6.1' },
    files: {
      'shop/pricing.py': { executed_lines: [1, 2, 4], missing_lines: [3], excluded_lines: [] },
      'shop/broken.py': { executed_lines: 'all' },
    },
  });
  assert.equal(result.ok, true);
  if (!result.ok) return;
  assert.deepEqual(
    result.files.map((file) => [file.path, Object.fromEntries(file.lines)]),
    [['shop/pricing.py', { 1: 1, 2: 1, 3: 0, 4: 1 }]],
  );
  assert.deepEqual(result.problems.listed, [
    { message: 'file "shop/broken.py" has no executed_lines/missing_lines lists of line numbers' },
  ]);
  assert.deepEqual(parseCoveragePyJson({ files: {} }), { ok: false, message: 'expected coverage.py JSON {"meta": …, "files": {…}}' });
});

test('a Go cover profile: each block counts on every line it spans, the highest where blocks meet; a bad block is a problem', () => {
  const result = parseGoCoverProfile(
    [
      'mode: count',
      'example.com/shop/orders/orders.go:3.30,5.2 2 4',
      'example.com/shop/orders/orders.go:5.2,7.3 1 0',
      'example.com/shop/orders/orders.go:9.1,9.9 1 1',
      'not a block',
      '',
    ].join('\n'),
  );
  assert.equal(result.ok, true);
  if (!result.ok) return;
  assert.deepEqual(
    result.files.map((file) => [file.path, Object.fromEntries(file.lines)]),
    [['example.com/shop/orders/orders.go', { 3: 4, 4: 4, 5: 4, 6: 0, 7: 0, 9: 1 }]],
  );
  assert.deepEqual(result.problems.listed, [{ message: 'not a cover profile block', line: 5 }]);
  assert.equal(parseGoCoverProfile('SF:a.js\n').ok, false);
});
