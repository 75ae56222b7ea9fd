import {
  COMPARISON_OPERATORS,
  type ComparisonSyntax,
  excerpt,
  findChangedComparisons,
  type HunkSyntax,
  MAX_CONDITION_LINES,
  findEscapingChange,
  getNormalisationValues,
  NUMBER,
  neighbours,
  REGEX_VALUES,
  REMOVED_ERROR_VALUES,
  ROUNDING_VALUES,
  asWritten,
  findNewClamp,
  findNewIndexOffset,
  findNewModulus,
  findSortOrder,
  getRemainderValues,
  ORDER_VALUES,
  hasNewRounding,
  type SemanticChange,
  type SemanticKind,
  type SourceLine,
  toConditionValues,
  toStatusValues,
  withoutBrace,
  withoutIndexOffsets,
} from './semantic-text.js';

type PythonOrGo = 'python' | 'go';

/** What is open at the end of a line and goes on into the next one. */
interface ScanState {
  /** The delimiter of a string that spans lines (`'''`, `"""`, a backtick). */
  quote?: string;
  isBlockComment: boolean;
  /** Open brackets; true for the parameter list of a Python `def`. */
  brackets: boolean[];
}

/** Where a string opens at `index`: its delimiter, and whether it may span lines. */
function findStringOpening(line: string, index: number, language: PythonOrGo): { quote: string; isLong: boolean } | undefined {
  const character = line[index];
  if (language === 'python') {
    if (character !== '"' && character !== "'") return undefined;
    const triple = character.repeat(3);
    return line.startsWith(triple, index) ? { quote: triple, isLong: true } : { quote: character, isLong: false };
  }
  if (character === '`') return { quote: '`', isLong: true };
  return character === '"' || character === "'" ? { quote: character, isLong: false } : undefined;
}

/** The index just past the delimiter that closes a string at or after `index`, or -1 when the line ends first. */
function findStringEnd(line: string, index: number, quote: string): number {
  for (let at = index; at < line.length; at++) {
    // Go raw strings have no escapes.
    if (line[at] === '\\' && quote !== '`') at++;
    else if (line.startsWith(quote, at)) return at + quote.length;
  }
  return -1;
}

const PYTHON_DEF_OPEN = /\bdef\s+\w+\s*(?:\[[^\]]*\])?\s*$/;

/**
 * One line as text without comments and as code with its strings emptied (`""`), reading on from what the lines
 * before left open: a triple-quoted string, a raw string, a block comment, a `def`'s parameter list.
 */
function scanLine(raw: string, language: PythonOrGo, state: ScanState): SourceLine {
  let code = '';
  let text = '';
  const startsInSignature = state.brackets.includes(true);
  const startsInBrackets = state.brackets.length > 0;
  let index = 0;
  while (index < raw.length) {
    if (state.isBlockComment) {
      const end = raw.indexOf('*/', index);
      state.isBlockComment = end < 0;
      index = end < 0 ? raw.length : end + 2;
      continue;
    }
    if (state.quote !== undefined) {
      const end = findStringEnd(raw, index, state.quote);
      text += raw.slice(index, end < 0 ? raw.length : end);
      if (end >= 0) state.quote = undefined;
      index = end < 0 ? raw.length : end;
      continue;
    }
    const character = raw[index] ?? '';
    if (language === 'python' ? character === '#' : raw.startsWith('//', index)) break;
    if (language === 'go' && raw.startsWith('/*', index)) {
      state.isBlockComment = true;
      index += 2;
      continue;
    }
    const opening = findStringOpening(raw, index, language);
    if (opening !== undefined) {
      // A Python prefix (f"", rb'') belongs to the string.
      if (language === 'python') code = code.replace(/(?<![\w])[rRbBuUfF]{1,2}$/, '');
      code += '""';
      const end = findStringEnd(raw, index + opening.quote.length, opening.quote);
      if (end < 0 && opening.isLong) state.quote = opening.quote;
      const stop = end < 0 ? raw.length : end;
      text += raw.slice(index, stop);
      index = stop;
      continue;
    }
    if (character === '(') state.brackets.push(language === 'python' && PYTHON_DEF_OPEN.test(code));
    else if (character === '[' || character === '{') state.brackets.push(false);
    else if (character === ')' || character === ']' || character === '}') state.brackets.pop();
    code += character;
    text += character;
    index++;
  }
  code = code.trim();
  return {
    raw,
    text: text.trim(),
    code,
    // A line with no code, or a bare string (a docstring), says nothing the code decides. A string alone on a line inside
    // brackets is part of a value (marshmallow's message, concatenated over three lines, made an f-string).
    isComment: raw.trim() !== '' && (code === '' || (code === '""' && !startsInBrackets)),
    inSignature: startsInSignature || (language === 'python' && /^(?:async\s+)?def\b/.test(code)),
  };
}

const toPythonCode = (text: string): string => scanLine(text, 'python', { isBlockComment: false, brackets: [] }).code;

/** Go's net/http status names as their numbers, so `status < http.StatusOK` and `status <= 199` compare alike. */
const toStatusNumbers = (code: string): string => code.replace(/\bhttp\.Status([A-Z]\w*)/g, (name, key: string) => GO_STATUS[key] ?? name);

function readLines(text: string, language: PythonOrGo): SourceLine[] {
  const state: ScanState = { isBlockComment: false, brackets: [] };
  return text.split('\n').map((raw) => scanLine(raw, language, state));
}

/**
 * `text` up to the first `stop` outside brackets and strings (`:` of `if a[1:2]:`, not of the slice), or undefined
 * when there is none. A walrus `:=` is no stop.
 */
function takeUntilTopLevel(text: string, stops: string, endAtClose = false): string | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let index = 0; index < text.length; index++) {
    const character = text[index] ?? '';
    if (quote !== undefined) {
      if (character === '\\') index++;
      else if (character === quote) quote = undefined;
    } else if (character === '"' || character === "'" || character === '`') quote = character;
    else if ('([{'.includes(character)) depth++;
    else if (')]}'.includes(character)) {
      depth--;
      // A comprehension's `if` ends where its brackets close (`[v for v in vs if v not in (\n a,\n b,\n)]`).
      if (depth < 0 && endAtClose) return text.slice(0, index);
    } else if (depth === 0 && stops.includes(character) && !(character === ':' && text[index + 1] === '=')) return text.slice(0, index);
  }
  return undefined;
}

/** Splits `text` at every `separator` outside brackets and strings. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let rest = text;
  for (let part = takeUntilTopLevel(rest, separator); part !== undefined; part = takeUntilTopLevel(rest, separator)) {
    parts.push(part);
    rest = rest.slice(part.length + 1);
  }
  return [...parts, rest];
}

/** A condition and the keyword that opens its line (`if `, `elif `, `for `), or the whole line for a ternary. */
interface FoundCondition {
  condition: string;
  keyword: string;
  isCase: boolean;
}

const PYTHON_OPENER = /^(if|elif|while)\b\s*/;
const TYPE_CHECKING_TEST = /^(?:(?:typing|t)\.)?TYPE_CHECKING$/;
const GO_OPENER = /^(?:\}\s*)?(?:else\s+)?(if|for)\b\s*/;

type LineText = Pick<SourceLine, 'code' | 'text'>;

/**
 * What an `assert` that only narrows a type tests: a value that is (not) None, or an isinstance check, negated or not
 * (yarl's `assert not isinstance(encode_host_size, object)` in the branch where a sentinel was ruled out).
 */
const TYPE_NARROWING_ASSERT = /^(?:[\w.]+(?:\[[^\]]*\])?\s+is\s+(?:not\s+)?None|(?:not\s+)?isinstance\([^()]*(?:\([^()]*\))?[^()]*\))$/;

/** The condition of a Python line: found in its code (a word inside a string decides nothing), shown from its text. */
function findPythonCondition({ code, text }: LineText, following: () => readonly SourceLine[]): FoundCondition | undefined {
  const opener = PYTHON_OPENER.exec(text);
  if (opener !== null) {
    const rest = text.slice(opener[0].length);
    // One that does not close in time is left as written.
    const condition = takeUntilTopLevel(rest, ':') ?? joinLines(rest, following, (joined) => takeUntilTopLevel(joined, ':', true)) ?? rest;
    // `if TYPE_CHECKING:` (jinja's `if t.TYPE_CHECKING: import typing_extensions as te`) holds imports for the type
    // checker: false whenever the code runs, no input decides it.
    return condition === undefined || condition.trim() === '' || TYPE_CHECKING_TEST.test(condition.trim())
      ? undefined
      : { condition: condition.trim(), keyword: opener[0], isCase: false };
  }
  const assertion = /^assert\b\s*(.+)$/.exec(text);
  if (assertion?.[1] !== undefined) {
    const asserted = (takeUntilTopLevel(assertion[1], ',') ?? assertion[1]).trim();
    // `assert self.process.pid is not None` (uvicorn) or `assert isinstance(x, T)` narrows a type for the checker:
    // no input is meant to fail it.
    if (TYPE_NARROWING_ASSERT.test(asserted)) return undefined;
    return { condition: asserted, keyword: 'assert ', isCase: false };
  }
  // `value if cond else other`: outside a comprehension, whose `if` has no `else`.
  const ternary = /\bif\s+(.+?)\s+else\b/;
  const shownTernary = ternary.test(code) ? ternary.exec(text)?.[1] : undefined;
  if (shownTernary !== undefined && !/^(?:for|with|def|class|else)\b/.test(code))
    return { condition: shownTernary, keyword: '', isCase: false };
  const returned = /^return\s+.*\b(?:and|or)\b/.test(code) ? /^return\s+(.*)$/.exec(text) : null;
  return returned?.[1] === undefined ? undefined : { condition: returned[1], keyword: 'return ', isCase: false };
}

function findGoCondition({ code, text }: LineText, following: () => readonly SourceLine[]): FoundCondition | undefined {
  const opener = GO_OPENER.exec(text);
  if (opener !== null) {
    const rest = text.slice(opener[0].length);
    const header = /\{$/.test(rest)
      ? rest.replace(/\s*\{$/, '')
      : (joinLines(rest, following, (joined) => /^(.*?)\s*\{$/.exec(joined)?.[1]) ?? rest);
    const clauses = splitTopLevel(header, ';').map((clause) => clause.trim());
    // `if init; cond`, `for init; cond; post`, `for cond`; a `for … range` or a bare `for` decides nothing.
    const condition = opener[1] === 'for' ? (clauses.length === 3 ? clauses[1] : clauses[0]) : clauses[clauses.length - 1];
    if (condition === undefined || condition === '' || /\brange\b/.test(condition)) return undefined;
    // `if rr, ok := m.(*routeRegexp); ok {` whose block opens with its own `if` (gorilla/mux's query check): the type
    // assertion only lets the inner test run, which is the decision.
    const isAssertion = clauses.length === 2 && /^!?ok$/.test(condition) && /^\w+,\s*ok\s*:=\s*.+\.\(\*?[\w.]+\)$/.test(clauses[0] ?? '');
    const inner = isAssertion ? following().find((next) => !next.isComment && next.text !== '') : undefined;
    if (inner !== undefined && /^if\s/.test(inner.text)) return undefined;
    return { condition, keyword: `${opener[0].replace(/\s*$/, '')} `, isCase: false };
  }
  // A `select`'s `case v := <-ch:` waits on a channel; it matches no value.
  const value = /^case\s+(.+):$/.exec(text);
  if (value?.[1] !== undefined && !/<-/.test(value[1])) return { condition: `case ${value[1]}`, keyword: '', isCase: true };
  const returned = /^return\s+.*(?:&&|\|\|)/.test(code) ? /^return\s+(.*)$/.exec(text)?.[1] : undefined;
  // A one-line function literal returns its test (go-cmp's `isPrintSpace := func(r rune) bool { return … }`).
  const literal = /\bfunc\b[^{]*\{\s*return\s+[^}]*(?:&&|\|\|)[^}]*\}$/.test(code)
    ? /\{\s*return\s+(.*?)\s*\}$/.exec(text)?.[1]
    : undefined;
  if (literal !== undefined) return { condition: literal, keyword: 'return ', isCase: false };
  if (returned === undefined) return undefined;
  // `return r.Method == http.MethodOptions &&` goes on below (gofmt's layout): the whole chain is the condition.
  const ending = /(?:&&|\|\|)\s*$/;
  const whole = ending.test(returned) ? joinLines(returned, following, (joined) => (ending.test(joined) ? undefined : joined)) : returned;
  return { condition: whole ?? returned, keyword: 'return ', isCase: false };
}

/** A condition that opens on its line and closes on a later one, joined into one line; undefined when it does not close in time. */
function joinLines(
  shown: string,
  following: () => readonly SourceLine[],
  close: (joined: string) => string | undefined,
): string | undefined {
  let text = shown;
  let count = 0;
  for (const next of following()) {
    if (next.isComment || next.text === '') continue;
    count++;
    if (count > MAX_CONDITION_LINES) return undefined;
    // A Python line continued with a backslash is one line without it (sqlparse's `if self._seen_begin and \`).
    text = text.replace(/\s*\\$/, '');
    text += /[([{]$/.test(text) || /^[)\]}]/.test(next.text) ? next.text : ` ${next.text}`;
    const closed = close(text);
    if (closed !== undefined) return closed;
  }
  return undefined;
}

/** `x is None`, `x is not None`, `x == None`, `x != nil`: whether a value is there, not where it lies. */
function findPresenceSubject(condition: string, language: PythonOrGo): string | undefined {
  const pattern =
    language === 'python'
      ? /^(?:not\s+)?([A-Za-z_][\w.]*(?:\[[^\]]*\]|\(\))*)\s+(?:is\s+not|is|==|!=)\s+None$/
      : /^([A-Za-z_][\w.]*(?:\[[^\]]*\]|\(\))*)\s*(?:==|!=)\s*nil$/;
  return pattern.exec(condition.trim())?.[1];
}

function toPresenceValues(subject: string, language: PythonOrGo): string {
  return language === 'python'
    ? `an input for which ${subject} is None and one for which it is set`
    : `an input for which ${subject} is nil and one for which it is not`;
}

/** `name = expression` (Python), `name := expression`, `var name = expression` (Go); never `==`. */
const PYTHON_DECLARATION = /^([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)\s*(.+)$/;
/**
 * The names an `if` or `switch` header binds before its condition (`if expectedArg, actualArg := x.Interface(),
 * y.Interface(); !equal(expectedArg, actualArg) {`, testify's mock.go), each with its value; none when one value gives
 * several names (`v, ok := m[k]`).
 */
function findGoHeaderDeclarations(line: SourceLine): (readonly [string, string])[] {
  const opener = line.isComment ? null : /^(?:\}\s*)?(?:else\s+)?(?:if|switch)\s+/.exec(line.text);
  if (opener === null) return [];
  const [init, ...rest] = splitTopLevel(line.text.slice(opener[0].length).replace(/\s*\{$/, ''), ';');
  const binding = rest.length === 0 ? null : /^([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*:=\s*(.+)$/.exec(init?.trim() ?? '');
  if (binding?.[1] === undefined || binding[2] === undefined) return [];
  const names = binding[1].split(',').map((name) => name.trim());
  const values = splitTopLevel(binding[2], ',').map((value) => value.trim());
  return names.length === values.length ? names.map((name, index) => [name, values[index] ?? ''] as const) : [];
}

const GO_DECLARATION = /^(?:var\s+)?([A-Za-z_]\w*)\s*(?::=|(?:\s[\w.*[\]]+\s*)?=(?!=))\s*(.+)$/;

const TERM = String.raw`-?\d+(?:\.\d+)?\b|(?:len|cap)\([^()]*\)|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\(\)|\[[^[\]]*\])*`;
/**
 * A comparison's operand, arithmetic included: golang-jwt's `curveBits%8 > 0` compares `curveBits%8`, not `8`, and
 * `len(sig) != 2*m.KeySize` compares with `2*m.KeySize`, not `2`, and boltons's `val >= 2 ** len_` with `2 ** len_`
 * (Python's `**` and `//` are one operator). Three terms at most, and an operand starts only where
 * a name or number starts: each place of a long chain of terms is then tried in bounded time.
 */
const OPERAND = String.raw`(?:${TERM})(?:\s*(?:\*\*|//|[-+*/%])\s*(?:${TERM})){0,2}`;
/** A Python comparison followed by another on its right operand: `2 < delta <= 10` chains `2 < delta` and `delta <= 10`. */
const PYTHON_CHAIN = new RegExp(
  String.raw`((?<![\w.\])])${OPERAND})(\s*)(${COMPARISON_OPERATORS})(\s*)(${OPERAND})(?=\s*(?:${COMPARISON_OPERATORS})\s*(?:${OPERAND}))`,
  'g',
);

/** A line with each chained comparison written out as its links joined by `and`, so that each link is read. */
function splitPythonChains(code: string): string {
  return code.replace(PYTHON_CHAIN, '$1$2$3$4$5 and $5');
}

const COMPARISONS: Readonly<Record<PythonOrGo, ComparisonSyntax>> = {
  python: {
    comparisons: new RegExp(String.raw`((?<![\w.\])])${OPERAND}|\))(\s*)(${COMPARISON_OPERATORS})(\s*)(${OPERAND})`, 'g'),
    notALimit: /^(?:None|True|False)$/,
  },
  go: {
    comparisons: new RegExp(String.raw`((?<![\w.\])])${OPERAND}|\))(\s*)(${COMPARISON_OPERATORS})(\s*)(${OPERAND})`, 'g'),
    notALimit: /^(?:nil|true|false)$/,
  },
};
/** A subject that counts something (`len(items)`, `len(x) > 0`): never below zero. */
const MEASURE = /^(?:len|cap)\(|(?:^|\.)(?:length|size|count)$|[a-z](?:Length|Size|Count)$|_(?:count|size|len)$/;

/** Net/http's status names, for the number a Go handler sends. */
const GO_STATUS: Readonly<Record<string, string>> = {
  Continue: '100',
  SwitchingProtocols: '101',
  OK: '200',
  Created: '201',
  Accepted: '202',
  NoContent: '204',
  PartialContent: '206',
  MovedPermanently: '301',
  Found: '302',
  SeeOther: '303',
  NotModified: '304',
  TemporaryRedirect: '307',
  PermanentRedirect: '308',
  BadRequest: '400',
  Unauthorized: '401',
  PaymentRequired: '402',
  Forbidden: '403',
  NotFound: '404',
  MethodNotAllowed: '405',
  NotAcceptable: '406',
  RequestTimeout: '408',
  Conflict: '409',
  Gone: '410',
  LengthRequired: '411',
  PreconditionFailed: '412',
  RequestEntityTooLarge: '413',
  UnsupportedMediaType: '415',
  UnprocessableEntity: '422',
  Locked: '423',
  FailedDependency: '424',
  PreconditionRequired: '428',
  TooManyRequests: '429',
  RequestHeaderFieldsTooLarge: '431',
  UnavailableForLegalReasons: '451',
  InternalServerError: '500',
  NotImplemented: '501',
  BadGateway: '502',
  ServiceUnavailable: '503',
  GatewayTimeout: '504',
};

const GO_STATUS_ARGUMENT = String.raw`(\d{3}|http\.Status[A-Z]\w*)`;
const GO_STATUS_PLACES = [
  new RegExp(String.raw`\bhttp\.Error\(.*,\s*${GO_STATUS_ARGUMENT}\s*\)`),
  new RegExp(String.raw`\.WriteHeader\(\s*${GO_STATUS_ARGUMENT}`),
  new RegExp(
    String.raw`\.(?:JSON|IndentedJSON|PureJSON|String|XML|YAML|HTML|Data|Blob|Status|SendStatus|NoContent|AbortWithStatus|AbortWithStatusJSON|AbortWithError)\(\s*${GO_STATUS_ARGUMENT}`,
  ),
  new RegExp(String.raw`\bStatus(?:Code)?:\s*${GO_STATUS_ARGUMENT}`),
];
const PYTHON_STATUS_PLACES = [
  /\babort\(\s*(\d{3})\b/,
  /\bHTTPException\(\s*(\d{3})\b/,
  /\bstatus(?:_code)?\s*=\s*(\d{3})\b/,
  /\bstatus\.HTTP_(\d{3})_\w+/,
  /^return\b.*,\s*(\d{3})\s*$/,
];

/** The HTTP status a line sends, as a number (`http.StatusForbidden` is 403). */
function findStatus(code: string, language: PythonOrGo): string | undefined {
  for (const place of language === 'python' ? PYTHON_STATUS_PLACES : GO_STATUS_PLACES) {
    const status = place.exec(code)?.[1];
    if (status !== undefined) return status.startsWith('http.Status') ? GO_STATUS[status.slice('http.Status'.length)] : status;
  }
  return undefined;
}

const isErrorStatus = (status: string | undefined): boolean => status !== undefined && /^[45]\d\d$/.test(status);

/** `raise`, `except …:`; `panic(`, `errors.New(`, `fmt.Errorf(`, `return …, err`; or a 4xx/5xx status sent. */
const ERROR_PATH: Readonly<Record<PythonOrGo, RegExp>> = {
  python: /\braise\b|^except\b/,
  go: /\bpanic\(|\berrors\.New\(|\bfmt\.Errorf\(|\blog\.(?:Fatal|Panic)\w*\(|\bhttp\.Error\(|^return\b(?:.*,)?\s*(?:err|(?:\w+\.)?Err[A-Z]\w*)\s*$/,
};

/** Go's sentinel error, defined once (`ErrMethodMismatch = errors.New("method is not allowed")`): the paths that return it fail, not its definition. */
const GO_SENTINEL = /^(?:var\s+)?[Ee]rr[A-Z]\w*\s*(?:error\s*)?=\s*(?:errors\.New|fmt\.Errorf)\(/;

function isErrorPath(code: string, language: PythonOrGo): boolean {
  if (language === 'go' && GO_SENTINEL.test(code.trim())) return false;
  return ERROR_PATH[language].test(code) || isErrorStatus(findStatus(code, language));
}

/** The exception classes an `except` clause catches. */
function findCaughtClasses(code: string): string | undefined {
  const clause = /^except\*?\s*(.*?)\s*(?:\bas\s+\w+\s*)?:/.exec(code);
  if (clause === null) return undefined;
  const classes = (clause[1] ?? '').replace(/^\(|\)$/g, '').trim();
  return classes === '' ? 'every exception' : classes.split(/\s*,\s*/).join(', ');
}

/** A membership test: `x in y`, `x not in y` (a `for` clause's `in` removed first), `slices.Contains(s, x)`, `_, ok := m[k]`. */
const PYTHON_MEMBERSHIP =
  /([A-Za-z_][\w.]*(?:\([^()]*\)|\[[^[\]]*\])*|"[^"]*"|'[^']*')\s+(not\s+in|in)\s+(\([^()]*\)|\[[^[\]]*\]|\{[^{}]*\}|[A-Za-z_][\w.]*(?:\([^()]*\))?)/;
/** The `in` of `for x in items` and of a comprehension iterates; the tests after it (`if x in allowed`) still count. */
const withoutIteration = (line: string): string =>
  line.replace(/\bfor\s+[^:]+?\s+in\s+[A-Za-z_][\w.]*(?:\([^()]*\))?|\bfor\s+[^:]+?\s+in\b/g, ' ');

function findMembership({ code, text }: LineText, language: PythonOrGo): { text: string; item: string; collection: string } | undefined {
  if (language === 'python') {
    const match = PYTHON_MEMBERSHIP.exec(withoutIteration(code));
    if (match === null) return undefined;
    // Shown with its strings (`scheme in ("http", "https")`) when the text holds the same test.
    const written = PYTHON_MEMBERSHIP.exec(withoutIteration(text));
    const shown = written !== null && toPythonCode(written[0]) === match[0] ? written : match;
    return { text: shown[0], item: shown[1] ?? '', collection: shown[3] ?? '' };
  }
  const call =
    /\b(?:slices|strings|bytes|maps)\.(?:Contains|ContainsFunc|ContainsAny|ContainsRune|Index)\(\s*([^,()]+(?:\([^()]*\))?),\s*([^()]+(?:\([^()]*\))?)\)/.exec(
      code,
    );
  if (call !== null) return { text: call[0], item: call[2]?.trim() ?? '', collection: call[1]?.trim() ?? '' };
  const lookup = /\b\w+,\s*ok\s*:?=\s*([A-Za-z_][\w.]*)\[([^\]]+)\]/.exec(code);
  return lookup === null ? undefined : { text: lookup[0], item: lookup[2] ?? '', collection: lookup[1] ?? '' };
}

const NORMALISATION: Readonly<Record<PythonOrGo, RegExp>> = {
  python: /\.(lower|upper|strip|lstrip|rstrip|casefold)\(/g,
  go: /\bstrings\.(ToLower|ToUpper|TrimSpace|EqualFold|ToTitle)\(/g,
};

/**
 * The line's only edit is a normalisation of a value it tests (sqlparse's `tmp_token.value == 'AS'` →
 * `tmp_token.value.upper() == 'AS'`, Go's `strings.ToUpper(method)`): the normalisation case asks it, not a condition.
 */
function isOnlyNormalised(base: string | undefined, head: string, language: PythonOrGo): boolean {
  if (base === undefined) return false;
  const strip = (code: string): string => code.replace(NORMALISATION[language], '(').replace(/[\s()]+/g, '');
  return strip(base) === strip(head) && base.replace(/\s+/g, '') !== head.replace(/\s+/g, '');
}

const ROUNDING: Readonly<Record<PythonOrGo, RegExp>> = {
  python: /\bround\(|\bmath\.(?:floor|ceil|trunc)\(|\.quantize\(/,
  go: /\bmath\.(?:Round|RoundToEven|Floor|Ceil|Trunc)\(/,
};

/** Binary operators, spaced the same on both sides (`a - b`, `a*b`): `return -1` and Go's `*T` are not arithmetic. */
const ARITHMETIC = /(?<=[\w)\]])(\s*)(\/\/|\*\*|[-+*/%])\1(?=[\w(])/g;

function operators(code: string): string {
  return [...code.matchAll(ARITHMETIC)].map((match) => match[2]).join('');
}

/** A length or a whole number: `len(h.groups)`, `cap(buf)`, `2`. */
const COUNT_TERM = String.raw`(?:len|cap)\([^()]*\)|\d+\b`;
const COUNT_ARITHMETIC = new RegExp(String.raw`(?<![\w.])(?:${COUNT_TERM})\s*[-+*]\s*(?:${COUNT_TERM})(?![\w(])`, 'g');

/**
 * Whether every arithmetic of a line adds, subtracts or multiplies lengths and whole numbers (zap's `make([]string,
 * len(h.groups)+1)`): a count, with no halves or negatives to ask about.
 */
function isCountArithmetic(code: string): boolean {
  const counted = [...code.matchAll(COUNT_ARITHMETIC)].length;
  return counted > 0 && counted === operators(code).length;
}

/**
 * Whether the operators that differ between two lines are `+` alone with no number beside one: a join of strings,
 * lists or styles (rich's `border_style = style + console.get_style(…)`), which has no halves or negatives to ask.
 */
function isOnlyJoined(base: string, head: string): boolean {
  const count = (text: string): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const operator of operators(text).match(/\/\/|\*\*|./g) ?? []) counts.set(operator, (counts.get(operator) ?? 0) + 1);
    return counts;
  };
  const [was, now] = [count(base), count(head)];
  const changed = [...new Set([...was.keys(), ...now.keys()])].filter((operator) => was.get(operator) !== now.get(operator));
  return changed.length > 0 && changed.every((operator) => operator === '+') && !/(?<![\w.])\d[\d.]*\s*\+|\+\s*\d/.test(head);
}

/** The pattern of `re.compile(r"…")` or `regexp.MustCompile(`…`)`, as written. */
const REGEX_CALL: Readonly<Record<PythonOrGo, RegExp>> = {
  python:
    /\bre\.(?:compile|match|fullmatch|search|sub|subn|split|findall|finditer)\(\s*([rRbB]{0,2}(?:"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'))/,
  go: /\bregexp\.(?:MustCompile|Compile|MatchString|Match)(?:POSIX)?\(\s*(`[^`]*`|"(?:\\.|[^"\\])*")/,
};

interface Slice {
  collection: string;
  lower: string;
  upper: string;
}

/** The slices of a line: `items[:10]`, `s[1:]`, `s[i:j]` (a step or Go's capacity ignored). */
function findSlices(code: string): Slice[] {
  const found: Slice[] = [];
  for (const match of code.matchAll(/([A-Za-z_][\w.]*(?:\(\))?)\[([^[\]:]*):([^[\]:]*)(?::[^[\]]*)?\]/g)) {
    const [, collection = '', lower = '', upper = ''] = match;
    if (lower.trim() !== '' || upper.trim() !== '') found.push({ collection, lower: lower.trim(), upper: upper.trim() });
  }
  return found;
}

/** The first slice bound the new line sets that the old line did not: `len(items)` against its new limit. */
function findChangedSlice(head: string, base: string | undefined): { subject: string; limit: string } | undefined {
  const old = base === undefined ? [] : findSlices(base);
  for (const slice of findSlices(head)) {
    // `sys.version_info[:2]` is a version check's tuple, not a collection whose length could change.
    if (slice.collection === 'sys.version_info') continue;
    const previous = old.find((candidate) => candidate.collection === slice.collection);
    if (previous !== undefined && previous.lower === slice.lower && previous.upper === slice.upper) continue;
    const isUpperChanged = slice.upper !== '' && (previous === undefined || previous.upper !== slice.upper);
    const bound = isUpperChanged ? slice.upper : slice.lower;
    if (bound !== '') return { subject: `len(${slice.collection})`, limit: bound };
  }
  return undefined;
}

/** Lengths around a slice bound: a negative bound counts from the end, so `[:-1]` is tried on 0, 1 and 2 items. */
function toSliceValues(subject: string, limit: string): string {
  // A bound counted from the collection's own length (`args[:len(args)-1]`, all but the last) is tried on the lengths
  // it breaks on: none, one and two.
  if (limit.replace(/\s+/g, '').includes(subject.replace(/\s+/g, ''))) return `${subject} is 0, 1 and 2`;
  if (!NUMBER.test(limit)) {
    const bound = /^[\w.]+$/.test(limit) ? limit : `(${limit})`;
    return `${bound} − 1, ${bound} and ${bound} + 1`;
  }
  const size = Math.abs(Number(limit));
  return neighbours(String(size), '<', subject, MEASURE);
}

interface FoundDefault {
  subject: string;
  value: string;
  values: string;
}

/** Parameter defaults of a `def` (or of a parameter line inside one): name to value. */
function findParameterDefaults(text: string): Map<string, string> {
  const parameters = text.replace(/^(?:async\s+)?def\s+\w+\s*(?:\[[^\]]*\])?\s*\(/, '');
  const found = new Map<string, string>();
  for (const match of parameters.matchAll(
    /(?:^|[(,])\s*\**([A-Za-z_]\w*)\s*(?::\s*[^=,()]+(?:\[[^\]]*\])?)?\s*=(?!=)\s*([^,()]+(?:\([^()]*\))?)/g,
  )) {
    if (match[1] !== undefined && match[2] !== undefined) found.set(match[1], match[2].trim());
  }
  return found;
}

/** The defaults of a line: parameter defaults, `x or default`, `d.get(k, default)`, `getattr(o, n, default)`; Go's `flag.Int(name, default, …)`. */
function findDefaults(line: SourceLine, language: PythonOrGo): FoundDefault[] {
  const text = line.text;
  if (language === 'go') {
    const flag = /\bflag\.(?:Int|Int64|Uint|Uint64|String|Bool|Float64|Duration)\(\s*("[^"]*")\s*,\s*([^,]+),/.exec(text);
    if (flag?.[1] === undefined || flag[2] === undefined) return [];
    return [{ subject: `the flag ${flag[1]}`, value: flag[2].trim(), values: `a run without ${flag[1]}` }];
  }
  if (line.inSignature) {
    return [...findParameterDefaults(text)].map(([name, value]) => ({
      subject: name,
      value,
      values: `a call without ${name} (and with None)`,
    }));
  }
  const found: FoundDefault[] = [];
  const lookup = /\b([A-Za-z_][\w.]*)\.get\(\s*([^,()]+),\s*([^()]+(?:\([^()]*\))?)\)/.exec(text);
  if (lookup?.[1] !== undefined && lookup[2] !== undefined && lookup[3] !== undefined) {
    const key = lookup[2].trim();
    found.push({
      subject: `${lookup[1]}.get(${key})`,
      value: lookup[3].trim(),
      values: `${lookup[1]} without ${key}, with ${key} set to None, and with it set`,
    });
  }
  const attribute = /\bgetattr\(\s*([^,()]+),\s*([^,()]+),\s*([^()]+(?:\([^()]*\))?)\)/.exec(text);
  if (attribute?.[1] !== undefined && attribute[2] !== undefined && attribute[3] !== undefined) {
    const name = attribute[2].trim();
    found.push({
      subject: `getattr(${attribute[1].trim()}, ${name})`,
      value: attribute[3].trim(),
      values: `${attribute[1].trim()} without ${name}, and with it`,
    });
  }
  // `value or default` where a value is produced (an assignment, a return, an argument), not in a condition.
  const fallbackPattern = /(?:^return\b|[=(,])\s*[^=]*?\s\bor\s+(\([^()]*\)|\[[^[\]]*\]|\{[^{}]*\}|[^,):]+)/;
  const fallback = fallbackPattern.test(line.code) ? fallbackPattern.exec(text) : null;
  if (fallback?.[1] !== undefined && !PYTHON_OPENER.test(text)) {
    const value = fallback[1].trim();
    found.push({
      subject: 'the missing value',
      value,
      values: `the value None, '', 0 and an empty list (each becomes ${value}), and a value set`,
    });
  }
  return found;
}

const KEYWORDS: Readonly<Record<PythonOrGo, ReadonlySet<string>>> = {
  python: new Set(
    'and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return True try while with yield self'.split(
      ' ',
    ),
  ),
  go: new Set(
    'break case chan const continue default defer else fallthrough false for func go goto if import interface map nil package range return select struct switch true type var'.split(
      ' ',
    ),
  ),
};

/** The keyword of a branch that tests: Python's `if`, `elif`, `while`; Go's `if` (after `} else` too). */
const BRANCH_KEYWORD = /^(?:\}\s*)?(?:else\s+)?(?:el)?if\b|^while\b/;

/** A Python conditional expression's test (`value if test else other`): found with no keyword, and no `case`. */
function isConditionalValue(condition: FoundCondition): boolean {
  return condition.keyword === '' && !condition.isCase;
}

/**
 * Semantic changes of one replaced or added Python or Go line, read from its code (strings emptied, comments dropped)
 * and shown as written without its comment.
 */
function classifyPair(
  before: SourceLine | undefined,
  after: SourceLine,
  line: number,
  following: () => readonly SourceLine[],
  isOldLogic: (condition: string, line?: number) => boolean,
  language: PythonOrGo,
): SemanticChange[] {
  if (after.isComment) return [];
  const head = after.code;
  const base = before === undefined || before.isComment ? undefined : before.code;
  if (head === '' || after.text === before?.text) return [];
  const changes: SemanticChange[] = [];
  const codeChanged = head !== base;
  const add = (kind: SemanticKind, subject: string, limit: string, values: string, shownAfter = after.text): void => {
    changes.push({
      kind,
      line,
      before: before === undefined ? '' : excerpt(withoutBrace(before.text)),
      after: excerpt(withoutBrace(shownAfter)),
      subject: excerpt(subject),
      limit,
      values,
    });
  };
  const findCondition = language === 'python' ? findPythonCondition : findGoCondition;
  const condition = codeChanged ? findCondition(after, following) : undefined;
  // The same test as a removed line made, its operands named or renamed (rich's `if codepoint > last_entry[1]:` with
  // `last_entry = table[-1]`, in place of `if codepoint > table[-1][1]:`): no bound moved.
  const isSameDecision = condition !== undefined && isOldLogic(condition.condition, line);
  const comparisons =
    !codeChanged || isSameDecision
      ? []
      : language === 'go'
        ? findChangedComparisons(toStatusNumbers(head), base === undefined ? undefined : toStatusNumbers(base), COMPARISONS.go)
        : findChangedComparisons(splitPythonChains(head), base === undefined ? undefined : splitPythonChains(base), COMPARISONS.python);
  const comparison = comparisons[0];
  const slice = codeChanged && comparison === undefined ? findChangedSlice(head, base) : undefined;
  if (comparison !== undefined) {
    // Shown as written: the code has its strings emptied (loguru's `record["level"].no` read as `record[""].no`).
    const [subject, limit] = [asWritten(comparison.subject, after.text), asWritten(comparison.limit, after.text)];
    // Every bound the line draws on the same subject (arrow's `delta == 0 or 2 < delta <= 10`: 0, then 2 and 10).
    const values = comparisons
      .filter((other) => other.subject === comparison.subject)
      .map((other) => neighbours(asWritten(other.limit, after.text), other.operator, subject, MEASURE));
    add('boundary', subject, limit, [...new Set(values)].join('; '));
  } else if (slice !== undefined) {
    const [subject, limit] = [asWritten(slice.subject, after.text), asWritten(slice.limit, after.text)];
    add('boundary', subject, limit, toSliceValues(subject, limit));
  } else if (
    condition !== undefined &&
    // A new line, a line that tested before, or a value made conditional (`return [content]` → `return [content] if
    // content else []`, httpx's fix): a decision either way.
    (base === undefined ||
      (before !== undefined && findCondition(before, () => []) !== undefined) ||
      isConditionalValue(condition) ||
      // A branch in place of a line that tested nothing: a bare `else:` made `elif partial is not None:` (marshmallow),
      // or a plain statement put under an `if`.
      BRANCH_KEYWORD.test(condition.keyword))
  ) {
    // `if is_private and (` → `if (` (validators' _check_private_ip): the opening bracket is no test; the operand the
    // line dropped is the question, asked like a link of a chain removed with nothing in its place.
    const opener = language === 'python' && /^\s*(?:el)?if\s*\(\s*$/.test(after.text);
    const dropped = opener && before !== undefined ? /^\s*(?:el)?if\s+(.+?)\s+(?:and|or)\s*\(\s*$/.exec(before.text)?.[1] : undefined;
    if (dropped !== undefined)
      add('condition', dropped, '', `an input that only ${excerpt(dropped)} decided before: the condition no longer tests it`);
    else if (!isSameDecision && !(opener && /^\(\s*$/.test(condition.condition.trim())) && !isOnlyNormalised(base, head, language)) {
      const presence = findPresenceSubject(condition.condition, language);
      const values = condition.isCase
        ? `a value matched by ${excerpt(condition.condition)}, and one that reaches another case`
        : presence === undefined
          ? toConditionValues(condition.condition)
          : toPresenceValues(presence, language);
      const isJoined = !after.text.includes(condition.condition);
      add('condition', condition.condition, '', values, isJoined ? `${condition.keyword}${condition.condition}` : after.text);
    }
  }
  const oldDefaults = before === undefined ? [] : findDefaults(before, language);
  // `x or []` made `x or ()` (structlog's ignores): an empty container for another, the same nothing.
  const isEmpty = (value: string): boolean => /^(?:\(\s*\)|\[\s*\]|\{\s*\}|""|''|tuple\(\)|list\(\)|dict\(\)|set\(\))$/.test(value);
  const changedDefault = findDefaults(after, language).find((found) =>
    oldDefaults.some((old) => old.subject === found.subject && old.value !== found.value && !(isEmpty(old.value) && isEmpty(found.value))),
  );
  if (changedDefault !== undefined) add('default', changedDefault.subject, changedDefault.value, changedDefault.values);
  const headRegex = REGEX_CALL[language].exec(after.text)?.[1];
  if (before !== undefined && headRegex !== undefined && headRegex !== REGEX_CALL[language].exec(before.text)?.[1]) {
    add('regex', headRegex, '', REGEX_VALUES);
  }
  if (!codeChanged) return changes;
  const membership = findMembership(after, language);
  const oldMembership = before === undefined || base === undefined ? undefined : findMembership(before, language);
  if (membership !== undefined && membership.text !== oldMembership?.text) {
    const nearMiss = language === 'python' ? 'case or type ("1" and 1)' : 'case or surrounding spaces';
    // A number counted by `range` (dateutil's `[x for x in range(3) if x not in strids.values()]`) has no case or type to miss.
    const item = membership.item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const counted = /^\d+$/.test(membership.item) || (item !== '' && new RegExp(`\\bfor\\s+${item}\\s+in\\s+range\\(`).test(after.text));
    add(
      'membership',
      membership.text,
      '',
      `${excerpt(membership.item) || 'a value'} that is in ${excerpt(membership.collection)}${counted ? ' and one that is not' : `, one that is not, and one that differs only in ${nearMiss}`}`,
    );
  }
  const normalisations = (code: string | undefined): string[] =>
    code === undefined ? [] : [...code.matchAll(NORMALISATION[language])].map((match) => match[1] ?? '');
  const oldNormalisations = new Set(normalisations(base));
  const normalisation = normalisations(head).find((method) => !oldNormalisations.has(method));
  if (normalisation !== undefined) add('normalisation', normalisation, '', getNormalisationValues(normalisation));
  const escaping = findEscapingChange(before === undefined || base === undefined ? undefined : before, after);
  if (escaping !== undefined) add('escaping', escaping.subject, escaping.was, escaping.values);
  // Go's `return err` → `return false, err`: the function gained a result, the error path returns the same error.
  const isSameReturn =
    language === 'go' && base !== undefined && toReturnedError(head) !== undefined && toReturnedError(head) === toReturnedError(base);
  if (isErrorPath(head, language) && !isSameReturn) {
    const status = findStatus(head, language);
    const old = base === undefined ? undefined : findStatus(base, language);
    const caught = language === 'python' ? findCaughtClasses(head) : undefined;
    if (caught !== undefined) {
      const values =
        caught === 'every exception'
          ? 'an input that raises here, and one that does not'
          : `an input that raises ${caught} here, and one that raises another exception (it must not be caught here)`;
      add('error-path', `the handler of ${caught}`, '', values);
    } else add('error-path', 'the error path', isErrorStatus(status) ? (status ?? '') : '', toStatusValues(status, old));
  } else if (base !== undefined && isErrorPath(base, language) && !INVARIANT_FAILURE.test(base) && !isSameReturn) {
    add('error-path', 'the removed error path', '', REMOVED_ERROR_VALUES);
  }
  if (before === undefined || base === undefined) return changes;
  const rounding = hasNewRounding(head, base, ROUNDING[language]);
  // The arithmetic of a slice bound or of a compared operand (`len(args)-1`, `curveBits%8`) is the bound's question,
  // asked once.
  const isBoundArithmetic =
    slice !== undefined || (comparison !== undefined && /[-+*/%]/.test(`${comparison.subject} ${comparison.limit}`));
  const plain = !isBoundArithmetic && !isOnlyJoined(base, head) && !isCountArithmetic(head) && !isOnlyCapacity(head, language);
  const modulus = rounding || !plain ? undefined : findNewModulus(head, base);
  const order = findSortOrder(head);
  // `self[mstridx - 1]` in place of `self[mstridx]` asks the ends of the list, not halves and negatives.
  const offset = rounding || !plain ? undefined : findNewIndexOffset(head, base, language);
  const onlyOffset = offset !== undefined && operators(withoutIndexOffsets(base)) === operators(withoutIndexOffsets(head));
  // `max(0, precision - (exponent % 3) - 1)` where the line had the bare expression: the two sides of the new bound.
  const clamp = findNewClamp(after.text, before.text);
  if (modulus !== undefined) add('remainder', `the remainder by ${modulus}`, '', getRemainderValues(modulus, language));
  else if (order !== undefined && order !== findSortOrder(base)) add('order', 'the sort order', '', ORDER_VALUES);
  else if (onlyOffset) add('boundary', offset.index, '', offset.values);
  else if (clamp !== undefined) add('boundary', clamp.subject, clamp.limit, clamp.values);
  else if (rounding || (plain && operators(base) !== operators(head) && operators(head) !== '')) {
    add('arithmetic', rounding ? 'the rounding' : 'the arithmetic', '', ROUNDING_VALUES);
  }
  return changes;
}

/** A Go zero value declared for a return: `var zero R`. */
const GO_ZERO_DECLARATION = /^var\s+([A-Za-z_]\w*)\s+[\w.*[\]]+$/;

/**
 * A Go error return that now hands back the zero value beside the same error (samber/lo's `return result, err` →
 * `var zero R` then `return zero, err`): the caller gets the zero value, not the partial result. The read case and the
 * head lines it covers; undefined when the hunk is not that.
 */
export function findZeroValueReturn(
  removed: readonly SourceLine[],
  head: readonly SourceLine[],
  newStart: number,
  newLines: number,
): { change: SemanticChange; lines: Set<number> } | undefined {
  for (let line = newStart; line < newStart + newLines; line++) {
    const name = GO_ZERO_DECLARATION.exec(head[line - 1]?.code.trim() ?? '')?.[1];
    const returned = head[line]?.code.trim() ?? '';
    if (name === undefined || !returned.startsWith(`return ${name},`)) continue;
    const now = splitTopLevel(returned.slice('return '.length), ',').map((value) => value.trim());
    for (const old of removed) {
      const code = old.code.trim();
      if (!code.startsWith('return ')) continue;
      const was = splitTopLevel(code.slice('return '.length), ',').map((value) => value.trim());
      if (was.length !== now.length || was.at(-1) !== now.at(-1) || was[0] === name) continue;
      const value = was[0] ?? '';
      return {
        lines: new Set([line, line + 1]),
        change: {
          kind: 'read',
          line: line + 1,
          before: excerpt(code),
          after: excerpt(returned),
          subject: name,
          limit: value,
          values: `a failure (${now.at(-1)} not nil) after ${value} holds a partial value`,
        },
      };
    }
  }
  return undefined;
}

/** A Go `make` given a capacity: `make(Slice, 0, initialSize-len(indexes))`. */
const GO_MAKE_CAPACITY = /\bmake\(\s*[^,()]+,\s*[^,()]+,\s*([^()]*(?:\([^()]*\)[^()]*)*)\)/;

/**
 * A Go line whose arithmetic is all in a `make` capacity (samber/lo's `make(Slice, 0, initialSize-len(indexes))`): a
 * hint of how much to allocate, which changes no result.
 */
function isOnlyCapacity(head: string, language: PythonOrGo): boolean {
  if (language !== 'go') return false;
  const capacity = GO_MAKE_CAPACITY.exec(head);
  return capacity !== null && operators(head.replace(capacity[0], 'make()')) === '';
}

/** Zero values a Go return puts beside its error: `nil`, `false`, `0`, `""`, an empty composite (`T{}`). */
const GO_ZERO_VALUE = /^(?:nil|false|0|""|[\w.*[\]]*\{\})$/;

/** What a Go `return` hands back besides its zero values (`return false, err` → `err`); undefined for another line. */
function toReturnedError(code: string): string | undefined {
  const returned = /^return\s+(.+)$/.exec(code.trim())?.[1];
  if (returned === undefined) return undefined;
  const values = splitTopLevel(returned, ',').map((value) => value.trim());
  const kept = values.filter((value) => !GO_ZERO_VALUE.test(value));
  return kept.length === 0 ? undefined : kept.join(', ');
}

/**
 * A failed invariant (`raise AssertionError("Will never reach here")` below a loop that always returns, rich's
 * segment.py): no input was refused there, so its removal leaves no input "that used to fail here" to ask about.
 */
const INVARIANT_FAILURE = /^\s*raise\s+AssertionError\b/;

/** How Python or Go code is read for its decisions. */
export function createPythonOrGoSyntax(language: PythonOrGo): HunkSyntax {
  const declaration = language === 'python' ? PYTHON_DECLARATION : GO_DECLARATION;
  return {
    readLines: (text) => readLines(text, language),
    toCode: (text) => scanLine(text, language, { isBlockComment: false, brackets: [] }).code,
    isErrorPath: (code) => isErrorPath(code, language),
    keywords: KEYWORDS[language],
    findCondition: (line) =>
      line.isComment ? undefined : (language === 'python' ? findPythonCondition : findGoCondition)(line, () => [])?.condition,
    findDeclaration: (line) => {
      const match = line.isComment ? null : declaration.exec(line.text);
      return match?.[1] !== undefined && match[2] !== undefined ? [match[1], match[2]] : undefined;
    },
    ...(language === 'go' ? { findHeaderDeclarations: findGoHeaderDeclarations } : {}),
    classify: (before, after, line, following, isOldLogic) => classifyPair(before, after, line, following, isOldLogic, language),
  };
}
