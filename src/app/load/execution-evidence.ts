import type { Diagnostic } from '../../model/diagnostic.js';
import type { Env } from '../../model/env.js';
import type { ExecutionReport } from '../../model/execution.js';
import { isRecord } from '../../text/is-record.js';
import type { CheckCoverageFolder } from './load-coverage.js';

/** Where `checker execute` notes its latest recorded run, for the analysis to read its coverage. */
export const LATEST_EXECUTION = 'executions/latest.json';
const RUN_ID = /^\d{8}T\d{6}Z-[0-9a-f]{6}$/;

/** The latest `checker execute` run as evidence for the analysis: where its passing checks' coverage is, and what failed. */
export interface ExecutionEvidence {
  runId: string;
  recordPath: string;
  /** V8 coverage folders of the checks that passed: runtime proof, with the check as provenance. */
  folders: CheckCoverageFolder[];
  /** Checks that failed or timed out: reported, never proof. */
  failedChecks: string[];
  report: ExecutionReport;
}

/**
 * Reads `.checker/local/executions/latest.json` and the record it names. Absent (no run yet) is undefined and says
 * nothing; a broken or foreign record is a limitation and is not used, never an error that stops the analysis.
 */
export async function readLatestExecution(env: Env, limitations: Diagnostic[]): Promise<ExecutionEvidence | undefined> {
  const pointer = await readJsonArtifact(env, LATEST_EXECUTION, limitations);
  if (pointer === undefined) return undefined;
  const runId = isRecord(pointer) ? pointer.runId : undefined;
  if (typeof runId !== 'string' || !RUN_ID.test(runId)) {
    limitations.push(unusable(`.checker/local/${LATEST_EXECUTION} does not name a run (expected {"runId": "<stamp>-<hex>"})`));
    return undefined;
  }
  const recordPath = `executions/${runId}/result.json`;
  const data = await readJsonArtifact(env, recordPath, limitations);
  if (data === undefined) return undefined;
  const issue = env.checkSchema('execution-report', data);
  if (issue !== undefined) {
    limitations.push(unusable(`.checker/local/${recordPath} is not an execution record (${issue.message})`));
    return undefined;
  }
  const report = data as ExecutionReport;
  const prefix = `.checker/local/executions/${runId}/coverage/`;
  const folders = report.checks.flatMap((check) =>
    check.status === 'passed' && check.coverage !== undefined && check.coverage.folder === `${prefix}${check.id}`
      ? [{ path: check.coverage.folder, check: check.id, runId }]
      : [],
  );
  const failedChecks = report.checks.filter((check) => check.status === 'failed' || check.status === 'timed-out').map((check) => check.id);
  if (failedChecks.length > 0) {
    limitations.push({
      code: 'execute/failed-checks',
      severity: 'warn',
      message: `In checker execute run ${runId}, ${failedChecks.join(', ')} did not pass: what a failing check executed is not proof.`,
      hint: 'fix the failures and run checker execute again (see its record for the output)',
      location: { file: `.checker/local/${recordPath}` },
    });
  }
  return { runId, recordPath: `.checker/local/${recordPath}`, folders, failedChecks, report };
}

async function readJsonArtifact(env: Env, path: string, limitations: Diagnostic[]): Promise<unknown> {
  const text = await env.readArtifact(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    limitations.push(unusable(`.checker/local/${path} is not JSON (${error instanceof Error ? error.message : String(error)})`));
    return undefined;
  }
}

function unusable(message: string): Diagnostic {
  return {
    code: 'execute/record-unusable',
    severity: 'warn',
    message: `${message}; the latest checker execute run is not used as evidence`,
    hint: 'run checker execute again',
  };
}
