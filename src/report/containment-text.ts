import type { Containment } from '../model/command.js';
import { escapeMarkdownInline } from '../text/fence.js';

/**
 * One line on how the runs' processes were kept from outliving them, each distinct way once: `containment:
 * pid-namespace (how)` or `process-group only: why`. undefined when nothing ran.
 */
export function renderContainmentLine(runs: readonly { containment?: Containment | undefined }[]): string | undefined {
  const seen = new Set<string>();
  for (const { containment } of runs) {
    if (containment === undefined) continue;
    const text =
      containment.mode === 'pid-namespace'
        ? `containment: pid-namespace (${containment.detail})`
        : `process-group only: ${containment.detail}`;
    seen.add(text);
  }
  if (seen.size === 0) return undefined;
  return `Processes: ${[...seen].map((text) => escapeMarkdownInline(text, 400)).join('; ')}.`;
}
