import type {
  AnalysisSummary,
  ChangeAnalysis,
  ChangedFileEvidence,
  EdgeCase,
  ImpactedAreas,
  ImpactedFile,
  ImpactedRoute,
  MissingTest,
  ReviewContext,
  ScoreContributor,
  SymbolImpact,
  WeakTest,
} from '../model/analysis.js';
import type { ChangedPathProof, TestEvidence } from '../model/coverage.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { ConfiguredCheckRef, FixTask, MemorySummary, PatternGroup, RecommendedChecks, ReportSummary } from '../model/reports.js';
import type { Finding } from '../model/rules.js';
import { escapeMarkdownInline, fenceText, fenceUntrusted } from '../text/fence.js';
import { toCommandLines } from '../text/shell-quote.js';
import { renderMore, renderTable } from './markdown-table.js';
import { describeGroup, groupLimitations } from '../text/group-limitations.js';

/** Rows shown per Markdown table; JSON keeps everything. */
const LIST_LIMIT = 25;
const EDGE_CASE_TOP = 8;
const MEMORY_LIMIT = 10;
const MEMORY_FENCE_CHARS = 600;
const INLINE_LIST_LIMIT = 5;

type Cell = string | number;

function formatNumber(value: number): string {
  return String(Math.round(value * 100) / 100);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** `a, b, c and 4 more`: a short inline list for one table cell. */
export function joinCapped(values: readonly string[], limit = INLINE_LIST_LIMIT): string {
  if (values.length === 0) return '';
  const shown = values.slice(0, limit).join(', ');
  return values.length > limit ? `${shown} and ${values.length - limit} more` : shown;
}

function renderRange(range: ChangeAnalysis['range']): string {
  const side = (rev: ChangeAnalysis['range']['base']): string =>
    escapeMarkdownInline(rev.oid === undefined ? rev.ref : `${rev.ref} (${rev.oid.slice(0, 12)})`);
  return `Range: ${side(range.base)} → ${side(range.head)}.`;
}

export function renderHeader(title: string, range: ChangeAnalysis['range']): string {
  return `# ${title}\n\n${renderRange(range)}\n`;
}

/** The first sentence of every report's summary paragraph. */
export function renderRiskSentence(summary: ReportSummary): string {
  return (
    `Merge risk **${summary.mergeRisk.score}/100 (${summary.mergeRisk.level})**: ` +
    `${plural(summary.changedFiles, 'changed file')}, ${plural(summary.impactedFiles, 'impacted file')}, ` +
    `${plural(summary.impactedRoutes, 'impacted route')} and ${plural(summary.reachingTests, 'reaching test file')}.`
  );
}

/** A capped table, `None.` when empty, and the "…and N more" line. */
function renderCappedTable<T>(
  items: readonly T[],
  headers: string[],
  toRow: (item: T, index: number) => Cell[],
  what: string,
  empty = 'None.',
): string {
  if (items.length === 0) return empty;
  return renderTable(headers, items.slice(0, LIST_LIMIT).map(toRow)) + renderMore(LIST_LIMIT, items.length, what);
}

export function renderSection(title: string, body: string): string {
  return `## ${title}\n\n${body.trimEnd()}\n`;
}

export function renderBreakdown(contributors: readonly ScoreContributor[]): string {
  return renderCappedTable(
    contributors,
    ['contributor', 'weight', 'detail', 'evidence'],
    (item) => [item.contributor, formatNumber(item.weight), item.detail, joinCapped(item.evidenceIds, 3)],
    'contributors',
    'No contributors.',
  );
}

export function renderScores(summary: AnalysisSummary): string {
  return [
    `Merge risk ${summary.mergeRisk.score}/100 (${summary.mergeRisk.level}).`,
    '',
    renderBreakdown(summary.mergeRiskBreakdown),
    '',
    `Decay risk ${summary.decay.score}/100 (${summary.decay.level}).`,
    '',
    renderBreakdown(summary.decayBreakdown),
  ].join('\n');
}

export function renderChangedFiles(files: readonly ChangedFileEvidence[]): string {
  return renderCappedTable(
    files,
    ['file', 'status', 'role', '+/-', 'changed exports', 'owners', 'low signal'],
    (file) => [
      file.previousPath === undefined ? file.path : `${file.previousPath} → ${file.path}`,
      file.status,
      file.role,
      file.binary ? 'binary' : `+${file.additions}/-${file.deletions}`,
      joinCapped(file.changedExports.map((item) => `${item.name} (${item.change})`)),
      joinCapped(file.owners, 3),
      file.lowSignal ? 'yes' : 'no',
    ],
    'changed files',
  );
}

export function renderImpactedFiles(files: readonly ImpactedFile[]): string {
  const sorted = files.slice().sort((a, b) => a.distance - b.distance || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return renderCappedTable(
    sorted,
    ['file', 'distance', 'reached via', 'type-only'],
    (file) => [file.path, file.distance, describeImpactReach(file), file.typeOnly ? 'yes' : 'no'],
    'impacted files',
    'No file imports the changed files.',
  );
}

/** The files an impacted file is reached through, then for a file reached over HTTP the call that links it (`… → calls POST /api/orders on line 2, …`). */
function describeImpactReach(file: ImpactedFile): string {
  const files = joinCapped(file.via, 4);
  return file.reason === undefined ? files : `${files} → ${file.reason}`;
}

/** The reach chain after the handler: `calls foo (src/a.ts) → changed bar (src/b.ts:3)`; file-level reach says so. */
export function describeRouteReach(route: ImpactedRoute): string {
  const chain = route.steps.length > 1 ? route.steps.slice(1).join(' → ') : route.reason;
  return route.reach === 'file' ? `${chain} (file-level: the handler cannot be followed statically)` : chain;
}

/** `requireUser (auth); authLimiter (rate-limit)`; name-only roles are marked. */
export function describeRouteGuards(route: ImpactedRoute): string {
  const guards = route.guards ?? [];
  if (guards.length === 0) return 'none found';
  return guards.map((guard) => `${guard.name} (${guard.role}${guard.confidence === 'low' ? ', name only' : ''})`).join('; ');
}

export function renderImpactedRoutes(routes: readonly ImpactedRoute[]): string {
  return renderCappedTable(
    routes,
    ['route', 'kind', 'framework', 'declared at', 'reached through', 'guards'],
    (route) => [
      `${route.method} ${route.path}`,
      route.kind,
      route.framework,
      `${route.file}:${route.line}`,
      describeRouteReach(route),
      describeRouteGuards(route),
    ],
    'routes',
    'No route or API handler reaches the changed files.',
  );
}

export function renderSymbolImpacts(impacts: readonly SymbolImpact[]): string {
  return renderCappedTable(
    impacts,
    ['export', 'change', 'importers', 'imported by'],
    (impact) => [
      `${impact.path}#${impact.name}`,
      impact.renamedTo === undefined ? impact.change : `${impact.change} (${impact.renamedTo} added in its place)`,
      impact.importers.length,
      joinCapped(
        impact.importers.map((importer) => {
          const notes = [
            ...(importer.use === 'named' ? [] : [importer.use]),
            ...(importer.staleLine === undefined ? [] : [`still names it at line ${importer.staleLine}`]),
          ];
          return notes.length === 0 ? importer.path : `${importer.path} (${notes.join('; ')})`;
        }),
      ),
    ],
    'changed exports',
    'No changed export.',
  );
}

export function renderImpactedAreas(areas: ImpactedAreas): string {
  const parts = [
    '### Folders',
    '',
    renderCappedTable(areas.folders, ['folder', 'changed', 'impacted'], (item) => [item.path, item.changed, item.impacted], 'folders'),
    '',
    '### Packages',
    '',
    renderCappedTable(
      areas.packages,
      ['package', 'folder', 'changed', 'impacted'],
      (item) => [item.name, item.folder, item.changed, item.impacted],
      'packages',
      'No workspace package.',
    ),
    '',
    '### Owners',
    '',
    renderCappedTable(
      areas.owners,
      ['owner', 'changed', 'impacted'],
      (item) => [item.owner, item.changed, item.impacted],
      'owners',
      'No CODEOWNERS entry matches.',
    ),
  ];
  return parts.join('\n');
}

function renderLines(lines: readonly number[]): string {
  return joinCapped(lines.map(String), 8);
}

export function renderProof(entries: readonly ChangedPathProof[], states?: Record<string, number>): string {
  const counts =
    states === undefined
      ? ''
      : Object.entries(states)
          .filter(([, count]) => count > 0)
          .map(([state, count]) => `${state} ${count}`)
          .join(', ');
  const table = renderCappedTable(
    entries,
    ['file', 'state', 'reaching tests', 'uncovered changed lines', 'repair task'],
    (entry) => [entry.path, entry.state, entry.reachingTestCount, renderLines(entry.uncoveredChangedLines), entry.repairTask],
    'changed files',
  );
  return counts === '' ? table : `Proof states: ${counts}.\n\n${table}`;
}

export function renderTestEvidence(evidence: TestEvidence): string {
  const head = `Runtime coverage: ${evidence.found ? `found, ${evidence.freshness}` : 'none found'}. ${escapeMarkdownInline(evidence.note)}`;
  if (evidence.sources.length === 0) return head;
  const table = renderCappedTable(
    evidence.sources,
    ['source', 'kind', 'files', 'generated', 'fresh'],
    (source) => [
      source.path,
      source.kind,
      source.files,
      source.generatedAt,
      source.fresh === null ? 'unknown' : source.fresh ? 'yes' : 'no',
    ],
    'coverage sources',
  );
  return `${head}\n\n${table}`;
}

export function renderWeakTests(tests: readonly WeakTest[]): string {
  return renderCappedTable(
    tests,
    ['test', 'kinds', 'reaches change', 'problem', 'repair task'],
    (test) => [`${test.file} › ${test.title}`, test.kinds.join(', '), test.reachesChange ? 'yes' : 'no', test.message, test.repairTask],
    'weak tests',
    'No weak test found.',
  );
}

export function renderMissingTests(tests: readonly MissingTest[]): string {
  return renderCappedTable(
    tests,
    ['subject', 'kind', 'problem', 'repair task'],
    (test) => [test.name === '' ? test.path : `${test.path}#${test.name}`, test.subject, test.message, test.repairTask],
    'missing tests',
    'Every changed export and route is reached by a test.',
  );
}

function renderEdgeCase(edgeCase: EdgeCase, rank: number): string {
  const field = (name: string, value: string): string => `- ${name}: ${escapeMarkdownInline(value)}`;
  return [
    `### ${rank}. ${escapeMarkdownInline(edgeCase.title)}`,
    '',
    field('Trigger', edgeCase.trigger),
    field('Expected behavior', edgeCase.expectedBehavior),
    field('User-visible failure', edgeCase.userVisibleFailure),
    field('Scope', edgeCase.scope),
    field('Recommended proof', edgeCase.recommendedProof),
    `- Confidence: ${edgeCase.confidence}; score ${formatNumber(edgeCase.score)}; provenance ${escapeMarkdownInline(edgeCase.provenance)}`,
    field('Evidence', joinCapped(edgeCase.evidenceIds)),
  ].join('\n');
}

export function renderEdgeCases(edgeCases: { top: readonly EdgeCase[]; overflow: readonly EdgeCase[] }): string {
  if (edgeCases.top.length === 0 && edgeCases.overflow.length === 0) return 'No edge-case scenario derived from the changed code.';
  const top = edgeCases.top.slice(0, EDGE_CASE_TOP).map((item, index) => renderEdgeCase(item, index + 1));
  const parts = [top.join('\n\n')];
  if (edgeCases.overflow.length > 0) {
    parts.push(
      `### Ranked overflow (${edgeCases.overflow.length})`,
      renderCappedTable(
        edgeCases.overflow,
        ['rank', 'scenario', 'scope', 'confidence', 'score'],
        (item, index) => [edgeCases.top.length + index + 1, item.title, item.scope, item.confidence, formatNumber(item.score)],
        'edge cases',
      ),
    );
  }
  return parts.join('\n\n');
}

export function renderOwners(owners: ReviewContext['owners']): string {
  return renderCappedTable(
    owners,
    ['owner', 'files'],
    (item) => [item.owner, joinCapped(item.files)],
    'owners',
    'No CODEOWNERS entry matches.',
  );
}

export function renderDecisions(decisions: ReviewContext['decisions']): string {
  return renderCappedTable(
    decisions,
    ['decision', 'file', 'matched by'],
    (item) => [item.title, item.path, joinCapped(item.matchedBy)],
    'decisions',
    'No decision record matches.',
  );
}

/** Memory notes are repository text: titles escaped, bodies fenced (and redacted) as untrusted data. */
export function renderMemory(
  memory: readonly { id: string; kind: string; title?: string; text: string; matchedBy: readonly string[] }[],
): string {
  if (memory.length === 0) return 'No memory note matches.';
  const items = memory.slice(0, MEMORY_LIMIT).map((item) => {
    const title = item.title === undefined ? '' : ` ${escapeMarkdownInline(item.title)}`;
    const head = `- ${escapeMarkdownInline(item.kind)}${title} (${escapeMarkdownInline(item.id)}; matched by ${escapeMarkdownInline(joinCapped(item.matchedBy))})`;
    const body = fenceUntrusted(item.text, `memory ${item.id}`, { maxChars: MEMORY_FENCE_CHARS })
      .trimEnd()
      .split('\n')
      .map((line) => (line === '' ? '' : `  ${line}`))
      .join('\n');
    return `${head}\n\n${body}`;
  });
  return items.join('\n\n') + renderMore(MEMORY_LIMIT, memory.length, 'memory notes');
}

export function renderMemorySummary(memory: MemorySummary): string {
  if (memory.count === 0) return 'No memory note matches.';
  const kinds = Object.entries(memory.byKind)
    .map(([kind, count]) => `${escapeMarkdownInline(kind)} ${count}`)
    .join(', ');
  const table = renderCappedTable(
    memory.items,
    ['note', 'kind', 'title', 'excerpt', 'matched by'],
    (item) => [item.id, item.kind, item.title ?? '', item.excerpt, joinCapped(item.matchedBy)],
    'memory notes',
  );
  return `${plural(memory.count, 'matched note')} (${kinds}). Excerpts are untrusted repository text, redacted.\n\n${table}`;
}

export function renderContracts(contracts: ReviewContext['contracts']): string {
  return renderCappedTable(
    contracts,
    ['contract', 'from', 'imports', 'line', 'description'],
    (item) => [item.id, item.from, `${item.to} (${item.specifier})`, item.line, item.description ?? ''],
    'boundary crossings',
    'No design-contract boundary is crossed.',
  );
}

export function renderPatternGroups(groups: readonly PatternGroup[]): string {
  if (groups.length === 0) return 'No pattern-pack rule matched the changed lines.';
  const shown = groups
    .slice(0, LIST_LIMIT)
    .map((group) =>
      [
        `### ${escapeMarkdownInline(group.rule)} (${plural(group.matches.length, 'match', 'matches')})`,
        '',
        `Provenance: ${escapeMarkdownInline(group.provenance)}.`,
        '',
        renderCappedTable(group.matches, ['file', 'line', 'match'], (item) => [item.path, item.line, item.message], 'matches'),
      ].join('\n'),
    );
  return shown.join('\n\n') + renderMore(LIST_LIMIT, groups.length, 'pattern rules');
}

export function renderTools(tools: ReviewContext['tools']): string {
  return renderCappedTable(
    tools,
    ['tool', 'why', 'install (not run)', 'provenance'],
    (item) => [item.tool, item.why, item.install, item.provenance],
    'tools',
    'No tool recommendation for this repository shape.',
  );
}

export function renderFindings(findings: readonly Finding[]): string {
  return renderCappedTable(
    findings,
    ['rule', 'subject', 'weight', 'message'],
    (item) => [item.provenance, item.subjectId, formatNumber(item.weight), item.message],
    'findings',
    'No rule fired.',
  );
}

export function renderConfiguredChecks(checks: readonly ConfiguredCheckRef[]): string {
  return renderCappedTable(
    checks,
    ['check', 'description', 'will run'],
    (item) => [item.name, item.description ?? '', 'no'],
    'configured checks',
    'No configured check (add `checks` to .checker/config.yml).',
  );
}

export function renderRecommendedChecks(checks: RecommendedChecks): string {
  const tests = renderCappedTable(
    checks.testFiles,
    ['test file', 'reaches changed files', 'changed'],
    (item) => [item.path, joinCapped(item.reaches), item.changed ? 'yes' : 'no'],
    'test files',
    'No test file reaches the changed files.',
  );
  const note = checks.complete ? '' : '\n\nSome changed files have more reaching tests than listed here; the list is capped per file.';
  return [
    'Nothing below was run: run these to turn the proof states above into runtime evidence.',
    '',
    '### Test files to run',
    '',
    tests + note,
    '',
    checks.testRun.scope === 'none'
      ? `No tests to run: ${escapeMarkdownInline(checks.testRun.reason)}.`
      : `${checks.testRun.scope === 'reaching' ? 'Run them' : 'Run the whole suite'} (${escapeMarkdownInline(checks.testRun.reason)}):\n\n${fenceText(toCommandLines(checks.testRun.commands).join('\n'), 'bash')}`,
    '',
    '### Configured checks',
    '',
    renderConfiguredChecks(checks.configuredChecks),
  ].join('\n');
}

export function renderFixTasks(tasks: readonly FixTask[]): string {
  if (tasks.length === 0) return 'No fix task: every changed path is runtime-proven and no test gap was found.';
  const items = tasks.slice(0, LIST_LIMIT).map((task, index) => {
    const state = task.state === undefined ? '' : ` (${task.state})`;
    return `${index + 1}. [${task.kind}${state}] ${escapeMarkdownInline(task.path)}: ${escapeMarkdownInline(task.task)} Evidence: ${escapeMarkdownInline(joinCapped(task.evidenceIds))}.`;
  });
  return items.join('\n') + renderMore(LIST_LIMIT, tasks.length, 'fix tasks');
}

export function renderLimitations(limitations: readonly Diagnostic[]): string {
  if (limitations.length === 0) return 'None recorded.';
  return renderGroupedLimitations(
    limitations,
    LIST_LIMIT,
    (item) => {
      const hint = item.hint === undefined ? '' : ` (hint: ${escapeMarkdownInline(item.hint)})`;
      return `${escapeMarkdownInline(item.message)}${hint}`;
    },
    (item) => `${item.severity} `,
  );
}

/**
 * Limitations as a list, one line per kind: a repeated code shows its first message and how many more
 * of the kind there are (the JSON keeps every one).
 */
export function renderGroupedLimitations<T extends { code: string; message: string }>(
  limitations: readonly T[],
  limit: number,
  message: (item: T) => string,
  prefix: (item: T) => string = () => '',
): string {
  const groups = groupLimitations(limitations);
  const items = groups
    .slice(0, limit)
    .map((group) => `- ${prefix(group.first)}${escapeMarkdownInline(group.code)}: ${describeGroup(group, message(group.first))}`);
  const shown = groups.slice(0, limit).reduce((total, group) => total + group.count, 0);
  return items.join('\n') + renderMore(shown, limitations.length, 'limitations');
}

/** Joins sections with one blank line between them and a single trailing newline. */
export function joinMarkdown(parts: readonly string[]): string {
  return `${parts
    .filter((part) => part !== '')
    .map((part) => part.trimEnd())
    .join('\n\n')}\n`;
}
