/** Statements inside bodies and at the top level: blocks, control flow, and expression statements. */
import { decline, TOKEN_EOF, TOKEN_NAME, TOKEN_PUNCT } from './lexer.js';
import { skipType } from './types.js';
import { SHAPE_NAME, SHAPE_CALL, SHAPE_AWAIT_CALL, CONTEXT_MODULE, CONTEXT_NAMESPACE, CONTEXT_BODY, CONTEXT_SUBSTATEMENT } from './base.js';
import { DeclarationScanner } from './declarations.js';

export abstract class StatementScanner extends DeclarationScanner {
  protected parseStatement(context: number): void {
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
        if (context === CONTEXT_SUBSTATEMENT) decline();
        this.parseDecorators(true);
        this.parseDeclarationAfterDecorators(start);
        return;
      }
    } else if (lx.type === TOKEN_NAME) {
      if (this.parseKeywordStatement(context, start)) return;
    }
    this.parseExpressionStatement();
  }

  /** Statements that start with a keyword; false when the name starts an expression statement instead. */
  protected parseKeywordStatement(context: number, start: number): boolean {
    const lx = this.lx;
    switch (lx.value) {
      case 'if':
        lx.next();
        this.parseParenthesized();
        this.parseStatement(CONTEXT_SUBSTATEMENT);
        if (lx.isName('else')) {
          lx.next();
          this.parseStatement(CONTEXT_SUBSTATEMENT);
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
        this.parseStatement(CONTEXT_SUBSTATEMENT);
        return true;
      case 'do':
        lx.next();
        this.parseStatement(CONTEXT_SUBSTATEMENT);
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
    const keyword = lx.value;
    if (this.parseDeclaration(start, context === CONTEXT_MODULE ? CONTEXT_NAMESPACE : context) === undefined) return false;
    // A declaration as the body of `if`, a loop or a label: sloppy scripts allow some, swc refuses them.
    if (context === CONTEXT_SUBSTATEMENT && keyword !== 'var') decline();
    return true;
  }

  protected parseParenthesized(): void {
    const lx = this.lx;
    lx.expect('(');
    const savedNoIn = this.noIn;
    this.noIn = false;
    this.parseExpression();
    this.noIn = savedNoIn;
    lx.expect(')');
  }

  protected parseFor(): void {
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
    this.parseStatement(CONTEXT_SUBSTATEMENT);
  }

  protected parseSwitch(): void {
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

  protected parseTry(): void {
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
  protected parseExpressionStatement(): void {
    const lx = this.lx;
    const start = lx.start;
    this.parseExpression();
    if (this.shape === SHAPE_NAME && !this.shapeWrapped && lx.is(':') && lx.prevEnd - start === this.shapeText?.length) {
      lx.next();
      this.parseStatement(CONTEXT_SUBSTATEMENT);
      return;
    }
    if ((this.shape === SHAPE_CALL || this.shape === SHAPE_AWAIT_CALL) && this.shapeEvent !== undefined) this.shapeEvent.names = [];
    this.consumeSemicolon();
  }
}
