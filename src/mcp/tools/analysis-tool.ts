import { buildAnalysisReport, getReportSchemaName } from '../../app/reports.js';
import type { AnalysisReportKind } from '../../model/reports.js';
import { renderReportMarkdown } from '../../report/report-markdown.js';
import { analysisInputSchema } from '../schemas.js';
import type { ToolName } from '../texts.js';
import { defineTool, READ_ONLY, type McpTool } from './define-tool.js';

/** The seven analysis tools differ only in which view of the analysis they return, as the CLI commands do. */
export function defineAnalysisTool(name: ToolName, kind: AnalysisReportKind): McpTool {
  return defineTool({
    name,
    inputSchema: analysisInputSchema,
    outputSchemaName: getReportSchemaName(kind),
    annotations: READ_ONLY,
    async run(input, { warm }) {
      // The seven tools share one memoised analysis per range: a second call, or another view of the same range, is served from it.
      const warmed = await warm.analyze(pickRange(input));
      let report: ReturnType<typeof buildAnalysisReport> | undefined;
      return {
        // Built only when the result is not kept already: a repeat call reads neither the analysis nor the report.
        get report() {
          report ??= buildAnalysisReport(kind, warmed.analysis, warmed.repository.config.config.checks);
          return report;
        },
        schema: getReportSchemaName(kind),
        renderMarkdown: renderReportMarkdown,
        results: { store: warmed.derived, key: name },
      };
    },
  });
}

export function pickRange(input: { base?: string | undefined; head?: string | undefined }): { base?: string; head?: string } {
  return { ...(input.base === undefined ? {} : { base: input.base }), ...(input.head === undefined ? {} : { head: input.head }) };
}
