import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import { analyzeFixture, createChangeFixture, type ChangeFixture } from '../helpers/analysis-fixtures.js';

const digits = (pattern: string): string => `export function isDigits(input: string): boolean {\n  return ${pattern}.test(input);\n}\n`;

/** Issue 41: a local function named `test` and a listener that only fails, each read as a weak test before. */
const DIGITS_TEST = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { isDigits } from '../src/digits.ts';
import { check } from './helpers/check-digits.ts';

describe('digits', () => {
  function test(input: string, expected: boolean): void {
    assert.equal(isDigits(input), expected);
  }
  it('accepts digits only', () => {
    test('123', true);
    test('12a', false);
  });
  it('reads digits from a stream', async (t) => {
    const stream = Readable.from(['1', '2']);
    stream.once('error', () => t.assert.fail());
    stream.on('error', (error) => {
      throw error;
    });
    const chunks = await stream.toArray();
    assert.deepEqual(chunks.filter((chunk) => isDigits(chunk)), ['1', '2']);
  });
  it('emits digits', () => {
    const emitter = new EventEmitter();
    emitter.on('digit', (value) => assert.equal(isDigits(value), true));
    emitter.emit('digit', '7');
  });
  it('checks through the helper', () => {
    assert.equal(check('42'), true);
  });
});
`;

const HELPER = `import { isDigits } from '../../src/digits.ts';

const test = (input: string): boolean => isDigits(input);

export function check(input: string): boolean {
  return test(input);
}

export const SAMPLE = test('0');
`;

describe('weak tests misread (issue 41): a local `test` function, a listener that only fails', () => {
  let fixture: ChangeFixture;
  let analysis: ChangeAnalysis;
  before(async () => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'digits', type: 'module', scripts: { test: 'node --test' } }),
        'src/digits.ts': digits('/^\\d+$/'),
        'test/digits.test.ts': DIGITS_TEST,
        'test/helpers/check-digits.ts': HELPER,
      },
      { 'src/digits.ts': digits('/^[0-9]+$/') },
    );
    analysis = await analyzeFixture(fixture);
  });
  after(() => fixture.repo.cleanup());

  test('only the listener that asserts a value is a weak test, told to await it', () => {
    assert.deepEqual(
      analysis.weakTests.map((weak) => [weak.id, weak.kinds, weak.repairTask]),
      [
        [
          'test:test/digits.test.ts#digits > emits digits',
          ['weak-test/unawaited-assertions'],
          'await (or return) the promise whose callback asserts in "digits > emits digits" in test/digits.test.ts',
        ],
      ],
    );
  });
});
