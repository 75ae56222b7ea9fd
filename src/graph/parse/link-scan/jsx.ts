/** JSX elements and fragments: their text is not code, their `{…}` containers and attributes are. */
import { decline, TOKEN_NAME, TOKEN_PUNCT } from './lexer.js';
import { LinkScanBase } from './base.js';

export abstract class JsxScanner extends LinkScanBase {
  /** A JSX element or fragment in expression position (the current token is its `<`). */
  protected parseJsxElementAt(): void {
    const lx = this.lx;
    lx.next();
    const end = this.parseJsxElementAfterOpen();
    lx.resetTo(end);
    this.setOther();
  }

  /** From the token after `<` through the element's end; returns the offset after its final `>`. */
  protected parseJsxElementAfterOpen(): number {
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
      this.parseJsxNamespacedName();
      if (!lx.is('=')) continue;
      this.parseJsxAttributeValue();
    }
  }

  protected parseJsxAttributeValue(): void {
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
  protected skipJsxSpace(from: number): number {
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
  protected parseJsxName(): void {
    const lx = this.lx;
    if (this.parseJsxNamespacedName()) return;
    while (lx.is('.')) {
      lx.next();
      if (lx.type !== TOKEN_NAME) decline();
      lx.next();
    }
  }

  /** `name` or `ns:name` (an attribute's name, or an element's first part); true when it had a namespace. */
  protected parseJsxNamespacedName(): boolean {
    const lx = this.lx;
    if (lx.type !== TOKEN_NAME) decline();
    lx.extendJsxName();
    lx.next();
    if (!lx.is(':')) return false;
    lx.next();
    if (lx.type !== TOKEN_NAME) decline();
    lx.extendJsxName();
    lx.next();
    return true;
  }

  /** Text, `{expression}` and nested elements up to the closing tag; returns the offset after it. */
  protected parseJsxChildren(from: number): number {
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
        // swc refuses a bare `>` or `}` in JSX text (it wants `{'>'}`).
        if (code === 62 || code === 125) decline();
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
