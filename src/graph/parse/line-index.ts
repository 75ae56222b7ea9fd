/**
 * Byte-offset line table: swc spans are UTF-8 byte offsets, so lines must be found by bytes,
 * not by JavaScript string indices.
 */
export interface LineIndex {
  /** Byte offset of the first byte of each line, starting with 0. */
  readonly lineStarts: number[];
  /** Number of lines, not counting the empty line after a final newline. */
  readonly lines: number;
  /** Deepest bracket nesting seen (a cheap pre-check before swc, which crashes on deep nesting). */
  readonly maxBracketDepth: number;
}

export function buildLineIndex(text: string): LineIndex {
  const lineStarts = [0];
  let bytes = 0;
  let depth = 0;
  let maxBracketDepth = 0;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) {
      bytes += 1;
      if (code === 10) lineStarts.push(bytes);
      else if (code === 40 || code === 91 || code === 123) {
        depth++;
        if (depth > maxBracketDepth) maxBracketDepth = depth;
      } else if ((code === 41 || code === 93 || code === 125) && depth > 0) depth--;
    } else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < length && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  const lines = length === 0 ? 0 : text.endsWith('\n') ? lineStarts.length - 1 : lineStarts.length;
  return { lineStarts, lines, maxBracketDepth };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** 1-based line of a 0-based byte offset into the file. */
export function getLineAt(index: LineIndex, byteOffset: number): number {
  const starts = index.lineStarts;
  let low = 0;
  let high = starts.length - 1;
  if (byteOffset <= 0) return 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= byteOffset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/**
 * Byte length of the whitespace and comments before the first token. swc's module span starts
 * at the first token, so `module.span.start - leadingTriviaBytes` is the file's own base offset,
 * whether or not swc keeps offsets growing across parses.
 */
export function measureLeadingTrivia(text: string): number {
  let index = 0;
  const length = text.length;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === 32 || code === 9 || code === 10 || code === 13 || code === 11 || code === 12) {
      index++;
    } else if (code === 47 && text.charCodeAt(index + 1) === 47) {
      const end = text.indexOf('\n', index);
      index = end === -1 ? length : end + 1;
    } else if (code === 47 && text.charCodeAt(index + 1) === 42) {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? length : end + 2;
    } else if (
      code === 0xa0 ||
      code === 0xfeff ||
      code === 0x2028 ||
      code === 0x2029 ||
      (code >= 0x2000 && code <= 0x200a) ||
      code === 0x3000 ||
      code === 0x1680 ||
      code === 0x202f ||
      code === 0x205f
    ) {
      index++;
    } else break;
  }
  return utf8Length(text, index);
}

function utf8Length(text: string, end: number): number {
  let bytes = 0;
  for (let index = 0; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < end && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
