import { createHash } from 'node:crypto';
import type { LoadedConfigData } from '../model/config.js';
import type { ScanResult } from '../model/scan.js';

/**
 * A digest of the working tree as a scan sees it (every path with its size, mtime and inode, every skipped path) and of
 * the loaded configuration. Equal fingerprints mean a graph built from one serves the other: the MCP server's warm
 * graph, and the analyses kept across runs (analysis-memo.ts).
 */
export function toTreeFingerprint(config: LoadedConfigData, scan: ScanResult): string {
  const hash = createHash('sha256');
  hash.update(describeConfig(config));
  hash.update('\0');
  for (const file of scan.files) hash.update(`${file.path}\0${file.size}\0${file.mtimeMs}\0${file.ino}\n`);
  hash.update('\0');
  for (const skip of scan.skipped) hash.update(`${skip.path}\0${skip.reason}\n`);
  return hash.digest('hex');
}

/** The loaded configuration as text: its files, the merged result and what was wrong with it. */
export function describeConfig(config: LoadedConfigData): string {
  return JSON.stringify([config.sources, config.config, config.diagnostics.map((diagnostic) => diagnostic.message)]);
}
