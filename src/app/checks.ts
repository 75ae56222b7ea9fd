import { randomBytes } from 'node:crypto';
import type { Config } from '../model/config.js';
import type { ChangeSet } from '../model/change.js';
import type { OutputExcerpt } from '../model/command.js';
import type { Env } from '../model/env.js';
import { sanitizeUntrustedText } from '../text/redact/redact.js';
import type { CheckResult } from '../model/execution.js';
import { compareText } from '../text/compare-text.js';
import { splitCommand } from '../text/command-words.js';
import { compileGlob } from '../text/glob.js';

/** A check without `timeoutMs` may run this long (10 minutes) before its process group is killed. */
const DEFAULT_CHECK_TIMEOUT_MS = 600_000;
/** Bytes kept from the start and from the end of each output stream of a check. */
const EXCERPT_BYTES = 16 * 1024;
/** A check is not started with less time than this left in the budget. */
export const MIN_CHECK_MS = 1000;

export type ConfiguredCheck = NonNullable<Config['checks']>[string];

/** A check that will run, or the result of one that will not (refused, skipped), decided before anything starts. */
export type PlannedCheck = { id: string; check: ConfiguredCheck; argv: string[] } | { result: CheckResult };

/**
 * Decides before anything starts whether a configured check runs: its command split into words (refused when it uses
 * shell syntax), its `paths` matched against the change, the gate. `field` names it in messages (`checks.unit`,
 * `toolAdapters.coverage`); an adapter's `args` follow its command's words.
 */
export function planCheck(
  id: string,
  check: ConfiguredCheck & { args?: string[] | undefined },
  context: {
    open: boolean;
    allowCommands: boolean;
    confirmed: boolean;
    source: string;
    /** Why safety.allowCommands does not open the gate (describeCommandsNotAllowed), when it does not. */
    notAllowed: string;
    changedPaths: string[] | undefined;
    /** Power keys the change alters while it is not trusted (config/changed-by-range): nothing runs. */
    changedByRange?: string[];
  },
  field = `checks.${id}`,
): PlannedCheck {
  const words = check.argv === undefined ? splitCommand(check.command ?? '') : { ok: true as const, argv: [...check.argv] };
  if (!words.ok) {
    return { result: { id, status: 'refused', reason: `${field}.command ${words.problem} (in ${context.source})` } };
  }
  const argv = [...words.argv, ...(check.args ?? [])];
  const paths = check.paths ?? [];
  const matchers = paths.map((glob) => compileGlob(glob));
  const badGlob = matchers.indexOf(null);
  if (badGlob !== -1) {
    const reason = `${field}.paths[${badGlob}] ${JSON.stringify(paths[badGlob])} is not a glob checker can compile (in ${context.source}); negated extglobs !(…) and lookarounds are not supported: list paths to include instead`;
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
    const blocked = context.changedByRange ?? [];
    const missing = [
      ...(blocked.length === 0
        ? []
        : [`the change under review alters ${blocked.join(', ')} of the checker configuration (config/changed-by-range)`]),
      ...(context.confirmed ? [] : ['execution was not requested (checker execute, MCP confirmExecution: true)']),
      ...(context.allowCommands ? [] : [context.notAllowed]),
    ];
    return { result: { id, argv, status: 'skipped', reason: `not run: ${missing.join('; ')}` } };
  }
  return { id, check, argv };
}

/** One check to start: its words, its own timeout, the time left, and extra environment variables. */
export interface CheckRun {
  id: string;
  argv: string[];
  /** The check's configured timeout (default 10 minutes), cut to `leftMs`. */
  timeoutMs?: number | undefined;
  leftMs: number;
  env?: Record<string, string>;
  /** Where it runs (default: the repository root): a worktree of `checker differential`. */
  cwd?: string;
  /** Absolute folder under `.checker/local/` for the V8 coverage of its Node processes (NODE_V8_COVERAGE). */
  v8CoverageDir?: string;
}

/** Runs one check without a shell and words its outcome: passed, failed (exit code or signal), timed out, not started. */
export async function runCheck(env: Env, check: CheckRun): Promise<CheckResult> {
  const { id, argv } = check;
  const timeoutMs = Math.floor(Math.min(check.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS, check.leftMs));
  const run = await env.runCommand({
    argv,
    timeoutMs,
    excerptBytes: EXCERPT_BYTES,
    ...(check.env === undefined ? {} : { env: check.env }),
    ...(check.cwd === undefined ? {} : { cwd: check.cwd }),
    ...(check.v8CoverageDir === undefined ? {} : { v8CoverageDir: check.v8CoverageDir }),
  });
  const base = {
    id,
    argv,
    timeoutMs,
    durationMs: Math.round(run.durationMs),
    stdout: toPlainText(run.stdout),
    stderr: toPlainText(run.stderr),
    ...(run.containment === undefined ? {} : { containment: run.containment }),
  };
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

export function toRunId(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/** The paths a change touches, both sides of a rename, sorted: what checks with `paths` are matched against. */
export function toChangedPaths(change: ChangeSet): string[] {
  const paths = change.files.flatMap((file) => (file.previousPath === undefined ? [file.path] : [file.path, file.previousPath]));
  return [...new Set(paths)].sort(compareText);
}

/**
 * What a check printed, as text that is safe to show: colours and cursor moves (vitest, jest and mocha colour their
 * output when CI is set), other terminal escapes, controls and bidi overrides are removed, so replaying a report in a
 * terminal cannot drive it. `bytes` still counts what the stream produced.
 */
export function toPlainText(excerpt: OutputExcerpt): OutputExcerpt {
  return {
    ...excerpt,
    head: sanitizeUntrustedText(excerpt.head, excerpt.head.length),
    tail: sanitizeUntrustedText(excerpt.tail, excerpt.tail.length),
  };
}
