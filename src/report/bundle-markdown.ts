import { renderHistoryInsights } from './history-markdown.js';
import type { AgentBundle } from '../model/bundle.js';
import { describeInvestigationRecord, renderInvestigationSection } from './investigation-markdown.js';
import { escapeMarkdownInline, fenceUntrusted } from '../text/fence.js';
import { renderMore, renderTable } from './markdown-table.js';
import { describeRouteGuards, describeRouteReach, plural, renderGroupedLimitations } from './sections-markdown.js';
import { countOf } from '../text/plural.js';

const LIST_LIMIT = 25;

/** The sections of the bundle's Markdown, in order; each gives its lines, or none when it has nothing to say. */
const SECTIONS: readonly ((bundle: AgentBundle) => string[])[] = [
  renderHeader,
  renderHandoff,
  renderPrompt,
  renderTasks,
  renderChangedFiles,
  renderImpactedFiles,
  renderImpactedAreas,
  renderRouteImpacts,
  renderSymbolImpacts,
  renderChangedPathProof,
  renderWeakTests,
  renderMissingTests,
  renderStaleAssertions,
  renderProductFailures,
  renderRiskAndDecay,
  renderTestEvidence,
  renderEdgeCases,
  renderRequirements,
  renderVerification,
  renderChecks,
  renderSkills,
  renderHistory,
  renderOwnersAndMemory,
  renderLimitations,
  renderSafety,
];

/** The agent task bundle as Markdown: the copy-paste prompt first, then the evidence it rests on. */
export function renderBundleMarkdown(bundle: AgentBundle): string {
  const out = SECTIONS.flatMap((render) => render(bundle));
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/** The title and the one-line summary. */
function renderHeader(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  const range = `${bundle.range.base.ref}..${bundle.range.head.ref}`;
  out.push(`# Agent task bundle: ${escapeMarkdownInline(range)}`, '');
  out.push(
    `Profile ${bundle.profile} (${escapeMarkdownInline(bundle.handoff.audience)}). ${evidence.changedFiles.length} changed, ${plural(evidence.impactedFiles.length, 'impacted file')}, ` +
      `${plural(evidence.impactedRoutes.length, 'route')}; merge risk ${evidence.summary.mergeRisk.score}/100 (${evidence.summary.mergeRisk.level}); ${bundle.tasks.length === 1 ? '1 task' : `${bundle.tasks.length} tasks`}${bundle.taskOverflow.length > 0 ? ` (and ${bundle.taskOverflow.length} lower-ranked)` : ''}.`,
    '',
  );
  return out;
}

/** What the agent delivers, how it tests, what it reports back. */
function renderHandoff(bundle: AgentBundle): string[] {
  const out: string[] = [];
  out.push(
    '## Hand-off',
    '',
    `- Deliver: ${escapeMarkdownInline(bundle.handoff.deliver)}`,
    `- Tests: ${escapeMarkdownInline(bundle.handoff.runTests)}`,
    `- Report back: ${escapeMarkdownInline(bundle.handoff.reportBack)}`,
    '',
  );
  return out;
}

/** The copy-paste prompt, fenced as one block. */
function renderPrompt(bundle: AgentBundle): string[] {
  const out: string[] = [];
  out.push('## Prompt (copy and paste)', '', wrapPrompt(bundle.prompt), '');
  return out;
}

/** The ranked tasks, then the lower-ranked ones. */
function renderTasks(bundle: AgentBundle): string[] {
  const out: string[] = [];
  out.push(`## Tasks (${bundle.tasks.length})`, '');
  const taskRow = (task: AgentBundle['tasks'][number], number: number): (string | number)[] => [
    number,
    task.kind,
    `${task.title}: ${task.detail}`,
    task.evidenceIds.join(', '),
  ];
  out.push(
    bundle.tasks.length === 0
      ? 'None: the evidence shows no missing proof.'
      : renderTable(
          ['#', 'kind', 'task', 'evidence'],
          bundle.tasks.slice(0, LIST_LIMIT).map((task, index) => taskRow(task, index + 1)),
        ) + renderMore(LIST_LIMIT, bundle.tasks.length, 'tasks'),
    '',
  );
  if (bundle.taskOverflow.length > 0) {
    const first = bundle.tasks.length + 1;
    out.push(
      `### Lower-ranked tasks (${bundle.taskOverflow.length})`,
      '',
      renderTable(
        ['#', 'kind', 'task', 'evidence'],
        bundle.taskOverflow.slice(0, LIST_LIMIT).map((task, index) => taskRow(task, first + index)),
      ) + renderMore(LIST_LIMIT, bundle.taskOverflow.length, 'tasks'),
      '',
    );
  }
  return out;
}

/** The changed files with their exports and owners. */
function renderChangedFiles(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  out.push(`## Changed files (${evidence.changedFiles.length})`, '');
  out.push(
    renderTable(
      ['file', 'status', '+/-', 'changed exports', 'owners'],
      evidence.changedFiles
        .slice(0, LIST_LIMIT)
        .map((file) => [
          `${file.path}${file.lowSignal ? ' (low signal)' : ''}`,
          file.status,
          `+${file.additions}/-${file.deletions}`,
          file.changedExports.map((item) => `${item.name} (${item.change})`).join(', '),
          file.owners.join(', '),
        ]),
    ) + renderMore(LIST_LIMIT, evidence.changedFiles.length, 'changed files'),
    '',
  );
  return out;
}

/** Files the change reaches through imports. */
function renderImpactedFiles(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  if (evidence.impactedFiles.length > 0) {
    out.push(`## Impacted files (${evidence.impactedFiles.length})`, '');
    out.push(
      renderTable(
        ['file', 'distance', 'via', 'types only'],
        evidence.impactedFiles
          .slice(0, LIST_LIMIT)
          .map((file) => [
            file.path,
            file.distance,
            [...file.via, ...(file.reason === undefined ? [] : [file.reason])].join(' → '),
            file.typeOnly ? 'yes' : 'no',
          ]),
      ) + renderMore(LIST_LIMIT, evidence.impactedFiles.length, 'impacted files'),
      '',
    );
  }
  return out;
}

/** Folders, packages and owners the change reaches. */
function renderImpactedAreas(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  const areas = evidence.impactedAreas;
  if (areas.folders.length + areas.packages.length + areas.owners.length > 0) {
    out.push('## Impacted areas', '');
    const rows: (string | number)[][] = [
      ...areas.folders.map((area) => ['folder', area.path, area.changed, area.impacted]),
      ...areas.packages.map((area) => ['package', area.name, area.changed, area.impacted]),
      ...areas.owners.map((area) => ['owner', area.owner, area.changed, area.impacted]),
    ];
    out.push(
      renderTable(['area', 'name', 'changed', 'impacted'], rows.slice(0, LIST_LIMIT)) + renderMore(LIST_LIMIT, rows.length, 'areas'),
      '',
    );
  }
  return out;
}

/** Routes reached, how, and their guards. */
function renderRouteImpacts(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  if (evidence.impactedRoutes.length > 0) {
    out.push(`## Route and API impacts (${evidence.impactedRoutes.length})`, '');
    out.push(
      renderTable(
        ['route', 'kind', 'declared at', 'reached through', 'guards'],
        evidence.impactedRoutes
          .slice(0, LIST_LIMIT)
          .map((route) => [
            `${route.method} ${route.path}`,
            route.kind,
            `${route.file}:${route.line}`,
            describeRouteReach(route),
            describeRouteGuards(route),
          ]),
      ) + renderMore(LIST_LIMIT, evidence.impactedRoutes.length, 'routes'),
      '',
    );
  }
  return out;
}

/** Changed exports and the importers that use them. */
function renderSymbolImpacts(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  if (evidence.symbolImpacts.length > 0) {
    out.push(`## Symbol-level import impacts (${evidence.symbolImpacts.length})`, '');
    out.push(
      renderTable(
        ['export', 'change', 'importers'],
        evidence.symbolImpacts
          .slice(0, LIST_LIMIT)
          .map((symbol) => [
            `${symbol.name} in ${symbol.path}`,
            symbol.renamedTo === undefined ? symbol.change : `${symbol.change} (${symbol.renamedTo} added in its place)`,
            symbol.importers.length === 0
              ? 'none'
              : symbol.importers
                  .map(
                    (importer) =>
                      `${importer.path} (${importer.use}${importer.through.length > 0 ? ` through ${importer.through.join(', ')}` : ''}${importer.staleLine === undefined ? '' : `; still names it at line ${importer.staleLine}`})`,
                  )
                  .join('; '),
          ]),
      ) + renderMore(LIST_LIMIT, evidence.symbolImpacts.length, 'changed exports'),
      '',
    );
  }
  return out;
}

/** The proof state of each changed source file. */
function renderChangedPathProof(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  out.push(`## Changed-path proof (${evidence.changedPathProof.length})`, '');
  out.push(
    evidence.changedPathProof.length === 0
      ? 'No changed source lines to prove.'
      : renderTable(
          ['file', 'state', 'reaching tests', 'repair task'],
          evidence.changedPathProof
            .slice(0, LIST_LIMIT)
            .map((proof) => [proof.path, proof.state, proof.reachingTestCount, proof.repairTask === '' ? proof.reason : proof.repairTask]),
        ) + renderMore(LIST_LIMIT, evidence.changedPathProof.length, 'files'),
    '',
  );
  return out;
}

/** Tests that reach the change but prove little. */
function renderWeakTests(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  if (evidence.weakTests.length > 0) {
    out.push(`## Weak tests (${evidence.weakTests.length})`, '');
    out.push(
      renderTable(
        ['test', 'kinds', 'reaches the change', 'repair'],
        evidence.weakTests
          .slice(0, LIST_LIMIT)
          .map((test) => [`${test.file}: ${test.title}`, test.kinds.join(', '), test.reachesChange ? 'yes' : 'no', test.repairTask]),
      ) + renderMore(LIST_LIMIT, evidence.weakTests.length, 'weak tests'),
      '',
    );
  }
  return out;
}

/** What no test reaches. */
function renderMissingTests(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  if (evidence.missingTests.length > 0) {
    out.push(`## Missing tests (${evidence.missingTests.length})`, '');
    out.push(
      renderTable(
        ['subject', 'name', 'repair'],
        evidence.missingTests
          .slice(0, LIST_LIMIT)
          .map((missing) => [missing.subject, `${missing.name} (${missing.path})`, missing.repairTask]),
      ) + renderMore(LIST_LIMIT, evidence.missingTests.length, 'missing tests'),
      '',
    );
  }
  return out;
}

/** Test lines holding the old text of a message or default the change replaces. */
function renderStaleAssertions(bundle: AgentBundle): string[] {
  const { staleAssertions } = bundle.evidence;
  if (staleAssertions.length === 0) return [];
  return [
    `## Stale assertions (${staleAssertions.length})`,
    '',
    renderTable(
      ['test line', 'old', 'new', 'changed at'],
      staleAssertions
        .slice(0, LIST_LIMIT)
        .map((item) => [
          `${item.testFile}:${item.testLine}`,
          item.literalKind === 'default' ? `${item.name} = ${item.before}` : item.before,
          item.after === '' ? '(removed)' : item.after,
          `${item.path}:${item.line}`,
        ]),
    ) + renderMore(LIST_LIMIT, staleAssertions.length, 'stale assertions'),
    '',
  ];
}

/** Failed product checks, their reruns and their output (fenced: untrusted). */
function renderProductFailures(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  if (evidence.productFailures.length > 0 || bundle.verification.productRun.status !== 'absent') {
    out.push(`## Product verification failures (${evidence.productFailures.length})`, '');
    const run = bundle.verification.productRun;
    out.push(
      run.status === 'read'
        ? `Latest product run of ${escapeMarkdownInline(run.target ?? '')} at ${escapeMarkdownInline(run.generatedAt ?? '')}: ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped.`
        : 'The latest product run could not be used (see limitations).',
      '',
    );
    for (const failure of evidence.productFailures.slice(0, LIST_LIMIT)) {
      out.push(`### ${escapeMarkdownInline(failure.checkId)} (${failure.checkKind})`, '', `Rerun: \`${failure.rerunCommand}\``, '');
      if (failure.impactedFiles.length > 0)
        out.push(`Impacted files: ${failure.impactedFiles.map((path) => escapeMarkdownInline(path)).join(', ')}`, '');
      const text = [
        `title: ${failure.title}`,
        ...(failure.expected === undefined ? [] : [`expected: ${failure.expected}`]),
        ...(failure.actual === undefined ? [] : [`actual: ${failure.actual}`]),
      ].join('\n');
      out.push(fenceUntrusted(text, `product check ${failure.checkId} output`), '');
    }
  }
  return out;
}

/** Merge risk and decay with their contributors. */
function renderRiskAndDecay(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  out.push('## Merge risk and decay', '');
  out.push(
    `Merge risk ${evidence.summary.mergeRisk.score}/100 (${evidence.summary.mergeRisk.level}); decay ${evidence.summary.decay.score}/100 (${evidence.summary.decay.level}).`,
    '',
  );
  const contributors = [
    ...evidence.summary.mergeRiskBreakdown.map((item) => [
      'merge risk',
      item.contributor,
      item.weight,
      item.detail,
      item.evidenceIds.join(', '),
    ]),
    ...evidence.summary.decayBreakdown.map((item) => ['decay', item.contributor, item.weight, item.detail, item.evidenceIds.join(', ')]),
  ];
  if (contributors.length > 0)
    out.push(
      renderTable(['score', 'contributor', 'weight', 'detail', 'evidence'], contributors.slice(0, LIST_LIMIT)) +
        renderMore(LIST_LIMIT, contributors.length, 'contributors'),
      '',
    );
  return out;
}

/** Coverage reports found and how fresh they are. */
function renderTestEvidence(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  out.push('## Runtime test evidence', '');
  const test = evidence.testEvidence;
  out.push(
    `${test.found ? `${countOf(test.sources.length, 'coverage source')}, ${test.freshness}` : 'No coverage report found'}. ${escapeMarkdownInline(test.note)}`,
    '',
  );
  if (test.sources.length > 0)
    out.push(
      renderTable(
        ['source', 'kind', 'generated', 'files', 'fresh'],
        test.sources.map((source) => [
          source.path,
          source.kind,
          source.generatedAt,
          source.files,
          source.fresh === null ? 'unknown' : source.fresh ? 'yes' : 'no',
        ]),
      ),
      '',
    );
  return out;
}

/** The top edge cases, then the ranked overflow. */
function renderEdgeCases(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  const edges = evidence.edgeCases;
  if (edges.top.length > 0) {
    out.push(`## Edge cases (top ${edges.top.length} of ${edges.top.length + edges.overflow.length})`, '');
    out.push(
      renderTable(
        ['edge case', 'trigger', 'expected', 'user-visible failure', 'confidence', 'proof'],
        edges.top.map((edge) => [
          edge.title,
          edge.trigger,
          edge.expectedBehavior,
          edge.userVisibleFailure,
          edge.confidence,
          edge.recommendedProof,
        ]),
      ),
      '',
    );
    if (edges.overflow.length > 0)
      out.push(
        `Ranked overflow: ${edges.overflow
          .slice(0, LIST_LIMIT)
          .map((edge) => escapeMarkdownInline(edge.title))
          .join('; ')}${renderMore(LIST_LIMIT, edges.overflow.length, 'edge cases')}`,
        '',
      );
  }
  return out;
}

/** The user's requirements, kept apart from the evidence. */
function renderRequirements(bundle: AgentBundle): string[] {
  const out: string[] = [];
  const requirements = bundle.requirements;
  if (requirements !== undefined) {
    out.push('## Requirements (from the user, kept apart from the evidence)', '');
    out.push(
      `File ${escapeMarkdownInline(requirements.path)}, sha256 ${requirements.sha256}. ${requirements.acceptanceCriteria.length} acceptance criteria, ${requirements.affectedFlows.length} affected flows.`,
      '',
    );
    if (requirements.affectedFlows.length > 0) {
      out.push(
        renderTable(
          ['flow', 'kind', 'matched routes'],
          requirements.affectedFlows.map((flow) => [
            flow.id,
            flow.kind,
            flow.matchedRoutes.join(', ') || (flow.kind === 'api' ? 'none' : 'n/a'),
          ]),
        ),
        '',
      );
    }
    const text = [
      ...requirements.acceptanceCriteria.flatMap((criterion) => [
        `${criterion.criterionId}: ${criterion.text}`,
        ...criterion.requiredProof.map((proof) => `  required proof: ${proof}`),
      ]),
      ...requirements.affectedFlows.map((flow) => `${flow.id}: ${flow.name}${flow.route === undefined ? '' : ` [${flow.route}]`}`),
      ...requirements.nonGoals.map((item) => `non-goal: ${item}`),
      ...requirements.invariants.map((item) => `invariant: ${item}`),
      ...requirements.architectureConstraints.map((item) => `architecture constraint: ${item}`),
      ...requirements.unresolvedQuestions.map((item) => `unresolved question: ${item}`),
    ];
    if (text.length > 0) out.push(fenceUntrusted(text.join('\n'), `requirements ${requirements.path}`), '');
  }
  return out;
}

/** Results of the checks run with --with-checks. */
function renderVerification(bundle: AgentBundle): string[] {
  const out: string[] = [];
  const run = bundle.verification.checks;
  if (run !== undefined) {
    out.push(
      `## Verification results (--with-checks, run ${run.runId})`,
      '',
      `${escapeMarkdownInline(bundle.execution.checks.reason)}.`,
      '',
    );
    if (run.results.length > 0)
      out.push(
        renderTable(
          ['check', 'status', 'why', 'time'],
          run.results.map((check) => [
            check.id,
            check.status,
            check.reason,
            check.durationMs === undefined ? '—' : `${(check.durationMs / 1000).toFixed(1)} s`,
          ]),
        ),
        '',
      );
    for (const check of run.results)
      if (check.output !== undefined) out.push(fenceUntrusted(check.output, `output of check ${check.id} (its end)`), '');
  }
  return out;
}

/** Configured checks and tool adapters. */
function renderChecks(bundle: AgentBundle): string[] {
  const run = bundle.verification.checks;
  const out: string[] = [];
  out.push(run?.gateOpen === true ? '## Checks and tool adapters' : '## Checks and tool adapters (available, not run)', '');
  if (bundle.checks.length === 0 && bundle.toolAdapters.length === 0) out.push('None configured.', '');
  if (bundle.checks.length > 0) {
    out.push(
      renderTable(
        ['check', 'source', 'will run'],
        bundle.checks.map((check) => [check.name, check.source, 'no']),
      ),
      '',
    );
    out.push(fenceUntrusted(bundle.checks.map((check) => `${check.name}: ${check.command}`).join('\n'), 'configured check commands'), '');
  }
  if (bundle.toolAdapters.length > 0)
    out.push(
      renderTable(
        ['adapter', 'enabled', 'will run'],
        bundle.toolAdapters.map((adapter) => [adapter.kind, adapter.enabled ? 'yes' : 'no', 'no']),
      ),
      '',
    );
  return out;
}

/** Repo-local skills (summaries only). */
function renderSkills(bundle: AgentBundle): string[] {
  const out: string[] = [];
  if (bundle.skills.length > 0) {
    out.push(`## Repo-local skills (${bundle.skills.length}, summaries only, never run)`, '');
    out.push(
      fenceUntrusted(bundle.skills.map((skill) => `${skill.name} (${skill.path}): ${skill.description}`).join('\n'), 'repo-local skills'),
      '',
    );
  }
  return out;
}

/** What the history found (the window alone stays in the JSON). */
function renderHistory(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  const { history } = evidence;
  // Only what the history found earns a place in the agent's brief; the window alone is in the JSON.
  if (history !== undefined && history.missedPartners.length + history.fixProne.length + history.hotspots.length > 0)
    out.push('## History', '', renderHistoryInsights(history).trimEnd(), '');
  return out;
}

/** Owners, contracts, decision records and memory. */
function renderOwnersAndMemory(bundle: AgentBundle): string[] {
  const { evidence } = bundle;
  const out: string[] = [];
  if (evidence.owners.length + evidence.decisions.length + evidence.memory.length + evidence.contracts.length > 0) {
    out.push('## Owners, decisions and memory', '');
    if (evidence.owners.length > 0)
      out.push(
        renderTable(
          ['owner', 'files'],
          evidence.owners.map((owner) => [owner.owner, owner.files.join(', ')]),
        ),
        '',
      );
    if (evidence.contracts.length > 0)
      out.push(
        renderTable(
          ['contract', 'from', 'imports', 'at'],
          evidence.contracts.map((contract) => [contract.id, contract.from, contract.to, `${contract.specifier} (line ${contract.line})`]),
        ),
        '',
      );
    if (evidence.decisions.length > 0)
      out.push(
        fenceUntrusted(evidence.decisions.map((decision) => `${decision.path}: ${decision.title}`).join('\n'), 'decision records'),
        '',
      );
    if (evidence.memory.length > 0)
      out.push(fenceUntrusted(evidence.memory.map((entry) => `${entry.id} (${entry.kind}): ${entry.text}`).join('\n'), 'memory'), '');
  }
  return out;
}

/** Limitations, grouped. */
function renderLimitations(bundle: AgentBundle): string[] {
  const out: string[] = [];
  out.push(`## Limitations (${bundle.limitations.length})`, '');
  out.push(
    bundle.limitations.length === 0
      ? 'None recorded.'
      : renderGroupedLimitations(bundle.limitations, LIST_LIMIT * 2, (item) => escapeMarkdownInline(item.message)),
    '',
  );
  return out;
}

/** What ran, what was called, and the investigation. */
function renderSafety(bundle: AgentBundle): string[] {
  const out: string[] = [];
  out.push('## Safety and execution', '');
  out.push(...bundle.safety.map((note) => `- ${escapeMarkdownInline(note)}`));
  out.push(
    `- ${describeInvestigationRecord(bundle.execution.investigation)} Checks ran: ${bundle.execution.checks.ran ? `yes (run ${bundle.execution.checks.runId ?? '?'})` : 'no'}. Model called: ${bundle.execution.modelCalled ? 'yes' : 'no'}. Network used: ${bundle.execution.network ? 'yes' : 'no'}. Coding agent called: no.`,
    `- Verification in hand: proof states ${
      Object.entries(bundle.verification.proofStates)
        .map(([state, count]) => `${state} ${count}`)
        .join(', ') || 'none'
    }; ${bundle.verification.reachingTests} reaching test files; product run ${bundle.verification.productRun.status}.`,
    '',
  );
  if (bundle.investigation !== undefined) out.push(renderInvestigationSection(bundle.investigation), '');
  return out;
}

/** The prompt inside a fence longer than any backtick run it contains, so it copies as one block. */
function wrapPrompt(prompt: string): string {
  const runs = prompt.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(4, runs.reduce((max, run) => Math.max(max, run.length), 0) + 1));
  return `${fence}markdown\n${prompt.endsWith('\n') ? prompt : `${prompt}\n`}${fence}`;
}
