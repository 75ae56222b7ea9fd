/**
 * Expressions by precedence, each reporting its shape: assignments (where CommonJS exports are recorded), operators,
 * calls (where `require()` and `import()` are recorded), member accesses and primaries.
 */
import type { ImportEvent, LinkEvent } from './events.js';
import { decline, TOKEN_EOF, TOKEN_NAME, TOKEN_NUMBER, TOKEN_PRIVATE, TOKEN_PUNCT, TOKEN_STRING, TOKEN_TEMPLATE } from './lexer.js';
import { skipType, skipTypeBrackets } from './types.js';
import {
  SHAPE_NAME,
  SHAPE_TARGET,
  SHAPE_STRING,
  SHAPE_CALL,
  SHAPE_MEMBER,
  SHAPE_AWAIT_CALL,
  SHAPE_AWAIT_MEMBER,
  SHAPE_IMPORT,
  reservedWords,
} from './base.js';
import { LiteralScanner } from './literals.js';

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

/** `test.each(table)(…)`: the walker visits only the arguments of a test call, not its curried callee. */
const curriedTestModifiers = new Set(['each', 'for', 'skipIf', 'runIf']);

const commonJsNamed = /^(module\.)?exports\.[^.]+$/;

export abstract class ExpressionScanner extends LiteralScanner {
  protected parseExpression(): void {
    const lx = this.lx;
    this.parseAssignment();
    if (!lx.is(',')) return;
    while (lx.is(',')) {
      lx.next();
      this.parseAssignment();
    }
    this.setOther();
  }

  protected parseAssignment(): void {
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

  protected parseYield(): void {
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

  protected parseConditional(): void {
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

  protected parseBinary(): void {
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

  protected parseUnary(): void {
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

  protected isAwaitOperator(): boolean {
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
  protected parseTypeAssertionOrGenericArrow(): void {
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
  protected parseLeftHandSide(): void {
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
  protected tryTypeArguments(): boolean {
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
  protected applyMember(name: string | undefined, computed: boolean): void {
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

  protected parseComputedMemberAccess(): void {
    const shape = this.shape;
    const text = this.shapeText;
    const event = this.shapeEvent;
    const wrapped = this.shapeWrapped;
    const unsure = this.targetUnsure;
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
    this.targetUnsure = unsure;
    this.applyMember(name, true);
  }

  protected parseComputedMember(): void {
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
  protected parseCall(hasTypeArguments: boolean): void {
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
    const savedConsequent = this.consequentDepth;
    this.noIn = false;
    this.consequentDepth = 0;
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
    this.consequentDepth = savedConsequent;
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

  protected parseImportCall(callStart: number): void {
    const lx = this.lx;
    lx.next();
    const savedNoIn = this.noIn;
    const savedConsequent = this.consequentDepth;
    this.noIn = false;
    this.consequentDepth = 0;
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
    this.consequentDepth = savedConsequent;
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

  protected parseArguments(): void {
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

  protected parseNew(): void {
    const lx = this.lx;
    lx.next();
    if (lx.is('.')) {
      lx.next();
      // swc refuses `new.target` outside a function (an arrow does not count).
      if (!lx.isName('target') || !this.inOrdinaryFunction) decline();
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

  protected parsePrimary(): void {
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

  protected parsePunctuatorPrimary(wantObject: boolean): void {
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

  protected parseNamePrimary(start: number): void {
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
        if (!lx.isName('meta') || this.commonJs) decline();
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
  protected parseAsyncPrimary(): boolean {
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
  protected isGenericArrowInTsx(): boolean {
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
}
