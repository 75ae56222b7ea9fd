import { type HunkSyntax, isUnsetProperty, type Loop, MAX_CONDITION_LINES, type SourceLine } from './semantic-text.js';

/**
 * A line's decision as tokens: names, literals (strings kept: `=== 'GET'` and `=== 'HEAD'` decide differently) and
 * operators, without spaces, parentheses or comments. Parentheses that regroup `a || b && c` are the rare change
 * this reads as none.
 */
const TOKEN =
  /(?<comment>\/\/.*$|\/\*.*?\*\/|#(?![\w$]).*$)|(?<name>[A-Za-z_$][\w$]*)|(?<literal>\d[\w.]*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`)|(?<operator>===|!==|==|!=|<=|>=|&&|\|\||\?\?|\?\.|=>|\*\*|:=|[^\s()])/g;

type Token = { name: string } | { text: string };

function isMethodCall(code: string, at: number, name: string): boolean {
  return /\.\s*$/.test(code.slice(0, at)) && /^\s*\(/.test(code.slice(at + name.length));
}

/**
 * A text's tokens. A regular expression literal is one token, as the syntax reads it: the letters of `/^abc$/` are
 * no names a rename could map, and the slashes of `/\//g` open no comment (hono's trie router gained a `g` there).
 */
function tokenize(code: string, syntax: Pick<HunkSyntax, 'keywords' | 'findRegexLiterals'>): Token[] {
  const tokens: Token[] = [];
  const regexes = syntax.findRegexLiterals?.(code) ?? [];
  let from = 0;
  for (const regex of [...regexes, { start: code.length, end: code.length, token: '' }]) {
    for (const match of code.slice(from, regex.start).matchAll(TOKEN)) {
      const { comment, name, literal, operator } = match.groups ?? {};
      if (comment !== undefined) return tokens;
      const at = from + match.index;
      // A keyword (`typeof`, `in`, `None`, `nil`) is part of the logic, not a name that can be renamed; nor is a method
      // called (`Math.round(` → `Math.floor(` calls another function), while a property read (`req.connection` →
      // `req.socket`) and a local name may be.
      if (name !== undefined) tokens.push(syntax.keywords.has(name) || isMethodCall(code, at, name) ? { text: name } : { name });
      // A trailing comma is layout (`{ value, issues: [], }` over lines is `{ value, issues: [] }` on one).
      else if (operator === ',' && /^,\s*[)\]}]/.test(code.slice(at))) continue;
      else tokens.push({ text: literal ?? operator ?? '' });
    }
    if (regex.token !== '') tokens.push({ text: regex.token });
    from = regex.end;
  }
  return tokens;
}

/** The names a side of the diff uses in its code (strings and comments left out, block comments' inner lines too). */
function namesOf(lines: readonly SourceLine[], syntax: HunkSyntax): Set<string> {
  const names = new Set<string>();
  for (const line of lines) {
    if (line.isComment) continue;
    for (const token of tokenize(line.code, syntax)) if ('name' in token) names.add(token.name);
  }
  return names;
}

/** A name's declarations on one side, in line order: `line` is where it stands in that side's file (1-based). */
type Declarations = ReadonlyMap<string, readonly { line: number; expression: string }[]>;

/** Whether `code` opens more brackets than it closes (its strings emptied). */
function isOpen(code: string): boolean {
  let depth = 0;
  for (const char of code) {
    if (char === '(' || char === '[' || char === '{') depth += 1;
    else if (char === ')' || char === ']' || char === '}') depth -= 1;
  }
  return depth > 0;
}

/**
 * `name = expression` of each line, with its line in `file` (the same line objects). An initialiser that goes on over
 * the next lines of `lines` (`= !!filter?.includes(` / `Status.Archived` / `);`) is joined, up to MAX_CONDITION_LINES.
 */
function findDeclarations(lines: readonly SourceLine[], file: readonly SourceLine[], syntax: HunkSyntax): Declarations {
  const found = new Map<string, { line: number; expression: string }[]>();
  for (const [index, line] of lines.entries()) {
    for (const [name, expression] of syntax.findHeaderDeclarations?.(line) ?? []) {
      found.set(name, [...(found.get(name) ?? []), { line: file.indexOf(line) + 1, expression }]);
    }
    const declaration = syntax.findDeclaration(line);
    if (declaration === undefined) continue;
    const at = file.indexOf(line);
    let expression = declaration[1];
    let code = line.code;
    for (let next = 1; next <= MAX_CONDITION_LINES && isOpen(code); next++) {
      const following = lines[index + next];
      if (following === undefined || file.indexOf(following) !== at + next) break;
      if (following.isComment) continue;
      code += following.code;
      expression += ` ${following.raw.replace(/\/\/.*$/, '').trim()}`;
    }
    const list = found.get(declaration[0]) ?? [];
    list.push({ line: at + 1, expression: expression.replace(/;\s*$/, '') });
    found.set(declaration[0], list);
  }
  for (const list of found.values()) list.sort((a, b) => a.line - b.line);
  // A counter (`let i = -1` then `i++`) holds its initialiser only until its first step: read as itself.
  for (const name of found.keys()) {
    const stepped = toStepPattern(name);
    if (lines.some((line) => !line.isComment && stepped.test(line.code))) found.delete(name);
  }
  return found;
}

/** What steps `name` (`i++`, `--i`, `i += 2`): a value that changes as it goes, unlike one assigned whole. */
function toStepPattern(name: string): RegExp {
  const escaped = escapeRegExp(name);
  return new RegExp(`(?<![\\w$.])${escaped}\\s*(?:\\+\\+|--|(?:[-+*/%&|^]|\\*\\*)=)|(?:\\+\\+|--)\\s*${escaped}(?![\\w$])`);
}

/**
 * What a name holds where it is read: the nearest declaration before `line` (two functions of a file may each declare
 * `isPresent`), or the last one when the line is not known.
 */
function getDeclared(declarations: Declarations, name: string, line: number | undefined): string | undefined {
  const list = declarations.get(name);
  if (list === undefined) return undefined;
  if (line === undefined) return list[list.length - 1]?.expression;
  let held: string | undefined;
  for (const declaration of list) if (declaration.line <= line) held = declaration.expression;
  return held;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Rewrites a side's text so that what it names reads as the decision it holds: a name declared in the hunk as its
 * initialiser (`ok` of `const ok = a && b` reads `(a && b)`, twice over for a name built on another), an element
 * reached by index as the name the other side's `for…of` gave it (`items[i]` reads `item`), and either loop header as
 * `for each <collection>`.
 */
function createSubstitution(
  declarations: Declarations,
  elements: readonly (readonly [string, string])[],
  syntax: HunkSyntax,
): (text: string, line?: number) => string {
  const loopHeader = (text: string): string => {
    const loop = syntax.findLoop?.(text);
    return loop === undefined ? text : `for each ${loop.collection}`;
  };
  return (text, line) => {
    let result = loopHeader(text);
    for (let pass = 0; pass < 2; pass++) {
      // A name's letters inside a regular expression literal are the pattern's, not the name's.
      const regexes = syntax.findRegexLiterals?.(result) ?? [];
      result = result.replace(/[A-Za-z_$][\w$]*/g, (name, offset: number, whole: string) => {
        if (regexes.some((regex) => offset > regex.start && offset < regex.end)) return name;
        const held = whole[offset - 1] === '.' ? undefined : getDeclared(declarations, name, line);
        return held === undefined ? name : `(${held.trim()})`;
      });
    }
    for (const [indexed, element] of elements) result = result.replace(new RegExp(escapeRegExp(indexed), 'g'), element);
    return result;
  };
}

/** Each `for…of` of one side paired with an index loop over the same collection on the other: `items[i]` and the element's name. */
function pairLoops(ofLoops: readonly Loop[], indexLoops: readonly Loop[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (const loop of ofLoops) {
    for (const other of indexLoops) {
      if (loop.element !== undefined && other.index !== undefined && other.collection === loop.collection) {
        pairs.push([`${other.collection}[${other.index}]`, loop.element]);
      }
    }
  }
  return pairs;
}

/**
 * Whether a decision of the new side of a hunk (a condition, or a whole line) is one a removed line of the hunk made,
 * written differently: a condition hoisted into a variable (`const ok = a && b; if (ok)` is `if (a && b)`), a `for…of`
 * rewritten as an index loop, or names renamed. A rename must be one: the old name is gone from the head file and the
 * new one was not in the base file, so `x > min` → `x > max` (both still used) remains a changed decision. Operators,
 * literals and keywords must match one for one; renames must map one name to one name throughout the comparison.
 */
export function createOldLogicCheck(
  removed: readonly SourceLine[],
  added: readonly SourceLine[],
  baseFile: readonly SourceLine[],
  headFile: readonly SourceLine[],
  syntax: HunkSyntax,
): (decision: string, line?: number) => boolean {
  const removedCode = removed.filter((line) => !line.isComment && line.code !== '');
  if (removedCode.length === 0) return () => false;
  const findLoops = (lines: readonly SourceLine[]): Loop[] => lines.flatMap((line) => syntax.findLoop?.(line.text) ?? []);
  const oldLoops = findLoops(removed);
  const newLoops = findLoops(added);
  const toOld = createSubstitution(findDeclarations(removed, baseFile, syntax), pairLoops(newLoops, oldLoops), syntax);
  const headDeclarations = findDeclarations(added, headFile, syntax);
  const toNew = createSubstitution(headDeclarations, pairLoops(oldLoops, newLoops), syntax);
  // A test a removed line returned (`return value !== null && typeof value === "object"`) or assigned (finalhandler's
  // `var msg = env === 'production'`, its `?` on the next line) is a decision too, without its keyword or name.
  const returnedTest = (line: SourceLine): string | undefined => {
    const returned = /^\s*return\s+(.+?)\s*;?\s*$/.exec(line.text)?.[1];
    if (returned !== undefined) return /&&|\|\||\band\b|\bor\b/.test(returned) ? returned : undefined;
    const assigned = /^\s*(?:(?:var|let|const)\s+)?[A-Za-z_$][\w$.]*\s*=(?![=>])\s*(.+?)\s*;?\s*$/.exec(line.text)?.[1];
    return assigned !== undefined && /===|!==|==|!=|<=|>=|&&|\|\|/.test(assigned) && !/[?:]/.test(assigned) ? assigned : undefined;
  };
  const oldDecisions = removedCode
    .flatMap((line) => [syntax.findCondition(line), line.text, returnedTest(line)])
    .filter((text) => text !== undefined);
  const old = oldDecisions.map((text) => withoutDoubleNegation(tokenize(toOld(text), syntax)));
  // The tests the removed lines made, without their whole lines: what a condition joined from them may be made of.
  const oldTests = removedCode
    .map((line) => syntax.findCondition(line))
    .filter((text) => text !== undefined)
    .map((text) => withoutDoubleNegation(tokenize(toOld(text), syntax)));
  // The operands a removed line returned joined (`return field.IsValid() && field.Interface() != zero`): a guard that
  // returns early on one of them (go-playground/form's `if !field.IsValid() { return false }`) tests what it tested.
  const operand = (text: string): string => text.trim().replace(/^(?:!\s*|not\s+)/, '');
  const oldOperands = removedCode
    .map((line) => /^\s*return\s+(.+?)\s*;?\s*$/.exec(line.code)?.[1])
    .filter((returned) => returned !== undefined && /&&|\|\||\band\b|\bor\b/.test(returned))
    .flatMap((returned) => splitTopLevel(returned ?? '', syntax.keywords.has('or') ? /&&|\|\||and\b|or\b/ : /&&|\|\|/))
    .map((link) => withoutDoubleNegation(tokenize(toOld(operand(link)), syntax)));
  let baseNames: Set<string> | undefined;
  let headNames: Set<string> | undefined;
  const isRename = (from: string, to: string): boolean => {
    headNames ??= namesOf(headFile, syntax);
    baseNames ??= namesOf(baseFile, syntax);
    return !headNames.has(from) && !baseNames.has(to) && !isUnsetProperty(to, headFile);
  };
  // A loop that stops in its body now (`if (!optional) break`): a clause its condition lost may have moved there.
  const breaksInBody = added.some((line) => !line.isComment && /\bbreak\b/.test(line.code));
  // Or the new lines test the clause elsewhere, word for word: immer's `if (method === "push" && args.length > 0)` became
  // `if (method === "push")` inside a new `if (changed)`, `changed` being `args.length > 0` for a push.
  const addedTokens = added.filter((line) => !line.isComment && line.code !== '').map((line) => tokenize(line.text, syntax));
  const isTestedElsewhere = (old: readonly Token[], now: readonly Token[]): boolean => {
    // A clause of a few tokens at least: a bare name (`&& ok`) is said on many lines for other reasons.
    const clause = old.slice(now.length + 1);
    return clause.length >= MIN_MOVED_CLAUSE_TOKENS && addedTokens.some((tokens) => holdsRun(tokens, clause));
  };
  // Or into a new test nested in the branch (jinja's `if node.required and not all(…)` became `if node.required:` over a
  // loop whose `if not isinstance(body_node, nodes.Output) or any(…)` fails): that test is the question, asked there.
  const addedLines = new Set(added);
  const testsInBranch = (line: number | undefined): boolean => {
    const opening = line === undefined ? undefined : headFile[line - 1];
    if (line === undefined || opening === undefined) return false;
    const indent = toIndent(opening.raw);
    for (let at = line; at < headFile.length && at < line + MAX_BRANCH_LINES; at++) {
      const next = headFile[at];
      if (next === undefined || next.isComment || next.code === '') continue;
      if (toIndent(next.raw) <= indent) return false;
      if (addedLines.has(next) && syntax.findCondition(next) !== undefined) return true;
    }
    return false;
  };
  const toTokens = (decision: string, line: number | undefined): Token[] =>
    withoutDoubleNegation(tokenize(toNew(toHeldTruth(headDeclarations, decision, line), line), syntax));
  const isOld = (decision: string, line: number | undefined): boolean => {
    const tokens = toTokens(decision, line);
    if (tokens.length === 0) return false;
    return (
      old.some(
        (oldTokens) =>
          isSameLogic(oldTokens, tokens, isRename) ||
          ((breaksInBody || isTestedElsewhere(oldTokens, tokens) || testsInBranch(line)) && isKeptConjunct(oldTokens, tokens, isRename)),
      ) ||
      isJoinedOldTests(decision, line) ||
      isOldOperand(decision, line) ||
      isNestedOldConjunct(decision, line)
    );
  };
  // A removed test's `&&` links made nested tests (sanitize-html's `if (a === 'style' && options.parseStyleAttributes)`
  // became `if (a === 'style') {` over `if (options.parseStyleAttributes) {`): each is a link of the old test when the
  // added lines test every other link of it.
  const and = syntax.keywords.has('and') ? /&&|and\b/ : /&&/;
  const oldLinks = removedCode
    .map((line) => syntax.findCondition(line))
    .filter((text) => text !== undefined)
    .map((text) => splitTopLevel(stripCondition(text), and).map((link) => withoutDoubleNegation(tokenize(toOld(link), syntax))))
    .filter((links) => links.length > 1);
  let addedTests: Token[][] | undefined;
  const isNestedOldConjunct = (decision: string, line: number | undefined): boolean => {
    if (oldLinks.length === 0) return false;
    const tokens = toTokens(stripCondition(decision), line);
    if (tokens.length === 0) return false;
    addedTests ??= added
      .map((entry) => (entry.isComment ? undefined : syntax.findCondition(entry)))
      .filter((text) => text !== undefined)
      .map((text) => withoutDoubleNegation(tokenize(toNew(stripCondition(text)), syntax)));
    const tested = addedTests;
    return oldLinks.some((links) => {
      const own = links.findIndex((link) => isSameLogic(link, tokens, isRename));
      return (
        own >= 0 &&
        links.every((link, index) => index === own || tested.some((test) => test !== tokens && isSameLogic(link, test, isRename)))
      );
    });
  };
  const isOldOperand = (decision: string, line: number | undefined): boolean => {
    if (oldOperands.length === 0) return false;
    const tokens = toTokens(operand(stripCondition(decision)), line);
    return tokens.length > 0 && oldOperands.some((oldTokens) => isSameLogic(oldTokens, tokens, isRename));
  };
  // Tests removed lines made one by one, joined by `||` into one (express-session's `if (err) { … } else if (!sess)`
  // became `if (err || !sess)`): each case was a branch before. Only tests: two calls a removed block made as
  // statements (`validate(a)`, `check(b)`) joined into `if validate(a) or check(b):` decide something new.
  const isJoinedOldTests = (decision: string, line: number | undefined): boolean => {
    if (oldTests.length === 0) return false;
    const parts = splitTopLevel(stripCondition(decision), syntax.keywords.has('or') ? /\|\||or\b/ : /\|\|/);
    return (
      parts.length > 1 &&
      parts.every((part) => {
        const tokens = toTokens(part, line);
        return tokens.length > 0 && oldTests.some((oldTokens) => isSameLogic(oldTokens, tokens, isRename));
      })
    );
  };
  return (decision, line) => {
    if (isOld(decision, line)) return true;
    // An `if` rewritten as a ternary decides on the same test.
    const test = findTernaryTest(decision);
    return test !== undefined && isOld(test, line);
  };
}

/** A condition without its keyword, its `if (…) {` brackets or Python's closing colon: `if (a || b) {` reads `a || b`. */
function stripCondition(decision: string): string {
  const bare = decision
    .trim()
    .replace(/^(?:\}\s*)?(?:else\s+)?(?:el)?(?:if|while)\b\s*/, '')
    .replace(/\s*(?:\{|:)\s*$/, '');
  return bare.startsWith('(') && bare.endsWith(')') && splitTopLevel(bare.slice(1, -1), /\)/).length === 1 ? bare.slice(1, -1) : bare;
}

/**
 * `text` cut where `separator` matches outside brackets and strings (`a || (b || c)` → `a`, `(b || c)`), tried at
 * each place as it stands there (sticky). A separator that is a closing bracket (`/\)/`) finds a bracket closed early:
 * `(a) || (b)` is not one bracketed whole.
 */
function splitTopLevel(text: string, separator: RegExp): string[] {
  const sticky = new RegExp(separator.source, 'y');
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] ?? '';
    if (quote !== undefined) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === "'" || char === '"' || char === '`') quote = char;
    else if (depth === 0 && !(/[\w$]/.test(char) && /[\w$]/.test(text[index - 1] ?? '')) && matchesAt(sticky, text, index)) {
      const length = sticky.lastIndex - index;
      parts.push(text.slice(start, index).trim());
      index += length - 1;
      start = index + 1;
    } else if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
  }
  parts.push(text.slice(start).trim());
  return parts;
}

/** Whether a sticky `pattern` matches `text` at `index`; its `lastIndex` is then where the match ends. */
function matchesAt(pattern: RegExp, text: string, index: number): boolean {
  pattern.lastIndex = index;
  return pattern.test(text);
}

/** A literal that is false in a condition. */
const FALSY_LITERAL = /^(?:undefined|null|false|0|''|""|``|void 0)$/;

/** `c ? a : b` split at its top-level `?` and `:`; undefined when the text has no such ternary, or two. */
function splitTernary(expression: string): { condition: string; whenTrue: string; whenFalse: string } | undefined {
  let depth = 0;
  let question = -1;
  let colon = -1;
  let quote: string | undefined;
  for (let index = 0; index < expression.length; index++) {
    const char = expression[index] ?? '';
    // A `?` or `:` inside a string (`'?page=' + n`) splits nothing.
    if (quote !== undefined) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === "'" || char === '"' || char === '`') quote = char;
    else if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
    else if (depth === 0 && char === '?' && !'.?'.includes(expression[index + 1] ?? '') && expression[index - 1] !== '?') {
      if (question >= 0) return undefined;
      question = index;
    } else if (depth === 0 && char === ':' && question >= 0 && colon < 0) colon = index;
  }
  if (question < 0 || colon < 0) return undefined;
  return {
    condition: expression.slice(0, question).trim(),
    whenTrue: expression.slice(question + 1, colon).trim(),
    whenFalse: expression.slice(colon + 1).trim(),
  };
}

/**
 * A value put in one shape whatever shape it came in: `Array.isArray(events) ? events : [events]` (or `typeof x ===
 * 'string' ? [x] : x`). Both branches give the value as a list, so the test decides no behaviour of its own; the
 * callers' two shapes are the question, and the type states them (p-queue's `#onEvent` given one event or several).
 */
export function isWrappedInList(line: string): boolean {
  const ternary = splitTernary(line.trim().replace(/;\s*$/, ''));
  if (ternary === undefined) return false;
  const whenTrue = ternary.whenTrue.replace(/\s+/g, '');
  const whenFalse = ternary.whenFalse.replace(/\s+/g, '');
  const value = whenFalse === `[${whenTrue}]` ? whenTrue : whenTrue === `[${whenFalse}]` ? whenFalse : undefined;
  if (value === undefined || !/^[A-Za-z_$#][\w$#.]*$/.test(value)) return false;
  const escaped = value.replace(/[$.#]/g, '\\$&');
  return new RegExp(`(?<![\\w$#.])${escaped}(?![\\w$#])`).test(ternary.condition);
}

/**
 * The condition a value's truth follows: `c ? request.clone() : undefined` is true exactly when `c` is (ky hoisted
 * `retry.limit > 0` into `retryRequest` this way), `c ? undefined : x` when `c` is not. Undefined for anything else,
 * a nested ternary among them.
 */
function findTruthCondition(expression: string): string | undefined {
  const ternary = splitTernary(expression);
  if (ternary === undefined) return undefined;
  const { condition, whenTrue, whenFalse } = ternary;
  if (FALSY_LITERAL.test(whenFalse) && !FALSY_LITERAL.test(whenTrue)) return condition;
  if (FALSY_LITERAL.test(whenTrue) && !FALSY_LITERAL.test(whenFalse)) return `!(${condition})`;
  return undefined;
}

/**
 * The test of a line that assigns or returns a ternary (`const next = r instanceof Response ? r : response;`): the
 * decision it makes, which an `if` it replaced may have made word for word.
 */
function findTernaryTest(line: string): string | undefined {
  const condition = splitTernary(line.trim().replace(/;\s*$/, ''))?.condition;
  if (condition === undefined) return undefined;
  const test = condition.replace(/^(?:(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*(?::[^=]+)?=|[A-Za-z_$#][\w$#.]*\s*=(?!=)|return\b)\s*/, '');
  return test === condition ? undefined : test;
}

/** A decision that is only a name (or its negation) reads as the condition its value's truth follows, when it has one. */
function toHeldTruth(declarations: Declarations, decision: string, line: number | undefined): string {
  const named = /^\s*\(?\s*(!?)\s*([A-Za-z_$][\w$]*)\s*\)?\s*$/.exec(decision);
  if (named === null) return decision;
  const held = getDeclared(declarations, named[2] ?? '', line);
  const condition = held === undefined ? undefined : findTruthCondition(held);
  return condition === undefined ? decision : `${named[1]}(${condition})`;
}

/** Tokens with each `!!` left out: a decision made on `!!value` is the one made on `value` (`!!filter?.includes(x)`). */
function withoutDoubleNegation(tokens: readonly Token[]): Token[] {
  const kept: Token[] = [];
  for (const token of tokens) {
    const last = kept.at(-1);
    if ('text' in token && token.text === '!' && last !== undefined && 'text' in last && last.text === '!') kept.pop();
    else kept.push(token);
  }
  return kept;
}

/**
 * The new condition is the old one's first clauses, the rest cut at a top-level `&&`: `while (n > 0 && last(n).optional)`
 * → `while (n > 0)`, with the dropped test now a `break` in the loop (zod's tuple minItems scan). What the condition
 * still decides is what it decided before.
 */
function isKeptConjunct(old: readonly Token[], now: readonly Token[], isRename: (from: string, to: string) => boolean): boolean {
  const cut = old[now.length];
  return (
    now.length < old.length &&
    cut !== undefined &&
    'text' in cut &&
    (cut.text === '&&' || cut.text === 'and') &&
    isSameLogic(old.slice(0, now.length), now, isRename)
  );
}

/** A clause that moved must be a comparison or a call at least (`args.length > 0`), not a bare name. */
const MIN_MOVED_CLAUSE_TOKENS = 3;

/** How far below a changed branch a new test nested in it is looked for. */
const MAX_BRANCH_LINES = 40;

function toIndent(raw: string): number {
  return raw.length - raw.trimStart().length;
}

/** Whether `tokens` hold `run` in a row, token for token (no renames). */
function holdsRun(tokens: readonly Token[], run: readonly Token[]): boolean {
  const same = (a: Token | undefined, b: Token): boolean =>
    a !== undefined && ('text' in a ? 'text' in b && a.text === b.text : 'name' in b && a.name === b.name);
  for (let start = 0; start + run.length <= tokens.length; start += 1) {
    if (run.every((token, offset) => same(tokens[start + offset], token))) return true;
  }
  return false;
}

/** Token for token the same, up to names renamed one to one. */
function isSameLogic(old: readonly Token[], now: readonly Token[], isRename: (from: string, to: string) => boolean): boolean {
  if (old.length !== now.length) return false;
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  for (const [index, before] of old.entries()) {
    const after = now[index];
    if (after === undefined) return false;
    if ('text' in before || 'text' in after) {
      if (!('text' in before && 'text' in after && before.text === after.text)) return false;
      continue;
    }
    const mapped = forward.get(before.name);
    if (mapped !== undefined) {
      if (mapped !== after.name) return false;
      continue;
    }
    if (backward.has(after.name)) return false;
    if (before.name !== after.name && !isRename(before.name, after.name)) return false;
    forward.set(before.name, after.name);
    backward.set(after.name, before.name);
  }
  return true;
}
