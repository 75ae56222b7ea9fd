/**
 * Which signals of a changed file's head are about the change: those on changed lines that the change did not only
 * move (a line removed elsewhere word for word, an optional access or a default already there) and that are not a
 * string read as a list. Pure: the file's texts and facts in, signals out.
 */
import { joinLinesBelow } from './chain-links.js';
import type { ChangeStatus, Hunk } from '../model/change.js';
import { type FunctionFact, findInnermostFunction, getSourceLanguage, type SignalFact } from '../model/facts.js';
import { listCalledBodyLines } from './semantic-hunks.js';

/** What the selection reads of a changed file. */
interface ChangedSource {
  path: string;
  status: ChangeStatus;
  hunks: readonly Hunk[];
  headText?: string | undefined;
  baseText?: string | undefined;
  headFunctions?: readonly FunctionFact[] | undefined;
  headSignals?: readonly SignalFact[] | undefined;
}

/** The base side's changed lines (what the change removed or rewrote). */
export function getBaseChangedLines(hunks: readonly Hunk[]): number[] {
  const lines = new Set<number>();
  for (const hunk of hunks) for (let offset = 0; offset < hunk.oldLines; offset += 1) lines.add(hunk.oldStart + offset);
  return [...lines].sort((a, b) => a - b);
}

/** Generic signals count only on changed lines: an unchanged `/\s/` or list elsewhere in a touched function is not about this change. */
export function selectChangedSignals(file: ChangedSource, changedLines: readonly number[]): SignalFact[] {
  const all = file.headSignals ?? [];
  if (all.length === 0) return [];
  const head = file.headText?.split('\n') ?? [];
  const base = file.baseText?.split('\n') ?? [];
  // With the lines of the functions removed lines called: a change that put a call's body in its place moved them
  // (yarl's with_suffix took with_name's `if len(parts) == 1:`).
  const language = getSourceLanguage(file.path);
  const inlined = language === undefined || file.baseText === undefined ? [] : listCalledBodyLines(file.baseText, file.hunks, language);
  const removed = [...getBaseChangedLines(file.hunks).map((line) => base[line - 1] ?? ''), ...inlined].map(toOptionalChains);
  const signals = all.filter(
    (signal) =>
      !isLengthGuard(signal, head, signal.line) &&
      !isOnlyTested(signal, head[signal.line - 1] ?? '', removed) &&
      !isTestedAbove(signal, head),
  );
  if (file.status === 'added') return signals;
  const changedSet = new Set(changedLines);
  const changed = signals.filter((signal) => changedSet.has(signal.line));
  if (changed.length === 0 || file.baseText === undefined || file.headText === undefined) return changed;
  return changed.filter(
    (signal) =>
      // A call's signal sits on the line its chain starts (`promise` above `.then(resolve)` and `.catch(reject)`).
      !isMovedSignal(signal, joinLinesBelow(head, signal.line - 1), removed) &&
      !isCallMadeBefore(signal, file.hunks, base, head) &&
      !isGuardedAlready(signal, head, changedSet, file.headFunctions ?? []) &&
      !isCharacterRead(signal, head, file.headFunctions ?? []) &&
      !isStringRead(signal, head, file.headFunctions ?? []) &&
      !isSliceAtFoundIndex(signal, head, file.headFunctions ?? []) &&
      !isBoundsChecked(signal, head, file.headFunctions ?? []) &&
      !isTupleRead(signal, head, file.headFunctions ?? []) &&
      !isEmptyHandledAbove(signal, head, file.headFunctions ?? []) &&
      !isMatchCheckedAbove(signal, head, file.headFunctions ?? []) &&
      !isDigitGroupParse(signal, head) &&
      !isOwnRefRead(signal, head) &&
      !isInsideNonEmptyTest(signal, head) &&
      !isSliceInsideLengthTest(signal, head, file.headFunctions ?? []),
  );
}

/** The signals a call makes wherever it stands: the same call on a removed line of the hunk made it there before. */
const CALL_SIGNALS: ReadonlySet<SignalFact['kind']> = new Set(['parse-json', 'date-time']);

/**
 * JSON parsed where a removed line of the same hunk parsed JSON (node-fetch's `return JSON.parse(buffer.toString())` →
 * `return JSON.parse(text)`): malformed text failed there before; what the parse is now given is a read case's question,
 * not a new parse. The same for a date call (luxon's `dtfCache[zone] = new Intl.DateTimeFormat(…)` →
 * `dtf = new Intl.DateTimeFormat(…)`, its cache made a Map): the zone handling was there before.
 */
function isCallMadeBefore(signal: SignalFact, hunks: readonly Hunk[], base: readonly string[], head: readonly string[]): boolean {
  const callee = signal.detail.replace(/^new\s+/, '');
  if (!CALL_SIGNALS.has(signal.kind) || !/^[A-Za-z_$][\w$.]*$/.test(callee)) return false;
  const hunk = hunks.find((candidate) => signal.line >= candidate.newStart && signal.line < candidate.newStart + candidate.newLines);
  if (hunk === undefined) return false;
  const call = new RegExp(`(?<![\\w$])${signal.detail === callee ? '' : 'new\\s+'}${escapeName(callee)}\\s*\\(`);
  const removed = base.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines);
  if (signal.kind === 'parse-json') return removed.some((line) => call.test(line));
  // A date call given other arguments computes another date (dayjs's `new Date(y, M, d)` → `new Date(y, M, d, h)`): the
  // call and what follows it on its line must be as a removed line wrote them.
  const line = head[signal.line - 1] ?? '';
  const at = line.search(call);
  const written = at < 0 ? '' : line.slice(at).trim();
  return written !== '' && removed.some((text) => text.includes(written));
}

/**
 * An optional read of what a component keeps in its own ref (hono's `unsubscribeRef.current?.()` of `const unsubscribeRef
 * = useRef<() => void>(null)`): `current` is empty until the component's own code fills it, on its first render or
 * effect, whatever the input; the lifecycle asks it, no input without a field does. Every `?.` of the line must read a
 * ref so made in the file.
 */
function isOwnRefRead(signal: SignalFact, head: readonly string[]): boolean {
  if (signal.kind !== 'optional-access' || signal.detail !== '?.') return false;
  const line = head[signal.line - 1] ?? '';
  const holders = [...line.matchAll(/([\w$.]+?)\?\.(?!\d)/g)].map((match) => match[1] ?? '');
  if (holders.length === 0 || holders.some((holder) => !/^[A-Za-z_$][\w$]*\.current$/.test(holder))) return false;
  return holders.every((holder) => {
    const name = holder.slice(0, -'.current'.length).replace(/\$/g, '\\$');
    const made = new RegExp(`\\b(?:const|let)\\s+${name}\\s*=\\s*(?:React\\.)?useRef\\b`);
    return head.some((text) => made.test(text));
  });
}

/**
 * An optional read that an `if` or `while` only tests for truth: ofetch's new `if (defaults?.query && input?.query) {`.
 * A missing field takes the branch's other side, never a silent `undefined` further on; the condition's own case asks
 * for it. Each operand holding `?.` must be a bare chain (negated or not): one compared, called or passed on is read.
 */
function isOnlyTested(signal: SignalFact, line: string, removed: readonly string[]): boolean {
  if (signal.kind !== 'optional-access' || signal.detail !== '?.') return false;
  const branch = takeBranchTest(line, /^\s*(?:\}\s*)?(?:else\s+)?(?:if|while)\s*\(/);
  // The statement after it must not read the field on: `if (a?.b) use(a?.b.c)` reads it again, optionally.
  if (branch === undefined || branch.rest.includes('?.')) return false;
  const operands = branch.test.split(/&&|\|\|/).map((operand) => operand.trim().replace(/^!+/, ''));
  const chains = operands.filter((operand) => operand.includes('?.'));
  // A read made optional where a removed line read it plainly (`if (a.b)` → `if (a?.b)`) is the crash fix: asked.
  return (
    chains.length > 0 &&
    chains.every((chain) => BARE_CHAIN.test(chain)) &&
    !chains.some((chain) => removed.some((text) => text.includes(chain.replaceAll('?.', '.'))))
  );
}

/**
 * The test in the bracket `opener` ends with (`if (`), to the bracket that closes it, and the rest of the line (a
 * statement may follow on it); undefined when the line does not open so or the bracket closes on a later line.
 */
function takeBranchTest(line: string, opener: RegExp): { test: string; rest: string } | undefined {
  const opened = opener.exec(line);
  if (opened === null) return undefined;
  let depth = 1;
  let end = opened[0].length;
  for (; end < line.length && depth > 0; end++) depth += line[end] === '(' ? 1 : line[end] === ')' ? -1 : 0;
  return depth > 0 ? undefined : { test: line.slice(opened[0].length, end - 1), rest: line.slice(end) };
}

/** The operands an `if (…)` line joins with `&&`, each a bare chain, its `?.` read as `.`; empty for any other line. */
function findTestedChains(line: string): string[] {
  const test = takeBranchTest(line, /^\s*(?:\}\s*)?(?:else\s+)?if\s*\(/)?.test;
  if (test === undefined || test.includes('||')) return [];
  return test
    .split('&&')
    .map((operand) => operand.trim())
    .filter((operand) => BARE_CHAIN.test(operand) || /^[A-Za-z_$][\w$]*$/.test(operand))
    .map((operand) => operand.replaceAll('?.', '.'));
}

/** How far above an optional read the `if` that guards it is looked for. */
const MAX_GUARD_DISTANCE = 30;

/**
 * An optional read inside the block of an `if` that tested what it reads from (ofetch's `...defaults?.params` under
 * `if (defaults?.params && input?.params) {`): the holder is there, whatever `?.` says.
 */
function isTestedAbove(signal: SignalFact, head: readonly string[]): boolean {
  if (signal.kind !== 'optional-access' || signal.detail !== '?.') return false;
  const line = head[signal.line - 1] ?? '';
  const holders = findGuardedChains(line).map((chain) => chain.slice(0, -2).replaceAll('?.', '.'));
  if (holders.length === 0) return false;
  const tested = new Set<string>();
  for (const { text: above, depth } of listEnclosingLines(head, signal.line)) {
    for (const chain of findTestedChains(above)) tested.add(chain);
    if (/^\s*(?:export\s+)?(?:async\s+)?function\b|=>\s*\{\s*$/.test(above) || depth === 0) break;
  }
  return holders.every((holder) => [...tested].some((chain) => chain === holder || chain.startsWith(`${holder}.`)));
}

/**
 * The lines that open the blocks around `line` (1-based), innermost first: each less indented than the last, at most
 * MAX_GUARD_DISTANCE lines up. `at` is the line's 0-based index in `head`.
 */
function* listEnclosingLines(head: readonly string[], line: number): Generator<{ text: string; depth: number; at: number }> {
  const start = head[line - 1] ?? '';
  let indent = start.length - start.trimStart().length;
  for (let at = line - 2; at >= 0 && at >= line - 1 - MAX_GUARD_DISTANCE; at--) {
    const text = head[at] ?? '';
    if (text.trim() === '') continue;
    const depth = text.length - text.trimStart().length;
    if (depth >= indent) continue;
    indent = depth;
    yield { text, depth, at };
  }
}

/** A member chain and nothing else: `defaults?.query`, `this.opts?.retry?.limit`. */
const BARE_CHAIN = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/;

/**
 * A first or last element read below an early exit on the same list being empty (yargs: `if (argvKeys.length === 0)
 * return argv;` then `argvKeys[0]`; testify's `if len(splitted) == 0 {` then `return splitted[len(splitted)-1]`;
 * Python's `if not parts:`), or below an assertion that it holds one (`assert len(key) == 1`, `assert parts`,
 * `assert.ok(rows.length)`): no empty list reaches the read, and the exit's own test asks for the empty case.
 */
function isEmptyHandledAbove(signal: SignalFact, head: readonly string[], functions: readonly FunctionFact[]): boolean {
  if (signal.kind !== 'collection') return false;
  const list = /^([\w$.]+)\[(?:0|-1|length - 1|len\(\1\)\s*-\s*1)\]$/.exec(signal.detail)?.[1];
  if (list === undefined) return false;
  const name = escapeName(list);
  const test = [
    `\\(\\s*(?:!\\s*${name}\\.length|${name}\\.length\\s*(?:===?\\s*0|<\\s*1))\\s*\\)\\s*(\\{?)`,
    `len\\(${name}\\)\\s*(?:==\\s*0|<\\s*1)\\s*(\\{|:)`,
    `not\\s+${name}\\s*(:)`,
  ];
  const empty = new RegExp(`^\\s*(?:\\}\\s*)?(?:else\\s+)?if\\s*(?:${test.join('|')})\\s*(.*)$`);
  const [from] = findEnclosingLines(signal.line, head, functions);
  const depth = (text: string): number => /^\s*/.exec(text)?.[0].length ?? 0;
  const readDepth = depth(head[signal.line - 1] ?? '');
  for (let line = from; line < signal.line; line++) {
    const match = empty.exec(head[line - 1] ?? '');
    // An exit indented deeper than the read leaves a block the read is not in (a callback's `return`).
    if (match === null || depth(head[line - 1] ?? '') > readDepth) continue;
    const rest = match[4] ?? '';
    const body = rest === '' ? (head.slice(line).find((text) => text.trim() !== '') ?? '') : rest;
    if (/^\s*(?:(?:return|throw|raise)\b|panic\()/.test(body)) return true;
  }
  // An assertion that it holds an element: dateutil's `assert len(missing) == len(key) == 1` above `key = key[0]`.
  const holds = new RegExp(
    `^\\s*(?:assert\\s+(?:${name}\\s*(?:,|$)|.*len\\(${name}\\).*(?:==|>=)\\s*[1-9])|assert(?:\\.ok|\\.equal|\\.strictEqual)?\\(\\s*${name}\\.length\\b)`,
  );
  for (let line = from; line < signal.line; line++)
    if (depth(head[line - 1] ?? '') <= readDepth && holds.test(head[line - 1] ?? '')) return true;
  return false;
}

/**
 * An element read inside a block whose test says the list holds it: `if len(parts) > 1 {` above `parts[1]`, `if parts:`
 * above `parts[0]`, `if (rows.length) {` above `rows[0]`, or in the branch of a ternary whose test does; or, for the
 * submatches of a regular expression, a test that it matched at all (cast: `matches := re.FindStringSubmatch(text)`,
 * then `if matches != nil {` above `matches[1]`): a match holds every group.
 */
function isInsideNonEmptyTest(signal: SignalFact, head: readonly string[]): boolean {
  if (signal.kind !== 'collection') return false;
  const read = /^([\w$.]+)\[(-?\d+)\]$/.exec(signal.detail);
  const [, list = '', indexText = ''] = read ?? [];
  if (read === null) return false;
  const index = Number(indexText);
  const name = escapeName(list);
  const needed = index < 0 ? 1 : index + 1;
  // A ternary on the read's own line whose test holds it (hono's `buffer.length === 1 ? raw(buffer[0], …) : …`), or
  // whose branch the line begins, its test on the line above.
  const line = head[signal.line - 1] ?? '';
  const own = /^\s*\?(?![.?])/.test(line) ? `${head[signal.line - 2] ?? ''} ${line}` : line;
  const ternary = new RegExp(`(?:${name}\\.length|len\\(${name}\\))\\s*(?:(===?|>=?)\\s*(\\d+)\\s*)?\\?(?![.?])`).exec(own);
  if (ternary !== null && own.slice(ternary.index + ternary[0].length).includes(`${list}[${indexText}]`)) {
    const [, operator, count] = ternary;
    if (operator === undefined ? needed === 1 : Number(count) + (operator === '>' ? 1 : 0) >= needed) return true;
  }
  const isSubmatch = new RegExp(`\\b${name}\\s*:?=\\s*[\\w.]+\\.Find\\w*Submatch\\w*\\(`);
  for (const { text: above, depth, at } of listEnclosingLines(head, signal.line)) {
    const test = /^\s*(?:\}\s*)?(?:else\s+)?(?:el)?if\b(.*)$/.exec(above)?.[1];
    if (test !== undefined) {
      const bound = new RegExp(`(?:len\\(${name}\\)|${name}\\.length)\\s*(>=?)\\s*(\\d+)`).exec(test);
      if (bound !== null && Number(bound[2]) + (bound[1] === '>' ? 1 : 0) >= needed) return true;
      const truthy = new RegExp(`^\\s*\\(?\\s*(?:${name}|${name}\\.length|len\\(${name}\\))\\s*\\)?\\s*[:{]`).test(test);
      if (needed === 1 && truthy) return true;
      if (new RegExp(`^\\s*${name}\\s*!=\\s*nil\\s*\\{`).test(test) && head.slice(0, at).some((text) => isSubmatch.test(text))) return true;
    }
    if (depth === 0) break;
  }
  return false;
}

/** The call that gives a regular expression's match: Go's `Find…Submatch`, JavaScript's `exec`/`match`, Python's `re.match`. */
const MATCH_CALL = String.raw`.*?(?:\.Find\w*Submatch\w*|\.exec|\.match|\.fullmatch|\.search)\(`;

/**
 * A group read of a regular expression's match below an early exit on there being no match (Masterminds/semver: `m :=
 * versionRegex.FindStringSubmatch(v)`, `if m == nil { return nil, ErrInvalidSemVer }`, then `m[4]`; JavaScript's `if
 * (!m) return`): a match holds every group of its expression, so no empty list reaches the read.
 */
function isMatchCheckedAbove(signal: SignalFact, head: readonly string[], functions: readonly FunctionFact[]): boolean {
  if (signal.kind !== 'collection') return false;
  const list = /^([\w$]+)\[\d+\]$/.exec(signal.detail)?.[1];
  if (list === undefined) return false;
  const name = escapeName(list);
  const assigned = new RegExp(`(?:^|[\\s(])${name}\\s*:?=\\s*${MATCH_CALL}`);
  const noMatch = new RegExp(
    `^\\s*if\\s*(?:${name}\\s*==\\s*nil\\s*\\{|\\(\\s*(?:!\\s*${name}|${name}\\s*===?\\s*null)\\s*\\)\\s*\\{?|(?:not\\s+${name}|${name}\\s+is\\s+None)\\s*:)\\s*(.*)$`,
  );
  const [from] = findEnclosingLines(signal.line, head, functions);
  let matched = false;
  for (let line = from; line < signal.line; line++) {
    const text = head[line - 1] ?? '';
    if (assigned.test(text)) matched = true;
    const exit = matched ? noMatch.exec(text) : null;
    if (exit === null) continue;
    const rest = exit[1] ?? '';
    const body = rest === '' ? (head.slice(line).find((next) => next.trim() !== '') ?? '') : rest;
    if (/^\s*(?:(?:return|throw|raise|continue)\b|panic\()/.test(body)) return true;
  }
  return false;
}

/** A number parsed from a group of a match: `int(match.group(1))`, `int(m[2])`, `parseInt(m[1], 10)`, `Number(match[3])`. */
const GROUP_PARSE =
  /\b(?:int|float|parseInt|parseFloat|Number(?:\.parse(?:Int|Float))?)\(\s*([A-Za-z_$][\w$]*)(?:\.group\(\s*(\d+)\s*\)|\[(\d+)\])/;
/** A capturing group that holds digits alone: `(\d+)`, `(\d\d\d\d)`, `([0-9]{1,3})`. */
const DIGITS_ONLY = /^(?:\\d|\[0-9\])(?:\\d|\[0-9\]|[+*]|\{\d+(?:,\d*)?\})*$/;

/**
 * A number parsed from a group of a regular expression's match where the group holds digits alone (falcon's
 * `int(match.group(1))` of `re.compile(r'received (\d\d\d\d)')`): the pattern decides the text, and no "12abc" or ""
 * reaches the parse. The expression is found in the file as a literal or a name given one (`re.compile(r'…')`, `/…/`).
 */
function isDigitGroupParse(signal: SignalFact, head: readonly string[]): boolean {
  if (signal.kind !== 'parse-number') return false;
  const parse = GROUP_PARSE.exec(head[signal.line - 1] ?? '');
  if (parse === null) return false;
  const [, name = '', groupText, indexText] = parse;
  const group = Number(groupText ?? indexText);
  const matched = new RegExp(
    `(?:^|[\\s(])${escapeName(name)}\\s*:?=\\s*(?:await\\s+)?(.+?)\\.(?:match|fullmatch|search|exec|FindStringSubmatch)\\(`,
  );
  let source: string | undefined;
  for (let line = signal.line - 1; line >= 1 && source === undefined; line--) {
    const holder = matched.exec(head[line - 1] ?? '')?.[1]?.trim();
    if (holder !== undefined) source = findPatternSource(holder, head);
  }
  const body = source === undefined ? undefined : findGroupBody(source, group);
  return body !== undefined && DIGITS_ONLY.test(body);
}

/** The source of the expression a match is called on: a literal there, or the literal a name of the file is given. */
function findPatternSource(holder: string, head: readonly string[]): string | undefined {
  const literal = readPatternLiteral(holder);
  if (literal !== undefined) return literal;
  if (!/^[A-Za-z_$][\w$.]*$/.test(holder)) return undefined;
  const given = new RegExp(`^\\s*(?:(?:export\\s+)?(?:const|let|var)\\s+)?${escapeName(holder)}\\s*(?::[^=]+)?=\\s*(.+)$`);
  for (const text of head) {
    const value = given.exec(text)?.[1];
    const found = value === undefined ? undefined : readPatternLiteral(value);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `/…/flags`, `re.compile(r'…')`, `new RegExp('…')` at the start of an expression: the pattern's source. */
function readPatternLiteral(expression: string): string | undefined {
  const slash = /^\/((?:\\.|\[(?:\\.|[^\]])*\]|[^/\\\n])+)\/[a-z]*/.exec(expression.trim());
  if (slash !== null) return slash[1];
  const compiled = /^(?:re\.compile|new RegExp|RegExp)\(\s*r?(['"])((?:\\.|(?!\1).)*)\1/.exec(expression.trim());
  return compiled?.[2];
}

/** The text inside the `index`-th capturing group of a pattern (`(…)` and `(?P<name>…)`/`(?<name>…)`, not `(?:…)`). */
function findGroupBody(source: string, index: number): string | undefined {
  let count = 0;
  for (let at = 0; at < source.length; at++) {
    const character = source[at];
    if (character === '\\') {
      at++;
      continue;
    }
    if (character === '[') {
      while (at < source.length && source[at] !== ']') at += source[at] === '\\' ? 2 : 1;
      continue;
    }
    if (character !== '(') continue;
    const named = /^\(\?P?<[A-Za-z_]\w*>/.exec(source.slice(at));
    if (source[at + 1] === '?' && named === null) continue;
    count++;
    if (count !== index) continue;
    const start = at + (named?.[0].length ?? 1);
    let depth = 1;
    for (let end = start; end < source.length; end++) {
      if (source[end] === '\\') end++;
      else if (source[end] === '(') depth++;
      else if (source[end] === ')' && --depth === 0) return source.slice(start, end);
    }
    return undefined;
  }
  return undefined;
}

/**
 * A Go slice inside a test that the list is long enough for it: `if len(ll) > 3 {` above `ll = ll[:3]`, or, with the
 * length kept in a name (`n := len(dst)`), `if n >= 4 && … {` above `dst[:n-1]`. A bound is a number or the length
 * less a number; any other bound is not known, and the slice stays asked.
 */
function isSliceInsideLengthTest(signal: SignalFact, head: readonly string[], functions: readonly FunctionFact[]): boolean {
  if (signal.kind !== 'collection') return false;
  const slice = /^([\w.]+)\[([^\][:]*):([^\][:]*)\]$/.exec(signal.detail);
  if (slice === null) return false;
  const [, list = '', low = '', high = ''] = slice;
  const name = escapeName(list);
  const [from] = findEnclosingLines(signal.line, head, functions);
  const aliases = head
    .slice(from - 1, signal.line - 1)
    .flatMap((text) => new RegExp(`^\\s*(\\w+)\\s*:?=\\s*len\\(${name}\\)\\s*$`).exec(text)?.[1] ?? []);
  const length = [`len\\(${name}\\)`, ...aliases].join('|');
  let needed = 0;
  for (const bound of [low.trim(), high.trim()]) {
    if (bound === '') continue;
    const lessLength = new RegExp(`^(?:${length})\\s*-\\s*(\\d+)$`).exec(bound);
    if (/^\d+$/.test(bound)) needed = Math.max(needed, Number(bound));
    else if (lessLength !== null) needed = Math.max(needed, Number(lessLength[1]));
    else if (!new RegExp(`^(?:${length})$`).test(bound)) return false;
  }
  if (needed === 0) return false;
  const test = new RegExp(`(?:^|[\\s(&|])(?:${length})\\s*(>=?)\\s*(\\d+)`);
  for (const { text: above, depth } of listEnclosingLines(head, signal.line)) {
    const condition = /^\s*(?:\}\s*)?(?:else\s+)?if\b(.*)$/.exec(above)?.[1];
    const bound = condition === undefined ? null : test.exec(condition);
    if (bound !== null && Number(bound[2]) + (bound[1] === '>' ? 1 : 0) >= needed) return true;
    if (depth === 0) break;
  }
  return false;
}

/** A length compared with 0 or 1 (`cleanups.length == 0`), as the collection signal's detail says it. */
export const LENGTH_TEST = /\.length [<>=!]+ [01]$/;
/** A line that opens with an `if` or `while` test; a link of a chain of tests (CHAIN_LINK) is one too. */
const TEST_LINE = /^\s*(?:\}\s*)?(?:else\s+)?(?:if|while)\s*\(/;
/** A line that opens or ends with a `&&`/`||` of a chain. */
const CHAIN_LINK = /^\s*(?:&&|\|\|)|(?:&&|\|\|)\s*$/;

/**
 * A length compared with 0 or 1 in a test (`if (!cleanups || cleanups.length == 0) return`): the code handles the
 * empty list there, and the test's own case (both outcomes of a changed condition) asks it; "an empty list reaches
 * it" would ask again, or, in new code that gives one case per hunk, ask what the hunk's case stands for.
 */
function isLengthGuard(signal: SignalFact, lines: readonly string[], line: number): boolean {
  if (signal.kind !== 'collection' || !LENGTH_TEST.test(signal.detail)) return false;
  const text = lines[line - 1] ?? '';
  if (TEST_LINE.test(text)) return true;
  // A link of a test written over several lines (`this.cleanups != null &&` above `this.cleanups.length > 0`).
  const previous = lines
    .slice(Math.max(0, line - 4), line - 1)
    .filter((candidate) => candidate.trim() !== '')
    .at(-1);
  return CHAIN_LINK.test(text) || (previous !== undefined && /(?:&&|\|\|)\s*$/.test(previous));
}

/** A chain of names and index reads: `opts.args[0]`, `this.#options.retry`. */
const CHAIN = String.raw`[A-Za-z_$#][\w$]*(?:\??\.#?[A-Za-z_$][\w$]*|\[[^\][]*\])*`;
const GUARDED_READ = new RegExp(String.raw`(?<![\w$.#\]])(${CHAIN})\s*&&\s*\1\.`, 'g');

/**
 * A removed line with each guarded read written as the optional chain it means: `opts.args[0] && opts.args[0].param`
 * reads `opts.args[0]?.param`, so a change that only rewrote the one as the other moved its signals.
 */
function toOptionalChains(line: string): string {
  return line.replace(GUARDED_READ, '$1?.');
}

/** Lines around a changed line that stand for its function when no function encloses it (module level). */
const MODULE_NEIGHBOURHOOD = 5;

/** Each `?.` of a line with the chain before it: `schema?._zod?.optin` gives `schema?.` and `schema?._zod?.`. */
function findGuardedChains(line: string): string[] {
  const chains: string[] = [];
  for (const match of line.matchAll(/\?\.(?![\d([])/g)) {
    const chain = /[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*$/.exec(line.slice(0, match.index))?.[0];
    if (chain !== undefined) chains.push(`${chain}?.`);
  }
  return chains;
}

/** The first and last line of the innermost function around `line`; at module level, the lines around it. */
function findEnclosingLines(line: number, head: readonly string[], functions: readonly FunctionFact[]): [number, number] {
  const enclosing = findInnermostFunction(functions, line);
  return [
    enclosing?.span.start ?? Math.max(1, line - MODULE_NEIGHBOURHOOD),
    enclosing?.span.end ?? Math.min(head.length, line + MODULE_NEIGHBOURHOOD),
  ];
}

const escapeName = (name: string): string => name.replace(/[.$]/g, '\\$&');
/** Compared with a one-character string literal, either way round: `=== '"'`, `"/" !== `. */
const oneCharacter = (operand: string): RegExp =>
  new RegExp(`${operand}\\s*[!=]==?\\s*(['"\`])(?:\\\\.|[^\\\\])\\1|(['"\`])(?:\\\\.|[^\\\\])\\2\\s*[!=]==?\\s*${operand}(?![\\w$])`);

/**
 * A collection signal on a string, not a list: in the same function, a first or last element of the same name, or the
 * name it is kept in, is compared with a one-character string (pino's stripQuotes: `const first = value[0]` … `first
 * === '"'`, then `value.slice(1, -1)`). An empty string is a case of its own, not an empty list.
 */
function isCharacterRead(signal: SignalFact, head: readonly string[], functions: readonly FunctionFact[]): boolean {
  if (signal.kind !== 'collection') return false;
  const read = /^([\w$.]+)(?:\[(?:0|length - 1)\]|\.slice)$/.exec(signal.detail)?.[1];
  if (read === undefined) return false;
  const name = escapeName(read);
  const access = `(?<![\\w$.])${name}\\[\\s*(?:0|${name}\\.length\\s*-\\s*1)\\s*\\]`;
  const direct = oneCharacter(access);
  const keeps = new RegExp(`\\b(?:const|let|var)\\s+([\\w$]+)\\s*=\\s*${access}\\s*;?\\s*$`);
  const [from, to] = findEnclosingLines(signal.line, head, functions);
  const lines = head.slice(from - 1, to);
  if (lines.some((text) => direct.test(text))) return true;
  const kept = lines.flatMap((text) => keeps.exec(text)?.[1] ?? []);
  return kept.some((variable) => {
    const compared = oneCharacter(`(?<![\\w$.])${escapeName(variable)}`);
    return lines.some((text) => compared.test(text));
  });
}

/**
 * An optional access whose every guarded chain an unchanged line of the same function already guards: zod's new
 * `schema?._zod?.optin` beside the old `schema?._zod?.optout`. What an absent `schema` does is old behaviour; the
 * added read is a new field, not a new way for its holder to be missing.
 */
function isGuardedAlready(
  signal: SignalFact,
  head: readonly string[],
  changed: ReadonlySet<number>,
  functions: readonly FunctionFact[],
): boolean {
  if (signal.kind !== 'optional-access') return false;
  const chains = findGuardedChains(head[signal.line - 1] ?? '');
  if (chains.length === 0) return false;
  const [from, to] = findEnclosingLines(signal.line, head, functions);
  const unchanged: string[] = [];
  for (let line = from; line <= to; line++) if (!changed.has(line)) unchanged.push(head[line - 1] ?? '');
  return chains.every((chain) => unchanged.some((text) => text.includes(chain)));
}

/**
 * `body?.body`, `reason?.name`, `cacheKey?.(`: the optional accesses and calls of a line, each with the names around it
 * and the index reads before it (`group[0][1]?.orderBy`).
 */
const OPTIONAL_ACCESS = /[\w$]+(?:\[[^\][]*\])*\?\.(?:[\w$]+|\()/g;
/** A named call's result read optionally: the callee and the field (`match(…)?.length` gives `match` and `length`). */
const CALLED_OPTIONAL = /([A-Za-z_$][\w$]*)\((?:[^()]|\([^()]*\))*\)\?\.([\w$]+)/g;

/**
 * A signal the change only moved: an optional access whose names around `?.` are already on a line the change removed
 * (an if-chain of returns rewritten into one assignment keeps `body?.body`; `signal.reason?.name` was
 * `this.options.signal?.reason?.name`), or any signal on a line the change removed word for word elsewhere. A call
 * whose arguments changed (`Math.round(x)` → `Math.round(x * 100) / 100`) is no move.
 */
function isMovedSignal(signal: SignalFact, headLine: string, removed: readonly string[]): boolean {
  if (signal.kind === 'optional-access' && (signal.detail === '??' || signal.detail === '??=')) {
    // `${ctx.mountPath ?? ""}` wrapped in a call: the same operand with the same default was there before.
    const defaults = findNullishDefaults(headLine);
    const before = removed.map(collapseSpaces);
    return defaults.length > 0 && defaults.every((text) => before.some((line) => line.includes(text)));
  }
  if (signal.kind === 'async-failure') {
    // `await Document.update(` → `await Document.unscoped().update(`: the same operation was awaited (or returned) there before.
    const awaited = findAwaitedOperation(headLine);
    if (awaited !== undefined) return removed.some((line) => findWaitedOperation(line) === awaited);
    // `.then(…).catch(next)` joined onto one line (fastify-cors): the same handler caught the same chain before.
    const handler = /^\.[A-Za-z_$][\w$]*$/.test(signal.detail) ? findMethodCall(headLine, signal.detail) : undefined;
    return handler !== undefined && removed.some((line) => line.includes(handler));
  }
  if (signal.kind === 'optional-access') {
    const accesses = headLine.match(OPTIONAL_ACCESS) ?? [];
    if (accesses.length > 0) {
      const isSource = (line: string, access: string): boolean => line.includes(access) || readsOptionally(line, access);
      if (!accesses.every((access) => removed.some((line) => isSource(line, access)))) return false;
      // A moved line that also gained a `?.` the accesses do not spell reads something new optionally (yargs's
      // `this?.aliases?.[key].find` → `this?.aliases?.[key]?.find`, the crash fix): it has more than its sources had.
      const sources = removed.filter((line) => accesses.some((access) => isSource(line, access)));
      return countOptionalReads(headLine) <= sources.reduce((total, line) => total + countOptionalReads(line), 0);
    }
    // A call's result read optionally (`m[0].match(/\//g)?.length`, hono's trie router given a `g` flag): moved when a
    // removed line read the same field of the same callee's result as optionally, whatever the arguments now are.
    const calls = [...headLine.matchAll(CALLED_OPTIONAL)];
    if (calls.length > 0) {
      const isSource = (line: string): boolean =>
        calls.every(([, callee, field]) => line.includes(`${callee}(`) && line.includes(`)?.${field}`));
      const sources = removed.filter(isSource);
      return sources.length > 0 && countOptionalReads(headLine) <= Math.max(...sources.map(countOptionalReads));
    }
    // `(options as any)?.[symbol]` names no `holder?.field`: moved when the line was removed word for word.
    return isRemovedWordForWord(headLine, removed);
  }
  // A comparison a removed line made word for word (`doc.memberships.length > 0` moved from a filter's clauses into an `if`).
  // Read through `?.` on both sides: the removed lines' guarded reads are written as optional chains
  // (`c.path && c.path.length > 0` as `c.path?.length > 0`), where the head may still spell the guard out.
  if (signal.kind === 'collection' && /\s(?:[<>]=?|[!=]==?)\s/.test(signal.detail)) {
    const comparison = withoutOptionalChains(collapseSpaces(signal.detail));
    return removed.some((line) => withoutOptionalChains(collapseSpaces(line)).includes(comparison));
  }
  // An index read a removed line made (`group[0]` kept while the line dropped a `.map(…)`).
  if (signal.kind === 'collection' && /\[[^\][]*\]$/.test(signal.detail) && !/\s/.test(signal.detail))
    return removed.some((line) => line.includes(signal.detail));
  // A last element a removed line read (cheerio's fromURL: `baseURL: history ? history[history.length - 1] : url` became
  // `const baseURI = history ? history[history.length - 1] : urlObject`): the fallback changed, not the read.
  const last = signal.kind === 'collection' ? /^([\w$.]+)\[length - 1\]$/.exec(signal.detail)?.[1] : undefined;
  if (last !== undefined) {
    const read = `${last}[${last}.length - 1]`;
    return removed.some((line) => collapseSpaces(line).includes(read));
  }
  // A call the line makes with the same arguments as a removed line did (`Promise.all(proms)` given another `.then`).
  const call = findCall(headLine, signal.detail);
  if (call !== undefined) return removed.some((line) => line.includes(call) || line.includes(toSameElements(call)));
  // A method called with the same arguments as a removed line did, on whatever it is called on now (NodeBB's
  // `keyId.shift().slice(7, -1)` → `keyId.at(-1).slice(7, -1)`: what changed is which element, not the slice).
  const method = /^\.[A-Za-z_$][\w$]*$/.test(signal.detail) ? findMethodCall(headLine, signal.detail) : undefined;
  if (method !== undefined) return removed.some((line) => line.includes(method));
  return isRemovedWordForWord(headLine, removed);
}

/**
 * Whether a removed line read the same field optionally from what is now a name of its own: `query?.promise` after
 * `client.getQueryCache().get(hash)?.promise` was given the name `query`. Calls (`?.(`) must match whole.
 */
function readsOptionally(line: string, access: string): boolean {
  const field = access.slice(access.indexOf('?.'));
  return field !== '?.(' && new RegExp(`\\)${field.replace(/[.?$]/g, '\\$&')}(?![\\w$])`).test(line);
}

/** The `?.` of a line (not a `?` of `?:` before a decimal, `a ?.5 : 1`). */
function countOptionalReads(line: string): number {
  return (line.match(/\?\.(?!\d)/g) ?? []).length;
}

function isRemovedWordForWord(headLine: string, removed: readonly string[]): boolean {
  const code = headLine.trim();
  return code !== '' && removed.some((line) => line.trim() === code);
}

/**
 * `callee(arguments)` as written on the line, when `callee` is a name the line calls on it whole, or `new Name` it
 * constructs (`new Date(y, M, d)`); else undefined.
 */
function findCall(line: string, callee: string): string | undefined {
  const constructed = /^new ([A-Za-z_$][\w$.]*)$/.exec(callee)?.[1];
  const name = constructed ?? callee;
  if (!/^[A-Za-z_$][\w$.]*$/.test(name)) return undefined;
  return takeCall(
    line,
    line.search(new RegExp(`(?<![\\w$.])${constructed === undefined ? '' : 'new\\s+'}${name.replace(/[.$]/g, '\\$&')}\\s*\\(`)),
  );
}

/**
 * The call that takes the same elements as a `.slice` one: hono's `value.subarray(offset)` → `value.slice(offset)`
 * copies the elements the view held: whether a later write shows through is the question, not an empty list. Other
 * calls as they are.
 */
function toSameElements(call: string): string {
  return call.replace(/\.slice(\s*\()/, '.subarray$1');
}

/** `.slice(7, -1)`: the call of method `member` (written `.slice`) on the line, its arguments balanced; undefined without one. */
function findMethodCall(line: string, member: string): string | undefined {
  return takeCall(line, line.search(new RegExp(`${member.replace(/[.$]/g, '\\$&')}\\s*\\(`)));
}

/** The text of the call that starts at `start` up to the bracket that closes its arguments; undefined when none does. */
function takeCall(line: string, start: number): string | undefined {
  if (start < 0) return undefined;
  let depth = 0;
  for (let index = line.indexOf('(', start); index < line.length; index++) {
    const char = line[index];
    if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return line.slice(start, index + 1);
  }
  return undefined;
}

const collapseSpaces = (text: string): string => text.replace(/\s+/g, ' ');
const withoutOptionalChains = (text: string): string => text.replace(/\?\.(?![\d([])/g, '.');

/** Each `operand ?? default` of a line as written, spaces collapsed: `ctx.mountPath ?? ""`. */
function findNullishDefaults(line: string): string[] {
  const found: string[] = [];
  for (const match of collapseSpaces(line).matchAll(/([A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*) ?\?\?=? ?([^\s,;)}\]`]+)/g)) {
    found.push(match[0]);
  }
  return found;
}

/**
 * What an `await` on the line waits for, as its first name and the name it finally calls (`Document` and `update` for
 * `await Document.unscoped().update(`); undefined when the line awaits no call.
 */
function findAwaitedOperation(line: string): string | undefined {
  return findOperation(line, /\bawait\s+([A-Za-z_$][\w$]*)/);
}

/**
 * What a removed line handed its caller to wait for: an awaited call, or a returned one (`return pool.transaction(` →
 * `const result = await pool.transaction(`: a returned promise rejects to the caller just as an awaited one does).
 */
function findWaitedOperation(line: string): string | undefined {
  return findAwaitedOperation(line) ?? findOperation(line, /^\s*return\s+([A-Za-z_$][\w$]*)/);
}

function findOperation(line: string, opening: RegExp): string | undefined {
  const start = opening.exec(line);
  if (start === null || start.index === undefined) return undefined;
  let depth = 0;
  let last: string | undefined;
  const rest = line.slice(start.index + start[0].length - (start[1]?.length ?? 0));
  // A call given type arguments (`connection.maybeOne<Resource>(`) is the call of its name.
  for (const match of rest.matchAll(/[A-Za-z_$][\w$]*\s*(?:<[^<>()]*>\s*)?\(|[()]/g)) {
    const token = match[0];
    if (token === ')') depth--;
    else if (token === '(') depth++;
    else {
      if (depth === 0) last = token.replace(/\s*(?:<[^<>()]*>\s*)?\($/, '');
      depth++;
    }
    if (depth < 0) break;
  }
  if (last === undefined) {
    // A tagged template awaited (unstorage's `await opts.database.sql /* sql */ \`DELETE FROM {${table}} …\``): the tag
    // and the template's text up to its first value, which tell one query from another.
    const tagged = TAGGED_TEMPLATE.exec(rest);
    if (tagged !== null) last = `${tagged[1]}\`${tagged[2]}`;
  }
  return last === undefined ? undefined : `${start[1]}…${last}`;
}

/** A name chain that tags a template literal (a block comment may stand before the backtick): its last name, and the text up to the first value. */
const TAGGED_TEMPLATE = /^(?:[A-Za-z_$][\w$]*\s*\??\.\s*)*([A-Za-z_$][\w$]*)\s*(?:\/\*.*?\*\/\s*)?(?:<[^<>()]*>\s*)?`([^`$]*)/;

/**
 * `pair[0]` of a value the same function also reads at another fixed place (`pair[1]`): a tuple of a known shape (a
 * trie's `[index, params]`, the four octets of an address), not a list that could be empty.
 */
function isTupleRead(signal: SignalFact, head: readonly string[], functions: readonly FunctionFact[]): boolean {
  if (signal.kind !== 'collection') return false;
  const name = /^(.+)\[0\]$/.exec(signal.detail)?.[1];
  if (name === undefined || !/^[\w$.]+$/.test(name)) return false;
  const other = new RegExp(`(?<![\\w$.])${escapeName(name)}\\[[1-9]\\d*\\]`);
  const [from, to] = findEnclosingLines(signal.line, head, functions);
  return head.slice(from - 1, to).some((text) => other.test(text));
}

/** String methods whose result is a string (`path.toLowerCase()`), for a name's initialiser. */
const STRING_RESULT =
  /\.(?:toLowerCase|toUpperCase|toLocaleLowerCase|toLocaleUpperCase|trim|trimStart|trimEnd|normalize|padStart|padEnd|repeat|replace|replaceAll|substring|toString|join)\([^;]*\)\s*;?\s*$/;

/** A ternary whose last branch is a string literal: `node.params ? str.rawValue(node, 'params') : ''` (postcss). */
const TEXT_FALLBACK = /:\s*(['"`])[^'"`]*\1\s*;?\s*$/;

/**
 * A Go slice of a string at a place found in it (gorilla/mux's `if i := strings.Index(host, ":"); i != -1 {` above
 * `host = host[:i]`): the index lies inside the string, and the slice cannot run past its end; `host[i+1:]` after a
 * one-character separator neither. A bound found elsewhere, or a string sliced at a number (`ll[:3]`), stays asked.
 */
function isSliceAtFoundIndex(signal: SignalFact, head: readonly string[], functions: readonly FunctionFact[]): boolean {
  const slice = /^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\[([^\][:]*):([^\][:]*)\]$/.exec(signal.detail);
  if (slice === null) return false;
  const [, name = '', low = '', high = ''] = slice;
  const bound = [low, high].map((side) => side.replace(/\s+/g, '')).filter((side) => side !== '');
  const index = /^([A-Za-z_]\w*)(?:\+1)?$/.exec(bound[0] ?? '')?.[1];
  if (bound.length !== 1 || index === undefined) return false;
  const found = new RegExp(
    `(?<![\\w.])${index}\\s*:?=\\s*(?:strings|bytes)\\.(?:Last)?Index(?:Byte|Rune|Any)?\\(\\s*${escapeName(name)}\\s*,`,
  );
  const tested = new RegExp(`(?<![\\w.])${index}\\s*(?:!=\\s*-1|>=\\s*0|>\\s*-1)`);
  const [from] = findEnclosingLines(signal.line, head, functions);
  const above = head.slice(from - 1, signal.line - 1);
  // Found, then tested on that line (`if i := …; i != -1 {`) or one below it.
  let at = above.length - 1;
  while (at >= 0 && !found.test(above[at] ?? '')) at -= 1;
  return at >= 0 && above.slice(at).some((text) => tested.test(text));
}

/**
 * A Go read at a fixed index that the function's bounds-check hint already made (`_ = uuid[15] // bounds check` above
 * google/uuid's `uuid[7] = byte(v)`): a shorter slice panics at the hint, so the read meets no empty list of its own.
 */
function isBoundsChecked(signal: SignalFact, head: readonly string[], functions: readonly FunctionFact[]): boolean {
  const read = /^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\[(\d+)\]$/.exec(signal.detail);
  if (read === null) return false;
  const [, name = '', index = ''] = read;
  const hint = new RegExp(`^\\s*_\\s*=\\s*${escapeName(name)}\\[(\\d+)\\]\\s*(?://.*)?$`);
  const [from] = findEnclosingLines(signal.line, head, functions);
  return head.slice(from - 1, signal.line - 1).some((text) => Number(hint.exec(text)?.[1] ?? -1) >= Number(index));
}

/** Methods strings have and lists do not: a name one of them is called on holds a string. */
const STRING_ONLY_METHOD =
  'charCodeAt|charAt|codePointAt|toLowerCase|toUpperCase|toLocaleLowerCase|toLocaleUpperCase|trim|trimStart|trimEnd|startsWith|endsWith|padStart|padEnd|localeCompare|normalize|substring|substr|split|replace|replaceAll|match|matchAll|search';

/**
 * A `.length` compared with 0 or 1, a `.slice`, or a first or last character (`params[0]`), on a string, not a list: in
 * the same function the name is declared a string (`path: string`), kept from a string (`const lowercased =
 * path.toLowerCase()`, a literal, a template, a ternary that falls back to one), is the match
 * a `.replace` callback is given (`(segment) => segment.length > 1`), a piece of a `.split()` a `for…of` walks, or a
 * string method is called on it (markdown-it's `state.pending.charCodeAt(ws - 1)` above `state.pending.slice(0, ws)`).
 * An empty string is a case of its own, not an empty list.
 */
function isStringRead(signal: SignalFact, head: readonly string[], functions: readonly FunctionFact[]): boolean {
  if (signal.kind !== 'collection') return false;
  const name = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\.length [<>=!]+ [01]|\.slice|\[0\]|\[length - 1\])$/.exec(signal.detail)?.[1];
  if (name === undefined) return false;
  const escaped = escapeName(name);
  const stringMethod = new RegExp(`(?<![\\w$.])${escaped}\\??\\.(?:${STRING_ONLY_METHOD})\\(`);
  const typed = new RegExp(`(?<![\\w$.])${escaped}\\??\\s*:\\s*string\\b(?!\\s*\\[)`);
  // Declared, or given again (minimatch's `re = '^' + open + re + close + '$'` above `re.slice(1, -1)`).
  const kept = new RegExp(`(?:\\b(?:const|let|var)\\s+|^\\s*)${escaped}\\s*=\\s*(.+)$`);
  // The match a replacer is called with: `text.replace(/…/g, (segment) => …)`.
  const replacer = new RegExp(
    `\\.replace(?:All)?\\(.*,\\s*(?:async\\s+)?(?:\\(\\s*${escaped}\\b|${escaped}\\s*=>|function\\s*[\\w$]*\\s*\\(\\s*${escaped}\\b)`,
  );
  // A piece of a split string walked by a loop: `for (const directory of searchPath.split(path.delimiter))`.
  const piece = new RegExp(`\\bfor\\s*\\(\\s*(?:const|let|var)\\s+${escaped}\\s+of\\s+[^;]*\\.split\\(`);
  const [from, to] = findEnclosingLines(signal.line, head, functions);
  return head.slice(from - 1, to).some((text) => {
    if (typed.test(text) || replacer.test(text) || piece.test(text) || stringMethod.test(text)) return true;
    const value = kept.exec(text)?.[1]?.trim();
    return (
      value !== undefined && (STRING_RESULT.test(value) || /^(['"`])/.test(value) || /^String\(/.test(value) || TEXT_FALLBACK.test(value))
    );
  });
}
