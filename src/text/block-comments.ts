/**
 * A C-style text's lines with what its block comments hold (markers included) turned to spaces, strings and line
 * comments kept. A line between `/*` and `*\/` that does not start with `*` (`NOTE: … as specified in MDN docs`, `the
 * fetch() promise rejects`) is blank, not code that tests `in` or calls `fetch`. Read character by character: a quote
 * inside a comment opens no string (`/* it's *\/ run()` keeps `run()`), a comment marker inside a string opens no
 * comment (`'https://x/*'`), `/*\/` does not close what it opens, and a `/*` after a backslash is a regular expression's
 * escaped slash and a star (`/\/*$/`). A string ends with its line, as one written on one line does.
 */
export function blankBlockComments(text: string): string[] {
  let inBlock = false;
  return text.split('\n').map((raw) => {
    if (!inBlock && !raw.includes('/*')) return raw;
    let out = '';
    let quote: string | undefined;
    let index = 0;
    while (index < raw.length) {
      const char = raw[index] ?? '';
      const next = raw[index + 1];
      if (inBlock) {
        const closes = char === '*' && next === '/';
        out += closes ? '  ' : ' ';
        index += closes ? 2 : 1;
        if (closes) inBlock = false;
      } else if (quote !== undefined) {
        const escaped = char === '\\' ? (next ?? '') : '';
        out += char + escaped;
        index += 1 + escaped.length;
        if (char === quote) quote = undefined;
      } else if (char === '/' && next === '/') {
        out += raw.slice(index);
        break;
      } else if (char === '/' && next === '*' && raw[index - 1] !== '\\') {
        out += '  ';
        index += 2;
        inBlock = true;
      } else {
        if (char === '"' || char === "'" || char === '`') quote = char;
        out += char;
        index += 1;
      }
    }
    return out;
  });
}
