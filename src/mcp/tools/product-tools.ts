import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { planProduct, readProductFailures } from '../../app/product/plan.js';
import { runProduct, toProductResultReport } from '../../app/product/run-product.js';
import { CheckerError } from '../../model/diagnostic.js';
import { renderProductFailuresMarkdown, renderProductMarkdown, renderProductPlanMarkdown } from '../../report/product-markdown.js';
import { productFailuresInputSchema, productPlanInputSchema, productRerunInputSchema, productRunInputSchema } from '../schemas.js';
import { defineTool, READ_ONLY } from './define-tool.js';

/** It starts the repository's app and a browser: not read-only, may change state, reaches the target's origin. */
/** Time kept after the checks for stopping the app, tearing down and answering. */
const DEADLINE_MARGIN_MS = 20_000;

const RUNS_PRODUCT: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

export const productPlan = defineTool({
  name: 'checker_product_plan',
  inputSchema: productPlanInputSchema,
  outputSchemaName: 'product-plan',
  annotations: READ_ONLY,
  async run(_input, { env }) {
    return { report: await planProduct(env), schema: 'product-plan', renderMarkdown: renderProductPlanMarkdown };
  },
});

export const productRun = defineTool({
  name: 'checker_product_run',
  inputSchema: productRunInputSchema,
  outputSchemaName: 'product-result',
  annotations: RUNS_PRODUCT,
  async run(input, { env, deadlineMs }) {
    const result = await runProduct(env, {
      budgetMs: Math.max(5_000, deadlineMs - DEADLINE_MARGIN_MS),
      target: input.target,
      confirmed: input.confirmExecution === true,
      generateApiTests: input.generateApiTests === true,
      runGeneratedApiTests: input.runGeneratedApiTests === true,
      ...(input.base === undefined ? {} : { base: input.base }),
      trace: input.trace === true,
    });
    return { report: toProductResultReport(result), schema: 'product-result', renderMarkdown: renderProductMarkdown };
  },
});

export const productFailures = defineTool({
  name: 'checker_product_failures',
  inputSchema: productFailuresInputSchema,
  outputSchemaName: 'product-failures',
  annotations: READ_ONLY,
  async run(_input, { env }) {
    return { report: await readProductFailures(env), schema: 'product-failures', renderMarkdown: renderProductFailuresMarkdown };
  },
});

export const productRerun = defineTool({
  name: 'checker_product_rerun',
  inputSchema: productRerunInputSchema,
  outputSchemaName: 'product-result',
  annotations: RUNS_PRODUCT,
  async run(input, { env, deadlineMs }) {
    const latest = await readProductFailures(env);
    const chosen = input.testId === undefined ? latest.failures[0] : latest.failures.find((failure) => failure.checkId === input.testId);
    const testId = input.testId ?? chosen?.checkId;
    const target = input.target ?? chosen?.target.id ?? latest.target;
    if (testId === undefined || target === undefined) {
      throw new CheckerError('product/nothing-to-rerun', 'the latest product run has no failure to rerun', {
        hint: 'run checker_product_run first, or pass target and testId',
      });
    }
    // An environment failure (workflow:…) is rerun by running the whole target again.
    const result = await runProduct(env, {
      budgetMs: Math.max(5_000, deadlineMs - DEADLINE_MARGIN_MS),
      target,
      confirmed: input.confirmExecution === true,
      ...(testId.startsWith('workflow:') ? {} : { testId }),
    });
    return { report: toProductResultReport(result), schema: 'product-result', renderMarkdown: renderProductMarkdown };
  },
});
