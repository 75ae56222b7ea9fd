import type { CheckResult, ExecutionReport } from '../model/execution.js';
import { escapeMarkdownInline, fenceUntrusted } from '../text/fence.js';
import { renderTable } from './markdown-table.js';

/** `checker execute` as Markdown: the gate, one row per configured check, and each run's output fenced as untrusted text. */
export function renderExecutionMarkdown(report: ExecutionReport): string {
  const { summary, gate } = report;
  const parts = [
    '# checker execute',
    '',
    `Run ${report.runId}, started ${report.startedAt}.`,
    '',
    `Gate: ${escapeMarkdownInline(gate.explanation)}.`,
    '',
    `${summary.configured} configured, ${summary.ran} ran: ${summary.passed} passed, ${summary.failed} failed, ${summary.timedOut} timed out.`,
    '',
  ];
  if (report.checks.length === 0) {
    parts.push('No checks are configured (add them under `checks:` in .checker/config.yml).', '');
  } else {
    parts.push(
      renderTable(
        ['Check', 'Status', 'Command', 'Why', 'Time'],
        report.checks.map((check) => [
          escapeMarkdownInline(check.id),
          check.status,
          check.argv === undefined ? '—' : escapeMarkdownInline(check.argv.join(' '), 200),
          escapeMarkdownInline(check.reason, 400),
          check.durationMs === undefined ? '—' : `${(check.durationMs / 1000).toFixed(1)} s`,
        ]),
      ),
      '',
    );
  }
  for (const check of report.checks) parts.push(...renderOutput(check));
  const agent = report.agentProcess;
  if (agent !== undefined) {
    parts.push(
      '## Agent process (untrusted agent suggestion: never proof, never a task)',
      '',
      `${agent.status}: ${escapeMarkdownInline(agent.reason, 400)}${agent.argv === undefined ? '' : ` (${escapeMarkdownInline(agent.argv.join(' '), 200)})`}`,
      '',
      ...(agent.bundlePath === undefined ? [] : [`Bundle given to it: ${escapeMarkdownInline(agent.bundlePath)}`, '']),
      ...renderOutput(agent),
    );
  }
  if (report.recordPath !== undefined) parts.push(`Record: ${report.recordPath}`, '');
  if (report.limitations.length > 0) {
    parts.push('## Limitations', '', ...report.limitations.map((item) => `- ${item.code}: ${escapeMarkdownInline(item.message)}`), '');
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

function renderOutput(check: CheckResult): string[] {
  const lines: string[] = [];
  for (const [name, excerpt] of [
    ['stdout', check.stdout],
    ['stderr', check.stderr],
  ] as const) {
    if (excerpt === undefined || excerpt.bytes === 0) continue;
    const text = excerpt.truncated
      ? `${excerpt.head}\n… (${excerpt.bytes} bytes in all; the middle is left out) …\n${excerpt.tail}`
      : excerpt.head;
    lines.push(`## ${escapeMarkdownInline(check.id)}: ${name}`, '', fenceUntrusted(text, `${check.id} ${name}`));
  }
  return lines;
}
