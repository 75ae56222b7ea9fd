import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { analyzeFixture, type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';

/**
 * Issue 41, found on outline (86335325e8): `auth(options)` changed only inside `if (options.optional …)`, so only the
 * routes registered with `auth({ optional: true })` can run the changed lines; the auth cases were asked of every route
 * behind `auth()` as well.
 */
const guard = (surfaceForbidden: boolean): string =>
  [
    'function auth(options = {}) {',
    '  return function authMiddleware(req, res, next) {',
    '    try {',
    '      if (!req.headers.authorization) throw Object.assign(new Error("sign in"), { status: 401 });',
    '      next();',
    '    } catch (err) {',
    surfaceForbidden ? '      if (options.optional && err.status !== 403) {' : '      if (options.optional) {',
    '        req.user = undefined;',
    '        return next();',
    '      }',
    '      return res.status(err.status).json({ error: err.message });',
    '    }',
    '  };',
    '}',
    'module.exports = { auth };',
    '',
  ].join('\n');

const BASE = {
  'package.json': JSON.stringify({ name: 'api', version: '1.0.0', dependencies: { express: '^4.0.0' } }),
  'src/auth.js': guard(false),
  'src/app.js': [
    "const express = require('express');",
    "const { auth } = require('./auth');",
    'const app = express();',
    "app.get('/public', auth({ optional: true }), (req, res) => res.json({ user: req.user }));",
    "app.get('/private', auth(), (req, res) => res.json(req.user));",
    "app.get('/admin', auth({ optional: false, admin: true }), (req, res) => res.json(req.user));",
    "app.get('/unknown', auth(settings), (req, res) => res.json(req.user));",
    'module.exports = app;',
    '',
  ].join('\n'),
};

describe('a guard changed only behind an option reaches the routes that set it', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, { 'src/auth.js': guard(true) });
  });
  after(() => fixture.repo.cleanup());

  test('auth cases for the route given optional, and the one whose options cannot be read; none for auth() or optional: false', async () => {
    const analysis = await analyzeFixture(fixture);
    const reached = analysis.impactedRoutes.map((route) => `${route.method} ${route.path}`).sort();
    // Every route still runs the guard: reach is unchanged, only the question of what the change can do to each.
    assert.deepEqual(reached, ['GET /admin', 'GET /private', 'GET /public', 'GET /unknown']);
    const asked = [...analysis.edgeCases.top, ...analysis.edgeCases.overflow]
      .filter((edge) => edge.provenance.endsWith('#edge-case/route-unauthenticated'))
      .map((edge) => edge.scope)
      .sort();
    assert.deepEqual(asked, ['GET /public', 'GET /unknown']);
  });
});
