import type { Env } from '../../model/env.js';
import type { ProductFailures } from '../../model/product-plan.js';
import { MAX_RERUN_RECORDS, type ProductRunReport } from '../../model/product-run.js';

export const LATEST_RUN = 'product-runs/latest.json';
export const LATEST_FAILURES = 'product-runs/latest-failures.json';

type RunCheck = ProductRunReport['checks'][number];
type FailureBundle = ProductFailures['failures'][number];

/** A kept JSON artifact when it parses and matches `schema`; undefined when it is missing, damaged or of another shape. */
async function readChecked<T>(env: Env, path: string, schema: 'product-run' | 'product-failures'): Promise<T | undefined> {
  const text = await env.readArtifact(path);
  if (text === undefined) return undefined;
  try {
    const data = JSON.parse(text) as unknown;
    return env.checkSchema(schema, data) === undefined ? (data as T) : undefined;
  } catch {
    return undefined;
  }
}

/** The latest product run report, or undefined when there is none or it does not match its schema. */
export function readLatestRun(env: Env): Promise<ProductRunReport | undefined> {
  return readChecked(env, LATEST_RUN, 'product-run');
}

/** The latest failure bundles (latest-failures.json), or undefined when there are none or they do not match their schema. */
export function readLatestFailures(env: Env): Promise<ProductFailures | undefined> {
  return readChecked(env, LATEST_FAILURES, 'product-failures');
}

export interface RerunOutcome {
  /** What the `--test-id` run reported: the check it reran, and a `workflow:` check when the target did not come up. */
  checks: readonly RunCheck[];
  failures: readonly FailureBundle[];
  at: string;
  runFolder: string | undefined;
  /** The target came up for the rerun: an earlier `workflow:` failure of it no longer holds. */
  cameUp: boolean;
}

/**
 * A `--test-id` rerun merged into the latest report and its failure bundles: the rerun's checks replace theirs in
 * place (a skipped one says nothing new and leaves the earlier outcome), a check that passes now drops its failure,
 * new ones are added at the end, every other check and failure stays, and the rerun is recorded with its time, outcome
 * and run folder.
 */
export function mergeRerun(
  previous: { run: ProductRunReport; failures: ProductFailures },
  rerun: RerunOutcome,
): { run: ProductRunReport; failures: ProductFailures } {
  const ran = rerun.checks.filter((check) => check.status !== 'skipped');
  const replaced = new Map(ran.map((check) => [check.id, check]));
  const stale = (id: string): boolean => rerun.cameUp && id.startsWith('workflow:') && !replaced.has(id);
  const kept = previous.run.checks.filter((check) => !stale(check.id)).map((check) => replaced.get(check.id) ?? check);
  const known = new Set(kept.map((check) => check.id));
  const checks = [...kept, ...ran.filter((check) => !known.has(check.id))];

  const failed = new Map(rerun.failures.map((failure) => [failure.checkId, failure]));
  const failures: FailureBundle[] = [];
  for (const failure of previous.failures.failures) {
    if (stale(failure.checkId)) continue;
    if (!replaced.has(failure.checkId)) failures.push(failure);
    else {
      const again = failed.get(failure.checkId);
      if (again !== undefined) failures.push(again);
    }
  }
  const listed = new Set(failures.map((failure) => failure.checkId));
  failures.push(...rerun.failures.filter((failure) => !listed.has(failure.checkId) && replaced.has(failure.checkId)));

  const records = rerun.checks.map((check) => ({
    checkId: check.id,
    at: rerun.at,
    status: check.status,
    ...(rerun.runFolder === undefined ? {} : { runFolder: rerun.runFolder }),
  }));
  const reruns = [...(previous.run.reruns ?? []), ...records].slice(-MAX_RERUN_RECORDS);
  return {
    run: { ...previous.run, updatedAt: rerun.at, checks, reruns },
    failures: { ...previous.failures, updatedAt: rerun.at, failures, reruns },
  };
}
