import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AgentBundle } from '../../src/model/bundle.js';
import type { ProductFailures } from '../../src/model/product-plan.js';
import type { ProductResultReport } from '../../src/model/product-result.js';
import type { ProductRunReport } from '../../src/model/product-run.js';
import { getValidator } from '../../src/io/schema.js';
import { runCliAsync } from '../helpers/cli.js';
import { createExpressShop, type ExpressShop, ORDERS_BASE, ORDERS_HEAD } from '../helpers/express-shop.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { findFreePort } from '../helpers/product-app.js';
import { areGoneSoonIn } from '../helpers/processes.js';

/**
 * Issue 42 on a real Express shop (test/helpers/express-shop.ts): what a product run says about a failure it cannot
 * tie to the change, where each failure's kept test is, and what a single-check rerun leaves of the latest report.
 */
const API_SOURCE = '.checker/local/product-tests/shop/api.generated.test.mjs';
const MISSING_BODY = 'api:shop:post.api.orders:missing-body-4xx';
const PING = 'api:shop:get.api.ping:valid-not-5xx';
const ABOUT = 'ui:shop-web:about:no-errors';

async function product(shop: ExpressShop, ...args: string[]): Promise<{ code: number | null; report: ProductResultReport }> {
  const result = await runCliAsync(['product', '--cwd', shop.repo.dir, '--format', 'json', ...args]);
  assert.notEqual(result.stdout, '', result.stderr);
  const report = JSON.parse(result.stdout) as ProductResultReport;
  assert.equal(getValidator('product-result')(report), true, JSON.stringify(getValidator('product-result').errors));
  return { code: result.code, report };
}

function readLatest(shop: ExpressShop): { run: ProductRunReport; failures: ProductFailures } {
  const read = (name: string): unknown => JSON.parse(readFileSync(join(shop.repo.dir, '.checker/local/product-runs', name), 'utf8'));
  const run = read('latest.json');
  const failures = read('latest-failures.json');
  assert.equal(getValidator('product-run')(run), true, JSON.stringify(getValidator('product-run').errors));
  assert.equal(getValidator('product-failures')(failures), true, JSON.stringify(getValidator('product-failures').errors));
  return { run: run as ProductRunReport, failures: failures as ProductFailures };
}

describe('checker product: base evidence, kept test sources and single-check reruns (a real Chromium on base and head servers)', () => {
  let shop: ExpressShop;
  before(async () => {
    shop = await createExpressShop();
  });
  after(() => shop.repo.cleanup());

  it('without --at-base no failure is a confirmed regression: one the change does not touch says so, each says how to compare with base', async () => {
    const { code, report } = await product(shop, '--target', 'shop');
    assert.equal(code, 1);
    const byCheck = new Map(report.failures.map((failure) => [failure.checkId, failure]));
    assert.deepEqual([...byCheck.keys()], ['api:shop:post.api.orders:valid-not-5xx', MISSING_BODY, PING]);
    assert.deepEqual(
      report.failures.map((failure) => [failure.checkId, failure.classification, failure.classificationConfidence]),
      [
        ['api:shop:post.api.orders:valid-not-5xx', 'unknown', 0.5],
        [MISSING_BODY, 'unknown', 0.5],
        [PING, 'unknown', 0.5],
      ],
    );
    // /api/ping failed at base too and lives in server.mjs, which the change leaves alone.
    assert.deepEqual(byCheck.get(PING)?.classificationEvidence, [
      'failed twice: 500; then 500',
      'this change touches none of the files that serve the check (server.mjs): nothing ties the failure to it',
      `not compared with the base revision, so not confirmed as this change's regression: checker product --target shop --test-id ${PING} --at-base (MCP: atBase: true) tells`,
    ]);
    // The orders crash is the change's own, but nothing here has shown it passing at base.
    assert.deepEqual(byCheck.get(MISSING_BODY)?.classificationEvidence?.slice(1), [
      'this change touches orders.mjs, which serve the check',
      `not compared with the base revision, so not confirmed as this change's regression: checker product --target shop --test-id ${MISSING_BODY} --at-base (MCP: atBase: true) tells`,
    ]);
    assert.equal(await areGoneSoonIn(shop.repo.dir), true);
  });

  it('--generate-api-tests: every API failure and API check points at the kept node:test file, and checker ai names it in the fix task', async () => {
    const { report } = await product(shop, '--target', 'shop', '--generate-api-tests');
    const source = readFileSync(join(shop.repo.dir, API_SOURCE), 'utf8');
    assert.equal(report.failures.length, 3);
    for (const failure of report.failures) {
      const artifact = failure.artifacts.find((item) => item.kind === 'test-source');
      assert.equal(artifact?.path, API_SOURCE, failure.checkId);
      assert.ok(source.includes(`test(${JSON.stringify(`${failure.checkId}: `).slice(0, -1)}`), `${failure.checkId} is a test of the file`);
    }
    assert.equal(
      report.failures.find((failure) => failure.checkId === PING)?.artifacts[0]?.description,
      `run only this check's test: BASE_URL=http://127.0.0.1:${shop.port} node --test --test-name-pattern='^api:shop:get\\.api\\.ping:valid-not-5xx: ' ${API_SOURCE}`,
    );
    const { run } = readLatest(shop);
    assert.deepEqual(
      [...new Set(run.checks.map((check) => check.artifacts?.find((item) => item.kind === 'test-source')?.path))],
      [API_SOURCE],
    );
    const ai = await runCliAsync(['ai', '--cwd', shop.repo.dir, '--base', 'HEAD', '--format', 'json']);
    assert.equal(ai.code, 0, ai.stderr);
    const bundle = JSON.parse(ai.stdout) as AgentBundle;
    const task = [...bundle.tasks, ...bundle.taskOverflow].find((item) => item.id === `task:product:${PING}`);
    assert.match(
      task?.detail ?? '',
      new RegExp(`, read the generated test ${API_SOURCE.replace(/\./g, '\\.')}, then rerun only this check: `),
    );
  });

  it('a run that sends the API checks keeps their file without --generate-api-tests too', async () => {
    const file = join(shop.repo.dir, API_SOURCE);
    shop.repo.remove(API_SOURCE);
    const { report } = await product(shop, '--target', 'shop');
    assert.equal(existsSync(file), true);
    assert.ok(report.written.includes(API_SOURCE));
    assert.deepEqual([...new Set(report.failures.map((failure) => failure.artifacts[0]?.path))], [API_SOURCE]);
  });

  it('a --test-id rerun updates its check in the latest report and keeps every other check and failure, recording when and how it ran', async () => {
    const before = readLatest(shop);
    assert.equal(before.failures.failures.length, 3);
    // The fix: the handler refuses an order without items again.
    shop.repo.write({ 'orders.mjs': ORDERS_BASE });
    try {
      const { code, report } = await product(shop, '--target', 'shop', '--test-id', MISSING_BODY);
      assert.equal(code, 0);
      assert.deepEqual(
        (report.report?.checks ?? []).map((check) => [check.id, check.status]),
        [[MISSING_BODY, 'passed']],
      );
      const latest = readLatest(shop);
      assert.deepEqual(
        latest.run.checks.map((check) => [check.id, check.status]),
        before.run.checks.map((check) => [check.id, check.id === MISSING_BODY ? 'passed' : check.status]),
      );
      assert.equal(latest.run.generatedAt, before.run.generatedAt);
      assert.equal(latest.run.updatedAt, report.report?.generatedAt);
      assert.deepEqual(latest.run.reruns, [
        { checkId: MISSING_BODY, at: report.report?.generatedAt, status: 'passed', runFolder: report.runFolder },
      ]);
      assert.deepEqual(
        latest.failures.failures.map((failure) => failure.checkId),
        ['api:shop:post.api.orders:valid-not-5xx', PING],
      );
      assert.deepEqual(
        latest.failures.failures,
        before.failures.failures.filter((failure) => failure.checkId !== MISSING_BODY),
      );
      assert.deepEqual(latest.failures.reruns, latest.run.reruns);
      // The bundle an agent gets still carries the failures the rerun did not touch.
      const ai = await runCliAsync(['ai', '--cwd', shop.repo.dir, '--base', 'HEAD', '--format', 'json']);
      const bundle = JSON.parse(ai.stdout) as AgentBundle;
      assert.deepEqual(
        bundle.evidence.productFailures.map((failure) => failure.checkId),
        [PING, 'api:shop:post.api.orders:valid-not-5xx'],
      );
    } finally {
      shop.repo.write({ 'orders.mjs': ORDERS_HEAD });
    }
    // Failing again puts it back, in place of nothing: added after the failures that stayed.
    const { report } = await product(shop, '--target', 'shop', '--test-id', MISSING_BODY);
    const latest = readLatest(shop);
    assert.deepEqual(
      latest.failures.failures.map((failure) => failure.checkId),
      ['api:shop:post.api.orders:valid-not-5xx', PING, MISSING_BODY],
    );
    assert.deepEqual(
      latest.run.reruns?.map((rerun) => [rerun.checkId, rerun.status, rerun.at]),
      [
        [MISSING_BODY, 'passed', latest.run.reruns?.[0]?.at],
        [MISSING_BODY, 'failed', report.report?.generatedAt],
      ],
    );
  });

  it('ui: a page that throws at base too is not a confirmed regression; a --test-id rerun of it keeps the other pages in the report and the kept spec (two product runs, each with a real Chromium on base and head)', async () => {
    const { report } = await product(shop, '--target', 'shop-web');
    const about = report.failures.find((failure) => failure.checkId === ABOUT);
    assert.equal(about?.classification, 'unknown');
    assert.equal(about?.classificationConfidence, 0.5);
    assert.match(about?.classificationEvidence?.[0] ?? '', /^failed again on the rerun: uncaught: /);
    assert.ok(
      about?.classificationEvidence?.includes(
        'this change touches none of the files that serve the check (server.mjs): nothing ties the failure to it',
      ),
      JSON.stringify(about?.classificationEvidence),
    );
    assert.match(
      about?.classificationEvidence?.at(-1) ?? '',
      /^not compared with the base revision, so not confirmed as this change's regression: checker product --target shop-web --test-id ui:shop-web:about:no-errors --at-base/,
    );
    const checks = readLatest(shop).run.checks.map((check) => check.id);
    assert.equal(checks.length, 8, checks.join(', '));
    const spec = join(shop.repo.dir, '.checker/local/product-tests/shop-web/ui.generated.spec.mjs');
    const pages = (): string[] => [...readFileSync(spec, 'utf8').matchAll(/^test\("(ui:[^:]+:[^:]+):/gm)].map((match) => match[1] ?? '');
    assert.deepEqual(pages(), ['ui:shop-web:root', 'ui:shop-web:about']);

    const rerun = await product(shop, '--target', 'shop-web', '--test-id', ABOUT);
    assert.deepEqual(
      (rerun.report.report?.checks ?? []).map((check) => check.id),
      [ABOUT],
    );
    const latest = readLatest(shop);
    assert.deepEqual(
      latest.run.checks.map((check) => check.id),
      checks,
    );
    assert.deepEqual(
      latest.failures.failures.map((failure) => failure.checkId),
      [ABOUT],
    );
    assert.deepEqual(
      latest.run.reruns?.map((item) => [item.checkId, item.status]),
      [[ABOUT, 'failed']],
    );
    assert.deepEqual(pages(), ['ui:shop-web:root', 'ui:shop-web:about']);
    assert.equal(await areGoneSoonIn(shop.repo.dir), true);
  });
});

/**
 * --at-base when the base revision cannot come up: its committed server exits at once, the change's answers 500 on
 * GET /api/ping (declared in openapi.yaml). The failure reproduces at head, but the base gave no verdict on it.
 */
describe('checker product --at-base when the base cannot come up', () => {
  let repo: TestRepo;
  before(async () => {
    const port = await findFreePort();
    const openapi =
      'openapi: 3.0.3\ninfo: { title: ping, version: 1.0.0 }\npaths:\n  /api/ping:\n    get: { responses: { "200": { description: pong } } }\n';
    const start = `{ command: ${JSON.stringify(process.execPath)}, args: [server.cjs, "${port}"] }`;
    repo = createRepo({
      'openapi.yaml': openapi,
      'server.cjs': 'process.exit(3);\n',
      '.checker/config.yml': `safety:\n  allowCommands: true\nproducts:\n  targets:\n    ping:\n      baseUrl: http://127.0.0.1:${port}\n      kind: api\n      start: ${start}\n      healthcheck: { path: /health, timeoutMs: 15000, intervalMs: 100 }\n`,
    });
    repo.write({
      'server.cjs': [
        "require('node:http')",
        "  .createServer((req, res) => res.writeHead(req.url === '/health' ? 200 : 500).end(req.url === '/health' ? 'ok' : '{}'))",
        "  .listen(Number(process.argv[2]), '127.0.0.1');",
        '',
      ].join('\n'),
    });
  });
  after(() => repo.cleanup());

  it('a reproduced failure without a verdict at base stays unknown, saying the base did not come up', async () => {
    const result = await runCliAsync(['product', '--cwd', repo.dir, '--format', 'json', '--target', 'ping', '--at-base']);
    const report = JSON.parse(result.stdout) as ProductResultReport;
    assert.equal(getValidator('product-result')(report), true, JSON.stringify(getValidator('product-result').errors));
    assert.equal(report.baseRun?.status, 'failed');
    assert.deepEqual(report.baseRun?.checks, []);
    const ping = report.failures.find((failure) => failure.checkId === 'api:ping:get.api.ping:valid-not-5xx');
    assert.equal(ping?.classification, 'unknown');
    assert.match(
      ping?.classificationEvidence?.at(-1) ?? '',
      /^not rerun at base HEAD \([0-9a-f]{7}\) \(the target did not come up at HEAD \([0-9a-f]{7}\): the app exited before it became healthy\), so not confirmed as this change's regression$/,
    );
    assert.equal(await areGoneSoonIn(repo.dir), true);
  });
});
