import { isRecord } from '../text/is-record.js';

/** One V8 block-coverage range: character offsets into the script and its execution count. */
export interface V8Range {
  start: number;
  end: number;
  count: number;
}

/** The ranges of a V8 script's `functions`, or undefined when any of them is malformed. */
export function readV8Ranges(functions: unknown): V8Range[] | undefined {
  if (!Array.isArray(functions)) return undefined;
  const ranges: V8Range[] = [];
  for (const fn of functions) {
    const fnRanges = isRecord(fn) ? fn.ranges : undefined;
    if (!Array.isArray(fnRanges)) return undefined;
    for (const range of fnRanges) {
      if (!isRecord(range)) return undefined;
      const { startOffset, endOffset, count } = range;
      if (typeof startOffset !== 'number' || typeof endOffset !== 'number' || typeof count !== 'number') return undefined;
      if (!Number.isInteger(startOffset) || !Number.isInteger(endOffset) || startOffset < 0 || endOffset < startOffset || count < 0)
        return undefined;
      ranges.push({ start: startOffset, end: endOffset, count });
    }
  }
  return ranges;
}

/**
 * Offset of the first character on each line that is neither whitespace nor inside a comment
 * (-1 when the line has none). A small lexer: strings and templates count as code; regex literals
 * are not recognised, which can only misjudge a comment marker inside a regex.
 */
export function findFirstCodeOffsets(source: string): number[] {
  const offsets: number[] = [];
  let first = -1;
  let state: 'code' | 'line-comment' | 'block-comment' | 'single' | 'double' | 'template' = 'code';
  for (let index = 0; index < source.length; index += 1) {
    const code = source.charCodeAt(index);
    if (code === 10) {
      offsets.push(first);
      first = -1;
      if (state === 'line-comment' || state === 'single' || state === 'double') state = 'code';
      continue;
    }
    if (state === 'line-comment') continue;
    if (state === 'block-comment') {
      if (code === 42 && source.charCodeAt(index + 1) === 47) {
        state = 'code';
        index += 1;
      }
      continue;
    }
    if (state === 'single' || state === 'double' || state === 'template') {
      if (first < 0 && code !== 32 && code !== 9 && code !== 13) first = index;
      if (code === 92) index += source.charCodeAt(index + 1) === 10 ? 0 : 1;
      else if ((state === 'single' && code === 39) || (state === 'double' && code === 34) || (state === 'template' && code === 96))
        state = 'code';
      continue;
    }
    if (code === 32 || code === 9 || code === 13 || code === 0xfeff || code === 11 || code === 12) continue;
    if (code === 47) {
      const next = source.charCodeAt(index + 1);
      if (next === 47) {
        state = 'line-comment';
        index += 1;
        continue;
      }
      if (next === 42) {
        state = 'block-comment';
        index += 1;
        continue;
      }
    }
    if (first < 0) first = index;
    if (code === 39) state = 'single';
    else if (code === 34) state = 'double';
    else if (code === 96) state = 'template';
  }
  offsets.push(first);
  return offsets;
}

/**
 * V8's count at each offset (ascending): the count of the innermost range holding it, undefined when no range does.
 * Ranges nest (a function's blocks inside it); a sweep with a stack of open ranges answers every offset in one pass.
 */
export function countInnermost(ranges: readonly V8Range[], offsets: readonly number[]): (number | undefined)[] {
  const ordered = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
  const stack: V8Range[] = [];
  const counts: (number | undefined)[] = [];
  let next = 0;
  for (const offset of offsets) {
    while (next < ordered.length) {
      const range = ordered[next];
      if (range === undefined || range.start > offset) break;
      stack.push(range);
      next += 1;
    }
    let innermost = stack[stack.length - 1];
    while (innermost !== undefined && innermost.end <= offset) {
      stack.pop();
      innermost = stack[stack.length - 1];
    }
    counts.push(innermost === undefined || innermost.start > offset ? undefined : innermost.count);
  }
  return counts;
}

/**
 * Line hits from V8 block coverage: a line counts when the innermost range holding its first code
 * character has a count; undefined when the ranges do not fit the source (edited or transpiled file).
 * Not v8-to-istanbul: it makes every line a statement, so comment-only lines and lines outside every
 * range come out covered (count 1), which would turn comments into proof.
 */
export function computeV8LineHits(source: string, ranges: V8Range[]): Map<number, number> | undefined {
  const maxEnd = ranges.reduce((max, range) => Math.max(max, range.end), 0);
  if (maxEnd > source.length) return undefined;
  if (ranges.some((range) => range.start === 0) && maxEnd !== source.length) return undefined;
  const lines = findFirstCodeOffsets(source)
    .map((offset, index) => ({ line: index + 1, offset }))
    .filter((entry) => entry.offset >= 0);
  const counts = countInnermost(
    ranges,
    lines.map((entry) => entry.offset),
  );
  const hits = new Map<number, number>();
  for (const [index, entry] of lines.entries()) {
    const count = counts[index];
    if (count !== undefined) hits.set(entry.line, count);
  }
  return hits;
}
