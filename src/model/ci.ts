import { z } from 'zod';

/** `checker ci`: the range a CI run resolved and what the run wrote (src/app/ci/). */

export interface CiRangeSide {
  /** What was resolved (a SHA, `origin/main`, or the merge-base SHA). */
  ref: string;
  oid: string;
  /** The variable or payload field it came from, or `--base` / `--head`. */
  source: string;
}

export interface ResolvedCiRange {
  shallow: boolean;
  base?: CiRangeSide;
  head?: CiRangeSide;
  notes: string[];
}

const PROVIDERS = ['github-actions', 'gitlab-ci', 'buildkite', 'circleci', 'azure-pipelines', 'jenkins', 'none'] as const;
const RISK = ['low', 'medium', 'high', 'critical'] as const;
const side = z.strictObject({
  ref: z.string().min(1),
  oid: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional(),
  source: z.string().min(1).describe("The variable, payload field or flag it came from; `default` for checker's own default."),
});
const file = z.string().min(1);

/** `.checker/local/ci/ci.json` and `checker ci --format json`: what the run detected, decided and wrote. */
export const ciRunRecordSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('ci-run'),
  ci: z.strictObject({
    provider: z.enum(PROVIDERS),
    name: z.string().min(1),
    event: z.enum(['pull-request', 'push', 'manual', 'unknown']),
    pullRequest: z
      .string()
      .regex(/^\d{1,10}$/)
      .optional(),
  }),
  range: z.strictObject({ base: side, head: side, shallow: z.boolean() }),
  mergeRisk: z.strictObject({ score: z.number().min(0).max(100), level: z.enum(RISK) }),
  gate: z.strictObject({ failOn: z.enum(RISK).optional(), failed: z.boolean() }),
  findings: z.int().min(0).describe('Rule-pack findings about the change (context weights left out).'),
  sarifResults: z.int().min(0),
  files: z
    .strictObject({ analysis: file, bundle: file, sarif: file, summary: file, comment: file, record: file })
    .describe('Paths under .checker/local/.'),
  notes: z.array(z.string()).describe('How the range was found, in order (CI text: untrusted).'),
});

export type CiRunRecord = z.infer<typeof ciRunRecordSchema>;
