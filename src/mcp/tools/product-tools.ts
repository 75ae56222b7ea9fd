import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { planProduct, readProductFailures } from '../../app/product/plan.js';
import { rerunProductCheck } from '../../app/product/rerun.js';
import { runProduct, toProductResultReport } from '../../app/product/run-product.js';
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
      atBase: input.atBase === true,
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
    const result = await rerunProductCheck(env, {
      budgetMs: Math.max(5_000, deadlineMs - DEADLINE_MARGIN_MS),
      confirmed: input.confirmExecution === true,
      ...(input.target === undefined ? {} : { target: input.target }),
      ...(input.testId === undefined ? {} : { testId: input.testId }),
      ...(input.checkKind === undefined ? {} : { checkKind: input.checkKind }),
      atBase: input.atBase === true,
    });
    return { report: toProductResultReport(result), schema: 'product-result', renderMarkdown: renderProductMarkdown };
  },
});
