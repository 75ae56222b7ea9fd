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

/** The same change as outline wrote it: the import statement spread over lines to add the new method's helper. */
const ESM = {
  'package.json': JSON.stringify({
    name: 'wiki',
    version: '1.0.0',
    type: 'module',
    dependencies: { koa: '^2.0.0', '@koa/router': '^12.0.0' },
  }),
  'server/domains.js': [
    "export const RESERVED = ['www'];",
    'export const getBaseDomain = () => "example.com";',
    'export const parseDomain = (url) => ({ host: new URL(url).host });',
    '',
  ].join('\n'),
  'server/models/Team.js': [
    "import { Model } from 'sequelize';",
    "import { getBaseDomain, RESERVED } from '../domains.js';",
    'export default class Team extends Model {',
    '  get url() {',
    '    return `https://${this.subdomain}.${getBaseDomain()}`;',
    '  }',
    '',
    '  get isReserved() {',
    '    return RESERVED.includes(this.subdomain);',
    '  }',
    '}',
    '',
  ].join('\n'),
  'server/routes.js': [
    "import Router from '@koa/router';",
    "import Team from './models/Team.js';",
    'const router = new Router();',
    "router.get('/teams/:id', async (ctx) => {",
    '  const team = await Team.findByPk(ctx.params.id);',
    '  ctx.body = { url: team.url };',
    '});',
    'export default router;',
    '',
  ].join('\n'),
};

describe('an import statement spread over lines rebinds only the name it adds', () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(ESM, {
      'server/models/Team.js': ESM['server/models/Team.js']
        .replace(
          "import { getBaseDomain, RESERVED } from '../domains.js';",
          "import {\n  getBaseDomain,\n  parseDomain,\n  RESERVED,\n} from '../domains.js';",
        )
        .replace(
          '    return RESERVED.includes(this.subdomain);\n  }\n}',
          '    return RESERVED.includes(this.subdomain);\n  }\n\n  isTeamUrl(url) {\n    return parseDomain(url).host === parseDomain(this.url).host;\n  }\n}',
        ),
    });
  });
  after(() => fixture.repo.cleanup());

  test('getBaseDomain and RESERVED are bound as before: no route is reached through url or isReserved', async () => {
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(analysis.impactedRoutes, []);
  });
});
