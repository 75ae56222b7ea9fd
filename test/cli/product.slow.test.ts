import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ProductResultReport } from '../../src/model/product-result.js';
import type { AgentBundle } from '../../src/model/bundle.js';
import type { ProductFailures, ProductPlan } from '../../src/model/product-plan.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { getValidator } from '../../src/io/schema.js';
import { ORDERS_BASE, ORDERS_HEAD } from '../helpers/express-shop.js';
import { cliArgv, projectRoot, runCliAsync } from '../helpers/cli.js';
import { createTestEnv } from '../helpers/test-env.js';
import { runProduct } from '../../src/app/product/run-product.js';
import { renderProductMarkdown } from '../../src/report/product-markdown.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { areGoneSoonIn } from '../helpers/processes.js';

/**
 * checker product on a small real app (node:http, no framework) described by an OpenAPI document, with planted faults:
 * /about throws in the browser, POST /api/orders answers 500 with a stack trace to a body without items, GET
 * /api/stock fails every other call, GET /api/me is behind auth. The browser is the system Chromium (.ci/run installs
 * Debian's). Each failure bundle must validate against the strict schema, carry the right classification and a rerun
 * command that works; the app must be gone afterwards; with the gate closed nothing runs.
 */
const APP = `
const http = require('node:http');
const fs = require('node:fs');
const port = Number(process.argv[2]);
fs.writeFileSync('app.pid', String(process.pid));
let stockCalls = 0;
const page = (title, body) => '<!doctype html><html><head><title>' + title + '</title></head><body><main>' + body + '</main></body></html>';
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const path = new URL(req.url, 'http://x').pathname;
    try {
      if (path === '/health') return res.end('ok');
      if (req.method === 'GET' && path === '/')
        return res.writeHead(200, { 'content-type': 'text/html' }).end(page('Shop', '<h1>Shop</h1><a href="/about">About</a> <a href="/account">Account</a>'));
      if (req.method === 'GET' && path === '/account') return res.writeHead(401, { 'content-type': 'text/html' }).end(page('Sign in', '<h1>Sign in</h1>'));
      if (req.method === 'GET' && path.startsWith('/api/items/')) return res.writeHead(200).end(JSON.stringify({ id: path.slice(11) }));
      if (req.method === 'GET' && path === '/about')
        return res.writeHead(200, { 'content-type': 'text/html' }).end(page('About', '<h1>About us</h1><script>window.profile.name.toUpperCase();</script>'));
      if (req.method === 'GET' && path === '/api/me') return res.writeHead(req.headers.authorization ? 200 : 401).end('{}');
      if (req.method === 'GET' && path === '/api/stock') {
        stockCalls += 1;
        return res.writeHead(stockCalls % 2 === 1 ? 503 : 200).end('{}');
      }
      if (req.method === 'POST' && path === '/api/orders') {
        const body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
        const count = body.items.length;
        return res.writeHead(201).end(JSON.stringify({ count }));
      }
      res.writeHead(404).end('not found');
    } catch (error) {
      res.writeHead(500).end(String(error.stack));
    }
  });
}).listen(port, '127.0.0.1');
`;

const OPENAPI = [
  'openapi: 3.0.3',
  'info: { title: shop, version: 1.0.0 }',
  'components: { securitySchemes: { bearer: { type: http, scheme: bearer } } }',
  'paths:',
  '  /api/items/{id}:',
  '    get: { responses: { "200": { description: an item, or an empty one } } }',
  '  /api/me:',
  '    get: { security: [{ bearer: [] }], responses: { "200": { description: me }, "401": { description: login } } }',
  '  /api/stock:',
  '    get: { responses: { "200": { description: stock } } }',
  '  /api/orders:',
  '    post: { responses: { "201": { description: created }, "400": { description: bad } } }',
  '',
].join('\n');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function config(port: number, allow: boolean): string {
  const target = (kind: string) =>
    [
      `      baseUrl: http://127.0.0.1:${port}`,
      `      kind: ${kind}`,
      `      start: { command: ${JSON.stringify(process.execPath)}, args: [app.cjs, "${port}"] }`,
      '      healthcheck: { path: /health, timeoutMs: 15000, intervalMs: 100 }',
    ].join('\n');
  return `safety:\n  allowCommands: ${allow}\nproducts:\n  targets:\n    shop-api:\n${target('api')}\n    shop-web:\n${target('ui')}\n`;
}

async function product(repo: TestRepo, ...args: string[]): Promise<{ code: number | null; stderr: string; report: ProductResultReport }> {
  const result = await runCliAsync(['product', '--cwd', repo.dir, '--format', 'json', ...args]);
  const report = JSON.parse(result.stdout) as ProductResultReport;
  assert.equal(getValidator('product-result')(report), true, JSON.stringify(getValidator('product-result').errors));
  return { code: result.code, stderr: result.stderr, report };
}

describe('checker product on a real app with planted faults', () => {
  let repo: TestRepo;
  let port: number;
  before(async () => {
    port = await freePort();
    repo = createRepo({ 'app.cjs': APP, 'openapi.yaml': OPENAPI, '.checker/config.yml': config(port, true) });
  });
  after(() => repo.cleanup());

  it('api target: the planted crash reproduces (unknown without a base run), the every-other-call route likely flaky, auth passes; bundles validate; the app is gone', async () => {
    const { code, report } = await product(repo, '--target', 'shop-api');
    assert.equal(code, 1);
    assert.equal(report.status, 'failed');
    assert.deepEqual(
      report.phases.map((phase) => [phase.name, phase.status]),
      [
        ['start', 'passed'],
        ['health', 'passed'],
        ['workflows', 'passed'],
        ['stop', 'passed'],
      ],
    );
    const failed = (report.report?.checks ?? []).filter((check) => check.status === 'failed').map((check) => check.id);
    assert.deepEqual(failed, [
      // openapi.yaml declares only a 200 for an item: answering 200 to an id that does not exist is its contract.
      'api:shop-api:get.api.items._id:unknown-id-404',
      // An empty JSON object has no items either: the plain request crashes too.
      'api:shop-api:post.api.orders:valid-not-5xx',
      'api:shop-api:post.api.orders:missing-body-4xx',
      'api:shop-api:post.api.orders:invalid-body-4xx',
      'api:shop-api:post.api.orders:oversized-body-4xx',
      'api:shop-api:get.api.stock:valid-not-5xx',
    ]);
    const byCheck = new Map(report.failures.map((failure) => [failure.checkId, failure]));
    for (const failure of report.failures) assert.equal(getValidator('product-failure')(failure), true, failure.checkId);
    const missing = byCheck.get('api:shop-api:post.api.orders:missing-body-4xx');
    // It failed twice, but nothing showed it passing at base: not confirmed as this change's regression.
    assert.equal(missing?.classification, 'unknown');
    assert.match(missing?.classificationEvidence?.at(-1) ?? '', /^not compared with the base revision, so not confirmed/);
    assert.match(missing?.actual ?? '', /^500; the body gives away a stack trace/);
    assert.deepEqual(missing?.impactedFiles, ['openapi.yaml']);
    assert.equal(byCheck.get('api:shop-api:get.api.stock:valid-not-5xx')?.classification, 'likely-flaky');
    const weakness = byCheck.get('api:shop-api:get.api.items._id:unknown-id-404');
    assert.equal(weakness?.classification, 'generated-test-weakness');
    assert.equal(weakness?.priority, 'low');
    assert.match(
      weakness?.classificationEvidence?.[0] ?? '',
      /^openapi\.yaml declares GET \/api\/items\/:id with the answer 200 and no 404 or 4XX, so 200 for an id that does not exist is its contract$/,
    );
    // The document puts /api/me behind a bearer scheme: the no-credentials check is generated from it, and passes.
    const me = (report.report?.checks ?? []).find((check) => check.id === 'api:shop-api:get.api.me:no-credentials-401');
    assert.equal(me?.status, 'passed');
    assert.match(me?.title ?? '', /\(openapi\.yaml requires credentials\)$/);
    // The malformed-JSON crash answers 500 but without items: JSON.parse throws first, with its own stack.
    assert.equal(byCheck.get('api:shop-api:post.api.orders:invalid-body-4xx')?.classification, 'unknown');
    assert.equal(await areGoneSoonIn(repo.dir), true, 'nothing of the app is left');
    // The run is stored: its report, latest.json and one bundle per failure.
    const folder = join(repo.dir, report.runFolder ?? 'missing');
    assert.deepEqual(JSON.parse(readFileSync(join(repo.dir, '.checker/local/product-runs/latest.json'), 'utf8')), report.report);
    assert.equal(existsSync(join(folder, 'failures', '006.json')), true);
    assert.equal(existsSync(join(folder, 'failures', '007.json')), false);
  });

  it('checker ai afterwards carries the product failures from latest.json, with fix tasks that name the rerun command', async () => {
    const result = await runCliAsync(['ai', '--cwd', repo.dir, '--base', 'HEAD', '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const bundle = JSON.parse(result.stdout) as AgentBundle;
    const failures = bundle.evidence.productFailures.map((failure) => failure.checkId);
    assert.ok(failures.includes('api:shop-api:post.api.orders:missing-body-4xx'), failures.join(', '));
    const task = [...bundle.tasks, ...bundle.taskOverflow].find((item) => item.kind === 'product-failure');
    assert.match(task?.detail ?? '', /rerun only this check: checker product --target shop-api --test-id api:shop-api:/);
  });

  it('a failure bundle rerun command runs exactly that check', async () => {
    const { code, report } = await product(repo, '--target', 'shop-api', '--test-id', 'api:shop-api:post.api.orders:missing-body-4xx');
    assert.equal(code, 1);
    assert.deepEqual(
      (report.report?.checks ?? []).map((check) => [check.id, check.status]),
      [['api:shop-api:post.api.orders:missing-body-4xx', 'failed']],
    );
    assert.equal(
      report.failures[0]?.rerunCommand,
      'checker product --target shop-api --test-id api:shop-api:post.api.orders:missing-body-4xx',
    );
  });

  it('a --test-id that names no generated check is an error naming the ids there are, and the app is still torn down', async () => {
    const result = await runCliAsync([
      'product',
      '--cwd',
      repo.dir,
      '--target',
      'shop-api',
      '--test-id',
      'api:shop-api:get.nowhere:valid-not-5xx',
    ]);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /^checker: product\/unknown-test-id: no generated check "api:shop-api:get\.nowhere:valid-not-5xx" in this run\n {2}hint: use one of: api:shop-api:get\.api\.items\._id:valid-not-5xx, .* and 1 more\n$/,
    );
    assert.equal(await areGoneSoonIn(repo.dir), true, 'nothing of the app is left');
  });

  it('a time budget (an MCP deadline) leaves API checks unsent and says so, instead of running past the call', async () => {
    const env = createTestEnv(repo.dir);
    try {
      const result = await runProduct(env, { target: 'shop-api', confirmed: true, budgetMs: 1 });
      const checks = result.report?.checks ?? [];
      assert.equal(checks.length, 9);
      assert.deepEqual([...new Set(checks.map((check) => check.status))], ['skipped']);
      assert.match(checks[0]?.actual ?? '', /^not sent: the call's time budget \(1 ms\) is used up; run checker product for no limit$/);
      assert.deepEqual(result.failures, []);
    } finally {
      await env.close();
    }
  });

  it('--generate-api-tests writes a node:test file a user can keep', async () => {
    const { report } = await product(
      repo,
      '--target',
      'shop-api',
      '--generate-api-tests',
      '--test-id',
      'api:shop-api:get.api.me:valid-not-5xx',
    );
    const file = join(repo.dir, '.checker/local/product-tests/shop-api/api.generated.test.mjs');
    assert.ok(report.written.includes('.checker/local/product-tests/shop-api/api.generated.test.mjs'));
    const source = readFileSync(file, 'utf8');
    // The kept file holds every generated check (9: four routes, four for the body route, one more each for the id and the
    // secured route), whatever --test-id ran (1).
    assert.equal(source.match(/^test\(/gm)?.length, 9);
    assert.match(source, /test\("api:shop-api:get\.api\.me:valid-not-5xx: /);
    assert.deepEqual(
      (report.report?.checks ?? []).map((check) => check.id),
      ['api:shop-api:get.api.me:valid-not-5xx'],
    );
  });

  it('ui target in a real Chromium: the page that throws fails no-errors, reproducibly, with its screenshot on disk; a page that wants a session is auth', async () => {
    const { code, report } = await product(repo, '--target', 'shop-web', '--trace');
    assert.equal(code, 1);
    const failed = (report.report?.checks ?? []).filter((check) => check.status === 'failed').map((check) => check.id);
    // /account answers 401: its own loads check fails, and so does the link to it (no console error of its own).
    assert.deepEqual(failed, ['ui:shop-web:root:links-resolve', 'ui:shop-web:about:no-errors', 'ui:shop-web:account:loads']);
    const byCheck = new Map(report.failures.map((item) => [item.checkId, item]));
    for (const item of report.failures) assert.equal(getValidator('product-failure')(item), true, item.checkId);
    assert.equal(byCheck.get('ui:shop-web:account:loads')?.classification, 'auth-or-test-data-failure');
    assert.match(
      byCheck.get('ui:shop-web:account:loads')?.classificationEvidence?.[0] ?? '',
      /^\/account answered 401 to a browser without a session/,
    );
    assert.match(
      byCheck.get('ui:shop-web:account:loads')?.suggestedFixTasks[0] ?? '',
      /^\/account answered 401 without a session: if that is intended, the page needs a signed-in check/,
    );
    assert.equal(byCheck.get('ui:shop-web:root:links-resolve')?.classification, 'auth-or-test-data-failure');
    const failure = byCheck.get('ui:shop-web:about:no-errors');
    assert.equal(failure?.classification, 'unknown');
    assert.match(failure?.classificationEvidence?.[0] ?? '', /^failed again on the rerun: /);
    assert.match(failure?.actual ?? '', /uncaught: .*(profile|undefined)/);
    // The kept Playwright test: one test per explored page, named by its check id prefix.
    const spec = failure?.artifacts.find((artifact) => artifact.kind === 'test-source')?.path ?? '';
    assert.equal(spec, '.checker/local/product-tests/shop-web/ui.generated.spec.mjs');
    const source = readFileSync(join(repo.dir, spec), 'utf8');
    assert.match(source, /^\/\/ Generated by checker product for target "shop-web"/);
    assert.deepEqual(
      [...source.matchAll(/^test\("(ui:[^:]+:[^:]+):/gm)].map((match) => match[1]),
      ['ui:shop-web:root', 'ui:shop-web:about', 'ui:shop-web:account'],
    );
    // --trace: the whole exploration as a Playwright trace (a zip), an artifact of every UI failure.
    const trace = failure?.artifacts.find((artifact) => artifact.kind === 'trace')?.path ?? '';
    assert.equal(trace, `${report.runFolder}/pages/trace.zip`);
    assert.deepEqual([...readFileSync(join(repo.dir, trace)).subarray(0, 2)], [0x50, 0x4b]);
    const screenshot = failure?.artifacts.find((artifact) => artifact.kind === 'screenshot')?.path ?? '';
    assert.deepEqual([...readFileSync(join(repo.dir, screenshot)).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.equal(await areGoneSoonIn(repo.dir), true, 'nothing of the app is left');
  });

  it('gate closed: nothing starts, nothing is written, exit 0 with the reason on stderr', async () => {
    repo.commitFiles({ '.checker/config.yml': config(port, false) });
    const pid = join(repo.dir, 'app.pid');
    repo.remove('app.pid');
    const { code, stderr, report } = await product(repo, '--target', 'shop-api');
    assert.equal(code, 0, stderr);
    assert.equal(report.status, 'not-run');
    assert.match(stderr, /checker: product: closed: safety\.allowCommands is not true/);
    assert.equal(existsSync(pid), false);
    repo.commitFiles({ '.checker/config.yml': config(port, true) });
  });

  it('MCP: plan executes nothing; run and rerun obey confirmExecution and the gate; failures lists the bundles; the rerun defaults to the first failure', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...cliArgv(), 'mcp', '--cwd', repo.dir],
      cwd: projectRoot,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'checker-product', version: '0.0.0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.filter((tool) => tool.name.startsWith('checker_product_'));
      assert.deepEqual(
        names.map((tool) => [tool.name, tool.annotations?.readOnlyHint]),
        [
          ['checker_product_plan', true],
          ['checker_product_run', false],
          ['checker_product_failures', true],
          ['checker_product_rerun', false],
        ],
      );
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: { format: 'json', ...args } });
        assert.equal(result.isError, undefined, JSON.stringify(result.content));
        return result.structuredContent as Record<string, unknown>;
      };
      repo.remove('app.pid');
      const plan = (await call('checker_product_plan', {})) as unknown as ProductPlan;
      assert.equal(getValidator('product-plan')(plan), true);
      assert.deepEqual(
        plan.targets.map((target) => [target.name, target.ready, target.healthcheckUrl]),
        [
          ['shop-api', true, `http://127.0.0.1:${port}/health`],
          ['shop-web', true, `http://127.0.0.1:${port}/health`],
        ],
      );
      assert.equal(plan.browser.found, true);
      assert.equal(existsSync(join(repo.dir, 'app.pid')), false, 'the plan started nothing');

      const unconfirmed = (await call('checker_product_run', { target: 'shop-api' })) as unknown as ProductResultReport;
      assert.equal(unconfirmed.status, 'not-run');
      assert.equal(existsSync(join(repo.dir, 'app.pid')), false);

      const ran = (await call('checker_product_run', { target: 'shop-api', confirmExecution: true })) as unknown as ProductResultReport;
      assert.equal(ran.status, 'failed');
      const failures = (await call('checker_product_failures', {})) as unknown as ProductFailures;
      assert.equal(getValidator('product-failures')(failures), true);
      assert.deepEqual(
        failures.failures.map((failure) => failure.checkId),
        ran.failures.map((failure) => failure.checkId),
      );
      const rerun = (await call('checker_product_rerun', { confirmExecution: true })) as unknown as ProductResultReport;
      assert.deepEqual(
        (rerun.report?.checks ?? []).map((check) => check.id),
        [failures.failures[0]?.checkId],
      );
      const refused = await client.callTool({ name: 'checker_product_run', arguments: { target: 'shop-api', command: 'rm -rf /' } });
      assert.equal(refused.isError, true);
    } finally {
      await client.close();
    }
  });
});

/**
 * --base and --at-base on an Express app: the committed orders handler refuses an order without items (400); the
 * working tree's crashes on it (500). /api/ping answers 500 on both sides. With --at-base the target is brought up a
 * second time from the base commit (a worktree sharing node_modules): the orders crash passes there, so this change
 * introduced it; the ping failure fails there too, so it did not.
 */
const SERVER = [
  "import express from 'express';",
  "import { writeFileSync } from 'node:fs';",
  "import { createOrder } from './orders.mjs';",
  'const app = express();',
  'app.use(express.json());',
  "app.get('/health', (req, res) => res.send('ok'));",
  "app.get('/api/ping', (req, res) => res.status(500).json({ error: 'down' }));",
  "app.post('/api/orders', createOrder);",
  'writeFileSync(process.argv[3], String(process.pid));',
  "app.listen(Number(process.argv[2]), '127.0.0.1');",
  '',
].join('\n');

describe('checker product --at-base on an Express app', () => {
  let repo: TestRepo;
  let pidFile: string;
  before(async () => {
    const port = await freePort();
    repo = createRepo({ '.gitignore': 'node_modules\napp.pid\n', 'server.mjs': SERVER, 'orders.mjs': ORDERS_BASE });
    pidFile = join(repo.dir, 'app.pid');
    repo.symlink(join(projectRoot, 'node_modules'), 'node_modules');
    const start = `{ command: ${JSON.stringify(process.execPath)}, args: [server.mjs, "${port}", ${JSON.stringify(pidFile)}] }`;
    repo.write({
      '.checker/config.yml': `safety:\n  allowCommands: true\nproducts:\n  targets:\n    shop:\n      baseUrl: http://127.0.0.1:${port}\n      kind: api\n      start: ${start}\n      healthcheck: { path: /health, timeoutMs: 15000, intervalMs: 100 }\n`,
    });
    repo.commit('the product target');
    repo.write({ 'orders.mjs': ORDERS_HEAD });
  });
  after(() => repo.cleanup());

  it('a failure that passes at base is the change’s regression, one that fails there too is not; changed files first; worktree and apps gone', async () => {
    const { code, report } = await product(repo, '--target', 'shop', '--at-base');
    assert.equal(code, 1);
    const byCheck = new Map(report.failures.map((failure) => [failure.checkId, failure]));
    assert.deepEqual(
      [...byCheck.keys()],
      ['api:shop:post.api.orders:valid-not-5xx', 'api:shop:post.api.orders:missing-body-4xx', 'api:shop:get.api.ping:valid-not-5xx'],
    );
    const head = report.change?.baseOid ?? '';
    assert.deepEqual(report.change, { base: 'HEAD', baseOid: head, changedFiles: 1 });
    const missing = byCheck.get('api:shop:post.api.orders:missing-body-4xx');
    assert.equal(missing?.classification, 'confirmed-regression');
    assert.equal(missing?.classificationConfidence, 0.9);
    // The handler's module is what changed: it comes before the file that declares the route.
    assert.deepEqual(missing?.impactedFiles, ['orders.mjs', 'server.mjs']);
    assert.deepEqual(missing?.classificationEvidence?.slice(-2), [
      'this change touches orders.mjs, which serve the check',
      `passes at base HEAD (${head.slice(0, 7)}): this change introduced it`,
    ]);
    const ping = byCheck.get('api:shop:get.api.ping:valid-not-5xx');
    assert.equal(ping?.classification, 'unknown');
    assert.match(
      ping?.classificationEvidence?.at(-1) ?? '',
      /^fails at base HEAD \([0-9a-f]{7}\) too \(500\): it was there before this change/,
    );
    assert.deepEqual(ping?.impactedFiles, ['server.mjs']);
    const baseRun = report.baseRun;
    assert.equal(baseRun?.status, 'passed');
    assert.deepEqual(
      baseRun?.checks.map((check) => [check.id, check.status]),
      [
        ['api:shop:post.api.orders:valid-not-5xx', 'passed'],
        ['api:shop:post.api.orders:missing-body-4xx', 'passed'],
        ['api:shop:get.api.ping:valid-not-5xx', 'failed'],
      ],
    );
    assert.deepEqual(
      baseRun?.phases.map((phase) => [phase.name, phase.status]),
      [
        ['start', 'passed'],
        ['health', 'passed'],
        ['workflows', 'passed'],
        ['stop', 'passed'],
      ],
    );
    assert.equal(baseRun?.worktree?.removed, true);
    // The Markdown report says the same: the base section with each rerun, and each failure's files changed-first.
    const markdown = renderProductMarkdown(report);
    assert.match(markdown, new RegExp(`^## At base HEAD \\(${head.slice(0, 7)}\\): passed\n\nbrought up from HEAD`, 'm'));
    assert.match(markdown, /^\| api:shop:get\.api\.ping:valid-not-5xx \| failed \| 500 \|$/m);
    assert.match(markdown, /^Impacted files: orders\.mjs, server\.mjs$/m);
    assert.equal(existsSync(join(repo.dir, '.checker/local/worktrees', baseRun?.worktree?.name ?? 'missing')), false);
    // The apps of both sides are gone (found by working folder: a pid namespace gives them pids of their own).
    assert.equal(await areGoneSoonIn(repo.dir), true);
  });

  it('without --at-base nothing runs at base and nothing is confirmed; a --base that names no revision is an error before anything starts', async () => {
    const { report } = await product(repo, '--target', 'shop');
    assert.equal(report.baseRun, undefined);
    assert.deepEqual([...new Set(report.failures.map((failure) => failure.classification))], ['unknown']);
    repo.remove('app.pid');
    const result = await runCliAsync(['product', '--cwd', repo.dir, '--target', 'shop', '--base', 'no-such-branch']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^checker: git\/[a-z-]+: .*no-such-branch/);
    assert.equal(existsSync(pidFile), false);
  });
});
