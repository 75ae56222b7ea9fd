/**
 * Object, array and template literals, property keys, and `(…)`, which is a parenthesised expression or an arrow
 * function's parameters: the contents are read as expressions (patterns are a subset) and judged at the `)`.
 */
import type { CommonJsEntry } from './events.js';
import { decline, TOKEN_NAME, TOKEN_NUMBER, TOKEN_PRIVATE, TOKEN_PUNCT, TOKEN_STRING } from './lexer.js';
import { skipType } from './types.js';
import { SHAPE_STRING, SHAPE_OBJECT, reservedWords, type ObjectProperty } from './base.js';
import { JsxScanner } from './jsx.js';

export abstract class LiteralScanner extends JsxScanner {
  /**
   * A property key (`a`, `'a'`, `1`, `[expr]`), with its name as `getKeyName` reads it: undefined for a computed
   * key without a static value; `unknown` when the scanner cannot tell that name exactly (escapes, odd numbers).
   */
  protected parsePropertyKey(): { name: string | undefined; unknown: boolean } {
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

  /**
   * `(…)` as an expression or as arrow parameters: the contents are read as expressions (patterns are a subset),
   * with TypeScript's `?`, `: T` and trailing commas admitted and then required to be parameters. `isAsync`: after
   * `async`, where a non-arrow is a call of `async`.
   */
  protected parseParenthesizedOrArrow(isAsync: boolean): void {
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
  protected isArrowReturnType(): boolean {
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

  protected parseArrowBody(isAsync: boolean): void {
    const lx = this.lx;
    lx.next();
    const saved = this.enterFunction(isAsync, false, true);
    if (lx.is('{')) {
      this.parseBlock();
    } else {
      this.noIn = (saved & 4) !== 0;
      this.parseAssignment();
    }
    this.leaveFunction(saved);
    this.setOther();
    this.afterArrow = true;
  }

  protected parseArrayLiteral(): void {
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
  protected parseObjectLiteral(collect: boolean): void {
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

  protected parseObjectProperty(collect: boolean): ObjectProperty | undefined {
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
      // A member's span may start at its key rather than at `*`: only the same line is sure.
      if (lx.nlBefore) decline();
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
  protected parseTemplate(): void {
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

  /** `module.exports = {a, b: c}` (`recordCommonJsValue`): one entry per named property; undefined for other values. */
  protected getCommonJsValueEntries(): CommonJsEntry[] | undefined {
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
}
