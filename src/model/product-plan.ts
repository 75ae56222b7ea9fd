import { z } from 'zod';
import { productFailureSchema } from './product-failure.js';
import { MAX_RERUN_RECORDS, productRerunRecordSchema } from './product-run.js';

/**
 * MCP `checker_product_plan`: the configured product targets and what each needs before `checker product` can run it.
 * It executes nothing. `productPlanSchema` is the source of schemas/product-plan.schema.json.
 */
export const productPlanSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('product-plan'),
  gate: z.strictObject({
    allowCommands: z.boolean(),
    explanation: z.string(),
    /** The config file that configures product targets, which hints name: the one that sets `products.targets`, else the first read; absent when none was read. */
    configFile: z.string().optional(),
  }),
  browser: z.strictObject({
    found: z.boolean(),
    executablePath: z.string().optional(),
    source: z.string().optional(),
    message: z.string().optional(),
    hint: z.string().optional(),
  }),
  targets: z.array(
    z.strictObject({
      name: z.string(),
      kind: z.enum(['ui', 'api']),
      baseUrl: z.string(),
      start: z.boolean(),
      setup: z.boolean(),
      teardown: z.boolean(),
      healthcheckUrl: z.string(),
      /** True when `checker product --target <name>` can run now. */
      ready: z.boolean(),
      /** What stops it: the gate, no browser for a ui target, no start command (the app must already run). */
      missing: z.array(z.string()),
      commands: z.array(z.string()),
    }),
  ),
  artifacts: z.strictObject({ runs: z.string(), latest: z.string(), failures: z.string(), generatedTests: z.string() }),
  latestRun: z
    .strictObject({ target: z.string(), generatedAt: z.string(), passed: z.int().min(0), failed: z.int().min(0), skipped: z.int().min(0) })
    .optional(),
  executes: z.literal(false),
});

/** `.checker/local/product-runs/latest-failures.json` and MCP `checker_product_failures`: the latest run's failure bundles. */
export const productFailuresSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('product-failures'),
  target: z.string().optional(),
  generatedAt: z.string().optional(),
  /** When a `--test-id` rerun last replaced, added or removed one of the failures. */
  updatedAt: z.string().optional(),
  /** The full run's folder; each rerun's own folder is in `reruns`. */
  runFolder: z.string().optional(),
  failures: z.array(productFailureSchema),
  /** The `--test-id` reruns merged in since the full run, oldest first (as in latest.json). */
  reruns: z.array(productRerunRecordSchema).max(MAX_RERUN_RECORDS).optional(),
});

export type ProductPlan = z.infer<typeof productPlanSchema>;
export type ProductFailures = z.infer<typeof productFailuresSchema>;
