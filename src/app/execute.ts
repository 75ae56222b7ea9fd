import type { Config } from '../model/config.js';
import type { Env, RevisionRange } from '../model/env.js';
import type { CheckResult, ExecutionReport } from '../model/execution.js';
import { splitCommand } from '../text/command-words.js';
import { MIN_CHECK_MS, runCheck, toChangedPaths } from './checks.js';
import { isCheckerError } from '../model/diagnostic.js';
import {
  type ChecksRequest,
  type ConfiguredEntry,
  formatSeconds,
  listConfiguredChecks,
  planChecks,
  readChange,
  recordRunReport,
  runPlannedChecks,
  startCheckRun,
  validateRunReport,
} from './run-checks.js';
import { renderBundleMarkdown } from '../report/bundle-markdown.js';
import { runAgentBundle } from './run-agent-bundle.js';
import { loadCoverage } from './load/load-coverage.js';
import { classifyRole } from '../graph/roles.js';
import { LATEST_EXECUTION } from './load/execution-evidence.js';
import { toChangedLines } from '../rules/proof.js';
import type { ChangeSet } from '../model/change.js';

export interface ExecuteOptions extends ChecksRequest {
  /**
   * Time all checks together may take (an MCP call's deadline): each check's timeout is cut to what is left,
   * and a check with under a second left is not started.
   */
  budgetMs?: number;
  /** Leave the configured agent process out (`--with-checks` verifies; it does not hand the change to an agent). */
  skipAgentProcess?: boolean;
  /** Told before and after each command, for a long run's progress on stderr. */
  onProgress?: (message: string) => void;
}

/**
 * `checker execute`: runs the repository's configured checks (`checks.*` in its configuration; commands never
 * come from flags, task text or MCP input) when both conditions hold: the user asked for it (`confirmed`)
 * and the configuration has `safety.allowCommands: true`. Otherwise it reports what would run and which
 * condition is missing, and starts nothing. Checks with `paths` run only when the change touches one of
 * them. Each check runs without a shell, one after another, in the repository root; the record of a run
 * goes to `.checker/local/executions/<runId>/result.json` (redacted on write).
 */
export async function executeChecks(env: Env, options: ExecuteOptions): Promise<ExecutionReport> {
  const run = await startCheckRun(env, options);
  const { runId, startedAt, gate, limitations } = run;
  const config = run.loaded.config;
  const configured = [...listConfiguredChecks(config), ...listToolAdapters(config)];

  // Checks with paths are matched against the change; with the gate open it also places the run's coverage on changed lines.
  const matchesPaths = options.all !== true && configured.some((item) => (item.check.paths ?? []).length > 0);
  const change = gate.open || matchesPaths ? await readChangeOrNote(env, options, config.analysis?.defaultBranch, limitations) : undefined;
  const matchPaths = matchesPaths ? (change === undefined ? [] : toChangedPaths(change)) : undefined;
  const endsAt = options.budgetMs === undefined ? Number.POSITIVE_INFINITY : startedAt.getTime() + options.budgetMs;
  const checks = await runPlannedChecks(env, planChecks(run, configured, matchPaths), {
    endsAt,
    budgetMs: options.budgetMs,
    coverageFolder: (id) => `executions/${runId}/coverage/${id}`,
    onProgress: options.onProgress,
  });

  const agentProcess =
    config.toolAdapters?.agentProcess === undefined || options.skipAgentProcess === true
      ? undefined
      : await runAgentProcess(env, config.toolAdapters.agentProcess, {
          open: gate.open,
          source: run.loaded.trust.source,
          range: options,
          endsAt,
          onProgress: options.onProgress,
        });
  const ran = checks.filter((check) => check.status === 'passed' || check.status === 'failed' || check.status === 'timed-out');
  const runtimeProof =
    change === undefined
      ? undefined
      : await collectRuntimeProof(env, { change, checks, runId, startedAt: startedAt.getTime(), limitations });
  const report: ExecutionReport = {
    schemaVersion: 1,
    kind: 'execution',
    runId,
    startedAt: startedAt.toISOString(),
    gate,
    ...(matchPaths === undefined ? {} : { changedPaths: matchPaths }),
    checks,
    ...(agentProcess === undefined ? {} : { agentProcess }),
    summary: {
      configured: configured.length,
      ran: ran.length,
      passed: checks.filter((check) => check.status === 'passed').length,
      failed: checks.filter((check) => check.status === 'failed' || check.status === 'not-started').length,
      timedOut: checks.filter((check) => check.status === 'timed-out').length,
    },
    ...(runtimeProof === undefined ? {} : { runtimeProof }),
    limitations,
  };
  if (ran.length === 0 && agentProcess?.bundlePath === undefined) return validateRunReport(env, report);
  const withRecord = await recordRunReport(env, report);
  // The analysis (ai, audit-tests, redteam…) reads the latest run's passing coverage as runtime proof.
  await env.writeArtifact(LATEST_EXECUTION, `${JSON.stringify({ schemaVersion: 1, runId, recordPath: withRecord.recordPath })}\n`, {
    mode: 'replace',
  });
  return withRecord;
}

/** True when a run should fail a CI job: a check failed, timed out or could not start. */
export function hasFailedChecks(report: ExecutionReport): boolean {
  return report.summary.failed + report.summary.timedOut > 0;
}

type ToolAdapters = NonNullable<Config['toolAdapters']>;
const ADAPTER_KINDS = [
  'browserTestRunner',
  'coverage',
  'mutationTester',
  'staticAnalyzer',
  'apiFuzzer',
  'contractTester',
] as const satisfies readonly Exclude<keyof ToolAdapters, 'agentProcess'>[];

/** The enabled tool adapters (`toolAdapters.<kind>` with `enabled: true`) in a fixed order: they run after `checks.*`. */
function listToolAdapters(config: Config): ConfiguredEntry[] {
  return ADAPTER_KINDS.flatMap((kind) => {
    const adapter = config.toolAdapters?.[kind];
    if (adapter?.enabled !== true) return [];
    const id = `toolAdapters.${kind}`;
    return [{ id, field: id, check: { command: adapter.command, args: adapter.args, timeoutMs: adapter.timeoutMs } }];
  });
}

async function readChangeOrNote(
  env: Env,
  range: RevisionRange,
  defaultBranch: string | undefined,
  limitations: ExecutionReport['limitations'],
): Promise<ChangeSet | undefined> {
  try {
    return await readChange(env, range, defaultBranch);
  } catch (error) {
    // A folder without git or a bad --base is said and the checks with paths wait; anything else is a bug.
    if (!isCheckerError(error)) throw error;
    limitations.push({
      code: 'execute/no-change',
      message: `cannot read the change (${error.message}); checks with paths were not matched and do not run (pass --all to run them), and runtime proof cannot be placed on changed lines`,
    });
    return undefined;
  }
}

const SCRIPT_FILE = /\.(?:[cm]?[jt]sx?)$/;

/**
 * The run's changed-path proof: coverage of the checks that passed (their V8 folders, and reports the `coverage`
 * adapter wrote during the run) mapped onto the change's added and modified lines. A failed check's coverage is
 * never read: what a failing suite executed proves nothing.
 */
async function collectRuntimeProof(
  env: Env,
  context: { change: ChangeSet; checks: CheckResult[]; runId: string; startedAt: number; limitations: ExecutionReport['limitations'] },
): Promise<ExecutionReport['runtimeProof']> {
  const { change, checks, runId } = context;
  const passed = checks.filter((check) => check.status === 'passed');
  const failedChecks = checks.filter((check) => check.status === 'failed' || check.status === 'timed-out').map((check) => check.id);
  const folders = passed.flatMap((check) =>
    check.coverage === undefined ? [] : [{ path: check.coverage.folder, check: check.id, runId }],
  );
  const adapter = passed.find((check) => check.id === 'toolAdapters.coverage');
  if (folders.length === 0 && adapter === undefined)
    return failedChecks.length === 0 ? undefined : { files: [], notExecuted: [], failedChecks };
  const coverage = await loadCoverage(env, {
    paths: folders,
    defaults: adapter === undefined ? false : { since: context.startedAt, check: adapter.id, runId },
  });
  for (const diagnostic of coverage.diagnostics) context.limitations.push({ code: diagnostic.code, message: diagnostic.message });
  const files: NonNullable<ExecutionReport['runtimeProof']>['files'] = [];
  const notExecuted: string[] = [];
  for (const file of change.files) {
    // A test that ran itself proves nothing about the change; the analysis leaves changed tests out of proof too.
    if (file.status === 'deleted' || classifyRole(file.path) === 'test') continue;
    const hits = coverage.files[file.path];
    if (hits === undefined) {
      if (SCRIPT_FILE.test(file.path)) notExecuted.push(file.path);
      continue;
    }
    const instrumented = toChangedLines(file.hunks).filter((line) => Object.hasOwn(hits.lines, line));
    if (instrumented.length === 0) continue;
    const coveredLines = instrumented.filter((line) => (hits.lines[line] ?? 0) > 0);
    const uncoveredLines = instrumented.filter((line) => (hits.lines[line] ?? 0) <= 0);
    files.push({
      path: file.path,
      state: uncoveredLines.length === 0 ? 'runtime-proven' : 'runtime-unproven',
      coveredLines,
      uncoveredLines,
      checks: hits.checks ?? [],
    });
  }
  return { files, notExecuted, failedChecks };
}

type AgentProcessConfig = NonNullable<NonNullable<Config['toolAdapters']>['agentProcess']>;
type AgentProcessResult = NonNullable<ExecutionReport['agentProcess']>;

/**
 * Spec 4.1 rule 6: with the gate open, the task bundle is written to .checker/local/agent-process/bundle.md (or
 * .json, `bundleFormat`) in the configured `profile`, its absolute path is given in CHECKER_AGENT_BUNDLE_PATH, and
 * the configured command runs with its args and timeout. What it prints is kept as untrusted agent suggestion.
 */
async function runAgentProcess(
  env: Env,
  agent: AgentProcessConfig,
  context: { open: boolean; source: string; range: RevisionRange; endsAt: number; onProgress?: ((message: string) => void) | undefined },
): Promise<AgentProcessResult> {
  const id = 'agentProcess';
  const evidence = 'untrusted-agent-suggestion' as const;
  const words = splitCommand(agent.command);
  if (!words.ok) {
    return { id, evidence, status: 'refused', reason: `toolAdapters.agentProcess.command ${words.problem} (in ${context.source})` };
  }
  const argv = [...words.argv, ...(agent.args ?? [])];
  if (!context.open) return { id, evidence, argv, status: 'skipped', reason: 'not run: the gate is closed (see gate)' };
  const leftMs = context.endsAt - env.now().getTime();
  if (leftMs < MIN_CHECK_MS) return { id, evidence, argv, status: 'skipped', reason: "not started: the call's time budget is used up" };
  const format = agent.bundleFormat ?? 'markdown';
  let bundlePath: string;
  try {
    const bundle = await runAgentBundle(env, {
      profile: agent.profile ?? 'generic',
      ...(context.range.base === undefined ? {} : { base: context.range.base }),
      ...(context.range.head === undefined ? {} : { head: context.range.head }),
    });
    const text = format === 'json' ? `${JSON.stringify(bundle, null, 2)}\n` : renderBundleMarkdown(bundle);
    bundlePath = await env.writeArtifact(`agent-process/bundle.${format === 'json' ? 'json' : 'md'}`, text, { mode: 'replace' });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { id, evidence, argv, status: 'not-started', reason: `the task bundle could not be built: ${message}` };
  }
  context.onProgress?.(`running the agent process: ${argv.join(' ')}`);
  const run = await runCheck(env, { id, argv, timeoutMs: agent.timeoutMs, leftMs, env: { CHECKER_AGENT_BUNDLE_PATH: bundlePath } });
  context.onProgress?.(`agent process: ${run.status} (${run.reason}) in ${formatSeconds(run.durationMs ?? 0)}`);
  return { ...run, bundlePath, evidence };
}
