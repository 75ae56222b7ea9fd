import type { Env } from '../../model/env.js';
import type { ProductFailures, ProductPlan } from '../../model/product-plan.js';
import { compareText } from '../../text/compare-text.js';
import { decideGate, describeCommandsNotAllowed, findTrustedConfigFile, loadTrustedConfig } from '../load/trusted-config.js';
import { loadUserSettings } from '../load/user-config.js';
import { isUrlHostAllowed } from '../../text/hosts.js';
import { LATEST_FAILURES, LATEST_RUN, readLatestRun } from './latest.js';
import { toHealthUrl } from './target.js';

/** MCP `checker_product_plan`: targets, whether each can run now and why not, where results go, the commands to run. Executes nothing. */
export async function planProduct(env: Env): Promise<ProductPlan> {
  const loaded = await loadTrustedConfig(env);
  const gate = decideGate(loaded, false, 'product');
  const { allowCommands } = gate;
  const { allowHosts } = await loadUserSettings(env);
  const browser = await env.findBrowser(loaded.config.products?.browser?.executablePath);
  const targets = Object.entries(loaded.config.products?.targets ?? {})
    .sort(([a], [b]) => compareText(a, b))
    .map(([name, target]) => {
      const missing = [
        ...(loaded.trust.blocked
          ? [
              `the change under review alters ${loaded.trust.changedByRange.join(', ')} of the checker configuration (config/changed-by-range)`,
            ]
          : []),
        ...(allowCommands ? [] : [describeCommandsNotAllowed(loaded.trust)]),
        ...(isUrlHostAllowed(target.baseUrl, allowHosts)
          ? []
          : [
              `baseUrl is on ${new URL(target.baseUrl).host}, not loopback nor a host you allowed (products.allowHosts in your user config, CHECKER_ALLOW_HOSTS)`,
            ]),
        ...(target.kind === 'ui' && !browser.found ? ['no Chromium found (see browser.hint)'] : []),
      ];
      return {
        name,
        kind: target.kind,
        baseUrl: target.baseUrl,
        start: target.start !== undefined,
        setup: target.setup !== undefined,
        teardown: target.teardown !== undefined,
        healthcheckUrl: toHealthUrl(target.baseUrl, target.healthcheck?.path),
        ready: missing.length === 0,
        missing: target.start === undefined ? [...missing, 'no start command: the app must already answer at baseUrl'] : missing,
        commands: [
          `checker product --target ${name}`,
          ...(target.kind === 'ui' ? [`checker product --target ${name} --run-generated-api-tests`] : []),
          `checker product --target ${name} --generate-api-tests`,
        ],
      };
    });
  const latest = await readLatestRun(env);
  return {
    schemaVersion: 1,
    kind: 'product-plan',
    gate: {
      allowCommands,
      explanation: gate.explanation,
      ...(loaded.trust.files.length === 0 ? {} : { configFile: findTrustedConfigFile(loaded.trust, 'products.targets') }),
    },
    browser: browser.found
      ? { found: true, executablePath: browser.executablePath, source: browser.source }
      : { found: false, message: browser.message, hint: browser.hint },
    targets,
    artifacts: {
      runs: '.checker/local/product-runs/<runId>/',
      latest: `.checker/local/${LATEST_RUN}`,
      failures: `.checker/local/${LATEST_FAILURES}`,
      generatedTests: '.checker/local/product-tests/<target>/',
    },
    ...(latest === undefined
      ? {}
      : {
          latestRun: {
            target: latest.target,
            generatedAt: latest.generatedAt,
            passed: latest.checks.filter((check) => check.status === 'passed').length,
            failed: latest.checks.filter((check) => check.status === 'failed').length,
            skipped: latest.checks.filter((check) => check.status === 'skipped').length,
          },
        }),
    executes: false,
  };
}

/** The latest run's failure bundles (`checker product` writes them next to latest.json); none before a run. */
export async function readProductFailures(env: Env): Promise<ProductFailures> {
  const text = await env.readArtifact(LATEST_FAILURES);
  if (text === undefined) return { schemaVersion: 1, kind: 'product-failures', failures: [] };
  return env.validate<ProductFailures>('product-failures', JSON.parse(text) as unknown, {
    code: 'product/failures-unreadable',
    file: `.checker/local/${LATEST_FAILURES}`,
  });
}
