import { z } from 'zod';
import { executionReportSchema } from './execution.js';

/**
 * `checker differential`: the configured checks run on the base revision and on head, compared per check.
 * `differentialReportSchema` is the source of schemas/differential-report.schema.json (`npm run schemas`).
 */

/** One run of a check on one side: the outcome, exit code or signal, duration and output excerpts of `checker execute`. */
const run = executionReportSchema.shape.checks.element.omit({ id: true, argv: true });

export const DIFFERENTIAL_VERDICTS = ['regression', 'fixed', 'still-failing', 'passing', 'flaky', 'not-comparable', 'not-run'] as const;

const differentialCheck = z.strictObject({
  id: z.string(),
  /** The words run (no shell); absent when the command string was refused before it could be split. */
  argv: z.array(z.string()).optional(),
  /**
   * regression: passed on base, failed on head, and again on the rerun; fixed: the reverse; still-failing and passing:
   * the same outcome on both sides; flaky: an outcome changed on the rerun (`flakySide`); not-comparable: it did not
   * finish on a side (timed out, could not start, the worktree could not be written); not-run: gate closed, paths
   * untouched, or a refused command.
   */
  verdict: z.enum(DIFFERENTIAL_VERDICTS),
  /** One sentence: why this verdict, or why it did not run. */
  reason: z.string(),
  flakySide: z.enum(['base', 'head', 'both']).optional(),
  /** Runs on the base worktree: the first, then the rerun when the two sides differed. */
  base: z.array(run).max(2),
  /** Runs on head (the working tree, or a worktree of `--head`), in the same order. */
  head: z.array(run).max(2),
});

const revision = z.strictObject({
  /** What was asked for (`main`, `HEAD~1`, `merge-base(HEAD, main)`), or `WORKTREE` for the working tree. */
  ref: z.string(),
  oid: z.string().optional(),
});

export const differentialReportSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('differential'),
  runId: z.string(),
  startedAt: z.string(),
  gate: executionReportSchema.shape.gate,
  base: revision,
  head: revision,
  /** The changed paths checks with `paths` were matched against; absent with `--all`. */
  changedPaths: z.array(z.string()).optional(),
  checks: z.array(differentialCheck),
  summary: z.strictObject({
    configured: z.int().min(0),
    /** Checks that ran on both sides. */
    compared: z.int().min(0),
    regressions: z.int().min(0),
    fixed: z.int().min(0),
    stillFailing: z.int().min(0),
    passing: z.int().min(0),
    flaky: z.int().min(0),
    notComparable: z.int().min(0),
    notRun: z.int().min(0),
  }),
  /** Every temporary worktree written under .checker/local/worktrees/ for this run, and whether it is gone again. */
  worktrees: z.array(
    z.strictObject({
      side: z.enum(['base', 'head']),
      name: z.string(),
      files: z.int().min(0),
      bytes: z.int().min(0),
      /** `node_modules` was a symlink to the repository's own (shared, not a copy). */
      linkedNodeModules: z.boolean(),
      removed: z.boolean(),
    }),
  ),
  /** Where the record of this run was written (under .checker/local/differentials/), when anything ran. */
  recordPath: z.string().optional(),
  limitations: z.array(z.strictObject({ code: z.string(), message: z.string() })),
});

export type DifferentialReport = z.infer<typeof differentialReportSchema>;
export type DifferentialCheck = z.infer<typeof differentialCheck>;
export type DifferentialRun = z.infer<typeof run>;
export type DifferentialVerdict = (typeof DIFFERENTIAL_VERDICTS)[number];
