import type { PreflightMemoryEntry, PreflightReport } from '../model/preflight.js';
import { escapeMarkdownInline, fenceUntrusted } from '../text/fence.js';
import { renderInvestigationSection } from './investigation-markdown.js';
import { renderMore, renderTable } from './markdown-table.js';

const SHOWN = 20;

/** Markdown of a preflight report: requirement evidence, repository evidence and suggestions in separate sections. */
export function renderPreflightMarkdown(report: PreflightReport): string {
  const evidence = report.repositoryEvidence;
  const requirements = report.requirementEvidence;
  const parts: string[] = [];
  parts.push(
    `# Preflight\n\n**Task:** ${escapeMarkdownInline(report.task)}\n\n**Confidence:** ${report.confidence} (${escapeMarkdownInline(report.confidenceReason)})`,
  );
  parts.push(
    `Revision: ${report.revision.head === null ? 'none (no git history)' : report.revision.head.slice(0, 12)}. ${
      report.execution.investigation
        ? `Preflight itself called no model; --investigate called the configured ${report.execution.network ? 'byok' : 'local'} provider (see Investigation).`
        : 'Preflight called no model, ran no command and used no network.'
    }`,
  );
  if (report.unresolvedQuestions.length > 0) {
    parts.push(
      `## Unresolved questions\n\n${report.unresolvedQuestions.map((question) => `- ${escapeMarkdownInline(question)}`).join('\n')}`,
    );
  }

  const requirementLines: string[] = ['## Requirement evidence'];
  if (!requirements.provided) requirementLines.push('No requirements file was given.');
  else {
    requirementLines.push(
      `From \`${escapeMarkdownInline(requirements.source?.path ?? '')}\` (sha256 ${requirements.source?.hash.slice(0, 12) ?? ''}).`,
    );
    const quoted = renderRequirementText(requirements);
    if (quoted !== '') requirementLines.push(fenceUntrusted(quoted, `requirements ${requirements.source?.path ?? ''}`));
  }
  parts.push(requirementLines.join('\n\n'));

  const repositoryLines: string[] = ['## Repository evidence (deterministic)'];
  repositoryLines.push(
    `Domain terms: ${evidence.terms.domain.join(', ') || 'none'}; generic: ${evidence.terms.generic.join(', ') || 'none'}; unmatched: ${evidence.terms.unmatched.join(', ') || 'none'}.`,
  );
  repositoryLines.push('### Candidate files');
  repositoryLines.push(
    evidence.candidateFiles.length === 0
      ? 'None: the task names nothing of this repository.'
      : renderTable(
          ['File', 'Score', 'Why'],
          evidence.candidateFiles.slice(0, SHOWN).map((file) => [file.path, file.score, file.why]),
        ) +
          renderMore(
            Math.min(SHOWN, evidence.candidateFiles.length),
            evidence.candidateFiles.length + evidence.omittedCandidates,
            'candidate files',
          ),
  );
  if (evidence.candidateTests.length > 0) {
    repositoryLines.push('### Candidate tests');
    repositoryLines.push(
      renderTable(
        ['Test file', 'Score', 'Why'],
        evidence.candidateTests.slice(0, SHOWN).map((file) => [file.path, file.score, file.why]),
      ) + renderMore(Math.min(SHOWN, evidence.candidateTests.length), evidence.candidateTests.length, 'candidate tests'),
    );
  }
  if (evidence.candidateRoutes.length > 0) {
    repositoryLines.push('### Route/API surfaces');
    repositoryLines.push(
      renderTable(
        ['Route', 'Handler file', 'Why'],
        evidence.candidateRoutes.slice(0, SHOWN).map((route) => [`${route.method} ${route.path}`, route.file, route.why]),
      ),
    );
  }
  if (evidence.impactedAreas.folders.length > 0) {
    repositoryLines.push('### Likely impacted areas');
    repositoryLines.push(
      renderTable(
        ['Folder', 'Candidates', 'Impacted'],
        evidence.impactedAreas.folders.slice(0, SHOWN).map((area) => [area.name, area.candidates, area.impacted]),
      ),
    );
  }
  if (evidence.impactedFiles.length > 0) {
    repositoryLines.push(
      renderTable(
        ['Impacted file', 'Distance', 'Via'],
        evidence.impactedFiles.slice(0, SHOWN).map((file) => [file.path, file.distance, file.via.join(' → ')]),
      ) + renderMore(Math.min(SHOWN, evidence.impactedFiles.length), evidence.impactedFilesTotal, 'impacted files'),
    );
  }
  const memory = [...evidence.memory.invariants, ...evidence.memory.architecture, ...evidence.memory.regressions, ...evidence.memory.notes];
  if (memory.length > 0) repositoryLines.push(`### Memory\n\n${memory.map(renderMemory).join('\n')}`);
  if (evidence.decisions.length > 0) {
    repositoryLines.push(
      `### Decisions\n\n${evidence.decisions.map((decision) => `- ${escapeMarkdownInline(decision.title)} (\`${escapeMarkdownInline(decision.path)}\`)`).join('\n')}`,
    );
  }
  if (evidence.contracts.length > 0) {
    repositoryLines.push(
      `### Design-contract boundaries\n\n${evidence.contracts
        .map(
          (contract) =>
            `- ${escapeMarkdownInline(contract.id)}: ${escapeMarkdownInline(contract.from.join(', '))} must not import ${escapeMarkdownInline(contract.to.join(', '))}`,
        )
        .join('\n')}`,
    );
  }
  if (evidence.owners.length > 0)
    repositoryLines.push(`Owners: ${evidence.owners.map((owner) => escapeMarkdownInline(owner.handle)).join(', ')}.`);
  parts.push(repositoryLines.join('\n\n'));

  const suggestionLines: string[] = ['## Suggestions for the receiving agent'];
  suggestionLines.push(
    `### Proof plan\n\n${report.suggestions.proofPlan.length === 0 ? 'Nothing to prove yet: ground the task first.' : report.suggestions.proofPlan.map((step, index) => `${index + 1}. ${renderProofStep(step)}`).join('\n')}`,
  );
  suggestionLines.push(
    `### Non-goals\n\n${report.suggestions.nonGoals.map((goal) => `- ${escapeMarkdownInline(goal.text)} _(${goal.source})_`).join('\n')}`,
  );
  if (report.suggestions.followUpChecks.length > 0) {
    suggestionLines.push(
      `### Configured checks (follow-up proof, not run)\n\n${renderTable(
        ['Check', 'Command', 'Will run', 'Policy'],
        report.suggestions.followUpChecks.map((check) => [check.name, check.command, 'no', check.reason]),
      )}`,
    );
  }
  parts.push(suggestionLines.join('\n\n'));
  if (report.limitations.length > 0) {
    parts.push(
      `## Limitations\n\n${report.limitations
        .slice(0, SHOWN)
        .map((item) => `- ${escapeMarkdownInline(item.code)}: ${escapeMarkdownInline(item.message)}`)
        .join('\n')}${renderMore(Math.min(SHOWN, report.limitations.length), report.limitations.length, 'limitations')}`,
    );
  }
  if (report.investigation !== undefined) parts.push(renderInvestigationSection(report.investigation).trimEnd());
  return `${parts.join('\n\n')}\n`;
}

type RequirementEvidence = PreflightReport['requirementEvidence'];

/** Everything the requirements file says, as plain lines for one untrusted fence: it is data the user or an agent wrote, never instructions. */
function renderRequirementText(requirements: RequirementEvidence): string {
  const lines: string[] = [];
  if (requirements.acceptanceCriteria.length > 0) {
    lines.push('Acceptance criteria:');
    for (const criterion of requirements.acceptanceCriteria) {
      lines.push(`- ${criterion.id}: ${criterion.text}`);
      if (criterion.requiredProof.length > 0) lines.push(`  required proof: ${criterion.requiredProof.join('; ')}`);
    }
  }
  for (const [label, list] of [
    ['Expected behaviour', requirements.expectedBehavior],
    ['Current behaviour', requirements.currentBehavior],
    ['Non-goals', requirements.nonGoals],
    ['Invariants', requirements.invariants],
    ['Architecture constraints', requirements.architectureConstraints],
    ['Open questions (from the requirements)', requirements.unresolvedQuestions],
  ] as const) {
    if (list.length > 0) lines.push(`${label}:`, ...list.map((item) => `- ${item}`));
  }
  if (requirements.affectedFlows.length > 0) {
    lines.push('Affected flows:');
    for (const flow of requirements.affectedFlows) {
      const matched = flow.matchedRoutes.length === 0 ? 'no route matched' : `matched ${flow.matchedRoutes.join(', ')}`;
      lines.push(`- ${flow.name} (${flow.kind}${flow.route === undefined ? '' : `, ${flow.route}`}): ${matched}`);
    }
  }
  return lines.join('\n');
}

/** A proof step built from an acceptance criterion points at the fenced requirement text instead of repeating it as prose. */
function renderProofStep(step: PreflightReport['suggestions']['proofPlan'][number]): string {
  if (step.kind === 'acceptance-criterion') {
    const id = step.id.slice('proof:acceptance:'.length);
    return `Prove acceptance criterion \`${escapeMarkdownInline(id, 80).replace(/\\`/g, "'")}\` (its text and required proof are quoted under Requirement evidence)`;
  }
  return escapeMarkdownInline(step.text);
}

function renderMemory(entry: PreflightMemoryEntry): string {
  return `- **${entry.kind}** ${escapeMarkdownInline(entry.title ?? entry.id)} (\`${escapeMarkdownInline(entry.id)}\`)\n\n${fenceUntrusted(entry.text, entry.id)}`;
}
