import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AgentBundle } from '../../src/model/bundle.js';
import type { AuditTestsReport } from '../../src/model/reports.js';
import { analyzeFixture, createChangeFixture, runJsonReport, sorted, type ChangeFixture } from '../helpers/analysis-fixtures.js';

/**
 * Issue 41, item 2: the tests to run as the commands of the detected runner. A workspace: the root runs vitest for the
 * web package; packages/cli has its own node:test tests through tsx; packages/api declares jest for itself.
 */
const BASE = {
  'package.json': JSON.stringify({ name: 'shop', private: true, workspaces: ['packages/*'], devDependencies: { vitest: '^2.0.0' } }),
  'package-lock.json': '{"lockfileVersion": 3}\n',
  'packages/web/package.json': JSON.stringify({ name: '@shop/web', version: '1.0.0' }),
  'packages/web/src/price.ts': 'export function price(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n',
  'packages/web/src/cart.ts':
    "import { price } from './price';\nexport const total = (items: number[]): string => price(items.reduce((a, b) => a + b, 0));\n",
  'packages/web/src/price.test.ts':
    "import { it, expect } from 'vitest';\nimport { price } from './price';\nit('formats', () => expect(price(100)).toBe('1.00'));\n",
  'packages/web/src/cart.test.ts':
    "import { it, expect } from 'vitest';\nimport { total } from './cart';\nit('adds', () => expect(total([100])).toBe('1.00'));\n",
  'packages/cli/package.json': JSON.stringify({ name: '@shop/cli', version: '1.0.0', devDependencies: { tsx: '^4.0.0' } }),
  'packages/cli/src/args.ts': 'export function parse(argv: string[]): string[] {\n  return argv.slice(2);\n}\n',
  'packages/cli/test/args.test.ts':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { parse } from '../src/args';\ntest('parses', () => assert.deepEqual(parse(['a', 'b', 'c']), ['c']));\n",
  'packages/api/package.json': JSON.stringify({ name: '@shop/api', version: '1.0.0', devDependencies: { jest: '^29.0.0' } }),
  'packages/api/src/orders.js': 'exports.list = () => [];\n',
  'packages/api/test/orders.test.js': "const { list } = require('../src/orders');\ntest('lists', () => expect(list()).toEqual([]));\n",
  'README.md': '# shop\n',
};

describe('the tests to run, as commands of their runners', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, {
      'packages/web/src/price.ts': 'export function price(cents: number): string {\n  return `$${(cents / 100).toFixed(2)}`;\n}\n',
      'packages/cli/src/args.ts': 'export function parse(argv: string[]): string[] {\n  return argv.slice(2).filter(Boolean);\n}\n',
      'packages/api/src/orders.js': 'exports.list = () => [{ id: 1 }];\n',
    });
  });
  after(() => fixture.repo.cleanup());

  test('the tests that name the change first, each runner from where it runs, in the bundle, the prompt and audit-tests', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.equal(bundle.evidence.testRun.scope, 'reaching');
    assert.deepEqual(
      bundle.evidence.testRun.commands.map((command) => [command.cwd, command.command]),
      // price.test.ts names price.ts in its path, its code and against the one other test that reaches price.ts; the
      // other two are each their package's test of their file (test/ mirrors src/), args.test.ts calling parse by name.
      [
        ['', 'npx vitest run packages/web/src/price.test.ts packages/web/src/cart.test.ts'],
        ['', 'node --import tsx --test packages/cli/test/args.test.ts'],
        ['packages/api', 'npx jest --runTestsByPath test/orders.test.js'],
      ],
    );
    assert.ok(
      bundle.prompt.includes(
        [
          'npx vitest run packages/web/src/price.test.ts packages/web/src/cart.test.ts',
          'node --import tsx --test packages/cli/test/args.test.ts',
          'cd packages/api && npx jest --runTestsByPath test/orders.test.js',
        ].join('\n'),
      ),
      bundle.prompt,
    );
    const { report: audit } = await runJsonReport<AuditTestsReport>(fixture, ['audit-tests'], 'audit-tests-report');
    assert.deepEqual(audit.recommendedChecks.testRun, bundle.evidence.testRun);
  });
});

describe('the whole suite when everything may change, or nothing reaches the change', () => {
  let manifest: ChangeFixture;
  let unreached: ChangeFixture;
  before(() => {
    manifest = createChangeFixture(BASE, {
      'package.json': JSON.stringify({ name: 'shop', private: true, workspaces: ['packages/*'], devDependencies: { vitest: '^2.1.0' } }),
      'packages/web/src/price.ts': 'export function price(cents: number): string {\n  return (cents / 100).toFixed(3);\n}\n',
    });
    unreached = createChangeFixture(
      { ...BASE, 'packages/web/src/lonely.ts': 'export const lonely = 1;\n' },
      { 'packages/web/src/lonely.ts': 'export const lonely = 2;\n' },
    );
  });
  after(() => {
    manifest.repo.cleanup();
    unreached.repo.cleanup();
  });

  test('a manifest change runs the whole suite, and says which file', async () => {
    const { testRun } = await analyzeFixture(manifest);
    assert.deepEqual(testRun, {
      scope: 'full-suite',
      reason: 'package.json changed (manifest): it can change how every test builds or runs',
      commands: [{ cwd: '', runner: 'script', command: 'npm test', files: [] }],
      omitted: 0,
    });
  });

  test('a CI workflow, a linter setting or .gitignore changed beside the code does not ask for the whole suite', async () => {
    const workflow = createChangeFixture(
      { ...BASE, '.github/workflows/test.yml': 'on: push\njobs: {}\n', '.eslintrc.yml': 'root: true\n', '.gitignore': 'dist\n' },
      {
        '.github/workflows/test.yml': 'on: [push, pull_request]\njobs: {}\n',
        '.eslintrc.yml': 'root: true\nrules: {}\n',
        '.gitignore': 'dist\ncoverage\n',
        'packages/api/src/orders.js': 'exports.list = () => [{ id: 2 }];\n',
      },
    );
    try {
      const { testRun } = await analyzeFixture(workflow);
      assert.deepEqual(
        [testRun.scope, testRun.commands.map((command) => command.command)],
        ['reaching', ['npx jest --runTestsByPath test/orders.test.js']],
      );
    } finally {
      workflow.repo.cleanup();
    }
  });

  test('a change no test reaches runs the whole suite; a README change runs nothing', async () => {
    const { testRun } = await analyzeFixture(unreached);
    assert.deepEqual([testRun.scope, testRun.commands.map((command) => command.command)], ['full-suite', ['npm test']]);
    const docs = createChangeFixture(BASE, { 'README.md': '# shop\n\nMore.\n' });
    try {
      const analysis = await analyzeFixture(docs);
      assert.deepEqual([analysis.testRun.scope, analysis.testRun.commands], ['none', []]);
    } finally {
      docs.repo.cleanup();
    }
  });
});

// Check 86 (healthchecks): a Django form and its template changed, no test reaching them, and the whole suite was
// `npm test` in a repository with no package.json.
describe("the whole suite in the project's own language", () => {
  test('a Python change beside a template runs pytest; a template alone in a Python project too', async () => {
    const base = {
      'manage.py': 'import sys\n',
      'shop/forms.py': 'class AddForm:\n    fields = ["url"]\n',
      'shop/templates/add.html': '<form></form>\n',
      'shop/tests/test_views.py': 'def test_nothing():\n    assert True\n',
    };
    const both = createChangeFixture(base, {
      'shop/forms.py': 'class AddForm:\n    fields = ["url", "priority"]\n',
      'shop/templates/add.html': '<form method="post"></form>\n',
    });
    const template = createChangeFixture(base, { 'shop/templates/add.html': '<form method="post"></form>\n' });
    try {
      const commands = async (fixture: ChangeFixture) => (await analyzeFixture(fixture)).testRun.commands.map((command) => command.command);
      assert.deepEqual(await commands(both), ['python -m pytest']);
      assert.deepEqual(await commands(template), ['python -m pytest']);
    } finally {
      both.repo.cleanup();
      template.repo.cleanup();
    }
  });

  // Check 149 (bottle): test/__init__.py imports the module every test imports and declares no test; pytest does not
  // collect it, and it took one of the twenty places of the command.
  test('a Python file of the test folder that pytest does not collect is no test to run; a test module is', async () => {
    const fixture = createChangeFixture(
      {
        'pytest.ini': '[pytest]\n',
        'bottle.py': 'def route(path):\n    return path\n',
        'test/__init__.py': 'import bottle\n\nbottle.DEBUG = True\n',
        'test/helpers.py': 'import bottle\n\n\ndef make():\n    return bottle.route("/")\n',
        'test/test_route.py': 'import bottle\n\n\ndef test_route():\n    assert bottle.route("/a") == "/a"\n',
      },
      { 'bottle.py': 'def route(path):\n    if not path:\n        return "/"\n    return path\n' },
    );
    try {
      const { testRun } = await analyzeFixture(fixture);
      assert.deepEqual(
        testRun.commands.map((command) => command.command),
        ['python -m pytest test/test_route.py'],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

// Check 92 (uptime-kuma): a translation, src/lang/en.json, changed beside server code, and the whole suite ran because
// a JSON file read as configuration "can change how every test builds or runs".
describe('a JSON file below the package root is data, not configuration', () => {
  test('imported, it runs the tests that reach its importer; at the root, it is a setting and runs the whole suite', async () => {
    const base = {
      'package.json': JSON.stringify({ name: 'kuma', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }),
      'package-lock.json': '{"lockfileVersion": 3}\n',
      'settings.json': '{"port": 3001}\n',
      'src/lang/en.json': '{"hello": "Hello"}\n',
      'src/i18n.js': "import en from './lang/en.json' with { type: 'json' };\nexport const t = (key) => en[key];\n",
      'test/i18n.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { t } from '../src/i18n.js';\ntest('says hello', () => {\n  assert.equal(t('hello'), 'Hello');\n});\n",
    };
    const data = createChangeFixture(base, { 'src/lang/en.json': '{"hello": "Hi"}\n' });
    const setting = createChangeFixture(base, { 'settings.json': '{"port": 3002}\n' });
    try {
      const run = async (fixture: ChangeFixture) => {
        const { testRun } = await analyzeFixture(fixture);
        return [testRun.scope, testRun.commands.map((command) => command.command)];
      };
      assert.deepEqual(await run(data), ['reaching', ['node --test test/i18n.test.js']]);
      assert.deepEqual(await run(setting), ['full-suite', ['npm test']]);
    } finally {
      data.repo.cleanup();
      setting.repo.cleanup();
    }
  });
});

describe('a jasmine suite, whose specs import the build output', () => {
  // parse-server's shape: jasmine specs under spec/ require ../lib/…, babel's output of src/ that git does not hold.
  test('names the reaching spec to jasmine, not the whole suite', async () => {
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({
          name: 'server',
          version: '1.0.0',
          main: 'lib/index.js',
          scripts: { build: 'babel src/ -d lib/', test: 'jasmine' },
          devDependencies: { jasmine: '^5.0.0', '@babel/cli': '^7.0.0' },
        }),
        'package-lock.json': '{"lockfileVersion": 3}\n',
        '.gitignore': 'lib/\n',
        'src/middlewares.js': 'exports.allowCrossDomain = (req, res, next) => next();\n',
        'src/index.js': "exports.middlewares = require('./middlewares');\n",
        'spec/Middlewares.spec.js':
          "const middlewares = require('../lib/middlewares');\ndescribe('middlewares', () => {\n  it('calls next', () => {\n    let called = false;\n    middlewares.allowCrossDomain({}, {}, () => (called = true));\n    expect(called).toBe(true);\n  });\n});\n",
      },
      { 'src/middlewares.js': "exports.allowCrossDomain = (req, res, next) => {\n  res.header?.('Vary', 'Origin');\n  next();\n};\n" },
    );
    try {
      const { testRun } = await analyzeFixture(fixture);
      assert.deepEqual(
        [testRun.scope, testRun.commands.map((command) => [command.runner, command.command])],
        ['reaching', [['jasmine', 'npx jasmine spec/Middlewares.spec.js']]],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('node-tap and tape suites', () => {
  // node-semver's shape: `"test": "tap"`, each test a program that requires tap (`const t = require('tap')`, then
  // `t.test(…)`, or `const { test } = require('tap')`); a tape package names its own test function.
  test('names the reaching files to tap and tape, and the proof to the test of the changed file', async () => {
    const range = 'module.exports = class Range {\n  constructor(raw) {\n    this.raw = raw.trim();\n  }\n};\n';
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({
          name: 'semver',
          version: '1.0.0',
          workspaces: ['tape'],
          scripts: { test: 'tap' },
          devDependencies: { tap: '^16.0.0' },
        }),
        'package-lock.json': '{"lockfileVersion": 3}\n',
        'classes/range.js': range,
        'ranges/intersects.js':
          "const Range = require('../classes/range');\nmodule.exports = (a, b) => new Range(a).raw === new Range(b).raw;\n",
        'test/classes/range.js':
          "const t = require('tap');\nconst Range = require('../../classes/range');\nt.test('keeps the raw text', (t) => {\n  t.equal(new Range(' 1 ').raw, '1');\n  t.end();\n});\n",
        'test/ranges/intersects.js':
          "const { test } = require('tap');\nconst intersects = require('../../ranges/intersects');\nconst Range = require('../../classes/range');\ntest('intersects a range', (t) => {\n  t.ok(intersects('1', new Range('1').raw));\n  t.end();\n});\n",
        'tape/package.json': JSON.stringify({
          name: 'tape-user',
          version: '1.0.0',
          scripts: { test: 'tape test/*.js' },
          devDependencies: { tape: '^5.0.0' },
        }),
        'tape/index.js': 'module.exports = (a) => a + 1;\n',
        'tape/test/index.js':
          "const tape = require('tape');\nconst add = require('../index');\ntape('adds one', (t) => {\n  t.equal(add(1), 2);\n  t.end();\n});\n",
        // A browser test of the same package, run by another tool with describe/it globals: no tape test.
        'tape/test/browser.js':
          "const add = require('../index');\ndescribe('add', () => {\n  it('adds one', () => {\n    if (add(1) !== 2) throw new Error('sum');\n  });\n});\n",
      },
      {
        'classes/range.js': range.replace('raw.trim()', 'String(raw).trim()'),
        'tape/index.js': 'module.exports = (a) => Number(a) + 1;\n',
      },
    );
    try {
      const { testRun, changedPathProof } = await analyzeFixture(fixture);
      assert.deepEqual(
        [testRun.scope, sorted(testRun.commands.map((command) => [command.cwd, command.runner, command.command]))],
        [
          'reaching',
          [
            ['', 'tap', 'npx tap test/classes/range.js test/ranges/intersects.js'],
            ['tape', 'tape', 'npx tape test/index.js'],
          ],
        ],
      );
      const proof = changedPathProof.find((entry) => entry.path === 'classes/range.js');
      assert.match(proof?.repairTask ?? '', /extend test\/classes\/range\.js /);
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('routes an app hands its plugin hooks, requested through a shared agent', () => {
  // etherpad's shape: hooks get the express app as a field of their argument (`(hookName, {app}) => …`) in files that
  // import no framework; every spec requests a running server through the supertest agent a shared helper makes
  // (`common.init()`).
  test('the spec that requests the changed route runs, and the proof extends it', async () => {
    const hook =
      "exports.expressPreSession = async (hookName, {app}) => {\n  app.get('/favicon.ico', (req, res) => {\n    res.send('icon');\n  });\n};\n";
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({
          name: 'pad',
          version: '1.0.0',
          scripts: { test: 'mocha --recursive tests/specs' },
          dependencies: { express: '^4.0.0' },
          devDependencies: { mocha: '^10.0.0', supertest: '^7.0.0' },
        }),
        'package-lock.json': '{"lockfileVersion": 3}\n',
        'node/hooks/specialpages.js': hook,
        'tests/common.js': "const supertest = require('supertest');\nexports.init = async () => supertest('http://localhost:9001');\n",
        'tests/specs/served.js':
          "const assert = require('assert');\nconst common = require('../common');\nlet agent;\nbefore(async () => { agent = await common.init(); });\nit('serves the icon', async () => {\n  const res = await agent.get('/favicon.ico');\n  assert.equal(res.status, 200);\n});\n",
        'tests/specs/a-health.js':
          "const assert = require('assert');\nconst common = require('../common');\nlet agent;\nbefore(async () => { agent = await common.init(); });\nit('is healthy', async () => {\n  const res = await agent.get('/health');\n  assert.equal(res.status, 404);\n});\n",
      },
      { 'node/hooks/specialpages.js': hook.replace("res.send('icon')", 'res.status(301).end()') },
    );
    try {
      const { testRun, changedPathProof } = await analyzeFixture(fixture);
      assert.deepEqual(
        [testRun.scope, testRun.commands.map((command) => command.command)],
        // The server loads its hooks by name (etherpad's ep.json): no import reaches them; the request does.
        ['reaching', ['npx mocha tests/specs/served.js']],
      );
      assert.match(changedPathProof[0]?.repairTask ?? '', /extend tests\/specs\/served\.js /);
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('a folder named for test helpers holds test support', () => {
  // objection's shape: tests/integration/index.js makes a session with testUtils/TestSession.js and hands it to each
  // integration test module. A change to the helper is proven by the tests that use it: no test of its own.
  test('its change runs the tests that use it, and asks no test of its own', async () => {
    const session =
      "const model = require('../lib/model');\nexports.create = () => ({ model, counts: {} });\nexports.count = (obj, key) => {\n  obj[key] = 1;\n};\n";
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({
          name: 'orm',
          version: '1.0.0',
          scripts: { test: 'mocha tests/integration/index.js' },
          devDependencies: { mocha: '^10.0.0' },
        }),
        'package-lock.json': '{"lockfileVersion": 3}\n',
        'lib/model.js': 'exports.find = (rows) => rows.filter(Boolean);\n',
        'testUtils/TestSession.js': session,
        'tests/integration/index.js':
          "const TestSession = require('../../testUtils/TestSession');\ndescribe('integration', () => {\n  const session = TestSession.create();\n  require('./find')(session);\n});\n",
        'tests/integration/find.js':
          "const assert = require('assert');\nmodule.exports = (session) => {\n  describe('find', () => {\n    it('finds', () => {\n      assert.deepEqual(session.model.find([1, 0]), [1]);\n    });\n  });\n};\n",
      },
      { 'testUtils/TestSession.js': session.replace('obj[key] = 1;', 'obj[key] = (obj[key] || 0) + 1;') },
    );
    try {
      const { testRun, changedPathProof } = await analyzeFixture(fixture);
      assert.deepEqual(testRun.scope, 'reaching');
      assert.deepEqual(
        changedPathProof.filter((proof) => /TestSession\.test\.js/.test(proof.repairTask ?? '')).map((proof) => proof.path),
        [],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

/** A change's test command (scope and commands) and, per changed file, the tests that reach it. */
async function readRunAndReach(fixture: ChangeFixture): Promise<{ run: [string, string[]]; reach: [string, string[]][] }> {
  const { testRun, changedPathProof } = await analyzeFixture(fixture);
  return {
    run: [testRun.scope, testRun.commands.map((command) => command.command)],
    reach: changedPathProof.map((proof) => [proof.path, proof.reachingTests]),
  };
}

describe('a file of describe blocks inside an exported helper is test support', () => {
  // h3's shape: test/_setup.ts exports describeMatrix, which wraps the caller's cases in `describe("web")` and
  // `describe("node")`; it declares no test case and vitest's default globs never run it. The tests that call it do.
  test('its suites are not a test: the command runs the tests that use it, and the change is reached through it', async () => {
    const setup =
      "import { describe } from 'vitest';\nimport { serve } from '../src/static';\nexport const canServe = serve('GET');\nexport function describeMatrix(title: string, fn: (target: string) => void): void {\n  describe(title, () => {\n    describe('web', () => fn('web'));\n    describe('node', () => fn('node'));\n  });\n}\n";
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'h', version: '1.0.0', scripts: { test: 'vitest' }, devDependencies: { vitest: '^3.0.0' } }),
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
        'src/static.ts': 'export function serve(method: string): boolean {\n  return method === "GET";\n}\n',
        'test/_setup.ts': setup,
        'test/static.test.ts':
          "import { it, expect } from 'vitest';\nimport { describeMatrix } from './_setup';\nimport { serve } from '../src/static';\ndescribeMatrix('serve', (target) => {\n  it(`serves GET on ${target}`, () => expect(serve('GET')).toBe(true));\n});\n",
        // A file named as a test whose cases checker does not read (a helper of its own runs them) stays a test, though
        // it exports: its runner runs it.
        'test/methods.test.ts':
          "import { describe } from 'vitest';\nimport { serve } from '../src/static';\nexport const methods = ['GET'];\ndescribe('each method', () => {\n  for (const method of methods) check(serve(method));\n});\n",
      },
      { 'src/static.ts': 'export function serve(method: string): boolean {\n  return method === "GET" || method === "HEAD";\n}\n' },
    );
    try {
      assert.deepEqual(await readRunAndReach(fixture), {
        run: ['reaching', ['npx vitest run test/static.test.ts test/methods.test.ts']],
        reach: [['src/static.ts', ['test/static.test.ts', 'test/methods.test.ts']]],
      });
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('test cases declared only inside exported helpers are the cases of the tests that call them', () => {
  // yup's shape: test/helpers.ts exports castAll, which calls `it` for each value (jest's config ignores the file);
  // test/string.ts calls castAll. The helper is support: the runner runs string.ts.
  test('the helper is not run or counted; the test that calls it is', async () => {
    const helpers =
      "import { print } from '../src/print';\nexport const castAll = (cast: (v: unknown) => unknown, values: unknown[]): void => {\n  for (const value of values)\n    it(`casts ${print(value)}`, () => {\n      expect(cast(value)).toBeDefined();\n    });\n};\n";
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'y', version: '1.0.0', scripts: { test: 'jest' }, devDependencies: { jest: '^29.0.0' } }),
        'yarn.lock': '',
        'src/print.ts': 'export function print(value: unknown): string {\n  return String(value);\n}\n',
        'test/helpers.ts': helpers,
        'test/string.ts':
          "import { castAll } from './helpers';\nimport { print } from '../src/print';\ndescribe('string', () => {\n  castAll(print, [1, 'a']);\n});\n",
      },
      {
        'src/print.ts': 'export function print(value: unknown): string {\n  return typeof value === "string" ? value : String(value);\n}\n',
      },
    );
    try {
      assert.deepEqual(await readRunAndReach(fixture), {
        run: ['reaching', ['npx jest --runTestsByPath test/string.ts']],
        reach: [['src/print.ts', ['test/string.ts']]],
      });
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('suites a package script runs with configs of their own, importing the package by name', () => {
  // msw's shape: unit tests under src/ run by the root vitest config; integration tests under test/node import `msw`
  // (tsup's lib/, not committed) and run with `vitest --config=./test/node/vitest.config.ts`; browser tests with
  // playwright's config under test/browser. test/package.json only sets the module type.
  test('each suite is reached through the package name and run with its own config', async () => {
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({
          name: 'msw',
          version: '1.0.0',
          exports: { '.': { types: './lib/core/index.d.mts', import: './lib/core/index.mjs' } },
          scripts: {
            test: 'pnpm test:unit && pnpm test:node && pnpm test:browser',
            'test:unit': 'vitest',
            'test:node': 'vitest --config=./test/node/vitest.config.ts',
            'test:browser': 'playwright test -c ./test/browser/playwright.config.ts',
          },
          devDependencies: { vitest: '^3.0.0', '@playwright/test': '^1.50.0' },
        }),
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
        'vitest.config.mts': "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { dir: './src' } });\n",
        'src/core/index.ts': "export { delay } from './delay';\n",
        'src/core/delay.ts':
          'export function delay(ms: number): Promise<void> {\n  return new Promise((done) => setTimeout(done, ms));\n}\n',
        'src/core/delay.test.ts': "import { delay } from './delay';\nit('waits', async () => {\n  await delay(1);\n});\n",
        'test/package.json': JSON.stringify({ type: 'module' }),
        'test/node/vitest.config.ts':
          "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { dir: './test/node' } });\n",
        'test/node/delay.node.test.ts': "import { delay } from 'msw';\nit('waits in node', async () => {\n  await delay(1);\n});\n",
        'test/browser/playwright.config.ts':
          "import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: '.' });\n",
        'test/browser/delay.test.ts':
          "import { test } from '@playwright/test';\nimport { delay } from 'msw';\ntest('waits in the browser', async () => {\n  await delay(1);\n});\n",
      },
      {
        'src/core/delay.ts':
          'export function delay(ms: number): Promise<void> {\n  return new Promise((done) => setTimeout(done, Math.max(0, ms)));\n}\n',
      },
    );
    try {
      const { testRun } = await analyzeFixture(fixture);
      assert.deepEqual(
        [testRun.scope, testRun.commands.map((command) => [command.cwd, command.runner, command.command])],
        [
          'reaching',
          [
            ['', 'vitest', 'npx vitest run src/core/delay.test.ts'],
            ['', 'playwright', 'npx playwright test --config test/browser/playwright.config.ts test/browser/delay.test.ts'],
            ['', 'vitest', 'npx vitest run --config test/node/vitest.config.ts test/node/delay.node.test.ts'],
          ],
        ],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('a fixture a test spawns', () => {
  // pino's shape: test/fixtures/*.js are started as child processes by the tests; they declare no tests and nothing
  // imports them, and they are no test of their own.
  test('is never run as a test', async () => {
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'logger', version: '1.0.0', scripts: { test: 'node --test' } }),
        'package-lock.json': '{"lockfileVersion": 3}\n',
        'lib/transport.js': 'exports.start = (options) => ({ ...options, started: true });\n',
        'test/fixtures/transport-worker.js': "const { start } = require('../../lib/transport');\nstart({ level: 'info' });\n",
        'test/transport.test.js':
          "const test = require('node:test');\nconst assert = require('node:assert');\nconst { start } = require('../lib/transport');\ntest('starts', () => assert.equal(start({}).started, true));\n",
      },
      { 'lib/transport.js': 'exports.start = (options) => ({ ...options, started: options !== undefined });\n' },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      assert.deepEqual(
        [analysis.testRun.reason, analysis.testRun.commands.map((command) => command.command)],
        [
          '1 test file that reaches the change, the changed tests first, then those that name the changed code, then by import distance',
          ['node --test test/transport.test.js'],
        ],
      );
      assert.deepEqual(analysis.changedPathProof[0]?.reachingTests, ['test/transport.test.js']);
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('a type script under test/ and a declaration file beside the code', () => {
  // pino's shape: jest is a dev dependency (for test/jest only), test/types/pino.ts is a script ts-node and tsc check,
  // declaring no test; pino.d.ts types pino.js, which the runtime tests require.
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({
          name: 'logger',
          version: '1.0.0',
          main: 'pino.js',
          types: 'pino.d.ts',
          devDependencies: { jest: '^30.0.0' },
        }),
        'package-lock.json': '{"lockfileVersion": 3}\n',
        'pino.js': 'exports.pino = (level) => ({ level });\n',
        'pino.d.ts': 'export declare function pino(level: string): { level: string };\n',
        'test/basic.test.js': "const { pino } = require('..');\ntest('logs', () => expect(pino('info').level).toBe('info'));\n",
        'test/types/pino.ts': "import { pino } from '../../pino';\nconst logger: { level: string } = pino('info');\nvoid logger;\n",
      },
      {
        'pino.js': "exports.pino = (level) => ({ level: level ?? 'info' });\n",
        'pino.d.ts': 'export declare function pino(level?: string): { level: string };\n',
      },
    );
  });
  after(() => fixture.repo.cleanup());

  test('the type script is type-checked, never given to jest; the runtime test is not said to reach the declaration', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(
      analysis.testRun.commands.map((command) => command.command),
      ['npx jest --runTestsByPath test/basic.test.js'],
    );
    assert.match(
      analysis.testRun.reason,
      /1 type test with no type-test runner declared .* left out: type-check it with the project's tsc/,
    );
    const reaching = (path: string): string[] =>
      analysis.impactedFiles.filter((file) => file.role === 'test' && file.via.includes(path)).map((file) => file.path);
    assert.deepEqual(
      analysis.changedPathProof.map((proof) => [proof.path, proof.reachingTests]),
      // The type script runs pino.js too when ts-node runs it.
      [['pino.js', ['test/types/pino.ts', 'test/basic.test.js']]],
    );
    assert.deepEqual(reaching('pino.d.ts'), ['test/types/pino.ts']);
  });
});

describe('a global setup module a runner loads', () => {
  // trpc's shape: test/scripts/globalSetup.ts exports `setup` for vitest's globalSetup and imports the code generator;
  // nothing imports it and it declares no test.
  test('is no test, nor a program beside it: not among the reaching tests nor in the command', async () => {
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'gen', version: '1.0.0', type: 'module', devDependencies: { vitest: '^2.0.0' } }),
        'package-lock.json': '{"lockfileVersion": 3}\n',
        'vitest.config.ts': "export default { test: { globalSetup: ['./test/scripts/globalSetup.ts'] } };\n",
        'src/codegen.ts': "export function codegen(): string {\n  return 'v1';\n}\n",
        'test/scripts/globalSetup.ts': "import { codegen } from '../../src/codegen';\nexport const setup = codegen;\n",
        // A program run by hand beside it (`#!`), which nothing imports and which exports nothing: no test either.
        'test/scripts/codegen.run.ts': "#!/usr/bin/env node\nimport { codegen } from '../../src/codegen';\nconsole.log(codegen());\n",
        'test/codegen.test.ts':
          "import { it, expect } from 'vitest';\nimport { codegen } from '../src/codegen';\nit('generates', () => expect(codegen()).toBe('v1'));\n",
      },
      { 'src/codegen.ts': "export function codegen(): string {\n  return 'v2';\n}\n" },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      assert.deepEqual(
        analysis.changedPathProof.map((proof) => [proof.path, proof.reachingTests]),
        [['src/codegen.ts', ['test/codegen.test.ts']]],
      );
      assert.deepEqual(
        analysis.testRun.commands.map((command) => command.command),
        ['npx vitest run test/codegen.test.ts'],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('a CLI a test runs as a process', () => {
  // trpc's shape: packages/openapi/test/cli.test.ts runs src/cli.ts with tsx (execFileSync), importing none of it.
  test('reaches the CLI and what it imports; a path in a test that starts no process reaches nothing', async () => {
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'tool', version: '1.0.0', type: 'module', devDependencies: { vitest: '^2.0.0' } }),
        'package-lock.json': '{"lockfileVersion": 3}\n',
        'src/generate.ts': 'export function generate(name: string): string {\n  return `spec for ${name}`;\n}\n',
        'src/cli.ts': "import { generate } from './generate';\nconsole.log(generate(process.argv[2] ?? 'app'));\n",
        'src/other.ts': 'export const other = 1;\n',
        'test/cli.test.ts': [
          "import { execFileSync } from 'node:child_process';",
          "import * as path from 'node:path';",
          "import { it, expect } from 'vitest';",
          "const cliPath = path.resolve(__dirname, '../src/cli.ts');",
          "it('prints the spec', () => {",
          "  expect(execFileSync('npx', ['tsx', cliPath, 'shop'], { encoding: 'utf8' })).toContain('spec for shop');",
          '});',
          '',
        ].join('\n'),
        'test/names.test.ts': [
          "import { it, expect } from 'vitest';",
          "it('names the file', () => {",
          "  expect('../src/other.ts').toContain('other');",
          '});',
          '',
        ].join('\n'),
      },
      {
        'src/generate.ts': 'export function generate(name: string): string {\n  return `openapi spec for ${name}`;\n}\n',
        'src/other.ts': 'export const other = 2;\n',
      },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      assert.deepEqual(
        analysis.changedPathProof.map((proof) => [proof.path, proof.reachingTests]),
        [
          ['src/generate.ts', ['test/cli.test.ts']],
          ['src/other.ts', []],
        ],
      );
      assert.deepEqual(
        analysis.testRun.commands.map((command) => command.command),
        ['npx vitest run test/cli.test.ts'],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('a file a test runs in a worker thread', () => {
  // Check 133 (markdown-it): test/pathological.mjs renders in a jest-worker given
  // `new URL('./pathological_worker.js', import.meta.url)`; the worker imports the library. The fix's own test reached
  // nothing and was left out of the command.
  test('reaches what the worker imports, through worker_threads or a worker pool', async () => {
    const fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'md', version: '1.0.0', type: 'module', devDependencies: { mocha: '^10.0.0' } }),
        'package-lock.json': '{"lockfileVersion": 3}\n',
        'lib/render.js': 'export function render(text) {\n  return text.trim();\n}\n',
        'test/render_worker.js': "import { render } from '../lib/render.js';\nexport function run(text) {\n  return render(text);\n}\n",
        'test/pathological.mjs': [
          "import assert from 'node:assert';",
          "import { Worker } from 'jest-worker';",
          "it('renders a long input in time', async () => {",
          "  const worker = new Worker(new URL('./render_worker.js', import.meta.url), { enableWorkerThreads: true });",
          "  assert.strictEqual(await worker.run(' a '), 'a');",
          '  await worker.end();',
          '});',
          '',
        ].join('\n'),
        'test/threads.mjs': [
          "import assert from 'node:assert';",
          "import { Worker } from 'node:worker_threads';",
          "it('starts', () => {",
          "  const worker = new Worker(new URL('./render_worker.js', import.meta.url));",
          '  assert.ok(worker);',
          '});',
          '',
        ].join('\n'),
      },
      { 'lib/render.js': 'export function render(text) {\n  return text.trim().toLowerCase();\n}\n' },
    );
    try {
      const analysis = await analyzeFixture(fixture);
      assert.deepEqual(
        analysis.changedPathProof.map((proof) => [proof.path, proof.reachingTests]),
        [['lib/render.js', ['test/pathological.mjs', 'test/threads.mjs']]],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

describe('a change in a language checker does not parse', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'mixed', version: '1.0.0' }),
        'app/pricing.rb': 'def price(x)\n  x * 2\nend\n',
        'spec/pricing_spec.rb': 'require_relative "../app/pricing"\n\ndescribe "price" do\n  it { expect(price(1)).to eq(2) }\nend\n',
        'src/Main.java': 'class Main {\n  public static void main(String[] args) {}\n}\n',
      },
      {
        'app/pricing.rb': 'def price(x)\n  raise ArgumentError if x < 0\n  x * 2\nend\n',
        'spec/pricing_spec.rb': 'require_relative "../app/pricing"\n\ndescribe "price" do\n  it { expect(price(2)).to eq(4) }\nend\n',
        'src/Main.java': 'class Main {\n  public static void main(String[] args) {\n    System.out.println("hi");\n  }\n}\n',
      },
    );
  });
  after(() => fixture.repo.cleanup());

  test('gets no proof obligation or test task, no TypeScript test command, and one limitation naming the files', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.deepEqual(bundle.evidence.changedPathProof, []);
    assert.deepEqual(
      bundle.tasks.filter((task) => task.kind === 'proof' || task.kind === 'missing-test'),
      [],
    );
    assert.doesNotMatch(JSON.stringify(bundle.tasks), /\.test\.ts/);
    assert.deepEqual(bundle.evidence.testRun, {
      scope: 'none',
      reason: 'checker does not parse Ruby or Java: run the tests of the changed Ruby and Java files with their own runner',
      commands: [],
      omitted: 0,
    });
    assert.deepEqual(
      bundle.limitations.filter((item) => item.code === 'analysis/language-not-parsed').map((item) => item.message),
      [
        '2 changed files in Ruby (app/pricing.rb, spec/pricing_spec.rb): checker parses JavaScript, TypeScript, Python and Go only, so their imports, reaching tests and proof are not analysed and no test task is made for them.',
        '1 changed file in Java (src/Main.java): checker parses JavaScript, TypeScript, Python and Go only, so their imports, reaching tests and proof are not analysed and no test task is made for them.',
      ],
    );
  });
});

describe('a Python and Go change', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        'pyproject.toml': '[project]\nname = "shop"\n',
        'shop/__init__.py': '',
        'shop/pricing.py': 'def price(x):\n    return x * 2\n',
        'shop/discounts.py': 'def discount(x):\n    return x\n',
        'tests/test_pricing.py': 'from shop.pricing import price\n\n\ndef test_price():\n    assert price(1) == 2\n',
        'go.mod': 'module example.com/shop\n\ngo 1.22\n',
        'internal/orders/orders.go':
          'package orders\n\nfunc Total(items []int) int {\n\tsum := 0\n\tfor _, item := range items {\n\t\tsum += item\n\t}\n\treturn sum\n}\n',
        'internal/orders/orders_test.go':
          'package orders\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif Total([]int{1, 2}) != 3 {\n\t\tt.Fatal("sum")\n\t}\n}\n',
        // Another test of the package: a Go package's tests reach all of it, so the package runs whole, with no -run.
        'internal/orders/label.go': 'package orders\n\nfunc Label(id int) string {\n\treturn "order"\n}\n',
        'internal/orders/label_test.go':
          'package orders\n\nimport "testing"\n\nfunc TestLabel(t *testing.T) {\n\tif Label(1) != "order" {\n\t\tt.Fatal("label")\n\t}\n}\n',
      },
      {
        'shop/pricing.py':
          'def price(x):\n    """Price of x.\n\n    Negative x is refused.\n    """\n    if x < 0:\n        raise ValueError("negative")\n    return x * 2\n',
        'shop/discounts.py': 'def discount(x):\n    if x > 100:\n        return 100\n    return x\n',
        'internal/orders/orders.go':
          'package orders\n\nfunc Total(items []int) int {\n\tsum := 0\n\tfor _, item := range items {\n\t\tif item < 0 {\n\t\t\tcontinue\n\t\t}\n\t\tsum += item\n\t}\n\treturn sum\n}\n',
      },
    );
  });
  after(() => fixture.repo.cleanup());

  test('runs the reaching pytest and go tests, asks for tests named as each language names them, and records no limitation', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.deepEqual(
      bundle.evidence.testRun.commands.map((command) => [command.runner, command.cwd, command.command, command.files]).sort(),
      [
        ['go', '', 'go test ./internal/orders', ['internal/orders/orders_test.go', 'internal/orders/label_test.go']],
        ['pytest', '', 'python -m pytest tests/test_pricing.py', ['tests/test_pricing.py']],
      ],
    );
    assert.equal(bundle.evidence.testRun.scope, 'reaching');
    const proof = bundle.tasks.filter((task) => task.kind === 'proof');
    assert.deepEqual(
      proof.map((task) => task.title),
      [
        'Prove the changed lines of shop/discounts.py at runtime (now unproven)',
        'Prove the changed lines of shop/pricing.py at runtime (now static-only)',
        'Prove the changed lines of internal/orders/orders.go at runtime (now static-only)',
      ],
    );
    assert.doesNotMatch(JSON.stringify(bundle.tasks), /\.test\.ts/);
    // The new test goes where the repository keeps pricing's: tests/test_pricing.py is pytest's module for shop/pricing.py.
    assert.match(JSON.stringify(proof[0]), /Add a test in tests\/test_discounts\.py that imports shop\/discounts\.py and calls discount/);
    assert.match(JSON.stringify(proof[2]), /extend internal\/orders\/orders_test\.go/);
    assert.match(JSON.stringify(proof[1]), /extend tests\/test_pricing\.py \(it imports price\)/);
    // Check 20 (click): a docstring's lines are no code to cover; the proof names only the lines that run.
    assert.match(JSON.stringify(proof[1]), /whether lines 6-7 of shop\/pricing\.py execute/);
    assert.deepEqual(
      bundle.limitations.filter((item) => item.code === 'analysis/language-not-parsed'),
      [],
    );
  });
});

describe('coverage.py and Go cover profiles prove a Python and a Go change at runtime', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        '.gitignore': 'coverage.json\ncoverage.out\n',
        'shop/__init__.py': '',
        'shop/pricing.py': 'def price(x):\n    return x * 2\n',
        'tests/test_pricing.py': 'from shop.pricing import price\n\n\ndef test_price():\n    assert price(1) == 2\n',
        'go.mod': 'module example.com/shop\n\ngo 1.22\n',
        'orders/orders.go': 'package orders\n\nfunc Total(a, b int) int {\n\treturn a + b\n}\n',
        'orders/orders_test.go':
          'package orders\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif Total(1, 2) != 3 {\n\t\tt.Fatal("sum")\n\t}\n}\n',
      },
      {
        'shop/pricing.py': 'def price(x):\n    if x < 0:\n        raise ValueError("negative")\n    return x * 2\n',
        'orders/orders.go': 'package orders\n\nfunc Total(a, b int) int {\n\tif a < 0 {\n\t\treturn b\n\t}\n\treturn a + b\n}\n',
        'coverage.json': JSON.stringify({
          meta: { version: '7.6.1' },
          files: { 'shop/pricing.py': { executed_lines: [1, 2, 4], missing_lines: [3], excluded_lines: [] } },
        }),
        'coverage.out':
          'mode: set\nexample.com/shop/orders/orders.go:3.25,4.11 1 1\nexample.com/shop/orders/orders.go:4.11,6.3 1 0\nexample.com/shop/orders/orders.go:7.2,7.14 1 1\n',
      },
    );
  });
  after(() => fixture.repo.cleanup());

  test('each changed file has runtime evidence: which changed lines ran and which did not', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.deepEqual(bundle.evidence.testEvidence.sources.map((source) => [source.kind, source.path, source.files]).sort(), [
      ['coverage-py', 'coverage.json', 1],
      ['go-cover', 'coverage.out', 1],
    ]);
    assert.deepEqual(
      bundle.evidence.changedPathProof
        .map((proof) => [proof.path, proof.state, proof.coveredChangedLines, proof.uncoveredChangedLines])
        .sort(),
      [
        ['orders/orders.go', 'runtime-unproven', [4], [5, 6]],
        ['shop/pricing.py', 'runtime-unproven', [2], [3]],
      ],
    );
  });
});

describe('a Python module on a folder a conftest.py puts on sys.path', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        'tests/conftest.py': 'import os\nimport sys\n\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tools"))\n',
        'tests/test_build.py': 'from builder import build\n\n\ndef test_build():\n    assert build("a") == "a!"\n',
        'tools/builder.py': 'def build(name):\n    return name + "!"\n',
      },
      { 'tools/builder.py': 'def build(name):\n    if not name:\n        raise ValueError("a name")\n    return name + "!"\n' },
    );
  });
  after(() => fixture.repo.cleanup());

  test('is reached by the test that imports it by its bare name', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.deepEqual(
      bundle.evidence.testRun.commands.map((command) => command.command),
      ['python -m pytest tests/test_build.py'],
    );
  });
});

describe('a Go package with several test files and a test of another package that imports it (issue 41: gin)', () => {
  let fixture: ChangeFixture;
  const total = (guard: string): string =>
    `package orders\n\nfunc Total(items []int) int {\n\tsum := 0\n\tfor _, item := range items {\n${guard}\t\tsum += item\n\t}\n\treturn sum\n}\n`;
  before(() => {
    fixture = createChangeFixture(
      {
        'go.mod': 'module example.com/shop\n\ngo 1.22\n',
        'orders/orders.go': total(''),
        'orders/average.go': 'package orders\n\nfunc Mean(items []int) int {\n\treturn Total(items) / len(items)\n}\n',
        'orders/orders_test.go':
          'package orders\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif Total([]int{1, 2}) != 3 {\n\t\tt.Fatal("sum")\n\t}\n}\n',
        'orders/empty_test.go':
          'package orders\n\nimport "testing"\n\nfunc TestEmpty(t *testing.T) {\n\tif Total(nil) != 0 {\n\t\tt.Fatal("empty")\n\t}\n}\n',
        'report/report_test.go':
          'package report_test\n\nimport (\n\t"testing"\n\n\t"example.com/shop/orders"\n)\n\nfunc TestReport(t *testing.T) {\n\tif orders.Total([]int{1}) != 1 {\n\t\tt.Fatal("report")\n\t}\n}\n',
      },
      {
        'orders/orders.go': total('\t\tif item < 0 {\n\t\t\tcontinue\n\t\t}\n'),
        'orders/average.go':
          'package orders\n\nfunc Mean(items []int) int {\n\treturn Total(items) / len(items)\n}\n\nfunc Average(items []int) int {\n\treturn Mean(items)\n}\n',
      },
    );
  });
  after(() => fixture.repo.cleanup());

  test("the proof extends the file's own _test.go: a package's test files see each other's names without being helpers", async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    const proof = bundle.tasks.filter((task) => task.kind === 'proof');
    assert.deepEqual(
      proof.map((task) => task.id),
      ['task:proof:orders/average.go', 'task:proof:orders/orders.go'],
    );
    assert.match(JSON.stringify(proof[1]), /extend orders\/orders_test\.go \(it imports Total\)/);
    // A test of the package names a function the change adds only if its code says it (check 30: echo's
    // binder_test.go was said to import the BindingError.MarshalJSON the change added).
    assert.doesNotMatch(JSON.stringify(proof[0]), /it imports/);
    // Nor is any file of the package listed as a user of it; Total's users are those that call it.
    assert.deepEqual(
      bundle.evidence.symbolImpacts.map((impact) => [impact.name, impact.importers.map((importer) => importer.path)]),
      [
        ['Average', []],
        ['Total', ['orders/average.go', 'orders/empty_test.go', 'orders/orders_test.go', 'report/report_test.go']],
      ],
    );
  });
});

describe('a Go method named by one word (issue 41: chi)', () => {
  let fixture: ChangeFixture;
  const router = (body: string): string =>
    `package headers\n\ntype HeaderRouter map[string]string\n\nfunc RouteHeaders() HeaderRouter {\n\treturn HeaderRouter{}\n}\n\ntype Stripped struct{ Handler func() }\n\nfunc StripPrefix(next func()) Stripped {\n\treturn Stripped{next}\n}\n\nfunc (hr HeaderRouter) Handler(next func()) func() {\n${body}\treturn next\n}\n`;
  before(() => {
    fixture = createChangeFixture(
      {
        'go.mod': 'module example.com/mw\n\ngo 1.22\n',
        'headers/route_headers.go': router(''),
        'headers/strip.go': 'package headers\n\nfunc Strip(handler func()) func() {\n\treturn handler\n}\n',
        // Says Handler, as every middleware test does, and never touches a HeaderRouter.
        'headers/strip_test.go':
          'package headers\n\nimport "testing"\n\nfunc TestStrip(t *testing.T) {\n\tHandler := Strip(func() {})\n\tif Handler == nil {\n\t\tt.Fatal("nil")\n\t}\n}\n',
        // Says Handler and an export of the file of other words (check 60, go-resty: client_test.go says util.go's
        // exports and `err.Error()`, never a restyError).
        'headers/other_test.go':
          'package headers\n\nimport "testing"\n\nfunc TestOther(t *testing.T) {\n\tif StripPrefix(nil).Handler == nil {\n\t\tt.Fatal("nil")\n\t}\n}\n',
        // Builds one with the file's constructor and calls its Handler.
        'headers/route_headers_test.go':
          'package headers\n\nimport "testing"\n\nfunc TestRouteHeaders(t *testing.T) {\n\tif RouteHeaders().Handler(func() {}) == nil {\n\t\tt.Fatal("nil")\n\t}\n}\n',
      },
      { 'headers/route_headers.go': router('\tif len(hr) == 0 {\n\t\treturn next\n\t}\n') },
    );
  });
  after(() => fixture.repo.cleanup());

  test('is used by the files that say it and its receiver or the constructor beside it, not by every file that says the word', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.deepEqual(
      bundle.evidence.symbolImpacts.map((impact) => [impact.name, impact.importers.map((importer) => importer.path)]),
      [['HeaderRouter.Handler', ['headers/route_headers_test.go']]],
    );
  });
});

describe("a Go type said only as another package's, or by methods a test declares on its own type (issue 41: logrus)", () => {
  let fixture: ChangeFixture;
  const handler = (body: string): string =>
    `package bridge\n\ntype Handler struct{ level int }\n\nfunc NewHandler() *Handler {\n\treturn &Handler{}\n}\n\nfunc (h *Handler) WithAttrs(attrs []string) *Handler {\n${body}\treturn h\n}\n`;
  before(() => {
    fixture = createChangeFixture(
      {
        'go.mod': 'module example.com/logs\n\ngo 1.22\n',
        'bridge/handler.go': handler(''),
        // logrus's hooks/slog/slog_test.go: says `slog.Handler` and declares its own WithAttrs, never this package's.
        'bridge/hook_test.go':
          'package bridge\n\nimport (\n\t"log/slog"\n\t"testing"\n)\n\ntype errorHandler struct{}\n\nfunc (e *errorHandler) WithAttrs(attrs []string) *errorHandler {\n\treturn e\n}\n\nfunc TestHook(t *testing.T) {\n\tvar h slog.Handler\n\t_ = h\n\tif (&errorHandler{}).WithAttrs(nil) == nil {\n\t\tt.Fatal("nil")\n\t}\n}\n',
        // Builds one with the package's constructor and calls the changed method.
        'bridge/handler_test.go':
          'package bridge\n\nimport "testing"\n\nfunc TestHandler(t *testing.T) {\n\th := NewHandler()\n\tif h.WithAttrs(nil) == nil {\n\t\tt.Fatal("nil")\n\t}\n}\n',
      },
      { 'bridge/handler.go': handler('\tif len(attrs) == 0 {\n\t\treturn h\n\t}\n') },
    );
  });
  after(() => fixture.repo.cleanup());

  test('is used by the test that builds one, not by the test that only says its words', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.deepEqual(
      bundle.evidence.symbolImpacts.map((impact) => [impact.name, impact.importers.map((importer) => importer.path)]),
      [['Handler.WithAttrs', ['bridge/handler_test.go']]],
    );
    const proof = bundle.tasks.find((task) => task.kind === 'proof');
    assert.match(proof?.detail ?? '', /extend bridge\/handler_test\.go \(it imports Handler\.WithAttrs\)/);
  });
});
