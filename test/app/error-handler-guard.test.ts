import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { analyzeFixture, type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';

/**
 * Issue 41, item 3: an error handler that maps errors to statuses (401 for an authentication error, 400 for a
 * validation error, 429 for too many requests) is not an auth guard, whatever it answers; a middleware that answers
 * 401 and 403 only is one.
 */
const BASE = {
  'package.json': JSON.stringify({ name: 'api', version: '1.0.0', dependencies: { express: '^4.0.0' } }),
  'src/errors.js': [
    'function apiErrorHandler(err, req, res, next) {',
    "  if (err.name === 'AuthenticationError') return res.status(401).json({ error: err.message });",
    "  if (err.name === 'AuthorizationError') return res.status(403).json({ error: err.message });",
    "  if (err.name === 'ValidationError') return res.status(400).json({ error: err.message });",
    "  if (err.name === 'RateLimitError') return res.status(429).json({ error: err.message });",
    '  next(err);',
    '}',
    'module.exports = { apiErrorHandler };',
    '',
  ].join('\n'),
  'src/guard.js': [
    'function checkUser(req, res, next) {',
    "  if (!req.headers.authorization) return res.status(401).json({ error: 'sign in' });",
    "  if (!req.user.active) return res.status(403).json({ error: 'forbidden' });",
    '  next();',
    '}',
    'module.exports = { checkUser };',
    '',
  ].join('\n'),
  'src/app.js': [
    "const express = require('express');",
    "const { apiErrorHandler } = require('./errors');",
    "const { checkUser } = require('./guard');",
    'const app = express();',
    "app.get('/items', apiErrorHandler, (req, res) => res.json([]));",
    "app.get('/me', checkUser, (req, res) => res.json(req.user));",
    'module.exports = app;',
    '',
  ].join('\n'),
};

describe('an error handler that maps errors to statuses guards nothing', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, {
      'src/app.js': BASE['src/app.js']
        .replace('res.json([])', 'res.json([{ id: 1 }])')
        .replace('res.json(req.user)', 'res.json({ user: req.user })'),
    });
  });
  after(() => fixture.repo.cleanup());

  test('apiErrorHandler guards nothing; checkUser (401 and 403 only) is an auth guard', async () => {
    const analysis = await analyzeFixture(fixture);
    const guards = (id: string) =>
      (analysis.impactedRoutes.find((route) => route.id === id)?.guards ?? []).map((guard) => [
        guard.name,
        guard.role,
        guard.confidence,
        guard.evidence,
      ]);
    // Middleware classified other is no guard: the route lists none.
    assert.deepEqual(guards('route:GET /items'), []);
    const me = guards('route:GET /me');
    assert.deepEqual(
      me.map(([name, role, confidence]) => [name, role, confidence]),
      [['checkUser', 'auth', 'high']],
    );
    const unauthenticated = [...analysis.edgeCases.top, ...analysis.edgeCases.overflow]
      .filter((edgeCase) => edgeCase.provenance.includes('route-unauthenticated'))
      .flatMap((edgeCase) => edgeCase.evidenceIds.filter((id) => id.startsWith('route:')));
    assert.deepEqual(
      unauthenticated,
      ['route:GET /me'],
      'the unauthenticated case for the guarded route only, not for the route behind the error handler',
    );
  });
});
