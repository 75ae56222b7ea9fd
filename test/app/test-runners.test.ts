import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildRunnerSelectors, listScriptedMochaConfigs, selectConfiguredRunner } from '../../src/app/test-runners.js';
import type { AgentBundle } from '../../src/model/bundle.js';
import { analyzeFixture, createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';

const json = (value: unknown): string => JSON.stringify(value, null, 2);

/**
 * Issue 41, item 1a: axios runs its browser specs with karma (the `files` of karma.conf.cjs) and its node tests with
 * mocha (the globs of its `test:mocha` script), one package declaring both.
 */
const KARMA_MOCHA = {
  'package.json': json({
    name: 'fetcher',
    version: '1.0.0',
    main: 'index.js',
    scripts: {
      'test:mocha': 'mocha test/unit/**/*.js --timeout 30000 --exit',
      'test:karma': 'karma start karma.conf.cjs --single-run',
    },
    devDependencies: { mocha: '^10.0.0', karma: '^6.4.0', 'karma-jasmine': '^5.0.0' },
  }),
  'package-lock.json': '{"lockfileVersion": 3}\n',
  'karma.conf.cjs': [
    'module.exports = function (config) {',
    '  config.set({',
    "    frameworks: ['jasmine'],",
    "    files: ['test/specs/__helpers.js', 'test/specs/**/*.spec.js'],",
    "    browsers: ['ChromeHeadless'],",
    '  });',
    '};',
    '',
  ].join('\n'),
  'index.js': "module.exports = require('./lib/cancel');\n",
  'lib/cancel.js': 'exports.isCancel = function isCancel(value) {\n  return Boolean(value && value.__CANCEL__);\n};\n',
  'test/specs/__helpers.js': 'window.noop = function noop() {};\n',
  'test/specs/cancel.spec.js':
    "const { isCancel } = require('../../lib/cancel');\ndescribe('isCancel', () => {\n  it('spots a cancel', () => {\n    expect(isCancel({ __CANCEL__: true })).toBe(true);\n  });\n});\n",
  'test/unit/cancel.js':
    "const assert = require('node:assert');\nconst { isCancel } = require('../../lib/cancel');\ndescribe('isCancel', () => {\n  it('is false for null', () => {\n    assert.equal(isCancel(null), false);\n  });\n});\n",
};

describe('karma specs and mocha tests in one package', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(KARMA_MOCHA, {
      'lib/cancel.js': 'exports.isCancel = function isCancel(value) {\n  return value != null && value.__CANCEL__ === true;\n};\n',
    });
  });
  after(() => fixture.repo.cleanup());

  test('each file runs under the runner whose config selects it; karma runs its whole suite and says so', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    const commands = bundle.evidence.testRun.commands;
    assert.deepEqual(
      commands.map((command) => [command.runner, command.command, command.files]).sort(),
      [
        ['karma', 'npx karma start karma.conf.cjs --single-run', ['test/specs/cancel.spec.js']],
        ['mocha', 'npx mocha test/unit/cancel.js', ['test/unit/cancel.js']],
      ],
      json(commands),
    );
    assert.deepEqual(
      bundle.limitations.filter((item) => item.code === 'tests/runner-config-unread'),
      [],
    );
    const karma = commands.find((command) => command.runner === 'karma');
    assert.equal(karma?.note, 'karma cannot run single files: this runs the whole karma suite, which holds the 1 reaching spec');
    assert.ok(
      bundle.prompt.includes(
        'npx karma start karma.conf.cjs --single-run  # karma cannot run single files: this runs the whole karma suite, which holds the 1 reaching spec',
      ),
      bundle.prompt,
    );
  });
});

describe('a test file neither runner selects', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        ...KARMA_MOCHA,
        // Jasmine-style, but not *.spec.js (karma skips it) and outside mocha's test/unit/** (axios's kindOf.js).
        'test/specs/utils/kindOf.js':
          "const { isCancel } = require('../../../lib/cancel');\ndescribe('kindOf', () => {\n  it('is false', () => {\n    expect(isCancel(null)).toEqual(false);\n  });\n});\n",
      },
      { 'lib/cancel.js': 'exports.isCancel = (value) => value?.__CANCEL__ === true;\n' },
    );
  });
  after(() => fixture.repo.cleanup());

  test('is given to no runner: mocha, which the package depends on, runs only what its globs select', async () => {
    const { testRun } = await analyzeFixture(fixture);
    assert.deepEqual(
      testRun.commands.map((command) => [command.runner, command.files]).sort(),
      [
        ['karma', ['test/specs/cancel.spec.js']],
        ['mocha', ['test/unit/cancel.js']],
      ],
      json(testRun),
    );
  });
});

describe("mocha's folder specs", () => {
  const runnerOf = (scripts: Record<string, string>, path: string) =>
    selectConfiguredRunner(buildRunnerSelectors(new Map([['package.json', JSON.stringify({ scripts })]])), path)?.runner;

  test('a folder is the files directly in it, or under it with --recursive (express: mocha … test/ test/acceptance/)', () => {
    const express = { test: 'mocha --require test/support/env --reporter spec --check-leaks test/ test/acceptance/' };
    assert.equal(runnerOf(express, 'test/app.router.js'), 'mocha');
    assert.equal(runnerOf(express, 'test/acceptance/auth.js'), 'mocha');
    // The required file is no spec, and a deeper folder is not read without --recursive.
    assert.equal(runnerOf(express, 'test/support/env.js'), undefined);
    assert.equal(runnerOf({ test: 'mocha test/' }, 'test/unit/a.js'), undefined);
    assert.equal(runnerOf({ test: 'mocha --recursive test/' }, 'test/unit/a.js'), 'mocha');
  });

  test('a folder named without a slash is a spec too (nock: nyc … mocha --recursive tests)', () => {
    const nock = { test: 'nyc --reporter=lcov --reporter=text mocha --recursive tests', 'test:jest': 'jest tests_jest' };
    assert.equal(runnerOf(nock, 'tests/test_common.js'), 'mocha');
    assert.equal(runnerOf(nock, 'tests/got/test_intercept.js'), 'mocha');
    assert.equal(runnerOf(nock, 'tests_jest/leak.spec.js'), undefined);
    assert.equal(runnerOf({ test: 'mocha --timeout 5000 --reporter dot' }, 'dot/a.js'), undefined);
  });

  // winstonjs/winston: `mocha test/unit` and a bare `mocha`, with `recursive: true` in .mocharc.yml and no spec there.
  test("a package's .mocharc recursive reads its scripts' folders whole; a bare mocha runs mocha's default test folder", () => {
    const winston = {
      test: 'rimraf test/fixtures/logs/* && mocha',
      'test:unit': 'mocha test/unit',
      'test:integration': 'mocha test/integration',
    };
    const runnerIn = (files: Record<string, string>, path: string) =>
      selectConfiguredRunner(
        buildRunnerSelectors(new Map([['package.json', JSON.stringify({ scripts: winston })], ...Object.entries(files)])),
        path,
      )?.runner;
    const recursive = { '.mocharc.yml': 'exclude:\n  - test/helpers/scripts/*.js\nexit: true\nrecursive: true\n' };
    assert.equal(runnerIn(recursive, 'test/unit/winston/transports/http.test.js'), 'mocha');
    assert.equal(runnerIn(recursive, 'test/typescript-definitions.js'), 'mocha');
    assert.equal(runnerIn({ '.mocharc.json': '{ "recursive": true }' }, 'test/unit/winston/logger.test.js'), 'mocha');
    // Without recursive, a folder is the files directly in it; a config's spec replaces mocha's default.
    assert.equal(runnerIn({}, 'test/unit/winston/logger.test.js'), undefined);
    assert.equal(runnerIn({}, 'test/typescript-definitions.js'), 'mocha');
    assert.equal(runnerIn({ '.mocharc.yml': 'spec: spec/**/*.js\n' }, 'test/typescript-definitions.js'), undefined);
    // A config that is code may compute its spec: mocha's default is not assumed there.
    assert.equal(runnerIn({ '.mocharc.js': 'module.exports = { spec: specs() };\n' }, 'test/typescript-definitions.js'), undefined);
    // A config in another package's folder is that package's.
    assert.equal(runnerIn({ 'other/.mocharc.yml': 'recursive: true\n' }, 'test/unit/winston/logger.test.js'), undefined);
  });
});

/**
 * Check 88 (validatorjs/validator.js): `nyc … mocha --require @babel/register --reporter dot --recursive`. The tests
 * `import`; `npx mocha test/a.test.js` without the flag fails on the first line of every file.
 */
describe("mocha's load flags from the package's script", () => {
  const flagsOf = (scripts: Record<string, string>) =>
    buildRunnerSelectors(new Map([['package.json', JSON.stringify({ scripts })]])).mochaFlags?.get('');

  test('--require, --file, --ui and a loader are kept with their values; reporters, timeouts and specs are not', () => {
    assert.deepEqual(flagsOf({ test: 'nyc --reporter=text mocha --require @babel/register --reporter dot --recursive' }), [
      '--require',
      '@babel/register',
    ]);
    assert.deepEqual(flagsOf({ test: "mocha -r ts-node/register --ui=tdd --file 'test/setup.js' -t 5000 test/**/*.ts" }), [
      '-r',
      'ts-node/register',
      '--ui',
      'tdd',
      '--file',
      'test/setup.js',
    ]);
    // The `test` script's mocha command is the one a reviewer runs; another script's flags are not mixed in.
    assert.deepEqual(flagsOf({ 'test:browser': 'mocha --require jsdom-global', test: 'mocha --require esm test/' }), ['--require', 'esm']);
    assert.equal(flagsOf({ test: 'mocha --timeout 5000 test/' }), undefined);
  });

  test('the command that runs the reaching tests carries them', async () => {
    const fixture = createChangeFixture(
      {
        'package.json': json({
          name: 'validate',
          version: '1.0.0',
          scripts: { test: 'nyc --reporter=text mocha --require @babel/register --reporter dot --recursive' },
          devDependencies: { mocha: '^10.0.0', '@babel/register': '^7.0.0' },
        }),
        'src/slug.js': 'export default function isSlug(value) {\n  return /^[a-z-]+$/.test(value);\n}\n',
        'test/slug.test.js':
          "import assert from 'assert';\nimport isSlug from '../src/slug';\ndescribe('slug', () => {\n  it('accepts', () => {\n    assert.ok(isSlug('a-b'));\n  });\n});\n",
      },
      { 'src/slug.js': 'export default function isSlug(value) {\n  return /^[a-z0-9-]+$/.test(value);\n}\n' },
    );
    try {
      const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
      assert.deepEqual(
        bundle.evidence.testRun.commands.map((command) => command.command),
        ['npx mocha --require @babel/register test/slug.test.js'],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

/**
 * Check 114 (mqttjs/MQTT.js): `node -r esbuild-register --test test/node/*.ts`. A bare `node --test test/node/mqtt.ts`
 * cannot load the TypeScript.
 */
describe("node --test's load flags from the package's script", () => {
  const flagsOf = (scripts: Record<string, string>) =>
    buildRunnerSelectors(new Map([['package.json', JSON.stringify({ scripts })]])).nodeTestFlags?.get('');

  test('-r, --require, --import and a loader are kept with their values; reporters and files are not', () => {
    assert.deepEqual(
      flagsOf({ 'unit-test:node': 'node -r esbuild-register --test-concurrency 4 --test-reporter=spec --test test/node/*.ts' }),
      ['-r', 'esbuild-register'],
    );
    assert.deepEqual(flagsOf({ test: 'node --import=tsx --loader ./hooks.mjs --test' }), ['--import', 'tsx', '--loader', './hooks.mjs']);
    // A script that runs node without --test is no test command.
    assert.equal(flagsOf({ start: 'node -r dotenv/config server.js', test: 'node --test' }), undefined);
  });

  test('the command that runs the reaching tests carries them, in place of tsx', async () => {
    const fixture = createChangeFixture(
      {
        'package.json': json({
          name: 'mqtt',
          version: '1.0.0',
          scripts: { test: 'npm run unit', unit: 'node -r esbuild-register --test test/*.ts' },
          devDependencies: { 'esbuild-register': '^3.0.0', tsx: '^4.0.0' },
        }),
        'src/client.ts': 'export function connect(url: string): string {\n  return url;\n}\n',
        'test/client.ts':
          "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { connect } from '../src/client';\ntest('connects', () => {\n  assert.equal(connect('mqtt://x'), 'mqtt://x');\n});\n",
      },
      { 'src/client.ts': 'export function connect(url: string): string {\n  return url.trim();\n}\n' },
    );
    try {
      const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
      assert.deepEqual(
        bundle.evidence.testRun.commands.map((command) => command.command),
        ['node -r esbuild-register --test test/client.ts'],
      );
    } finally {
      fixture.repo.cleanup();
    }
  });
});

/**
 * Checks 147 and 148 (postcss: uvu; hapi: @hapi/lab): no runner was detected, and every bundle said to run the whole
 * suite. lab takes files; uvu takes a folder and a pattern of the paths below it. A coverage threshold (`-t 100`) is
 * no load flag: a run of a few files would fail it.
 */
describe('lab and uvu run the reaching tests, with the load flags of their script', () => {
  const commandsOf = async (manifest: Record<string, unknown>, tests: Record<string, string>) => {
    const fixture = createChangeFixture(
      {
        'package.json': json({ name: 'lib', version: '1.0.0', ...manifest }),
        'lib/list.js': 'exports.split = function split(text) {\n  return text.split(",");\n};\n',
        ...tests,
      },
      {
        'lib/list.js':
          'exports.split = function split(text) {\n  if (typeof text !== "string") return [];\n  return text.split(",");\n};\n',
      },
    );
    try {
      const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
      return bundle.evidence.testRun.commands.map((command) => [command.runner, command.command]);
    } finally {
      fixture.repo.cleanup();
    }
  };

  test('lab: its files, with the assertion library but not the coverage threshold', async () => {
    const labTest = (title: string) =>
      `const Code = require('@hapi/code');\nconst Lab = require('@hapi/lab');\nconst List = require('../lib/list');\nconst { describe, it } = (exports.lab = Lab.script());\ndescribe('${title}', () => {\n  it('splits', () => {\n    Code.expect(List.split('a,b')).to.equal(['a', 'b']);\n  });\n});\n`;
    assert.deepEqual(
      await commandsOf(
        { scripts: { test: 'lab -a @hapi/code -t 100 -L -m 5000' }, devDependencies: { '@hapi/lab': '^24.0.0', '@hapi/code': '^9.0.0' } },
        { 'test/list.js': labTest('list'), 'test/index.js': labTest('index') },
      ),
      [['lab', 'npx lab -a @hapi/code test/list.js test/index.js']],
    );
  });

  test('uvu: the files as a pattern below their common folder, with its preloaded module', async () => {
    const uvuTest = `const { test } = require('uvu');\nconst assert = require('uvu/assert');\nconst { split } = require('../../lib/list');\ntest('splits', () => {\n  assert.equal(split('a,b'), ['a', 'b']);\n});\ntest.run();\n`;
    assert.deepEqual(
      await commandsOf(
        {
          scripts: { test: 'pnpm run /^test:/', 'test:unit': 'uvu -r ts-node/register/transpile-only test "\\.test\\.(ts|js)$"' },
          devDependencies: { uvu: '^0.5.6' },
        },
        { 'test/unit/list.test.js': uvuTest, 'test/unit/deep/split.test.js': uvuTest.replace('../../lib', '../../../lib') },
      ),
      [['uvu', "npx uvu -r ts-node/register/transpile-only test/unit '^(?:deep/split\\.test\\.js|list\\.test\\.js)$'"]],
    );
  });
});

describe('a mocha config a script names by --config (knex)', () => {
  test('its spec globs select tests as a .mocharc does; a config no script names selects nothing', () => {
    const manifest = JSON.stringify({
      scripts: { test: 'mocha --exit -t 10000 --config test/mocha-all-config-test.js && npm run test:tape' },
    });
    const config =
      "module.exports = {\n  spec: ['test/prep-db-mocha.js', 'test/all-tests-suite.js', 'test/integration2/**/*.spec.js'],\n};\n";
    const texts = new Map([
      ['package.json', manifest],
      ['test/mocha-all-config-test.js', config],
      ['test/mocha-other-config.js', "module.exports = { spec: ['test/other/**/*.js'] };\n"],
    ]);
    assert.deepEqual([...listScriptedMochaConfigs(texts)], [['test/mocha-all-config-test.js', '']]);
    const selectors = buildRunnerSelectors(texts);
    assert.equal(selectConfiguredRunner(selectors, 'test/integration2/query/update/updates.spec.js')?.runner, 'mocha');
    assert.equal(selectConfiguredRunner(selectors, 'test/other/a.js'), undefined);
  });
});

describe('a mocha config named by --config, in a repository', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        'package.json': json({
          name: 'fetcher',
          version: '1.0.0',
          main: 'index.js',
          scripts: { test: 'mocha --exit --config test/mocha-config.js' },
          devDependencies: { mocha: '^10.0.0' },
        }),
        'package-lock.json': KARMA_MOCHA['package-lock.json'],
        'index.js': KARMA_MOCHA['index.js'],
        'lib/cancel.js': KARMA_MOCHA['lib/cancel.js'],
        'test/mocha-config.js': "module.exports = { spec: ['test/unit/**/*.spec.js'] };\n",
        'test/unit/cancel.spec.js': KARMA_MOCHA['test/unit/cancel.js'],
      },
      { 'lib/cancel.js': 'exports.isCancel = (value) => value?.__CANCEL__ === true;\n' },
    );
  });
  after(() => fixture.repo.cleanup());

  test('runs the tests its spec selects with mocha', async () => {
    const { testRun } = await analyzeFixture(fixture);
    assert.deepEqual(
      testRun.commands.map((command) => [command.runner, command.files]),
      [['mocha', ['test/unit/cancel.spec.js']]],
    );
  });
});

describe('configs a package script names', () => {
  const scripts = {
    'test:node': 'vitest --config=./test/node/vitest.config.ts',
    'test:browser': 'playwright test -c test/browser/playwright.config.ts',
    'test:gone': 'jest --config ./test/gone/jest.config.js',
    'test:root': 'vitest --config vitest.config.ts',
  };
  const selectors = buildRunnerSelectors(new Map([['package.json', JSON.stringify({ scripts })]]), (path) => !path.includes('/gone/'));

  test('each runs the tests under its folder, with its config; one beside the package.json is found without it', () => {
    assert.deepEqual(selectConfiguredRunner(selectors, 'test/node/a/b.test.ts'), {
      runner: 'vitest',
      cwd: '',
      config: 'test/node/vitest.config.ts',
    });
    assert.deepEqual(selectConfiguredRunner(selectors, 'test/browser/c.test.ts'), {
      runner: 'playwright',
      cwd: '',
      config: 'test/browser/playwright.config.ts',
    });
    assert.equal(selectConfiguredRunner(selectors, 'src/d.test.ts'), undefined);
    // A page script a browser test loads is no test of the runner's.
    assert.equal(selectConfiguredRunner(selectors, 'test/browser/page.mocks.ts'), undefined);
  });

  test('one the repository does not hold selects nothing and is named as unread', () => {
    assert.equal(selectConfiguredRunner(selectors, 'test/gone/e.test.js'), undefined);
    assert.deepEqual(
      selectors.unread.map((item) => [item.path, item.reason]),
      [
        [
          'package.json',
          'a script runs jest with test/gone/jest.config.js, which the repository does not hold; the tests under test/gone/ run by convention',
        ],
      ],
    );
  });
});

describe('a karma config whose files cannot be read statically', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        ...KARMA_MOCHA,
        'karma.conf.cjs': "const specs = require('./specs.json');\nmodule.exports = (config) => config.set({ files: specs });\n",
        'specs.json': '["test/specs/**/*.spec.js"]\n',
      },
      { 'lib/cancel.js': 'exports.isCancel = (value) => value?.__CANCEL__ === true;\n' },
    );
  });
  after(() => fixture.repo.cleanup());

  test('gives karma the *.spec.js files of a package that declares it, and mocha what its globs select', async () => {
    const { testRun, limitations } = await analyzeFixture(fixture);
    assert.deepEqual(testRun.commands.map((command) => [command.runner, command.command]).sort(), [
      ['karma', 'npx karma start karma.conf.cjs --single-run'],
      ['mocha', 'npx mocha test/unit/cancel.js'],
    ]);
    // And says that the karma config was read in vain.
    assert.deepEqual(
      limitations
        .filter((item) => item.code === 'tests/runner-config-unread')
        .map((item) => [item.severity, item.location?.file, item.message]),
      [
        [
          'info',
          'karma.conf.cjs',
          'The test runner configuration karma.conf.cjs could not be read: its `files` list holds no test file pattern checker can read without running the config. Tests under the repository root that it does not select get their runner by convention.',
        ],
      ],
    );
  });
});

describe('a runner configuration that is not valid JSON', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        'package.json': json({ name: 'fetcher', version: '1.0.0', main: 'index.js', devDependencies: { mocha: '^10.0.0' } }),
        'package-lock.json': KARMA_MOCHA['package-lock.json'],
        'index.js': KARMA_MOCHA['index.js'],
        'lib/cancel.js': KARMA_MOCHA['lib/cancel.js'],
        'test/unit/cancel.js': KARMA_MOCHA['test/unit/cancel.js'],
        '.mocharc.json': '{ "spec": ["test/unit/**/*.js"], }}\n',
      },
      { 'lib/cancel.js': 'exports.isCancel = (value) => value?.__CANCEL__ === true;\n' },
    );
  });
  after(() => fixture.repo.cleanup());

  test('is named in a limitation, and what could be read of it still selects its tests', async () => {
    const { testRun, limitations } = await analyzeFixture(fixture);
    assert.deepEqual(
      testRun.commands.map((command) => [command.runner, command.files]),
      [['mocha', ['test/unit/cancel.js']]],
    );
    const unread = limitations.filter((item) => item.code === 'tests/runner-config-unread');
    assert.deepEqual(
      unread.map((item) => item.location?.file),
      ['.mocharc.json'],
    );
    assert.match(
      unread[0]?.message ?? '',
      /^The test runner configuration \.mocharc\.json could not be read: it is not valid JSON \(invalid JSON at offset \d+\); what could be read of it was used\./,
    );
  });
});

/**
 * Item 1b: type tests run under what the repository has for them, never under its runtime runner: tsd beside jest,
 * vitest with typecheck on, tstyche, and nothing at all.
 */
const SOURCE = 'export function slug(text: string): string {\n  return text.toLowerCase();\n}\n';
const CHANGED = 'export function slug(text: string): string {\n  return text.trim().toLowerCase();\n}\n';
const TYPE_TESTS = {
  'package.json': json({ name: 'types', private: true, workspaces: ['packages/*'] }),
  'package-lock.json': '{"lockfileVersion": 3}\n',
  'packages/tsd/package.json': json({ name: 'with-tsd', version: '1.0.0', devDependencies: { jest: '^29.0.0', tsd: '^0.31.0' } }),
  'packages/tsd/src/slug.ts': SOURCE,
  'packages/tsd/test/slug.test-d.ts':
    "import { expectType } from 'tsd';\nimport { slug } from '../src/slug';\nexpectType<string>(slug('A'));\n",
  'packages/vitest/package.json': json({ name: 'with-vitest', version: '1.0.0', devDependencies: { vitest: '^2.0.0' } }),
  'packages/vitest/vitest.config.ts':
    "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { typecheck: { enabled: true } } });\n",
  'packages/vitest/src/slug.ts': SOURCE,
  'packages/vitest/src/slug.test-d.ts':
    "import { expectTypeOf, test } from 'vitest';\nimport { slug } from './slug';\ntest('slug', () => {\n  expectTypeOf(slug('A')).toEqualTypeOf<string>();\n});\n",
  'packages/tstyche/package.json': json({ name: 'with-tstyche', version: '1.0.0', devDependencies: { tstyche: '^3.0.0' } }),
  'packages/tstyche/src/slug.ts': SOURCE,
  'packages/tstyche/typetests/slug.tst.ts':
    "import { expect, test } from 'tstyche';\nimport { slug } from '../src/slug';\ntest('slug', () => {\n  expect(slug('A')).type.toBe<string>();\n});\n",
  'packages/bare/package.json': json({ name: 'bare', version: '1.0.0', devDependencies: { tsx: '^4.0.0' } }),
  'packages/bare/src/slug.ts': SOURCE,
  'packages/bare/src/slug.test-d.ts': "import { slug } from './slug';\nconst typed: string = slug('A');\nvoid typed;\n",
};

describe('type tests', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(TYPE_TESTS, {
      'packages/tsd/src/slug.ts': CHANGED,
      'packages/vitest/src/slug.ts': CHANGED,
      'packages/tstyche/src/slug.ts': CHANGED,
      'packages/bare/src/slug.ts': CHANGED,
    });
  });
  after(() => fixture.repo.cleanup());

  test('run under tsd, vitest --typecheck or tstyche as the package has them; with none, no command and a note', async () => {
    const { testRun } = await analyzeFixture(fixture);
    assert.deepEqual(
      testRun.commands.map((command) => [command.cwd, command.command, command.files]).sort(),
      [
        ['packages/tsd', 'npx tsd', ['packages/tsd/test/slug.test-d.ts']],
        ['packages/tstyche', 'npx tstyche typetests/slug.tst.ts', ['packages/tstyche/typetests/slug.tst.ts']],
        ['packages/vitest', 'npx vitest --typecheck run src/slug.test-d.ts', ['packages/vitest/src/slug.test-d.ts']],
      ],
      json(testRun),
    );
    assert.match(
      testRun.reason,
      /1 type test with no type-test runner declared \(tsd, tstyche, vitest typecheck\) left out: type-check it with the project's tsc/,
    );
    assert.equal(
      testRun.commands.find((command) => command.runner === 'tsd')?.note,
      'tsd takes no file list: this checks every type test of the package, 1 reaching one among them',
    );
  });

  test('a type-only change runs the type tests that read it, and no runtime test', async () => {
    const typesOnly = createChangeFixture(
      {
        ...TYPE_TESTS,
        'packages/tsd/src/options.ts': 'export interface SlugOptions {\n  lower: boolean;\n}\n',
        'packages/tsd/test/options.test-d.ts':
          "import { expectType } from 'tsd';\nimport type { SlugOptions } from '../src/options';\nexpectType<boolean>(({} as SlugOptions).lower);\n",
        'packages/tsd/test/options.test.ts':
          "import type { SlugOptions } from '../src/options';\ntest('options', () => expect(({ lower: true } as SlugOptions).lower).toBe(true));\n",
      },
      { 'packages/tsd/src/options.ts': 'export interface SlugOptions {\n  lower: boolean;\n  separator?: string;\n}\n' },
    );
    try {
      const { testRun } = await analyzeFixture(typesOnly);
      assert.deepEqual(
        [testRun.scope, testRun.commands.map((command) => [command.cwd, command.command, command.files])],
        ['reaching', [['packages/tsd', 'npx tsd', ['packages/tsd/test/options.test-d.ts']]]],
        json(testRun),
      );
    } finally {
      typesOnly.repo.cleanup();
    }
  });

  test('a type test alone with no runner for it gets no command and no whole suite', async () => {
    const only = createChangeFixture(
      { ...TYPE_TESTS },
      { 'packages/bare/src/slug.test-d.ts': "import { slug } from './slug';\nconst typed: string = slug('B');\nvoid typed;\n" },
    );
    try {
      const { testRun } = await analyzeFixture(only);
      assert.deepEqual(testRun, {
        scope: 'none',
        reason:
          "1 reaching type test (packages/bare/src/slug.test-d.ts) and no type-test runner declared (tsd, tstyche, vitest typecheck): type-check it with the project's tsc",
        commands: [],
        omitted: 0,
      });
    } finally {
      only.repo.cleanup();
    }
  });
});
