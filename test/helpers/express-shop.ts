import { join } from 'node:path';
import { projectRoot } from './cli.js';
import { createRepo, type TestRepo } from './git-repo.js';
import { findFreePort } from './product-app.js';

/**
 * A small Express shop with faults old and new, for product runs that must tell them apart. Committed (the base):
 * POST /api/orders (orders.mjs) refuses an order without items with 400; GET /api/ping answers 500 and the /about
 * page throws in the browser, both in server.mjs, which the change leaves alone. The working tree (the change):
 * orders.mjs crashes on an order without items (500). Two targets on one port: `shop` (api) and `shop-web` (ui), and
 * `broken`, whose start command exits at once. node_modules links the project's own (for express).
 */
const SERVER = [
  "import express from 'express';",
  "import { writeFileSync } from 'node:fs';",
  "import { createOrder } from './orders.mjs';",
  'const app = express();',
  'app.use(express.json());',
  "const page = (title, body) => '<!doctype html><html><head><title>' + title + '</title></head><body><main>' + body + '</main></body></html>';",
  "app.get('/health', (req, res) => res.send('ok'));",
  "app.get('/', (req, res) => res.type('html').send(page('Shop', '<h1>Shop</h1><a href=\"/about\">About</a>')));",
  "app.get('/about', (req, res) => res.type('html').send(page('About', '<h1>About</h1><script>window.profile.name.toUpperCase();</script>')));",
  "app.get('/api/ping', (req, res) => res.status(500).json({ error: 'down' }));",
  "app.post('/api/orders', createOrder);",
  'writeFileSync(process.argv[3], String(process.pid));',
  "app.listen(Number(process.argv[2]), '127.0.0.1');",
  '',
].join('\n');

export const ORDERS_BASE = [
  'export function createOrder(req, res) {',
  "  if (!Array.isArray(req.body?.items)) return res.status(400).json({ error: 'items required' });",
  '  res.status(201).json({ count: req.body.items.length });',
  '}',
  '',
].join('\n');

export const ORDERS_HEAD = 'export function createOrder(req, res) {\n  res.status(201).json({ count: req.body.items.length });\n}\n';

export interface ExpressShop {
  repo: TestRepo;
  port: number;
  /** Where the running app writes its pid (ignored by git). */
  pidFile: string;
}

/** The shop committed with its product targets (gate open), and the working tree holding the change (orders.mjs). */
export async function createExpressShop(): Promise<ExpressShop> {
  const port = await findFreePort();
  const repo = createRepo({ '.gitignore': 'node_modules\napp.pid\n', 'server.mjs': SERVER, 'orders.mjs': ORDERS_BASE });
  const pidFile = join(repo.dir, 'app.pid');
  repo.symlink(join(projectRoot, 'node_modules'), 'node_modules');
  const start = `{ command: ${JSON.stringify(process.execPath)}, args: [server.mjs, "${port}", ${JSON.stringify(pidFile)}] }`;
  const target = (kind: string, command: string): string =>
    [
      `      baseUrl: http://127.0.0.1:${port}`,
      `      kind: ${kind}`,
      `      start: ${command}`,
      '      healthcheck: { path: /health, timeoutMs: 15000, intervalMs: 100 }',
    ].join('\n');
  const exits = `{ command: ${JSON.stringify(process.execPath)}, args: [-e, "process.exit(3)"] }`;
  repo.write({
    '.checker/config.yml': [
      'safety:',
      '  allowCommands: true',
      'products:',
      '  targets:',
      '    shop:',
      target('api', start),
      '    shop-web:',
      target('ui', start),
      '    broken:',
      target('api', exits),
      '',
    ].join('\n'),
  });
  repo.commit('the product targets');
  repo.write({ 'orders.mjs': ORDERS_HEAD });
  return { repo, port, pidFile };
}
