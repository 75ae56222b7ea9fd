/** The fact (a string) ends with one of the suffixes. */
export function endsWithAny(factValue: unknown, suffixes: unknown): boolean {
  if (typeof factValue !== 'string' || !Array.isArray(suffixes)) return false;
  return suffixes.some((suffix: unknown) => typeof suffix === 'string' && factValue.endsWith(suffix));
}
