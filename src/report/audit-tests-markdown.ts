import type { AuditTestsReport } from '../model/reports.js';
import {
  joinMarkdown,
  plural,
  renderHeader,
  renderLimitations,
  renderMissingTests,
  renderProof,
  renderRecommendedChecks,
  renderRiskSentence,
  renderSection,
  renderTestEvidence,
  renderWeakTests,
} from './sections-markdown.js';

/** checker audit-tests / audit_tests as Markdown. */
export function renderAuditTestsMarkdown(report: AuditTestsReport): string {
  const unproven = report.changedPathProof.filter((entry) => entry.state !== 'runtime-proven').length;
  const summary =
    `${renderRiskSentence(report.summary)} ${unproven} of ${plural(report.changedPathProof.length, 'changed file')} without runtime proof, ` +
    `${plural(report.weakTests.length, 'weak test')} and ${plural(report.missingTests.length, 'missing test')}; ` +
    `${plural(report.recommendedChecks.testFiles.length, 'test file')} to run and ${plural(report.recommendedChecks.configuredChecks.length, 'configured check')} (not run).`;
  return joinMarkdown([
    renderHeader('Test audit', report.range),
    summary,
    renderSection(`Changed-path proof (${report.changedPathProof.length})`, renderProof(report.changedPathProof)),
    renderSection('Test evidence', renderTestEvidence(report.testEvidence)),
    renderSection(`Weak tests (${report.weakTests.length})`, renderWeakTests(report.weakTests)),
    renderSection(`Missing tests (${report.missingTests.length})`, renderMissingTests(report.missingTests)),
    renderSection('Recommended checks', renderRecommendedChecks(report.recommendedChecks)),
    renderSection(`Limitations (${report.limitations.length})`, renderLimitations(report.limitations)),
  ]);
}
