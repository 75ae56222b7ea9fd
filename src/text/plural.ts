/** `1 file`, `2 files`: a count with its noun, singular or plural as the count needs (never `file(s)`). */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** The plural of an English noun phrase's last word: `route` → `routes`, `catch block` → `catch blocks`, `policy` → `policies`. */
export function pluralize(noun: string): string {
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(?:s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}
