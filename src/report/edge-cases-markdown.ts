import type { EdgeCasesReport } from '../model/reports.js';
import {
  joinMarkdown,
  plural,
  renderEdgeCases,
  renderHeader,
  renderLimitations,
  renderRiskSentence,
  renderSection,
} from './sections-markdown.js';

/** checker edge-cases / suggest_edge_cases as Markdown. */
export function renderEdgeCasesMarkdown(report: EdgeCasesReport): string {
  const total = report.edgeCases.top.length + report.edgeCases.overflow.length;
  const summary = `${renderRiskSentence(report.summary)} ${plural(total, 'edge-case scenario')} from the changed code: the top ${report.edgeCases.top.length} and ${report.edgeCases.overflow.length} ranked overflow.`;
  return joinMarkdown([
    renderHeader('Edge cases', report.range),
    summary,
    renderSection(`Scenarios (${total})`, renderEdgeCases(report.edgeCases)),
    renderSection(`Limitations (${report.limitations.length})`, renderLimitations(report.limitations)),
  ]);
}
