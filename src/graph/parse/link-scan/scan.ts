/**
 * The fast path for a file's imports and exports: a hand-written scanner instead of swc's parse, the JSON of its
 * tree and the full walk. Its contract is strict: whenever it answers, the answer is exactly the `imports`, `exports`
 * and `lines` that `extractFacts` gives (same order, spans and optional keys); whenever it is not sure, it answers
 * undefined and the caller parses with swc. It knows nothing swc does not, so a file swc rejects as a syntax error
 * in every syntax it tries (getSwcOptions) may still get an answer here; such a file has no facts through swc either
 * way. It declines Flow annotations in JavaScript, which swc then reads as TypeScript.
 */
import type { ExportFact, ImportedName, ImportFact } from '../../../model/facts.js';
import type { Declaration, LinkEvent } from './events.js';
import { type ImportBinding, type PendingExport, pushCommonJsExport, resolvePendingExport } from '../module-links.js';
import { declined } from './lexer.js';
import type { ScanSyntax } from './base.js';
import { LinkScanParser } from './parser.js';

export interface ModuleLinkFacts {
  imports: ImportFact[];
  exports: ExportFact[];
  lines: number;
}

/** As `extractFacts`: deeper bracket nesting than this is refused before parsing. */
const maxBracketDepth = 1000;

const typescriptExtensions = new Set(['.ts', '.mts', '.cts', '.tsx']);

/** Imports, exports and line count of one JS/TS file exactly as `extractFacts` gives them, or undefined when unsure. */
export function scanModuleLinks(path: string, text: string): ModuleLinkFacts | undefined {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const newlines: number[] = [];
  if (indexSource(source, newlines) > maxBracketDepth || hasMiscountedLeadingComment(source)) return undefined;
  const parser = new LinkScanParser(source, getSyntax(path), newlines);
  try {
    parser.parseModule();
  } catch (error) {
    if (error === declined || error instanceof RangeError) return undefined;
    throw error;
  }
  const lines = source.length === 0 ? 0 : source.endsWith('\n') ? newlines.length : newlines.length + 1;
  return { ...replayEvents(parser.events, parser.declarations), lines };
}

/** The syntax swc is given for the path (see `getSwcOptions`): JavaScript of every extension is read with JSX. */
function getSyntax(path: string): ScanSyntax {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  const extension = dot > slash ? path.slice(dot).toLowerCase() : '';
  const typescript = typescriptExtensions.has(extension);
  return { typescript, jsx: !typescript || extension === '.tsx', commonJs: extension === '.cjs' };
}

/** What a character means to `indexSource`: 1 an opening bracket, 2 a closing one, 3 a newline (index: code & 127). */
const characterKinds = new Uint8Array(128);
for (const open of [40, 91, 123]) characterKinds[open] = 1;
for (const close of [41, 93, 125]) characterKinds[close] = 2;
characterKinds[10] = 3;

/**
 * One pass over the source: collects the offset of every `\n` (lines are counted by them) and returns
 * `LineIndex.maxBracketDepth`, brackets counted anywhere, in strings and comments too. One table lookup per
 * character (a code above 127 only matters when its low bits look like one of these); measured twice as fast as
 * comparing each code with seven values.
 */
function indexSource(source: string, newlines: number[]): number {
  let depth = 0;
  let max = 0;
  const length = source.length;
  for (let index = 0; index < length; index++) {
    const code = source.charCodeAt(index);
    const kind = characterKinds[code & 127];
    if (kind === 0 || code > 127) continue;
    if (kind === 1) {
      if (++depth > max) max = depth;
    } else if (kind === 2) {
      if (depth > 0) depth--;
    } else newlines.push(index);
  }
  return max;
}

/**
 * `measureLeadingTrivia` (line-index.ts) ends a leading `//` comment at the next `\n` only, where swc ends it at any
 * line terminator: after a comment ended by a lone `\r`, U+2028 or U+2029, swc's base offset is miscounted and every
 * line `extractFacts` gives is off. Such files are left to it, so that both paths agree.
 */
function hasMiscountedLeadingComment(source: string): boolean {
  let index = 0;
  while (index < source.length) {
    const code = source.charCodeAt(index);
    if (code === 32 || code === 9 || code === 10 || code === 13 || code === 11 || code === 12 || code === 0xa0 || code === 0xfeff) {
      index++;
    } else if (code === 47 && source.charCodeAt(index + 1) === 42) {
      const end = source.indexOf('*/', index + 2);
      if (end === -1) return false;
      index = end + 2;
    } else if (code === 47 && source.charCodeAt(index + 1) === 47) {
      const end = source.indexOf('\n', index);
      const line = source.slice(index, end === -1 ? source.length : end);
      if (/[\r\u2028\u2029]/.test(line.endsWith('\r') ? line.slice(0, -1) : line)) return true;
      if (end === -1) return false;
      index = end + 1;
    } else return code >= 0x80 && code !== 0xfeff;
  }
  return false;
}

/** The events through the rules of `ModuleLinks`: push order, CommonJS de-duplication, pending exports resolved last. */
function replayEvents(events: readonly LinkEvent[], declarations: ReadonlyMap<string, Declaration>): Omit<ModuleLinkFacts, 'lines'> {
  const imports: ImportFact[] = [];
  const exports: ExportFact[] = [];
  const pending: PendingExport[] = [];
  const bindings = new Map<string, ImportBinding>();
  for (const event of events) {
    switch (event.type) {
      case 'import': {
        const { specifier, kind, names } = event;
        const typeOnly = event.typeOnly || (names.length > 0 && names.every((name) => name.typeOnly));
        imports.push({ specifier, kind, typeOnly, names, line: event.line });
        if (kind !== 'reexport' && kind !== 'reexport-all') addBindings(bindings, specifier, names);
        break;
      }
      case 'export':
        exports.push(event.fact);
        break;
      case 'pending':
        pending.push(event);
        break;
      case 'cjs':
        for (const entry of event.entries) pushCommonJsExport(exports, pending, entry);
        break;
    }
  }
  for (const entry of pending) exports.push(resolvePendingExport(entry, declarations, bindings));
  return { imports, exports };
}

function addBindings(bindings: Map<string, ImportBinding>, specifier: string, names: readonly ImportedName[]): void {
  for (const name of names) if (name.local !== '*') bindings.set(name.local, { specifier, imported: name.imported });
}
