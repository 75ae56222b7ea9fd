import { defineCommand } from 'citty';
import { getAnalysisReport } from '../../app/analysis-report.js';
import { getReportSchemaName } from '../../app/reports.js';
import type { AnalysisReportKind } from '../../model/reports.js';
import { renderReportMarkdown } from '../../report/report-markdown.js';
import { cwdArg, formatArg, rangeArgs, toFormat, toRange } from '../args.js';
import { emitReport, withEnv } from '../context.js';

/** The seven analysis commands differ only in which view of the analysis they print. */
export function defineAnalysisCommand(name: string, kind: AnalysisReportKind, description: string) {
  return defineCommand({
    meta: { name, description },
    args: { ...cwdArg, ...rangeArgs, ...formatArg },
    async run({ args }) {
      const format = toFormat(args.format);
      const range = toRange(args);
      await withEnv(args.cwd, async (env) =>
        emitReport(env.root, await getAnalysisReport(env, kind, range), { format, output: args.output, schema: getReportSchemaName(kind), markdown: renderReportMarkdown }),
      );
    },
  });
}
