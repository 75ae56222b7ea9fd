import { defineCommand } from 'citty';
import { getAnalysisReport } from '../../app/analysis-report.js';
import { getReportSchemaName } from '../../app/reports.js';
import { SARIF_KINDS, buildAnalysisSarif } from '../../app/ci/sarif-log.js';
import type { AnalysisReport, AnalysisReportKind } from '../../model/reports.js';
import { renderJson } from '../../report/json.js';
import { renderReportMarkdown } from '../../report/report-markdown.js';
import { cwdArg, failOnArg, formatArg, isAtOrAbove, rangeArgs, toFailOn, toFormat, toRange } from '../args.js';
import { emitReport, emitText, withEnv } from '../context.js';
import { currentHost } from '../host.js';
import { readVersion } from '../version.js';
import { toFindingsFormat } from './ci-sarif.js';
import { CheckerError } from '../../model/diagnostic.js';

/** The analysis commands whose reports carry rule-pack findings, and so can print them as SARIF. */
const SARIF_REPORTS: ReadonlySet<AnalysisReportKind> = new Set(['analysis', 'audit-tests', 'edge-cases', 'patterns', 'redteam']);

const sarifFormatArg = {
  format: {
    ...formatArg.format,
    description: 'Output format: markdown, json or sarif (SARIF 2.1.0 for code scanning)',
    valueHint: 'markdown|json|sarif',
  },
  output: formatArg.output,
} as const;

const testsOnlyArg = {
  'tests-only': {
    type: 'boolean',
    description:
      'Print only the test files to run for the change, one path per line from the repository root, nearest first (for a runner: | xargs npx vitest run); nothing when the whole suite should run, with the reason on stderr',
  },
} as const;

/** The test files of the report's test run, one per line; empty (the reason said on stderr) when the whole suite or nothing runs. */
async function emitTestFiles(root: string, report: Awaited<ReturnType<typeof getAnalysisReport>>, output: unknown): Promise<void> {
  const testRun = 'recommendedChecks' in report ? report.recommendedChecks.testRun : undefined;
  if (testRun === undefined) return;
  const files = testRun.commands.flatMap((command) => command.files);
  if (testRun.scope !== 'reaching') await currentHost().writeStderr(`checker: no test list: ${testRun.reason}\n`);
  await emitText(root, files.map((file) => `${file}\n`).join(''), output);
}

/** The seven analysis commands differ only in which view of the analysis they print. */
export function defineAnalysisCommand(name: string, kind: AnalysisReportKind, description: string) {
  return defineCommand({
    meta: { name, description },
    args: {
      ...cwdArg,
      ...rangeArgs,
      ...(SARIF_REPORTS.has(kind) ? sarifFormatArg : formatArg),
      ...failOnArg,
      ...(kind === 'audit-tests' ? testsOnlyArg : {}),
    },
    async run({ args, rawArgs }) {
      const sarifKinds = SARIF_REPORTS.has(kind);
      const format = sarifKinds ? toFindingsFormat(args.format) : toFormat(args.format);
      const failOn = toFailOn(args['fail-on']);
      const range = toRange(args);
      const testsOnly = 'tests-only' in args && args['tests-only'] === true;
      if (testsOnly && rawArgs.some((arg) => arg === '--format' || arg.startsWith('--format=')))
        throw new CheckerError('usage/conflicting-flags', '--tests-only prints a plain list of test files: it takes no --format', {
          hint: `Drop --format, or drop --tests-only for the whole report (e.g. checker ${name} --format json).`,
        });
      await withEnv(args.cwd, async (env) => {
        const started = env.now();
        // SARIF needs every finding, which only the full report carries; its summary (and so the --fail-on gate) is the same.
        const report = await getAnalysisReport(env, format === 'sarif' ? 'analysis' : kind, range);
        if (testsOnly) {
          await emitTestFiles(env.root, report, args.output);
        } else if (format === 'sarif') {
          const sarif = await buildAnalysisSarif(env, report as AnalysisReport, {
            ...(SARIF_KINDS[kind] === undefined ? {} : { kinds: SARIF_KINDS[kind] }),
            arguments: [name, ...rawArgs],
            started,
            toolVersion: readVersion(),
          });
          await emitText(env.root, renderJson(sarif), args.output);
        } else {
          await emitReport(env.root, report, {
            format,
            output: args.output,
            schema: getReportSchemaName(kind),
            markdown: renderReportMarkdown,
          });
        }
        const level = report.summary.mergeRisk.level;
        if (failOn !== undefined && isAtOrAbove(level, failOn)) {
          await currentHost().writeStderr(
            `checker: merge risk is ${level} (${report.summary.mergeRisk.score}/100), at or above --fail-on ${failOn}\n`,
          );
          currentHost().exitCode = 1;
        }
      });
    },
  });
}
