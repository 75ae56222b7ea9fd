import { createHash } from 'node:crypto';
import type { FileFacts, ParseOptions } from '../model/facts.js';
import { readArtifact, writeArtifact } from './artifacts.js';
import { hashParseOptions, isFileFactsShape, PARSER_VERSION } from './parse-cache.js';
import { redactTree } from '../text/redact-tree.js';
import { isRecord } from '../text/is-record.js';

/**
 * Facts of texts that are not in the working tree (a changed file's base side, read from git), keyed by the parse
 * options, the path and the text itself: a warm `checker ai` used to start a parse child on every run only to parse
 * the same base sides again. At most MAX_ENTRIES are kept, the most recently used last.
 */
const FILE = `cache/revision-facts-v${PARSER_VERSION}.json`;
const MAX_ENTRIES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;

interface Document {
  parserVersion: number;
  entries: Record<string, FileFacts>;
}

export interface RevisionFactsCache {
  get(path: string, text: string): FileFacts | undefined;
  set(path: string, text: string, facts: FileFacts): void;
  /** Writes the cache when something was added; a failure to write only means the next run parses again. */
  save(): Promise<void>;
}

export async function loadRevisionFactsCache(root: string, options: ParseOptions): Promise<RevisionFactsCache> {
  const optionsHash = hashParseOptions(options);
  const entries = new Map<string, FileFacts>();
  const raw = await readArtifact(root, FILE).catch(() => undefined);
  if (raw !== undefined && raw.byteLength <= MAX_BYTES) {
    try {
      const document: unknown = JSON.parse(raw.toString('utf8'));
      if (isRecord(document) && document.parserVersion === PARSER_VERSION && isRecord(document.entries)) {
        for (const [key, facts] of Object.entries(document.entries)) if (isFileFactsShape(facts)) entries.set(key, facts);
      }
    } catch {
      // A damaged file is parsed again and rewritten.
    }
  }
  let isDirty = false;
  const keyOf = (path: string, text: string): string =>
    createHash('sha256').update(optionsHash).update('\0').update(path).update('\0').update(text).digest('hex');
  return {
    get(path, text) {
      const key = keyOf(path, text);
      const facts = entries.get(key);
      if (facts === undefined) return undefined;
      // Most recently used last, so the oldest are dropped first.
      entries.delete(key);
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
      const document: Document = { parserVersion: PARSER_VERSION, entries: Object.fromEntries(kept) };
      await writeArtifact(root, FILE, JSON.stringify(redactTree(document)), { mode: 'replace' }).catch(() => undefined);
      isDirty = false;
    },
  };
}
