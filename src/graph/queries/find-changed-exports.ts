import type { ChangedExport, ChangedFile, Hunk } from '../../model/change.js';
import type { ExportFact, Span } from '../../model/facts.js';

interface ExportGroup {
  name: string;
  spans: Span[];
  /** Lines from the first declaration's start to the last one's end. */
  span: Span;
}

function groupByName(exports: ExportFact[]): Map<string, ExportGroup> {
  const groups = new Map<string, ExportGroup>();
  for (const fact of exports) {
    const group = groups.get(fact.name);
    if (group === undefined) {
      groups.set(fact.name, { name: fact.name, spans: [fact.span], span: { start: fact.span.start, end: fact.span.end } });
      continue;
    }
    group.spans.push(fact.span);
    group.span = { start: Math.min(group.span.start, fact.span.start), end: Math.max(group.span.end, fact.span.end) };
  }
  return groups;
}

/**
 * True when a side of a hunk touches a span: its changed lines overlap the span, or (for a side with
 * no lines, which sits after line `start`) the insertion or deletion point lies between two of the span's lines.
 */
function isSpanTouched(span: Span, start: number, lines: number): boolean {
  if (lines === 0) return span.start <= start && start < span.end;
  return start <= span.end && start + lines - 1 >= span.start;
}

function isGroupTouched(hunks: Hunk[], head: ExportGroup, base: ExportGroup): boolean {
  return hunks.some(
    (hunk) =>
      head.spans.some((span) => isSpanTouched(span, hunk.newStart, hunk.newLines)) ||
      base.spans.some((span) => isSpanTouched(span, hunk.oldStart, hunk.oldLines)),
  );
}

function compareGroups(left: ExportGroup, right: ExportGroup): number {
  return left.span.start - right.span.start || (left.name < right.name ? -1 : left.name > right.name ? 1 : 0);
}

/**
 * The exports of one changed file that were added, removed or modified: head-side exports first
 * (added and modified, by head line), then removed ones (by base line). Exports sharing a name
 * (overloads, a type and a value) count as one, spanning all their declarations. A binary file
 * has no hunks, so only added and removed names are reported for it.
 */
export function findChangedExports(file: ChangedFile, baseExports: ExportFact[], headExports: ExportFact[]): ChangedExport[] {
  const base = file.status === 'added' ? new Map<string, ExportGroup>() : groupByName(baseExports);
  const head = file.status === 'deleted' ? new Map<string, ExportGroup>() : groupByName(headExports);
  const changed: ChangedExport[] = [];
  for (const group of [...head.values()].sort(compareGroups)) {
    const before = base.get(group.name);
    if (before === undefined) {
      changed.push({ path: file.path, name: group.name, change: 'added', span: group.span });
    } else if (isGroupTouched(file.hunks, group, before)) {
      changed.push({ path: file.path, name: group.name, change: 'modified', span: group.span });
    }
  }
  for (const group of [...base.values()].sort(compareGroups)) {
    if (!head.has(group.name)) changed.push({ path: file.path, name: group.name, change: 'removed', span: group.span });
  }
  return changed;
}
