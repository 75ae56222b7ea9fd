import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { analyzeFixture, type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';

/**
 * outline 03c7576b93 (the third independent check of issue 41): a plugin's router is registered through a hook and
 * mounted by `router.use('/', hook.value.routes())` inside the router served at `/api`, which checker cannot resolve; the
 * plugin's test requests `/api/files.create` through a test server a helper makes (`getTestServer()`). The bundle said
 * no test reached the plugin's route and asked for one.
 */
const BASE = {
  'package.json': JSON.stringify({
    name: 'wiki',
    version: '1.0.0',
    dependencies: { koa: '^2.0.0', 'koa-mount': '^4.0.0', '@koa/router': '^12.0.0' },
    devDependencies: { vitest: '^3.0.0' },
  }),
  'server/api/index.js': [
    "const Koa = require('koa');",
    "const Router = require('@koa/router');",
    "const { getHooks } = require('../plugins');",
    'const api = new Koa();',
    'const router = new Router();',
    "for (const hook of getHooks('api')) {",
    "  router.use('/', hook.value.routes());",
    '}',
    'api.use(router.routes());',
    'module.exports = api;',
    '',
  ].join('\n'),
  'server/web.js': [
    "const Koa = require('koa');",
    "const mount = require('koa-mount');",
    "const api = require('./api');",
    'const app = new Koa();',
    "app.use(mount('/api', api));",
    'module.exports = app;',
    '',
  ].join('\n'),
  'server/plugins.js':
    'const hooks = [];\nexports.add = (hook) => hooks.push(hook);\nexports.getHooks = (type) => hooks.filter((hook) => hook.type === type);\n',
  'plugins/storage/files.js': [
    "const Router = require('@koa/router');",
    'const router = new Router();',
    "router.post('/files.create', async (ctx) => {",
    '  ctx.body = { created: true };',
    '});',
    'module.exports = router;',
    '',
  ].join('\n'),
  'plugins/storage/index.js': "const { add } = require('../../server/plugins');\nadd({ type: 'api', value: require('./files') });\n",
  'server/test/support.js': [
    "const request = require('supertest');",
    "const app = require('../web');",
    'exports.getTestServer = () => ({ post: (path, body) => request(app.callback()).post(path).send(body) });',
    '',
  ].join('\n'),
  'plugins/storage/files.test.js': [
    "const { getTestServer } = require('../../server/test/support');",
    'const server = getTestServer();',
    "test('creates a file', async () => {",
    "  const res = await server.post('/api/files.create', { key: 'a' });",
    '  expect(res.status).toBe(200);',
    '});',
    '',
  ].join('\n'),
};

describe('a route under a mount checker cannot resolve is reached by a test that requests it with that prefix', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, {
      'plugins/storage/files.js': BASE['plugins/storage/files.js'].replace('created: true', 'created: true, signed: true'),
    });
  });
  after(() => fixture.repo.cleanup());

  test('the plugin test reaches the changed handler through its call, and no task asks for a test of the route', async () => {
    const analysis = await analyzeFixture(fixture);
    const proof = analysis.changedPathProof.find((entry) => entry.path === 'plugins/storage/files.js');
    assert.deepEqual(proof?.reachingTests, ['plugins/storage/files.test.js']);
    assert.deepEqual(analysis.missingTests, []);
  });
});
