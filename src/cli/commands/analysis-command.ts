import { defineCommand } from 'citty';
import { getAnalysisReport } from '../../app/analysis-report.js';
import { getReportSchemaName } from '../../app/reports.js';
import type { AnalysisReportKind } from '../../model/reports.js';
import { renderReportMarkdown } from '../../report/report-markdown.js';
import { cwdArg, failOnArg, formatArg, isAtOrAbove, rangeArgs, toFailOn, toFormat, toRange } from '../args.js';
import { emitReport, withEnv } from '../context.js';
import { currentHost } from '../host.js';

/** The seven analysis commands differ only in which view of the analysis they print. */
export function defineAnalysisCommand(name: string, kind: AnalysisReportKind, description: string) {
  return defineCommand({
    meta: { name, description },
    args: { ...cwdArg, ...rangeArgs, ...formatArg, ...failOnArg },
    async run({ args }) {
      const format = toFormat(args.format);
      const failOn = toFailOn(args['fail-on']);
      const range = toRange(args);
      await withEnv(args.cwd, async (env) => {
        const report = await getAnalysisReport(env, kind, range);
        await emitReport(env.root, report, {
          format,
          output: args.output,
          schema: getReportSchemaName(kind),
          markdown: renderReportMarkdown,
        });
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
