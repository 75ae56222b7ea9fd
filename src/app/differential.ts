import type { ChangeSet } from '../model/change.js';
import { isCheckerError } from '../model/diagnostic.js';
import type { DifferentialCheck, DifferentialReport, DifferentialRun, DifferentialVerdict } from '../model/differential.js';
import type { Env } from '../model/env.js';
import type { CheckResult } from '../model/execution.js';
import { type PlannedCheck, toChangedPaths } from './checks.js';
import {
  type ChecksRequest,
  listConfiguredChecks,
  planChecks,
  readChange,
  recordRunReport,
  runPlannedChecks,
  startCheckRun,
  validateRunReport,
} from './run-checks.js';
import { countOf } from '../text/plural.js';

/** Worktrees older than this were left by a killed run (a live run removes its own). */
export const STALE_WORKTREE_MS = 60 * 60 * 1000;
/** A base tree past these caps is not written whole, and nothing runs on it. */
export const MAX_WORKTREE_FILES = 100_000;
export const MAX_WORKTREE_BYTES = 1024 * 1024 * 1024;

type Side = 'base' | 'head';
type ToRun = Extract<PlannedCheck, { argv: string[] }>;
/** One side's runs of every check, by id; or why the side could not run at all. */
type SideRuns = { runs: Map<string, DifferentialRun> } | { failed: string };

interface RunContext {
  env: Env;
  runId: string;
  report: Pick<DifferentialReport, 'worktrees' | 'limitations'>;
}

/**
 * `checker differential`: the configured checks (planned as `checker execute` plans them: configured `checks.*` only,
 * `paths` matched against the change unless `all`, the same two-condition gate) run on the base revision, written from
 * git objects into `.checker/local/worktrees/<runId>-base/`, and on head (the working tree, or a worktree of
 * `--head`). A check whose two outcomes differ runs once more on both sides. Returns the per-check verdicts
 * (regression, fixed, still-failing, passing, flaky, not-comparable, not-run) and writes the record to
 * `.checker/local/differentials/<runId>/result.json`. The head side runs in the repository root only while no
 * worktree exists (test runners that search the tree would find the base copy), and every worktree is removed again,
 * also when a check throws.
 */
export async function differential(env: Env, options: ChecksRequest): Promise<DifferentialReport> {
  const run = await startCheckRun(env, options);
  const { runId, startedAt, gate, limitations } = run;
  const configured = listConfiguredChecks(run.loaded.config);
  const change = await readChange(env, options, run.loaded.config.analysis?.defaultBranch);
  const changedPaths = options.all === true ? undefined : toChangedPaths(change);
  const planned = planChecks(run, configured, changedPaths);
  const toRun = planned.filter((item): item is ToRun => !('result' in item));
  const report: DifferentialReport = {
    schemaVersion: 1,
    kind: 'differential',
    runId,
    startedAt: startedAt.toISOString(),
    gate,
    base: { ref: change.base.ref, ...(change.base.oid === undefined ? {} : { oid: change.base.oid }) },
    head: { ref: change.head.ref, ...(change.head.oid === undefined ? {} : { oid: change.head.oid }) },
    ...(changedPaths === undefined ? {} : { changedPaths }),
    checks: [],
    summary: {
      configured: configured.length,
      compared: 0,
      regressions: 0,
      fixed: 0,
      stillFailing: 0,
      passing: 0,
      flaky: 0,
      notComparable: 0,
      notRun: 0,
    },
    worktrees: [],
    limitations,
  };
  const context: RunContext = { env, runId, report };
  const verdicts = new Map<string, DifferentialCheck>();
  if (toRun.length > 0) {
    const swept = await env.removeWorktrees({ olderThanMs: startedAt.getTime() - STALE_WORKTREE_MS });
    if (swept.length > 0) {
      limitations.push({
        code: 'differential/stale-worktrees',
        message: `removed ${countOf(swept.length, 'worktree')} a killed run left in .checker/local/worktrees/ (${swept.join(', ')})`,
      });
    }
    for (const check of await compareChecks(context, change, toRun)) verdicts.set(check.id, check);
  }
  report.checks = planned.map((item) => ('result' in item ? toNotRun(item.result) : (verdicts.get(item.id) ?? unreachable(item.id))));
  report.summary = summarise(configured.length, report.checks);
  if (toRun.length === 0) return validateRunReport(env, report);
  return recordRunReport(env, report);
}

/** True when a check passed on base and fails on head, on both runs: the CLI exits 1. */
export function hasRegression(report: DifferentialReport): boolean {
  return report.summary.regressions > 0;
}

function unreachable(id: string): never {
  throw new Error(`internal: check ${id} was planned to run but has no verdict`);
}

function toNotRun(result: CheckResult): DifferentialCheck {
  return {
    id: result.id,
    ...(result.argv === undefined ? {} : { argv: result.argv }),
    verdict: 'not-run',
    reason: result.reason,
    base: [],
    head: [],
  };
}

/** First round on both sides; a second round, on both sides, for the checks whose outcomes differed. */
async function compareChecks(context: RunContext, change: ChangeSet, toRun: ToRun[]): Promise<DifferentialCheck[]> {
  const baseOid = change.base.oid ?? unreachable('base');
  const headOid = change.head.oid;
  const firstBase = await runSide(context, { side: 'base', commit: baseOid, round: 1 }, toRun);
  const firstHead = await runSide(context, { side: 'head', commit: headOid, round: 1 }, toRun);
  const differing = toRun.filter((item) => {
    const base = getRun(firstBase, item.id);
    const head = getRun(firstHead, item.id);
    return isFinished(base) && isFinished(head) && base.status !== head.status;
  });
  const secondBase = differing.length === 0 ? undefined : await runSide(context, { side: 'base', commit: baseOid, round: 2 }, differing);
  const secondHead = differing.length === 0 ? undefined : await runSide(context, { side: 'head', commit: headOid, round: 2 }, differing);
  return toRun.map((item) => {
    const base = [
      getRun(firstBase, item.id),
      ...(secondBase === undefined || !differing.includes(item) ? [] : [getRun(secondBase, item.id)]),
    ];
    const head = [
      getRun(firstHead, item.id),
      ...(secondHead === undefined || !differing.includes(item) ? [] : [getRun(secondHead, item.id)]),
    ];
    return { id: item.id, argv: item.argv, ...classify(base, head), base, head };
  });
}

function getRun(side: SideRuns, id: string): DifferentialRun {
  if ('failed' in side) return { status: 'not-started', reason: side.failed };
  return side.runs.get(id) ?? { status: 'not-started', reason: 'not run on this side' };
}

function isFinished(run: DifferentialRun): boolean {
  return run.status === 'passed' || run.status === 'failed';
}

/**
 * Runs `checks` one after another on one side. A side with a commit gets a fresh worktree, removed in `finally` (also
 * when a check throws); head without `--head` runs in the repository root, where no worktree exists at that moment.
 */
async function runSide(
  context: RunContext,
  side: { side: Side; commit: string | undefined; round: 1 | 2 },
  checks: ToRun[],
): Promise<SideRuns> {
  const { env } = context;
  if (side.commit === undefined) return { runs: await runAll(env, checks, undefined) };
  const name = `${context.runId}-${side.side}${side.round === 2 ? '-rerun' : ''}`;
  const entry = { side: side.side, name, files: 0, bytes: 0, linkedNodeModules: false, removed: false };
  context.report.worktrees.push(entry);
  try {
    const worktree = await env.createWorktree({ name, commit: side.commit, maxFiles: MAX_WORKTREE_FILES, maxBytes: MAX_WORKTREE_BYTES });
    Object.assign(entry, { files: worktree.files, bytes: worktree.bytes, linkedNodeModules: worktree.linkedNodeModules });
    if (side.round === 1) noteSkipped(context, side.side, worktree.skipped);
    if (worktree.incomplete !== undefined) {
      const message = `the ${side.side} worktree was not written whole (${worktree.incomplete}); no check ran on it`;
      context.report.limitations.push({ code: 'differential/worktree-too-large', message });
      return { failed: message };
    }
    return { runs: await runAll(env, checks, worktree.path) };
  } catch (error) {
    if (!isCheckerError(error)) throw error;
    const message = `the ${side.side} worktree could not be written: ${error.message}`;
    context.report.limitations.push({ code: 'differential/worktree-failed', message });
    return { failed: message };
  } finally {
    const removed = await env.removeWorktrees({ names: [name] });
    entry.removed = removed.includes(name);
  }
}

async function runAll(env: Env, checks: ToRun[], cwd: string | undefined): Promise<Map<string, DifferentialRun>> {
  const results = await runPlannedChecks(env, checks, cwd === undefined ? {} : { cwd });
  return new Map(results.map(({ id, argv: _argv, ...run }) => [id, run]));
}

function noteSkipped(context: RunContext, side: Side, skipped: { path: string; reason: string }[]): void {
  if (skipped.length === 0) return;
  const shown = skipped.slice(0, 5).map((item) => `${item.path} (${item.reason})`);
  const more = skipped.length > 5 ? `, and ${skipped.length - 5} more` : '';
  context.report.limitations.push({
    code: 'differential/worktree-skipped',
    message: `the ${side} worktree leaves out ${skipped.length} entr${skipped.length === 1 ? 'y' : 'ies'}: ${shown.join('; ')}${more}`,
  });
}

const describeRun = (run: DifferentialRun): string =>
  run.status === 'passed' ? 'passed' : run.status === 'failed' ? 'failed' : run.status;

/** The verdict from the runs on each side (one each, or two each when the first outcomes differed). */
export function classify(
  base: DifferentialRun[],
  head: DifferentialRun[],
): { verdict: DifferentialVerdict; reason: string; flakySide?: 'base' | 'head' | 'both' } {
  const [firstBase, secondBase] = base;
  const [firstHead, secondHead] = head;
  if (firstBase === undefined || firstHead === undefined) return { verdict: 'not-comparable', reason: 'it did not run on both sides' };
  for (const [side, run] of [
    ['base', firstBase],
    ['head', firstHead],
    ['base', secondBase],
    ['head', secondHead],
  ] as const) {
    if (run !== undefined && !isFinished(run)) {
      return {
        verdict: 'not-comparable',
        reason: `it ${run.status === 'timed-out' ? 'timed out' : 'did not start'} on ${side}: ${run.reason}`,
      };
    }
  }
  if (firstBase.status === firstHead.status) {
    return firstBase.status === 'passed'
      ? { verdict: 'passing', reason: 'passed on base and on head' }
      : { verdict: 'still-failing', reason: `failed on base (${firstBase.reason}) and on head (${firstHead.reason})` };
  }
  if (secondBase === undefined || secondHead === undefined)
    return { verdict: 'not-comparable', reason: 'the outcomes differed and the rerun is missing' };
  const baseChanged = secondBase.status !== firstBase.status;
  const headChanged = secondHead.status !== firstHead.status;
  if (baseChanged || headChanged) {
    const flakySide = baseChanged && headChanged ? 'both' : baseChanged ? 'base' : 'head';
    const what = [
      ...(baseChanged ? [`on base it ${describeRun(firstBase)}, then ${describeRun(secondBase)}`] : []),
      ...(headChanged ? [`on head it ${describeRun(firstHead)}, then ${describeRun(secondHead)}`] : []),
    ];
    return { verdict: 'flaky', flakySide, reason: `the outcome changed on rerun: ${what.join('; ')}` };
  }
  return firstBase.status === 'passed'
    ? { verdict: 'regression', reason: `passed on base and failed on head (${firstHead.reason}), again on rerun` }
    : { verdict: 'fixed', reason: 'failed on base and passed on head, again on rerun' };
}

function summarise(configured: number, checks: DifferentialCheck[]): DifferentialReport['summary'] {
  const count = (verdict: DifferentialVerdict): number => checks.filter((check) => check.verdict === verdict).length;
  return {
    configured,
    compared: checks.filter((check) => check.verdict !== 'not-comparable' && check.verdict !== 'not-run').length,
    regressions: count('regression'),
    fixed: count('fixed'),
    stillFailing: count('still-failing'),
    passing: count('passing'),
    flaky: count('flaky'),
    notComparable: count('not-comparable'),
    notRun: count('not-run'),
  };
}
