import { defineCommand } from 'citty';
import { COMMAND_TEXTS } from '../../app/command-texts.js';
import { runProduct, toProductResultReport } from '../../app/product/run-product.js';
import { renderProductMarkdown } from '../../report/product-markdown.js';
import { cwdArg, formatArg, toFormat, toRange } from '../args.js';
import { emitReport, withEnv } from '../context.js';
import { currentHost } from '../host.js';
import { toTrustOption, trustChangedConfigArg } from '../trust-args.js';
import { countOf } from '../../text/plural.js';

/** Exit 1 when the target could not be brought up or a check failed; 0 when all passed or nothing ran (the gate). */
export default defineCommand({
  meta: { name: 'product', description: COMMAND_TEXTS.product.description },
  args: {
    ...cwdArg,
    target: { type: 'string', description: 'Product target to run (products.targets.<name> in .checker/config.yml)', valueHint: 'name' },
    'generate-api-tests': {
      type: 'boolean',
      description: 'Write the generated API checks as a node:test file under .checker/local/product-tests/',
    },
    'run-generated-api-tests': { type: 'boolean', description: 'Send the generated API checks to the target (an api target always does)' },
    'test-id': { type: 'string', description: 'Run exactly this check (ui:… or api:…), as a failure bundle rerun does', valueHint: 'id' },
    base: {
      type: 'string',
      description: "The change's base (default: merge-base with the default branch); its files come first in impacted files",
      valueHint: 'ref',
    },
    'at-base': {
      type: 'boolean',
      description:
        'Bring the target up again from the base revision and rerun there every failure that reproduced: only one that passes there is a confirmed regression',
    },
    trace: { type: 'boolean', description: 'Record a Playwright trace of the exploration (an artifact of each UI failure)' },
    ...trustChangedConfigArg,
    ...formatArg,
  },
  async run({ args }) {
    const format = toFormat(args.format);
    const host = currentHost();
    if (typeof args.target !== 'string' || args.target === '') {
      await host.writeStderr('checker: usage/missing-flag: --target is required, e.g. checker product --target web\n');
      host.exitCode = 2;
      return;
    }
    const target = args.target;
    const range = toRange({ base: args.base });
    await withEnv(args.cwd, async (env) => {
      const result = await runProduct(env, {
        target,
        confirmed: true,
        generateApiTests: args['generate-api-tests'] === true,
        runGeneratedApiTests: args['run-generated-api-tests'] === true,
        ...(typeof args['test-id'] === 'string' && args['test-id'] !== '' ? { testId: args['test-id'] } : {}),
        ...range,
        atBase: args['at-base'] === true,
        trace: args.trace === true,
        ...toTrustOption(args),
      });
      const report = toProductResultReport(result);
      await emitReport(env.root, report, { format, output: args.output, schema: 'product-result', markdown: renderProductMarkdown });
      if (report.status === 'not-run') await host.writeStderr(`checker: product: ${report.gate.explanation}\n`);
      // A target the change itself reconfigured is refused, not passed: a CI job must not read it as green.
      if (report.status === 'not-run' && (report.limitations ?? []).some((item) => item.code === 'config/changed-by-range'))
        host.exitCode = 2;
      if (report.status === 'failed') {
        await host.writeStderr(`checker: product: ${countOf(report.failures.length, 'failure')}; each bundle names its rerun command\n`);
        host.exitCode = 1;
      }
    });
  },
});
