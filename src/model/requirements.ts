import { z } from 'zod';

/**
 * Requirements artifact (spec 2.5): a repo-local JSON or YAML file given with `--requirements`, or the
 * `requirements` object of an MCP call. `requirementsSchema` is the source of
 * schemas/requirements.schema.json (`npm run schemas`) and of the MCP `requirements` field; each field's
 * error text names the fix, because it is what the calling agent reads. Requirement evidence is kept
 * apart from the tool's own suggestions; its free text is untrusted.
 */
const STATEMENT_CHARS = 4000;

const statementSchema = z.union([z.string().max(STATEMENT_CHARS), z.array(z.string().max(STATEMENT_CHARS)).max(200)], {
  error: `must be a string or an array of strings (each at most ${STATEMENT_CHARS} characters)`,
});

export const acceptanceCriterionSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/, {
      error: 'must be a plain id such as "AC-1" (letters, digits, . _ : -; at most 64 characters)',
    })
    .describe('Stable id, e.g. "AC-1".'),
  text: z.string().min(1).max(4000).describe('What must be true.'),
  requiredProof: z.array(z.string().min(1).max(1000)).max(50).describe('What proves it, e.g. "unit test of toCents".'),
});

export const affectedFlowSchema = z.strictObject({
  name: z.string().min(1).max(300),
  kind: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, { error: 'must be a lower-case word such as "api" or "ui"' })
    .describe('"api" flows are matched to routes.'),
  route: z.string().min(1).max(300).optional().describe('Optional "METHOD /path" or "/path" of an api flow.'),
});

export const requirementsSchema = z
  .strictObject({
    schemaVersion: z.literal(1, { error: 'must be 1 or left out' }).optional(),
    title: z.string().max(300).optional().describe('Short title of the requirement.'),
    acceptanceCriteria: z
      .array(acceptanceCriterionSchema)
      .max(200)
      .optional()
      .describe('Acceptance criteria; each becomes a proof obligation.'),
    currentBehavior: statementSchema.optional().describe('What happens today.'),
    expectedBehavior: statementSchema.optional().describe('What should happen after the change.'),
    affectedFlows: z.array(affectedFlowSchema).max(200).optional().describe('User or API flows the change touches.'),
    nonGoals: statementSchema.optional().describe('What the change must not do.'),
    invariants: statementSchema.optional().describe('What must stay true.'),
    architectureConstraints: statementSchema.optional().describe('Boundaries the change must respect.'),
    unresolvedQuestions: statementSchema.optional().describe('Open questions.'),
  })
  .describe(
    'A repo-local JSON or YAML file given with --requirements. Acceptance criteria become proof obligations; api flows are matched to routes.',
  );

export type RequirementStatement = z.infer<typeof statementSchema>;
export type AcceptanceCriterion = z.infer<typeof acceptanceCriterionSchema>;
export type AffectedFlow = z.infer<typeof affectedFlowSchema>;
export type Requirements = z.infer<typeof requirementsSchema>;

/** A requirements file as read: its repository path, SHA-256 of its bytes as text, and the validated data. */
export interface RequirementsInput {
  path: string;
  hash: string;
  data: Requirements;
}
