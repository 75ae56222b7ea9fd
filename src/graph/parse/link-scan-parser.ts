/**
 * A recognising parser for JavaScript and TypeScript that builds no tree: it follows the grammar far enough to know
 * where every statement and expression ends (ASI, regular expressions against division, arrows, JSX, types) and
 * records, in swc's walk order, the few things `ModuleLinks` makes facts of. Expressions report a small "shape"
 * (an identifier, `exports.x`, a `require('x')` call, an object literal…) instead of a node, which is all the
 * callers look at. Anything outside what it knows throws `declined`.
 */
import type { ExportKind, ImportedName, ImportKind, Span } from '../../model/facts.js';
import type { CommonJsEntry, Declaration, ImportEvent, LinkEvent } from './link-scan-events.js';
import {
  decline,
  Lexer,
  TOKEN_EOF,
  TOKEN_NAME,
  TOKEN_NUMBER,
  TOKEN_PRIVATE,
  TOKEN_PUNCT,
  TOKEN_STRING,
  TOKEN_TEMPLATE,
} from './link-scan-lexer.js';
import { skipType, skipTypeBrackets } from './link-scan-types.js';

export interface ScanSyntax {
  typescript: boolean;
  jsx: boolean;
  /** `.cjs`: swc parses it as a CommonJS script, where `import` and `export` declarations are errors. */
  commonJs: boolean;
}

/** What an expression turned out to be, as far as imports and exports care. */
const SHAPE_OTHER = 0;
/** An identifier (`shapeText`). */
const SHAPE_NAME = 1;
/** A member chain rooted at `exports` or `module` (`shapeText` is its dotted name, as `getDottedName` builds it). */
const SHAPE_TARGET = 2;
/** A string literal or substitution-free template (`shapeText` is its value, undefined when it has escapes). */
const SHAPE_STRING = 3;
/** `require('x')` or `import('x')` (`shapeEvent`). */
const SHAPE_CALL = 4;
/** `require('x').name` (`shapeEvent`, `shapeText` the member, undefined when computed). */
const SHAPE_MEMBER = 5;
const SHAPE_AWAIT_CALL = 6;
const SHAPE_AWAIT_MEMBER = 7;
/** An object literal (`shapeProperties` when it was asked for). */
const SHAPE_OBJECT = 8;
/** The `import` of `import(…)` before its arguments. */
const SHAPE_IMPORT = 9;

const CONTEXT_MODULE = 0;
const CONTEXT_NAMESPACE = 1;
const CONTEXT_BODY = 2;

const reservedWords = new Set([
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
]);

const binaryOperators = new Set([
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
  '==',
  '!=',
  '===',
  '!==',
  '<',
  '>',
  '<=',
  '>=',
  '<<',
  '>>',
  '>>>',
  '&',
  '|',
  '^',
  '&&',
  '||',
  '??',
]);

const assignmentOperators = new Set([
  '=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '**=',
  '<<=',
  '>>=',
  '>>>=',
  '&=',
  '|=',
  '^=',
  '&&=',
  '||=',
  '??=',
]);

/** Class member modifiers that may also be a member's own name (`static() {}`, `get = 1`). */
const memberModifiers = new Set([
  'static',
  'public',
  'private',
  'protected',
  'readonly',
  'abstract',
  'declare',
  'override',
  'accessor',
  'async',
  'get',
  'set',
]);
const parameterModifiers = new Set(['public', 'private', 'protected', 'readonly', 'override']);

/** `test.each(table)(…)`: the walker visits only the arguments of a test call, not its curried callee. */
const curriedTestModifiers = new Set(['each', 'for', 'skipIf', 'runIf']);

const commonJsNamed = /^(module\.)?exports\.[^.]+$/;

interface DeclaredName {
  name: string;
  kind: ExportKind;
  typeOnly: boolean;
  start: number;
  end: number;
}

interface ObjectProperty {
  /** undefined: the key has no static name (`[k]`), so the walker skips it. */
  name: string | undefined;
  local: string | undefined;
  start: number;
  end: number;
  spread: boolean;
}

interface BindingInfo {
  /** The identifier when the target is a plain identifier. */
  name: string | undefined;
  isObject: boolean;
  /** `getPatternImports` of an object pattern. */
  imports: ImportedName[] | undefined;
}

export class LinkScanParser {
  readonly events: LinkEvent[] = [];
  readonly declarations = new Map<string, Declaration>();
  private readonly lx: Lexer;
  private readonly typescript: boolean;
  private readonly jsx: boolean;
  private readonly commonJs: boolean;
  private newlines: number[] | undefined;

  private shape = SHAPE_OTHER;
  private shapeText: string | undefined;
  private shapeEvent: ImportEvent | undefined;
  private shapeProperties: ObjectProperty[] | undefined;
  /** The shape was reached through parentheses or a TypeScript wrapper (`as`, `!`, `<T>`), which `unwrapExpression` removes. */
  private shapeWrapped = false;
  /** A `SHAPE_TARGET` reached through a wrapper on the way (`(exports).a`): `getDottedName` unwraps it, so it counts, but its span is unsure. */
  private targetUnsure = false;

  /** An arrow function was just parsed: no operator may follow it. */
  private afterArrow = false;
  /** `in` is not an operator (a `for (… in …)` head). */
  private noIn = false;
  private inAsync = false;
  private inGenerator = false;
  private functionDepth = 0;
  /** Inside a `declare` declaration (or an ambient module's body). */
  private ambientDepth = 0;
  /** Inside the consequent of `a ? b : c`, where TypeScript reads `(x): T => y` differently. */
  private consequentDepth = 0;
  /** The next object literal collects its properties (the value of `module.exports =` or `export =`). */
  private wantObject = false;
  /** Where the current array element or property value starts: an assignment there may be a destructuring default. */
  private elementStart = -1;

  constructor(
    private readonly text: string,
    syntax: ScanSyntax,
  ) {
    this.lx = new Lexer(text);
    this.typescript = syntax.typescript;
    this.jsx = syntax.jsx;
    this.commonJs = syntax.commonJs;
  }

  parseModule(): void {
    const lx = this.lx;
    lx.next();
    while (lx.type !== TOKEN_EOF) this.parseModuleItem();
  }

  // ---------------------------------------------------------------- positions

  /** 1-based line of a character offset: only `\n` counts, as in the line index swc's spans are mapped through. */
  private lineOf(offset: number): number {
    let newlines = this.newlines;
    if (newlines === undefined) {
      newlines = [];
      const text = this.text;
      for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) newlines.push(index);
      this.newlines = newlines;
    }
    let low = 0;
    let high = newlines.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((newlines[middle] ?? 0) < offset) low = middle + 1;
      else high = middle;
    }
    return low + 1;
  }

  /** Lines of the source from `start` up to (not including) `end`, as `SourcePositions.spanOf` gives them. */
  private span(start: number, end: number): Span {
    return { start: this.lineOf(start), end: this.lineOf(end > start ? end - 1 : start) };
  }

  // ---------------------------------------------------------------- events

  private pushImport(specifier: string, kind: ImportKind, typeOnly: boolean, names: ImportedName[], offset: number): ImportEvent {
    const event: ImportEvent = { type: 'import', specifier, kind, typeOnly, names, line: this.lineOf(offset) };
    this.events.push(event);
    return event;
  }

  private declare(name: string, kind: ExportKind, span: Span, typeOnly: boolean): void {
    if (!this.declarations.has(name)) this.declarations.set(name, { kind, span, typeOnly });
  }

  private setShape(shape: number, text?: string): void {
    this.shape = shape;
    this.shapeText = text;
    this.shapeWrapped = false;
    this.targetUnsure = false;
  }

  private setOther(): void {
    this.shape = SHAPE_OTHER;
    this.shapeText = undefined;
    this.shapeWrapped = false;
    this.targetUnsure = false;
  }

  // ---------------------------------------------------------------- module items

  private parseModuleItem(): void {
    const lx = this.lx;
    const start = lx.start;
    if (lx.is('@')) {
      this.parseDecorators(true);
      if (lx.isName('export')) this.parseExport(start, true);
      else this.recordDeclared(this.parseDeclarationAfterDecorators(start));
      return;
    }
    if (lx.type === TOKEN_NAME) {
      if (lx.value === 'export') {
        this.parseExport(start, true);
        return;
      }
      if (lx.value === 'import' && this.startsImportDeclaration()) {
        this.parseImport(start, true);
        return;
      }
      const declared = this.parseDeclaration(start, CONTEXT_MODULE);
      if (declared !== undefined) {
        this.recordDeclared(declared);
        return;
      }
    }
    this.parseStatement(CONTEXT_MODULE);
  }

  private recordDeclared(declared: DeclaredName[]): void {
    for (const entry of declared) this.declare(entry.name, entry.kind, this.span(entry.start, entry.end), entry.typeOnly);
  }

  /** `import` starts a declaration unless it is `import(…)` or `import.meta`. */
  private startsImportDeclaration(): boolean {
    const lx = this.lx;
    const state = lx.snapshot();
    lx.next();
    const isDeclaration = !lx.is('(') && !lx.is('.');
    lx.restore(state);
    return isDeclaration;
  }

  private peek(): { type: number; value: string; nlBefore: boolean } {
    const lx = this.lx;
    const state = lx.snapshot();
    lx.next();
    const token = { type: lx.type, value: lx.value, nlBefore: lx.nlBefore };
    lx.restore(state);
    return token;
  }

  private parseImport(start: number, record: boolean): void {
    const lx = this.lx;
    if (this.commonJs || this.functionDepth > 0) decline();
    lx.next();
    let typeOnly = false;
    if (this.typescript && lx.isName('type')) {
      const following = this.peek();
      if (following.type === TOKEN_PUNCT ? following.value === '{' || following.value === '*' : following.type === TOKEN_NAME) {
        if (following.value === 'from') decline();
        typeOnly = true;
        lx.next();
      }
    }
    const names: ImportedName[] = [];
    if (lx.type === TOKEN_STRING) {
      if (typeOnly) decline();
      const specifier = this.readSpecifier();
      this.skipImportAttributes();
      this.consumeSemicolon();
      if (record) this.pushImport(specifier, 'static', false, names, start);
      return;
    }
    if (lx.type === TOKEN_NAME && lx.value !== 'from') {
      const local = this.readBindingName();
      if (lx.is('=')) {
        this.parseImportEquals(start, local, typeOnly, record);
        return;
      }
      names.push({ imported: 'default', local, typeOnly });
      if (lx.is(',')) lx.next();
      else if (!lx.isName('from')) decline();
    } else if (lx.isName('from')) {
      const following = this.peek();
      if (following.type !== TOKEN_STRING) {
        names.push({ imported: 'default', local: this.readBindingName(), typeOnly });
        if (lx.is(',')) lx.next();
      }
    }
    if (lx.is('*')) {
      lx.next();
      if (!lx.isName('as')) decline();
      lx.next();
      names.push({ imported: '*', local: this.readBindingName(), typeOnly });
    } else if (lx.is('{')) {
      this.parseImportSpecifiers(names, typeOnly);
    }
    if (!lx.isName('from')) decline();
    lx.next();
    const specifier = this.readSpecifier();
    this.skipImportAttributes();
    this.consumeSemicolon();
    if (record) this.pushImport(specifier, 'static', typeOnly, names, start);
  }

  private parseImportSpecifiers(names: ImportedName[], typeOnly: boolean): void {
    const lx = this.lx;
    lx.next();
    while (!lx.is('}')) {
      let specifierTypeOnly = typeOnly;
      if (this.typescript && lx.isName('type')) {
        const following = this.peek();
        if (following.type === TOKEN_NAME && following.value === 'as') decline();
        if (following.type === TOKEN_NAME || following.type === TOKEN_STRING) {
          specifierTypeOnly = true;
          lx.next();
        }
      }
      let imported: string;
      if (lx.type === TOKEN_STRING) {
        imported = this.readSpecifier();
        if (!lx.isName('as')) decline();
      } else {
        if (lx.type !== TOKEN_NAME) decline();
        imported = lx.value;
        lx.next();
      }
      let local = imported;
      if (lx.isName('as')) {
        lx.next();
        local = this.readBindingName();
      } else if (reservedWords.has(imported)) decline();
      names.push({ imported, local, typeOnly: specifierTypeOnly });
      if (lx.is(',')) lx.next();
      else if (!lx.is('}')) decline();
    }
    lx.next();
  }

  /** `import x = require('y')` records an import; `import x = A.B` is only an alias. */
  private parseImportEquals(start: number, local: string, typeOnly: boolean, record: boolean): void {
    const lx = this.lx;
    if (!this.typescript) decline();
    lx.next();
    if (lx.isName('require') && this.peek().value === '(') {
      lx.next();
      lx.next();
      const specifier = this.readSpecifier();
      lx.expect(')');
      this.consumeSemicolon();
      if (record) this.pushImport(specifier, 'import-equals', typeOnly, [{ imported: '*', local, typeOnly }], start);
      return;
    }
    this.readBindingName();
    while (lx.is('.')) {
      lx.next();
      if (lx.type !== TOKEN_NAME) decline();
      lx.next();
    }
    this.consumeSemicolon();
  }

  /** `with { type: 'json' }` (or the older `assert { … }` on the same line). */
  private skipImportAttributes(): void {
    const lx = this.lx;
    if (!(lx.isName('with') || (lx.isName('assert') && !lx.nlBefore))) return;
    lx.next();
    lx.expect('{');
    while (!lx.is('}')) {
      if (lx.type !== TOKEN_NAME && lx.type !== TOKEN_STRING) decline();
      lx.next();
      lx.expect(':');
      if (lx.type !== TOKEN_STRING) decline();
      lx.next();
      if (lx.is(',')) lx.next();
      else if (!lx.is('}')) decline();
    }
    lx.next();
  }

  /** A module specifier or string name: a string literal whose value is its raw text. */
  private readSpecifier(): string {
    const lx = this.lx;
    if (lx.type !== TOKEN_STRING) decline();
    const value = lx.literalValue();
    if (value === undefined) decline();
    lx.next();
    return value;
  }

  /** An identifier that a declaration binds. */
  private readBindingName(): string {
    const lx = this.lx;
    if (lx.type !== TOKEN_NAME || reservedWords.has(lx.value)) decline();
    // Strict mode forbids binding these; swc enforces it outside ambient declarations.
    if ((lx.value === 'arguments' || lx.value === 'eval') && this.ambientDepth === 0) decline();
    const name = lx.value;
    lx.next();
    return name;
  }

  private parseExport(start: number, record: boolean): void {
    const lx = this.lx;
    if (this.commonJs || this.functionDepth > 0) decline();
    lx.next();
    const slot = this.events.length;
    if (lx.is('@')) {
      this.parseDecorators(true);
      this.recordExported(this.parseDeclarationAfterDecorators(start), record, slot);
      return;
    }
    if (lx.is('*')) {
      this.parseExportAll(start, false, record);
      return;
    }
    if (lx.is('{')) {
      this.parseExportNamed(start, false, record);
      return;
    }
    if (lx.is('=')) {
      if (!this.typescript) decline();
      lx.next();
      this.parseExportAssignment(start, record);
      return;
    }
    if (lx.type !== TOKEN_NAME) decline();
    const keyword = lx.value;
    if (keyword === 'default') {
      this.parseExportDefault(start, record);
      return;
    }
    if (this.typescript && keyword === 'type') {
      const following = this.peek();
      if (following.value === '{' && following.type === TOKEN_PUNCT) {
        lx.next();
        this.parseExportNamed(start, true, record);
        return;
      }
      if (following.value === '*' && following.type === TOKEN_PUNCT) {
        lx.next();
        this.parseExportAll(start, true, record);
        return;
      }
    }
    if (this.typescript && keyword === 'import') {
      lx.next();
      let typeOnly = false;
      if (lx.isName('type') && this.peek().type === TOKEN_NAME) {
        typeOnly = true;
        lx.next();
      }
      const local = this.readBindingName();
      if (!lx.is('=')) decline();
      this.parseImportEquals(start, local, typeOnly, record);
      return;
    }
    if (this.typescript && keyword === 'as') {
      lx.next();
      if (!lx.isName('namespace')) decline();
      lx.next();
      this.readBindingName();
      this.consumeSemicolon();
      return;
    }
    const declared = this.parseDeclaration(start, record ? CONTEXT_MODULE : CONTEXT_NAMESPACE);
    if (declared === undefined) decline();
    this.recordExported(declared, record, slot);
  }

  /**
   * The walker records an export before it walks the declaration, so the export events go in at `slot`, ahead of
   * anything the declaration's own values recorded (a CommonJS export inside a function body).
   */
  private recordExported(declared: DeclaredName[], record: boolean, slot: number): void {
    if (!record) return;
    const exports: LinkEvent[] = [];
    for (const entry of declared) {
      const span = this.span(entry.start, entry.end);
      this.declare(entry.name, entry.kind, span, entry.typeOnly);
      exports.push({ type: 'export', fact: { name: entry.name, kind: entry.kind, span, typeOnly: entry.typeOnly } });
    }
    this.events.splice(slot, 0, ...exports);
  }

  /** `export * from 'x'`, `export * as ns from 'x'`. */
  private parseExportAll(start: number, typeOnly: boolean, record: boolean): void {
    const lx = this.lx;
    lx.next();
    let exported: string | undefined;
    if (lx.isName('as')) {
      lx.next();
      exported = this.readModuleExportName();
    }
    if (!lx.isName('from')) decline();
    lx.next();
    const specifier = this.readSpecifier();
    this.skipImportAttributes();
    this.consumeSemicolon();
    if (!record) return;
    if (exported === undefined) {
      this.pushImport(specifier, 'reexport-all', typeOnly, [{ imported: '*', local: '*', typeOnly }], start);
      return;
    }
    const span = this.span(start, lx.prevEnd);
    this.events.push({ type: 'export', fact: { name: exported, kind: 'reexport', span, typeOnly, from: specifier, imported: '*' } });
    this.pushImport(specifier, 'reexport', typeOnly, [{ imported: '*', local: exported, typeOnly }], start);
  }

  /** `export {a, b as c}` and `export {a} from 'x'`. */
  private parseExportNamed(start: number, typeOnly: boolean, record: boolean): void {
    const lx = this.lx;
    lx.next();
    const specifiers: { orig: string; exported: string; typeOnly: boolean; origIsString: boolean }[] = [];
    while (!lx.is('}')) {
      let specifierTypeOnly = typeOnly;
      if (this.typescript && lx.isName('type')) {
        const following = this.peek();
        if (following.type === TOKEN_NAME && following.value === 'as') decline();
        if (following.type === TOKEN_NAME || following.type === TOKEN_STRING) {
          specifierTypeOnly = true;
          lx.next();
        }
      }
      const origIsString = lx.type === TOKEN_STRING;
      const orig = this.readModuleExportName();
      let exported = orig;
      if (lx.isName('as')) {
        lx.next();
        exported = this.readModuleExportName();
      }
      specifiers.push({ orig, exported, typeOnly: specifierTypeOnly, origIsString });
      if (lx.is(',')) lx.next();
      else if (!lx.is('}')) decline();
    }
    lx.next();
    let specifier: string | undefined;
    if (lx.isName('from')) {
      lx.next();
      specifier = this.readSpecifier();
      this.skipImportAttributes();
    }
    this.consumeSemicolon();
    if (!record) return;
    const span = this.span(start, lx.prevEnd);
    if (specifier === undefined) {
      for (const entry of specifiers) {
        if (entry.origIsString || reservedWords.has(entry.orig)) decline();
        this.events.push({ type: 'pending', name: entry.exported, local: entry.orig, kind: 'named', span, typeOnly: entry.typeOnly });
      }
      return;
    }
    const names: ImportedName[] = [];
    for (const entry of specifiers) {
      names.push({ imported: entry.orig, local: entry.exported, typeOnly: entry.typeOnly });
      this.events.push({
        type: 'export',
        fact: { name: entry.exported, kind: 'reexport', span, typeOnly: entry.typeOnly, from: specifier, imported: entry.orig },
      });
    }
    this.pushImport(specifier, 'reexport', typeOnly, names, start);
  }

  private readModuleExportName(): string {
    const lx = this.lx;
    if (lx.type === TOKEN_STRING) return this.readSpecifier();
    if (lx.type !== TOKEN_NAME) decline();
    const name = lx.value;
    lx.next();
    return name;
  }

  /** `export = value`: CommonJS-style, recorded as `module.exports = value` is. */
  private parseExportAssignment(start: number, record: boolean): void {
    if (!record) {
      this.parseAssignment();
      this.consumeSemicolon();
      return;
    }
    const event: LinkEvent = { type: 'cjs', entries: [] };
    this.events.push(event);
    this.wantObject = true;
    this.parseAssignment();
    this.wantObject = false;
    const entries = this.getCommonJsValueEntries();
    this.consumeSemicolon();
    if (entries === undefined) event.entries.push({ name: 'default', local: this.shapeLocal(), span: this.span(start, this.lx.prevEnd) });
    else event.entries.push(...entries);
  }

  private parseExportDefault(start: number, record: boolean): void {
    const lx = this.lx;
    lx.next();
    const slot = this.events.length;
    let local: string | undefined;
    let typeOnly = false;
    let isDeclaration = true;
    if (lx.isName('function') || (lx.isName('async') && this.isAsyncFunction())) {
      local = this.parseFunction(false, true);
    } else if (lx.isName('class') || lx.is('@') || (this.typescript && lx.isName('abstract') && this.peekIsName('class', true))) {
      if (lx.is('@')) this.parseDecorators(true);
      if (lx.isName('abstract')) lx.next();
      local = this.parseClass(false);
    } else if (this.typescript && lx.isName('interface') && this.peekSameLineName()) {
      this.parseInterface();
      typeOnly = true;
    } else {
      isDeclaration = false;
      this.parseAssignment();
      if (this.shape === SHAPE_NAME) local = this.shapeText;
      this.consumeSemicolon();
    }
    if (!record) return;
    const span = this.span(start, lx.prevEnd);
    let event: LinkEvent;
    if (!isDeclaration && local !== undefined) {
      event = { type: 'pending', name: 'default', local, kind: 'default', span, typeOnly: false };
    } else if (local !== undefined && !typeOnly) {
      event = { type: 'export', fact: { name: 'default', kind: 'default', span, typeOnly, local } };
    } else {
      event = { type: 'export', fact: { name: 'default', kind: 'default', span, typeOnly } };
    }
    this.events.splice(slot, 0, event);
  }

  // ---------------------------------------------------------------- declarations

  /** After decorators only a class may follow (or `export`, handled by the caller). */
  private parseDeclarationAfterDecorators(start: number): DeclaredName[] {
    const lx = this.lx;
    if (lx.isName('abstract') && this.typescript) lx.next();
    if (!lx.isName('class')) decline();
    const name = this.parseClass(true);
    if (name === undefined) decline();
    return [{ name, kind: 'class', typeOnly: false, start, end: lx.prevEnd }];
  }

  /**
   * A declaration statement at the current token, or undefined when the statement is something else. Returns the
   * names it declares with their spans (a variable statement with several declarators: one span each).
   */
  private parseDeclaration(start: number, context: number): DeclaredName[] | undefined {
    const lx = this.lx;
    if (lx.type !== TOKEN_NAME) return undefined;
    const keyword = lx.value;
    switch (keyword) {
      case 'var':
      case 'const':
        if (keyword === 'const' && this.peekIsName('enum', false)) {
          lx.next();
          return this.single(this.parseEnum(), 'enum', false, start);
        }
        return this.parseVariableStatement(start, context);
      case 'let':
        if (!this.startsLetDeclaration()) return undefined;
        return this.parseVariableStatement(start, context);
      case 'function':
        return this.single(this.parseFunction(true, false), 'function', false, start);
      case 'async':
        if (!this.isAsyncFunction()) return undefined;
        return this.single(this.parseFunction(true, false), 'function', false, start);
      case 'class':
        return this.single(this.parseClass(true), 'class', false, start);
      case 'using':
        if (!this.peekSameLineName()) return undefined;
        return this.parseUsingDeclaration();
      case 'await':
        if (!this.startsAwaitUsing()) return undefined;
        lx.next();
        return this.parseUsingDeclaration();
      case 'enum':
        return this.single(this.parseEnum(), 'enum', false, start);
    }
    if (!this.typescript) return undefined;
    switch (keyword) {
      case 'abstract':
        if (!this.peekIsName('class', true)) return undefined;
        lx.next();
        return this.single(this.parseClass(true), 'class', false, start);
      case 'interface':
        if (!this.peekSameLineName()) return undefined;
        return this.single(this.parseInterface(), 'interface', true, start);
      case 'type':
        if (!this.peekSameLineName()) return undefined;
        return this.single(this.parseTypeAlias(), 'type', true, start);
      case 'namespace':
      case 'module': {
        const following = this.peek();
        if (following.nlBefore || !(following.type === TOKEN_NAME || (following.type === TOKEN_STRING && keyword === 'module')))
          return undefined;
        return this.single(this.parseNamespace(), 'namespace', false, start);
      }
      case 'declare':
        if (!this.peekSameLineName()) return undefined;
        lx.next();
        return this.parseAmbientDeclaration(start, context);
      case 'global':
        if (this.ambientDepth === 0 || this.peek().value !== '{') return undefined;
        return this.parseGlobal(start);
    }
    return undefined;
  }

  /** After `declare`: everything inside is ambient (a `const` needs no initialiser there). */
  private parseAmbientDeclaration(start: number, context: number): DeclaredName[] {
    const lx = this.lx;
    this.ambientDepth++;
    let declared: DeclaredName[] | undefined;
    if (lx.isName('global')) declared = this.parseGlobal(start);
    else if (lx.isName('module') && this.peek().type === TOKEN_STRING)
      declared = this.single(this.parseNamespace(), 'namespace', false, start);
    else declared = this.parseDeclaration(start, context);
    if (declared === undefined) decline();
    this.ambientDepth--;
    return declared;
  }

  /** `global { … }` (after `declare`, or inside an ambient module): swc names it `global`. */
  private parseGlobal(start: number): DeclaredName[] {
    const lx = this.lx;
    lx.next();
    if (!lx.is('{')) decline();
    this.parseNamespaceBody();
    return this.single('global', 'namespace', false, start);
  }

  private single(name: string | undefined, kind: ExportKind, typeOnly: boolean, start: number): DeclaredName[] {
    if (name === undefined) return [];
    return [{ name, kind, typeOnly, start, end: this.lx.prevEnd }];
  }

  /**
   * `using x = …` and `await using x = …`: swc's `UsingDecl`, which `recordDeclaration` does not know, so it declares
   * nothing; its declarators are walked as any others (a `require()` there binds names).
   */
  private parseUsingDeclaration(): DeclaredName[] {
    this.lx.next();
    this.parseDeclarators(false, false);
    this.consumeSemicolon();
    return [];
  }

  private startsAwaitUsing(): boolean {
    const lx = this.lx;
    const state = lx.snapshot();
    lx.next();
    let starts = false;
    if (lx.isName('using') && !lx.nlBefore) {
      lx.next();
      starts = lx.type === TOKEN_NAME && !lx.nlBefore && lx.value !== 'in' && lx.value !== 'instanceof';
    }
    lx.restore(state);
    return starts;
  }

  private startsLetDeclaration(): boolean {
    const following = this.peek();
    return following.type === TOKEN_NAME
      ? !(following.value === 'in' || following.value === 'instanceof')
      : following.type === TOKEN_PUNCT && (following.value === '[' || following.value === '{');
  }

  private isAsyncFunction(): boolean {
    const following = this.peek();
    return following.type === TOKEN_NAME && following.value === 'function' && !following.nlBefore;
  }

  private peekIsName(name: string, sameLine: boolean): boolean {
    const following = this.peek();
    return following.type === TOKEN_NAME && following.value === name && !(sameLine && following.nlBefore);
  }

  private peekSameLineName(): boolean {
    const following = this.peek();
    return following.type === TOKEN_NAME && !following.nlBefore;
  }

  private parseVariableStatement(start: number, context: number): DeclaredName[] {
    const lx = this.lx;
    // swc (no declaration-file mode) rejects `const a: T;` unless it is ambient, even in a `.d.ts`.
    const requireInitialiser = lx.value === 'const' && this.ambientDepth === 0;
    lx.next();
    const declarators = this.parseDeclarators(context === CONTEXT_MODULE, requireInitialiser);
    this.consumeSemicolon();
    if (context !== CONTEXT_MODULE) return [];
    const declared: DeclaredName[] = [];
    const end = lx.prevEnd;
    for (const declarator of declarators) {
      const single = declarators.length === 1;
      for (const name of declarator.names) {
        declared.push({
          name,
          kind: 'variable',
          typeOnly: false,
          start: single ? start : declarator.start,
          end: single ? end : declarator.end,
        });
      }
    }
    return declared;
  }

  /** Declarators after `var`/`let`/`const`: a `require()` or `import()` that is the whole initialiser binds names. */
  private parseDeclarators(collectNames: boolean, requireInitialiser: boolean): { names: string[]; start: number; end: number }[] {
    const lx = this.lx;
    const declarators: { names: string[]; start: number; end: number }[] = [];
    for (;;) {
      const start = lx.start;
      const names: string[] = [];
      const eventsBefore = this.events.length;
      const binding = this.parseBindingTarget(collectNames ? names : undefined, true);
      const patternHasEvents = this.events.length !== eventsBefore;
      if (this.typescript) {
        if (lx.is('!')) lx.next();
        if (lx.is(':')) {
          lx.next();
          skipType(lx);
        }
      }
      if (lx.is('=')) {
        lx.next();
        this.parseAssignment();
        this.recordBindingImport(binding, patternHasEvents);
      } else if (requireInitialiser) decline();
      declarators.push({ names, start, end: lx.prevEnd });
      if (!lx.is(',')) return declarators;
      lx.next();
    }
  }

  /** `ModuleLinks.recordBindingImport`: the initialiser's call gets the binding's names. */
  private recordBindingImport(binding: BindingInfo, patternHasEvents: boolean): void {
    const shape = this.shape;
    if (shape < SHAPE_CALL || shape > SHAPE_AWAIT_MEMBER) return;
    const event = this.shapeEvent;
    if (event === undefined) return;
    if (patternHasEvents) decline();
    if (shape === SHAPE_MEMBER || shape === SHAPE_AWAIT_MEMBER) {
      const member = this.shapeText;
      if (member === undefined) decline();
      event.names = [{ imported: member, local: binding.name ?? member, typeOnly: false }];
    } else if (binding.isObject) {
      if (binding.imports === undefined) decline();
      event.names = binding.imports;
    } else {
      event.names = [{ imported: '*', local: binding.name ?? '*', typeOnly: false }];
    }
  }

  /**
   * An identifier or destructuring pattern that a declaration or parameter binds. `names` collects every bound
   * name (`getBindingNames`); an object pattern also reports `getPatternImports` when `withImports`.
   */
  private parseBindingTarget(names: string[] | undefined, withImports: boolean): BindingInfo {
    const lx = this.lx;
    if (lx.type === TOKEN_NAME) {
      const name = this.readBindingName();
      names?.push(name);
      return { name, isObject: false, imports: undefined };
    }
    if (lx.is('[')) {
      lx.next();
      while (!lx.is(']')) {
        if (lx.is(',')) {
          lx.next();
          continue;
        }
        if (lx.is('...')) {
          lx.next();
          this.parseBindingTarget(names, false);
        } else this.parseBindingElement(names);
        if (lx.is(',')) lx.next();
        else if (!lx.is(']')) decline();
      }
      lx.next();
      return { name: undefined, isObject: false, imports: undefined };
    }
    if (!lx.is('{')) decline();
    lx.next();
    let imports: ImportedName[] | undefined = withImports ? [] : undefined;
    while (!lx.is('}')) {
      if (lx.is('...')) {
        lx.next();
        const rest = this.parseBindingTarget(names, false);
        if (rest.name !== undefined) imports?.push({ imported: '*', local: rest.name, typeOnly: false });
      } else {
        const keyIsName = lx.type === TOKEN_NAME;
        const keyName = keyIsName ? lx.value : undefined;
        const key = this.parsePropertyKey();
        if (lx.is(':')) {
          lx.next();
          const value = this.parseBindingElement(names);
          if (key.unknown) imports = undefined;
          else if (key.name !== undefined) imports?.push({ imported: key.name, local: value.name ?? key.name, typeOnly: false });
        } else {
          if (!keyIsName || keyName === undefined || reservedWords.has(keyName)) decline();
          names?.push(keyName);
          imports?.push({ imported: keyName, local: keyName, typeOnly: false });
          if (lx.is('=')) {
            lx.next();
            this.parseAssignment();
          }
        }
      }
      if (lx.is(',')) lx.next();
      else if (!lx.is('}')) decline();
    }
    lx.next();
    return { name: undefined, isObject: true, imports };
  }

  private parseBindingElement(names: string[] | undefined): BindingInfo {
    const binding = this.parseBindingTarget(names, false);
    if (this.lx.is('=')) {
      this.lx.next();
      this.parseAssignment();
    }
    return binding;
  }

  /**
   * A property key (`a`, `'a'`, `1`, `[expr]`), with its name as `getKeyName` reads it: undefined for a computed
   * key without a static value; `unknown` when the scanner cannot tell that name exactly (escapes, odd numbers).
   */
  private parsePropertyKey(): { name: string | undefined; unknown: boolean } {
    const lx = this.lx;
    switch (lx.type) {
      case TOKEN_NAME: {
        const name = lx.value;
        lx.next();
        return { name, unknown: false };
      }
      case TOKEN_STRING: {
        const name = lx.literalValue();
        lx.next();
        return { name, unknown: name === undefined };
      }
      case TOKEN_NUMBER: {
        const raw = lx.value;
        lx.next();
        const simple = /^(0|[1-9][0-9]{0,14})$/.test(raw);
        return { name: simple ? raw : undefined, unknown: !simple };
      }
      case TOKEN_PRIVATE: {
        const name = lx.value;
        lx.next();
        return { name, unknown: false };
      }
    }
    if (!lx.is('[')) decline();
    lx.next();
    const savedNoIn = this.noIn;
    this.noIn = false;
    this.parseAssignment();
    this.noIn = savedNoIn;
    lx.expect(']');
    if (this.shape === SHAPE_STRING) {
      if (this.shapeWrapped) return { name: undefined, unknown: true };
      return { name: this.shapeText, unknown: this.shapeText === undefined };
    }
    return { name: undefined, unknown: false };
  }

  /** `function name<T>(params): R { body }`; without a body in TypeScript (overloads, `declare`). Returns the name. */
  private parseFunction(nameRequired: boolean, isDefault: boolean): string | undefined {
    const lx = this.lx;
    let isAsync = false;
    if (lx.isName('async')) {
      isAsync = true;
      lx.next();
    }
    lx.next();
    let isGenerator = false;
    if (lx.is('*')) {
      isGenerator = true;
      lx.next();
    }
    let name: string | undefined;
    if (lx.type === TOKEN_NAME && !lx.is('(')) name = this.readBindingName();
    else if (nameRequired && !isDefault) decline();
    // Only a declaration may leave its body out (an overload or `declare function`), not a function expression.
    this.parseFunctionRest(isAsync, isGenerator, this.typescript && (nameRequired || isDefault));
    return name;
  }

  /** Type parameters, parameters, return type and body (which TypeScript may leave out: `allowBodyless`). */
  private parseFunctionRest(isAsync: boolean, isGenerator: boolean, allowBodyless: boolean): void {
    const lx = this.lx;
    const saved = this.enterFunction(isAsync, isGenerator);
    if (this.typescript && lx.is('<')) skipTypeBrackets(lx);
    this.parseParameters();
    if (this.typescript && lx.is(':')) {
      lx.next();
      skipType(lx);
    }
    if (lx.is('{')) this.parseFunctionBody();
    else if (allowBodyless) this.consumeSemicolon();
    else decline();
    this.leaveFunction(saved);
  }

  private enterFunction(isAsync: boolean, isGenerator: boolean): number {
    const saved = (this.inAsync ? 1 : 0) | (this.inGenerator ? 2 : 0) | (this.noIn ? 4 : 0) | (this.consequentDepth << 3);
    this.inAsync = isAsync;
    this.inGenerator = isGenerator;
    this.noIn = false;
    this.consequentDepth = 0;
    this.functionDepth++;
    return saved;
  }

  private leaveFunction(saved: number): void {
    this.inAsync = (saved & 1) !== 0;
    this.inGenerator = (saved & 2) !== 0;
    this.noIn = (saved & 4) !== 0;
    this.consequentDepth = saved >> 3;
    this.functionDepth--;
  }

  private parseParameters(): void {
    const lx = this.lx;
    lx.expect('(');
    while (!lx.is(')')) {
      if (lx.is('@')) this.parseDecorators(false);
      if (this.typescript) {
        while (lx.type === TOKEN_NAME && parameterModifiers.has(lx.value)) {
          const following = this.peek();
          if (following.type === TOKEN_NAME || following.value === '{' || following.value === '[') lx.next();
          else break;
        }
      }
      if (lx.is('...')) lx.next();
      if (this.typescript && lx.isName('this')) lx.next();
      else this.parseBindingTarget(undefined, false);
      if (this.typescript) {
        if (lx.is('?')) lx.next();
        if (lx.is(':')) {
          lx.next();
          skipType(lx);
        }
      }
      if (lx.is('=')) {
        lx.next();
        this.parseAssignment();
      }
      if (lx.is(',')) lx.next();
      else if (!lx.is(')')) decline();
    }
    lx.next();
  }

  private parseFunctionBody(): void {
    const lx = this.lx;
    lx.expect('{');
    while (!lx.is('}')) {
      if (lx.type === TOKEN_EOF) decline();
      this.parseStatement(CONTEXT_BODY);
    }
    lx.next();
  }

  /**
   * `class Name<T> extends Base implements I { members }`. The walker visits a class's body before its superclass,
   * so the events of an `extends` expression are moved after those of the body. Returns the name.
   */
  private parseClass(nameRequired: boolean): string | undefined {
    const lx = this.lx;
    lx.next();
    let name: string | undefined;
    if (lx.type === TOKEN_NAME && lx.value !== 'extends' && !(this.typescript && lx.value === 'implements')) name = this.readBindingName();
    else if (nameRequired) decline();
    if (this.typescript && lx.is('<')) skipTypeBrackets(lx);
    const heritageStart = this.events.length;
    if (lx.isName('extends')) {
      lx.next();
      this.parseLeftHandSide();
      if (this.afterArrow) decline();
      if (this.typescript && lx.is('<')) skipTypeBrackets(lx);
    }
    const heritageEnd = this.events.length;
    if (this.typescript && lx.isName('implements')) {
      lx.next();
      for (;;) {
        skipType(lx);
        if (!lx.is(',')) break;
        lx.next();
      }
    }
    this.parseClassBody();
    if (heritageEnd > heritageStart && this.events.length > heritageEnd) {
      const heritage = this.events.splice(heritageStart, heritageEnd - heritageStart);
      this.events.push(...heritage);
    }
    this.setOther();
    return name;
  }

  private parseClassBody(): void {
    const lx = this.lx;
    lx.expect('{');
    const savedNoIn = this.noIn;
    const savedConsequent = this.consequentDepth;
    this.noIn = false;
    this.consequentDepth = 0;
    while (!lx.is('}')) {
      if (lx.type === TOKEN_EOF) decline();
      this.parseClassMember();
    }
    this.noIn = savedNoIn;
    this.consequentDepth = savedConsequent;
    lx.next();
  }

  private parseClassMember(): void {
    const lx = this.lx;
    if (lx.is(';')) {
      lx.next();
      return;
    }
    if (lx.is('@')) this.parseDecorators(false);
    let isAsync = false;
    let isGenerator = false;
    let isStatic = false;
    while (lx.type === TOKEN_NAME && memberModifiers.has(lx.value)) {
      const following = this.peek();
      const isModifier =
        !following.nlBefore &&
        (following.type === TOKEN_NAME ||
          following.type === TOKEN_STRING ||
          following.type === TOKEN_NUMBER ||
          following.type === TOKEN_PRIVATE ||
          (following.type === TOKEN_PUNCT &&
            (following.value === '[' || following.value === '*' || (following.value === '{' && lx.value === 'static'))));
      if (!isModifier) {
        if (following.nlBefore && following.type !== TOKEN_PUNCT) decline();
        break;
      }
      if (lx.value === 'async') isAsync = true;
      if (lx.value === 'static') isStatic = true;
      lx.next();
    }
    if (isStatic && lx.is('{')) {
      const saved = this.enterFunction(false, false);
      this.parseFunctionBody();
      this.leaveFunction(saved);
      return;
    }
    if (lx.is('*')) {
      isGenerator = true;
      lx.next();
    }
    if (this.typescript && lx.is('[') && this.isIndexSignature()) {
      skipTypeBrackets(lx);
      if (lx.is('?')) lx.next();
      if (lx.is(':')) {
        lx.next();
        skipType(lx);
      }
      this.consumeSemicolon();
      return;
    }
    this.parsePropertyKey();
    if (this.typescript && (lx.is('?') || lx.is('!'))) lx.next();
    if (lx.is('(') || lx.is('<')) {
      this.parseFunctionRest(isAsync, isGenerator, this.typescript);
      return;
    }
    if (isAsync || isGenerator) decline();
    if (this.typescript && lx.is(':')) {
      lx.next();
      skipType(lx);
    }
    if (lx.is('=')) {
      lx.next();
      const saved = this.enterFunction(false, false);
      this.parseAssignment();
      this.leaveFunction(saved);
    }
    this.consumeSemicolon();
  }

  /** `[key: string]: T` (TypeScript) rather than a computed member name `[expr]`. */
  private isIndexSignature(): boolean {
    const lx = this.lx;
    const state = lx.snapshot();
    lx.next();
    let isSignature = false;
    if (lx.type === TOKEN_NAME) {
      lx.next();
      isSignature = lx.is(':');
    }
    lx.restore(state);
    return isSignature;
  }

  /**
   * Decorators: `@a.b(args)` or `@(expr)`. The walker visits a class's decorators first, as they stand; those of
   * members and parameters it visits after other parts, so events inside them are declined (`allowEvents`).
   */
  private parseDecorators(allowEvents: boolean): void {
    const lx = this.lx;
    const eventsBefore = this.events.length;
    while (lx.is('@')) {
      lx.next();
      if (lx.is('(')) {
        lx.next();
        this.parseExpression();
        lx.expect(')');
      } else {
        if (lx.type !== TOKEN_NAME) decline();
        lx.next();
        while (lx.is('.')) {
          lx.next();
          if (lx.type !== TOKEN_NAME) decline();
          lx.next();
        }
        if (this.typescript && lx.is('<')) skipTypeBrackets(lx);
        if (lx.is('(')) this.parseArguments();
      }
    }
    if (!allowEvents && this.events.length !== eventsBefore) decline();
    this.setOther();
  }

  private parseInterface(): string {
    const lx = this.lx;
    lx.next();
    const name = this.readBindingName();
    if (lx.is('<')) skipTypeBrackets(lx);
    if (lx.isName('extends')) {
      lx.next();
      for (;;) {
        skipType(lx);
        if (!lx.is(',')) break;
        lx.next();
      }
    }
    if (!lx.is('{')) decline();
    skipTypeBrackets(lx);
    return name;
  }

  private parseTypeAlias(): string {
    const lx = this.lx;
    lx.next();
    const name = this.readBindingName();
    if (lx.is('<')) skipTypeBrackets(lx);
    lx.expect('=');
    skipType(lx);
    this.consumeSemicolon();
    return name;
  }

  /** The walker never looks inside an enum, so an import or export there would be one it skips: declined. */
  private parseEnum(): string {
    const lx = this.lx;
    lx.next();
    const name = this.readBindingName();
    lx.expect('{');
    const eventsBefore = this.events.length;
    while (!lx.is('}')) {
      if (lx.type !== TOKEN_NAME && lx.type !== TOKEN_STRING) decline();
      lx.next();
      if (lx.is('=')) {
        lx.next();
        this.parseAssignment();
      }
      if (lx.is(',')) lx.next();
      else if (!lx.is('}')) decline();
    }
    lx.next();
    if (this.events.length !== eventsBefore) decline();
    return name;
  }

  /** `namespace A.B { … }`, `module A { … }`, `module 'x' { … }` or `module 'x';`. Returns the identifier, if any. */
  private parseNamespace(): string | undefined {
    const lx = this.lx;
    lx.next();
    let name: string | undefined;
    if (lx.type === TOKEN_STRING) {
      lx.next();
      if (!lx.is('{')) {
        this.consumeSemicolon();
        return undefined;
      }
    } else {
      name = this.readBindingName();
      while (lx.is('.')) {
        lx.next();
        this.readBindingName();
      }
    }
    this.parseNamespaceBody();
    return name;
  }

  private parseNamespaceBody(): void {
    const lx = this.lx;
    lx.expect('{');
    while (!lx.is('}')) {
      if (lx.type === TOKEN_EOF) decline();
      this.parseNamespaceItem();
    }
    lx.next();
  }

  /** Inside a namespace, imports and exports are walked past: only what their declarations' values hold counts. */
  private parseNamespaceItem(): void {
    const lx = this.lx;
    const start = lx.start;
    if (lx.isName('export')) {
      this.parseExport(start, false);
      return;
    }
    if (lx.isName('import') && this.startsImportDeclaration()) {
      this.parseImport(start, false);
      return;
    }
    if (lx.is('@')) {
      this.parseDecorators(true);
      this.parseDeclarationAfterDecorators(start);
      return;
    }
    if (this.parseDeclaration(start, CONTEXT_NAMESPACE) === undefined) this.parseStatement(CONTEXT_NAMESPACE);
  }

  // ---------------------------------------------------------------- statements

  private consumeSemicolon(): void {
    const lx = this.lx;
    if (lx.is(';')) {
      lx.next();
      return;
    }
    if (lx.is('}') || lx.type === TOKEN_EOF || lx.nlBefore) return;
    decline();
  }

  private parseStatement(context: number): void {
    const lx = this.lx;
    const start = lx.start;
    if (lx.type === TOKEN_PUNCT) {
      if (lx.value === '{') {
        this.parseBlock();
        return;
      }
      if (lx.value === ';') {
        lx.next();
        return;
      }
      if (lx.value === '@') {
        this.parseDecorators(true);
        this.parseDeclarationAfterDecorators(start);
        return;
      }
    } else if (lx.type === TOKEN_NAME) {
      if (this.parseKeywordStatement(context, start)) return;
    }
    this.parseExpressionStatement();
  }

  private parseBlock(): void {
    const lx = this.lx;
    lx.expect('{');
    while (!lx.is('}')) {
      if (lx.type === TOKEN_EOF) decline();
      this.parseStatement(CONTEXT_BODY);
    }
    lx.next();
  }

  /** Statements that start with a keyword; false when the name starts an expression statement instead. */
  private parseKeywordStatement(context: number, start: number): boolean {
    const lx = this.lx;
    switch (lx.value) {
      case 'if':
        lx.next();
        this.parseParenthesized();
        this.parseStatement(CONTEXT_BODY);
        if (lx.isName('else')) {
          lx.next();
          this.parseStatement(CONTEXT_BODY);
        }
        return true;
      case 'for':
        this.parseFor();
        return true;
      case 'with':
        // Not allowed in strict code; whether swc reads a script as strict is its own decision.
        decline();
        break;
      case 'while':
        lx.next();
        this.parseParenthesized();
        this.parseStatement(CONTEXT_BODY);
        return true;
      case 'do':
        lx.next();
        this.parseStatement(CONTEXT_BODY);
        if (!lx.isName('while')) decline();
        lx.next();
        this.parseParenthesized();
        if (lx.is(';')) lx.next();
        return true;
      case 'return':
        // Outside a function only a `.cjs` file may return (swc's allowReturnOutsideFunction).
        if (this.functionDepth === 0 && !this.commonJs) decline();
        lx.next();
        if (!lx.is(';') && !lx.is('}') && lx.type !== TOKEN_EOF && !lx.nlBefore) this.parseExpression();
        this.consumeSemicolon();
        return true;
      case 'throw':
        lx.next();
        if (lx.nlBefore) decline();
        this.parseExpression();
        this.consumeSemicolon();
        return true;
      case 'break':
      case 'continue':
        lx.next();
        if (lx.type === TOKEN_NAME && !lx.nlBefore) lx.next();
        this.consumeSemicolon();
        return true;
      case 'debugger':
        lx.next();
        this.consumeSemicolon();
        return true;
      case 'switch':
        this.parseSwitch();
        return true;
      case 'try':
        this.parseTry();
        return true;
      case 'import':
        if (this.startsImportDeclaration()) decline();
        return false;
      case 'export':
        if (context !== CONTEXT_NAMESPACE) decline();
        this.parseExport(start, false);
        return true;
    }
    if (this.parseDeclaration(start, context === CONTEXT_MODULE ? CONTEXT_NAMESPACE : context) !== undefined) return true;
    return false;
  }

  private parseParenthesized(): void {
    const lx = this.lx;
    lx.expect('(');
    const savedNoIn = this.noIn;
    this.noIn = false;
    this.parseExpression();
    this.noIn = savedNoIn;
    lx.expect(')');
  }

  private parseFor(): void {
    const lx = this.lx;
    lx.next();
    if (lx.isName('await')) lx.next();
    lx.expect('(');
    const savedNoIn = this.noIn;
    this.noIn = true;
    if (lx.is(';')) {
      // no initialiser
    } else if (lx.isName('var') || lx.isName('const') || (lx.isName('let') && this.startsLetDeclaration())) {
      lx.next();
      this.parseDeclarators(false, false);
    } else if (lx.isName('using') && this.peekSameLineName()) {
      decline();
    } else {
      this.parseExpression();
    }
    this.noIn = false;
    if (lx.isName('of') || lx.isName('in')) {
      lx.next();
      this.parseExpression();
    } else {
      lx.expect(';');
      if (!lx.is(';')) this.parseExpression();
      lx.expect(';');
      if (!lx.is(')')) this.parseExpression();
    }
    this.noIn = savedNoIn;
    lx.expect(')');
    this.parseStatement(CONTEXT_BODY);
  }

  private parseSwitch(): void {
    const lx = this.lx;
    lx.next();
    this.parseParenthesized();
    lx.expect('{');
    while (!lx.is('}')) {
      if (lx.isName('case')) {
        lx.next();
        this.parseExpression();
      } else if (lx.isName('default')) lx.next();
      else decline();
      lx.expect(':');
      while (!lx.is('}') && !lx.isName('case') && !lx.isName('default')) {
        if (lx.type === TOKEN_EOF) decline();
        this.parseStatement(CONTEXT_BODY);
      }
    }
    lx.next();
  }

  private parseTry(): void {
    const lx = this.lx;
    lx.next();
    this.parseBlock();
    if (lx.isName('catch')) {
      lx.next();
      if (lx.is('(')) {
        lx.next();
        this.parseBindingTarget(undefined, false);
        if (this.typescript && lx.is(':')) {
          lx.next();
          skipType(lx);
        }
        lx.expect(')');
      }
      this.parseBlock();
    }
    if (lx.isName('finally')) {
      lx.next();
      this.parseBlock();
    }
  }

  /** An expression statement: a lone `require('x')` or `await import('x')` is a side-effect import (no names). */
  private parseExpressionStatement(): void {
    const lx = this.lx;
    const start = lx.start;
    this.parseExpression();
    if (this.shape === SHAPE_NAME && !this.shapeWrapped && lx.is(':') && lx.prevEnd - start === this.shapeText?.length) {
      lx.next();
      this.parseStatement(CONTEXT_BODY);
      return;
    }
    if ((this.shape === SHAPE_CALL || this.shape === SHAPE_AWAIT_CALL) && this.shapeEvent !== undefined) this.shapeEvent.names = [];
    this.consumeSemicolon();
  }

  // ---------------------------------------------------------------- expressions

  private parseExpression(): void {
    const lx = this.lx;
    this.parseAssignment();
    if (!lx.is(',')) return;
    while (lx.is(',')) {
      lx.next();
      this.parseAssignment();
    }
    this.setOther();
  }

  private parseAssignment(): void {
    const lx = this.lx;
    const start = lx.start;
    const atElementStart = this.elementStart === start;
    if (this.inGenerator && lx.isName('yield')) {
      this.wantObject = false;
      this.parseYield();
      return;
    }
    this.parseConditional();
    if (this.afterArrow) {
      // The arrow ends this assignment expression; whoever called goes on as after any other.
      this.afterArrow = false;
      return;
    }
    if (lx.type !== TOKEN_PUNCT || !assignmentOperators.has(lx.value)) return;
    const operator = lx.value;
    const target = this.shape === SHAPE_TARGET && operator === '=' ? this.shapeText : undefined;
    if (target === undefined || !(target === 'module.exports' || commonJsNamed.test(target))) {
      lx.next();
      this.wantObject = false;
      this.parseAssignment();
      this.setOther();
      return;
    }
    if (this.shapeWrapped || this.targetUnsure || atElementStart) decline();
    const event: LinkEvent = { type: 'cjs', entries: [] };
    this.events.push(event);
    lx.next();
    this.wantObject = target === 'module.exports';
    this.parseAssignment();
    this.wantObject = false;
    if (target === 'module.exports') {
      const entries = this.getCommonJsValueEntries();
      if (entries === undefined) event.entries.push({ name: 'default', local: this.shapeLocal(), span: this.span(start, lx.prevEnd) });
      else event.entries.push(...entries);
    } else {
      event.entries.push({ name: target.slice(target.lastIndexOf('.') + 1), local: this.shapeLocal(), span: this.span(start, lx.prevEnd) });
    }
    this.setOther();
  }

  /** The identifier an expression is, after unwrapping: a CommonJS export's local. */
  private shapeLocal(): string | undefined {
    return this.shape === SHAPE_NAME ? this.shapeText : undefined;
  }

  /** `module.exports = {a, b: c}` (`recordCommonJsValue`): one entry per named property; undefined for other values. */
  private getCommonJsValueEntries(): CommonJsEntry[] | undefined {
    if (this.shape !== SHAPE_OBJECT) return undefined;
    const properties = this.shapeProperties;
    if (properties === undefined) decline();
    const entries: CommonJsEntry[] = [];
    for (const property of properties) {
      if (property.spread || property.name === undefined) continue;
      entries.push({ name: property.name, local: property.local, span: this.span(property.start, property.end) });
    }
    return entries;
  }

  private parseYield(): void {
    const lx = this.lx;
    lx.next();
    if (lx.is('*') && !lx.nlBefore) {
      lx.next();
      this.parseAssignment();
    } else if (!lx.nlBefore && this.startsExpression()) {
      this.parseAssignment();
    }
    this.setOther();
  }

  /** The current token can begin an expression (after `yield`, `await`). */
  private startsExpression(): boolean {
    const lx = this.lx;
    switch (lx.type) {
      case TOKEN_EOF:
        return false;
      case TOKEN_NAME:
        return !(lx.value === 'in' || lx.value === 'of' || lx.value === 'instanceof' || lx.value === 'as' || lx.value === 'satisfies');
      case TOKEN_PUNCT:
        return (
          lx.value === '(' ||
          lx.value === '[' ||
          lx.value === '{' ||
          lx.value === '+' ||
          lx.value === '-' ||
          lx.value === '!' ||
          lx.value === '~' ||
          lx.value === '++' ||
          lx.value === '--' ||
          lx.value === '/' ||
          lx.value === '/=' ||
          lx.value === '<'
        );
      default:
        return true;
    }
  }

  private parseConditional(): void {
    const lx = this.lx;
    this.parseBinary();
    if (this.afterArrow || !lx.is('?')) return;
    const following = this.peek();
    if (
      following.type === TOKEN_PUNCT &&
      (following.value === ':' || following.value === ',' || following.value === ')' || following.value === '=')
    ) {
      return;
    }
    lx.next();
    const savedNoIn = this.noIn;
    this.noIn = false;
    this.consequentDepth++;
    this.parseAssignment();
    this.consequentDepth--;
    this.noIn = savedNoIn;
    lx.expect(':');
    this.parseAssignment();
    this.setOther();
  }

  private parseBinary(): void {
    const lx = this.lx;
    this.parseUnary();
    if (this.afterArrow) return;
    for (;;) {
      if (lx.type === TOKEN_PUNCT) {
        if (!binaryOperators.has(lx.value)) return;
      } else if (lx.type === TOKEN_NAME) {
        const value = lx.value;
        if (this.typescript && (value === 'as' || value === 'satisfies') && !lx.nlBefore) {
          const shape = this.shape;
          const text = this.shapeText;
          const event = this.shapeEvent;
          const properties = this.shapeProperties;
          lx.next();
          if (value === 'as' && lx.isName('const')) lx.next();
          else skipType(lx);
          this.shape = shape;
          this.shapeText = text;
          this.shapeEvent = event;
          this.shapeProperties = properties;
          this.shapeWrapped = true;
          continue;
        }
        if (!(value === 'instanceof' || (value === 'in' && !this.noIn))) return;
      } else return;
      lx.next();
      this.parseUnary();
      if (this.afterArrow) decline();
      this.setOther();
    }
  }

  private parseUnary(): void {
    const lx = this.lx;
    if (lx.type === TOKEN_PUNCT) {
      const value = lx.value;
      if (value === '!' || value === '~' || value === '+' || value === '-' || value === '++' || value === '--') {
        this.wantObject = false;
        lx.next();
        this.parseUnary();
        if (this.afterArrow) decline();
        this.setOther();
        return;
      }
      if (value === '<' && this.typescript && !this.jsx) {
        this.parseTypeAssertionOrGenericArrow();
        return;
      }
    } else if (lx.type === TOKEN_NAME) {
      const value = lx.value;
      if (value === 'typeof' || value === 'void' || value === 'delete') {
        this.wantObject = false;
        lx.next();
        this.parseUnary();
        if (this.afterArrow) decline();
        this.setOther();
        return;
      }
      if (value === 'await' && this.isAwaitOperator()) {
        this.wantObject = false;
        lx.next();
        this.parseUnary();
        if (this.afterArrow) decline();
        if (this.shape === SHAPE_CALL) this.shape = SHAPE_AWAIT_CALL;
        else if (this.shape === SHAPE_MEMBER) this.shape = SHAPE_AWAIT_MEMBER;
        else this.setOther();
        this.shapeWrapped = false;
        return;
      }
    }
    this.parseLeftHandSide();
    if (this.afterArrow) return;
    if ((lx.is('++') || lx.is('--')) && !lx.nlBefore) {
      lx.next();
      this.setOther();
    }
  }

  private isAwaitOperator(): boolean {
    if (this.inAsync) return true;
    if (this.functionDepth > 0) return false;
    const following = this.peek();
    if (following.nlBefore) return false;
    if (following.type === TOKEN_PUNCT) {
      return ['(', '[', '{', '+', '-', '!', '~', '/', '/=', '<', '`'].includes(following.value);
    }
    return (
      following.type !== TOKEN_EOF &&
      !(following.type === TOKEN_NAME && ['in', 'of', 'instanceof', 'as', 'satisfies'].includes(following.value))
    );
  }

  /** `.ts` only: `<T>expr` (a type assertion, unwrapped like `as`) or `<T>(x) => x`. */
  private parseTypeAssertionOrGenericArrow(): void {
    const lx = this.lx;
    skipTypeBrackets(lx);
    if (lx.is('(')) {
      this.parseParenthesizedOrArrow(false);
      this.shapeWrapped = true;
      return;
    }
    this.parseUnary();
    if (this.afterArrow) decline();
    this.shapeWrapped = true;
  }

  /** Member accesses, calls, tagged templates and non-null assertions after a primary expression. */
  private parseLeftHandSide(): void {
    const lx = this.lx;
    const chainEvents = this.events.length;
    let curried = false;
    let lastMember: string | undefined;
    if (lx.isName('new')) this.parseNew();
    else this.parsePrimary();
    if (this.afterArrow) return;
    for (;;) {
      if (lx.type === TOKEN_TEMPLATE) {
        if (curried && this.events.length > chainEvents) decline();
        this.parseTemplate();
        this.setOther();
        lastMember = undefined;
        continue;
      }
      if (lx.type !== TOKEN_PUNCT) return;
      switch (lx.value) {
        case '.':
          lx.next();
          if (!lx.isMemberName()) decline();
          lastMember = lx.value;
          this.applyMember(lx.value, false);
          lx.next();
          continue;
        case '?.':
          if (this.shape === SHAPE_NAME && this.shapeText === 'require') decline();
          lx.next();
          if (lx.is('(')) this.parseArguments();
          else if (lx.is('[')) this.parseComputedMember();
          else if (this.typescript && lx.is('<')) {
            skipTypeBrackets(lx);
            this.parseArguments();
          } else {
            if (!lx.isMemberName()) decline();
            lx.next();
          }
          this.setOther();
          lastMember = undefined;
          continue;
        case '[': {
          this.parseComputedMemberAccess();
          lastMember = undefined;
          continue;
        }
        case '(':
          if (curried && this.events.length > chainEvents) decline();
          if (lastMember !== undefined && curriedTestModifiers.has(lastMember)) curried = true;
          this.parseCall(false);
          lastMember = undefined;
          continue;
        case '!':
          if (!this.typescript || lx.nlBefore) return;
          lx.next();
          this.shapeWrapped = true;
          continue;
        case '<':
        case '<<':
          if (!this.typescript || !this.tryTypeArguments()) return;
          if (lx.isTemplate()) continue;
          if (curried && this.events.length > chainEvents) decline();
          this.parseCall(true);
          lastMember = undefined;
          continue;
        default:
          return;
      }
    }
  }

  /**
   * TypeScript call type arguments `f<T>(x)`: read speculatively; kept only when a call or template follows, as
   * TypeScript decides. Any other follower (an instantiation expression `f<T>;`) is declined as too rare to matter.
   */
  private tryTypeArguments(): boolean {
    const lx = this.lx;
    const state = lx.snapshot();
    if (!skipTypeBrackets(lx, true)) {
      lx.restore(state);
      return false;
    }
    if (lx.is('(') || lx.type === TOKEN_TEMPLATE) return true;
    const continuesAsComparison =
      !lx.nlBefore && this.startsExpression() && !(lx.type === TOKEN_PUNCT && (lx.value === '<' || lx.value === '+' || lx.value === '-'));
    if (
      !continuesAsComparison &&
      !(lx.type === TOKEN_PUNCT && (lx.value === '<' || lx.value === '>' || lx.value === '+' || lx.value === '-'))
    )
      decline();
    lx.restore(state);
    return false;
  }

  /** `.name` or `['name']` on the current shape: builds `exports.x` targets and `require('x').name` members. */
  private applyMember(name: string | undefined, computed: boolean): void {
    const shape = this.shape;
    const root = this.shapeText;
    if (shape === SHAPE_NAME && (root === 'exports' || root === 'module')) {
      if (name === undefined || (root === 'module' && name !== 'exports')) {
        this.setOther();
        return;
      }
      const unsure = this.shapeWrapped;
      this.setShape(SHAPE_TARGET, `${root}.${name}`);
      this.targetUnsure = unsure;
      return;
    }
    if (shape === SHAPE_TARGET) {
      const unsure = this.shapeWrapped || this.targetUnsure;
      if (name === undefined) this.setOther();
      else this.setShape(SHAPE_TARGET, `${root}.${name}`);
      this.targetUnsure = unsure;
      return;
    }
    if (shape === SHAPE_CALL) {
      if (name === undefined && computed) decline();
      this.shape = SHAPE_MEMBER;
      this.shapeText = name;
      this.shapeWrapped = false;
      return;
    }
    this.setOther();
  }

  private parseComputedMemberAccess(): void {
    const shape = this.shape;
    const text = this.shapeText;
    const event = this.shapeEvent;
    const wrapped = this.shapeWrapped;
    this.parseComputedMember();
    let name: string | undefined;
    if (this.shape === SHAPE_STRING) {
      if (this.shapeWrapped || this.shapeText === undefined) {
        if (shape === SHAPE_CALL || shape === SHAPE_TARGET || (shape === SHAPE_NAME && (text === 'exports' || text === 'module')))
          decline();
      } else name = this.shapeText;
    }
    this.shape = shape;
    this.shapeText = text;
    this.shapeEvent = event;
    this.shapeWrapped = wrapped;
    this.applyMember(name, true);
  }

  private parseComputedMember(): void {
    const lx = this.lx;
    lx.next();
    const savedNoIn = this.noIn;
    this.noIn = false;
    this.parseExpression();
    this.noIn = savedNoIn;
    lx.expect(']');
  }

  /**
   * A call. `require('x')` with one static argument and `import('x')` with a static first argument are module calls
   * (`SHAPE_CALL`), recorded as `require`/`dynamic` imports of every name until their context says otherwise.
   */
  private parseCall(hasTypeArguments: boolean): void {
    const lx = this.lx;
    const callStart = this.shapeStart;
    if (this.shape === SHAPE_IMPORT) {
      this.parseImportCall(callStart);
      return;
    }
    const isRequire = this.shape === SHAPE_NAME && this.shapeText === 'require';
    if (isRequire && (this.shapeWrapped || hasTypeArguments)) decline();
    if (!isRequire) {
      this.parseArguments();
      this.setOther();
      return;
    }
    lx.next();
    const savedNoIn = this.noIn;
    this.noIn = false;
    let count = 0;
    let specifier: string | undefined;
    let staticFirst = false;
    while (!lx.is(')')) {
      if (lx.is('...')) lx.next();
      this.elementStart = -1;
      this.parseAssignment();
      if (count === 0 && this.shape === SHAPE_STRING) {
        if (this.shapeWrapped || this.shapeText === undefined) decline();
        staticFirst = true;
        specifier = this.shapeText;
      }
      count++;
      if (lx.is(',')) lx.next();
      else if (!lx.is(')')) decline();
    }
    this.noIn = savedNoIn;
    lx.next();
    if (count === 1 && staticFirst && specifier !== undefined) {
      this.shapeEvent = this.pushImport(specifier, 'require', false, [{ imported: '*', local: '*', typeOnly: false }], callStart);
      this.shape = SHAPE_CALL;
      this.shapeText = undefined;
      this.shapeWrapped = false;
      return;
    }
    this.setOther();
  }

  /** Where the expression whose shape is current started (the callee of a call). */
  private shapeStart = 0;

  private parseImportCall(callStart: number): void {
    const lx = this.lx;
    lx.next();
    const savedNoIn = this.noIn;
    this.noIn = false;
    let event: ImportEvent | undefined;
    let count = 0;
    while (!lx.is(')')) {
      this.parseAssignment();
      if (count === 0 && this.shape === SHAPE_STRING) {
        if (this.shapeWrapped || this.shapeText === undefined) decline();
        event = this.pushImport(this.shapeText, 'dynamic', false, [{ imported: '*', local: '*', typeOnly: false }], callStart);
      }
      count++;
      if (lx.is(',')) lx.next();
      else if (!lx.is(')')) decline();
    }
    if (count === 0) decline();
    this.noIn = savedNoIn;
    lx.next();
    if (event === undefined) {
      this.setOther();
      return;
    }
    this.shapeEvent = event;
    this.shape = SHAPE_CALL;
    this.shapeText = undefined;
    this.shapeWrapped = false;
  }

  private parseArguments(): void {
    const lx = this.lx;
    lx.expect('(');
    const savedNoIn = this.noIn;
    const savedConsequent = this.consequentDepth;
    this.noIn = false;
    this.consequentDepth = 0;
    while (!lx.is(')')) {
      if (lx.is('...')) lx.next();
      this.parseAssignment();
      if (lx.is(',')) lx.next();
      else if (!lx.is(')')) decline();
    }
    this.noIn = savedNoIn;
    this.consequentDepth = savedConsequent;
    lx.next();
    this.setOther();
  }

  private parseNew(): void {
    const lx = this.lx;
    lx.next();
    if (lx.is('.')) {
      lx.next();
      if (!lx.isName('target')) decline();
      lx.next();
      this.setOther();
      return;
    }
    if (lx.isName('new')) this.parseNew();
    else {
      this.parsePrimary();
      if (this.afterArrow) decline();
    }
    for (;;) {
      if (lx.is('.')) {
        lx.next();
        if (!lx.isMemberName()) decline();
        lx.next();
      } else if (lx.is('[')) {
        this.parseComputedMember();
      } else if (lx.type === TOKEN_TEMPLATE) {
        this.parseTemplate();
      } else if (this.typescript && lx.is('<')) {
        const state = lx.snapshot();
        if (!skipTypeBrackets(lx, true)) {
          lx.restore(state);
          break;
        }
      } else if (this.typescript && lx.is('!') && !lx.nlBefore) {
        lx.next();
      } else break;
    }
    if (lx.is('(')) this.parseArguments();
    this.setOther();
  }

  private parsePrimary(): void {
    const lx = this.lx;
    const start = lx.start;
    const wantObject = this.wantObject;
    this.wantObject = false;
    this.shapeStart = start;
    switch (lx.type) {
      case TOKEN_NAME:
        this.parseNamePrimary(start);
        return;
      case TOKEN_NUMBER:
        lx.next();
        this.setOther();
        break;
      case TOKEN_STRING: {
        const value = lx.literalValue();
        lx.next();
        this.setShape(SHAPE_STRING, value);
        break;
      }
      case TOKEN_TEMPLATE: {
        const value = lx.templateTail ? lx.literalValue() : undefined;
        const isStatic = lx.templateTail;
        this.parseTemplate();
        if (isStatic) this.setShape(SHAPE_STRING, value);
        else this.setOther();
        break;
      }
      case TOKEN_PRIVATE:
        lx.next();
        if (!lx.isName('in')) decline();
        this.setOther();
        break;
      case TOKEN_PUNCT:
        this.parsePunctuatorPrimary(wantObject);
        return;
      default:
        decline();
    }
    this.afterArrow = false;
  }

  private parsePunctuatorPrimary(wantObject: boolean): void {
    const lx = this.lx;
    switch (lx.value) {
      case '(':
        this.wantObject = wantObject;
        this.parseParenthesizedOrArrow(false);
        return;
      case '[':
        this.parseArrayLiteral();
        break;
      case '{':
        this.parseObjectLiteral(wantObject);
        break;
      case '/':
      case '/=':
        lx.rescanRegex();
        lx.next();
        this.setOther();
        break;
      case '<':
        if (this.typescript && !this.jsx) {
          this.parseTypeAssertionOrGenericArrow();
          return;
        }
        if (!this.jsx) decline();
        if (this.typescript && this.isGenericArrowInTsx()) {
          skipTypeBrackets(lx);
          if (!lx.is('(')) decline();
          this.parseParenthesizedOrArrow(false);
          if (!this.afterArrow) decline();
          return;
        }
        this.parseJsxElementAt();
        break;
      default:
        decline();
    }
    this.afterArrow = false;
  }

  private parseNamePrimary(start: number): void {
    const lx = this.lx;
    const name = lx.value;
    switch (name) {
      case 'function':
        this.parseFunction(false, false);
        this.setOther();
        this.afterArrow = false;
        return;
      case 'class':
        this.parseClass(false);
        this.afterArrow = false;
        return;
      case 'async':
        if (this.parseAsyncPrimary()) return;
        break;
      case 'this':
      case 'super':
      case 'null':
      case 'true':
      case 'false':
        lx.next();
        this.setOther();
        this.afterArrow = false;
        return;
      case 'import':
        lx.next();
        if (lx.is('(')) {
          this.setShape(SHAPE_IMPORT);
          this.shapeStart = start;
          this.afterArrow = false;
          return;
        }
        if (!lx.is('.')) decline();
        lx.next();
        if (!lx.isName('meta')) decline();
        lx.next();
        this.setOther();
        this.afterArrow = false;
        return;
      case 'new':
        this.parseNew();
        this.afterArrow = false;
        return;
      default:
        if (reservedWords.has(name)) decline();
    }
    lx.next();
    if (lx.is('=>') && !lx.nlBefore) {
      this.parseArrowBody(false);
      return;
    }
    this.setShape(SHAPE_NAME, name);
    this.shapeStart = start;
    this.afterArrow = false;
  }

  /** `async function`, `async x => …`, `async (x) => …`; false when `async` is a plain identifier or a call. */
  private parseAsyncPrimary(): boolean {
    const lx = this.lx;
    const following = this.peek();
    if (following.nlBefore) return false;
    if (following.type === TOKEN_NAME && following.value === 'function') {
      this.parseFunction(false, false);
      this.setOther();
      this.afterArrow = false;
      return true;
    }
    if (following.type === TOKEN_NAME) {
      lx.next();
      this.readBindingName();
      if (!lx.is('=>') || lx.nlBefore) decline();
      this.parseArrowBody(true);
      return true;
    }
    if (following.type === TOKEN_PUNCT && following.value === '(') {
      lx.next();
      this.parseParenthesizedOrArrow(true);
      return true;
    }
    if (following.type === TOKEN_PUNCT && following.value === '<' && this.typescript) {
      lx.next();
      skipTypeBrackets(lx);
      this.parseParenthesizedOrArrow(true);
      if (!this.afterArrow) decline();
      return true;
    }
    return false;
  }

  /** `.tsx`: `<T,>(x) => x` or `<T extends U>(x) => x` rather than a JSX element. */
  private isGenericArrowInTsx(): boolean {
    const lx = this.lx;
    const state = lx.snapshot();
    lx.next();
    if (lx.isName('const')) lx.next();
    let isArrow = false;
    if (lx.type === TOKEN_NAME) {
      lx.next();
      isArrow = lx.is(',') || lx.isName('extends');
    }
    lx.restore(state);
    return isArrow;
  }

  /**
   * `(…)` as an expression or as arrow parameters: the contents are read as expressions (patterns are a subset),
   * with TypeScript's `?`, `: T` and trailing commas admitted and then required to be parameters. `isAsync`: after
   * `async`, where a non-arrow is a call of `async`.
   */
  private parseParenthesizedOrArrow(isAsync: boolean): void {
    const lx = this.lx;
    const wantObject = this.wantObject;
    this.wantObject = false;
    lx.next();
    const savedNoIn = this.noIn;
    const savedConsequent = this.consequentDepth;
    this.noIn = false;
    this.consequentDepth = 0;
    let count = 0;
    let onlyParameters = false;
    while (!lx.is(')')) {
      if (lx.is('...')) {
        lx.next();
        onlyParameters = !isAsync;
      }
      this.elementStart = -1;
      this.wantObject = wantObject && count === 0;
      this.parseAssignment();
      this.wantObject = false;
      count++;
      if (this.typescript) {
        if (lx.is('?')) {
          lx.next();
          onlyParameters = true;
        }
        if (lx.is(':')) {
          lx.next();
          skipType(lx);
          onlyParameters = true;
          if (lx.is('=')) {
            lx.next();
            this.parseAssignment();
          }
        }
      }
      if (lx.is(',')) {
        lx.next();
        if (lx.is(')') && !isAsync) onlyParameters = true;
      } else if (!lx.is(')')) decline();
    }
    const shape = this.shape;
    const text = this.shapeText;
    const event = this.shapeEvent;
    const properties = this.shapeProperties;
    const start = this.shapeStart;
    this.noIn = savedNoIn;
    this.consequentDepth = savedConsequent;
    lx.next();
    if (lx.is('=>') && !lx.nlBefore) {
      this.parseArrowBody(isAsync);
      return;
    }
    if (this.typescript && lx.is(':') && this.isArrowReturnType()) {
      if (this.consequentDepth > 0) decline();
      lx.next();
      skipType(lx);
      if (!lx.is('=>')) decline();
      this.parseArrowBody(isAsync);
      return;
    }
    this.afterArrow = false;
    if (isAsync) {
      this.setOther();
      return;
    }
    if (onlyParameters || count === 0) decline();
    if (count > 1) {
      this.setOther();
      return;
    }
    this.shape = shape;
    this.shapeText = text;
    this.shapeEvent = event;
    this.shapeProperties = properties;
    this.shapeWrapped = true;
    this.shapeStart = start;
  }

  /** After `)`: `: T =>` makes the group an arrow's parameters (speculative: `c ? (a) : b` is not one). */
  private isArrowReturnType(): boolean {
    const lx = this.lx;
    const state = lx.snapshot();
    let isArrow = false;
    try {
      lx.next();
      skipType(lx);
      isArrow = lx.is('=>') && !lx.nlBefore;
    } catch (error) {
      if (typeof error !== 'symbol') throw error;
    }
    lx.restore(state);
    return isArrow;
  }

  private parseArrowBody(isAsync: boolean): void {
    const lx = this.lx;
    lx.next();
    const saved = this.enterFunction(isAsync, false);
    if (lx.is('{')) {
      this.parseFunctionBody();
    } else {
      this.noIn = (saved & 4) !== 0;
      this.parseAssignment();
    }
    this.leaveFunction(saved);
    this.setOther();
    this.afterArrow = true;
  }

  private parseArrayLiteral(): void {
    const lx = this.lx;
    lx.next();
    const savedNoIn = this.noIn;
    const savedConsequent = this.consequentDepth;
    this.noIn = false;
    this.consequentDepth = 0;
    while (!lx.is(']')) {
      if (lx.is(',')) {
        lx.next();
        continue;
      }
      if (lx.is('...')) lx.next();
      this.elementStart = lx.start;
      this.parseAssignment();
      if (lx.is(',')) lx.next();
      else if (!lx.is(']')) decline();
    }
    this.noIn = savedNoIn;
    this.consequentDepth = savedConsequent;
    lx.next();
    this.setOther();
  }

  /** An object literal; with `collect`, its properties as `recordCommonJsValue` reads them. */
  private parseObjectLiteral(collect: boolean): void {
    const lx = this.lx;
    lx.next();
    const savedNoIn = this.noIn;
    const savedConsequent = this.consequentDepth;
    this.noIn = false;
    this.consequentDepth = 0;
    let properties: ObjectProperty[] | undefined = collect ? [] : undefined;
    while (!lx.is('}')) {
      const property = this.parseObjectProperty(collect);
      // `{a = 1}` is only valid as a pattern (arrow parameters): no value to read exports from.
      if (property === undefined) properties = undefined;
      else properties?.push(property);
      if (lx.is(',')) lx.next();
      else if (!lx.is('}')) decline();
    }
    this.noIn = savedNoIn;
    this.consequentDepth = savedConsequent;
    lx.next();
    this.setShape(SHAPE_OBJECT);
    this.shapeProperties = properties;
  }

  private parseObjectProperty(collect: boolean): ObjectProperty | undefined {
    const lx = this.lx;
    const start = lx.start;
    if (lx.is('...')) {
      lx.next();
      this.elementStart = lx.start;
      this.parseAssignment();
      return { name: undefined, local: undefined, start, end: lx.prevEnd, spread: true };
    }
    let isAsync = false;
    let isGenerator = false;
    let isAccessor = false;
    if (lx.type === TOKEN_NAME && (lx.value === 'async' || lx.value === 'get' || lx.value === 'set')) {
      const following = this.peek();
      const isModifier =
        following.type === TOKEN_NAME ||
        following.type === TOKEN_STRING ||
        following.type === TOKEN_NUMBER ||
        (following.type === TOKEN_PUNCT && (following.value === '[' || (following.value === '*' && lx.value === 'async')));
      if (isModifier) {
        if (following.nlBefore) decline();
        if (lx.value === 'async') isAsync = true;
        else isAccessor = true;
        lx.next();
      }
    }
    if (lx.is('*')) {
      isGenerator = true;
      lx.next();
    }
    const keyIsName = lx.type === TOKEN_NAME;
    const keyText = lx.value;
    const key = this.parsePropertyKey();
    if (collect && key.unknown) decline();
    if (lx.is('(') || lx.is('<') || isAsync || isGenerator || isAccessor) {
      this.parseFunctionRest(isAsync, isGenerator, false);
      return { name: key.name, local: undefined, start, end: lx.prevEnd, spread: false };
    }
    if (lx.is(':')) {
      lx.next();
      this.elementStart = lx.start;
      this.parseAssignment();
      return { name: key.name, local: this.shapeLocal(), start, end: lx.prevEnd, spread: false };
    }
    if (!keyIsName || reservedWords.has(keyText)) decline();
    if (lx.is('=')) {
      lx.next();
      this.parseAssignment();
      return undefined;
    }
    return { name: keyText, local: keyText, start, end: lx.prevEnd, spread: false };
  }

  /** A template literal from its first token through its tail. */
  private parseTemplate(): void {
    const lx = this.lx;
    const savedNoIn = this.noIn;
    const savedConsequent = this.consequentDepth;
    this.noIn = false;
    this.consequentDepth = 0;
    while (!lx.templateTail) {
      lx.next();
      this.parseExpression();
      lx.rescanTemplateContinuation();
    }
    this.noIn = savedNoIn;
    this.consequentDepth = savedConsequent;
    lx.next();
  }

  // ---------------------------------------------------------------- JSX

  /** A JSX element or fragment in expression position (the current token is its `<`). */
  private parseJsxElementAt(): void {
    const lx = this.lx;
    lx.next();
    const end = this.parseJsxElementAfterOpen();
    lx.resetTo(end);
    this.setOther();
  }

  /** From the token after `<` through the element's end; returns the offset after its final `>`. */
  private parseJsxElementAfterOpen(): number {
    const lx = this.lx;
    if (lx.type === TOKEN_PUNCT && lx.value.charCodeAt(0) === 62) {
      lx.splitGreater();
      return this.parseJsxChildren(lx.end);
    }
    this.parseJsxName();
    if (lx.is('<')) decline();
    const savedNoIn = this.noIn;
    const savedConsequent = this.consequentDepth;
    this.noIn = false;
    this.consequentDepth = 0;
    for (;;) {
      if (lx.is('/')) {
        lx.next();
        if (lx.type !== TOKEN_PUNCT || lx.value.charCodeAt(0) !== 62) decline();
        lx.splitGreater();
        this.noIn = savedNoIn;
        this.consequentDepth = savedConsequent;
        return lx.end;
      }
      if (lx.type === TOKEN_PUNCT && lx.value.charCodeAt(0) === 62) {
        lx.splitGreater();
        this.noIn = savedNoIn;
        this.consequentDepth = savedConsequent;
        return this.parseJsxChildren(lx.end);
      }
      if (lx.is('{')) {
        lx.next();
        lx.expect('...');
        this.parseAssignment();
        if (!lx.is('}')) decline();
        lx.next();
        continue;
      }
      if (lx.type !== TOKEN_NAME) decline();
      lx.extendJsxName();
      lx.next();
      if (lx.is(':')) {
        lx.next();
        if (lx.type !== TOKEN_NAME) decline();
        lx.extendJsxName();
        lx.next();
      }
      if (!lx.is('=')) continue;
      this.parseJsxAttributeValue();
    }
  }

  private parseJsxAttributeValue(): void {
    const lx = this.lx;
    const quoteAt = this.skipJsxSpace(lx.end);
    const quote = this.text.charCodeAt(quoteAt);
    if (quote === 34 || quote === 39) {
      const close = this.text.indexOf(quote === 34 ? '"' : "'", quoteAt + 1);
      if (close === -1) decline();
      lx.resetTo(close + 1);
      return;
    }
    lx.next();
    if (lx.is('{')) {
      lx.next();
      if (lx.is('}')) decline();
      this.parseAssignment();
      if (!lx.is('}')) decline();
      lx.next();
      return;
    }
    if (lx.is('<')) {
      lx.next();
      lx.resetTo(this.parseJsxElementAfterOpen());
      return;
    }
    decline();
  }

  /** Offset of the first character at or after `from` that is not white space (comments are not allowed here). */
  private skipJsxSpace(from: number): number {
    const text = this.text;
    let pos = from;
    for (;;) {
      const code = text.charCodeAt(pos);
      if (code === 32 || code === 9 || code === 10 || code === 13) pos++;
      else if (code === 47 && (text.charCodeAt(pos + 1) === 47 || text.charCodeAt(pos + 1) === 42)) decline();
      else return pos;
    }
  }

  /** `Name`, `a.b.c`, `ns:name`, with `-` inside names (`data-x`). */
  private parseJsxName(): void {
    const lx = this.lx;
    if (lx.type !== TOKEN_NAME) decline();
    lx.extendJsxName();
    lx.next();
    if (lx.is(':')) {
      lx.next();
      if (lx.type !== TOKEN_NAME) decline();
      lx.extendJsxName();
      lx.next();
      return;
    }
    while (lx.is('.')) {
      lx.next();
      if (lx.type !== TOKEN_NAME) decline();
      lx.next();
    }
  }

  /** Text, `{expression}` and nested elements up to the closing tag; returns the offset after it. */
  private parseJsxChildren(from: number): number {
    const lx = this.lx;
    const text = this.text;
    let pos = from;
    const savedNoIn = this.noIn;
    const savedConsequent = this.consequentDepth;
    this.noIn = false;
    this.consequentDepth = 0;
    for (;;) {
      let index = pos;
      for (;;) {
        if (index >= text.length) decline();
        const code = text.charCodeAt(index);
        if (code === 60 || code === 123) break;
        index++;
      }
      if (text.charCodeAt(index) === 123) {
        lx.resetTo(index + 1);
        if (!lx.is('}')) {
          if (lx.is('...')) lx.next();
          this.parseExpression();
          if (!lx.is('}')) decline();
        }
        pos = lx.end;
        continue;
      }
      lx.resetTo(index + 1);
      if (lx.is('/')) {
        lx.next();
        if (lx.type === TOKEN_NAME) this.parseJsxName();
        if (lx.type !== TOKEN_PUNCT || lx.value.charCodeAt(0) !== 62) decline();
        lx.splitGreater();
        this.noIn = savedNoIn;
        this.consequentDepth = savedConsequent;
        return lx.end;
      }
      pos = this.parseJsxElementAfterOpen();
    }
  }
}
