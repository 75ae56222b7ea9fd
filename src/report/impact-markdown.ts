import type { ImpactReport } from '../model/reports.js';
import { renderChangeDiagram } from './mermaid.js';
import {
  joinMarkdown,
  plural,
  renderChangedFiles,
  renderHeader,
  renderImpactedAreas,
  renderImpactedFiles,
  renderImpactedRoutes,
  renderLimitations,
  renderRiskSentence,
  renderSection,
  renderSymbolImpacts,
} from './sections-markdown.js';

/** checker impact / impact_map as Markdown. */
export function renderImpactMarkdown(report: ImpactReport): string {
  const importers = new Set(report.symbolImpacts.flatMap((impact) => impact.importers.map((importer) => importer.path)));
  const summary =
    `${renderRiskSentence(report.summary)} ${plural(report.symbolImpacts.length, 'changed export')} used by ${plural(importers.size, 'importing file')}; ` +
    `${plural(report.impactedAreas.folders.length, 'folder')}, ${plural(report.impactedAreas.packages.length, 'package')} and ${plural(report.impactedAreas.owners.length, 'owner')} touched.`;
  const diagram = renderChangeDiagram({
    changedFiles: report.changedFiles,
    impactedFiles: report.impactedFiles,
    impactedRoutes: report.impactedRoutes,
  });
  return joinMarkdown([
    renderHeader('Change impact', report.range),
    summary,
    diagram === '' ? '' : renderSection('Change map', diagram),
    renderSection(`Changed files (${report.changedFiles.length})`, renderChangedFiles(report.changedFiles)),
    renderSection(`Impacted files (${report.impactedFiles.length})`, renderImpactedFiles(report.impactedFiles)),
    renderSection(`Impacted routes (${report.impactedRoutes.length})`, renderImpactedRoutes(report.impactedRoutes)),
    renderSection(`Symbol impacts (${report.symbolImpacts.length})`, renderSymbolImpacts(report.symbolImpacts)),
    renderSection('Impacted areas', renderImpactedAreas(report.impactedAreas)),
    renderSection(`Limitations (${report.limitations.length})`, renderLimitations(report.limitations)),
  ]);
}
