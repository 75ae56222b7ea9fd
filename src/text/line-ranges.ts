const MAX_LINE_RANGES = 8;

/** "line 4", "lines 14-18, 22", capped at eight ranges. */
export function formatLineRanges(lines: readonly number[]): string {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const ranges: string[] = [];
  let index = 0;
  while (index < sorted.length) {
    const start = sorted[index] ?? 0;
    let end = start;
    while (sorted[index + 1] === end + 1) {
      index += 1;
      end += 1;
    }
    ranges.push(start === end ? String(start) : `${start}-${end}`);
    index += 1;
  }
  const shown = ranges.slice(0, MAX_LINE_RANGES).join(', ');
  const rest = ranges.length > MAX_LINE_RANGES ? ` and ${ranges.length - MAX_LINE_RANGES} more ranges` : '';
  return `${sorted.length === 1 ? 'line' : 'lines'} ${shown}${rest}`;
}
