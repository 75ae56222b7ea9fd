/**
 * Python source as its runtime reads it, for telling a change that runs differently from one that does not: comments
 * and bare string statements (docstrings) left out, each string literal in one quote style, spaces inside a logical
 * line dropped (kept between two words), brackets' line breaks joined, each logical line's indentation kept. Two texts
 * that read the same here run the same: requests' "Fix remaining typos" (a docstring) and "Fix linting issues"
 * (`'https'` → `"https"`) changed nothing a test could see.
 */
export function toPythonRuntimeText(text: string): string {
  const lines: string[] = [];
  let line = '';
  let indent = '';
  let depth = 0;
  /** At the start of a logical line: nothing but its indentation read yet. */
  let atStart = true;
  /** The logical line so far is one bare string (or several side by side): a docstring if nothing follows. */
  let bareString = false;
  let index = 0;
  const endLine = (): void => {
    if (line !== '' && !bareString) lines.push(`${indent}${line}`);
    line = '';
    indent = '';
    atStart = true;
    bareString = false;
  };
  const push = (token: string): void => {
    if (/[\w$]$/.test(line) && /^[\w$]/.test(token)) line += ' ';
    line += token;
  };
  while (index < text.length) {
    const char = text[index] ?? '';
    if (atStart && depth === 0 && (char === ' ' || char === '\t')) {
      indent += char;
      index += 1;
      continue;
    }
    if (char === '#') {
      while (index < text.length && text[index] !== '\n') index += 1;
      continue;
    }
    if (char === '\\' && text[index + 1] === '\n') {
      index += 2;
      continue;
    }
    if (char === '\n') {
      index += 1;
      if (depth === 0) endLine();
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\r' || char === '\f') {
      index += 1;
      continue;
    }
    const literal = readString(text, index);
    if (literal !== undefined) {
      // A string that opens a logical line, and any beside it, stand alone until something else follows.
      if (atStart && depth === 0) bareString = true;
      atStart = false;
      push(literal.canonical);
      index = literal.end;
      continue;
    }
    // Anything but a string after a bare string makes it an expression (`"a" % b`), not a docstring.
    bareString = false;
    atStart = false;
    if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth = Math.max(0, depth - 1);
    const word = /^[\w$]+/.exec(text.slice(index, index + 256))?.[0];
    if (word !== undefined) {
      push(word);
      index += word.length;
    } else {
      line += char;
      index += 1;
    }
  }
  endLine();
  return lines.join('\n');
}

/** A string literal's prefix letters: raw, bytes, unicode, formatted. */
const PREFIX = /^(?:[rRbBuUfF]{1,2})?(?="|')/;

/**
 * The string literal that starts at `start` (with its prefix), its end, and its text in one quote style: a literal
 * whose body holds no quote and no backslash is the same value in `'…'`, `"…"` or a triple-quoted form.
 */
function readString(text: string, start: number): { canonical: string; end: number } | undefined {
  if (start > 0 && /[\w$]/.test(text[start - 1] ?? '')) return undefined;
  const prefix = PREFIX.exec(text.slice(start, start + 3))?.[0];
  if (prefix === undefined) return undefined;
  const open = start + prefix.length;
  const quote = text[open] ?? '';
  const triple = text.startsWith(quote.repeat(3), open);
  const delimiter = triple ? quote.repeat(3) : quote;
  let index = open + delimiter.length;
  while (index < text.length) {
    const char = text[index];
    if (char === '\\') {
      index += 2;
      continue;
    }
    if (!triple && char === '\n') break;
    if (text.startsWith(delimiter, index)) {
      const body = text.slice(open + delimiter.length, index);
      const end = index + delimiter.length;
      const plain = !/["'\\]/.test(body);
      return { canonical: plain ? `${prefix.toLowerCase()}"${body}"` : text.slice(start, end), end };
    }
    index += 1;
  }
  return { canonical: text.slice(start, index), end: index };
}
