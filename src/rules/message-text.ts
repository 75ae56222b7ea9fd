import type { Hunk } from '../model/change.js';

/** A string literal of JavaScript, TypeScript, Python or Go on one line: quoted, or a template without `${`. */
const STRING_LITERAL = /(?:[rbuf]{0,2})("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\$\n]|\\.|\$(?!\{))*`)/gi;

/**
 * A call that makes a message for a person to read: an error's text (`new Error(`, `errors.New(`, `fmt.Errorf(`,
 * `raise ValueError(`, `panic(`), a log or console line, a warning, a printed line; or a name a message is kept in for
 * the line below to log (uvicorn's `msg = "No supported WebSocket library detected. …"`).
 */
const MESSAGE_CALL =
  /^(?:(?:const|let|var)\s+)?(?:msg|message|\w*_message|\w*Message|warning)\s*=(?!=)|\b(?:new\s+\w*(?:Error|Exception)\s*\(|throw\b|raise\b|errors\.New\s*\(|fmt\.Errorf\s*\(|panic\s*\(|console\.(?:log|info|warn|error|debug)\s*\(|(?:log|logger|logging)\.\w+\s*\(|warn(?:ing)?s?\s*\(|print(?:ln|f)?\s*\(|[A-Z]\w*(?:Error|Exception)\s*\()/;

/** A line of a block or doc comment: one that opens with a slash and a star, or goes on with a star. */
const BLOCK_COMMENT_LINE = /^(?:\/\*|\*)/;

/** The line with its string literals' contents emptied and its comment left out, and the literals as written. */
function splitLiterals(line: string, python: boolean): { code: string; literals: string[] } {
  const literals: string[] = [];
  const trimmed = line.trim();
  if (!python && BLOCK_COMMENT_LINE.test(trimmed)) return { code: '', literals };
  const code = trimmed
    .replace(STRING_LITERAL, (literal) => {
      literals.push(literal);
      return '""';
    })
    .replace(python ? /#.*$/ : /\/\/.*$/, '')
    .trim();
  return { code, literals };
}

/**
 * Whether a change only rewords messages: every hunk replaces as many lines as it removes, each line keeps its code
 * and its literals but the text of some, and every line whose text changed makes a message (an error, a log line, a
 * warning). urfave/cli's "Fix typos" (`fmt.Errorf("cant duplicate this flag")` → `"can't …"`) is such a change: what
 * can fail is a test that asserts the old text, not a line that no test runs. A changed literal anywhere else (`=== 'GET'`
 * → `=== 'POST'`, a query, a key) is a change of behaviour, never this.
 */
export function isMessageTextOnly(
  baseText: string | undefined,
  headText: string | undefined,
  hunks: readonly Hunk[],
  python = false,
): boolean {
  if (baseText === undefined || headText === undefined || hunks.length === 0) return false;
  const base = baseText.split('\n');
  const head = headText.split('\n');
  let reworded = 0;
  for (const hunk of hunks) {
    if (hunk.oldLines !== hunk.newLines) return false;
    for (let offset = 0; offset < hunk.newLines; offset++) {
      const before = base[hunk.oldStart - 1 + offset];
      const after = head[hunk.newStart - 1 + offset];
      if (before === undefined || after === undefined) return false;
      const old = splitLiterals(before, python);
      const now = splitLiterals(after, python);
      if (old.code !== now.code || old.literals.length !== now.literals.length) return false;
      if (old.literals.every((literal, index) => literal === now.literals[index])) continue;
      // A prefix changes the value, not its words: marshmallow's `'Field for "{field_name}" …'` made an f-string now
      // names the field.
      if (old.literals.some((literal, index) => toPrefix(literal) !== toPrefix(now.literals[index] ?? ''))) return false;
      if (!MESSAGE_CALL.test(now.code) && !isMessagePart(head, hunk.newStart - 1 + offset, python)) return false;
      reworded += 1;
    }
  }
  return reworded > 0;
}

/** A string literal's prefix letters, lower-cased (`f`, `rb`): none in JavaScript or Go. */
function toPrefix(literal: string): string {
  return (/^[A-Za-z]*/.exec(literal)?.[0] ?? '').toLowerCase();
}

/** A line of string literals alone, with what joins them or ends the value (`"a" +`, `'b',`, `"c")`). */
const LITERALS_ONLY = /^(?:""\s*[+,]?\s*)+\)?[;,]?$/;

/** How many lines of literals above a changed one are walked to find the message call they belong to. */
const MAX_MESSAGE_LINES = 8;

/**
 * Whether line `index` (0-based) of `lines` is a line of literals alone that goes on a message begun above it:
 * `raise ValueError(` or `msg = (` then a string per line, as a long message is wrapped.
 */
function isMessagePart(lines: readonly string[], index: number, python: boolean): boolean {
  if (!LITERALS_ONLY.test(splitLiterals(lines[index] ?? '', python).code)) return false;
  for (let at = index - 1; at >= 0 && at >= index - MAX_MESSAGE_LINES; at--) {
    const code = splitLiterals(lines[at] ?? '', python).code;
    if (LITERALS_ONLY.test(code)) continue;
    return MESSAGE_CALL.test(code);
  }
  return false;
}
