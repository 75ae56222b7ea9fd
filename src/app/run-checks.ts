/**
 * The one path by which `checker execute` (and `--with-checks`) and `checker differential` run configured checks: the
 * trusted configuration and the gate, each check planned against them, the planned checks run one after another, and
 * the run's record written.
 */
import type { ChangeSet } from '../model/change.js';
import type { Config } from '../model/config.js';
import type { DifferentialReport } from '../model/differential.js';
import type { Env, RevisionRange } from '../model/env.js';
import type { CheckResult, ExecutionReport } from '../model/execution.js';
import { compareText } from '../text/compare-text.js';
import { type ConfiguredCheck, MIN_CHECK_MS, type PlannedCheck, planCheck, runCheck, toRunId } from './checks.js';
import { decideGate, describeCommandsNotAllowed, loadTrustedConfig, type TrustedConfigData, toGateConfig } from './load/trusted-config.js';

/** What the user asked to run: the range, whether execution was requested, and whether the change's own config is trusted. */
export interface ChecksRequest extends RevisionRange {
  /** The user asked for execution (the command, MCP `confirmExecution: true`). Without it nothing runs. */
  confirmed: boolean;
  /** Run every configured check, also those whose `paths` the change does not touch. */
  all?: boolean;
  /** `--trust-changed-config`: run what the change's own configuration sets when it alters the base's (never over MCP). */
  trustChangedConfig?: boolean;
}

type RunLimitation = ExecutionReport['limitations'][number];

/** A run of configured checks before anything starts: its id and clock, the trusted configuration and the gate. */
export interface CheckRunStart {
  runId: string;
  startedAt: Date;
  loaded: TrustedConfigData;
  /** The report's `gate`: requested, allowed by configuration, open, why, and where the power keys came from. */
  gate: ExecutionReport['gate'];
  /** The configuration's diagnostics; the run adds its own. */
  limitations: RunLimitation[];
}

/** A configured check and the config field that names it in messages (`checks.unit`, `toolAdapters.coverage`). */
export interface ConfiguredEntry {
  id: string;
  field: string;
  check: ConfiguredCheck & { args?: string[] | undefined };
}

/** How planned checks run: where, until when, where their coverage goes, and who is told. */
export interface RunPlannedOptions {
  /** Where they run (default: the repository root): a worktree of `checker differential`. */
  cwd?: string;
  /** When all of them must have ended (epoch ms, may be infinite); a check with less than MIN_CHECK_MS left is not started. */
  endsAt?: number;
  /** The time budget behind `endsAt`, named in the reason of a check not started. */
  budgetMs?: number | undefined;
  /** The folder under `.checker/local/` for a check's V8 coverage; none without it, or when the check sets `coverage: false`. */
  coverageFolder?: (id: string) => string;
  /** Told before and after each command, for a long run's progress on stderr. */
  onProgress?: ((message: string) => void) | undefined;
}

/** The run id, the configuration read from where the change cannot alter what runs, and the gate it decides. */
export async function startCheckRun(env: Env, request: ChecksRequest): Promise<CheckRunStart> {
  const startedAt = env.now();
  const runId = toRunId(startedAt);
  const loaded = await loadTrustedConfig(env, {
    ...(request.base === undefined ? {} : { base: request.base }),
    ...(request.head === undefined ? {} : { head: request.head }),
    ...(request.trustChangedConfig === true ? { trustChangedConfig: true } : {}),
  });
  const gate = { ...decideGate(loaded, request.confirmed), config: toGateConfig(loaded.trust) };
  const limitations = loaded.diagnostics.map((item) => ({ code: item.code, message: item.message }));
  return { runId, startedAt, loaded, gate, limitations };
}

/** `checks.*` of the configuration, in name order. */
export function listConfiguredChecks(config: Config): ConfiguredEntry[] {
  return Object.entries(config.checks ?? {})
    .sort(([a], [b]) => compareText(a, b))
    .map(([id, check]) => ({ id, field: `checks.${id}`, check }));
}

/** Each configured check planned against the run's gate and, unless undefined, the paths the change touches. */
export function planChecks(run: CheckRunStart, configured: readonly ConfiguredEntry[], changedPaths: string[] | undefined): PlannedCheck[] {
  const { trust } = run.loaded;
  const context = {
    open: run.gate.open,
    allowCommands: run.gate.allowCommands,
    confirmed: run.gate.requested,
    source: trust.source,
    notAllowed: describeCommandsNotAllowed(trust),
    changedPaths,
    changedByRange: trust.blocked ? trust.changedByRange : [],
  };
  return configured.map((item) => planCheck(item.id, item.check, context, item.field));
}

/** The change of `range` (default branch from the configuration); a folder without git or a bad ref throws. */
export async function readChange(env: Env, range: RevisionRange, defaultBranch: string | undefined): Promise<ChangeSet> {
  const git = await env.openGit();
  return git.readChange({
    ...(range.base === undefined ? {} : { base: range.base }),
    ...(range.head === undefined ? {} : { head: range.head }),
    ...(defaultBranch === undefined ? {} : { defaultBranch }),
  });
}

/**
 * Runs the planned checks one after another, without a shell, and returns a result for each in plan order: a check
 * planned not to run keeps its result, one with too little time left is skipped, and one that writes V8 coverage
 * into its folder notes the folder.
 */
export async function runPlannedChecks(
  env: Env,
  planned: readonly PlannedCheck[],
  options: RunPlannedOptions = {},
): Promise<CheckResult[]> {
  const checks: CheckResult[] = [];
  const toRun = planned.filter((item) => !('result' in item)).length;
  let started = 0;
  for (const item of planned) {
    if ('result' in item) {
      checks.push(item.result);
      continue;
    }
    const leftMs = options.endsAt === undefined ? Number.POSITIVE_INFINITY : options.endsAt - env.now().getTime();
    if (leftMs < MIN_CHECK_MS) {
      checks.push({
        id: item.id,
        argv: item.argv,
        status: 'skipped',
        reason: `not started: the call's time budget (${options.budgetMs} ms) is used up; run checker execute for no limit`,
      });
      continue;
    }
    started += 1;
    options.onProgress?.(`running ${item.id} (${started}/${toRun}): ${item.argv.join(' ')}`);
    const folder = options.coverageFolder === undefined || item.check.coverage === false ? undefined : options.coverageFolder(item.id);
    const coverageDir = folder === undefined ? undefined : await env.createArtifactFolder(folder);
    const result = await runCheck(env, {
      id: item.id,
      argv: item.argv,
      timeoutMs: item.check.timeoutMs,
      leftMs,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(coverageDir === undefined ? {} : { v8CoverageDir: coverageDir }),
    });
    const written = folder === undefined ? 0 : await countJsonFiles(env, `.checker/local/${folder}`);
    checks.push(written === 0 ? result : { ...result, coverage: { folder: `.checker/local/${folder}`, files: written } });
    options.onProgress?.(`${item.id}: ${result.status} (${result.reason}) in ${formatSeconds(result.durationMs ?? 0)}`);
  }
  return checks;
}

async function countJsonFiles(env: Env, folder: string): Promise<number> {
  const listing = await env.files.list(folder);
  return listing.ok ? listing.entries.filter((entry) => entry.kind === 'file' && entry.name.endsWith('.json')).length : 0;
}

/** A duration for progress lines: `12.3 s`. */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

type RunReport = ExecutionReport | DifferentialReport;

const RECORDS = {
  execution: { schema: 'execution-report', folder: 'executions' },
  differential: { schema: 'differential-report', folder: 'differentials' },
} as const;

/** The report of a run in which nothing ran, validated against its schema; nothing is written. */
export function validateRunReport<T extends RunReport>(env: Env, report: T): T {
  const { schema } = RECORDS[report.kind];
  return env.validate(schema, report, { code: `internal/${schema}` });
}

/** The report of a run, validated with its `recordPath` and written there (`.checker/local/<kind>s/<runId>/result.json`), never over an earlier one. */
export async function recordRunReport<T extends RunReport>(env: Env, report: T): Promise<T> {
  const { schema, folder } = RECORDS[report.kind];
  const recordPath = `${folder}/${report.runId}/result.json`;
  const withRecord: T = { ...report, recordPath: `.checker/local/${recordPath}` };
  env.validate(schema, withRecord, { code: `internal/${schema}` });
  await env.writeArtifact(recordPath, `${JSON.stringify(withRecord, null, 2)}\n`, { mode: 'create' });
  return withRecord;
}
