import type { AnyAnalysisReport } from '../model/reports.js';
import { renderAnalysisMarkdown } from './analysis-markdown.js';
import { renderAuditTestsMarkdown } from './audit-tests-markdown.js';
import { renderEdgeCasesMarkdown } from './edge-cases-markdown.js';
import { renderImpactMarkdown } from './impact-markdown.js';
import { renderPatternsMarkdown } from './patterns-markdown.js';
import { renderRedteamMarkdown } from './redteam-markdown.js';
import { renderToolsMarkdown } from './tools-markdown.js';

/** Renders any of the seven analysis reports by its `kind`. */
export function renderReportMarkdown(report: AnyAnalysisReport): string {
  switch (report.kind) {
    case 'analysis':
      return renderAnalysisMarkdown(report);
    case 'impact':
      return renderImpactMarkdown(report);
    case 'audit-tests':
      return renderAuditTestsMarkdown(report);
    case 'edge-cases':
      return renderEdgeCasesMarkdown(report);
    case 'tools':
      return renderToolsMarkdown(report);
    case 'patterns':
      return renderPatternsMarkdown(report);
    case 'redteam':
      return renderRedteamMarkdown(report);
  }
}
