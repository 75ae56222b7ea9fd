import { createHash } from 'node:crypto';

/**
 * A hash of what a file runs: its text (UTF-8 bytes) without the type syntax the parser found (`typeRanges`, byte
 * offsets from the file's start), and without the lines that held nothing else (a removed `import type` line leaves
 * an empty one). Two sides of a change with the same hash differ in types only (an annotation, a type argument, a type
 * import), so the change is type-only even inside a runtime file.
 */
export function hashRuntimeText(source: string, typeRanges: readonly (readonly [number, number])[]): string {
  const bytes = Buffer.from(source, 'utf8');
  const ranges = [...typeRanges].sort((left, right) => left[0] - right[0]);
  const kept: Buffer[] = [];
  let cursor = 0;
  for (const [start, end] of ranges) {
    if (start > cursor) kept.push(bytes.subarray(cursor, Math.min(start, bytes.length)));
    cursor = Math.max(cursor, end);
  }
  if (cursor < bytes.length) kept.push(bytes.subarray(cursor));
  const text = Buffer.concat(kept).toString('utf8');
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return createHash('sha1').update(lines.join('\n')).digest('hex').slice(0, 16);
}
