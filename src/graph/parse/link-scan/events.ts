import type { ExportFact, ImportedName, ImportKind, Span } from '../../../model/facts.js';
import type { LocalDeclaration } from '../module-links.js';

/**
 * What `scanModuleLinks` meets, in the order swc's walk would record it: the walker keeps imports, exports and
 * pending exports in separate lists, so only the order within each matters, and replaying these events through the
 * same rules as `ModuleLinks` gives the same lists.
 */
export type LinkEvent = ImportEvent | ExportEvent | PendingEvent | CommonJsEvent;

export interface ImportEvent {
  type: 'import';
  specifier: string;
  kind: ImportKind;
  typeOnly: boolean;
  /** Set to the binding's names (`const {a} = require('x')`) or emptied (`require('x');`) once the context is known. */
  names: ImportedName[];
  line: number;
}

export interface ExportEvent {
  type: 'export';
  fact: ExportFact;
}

/** `export {a}` and `export default a`: resolved at the end against declarations and import bindings. */
export interface PendingEvent {
  type: 'pending';
  name: string;
  local: string;
  kind: 'named' | 'default';
  span: Span;
  typeOnly: boolean;
}

/** `exports.a = …`, `module.exports = …`, `export = …`: each entry as `ModuleLinks.pushCommonJsExport` takes it. */
export interface CommonJsEvent {
  type: 'cjs';
  entries: CommonJsEntry[];
}

export interface CommonJsEntry {
  name: string;
  local: string | undefined;
  span: Span;
}

/** A top-level declaration as `ModuleLinks.recordDeclaration` keeps it: the first one of a name wins. */
export type Declaration = LocalDeclaration;
