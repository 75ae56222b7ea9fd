import type { Config } from '../model/config.js';
import type { Env, RevisionRange } from '../model/env.js';
import type { CheckResult, ExecutionReport } from '../model/execution.js';
import { compareText } from '../text/compare-text.js';
import { splitCommand } from '../text/command-words.js';
import { explainGate, MIN_CHECK_MS, planCheck, runCheck, toRunId } from './checks.js';
import { isCheckerError } from '../model/diagnostic.js';
import { isExecutionAllowed, loadConfig } from './load-config.js';
import { renderBundleMarkdown } from '../report/bundle-markdown.js';
import { runAgentBundle } from './run-agent-bundle.js';

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
    checks.push(await runCheck(env, { id: item.id, argv: item.argv, timeoutMs: item.check.timeoutMs, leftMs }));
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
  const run = await runCheck(env, { id, argv, timeoutMs: agent.timeoutMs, leftMs, env: { CHECKER_AGENT_BUNDLE_PATH: bundlePath } });
  return { ...run, bundlePath, evidence };
}
