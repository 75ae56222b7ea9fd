import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { analyzeFixture, type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';

/**
 * Issue 41: in an app whose API tests all start it through one harness (test/support.js), every test reaches every
 * route file, so only what a test says tells its route apart. A change inside the `userMemberships.list` handler of
 * server/api/userMemberships.js: the test whose title says that route is its test, though another test's code says more
 * of the words around the change (collection, archived, include, where).
 */
const mochaFile = (titles: string[], body: string[]): string =>
  [
    "const assert = require('node:assert');",
    "const { getTestServer } = require('./support');",
    ...titles.flatMap((title) => [
      `describe('${title}', () => {`,
      "  it('answers', async () => {",
      '    const server = getTestServer();',
      ...body.map((line) => `    ${line}`),
      '  });',
      '});',
    ]),
    '',
  ].join('\n');

const BASE = {
  'package.json': JSON.stringify({
    name: 'wiki',
    version: '1.0.0',
    dependencies: { koa: '^2.0.0', '@koa/router': '^12.0.0' },
    devDependencies: { mocha: '^10.0.0' },
  }),
  'server/api/userMemberships.js': [
    "const Router = require('@koa/router');",
    'const router = new Router();',
    "router.post('/userMemberships.list', async (ctx) => {",
    '  const { user } = ctx.state;',
    '  if (user) {',
    '    ctx.body = await ctx.db.memberships.findAll({',
    '      where: { userId: user.id },',
    '      include: [',
    '        {',
    "          association: 'collection',",
    '          where: { archivedAt: null },',
    '        },',
    '      ],',
    '    });',
    '  }',
    '});',
    'module.exports = router;',
    '',
  ].join('\n'),
  'server/app.js': [
    "const Koa = require('koa');",
    "const Router = require('@koa/router');",
    "const userMemberships = require('./api/userMemberships');",
    'const app = new Koa();',
    'const router = new Router();',
    "router.use('/api', userMemberships.routes());",
    'app.use(router.routes());',
    'module.exports = app;',
    '',
  ].join('\n'),
  'test/support.js': "const app = require('../server/app');\nexports.getTestServer = () => app;\n",
  'test/userMemberships.test.js': mochaFile(
    ['#userMemberships.list'],
    ["const res = await server.post('/api/userMemberships.list');", 'assert.equal(res.status, 200);'],
  ),
  'test/collections.test.js': mochaFile(
    ['#collections.memberships', '#collections.user_memberships', '#collections.list'],
    [
      "const res = await server.post('/api/collections.list', { include: 'archived', where: { archivedAt: null } });",
      'const collection = res.body.find((item) => item.association);',
      'assert.equal(collection.archivedAt, null);',
    ],
  ),
  'test/documents.test.js': mochaFile(
    ['#documents.memberships', '#documents.users'],
    ["const res = await server.post('/api/documents.memberships', { user: 1 });", 'assert.ok(res);'],
  ),
  'test/groups.test.js': mochaFile(
    ['#groups.memberships'],
    ["const res = await server.post('/api/groups.memberships');", 'assert.ok(res);'],
  ),
};

describe("a route's own test, named by the route its title says", () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, {
      'server/api/userMemberships.js': BASE['server/api/userMemberships.js'].replace(
        'where: { archivedAt: null },',
        'where: { archivedAt: null, deletedAt: null },',
      ),
    });
  });
  after(() => fixture.repo.cleanup());

  test('the test whose title says the changed route leads the reaching tests and the run', async () => {
    const analysis = await analyzeFixture(fixture);
    const proof = analysis.changedPathProof.find((entry) => entry.path === 'server/api/userMemberships.js');
    assert.equal(proof?.reachingTests[0], 'test/userMemberships.test.js', proof?.reachingTests.join(', '));
    assert.deepEqual(analysis.testRun.commands[0]?.files[0], 'test/userMemberships.test.js');
  });
});
