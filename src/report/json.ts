/** Stable JSON rendering of a report object (two-space indent, trailing newline). */
export function renderJson(report: unknown): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
