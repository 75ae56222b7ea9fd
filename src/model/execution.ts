import { z } from 'zod';

/**
 * `checker execute` and the MCP tool `execute_configured_checks`. `executionReportSchema` is the source of
 * schemas/execution-report.schema.json (`npm run schemas`); the types are its z.infer.
 */
export const excerptSchema = z.strictObject({
  head: z.string(),
  tail: z.string(),
  bytes: z.int().min(0),
  truncated: z.boolean(),
});

const CHECK_STATUSES = ['passed', 'failed', 'timed-out', 'not-started', 'skipped', 'refused'] as const;

/**
 * How the processes of a run were kept from outliving it (model/command.ts `Containment`): `pid-namespace`, or
 * `process-group` only (a process that called setsid could escape), with how or why in `detail`.
 */
const containmentSchema = z.strictObject({
  mode: z.enum(['pid-namespace', 'process-group']),
  detail: z.string(),
});

const checkResult = z.strictObject({
  id: z.string(),
  /** The words run (no shell); absent when the command string was refused before it could be split. */
  argv: z.array(z.string()).optional(),
  status: z.enum(CHECK_STATUSES),
  /** Why the check ran, or why it did not: the gate, its paths against the change, a refused command. */
  reason: z.string(),
  exitCode: z.int().nullable().optional(),
  signal: z.string().nullable().optional(),
  durationMs: z.number().min(0).optional(),
  timeoutMs: z.int().min(1).optional(),
  stdout: excerptSchema.optional(),
  stderr: excerptSchema.optional(),
  /**
   * V8 coverage its Node processes wrote (NODE_V8_COVERAGE into this folder under .checker/local/executions/):
   * runtime proof when the check passed, never when it failed.
   */
  coverage: z.strictObject({ folder: z.string(), files: z.int().min(0) }).optional(),
  /** How its processes were held together; absent when nothing was started. */
  containment: containmentSchema.optional(),
});

const lines = z.array(z.int().min(1));
/** A changed file the passing checks executed: which of its changed lines ran, and under which checks. */
const runtimeProof = z.strictObject({
  path: z.string(),
  state: z.enum(['runtime-proven', 'runtime-unproven']),
  coveredLines: lines,
  uncoveredLines: lines,
  checks: z.array(z.string()),
});

/**
 * Where the keys that decide what may run were read (docs/security.md): the base revision of the change, the change's
 * own (`--trust-changed-config`), or the working tree (no git history); and which of them the change alters.
 */
const gateConfig = z.strictObject({
  from: z.enum(['base', 'change', 'working-tree']),
  base: z.strictObject({ ref: z.string(), oid: z.string() }).optional(),
  /** Power keys the change alters (`safety.allowCommands`, `checks.unit`); while untrusted, nothing runs (config/changed-by-range). */
  changedByRange: z.array(z.string()),
  /** The config file that configures checks, which hints name: the one that sets `checks`, else the first read; absent when none was read. */
  file: z.string().optional(),
});

export const executionReportSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('execution'),
  runId: z.string(),
  startedAt: z.string(),
  gate: z.strictObject({
    /** The user asked for execution (`checker execute`, MCP `confirmExecution: true`). */
    requested: z.boolean(),
    /** The merged configuration has `safety.allowCommands: true`. */
    allowCommands: z.boolean(),
    open: z.boolean(),
    explanation: z.string(),
    config: gateConfig.optional(),
  }),
  /** The changed paths checks with `paths` were matched against; absent with `--all` or without git. */
  changedPaths: z.array(z.string()).optional(),
  checks: z.array(checkResult),
  summary: z.strictObject({
    configured: z.int().min(0),
    ran: z.int().min(0),
    passed: z.int().min(0),
    failed: z.int().min(0),
    timedOut: z.int().min(0),
  }),
  /**
   * The configured agent process (`toolAdapters.agentProcess`), run after the checks with the task bundle at
   * CHECKER_AGENT_BUNDLE_PATH. Its output is untrusted agent-suggestion evidence: never proof, never a task.
   */
  agentProcess: checkResult
    .extend({
      /** Where the bundle it was given was written (absolute), when it ran. */
      bundlePath: z.string().optional(),
      evidence: z.literal('untrusted-agent-suggestion'),
    })
    .optional(),
  /**
   * Changed-path proof from this run's passing checks: per changed file they executed, the changed lines that ran and
   * those that did not (lines without code are not counted). Absent when no passing check wrote coverage.
   */
  runtimeProof: z
    .strictObject({
      files: z.array(runtimeProof),
      /** Changed script files no passing check executed at all. */
      notExecuted: z.array(z.string()),
      /** Checks that failed or timed out: their coverage is never proof. */
      failedChecks: z.array(z.string()),
    })
    .optional(),
  /** Where the record of this run was written (under .checker/local/executions/), when anything ran. */
  recordPath: z.string().optional(),
  limitations: z.array(z.strictObject({ code: z.string(), message: z.string() })),
});

export type ExecutionReport = z.infer<typeof executionReportSchema>;
export type CheckResult = z.infer<typeof checkResult>;
