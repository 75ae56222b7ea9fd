import type { SourceLanguage } from '../model/facts.js';

/** What the semantic-hunk classifiers of every language share: the change they report and how they word it. */

export type SemanticKind =
  | 'boundary'
  | 'default'
  | 'condition'
  | 'error-path'
  | 'regex'
  | 'arithmetic'
  | 'remainder'
  | 'order'
  | 'membership'
  | 'normalisation'
  | 'escaping'
  | 'option-flag'
  | 'prototype'
  | 'own-keys'
  | 'validation'
  | 'read'
  | 'exit'
  | 'return'
  | 'filter';

/** A change in what the code decides, found by comparing a changed line with the line it replaced. */
export interface SemanticChange {
  kind: SemanticKind;
  /** Head-side line. */
  line: number;
  /** The replaced line (empty for an added line) and the new one, trimmed, at most 80 characters. */
  before: string;
  after: string;
  /** What the change decides on: `value.length`, the parameter with a default, the regex. */
  subject: string;
  /**
   * For a boundary: the limit; for a default: the new default value; for an error path: the HTTP status, when the line
   * has one; for a read: what the line read before (`url.path` where `subject` is `url.pathname`).
   */
  limit: string;
  /** Concrete inputs to try: `4, 5 and 6`, `.5, -0.5 and 0`, `a call without the argument`. */
  values: string;
}

/** A line of one side of the diff: as written, without comments (strings kept), and as code (strings emptied too). */
export interface SourceLine {
  raw: string;
  text: string;
  code: string;
  /** Only a comment, or inside a comment or a string that spans lines. */
  isComment: boolean;
  /** Inside the parameter list of a function definition (Python `def`), where `name=value` is a default. */
  inSignature: boolean;
}

const MAX_EXCERPT = 80;
export const NUMBER = /^-?\d+(?:\.\d+)?$/;
export const COMPARISON_OPERATORS = '===|!==|==|!=|<=|>=|<|>';
/** Lines a condition that opens on a changed line may run on for (`if (` with one operand a line, as formatters write it). */
export const MAX_CONDITION_LINES = 8;
/**
 * The values that tell a normalisation apart, by what it normalises: spaces (`trim`, `strip`, `TrimSpace`), the
 * composition of letters (`normalize`), or case (every other method the hunks read).
 */
export function getNormalisationValues(method: string): string {
  if (/^(?:trim|trimStart|trimEnd|strip|lstrip|rstrip|TrimSpace)$/.test(method))
    return "the value with spaces, a tab or a newline around it (' value ', '\\tvalue\\n'), the bare value, an empty string and one of spaces only ('   ')";
  if (method === 'normalize')
    return "the same letter composed and decomposed ('é' as U+00E9 and as 'e' with U+0301), a plain ASCII value and an empty string";
  return "the same value in other cases ('VALUE', 'Value', 'value'), an empty string, and letters outside ASCII ('İ', 'ß')";
}
/**
 * A call that escapes or encodes text for another syntax, by its name: URL encodings (`encodeURIComponent`, the
 * encodeurl package's `encodeUrl`, Python's `quote_plus`, Go's `url.QueryEscape`), HTML (`escapeHtml`, `html.escape`), regexes (`escapeRegExp`, `re.escape`,
 * `regexp.QuoteMeta`), shells (`shlex.quote`), quoting (`strconv.Quote`), and the serialisers that quote a string
 * (`JSON.stringify`, `json.dumps`). Strings are emptied from the code it reads, so a name in a message is no call.
 */
const ESCAPING_CALL =
  /(?<![\w$.])((?:[A-Za-z_$][\w$]*\.)*(?:encodeURI(?:Component)?|decodeURI(?:Component)?|(?:en|de)code(?:Url|URL|Uri)|(?:un)?escape[\w$]*|[\w$]+(?:Escape|_escape|Unescape)[\w$]*|(?:un)?quote(?:_plus|_from_bytes)?|Quote(?:Meta|ToASCII)?|QuoteMeta|stringify|dumps))\s*\(/g;
/** Said after the subject of an escaping a line no longer makes. */
export const REMOVED_ESCAPING = ' (removed)';
/** Only these quote a string when given one; with an object they serialise it, which escapes nothing new. */
const SERIALISER = /^(?:JSON\.stringify|json\.dumps)$/;
/** `.replace(/"/g, '\\"')`, `.replace(/[<>&]/g, …)`: a replacement of quotes, markup or backslashes is an escaping. */
const ESCAPING_REPLACE = /\.replace(?:All)?\(\s*\/((?:[^/\\\n[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+)\/[a-z]*\s*,/;
/** What a replaced pattern names to be an escaping: a quote, markup or a backslash. */
const ESCAPED_CHARACTER = /["'`<>&]|\\\\/;

/** The escapings a line makes: the calls of `code` (strings emptied), and a replacement of quotes in `text`. */
export function listEscapings(code: string, text: string): string[] {
  const found = [...code.matchAll(ESCAPING_CALL)]
    .map((match) => match[1] ?? '')
    .filter((name) => !/(?:^|\.)(?:stringify|dumps)$/.test(name) || SERIALISER.test(name));
  const pattern = ESCAPING_REPLACE.exec(text)?.[1];
  if (pattern !== undefined && ESCAPED_CHARACTER.test(pattern)) found.push(`replace(/${pattern}/)`);
  return found;
}

/**
 * How a replaced line's escaping changed (`encodeURIComponent(key)` → `encodeURI(key)`, `format.replace(/"/g, …)` →
 * `JSON.stringify(format)`, an escaping added to or taken from the line): the new escaping (else the one removed) and
 * the text that tells the two apart. A serialiser alone (`send(data)` → `send(JSON.stringify(data))`) escapes nothing
 * for another syntax; a line new to the file is not compared.
 */
export function findEscapingChange(
  before: { code: string; text: string } | undefined,
  after: { code: string; text: string },
): { subject: string; was: string; values: string } | undefined {
  if (before === undefined) return undefined;
  const replacement = findReplacementChange(before.code, after.code);
  if (replacement !== undefined) return replacement;
  const old = listEscapings(before.code, before.text);
  const now = listEscapings(after.code, after.text);
  // Counted: `encodeURIComponent(key) + '=' + encodeURIComponent(val)` → `encodeURI(key) + …` swapped one of two. A
  // replacement kept with another pattern is the regex case's to ask, so replacements compare as one escaping.
  const sameAs = (name: string): string => (name.startsWith('replace(/') ? 'replace' : name);
  const without = (from: string[], taken: string[]): string[] => {
    const left = taken.map(sameAs);
    return from.filter((name) => {
      const at = left.indexOf(sameAs(name));
      if (at !== -1) left.splice(at, 1);
      return at === -1;
    });
  };
  const added = without(now, old);
  const removed = without(old, now);
  if (![...added, ...removed].some((name) => !SERIALISER.test(name))) return undefined;
  const subject = added[0] ?? removed[0] ?? '';
  const escaper = added.find((name) => !SERIALISER.test(name)) ?? removed.find((name) => !SERIALISER.test(name)) ?? subject;
  return {
    subject: added.length > 0 ? subject : `${subject}${REMOVED_ESCAPING}`,
    was: removed[0] ?? '',
    values: getEscapingValues(escaper),
  };
}

/** A `.replace(`/`.replaceAll(` call's second argument written as a function (`() => …`, `function`, `(m) => …`). */
const FUNCTION_ARGUMENT = /^\s*(?:async\s+)?(?:function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)/;
const REPLACE_OPEN = /\.replace(?:All)?\(/g;

/** A replacement that is a name alone (`replace(re, replacer)`): a function or a string, the line does not say. */
const NAME_ARGUMENT = /^\s*[A-Za-z_$][\w$.]*\s*(?:\)|$)/;

/**
 * Per `.replace(` call of a line (strings emptied), whether its replacement is a function (true), text (false), or a
 * name that may be either (undefined).
 */
function listReplacementKinds(code: string): (boolean | undefined)[] {
  const kinds: (boolean | undefined)[] = [];
  for (const match of code.matchAll(REPLACE_OPEN)) {
    let depth = 0;
    for (let at = (match.index ?? 0) + match[0].length; at < code.length; at++) {
      const character = code[at] ?? '';
      if ('([{'.includes(character)) depth++;
      else if (')]}'.includes(character)) {
        if (depth === 0) break;
        depth--;
      } else if (character === ',' && depth === 0) {
        const rest = code.slice(at + 1);
        kinds.push(FUNCTION_ARGUMENT.test(rest) ? true : NAME_ARGUMENT.test(rest) ? undefined : false);
        break;
      }
    }
  }
  return kinds;
}

/**
 * A replacement given as a function where it was text, or the reverse (hono's `replace(reg, v ? `/${v}` : '')` made
 * `replace(reg, () => …)`): a replacement string expands `$&`, `$1`, `` $` ``, `$'` and `$$`, a function's result goes in
 * as it is. Only a line whose replace calls are the same in number on both sides is compared.
 */
function findReplacementChange(before: string, after: string): { subject: string; was: string; values: string } | undefined {
  const old = listReplacementKinds(before);
  const now = listReplacementKinds(after);
  if (old.length === 0 || old.length !== now.length) return undefined;
  const at = now.findIndex((isFunction, index) => isFunction !== undefined && old[index] !== undefined && isFunction !== old[index]);
  if (at === -1) return undefined;
  const [function_, text] = ['replace(…, () => …)', 'replace(…, text)'];
  return {
    subject: now[at] === true ? function_ : text,
    was: now[at] === true ? text : function_,
    values:
      "a replacement value holding '$&', '$1', '$$', '$`' and \"$'\" (a replacement string expands them, a function's result goes in as it is), and one without",
  };
}

/** The text that tells escapings of one syntax apart, by the escaping's name (`replace(/[<>&]/)` for a replacement). */
function getEscapingValues(name: string): string {
  if (/reg|QuoteMeta|(?:^|\.)re\.escape$/i.test(name))
    return "text holding regex metacharacters ('.', '*', '+', '?', '(', '[', '\\', '^', '$', '|'), and plain text";
  if (/shell|shlex/i.test(name)) return "an argument holding a space, a quote, '$(…)', ';' and a leading '-'";
  if (/html|xml|markup|entit|[<>&]/i.test(name))
    return "text holding '<', '>', '&', '\"' and \"'\", text already escaped ('&amp;lt;'), and plain text";
  if (/sql/i.test(name)) return "an identifier or value holding a quote, a backslash, a ';' and a reserved word";
  if (/URI|url|Url|Uri|(?:^|\.)(?:un)?quote(?:_plus|_from_bytes)?$|(?:Query|Path)(?:Un)?[eE]scape|^(?:un)?escape$/.test(name))
    return "text holding the characters URL encodings treat differently ('/', '?', '#', '[', ']', '@', '$', '&', '+', '=', ','), a space, '%' and a letter outside ASCII ('é'), encoded and decoded back";
  return "text holding a double quote, a single quote, a backslash, a newline and a letter outside ASCII ('é'), and text without any";
}

export const REGEX_VALUES = 'a string the old pattern accepts and the new one refuses, and the reverse';
export const ROUNDING_VALUES = '.5, -0.5, 0 and a negative value';

/** `% 10`, `% len(items)`: each modulus a text takes a remainder by, spaces dropped. */
function listModuli(code: string): string[] {
  return [...code.matchAll(/(?<=[\w)\]]\s*)%\s*([\w.]+(?:\([^()]*\))?|\([^()]*\))/g)].map((match) => (match[1] ?? '').replace(/\s+/g, ''));
}

/**
 * The modulus of a remainder the head takes and the base did not (`checksum % 11` → `(checksum % 11) % 10` adds
 * `% 10`; `% 11` → `% 10` changes it): a remainder changes its result where it wraps, not at halves.
 */
export function findNewModulus(head: string, base: string | undefined): string | undefined {
  const old = listModuli(base ?? '');
  for (const modulus of listModuli(head)) {
    const index = old.indexOf(modulus);
    if (index === -1) return modulus;
    old.splice(index, 1);
  }
  return undefined;
}

/**
 * The ordering a line asks for, as written: a sort's comparator or key (`.sort((a, b) => a.toMillis() - b.toMillis())`,
 * `sorted(items, key=len)`, `.sort()` bare), spaces dropped; undefined when the line sorts nothing.
 */
export function findSortOrder(code: string): string | undefined {
  const match = /(?:\.(?:sort|toSorted)|\bsorted)\(/.exec(code);
  return match === null ? undefined : readCall(code, match);
}

/** The call a match opens (it ends at the call's `(`), whole to its closing bracket, spaces dropped. */
function readCall(code: string, match: RegExpExecArray): string {
  let depth = 0;
  let end = match.index + match[0].length - 1;
  for (; end < code.length; end++) {
    if (code[end] === '(') depth++;
    else if (code[end] === ')' && --depth === 0) break;
  }
  return code.slice(match.index, end + 1).replace(/\s+/g, '');
}

export const ORDER_VALUES =
  'items given out of order, two that compare equal, and ones whose default (string) order differs from the intended one (10 and 9, dates in different zones)';

/** Any quoted string, whatever its quotes. */
const QUOTED_ANY = '(?:"[^"]*"|\'[^\']*\'|`[^`]*`)';

/**
 * A piece of a line's code (strings emptied: `record[""].no`) as the line writes it (`record["level"].no`): the first
 * place the written line has that shape, or the code itself when it has none.
 */
export function asWritten(code: string, written: string): string {
  if (!/""|''/.test(code)) return code;
  const pattern = code
    .split(/(""|'')/)
    // Emptied as `""` or `''` whatever its quotes were: either stands for any quoted string.
    .map((part) => (part === '""' || part === "''" ? QUOTED_ANY : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(pattern).exec(written)?.[0] ?? code;
}

/** What to try through a new remainder: where it wraps (0 and one below the modulus), and a negative dividend. */
export function getRemainderValues(modulus: string, language: SourceLanguage): string {
  const size = Number(modulus);
  const below = Number.isInteger(size) && size > 0 ? `${size - 1}` : `${modulus} − 1`;
  const sign =
    language === 'python'
      ? "Python's % takes the divisor's sign"
      : `${language === 'go' ? "Go's" : "JavaScript's"} % keeps the dividend's sign`;
  return `a value whose remainder by ${modulus} is 0, one whose remainder is ${below}, and a negative value (${sign})`;
}

/** Each call `rounding` opens in `code` (the pattern ends at its `(`), whole to its closing bracket, spaces dropped. */
function listRoundingCalls(code: string, rounding: RegExp): string[] {
  return [...code.matchAll(new RegExp(rounding.source, 'g'))].map((match) => readCall(code, match));
}

/**
 * Whether `head` rounds something `base` did not round the same way: a new or changed rounding call. A line that kept
 * its rounding whole (jsonwebtoken's `var timestamp = … Math.floor(Date.now() / 1000)` made `const`) rounds as before.
 */
export function hasNewRounding(head: string, base: string | undefined, rounding: RegExp): boolean {
  const old = new Set(base === undefined ? [] : listRoundingCalls(base, rounding));
  return listRoundingCalls(head, rounding).some((call) => !old.has(call));
}
/** A subscript that offsets its index by a whole number: `self[mstridx - 1]`, `parts[i + 1]`. */
const INDEX_OFFSET = /\[\s*([A-Za-z_$][\w$.]*)\s*([-+])\s*(\d+)\s*\]/g;

/** A line's code with each offset subscript emptied (`self[]`): the arithmetic left outside the index. */
export function withoutIndexOffsets(code: string): string {
  return code.replace(INDEX_OFFSET, '[]');
}

/**
 * An index offset the head has and the base had not (dateutil's `del self[mstridx]` became `other = self[mstridx - 1]`),
 * with the values to try: it asks an off-by-one at the ends of the list, not a rounding. Undefined when there is none.
 */
export function findNewIndexOffset(head: string, base: string, language: SourceLanguage): { index: string; values: string } | undefined {
  const old = new Set([...base.matchAll(INDEX_OFFSET)].map((match) => match[0].replace(/\s+/g, '')));
  const added = [...head.matchAll(INDEX_OFFSET)].find((match) => !old.has(match[0].replace(/\s+/g, '')));
  if (added === undefined) return undefined;
  const [read = '', index = '', sign = '', amount = ''] = added;
  const written = `${head.slice(Math.max(0, (added.index ?? 0) - 40), added.index).match(/[\w$.]*$/)?.[0] ?? ''}${read.replace(/\s+/g, ' ')}`;
  if (sign === '-') {
    const below =
      language === 'python' ? `reads from the end, no IndexError` : language === 'go' ? 'panics: index out of range' : 'is undefined';
    return {
      index,
      values: `${amount === '1' ? '0' : `0 to ${Number(amount) - 1}`} (then ${written} ${below}), ${amount} and the last index`,
    };
  }
  const past = language === 'python' ? 'raises IndexError' : language === 'go' ? 'panics: index out of range' : 'is undefined';
  return { index, values: `the last index (then ${written} reads past the end and ${past}) and the one below it` };
}

/** A bound put on a value by a call: `max(0, x)`, `Math.min(x, 100)`, Go's `max(0, n)`. */
const CLAMP =
  /\b(?:Math\.)?(max|min)\(\s*(?:(-?\d+(?:\.\d+)?)\s*,\s*([^()]*(?:\([^()]*\)[^()]*)*?)|([^()]*(?:\([^()]*\)[^()]*)*?)\s*,\s*(-?\d+(?:\.\d+)?))\s*\)/;

/**
 * A value the changed line now clamps by a number (humanize's `"%if" % max(0, precision - (exponent % 3) - 1)`, the
 * same expression unclamped before): the values on both sides of the bound. Undefined when the line has no new clamp.
 */
export function findNewClamp(head: string, base: string): { subject: string; limit: string; values: string } | undefined {
  const clamp = CLAMP.exec(head);
  if (clamp === null) return undefined;
  const [whole, kind = '', leftLimit, leftValue, rightValue, rightLimit] = clamp;
  const limit = leftLimit ?? rightLimit ?? '';
  const subject = (leftValue ?? rightValue ?? '').trim();
  const squash = (text: string): string => text.replace(/\s+/g, '');
  if (subject === '' || squash(base).includes(squash(whole)) || !squash(base).includes(squash(subject))) return undefined;
  const beyond = kind === 'max' ? 'below' : 'above';
  return { subject, limit, values: `${beyond} ${limit} (now ${limit}), exactly ${limit}, and ${kind === 'max' ? 'above' : 'below'} it` };
}

export const CATCH_VALUES = 'a call the catch guards that throws (or a promise it awaits that rejects)';
export const FINALLY_VALUES =
  'a call in the block that throws (or rejects): the cleanup still runs, the state after it is reset, and the error still reaches the caller';
export const REMOVED_ERROR_VALUES = 'the input that used to fail here (it must still be refused, or now be accepted on purpose)';

/**
 * Whether a file reads `name` as a value of its own (`opts.formLimit`: a property read at the end of its chains, never
 * given a value there with `.formLimit =` or `formLimit:`): its callers set it, so a new name there reads what they pass
 * under it (koa-bodyparser's `opts.urlencodedLimit` → `opts.formLimit`, the option its README named), not a value the
 * file renamed. A property read on the way to another (`req.socket.encrypted`) is an object, and one renamed
 * (`req.connection` → `req.socket`) reaches the same object through an alias more often than not.
 */
export function isUnsetProperty(name: string, lines: readonly SourceLine[]): boolean {
  // Asked for every renamed token a file's logic checks compare: each name is read from the file once.
  let known = unsetProperties.get(lines);
  if (known === undefined) {
    known = new Map();
    unsetProperties.set(lines, known);
  }
  let unset = known.get(name);
  if (unset === undefined) {
    unset = findUnsetProperty(name, lines);
    known.set(name, unset);
  }
  return unset;
}

const unsetProperties = new WeakMap<readonly SourceLine[], Map<string, boolean>>();

function findUnsetProperty(name: string, lines: readonly SourceLine[]): boolean {
  const escaped = name.replace(/\$/g, '\\$');
  const read = new RegExp(`\\??\\.${escaped}(?![\\w$])(\\s*(?:\\??\\.|\\(|\\[))?`, 'g');
  const given = new RegExp(`(?<![\\w$])${escaped}\\s*(?:=(?![=>])|:(?!:))`);
  let isRead = false;
  for (const line of lines) {
    if (line.isComment) continue;
    if (given.test(line.code)) return false;
    for (const match of line.code.matchAll(read)) {
      if (match[1] !== undefined) return false;
      isRead = true;
    }
  }
  return isRead;
}

export function excerpt(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  if (trimmed.length <= MAX_EXCERPT) return trimmed;
  const kept = trimmed.slice(0, MAX_EXCERPT - 1);
  // Close what the cut left open, after the ellipsis, so the title around the excerpt still reads balanced.
  return `${kept}…${findUnclosed(kept)}`;
}

/**
 * A replaced line and its replacement, each as `excerpt` shows it, unless the two excerpts would read the same: a long
 * line that changed past the cut (ky's `… ?? (this._input as Request).method` given `?? 'GET'` at its end) is shown
 * from a little before its first difference on, both lines from the same place.
 */
export function excerptPair(before: string, after: string): [string, string] {
  const [was, now] = [excerpt(before), excerpt(after)];
  if (was !== now) return [was, now];
  const [old, changed] = [before.trim().replace(/\s+/g, ' '), after.trim().replace(/\s+/g, ' ')];
  let first = 0;
  while (first < old.length && old[first] === changed[first]) first++;
  if (first === old.length && first === changed.length) return [was, now];
  // Start at a word a third of an excerpt before the difference, so the edit shows with what it belongs to.
  const from = Math.max(0, old.lastIndexOf(' ', Math.max(0, first - Math.floor(MAX_EXCERPT / 3))) + 1);
  return [`…${excerpt(old.slice(from))}`, `…${excerpt(changed.slice(from))}`];
}

const CLOSERS: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };

/** The closing brackets, innermost first, of the brackets `code` opens and does not close (quoted text skipped). */
function findUnclosed(code: string): string {
  const open: string[] = [];
  let quote: string | undefined;
  for (let index = 0; index < code.length; index++) {
    const character = code[index] ?? '';
    if (quote !== undefined) {
      if (character === '\\') index++;
      else if (character === quote) quote = undefined;
    } else if (character === '"' || character === "'" || character === '`') quote = character;
    else if (CLOSERS[character] !== undefined) open.push(CLOSERS[character]);
    else if (character === open[open.length - 1]) open.pop();
  }
  return open.reverse().join('');
}

export function withoutBrace(line: string): string {
  return line.replace(/\s*\{\s*$/, '');
}

export function neighbours(limit: string, operator: string, subject: string, measure: RegExp): string {
  if (operator === '===' || operator === '!==' || operator === '==' || operator === '!=') return `${limit} and a value other than ${limit}`;
  const value = Number(limit);
  if (!Number.isFinite(value)) return `${limit} − 1, ${limit} and ${limit} + 1`;
  // `values.length > 0`: a length of -1 cannot be tried.
  if (value === 0 && measure.test(subject)) return '0 and 1';
  if (Number.isInteger(value)) return `${value - 1}, ${value} and ${value + 1}`;
  return `${(value - 0.01).toFixed(2)}, ${limit} and ${(value + 0.01).toFixed(2)}`;
}

export interface Comparison {
  subject: string;
  operator: string;
  limit: string;
}

/** How a language writes comparisons: the regex that finds them and the operands that make a presence check. */
export interface ComparisonSyntax {
  comparisons: RegExp;
  notALimit: RegExp;
}

/**
 * The comparisons of a line that draw a boundary: against a number (`length >= 5`, `count === 0`) or,
 * with a relational operator between spaces, against another value (`keys.length < guards.minProperties`;
 * the spaces keep generics such as `Map<K, V>` out). Presence checks (`x !== undefined`) are not boundaries.
 */
function findComparisons(code: string, syntax: ComparisonSyntax): Comparison[] {
  const found: Comparison[] = [];
  for (const match of code.matchAll(syntax.comparisons)) {
    const [, left = '', spaceBefore = '', operator = '', spaceAfter = '', right = ''] = match;
    if (syntax.notALimit.test(left) || syntax.notALimit.test(right)) continue;
    const equality = operator.startsWith('=') || operator.startsWith('!');
    if (NUMBER.test(right))
      found.push({ subject: left === ')' ? (findCallEndingAt(code, match.index) ?? 'the value') : left, operator, limit: right });
    else if (NUMBER.test(left)) found.push({ subject: right, operator, limit: left });
    else if (!equality && spaceBefore !== '' && spaceAfter !== '' && left !== ')') found.push({ subject: left, operator, limit: right });
  }
  return found;
}

/**
 * The call whose closing bracket stands at `close`, callee included (`src.methodInt(MethodHead)` of fiber's `… ||
 * src.methodInt(MethodHead) < 0`); undefined when its brackets do not balance on the line or no name calls it.
 */
function findCallEndingAt(code: string, close: number): string | undefined {
  let depth = 0;
  for (let index = close; index >= 0; index--) {
    const char = code[index];
    if (char === ')') depth++;
    else if (char === '(' && --depth === 0) {
      const callee = /[A-Za-z_$][\w$.]*$/.exec(code.slice(0, index))?.[0];
      return callee === undefined ? undefined : code.slice(index - callee.length, close + 1);
    }
  }
  return undefined;
}

/** The first comparison of the new line that the old line did not make (any, for an added line). */
export function findChangedComparison(head: string, base: string | undefined, syntax: ComparisonSyntax): Comparison | undefined {
  return findChangedComparisons(head, base, syntax)[0];
}

/** Every comparison of the new line that the old line did not make, in order. */
export function findChangedComparisons(head: string, base: string | undefined, syntax: ComparisonSyntax): Comparison[] {
  const key = (comparison: Comparison): string => `${comparison.subject} ${comparison.operator} ${comparison.limit}`;
  const old = new Set((base === undefined ? [] : findComparisons(base, syntax)).map(key));
  return findComparisons(head, syntax).filter((comparison) => !old.has(key(comparison)));
}

export function toConditionValues(condition: string): string {
  return `an input for which ${excerpt(condition)} is true and one for which it is false`;
}

export function toStatusValues(status: string | undefined, old: string | undefined): string {
  return status !== undefined && old !== undefined && status !== old
    ? `a request that reaches this line, asserting the new status ${status} (was ${old})`
    : 'an input that makes this line run';
}

/** A loop that visits each element of a collection, written either way: `for (const item of items)` or by index. */
export interface Loop {
  collection: string;
  /** The name each element gets (`for…of`), or the index (`items[i]` is the element). */
  element?: string;
  index?: string;
}

/** A regular expression literal of a line: where its text starts and ends, and the token it reads as. */
export interface RegexLiteral {
  start: number;
  end: number;
  token: string;
}

/** What pairing a hunk's lines needs to know of a language, and its classifier for one replaced or added line. */
export interface HunkSyntax {
  readLines(text: string): SourceLine[];
  /** One line's code: strings emptied, comments dropped. */
  toCode(text: string): string;
  isErrorPath(code: string): boolean;
  keywords: ReadonlySet<string>;
  /** The condition a line decides on, as written (`(a || b)`, `user is None`), for comparing a rewritten hunk's logic. */
  findCondition(line: SourceLine): string | undefined;
  /** `name = expression` in the language's declaration syntax. */
  findDeclaration(line: SourceLine): readonly [string, string] | undefined;
  /** The names a branch's header binds for its condition (Go's `if a, b := x, y; …`), each with its value. */
  findHeaderDeclarations?(line: SourceLine): (readonly [string, string])[];
  /** The loop a line's text opens, when it visits each element of a collection in order. */
  findLoop?(text: string): Loop | undefined;
  /**
   * The regular expression literals of a line's text, each where it stands and as one token (two spellings of a
   * pattern alike): what stands inside one is no name, no comment and no string.
   */
  findRegexLiterals?(text: string): readonly RegexLiteral[];
  classify(
    before: SourceLine | undefined,
    after: SourceLine,
    line: number,
    following: () => readonly SourceLine[],
    /**
     * `line`: the head line the decision stands on, so that a name reads as its nearest declaration. `moved`: only logic
     * another hunk removed or a call inlined counts (a test negated in place is a changed test; moved, a guard).
     */
    isOldLogic: (condition: string, line?: number, moved?: boolean) => boolean,
    /** The head lines just before it, nearest last: the object an option flag sits in. */
    preceding?: () => readonly SourceLine[],
  ): SemanticChange[];
}
