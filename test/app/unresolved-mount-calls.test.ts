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
    dependencies: { koa: '^2.0.0', 'koa-mount': '^4.0.0', '@koa/router': '^12.0.0', express: '^4.0.0' },
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
    "const legacy = require('./legacy');",
    'const app = new Koa();',
    "app.use(mount('/api', api));",
    'app.use(legacy.routes());',
    'module.exports = app;',
    '',
  ].join('\n'),
  // A router checker sees mounted (at the app's root): its route is served at /legacy.create only.
  'server/legacy.js': [
    "const Router = require('@koa/router');",
    'const router = new Router();',
    "router.post('/legacy.create', async (ctx) => {",
    '  ctx.body = { created: true };',
    '});',
    'module.exports = router;',
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
  // An app of its own, listening elsewhere: it serves /admin.create, never under /api.
  'server/admin.js': [
    "const express = require('express');",
    'const admin = express();',
    'admin.use(express.json());',
    "admin.post('/admin.create', (req, res) => res.json({ created: true }));",
    'module.exports = admin;',
    '',
  ].join('\n'),
  // The helper talks to a running server: it imports nothing of the app.
  'server/test/support.js':
    "exports.getTestServer = () => ({ post: (path, body) => fetch(`http://localhost:3000${path}`, { method: 'POST', body }) });\n",
  'plugins/storage/files.test.js': [
    "const { getTestServer } = require('../../server/test/support');",
    'const server = getTestServer();',
    "test('creates a file', async () => {",
    "  const res = await server.post('/api/files.create', { key: 'a' });",
    '  expect(res.status).toBe(200);',
    "  expect((await server.post('/api/legacy.create', {})).status).toBe(404);",
    "  expect((await server.post('/api/admin.create', {})).status).toBe(404);",
    '});',
    '',
  ].join('\n'),
};

describe('a route under a mount checker cannot resolve is reached by a test that requests it with that prefix', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, {
      'plugins/storage/files.js': BASE['plugins/storage/files.js'].replace('created: true', 'created: true, signed: true'),
      'server/legacy.js': BASE['server/legacy.js'].replace('created: true', 'created: false'),
      'server/admin.js': BASE['server/admin.js'].replace('created: true', 'created: false'),
    });
  });
  after(() => fixture.repo.cleanup());

  test('the plugin test reaches the changed handler through its call; a router mounted elsewhere is not reached', async () => {
    const analysis = await analyzeFixture(fixture);
    const proof = analysis.changedPathProof.find((entry) => entry.path === 'plugins/storage/files.js');
    assert.deepEqual(proof?.reachingTests, ['plugins/storage/files.test.js']);
    // A call under the unresolved mount's prefix reaches neither a router served elsewhere nor an app of its own.
    assert.deepEqual(analysis.changedPathProof.find((entry) => entry.path === 'server/legacy.js')?.reachingTests, []);
    assert.deepEqual(analysis.changedPathProof.find((entry) => entry.path === 'server/admin.js')?.reachingTests, []);
    assert.deepEqual(
      analysis.missingTests.map((missing) => missing.id),
      ['route:POST /admin.create', 'route:POST /legacy.create'],
    );
  });
});
