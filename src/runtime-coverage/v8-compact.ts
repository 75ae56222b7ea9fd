import { isRecord } from '../text/is-record.js';

/**
 * A NODE_V8_COVERAGE file cut down to the scripts `keep` accepts (by URL) and their cached source maps. Node writes
 * every script a process loaded, its own internals and node_modules included, so one test file's process writes
 * megabytes of which the repository's code is a few kilobytes. Undefined when the data is not V8 coverage (left as is).
 */
export function keepV8Scripts(data: unknown, keep: (url: string) => boolean): { kept: number; data: unknown } | undefined {
  if (!isRecord(data) || !Array.isArray(data.result)) return undefined;
  const result = data.result.filter((script) => isRecord(script) && typeof script.url === 'string' && keep(script.url));
  const urls = new Set(result.map((script) => (script as { url: string }).url));
  const maps = isRecord(data['source-map-cache']) ? data['source-map-cache'] : undefined;
  const compact: Record<string, unknown> = { ...data, result };
  if (maps !== undefined) compact['source-map-cache'] = Object.fromEntries(Object.entries(maps).filter(([url]) => urls.has(url)));
  return { kept: result.length, data: compact };
}
