/**
 * A recognising parser for JavaScript and TypeScript that builds no tree: it follows the grammar far enough to know
 * where every statement and expression ends (ASI, regular expressions against division, arrows, JSX, types) and
 * records, in swc's walk order, the few things `ModuleLinks` makes facts of. Expressions report a small "shape"
 * (an identifier, `exports.x`, a `require('x')` call, an object literal…) instead of a node, which is all the
 * callers look at. Anything outside what it knows throws `declined`.
 *
 * The parser is one class in layers, each in its own file and extending the one before (as Babel's parser does):
 * this base (state, positions, events, token helpers), JSX, literals and arrows, expressions, declarations,
 * statements, and the module level (`LinkScanParser`). A layer calls later layers through the abstract methods here.
 */
import type { ExportKind, ImportedName, ImportKind, Span } from '../../../model/facts.js';
import type { Declaration, ImportEvent, LinkEvent } from './events.js';
import { decline, Lexer, TOKEN_EOF, TOKEN_NAME, TOKEN_PUNCT, TOKEN_STRING } from './lexer.js';

export interface ScanSyntax {
  typescript: boolean;
  jsx: boolean;
  /** `.cjs`: swc parses it as a CommonJS script, where `import` and `export` declarations are errors. */
  commonJs: boolean;
}

/** What an expression turned out to be, as far as imports and exports care. */
const SHAPE_OTHER = 0;
/** An identifier (`shapeText`). */
export const SHAPE_NAME = 1;
/** A member chain rooted at `exports` or `module` (`shapeText` is its dotted name, as `getDottedName` builds it). */
export const SHAPE_TARGET = 2;
/** A string literal or substitution-free template (`shapeText` is its value, undefined when it has escapes). */
export const SHAPE_STRING = 3;
/** `require('x')` or `import('x')` (`shapeEvent`). */
export const SHAPE_CALL = 4;
/** `require('x').name` (`shapeEvent`, `shapeText` the member, undefined when computed). */
export const SHAPE_MEMBER = 5;
export const SHAPE_AWAIT_CALL = 6;
export const SHAPE_AWAIT_MEMBER = 7;
/** An object literal (`shapeProperties` when it was asked for). */
export const SHAPE_OBJECT = 8;
/** The `import` of `import(…)` before its arguments. */
export const SHAPE_IMPORT = 9;

/** Where a statement stands: the module's top level (where facts are recorded), a namespace body, a block or body. */
export const CONTEXT_MODULE = 0;
export const CONTEXT_NAMESPACE = 1;
export const CONTEXT_BODY = 2;
/** The body of `if`, a loop or a label, where no declaration but `var` may stand. */
export const CONTEXT_SUBSTATEMENT = 3;

/** Words that are never an identifier (strict-mode-only ones, like `let`, are left to swc). */
export const reservedWords = new Set([
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

export interface DeclaredName {
  name: string;
  kind: ExportKind;
  typeOnly: boolean;
  start: number;
  end: number;
}

export interface ObjectProperty {
  /** undefined: the key has no static name (`[k]`), so the walker skips it. */
  name: string | undefined;
  local: string | undefined;
  start: number;
  end: number;
  spread: boolean;
}

export interface BindingInfo {
  /** The identifier when the target is a plain identifier. */
  name: string | undefined;
  isObject: boolean;
  /** `getPatternImports` of an object pattern. */
  imports: ImportedName[] | undefined;
}

export abstract class LinkScanBase {
  readonly events: LinkEvent[] = [];
  readonly declarations = new Map<string, Declaration>();
  protected readonly lx: Lexer;
  protected readonly typescript: boolean;
  protected readonly jsx: boolean;
  protected readonly commonJs: boolean;

  protected shape = SHAPE_OTHER;
  protected shapeText: string | undefined;
  protected shapeEvent: ImportEvent | undefined;
  protected shapeProperties: ObjectProperty[] | undefined;
  /** The shape was reached through parentheses or a TypeScript wrapper (`as`, `!`, `<T>`), which `unwrapExpression` removes. */
  protected shapeWrapped = false;
  /** A `SHAPE_TARGET` reached through a wrapper on the way (`(exports).a`): `getDottedName` unwraps it, so it counts, but its span is unsure. */
  protected targetUnsure = false;
  /** Where the expression whose shape is current started (the callee of a call). */
  protected shapeStart = 0;

  /** An arrow function was just parsed: no operator may follow it. */
  protected afterArrow = false;
  /** `in` is not an operator (a `for (… in …)` head). */
  protected noIn = false;
  protected inAsync = false;
  protected inGenerator = false;
  protected functionDepth = 0;
  /** Inside a function that is not an arrow (or a class body's initialiser): where `new.target` is allowed. */
  protected inOrdinaryFunction = false;
  /** Inside a `declare` declaration (or an ambient module's body). */
  protected ambientDepth = 0;
  /** Inside the consequent of `a ? b : c`, where TypeScript reads `(x): T => y` differently. */
  protected consequentDepth = 0;
  /** The next object literal collects its properties (the value of `module.exports =` or `export =`). */
  protected wantObject = false;
  /** Where the current array element or property value starts: an assignment there may be a destructuring default. */
  protected elementStart = -1;

  /** `newlines`: offsets of every `\n` in `text`, in order (what lines are counted by). */
  constructor(
    protected readonly text: string,
    syntax: ScanSyntax,
    protected readonly newlines: readonly number[],
  ) {
    this.lx = new Lexer(text);
    this.typescript = syntax.typescript;
    this.jsx = syntax.jsx;
    this.commonJs = syntax.commonJs;
  }

  /** 1-based line of a character offset: only `\n` counts, as in the line index swc's spans are mapped through. */
  protected lineOf(offset: number): number {
    const newlines = this.newlines;
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
  protected span(start: number, end: number): Span {
    return { start: this.lineOf(start), end: this.lineOf(end > start ? end - 1 : start) };
  }

  protected pushImport(specifier: string, kind: ImportKind, typeOnly: boolean, names: ImportedName[], offset: number): ImportEvent {
    const event: ImportEvent = { type: 'import', specifier, kind, typeOnly, names, line: this.lineOf(offset) };
    this.events.push(event);
    return event;
  }

  protected declare(name: string, kind: ExportKind, span: Span, typeOnly: boolean): void {
    if (!this.declarations.has(name)) this.declarations.set(name, { kind, span, typeOnly });
  }

  protected setShape(shape: number, text?: string): void {
    this.shape = shape;
    this.shapeText = text;
    this.shapeWrapped = false;
    this.targetUnsure = false;
  }

  protected setOther(): void {
    this.shape = SHAPE_OTHER;
    this.shapeText = undefined;
    this.shapeWrapped = false;
    this.targetUnsure = false;
  }

  /** A module specifier or string name: a string literal whose value is its raw text. */
  protected readSpecifier(): string {
    const lx = this.lx;
    if (lx.type !== TOKEN_STRING) decline();
    const value = lx.literalValue();
    if (value === undefined) decline();
    lx.next();
    return value;
  }

  /** An identifier that a declaration binds. */
  protected readBindingName(): string {
    const lx = this.lx;
    if (lx.type !== TOKEN_NAME || reservedWords.has(lx.value)) decline();
    // Strict mode forbids binding these; swc enforces it outside ambient declarations.
    if ((lx.value === 'arguments' || lx.value === 'eval') && this.ambientDepth === 0) decline();
    const name = lx.value;
    lx.next();
    return name;
  }

  protected readModuleExportName(): string {
    const lx = this.lx;
    if (lx.type === TOKEN_STRING) return this.readSpecifier();
    if (lx.type !== TOKEN_NAME) decline();
    const name = lx.value;
    lx.next();
    return name;
  }

  /** `import` starts a declaration unless it is `import(…)` or `import.meta`. */
  protected startsImportDeclaration(): boolean {
    const lx = this.lx;
    const state = lx.snapshot();
    lx.next();
    const isDeclaration = !lx.is('(') && !lx.is('.');
    lx.restore(state);
    return isDeclaration;
  }

  protected consumeSemicolon(): void {
    const lx = this.lx;
    if (lx.is(';')) {
      lx.next();
      return;
    }
    if (lx.is('}') || lx.type === TOKEN_EOF || lx.nlBefore) return;
    decline();
  }

  /**
   * Enters a function body (or a class field initialiser or static block); returns the outer context packed in
   * a number for `leaveFunction`. An arrow keeps its outer function's `new.target`.
   */
  protected enterFunction(isAsync: boolean, isGenerator: boolean, isArrow = false): number {
    const saved =
      (this.inAsync ? 1 : 0) |
      (this.inGenerator ? 2 : 0) |
      (this.noIn ? 4 : 0) |
      (this.inOrdinaryFunction ? 8 : 0) |
      (this.consequentDepth << 4);
    this.inAsync = isAsync;
    this.inGenerator = isGenerator;
    this.noIn = false;
    this.consequentDepth = 0;
    if (!isArrow) this.inOrdinaryFunction = true;
    this.functionDepth++;
    return saved;
  }

  protected leaveFunction(saved: number): void {
    this.inAsync = (saved & 1) !== 0;
    this.inGenerator = (saved & 2) !== 0;
    this.noIn = (saved & 4) !== 0;
    this.inOrdinaryFunction = (saved & 8) !== 0;
    this.consequentDepth = saved >> 4;
    this.functionDepth--;
  }

  /** The identifier an expression is, after unwrapping: a CommonJS export's local. */
  protected shapeLocal(): string | undefined {
    return this.shape === SHAPE_NAME ? this.shapeText : undefined;
  }

  /** The current token can begin an expression (after `yield`, `await`). */
  protected startsExpression(): boolean {
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

  /** The next token (a reused object: read it before the next `peek`). */
  protected peek(): { type: number; value: string; nlBefore: boolean } {
    return this.lx.peek();
  }

  protected peekIsName(name: string, sameLine: boolean): boolean {
    const following = this.peek();
    return following.type === TOKEN_NAME && following.value === name && !(sameLine && following.nlBefore);
  }

  protected peekSameLineName(): boolean {
    const following = this.peek();
    return following.type === TOKEN_NAME && !following.nlBefore;
  }

  protected abstract parseAssignment(): void;
  protected abstract parseExpression(): void;
  /** `{ statements }`: a block statement, and a function's body (parsed alike). */
  protected abstract parseBlock(): void;
  protected abstract parseFunctionRest(isAsync: boolean, isGenerator: boolean, allowBodyless: boolean): void;
  protected abstract parseFunction(nameRequired: boolean, isDefault: boolean): string | undefined;
  protected abstract parseClass(nameRequired: boolean): string | undefined;
  protected abstract parseStatement(context: number): void;
  protected abstract parseNamespaceItem(): void;
  protected abstract parseExport(start: number, record: boolean): void;
}
