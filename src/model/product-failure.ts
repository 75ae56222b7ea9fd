import { z } from 'zod';
import { ARTIFACT_KINDS } from './product-run.js';

/**
 * A product failure bundle (spec 2.1–2.3): one failed generated UI/API/workflow check, as a coding agent gets it.
 * Strict at every level (no additional properties) with `schemaVersion: 1`; `productFailureSchema` is the source of
 * schemas/product-failure.schema.json (`npm run schemas`). Text taken from the product (actual values, console
 * output) is untrusted and redacted before it is stored.
 */
const nonEmpty = z.string().min(1);

const CLASSIFICATIONS = [
  'confirmed-regression',
  'likely-flaky',
  'environment-failure',
  'auth-or-test-data-failure',
  'generated-test-weakness',
  'unknown',
] as const;

/** Spec 2.2. */
const productStepSchema = z
  .strictObject({
    index: z.int().min(0),
    label: nonEmpty,
    status: z.enum(['passed', 'failed', 'skipped']),
    expected: nonEmpty.optional(),
    actual: nonEmpty.optional(),
  })
  .meta({ id: 'step' });

/** Spec 2.3. */
const productArtifactSchema = z
  .strictObject({
    kind: z.enum(ARTIFACT_KINDS),
    path: nonEmpty.optional(),
    label: nonEmpty.optional(),
    description: nonEmpty.optional(),
  })
  .meta({ id: 'artifact' });

/** Spec 2.1. */
export const productFailureSchema = z.strictObject({
  schemaVersion: z.literal(1),
  id: nonEmpty,
  checkId: nonEmpty,
  checkKind: z.enum(['ui', 'api', 'workflow']),
  priority: z.enum(['low', 'medium', 'high']),
  target: z.strictObject({
    id: nonEmpty,
    environment: nonEmpty.optional(),
    baseUrl: z.url().optional(),
  }),
  title: nonEmpty,
  summary: nonEmpty,
  classification: z.enum(CLASSIFICATIONS),
  classificationConfidence: z.number().min(0).max(1).optional(),
  classificationEvidence: z.array(nonEmpty).optional(),
  failedStep: productStepSchema,
  neighboringSteps: z.array(productStepSchema),
  artifacts: z.array(productArtifactSchema),
  expected: nonEmpty,
  actual: nonEmpty,
  impactedFiles: z.array(nonEmpty),
  rootCauseHypothesis: nonEmpty.optional(),
  suggestedFixTasks: z.array(nonEmpty),
  rerunCommand: nonEmpty,
});
