/** True for a plain object (not null, not an array): the shape parsed JSON and YAML maps arrive in. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
