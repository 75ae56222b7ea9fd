import type { Language } from '../model/graph.js';

export type CommentSyntax = 'c' | 'hash' | 'none';

export interface NormalisedText {
  /** Tokens joined with single spaces where needed; comments kept as written (collapsed whitespace). */
  withComments: string;
  /** The same with every comment removed. */
  withoutComments: string;
}

const IDENT = /[\p{L}\p{N}_$]/u;
const REGEX_BEFORE = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);
const REGEX_KEYWORDS = /(?:^|[^\p{L}\p{N}_$])(?:return|typeof|case|do|else|in|of|void|yield|await|throw|delete|new)$/u;

export function getCommentSyntax(language: Language, path: string): CommentSyntax {
  if (language === 'ts' || language === 'tsx' || language === 'js' || language === 'jsx' || language === 'json') return 'c';
  if (
    language === 'yaml' ||
    /\.(?:toml|ini|cfg|conf|sh|py|rb)$|(?:^|\/)(?:\.env[^/]*|dockerfile|makefile|\.gitignore|\.npmrc)$/i.test(path)
  )
    return 'hash';
  return 'none';
}

interface Output {
  parts: string[];
  pendingSpace: boolean;
}

function push(out: Output, text: string): void {
  if (text === '') return;
  if (out.pendingSpace) {
    const last = out.parts[out.parts.length - 1] ?? '';
    const previous = last.charAt(last.length - 1);
    if (previous !== '' && IDENT.test(previous) && IDENT.test(text.charAt(0))) out.parts.push(' ');
    out.pendingSpace = false;
  }
  out.parts.push(text);
}

function lastSignificant(out: Output): string {
  for (let index = out.parts.length - 1; index >= 0; index -= 1) {
    const part = out.parts[index] ?? '';
    if (part.trim() !== '') return part;
  }
  return '';
}

function canStartRegex(out: Output): boolean {
  const last = lastSignificant(out);
  if (last === '') return true;
  const char = last.charAt(last.length - 1);
  return REGEX_BEFORE.has(char) || REGEX_KEYWORDS.test(last);
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

/**
 * Token-level normalisation: whitespace collapses (kept only between two identifier characters), string
 * and regex literals are kept verbatim. Comparing two normalised versions tells a layout-only change
 * (withComments equal) from a comment-only one (withoutComments equal).
 */
function normaliseCode(text: string, syntax: CommentSyntax): NormalisedText {
  const withComments: Output = { parts: [], pendingSpace: false };
  const withoutComments: Output = { parts: [], pendingSpace: false };
  const emit = (part: string, isComment: boolean): void => {
    push(withComments, part);
    if (!isComment) push(withoutComments, part);
    else withoutComments.pendingSpace = true;
  };
  const space = (): void => {
    withComments.pendingSpace = true;
    withoutComments.pendingSpace = true;
  };
  let index = 0;
  while (index < text.length) {
    const char = text[index] ?? '';
    const next = text[index + 1] ?? '';
    if (/\s/.test(char)) {
      space();
      index += 1;
    } else if (syntax === 'c' && char === '/' && next === '/') {
      const end = text.indexOf('\n', index);
      const stop = end === -1 ? text.length : end;
      emit(collapse(text.slice(index, stop)), true);
      space();
      index = stop;
    } else if (syntax === 'c' && char === '/' && next === '*') {
      const end = text.indexOf('*/', index + 2);
      const stop = end === -1 ? text.length : end + 2;
      emit(collapse(text.slice(index, stop)), true);
      space();
      index = stop;
    } else if (syntax === 'hash' && char === '#') {
      const end = text.indexOf('\n', index);
      const stop = end === -1 ? text.length : end;
      emit(collapse(text.slice(index, stop)), true);
      space();
      index = stop;
    } else if (char === '"' || char === "'" || (syntax === 'c' && char === '`')) {
      const stop = skipString(text, index);
      emit(text.slice(index, stop), false);
      index = stop;
    } else if (syntax === 'c' && char === '/' && canStartRegex(withoutComments)) {
      const stop = skipRegex(text, index);
      emit(text.slice(index, stop), false);
      index = stop;
    } else {
      emit(char, false);
      index += 1;
    }
  }
  return { withComments: withComments.parts.join(''), withoutComments: withoutComments.parts.join('') };
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export interface LowSignalKind {
  formattingOnly: boolean;
  commentOnly: boolean;
}

/**
 * Whether the head text differs from the base text only in layout (formattingOnly) or only in comments
 * and layout (commentOnly). Both false when either text is unknown or the texts are identical bytes.
 */
export function classifyTextChange(baseText: string | undefined, headText: string | undefined, syntax: CommentSyntax): LowSignalKind {
  if (baseText === undefined || headText === undefined || baseText === headText) return { formattingOnly: false, commentOnly: false };
  if (syntax === 'none') {
    const strip = (text: string): string => text.replace(/\s+/g, ' ').trim();
    return { formattingOnly: strip(baseText) === strip(headText), commentOnly: false };
  }
  const base = normaliseCode(baseText, syntax);
  const head = normaliseCode(headText, syntax);
  if (base.withComments === head.withComments) return { formattingOnly: true, commentOnly: false };
  return { formattingOnly: false, commentOnly: base.withoutComments === head.withoutComments };
}
