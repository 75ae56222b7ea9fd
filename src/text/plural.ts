/** `1 file`, `2 files`: a count with its noun, singular or plural as the count needs (never `file(s)`). */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
