import { DEFAULT_CONFIG_FILE } from '../model/config.js';
import type { CheckResult, ExecutionReport } from '../model/execution.js';
import { escapeMarkdownInline, fenceUntrusted } from '../text/fence.js';
import { renderContainmentLine } from './containment-text.js';
import { formatLineRanges } from '../text/line-ranges.js';
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
    parts.push(
      `No checks are configured (add them under \`checks:\` in ${escapeMarkdownInline(report.gate.config?.file ?? DEFAULT_CONFIG_FILE)}).`,
      '',
    );
  } else {
    parts.push(
      renderTable(
        ['Check', 'Status', 'Command', 'Why', 'Time'],
        report.checks.map((check) => [
          check.id,
          check.status,
          check.argv === undefined ? '—' : check.argv.join(' '),
          check.reason,
          check.durationMs === undefined ? '—' : `${(check.durationMs / 1000).toFixed(1)} s`,
        ]),
      ),
      '',
    );
  }
  const containment = renderContainmentLine([...report.checks, ...(report.agentProcess === undefined ? [] : [report.agentProcess])]);
  if (containment !== undefined) parts.push(containment, '');
  if (report.runtimeProof !== undefined) parts.push(...renderRuntimeProof(report.runtimeProof));
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

/** Which changed lines the passing checks ran: proof from this run, with the checks that gave it. */
function renderRuntimeProof(proof: NonNullable<ExecutionReport['runtimeProof']>): string[] {
  const parts = ['## Runtime proof of the change', ''];
  for (const file of proof.files) {
    const by = file.checks.length === 0 ? '' : ` under ${file.checks.map((id) => escapeMarkdownInline(id)).join(', ')}`;
    const ran = file.coveredLines.length === 0 ? 'no changed line ran' : `${formatLineRanges(file.coveredLines)} ran${by}`;
    const missed = file.uncoveredLines.length === 0 ? '' : `; ${formatLineRanges(file.uncoveredLines)} never ran`;
    parts.push(`- ${escapeMarkdownInline(file.path)}: ${file.state}: ${ran}${missed}`);
  }
  if (proof.notExecuted.length > 0)
    parts.push(`- Not executed by any passing check: ${proof.notExecuted.map((path) => escapeMarkdownInline(path)).join(', ')}`);
  if (proof.failedChecks.length > 0)
    parts.push(`- Failed, so their coverage is not proof: ${proof.failedChecks.map((id) => escapeMarkdownInline(id)).join(', ')}`);
  if (proof.files.length === 0 && proof.notExecuted.length === 0 && proof.failedChecks.length === 0)
    parts.push('- The passing checks executed none of the changed lines that hold code.');
  parts.push('', "checker ai, audit-tests and redteam use this run's coverage for changed-path proof until the next run.", '');
  return parts;
}
