import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { analyzeFixture, type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';

/**
 * Issue 41 (check 6, outline f8ccdf143c): a method added to a model class is called by nothing that was there before.
 * A handler that uses the class whole (`Team.findByPk`, inherited from the ORM's base class) was reached through the
 * class and called a route of the change: 238 routes through "changed Team.isTeamUrl", which one handler calls.
 */
const BASE = {
  'package.json': JSON.stringify({ name: 'wiki', version: '1.0.0', dependencies: { koa: '^2.0.0', '@koa/router': '^12.0.0' } }),
  'server/models/Team.js': [
    "const { Model } = require('sequelize');",
    'class Team extends Model {',
    '  get url() {',
    '    return `https://${this.subdomain}.example.com`;',
    '  }',
    '}',
    'module.exports = Team;',
    '',
  ].join('\n'),
  'server/routes.js': [
    "const Router = require('@koa/router');",
    "const Team = require('./models/Team');",
    'const router = new Router();',
    "router.get('/teams/:id', async (ctx) => {",
    '  const team = await Team.findByPk(ctx.params.id);',
    '  ctx.body = { url: team.url };',
    '});',
    "router.post('/urls.unfurl', async (ctx) => {",
    '  const team = await Team.findByPk(ctx.state.teamId);',
    '  ctx.body = { internal: false };',
    '});',
    'module.exports = router;',
    '',
  ].join('\n'),
};

describe('a method added to a class reaches only the code that calls it', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(BASE, {
      'server/models/Team.js': BASE['server/models/Team.js'].replace(
        '  }\n}',
        '  }\n\n  isTeamUrl(url) {\n    return new URL(url).host === new URL(this.url).host;\n  }\n}',
      ),
      'server/routes.js': BASE['server/routes.js'].replace(
        '  ctx.body = { internal: false };',
        '  ctx.body = { internal: team.isTeamUrl(ctx.request.body.url) };',
      ),
    });
  });
  after(() => fixture.repo.cleanup());

  test('the handler that calls the new method is reached; one that only finds a Team is not', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(
      analysis.impactedRoutes.map((route) => `${route.method} ${route.path}`),
      ['POST /urls.unfurl'],
    );
  });
});
