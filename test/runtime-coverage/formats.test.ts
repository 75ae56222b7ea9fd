import assert from 'node:assert/strict';
import { test } from 'node:test';
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
