import type { ProofStep } from '../model/preflight.js';
import type { SessionResult } from '../model/session.js';
import { escapeMarkdownInline, fenceUntrusted } from '../text/fence.js';
import { renderContextMarkdown } from './context-markdown.js';
import { renderTable } from './markdown-table.js';
import { countOf } from '../text/plural.js';

/** Markdown of a session operation result (start, context, checkpoint, finish). */
export function renderSessionMarkdown(result: SessionResult): string {
  const parts: string[] = [];
  parts.push(`# Session ${escapeMarkdownInline(result.sessionId)}: ${result.operation}\n\n${escapeMarkdownInline(result.message, 4000)}`);
  parts.push(`Status: ${result.status}. Session file: ${escapeMarkdownInline(result.sessionPath)}.`);
  if (result.stale.isStale) {
    parts.push(
      `**Stale:** ${countOf(result.stale.changedFiles.length, 'file')} changed since the last observation; a checkpoint is requested.\n\n${result.stale.changedFiles
        .slice(0, 30)
        .map((path) => `- ${escapeMarkdownInline(path)}`)
        .join('\n')}`,
    );
  }
  if (result.preflight !== undefined) {
    const preflight = result.preflight;
    parts.push(`## Preflight guidance\n\nConfidence: ${preflight.confidence} (${escapeMarkdownInline(preflight.confidenceReason)})`);
    if (preflight.candidateFiles.length > 0)
      parts.push(
        renderTable(
          ['Candidate file', 'Why'],
          preflight.candidateFiles.slice(0, 20).map((file) => [file.path, file.why]),
        ),
      );
    if (preflight.unresolvedQuestions.length > 0)
      parts.push(preflight.unresolvedQuestions.map((question) => `- ${escapeMarkdownInline(question)}`).join('\n'));
    if (preflight.proofPlan.length > 0) parts.push(renderProofPlan(preflight.proofPlan));
  }
  if (result.checkpoint !== undefined) {
    const checkpoint = result.checkpoint;
    parts.push(
      `## Checkpoint ${checkpoint.seq} (${checkpoint.kind})\n\n${checkpoint.redactions.length > 0 ? `Redacted: ${checkpoint.redactions.map((entry) => `${entry.rule} ×${entry.count}`).join(', ')}. ` : ''}${checkpoint.truncated ? 'Truncated to the size cap. ' : ''}${checkpoint.diffFingerprint === undefined ? '' : `Diff fingerprint ${checkpoint.diffFingerprint.slice(0, 16)} over ${countOf(checkpoint.diffFiles?.length ?? 0, 'file')}.`}\n\n${fenceUntrusted(checkpoint.summary, 'agent checkpoint summary')}`,
    );
  }
  if (result.finish !== undefined) {
    const boundary = result.finish.verificationBoundary;
    parts.push(
      `## Verification boundary\n\nTree ${result.finish.tree.fingerprint.slice(0, 16)} (${result.finish.tree.fileCount} files); ${countOf(boundary.changedFiles.length, 'changed file')}.`,
    );
    const checks = [...boundary.allowedChecks, ...boundary.blockedChecks];
    if (checks.length > 0)
      parts.push(
        renderTable(
          ['Check', 'Allowed', 'Why'],
          checks.map((check) => [check.name, check.allowedByPolicy ? 'yes' : 'no', check.reason]),
        ),
      );
    else parts.push('No configured checks.');
    if (boundary.acceptanceCriteria.length > 0) {
      const count = boundary.acceptanceCriteria.length;
      parts.push(
        `### Acceptance criteria still needing proof\n\n${count} acceptance ${count === 1 ? 'criterion still needs' : 'criteria still need'} proof: ${boundary.acceptanceCriteria.map((criterion) => toIdCode(criterion.id)).join(', ')}.\n\n${fenceUntrusted(renderCriteria(boundary.acceptanceCriteria), 'acceptance criteria from the requirements')}`,
      );
    }
    parts.push(boundary.notes.map((note) => `- ${escapeMarkdownInline(note)}`).join('\n'));
  }
  let text = `${parts.join('\n\n')}\n`;
  if (result.context !== undefined) text += `\n${renderContextMarkdown(result.context)}`;
  return text;
}

const ACCEPTANCE_PREFIX = 'proof:acceptance:';

/** A criterion id from the requirements file, as inline code that no backtick in it can close. */
function toIdCode(id: string): string {
  return `\`${escapeMarkdownInline(id, 80).replace(/\\`/g, "'")}\``;
}

/** The criteria as plain lines for one untrusted fence: their text and required proof are what the requirements file says. */
function renderCriteria(criteria: readonly { id: string; text: string; requiredProof: readonly string[] }[]): string {
  const lines: string[] = [];
  for (const criterion of criteria) {
    lines.push(`- ${criterion.id}: ${criterion.text}`);
    if (criterion.requiredProof.length > 0) lines.push(`  required proof: ${criterion.requiredProof.join('; ')}`);
  }
  return lines.join('\n');
}

/**
 * The proof plan as preflight shows it: a step built from an acceptance criterion names the criterion and points at
 * the fence below, which quotes its text and required proof; every other step is checker's own words.
 */
function renderProofPlan(plan: readonly ProofStep[]): string {
  const criteria: { id: string; text: string; requiredProof: readonly string[] }[] = [];
  const steps = plan.map((step, index) => {
    if (step.kind !== 'acceptance-criterion') return `${index + 1}. ${escapeMarkdownInline(step.text)}`;
    const id = step.id.startsWith(ACCEPTANCE_PREFIX) ? step.id.slice(ACCEPTANCE_PREFIX.length) : step.id;
    const ours = `Prove acceptance criterion ${id}: `;
    criteria.push({
      id,
      text: step.text.startsWith(ours) ? step.text.slice(ours.length) : step.text,
      requiredProof: step.requiredProof ?? [],
    });
    return `${index + 1}. Prove acceptance criterion ${toIdCode(id)} (its text and required proof are quoted below)`;
  });
  const quoted =
    criteria.length === 0 ? '' : `\n\n${fenceUntrusted(renderCriteria(criteria), 'acceptance criteria from the requirements')}`;
  return `### Proof plan\n\n${steps.join('\n')}${quoted}`;
}
