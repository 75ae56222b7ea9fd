import type { RepositoryShape } from '../model/analysis.js';
import type { ToolsReport } from '../model/reports.js';
import { renderTable } from './markdown-table.js';
import {
  joinCapped,
  joinMarkdown,
  plural,
  renderHeader,
  renderLimitations,
  renderRiskSentence,
  renderSection,
  renderTools,
} from './sections-markdown.js';

function renderShape(shape: RepositoryShape | null): string {
  if (shape === null) return 'Not recorded by this analysis.';
  const rows = Object.entries(shape).map(([fact, value]): [string, string | number] => {
    if (Array.isArray(value)) return [fact, value.length === 0 ? 'none' : joinCapped(value.map(String), 10)];
    if (typeof value === 'boolean') return [fact, value ? 'yes' : 'no'];
    return [fact, typeof value === 'number' ? value : String(value)];
  });
  return renderTable(['fact', 'value'], rows);
}

/** checker tools / tool_recommendations as Markdown. */
export function renderToolsMarkdown(report: ToolsReport): string {
  const summary = `${renderRiskSentence(report.summary)} ${plural(report.tools.length, 'tool recommendation')} for this repository's shape. ${report.note}`;
  return joinMarkdown([
    renderHeader('Tool recommendations', report.range),
    summary,
    renderSection(`Recommendations (${report.tools.length})`, renderTools(report.tools)),
    renderSection('Repository shape', renderShape(report.repositoryShape)),
    renderSection(`Limitations (${report.limitations.length})`, renderLimitations(report.limitations)),
  ]);
}
