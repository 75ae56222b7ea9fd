import { readFileSync } from 'node:fs';

let read = false;
let buildId: string | undefined;

/**
 * The id scripts/bundle.mjs writes beside the bundle (dist/bundle/build-id.json), found from this module's own place:
 * bundled, this code lives in a chunk of dist/bundle/. From sources or the unbundled dist/ there is no such file, and
 * no id.
 */
export function readBuildId(): string | undefined {
  if (read) return buildId;
  read = true;
  try {
    const data: unknown = JSON.parse(readFileSync(new URL('./build-id.json', import.meta.url), 'utf8'));
    if (typeof data === 'object' && data !== null && 'id' in data && typeof data.id === 'string') buildId = data.id;
  } catch {
    buildId = undefined;
  }
  return buildId;
}
