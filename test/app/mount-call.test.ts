import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { analyzeFixture, type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';

/**
 * Issue 41, item 3: `app.use(mount('/api', api))` (koa-mount) serves the routes of `api` under `/api`; a handler
 * change reaches `POST /api/documents.restore`, not `POST /documents.restore`.
 */
const BASE = {
  'package.json': JSON.stringify({
    name: 'wiki',
    version: '1.0.0',
    dependencies: { koa: '^2.0.0', 'koa-mount': '^4.0.0', '@koa/router': '^12.0.0' },
  }),
  'server/api/documents.js': [
    "const Router = require('@koa/router');",
    'const router = new Router();',
    "router.post('/documents.restore', async (ctx) => {",
    '  ctx.body = { restored: true };',
    '});',
    "router.post('/documents.list', async (ctx) => {",
    '  ctx.body = [];',
    '});',
    'module.exports = router;',
    '',
  ].join('\n'),
  'server/api/index.js': [
    "const Koa = require('koa');",
    "const Router = require('@koa/router');",
    "const documents = require('./documents');",
    'const api = new Koa();',
    'const router = new Router();',
    "router.use('/', documents.routes());",
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
};

/**
 * The same app with its mount made at the top of web.js, and in Outline's shape: inside
 * `export default function init(app: Koa = new Koa(), server?)`, on a parameter with a default value, which is the app
 * as much as a bare parameter is.
 */
const WEB_SHAPES: Record<string, string> = {
  'an app declared at the top': BASE['server/web.js'],
  'an app parameter with a default value': [
    "const Koa = require('koa');",
    "const mount = require('koa-mount');",
    "const api = require('./api');",
    'module.exports = function init(app = new Koa(), server) {',
    "  app.use(mount('/api', api));",
    '  return app;',
    '};',
    '',
  ].join('\n'),
};

for (const [shape, web] of Object.entries(WEB_SHAPES)) {
  describe(`routes served through a mount call on ${shape}`, () => {
    let fixture: ChangeFixture;
    before(() => {
      fixture = createChangeFixture(
        { ...BASE, 'server/web.js': web },
        {
          'server/api/documents.js': BASE['server/api/documents.js'].replace('{ restored: true }', '{ restored: true, at: Date.now() }'),
        },
      );
    });
    after(() => fixture.repo.cleanup());

    test("a handler change reaches its route under the mount's prefix, and only that route", async () => {
      const analysis = await analyzeFixture(fixture);
      assert.deepEqual(
        analysis.impactedRoutes.map((route) => `${route.method} ${route.path}`),
        ['POST /api/documents.restore'],
      );
      assert.deepEqual(
        analysis.limitations.filter((limitation) => limitation.code === 'routes/unmatched-mount'),
        [],
        'the app mounted through module.exports = api is found',
      );
    });
  });
}
