import { diffArrays } from 'diff';
import type { Hunk } from '../model/change.js';

export interface LineDiff {
  hunks: Hunk[];
  additions: number;
  deletions: number;
}

const BINARY_PROBE_BYTES = 8192;
/**
 * Past this many edits the Myers diff gives up on a region (its cost grows with their square: 5,000 took 1.8 s on a
 * bundled file) and the region is split at patience anchors instead.
 */
const MAX_EDIT_LENGTH = 1000;

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
  const matches: LineMatch[] = [];
  matchLines(oldLines, newLines, { oldStart: 0, oldEnd: oldLines.length, newStart: 0, newEnd: newLines.length }, matches, 0);
  const edits: Edit[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const match of [...matches, { old: oldLines.length, new: newLines.length, length: 0 }]) {
    if (match.old > oldLine || match.new > newLine)
      edits.push({ old: oldLine, oldCount: match.old - oldLine, new: newLine, newCount: match.new - newLine });
    oldLine = match.old + match.length;
    newLine = match.new + match.length;
  }
  for (const [index, edit] of edits.entries()) slideEdit(edit, oldLines, newLines, edits[index - 1], edits[index + 1]);
  const hunks = edits.map((edit) => toHunk(edit.old, edit.oldCount, edit.new, edit.newCount));
  let additions = 0;
  let deletions = 0;
  for (const hunk of hunks) {
    additions += hunk.newLines;
    deletions += hunk.oldLines;
  }
  return { hunks, additions, deletions };
}

/** One hunk before numbering: `oldCount` lines at `old` replaced by `newCount` at `new` (0-based). */
interface Edit {
  old: number;
  oldCount: number;
  new: number;
  newCount: number;
}

/**
 * Places a hunk that only adds (or only removes) lines where git would show it. Such a block can often slide: when its
 * first line equals the line after it, the same edit reads one line lower (`  }` / new method / … read as an added `  }`
 * that closes the method above, which the change never touched). Like git's compaction heuristic, the block goes to the
 * lowest place where it ends with a blank line, else as low as it slides; it never crosses a neighbouring hunk.
 */
function slideEdit(edit: Edit, oldLines: readonly string[], newLines: readonly string[], previous?: Edit, next?: Edit): void {
  const isInsertion = edit.oldCount === 0 && edit.newCount > 0;
  if (!isInsertion && !(edit.newCount === 0 && edit.oldCount > 0)) return;
  const lines = isInsertion ? newLines : oldLines;
  const count = isInsertion ? edit.newCount : edit.oldCount;
  const side = (at: Edit | undefined): number | undefined => (at === undefined ? undefined : isInsertion ? at.new : at.old);
  const sideCount = (at: Edit): number => (isInsertion ? at.newCount : at.oldCount);
  const floor = previous === undefined ? 0 : (side(previous) ?? 0) + sideCount(previous);
  const ceiling = side(next) ?? lines.length;
  let start = isInsertion ? edit.new : edit.old;
  while (start > floor && lines[start - 1] === lines[start + count - 1]) start -= 1;
  let chosen: number | undefined;
  for (;;) {
    if ((lines[start + count - 1] ?? '').trim() === '') chosen = start;
    if (start + count >= ceiling || lines[start] !== lines[start + count]) break;
    start += 1;
  }
  const shift = (chosen ?? start) - (isInsertion ? edit.new : edit.old);
  edit.old += shift;
  edit.new += shift;
}

/** A run of `length` equal lines at `old` and `new` (0-based). */
interface LineMatch {
  old: number;
  new: number;
  length: number;
}

interface LineRange {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** Splits at anchors nest at most this deep; past it a region the Myers diff gives up on is one hunk. */
const MAX_ANCHOR_DEPTH = 32;

/**
 * Appends, in order, the runs of lines `range` keeps: the common ends, then the middle by the Myers diff. When that
 * gives up (more than MAX_EDIT_LENGTH edits, where it costs about their square), the middle is split at the lines that
 * occur exactly once on each side, in the same order (patience anchors), and each piece is matched alone; with no
 * anchors it is one hunk.
 */
function matchLines(oldLines: string[], newLines: string[], range: LineRange, out: LineMatch[], depth: number): void {
  let { oldStart, oldEnd, newStart, newEnd } = range;
  let prefix = 0;
  while (oldStart + prefix < oldEnd && newStart + prefix < newEnd && oldLines[oldStart + prefix] === newLines[newStart + prefix])
    prefix += 1;
  if (prefix > 0) out.push({ old: oldStart, new: newStart, length: prefix });
  oldStart += prefix;
  newStart += prefix;
  let suffix = 0;
  while (oldEnd - suffix > oldStart && newEnd - suffix > newStart && oldLines[oldEnd - 1 - suffix] === newLines[newEnd - 1 - suffix])
    suffix += 1;
  oldEnd -= suffix;
  newEnd -= suffix;
  if (oldStart < oldEnd && newStart < newEnd) {
    const middle = { oldStart, oldEnd, newStart, newEnd };
    const anchors =
      matchByMyers(oldLines, newLines, middle, out) || depth >= MAX_ANCHOR_DEPTH ? [] : findAnchors(oldLines, newLines, middle);
    let oldAt = oldStart;
    let newAt = newStart;
    for (const anchor of anchors) {
      matchLines(oldLines, newLines, { oldStart: oldAt, oldEnd: anchor.old, newStart: newAt, newEnd: anchor.new }, out, depth + 1);
      out.push(anchor);
      oldAt = anchor.old + anchor.length;
      newAt = anchor.new + anchor.length;
    }
    if (anchors.length > 0) matchLines(oldLines, newLines, { oldStart: oldAt, oldEnd, newStart: newAt, newEnd }, out, depth + 1);
  }
  if (suffix > 0) out.push({ old: oldEnd, new: newEnd, length: suffix });
}

/** Matches the region by the Myers diff (the `diff` package); false, with nothing appended, when it gives up. */
function matchByMyers(oldLines: string[], newLines: string[], range: LineRange, out: LineMatch[]): boolean {
  const changes = diffArrays(oldLines.slice(range.oldStart, range.oldEnd), newLines.slice(range.newStart, range.newEnd), {
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (changes === undefined) return false;
  let oldLine = range.oldStart;
  let newLine = range.newStart;
  for (const change of changes) {
    const count = change.value.length;
    if (!change.added && !change.removed) out.push({ old: oldLine, new: newLine, length: count });
    if (!change.added) oldLine += count;
    if (!change.removed) newLine += count;
  }
  return true;
}

/**
 * Lines that occur exactly once in the region on each side, the longest run of them in the same order on both
 * (a longest increasing subsequence of their new positions, taken in old order).
 */
function findAnchors(oldLines: string[], newLines: string[], range: LineRange): LineMatch[] {
  const seen = new Map<string, { oldCount: number; old: number; newCount: number; new: number }>();
  for (let index = range.oldStart; index < range.oldEnd; index += 1) {
    const line = oldLines[index] ?? '';
    const entry = seen.get(line);
    if (entry === undefined) seen.set(line, { oldCount: 1, old: index, newCount: 0, new: -1 });
    else entry.oldCount += 1;
  }
  for (let index = range.newStart; index < range.newEnd; index += 1) {
    const entry = seen.get(newLines[index] ?? '');
    if (entry === undefined) continue;
    entry.newCount += 1;
    entry.new = index;
  }
  const candidates: { old: number; new: number }[] = [];
  for (const entry of seen.values()) if (entry.oldCount === 1 && entry.newCount === 1) candidates.push({ old: entry.old, new: entry.new });
  candidates.sort((a, b) => a.old - b.old);
  // Patience sorting: tails[k] ends the best run of length k + 1; each candidate remembers its predecessor.
  const tails: number[] = [];
  const previous = new Int32Array(candidates.length).fill(-1);
  for (let index = 0; index < candidates.length; index += 1) {
    const value = candidates[index]?.new ?? 0;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((candidates[tails[mid] ?? 0]?.new ?? 0) < value) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[index] = tails[low - 1] ?? -1;
    tails[low] = index;
  }
  const anchors: LineMatch[] = [];
  for (let index = tails[tails.length - 1] ?? -1; index !== -1; index = previous[index] ?? -1) {
    const candidate = candidates[index];
    if (candidate !== undefined) anchors.push({ old: candidate.old, new: candidate.new, length: 1 });
  }
  return anchors.reverse();
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

/** Shared lines (as a multiset) over the longer file's line count: 1 for identical texts, 0 for disjoint ones. */
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
