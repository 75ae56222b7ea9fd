/**
 * The module level of the link scanner's parser: top-level statements, where imports, exports and declarations are
 * recorded, and the bodies of namespaces, where the walker records only what their values hold.
 */
import type { ImportedName } from '../../../model/facts.js';
import type { LinkEvent } from './events.js';
import { decline, TOKEN_EOF, TOKEN_NAME, TOKEN_PUNCT, TOKEN_STRING } from './lexer.js';
import { SHAPE_NAME, CONTEXT_MODULE, CONTEXT_NAMESPACE, reservedWords, type DeclaredName } from './base.js';
import { StatementScanner } from './statements.js';

export class LinkScanParser extends StatementScanner {
  parseModule(): void {
    const lx = this.lx;
    lx.next();
    while (lx.type !== TOKEN_EOF) this.parseModuleItem();
  }

  protected parseModuleItem(): void {
    const lx = this.lx;
    const start = lx.start;
    if (lx.is('@')) {
      this.parseDecorators(true);
      if (!lx.isName('export')) {
        this.recordDeclared(this.parseDeclarationAfterDecorators(start));
        return;
      }
      // Decorators before `export` must decorate a class: swc refuses `@dec export function f() {}`.
      const following = this.peek();
      if (!(following.type === TOKEN_NAME && ['class', 'abstract', 'default'].includes(following.value))) decline();
      this.parseExport(start, true);
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

  protected recordDeclared(declared: DeclaredName[]): void {
    for (const entry of declared) this.declare(entry.name, entry.kind, this.span(entry.start, entry.end), entry.typeOnly);
  }

  protected parseImport(start: number, record: boolean): void {
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
      // `import from from 'x'` binds `from`; `import from 'x'` is an error.
      if (this.peek().type === TOKEN_STRING) decline();
      names.push({ imported: 'default', local: this.readBindingName(), typeOnly });
      if (lx.is(',')) lx.next();
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

  /**
   * A specifier's own `type` modifier (`{ type A }`, `{ type 'a' as b }`): read and skipped, answering whether the
   * specifier is type-only. `type as …` is left to swc (is `type` the name or the modifier there).
   */
  protected readSpecifierTypeModifier(typeOnly: boolean): boolean {
    const lx = this.lx;
    if (!this.typescript || !lx.isName('type')) return typeOnly;
    const following = this.peek();
    if (following.type === TOKEN_NAME && following.value === 'as') decline();
    if (following.type !== TOKEN_NAME && following.type !== TOKEN_STRING) return typeOnly;
    lx.next();
    return true;
  }

  protected parseImportSpecifiers(names: ImportedName[], typeOnly: boolean): void {
    const lx = this.lx;
    lx.next();
    while (!lx.is('}')) {
      const specifierTypeOnly = this.readSpecifierTypeModifier(typeOnly);
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
  protected parseImportEquals(start: number, local: string, typeOnly: boolean, record: boolean): void {
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
  protected skipImportAttributes(): void {
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

  protected parseExport(start: number, record: boolean): void {
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
  protected recordExported(declared: DeclaredName[], record: boolean, slot: number): void {
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
  protected parseExportAll(start: number, typeOnly: boolean, record: boolean): void {
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
  protected parseExportNamed(start: number, typeOnly: boolean, record: boolean): void {
    const lx = this.lx;
    lx.next();
    const specifiers: { orig: string; exported: string; typeOnly: boolean; origIsString: boolean }[] = [];
    while (!lx.is('}')) {
      const specifierTypeOnly = this.readSpecifierTypeModifier(typeOnly);
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

  /** `export = value`: CommonJS-style, recorded as `module.exports = value` is. */
  protected parseExportAssignment(start: number, record: boolean): void {
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

  protected parseExportDefault(start: number, record: boolean): void {
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

  /** Inside a namespace, imports and exports are walked past: only what their declarations' values hold counts. */
  protected parseNamespaceItem(): void {
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
}
