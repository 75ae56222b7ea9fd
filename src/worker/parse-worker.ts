import { setFlagsFromString } from 'node:v8';
import { extractFacts } from '../graph/parse/extract-facts.js';
import { extractLinkFacts } from '../graph/parse/link-facts.js';
import { classifySource, readFileBytes } from '../io/read-source.js';
import type { ReadOutcome } from '../io/parse-pool.js';
import { emptyFacts, type FileFacts, type ParseOptions } from '../model/facts.js';
import { isRecord } from '../text/is-record.js';

// A parse child lives for one command, so compiling its walker is a large part of its work: a child spent about 0.9 s
// of CPU (on the compiler's threads, which the other child needs) more on its first pass over the benchmark's 2,356
// files than on a second. Inlining less and optimizing a little later took about 0.5 s of that away for no loss in a warm
// child's speed: cold `checker graph` 2.55 -> 2.21 s on the workspace corpus, 9.7 -> 9.3 s on the 17k-file tree
// (bench/RESULTS.md, 2026-11-28 night). Set before any walker code runs.
setFlagsFromString('--max-inlined-bytecode-size-cumulative=300 --interrupt-budget=262144');

interface ParseRequest {
  type: 'parse';
  id: number;
  options: ParseOptions;
  files: { path: string; text: string }[];
}

/** A request of `type` from the parent: its id and its list of files. */
function isRequest(message: unknown, type: string): message is { type: string; id: number; files: unknown[] } & Record<string, unknown> {
  return isRecord(message) && message.type === type && typeof message.id === 'number' && Array.isArray(message.files);
}

function isParseRequest(message: unknown): message is ParseRequest {
  return isRequest(message, 'parse');
}

interface ReadRequest {
  type: 'read';
  id: number;
  root: string;
  maxBytes: number;
  /** Imports and exports alone where the fast scanner can tell them (a focused cold run, src/io/parse-files.ts). */
  links?: boolean;
  options: ParseOptions;
  files: { path: string; knownHash?: string }[];
}

function isReadRequest(message: unknown): message is ReadRequest {
  return isRequest(message, 'read') && typeof message.root === 'string' && typeof message.maxBytes === 'number';
}

/** The same read, checks and hash as the parent's own (src/io/read-source.ts): the text never crosses IPC. */
function readOne(message: ReadRequest, path: string, knownHash: string | undefined): ReadOutcome {
  const read = readFileBytes(message.root, path, message.maxBytes);
  if (!read.ok) return { kind: 'unread', skip: read.skip };
  const size = read.bytes.byteLength;
  const source = classifySource(path, read.bytes);
  if (!source.ok) return { kind: 'skipped', size, skip: source.skip };
  if (source.hash === knownHash) return { kind: 'unchanged', size, hash: source.hash };
  const linked = message.links === true ? extractLinkFacts(path, source.text) : undefined;
  if (linked !== undefined) return { kind: 'linked', size, hash: source.hash, facts: linked };
  return { kind: 'parsed', size, hash: source.hash, facts: parseOne(path, source.text, message.options) };
}

function parseOne(path: string, text: string, options: ParseOptions): FileFacts {
  try {
    return extractFacts(path, text, options);
  } catch (error) {
    const lines = text.length === 0 ? 0 : text.split('\n').length;
    return emptyFacts(lines, {
      code: 'parse/crash',
      message: `the fact extractor threw: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}

// The parent owns this process: when its IPC channel closes (parent exited or was killed), stop.
process.on('disconnect', () => process.exit(0));

/**
 * Replies only while the parent listens. A parent that went away mid-parse (an MCP worker replaced after its deadline)
 * made `send` fail with EPIPE and print a stack trace; the callback takes that error and the process exits quietly.
 */
function reply(message: object): void {
  if (process.send === undefined || !process.connected) return;
  process.send(message, undefined, undefined, (error: Error | null) => {
    if (error !== null) process.exit(0);
  });
}

process.on('message', (message: unknown) => {
  if (isReadRequest(message)) {
    const results: [string, ReadOutcome][] = message.files.map((file) => [file.path, readOne(message, file.path, file.knownHash)]);
    reply({ type: 'result', id: message.id, results });
    return;
  }
  if (!isParseRequest(message)) return;
  const results: [string, FileFacts][] = message.files.map((file) => [file.path, parseOne(file.path, file.text, message.options)]);
  reply({ type: 'result', id: message.id, results });
});

reply({ type: 'ready' });
