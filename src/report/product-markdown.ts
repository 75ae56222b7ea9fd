import type { ProductResultReport } from '../model/product-result.js';
import { escapeMarkdownInline, fenceUntrusted } from '../text/fence.js';
import { renderTable } from './markdown-table.js';

/** `checker product` as Markdown: the gate, the lifecycle, one row per check, and each failure with its rerun command. */
export function renderProductMarkdown(report: ProductResultReport): string {
  const parts = [`# checker product: target ${escapeMarkdownInline(report.target)} (${escapeMarkdownInline(report.baseUrl)})`, ''];
  parts.push(`Status: ${report.status}. Gate: ${escapeMarkdownInline(report.gate.explanation)}.`, '');
  if (report.phases.length > 0) {
    parts.push(
      '## Lifecycle',
      '',
      renderTable(
        ['phase', 'status', 'why', 'time'],
        report.phases.map((phase) => [phase.name, phase.status, phase.reason, `${(phase.durationMs / 1000).toFixed(1)} s`]),
      ),
      '',
    );
  }
  const checks = report.report?.checks ?? [];
  if (checks.length > 0) {
    const failed = checks.filter((check) => check.status === 'failed').length;
    parts.push(
      `## Checks (${checks.length}, ${failed} failed)`,
      '',
      renderTable(
        ['check', 'status', 'title'],
        checks.map((check) => [check.id, check.status, check.title]),
      ),
      '',
    );
  }
  for (const failure of report.failures) {
    parts.push(
      `## Failure: ${escapeMarkdownInline(failure.checkId)} (${failure.classification}, ${failure.priority})`,
      '',
      `Rerun: \`${failure.rerunCommand.replace(/`/g, "'")}\``,
      '',
      fenceUntrusted(
        [
          `expected: ${failure.expected}`,
          `actual: ${failure.actual}`,
          ...(failure.classificationEvidence ?? []).map((item) => `evidence: ${item}`),
        ].join('\n'),
        `product output of ${failure.checkId}`,
      ),
      '',
      ...failure.suggestedFixTasks.map((task) => `- ${escapeMarkdownInline(task)}`),
      ...failure.artifacts
        .filter((artifact) => artifact.path !== undefined)
        .map((artifact) => `- ${artifact.kind}: ${escapeMarkdownInline(artifact.path ?? '')}`),
      '',
    );
  }
  if (report.written.length > 0) parts.push('Written:', '', ...report.written.map((path) => `- ${escapeMarkdownInline(path)}`), '');
  return `${parts.join('\n').trimEnd()}\n`;
}
