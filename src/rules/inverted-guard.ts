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
/** Each comparison operator and the one that holds exactly when it does not. */
export const COMPLEMENT: Readonly<Record<string, string>> = {
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
  // De Morgan, one operator throughout: `a === 'x' && b === 'y'` is the negation of `a !== 'x' || b !== 'y'`.
  const links = splitLinks(text);
  if (links !== undefined) {
    const negated = links.parts.map((link) => negate(link));
    return negated.every((link) => link !== undefined && !/&&|\|\|/.test(link))
      ? negated.join(links.operator === '&&' ? ' || ' : ' && ')
      : undefined;
  }
  if (/&&|\|\||\?/.test(text)) return undefined;
  const comparison = COMPARISON.exec(text);
  if (comparison === null) return undefined;
  const [, left = '', operator = '', right = ''] = comparison;
  const complement = COMPLEMENT[operator];
  return complement === undefined ? undefined : `${left} ${complement} ${right}`;
}

/**
 * The links of a test joined by one operator at its top level (`&&` or `||`, never both, none inside brackets); undefined
 * for a test of one link, of both operators, or with a ternary.
 */
function splitLinks(text: string): { operator: '&&' | '||'; parts: string[] } | undefined {
  if (text.includes('?')) return undefined;
  const parts: string[] = [];
  const operators = new Set<string>();
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '(' || char === '[' || char === '{') depth += 1;
    else if (char === ')' || char === ']' || char === '}') depth -= 1;
    else if (depth === 0 && (text.startsWith('&&', index) || text.startsWith('||', index))) {
      operators.add(text.slice(index, index + 2));
      parts.push(text.slice(start, index).trim());
      start = index + 2;
      index += 1;
    }
  }
  parts.push(text.slice(start).trim());
  const [operator] = [...operators];
  if (operators.size !== 1 || (operator !== '&&' && operator !== '||') || parts.some((part) => part === '')) return undefined;
  return { operator, parts };
}

/**
 * A line with its tests of emptiness written one way (`x.length === 0`) and its optional chains as plain reads:
 * unstorage's `if (!keys?.length)` → `if (keys.length === 0)`, once `keys` was always a list, tests what it tested.
 */
export function toEmptinessForm(code: string): string {
  return code
    .replace(/\?\./g, '.')
    .replace(/!\s*([A-Za-z_$][\w$.]*)\.length\b(?!\s*[=!<>])/g, '$1.length === 0')
    .replace(/([A-Za-z_$][\w$.]*)\.length\s*(?:<\s*1|<=\s*0|===?\s*0)(?![\w.])/g, '$1.length === 0')
    .replace(/\b0\s*===?\s*([A-Za-z_$][\w$.]*)\.length\b/g, '$1.length === 0')
    .replace(/([A-Za-z_$][\w$.]*)\.length\s*(?:>=\s*1|!==?\s*0|>\s*0)(?![\w.])/g, '$1.length > 0');
}

/** Whether the line leaves at its test (`if (x) return;`), or opens a block whose first line leaves. */
function exitsAt(test: Test, next: SourceLine | undefined): boolean {
  if (EXIT.test(test.rest)) return true;
  return (test.rest === '' || test.rest === '{') && next !== undefined && EXIT.test(next.code);
}

/**
 * Whether the `if` block that opens at `base[at]` is the last thing its path does: no `else`, and after its closing
 * brace comes the end of the function or a `return`. Only then does `if (!x) return;` followed by the block's body
 * do what the block did: with `doMore()` after the old block, the early exit would skip it.
 */
function isLastBlock(base: readonly SourceLine[], at: number): boolean {
  const end = findBlockEnd(base, at);
  if (end === undefined || /^\s*else\b/.test(end.after)) return false;
  const next = base.slice(end.index + 1).find((line) => !line.isComment && line.code.trim() !== '');
  return next === undefined || /^\s*(?:\}|return\b)/.test(next.code);
}

/**
 * Where the block that opens on `base[at]` closes: the line's index and what follows the closing brace on it. An `if`
 * whose test ends its line without a brace governs the one statement of the next line, when that line ends it
 * (`if (a.kind === 'route')` / `  routes.push(id);`). Undefined when no block opens on the line or the next (`if (x)
 * run();`: the statement after it runs on both paths) or none closes.
 */
function findBlockEnd(base: readonly SourceLine[], at: number): { index: number; after: string } | undefined {
  const opening = base[at]?.code.trim() ?? '';
  const statement = base[at + 1]?.code.trim() ?? '';
  if (IF_START.test(opening) && opening.endsWith(')') && !statement.includes('{') && /;$/.test(statement))
    return { index: at + 1, after: '' };
  let depth = 0;
  let opened = false;
  for (let index = at; index < base.length; index++) {
    const code = base[index]?.code ?? '';
    for (let position = 0; position < code.length; position++) {
      const char = code[position];
      if (char === '{') {
        depth++;
        opened = true;
      } else if (char === '}' && opened && --depth === 0) return { index, after: code.slice(position + 1) };
    }
    if (!opened && index > at) return undefined;
  }
  return undefined;
}

/**
 * Whether `after` (an `if` that leaves early) tests the negation of what the base line `base[beforeAt]` tested where it
 * did not leave, and that line's block was the last thing its path did (or it returned the test's value): the guard
 * clause a refactor writes, not a decision that changed. A flipped test that keeps its branch's body (`if (a) { run();
 * }` → `if (!a) { run(); }`), that left before too (`if (a) return;` → `if (!a) return;`), or whose old block had code
 * after it is a change.
 */
export function isInvertedGuard(
  base: readonly SourceLine[],
  beforeAt: number,
  after: SourceLine,
  afterNext: SourceLine | undefined,
): boolean {
  const before = base[beforeAt];
  if (before === undefined) return false;
  const now = readTest(after.code, true);
  const old = readTest(before.code, false);
  if (now === undefined || old === undefined || now.test === '' || old.test === '') return false;
  const negated = negate(now.test) === collapse(old.test) || negate(old.test) === collapse(now.test);
  // `if (x) { …; return a } else { return b }` → `if (!x) { return b }` then the rest (handlebars's strictLookup): the
  // else's exit, now taken first, the same statement.
  const elseExit = IF_START.test(before.code) ? findElseExit(base, beforeAt) : undefined;
  const exit = EXIT.test(now.rest) ? now.rest : afterNext?.code;
  if (negated && elseExit !== undefined && exit !== undefined && toStatement(exit) === elseExit) return true;
  if (!exitsAt(now, afterNext) || exitsAt(old, base[beforeAt + 1])) return false;
  if (IF_START.test(before.code) && !isLastBlock(base, beforeAt)) return false;
  return negated;
}

/**
 * Whether `after` (an `if` that opens a block) wraps in its negation what followed an early exit the base made at
 * `base[beforeAt]` (hookable's `if (hooks.length === 0) { return; }` then the calls → `if (hooks.length > 0) { return
 * callHooks(…) }`): the old exit returned nothing and the new block ends its function, so each input ends as it did.
 */
export function isUnwrappedGuard(base: readonly SourceLine[], beforeAt: number, head: readonly SourceLine[], afterAt: number): boolean {
  const before = base[beforeAt];
  const after = head[afterAt];
  if (before === undefined || after === undefined) return false;
  const old = readTest(before.code, true);
  const now = readTest(after.code, true);
  if (old === undefined || now === undefined || now.rest !== '{' || old.test === '' || now.test === '') return false;
  const exit = EXIT.test(old.rest) ? old.rest : old.rest === '{' || old.rest === '' ? base[beforeAt + 1]?.code : undefined;
  if (exit === undefined || !/^\s*\{?\s*return\s*(?:undefined\s*)?;?\s*\}?\s*$/.test(exit)) return false;
  const negated = negate(now.test);
  const same = (left: string | undefined, right: string): boolean =>
    left !== undefined && toEmptinessForm(collapse(left)) === toEmptinessForm(collapse(right));
  if (!same(negated, old.test) && !same(negate(old.test), now.test)) return false;
  const end = findBlockEnd(head, afterAt);
  if (end === undefined || end.after.trim() !== '') return false;
  const next = head.slice(end.index + 1).find((line) => !line.isComment && line.code.trim() !== '');
  return next !== undefined && /^\s*\}/.test(next.code);
}

/** An exit statement as compared: braces and a closing `;` dropped, spaces collapsed (`{ return stack; }` → `return stack`). */
function toStatement(code: string): string {
  return collapse(code.replace(/^\s*\{|\}\s*$/g, '').replace(/;\s*$/, ''));
}

/**
 * The one statement of the `else` block of the `if` that opens at `base[at]`, when it is an exit (`return stack;`) and
 * the block holds nothing else; undefined otherwise.
 */
function findElseExit(base: readonly SourceLine[], at: number): string | undefined {
  const end = findBlockEnd(base, at);
  if (end === undefined || !/^\s*else\s*\{\s*$/.test(end.after)) return undefined;
  const [statement, closing] = base.slice(end.index + 1).filter((line) => !line.isComment && line.code.trim() !== '');
  if (statement === undefined || closing === undefined || !EXIT.test(statement.code) || !/^\s*\}/.test(closing.code)) return undefined;
  return toStatement(statement.code);
}

/** A moved test must be at least this long, and more than a bare name (`if (deleted)` is tested everywhere). */
const MIN_MOVED_TEST = 12;

/** The test of an `if` line as written (strings kept, spaces collapsed); undefined for any other line. */
export function readIfTest(text: string): string | undefined {
  const test = readTest(text, true)?.test;
  return test === undefined || test === '' ? undefined : collapse(test);
}

/**
 * Whether the `if` at `after` makes a test another file of the change removed (`removed`, tests as `readIfTest` reads
 * them): the same test, or its negation when the new `if` leaves at once. msw moved `if (typeof document !==
 * 'undefined') {` from a decorator into a new function as `if (typeof document === 'undefined') { return }`. Lines are
 * read as written: their code form empties strings, where `=== 'GET'` would read as `=== 'POST'`.
 */
export function isMovedTest(after: SourceLine, afterNext: SourceLine | undefined, removed: (test: string) => boolean): boolean {
  const now = readTest(after.text, true);
  if (now === undefined) return false;
  const test = collapse(now.test);
  if (test.length < MIN_MOVED_TEST || /^[\w$.]+$/.test(test)) return false;
  if (removed(test)) return true;
  const negated = negate(test);
  return negated !== undefined && exitsAt(now, afterNext) && removed(negated);
}
