import { DEFAULT_CONFIG_FILE } from '../model/config.js';
import type { DifferentialCheck, DifferentialReport, DifferentialRun } from '../model/differential.js';
import { escapeMarkdownInline, fenceUntrusted } from '../text/fence.js';
import { renderContainmentLine } from './containment-text.js';
import { renderTable } from './markdown-table.js';

const seconds = (run: DifferentialRun | undefined): string =>
  run?.durationMs === undefined ? '' : ` (${(run.durationMs / 1000).toFixed(1)} s)`;
const cell = (run: DifferentialRun | undefined): string => (run === undefined ? '—' : `${run.status}${seconds(run)}`);

/** The one-line verdict of a differential run: regressions first, then what else needs a look. */
export function renderDifferentialVerdict(report: DifferentialReport): string {
  const { summary } = report;
  const ids = (verdict: DifferentialCheck['verdict']): string[] =>
    report.checks.filter((check) => check.verdict === verdict).map((check) => check.id);
  if (!report.gate.open) return `Nothing ran: ${report.gate.explanation}.`;
  if (summary.regressions > 0) {
    const names = ids('regression');
    const verb = names.length === 1 ? 'passed on base and fails on head' : 'passed on base and fail on head';
    return `${names.length} regression${names.length === 1 ? '' : 's'}: ${names.join(', ')} ${verb}.`;
  }
  if (summary.compared + summary.notComparable === 0) return 'Nothing ran: no configured check applies to this change.';
  const notes = [
    ...(summary.fixed > 0 ? [`fixed: ${ids('fixed').join(', ')}`] : []),
    ...(summary.flaky > 0 ? [`flaky: ${ids('flaky').join(', ')}`] : []),
    ...(summary.stillFailing > 0 ? [`still failing: ${ids('still-failing').join(', ')}`] : []),
    ...(summary.notComparable > 0 ? [`not comparable: ${ids('not-comparable').join(', ')}`] : []),
  ];
  return `No regression in ${summary.compared} compared check${summary.compared === 1 ? '' : 's'}${notes.length === 0 ? '' : ` (${notes.join('; ')})`}.`;
}

/** `checker differential` as Markdown: the verdict, one row per check (base, head, reruns), and output fenced as untrusted text. */
export function renderDifferentialMarkdown(report: DifferentialReport): string {
  const parts = [
    '# checker differential',
    '',
    `**${escapeMarkdownInline(renderDifferentialVerdict(report))}**`,
    '',
    `Run ${report.runId}, started ${report.startedAt}. Base ${escapeMarkdownInline(report.base.ref)}${report.base.oid === undefined ? '' : ` (${report.base.oid.slice(0, 12)})`}, head ${escapeMarkdownInline(report.head.ref)}${report.head.oid === undefined ? '' : ` (${report.head.oid.slice(0, 12)})`}.`,
    '',
    `Gate: ${escapeMarkdownInline(report.gate.explanation)}.`,
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
        ['Check', 'Verdict', 'Base', 'Head', 'Base rerun', 'Head rerun', 'Why'],
        report.checks.map((check) => [
          check.id,
          check.flakySide === undefined ? check.verdict : `${check.verdict} (${check.flakySide})`,
          cell(check.base[0]),
          cell(check.head[0]),
          cell(check.base[1]),
          cell(check.head[1]),
          check.reason,
        ]),
      ),
      '',
    );
    const containment = renderContainmentLine(report.checks.flatMap((check) => [...check.base, ...check.head]));
    if (containment !== undefined) parts.push(containment, '');
  }
  for (const check of report.checks) parts.push(...renderOutput(check));
  if (report.worktrees.length > 0) {
    const kept = report.worktrees.filter((worktree) => !worktree.removed).map((worktree) => worktree.name);
    const linked = report.worktrees.some((worktree) => worktree.linkedNodeModules)
      ? " (node_modules linked to the repository's, not copied)"
      : '';
    parts.push(
      `Worktrees: ${report.worktrees.length} written under .checker/local/worktrees/${linked}, ${kept.length === 0 ? 'all removed' : `NOT removed: ${kept.join(', ')}`}.`,
      '',
    );
  }
  if (report.recordPath !== undefined) parts.push(`Record: ${report.recordPath}`, '');
  if (report.limitations.length > 0) {
    parts.push('## Limitations', '', ...report.limitations.map((item) => `- ${item.code}: ${escapeMarkdownInline(item.message)}`), '');
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

/** Output of the runs that matter: every run that did not pass, of a check that did not pass on both sides. */
function renderOutput(check: DifferentialCheck): string[] {
  if (check.verdict === 'passing' || check.verdict === 'not-run') return [];
  const lines: string[] = [];
  const runs = [
    ['base', check.base[0]],
    ['head', check.head[0]],
    ['base rerun', check.base[1]],
    ['head rerun', check.head[1]],
  ] as const;
  for (const [label, run] of runs) {
    if (run === undefined || run.status === 'passed') continue;
    for (const [name, excerpt] of [
      ['stdout', run.stdout],
      ['stderr', run.stderr],
    ] as const) {
      if (excerpt === undefined || excerpt.bytes === 0) continue;
      const text = excerpt.truncated
        ? `${excerpt.head}\n… (${excerpt.bytes} bytes in all; the middle is left out) …\n${excerpt.tail}`
        : excerpt.head;
      lines.push(`## ${escapeMarkdownInline(check.id)}, ${label}: ${name}`, '', fenceUntrusted(text, `${check.id} ${label} ${name}`));
    }
  }
  return lines;
}
