import { z } from 'zod';
import { excerptSchema } from './execution.js';
import { productFailureSchema } from './product-failure.js';
import { productRunSchema } from './product-run.js';

/**
 * `checker product --target <name>`: the target's lifecycle phase by phase, the run report (what latest.json holds)
 * and a failure bundle (spec 2.1) per failed check. `productResultSchema` is the source of
 * schemas/product-result.schema.json (`npm run schemas`).
 */
const phase = z.strictObject({
  name: z.enum(['setup', 'start', 'health', 'workflows', 'stop', 'teardown']),
  status: z.enum(['passed', 'failed', 'skipped']),
  reason: z.string(),
  durationMs: z.number().min(0),
  argv: z.array(z.string()).optional(),
  pid: z.int().optional(),
  exitCode: z.int().nullable().optional(),
  signal: z.string().nullable().optional(),
  stdout: excerptSchema.optional(),
  stderr: excerptSchema.optional(),
  url: z.string().optional(),
  attempts: z.int().min(0).optional(),
  lastStatus: z.int().optional(),
  lastError: z.string().optional(),
});

export const productResultSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('product'),
  target: z.string(),
  baseUrl: z.string(),
  gate: z.strictObject({ requested: z.boolean(), allowCommands: z.boolean(), open: z.boolean(), explanation: z.string() }),
  /** not-run: the gate was closed; failed: the target could not be brought up, or a check failed. */
  status: z.enum(['passed', 'failed', 'not-run']),
  runId: z.string().optional(),
  runFolder: z.string().optional(),
  phases: z.array(phase),
  failure: z
    .strictObject({
      phase: phase.shape.name,
      classification: z.literal('environment-failure'),
      message: z.string(),
      evidence: z.array(z.string()),
    })
    .optional(),
  report: productRunSchema.optional(),
  failures: z.array(productFailureSchema),
  /** The change the run was read against: its files come first in each failure's impactedFiles. */
  change: z.strictObject({ base: z.string(), baseOid: z.string(), changedFiles: z.int().min(0) }).optional(),
  /**
   * `--at-base`: the target brought up again from the base revision (a worktree under .checker/local/worktrees/,
   * removed afterwards) and every failure that reproduced at head rerun there.
   */
  baseRun: z
    .strictObject({
      ref: z.string(),
      oid: z.string(),
      status: z.enum(['passed', 'failed', 'not-run']),
      reason: z.string(),
      phases: z.array(phase),
      checks: z.array(z.strictObject({ id: z.string(), status: z.enum(['passed', 'failed']), actual: z.string() })),
      worktree: z.strictObject({ name: z.string(), removed: z.boolean() }).optional(),
    })
    .optional(),
  limitations: z.array(z.strictObject({ code: z.string(), message: z.string() })).optional(),
  /** `.checker/local/…` files written: the report, latest.json, generated tests. */
  written: z.array(z.string()),
});

export type ProductResultReport = z.infer<typeof productResultSchema>;
