import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractFacts } from '../../../src/graph/parse/extract-facts.js';
import { getGrammarParsers } from '../../../src/worker/grammars.js';

const APP = [
  'from starlette.applications import Starlette',
  'from starlette.routing import Mount, Route, WebSocketRoute',
  '',
  'from . import admin, users',
  '',
  '',
  'async def homepage(request):',
  '    return PlainTextResponse("home")',
  '',
  '',
  'routes = [',
  '    Route("/", homepage),',
  '    Mount("/users", routes=[',
  '        Route("/", users.list_users),',
  '        Route("/{user_id:int}", users.update_user, methods=["PUT", "PATCH"]),',
  '    ]),',
  '    WebSocketRoute("/ws", endpoint=users.feed),',
  '    Mount("/admin", app=admin.app),',
  ']',
  '',
  'app = Starlette(routes=routes)',
  '',
].join('\n');

test("Starlette's route lists: Route and WebSocketRoute items, Mount prefixes joined, a mounted app a mount", async () => {
  const parsers = await getGrammarParsers(['app.py']);
  const facts = extractFacts('shop/app.py', APP, { assertionHelpers: [] }, parsers);
  assert.deepEqual(
    facts.routes.map((route) => [route.method, route.path, route.handler, route.framework, route.router, route.line]),
    [
      ['GET', '/', 'homepage', 'fastapi', 'routes', 12],
      ['GET', '/users', 'users.list_users', 'fastapi', 'routes', 14],
      ['PUT', '/users/:user_id', 'users.update_user', 'fastapi', 'routes', 15],
      ['PATCH', '/users/:user_id', 'users.update_user', 'fastapi', 'routes', 15],
      ['GET', '/ws', 'users.feed', 'fastapi', 'routes', 17],
    ],
  );
  assert.deepEqual(
    facts.mounts.map((mount) => [mount.prefix, mount.target, mount.receiver]),
    [['/admin', 'admin.app', 'routes']],
  );
  assert.equal(
    facts.routes.some((route) => route.ownPrefix !== undefined),
    false,
  );
});

test('an app a test module builds is no route of the product; the same app in a module is', async () => {
  const parsers = await getGrammarParsers(['x.py']);
  const text = [
    'import flask',
    '',
    '',
    'def test_index():',
    '    app = flask.Flask(__name__)',
    '',
    '    @app.route("/more")',
    '    def more():',
    '        return "x"',
    '',
  ].join('\n');
  assert.deepEqual(extractFacts('tests/test_views.py', text, { assertionHelpers: [] }, parsers).routes, []);
  assert.deepEqual(
    extractFacts('shop/views.py', text.replace('def test_index', 'def make_app'), { assertionHelpers: [] }, parsers).routes.map(
      (route) => route.path,
    ),
    ['/more'],
  );
});

test("a test module's test functions and classes are not exports; its helpers are", async () => {
  const parsers = await getGrammarParsers(['x.py']);
  const text = [
    'def make_user():',
    '    return 1',
    '',
    '',
    'def test_user():',
    '    assert make_user()',
    '',
    '',
    'class TestUsers:',
    '    def test_one(self):',
    '        assert True',
    '',
  ].join('\n');
  const facts = extractFacts('tests/test_users.py', text, { assertionHelpers: [] }, parsers);
  assert.deepEqual(
    facts.exports.map((item) => item.name),
    ['make_user'],
  );
});
