import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildRunnerSelectors } from '../../src/app/test-runners.js';
import { analyzeFixture, type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';

/**
 * Issue 41, item 1: files a runner loads before each test file (jasmine's helpers, mocha's `require`, jest's and
 * vitest's `setupFiles`) are run by every test it loads them for, so those tests reach what the setup file imports.
 * The shape is parse-server's: `spec/support/jasmine.json` names `helper.js`, which starts the server for every spec;
 * the specs talk to it through a client and import nothing of the server.
 */
const JASMINE = {
  'package.json': JSON.stringify({ name: 'server', version: '1.0.0', devDependencies: { jasmine: '^5.0.0' } }),
  'spec/support/jasmine.json': JSON.stringify({ spec_dir: 'spec', spec_files: ['*spec.js'], helpers: ['helper.js'] }),
  'spec/helper.js': "const { startServer } = require('../src/server');\nglobal.server = startServer();\n",
  'spec/Features.spec.js':
    "const { request } = require('./client');\ndescribe('features', () => { it('answers', async () => { expect((await request('/features')).status).toBe(200); }); });\n",
  'spec/client.js': 'exports.request = async (path) => fetch(`http://localhost:8378/1${path}`);\n',
  'src/server.js': "const { features } = require('./routers/features');\nexports.startServer = () => features();\n",
  'src/routers/features.js': 'exports.features = () => ({ push: false });\n',
  'src/unused.js': 'exports.nothing = () => 0;\n',
};

describe('tests that a runner loads a setup file for reach what it imports', () => {
  let jasmine: ChangeFixture;
  let unused: ChangeFixture;
  let withoutHelpers: ChangeFixture;
  before(() => {
    const change = { 'src/routers/features.js': 'exports.features = () => ({ push: true });\n' };
    jasmine = createChangeFixture(JASMINE, change);
    unused = createChangeFixture(JASMINE, { 'src/unused.js': 'exports.nothing = () => 1;\n' });
    withoutHelpers = createChangeFixture(
      { ...JASMINE, 'spec/support/jasmine.json': JSON.stringify({ spec_dir: 'spec', spec_files: ['*spec.js'] }) },
      change,
    );
  });
  after(() => {
    for (const fixture of [jasmine, unused, withoutHelpers]) fixture.repo.cleanup();
  });

  test('jasmine: every spec reaches what spec/helper.js starts, two steps further, and is the test to run', async () => {
    const analysis = await analyzeFixture(jasmine);
    const proof = analysis.changedPathProof.find((entry) => entry.path === 'src/routers/features.js');
    // spec/helper.js, which imports the server and declares no test, is run with the specs, not listed as one.
    assert.deepEqual(proof?.reachingTests, ['spec/Features.spec.js']);
    assert.equal(analysis.testRun.scope, 'reaching', analysis.testRun.reason);
    assert.deepEqual(
      analysis.testRun.commands.map((command) => command.command),
      ['npx jasmine spec/Features.spec.js'],
    );
  });

  test('a file the setup file does not reach is reached by no spec', async () => {
    const analysis = await analyzeFixture(unused);
    assert.deepEqual(analysis.changedPathProof.find((entry) => entry.path === 'src/unused.js')?.reachingTests, []);
  });

  test('without the helpers entry no spec reaches the server', async () => {
    const analysis = await analyzeFixture(withoutHelpers);
    assert.deepEqual(analysis.changedPathProof.find((entry) => entry.path === 'src/routers/features.js')?.reachingTests, []);
  });
});

describe('karma: a helper its files list names is run before every spec, and is no test itself (axios)', () => {
  let karma: ChangeFixture;
  before(() => {
    karma = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'client', version: '1.0.0', devDependencies: { karma: '^6.0.0', jasmine: '^5.0.0' } }),
        'karma.conf.cjs':
          "module.exports = (config) => config.set({ frameworks: ['jasmine'], files: [{ pattern: 'test/specs/__helpers.js' }, { pattern: 'test/specs/**/*.spec.js' }] });\n",
        'index.js': "export { send } from './lib/send.js';\n",
        'lib/send.js': 'export const send = (url) => ({ url, xsrf: true });\n',
        'test/specs/__helpers.js': "import { send } from '../../index.js';\nwindow.send = send;\n",
        'test/specs/xsrf.spec.js': "describe('xsrf', () => { it('sends', () => { expect(window.send('/a').xsrf).toBe(true); }); });\n",
      },
      { 'lib/send.js': 'export const send = (url) => ({ url, xsrf: false });\n' },
    );
  });
  after(() => karma.repo.cleanup());

  test('the spec that imports nothing reaches lib/send.js through the helper; the helper is not listed', async () => {
    const analysis = await analyzeFixture(karma);
    assert.deepEqual(analysis.changedPathProof.find((entry) => entry.path === 'lib/send.js')?.reachingTests, ['test/specs/xsrf.spec.js']);
  });
});

describe('buildRunnerSelectors: the setup files of each runner, read without running a config', () => {
  const setupOf = (texts: Record<string, string>, path: string, test: string): string[] =>
    buildRunnerSelectors(new Map(Object.entries(texts)))
      .setup.filter((setup) => setup.isSetupFile(path) && setup.runsFor(test))
      .map((setup) => setup.config);

  test('vitest setupFiles and globalSetup, jest in package.json with <rootDir>, mocha require; packages are no files', () => {
    const vitest = {
      'web/vitest.config.ts': "export default { test: { setupFiles: ['./test/setup.ts'], globalSetup: 'test/global.ts' } };\n",
    };
    assert.deepEqual(setupOf(vitest, 'web/test/setup.ts', 'web/src/a.test.ts'), ['web/vitest.config.ts']);
    assert.deepEqual(setupOf(vitest, 'web/test/global.ts', 'web/src/a.test.ts'), ['web/vitest.config.ts']);
    // Only the tests of its own folder.
    assert.deepEqual(setupOf(vitest, 'web/test/setup.ts', 'api/src/a.test.ts'), []);
    const jest = { 'package.json': JSON.stringify({ jest: { setupFilesAfterEnv: ['<rootDir>/jest.setup.js', 'jest-extended/all'] } }) };
    assert.deepEqual(setupOf(jest, 'jest.setup.js', 'src/a.test.js'), ['package.json']);
    assert.deepEqual(setupOf(jest, 'jest-extended/all', 'src/a.test.js'), []);
    const mocha = { '.mocharc.json': JSON.stringify({ require: ['ts-node/register', './test/setup.js'], spec: 'test/**/*.js' }) };
    assert.deepEqual(setupOf(mocha, 'test/setup.js', 'test/a.js'), ['.mocharc.json']);
    const mochaJs = { 'api/.mocharc.js': "module.exports = { file: './test/hooks.js', spec: 'test/**/*.js' };\n" };
    assert.deepEqual(setupOf(mochaJs, 'api/test/hooks.js', 'api/test/a.js'), ['api/.mocharc.js']);
  });

  test('karma: a file its `files` list names one by one is loaded before the specs its globs list (axios)', () => {
    const texts = {
      'karma.conf.cjs':
        "module.exports = (config) => config.set({ basePath: '', files: [{ pattern: 'test/specs/__helpers.js' }, { pattern: 'test/specs/**/*.spec.js' }] });\n",
    };
    assert.deepEqual(setupOf(texts, 'test/specs/__helpers.js', 'test/specs/xsrf.spec.js'), ['karma.conf.cjs']);
    assert.deepEqual(setupOf(texts, 'test/specs/__helpers.js', 'test/unit/xsrf.js'), []);
  });

  test('jasmine: helpers and spec_files are relative to spec_dir, from the folder jasmine runs in', () => {
    const texts = {
      'server/spec/support/jasmine.json': JSON.stringify({
        spec_dir: 'spec',
        spec_files: ['**/*[sS]pec.js'],
        helpers: ['helpers/**/*.js'],
      }),
    };
    assert.deepEqual(setupOf(texts, 'server/spec/helpers/db.js', 'server/spec/a/Users.spec.js'), ['server/spec/support/jasmine.json']);
    assert.deepEqual(setupOf(texts, 'server/spec/helpers/db.js', 'server/spec/a/users.js'), []);
    assert.deepEqual(setupOf(texts, 'spec/helpers/db.js', 'server/spec/a/Users.spec.js'), []);
  });
});
