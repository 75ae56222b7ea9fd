/**
 * Declarations: variables (where a `require()` initialiser binds names), functions, classes, decorators, binding
 * patterns, and TypeScript's enums, interfaces, type aliases, namespaces and `declare` forms.
 */
import type { ExportKind, ImportedName } from '../../../model/facts.js';
import { decline, TOKEN_EOF, TOKEN_NAME, TOKEN_NUMBER, TOKEN_PRIVATE, TOKEN_PUNCT, TOKEN_STRING } from './lexer.js';
import { skipType, skipTypeAnnotation, skipTypeBrackets } from './types.js';
import {
  SHAPE_CALL,
  SHAPE_MEMBER,
  SHAPE_AWAIT_MEMBER,
  CONTEXT_MODULE,
  CONTEXT_BODY,
  reservedWords,
  type DeclaredName,
  type BindingInfo,
} from './base.js';
import { ExpressionScanner } from './expressions.js';

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

export abstract class DeclarationScanner extends ExpressionScanner {
  /** After decorators only a class may follow (or `export`, handled by the caller). */
  protected parseDeclarationAfterDecorators(start: number): DeclaredName[] {
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
  protected parseDeclaration(start: number, context: number): DeclaredName[] | undefined {
    const lx = this.lx;
    if (lx.type !== TOKEN_NAME) return undefined;
    const keyword = lx.value;
    switch (keyword) {
      case 'var':
      case 'const':
        if (keyword === 'const' && this.typescript && this.peekIsName('enum', false)) {
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
    }
    if (!this.typescript) return undefined;
    switch (keyword) {
      case 'enum':
        return this.single(this.parseEnum(), 'enum', false, start);
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
  protected parseAmbientDeclaration(start: number, context: number): DeclaredName[] {
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
  protected parseGlobal(start: number): DeclaredName[] {
    const lx = this.lx;
    lx.next();
    if (!lx.is('{')) decline();
    this.parseNamespaceBody();
    return this.single('global', 'namespace', false, start);
  }

  protected single(name: string | undefined, kind: ExportKind, typeOnly: boolean, start: number): DeclaredName[] {
    if (name === undefined) return [];
    return [{ name, kind, typeOnly, start, end: this.lx.prevEnd }];
  }

  /**
   * `using x = …` and `await using x = …`: swc's `UsingDecl`, which `recordDeclaration` does not know, so it declares
   * nothing; its declarators are walked as any others (a `require()` there binds names).
   */
  protected parseUsingDeclaration(): DeclaredName[] {
    this.lx.next();
    this.parseDeclarators(false, false);
    this.consumeSemicolon();
    return [];
  }

  protected startsAwaitUsing(): boolean {
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

  protected startsLetDeclaration(): boolean {
    const following = this.peek();
    return following.type === TOKEN_NAME
      ? !(following.value === 'in' || following.value === 'instanceof')
      : following.type === TOKEN_PUNCT && (following.value === '[' || following.value === '{');
  }

  protected isAsyncFunction(): boolean {
    const following = this.peek();
    return following.type === TOKEN_NAME && following.value === 'function' && !following.nlBefore;
  }

  protected parseVariableStatement(start: number, context: number): DeclaredName[] {
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
      const alone = declarators.length === 1;
      for (const name of declarator.names) {
        declared.push({
          name,
          kind: 'variable',
          typeOnly: false,
          start: alone ? start : declarator.start,
          end: alone ? end : declarator.end,
        });
      }
    }
    return declared;
  }

  /** Declarators after `var`/`let`/`const`: a `require()` or `import()` that is the whole initialiser binds names. */
  protected parseDeclarators(collectNames: boolean, requireInitialiser: boolean): { names: string[]; start: number; end: number }[] {
    const lx = this.lx;
    const declarators: { names: string[]; start: number; end: number }[] = [];
    for (;;) {
      const start = lx.start;
      const names: string[] = [];
      const eventsBefore = this.events.length;
      const binding = this.parseBindingTarget(collectNames ? names : undefined, true);
      const patternHasEvents = this.events.length !== eventsBefore;
      if (this.typescript) skipTypeAnnotation(lx, '!');
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
  protected recordBindingImport(binding: BindingInfo, patternHasEvents: boolean): void {
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
  protected parseBindingTarget(names: string[] | undefined, withImports: boolean): BindingInfo {
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

  protected parseBindingElement(names: string[] | undefined): BindingInfo {
    const binding = this.parseBindingTarget(names, false);
    if (this.lx.is('=')) {
      this.lx.next();
      this.parseAssignment();
    }
    return binding;
  }

  /** `function name<T>(params): R { body }`; without a body in TypeScript (overloads, `declare`). Returns the name. */
  protected parseFunction(nameRequired: boolean, isDefault: boolean): string | undefined {
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
  protected parseFunctionRest(isAsync: boolean, isGenerator: boolean, allowBodyless: boolean): void {
    const lx = this.lx;
    const saved = this.enterFunction(isAsync, isGenerator);
    if (this.typescript && lx.is('<')) skipTypeBrackets(lx);
    this.parseParameters();
    if (this.typescript && lx.is(':')) {
      lx.next();
      skipType(lx);
    }
    if (lx.is('{')) this.parseBlock();
    else if (allowBodyless) this.consumeSemicolon();
    else decline();
    this.leaveFunction(saved);
  }

  protected parseParameters(): void {
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
      if (this.typescript) skipTypeAnnotation(lx, '?');
      if (lx.is('=')) {
        lx.next();
        this.parseAssignment();
      }
      if (lx.is(',')) lx.next();
      else if (!lx.is(')')) decline();
    }
    lx.next();
  }

  protected parseBlock(): void {
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
  protected parseClass(nameRequired: boolean): string | undefined {
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

  protected parseClassBody(): void {
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

  protected parseClassMember(): void {
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
      this.parseBlock();
      this.leaveFunction(saved);
      return;
    }
    if (lx.is('*')) {
      isGenerator = true;
      lx.next();
    }
    if (this.typescript && lx.is('[') && this.isIndexSignature()) {
      skipTypeBrackets(lx);
      skipTypeAnnotation(lx, '?');
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
  protected isIndexSignature(): boolean {
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
  protected parseDecorators(allowEvents: boolean): void {
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

  protected parseInterface(): string {
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

  protected parseTypeAlias(): string {
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
  protected parseEnum(): string {
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
  protected parseNamespace(): string | undefined {
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

  protected parseNamespaceBody(): void {
    const lx = this.lx;
    lx.expect('{');
    while (!lx.is('}')) {
      if (lx.type === TOKEN_EOF) decline();
      this.parseNamespaceItem();
    }
    lx.next();
  }
}
