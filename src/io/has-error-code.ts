/** True when a thrown value is a Node system error carrying one of the given codes (`ENOENT`, `ELOOP`…). */
export function hasErrorCode(error: unknown, ...codes: string[]): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && codes.includes(error.code);
}
