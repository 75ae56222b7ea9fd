import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';
import { runCli } from '../helpers/cli.js';

/** Issue 41, item 2: the tests to run as a plain list, for piping into a runner. */
const BASE = {
  'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', devDependencies: { vitest: '^2.0.0' } }),
  'src/price.ts': 'export function price(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n',
  'src/cart.ts':
    "import { price } from './price';\nexport const total = (items: number[]): string => price(items.reduce((a, b) => a + b, 0));\n",
  'src/price.test.ts':
    "import { it, expect } from 'vitest';\nimport { price } from './price';\nit('formats', () => expect(price(100)).toBe('1.00'));\n",
  'src/cart.test.ts':
    "import { it, expect } from 'vitest';\nimport { total } from './cart';\nit('adds', () => expect(total([100])).toBe('1.00'));\n",
};

describe('checker audit-tests --tests-only', () => {
  let fixture: ChangeFixture;
  let manifest: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, { 'src/price.ts': BASE['src/price.ts'].replace('toFixed(2)', 'toFixed(3)') });
    manifest = createChangeFixture(BASE, {
      'package.json': JSON.stringify({ name: 'shop', version: '1.0.1', devDependencies: { vitest: '^2.1.0' } }),
    });
  });
  after(() => {
    fixture.repo.cleanup();
    manifest.repo.cleanup();
  });

  test('prints the reaching test files, one per line, the one that names the change first', () => {
    const result = runCli(['audit-tests', '--cwd', fixture.repo.dir, '--base', fixture.base, '--tests-only']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'src/price.test.ts\nsrc/cart.test.ts\n');
  });

  test('prints nothing when the whole suite should run, and says why on stderr', () => {
    const result = runCli(['audit-tests', '--cwd', manifest.repo.dir, '--base', manifest.base, '--tests-only']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /checker: no test list: .*package\.json/);
  });

  test('refuses --format beside it, naming both flags, and prints nothing', () => {
    const result = runCli(['audit-tests', '--cwd', fixture.repo.dir, '--base', fixture.base, '--tests-only', '--format', 'json']);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /--tests-only prints a plain list of test files: it takes no --format/);
  });
});
