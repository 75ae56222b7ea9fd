import { z } from 'zod';

/**
 * `checker rules list` and `checker rules validate`. `rulesListSchema` and `rulesValidateSchema` are the sources of
 * schemas/rules-list.schema.json and schemas/rules-validate.schema.json (`npm run schemas`); the report types are
 * their z.infer.
 */
const nonEmpty = z.string().min(1);

export const rulesListSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('rules-list'),
  packs: z.array(
    z.strictObject({
      id: nonEmpty,
      version: nonEmpty,
      kind: z.string(),
      subject: z.string(),
      source: z.enum(['builtin', 'repository']),
      file: z.string(),
      description: z.string(),
      rules: z.array(
        z.strictObject({
          id: z.string(),
          description: z.string(),
          weight: z.number(),
          /** The code evidence the rule needs before it fires, as its pack states it (edge-case and risk packs). */
          evidence: z.string().optional(),
        }),
      ),
    }),
  ),
  diagnostics: z.array(z.strictObject({ code: z.string(), severity: z.string(), message: z.string() })),
});

export type RulesListReport = z.infer<typeof rulesListSchema>;

export const rulesValidateSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('rules-validate'),
  results: z.array(
    z.strictObject({
      file: z.string(),
      valid: z.boolean(),
      packId: z.string().optional(),
      version: z.string().optional(),
      rules: z.int().min(0).optional(),
      error: z.string().optional(),
    }),
  ),
});

export type RulesValidateReport = z.infer<typeof rulesValidateSchema>;
