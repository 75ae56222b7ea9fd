import { DEFAULT_CONFIG_FILE } from '../model/config.js';
import type { ProductFailures, ProductPlan } from '../model/product-plan.js';
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
  if (report.baseRun !== undefined) {
    const { baseRun } = report;
    parts.push(
      `## At base ${escapeMarkdownInline(baseRun.ref)} (${baseRun.oid.slice(0, 7)}): ${baseRun.status}`,
      '',
      escapeMarkdownInline(baseRun.reason),
      '',
    );
    if (baseRun.checks.length > 0)
      parts.push(
        renderTable(
          ['check', 'at base', 'answer'],
          baseRun.checks.map((check) => [check.id, check.status, check.actual]),
        ),
        '',
      );
  }
  for (const failure of report.failures) parts.push(...renderFailure(failure));
  for (const limitation of report.limitations ?? [])
    parts.push(`Limitation (${limitation.code}): ${escapeMarkdownInline(limitation.message)}`, '');
  if (report.written.length > 0) parts.push('Written:', '', ...report.written.map((path) => `- ${escapeMarkdownInline(path)}`), '');
  return `${parts.join('\n').trimEnd()}\n`;
}

/** MCP `checker_product_plan` as Markdown: each target, ready or what is missing, and the commands. */
export function renderProductPlanMarkdown(plan: ProductPlan): string {
  const parts = ['# Product plan (nothing was run)', '', `Gate: ${escapeMarkdownInline(plan.gate.explanation)}.`, ''];
  parts.push(
    plan.browser.found
      ? `Browser: ${escapeMarkdownInline(plan.browser.executablePath ?? '')} (${escapeMarkdownInline(plan.browser.source ?? '')}).`
      : `Browser: none found. ${escapeMarkdownInline(plan.browser.hint ?? '')}`,
    '',
  );
  if (plan.targets.length === 0)
    parts.push(
      `No product targets are configured (products.targets in ${escapeMarkdownInline(plan.gate.configFile ?? DEFAULT_CONFIG_FILE)}).`,
      '',
    );
  else
    parts.push(
      renderTable(
        ['target', 'kind', 'baseUrl', 'ready', 'missing'],
        plan.targets.map((target) => [
          target.name,
          target.kind,
          target.baseUrl,
          target.ready ? 'yes' : 'no',
          target.missing.join('; ') || '—',
        ]),
      ),
      '',
      ...plan.targets.flatMap((target) => target.commands.map((command) => `- \`${command}\``)),
      '',
    );
  return `${parts.join('\n').trimEnd()}\n`;
}

/** MCP `checker_product_failures` as Markdown: each failure bundle of the latest run, its evidence fenced as untrusted. */
export function renderProductFailuresMarkdown(report: ProductFailures): string {
  const parts = [`# Product failures (${report.failures.length})`, ''];
  if (report.failures.length === 0) parts.push('No failure in the latest product run (or no run yet).', '');
  for (const failure of report.failures) parts.push(...renderFailure(failure));
  return `${parts.join('\n').trimEnd()}\n`;
}

function renderFailure(failure: ProductFailures['failures'][number]): string[] {
  return [
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
    ...(failure.impactedFiles.length === 0
      ? []
      : [`Impacted files: ${failure.impactedFiles.map((file) => escapeMarkdownInline(file)).join(', ')}`, '']),
    ...failure.suggestedFixTasks.map((task) => `- ${escapeMarkdownInline(task)}`),
    ...failure.artifacts
      .filter((artifact) => artifact.path !== undefined)
      .map((artifact) => `- ${artifact.kind}: ${escapeMarkdownInline(artifact.path ?? '')}`),
    '',
  ];
}
