/**
 * A condition turned inside out into an early exit: `if (domain?.tenantId) {` → `if (!domain?.tenantId) return;`, or a
 * returned `length <= max` → `if (length > max) return false;`. The code that ran when the old test held now runs after
 * the exit, so each input takes the path it took before: no condition or boundary changed. Pure: lines in, an answer out.
 */
import type { SourceLine } from './semantic-text.js';

const EXIT = /^\s*\{?\s*(?:return|throw|continue|break)\b/;
const IF_START = /^\s*(?:\}\s*)?(?:else\s+)?if\s*\(/;
/** One operand: a name, a member chain, a call or an index read, with no operator at its top level. */
const OPERAND = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$#][\w$]*|\??\.?\([^()]*\)|\[[^\][]*\])*$/;
const COMPLEMENT: Record<string, string> = {
  '<': '>=',
  '>=': '<',
  '>': '<=',
  '<=': '>',
  '===': '!==',
  '!==': '===',
  '==': '!=',
  '!=': '==',
};
const COMPARISON = /^(.+?)\s*(===|!==|==|!=|<=|>=|<|>)\s*(.+)$/;

interface Test {
  test: string;
  /** What follows the test on its line: `return;`, `{`, or nothing. */
  rest: string;
}

/** An `if`'s test and what follows it; else the line as an expression (`return` and a trailing `,` or `;` cut). */
function readTest(code: string, ifOnly: boolean): Test | undefined {
  const start = IF_START.exec(code);
  if (start === null) {
    // Else only a value returned, or a comparison given as one (an arrow's body): a call made for its effect
    // (`save(x);`) that now decides an exit (`if (!save(x)) return;`) is new logic.
    const trimmed = code.trim();
    const test = trimmed
      .replace(/^return\s+/, '')
      .replace(/[,;]$/, '')
      .trim();
    if (ifOnly || test === '' || (!trimmed.startsWith('return ') && !COMPARISON.test(test))) return undefined;
    return { test, rest: '' };
  }
  let depth = 0;
  for (let index = start[0].length - 1; index < code.length; index++) {
    const char = code[index];
    if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return { test: code.slice(start[0].length, index).trim(), rest: code.slice(index + 1).trim() };
  }
  return undefined;
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The test's negation as written most simply (`!a` → `a`, `a` → `!a`, `a <= b` → `a > b`); undefined for anything else. */
function negate(test: string): string | undefined {
  const text = collapse(test);
  if (text.startsWith('!') && !text.startsWith('!=')) {
    const inner = text.slice(1).trim();
    const unwrapped = inner.startsWith('(') && inner.endsWith(')') ? inner.slice(1, -1).trim() : inner;
    return OPERAND.test(unwrapped) || COMPARISON.test(unwrapped) ? unwrapped : undefined;
  }
  if (OPERAND.test(text)) return `!${text}`;
  if (/&&|\|\||\?/.test(text)) return undefined;
  const comparison = COMPARISON.exec(text);
  if (comparison === null) return undefined;
  const [, left = '', operator = '', right = ''] = comparison;
  const complement = COMPLEMENT[operator];
  return complement === undefined ? undefined : `${left} ${complement} ${right}`;
}

/** Whether the line leaves at its test (`if (x) return;`), or opens a block whose first line leaves. */
function exitsAt(test: Test, next: SourceLine | undefined): boolean {
  if (EXIT.test(test.rest)) return true;
  return (test.rest === '' || test.rest === '{') && next !== undefined && EXIT.test(next.code);
}

/**
 * Whether `after` (an `if` that leaves early) tests the negation of what `before` tested where it did not leave: the
 * guard clause a refactor writes, not a decision that changed. A flipped test that keeps its branch's body (`if (a) {
 * run(); }` → `if (!a) { run(); }`) or that left before too (`if (a) return;` → `if (!a) return;`) is a change.
 */
export function isInvertedGuard(
  before: SourceLine,
  after: SourceLine,
  beforeNext: SourceLine | undefined,
  afterNext: SourceLine | undefined,
): boolean {
  const now = readTest(after.code, true);
  const old = readTest(before.code, false);
  if (now === undefined || old === undefined || now.test === '' || old.test === '') return false;
  if (!exitsAt(now, afterNext) || exitsAt(old, beforeNext)) return false;
  return negate(now.test) === collapse(old.test) || negate(old.test) === collapse(now.test);
}
