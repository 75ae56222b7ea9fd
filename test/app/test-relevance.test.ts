import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AgentBundle } from '../../src/model/bundle.js';
import type { AuditTestsReport } from '../../src/model/reports.js';
import { analyzeFixture, createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';

/**
 * Issue 41, item 1: the tests a runner would run for a change, in the order a reviewer would pick them. A JavaScript
 * library shaped like Express: its package names `types` (a declaration, no code) and `main`; its tests `require('../')`
 * or start the library through a shared helper that declares no tests, so every test reaches every module.
 */
const mochaTest = (path: string, suite: string, title: string, helper: string): string =>
  [
    `const assert = require('node:assert');`,
    `const { start } = require('${helper}');`,
    `describe('${suite}', () => {`,
    `  describe('${title}', () => {`,
    `    it('works', () => assert.ok(start()));`,
    '  });',
    '});',
    `// ${path}`,
    '',
  ].join('\n');

const BASE = {
  'package.json': JSON.stringify({
    name: 'web',
    version: '1.0.0',
    main: './index.js',
    types: './index.d.ts',
    devDependencies: { mocha: '^10.0.0' },
  }),
  'package-lock.json': '{"lockfileVersion": 3}\n',
  'index.d.ts': 'export declare function createApp(): { send(body: unknown): unknown };\n',
  'index.js': "module.exports = require('./lib/app');\n",
  'lib/app.js': [
    "const response = require('./response');",
    "const request = require('./request');",
    'exports.createApp = function createApp() {',
    '  return { ...response, ...request };',
    '};',
    '',
  ].join('\n'),
  'lib/response.js': [
    'exports.redirect = function redirect(url) {',
    '  return { status: 302, url };',
    '};',
    'exports.send = function send(body) {',
    '  return { status: 200, body };',
    '};',
    '',
  ].join('\n'),
  'lib/request.js': "exports.accepts = function accepts(type) {\n  return type === 'json';\n};\n",
  'test/support.js': "const web = require('../');\nexports.start = () => web.createApp();\n",
  'test/app.js': mochaTest('test/app.js', 'app', '.createApp()', '../'),
  'test/req.accepts.js': mochaTest('test/req.accepts.js', 'req', '.accepts(type)', './support'),
  'test/res.redirect.js': mochaTest('test/res.redirect.js', 'res', '.redirect(url)', './support'),
  'test/res.send.js': mochaTest('test/res.send.js', 'res', '.send(body)', './support'),
  // Says redirect everywhere, imports none of the library: naming the change must never make a test reach it.
  'test/redirect.docs.js':
    "const assert = require('node:assert');\ndescribe('redirect', () => it('documents redirect', () => assert.ok('redirect')));\n",
};

describe('reaching tests as a runner sees them, the ones that name the change first', () => {
  let fixture: ChangeFixture;
  before(() => {
    // test/app.js calls `start` from the package root: `require('../')` must reach index.js, not only index.d.ts.
    BASE['test/app.js'] = BASE['test/app.js'].replace(
      "const { start } = require('../');",
      "const start = () => require('../').createApp();",
    );
    fixture = createChangeFixture(BASE, {
      'lib/response.js': BASE['lib/response.js'].replace('status: 302', 'status: 301'),
    });
  });
  after(() => fixture.repo.cleanup());

  test('the test named after the changed function leads the run; the shared helper is no test; require of the package root reaches its main', async () => {
    const { report: bundle } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    assert.equal(bundle.evidence.testRun.scope, 'reaching');
    assert.deepEqual(
      bundle.evidence.testRun.commands.map((command) => command.command),
      ['npx mocha test/res.redirect.js test/app.js test/req.accepts.js test/res.send.js'],
    );
    const proof = bundle.evidence.changedPathProof.find((entry) => entry.path === 'lib/response.js');
    assert.deepEqual(proof?.reachingTests, ['test/res.redirect.js', 'test/app.js', 'test/req.accepts.js', 'test/res.send.js']);
    assert.equal(proof?.reachingTestCount, 4, 'test/support.js declares no tests and is imported: support, not a test');
    const { report: audit } = await runJsonReport<AuditTestsReport>(fixture, ['audit-tests'], 'audit-tests-report');
    assert.deepEqual(audit.recommendedChecks.testRun, bundle.evidence.testRun);
  });

  test('reach is ordered, never widened: a test that names the change but imports none of it is not listed', async () => {
    const analysis = await analyzeFixture(fixture);
    const reaching = analysis.changedPathProof.find((entry) => entry.path === 'lib/response.js')?.reachingTests ?? [];
    assert.equal(reaching.includes('test/redirect.docs.js'), false, reaching.join(', '));
    assert.equal(
      analysis.testRun.commands.some((command) => command.files.includes('test/redirect.docs.js')),
      false,
    );
  });
});

// Check 121 (winstonjs/winston 333b763): rejection-handler.js swapped `const ExceptionStream = require('./exception-stream')`
// for a RejectionStream; the proof went to exception-stream.test.js, named for the binding the change removed.
describe('a changed import line names the imported module, not a callable of the file', () => {
  let fixture: ChangeFixture;
  const handler = (stream: string, file: string): string =>
    [
      `const ${stream} = require('./${file}');`,
      'module.exports = class RejectionHandler {',
      '  handle(transport) {',
      `    return new ${stream}(transport);`,
      '  }',
      '};',
      '',
    ].join('\n');
  const testOf = (subject: string, title: string): string =>
    [
      "const assert = require('node:assert');",
      `const Subject = require('../lib/${subject}');`,
      `describe('${title}', () => {`,
      "  it('works', () => assert.ok(Subject));",
      '});',
      '',
    ].join('\n');
  before(() => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({ name: 'logs', version: '1.0.0', devDependencies: { mocha: '^10.0.0' } }),
        'package-lock.json': '{"lockfileVersion": 3}\n',
        'lib/exception-stream.js':
          'module.exports = class ExceptionStream {\n  constructor(transport) {\n    this.transport = transport;\n  }\n};\n',
        'lib/rejection-stream.js':
          'module.exports = class RejectionStream {\n  constructor(transport) {\n    this.transport = transport;\n  }\n};\n',
        'lib/rejection-handler.js': handler('ExceptionStream', 'exception-stream'),
        // Both reach the handler; the exception stream's test says ExceptionStream throughout.
        'test/exception-stream.test.js': `${testOf('exception-stream', 'ExceptionStream')}require('../lib/rejection-handler');\n`,
        'test/rejection-handler.test.js': testOf('rejection-handler', 'RejectionHandler'),
      },
      { 'lib/rejection-handler.js': handler('RejectionStream', 'rejection-stream') },
    );
  });
  after(() => fixture.repo.cleanup());

  test("the proof extends the changed file's own test", async () => {
    const { changedPathProof } = await analyzeFixture(fixture);
    const proof = changedPathProof.find((entry) => entry.path === 'lib/rejection-handler.js');
    assert.match(proof?.repairTask ?? '', /extend test\/rejection-handler\.test\.js /, proof?.repairTask);
  });
});

/**
 * Check 166 (more-itertools d992be0): a fix inside the private `_windowed_running_min` of recipes.py. The file's own
 * test, tests/test_recipes.py, never calls it or the `running_min` it serves; tests/test_more.py calls `running_min`.
 */
describe('a change to a private helper is the change of the exports that call it', () => {
  let fixture: ChangeFixture;
  const recipes = (kept: string): string =>
    [
      '__all__ = ["running_min", "take"]',
      '',
      '',
      'def _windowed_running_min(values, size):',
      '    window = []',
      '    for value in values:',
      `        while window and not window[-1] ${kept} value:`,
      '            window.pop()',
      '        window.append(value)',
      '        yield window[0]',
      '',
      '',
      'def running_min(values, size=None):',
      '    return _windowed_running_min(values, size)',
      '',
      '',
      'def take(n, values):',
      '    return list(values)[:n]',
      '',
    ].join('\n');
  const pytest = (name: string, calls: string): string =>
    ['import tools', '', '', `def test_${name}():`, `    assert ${calls}`, ''].join('\n');
  before(() => {
    fixture = createChangeFixture(
      {
        'pyproject.toml': '[project]\nname = "tools"\nversion = "1.0"\n',
        'tools/__init__.py': 'from .recipes import *\n',
        'tools/recipes.py': recipes('<'),
        'tests/test_recipes.py': pytest('take', 'tools.take(1, [3, 4]) == [3]'),
        'tests/test_more.py': pytest('running_min', 'list(tools.running_min([2, 1])) == [2, 1]'),
      },
      { 'tools/recipes.py': recipes('<=') },
    );
  });
  after(() => fixture.repo.cleanup());

  test('the proof extends the test that calls running_min, not the file-named test that never does', async () => {
    const { changedPathProof } = await analyzeFixture(fixture);
    const proof = changedPathProof.find((entry) => entry.path === 'tools/recipes.py');
    assert.match(proof?.repairTask ?? '', /extend tests\/test_more\.py /, proof?.repairTask);
  });
});

/**
 * The fourth independent check (outline 4845da08ac): a fix in the handler of `POST /register` in
 * server/routes/oauth/index.ts. The test named for the file, index.test.ts, is about revoke and token; oauth.test.ts's
 * `#oauth.register` is the route's test, where the fix went.
 */
describe('a file-named test whose titles say none of the changed routes yields to one whose titles say one', () => {
  let fixture: ChangeFixture;
  const routes = (name: string): string =>
    [
      "const Router = require('@koa/router');",
      'const router = new Router();',
      "router.post('/register', async (ctx) => {",
      `  ctx.body = { name: ${name} };`,
      '});',
      "router.post('/revoke', async (ctx) => {",
      '  ctx.body = { revoked: true };',
      '});',
      'module.exports = router;',
      '',
    ].join('\n');
  const jest = (title: string): string =>
    [
      "const router = require('./index');",
      `describe('${title}', () => {`,
      "  it('answers', () => expect(router.stack.length).toBe(2));",
      '});',
      '',
    ].join('\n');
  before(() => {
    fixture = createChangeFixture(
      {
        'package.json': JSON.stringify({
          name: 'wiki',
          version: '1.0.0',
          dependencies: { '@koa/router': '^12.0.0', koa: '^2.15.0' },
          devDependencies: { jest: '^29.0.0' },
        }),
        'server/routes/oauth/index.js': routes('ctx.request.body.client_name'),
        'server/routes/oauth/index.test.js': jest('#oauth.revoke'),
        'server/routes/oauth/oauth.test.js': jest('#oauth.register'),
      },
      { 'server/routes/oauth/index.js': routes("ctx.request.body.client_name ?? 'Untitled application'") },
    );
  });
  after(() => fixture.repo.cleanup());

  test('the proof extends oauth.test.js, whose titles say the register route, not index.test.js', async () => {
    const { changedPathProof } = await analyzeFixture(fixture);
    const proof = changedPathProof.find((entry) => entry.path === 'server/routes/oauth/index.js');
    assert.match(proof?.repairTask ?? '', /extend server\/routes\/oauth\/oauth\.test\.js /, proof?.repairTask);
  });
});
