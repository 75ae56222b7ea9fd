/** The words of a FileWords field (graph/parse/file-words.ts `encode`): `word*3` counts dropped. */
export function decodeWords(field: string | undefined): Set<string> {
  const words = new Set<string>();
  for (const entry of (field ?? '').split(' ')) if (entry !== '') words.add(entry.replace(/\*\d+$/, ''));
  return words;
}
