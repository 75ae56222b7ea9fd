// Bare swc baseline: reads and parses its share of files (paths, one a line, in argv[2]) and prints one JSON line.
// Plain JavaScript so that it starts as fast as a built CLI would; options mirror src/graph/parse/swc-options.ts.
import { readFileSync } from 'node:fs';
import { parseSync } from '@swc/core';

const typescriptExtensions = new Set(['.ts', '.mts', '.cts', '.tsx']);

function getOptions(path) {
  const dot = path.lastIndexOf('.');
  const extension = dot === -1 ? '' : path.slice(dot).toLowerCase();
  if (typescriptExtensions.has(extension)) {
    return { syntax: 'typescript', tsx: extension === '.tsx', decorators: true, target: 'es2022', comments: false };
  }
  const isCommonJs = extension === '.cjs';
  return {
    syntax: 'ecmascript',
    jsx: true,
    decorators: true,
    importAttributes: true,
    allowReturnOutsideFunction: isCommonJs,
    target: 'es2022',
    comments: false,
    isModule: isCommonJs ? 'commonjs' : 'unknown',
  };
}

const listPath = process.argv[2];
if (listPath === undefined) {
  process.stderr.write('usage: bare-parse-child.mjs <file-list>\n');
  process.exit(2);
}
const started = performance.now();
const paths = readFileSync(listPath, 'utf8')
  .split('\n')
  .filter((line) => line.length > 0);
let bytes = 0;
let errors = 0;
const failed = [];
for (const path of paths) {
  const text = readFileSync(path, 'utf8');
  bytes += text.length;
  try {
    parseSync(text, getOptions(path));
  } catch {
    errors += 1;
    if (failed.length < 5) failed.push(path);
  }
}
const usage = process.resourceUsage();
process.stdout.write(
  `${JSON.stringify({ files: paths.length, bytes, errors, failed, parseMs: performance.now() - started, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, maxRssBytes: usage.maxRSS * 1024 })}\n`,
);
