import type { RulesListReport, RulesValidateReport } from '../model/rules-report.js';
import { renderTable } from './markdown-table.js';

export function renderRulesListMarkdown(report: RulesListReport): string {
  const lines = [
    '# Rule packs',
    '',
    `${report.packs.length} packs, ${report.packs.reduce((sum, pack) => sum + pack.rules.length, 0)} rules.`,
    '',
  ];
  for (const pack of report.packs) {
    lines.push(
      `## ${pack.id}@${pack.version} (${pack.kind}, subject ${pack.subject}, ${pack.source})`,
      '',
      pack.description,
      '',
      `File: \`${pack.file}\``,
      '',
    );
    const hasEvidence = pack.rules.some((rule) => rule.evidence !== undefined);
    lines.push(
      renderTable(
        hasEvidence ? ['rule', 'weight', 'description', 'fires only with'] : ['rule', 'weight', 'description'],
        pack.rules.map((rule) =>
          hasEvidence ? [rule.id, rule.weight, rule.description, rule.evidence ?? ''] : [rule.id, rule.weight, rule.description],
        ),
      ),
      '',
    );
  }
  if (report.diagnostics.length > 0) {
    lines.push('## Packs not loaded', '', ...report.diagnostics.map((item) => `- ${item.code}: ${item.message}`), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

export function renderRulesValidateMarkdown(report: RulesValidateReport): string {
  if (report.results.length === 0) return 'No repository rule packs found in .checker/rules/.\n';
  const lines = report.results.map((result) =>
    result.valid
      ? `- valid: ${result.file} (pack ${result.packId}@${result.version}, ${result.rules} rules)`
      : `- INVALID: ${result.error ?? result.file}`,
  );
  return `${lines.join('\n')}\n`;
}
