/** A string on one line: what a comment marker inside it (`'https://x'`, `'/*'`) is part of. */
const STRING = /(["'`])(?:\\.|(?!\1)[^\\\n])*\1/g;

/**
 * A C-style text's lines with what its block comments hold (markers included) turned to spaces, strings and line
 * comments kept. A line between `/*` and `*\/` that does not start with `*` (`NOTE: … as specified in MDN docs`, `the
 * fetch() promise rejects`) is blank, not code that tests `in` or calls `fetch`. A `/*` after a backslash is a regular
 * expression's escaped slash and a star (`/\/*$/`), no comment.
 */
export function blankBlockComments(text: string): string[] {
  let inBlock = false;
  return text.split('\n').map((raw) => {
    if (!inBlock && !raw.includes('/*')) return raw;
    const masked = raw.replace(STRING, (match) => ' '.repeat(match.length));
    let out = '';
    let at = 0;
    while (at < raw.length) {
      if (inBlock) {
        const end = masked.indexOf('*/', at);
        const stop = end === -1 ? raw.length : end + 2;
        out += ' '.repeat(stop - at);
        at = stop;
        if (end !== -1) inBlock = false;
        continue;
      }
      const open = findOpening(masked, at);
      if (open === undefined) {
        out += raw.slice(at);
        break;
      }
      out += raw.slice(at, open);
      at = open;
      inBlock = true;
    }
    return out;
  });
}

/** Where the next block comment opens at or after `from`: not inside a line comment, not after a backslash. */
function findOpening(masked: string, from: number): number | undefined {
  let at = from;
  while (at < masked.length) {
    const open = masked.indexOf('/*', at);
    const line = masked.indexOf('//', at);
    if (open === -1 || (line !== -1 && line < open)) return undefined;
    if (masked[open - 1] !== '\\') return open;
    at = open + 2;
  }
  return undefined;
}
