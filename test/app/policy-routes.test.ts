import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';
import { analyzeFixture, type ChangeFixture, createChangeFixture } from '../helpers/analysis-fixtures.js';

/**
 * Issue 41, item 3: authorization policies reach the routes that consult them. Policies are registered by side-effect
 * imports (`import './fileOperation'`) and consulted by name (`authorize(user, 'delete', op)`), so neither the import
 * graph nor the call index leads from a changed rule to a route: the rule's action and subject do.
 */
const CANCAN_APP = {
  'package.json': JSON.stringify({ name: 'wiki', version: '1.0.0', dependencies: { koa: '^2.0.0', '@koa/router': '^12.0.0' } }),
  'server/policies/cancan.js': [
    'const rules = [];',
    'function allow(actor, actions, subject, condition) {',
    '  for (const action of [].concat(actions)) rules.push({ actor, action, subject, condition });',
    '}',
    'function can(user, action, target) {',
    '  return rules.some((rule) => rule.action === action && target instanceof rule.subject && (!rule.condition || rule.condition(user, target)));',
    '}',
    'function authorize(user, action, target) {',
    "  if (!can(user, action, target)) throw new Error('forbidden');",
    '}',
    'module.exports = { allow, can, authorize };',
    '',
  ].join('\n'),
  'server/policies/fileOperation.js': [
    "const { allow } = require('./cancan');",
    "const { User, FileOperation } = require('../models');",
    'allow(User, "read", FileOperation, (actor, op) => op.teamId === actor.teamId);',
    'allow(User, "delete", FileOperation, (actor, op) =>',
    '  actor.isAdmin && op.teamId === actor.teamId',
    ');',
    '',
  ].join('\n'),
  'server/policies/document.js': [
    "const { allow } = require('./cancan');",
    "const { User, Document } = require('../models');",
    'allow(User, ["read", "delete"], Document, (actor, doc) => doc.teamId === actor.teamId);',
    '',
  ].join('\n'),
  'server/policies/index.js': ["require('./fileOperation');", "require('./document');", "module.exports = require('./cancan');", ''].join(
    '\n',
  ),
  'server/models.js': [
    'class User {}',
    'class FileOperation { static async findByPk(id) { return new FileOperation(id); } }',
    'class Document { static async findByPk(id) { return new Document(id); } }',
    'module.exports = { User, FileOperation, Document };',
    '',
  ].join('\n'),
  'server/routes/fileOperations.js': [
    "const Router = require('@koa/router');",
    "const { authorize } = require('../policies');",
    "const { FileOperation } = require('../models');",
    "const { removeDocument } = require('./documentHandlers');",
    'const router = new Router();',
    "router.post('/fileOperations.info', async (ctx) => {",
    '  const op = await FileOperation.findByPk(ctx.request.body.id);',
    '  authorize(ctx.state.user, "read", op);',
    '  ctx.body = op;',
    '});',
    "router.post('/fileOperations.delete', async (ctx) => {",
    '  const op = await FileOperation.findByPk(ctx.request.body.id);',
    '  authorize(ctx.state.user, "delete", op);',
    '  ctx.body = { ok: true };',
    '});',
    "router.post('/documents.delete', removeDocument);",
    'module.exports = router;',
    '',
  ].join('\n'),
  'server/routes/documentHandlers.js': [
    "const { authorize } = require('../policies');",
    "const { Document } = require('../models');",
    'async function removeDocument(ctx) {',
    '  const document = await Document.findByPk(ctx.request.body.id);',
    '  authorize(ctx.state.user, "delete", document);',
    '  ctx.body = { ok: true };',
    '}',
    'module.exports = { removeDocument };',
    '',
  ].join('\n'),
};

const CASL_APP = {
  'package.json': JSON.stringify({ name: 'blog', version: '1.0.0', dependencies: { express: '^4.0.0', '@casl/ability': '^6.0.0' } }),
  'src/ability.js': [
    "const { AbilityBuilder, createMongoAbility } = require('@casl/ability');",
    'function defineAbilityFor(user) {',
    '  const { can, cannot, build } = new AbilityBuilder(createMongoAbility);',
    "  can('read', 'Article');",
    "  can('update', 'Article', { authorId: user.id });",
    "  cannot('delete', 'Comment');",
    '  return build();',
    '}',
    'module.exports = { defineAbilityFor };',
    '',
  ].join('\n'),
  'src/app.js': [
    "const express = require('express');",
    "const { ForbiddenError, subject } = require('@casl/ability');",
    "const { Article } = require('./models');",
    'const app = express();',
    "app.get('/articles/:id', async (req, res) => {",
    '  const article = await Article.findById(req.params.id);',
    "  req.ability.can('read', article) ? res.json(article) : res.sendStatus(403);",
    '});',
    "app.put('/articles/:id', async (req, res) => {",
    '  const article = await Article.findById(req.params.id);',
    "  ForbiddenError.from(req.ability).throwUnlessCan('update', article);",
    '  res.json(await article.save());',
    '});',
    "app.delete('/comments/:id', (req, res) => {",
    "  ForbiddenError.from(req.ability).throwUnlessCan('delete', subject('Comment', { id: req.params.id }));",
    '  res.sendStatus(204);',
    '});',
    'module.exports = app;',
    '',
  ].join('\n'),
  'src/models.js': ['class Article { static async findById(id) { return new Article(id); } }', 'module.exports = { Article };', ''].join(
    '\n',
  ),
};

const routesOf = (analysis: Awaited<ReturnType<typeof analyzeFixture>>) =>
  analysis.impactedRoutes.map((route) => `${route.method} ${route.path}`);

describe('a changed cancan-style policy reaches the routes that authorize with it', () => {
  const cases: { name: string; change: Record<string, string>; routes: string[]; reason?: RegExp }[] = [
    {
      name: "a change inside allow(User, 'delete', FileOperation, …) reaches the route that authorizes 'delete' on a FileOperation",
      change: {
        'server/policies/fileOperation.js': CANCAN_APP['server/policies/fileOperation.js'].replace(
          'actor.isAdmin &&',
          'actor.isAdmin && !op.locked &&',
        ),
      },
      routes: ['POST /fileOperations.delete'],
      reason:
        /^handler of POST \/fileOperations\.delete checks "delete" on FileOperation \(server\/routes\/fileOperations\.js:13\), and the change alters the rule for it \(server\/policies\/fileOperation\.js:4\)$/,
    },
    {
      name: "the 'read' rule reaches only the route that reads",
      change: {
        'server/policies/fileOperation.js': CANCAN_APP['server/policies/fileOperation.js'].replace(
          'op.teamId === actor.teamId);',
          'op.teamId === actor.teamId && !op.hidden);',
        ),
      },
      routes: ['POST /fileOperations.info'],
    },
    {
      name: 'a rule over two actions reaches a handler defined in another file that checks one of them',
      change: { 'server/policies/document.js': CANCAN_APP['server/policies/document.js'].replace('doc.teamId', 'doc.workspaceId') },
      routes: ['POST /documents.delete'],
    },
    {
      name: 'a changed line beside the rules (not inside one) reaches no route through them',
      change: { 'server/policies/document.js': `// Documents are team-scoped.\n${CANCAN_APP['server/policies/document.js']}` },
      routes: [],
    },
  ];
  for (const { name, change, routes, reason } of cases) {
    describe(name, () => {
      let fixture: ChangeFixture;
      before(() => {
        fixture = createChangeFixture(CANCAN_APP, change);
      });
      after(() => fixture.repo.cleanup());
      test('impacted routes, with the rule and the check named', async () => {
        const analysis = await analyzeFixture(fixture);
        assert.deepEqual(routesOf(analysis), routes);
        if (reason !== undefined) assert.match(analysis.impactedRoutes[0]?.reason ?? '', reason);
        for (const route of analysis.impactedRoutes) assert.equal(route.reach, 'handler');
        // A second run reads the kept graph and the facts cache instead of parsing: the same answer.
        assert.deepEqual(routesOf(await analyzeFixture(fixture)), routes);
      });
    });
  }
});

describe('a changed CASL rule reaches the routes whose ability checks it', () => {
  const cases: { name: string; change: string; routes: string[] }[] = [
    {
      name: "can('update', 'Article', …) → the route that throwUnlessCan('update', article)",
      change: '{ authorId: user.id, draft: false }',
      routes: ['PUT /articles/:id'],
    },
    { name: "cannot('delete', 'Comment') → the route checking subject('Comment', …)", change: 'COMMENT', routes: ['DELETE /comments/:id'] },
  ];
  for (const { name, change, routes } of cases) {
    describe(name, () => {
      let fixture: ChangeFixture;
      before(() => {
        const ability = CASL_APP['src/ability.js'];
        fixture = createChangeFixture(CASL_APP, {
          'src/ability.js':
            change === 'COMMENT'
              ? ability.replace("cannot('delete', 'Comment');", "cannot(['delete', 'update'], 'Comment');")
              : ability.replace('{ authorId: user.id }', change),
        });
      });
      after(() => fixture.repo.cleanup());
      test('impacted routes', async () => {
        assert.deepEqual(routesOf(await analyzeFixture(fixture)), routes);
      });
    });
  }
});

describe('authorization facts need the shape of a policy call, not its words', () => {
  const factsOf = (path: string, text: string) =>
    (extractFacts(path, text, { assertionHelpers: [] }).authz ?? []).map(
      (fact) => `${fact.kind} ${fact.actions.join('|')} ${fact.subject} @${fact.span.start}`,
    );
  test('an OAuth authorize(req, res, next), a bare can(a, b) outside CASL and Array.prototype words give none', () => {
    const text = [
      "const oauth = require('oauth2orize');",
      'server.authorize(req, res, next);',
      'authorize(req, res, next);',
      "can('read', 'Article');",
      "const allowed = ['read'].includes(mode);",
      "allow('read');",
      '',
    ].join('\n');
    assert.deepEqual(factsOf('src/oauth.js', text), []);
  });
  test('rules and checks with their subjects: a model a variable was loaded from, a literal, a CASL enum action', () => {
    const text = [
      "import { AbilityBuilder } from '@casl/ability';",
      "import { Action } from './action';",
      'const { can } = new AbilityBuilder();',
      'can(Action.Read, Post);',
      "can(['update', 'delete'], ['Post', 'Comment']);",
      'async function show(ability, id) {',
      '  const post = await Post.query().findById(id);',
      '  return ability.can(Action.Read, post);',
      '}',
      '',
    ].join('\n');
    assert.deepEqual(factsOf('src/policy.ts', text), [
      'rule read Post @4',
      'rule update|delete Post @5',
      'rule update|delete Comment @5',
      'check read Post @8',
    ]);
  });
});
