import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ProductFailures } from '../../src/model/product-plan.js';
import type { ProductResultReport } from '../../src/model/product-result.js';
import { getValidator } from '../../src/io/schema.js';
import { cliArgv, projectRoot } from '../helpers/cli.js';
import { createExpressShop, type ExpressShop } from '../helpers/express-shop.js';
import { areGoneSoonIn } from '../helpers/processes.js';

/**
 * Issue 42 over MCP, on the real Express shop of test/helpers/express-shop.ts: checker_product_rerun chooses among
 * the latest failures by checkKind and target, refuses inputs that contradict each other, and checker_product_run
 * and checker_product_rerun offer the base comparison (atBase) under the same gate as the CLI's --at-base.
 */
const MISSING_BODY = 'api:shop:post.api.orders:missing-body-4xx';
const PING = 'api:shop:get.api.ping:valid-not-5xx';

describe('MCP checker_product_rerun and atBase on an Express shop', () => {
  let shop: ExpressShop;
  let client: Client;
  before(async () => {
    shop = await createExpressShop();
    client = new Client({ name: 'checker-product-rerun', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...cliArgv(), 'mcp', '--cwd', shop.repo.dir],
        cwd: projectRoot,
        stderr: 'pipe',
      }),
    );
  });
  after(async () => {
    await client.close();
    shop.repo.cleanup();
  });

  const call = async (name: string, args: Record<string, unknown>): Promise<ProductResultReport> => {
    const result = await client.callTool({ name, arguments: { format: 'json', ...args } });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    const report = result.structuredContent as unknown as ProductResultReport;
    assert.equal(getValidator('product-result')(report), true, JSON.stringify(getValidator('product-result').errors));
    return report;
  };
  const refusal = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = await client.callTool({ name, arguments: { format: 'json', ...args } });
    assert.equal(result.isError, true, JSON.stringify(result.structuredContent));
    const [content] = result.content as { type: string; text: string }[];
    return content?.text ?? '';
  };
  const ranChecks = (report: ProductResultReport): string[] => (report.report?.checks ?? []).map((check) => check.id);
  const latestFailures = (): string[] =>
    (
      JSON.parse(readFileSync(join(shop.repo.dir, '.checker/local/product-runs/latest-failures.json'), 'utf8')) as ProductFailures
    ).failures.map((failure) => failure.checkId);

  it('atBase needs confirmExecution like the run; with it only the failure that passes at base is a confirmed regression', async () => {
    const unconfirmed = await call('checker_product_run', { target: 'shop', atBase: true });
    assert.equal(unconfirmed.status, 'not-run');
    assert.equal(unconfirmed.baseRun, undefined);
    assert.equal(existsSync(shop.pidFile), false, 'nothing started');

    const report = await call('checker_product_run', { target: 'shop', confirmExecution: true, atBase: true });
    assert.equal(report.baseRun?.status, 'passed');
    assert.equal(report.baseRun?.worktree?.removed, true);
    const byCheck = new Map(report.failures.map((failure) => [failure.checkId, failure]));
    assert.equal(byCheck.get(MISSING_BODY)?.classification, 'confirmed-regression');
    assert.equal(byCheck.get(MISSING_BODY)?.classificationConfidence, 0.9);
    assert.equal(byCheck.get(PING)?.classification, 'unknown');
    assert.match(byCheck.get(PING)?.classificationEvidence?.at(-1) ?? '', /^fails at base HEAD \([0-9a-f]{7}\) too \(500\)/);

    // A rerun compares with base too, and leaves the other failures of the latest report where they were.
    const rerun = await call('checker_product_rerun', { confirmExecution: true, testId: MISSING_BODY, atBase: true });
    assert.deepEqual(ranChecks(rerun), [MISSING_BODY]);
    assert.deepEqual(
      rerun.failures.map((failure) => [failure.classification, failure.classificationConfidence]),
      [['confirmed-regression', 0.9]],
    );
    assert.deepEqual(
      latestFailures(),
      report.failures.map((failure) => failure.checkId),
    );
    assert.equal(await areGoneSoonIn(shop.repo.dir), true);
  });

  it('checkKind picks the first failure of that kind, target narrows it, and no argument picks the first failure (a product run and three reruns, each with a real Chromium)', async () => {
    const run = await call('checker_product_run', { target: 'shop-web', confirmExecution: true, runGeneratedApiTests: true });
    const failures = run.failures.map((failure) => [failure.checkKind, failure.checkId]);
    assert.deepEqual(failures, [
      ['api', 'api:shop-web:post.api.orders:valid-not-5xx'],
      ['api', 'api:shop-web:post.api.orders:missing-body-4xx'],
      ['api', 'api:shop-web:get.api.ping:valid-not-5xx'],
      ['ui', 'ui:shop-web:about:no-errors'],
    ]);
    assert.deepEqual(ranChecks(await call('checker_product_rerun', { confirmExecution: true, checkKind: 'ui' })), [
      'ui:shop-web:about:no-errors',
    ]);
    assert.deepEqual(ranChecks(await call('checker_product_rerun', { confirmExecution: true, checkKind: 'api', target: 'shop-web' })), [
      'api:shop-web:post.api.orders:valid-not-5xx',
    ]);
    assert.deepEqual(ranChecks(await call('checker_product_rerun', { confirmExecution: true })), [
      'api:shop-web:post.api.orders:valid-not-5xx',
    ]);
    // Each rerun was merged: the latest failures are still the run's four.
    assert.deepEqual(
      latestFailures(),
      failures.map(([, id]) => id),
    );

    const noWorkflow = await refusal('checker_product_rerun', { confirmExecution: true, checkKind: 'workflow' });
    assert.match(
      noWorkflow,
      /^product\/nothing-to-rerun: the latest product run has no failure of checkKind "workflow"; its failures: 3 api of target shop-web, 1 ui of target shop-web\nhint: pass checkKind and target of a failure it has/,
    );
    const otherTarget = await refusal('checker_product_rerun', { confirmExecution: true, checkKind: 'ui', target: 'shop' });
    assert.match(otherTarget, /^product\/nothing-to-rerun: the latest product run has no failure of checkKind "ui" of target "shop";/);
    assert.equal(await areGoneSoonIn(shop.repo.dir), true);
  });

  it('a workflow failure is chosen by checkKind workflow and reruns the whole target', async () => {
    const run = await call('checker_product_run', { target: 'broken', confirmExecution: true });
    assert.deepEqual(ranChecks(run), ['workflow:broken:start']);
    const rerun = await call('checker_product_rerun', { confirmExecution: true, checkKind: 'workflow' });
    assert.equal(rerun.target, 'broken');
    assert.deepEqual(
      rerun.phases.map((phase) => [phase.name, phase.status]),
      [
        ['start', 'passed'],
        ['health', 'failed'],
        ['stop', 'passed'],
      ],
    );
    assert.deepEqual(ranChecks(rerun), ['workflow:broken:start']);
  });

  it('invalid or contradicting values are refused naming the field and the fix, and start nothing', async () => {
    shop.repo.remove('app.pid');
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { checkKind: 'page' },
        /^input\/invalid: checker_product_rerun: "checkKind" must be one of ui, api, workflow; leave it out for the first failure of any kind\n/,
      ],
      [
        { checkKind: 'ui', testId: PING },
        /^input\/invalid: checker_product_rerun: "checkKind" is "ui" but testId names a check of kind "api"; pass checkKind "api" or leave it out\n/,
      ],
      [
        { target: 'shop-web', testId: PING },
        /^input\/invalid: checker_product_rerun: "target" is "shop-web" but testId names a check of target "shop"; leave target out \(the id names it\)/,
      ],
      [{ atBase: 'yes' }, /^input\/invalid: checker_product_rerun: "atBase" must be true to rerun at the base revision/],
    ];
    for (const [args, expected] of cases)
      assert.match(await refusal('checker_product_rerun', { confirmExecution: true, ...args }), expected, JSON.stringify(args));
    assert.match(
      await refusal('checker_product_run', { target: 'shop', confirmExecution: true, atBase: 1 }),
      /^input\/invalid: checker_product_run: "atBase" must be true/,
    );
    assert.equal(existsSync(shop.pidFile), false, 'nothing started');
  });
});
