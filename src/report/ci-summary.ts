import type { AnalysisSummary, ImpactedRoute } from '../model/analysis.js';
import type { BundleTask } from '../model/bundle.js';
import type { RevisionInfo } from '../model/change.js';
import type { ChangedPathProof } from '../model/coverage.js';
import { fenceUntrusted } from '../text/fence.js';
import { plural } from './sections-markdown.js';

/**
 * The job summary and the pull-request comment of `checker ci`. Outside the fences they hold only checker's own words,
 * numbers, enum values and commit ids; every path, title, task and note (repository or CI text) is inside a fence that
 * no content can close. Both stay under GitHub's comment limit.
 */

/** GitHub refuses a comment body over 65,536 characters; the summary keeps a margin under it. */
const MAX_CI_MARKDOWN_CHARS = 60_000;

export interface CiSummaryInput {
  ci: { name: string; event: string; pullRequest?: string };
  range: { base: RevisionInfo; head: RevisionInfo };
  summary: AnalysisSummary;
  tasks: readonly BundleTask[];
  taskOverflow: number;
  routes: readonly ImpactedRoute[];
  proof: readonly ChangedPathProof[];
  findings: { total: number; byKind: Record<string, number> };
  sarifResults: number;
  gate: { failOn?: string; failed: boolean };
  /** How the range was found (CI text: fenced). */
  notes: readonly string[];
}

const COMMENT_MARKER = '<!-- checker-ci-comment -->';
const SHA = /^[0-9a-f]{7,40}$/;

function side(revision: RevisionInfo): string {
  if (revision.oid !== undefined && SHA.test(revision.oid)) return `\`${revision.oid.slice(0, 12)}\``;
  return revision.ref === 'WORKTREE' ? 'the working tree' : 'a named revision';
}

function headline(input: CiSummaryInput): string {
  const { mergeRisk, decay } = input.summary;
  const pr = input.ci.pullRequest !== undefined && /^\d{1,10}$/.test(input.ci.pullRequest) ? ` #${input.ci.pullRequest}` : '';
  const gate =
    input.gate.failOn === undefined
      ? 'No `--fail-on` gate was set.'
      : input.gate.failed
        ? `**Gate failed**: merge risk ${mergeRisk.level} is at or above \`--fail-on ${input.gate.failOn}\`.`
        : `Gate passed: merge risk ${mergeRisk.level} is below \`--fail-on ${input.gate.failOn}\`.`;
  return [
    `Merge risk **${mergeRisk.score}/100 (${mergeRisk.level})**, decay ${decay.score}/100 (${decay.level}). ${gate}`,
    '',
    `${input.ci.name}, ${input.ci.event}${pr}: ${side(input.range.base)} → ${side(input.range.head)}.`,
    '',
    '| changed files | impacted files | routes reached | reaching test files | findings | code-scanning results |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${input.summary.changedFiles} | ${input.summary.impactedFiles} | ${input.summary.impactedRoutes} | ${input.summary.reachingTests} | ${input.findings.total} | ${input.sarifResults} |`,
  ].join('\n');
}

function proofGaps(proof: readonly ChangedPathProof[]): ChangedPathProof[] {
  return proof.filter((entry) => entry.state !== 'runtime-proven' && entry.repairTask !== '');
}

function taskLines(tasks: readonly BundleTask[]): string {
  return tasks.map((task, index) => `${index + 1}. [${task.kind}] ${task.title}\n   ${task.detail}`).join('\n');
}

function routeLines(routes: readonly ImpactedRoute[]): string {
  return routes
    .map((route) => `${route.method} ${route.path} (${route.kind}, ${route.file}:${route.line}, ${route.reach}): ${route.reason}`)
    .join('\n');
}

function proofLines(gaps: readonly ChangedPathProof[]): string {
  return gaps.map((gap) => `${gap.path}: ${gap.state}: ${gap.reason}\n  → ${gap.repairTask}`).join('\n');
}

function details(summary: string, body: string): string {
  return `<details><summary>${summary}</summary>\n\n${body}\n</details>`;
}

interface Limits {
  tasks: number;
  routes: number;
  gaps: number;
  fenceChars: number;
}

function compose(input: CiSummaryInput, kind: 'summary' | 'comment', limits: Limits): string {
  const gaps = proofGaps(input.proof);
  const parts: string[] = [];
  if (kind === 'comment') parts.push(COMMENT_MARKER);
  parts.push(kind === 'comment' ? '### checker: merge safety' : '## checker: merge safety', headline(input));
  const shownTasks = input.tasks.slice(0, limits.tasks);
  const moreTasks = input.tasks.length - shownTasks.length + input.taskOverflow;
  if (shownTasks.length === 0) {
    parts.push('#### Top tasks\n\nNo task: the evidence asks for nothing more.');
  } else {
    const more = moreTasks > 0 ? `\n\n${plural(moreTasks, 'more task')} in the full report (\`.checker/local/ci/\`).` : '';
    parts.push(
      `#### Top tasks (${shownTasks.length})\n\n${fenceUntrusted(taskLines(shownTasks), 'tasks', { maxChars: limits.fenceChars })}${more}`,
    );
  }
  const listed = (count: number, shown: number): string => (count > shown ? `, ${shown} shown` : '');
  const routes = input.routes.slice(0, limits.routes);
  parts.push(
    details(
      `Routes reached (${input.routes.length}${listed(input.routes.length, routes.length)})`,
      routes.length === 0 ? 'No route reaches the change.' : fenceUntrusted(routeLines(routes), 'routes', { maxChars: limits.fenceChars }),
    ),
  );
  const shownGaps = gaps.slice(0, limits.gaps);
  parts.push(
    details(
      `Proof gaps (${gaps.length}${listed(gaps.length, shownGaps.length)})`,
      shownGaps.length === 0
        ? 'Every changed file that needs proof has it.'
        : fenceUntrusted(proofLines(shownGaps), 'proof gaps', { maxChars: limits.fenceChars }),
    ),
  );
  const kinds = Object.entries(input.findings.byKind).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (kinds.length > 0) {
    parts.push(
      details(
        `Findings by kind (${input.findings.total})`,
        ['| kind | findings |', '|---|---:|', ...kinds.map(([name, count]) => `| ${name.replace(/[^a-z-]/g, '')} | ${count} |`)].join('\n'),
      ),
    );
  }
  if (input.notes.length > 0) {
    parts.push(details('How the range was found', fenceUntrusted(input.notes.join('\n'), 'CI detection', { maxChars: limits.fenceChars })));
  }
  parts.push('Report only: checker ran no command, called no model and used no network for this.');
  return `${parts.join('\n\n')}\n`;
}

function bounded(input: CiSummaryInput, kind: 'summary' | 'comment', maxChars: number): string {
  let limits: Limits = { tasks: kind === 'comment' ? 8 : 12, routes: 30, gaps: 30, fenceChars: 12_000 };
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const text = compose(input, kind, limits);
    if (text.length <= maxChars) return text;
    limits = {
      tasks: Math.max(1, Math.floor(limits.tasks / 2)),
      routes: Math.floor(limits.routes / 2),
      gaps: Math.floor(limits.gaps / 2),
      fenceChars: Math.max(500, Math.floor(limits.fenceChars / 2)),
    };
  }
  // Not reached with the floors above (a few fences of 500 characters) unless maxChars is tiny; the bound still holds.
  const text = compose(input, kind, limits);
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}\n`;
}

/** The Markdown for `$GITHUB_STEP_SUMMARY` (and `.checker/local/ci/summary.md`). */
export function renderCiJobSummary(input: CiSummaryInput, maxChars = MAX_CI_MARKDOWN_CHARS): string {
  return bounded(input, 'summary', maxChars);
}

/** The pull-request comment body (`.checker/local/ci/pr-comment.md`), opened by a marker a bot can find to update it. */
export function renderCiPrComment(input: CiSummaryInput, maxChars = MAX_CI_MARKDOWN_CHARS): string {
  return bounded(input, 'comment', maxChars);
}
