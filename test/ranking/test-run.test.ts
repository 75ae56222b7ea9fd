import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planTestRun, type TestToRun } from '../../src/ranking/test-run.js';
import { quoteShellWord } from '../../src/text/shell-quote.js';

const at = (path: string, distance: number, runner: TestToRun['runner'] = 'vitest', cwd = ''): TestToRun => ({
  path,
  distance,
  runner,
  cwd,
});

test('reaching tests: the changed ones first, then by distance, one command per runner and folder', () => {
  const run = planTestRun({
    tests: [at('src/b.test.ts', 2), at('src/a.test.ts', 1), at('src/changed.test.ts', 0), at('src/a.test.ts', 3)],
    hasRuntimeChange: true,
    packageManager: 'npm',
  });
  assert.equal(run.scope, 'reaching');
  assert.deepEqual(run.commands, [
    {
      cwd: '',
      runner: 'vitest',
      command: 'npx vitest run src/changed.test.ts src/a.test.ts src/b.test.ts',
      files: ['src/changed.test.ts', 'src/a.test.ts', 'src/b.test.ts'],
    },
  ]);
  assert.equal(run.omitted, 0);
});

test('each runner gets its own command line, run from the folder that declares it', () => {
  const run = planTestRun({
    tests: [
      at('packages/api/test/orders.test.js', 1, 'jest', 'packages/api'),
      at('test/cli.test.ts', 1, 'node'),
      { ...at('test/cli-ts.test.ts', 2, 'node'), viaTsx: true },
      at('e2e/login.spec.ts', 2, 'playwright'),
      at('test/util.js', 2, 'mocha'),
      at('test/ava.js', 2, 'ava'),
      at('cypress/e2e/home.cy.ts', 3, 'cypress'),
    ],
    hasRuntimeChange: true,
    packageManager: 'pnpm',
  });
  assert.deepEqual(
    run.commands.map((command) => [command.cwd, command.command]),
    [
      ['packages/api', 'npx jest --runTestsByPath test/orders.test.js'],
      ['', 'node --test test/cli.test.ts'],
      ['', 'npx playwright test e2e/login.spec.ts'],
      ['', 'npx ava test/ava.js'],
      ['', 'node --import tsx --test test/cli-ts.test.ts'],
      ['', 'npx mocha test/util.js'],
      ['', 'npx cypress run --spec cypress/e2e/home.cy.ts'],
    ],
  );
});

test('a hostile file name stays one quoted argument', () => {
  assert.equal(quoteShellWord('src/a.test.ts'), 'src/a.test.ts');
  assert.equal(quoteShellWord("test/$(touch pwned) it's.test.js"), `'test/$(touch pwned) it'\\''s.test.js'`);
  assert.equal(quoteShellWord('--config=evil.js'), `'--config=evil.js'`);
  const run = planTestRun({ tests: [at('test/a;rm -rf ~.test.ts', 1)], hasRuntimeChange: true, packageManager: 'npm' });
  assert.equal(run.commands[0]?.command, "npx vitest run 'test/a;rm -rf ~.test.ts'");
});

test('the cap keeps the nearest files and counts the rest', () => {
  const tests = Array.from({ length: 25 }, (_, index) => at(`t/${String(index).padStart(2, '0')}.test.ts`, index < 5 ? 1 : 2));
  const run = planTestRun({ tests, hasRuntimeChange: true, packageManager: 'npm', maxFiles: 20 });
  assert.equal(run.commands[0]?.files.length, 20);
  assert.equal(run.omitted, 5);
  assert.match(run.reason, /5 more left out \(the cap is 20\)/);
});

test('the whole suite: a manifest change, nothing reaching, or no runner detected; none without runtime code', () => {
  assert.deepEqual(
    planTestRun({ tests: [at('a.test.ts', 1)], fullSuiteReason: 'package.json changed', hasRuntimeChange: true, packageManager: 'yarn' }),
    {
      scope: 'full-suite',
      reason: 'package.json changed',
      commands: [{ cwd: '', runner: 'script', command: 'yarn test', files: [] }],
      omitted: 0,
    },
  );
  const nothing = planTestRun({ tests: [], hasRuntimeChange: true, packageManager: 'bun' });
  assert.equal(nothing.scope, 'full-suite');
  assert.equal(nothing.commands[0]?.command, 'bun run test');
  assert.match(nothing.reason, /no test file reaches/);
  const unknown = planTestRun({ tests: [{ ...at('a.test.js', 1), runner: undefined }], hasRuntimeChange: true, packageManager: 'npm' });
  assert.deepEqual([unknown.scope, unknown.commands[0]?.command], ['full-suite', 'npm test']);
  assert.deepEqual(planTestRun({ tests: [], hasRuntimeChange: false, packageManager: 'npm' }).scope, 'none');
});

test('runtime tests no detected runner runs, beside a type check only: the whole suite runs too (pino-pretty on tap)', () => {
  const run = planTestRun({
    tests: [
      { path: 'test/basic.test.js', distance: 1, runner: undefined, cwd: '' },
      { path: 'test/types/pretty.test-d.ts', distance: 1, runner: 'tsd', cwd: '', typeTest: true },
    ],
    hasRuntimeChange: true,
    packageManager: 'npm',
  });
  assert.deepEqual(
    run.commands.map((command) => command.command),
    ['npx tsd', 'npm test'],
  );
  assert.match(run.reason, /1 with no detected runner, run by the whole suite/);
  // A detected runtime runner beside it keeps the list as it is.
  const runs = planTestRun({
    tests: [
      { path: 'test/a.test.ts', distance: 1, runner: 'vitest', cwd: '' },
      { path: 'test/b.js', distance: 1, runner: undefined, cwd: '' },
    ],
    hasRuntimeChange: true,
    packageManager: 'npm',
  });
  assert.deepEqual(
    runs.commands.map((command) => command.runner),
    ['vitest'],
  );
});

test('go: the reaching test functions by name, and the packages whole once the names pass a screenful (issue 41: gin)', () => {
  const named = (path: string, prefix: string, count: number): TestToRun => ({
    ...at(path, 1, 'go'),
    testNames: Array.from({ length: count }, (_, index) => `Test${prefix}${index}`),
  });
  const commands = (orders: number, items: number): string[] =>
    planTestRun({
      tests: [named('orders_test.go', 'Order', orders), named('api/items_test.go', 'Item', items)],
      hasRuntimeChange: true,
      packageManager: 'go',
    }).commands.map((command) => command.command);
  assert.deepEqual(commands(2, 1), ["go test ./api . -run '^(TestItem0|TestOrder0|TestOrder1)$'"]);
  // Forty names, the cap, are still named one by one; one more runs the packages whole.
  const [atCap = ''] = commands(30, 10);
  assert.match(atCap, /^go test \.\/api \. -run '\^\(TestItem0\|/);
  assert.equal(atCap.split('|').length, 40);
  assert.deepEqual(commands(30, 11), ['go test ./api .']);
});

test('go: a command that runs every test file of its packages needs no -run (chi: 39 names, the whole middleware package)', () => {
  const named = (path: string, names: string[], packageTests: string[]): TestToRun => ({
    ...at(path, 1, 'go'),
    testNames: names,
    packageTests,
  });
  const middleware = ['middleware/compress_test.go', 'middleware/logger_test.go'];
  const plan = (tests: TestToRun[]): string[] =>
    planTestRun({ tests, hasRuntimeChange: true, packageManager: 'go' }).commands.map((command) => command.command);
  assert.deepEqual(
    plan([
      named('middleware/compress_test.go', ['TestCompressor'], middleware),
      named('middleware/logger_test.go', ['TestLogger'], middleware),
    ]),
    ['go test ./middleware'],
  );
  // One test file of the package left out: its tests must not run, so the names stay.
  assert.deepEqual(plan([named('middleware/compress_test.go', ['TestCompressor'], middleware)]), [
    "go test ./middleware -run '^(TestCompressor)$'",
  ]);
  // A second package only partly run keeps the names for both.
  assert.deepEqual(
    plan([
      named('middleware/compress_test.go', ['TestCompressor'], middleware),
      named('middleware/logger_test.go', ['TestLogger'], middleware),
      named('mux_test.go', ['TestMux'], ['mux_test.go', 'tree_test.go']),
    ]),
    ["go test ./middleware . -run '^(TestCompressor|TestLogger|TestMux)$'"],
  );
});

// Check 75 (aio-libs/yarl): tests/test_url_benchmarks.py named the parser as often as test_url.py and ran third.
test('a benchmark runs after the tests of behaviour, however closely it names the change, unless the change edits it', () => {
  const named = (path: string, distance: number, relevance: number): TestToRun => ({ ...at(path, distance, 'pytest'), relevance });
  const plan = (benchmark: TestToRun) =>
    planTestRun({
      tests: [named('tests/test_url.py', 2, 3), benchmark, named('tests/test_cache.py', 2, 0)],
      hasRuntimeChange: true,
      packageManager: 'pytest',
    });
  const run = plan(named('tests/test_url_benchmarks.py', 2, 9));
  assert.deepEqual(run.commands[0]?.files, ['tests/test_url.py', 'tests/test_cache.py', 'tests/test_url_benchmarks.py']);
  assert.match(run.reason, /by import distance, benchmarks last/);
  const edited = plan(named('tests/test_url_benchmarks.py', 0, 9));
  assert.deepEqual(edited.commands[0]?.files, ['tests/test_url_benchmarks.py', 'tests/test_url.py', 'tests/test_cache.py']);
  assert.doesNotMatch(edited.reason, /benchmarks last/);
});
