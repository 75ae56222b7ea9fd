/**
 * Parity and speed of the link scanner (src/graph/parse/link-scan/scan.ts) against the full swc walk, over a folder's
 * git-tracked JS/TS files:
 *
 *   node --import tsx bench/link-scan-parity.ts <dir>
 *
 * Prints the files, how many the scanner answered, how many answers differ from `extractFacts` (must be 0), the
 * files swc could not parse (`failure`, kept apart: swc gives them no facts), and the time of each.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { extractFacts } from '../src/graph/parse/extract-facts.js';
import { scanModuleLinks } from '../src/graph/parse/link-scan/scan.js';
import { isCodeFile } from '../src/model/facts.js';

export interface LinkScanParity {
  files: number;
  bytes: number;
  /** Files `extractFacts` could not parse (syntax error, too deep): no facts to compare with. */
  failures: string[];
  /** Of those, the ones the scanner answered anyway (it cannot always know swc would refuse). */
  answeredOnFailure: string[];
  /** Files the scanner answered, among those swc parsed. */
  answered: number;
  declined: string[];
  /** Answers that differ from `extractFacts`: must be none. */
  mismatches: string[];
  scanMs: number;
  fullMs: number;
}

/** Runs both on every file (`root`-relative paths) and compares each answer with the full walk's facts. */
export function measureLinkScanParity(root: string, paths: readonly string[]): LinkScanParity {
  const parity: LinkScanParity = {
    files: 0,
    bytes: 0,
    failures: [],
    answeredOnFailure: [],
    answered: 0,
    declined: [],
    mismatches: [],
    scanMs: 0,
    fullMs: 0,
  };
  for (const path of paths) {
    if (!isCodeFile(path)) continue;
    const text = readFileSync(join(root, path), 'utf8');
    parity.files++;
    parity.bytes += Buffer.byteLength(text);
    const started = performance.now();
    const scanned = scanModuleLinks(path, text);
    const scannedAt = performance.now();
    const full = extractFacts(path, text, { assertionHelpers: [] });
    parity.fullMs += performance.now() - scannedAt;
    parity.scanMs += scannedAt - started;
    if (full.failure !== undefined) {
      parity.failures.push(path);
      if (scanned !== undefined) parity.answeredOnFailure.push(path);
      continue;
    }
    if (scanned === undefined) {
      parity.declined.push(path);
      continue;
    }
    parity.answered++;
    if (!isDeepStrictEqual(scanned, { imports: full.imports, exports: full.exports, lines: full.lines })) parity.mismatches.push(path);
  }
  return parity;
}

export function listTrackedFiles(dir: string): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
    .split('\0')
    .filter((path) => path !== '');
}

export function renderParity(parity: LinkScanParity): string {
  const parsed = parity.files - parity.failures.length;
  const megabytes = parity.bytes / 1e6;
  const rate = (ms: number): string => `${((megabytes * 1000) / ms).toFixed(1)} MB/s`;
  const lines = [
    `files: ${parity.files} (${megabytes.toFixed(1)} MB)`,
    `extractFacts failures: ${parity.failures.length} (scanner answered ${parity.answeredOnFailure.length} of them)`,
    `answered: ${parity.answered} of ${parsed} (${((100 * parity.answered) / Math.max(parsed, 1)).toFixed(2)}%)`,
    `mismatches: ${parity.mismatches.length}`,
    `scanner: ${parity.scanMs.toFixed(0)} ms (${rate(parity.scanMs)}); extractFacts: ${parity.fullMs.toFixed(0)} ms (${rate(parity.fullMs)}); ${(parity.fullMs / parity.scanMs).toFixed(1)}x`,
  ];
  const list = (title: string, paths: readonly string[]): void => {
    if (paths.length > 0) lines.push(`${title}:`, ...paths.slice(0, 10).map((path) => `  ${path}`));
  };
  list('mismatching', parity.mismatches);
  list('declined', parity.declined);
  list('answered although swc failed', parity.answeredOnFailure);
  return lines.join('\n');
}

function main(): void {
  const dir = process.argv[2];
  if (dir === undefined) {
    process.stderr.write('usage: node --import tsx bench/link-scan-parity.ts <dir>\n');
    process.exitCode = 2;
    return;
  }
  const parity = measureLinkScanParity(dir, listTrackedFiles(dir));
  process.stdout.write(`${renderParity(parity)}\n`);
  if (parity.mismatches.length > 0) process.exitCode = 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
