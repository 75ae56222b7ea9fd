import { z } from 'zod';
import { dateTimeField } from './date-time.js';

/**
 * `.checker/local/product-runs/latest.json` (spec 2.12): generated UI/API/workflow check results, whose text fields
 * are untrusted output. `productRunSchema` is the source of schemas/product-run.schema.json (`npm run schemas`);
 * app/load/read-bundle-inputs validates the file against that file.
 */
export const ARTIFACT_KINDS = [
  'screenshot',
  'trace',
  'video',
  'dom-snapshot',
  'console-log',
  'network-log',
  'test-source',
  'request-response-diff',
  'other',
] as const;

const productRunCheck = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/),
  kind: z.enum(['ui', 'api', 'workflow']),
  status: z.enum(['passed', 'failed', 'skipped']),
  title: z.string().min(1).max(1000),
  expected: z.string().max(20_000).optional(),
  actual: z.string().max(20_000).optional(),
  impactedFiles: z.array(z.string().min(1).max(1024)).max(500).optional(),
  artifacts: z
    .array(
      z.strictObject({
        kind: z.enum(ARTIFACT_KINDS),
        path: z.string().min(1).max(1024).optional(),
        label: z.string().min(1).max(300).optional(),
        description: z.string().min(1).max(2000).optional(),
      }),
    )
    .max(100)
    .optional(),
});

/** Most recent `--test-id` reruns kept in the latest report; older ones are dropped first. */
export const MAX_RERUN_RECORDS = 200;

/** One `--test-id` rerun merged into the latest report: which check, when, its outcome, and the run that holds its artifacts. */
export const productRerunRecordSchema = z.strictObject({
  checkId: productRunCheck.shape.id,
  at: dateTimeField,
  status: productRunCheck.shape.status,
  runFolder: z.string().min(1).max(1024).optional(),
});

export const productRunSchema = z.strictObject({
  schemaVersion: z.literal(1),
  target: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/),
  /** When the full run that produced these checks began its report; a rerun leaves it and sets updatedAt. */
  generatedAt: dateTimeField,
  /** When a `--test-id` rerun last replaced one of the checks. */
  updatedAt: dateTimeField.optional(),
  checks: z.array(productRunCheck).max(5000),
  /** The `--test-id` reruns merged into these checks since the full run, oldest first. */
  reruns: z.array(productRerunRecordSchema).max(MAX_RERUN_RECORDS).optional(),
});

export type ProductRunReport = z.infer<typeof productRunSchema>;
