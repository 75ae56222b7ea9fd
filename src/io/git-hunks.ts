import { diffArrays } from 'diff';
import type { Hunk } from '../model/change.js';

export interface LineDiff {
  hunks: Hunk[];
  additions: number;
  deletions: number;
}

const BINARY_PROBE_BYTES = 8192;
/** Past this many edits the Myers diff gives up and the differing middle becomes one hunk. */
const MAX_EDIT_LENGTH = 5000;

/** Git's heuristic: a NUL byte in the first 8 KiB makes content binary. */
export function isBinaryContent(content: Uint8Array): boolean {
  const end = Math.min(content.length, BINARY_PROBE_BYTES);
  for (let index = 0; index < end; index += 1) if (content[index] === 0) return true;
  return false;
}

/** Lines with their terminators kept, so a missing final newline counts as a change to the last line (as in git). */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  const lines = parts.map((part, index) => (index < parts.length - 1 ? `${part}\n` : part));
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Zero-context hunks between two texts, numbered like `git diff -U0` (a side with 0 lines names the line before). */
export function diffTextLines(oldText: string, newText: string): LineDiff {
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < oldLines.length - prefix &&
    suffix < newLines.length - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const oldMiddle = oldLines.slice(prefix, oldLines.length - suffix);
  const newMiddle = newLines.slice(prefix, newLines.length - suffix);
  if (oldMiddle.length === 0 && newMiddle.length === 0) return { hunks: [], additions: 0, deletions: 0 };
  const changes =
    oldMiddle.length === 0 || newMiddle.length === 0 ? undefined : diffArrays(oldMiddle, newMiddle, { maxEditLength: MAX_EDIT_LENGTH });
  const hunks: Hunk[] = [];
  if (changes === undefined) {
    hunks.push(toHunk(prefix, oldMiddle.length, prefix, newMiddle.length));
  } else {
    let oldLine = prefix;
    let newLine = prefix;
    let open: { oldAt: number; oldCount: number; newAt: number; newCount: number } | undefined;
    for (const change of changes) {
      const count = change.value.length;
      if (!change.added && !change.removed) {
        if (open !== undefined) hunks.push(toHunk(open.oldAt, open.oldCount, open.newAt, open.newCount));
        open = undefined;
        oldLine += count;
        newLine += count;
        continue;
      }
      open ??= { oldAt: oldLine, oldCount: 0, newAt: newLine, newCount: 0 };
      if (change.removed) {
        open.oldCount += count;
        oldLine += count;
      } else {
        open.newCount += count;
        newLine += count;
      }
    }
    if (open !== undefined) hunks.push(toHunk(open.oldAt, open.oldCount, open.newAt, open.newCount));
  }
  let additions = 0;
  let deletions = 0;
  for (const hunk of hunks) {
    additions += hunk.newLines;
    deletions += hunk.oldLines;
  }
  return { hunks, additions, deletions };
}

/** `before` is the number of lines preceding the hunk on that side. */
function toHunk(oldBefore: number, oldLines: number, newBefore: number, newLines: number): Hunk {
  return {
    oldStart: oldLines === 0 ? oldBefore : oldBefore + 1,
    oldLines,
    newStart: newLines === 0 ? newBefore : newBefore + 1,
    newLines,
  };
}

/** Shared lines (as a multiset) over the longer file's line count: 1 for identical texts, 0 for disjoint ones. */
/** Share of the old file's lines that survive in the new one (how much of the source a rename kept). */
export function measureLineRetention(oldText: string, newText: string): number {
  const oldLines = splitLines(oldText)
    .map((line) => line.replace(/\r?\n$/, '').trim())
    .filter((line) => line !== '');
  if (oldLines.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const line of splitLines(newText).map((entry) => entry.replace(/\r?\n$/, '').trim())) counts.set(line, (counts.get(line) ?? 0) + 1);
  let kept = 0;
  for (const line of oldLines) {
    const left = counts.get(line) ?? 0;
    if (left > 0) {
      kept += 1;
      counts.set(line, left - 1);
    }
  }
  return kept / oldLines.length;
}

export function measureLineSimilarity(oldText: string, newText: string): number {
  const oldLines = splitLines(oldText).map((line) => line.replace(/\r?\n$/, ''));
  const newLines = splitLines(newText).map((line) => line.replace(/\r?\n$/, ''));
  const longest = Math.max(oldLines.length, newLines.length);
  if (longest === 0) return 1;
  const counts = new Map<string, number>();
  for (const line of oldLines) counts.set(line, (counts.get(line) ?? 0) + 1);
  let shared = 0;
  for (const line of newLines) {
    const left = counts.get(line) ?? 0;
    if (left > 0) {
      shared += 1;
      counts.set(line, left - 1);
    }
  }
  return shared / longest;
}
