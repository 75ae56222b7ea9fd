import { createHash } from 'node:crypto';

/**
 * The hash the facts cache keeps for a file: SHA-1 (hex) of its bytes, a string taken as its UTF-8 bytes. The range
 * analysis compares a committed text with a working-tree file's entry by it, so both sides must hash the same way.
 */
export function hashContent(content: Uint8Array | string): string {
  return createHash('sha1').update(content).digest('hex');
}
