import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildRepositoryGraph } from '../../../src/app/build-graph.js';
import {
  contradictsContract,
  generateApiChecks,
  judgeApiAnswer,
  renderApiTestSource,
  toPathSlug,
} from '../../../src/app/product/api-checks.js';
import type { RouteNode } from '../../../src/model/graph.js';
import type { ApiCheckSpec } from '../../../src/model/product-check.js';
import { createRepo, type TestRepo } from '../../helpers/git-repo.js';
import { createTestEnv } from '../../helpers/test-env.js';

/** A small Express shop: three API routes (one with an id, one body route, one behind a JWT check) and a page. */
const APP = [
  "import express from 'express';",
  "import jwt from 'jsonwebtoken';",
  "import { createOrder } from './orders.js';",
  'const app = express();',
  'app.use(express.json());',
  'function requireUser(req, res, next) {',
  '  const token = req.headers.authorization;',
  "  if (!token) return res.status(401).json({ error: 'login' });",
  "  req.user = jwt.verify(token, 'k');",
  '  next();',
  '}',
  "app.get('/api/products/:id', (req, res) => res.json({ id: req.params.id }));",
  "app.post('/api/orders', createOrder);",
  "app.get('/api/me', requireUser, (req, res) => res.json(req.user));",
  "app.get('/', (req, res) => res.send('<h1>Shop</h1>'));",
  'app.listen(3000);',
  '',
].join('\n');

describe('generated API checks from the graph routes', () => {
  let repo: TestRepo;
  let routes: RouteNode[];
  before(async () => {
    repo = createRepo({
      'package.json': JSON.stringify({ name: 'shop', type: 'module', dependencies: { express: '^4.19.0', jsonwebtoken: '^9.0.0' } }),
      'src/server.js': APP,
      'src/orders.js': 'export function createOrder(req, res) {\n  res.status(201).json({ items: req.body.items.length });\n}\n',
    });
    const env = createTestEnv(repo.dir);
    const graph = await buildRepositoryGraph(env);
    routes = [];
    graph.kg.graph.forEachNode((_id, attributes) => {
      if (attributes.kind === 'route') routes.push(attributes);
    });
    await env.close();
  });
  after(() => repo.cleanup());

  it('one stable id per route and concern: plain, body, unknown id and no-credentials checks where they apply', () => {
    const checks = generateApiChecks('shop', routes);
    assert.deepEqual(
      checks.map((check) => [check.id, check.request.method, check.request.path, check.expect.failOn.join(',')]),
      [
        // The graph calls every Express route an API route (only file-based pages are UI), so the page gets the plain check.
        ['api:shop:get.root:valid-not-5xx', 'GET', '/', '5xx'],
        ['api:shop:get.api.me:valid-not-5xx', 'GET', '/api/me', '5xx'],
        ['api:shop:get.api.me:no-credentials-401', 'GET', '/api/me', '5xx,2xx,3xx'],
        ['api:shop:post.api.orders:valid-not-5xx', 'POST', '/api/orders', '5xx'],
        ['api:shop:post.api.orders:missing-body-4xx', 'POST', '/api/orders', '5xx'],
        ['api:shop:post.api.orders:invalid-body-4xx', 'POST', '/api/orders', '5xx'],
        ['api:shop:post.api.orders:oversized-body-4xx', 'POST', '/api/orders', '5xx'],
        ['api:shop:get.api.products._id:valid-not-5xx', 'GET', '/api/products/1', '5xx'],
        ['api:shop:get.api.products._id:unknown-id-404', 'GET', '/api/products/checker-unknown-0', '5xx,2xx'],
      ],
    );
    assert.deepEqual(checks.find((check) => check.concern === 'oversized-body-4xx')?.request.bodyBytes, 2 * 1024 * 1024);
    assert.deepEqual(checks[1]?.route, { method: 'GET', path: '/api/me', file: 'src/server.js', line: 14 });
    // The files that serve a route: where it is declared, then its handler's module.
    assert.deepEqual(checks.find((check) => check.id === 'api:shop:post.api.orders:missing-body-4xx')?.files, [
      'src/server.js',
      'src/orders.js',
    ]);
    // Ids are what product-run.schema.json allows for check ids.
    for (const check of checks) assert.match(check.id, /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/);
    assert.deepEqual(generateApiChecks('shop', [...routes].reverse()), checks);
  });

  it('judges answers: 5xx always fails, 2xx fails where it must not happen, a stack trace or secret in an error body fails', () => {
    const checks = generateApiChecks('shop', routes);
    const byConcern = (concern: string): ApiCheckSpec => checks.find((check) => check.concern === concern) as ApiCheckSpec;
    assert.deepEqual(judgeApiAnswer(byConcern('missing-body-4xx'), { status: 400, body: '{"error":"items required"}' }), {
      passed: true,
      actual: '400',
      leaks: [],
    });
    const crash = judgeApiAnswer(byConcern('missing-body-4xx'), {
      status: 500,
      body: "TypeError: Cannot read properties of undefined (reading 'length')\n    at /srv/shop/src/server.js:12:78\n    at Layer.handle (/srv/shop/node_modules/express/lib/router/layer.js:95:5)",
    });
    assert.deepEqual(crash, { passed: false, actual: '500; the body gives away a stack trace', leaks: ['a stack trace'] });
    assert.equal(judgeApiAnswer(byConcern('unknown-id-404'), { status: 200, body: '{"id":"checker-unknown-0"}' }).passed, false);
    assert.equal(judgeApiAnswer(byConcern('unknown-id-404'), { status: 404, body: 'not found' }).passed, true);
    assert.equal(judgeApiAnswer(byConcern('no-credentials-401'), { status: 200, body: '{}' }).passed, false);
    const leak = judgeApiAnswer(byConcern('no-credentials-401'), { status: 403, body: 'denied: AKIAIOSFODNN7EXAMPLE' });
    assert.equal(leak.passed, false);
    assert.match(leak.actual, /^403; the body gives away a secret \(/);
  });

  it('a failure the route contract documents is the generated check being wrong: public 2xx, an unknown id with only a 2xx declared; never a 5xx', () => {
    const checks = generateApiChecks('shop', routes);
    const byConcern = (concern: string, contract: ApiCheckSpec['contract']): ApiCheckSpec => ({
      ...(checks.find((check) => check.concern === concern) as ApiCheckSpec),
      contract,
    });
    const publicOp = { document: 'openapi.yaml', security: 'none' as const, responses: ['200'] };
    assert.equal(
      contradictsContract(byConcern('no-credentials-401', publicOp), 200),
      'openapi.yaml declares GET /api/me public (its security allows no credentials), so 200 without credentials is its contract',
    );
    // Declared secured or unspecified: a 2xx without credentials is the app's fault, as is any 5xx.
    assert.equal(contradictsContract(byConcern('no-credentials-401', { ...publicOp, security: 'required' }), 200), undefined);
    assert.equal(contradictsContract(byConcern('no-credentials-401', { ...publicOp, security: 'unspecified' }), 200), undefined);
    const item = { document: 'api.json', security: 'unspecified' as const, responses: ['2XX', 'default'] };
    assert.equal(
      contradictsContract(byConcern('unknown-id-404', item), 200),
      'api.json declares GET /api/products/:id with the answer 2XX and no 404 or 4XX, so 200 for an id that does not exist is its contract',
    );
    assert.equal(contradictsContract(byConcern('unknown-id-404', { ...item, responses: ['200', '404'] }), 200), undefined);
    assert.equal(contradictsContract(byConcern('unknown-id-404', { ...item, responses: ['200', '500'] }), 500), undefined);
    assert.equal(contradictsContract(byConcern('valid-not-5xx', { ...item, responses: ['500'] }), 500), undefined);
    assert.equal(contradictsContract(byConcern('unknown-id-404', undefined), 200), undefined);
  });

  it('renders a node:test file a user can keep, with every check and its expectation', () => {
    const checks = generateApiChecks('shop', routes);
    const source = renderApiTestSource('shop', 'http://127.0.0.1:3000', checks);
    assert.match(source, /^\/\/ Generated by checker product for target "shop": one test per generated API check/);
    assert.equal(source.match(/^test\(/gm)?.length, checks.length);
    assert.ok(source.includes("JSON.stringify({ padding: 'x'.repeat(2097152) })"));
    assert.ok(source.includes('const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:3000";'));
  });

  it('path slugs keep only characters a check id allows', () => {
    assert.deepEqual(['/', '/users/:id/orders', '/files/*', '/docs/{docId}', '/blog/[...slug]', '/a b/é'].map(toPathSlug), [
      'root',
      'users._id.orders',
      'files._all',
      'docs._docId',
      'blog._slug',
      'a-b.-',
    ]);
  });

  it('the kept test file runs with node --test against a real server and fails exactly on the planted crashes', async () => {
    // POST /api/orders reads req.body.items.length without checking: a missing, malformed, empty or huge body is a 500 with a stack.
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        try {
          if (req.method === 'GET' && url.pathname === '/') return void res.end('<h1>Shop</h1>');
          if (req.method === 'GET' && url.pathname === '/api/me')
            return void res.writeHead(req.headers.authorization === undefined ? 401 : 200).end('{}');
          const product = /^\/api\/products\/([^/]+)$/.exec(url.pathname);
          if (req.method === 'GET' && product !== null) return void res.writeHead(product[1] === '1' ? 200 : 404).end('{}');
          if (req.method === 'POST' && url.pathname === '/api/orders') {
            const body = JSON.parse(Buffer.concat(chunks).toString() || 'null') as { items: unknown[] };
            const count = body.items.length;
            return void res.writeHead(201).end(JSON.stringify({ items: count }));
          }
          res.writeHead(404).end();
        } catch (error) {
          res.writeHead(500).end(String((error as Error).stack));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const file = join(repo.dir, 'api.generated.test.mjs');
    writeFileSync(file, renderApiTestSource('shop', `http://127.0.0.1:${port}`, generateApiChecks('shop', routes)));
    try {
      const result = await new Promise<{ stdout: string }>((resolve) => {
        execFile(process.execPath, ['--test', '--test-reporter=tap', file], { env: { PATH: process.env.PATH ?? '' } }, (_error, stdout) =>
          resolve({ stdout }),
        );
      });
      const failed = [...result.stdout.matchAll(/^not ok \d+ - (api:\S+):/gm)].map((match) => match[1]);
      assert.deepEqual(failed, [
        'api:shop:post.api.orders:valid-not-5xx',
        'api:shop:post.api.orders:missing-body-4xx',
        'api:shop:post.api.orders:invalid-body-4xx',
        'api:shop:post.api.orders:oversized-body-4xx',
      ]);
      assert.match(result.stdout, /^# pass 5$/m);
    } finally {
      server.close();
    }
  });
});
