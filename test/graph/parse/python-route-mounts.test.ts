import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildImpactFixture, type ImpactFixture } from '../../helpers/impact-fixtures.js';

/** Every route the graph serves, as `METHOD /full/path`, sorted. */
function listServed(fixture: ImpactFixture): string[] {
  const served: string[] = [];
  fixture.built.kg.graph.forEachNode((_id, attributes) => {
    if (attributes.kind === 'route') served.push(`${attributes.method} ${attributes.path}`);
  });
  return served.sort();
}

const lines = (...text: string[]): string => `${text.join('\n')}\n`;

/**
 * Flask serves a blueprint at the url_prefix it is registered with, in place of the blueprint's own; registered
 * without one, at its own. A blueprint registered on another blueprint is served under its parent's prefix (the one the
 * parent is served at). FastAPI joins an include_router prefix with the router's own, and a router included in another
 * is served under that one's prefix too.
 */
const FILES = {
  'pyproject.toml': '[project]\nname = "mounts"\n',
  'flaskapp/__init__.py': lines(
    'from flask import Flask',
    '',
    'from flaskapp import admin, api, orders, status',
    '',
    'app = Flask(__name__)',
    'app.register_blueprint(orders.bp, url_prefix="/shop/orders")',
    'app.register_blueprint(orders.bp, name="legacy_orders")',
    'app.register_blueprint(status.bp)',
    'app.register_blueprint(api.bp, url_prefix="/v2")',
    'app.register_blueprint(admin.bp)',
  ),
  'flaskapp/orders.py': lines(
    'from flask import Blueprint',
    '',
    'bp = Blueprint("orders", __name__, url_prefix="/orders")',
    '',
    '',
    '@bp.get("/<int:order_id>")',
    'def get_order(order_id):',
    '    return str(order_id)',
  ),
  'flaskapp/status.py': lines(
    'from flask import Blueprint',
    '',
    'bp = Blueprint("status", __name__, url_prefix="/status")',
    '',
    '',
    '@bp.get("/")',
    'def status():',
    '    return "ok"',
  ),
  'flaskapp/api.py': lines(
    'from flask import Blueprint',
    '',
    'from flaskapp import invoices',
    '',
    'bp = Blueprint("api", __name__, url_prefix="/api")',
    'bp.register_blueprint(invoices.bp)',
    '',
    '',
    '@bp.get("/ping")',
    'def ping():',
    '    return "pong"',
  ),
  'flaskapp/admin.py': lines(
    'from flask import Blueprint',
    '',
    'from flaskapp import invoices',
    '',
    'bp = Blueprint("admin", __name__, url_prefix="/admin")',
    'bp.register_blueprint(invoices.bp, url_prefix="/bills", name="admin_invoices")',
  ),
  'flaskapp/invoices.py': lines(
    'from flask import Blueprint',
    '',
    'bp = Blueprint("invoices", __name__, url_prefix="/invoices")',
    '',
    '',
    '@bp.get("/<int:invoice_id>")',
    'def get_invoice(invoice_id):',
    '    return str(invoice_id)',
  ),
  'fastapp/__init__.py': '',
  'fastapp/main.py': lines(
    'from fastapi import APIRouter, FastAPI',
    '',
    'from fastapp import items',
    '',
    'api = APIRouter(prefix="/api")',
    'api.include_router(items.router)',
    '',
    'app = FastAPI()',
    'app.include_router(api, prefix="/v1")',
    'app.include_router(items.router)',
  ),
  'fastapp/items.py': lines(
    'from fastapi import APIRouter',
    '',
    'router = APIRouter(prefix="/items")',
    '',
    '',
    '@router.get("/{item_id}")',
    'def read_item(item_id: int):',
    '    return {"id": item_id}',
  ),
};

describe('Python blueprint and router mounts compose as the frameworks serve them', () => {
  let fixture: ImpactFixture;
  before(async () => {
    fixture = await buildImpactFixture(FILES);
  });
  after(() => fixture.repo.cleanup());

  test('Flask: a registration url_prefix replaces the blueprint one, nested blueprints sit under their parent; FastAPI prefixes join', () => {
    assert.deepEqual(listServed(fixture), [
      'GET /admin/bills/:invoice_id',
      'GET /items/:item_id',
      'GET /orders/:order_id',
      'GET /shop/orders/:order_id',
      'GET /status',
      'GET /v1/api/items/:item_id',
      'GET /v2/invoices/:invoice_id',
      'GET /v2/ping',
    ]);
  });
});
