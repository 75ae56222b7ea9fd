/** Both are lists and share at least one element (strict equality). */
export function intersects(factValue: unknown, values: unknown): boolean {
  if (!Array.isArray(factValue) || !Array.isArray(values)) return false;
  if (factValue.length === 0 || values.length === 0) return false;
  const wanted = new Set<unknown>(values);
  return factValue.some((item: unknown) => wanted.has(item));
}
