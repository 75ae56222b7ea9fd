import { parse as parseYaml } from 'yaml';
import { isCheckerError, type Diagnostic } from '../model/diagnostic.js';
import type { MemoryEntry, MemoryKind } from '../model/graph.js';
import type { SchemaCheck, SchemaIssue } from '../model/schema-issue.js';
import { isRecord } from '../text/is-record.js';
import { splitMarkdownMemory } from './memory-markdown.js';
import { assertDepth, formatAjvError } from './schema-errors.js';
import { describeYamlProblem, toYamlProblem } from './yaml-error.js';

const MEMORY_KINDS: readonly MemoryKind[] = ['invariant', 'architecture', 'regression', 'note'];

function isMemoryKind(value: string): value is MemoryKind {
  return MEMORY_KINDS.some((kind) => kind === value);
}

interface EntryValidation {
  entry?: MemoryEntry;
  diagnostics: Diagnostic[];
}

function describeEntry(index: number, id: unknown): string {
  return typeof id === 'string' && id !== '' ? `entry ${index + 1} ("${id}")` : `entry ${index + 1}`;
}

function toMemoryDiagnostic(path: string, where: string, error: SchemaIssue): Diagnostic {
  const formatted = formatAjvError(error);
  return {
    code: 'memory/invalid',
    severity: 'warn',
    message: `${path}: ${where}: ${formatted.message}; the entry is skipped`,
    hint: `${formatted.hint} (see docs/memory-and-docs.md)`,
    location: { file: path },
  };
}

function validateEntry(path: string, index: number, raw: unknown, checkSchema: SchemaCheck): EntryValidation {
  const error = checkSchema('memory', { entries: [raw] });
  if (error === undefined) {
    if (!isRecord(raw)) return { diagnostics: [] };
    const { id, kind, text, title, paths, terms } = raw;
    if (typeof id !== 'string' || typeof kind !== 'string' || !isMemoryKind(kind) || typeof text !== 'string') return { diagnostics: [] };
    const entry: MemoryEntry = {
      path,
      id,
      kind,
      text,
      paths: Array.isArray(paths) ? paths.filter((item): item is string => typeof item === 'string') : [],
      terms: Array.isArray(terms) ? terms.filter((item): item is string => typeof item === 'string').map((term) => term.toLowerCase()) : [],
    };
    if (typeof title === 'string') entry.title = title;
    return { entry, diagnostics: [] };
  }
  const pointer = error.instancePath.replace(/^\/entries\/0/, `/entries/${index}`);
  const id = isRecord(raw) ? raw.id : undefined;
  return { diagnostics: [toMemoryDiagnostic(path, describeEntry(index, id), { ...error, instancePath: pointer })] };
}

function collectEntries(path: string, raws: unknown[], checkSchema: SchemaCheck): { entries: MemoryEntry[]; diagnostics: Diagnostic[] } {
  const entries: MemoryEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  raws.forEach((raw, index) => {
    const result = validateEntry(path, index, raw, checkSchema);
    diagnostics.push(...result.diagnostics);
    const entry = result.entry;
    if (entry === undefined) return;
    if (seen.has(entry.id)) {
      diagnostics.push({
        code: 'memory/duplicate-id',
        severity: 'warn',
        message: `${path}: ${describeEntry(index, entry.id)} repeats an id used earlier in the file; the entry is skipped`,
        hint: 'give every entry of a memory file its own id',
        location: { file: path },
      });
      return;
    }
    seen.add(entry.id);
    entries.push(entry);
  });
  return { entries, diagnostics };
}

function parseStructuredMemory(
  path: string,
  text: string,
  checkSchema: SchemaCheck,
): { entries: MemoryEntry[]; diagnostics: Diagnostic[] } {
  let data: unknown;
  try {
    data = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 50 });
    assertDepth(data, { code: 'memory/too-deep', file: path });
  } catch (error) {
    const message = isCheckerError(error) ? error.message : describeYamlProblem(toYamlProblem(error, String(error)));
    return {
      entries: [],
      diagnostics: [
        {
          code: isCheckerError(error) ? error.code : 'memory/parse',
          severity: 'warn',
          message: `${path}: cannot be parsed (${message}); the file is skipped`,
          hint: 'fix the syntax; the format is described in docs/memory-and-docs.md',
          location: { file: path },
        },
      ],
    };
  }
  const shell = isRecord(data) && Array.isArray(data.entries) ? { ...data, entries: [] } : data;
  const error = checkSchema('memory', shell);
  if (error !== undefined) {
    const diagnostic: Diagnostic = {
      ...toMemoryDiagnostic(path, 'the file', error),
      message: `${path}: ${formatAjvError(error).message}; the file is skipped`,
    };
    return { entries: [], diagnostics: [diagnostic] };
  }
  return collectEntries(path, isRecord(data) && Array.isArray(data.entries) ? data.entries : [], checkSchema);
}

function parseMarkdownMemory(path: string, text: string, checkSchema: SchemaCheck): { entries: MemoryEntry[]; diagnostics: Diagnostic[] } {
  const split = splitMarkdownMemory(path, text);
  return 'diagnostic' in split ? { entries: [], diagnostics: [split.diagnostic] } : collectEntries(path, split.raws, checkSchema);
}

/**
 * Parses one memory file (YAML, JSON or Markdown), each entry checked against schemas/memory.schema.json through
 * `checkSchema`; malformed files and entries become diagnostics.
 */
export function parseMemoryFile(
  path: string,
  text: string,
  checkSchema: SchemaCheck,
): { entries: MemoryEntry[]; diagnostics: Diagnostic[] } {
  return path.endsWith('.md') ? parseMarkdownMemory(path, text, checkSchema) : parseStructuredMemory(path, text, checkSchema);
}
