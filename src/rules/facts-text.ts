import { canonicalRegexLiteral } from './regex-canonical.js';
import type { Language } from '../model/graph.js';

export type CommentSyntax = 'c' | 'hash' | 'none';

const IDENT = /[\p{L}\p{N}_$]/u;
const REGEX_BEFORE = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);
const REGEX_KEYWORDS = /(?:^|[^\p{L}\p{N}_$])(?:return|typeof|case|do|else|in|of|void|yield|await|throw|delete|new)$/u;

export function getCommentSyntax(language: Language, path: string): CommentSyntax {
  if (language === 'ts' || language === 'tsx' || language === 'js' || language === 'jsx' || language === 'go' || language === 'json')
    return 'c';
  if (
    language === 'yaml' ||
    /\.(?:toml|ini|cfg|conf|sh|py|rb)$|(?:^|\/)(?:\.env[^/]*|dockerfile|makefile|\.gitignore|\.npmrc)$/i.test(path)
  )
    return 'hash';
  return 'none';
}

/** One normalised output: the part not yet compared with the other side's, and what a push needs to know. */
interface Stream {
  /** False once the two sides are known to differ here: nothing more is kept. */
  isCompared: boolean;
  pending: string[];
  /** Length of everything produced so far. */
  produced: number;
  /** The last part produced (a lone space included). */
  last: string;
  /** The last part that is not a lone space: whether a `/` can open a regex depends on it. */
  lastSignificant: string;
  pendingSpace: boolean;
}

function createStream(): Stream {
  return { isCompared: true, pending: [], produced: 0, last: '', lastSignificant: '', pendingSpace: false };
}

function push(out: Stream, text: string): void {
  if (out.pendingSpace) {
    out.pendingSpace = false;
    if (out.last !== '' && IDENT.test(out.last.charAt(out.last.length - 1)) && IDENT.test(text.charAt(0))) append(out, ' ');
  }
  append(out, text);
  out.lastSignificant = text;
}

function append(out: Stream, text: string): void {
  if (out.isCompared) out.pending.push(text);
  out.produced += text.length;
  out.last = text;
}

function canStartRegex(out: Stream): boolean {
  const last = out.lastSignificant;
  if (last === '') return true;
  // The longest keyword has 6 characters: the last 8 hold it and the character before it.
  return REGEX_BEFORE.has(last.charAt(last.length - 1)) || REGEX_KEYWORDS.test(last.length > 8 ? last.slice(-8) : last);
}

/** Index just past the string literal that opens at `start` (quote char at start). */
function skipString(text: string, start: number): number {
  const quote = text[start];
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') index += 2;
    else if (char === quote) return index + 1;
    else if (char === '\n' && quote !== '`') return index;
    else index += 1;
  }
  return index;
}

function skipRegex(text: string, start: number): number {
  let index = start + 1;
  let inClass = false;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') index += 2;
    else if (char === '\n') return index;
    else if (inClass) {
      if (char === ']') inClass = false;
      index += 1;
    } else if (char === '[') {
      inClass = true;
      index += 1;
    } else if (char === '/') {
      index += 1;
      while (index < text.length && /[a-z]/i.test(text[index] ?? '')) index += 1;
      return index;
    } else index += 1;
  }
  return index;
}

const WHITESPACE = /\s+/y;
/** A run of characters that are emitted as they are: no whitespace, and nothing that can open a literal or comment. */
const PLAIN_RUN = { c: /[^\s"'`/]+/y, hash: /[^\s"'#]+/y };

/**
 * One side of a comparison, normalised a piece at a time: whitespace collapses (kept only between two identifier
 * characters), string and regex literals are kept verbatim, and comments are kept collapsed in one stream and dropped
 * from the other. Comparing the streams of two versions tells a layout-only change (with comments equal) from a
 * comment-only one (without comments equal).
 */
class Normaliser {
  readonly withComments = createStream();
  readonly withoutComments = createStream();
  private index = 0;

  constructor(
    private readonly text: string,
    private readonly syntax: 'c' | 'hash',
  ) {}

  get isDone(): boolean {
    return this.index >= this.text.length;
  }

  /** Normalises the text up to about `budget` characters further (a literal or comment is taken whole). */
  advance(budget: number): void {
    const { text, syntax } = this;
    const stop = Math.min(text.length, this.index + budget);
    let index = this.index;
    while (index < stop) {
      WHITESPACE.lastIndex = index;
      if (WHITESPACE.test(text)) {
        this.space();
        index = WHITESPACE.lastIndex;
        continue;
      }
      const char = text[index];
      const next = text[index + 1];
      let end: number;
      if (syntax === 'c' && char === '/' && (next === '/' || next === '*')) {
        const close = next === '/' ? text.indexOf('\n', index) : text.indexOf('*/', index + 2);
        end = close === -1 ? text.length : next === '/' ? close : close + 2;
        this.emitComment(text.slice(index, end));
      } else if (syntax === 'hash' && char === '#') {
        const close = text.indexOf('\n', index);
        end = close === -1 ? text.length : close;
        this.emitComment(text.slice(index, end));
      } else if (char === '"' || char === "'" || (syntax === 'c' && char === '`')) {
        end = skipString(text, index);
        this.emit(text.slice(index, end));
      } else if (syntax === 'c' && char === '/') {
        end = canStartRegex(this.withoutComments) ? skipRegex(text, index) : index + 1;
        // A regex respelled with the same meaning (an escape that changes nothing dropped) is layout too.
        this.emit(end > index + 1 ? canonicalRegexLiteral(text.slice(index, end)) : text.slice(index, end));
      } else {
        const run = PLAIN_RUN[syntax];
        run.lastIndex = index;
        end = run.test(text) ? run.lastIndex : index + 1;
        this.emit(text.slice(index, end));
      }
      index = end;
    }
    this.index = index;
  }

  private emit(part: string): void {
    push(this.withComments, part);
    push(this.withoutComments, part);
  }

  private emitComment(comment: string): void {
    push(this.withComments, collapse(comment));
    this.withoutComments.pendingSpace = true;
    this.space();
  }

  private space(): void {
    this.withComments.pendingSpace = true;
    this.withoutComments.pendingSpace = true;
  }
}

/** Drops the output both sides agree on; false (and the stream no longer compared) when they disagree. */
function settle(left: Stream, right: Stream): boolean {
  if (!left.isCompared) return false;
  const a = left.pending.length === 1 ? (left.pending[0] ?? '') : left.pending.join('');
  const b = right.pending.length === 1 ? (right.pending[0] ?? '') : right.pending.join('');
  if (a.length <= b.length ? !b.startsWith(a) : !a.startsWith(b)) {
    left.isCompared = false;
    right.isCompared = false;
    left.pending = [];
    right.pending = [];
    return false;
  }
  const common = Math.min(a.length, b.length);
  left.pending = a.length > common ? [a.slice(common)] : [];
  right.pending = b.length > common ? [b.slice(common)] : [];
  return true;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Characters normalised per step: the side that has produced less goes next, so a difference stops both early. */
const STEP = 8192;

export interface LowSignalKind {
  formattingOnly: boolean;
  commentOnly: boolean;
}

/**
 * Whether the head text differs from the base text only in layout (formattingOnly) or only in comments
 * and layout (commentOnly). Both false when either text is unknown or the texts are identical bytes.
 */
/** Languages whose indentation is syntax: a line indented into or out of a block runs elsewhere. */
export function isIndentSignificant(language: Language): boolean {
  return language === 'python' || language === 'yaml';
}

/** The leading indentation of each line that holds code (not blank, not a `#` comment). */
function readCodeIndents(text: string): string {
  const indents: number[] = [];
  for (const line of text.split('\n')) {
    const content = line.trim();
    if (content !== '' && !content.startsWith('#')) indents.push(line.length - line.trimStart().length);
  }
  return indents.join(',');
}

export function classifyTextChange(
  baseText: string | undefined,
  headText: string | undefined,
  syntax: CommentSyntax,
  /** Python's and YAML's indentation: a line moved into an `else:` by its indent alone is a change of behaviour. */
  indentSignificant = false,
): LowSignalKind {
  if (baseText === undefined || headText === undefined || baseText === headText) return { formattingOnly: false, commentOnly: false };
  if (indentSignificant && readCodeIndents(baseText) !== readCodeIndents(headText)) return { formattingOnly: false, commentOnly: false };
  if (syntax === 'none') {
    const strip = (text: string): string => text.replace(/\s+/g, ' ').trim();
    return { formattingOnly: strip(baseText) === strip(headText), commentOnly: false };
  }
  const base = new Normaliser(baseText, syntax);
  const head = new Normaliser(headText, syntax);
  for (;;) {
    const sameWith = settle(base.withComments, head.withComments);
    const sameWithout = settle(base.withoutComments, head.withoutComments);
    if (!sameWith && !sameWithout) return { formattingOnly: false, commentOnly: false };
    if (base.isDone && head.isDone) {
      const formattingOnly = sameWith && base.withComments.pending.length === 0 && head.withComments.pending.length === 0;
      const commentOnly = sameWithout && base.withoutComments.pending.length === 0 && head.withoutComments.pending.length === 0;
      return { formattingOnly, commentOnly: !formattingOnly && commentOnly };
    }
    const stream = sameWithout ? 'withoutComments' : 'withComments';
    const lagging = head.isDone || (!base.isDone && base[stream].produced <= head[stream].produced) ? base : head;
    lagging.advance(STEP);
  }
}
