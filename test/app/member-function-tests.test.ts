import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { AgentBundle } from '../../src/model/bundle.js';
import { createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';

// Check 137 (find-my-way): a change inside `Router.prototype.findRoute = function findNode (…)` named no changed
// code (the function was `findNode`, and no callable held the line), so the proof went to test/issue-330.test.js, a
// test of many internals, over test/find-route.test.js (the line sits deeper than the context lines reach), the test of findRoute that the fix extended.

const router = (safe: boolean): string =>
  [
    "'use strict'",
    "const { compile } = require('./lib/compile')",
    '',
    'function Router () {',
    '  this.routes = []',
    '}',
    '',
    'Router.prototype.on = function on (method, path) {',
    '  this.routes.push({ method, path, regex: compile(path) })',
    '}',
    '',
    'Router.prototype.findRoute = function findNode (method, path) {',
    '  let isParamSafe = false',
    '  for (const route of this.routes) {',
    '    if (route.method === method) {',
    '      for (const part of path.split("/")) {',
    '        if (part.length > 0) {',
    '          if (route.regex.test(path)) {',
    `            isParamSafe = ${safe}`,
    '            return { route, isParamSafe }',
    '          }',
    '        }',
    '      }',
    '    }',
    '  }',
    '  return null',
    '}',
    '',
    'module.exports = Router',
    '',
  ].join('\n');

const BASE = {
  'package.json': JSON.stringify({ name: 'router', version: '1.0.0', scripts: { test: 'node --test test/' } }),
  'index.js': router(false),
  'lib/compile.js': "'use strict'\nmodule.exports.compile = (path) => new RegExp('^' + path + '$')\n",
  'test/find-route.test.js': [
    "const { test } = require('node:test')",
    "const assert = require('node:assert')",
    "const Router = require('..')",
    '',
    "test('findRoute returns the registered route', () => {",
    '  const router = new Router()',
    "  router.on('GET', '/a')",
    "  assert.ok(router.findRoute('GET', '/a'))",
    '})',
    '',
  ].join('\n'),
  'test/internals.test.js': [
    "const { test } = require('node:test')",
    "const assert = require('node:assert')",
    "const Router = require('..')",
    "const { compile } = require('../lib/compile')",
    '',
    "test('route method path regex isParamSafe', () => {",
    '  const router = new Router()',
    "  router.on('GET', '/route/method/path')",
    "  const route = router.findRoute('GET', '/route/method/path')",
    '  assert.ok(route.isParamSafe === false || route.route.regex)',
    "  assert.ok(compile('/route').test('/route'))",
    '})',
    '',
    "test('routes method path regex', () => {",
    '  const router = new Router()',
    "  router.on('POST', '/path')",
    "  assert.ok(router.routes.some((route) => route.method === 'POST' && route.path === '/path' && route.regex))",
    '})',
    '',
  ].join('\n'),
};

const fixtures: ChangeFixture[] = [];
after(() => {
  for (const fixture of fixtures) fixture.repo.cleanup();
});

test('a change inside a function assigned to a prototype member names the member: its own test is the proof', async () => {
  const fixture = createChangeFixture(BASE, { 'index.js': router(true) });
  fixtures.push(fixture);
  const bundle = (await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle')).report;
  const proof = bundle.evidence.changedPathProof.find((entry) => entry.path === 'index.js');
  assert.deepEqual(proof?.reachingTests, ['test/find-route.test.js', 'test/internals.test.js']);
  const task = bundle.tasks.find((entry) => entry.kind === 'proof');
  assert.match(task?.detail ?? '', /extend test\/find-route\.test\.js/);
});
