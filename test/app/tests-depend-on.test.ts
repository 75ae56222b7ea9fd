import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { analyzeFixture, type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';
import { runCli } from '../helpers/cli.js';

/**
 * Issue 41, item 2: `tests.dependsOn` declares what the import graph cannot see. The CLI test spawns bin/cli.js and
 * reads fixtures/orders.json; neither is imported. The spawned CLI is found by its path in the test (spawned-files.ts);
 * without the declaration a change to the fixture reaches no test.
 */
const BASE = {
  'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', devDependencies: { vitest: '^2.0.0' } }),
  'bin/cli.js': "console.log('orders');\n",
  'fixtures/orders.json': '[{"id": 1}]\n',
  'src/price.ts': 'export const price = (cents: number): string => (cents / 100).toFixed(2);\n',
  'test/cli.test.ts':
    "import { it, expect } from 'vitest';\nimport { execFileSync } from 'node:child_process';\nit('prints', () => expect(execFileSync('node', ['bin/cli.js'], { encoding: 'utf8' })).toBe('orders\\n'));\n",
  'test/price.test.ts':
    "import { it, expect } from 'vitest';\nimport { price } from '../src/price';\nit('formats', () => expect(price(100)).toBe('1.00'));\n",
  '.env.test': 'PORT=3000\n',
};
const CONFIG = ['tests:', '  dependsOn:', "    - files: ['bin/**', 'fixtures/**', '.env*']", "      tests: ['test/cli.test.ts']", ''].join(
  '\n',
);

describe('tests.dependsOn: tests of what imports cannot show', () => {
  let declared: ChangeFixture;
  let undeclared: ChangeFixture;
  const change = { 'bin/cli.js': "console.log('all orders');\n", 'fixtures/orders.json': '[{"id": 2}]\n', '.env.test': 'PORT=3001\n' };
  before(() => {
    declared = createChangeFixture({ ...BASE, '.checker/config.yml': CONFIG }, change);
    undeclared = createChangeFixture(BASE, change);
  });
  after(() => {
    declared.repo.cleanup();
    undeclared.repo.cleanup();
  });

  test('a change to a declared file runs the tests declared for it, not the whole suite', async () => {
    const analysis = await analyzeFixture(declared);
    assert.equal(analysis.testRun.scope, 'reaching', analysis.testRun.reason);
    assert.deepEqual(
      analysis.testRun.commands.map((command) => command.command),
      ['npx vitest run test/cli.test.ts'],
    );
    const proof = analysis.changedPathProof.find((entry) => entry.path === 'bin/cli.js');
    assert.deepEqual(proof?.reachingTests, ['test/cli.test.ts']);
  });

  test('without the declaration the spawned CLI is still found by its path in the test, and nothing else is', async () => {
    const analysis = await analyzeFixture(undeclared);
    // .env.test is configuration: the whole suite, as before.
    assert.equal(analysis.testRun.scope, 'full-suite');
    assert.deepEqual(analysis.changedPathProof.find((entry) => entry.path === 'bin/cli.js')?.reachingTests, ['test/cli.test.ts']);
    // The fixture alone: only the declaration can say which test reads it.
    const fixtureOnly = createChangeFixture(BASE, { 'fixtures/orders.json': '[{"id": 2}]\n' });
    try {
      const run = (await analyzeFixture(fixtureOnly)).testRun;
      assert.deepEqual(
        [run.scope, run.reason],
        ['full-suite', 'fixtures/orders.json changed (data no code imports): any test may read it; tests.dependsOn can say which'],
      );
    } finally {
      fixtureOnly.repo.cleanup();
    }
  });

  test('a declaration without tests is refused, naming the field', () => {
    const broken = createChangeFixture({ ...BASE, '.checker/config.yml': "tests:\n  dependsOn:\n    - files: ['bin/**']\n" }, change);
    try {
      const result = runCli(['audit-tests', '--cwd', broken.repo.dir, '--base', broken.base, '--format', 'json']);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /tests\.dependsOn\[0\]\.tests/);
    } finally {
      broken.repo.cleanup();
    }
  });
});
