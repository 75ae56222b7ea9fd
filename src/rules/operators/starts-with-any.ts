/** The fact (a string) starts with one of the prefixes. */
export function startsWithAny(factValue: unknown, prefixes: unknown): boolean {
  if (typeof factValue !== 'string' || !Array.isArray(prefixes)) return false;
  return prefixes.some((prefix: unknown) => typeof prefix === 'string' && factValue.startsWith(prefix));
}
