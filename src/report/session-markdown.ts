import type { SessionResult } from '../model/session.js';
import { escapeMarkdownInline, fenceUntrusted } from '../text/fence.js';
import { renderContextMarkdown } from './context-markdown.js';
import { renderTable } from './markdown-table.js';

/** Markdown of a session operation result (start, context, checkpoint, finish). */
export function renderSessionMarkdown(result: SessionResult): string {
  const parts: string[] = [];
  parts.push(`# Session ${escapeMarkdownInline(result.sessionId)}: ${result.operation}\n\n${escapeMarkdownInline(result.message, 4000)}`);
  parts.push(`Status: ${result.status}. Session file: ${escapeMarkdownInline(result.sessionPath)}.`);
  if (result.stale.isStale) {
    parts.push(
      `**Stale:** ${result.stale.changedFiles.length} file(s) changed since the last observation; a checkpoint is requested.\n\n${result.stale.changedFiles
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
    if (preflight.proofPlan.length > 0)
      parts.push(
        `### Proof plan\n\n${preflight.proofPlan.map((step, index) => `${index + 1}. ${escapeMarkdownInline(step.text)}`).join('\n')}`,
      );
  }
  if (result.checkpoint !== undefined) {
    const checkpoint = result.checkpoint;
    parts.push(
      `## Checkpoint ${checkpoint.seq} (${checkpoint.kind})\n\n${checkpoint.redactions.length > 0 ? `Redacted: ${checkpoint.redactions.map((entry) => `${entry.rule} ×${entry.count}`).join(', ')}. ` : ''}${checkpoint.truncated ? 'Truncated to the size cap. ' : ''}${checkpoint.diffFingerprint === undefined ? '' : `Diff fingerprint ${checkpoint.diffFingerprint.slice(0, 16)} over ${checkpoint.diffFiles?.length ?? 0} file(s).`}\n\n${fenceUntrusted(checkpoint.summary, 'agent checkpoint summary')}`,
    );
  }
  if (result.finish !== undefined) {
    const boundary = result.finish.verificationBoundary;
    parts.push(
      `## Verification boundary\n\nTree ${result.finish.tree.fingerprint.slice(0, 16)} (${result.finish.tree.fileCount} files); ${boundary.changedFiles.length} changed file(s).`,
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
      parts.push(
        `### Acceptance criteria still needing proof\n\n${renderTable(
          ['Criterion', 'Text', 'Required proof'],
          boundary.acceptanceCriteria.map((criterion) => [criterion.id, criterion.text, criterion.requiredProof.join('; ')]),
        )}`,
      );
    }
    parts.push(boundary.notes.map((note) => `- ${escapeMarkdownInline(note)}`).join('\n'));
  }
  let text = `${parts.join('\n\n')}\n`;
  if (result.context !== undefined) text += `\n${renderContextMarkdown(result.context)}`;
  return text;
}
