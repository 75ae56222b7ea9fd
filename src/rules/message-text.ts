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
      if (!MESSAGE_CALL.test(now.code)) return false;
      reworded += 1;
    }
  }
  return reworded > 0;
}
