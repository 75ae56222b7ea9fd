import { setFlagsFromString } from 'node:v8';
import { extractFacts } from '../graph/parse/extract-facts.js';
import { boundScriptComplexity } from '../graph/history/hotspots.js';
import { extractLinkFacts } from '../graph/parse/link-facts.js';
import { extractFileWords } from '../graph/parse/file-words.js';
import { classifyRole } from '../graph/roles.js';
import { compileLinkTest } from '../graph/resolve/link-keys.js';
import { classifySource, readFileBytes } from '../io/read-source.js';
import { countLines, MAX_KEPT_KEYS, type ReadOutcome } from '../io/parse-pool.js';
import type { LinkKeys } from '../model/env.js';
import { emptyFacts, type FileFacts, isScriptFile, type ParseOptions } from '../model/facts.js';
import { isRecord } from '../text/is-record.js';
import { redactTree } from '../text/redact/tree.js';
import type { GrammarParsers } from '../graph/parse/syntax-tree.js';
import { getGrammarParsers } from './grammars.js';

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
  /** With `links`: only files whose text holds one of these are scanned; the others are answered `unlinked`. */
  keys?: LinkKeys;
  /** The keys' id: a later batch of the same keys sends the id alone (src/io/parse-pool.ts), kept here (knownKeys). */
  keysId?: string;
  /** Keep the text of a file answered `unlinked` for a later request (a focused run's next passes), until `release`. */
  hold?: boolean;
  /** With `links`: test files are parsed in full, and a file read for its links gets its words (ReadSource.modules). */
  modules?: boolean;
  options: ParseOptions;
  files: { path: string; knownHash?: string }[];
}

function isReadRequest(message: unknown): message is ReadRequest {
  return isRequest(message, 'read') && typeof message.root === 'string' && typeof message.maxBytes === 'number';
}

/** The keys sent so far, by id; cleared at the count the parent clears its record of them at (MAX_KEPT_KEYS). */
const knownKeys = new Map<string, LinkKeys>();

/**
 * The request with its keys: those it carries (kept under their id), or those its id named before. An id not known
 * (never expected) leaves the request without keys: every file is then scanned, which answers the same, slower.
 */
function withKeys(message: ReadRequest): ReadRequest {
  if (message.keysId === undefined) return message;
  if (message.keys !== undefined) {
    if (knownKeys.size >= MAX_KEPT_KEYS) knownKeys.clear();
    knownKeys.set(message.keysId, message.keys);
    return message;
  }
  const keys = knownKeys.get(message.keysId);
  return keys === undefined ? { ...message, keysId: undefined } : { ...message, keys };
}

/** Texts of files answered `unlinked`, kept for the focused run's next passes (ReadRequest.hold), and their characters. */
const held = new Map<string, { text: string; size: number; hash: string }>();
let heldChars = 0;
/** Past this many characters (64-128 MB, one- or two-byte text) no more texts are kept: a later pass reads them again. */
const MAX_HELD_CHARS = 64 * 1024 * 1024;

/** The same read, checks and hash as the parent's own (src/io/read-source.ts): the text never crosses IPC. */
function readOne(message: ReadRequest, path: string, knownHash: string | undefined, grammars: GrammarParsers | undefined): ReadOutcome {
  const kept = held.get(path);
  if (kept !== undefined) {
    held.delete(path);
    heldChars -= kept.text.length;
    return answer(message, path, kept, grammars, true);
  }
  const read = readFileBytes(message.root, path, message.maxBytes);
  if (!read.ok) return { kind: 'unread', skip: read.skip };
  const size = read.bytes.byteLength;
  const source = classifySource(path, read.bytes);
  if (!source.ok) return { kind: 'skipped', size, skip: source.skip };
  if (source.hash === knownHash) return { kind: 'unchanged', size, hash: source.hash };
  return answer(message, path, { text: source.text, size, hash: source.hash }, grammars);
}

/** A kept text (`wasTested`) was tested for escapes when it was read: only the words and dots are tested again. */
function answer(
  message: ReadRequest,
  path: string,
  source: { text: string; size: number; hash: string },
  grammars: GrammarParsers | undefined,
  wasTested = false,
): ReadOutcome {
  const { text, size, hash } = source;
  const scans = message.links === true && !(message.modules === true && classifyRole(path) === 'test');
  const linked = scans ? extractLinkFacts(path, text, getLinkTest(message, wasTested)) : undefined;
  if (linked === 'unlinked') {
    const tested = { words: message.keys?.words.length ?? 0, dots: message.keys?.dots === true };
    const holds = message.hold === true && heldChars + text.length <= MAX_HELD_CHARS;
    if (holds) {
      held.set(path, source);
      heldChars += text.length;
    }
    const bound = boundScriptComplexity(text);
    return { kind: 'unlinked', size, hash, lines: countLines(text), bound, tested, ...(holds ? { holder: process.pid } : {}) };
  }
  if (linked !== undefined) {
    const facts: FileFacts = { ...linked, complexityBound: boundScriptComplexity(text) };
    if (message.modules === true) facts.words = extractFileWords(text);
    // Kept in the facts cache as a link entry, redacted as parsed facts are (below).
    const redacted = redactTree(facts);
    if (redacted === facts || takeRedactedWords(facts, redacted)) return { kind: 'linked', size, hash, facts, clean: true };
    return { kind: 'linked', size, hash, facts };
  }
  // A file on disk gets its words too (what task grounding ranks by), while its text is in memory: about a tenth of
  // its parse. Texts parsed off disk (a base revision's) and files read for their links alone go without. A Python or
  // Go file's words come from its syntax tree, with its parse.
  const facts = parseOne(path, text, message.options, grammars, true);
  if (isScriptFile(path)) facts.words = extractFileWords(text);
  // The facts cache holds facts redacted; most files have nothing to redact, and saying so here spares the parent
  // (whose thread is a cold run's longest) a second walk of every file's facts when it writes the cache.
  const redacted = redactTree(facts);
  if (redacted === facts || takeRedactedWords(facts, redacted)) return { kind: 'parsed', size, hash, facts, clean: true };
  return { kind: 'parsed', size, hash, facts };
}

/**
 * Gives `facts` the words of their redacted copy, and says whether nothing else of them was redacted: then they are
 * what the facts cache will hold, and the parent need not redact them again (outline's 57 files with something to
 * redact had it in their words alone, and cost a first run's main thread 0.2 s). Words are for ranking alone: a run
 * ranks a file by what the cache will hold of it, so that a first run ranks as every later one does.
 */
function takeRedactedWords(facts: FileFacts, redacted: FileFacts): boolean {
  if (facts.words === undefined || redacted.words === facts.words) return false;
  facts.words = redacted.words;
  // The redaction copies on write: a field it left alone is the same object in the copy.
  const fields = facts as unknown as Record<string, unknown>;
  const copy = redacted as unknown as Record<string, unknown>;
  return Object.keys(fields).every((field) => field === 'words' || fields[field] === copy[field]);
}

const linkTests = new Map<string, (text: string) => boolean>();

/** The test of a request's keys, compiled once for the batches that send the same keys. */
function getLinkTest(message: ReadRequest, wasTested: boolean): ((text: string) => boolean) | undefined {
  const keys = message.keys;
  if (keys === undefined) return undefined;
  const id = `${wasTested}:${message.keysId ?? JSON.stringify(keys)}`;
  let test = linkTests.get(id);
  if (test === undefined) {
    if (linkTests.size >= 16) linkTests.clear();
    test = compileLinkTest(keys, { escapes: !wasTested });
    linkTests.set(id, test);
  }
  return test;
}

function parseOne(path: string, text: string, options: ParseOptions, grammars: GrammarParsers | undefined, words = false): FileFacts {
  try {
    return extractFacts(path, text, options, grammars, words);
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

/**
 * The grammar parsers a batch needs (Python, Go), loaded on the first batch that has such a file; undefined when the
 * batch is JavaScript alone. A grammar that cannot load leaves those files to `extractFacts`, which says so per file.
 */
async function loadGrammarsFor(paths: string[]): Promise<GrammarParsers | undefined> {
  try {
    return await getGrammarParsers(paths);
  } catch {
    return undefined;
  }
}

process.on('message', (message: unknown) => {
  if (isRecord(message) && message.type === 'release') {
    held.clear();
    heldChars = 0;
    return;
  }
  if (isReadRequest(message)) {
    const request = withKeys(message);
    const paths = request.files.map((file) => file.path);
    void loadGrammarsFor(paths).then((grammars) => {
      const results: [string, ReadOutcome][] = request.files.map((file) => [
        file.path,
        readOne(request, file.path, file.knownHash, grammars),
      ]);
      reply({ type: 'result', id: request.id, results });
    });
    return;
  }
  if (!isParseRequest(message)) return;
  const paths = message.files.map((file) => file.path);
  void loadGrammarsFor(paths).then((grammars) => {
    const results: [string, FileFacts][] = message.files.map((file) => [
      file.path,
      parseOne(file.path, file.text, message.options, grammars),
    ]);
    reply({ type: 'result', id: message.id, results });
  });
});

reply({ type: 'ready' });
