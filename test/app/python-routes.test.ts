import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AgentBundle } from '../../src/model/bundle.js';
import { analyzeFixture, createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';

/** What a Python change reaches, as a reviewer reads it from the agent bundle. */
interface Reach {
  routes: string[];
  reachingTests: string[];
  /** The test modules among the impacted files (not the conftest.py files between): what a changed conftest.py reaches. */
  impactedTests: string[];
  commands: string[];
}

async function getReach(fixture: ChangeFixture, changed: string): Promise<Reach> {
  const { report } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
  const proof = report.evidence.changedPathProof.find((entry) => entry.path === changed);
  return {
    routes: report.evidence.impactedRoutes.map((route) => route.id).sort(),
    reachingTests: proof?.reachingTests ?? [],
    impactedTests: report.evidence.impactedFiles
      .filter((file) => file.role === 'test' && !file.path.endsWith('conftest.py'))
      .map((file) => file.path)
      .sort(),
    commands: report.evidence.testRun.commands.map((command) => command.command),
  };
}

/**
 * FastAPI: the items router carries its own prefix and is included under /api, so its routes are served at
 * /api/items/…; the change is in a service module the item handler calls, not in the router.
 */
const FASTAPI = {
  'pyproject.toml': '[project]\nname = "catalog"\ndependencies = ["fastapi"]\n',
  'app/__init__.py': '',
  'app/main.py': [
    'from fastapi import FastAPI',
    '',
    'from app.routers import items, users',
    '',
    'app = FastAPI()',
    'app.include_router(items.router, prefix="/api")',
    'app.include_router(users.router, prefix="/api")',
    '',
  ].join('\n'),
  'app/routers/__init__.py': '',
  'app/routers/items.py': [
    'from fastapi import APIRouter',
    '',
    'from app.services.pricing import price_for',
    '',
    'router = APIRouter(prefix="/items", tags=["items"])',
    '',
    '',
    '@router.get("/{item_id}")',
    'async def read_item(item_id: int):',
    '    return {"id": item_id, "price": price_for(item_id)}',
    '',
    '',
    '@router.get("/")',
    'async def list_items():',
    '    return [{"id": 1}]',
    '',
  ].join('\n'),
  'app/routers/users.py': [
    'from fastapi import APIRouter',
    '',
    'router = APIRouter(prefix="/users")',
    '',
    '',
    '@router.get("/{user_id}")',
    'async def read_user(user_id: int):',
    '    return {"id": user_id}',
    '',
  ].join('\n'),
  'app/services/__init__.py': '',
  'app/services/pricing.py': 'def price_for(item_id: int) -> int:\n    return item_id * 100\n',
  'tests/__init__.py': '',
  'tests/test_items.py': [
    'from fastapi.testclient import TestClient',
    '',
    'from app.main import app',
    '',
    'client = TestClient(app)',
    '',
    '',
    'def test_read_item():',
    '    response = client.get("/api/items/3")',
    '    assert response.json()["price"] == 300',
    '',
  ].join('\n'),
};

describe('a FastAPI app: a service change behind an included router with its own prefix', () => {
  let fixture: ChangeFixture;
  let reach: Reach;
  before(async () => {
    fixture = createChangeFixture(FASTAPI, {
      'app/services/pricing.py':
        'def price_for(item_id: int) -> int:\n    if item_id < 0:\n        raise ValueError("item_id")\n    return item_id * 100\n',
    });
    reach = await getReach(fixture, 'app/services/pricing.py');
  });
  after(() => fixture.repo.cleanup());

  test('reaches exactly GET /api/items/:item_id, not the item list or the users router', () => {
    assert.deepEqual(reach.routes, ['route:GET /api/items/:item_id']);
  });

  test('the route test reaches the change and is run with pytest', () => {
    assert.ok(reach.reachingTests.includes('tests/test_items.py'), reach.reachingTests.join(', '));
    assert.ok(
      reach.commands.some((command) => command.startsWith('python -m pytest') && command.includes('tests/test_items.py')),
      reach.commands.join('\n'),
    );
  });
});

/**
 * Flask: an app factory registers two blueprints. The orders blueprint declares url_prefix="/orders" and is
 * registered with url_prefix="/api/v1/orders", which replaces its own (Flask does not join them); the status
 * blueprint is registered without one, so its own /status applies. The test gets its client from a conftest
 * fixture and imports nothing of the app itself.
 */
const FLASK = {
  'pyproject.toml': '[project]\nname = "shop"\ndependencies = ["flask"]\n',
  'shop/__init__.py': [
    'from flask import Flask',
    '',
    '',
    'def create_app():',
    '    app = Flask(__name__)',
    '    from shop.views import orders, status',
    '',
    '    app.register_blueprint(orders.bp, url_prefix="/api/v1/orders")',
    '    app.register_blueprint(status.bp)',
    '    return app',
    '',
  ].join('\n'),
  'shop/views/__init__.py': '',
  'shop/views/orders.py': [
    'from flask import Blueprint, jsonify, request',
    '',
    'bp = Blueprint("orders", __name__, url_prefix="/orders")',
    '',
    '',
    '@bp.route("/<int:order_id>")',
    'def get_order(order_id):',
    '    return jsonify(id=order_id, total=order_id * 10)',
    '',
    '',
    '@bp.route("/", methods=["POST"])',
    'def create_order():',
    '    return jsonify(request.get_json()), 201',
    '',
  ].join('\n'),
  'shop/views/status.py': [
    'from flask import Blueprint',
    '',
    'bp = Blueprint("status", __name__, url_prefix="/status")',
    '',
    '',
    '@bp.get("/health")',
    'def health():',
    '    return "ok"',
    '',
  ].join('\n'),
  'tests/conftest.py': [
    'import pytest',
    '',
    'from shop import create_app',
    '',
    '',
    '@pytest.fixture',
    'def client():',
    '    app = create_app()',
    '    app.config["TESTING"] = True',
    '    return app.test_client()',
    '',
  ].join('\n'),
  'tests/test_orders.py': [
    'def test_get_order(client):',
    '    response = client.get("/api/v1/orders/7")',
    '    assert response.get_json()["total"] == 70',
    '',
  ].join('\n'),
};

describe('a Flask app factory: a handler change in a blueprint registered under another prefix', () => {
  let fixture: ChangeFixture;
  let reach: Reach;
  before(async () => {
    fixture = createChangeFixture(FLASK, {
      'shop/views/orders.py': FLASK['shop/views/orders.py'].replace(
        '    return jsonify(id=order_id, total=order_id * 10)',
        '    if order_id <= 0:\n        return jsonify(error="not found"), 404\n    return jsonify(id=order_id, total=order_id * 10)',
      ),
    });
    reach = await getReach(fixture, 'shop/views/orders.py');
  });
  after(() => fixture.repo.cleanup());

  test('reaches exactly GET /api/v1/orders/:order_id: the registration prefix replaces the blueprint one', () => {
    assert.deepEqual(reach.routes, ['route:GET /api/v1/orders/:order_id']);
  });

  test('the test using the conftest client reaches the change and is run with pytest', () => {
    assert.ok(reach.reachingTests.includes('tests/test_orders.py'), reach.reachingTests.join(', '));
    assert.ok(
      reach.commands.some((command) => command.startsWith('python -m pytest') && command.includes('tests/test_orders.py')),
      reach.commands.join('\n'),
    );
  });
});

/**
 * Django: the project URLconf includes shop.urls under shop/; the change is in order_detail only, so order_list's
 * route is not reached. The test calls the view through a RequestFactory request for the route's URL.
 */
const DJANGO = {
  'manage.py': [
    'import os',
    'import sys',
    '',
    'if __name__ == "__main__":',
    '    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mysite.settings")',
    '    from django.core.management import execute_from_command_line',
    '',
    '    execute_from_command_line(sys.argv)',
    '',
  ].join('\n'),
  'pytest.ini': '[pytest]\nDJANGO_SETTINGS_MODULE = mysite.settings\n',
  'mysite/__init__.py': '',
  'mysite/settings.py': 'ROOT_URLCONF = "mysite.urls"\nINSTALLED_APPS = ["shop"]\n',
  'mysite/urls.py': [
    'from django.contrib import admin',
    'from django.urls import include, path',
    '',
    'urlpatterns = [',
    '    path("admin/", admin.site.urls),',
    '    path("shop/", include("shop.urls")),',
    ']',
    '',
  ].join('\n'),
  'shop/__init__.py': '',
  'shop/urls.py': [
    'from django.urls import path',
    '',
    'from . import views',
    '',
    'app_name = "shop"',
    'urlpatterns = [',
    '    path("orders/<int:pk>/", views.order_detail, name="order-detail"),',
    '    path("orders/", views.order_list, name="order-list"),',
    ']',
    '',
  ].join('\n'),
  'shop/views.py': [
    'from django.http import JsonResponse',
    '',
    '',
    'def order_detail(request, pk):',
    '    return JsonResponse({"id": pk})',
    '',
    '',
    'def order_list(request):',
    '    return JsonResponse({"orders": []})',
    '',
  ].join('\n'),
  'shop/tests/__init__.py': '',
  'shop/tests/test_views.py': [
    'from django.test import RequestFactory',
    '',
    'from shop import views',
    '',
    '',
    'def test_order_detail():',
    '    request = RequestFactory().get("/shop/orders/5/")',
    '    response = views.order_detail(request, pk=5)',
    '    assert response.status_code == 200',
    '',
  ].join('\n'),
};

describe('a Django project: a view change under an included URLconf', () => {
  let fixture: ChangeFixture;
  let reach: Reach;
  before(async () => {
    fixture = createChangeFixture(DJANGO, {
      'shop/views.py': DJANGO['shop/views.py'].replace(
        '    return JsonResponse({"id": pk})',
        '    if pk < 1:\n        return JsonResponse({"error": "not found"}, status=404)\n    return JsonResponse({"id": pk})',
      ),
    });
    reach = await getReach(fixture, 'shop/views.py');
  });
  after(() => fixture.repo.cleanup());

  test('reaches exactly the order_detail route under /shop, not order_list nor admin', () => {
    assert.deepEqual(reach.routes, ['route:ALL /shop/orders/:pk']);
  });

  test('the view test reaches the change and is run with pytest', () => {
    assert.ok(reach.reachingTests.includes('shop/tests/test_views.py'), reach.reachingTests.join(', '));
    assert.ok(
      reach.commands.some((command) => command.startsWith('python -m pytest') && command.includes('shop/tests/test_views.py')),
      reach.commands.join('\n'),
    );
  });
});

// Check 86 (healthchecks): a Django test that requests the route through the test client, importing no view, was not
// known to test it: the route asked for a test of its own and the view's change ran the whole suite.
describe("a Django test that requests a view's URL through the test client", () => {
  let fixture: ChangeFixture;
  before(() => {
    fixture = createChangeFixture(
      {
        ...DJANGO,
        'shop/tests/test_views.py': [
          'from django.test import TestCase',
          '',
          '',
          'class OrderTests(TestCase):',
          '    def setUp(self):',
          '        self.url = f"/shop/orders/{self.order.pk}/"',
          '',
          '    def test_detail(self):',
          '        response = self.client.get(self.url)',
          '        self.assertEqual(response.status_code, 200)',
          '',
        ].join('\n'),
      },
      {
        'shop/views.py': DJANGO['shop/views.py'].replace(
          '    return JsonResponse({"id": pk})',
          '    if pk < 1:\n        return JsonResponse({"error": "not found"}, status=404)\n    return JsonResponse({"id": pk})',
        ),
      },
    );
  });
  after(() => fixture.repo.cleanup());

  test('reaches the change, runs with pytest, and asks for no test of the route', async () => {
    const { report } = await runJsonReport<AgentBundle>(fixture, ['ai'], 'agent-bundle');
    const proof = report.evidence.changedPathProof.find((entry) => entry.path === 'shop/views.py');
    assert.deepEqual(proof?.reachingTests, ['shop/tests/test_views.py']);
    assert.deepEqual(
      report.evidence.testRun.commands.map((command) => command.command),
      ['python -m pytest shop/tests/test_views.py'],
    );
    assert.deepEqual(
      report.tasks.filter((task) => task.kind === 'missing-test').map((task) => task.title),
      [],
    );
  });
});

/**
 * pytest loads every conftest.py from a test module's folder up to the root, with no import. The root conftest's db
 * fixture imports shop.db; tests/conftest.py adds a client; tests/api has its own conftest. other/test_misc.py is under
 * the root conftest only.
 */
const CONFTESTS = {
  'pyproject.toml': '[project]\nname = "shop"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests", "other"]\n',
  'shop/__init__.py': '',
  'shop/db.py': 'def connect():\n    return {"orders": []}\n',
  'shop/pricing.py': 'def price(cents):\n    return cents / 100\n',
  'conftest.py': lines('import pytest', '', 'from shop.db import connect', '', '', '@pytest.fixture', 'def db():', '    return connect()'),
  'tests/conftest.py': lines('import pytest', '', '', '@pytest.fixture', 'def client(db):', '    return {"db": db}'),
  'tests/unit/test_pricing.py': lines('from shop.pricing import price', '', '', 'def test_price():', '    assert price(250) == 2.5'),
  'tests/api/conftest.py': lines('import pytest', '', '', '@pytest.fixture', 'def token():', '    return "secret"'),
  'tests/api/test_orders.py': lines('def test_orders(client, token):', '    assert client["db"]["orders"] == []'),
  'other/test_misc.py': lines('def test_misc(db):', '    assert "orders" in db'),
};

function lines(...text: string[]): string {
  return `${text.join('\n')}\n`;
}

describe('conftest.py: the fixtures pytest loads for the tests below them', () => {
  const fixtures: ChangeFixture[] = [];
  after(() => {
    for (const fixture of fixtures) fixture.repo.cleanup();
  });

  test('a fixture change in tests/conftest.py reaches the tests in its folder and below, not those beside it', async () => {
    const fixture = createChangeFixture(CONFTESTS, {
      'tests/conftest.py': lines(
        'import pytest',
        '',
        '',
        '@pytest.fixture',
        'def client(db):',
        '    db["orders"].clear()',
        '    return {"db": db}',
      ),
    });
    fixtures.push(fixture);
    const reach = await getReach(fixture, 'tests/conftest.py');
    assert.deepEqual(reach.impactedTests, ['tests/api/test_orders.py', 'tests/unit/test_pricing.py']);
  });

  test('a fixture change in a conftest.py runs the tests it reaches, not the conftest itself', async () => {
    const fixture = createChangeFixture(CONFTESTS, {
      'tests/api/conftest.py': lines('import pytest', '', '', '@pytest.fixture', 'def token():', '    return "rotated"'),
    });
    fixtures.push(fixture);
    const reach = await getReach(fixture, 'tests/api/conftest.py');
    assert.deepEqual(reach.commands, ['python -m pytest tests/api/test_orders.py']);
  });

  test('a change in code the root conftest imports reaches every test, and no conftest import is left unresolved', async () => {
    const fixture = createChangeFixture(CONFTESTS, { 'shop/db.py': 'def connect():\n    return {"orders": [], "users": []}\n' });
    fixtures.push(fixture);
    const reach = await getReach(fixture, 'shop/db.py');
    assert.deepEqual([...reach.reachingTests].sort(), ['other/test_misc.py', 'tests/api/test_orders.py', 'tests/unit/test_pricing.py']);
    const analysis = await analyzeFixture(fixture);
    assert.deepEqual(analysis.unresolvedImports ?? [], []);
  });
});
