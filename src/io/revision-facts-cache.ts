import { createHash } from 'node:crypto';
import type { FileFacts, ParseOptions } from '../model/facts.js';
import { isAscii } from 'node:buffer';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { readArtifact, writeArtifact } from './artifacts.js';
import { hashParseOptions, isFileFactsShape, PARSER_VERSION } from './parse-cache.js';
import { redactTree } from '../text/redact/tree.js';
import { isRecord } from '../text/is-record.js';
import { toAsciiJson } from '../text/ascii-json.js';

/**
 * Facts of texts that are not in the working tree (a changed file's base side, read from git), keyed by the parse
 * options, the path and the text itself: a warm `checker ai` used to start a parse child on every run only to parse
 * the same base sides again. At most MAX_ENTRIES are kept, the most recently used last.
 *
 * One entry a line (`{"key":…,"facts":…}` after a `{"parserVersion":…}` line, ASCII), each parsed only when asked for
 * and written back as it was read when not: a run asks for a few base sides, and parsing the whole 2,000-entry file
 * (9 MB after a 943-file release range) cost every later run about 0.07 s, and redacting it again on each save more.
 */
const FILE = `cache/revision-facts-v${PARSER_VERSION}.jsonl`;
/** The single-document file of earlier builds, removed by the first save (next to FILE, which that save checked). */
const OLD_FILE = ['.checker', 'local', 'cache', `revision-facts-v${PARSER_VERSION}.json`];
const MAX_ENTRIES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;
const KEY = /^[0-9a-f]{64}$/;
const KEY_PREFIX = '{"key":"';

export interface RevisionFactsCache {
  get(path: string, text: string): FileFacts | undefined;
  set(path: string, text: string, facts: FileFacts): void;
  /** Writes the cache when something was added; a failure to write only means the next run parses again. */
  save(): Promise<void>;
}

export async function loadRevisionFactsCache(root: string, options: ParseOptions): Promise<RevisionFactsCache> {
  const optionsHash = hashParseOptions(options);
  /** Facts, or the line they are written on until asked for (a line was redacted when it was written). */
  const entries = new Map<string, FileFacts | string>();
  const raw = await readArtifact(root, FILE).catch(() => undefined);
  if (raw !== undefined && raw.byteLength <= MAX_BYTES) {
    const lines = (isAscii(raw) ? raw.toString('latin1') : raw.toString('utf8')).split('\n');
    if (lines[0] === JSON.stringify({ parserVersion: PARSER_VERSION })) {
      for (const line of lines.slice(1)) {
        const key = line.startsWith(KEY_PREFIX) ? line.slice(KEY_PREFIX.length, KEY_PREFIX.length + 64) : '';
        if (KEY.test(key) && line.startsWith('",', KEY_PREFIX.length + 64)) entries.set(key, line);
      }
    }
  }
  let isDirty = false;
  const keyOf = (path: string, text: string): string =>
    createHash('sha256').update(optionsHash).update('\0').update(path).update('\0').update(text).digest('hex');
  return {
    get(path, text) {
      const key = keyOf(path, text);
      const kept = entries.get(key);
      if (kept === undefined) return undefined;
      const facts = typeof kept === 'string' ? parseLine(kept) : kept;
      // Most recently used last, so the oldest are dropped first; a damaged line is dropped and parsed again.
      entries.delete(key);
      if (facts === undefined) return undefined;
      entries.set(key, facts);
      return facts;
    },
    set(path, text, facts) {
      entries.set(keyOf(path, text), facts);
      isDirty = true;
    },
    async save() {
      if (!isDirty) return;
      const kept = [...entries.entries()].slice(-MAX_ENTRIES);
      const lines = kept.map(([key, facts]) => (typeof facts === 'string' ? facts : toAsciiJson({ key, facts: redactTree(facts) })));
      const text = `${[JSON.stringify({ parserVersion: PARSER_VERSION }), ...lines].join('\n')}\n`;
      const written = await writeArtifact(root, FILE, text, { mode: 'replace' }).then(
        () => true,
        () => false,
      );
      if (written) await unlink(join(root, ...OLD_FILE)).catch(() => undefined);
      isDirty = false;
    },
  };
}

function parseLine(line: string): FileFacts | undefined {
  try {
    const entry: unknown = JSON.parse(line);
    return isRecord(entry) && isFileFactsShape(entry.facts) ? entry.facts : undefined;
  } catch {
    return undefined;
  }
}
