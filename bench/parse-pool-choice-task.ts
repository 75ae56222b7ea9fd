/**
 * The per-file work of a parse child's read request in a cold run without focus (src/worker/parse-worker.ts: read the
 * file, classify it, parse it with its words, say whether redaction changes its facts), made of the same exported
 * functions, for bench/parse-pool-choice.ts: the default export is tinypool's task (a batch of files), `readSourceFile`
 * the main thread's floor. Whether it equals the child's work is what the bench's hash of the facts checks.
 */
import { setFlagsFromString } from 'node:v8';
import { extractFacts } from '../src/graph/parse/extract-facts.js';
import { extractFileWords } from '../src/graph/parse/file-words.js';
import type { ReadOutcome } from '../src/io/parse-pool.js';
import { classifySource, readFileBytes } from '../src/io/read-source.js';
import { isScriptFile, type ParseOptions } from '../src/model/facts.js';
import { redactTree } from '../src/text/redact/tree.js';

// The parse child's own V8 flags (src/worker/parse-worker.ts), so a thread or process running this task compiles the
// walker as the child does. Process-wide: set again by each thread, to the same values.
setFlagsFromString('--max-inlined-bytecode-size-cumulative=300 --interrupt-budget=262144');

export interface TaskBatch {
  root: string;
  maxBytes: number;
  options: ParseOptions;
  paths: string[];
}

export function readSourceFile(root: string, path: string, maxBytes: number, options: ParseOptions): ReadOutcome {
  const read = readFileBytes(root, path, maxBytes);
  if (!read.ok) return { kind: 'unread', skip: read.skip };
  const size = read.bytes.byteLength;
  const source = classifySource(path, read.bytes);
  if (!source.ok) return { kind: 'skipped', size, skip: source.skip };
  const facts = extractFacts(path, source.text, options, undefined, true);
  if (isScriptFile(path)) facts.words = extractFileWords(source.text);
  const hash = source.hash;
  return redactTree(facts) === facts ? { kind: 'parsed', size, hash, facts, clean: true } : { kind: 'parsed', size, hash, facts };
}

export default function readBatch(batch: TaskBatch): [string, ReadOutcome][] {
  return batch.paths.map((path) => [path, readSourceFile(batch.root, path, batch.maxBytes, batch.options)]);
}
