import { z } from 'zod';
import { dateTimeField } from './date-time.js';

/**
 * `.checker/local/product-runs/latest.json` (spec 2.12): generated UI/API/workflow check results, whose text fields
 * are untrusted output. `productRunSchema` is the source of schemas/product-run.schema.json (`npm run schemas`);
 * app/read-bundle-inputs validates the file against that file.
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

export const productRunSchema = z.strictObject({
  schemaVersion: z.literal(1),
  target: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/),
  generatedAt: dateTimeField,
  checks: z.array(productRunCheck).max(5000),
});

export type ProductRunReport = z.infer<typeof productRunSchema>;
