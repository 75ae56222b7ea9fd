/**
 * TypeScript types for `scanModuleLinks`: nothing in a type is an import or an export (a type-position
 * `import('x')` is not a dynamic import), so types are only skipped, but their end must be found exactly,
 * since the statement or expression around them goes on after it.
 */
import { decline, type Lexer, TOKEN_NAME, TOKEN_NUMBER, TOKEN_PRIVATE, TOKEN_PUNCT, TOKEN_STRING, TOKEN_TEMPLATE } from './lexer.js';

/** Punctuators that may stand inside a bracketed type (a type literal, tuple, parameter or type argument list). */
const typePunctuators = new Set([
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '<',
  '<<',
  ',',
  '.',
  '?.',
  '?',
  ':',
  ';',
  '|',
  '&',
  '=>',
  '...',
  '-',
  '+',
  '=',
]);

/** Prefix keywords of a type operand: `keyof T`, `readonly T[]`, `unique symbol`, `infer U`, `asserts x`. */
const typePrefixes = new Set(['keyof', 'readonly', 'unique', 'infer', 'asserts']);

/** An optional `marker` (`?` after a parameter or index signature, `!` after a declarator), then an optional `: Type`. */
export function skipTypeAnnotation(lx: Lexer, marker: '?' | '!'): void {
  if (lx.is(marker)) lx.next();
  if (lx.is(':')) {
    lx.next();
    skipType(lx);
  }
}

/** Skips one type from the current token and stops at the first token that cannot continue it. */
export function skipType(lx: Lexer): void {
  let openConditionals = 0;
  let openColons = 0;
  for (;;) {
    skipTypeOperand(lx);
    if (lx.type === TOKEN_PUNCT) {
      const value = lx.value;
      if (value === '|' || value === '&') {
        lx.next();
        continue;
      }
      if (value === '?' && openConditionals > 0) {
        openConditionals--;
        openColons++;
        lx.next();
        continue;
      }
      if (value === ':' && openColons > 0) {
        openColons--;
        lx.next();
        continue;
      }
    } else if (lx.isName('extends') && !lx.nlBefore) {
      openConditionals++;
      lx.next();
      continue;
    }
    return;
  }
}

function skipTypeOperand(lx: Lexer): void {
  if (lx.is('|') || lx.is('&')) lx.next();
  for (;;) {
    if (lx.type === TOKEN_NAME) {
      const value = lx.value;
      if (typePrefixes.has(value) && isPrefixFollowed(lx)) {
        lx.next();
        continue;
      }
      if (value === 'abstract' && peekIsName(lx, 'new')) {
        lx.next();
        continue;
      }
      if (value === 'new') {
        lx.next();
        if (lx.is('<')) skipTypeBrackets(lx);
        if (!lx.is('(')) decline();
        skipTypeBrackets(lx);
        lx.expect('=>');
        skipType(lx);
        return;
      }
      if (value === 'typeof') {
        lx.next();
        if (lx.type !== TOKEN_NAME) decline();
        if (lx.value !== 'import') {
          lx.next();
          skipTypePostfix(lx);
          return;
        }
      }
    } else if (lx.is('-')) {
      lx.next();
      if (lx.type !== TOKEN_NUMBER) decline();
    }
    break;
  }
  skipTypePrimary(lx);
  skipTypePostfix(lx);
}

function skipTypePrimary(lx: Lexer): void {
  switch (lx.type) {
    case TOKEN_NAME:
      if (lx.value === 'import') {
        lx.next();
        if (!lx.is('(')) decline();
        skipTypeBrackets(lx);
        return;
      }
      lx.next();
      if (lx.isName('is') && !lx.nlBefore) {
        lx.next();
        skipType(lx);
      }
      return;
    case TOKEN_STRING:
    case TOKEN_NUMBER:
      lx.next();
      return;
    case TOKEN_TEMPLATE:
      skipTemplateType(lx);
      return;
    case TOKEN_PUNCT:
      break;
    default:
      decline();
  }
  const value = lx.value;
  if (value === '(') {
    skipTypeBrackets(lx);
    if (lx.is('=>')) {
      lx.next();
      skipType(lx);
    }
  } else if (value === '<') {
    skipTypeBrackets(lx);
    if (!lx.is('(')) decline();
    skipTypeBrackets(lx);
    lx.expect('=>');
    skipType(lx);
  } else if (value === '{' || value === '[') {
    skipTypeBrackets(lx);
  } else decline();
}

/** `A.B`, `Foo<T>`, `T[]`, `T[K]`: on the same line, as TypeScript reads them. */
function skipTypePostfix(lx: Lexer): void {
  for (;;) {
    if (lx.is('.')) {
      lx.next();
      if (lx.type !== TOKEN_NAME && lx.type !== TOKEN_PRIVATE) decline();
      lx.next();
    } else if ((lx.is('<') || lx.is('<<')) && !lx.nlBefore) {
      skipTypeBrackets(lx);
    } else if (lx.is('[') && !lx.nlBefore) {
      skipTypeBrackets(lx);
    } else return;
  }
}

function skipTemplateType(lx: Lexer): void {
  while (!lx.templateTail) {
    lx.next();
    skipType(lx);
    lx.rescanTemplateContinuation();
  }
  lx.next();
}

/** The prefix keyword applies to what follows; TypeScript reads some across a line break, which is declined. */
function isPrefixFollowed(lx: Lexer): boolean {
  const state = lx.snapshot();
  lx.next();
  const followed =
    lx.type === TOKEN_NAME ||
    lx.type === TOKEN_STRING ||
    lx.type === TOKEN_NUMBER ||
    lx.type === TOKEN_TEMPLATE ||
    lx.is('(') ||
    lx.is('[') ||
    lx.is('{') ||
    lx.is('-');
  const acrossLines = lx.nlBefore;
  lx.restore(state);
  if (followed && acrossLines) decline();
  return followed;
}

function peekIsName(lx: Lexer, name: string): boolean {
  const state = lx.snapshot();
  lx.next();
  const matches = lx.isName(name);
  lx.restore(state);
  return matches;
}

/**
 * Skips a bracketed type region from its opening token (`(`, `[`, `{`, `<`) through its closing one. Inside, only
 * type tokens may occur; anything else (an operator, a stray closer) declines, or with `speculative` returns false,
 * which is how `f<T>(x)` is told from `a < b` (where `=` is refused too: call type arguments have no defaults).
 */
export function skipTypeBrackets(lx: Lexer, speculative = false): boolean {
  const closers: string[] = [];
  let previous = '';
  for (;;) {
    switch (lx.type) {
      case TOKEN_NAME:
        // swc rejects a parameter named `arguments` or `eval` even in a function type or method signature.
        if ((lx.value === 'arguments' || lx.value === 'eval') && closers[closers.length - 1] === ')' && isListStart(previous)) decline();
        if (closers.length === 0) return fail(speculative);
        previous = '';
        lx.next();
        continue;
      case TOKEN_STRING:
      case TOKEN_NUMBER:
      case TOKEN_PRIVATE:
        if (closers.length === 0) return fail(speculative);
        lx.next();
        continue;
      case TOKEN_TEMPLATE:
        if (!lx.templateTail) closers.push('${');
        lx.next();
        continue;
      case TOKEN_PUNCT:
        break;
      default:
        return fail(speculative);
    }
    const value = lx.value;
    previous = value;
    if (value.charCodeAt(0) === 62) {
      if (!closeAngles(lx, closers)) return fail(speculative);
      if (closers.length === 0) return true;
      continue;
    }
    if (!typePunctuators.has(value) || (value === '=' && speculative)) return fail(speculative);
    if (value === '(') closers.push(')');
    else if (value === '[') closers.push(']');
    else if (value === '{') closers.push('}');
    else if (value === '<') closers.push('>');
    else if (value === '<<') closers.push('>', '>');
    else if (value === ')' || value === ']' || value === '}') {
      const expected = closers.pop();
      if (expected === '${' && value === '}') {
        lx.rescanTemplateContinuation();
        if (!lx.templateTail) closers.push('${');
      } else if (expected !== value) return fail(speculative);
      if (closers.length === 0) {
        lx.next();
        return true;
      }
    } else if (closers.length === 0) return fail(speculative);
    else if (value === ';' && closers[closers.length - 1] !== '}') return fail(speculative);
    lx.next();
  }
}

/**
 * A token of `>` characters (`>`, `>>`, `>>>`, possibly ending in `=`) closes as many angle brackets as it has
 * `>`; when the last bracket closes before the token ends, the rest is read again as its own token.
 */
function closeAngles(lx: Lexer, closers: string[]): boolean {
  const value = lx.value;
  let index = 0;
  while (index < value.length && value.charCodeAt(index) === 62) {
    if (closers[closers.length - 1] !== '>') return false;
    closers.pop();
    index++;
    if (closers.length === 0) {
      if (index === value.length) lx.next();
      else lx.resetTo(lx.start + index);
      return true;
    }
  }
  if (index < value.length) lx.resetTo(lx.start + index);
  else lx.next();
  return true;
}

function isListStart(previous: string): boolean {
  return previous === '(' || previous === ',' || previous === '...';
}

function fail(speculative: boolean): false {
  if (!speculative) decline();
  return false;
}
