import type { RedteamReport } from '../model/reports.js';
import { renderTable } from './markdown-table.js';
import {
  joinMarkdown,
  plural,
  renderBreakdown,
  renderConfiguredChecks,
  renderEdgeCases,
  renderFixTasks,
  renderHeader,
  renderImpactedAreas,
  renderLimitations,
  renderMemorySummary,
  renderMissingTests,
  renderProof,
  renderRiskSentence,
  renderSection,
  renderWeakTests,
} from './sections-markdown.js';

function renderSafety(report: RedteamReport): string {
  const rows = Object.entries(report.safety.execution).map(([flag, value]): [string, string] => [flag, value ? 'yes' : 'no']);
  return `${report.safety.note}\n\n${renderTable(['flag', 'value'], rows)}`;
}

/** checker redteam / redteam_report as Markdown. */
export function renderRedteamMarkdown(report: RedteamReport): string {
  const unproven = report.changedPathProof.filter((entry) => entry.state !== 'runtime-proven').length;
  const edgeCaseCount = report.edgeCases.top.length + report.edgeCases.overflow.length;
  const summary =
    `${renderRiskSentence(report.summary)} ${plural(unproven, 'changed file')} without runtime proof, ${plural(report.weakTests.length, 'weak test')}, ` +
    `${plural(report.missingTests.length, 'missing test')}, ${plural(edgeCaseCount, 'edge case')} and ${plural(report.fixTasks.length, 'fix task')}. ` +
    'Nothing was run: no check, investigation, model or network.';
  return joinMarkdown([
    renderHeader('Red-team merge-safety report', report.range),
    summary,
    renderSection('Merge risk', renderBreakdown(report.mergeRiskBreakdown)),
    renderSection(`Fix tasks (${report.fixTasks.length})`, renderFixTasks(report.fixTasks)),
    renderSection('Impacted areas', renderImpactedAreas(report.impactedAreas)),
    renderSection(`Changed-path proof (${report.changedPathProof.length})`, renderProof(report.changedPathProof)),
    renderSection(`Weak tests (${report.weakTests.length})`, renderWeakTests(report.weakTests)),
    renderSection(`Missing tests (${report.missingTests.length})`, renderMissingTests(report.missingTests)),
    renderSection(`Edge cases (${edgeCaseCount})`, renderEdgeCases(report.edgeCases)),
    renderSection(`Configured checks (${report.configuredChecks.length})`, renderConfiguredChecks(report.configuredChecks)),
    renderSection(`Memory (${report.memory.count})`, renderMemorySummary(report.memory)),
    renderSection('Safety', renderSafety(report)),
    renderSection(`Limitations (${report.limitations.length})`, renderLimitations(report.limitations)),
  ]);
}
