import { randomBytes } from 'node:crypto';
import type { Config } from '../model/config.js';
import type { Env, RevisionRange } from '../model/env.js';
import type { CheckResult, ExecutionReport } from '../model/execution.js';
import { compareText } from '../text/compare-text.js';
import { splitCommand } from '../text/command-words.js';
import { compileGlob } from '../text/glob.js';
import { isCheckerError } from '../model/diagnostic.js';
import { isExecutionAllowed, loadConfig } from './load-config.js';
import { renderBundleMarkdown } from '../report/bundle-markdown.js';
import { runAgentBundle } from './run-agent-bundle.js';

/** A check without `timeoutMs` may run this long (10 minutes) before its process group is killed. */
const DEFAULT_CHECK_TIMEOUT_MS = 600_000;
/** Bytes kept from the start and from the end of each output stream of a check. */
const EXCERPT_BYTES = 16 * 1024;
/** A check is not started with less time than this left in the budget. */
const MIN_CHECK_MS = 1000;

type ConfiguredCheck = NonNullable<Config['checks']>[string];

export interface ExecuteOptions extends RevisionRange {
  /**
   * The user asked for execution: `checker execute`, MCP `confirmExecution: true`. Without it nothing runs,
   * whatever the configuration says.
   */
  confirmed: boolean;
  /** Run every configured check, also those whose `paths` the change does not touch. */
  all?: boolean;
  /**
   * Time all checks together may take (an MCP call's deadline): each check's timeout is cut to what is left,
   * and a check with under a second left is not started.
   */
  budgetMs?: number;
}

/** A check that will run, or the result of one that will not (refused, skipped), decided before anything starts. */
type PlannedCheck = { id: string; check: ConfiguredCheck; argv: string[] } | { result: CheckResult };

/**
 * `checker execute`: runs the repository's configured checks (`checks.*` in its configuration; commands never
 * come from flags, task text or MCP input) when both conditions hold: the user asked for it (`confirmed`)
 * and the configuration has `safety.allowCommands: true`. Otherwise it reports what would run and which
 * condition is missing, and starts nothing. Checks with `paths` run only when the change touches one of
 * them. Each check runs without a shell, one after another, in the repository root; the record of a run
 * goes to `.checker/local/executions/<runId>/result.json` (redacted on write).
 */
export async function executeChecks(env: Env, options: ExecuteOptions): Promise<ExecutionReport> {
  const startedAt = env.now();
  const runId = toRunId(startedAt);
  const loaded = await loadConfig(env);
  const config = loaded.config;
  const source = loaded.sources[0] ?? 'no configuration file';
  const allowCommands = isExecutionAllowed(config);
  const open = options.confirmed && allowCommands;
  const limitations: ExecutionReport['limitations'] = loaded.diagnostics.map((item) => ({ code: item.code, message: item.message }));
  const configured = Object.entries(config.checks ?? {}).sort(([a], [b]) => compareText(a, b));

  const needsChange = options.all !== true && configured.some(([, check]) => (check.paths ?? []).length > 0);
  const changedPaths = needsChange ? await readChangedPaths(env, options, config.analysis?.defaultBranch, limitations) : undefined;

  const planned = configured.map(([id, check]) =>
    planCheck(id, check, { open, allowCommands, confirmed: options.confirmed, source, changedPaths }),
  );
  const checks: CheckResult[] = [];
  const endsAt = options.budgetMs === undefined ? Number.POSITIVE_INFINITY : startedAt.getTime() + options.budgetMs;
  for (const item of planned) {
    if ('result' in item) {
      checks.push(item.result);
      continue;
    }
    const leftMs = endsAt - env.now().getTime();
    if (leftMs < MIN_CHECK_MS) {
      checks.push({
        id: item.id,
        argv: item.argv,
        status: 'skipped',
        reason: `not started: the call's time budget (${options.budgetMs} ms) is used up; run checker execute for no limit`,
      });
      continue;
    }
    checks.push(await runCheck(env, item.id, item.check, item.argv, leftMs));
  }

  const agentProcess =
    config.toolAdapters?.agentProcess === undefined
      ? undefined
      : await runAgentProcess(env, config.toolAdapters.agentProcess, { open, source, range: options, endsAt });
  const ran = checks.filter((check) => check.status === 'passed' || check.status === 'failed' || check.status === 'timed-out');
  const report: ExecutionReport = {
    schemaVersion: 1,
    kind: 'execution',
    runId,
    startedAt: startedAt.toISOString(),
    gate: { requested: options.confirmed, allowCommands, open, explanation: explainGate(options.confirmed, allowCommands, source) },
    ...(changedPaths === undefined ? {} : { changedPaths }),
    checks,
    ...(agentProcess === undefined ? {} : { agentProcess }),
    summary: {
      configured: configured.length,
      ran: ran.length,
      passed: checks.filter((check) => check.status === 'passed').length,
      failed: checks.filter((check) => check.status === 'failed' || check.status === 'not-started').length,
      timedOut: checks.filter((check) => check.status === 'timed-out').length,
    },
    limitations,
  };
  if (ran.length === 0 && agentProcess?.bundlePath === undefined)
    return env.validate('execution-report', report, { code: 'internal/execution-report' });
  const recordPath = `executions/${runId}/result.json`;
  const withRecord: ExecutionReport = { ...report, recordPath: `.checker/local/${recordPath}` };
  env.validate('execution-report', withRecord, { code: 'internal/execution-report' });
  await env.writeArtifact(recordPath, `${JSON.stringify(withRecord, null, 2)}\n`, { mode: 'create' });
  return withRecord;
}

/** True when a run should fail a CI job: a check failed, timed out or could not start. */
export function hasFailedChecks(report: ExecutionReport): boolean {
  return report.summary.failed + report.summary.timedOut > 0;
}

function planCheck(
  id: string,
  check: ConfiguredCheck,
  context: { open: boolean; allowCommands: boolean; confirmed: boolean; source: string; changedPaths: string[] | undefined },
): PlannedCheck {
  const words = check.argv === undefined ? splitCommand(check.command ?? '') : { ok: true as const, argv: [...check.argv] };
  if (!words.ok) {
    return { result: { id, status: 'refused', reason: `checks.${id}.command ${words.problem} (in ${context.source})` } };
  }
  const argv = words.argv;
  const paths = check.paths ?? [];
  const matchers = paths.map((glob) => compileGlob(glob));
  const badGlob = matchers.indexOf(null);
  if (badGlob !== -1) {
    const reason = `checks.${id}.paths[${badGlob}] ${JSON.stringify(paths[badGlob])} is not a glob checker can compile (in ${context.source}); negated extglobs !(…) and lookarounds are not supported: list paths to include instead`;
    return { result: { id, argv, status: 'refused', reason } };
  }
  if (paths.length > 0 && context.changedPaths !== undefined) {
    const touched = context.changedPaths.filter((path) => matchers.some((matches) => matches?.(path) === true));
    if (touched.length === 0) {
      return {
        result: { id, argv, status: 'skipped', reason: `the change touches none of its paths (${paths.join(', ')}); --all runs it anyway` },
      };
    }
  }
  if (!context.open) {
    const missing = [
      ...(context.confirmed ? [] : ['execution was not requested (checker execute, MCP confirmExecution: true)']),
      ...(context.allowCommands ? [] : [`safety.allowCommands is not true (${context.source})`]),
    ];
    return { result: { id, argv, status: 'skipped', reason: `not run: ${missing.join('; ')}` } };
  }
  return { id, check, argv };
}

async function runCheck(
  env: Env,
  id: string,
  check: { timeoutMs?: number | undefined },
  argv: string[],
  leftMs: number,
  extraEnv?: Record<string, string>,
): Promise<CheckResult> {
  const timeoutMs = Math.floor(Math.min(check.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS, leftMs));
  const run = await env.runCommand({ argv, timeoutMs, excerptBytes: EXCERPT_BYTES, ...(extraEnv === undefined ? {} : { env: extraEnv }) });
  const base = { id, argv, timeoutMs, durationMs: Math.round(run.durationMs), stdout: run.stdout, stderr: run.stderr };
  if (run.spawnError !== undefined) return { ...base, status: 'not-started', reason: run.spawnError, exitCode: null, signal: null };
  if (run.timedOut) {
    return {
      ...base,
      status: 'timed-out',
      reason: `ran past its ${timeoutMs} ms timeout; its process group was killed`,
      exitCode: run.exitCode,
      signal: run.signal,
    };
  }
  if (run.exitCode === 0) return { ...base, status: 'passed', reason: 'exited 0', exitCode: 0, signal: null };
  const how = run.exitCode === null ? `was killed by ${run.signal ?? 'a signal'}` : `exited ${run.exitCode}`;
  return { ...base, status: 'failed', reason: how, exitCode: run.exitCode, signal: run.signal };
}

async function readChangedPaths(
  env: Env,
  range: RevisionRange,
  defaultBranch: string | undefined,
  limitations: ExecutionReport['limitations'],
): Promise<string[]> {
  try {
    const git = await env.openGit();
    const change = await git.readChange({
      ...(range.base === undefined ? {} : { base: range.base }),
      ...(range.head === undefined ? {} : { head: range.head }),
      ...(defaultBranch === undefined ? {} : { defaultBranch }),
    });
    return [
      ...new Set(change.files.flatMap((file) => (file.previousPath === undefined ? [file.path] : [file.path, file.previousPath]))),
    ].sort(compareText);
  } catch (error) {
    // A folder without git or a bad --base is said and the checks with paths wait; anything else is a bug.
    if (!isCheckerError(error)) throw error;
    const message = error.message;
    limitations.push({
      code: 'execute/no-change',
      message: `cannot read the change (${message}); checks with paths were not matched and do not run: pass --all to run them`,
    });
    return [];
  }
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
  context: { open: boolean; source: string; range: RevisionRange; endsAt: number },
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
  const run = await runCheck(env, id, { timeoutMs: agent.timeoutMs }, argv, leftMs, { CHECKER_AGENT_BUNDLE_PATH: bundlePath });
  return { ...run, bundlePath, evidence };
}

function explainGate(confirmed: boolean, allowCommands: boolean, source: string): string {
  if (confirmed && allowCommands) return `open: execution was requested and safety.allowCommands is true (${source})`;
  if (!allowCommands && !confirmed)
    return `closed: execution was not requested and safety.allowCommands is not true (${source}); nothing was started`;
  if (!allowCommands)
    return `closed: safety.allowCommands is not true (${source}); nothing was started. Set safety.allowCommands: true in .checker/config.yml to let checker run the configured checks`;
  return 'closed: execution was not requested; nothing was started. Run checker execute, or call the MCP tool with confirmExecution: true';
}

function toRunId(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
