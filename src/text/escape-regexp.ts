/** `text` as a regular expression that matches it literally (`/` escaped too, so it also fits a literal's body). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
