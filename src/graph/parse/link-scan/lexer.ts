/**
 * The tokenizer behind `scanModuleLinks`: JavaScript and TypeScript tokens on demand, for a parser that says
 * when a `/` starts a regular expression, when a `}` resumes a template and when a `>` must be split. Anything it
 * cannot read with certainty (an unterminated literal, an escape in an identifier, an HTML comment) throws `declined`.
 */

/** Thrown (never as an Error, so no stack is built) wherever the scanner is not sure; the caller then uses swc. */
export const declined: unique symbol = Symbol('link-scan declined');

export function decline(): never {
  throw declined;
}

/** Speculative reads may re-read this many times the file, plus a little (see `restore`). */
const REWIND_BUDGET_PER_CHAR = 8;
const REWIND_BUDGET_BASE = 65_536;

export const TOKEN_EOF = 0;
export const TOKEN_NAME = 1;
export const TOKEN_PUNCT = 2;
export const TOKEN_STRING = 3;
export const TOKEN_TEMPLATE = 4;
export const TOKEN_NUMBER = 5;
const TOKEN_REGEX = 6;
export const TOKEN_PRIVATE = 7;

export interface LexerState {
  pos: number;
  type: number;
  value: string;
  start: number;
  end: number;
  nlBefore: boolean;
  prevEnd: number;
  templateTail: boolean;
  rawSafe: boolean;
}

/** ASCII character classes: 1 identifier start, 2 identifier part only (digits). */
const identifierChars = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  const char = String.fromCharCode(code);
  if (/[A-Za-z$_]/.test(char)) identifierChars[code] = 1;
  else if (/[0-9]/.test(char)) identifierChars[code] = 2;
}
const unicodeIdStart = /[\p{ID_Start}]/u;
const unicodeIdContinue = /[\p{ID_Continue}\u200c\u200d]/u;

function isUnicodeSpace(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0xfeff ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

export class Lexer {
  pos = 0;
  type = TOKEN_EOF;
  /** The token's text for names and punctuators (punctuators as interned literals). */
  value = '';
  start = 0;
  end = 0;
  /** A line terminator stands between the previous token and this one (what ASI and restricted productions read). */
  nlBefore = false;
  /** End of the previous token: where a statement that ends before the current token ends. */
  prevEnd = 0;
  /** For templates: the token ends with a backtick (no substitution follows). */
  templateTail = false;
  /** For strings and templates: the raw text has no backslash and no carriage return, so it is its own value. */
  rawSafe = true;
  readonly length: number;
  /** Characters read again after speculative reads were rewound, and how many may be. */
  private rewound = 0;
  private readonly rewindBudget: number;

  constructor(readonly text: string) {
    this.length = text.length;
    this.rewindBudget = REWIND_BUDGET_PER_CHAR * text.length + REWIND_BUDGET_BASE;
    if (text.charCodeAt(0) === 35 && text.charCodeAt(1) === 33) {
      const newline = text.indexOf('\n');
      this.pos = newline === -1 ? this.length : newline;
    }
  }

  snapshot(): LexerState {
    const { pos, type, value, start, end, nlBefore, prevEnd, templateTail, rawSafe } = this;
    return { pos, type, value, start, end, nlBefore, prevEnd, templateTail, rawSafe };
  }

  restore(state: LexerState): void {
    // Each rewind is text read twice; a file that makes it read far more than itself (`a<a<a<…`, where every `<` is
    // tried as type arguments up to the end) is given up, as swc reads it in linear time. Not the `declined` symbol:
    // speculative readers catch that one and go on.
    this.rewound += this.pos - state.pos;
    if (this.rewound > this.rewindBudget) throw new RangeError('the link scanner re-read too much of this file');
    this.pos = state.pos;
    this.type = state.type;
    this.value = state.value;
    this.start = state.start;
    this.end = state.end;
    this.nlBefore = state.nlBefore;
    this.prevEnd = state.prevEnd;
    this.templateTail = state.templateTail;
    this.rawSafe = state.rawSafe;
  }

  /** The token after the current one, as `peek()` last read it (one object, reused: read it at once). */
  readonly peeked = { type: TOKEN_EOF, value: '', nlBefore: false };

  /** Reads the token after the current one into `peeked`, leaving the current one as it was. */
  peek(): { type: number; value: string; nlBefore: boolean } {
    const { pos, type, value, start, end, nlBefore, prevEnd, templateTail, rawSafe } = this;
    this.next();
    const peeked = this.peeked;
    peeked.type = this.type;
    peeked.value = this.value;
    peeked.nlBefore = this.nlBefore;
    this.pos = pos;
    this.type = type;
    this.value = value;
    this.start = start;
    this.end = end;
    this.nlBefore = nlBefore;
    this.prevEnd = prevEnd;
    this.templateTail = templateTail;
    this.rawSafe = rawSafe;
    return peeked;
  }

  /** The current token is the punctuator `value`. */
  is(value: string): boolean {
    return this.type === TOKEN_PUNCT && this.value === value;
  }

  /** The current token is the name `value` (keyword or identifier, never a string). */
  isName(value: string): boolean {
    return this.type === TOKEN_NAME && this.value === value;
  }

  /** A name or `#private` name: what may follow `.` (a method, so no narrowing of `type` survives `next()`). */
  isMemberName(): boolean {
    return this.type === TOKEN_NAME || this.type === TOKEN_PRIVATE;
  }

  isTemplate(): boolean {
    return this.type === TOKEN_TEMPLATE;
  }

  expect(value: string): void {
    if (this.type !== TOKEN_PUNCT || this.value !== value) decline();
    this.next();
  }

  /** Consumes the current token and reads the next one (a `/` is read as division; see `rescanRegex`). */
  next(): void {
    this.prevEnd = this.end;
    this.skipTrivia();
    const text = this.text;
    const pos = this.pos;
    this.start = pos;
    if (pos >= this.length) {
      this.type = TOKEN_EOF;
      this.value = '';
      this.end = pos;
      return;
    }
    const code = text.charCodeAt(pos);
    if (code < 128) {
      const kind = identifierChars[code];
      if (kind === 1) this.readName(pos + 1);
      else if (kind === 2) this.readNumber(pos);
      else if (code === 34 || code === 39) this.readString(code);
      else if (code === 96) this.readTemplate(pos + 1);
      else if (code === 46 && this.isDigitAt(pos + 1)) this.readNumber(pos);
      else if (code === 35) this.readPrivateName();
      else if (code === 92) decline();
      else this.readPunctuator(code);
    } else {
      const point = text.codePointAt(pos) ?? 0;
      if (!unicodeIdStart.test(String.fromCodePoint(point))) decline();
      this.readName(pos + (point > 0xffff ? 2 : 1));
    }
    this.end = this.pos;
  }

  private isDigitAt(index: number): boolean {
    const code = this.text.charCodeAt(index);
    return code >= 48 && code <= 57;
  }

  private skipTrivia(): void {
    const text = this.text;
    const length = this.length;
    let pos = this.pos;
    let newline = false;
    while (pos < length) {
      const code = text.charCodeAt(pos);
      if (code === 32 || code === 9 || code === 11 || code === 12) pos++;
      else if (code === 10 || code === 13) {
        newline = true;
        pos++;
      } else if (code === 47) {
        const following = text.charCodeAt(pos + 1);
        if (following === 47) {
          pos = this.findLineEnd(pos + 2);
        } else if (following === 42) {
          const close = text.indexOf('*/', pos + 2);
          if (close === -1) decline();
          if (!newline && this.hasLineTerminator(pos + 2, close)) newline = true;
          pos = close + 2;
        } else break;
      } else if (code === 60 && text.startsWith('!--', pos + 1)) {
        decline();
      } else if (code === 45 && newline && text.startsWith('->', pos + 1)) {
        decline();
      } else if (code >= 128) {
        if (code === 0x2028 || code === 0x2029) newline = true;
        else if (!isUnicodeSpace(code)) break;
        pos++;
      } else break;
    }
    this.pos = pos;
    this.nlBefore = newline;
  }

  private findLineEnd(from: number): number {
    const text = this.text;
    for (let index = from; index < this.length; index++) {
      const code = text.charCodeAt(index);
      if (code === 10 || code === 13 || code === 0x2028 || code === 0x2029) return index;
    }
    return this.length;
  }

  private hasLineTerminator(from: number, to: number): boolean {
    const text = this.text;
    for (let index = from; index < to; index++) {
      const code = text.charCodeAt(index);
      if (code === 10 || code === 13 || code === 0x2028 || code === 0x2029) return true;
    }
    return false;
  }

  /** Reads identifier parts from `pos`; escapes (`\u0061`) are declined rather than decoded. */
  private readName(from: number): void {
    const text = this.text;
    let pos = from;
    while (pos < this.length) {
      const code = text.charCodeAt(pos);
      if (code < 128) {
        if (identifierChars[code] === 0) {
          if (code === 92) decline();
          break;
        }
        pos++;
      } else {
        const point = text.codePointAt(pos) ?? 0;
        if (!unicodeIdContinue.test(String.fromCodePoint(point))) break;
        pos += point > 0xffff ? 2 : 1;
      }
    }
    this.type = TOKEN_NAME;
    this.value = text.slice(this.start, pos);
    this.pos = pos;
  }

  /** `#name`: a private member (a hashbang was skipped by the constructor). */
  private readPrivateName(): void {
    const code = this.text.charCodeAt(this.pos + 1);
    if (!(code < 128 ? identifierChars[code] === 1 : unicodeIdStart.test(String.fromCodePoint(this.text.codePointAt(this.pos + 1) ?? 0)))) {
      decline();
    }
    this.readName(this.pos + 1);
    this.type = TOKEN_PRIVATE;
  }

  private readNumber(from: number): void {
    const text = this.text;
    let pos = from;
    const first = text.charCodeAt(pos);
    const second = text.charCodeAt(pos + 1) | 32;
    if (first === 48 && (second === 120 || second === 111 || second === 98)) {
      pos += 2;
      while (pos < this.length && (identifierChars[text.charCodeAt(pos)] ?? 0) !== 0) pos++;
    } else {
      // A legacy octal (`010`) or leading-zero decimal (`08`) is an error in strict code, which swc parses most files as.
      if (first === 48 && this.isDigitAt(pos + 1)) decline();
      pos = this.skipDigits(pos);
      if (text.charCodeAt(pos) === 46) pos = this.skipDigits(pos + 1);
      const exponent = text.charCodeAt(pos) | 32;
      if (exponent === 101) {
        pos++;
        const sign = text.charCodeAt(pos);
        if (sign === 43 || sign === 45) pos++;
        if (!this.isDigitAt(pos)) decline();
        pos = this.skipDigits(pos);
      }
      if (text.charCodeAt(pos) === 110) pos++;
    }
    const after = text.charCodeAt(pos);
    if ((after < 128 && (identifierChars[after] ?? 0) !== 0) || after === 92) decline();
    if (after >= 128 && unicodeIdContinue.test(String.fromCodePoint(text.codePointAt(pos) ?? 0))) decline();
    this.type = TOKEN_NUMBER;
    this.value = text.slice(this.start, pos);
    this.pos = pos;
  }

  private skipDigits(from: number): number {
    const text = this.text;
    let pos = from;
    for (;;) {
      const code = text.charCodeAt(pos);
      if ((code >= 48 && code <= 57) || code === 95) pos++;
      else return pos;
    }
  }

  private readString(quote: number): void {
    const text = this.text;
    let pos = this.pos + 1;
    let safe = true;
    for (;;) {
      if (pos >= this.length) decline();
      const code = text.charCodeAt(pos);
      if (code === quote) break;
      if (code === 92) {
        safe = false;
        pos += text.charCodeAt(pos + 1) === 13 && text.charCodeAt(pos + 2) === 10 ? 3 : 2;
        continue;
      }
      if (code === 10 || code === 13) decline();
      pos++;
    }
    this.type = TOKEN_STRING;
    this.value = '';
    this.rawSafe = safe;
    this.pos = pos + 1;
  }

  /** Reads template text from `from` (after a backtick or a substitution's `}`) up to a backtick or `${`. */
  private readTemplate(from: number): void {
    const text = this.text;
    let pos = from;
    let safe = true;
    for (;;) {
      if (pos >= this.length) decline();
      const code = text.charCodeAt(pos);
      if (code === 96) {
        this.templateTail = true;
        pos++;
        break;
      }
      if (code === 36 && text.charCodeAt(pos + 1) === 123) {
        this.templateTail = false;
        pos += 2;
        break;
      }
      if (code === 92) {
        safe = false;
        pos += 2;
        continue;
      }
      if (code === 13) safe = false;
      pos++;
    }
    this.type = TOKEN_TEMPLATE;
    this.value = '';
    this.rawSafe = safe;
    this.pos = pos;
  }

  /** The value of the current string or substitution-free template, or undefined when it has escapes. */
  literalValue(): string | undefined {
    if (!this.rawSafe) return undefined;
    if (this.type === TOKEN_STRING) return this.text.slice(this.start + 1, this.end - 1);
    if (this.type === TOKEN_TEMPLATE && this.templateTail) return this.text.slice(this.start + 1, this.end - 1);
    return undefined;
  }

  /** The current `/` or `/=` starts a regular expression: read it whole. */
  rescanRegex(): void {
    const text = this.text;
    let pos = this.start + 1;
    let inClass = false;
    for (;;) {
      if (pos >= this.length) decline();
      const code = text.charCodeAt(pos);
      if (code === 10 || code === 13 || code === 0x2028 || code === 0x2029) decline();
      if (code === 92) {
        const escaped = text.charCodeAt(pos + 1);
        if (escaped === 10 || escaped === 13 || escaped === 0x2028 || escaped === 0x2029) decline();
        pos += 2;
        continue;
      }
      pos++;
      if (code === 91) inClass = true;
      else if (code === 93) inClass = false;
      else if (code === 47 && !inClass) break;
    }
    while (pos < this.length) {
      const code = text.charCodeAt(pos);
      if (code < 128 ? (identifierChars[code] ?? 0) === 0 : !unicodeIdContinue.test(text.charAt(pos))) break;
      pos++;
    }
    if (text.charCodeAt(pos) === 92) decline();
    this.type = TOKEN_REGEX;
    this.value = '';
    this.pos = pos;
    this.end = pos;
  }

  /** The current `}` closes a template substitution: read the template text that follows it. */
  rescanTemplateContinuation(): void {
    if (!this.is('}')) decline();
    this.readTemplate(this.start + 1);
    this.end = this.pos;
  }

  /** The current token starts with `>` (`>>`, `>=`…): keep only that `>`, so a type argument list can close. */
  splitGreater(): void {
    if (this.type !== TOKEN_PUNCT || this.value.charCodeAt(0) !== 62) decline();
    this.value = '>';
    this.pos = this.start + 1;
    this.end = this.pos;
  }

  /** Re-reads from `offset` (inside JSX, where the text after a tag is not made of tokens). */
  resetTo(offset: number): void {
    this.pos = offset;
    this.end = offset;
    this.next();
  }

  /** A JSX name part may contain `-` (`aria-label`): extend the current name over them. */
  extendJsxName(): void {
    const text = this.text;
    let pos = this.end;
    while (text.charCodeAt(pos) === 45) {
      pos++;
      while (pos < this.length) {
        const code = text.charCodeAt(pos);
        if (code === 45 || (code < 128 && (identifierChars[code] ?? 0) !== 0)) pos++;
        else if (code >= 128 && unicodeIdContinue.test(String.fromCodePoint(text.codePointAt(pos) ?? 0))) pos++;
        else break;
      }
    }
    if (pos === this.end) return;
    this.value = text.slice(this.start, pos);
    this.pos = pos;
    this.end = pos;
  }

  /** JSX attribute strings have no escapes: the value ends at the next quote of its kind. */
  readJsxString(): void {
    const quote = this.text.charCodeAt(this.start);
    const close = this.text.indexOf(quote === 34 ? '"' : "'", this.start + 1);
    if (close === -1) decline();
    this.type = TOKEN_STRING;
    this.value = '';
    this.rawSafe = false;
    this.pos = close + 1;
    this.end = this.pos;
  }

  private readPunctuator(code: number): void {
    const text = this.text;
    const pos = this.pos;
    const c1 = text.charCodeAt(pos + 1);
    const c2 = text.charCodeAt(pos + 2);
    let value: string;
    switch (code) {
      case 123:
        value = '{';
        break;
      case 125:
        value = '}';
        break;
      case 40:
        value = '(';
        break;
      case 41:
        value = ')';
        break;
      case 91:
        value = '[';
        break;
      case 93:
        value = ']';
        break;
      case 59:
        value = ';';
        break;
      case 44:
        value = ',';
        break;
      case 126:
        value = '~';
        break;
      case 58:
        value = ':';
        break;
      case 64:
        value = '@';
        break;
      case 46:
        value = c1 === 46 && c2 === 46 ? '...' : '.';
        break;
      case 63:
        if (c1 === 63) value = c2 === 61 ? '??=' : '??';
        else if (c1 === 46 && !(c2 >= 48 && c2 <= 57)) value = '?.';
        else value = '?';
        break;
      case 60:
        if (c1 === 60) value = c2 === 61 ? '<<=' : '<<';
        else value = c1 === 61 ? '<=' : '<';
        break;
      case 62:
        if (c1 === 62) {
          if (c2 === 62) value = text.charCodeAt(pos + 3) === 61 ? '>>>=' : '>>>';
          else value = c2 === 61 ? '>>=' : '>>';
        } else value = c1 === 61 ? '>=' : '>';
        break;
      case 61:
        if (c1 === 61) value = c2 === 61 ? '===' : '==';
        else value = c1 === 62 ? '=>' : '=';
        break;
      case 33:
        if (c1 === 61) value = c2 === 61 ? '!==' : '!=';
        else value = '!';
        break;
      case 43:
        value = c1 === 43 ? '++' : c1 === 61 ? '+=' : '+';
        break;
      case 45:
        value = c1 === 45 ? '--' : c1 === 61 ? '-=' : '-';
        break;
      case 42:
        if (c1 === 42) value = c2 === 61 ? '**=' : '**';
        else value = c1 === 61 ? '*=' : '*';
        break;
      case 47:
        value = c1 === 61 ? '/=' : '/';
        break;
      case 37:
        value = c1 === 61 ? '%=' : '%';
        break;
      case 38:
        if (c1 === 38) value = c2 === 61 ? '&&=' : '&&';
        else value = c1 === 61 ? '&=' : '&';
        break;
      case 124:
        if (c1 === 124) value = c2 === 61 ? '||=' : '||';
        else value = c1 === 61 ? '|=' : '|';
        break;
      case 94:
        value = c1 === 61 ? '^=' : '^';
        break;
      default:
        decline();
    }
    this.type = TOKEN_PUNCT;
    this.value = value;
    this.pos = pos + value.length;
  }
}
