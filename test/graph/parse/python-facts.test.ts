import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { extractFacts } from '../../../src/graph/parse/extract-facts.js';
import type { GrammarParsers } from '../../../src/graph/parse/syntax-tree.js';
import type { FileFacts, ImportFact } from '../../../src/model/facts.js';
import { getGrammarParsers } from '../../../src/worker/grammars.js';

let parsers: GrammarParsers | undefined;

before(async () => {
  parsers = await getGrammarParsers(['x.py']);
});

function parse(path: string, lines: string[]): FileFacts {
  return extractFacts(path, `${lines.join('\n')}\n`, { assertionHelpers: [] }, parsers, true);
}

function binding(specifier: string, imported: string, local: string, line: number, typeOnly = false): ImportFact {
  return { specifier, kind: 'static', typeOnly, names: [{ imported, local, typeOnly }], line };
}

const FLASK_APP = [
  'from flask import Blueprint, Flask, abort, jsonify',
  '',
  'from .auth import login_required',
  'from . import views',
  '',
  "bp = Blueprint('orders', __name__, url_prefix='/api')",
  '',
  '',
  "@bp.route('/orders/<int:order_id>', methods=['GET', 'DELETE'])",
  '@login_required',
  'def order_detail(order_id):',
  '    order = views.find_order(order_id)',
  '    if order is None:',
  '        abort(404)',
  '    return jsonify(order)',
  '',
  '',
  "@bp.post('/orders')",
  'def create_order():',
  '    return jsonify({}), 401',
  '',
  '',
  'app = Flask(__name__)',
  "app.register_blueprint(bp, url_prefix='/v1')",
];

test('a Flask blueprint: one import per name, prefixed routes per method, decorator middleware, the mount (its url_prefix replacing the blueprint one), statuses', () => {
  const facts = parse('shop/app.py', FLASK_APP);
  assert.equal(facts.failure, undefined);
  assert.deepEqual(facts.imports, [
    binding('flask.Blueprint', 'Blueprint', 'Blueprint', 1),
    binding('flask.Flask', 'Flask', 'Flask', 1),
    binding('flask.abort', 'abort', 'abort', 1),
    binding('flask.jsonify', 'jsonify', 'jsonify', 1),
    binding('.auth.login_required', 'login_required', 'login_required', 3),
    binding('.views', 'views', 'views', 4),
  ]);
  const detail = { name: 'order_detail', inline: false, span: { start: 9, end: 15 }, refs: ['order_detail'] };
  const guard = { name: 'login_required', inline: false, span: { start: 10, end: 10 }, refs: ['login_required'] };
  const orderRoute = (method: string) => ({
    method,
    path: '/api/orders/:order_id',
    span: { start: 9, end: 15 },
    offset: FLASK_APP.slice(0, 8).join('\n').length + 1,
    handlerEntry: detail,
    framework: 'flask',
    kind: 'api',
    line: 9,
    router: 'bp',
    handler: 'order_detail',
    ownPrefix: '/api',
    middlewareEntries: [guard],
    middleware: ['login_required'],
  });
  assert.deepEqual(
    facts.routes.map(({ offset: _offset, ...route }) => route),
    [
      ...['GET', 'DELETE'].map((method) => {
        const { offset: _unused, ...route } = orderRoute(method);
        return route;
      }),
      {
        method: 'POST',
        path: '/api/orders',
        span: { start: 18, end: 20 },
        handlerEntry: { name: 'create_order', inline: false, span: { start: 18, end: 20 }, refs: ['create_order'] },
        framework: 'flask',
        kind: 'api',
        line: 18,
        router: 'bp',
        handler: 'create_order',
        ownPrefix: '/api',
      },
    ],
  );
  assert.equal(facts.routes[0]?.offset, orderRoute('GET').offset);
  assert.deepEqual(
    facts.mounts.map(({ offset: _offset, ...mount }) => mount),
    [{ prefix: '/v1', target: 'bp', line: 24, receiver: 'app', appLevel: true, replacesPrefix: true }],
  );
  assert.deepEqual(facts.callables, [
    { name: 'order_detail', span: { start: 9, end: 15 }, refs: ['abort', 'jsonify', 'views.find_order'], statuses: [404] },
    { name: 'create_order', span: { start: 18, end: 20 }, refs: ['jsonify'], statuses: [401] },
  ]);
  assert.deepEqual(facts.functions, [
    { name: 'order_detail', span: { start: 9, end: 15 }, complexity: 2, isAsync: false, params: 1 },
    { name: 'create_order', span: { start: 18, end: 20 }, complexity: 1, isAsync: false, params: 0 },
  ]);
  assert.deepEqual(
    facts.exports.map((fact) => `${fact.kind} ${fact.name}`),
    ['variable bp', 'function order_detail', 'function create_order', 'variable app'],
  );
});

test('a FastAPI router: prefix joined, {id} as :id, api_route methods, Depends as middleware, include_router as a mount', () => {
  const facts = parse('app/main.py', [
    'from fastapi import APIRouter, Depends, FastAPI, HTTPException',
    '',
    'from .deps import get_user',
    '',
    "router = APIRouter(prefix='/items')",
    '',
    '',
    "@router.get('/{item_id}')",
    'async def read_item(item_id: int, user=Depends(get_user)):',
    '    if item_id < 0:',
    '        raise HTTPException(status_code=403)',
    "    return {'id': item_id}",
    '',
    '',
    "@router.api_route('/sync', methods=['POST', 'PUT'])",
    'def sync():',
    '    return None',
    '',
    '',
    'app = FastAPI()',
    "app.include_router(router, prefix='/v1')",
  ]);
  assert.deepEqual(
    facts.routes.map((route) => [route.method, route.path, route.framework, route.router, route.handler, route.middleware ?? []]),
    [
      ['GET', '/items/:item_id', 'fastapi', 'router', 'read_item', ['get_user']],
      ['POST', '/items/sync', 'fastapi', 'router', 'sync', []],
      ['PUT', '/items/sync', 'fastapi', 'router', 'sync', []],
    ],
  );
  assert.deepEqual(facts.routes[0]?.middlewareEntries, [
    { callee: 'Depends', name: 'get_user', inline: false, span: { start: 9, end: 9 }, refs: ['Depends', 'get_user'] },
  ]);
  assert.deepEqual(
    facts.mounts.map(({ offset: _offset, ...mount }) => mount),
    [{ prefix: '/v1', target: 'router', line: 21, receiver: 'app', appLevel: true }],
  );
  assert.deepEqual(facts.callables[0], {
    name: 'read_item',
    span: { start: 8, end: 12 },
    refs: ['Depends', 'HTTPException', 'get_user'],
    statuses: [403],
  });
  assert.deepEqual(facts.functions[0], { name: 'read_item', span: { start: 8, end: 12 }, complexity: 2, isAsync: true, params: 2 });
  assert.deepEqual(facts.signals, [{ kind: 'throw', line: 11, detail: 'raise HTTPException(status_code=403)' }]);
});

test('a Django urls.py: path and re_path routes for ALL methods, include() as a mount and a link to the module', () => {
  const facts = parse('shop/urls.py', [
    'from django.urls import include, path, re_path',
    '',
    'from . import views',
    '',
    'urlpatterns = [',
    "    path('users/<int:id>/', views.detail, name='user-detail'),",
    "    re_path(r'^articles/(?P<year>[0-9]{4})/$', views.UserView.as_view()),",
    "    path('api/', include('shop.api.urls')),",
    ']',
  ]);
  assert.deepEqual(facts.imports.slice(3), [
    binding('.views', 'views', 'views', 3),
    { specifier: 'shop.api.urls', kind: 'dynamic', typeOnly: false, names: [{ imported: '*', local: '*', typeOnly: false }], line: 8 },
  ]);
  assert.deepEqual(
    facts.routes.map(({ offset: _offset, ...route }) => route),
    [
      {
        method: 'ALL',
        path: '/users/:id/',
        span: { start: 6, end: 6 },
        handlerEntry: { name: 'views.detail', inline: false, span: { start: 6, end: 6 }, refs: ['views.detail'] },
        framework: 'django',
        kind: 'api',
        line: 6,
        router: 'urlpatterns',
        handler: 'views.detail',
      },
      {
        method: 'ALL',
        path: '/articles/:year/',
        span: { start: 7, end: 7 },
        handlerEntry: {
          callee: 'views.UserView.as_view',
          name: 'views.UserView',
          inline: false,
          span: { start: 7, end: 7 },
          refs: ['views.UserView', 'views.UserView.as_view'],
        },
        framework: 'django',
        kind: 'api',
        line: 7,
        router: 'urlpatterns',
        handler: 'views.UserView',
      },
    ],
  );
  assert.deepEqual(
    facts.mounts.map(({ offset: _offset, ...mount }) => mount),
    [{ prefix: '/api/', target: 'require:shop.api.urls', line: 8, receiver: 'urlpatterns' }],
  );
});

const TEST_FILE = [
  'import unittest',
  'from unittest import mock',
  '',
  'import pytest',
  '',
  'from shop.orders import total',
  '',
  '',
  'def test_total_adds_tax():',
  '    assert total(10) == 11',
  '    assert True',
  '',
  '',
  "@pytest.mark.skip(reason='slow')",
  'async def test_total_async():',
  '    with pytest.raises(ValueError):',
  '        total(-1)',
  '',
  '',
  'class TestRefunds:',
  '    @pytest.mark.xfail',
  '    def test_refund(self):',
  '        assert total(0) == 0',
  '',
  '    def helper(self):',
  '        pass',
  '',
  '',
  'class OrderCase(unittest.TestCase):',
  "    @mock.patch('shop.orders.send_mail')",
  '    def test_mail(self, send_mail):',
  '        self.assertEqual(total(1), 1)',
  '        send_mail.assert_called_once()',
  '        try:',
  '            total(2)',
  '        except ValueError:',
  '            pass',
  '',
  '',
  'class Helpers:',
  '    def test_not_collected(self):',
  '        assert total(3)',
];

// Check 116 (pypa/packaging): `@pytest.mark.skipif(sys.implementation.name != "cpython", …)` was a skipped test to
// "make pass and remove .skip"; it runs on CPython. A skip on a condition skips only where it holds.
test('a skip on a condition is no skipped test; a skip, or a condition that is always true, is', () => {
  const py = [
    'import sys',
    'import unittest',
    'import pytest',
    '',
    '@pytest.mark.skipif(sys.implementation.name != "cpython", reason="CPython-only")',
    'def test_cpython():',
    '    assert sys.version_info',
    '',
    '@pytest.mark.skipif(True, reason="broken")',
    'def test_broken():',
    '    assert sys.version_info',
    '',
    '@pytest.mark.skip(reason="slow")',
    'def test_slow():',
    '    assert sys.version_info',
    '',
    'class Case(unittest.TestCase):',
    '    @unittest.skipUnless(sys.platform == "linux", "linux")',
    '    def test_linux(self):',
    '        self.assertTrue(sys.platform)',
    '',
  ];
  assert.deepEqual(
    parse('tests/test_platform.py', py).tests.map((test) => [test.titlePath.at(-1), test.modifiers]),
    [
      ['test_cpython', []],
      ['test_broken', ['skip']],
      ['test_slow', ['skip']],
      ['Case', []],
      ['test_linux', []],
    ],
  );
});

// Check 140 (dateutil): `@pytest.mark.xfail` on `test_YmdH_M_S`, a test with a body and assertions, was a todo to
// "write the body … or remove the placeholder". An expected failure runs and reports, like vitest's `it.fails`.
test('an expected failure is a test that runs, not a placeholder', () => {
  const py = [
    'import unittest',
    'import pytest',
    '',
    '@pytest.mark.xfail(reason="gh-1234")',
    'def test_known_bug():',
    '    assert parse("2024") == 2024',
    '',
    'class Case(unittest.TestCase):',
    '    @unittest.expectedFailure',
    '    def test_known(self):',
    '        self.assertEqual(parse("x"), 1)',
    '',
  ];
  assert.deepEqual(
    parse('tests/test_known.py', py).tests.map((test) => [test.titlePath.at(-1), test.modifiers, test.assertions]),
    [
      ['test_known_bug', [], 1],
      ['Case', [], 0],
      ['test_known', [], 1],
    ],
  );
});

// Check 83 (anyio): `with pytest.RaisesGroup(pytest.RaisesExc(TypeError, match=pattern)):` was said to assert nothing.
// Check 90 (loguru): `try: 1 / 0` then `except: logger.exception(…)` makes an error on purpose to log it, then asserts.
test('a try that raises on purpose swallows nothing; one around the code under test does', () => {
  const py = [
    'def test_exception_log(writer):',
    '    try:',
    '        1 / 0  # noqa: B018',
    '    except Exception:',
    '        logger.exception("Error")',
    '    assert writer.read() == "Error"',
    '',
    'def test_raise(writer):',
    '    try:',
    '        raise ValueError("x")',
    '    except ValueError:',
    '        logger.exception("Error")',
    '    assert writer.read()',
    '',
    'def test_hides(writer):',
    '    try:',
    '        run()',
    '    except Exception:',
    '        pass',
    '    assert writer.read()',
    '',
    // Check 95 (waitress): the error is expected, and its absence fails the test.
    'def test_expects(parser):',
    '    try:',
    '        parser.parse_header(b"x")',
    '    except ParsingError:',
    '        pass',
    '    else:',
    '        assert False',
    '',
    'def test_expects_inline(parser):',
    '    try:',
    '        parser.parse_header(b"x")',
    '        pytest.fail("no error")',
    '    except ParsingError:',
    '        pass',
    '',
    'def test_swallows_its_assertion(parser):',
    '    try:',
    '        assert parser.parse_header(b"x")',
    '    except Exception:',
    '        pass',
    '',
    // Check 149 (bottle): the except computes the same value another way; the asserts below check it either way.
    'def test_cookie(self):',
    '    try:',
    "        c = self.urlopen('/cookie')['header'].get_all('Set-Cookie', '')",
    '    except:',
    "        c = self.urlopen('/cookie')['header'].get('Set-Cookie', '').split(',')",
    '        c = [x.strip() for x in c]',
    "    self.assertTrue('b=b' in c)",
    '',
    'def test_keeps_another_value(self):',
    '    try:',
    "        c = self.urlopen('/cookie')",
    '    except:',
    '        d = None',
    '    self.assertTrue(c)',
  ];
  assert.deepEqual(
    parse('tests/test_log.py', py).tests.map((fact) => [fact.titlePath[0], fact.swallowedErrors]),
    [
      ['test_exception_log', 0],
      ['test_raise', 0],
      ['test_hides', 1],
      ['test_expects', 0],
      ['test_expects_inline', 0],
      ['test_swallows_its_assertion', 1],
      ['test_cookie', 0],
      ['test_keeps_another_value', 1],
    ],
  );
});

test("pytest 8.4's RaisesGroup and RaisesExc assert the exceptions they expect", () => {
  const facts = parse('tests/test_groups.py', [
    'import pytest',
    '',
    'async def test_start_exception_delivery():',
    '    with pytest.RaisesGroup(pytest.RaisesExc(TypeError, match="coroutine")):',
    '        start()',
    '',
    'def test_nothing():',
    '    start()',
  ]);
  assert.deepEqual(
    facts.tests.map((fact) => [fact.titlePath.join(' > '), fact.assertions]),
    [
      ['test_start_exception_delivery', 2],
      ['test_nothing', 0],
    ],
  );
});

test('pytest functions and classes, unittest cases: titles, assertions, trivial ones, modifiers, swallowed errors, mocks', () => {
  const facts = parse('tests/test_orders.py', TEST_FILE);
  const counts = { snapshotAssertions: 0, unawaitedAssertions: 0 };
  assert.deepEqual(facts.tests, [
    {
      kind: 'test',
      titlePath: ['test_total_adds_tax'],
      span: { start: 9, end: 11 },
      modifiers: [],
      assertions: 2,
      trivialAssertions: 1,
      ...counts,
      swallowedErrors: 0,
      isAsync: false,
    },
    {
      kind: 'test',
      titlePath: ['test_total_async'],
      span: { start: 14, end: 17 },
      modifiers: ['skip'],
      assertions: 1,
      trivialAssertions: 0,
      ...counts,
      swallowedErrors: 0,
      isAsync: true,
    },
    {
      kind: 'suite',
      titlePath: ['TestRefunds'],
      span: { start: 20, end: 26 },
      modifiers: [],
      assertions: 0,
      trivialAssertions: 0,
      ...counts,
      swallowedErrors: 0,
      isAsync: false,
    },
    {
      kind: 'test',
      titlePath: ['TestRefunds', 'test_refund'],
      span: { start: 21, end: 23 },
      modifiers: [],
      assertions: 1,
      trivialAssertions: 0,
      ...counts,
      swallowedErrors: 0,
      isAsync: false,
    },
    {
      kind: 'suite',
      titlePath: ['OrderCase'],
      span: { start: 29, end: 37 },
      modifiers: [],
      assertions: 0,
      trivialAssertions: 0,
      ...counts,
      swallowedErrors: 0,
      isAsync: false,
    },
    {
      kind: 'test',
      titlePath: ['OrderCase', 'test_mail'],
      span: { start: 30, end: 37 },
      modifiers: [],
      assertions: 2,
      trivialAssertions: 0,
      ...counts,
      swallowedErrors: 1,
      isAsync: false,
    },
  ]);
  assert.deepEqual(facts.mocks, [{ specifier: 'shop.orders.send_mail', framework: 'node', line: 30 }]);
  assert.deepEqual(parse('tests/conftest.py', TEST_FILE).tests, []);
  // Check 51 (pallets/werkzeug): src/werkzeug/testapp.py is a demo app whose `def test_app(req)` is the app. unittest
  // discovers `test*.py` but collects TestCase classes alone; pytest collects functions and `Test*` classes only from
  // `test_*.py` and `*_test.py`.
  const titles = (path: string): string[][] => parse(path, TEST_FILE).tests.map((test) => test.titlePath);
  assert.deepEqual(titles('src/werkzeug/testapp.py'), [['OrderCase'], ['OrderCase', 'test_mail']]);
  assert.deepEqual(titles('tests/orders_test.py'), titles('tests/test_orders.py'));
});

test('relative imports keep their dots; __all__ decides the exports, imported names becoming re-exports', () => {
  const facts = parse('shop/__init__.py', [
    '"""Shop package."""',
    'from .models import Order, _Hidden',
    'from .. import settings',
    'from .pricing import *',
    'import shop.orders as orders',
    '',
    "__all__ = ['Order', 'price', '_helper', 'orders']",
    '',
    '',
    'def price(order):',
    '    return order.total',
    '',
    '',
    'def _helper():',
    '    pass',
    '',
    '',
    'def unlisted():',
    '    pass',
  ]);
  assert.deepEqual(facts.imports, [
    binding('.models.Order', 'Order', 'Order', 2),
    binding('.models._Hidden', '_Hidden', '_Hidden', 2),
    binding('..settings', 'settings', 'settings', 3),
    binding('.pricing', '*', '*', 4),
    binding('shop.orders', '*', 'orders', 5),
  ]);
  assert.deepEqual(facts.exports, [
    { name: 'price', kind: 'function', span: { start: 10, end: 11 }, typeOnly: false },
    { name: '_helper', kind: 'function', span: { start: 14, end: 15 }, typeOnly: false },
    { name: 'Order', kind: 'reexport', span: { start: 2, end: 2 }, typeOnly: false, from: '.models.Order', imported: 'Order' },
    { name: 'orders', kind: 'reexport', span: { start: 5, end: 5 }, typeOnly: false, from: 'shop.orders', imported: '*' },
  ]);
  assert.equal(facts.words?.comments, 'package shop');
});

// Check 86 (healthchecks): the gotify test posts to `self.url`, which its setUp sets to an f-string, and no test was
// known to call the route.
test("a test client's requests with a known path: literals, f-strings, and a name the file assigns once", () => {
  const facts = parse('shop/tests/test_add.py', [
    'from django.test import TestCase',
    '',
    'class AddTestCase(TestCase):',
    '    def setUp(self):',
    '        self.url = f"/projects/{self.project.code}/add/"',
    '',
    '    def test_it_works(self):',
    '        r = self.client.post(self.url, {"a": 1})',
    '        self.client.get("/api/v1/checks/?tag=x")',
    '        client.delete(f"http://testserver/items/{item.id}")',
    '        requests.get("/not/a/test/client")',
    '        self.client.get(other)',
    '        assert r.status_code == 302',
  ]);
  assert.deepEqual(
    (facts.httpCalls ?? []).map((call) => [call.method, call.path, call.client, call.line]),
    [
      ['POST', '/projects/{self.project.code}/add/', 'test-client', 8],
      ['GET', '/api/v1/checks/', 'test-client', 9],
      ['DELETE', '/items/{item.id}', 'test-client', 10],
    ],
  );
});

// Check 83 (agronholm/anyio): `import_module(f"anyio._backends._{asynclib_name}")` loads the event-loop backend, and
// no test reached a change in one.
test('a module named at run time inside a package is imported as a pattern; one named whole or relative at run time is not', () => {
  const facts = parse('shop/loader.py', [
    'from importlib import import_module',
    '',
    'def load(name, package):',
    '    import_module(f"shop._backends._{name}")',
    '    import_module("shop.plugins." + name)',
    '    import_module(f"{name}")',
    '    import_module(f".{name}", package)',
    '    import_module(name)',
  ]);
  assert.deepEqual(
    facts.imports.filter((fact) => fact.kind === 'dynamic').map((fact) => [fact.specifier, fact.line]),
    [
      ['shop._backends._*', 4],
      ['shop.plugins.*', 5],
    ],
  );
});

test('TYPE_CHECKING imports are type-only, import_module is dynamic, private names are not exported, self.method is a ref', () => {
  const facts = parse('shop/plain.py', [
    'import importlib',
    'from typing import TYPE_CHECKING',
    '',
    'if TYPE_CHECKING:',
    '    from .models import Order',
    '',
    "BASE = '/api'",
    '_cache = {}',
    '',
    '',
    "def load(name: str) -> 'Order':",
    "    plugin = importlib.import_module('shop.plugins')",
    '    return plugin',
    '',
    '',
    'class Cart:',
    '    def add(self, item):',
    '        self.items.append(item)',
    '        return self.size() if item else 0',
    '',
    '    def size(self):',
    '        return len(self.items)',
  ]);
  assert.deepEqual(facts.imports, [
    binding('importlib', '*', 'importlib', 1),
    binding('typing.TYPE_CHECKING', 'TYPE_CHECKING', 'TYPE_CHECKING', 2),
    binding('.models.Order', 'Order', 'Order', 5, true),
    { specifier: 'shop.plugins', kind: 'dynamic', typeOnly: false, names: [{ imported: '*', local: '*', typeOnly: false }], line: 12 },
  ]);
  assert.deepEqual(
    facts.exports.map((fact) => `${fact.kind} ${fact.name}`),
    ['variable BASE', 'function load', 'class Cart'],
  );
  assert.deepEqual(facts.constants, [{ name: 'BASE', parts: [{ text: '/api' }] }]);
  assert.deepEqual(
    facts.callables.map((callable) => [callable.name, callable.refs]),
    [
      ['load', ['importlib.import_module']],
      ['Cart', []],
      ['Cart.add', ['Cart.size']],
      ['Cart.size', []],
    ],
  );
  assert.deepEqual(
    facts.functions.map((fact) => [fact.name, fact.complexity, fact.params]),
    [
      ['load', 1, 1],
      ['Cart.add', 2, 1],
      ['Cart.size', 1, 0],
    ],
  );
  assert.deepEqual(facts.words, {
    declared: 'add base cache cart load plugin size',
    code: 'append checking*2 import importlib*2 item*3 items*2 len models module name order plugin size type*2 typing',
    strings: 'api order',
    comments: '',
    names: 'importmodule typechecking',
  });
});

test('signals rest on code: parsing, json, dates, money, indexing, regex, env, sql, writes, files, network, paging', () => {
  const facts = parse('shop/signals.py', [
    'import json, os, re, requests',
    'from datetime import datetime',
    'from decimal import Decimal',
    '',
    'def handle(raw, items, offset, limit, cursor):',
    '    count = int(raw)',
    '    body = json.loads(raw)',
    '    now = datetime.now()',
    "    price = Decimal('1.10')",
    '    total = price * 2',
    '    first = items[0]',
    "    pattern = re.compile(r'(a+)+$')",
    "    key = os.environ.get('API_KEY')",
    "    cursor.execute('SELECT * FROM orders LIMIT %s', (limit,))",
    '    Order.objects.filter(id=1).update(paid=True)',
    '    settings.update(body)',
    "    path = raw.split(b'?', 1)[0] + raw.partition(':')[0] + raw.split()[0]",
    "    with open('x.txt') as handle:",
    '        pass',
    "    requests.get('https://example.com')",
    '    page = items[offset:offset + limit]',
    '    try:',
    "        raise ValueError('bad')",
    '    except ValueError:',
    '        pass',
    // Check 78 (rich's segment.py): int() of arithmetic truncates a number; of a join it may parse text.
    '    pos = int((offset / limit) * len(items)) + int(-offset) + int(len(items)) + int(raw + raw)',
    // Check 81 (jsonschema): a money word assigned a length is a count.
    '    total = len(items)',
    '    extra = total - offset',
    // Check 86 (healthchecks): seconds since the epoch are no calendar time; a local time is. Check 90 (loguru): nor is
    // a date's timestamp or a count, which int() truncates without parsing text.
    '    stamp = int(time.time()); micro = int(dt.timestamp()); n = int(text.count("a"))',
    '    parts = time.localtime(stamp)',
    // Check 87 (CTFd): the current instant in UTC has no zone to shift; local now still does.
    '    a = datetime.utcnow() - timedelta(seconds=5); b = datetime.now(timezone.utc); c = datetime.now(tz=UTC)',
    '    d = datetime.now()',
    // Check 142 (humanize): float() of a number formatted with `%` parses nothing the user wrote.
    '    ratio = float(fmt % (offset / limit))',
  ]);
  assert.deepEqual(
    facts.signals.map((signal) => `${signal.line} ${signal.kind} ${signal.detail}`),
    [
      '6 parse-number int(raw)',
      '7 parse-json json.loads',
      '8 date-time datetime.now',
      '9 money Decimal',
      '10 money price *',
      '11 collection items[0]',
      '12 regex re.compile',
      '12 regex-backtracking re.compile("(a+)+$"): nested repetition (a+)+',
      "13 env-config os.environ.get('API_KEY')",
      '14 sql cursor.execute',
      '14 pagination SELECT * FROM orders LIMIT %s',
      '15 write Order.objects.filter.update',
      // Check 25 (starlette): a split by a separator gives one part at least and a partition three; a bare split may give none.
      '17 collection [0]',
      '18 file-io open',
      '20 network requests.get',
      '21 pagination items[…offset…]',
      "23 throw raise ValueError('bad')",
      '24 catch except ValueError',
      '26 parse-number int(raw + raw)',
      '30 date-time time.localtime',
      '32 date-time datetime.now',
    ],
  );
});

test("a slice is no collection read: it never raises (check 44: attrs' sys.version_info[:2]; check 90: loguru)", () => {
  const facts = parse('src/attr/_compat.py', [
    'import sys',
    '',
    'PY_3_13_PLUS = sys.version_info[:2] >= (3, 13)',
    'first = args[:2]',
    'hex_color = color[1:]',
    'head = args[0]',
  ]);
  assert.deepEqual(
    facts.signals.map((signal) => `${signal.line} ${signal.kind} ${signal.detail}`),
    ['6 collection args[0]'],
  );
});

test('body reads: Flask, Starlette, Django and FastAPI request bodies, never a query string or a response', () => {
  const facts = parse('shop/body.py', [
    'from fastapi import Body',
    '',
    'def create():',
    '    data = request.get_json()',
    '    name = request.form["name"]',
    '    upload = request.files.get("file")',
    '',
    'async def starlette_create(request):',
    '    payload = await request.json()',
    '',
    'def django_create(request):',
    '    title = request.POST["title"]',
    '',
    'def fastapi_create(item: dict = Body(...)):',
    '    return item',
    '',
    'def not_bodies(request, response):',
    '    page = request.args.get("page")',
    '    return response.json()',
  ]);
  assert.deepEqual(
    facts.signals.filter((signal) => signal.kind === 'body-read').map((signal) => `${signal.line} ${signal.detail}`),
    ['4 request.get_json', '5 request.form', '6 request.files', '9 request.json', '12 request.POST', '14 Body()'],
  );
});

// Check 131 (marshmallow-code/webargs): `@pytest.fixture def testapp(self, loop)` in a test class builds the app its
// tests take; it was a test with no assertions, and a bundle asked to strengthen it.
test('a fixture named test… is no test case; the tests beside it are', () => {
  const facts = parse('tests/test_parser.py', [
    'import pytest',
    '',
    '@pytest.fixture',
    'def testdir(tmp_path):',
    '    return tmp_path',
    '',
    '@pytest.fixture(scope="module")',
    'def testdata():',
    '    return [1]',
    '',
    'class TestParser:',
    '    @pytest.fixture',
    '    def testapp(self, loop):',
    '        return make_app(loop)',
    '',
    '    def test_parse(self, testapp):',
    '        assert testapp.get("/").json == {}',
    '',
    'def test_data(testdata):',
    '    assert testdata == [1]',
  ]);
  assert.deepEqual(
    facts.tests.map((fact) => [fact.kind, fact.titlePath.join(' > '), fact.assertions]),
    [
      ['suite', 'TestParser', 0],
      ['test', 'TestParser > test_parse', 1],
      ['test', 'test_data', 1],
    ],
  );
});

// Check 132 (jd/tenacity): `self._assert_inclusive_range(fn(state), 5, 5)` in a loop calls a method of the TestCase that
// asserts with `self.assertLessEqual`; the test was said to have no assertions, and a bundle asked to strengthen it.
test("a call of the module's own helper that asserts is an assertion; a helper that asserts nothing is not", () => {
  const facts = parse('tests/test_wait.py', [
    'import unittest',
    '',
    'def check_roundtrip(value):',
    '    assert load(dump(value)) == value',
    '',
    'def check_twice(value):',
    '    check_roundtrip(value)',
    '    check_roundtrip([value])',
    '',
    'def build(value):',
    '    return dump(value)',
    '',
    'class Base(unittest.TestCase):',
    '    def _assert_inclusive_range(self, wait, low, high):',
    '        self.assertLessEqual(wait, high)',
    '        self.assertGreaterEqual(wait, low)',
    '',
    '    def _make(self):',
    '        return wait_for(1)',
    '',
    'class TestWait(Base):',
    '    def test_loop(self):',
    '        for _ in range(10):',
    '            self._assert_inclusive_range(wait_for(1), 1, 1)',
    '',
    '    def test_made(self):',
    '        self._make()',
    '',
    '    def test_swallowed(self):',
    '        try:',
    '            wait_for(-1)',
    '        except ValueError:',
    '            self._assert_inclusive_range(0, 0, 0)',
    '',
    'def test_function():',
    '    check_twice(1)',
    '',
    'def test_builds():',
    '    build(1)',
  ]);
  assert.deepEqual(
    facts.tests.map((fact) => [fact.titlePath.join(' > '), fact.assertions, fact.swallowedErrors]),
    [
      ['Base', 0, 0],
      ['TestWait', 0, 0],
      ['TestWait > test_loop', 1, 0],
      ['TestWait > test_made', 0, 0],
      ['TestWait > test_swallowed', 1, 0],
      ['test_function', 1, 0],
      ['test_builds', 0, 0],
    ],
  );
});

// Check 132 (jd/tenacity): `try: … except CustomError: pass else: raise Exception` fails the test when the error does
// not come, and `except RetryError as retry_err: retry_err.reraise()` hands the error on; both were called a test that
// swallows errors and asserts nothing.
test('a try whose else raises expects the error; an except that re-raises by a call swallows nothing', () => {
  const facts = parse('tests/test_reraise.py', [
    'def test_expects_error():',
    '    try:',
    '        run(reraise=True)',
    '    except CustomError:',
    '        pass',
    '    else:',
    '        raise Exception',
    '',
    'def test_reraises():',
    '    try:',
    '        run()',
    '    except RetryError as retry_err:',
    '        retry_err.reraise()',
    '',
    'def test_swallows():',
    '    try:',
    '        run()',
    '    except CustomError:',
    '        log("failed")',
    '    else:',
    '        log("ok")',
  ]);
  assert.deepEqual(
    facts.tests.map((fact) => [fact.titlePath.join(' > '), fact.assertions, fact.swallowedErrors]),
    [
      ['test_expects_error', 1, 0],
      ['test_reraises', 0, 0],
      ['test_swallows', 0, 1],
    ],
  );
});
