/**
 * The fast path for a file's imports and exports: a hand-written scanner instead of swc's parse, the JSON of its
 * tree and the full walk. Its contract is strict: whenever it answers, the answer is exactly the `imports`, `exports`
 * and `lines` that `extractFacts` gives (same order, spans and optional keys); whenever it is not sure, it answers
 * undefined and the caller parses with swc. It knows nothing swc does not, so a file swc rejects as a syntax error
 * may still get an answer here; such a file has no facts through swc either way.
 */
import type { ExportFact, ImportedName, ImportFact } from '../../model/facts.js';
import type { CommonJsEntry, Declaration, LinkEvent } from './link-scan-events.js';
import { declined } from './link-scan-lexer.js';
import { LinkScanParser, type ScanSyntax } from './link-scan-parser.js';

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
  if (measureBracketDepth(source) > maxBracketDepth) return undefined;
  const parser = new LinkScanParser(source, getSyntax(path));
  try {
    parser.parseModule();
  } catch (error) {
    if (error === declined || error instanceof RangeError) return undefined;
    throw error;
  }
  return { ...replayEvents(parser.events, parser.declarations), lines: countLines(source) };
}

/** The syntax swc is given for the path (see `getSwcOptions`): JavaScript of every extension is read with JSX. */
function getSyntax(path: string): ScanSyntax {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  const extension = dot > slash ? path.slice(dot).toLowerCase() : '';
  const typescript = typescriptExtensions.has(extension);
  return { typescript, jsx: !typescript || extension === '.tsx', commonJs: extension === '.cjs' };
}

/** `LineIndex.lines`: newlines, plus one for a last line without one. */
function countLines(source: string): number {
  if (source.length === 0) return 0;
  let count = 0;
  for (let index = source.indexOf('\n'); index !== -1; index = source.indexOf('\n', index + 1)) count++;
  return source.endsWith('\n') ? count : count + 1;
}

/** `LineIndex.maxBracketDepth`: brackets counted anywhere, in strings and comments too. */
function measureBracketDepth(source: string): number {
  let depth = 0;
  let max = 0;
  for (let index = 0; index < source.length; index++) {
    const code = source.charCodeAt(index);
    if (code === 40 || code === 91 || code === 123) {
      depth++;
      if (depth > max) max = depth;
    } else if ((code === 41 || code === 93 || code === 125) && depth > 0) depth--;
  }
  return max;
}

interface PendingExport {
  name: string;
  local: string;
  kind: 'named' | 'default' | 'cjs';
  span: ExportFact['span'];
  typeOnly: boolean;
}

/** The events through the rules of `ModuleLinks`: push order, CommonJS de-duplication, pending exports resolved last. */
function replayEvents(events: readonly LinkEvent[], declarations: ReadonlyMap<string, Declaration>): Omit<ModuleLinkFacts, 'lines'> {
  const imports: ImportFact[] = [];
  const exports: ExportFact[] = [];
  const pending: PendingExport[] = [];
  const bindings = new Map<string, { specifier: string; imported: string }>();
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

function addBindings(
  bindings: Map<string, { specifier: string; imported: string }>,
  specifier: string,
  names: readonly ImportedName[],
): void {
  for (const name of names) if (name.local !== '*') bindings.set(name.local, { specifier, imported: name.imported });
}

function pushCommonJsExport(exports: ExportFact[], pending: PendingExport[], entry: CommonJsEntry): void {
  const { name, local, span } = entry;
  if (exports.some((fact) => fact.kind === 'cjs' && fact.name === name)) return;
  if (pending.some((fact) => fact.kind === 'cjs' && fact.name === name)) return;
  if (local !== undefined) pending.push({ name, local, kind: 'cjs', span, typeOnly: false });
  else exports.push({ name, kind: 'cjs', span, typeOnly: false });
}

function resolvePendingExport(
  pending: PendingExport,
  declarations: ReadonlyMap<string, Declaration>,
  bindings: ReadonlyMap<string, { specifier: string; imported: string }>,
): ExportFact {
  const declaration = declarations.get(pending.local);
  const withLocal = (fact: ExportFact): ExportFact =>
    declaration !== undefined && pending.local !== fact.name ? { ...fact, local: pending.local } : fact;
  if (pending.kind === 'cjs') {
    return withLocal({ name: pending.name, kind: 'cjs', span: declaration?.span ?? pending.span, typeOnly: false });
  }
  if (pending.kind === 'default') {
    return withLocal({
      name: 'default',
      kind: 'default',
      span: declaration?.span ?? pending.span,
      typeOnly: declaration?.typeOnly ?? false,
    });
  }
  if (declaration !== undefined) {
    return withLocal({
      name: pending.name,
      kind: declaration.kind,
      span: declaration.span,
      typeOnly: pending.typeOnly || declaration.typeOnly,
    });
  }
  const binding = bindings.get(pending.local);
  if (binding !== undefined) {
    return {
      name: pending.name,
      kind: 'reexport',
      span: pending.span,
      typeOnly: pending.typeOnly,
      from: binding.specifier,
      imported: binding.imported,
    };
  }
  return { name: pending.name, kind: 'variable', span: pending.span, typeOnly: pending.typeOnly };
}
