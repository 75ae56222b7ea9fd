import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function readVersion(): string {
  if (cached !== undefined) return cached;
  const manifest: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  cached =
    typeof manifest === 'object' && manifest !== null && 'version' in manifest && typeof manifest.version === 'string'
      ? manifest.version
      : '0.0.0';
  return cached;
}
