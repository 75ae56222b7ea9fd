import type { PatternsReport } from '../model/reports.js';
import {
  joinMarkdown,
  plural,
  renderHeader,
  renderLimitations,
  renderPatternGroups,
  renderRiskSentence,
  renderSection,
} from './sections-markdown.js';

/** checker patterns / pattern_search as Markdown. Matched line text is untrusted and escaped. */
export function renderPatternsMarkdown(report: PatternsReport): string {
  const summary = `${renderRiskSentence(report.summary)} ${plural(report.matchCount, 'pattern match', 'pattern matches')} of ${plural(report.groups.length, 'rule')} in the changed lines.`;
  return joinMarkdown([
    renderHeader('Pattern matches', report.range),
    summary,
    renderSection(`Matches by rule (${report.groups.length})`, renderPatternGroups(report.groups)),
    renderSection(`Limitations (${report.limitations.length})`, renderLimitations(report.limitations)),
  ]);
}
