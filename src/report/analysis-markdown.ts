import type { AnalysisReport } from '../model/reports.js';
import { renderHistoryInsights } from './history-markdown.js';
import { renderChangeDiagram } from './mermaid.js';
import {
  joinMarkdown,
  plural,
  renderChangedFiles,
  renderContracts,
  renderDecisions,
  renderEdgeCases,
  renderFindings,
  renderHeader,
  renderImpactedAreas,
  renderImpactedFiles,
  renderImpactedRoutes,
  renderLimitations,
  renderMemory,
  renderMissingTests,
  renderOwners,
  renderProof,
  renderRiskSentence,
  renderScores,
  renderSection,
  renderSymbolImpacts,
  renderTestEvidence,
  renderTools,
  renderWeakTests,
} from './sections-markdown.js';

/** checker analyze / analyze_pr as Markdown. */
export function renderAnalysisMarkdown(report: AnalysisReport): string {
  const edgeCaseCount = report.edgeCases.top.length + report.edgeCases.overflow.length;
  const summary =
    `${renderRiskSentence(report.summary)} Decay risk ${report.summary.decay.score}/100 (${report.summary.decay.level}). ` +
    `${plural(report.weakTests.length, 'weak test')}, ${plural(report.missingTests.length, 'missing test')}, ` +
    `${plural(edgeCaseCount, 'edge case')}, ${plural(report.findings.length, 'finding')} and ${plural(report.limitations.length, 'limitation')}.`;
  const diagram = renderChangeDiagram({
    changedFiles: report.changedFiles,
    impactedFiles: report.impactedFiles,
    impactedRoutes: report.impactedRoutes,
    proof: report.changedPathProof,
  });
  return joinMarkdown([
    renderHeader('Merge-safety analysis', report.range),
    summary,
    diagram === '' ? '' : renderSection('Change map', diagram),
    renderSection('Risk', renderScores(report.summary)),
    renderSection(`Changed files (${report.changedFiles.length})`, renderChangedFiles(report.changedFiles)),
    renderSection(`Impacted files (${report.impactedFiles.length})`, renderImpactedFiles(report.impactedFiles)),
    renderSection(`Impacted routes (${report.impactedRoutes.length})`, renderImpactedRoutes(report.impactedRoutes)),
    renderSection(`Symbol impacts (${report.symbolImpacts.length})`, renderSymbolImpacts(report.symbolImpacts)),
    renderSection('Impacted areas', renderImpactedAreas(report.impactedAreas)),
    renderSection(
      `Changed-path proof (${report.changedPathProof.length})`,
      renderProof(report.changedPathProof, report.summary.proofStates),
    ),
    renderSection('Test evidence', renderTestEvidence(report.testEvidence)),
    renderSection(`Weak tests (${report.weakTests.length})`, renderWeakTests(report.weakTests)),
    renderSection(`Missing tests (${report.missingTests.length})`, renderMissingTests(report.missingTests)),
    renderSection(`Edge cases (${edgeCaseCount})`, renderEdgeCases(report.edgeCases)),
    renderSection(`Owners (${report.context.owners.length})`, renderOwners(report.context.owners)),
    renderSection(`Decisions (${report.context.decisions.length})`, renderDecisions(report.context.decisions)),
    renderSection(`Memory (${report.context.memory.length})`, renderMemory(report.context.memory)),
    renderSection(`Design contracts crossed (${report.context.contracts.length})`, renderContracts(report.context.contracts)),
    report.context.history === undefined ? '' : renderSection('History', renderHistoryInsights(report.context.history)),
    renderSection(`Pattern matches (${report.context.patterns.length})`, renderPatternList(report)),
    renderSection(`Tool recommendations (${report.context.tools.length})`, renderTools(report.context.tools)),
    renderSection(`Findings (${report.findings.length})`, renderFindings(report.findings)),
    renderSection(`Limitations (${report.limitations.length})`, renderLimitations(report.limitations)),
  ]);
}

function renderPatternList(report: AnalysisReport): string {
  const { patterns } = report.context;
  if (patterns.length === 0) return 'No pattern-pack rule matched the changed lines.';
  return `${plural(patterns.length, 'match', 'matches')}; see \`checker patterns\` for the matches grouped by rule.`;
}
