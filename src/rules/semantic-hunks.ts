import { builtinModules } from 'node:module';
import { canonicalRegexLiteral, describeClassChange } from './regex-canonical.js';
import { blankBlockComments } from '../text/block-comments.js';
import type { Hunk } from '../model/change.js';
import type { SourceLanguage } from '../model/facts.js';
import { createPythonOrGoSyntax, findZeroValueReturn } from './semantic-languages.js';
import { COMPLEMENT, isInvertedGuard, isMovedTest, isUnwrappedGuard, readIfTest, toEmptinessForm } from './inverted-guard.js';
import { createOldLogicCheck, isWrappedInList } from './semantic-logic.js';
import { classifyValidation, importsSchemaLibrary } from './semantic-validation.js';
import { isChainLink, joinChainAbove, joinChainBelow } from './chain-links.js';
import {
  COMPARISON_OPERATORS,
  excerpt,
  excerptPair,
  type HunkSyntax,
  findChangedComparison,
  type Loop,
  MAX_CONDITION_LINES,
  findEscapingChange,
  getNormalisationValues,
  listEscapings,
  REMOVED_ESCAPING,
  neighbours,
  REGEX_VALUES,
  REMOVED_ERROR_VALUES,
  FINALLY_VALUES,
  CATCH_VALUES,
  ROUNDING_VALUES,
  findNewClamp,
  findNewIndexOffset,
  findNewModulus,
  findSortOrder,
  getRemainderValues,
  ORDER_VALUES,
  hasNewRounding,
  isUnsetProperty,
  type SemanticChange,
  type SemanticKind,
  type SourceLine,
  toConditionValues,
  toStatusValues,
  withoutBrace,
  withoutIndexOffsets,
  asWritten,
} from './semantic-text.js';

export type { SemanticChange } from './semantic-text.js';

const MAX_CHANGES = 40;
/** How far apart (in base lines) two hunks are read as one rewrite when a return's old value is looked for. */
const NEAR_HUNK_LINES = 12;
/** Node's own modules, without the `node:` scheme: a name bound to one is the runtime's (findRuntimeModuleNames). */
const NODE_MODULES: ReadonlySet<string> = new Set(builtinModules.map((name) => name.replace(/^node:/, '')));
/** A removed line at least this long that comes back word for word was moved; `}` or `return;` are everywhere. */
const MIN_MOVED_TEXT = 12;
/** A rethrow this many lines below its catch is still that catch's (a catch block that tests the error first). */
const MAX_CATCH_LINES = 12;
const CATCH_BINDING = /\bcatch\s*\(\s*([A-Za-z_$][\w$]*)/;
const collapseSpaces = (text: string): string => text.replace(/\s+/g, ' ').trim();
/** A line that only opens a catch block: `} catch {`, `} catch (error) {`. */
const CATCH_OPENER = /^\s*\}?\s*catch\s*(?:\([^()]*\))?\s*\{\s*$/;
/**
 * A line as a move compares it: spaces collapsed, and the brackets that close what came before it dropped, so a call
 * chain reformatted (`).catch((error) => {` → `.catch((error) => {` on a line of its own) is the same line.
 */
const toMovedText = (text: string): string => collapseSpaces(text).replace(/^[)\]}\s]+/, '');
const withoutSemicolon = (text: string): string => text.replace(/;\s*$/, '');
/** The validation change of two lines, each read as the whole chain it starts (joinChainBelow). */
function classifyChains(before: SourceLine | undefined, after: SourceLine | undefined, line: number): SemanticChange | undefined {
  return after === undefined ? undefined : classifyValidation(before?.raw, after.raw, before?.code, after.code, line);
}
/** A line as a chain's link compares it: spaces collapsed, `?.` read as `.`. */
const toPlainText = (text: string): string => collapseSpaces(text).replace(/\?\./g, '.');
const OPERAND = String.raw`-?\d+(?:\.\d+)?\b|[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*|\(\))*`;
const COMPARISONS = new RegExp(String.raw`(${OPERAND}|\))(\s*)(${COMPARISON_OPERATORS})(\s*)(${OPERAND})`, 'g');
/** Operands that make a presence or type check (`x !== undefined`), not a boundary. */
const NOT_A_LIMIT = /^(?:undefined|null|true|false|NaN|typeof)$/;
const JS_COMPARISONS = { comparisons: COMPARISONS, notALimit: NOT_A_LIMIT };
const DEFAULT_PARAM = /([A-Za-z_$][\w$]*)\s*(?::\s*[\w$<>[\]|. ]+)?\s*=\s*([^,)=>][^,)]*?)\s*[,)]/;
const FALLBACK = /(\?\?|\|\|)\s*([^;,)]+)/;
// A ternary's `?` is neither `?.` nor either mark of `??`, and its first branch may read a member (ufo's
// `s0.endsWith("/") ? s0.slice(0, -1) : s0`); an optional field's `?:` has no branch.
// The line's own arrow, given to a key or a name, whose expression body joins tests is a predicate (meow's
// `filter: ([, flag]) => flag.default && …`); an arrow passed to a call (`every((c) => c >= '0' && …)`) is not the line's.
const OWN_ARROW =
  /^\s*(?:[A-Za-z_$][\w$]*\s*:|(?:(?:export\s+)?(?:const|let|var)\s+)?[A-Za-z_$][\w$.]*\s*=)\s*(?:async\s+)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>\s*(?!\{)/;
const CONDITION = new RegExp(
  `^\\s*(?:\\}\\s*)?(?:else\\s+)?(?:if|while)\\s*\\(|(?<!\\?)\\?(?![.?])[^?:]+:|^\\s*return\\b.*(?:\\bif\\b|&&|\\|\\|)|\\{\\s*return\\b[^}]*(?:&&|\\|\\|)|${OWN_ARROW.source}[^;{)]*(?:&&|\\|\\|)`,
);
/**
 * A throw, catch or rejection, or an HTTP error status: Express/Fastify `res.status(4xx)`, `reply.code(5xx)`,
 * `sendStatus`, Hono `c.json(body, 400)`, `ctx.body(null, 500)`, `{ status: 404 }`, Node's `res.writeHead(400)` (and
 * uWebSockets.js's `res.writeStatus("400 Bad Request")`, read as written: WRITTEN_STATUS).
 */
const STATUS = /\b([45]\d\d)\b/;
const WRITTEN_STATUS = /\.writeStatus\(\s*["'`]([45]\d\d)\b/;
const ERROR_PATH =
  /\bthrow\b|\bcatch\s*[({]|\.catch\(|\breject\(|\bnew\s+\w*(?:Error|Exception)\(|\.status\(\s*[45]\d\d|\.code\(\s*[45]\d\d|\bsendStatus\(\s*[45]\d\d|\.writeHead\(\s*[45]\d\d|\.(?:body|json|text|html|newResponse)\(.*,\s*[45]\d\d\s*[,)]|\bstatus(?:Code)?\s*[:=]\s*[45]\d\d\b/;
/** The first characters of the first string a line (or the line after it) holds, up to an interpolation: a message's start. */
function readMessageStart(line: string, next: string | undefined): string | undefined {
  for (const text of [line, next ?? '']) {
    const literal = /(['"`])((?:\\.|(?!\1).)*?)(?:\1|\$\{)/.exec(text)?.[2];
    if (literal !== undefined && literal.trim() !== '') return literal.trim().slice(0, 16);
  }
  return undefined;
}

/** The error a line makes: `new XError(` or `new XException(`, or a factory thrown by name (`throw InvalidRequestError(`). */
const MADE_ERROR = /(?:\bthrow\s+(?:new\s+)?|\bnew\s+(?=\w*(?:Error|Exception)\s*\())([A-Z][\w$]*)\s*\(/;
/**
 * `} finally {`: what runs however the try block ends. (A promise's `.finally(` added to a chain is its cleanup on
 * every outcome, most often a release after success; msw's `.finally(() => controller.abort())` asked nothing.)
 */
const FINALLY = /(?:^|[};]\s*)finally\s*\{/;
const REGEX = /(?:^|[=(,:!&|?{};\s])\/((?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n[])+)\/([dgimsuyv]*)|new\s+RegExp\(([^)]*)\)/;
const ROUNDING = /\bMath\.(?:round|floor|ceil|trunc)\(|\.toFixed\(|\.toPrecision\(|\b(?:round|floor|ceil)\w*\(/;
/** An operator between two operands; the operands are looked at, not taken, so `a % 2 + b` yields both `%` and `+`. */
const ARITHMETIC = /(?<=[\w)\]]\s*)([-+*/%])(?=\s*[\w(])/g;
/** `x ??= y`, `x ||= y`: a default given in place; `x &&= f(x)`: a value transformed when present. */
const SELF_FALLBACK = /([A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*)\s*=\s*\1\s*(\|\||\?\?)\s*([^;]+)/;
const LOGICAL_ASSIGNMENT = /([A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*)\s*(\?\?=|\|\|=|&&=)\s*([^;]+)/;
/** A membership test: `list.includes(x)`, `set.has(x)`, `key in object`, `list.indexOf(x) !== -1`. */
const MEMBERSHIP =
  /([A-Za-z_$][\w$.]*(?:\([^()]*\))?)\.(includes|has|indexOf)\(([^()]*(?:\([^()]*\))?[^()]*)\)|(\S+)\s+in\s+([A-Za-z_$][\w$.]*)/;
/** A first argument that is a string literal holding more than a plain word (`"\\n"`, `"<table"`): a piece of text. */
const TEXT_PIECE = /^\s*(['"`])(?:(?!\1)[\w-])*[^\w\s-](?:(?!\1).)*\1/;
/** Lines above an option flag read for the object it sits in. */
const FLAG_CONTEXT_LINES = 6;
/** How far above a `+` its operands' declarations are looked for, to tell joined text from a sum. */
const STRING_DECLARATION_LINES = 20;
/**
 * A value that is text (the code form, strings emptied): one that opens with a string, joins one with `+`, or a
 * ternary with a string branch (`params ? str.rawValue(node, 'params') : ''`).
 */
const STRING_VALUE = /^""|""\s*\+|\+\s*""|[?:]\s*""\s*;?\s*$/;
/** A path the node:path module makes (`path.resolve(dir)`, `path.join(a, b)`): text, whatever it is joined with. */
const PATH_TEXT = /^path\.(?:join|resolve|normalize|relative|dirname|basename|extname|format)\s*\(/;
/** An ORM include: `include: [`, `{ model: Document,` or `association:`. */
const INCLUDE_OBJECT = /\binclude\s*:|\bmodel\s*:|\bassociation\s*:/;
const INCLUDE_REQUIRED_VALUES =
  "a row whose associated record is missing, or filtered out by the include's where (required: true makes the include an inner join that drops the row), and one whose record is there";
/** Text normalised before it is compared or stored. */
const NORMALISATION = /\.(toLowerCase|toUpperCase|toLocaleLowerCase|toLocaleUpperCase|trim|trimStart|trimEnd|normalize)\(/;
/**
 * Option flags of library calls whose value changes behaviour on an input the happy path never sends: an unknown id,
 * a duplicate, a field that is not in the schema, a record soft-deleted.
 */
const OPTION_FLAG =
  /\b(rejectOnEmpty|strict|upsert|paranoid|required|nullable|optional|unique|cascade|overwrite|force|throwHttpErrors|followRedirect|allowUnknown|stripUnknown|ignoreDuplicates|returning|validate|preventAbort|preventCancel|preventClose)\s*:\s*(true|false|'[^']*'|"[^"]*"|\d+)/g;
const FLAG_VALUES: Record<string, string> = {
  rejectOnEmpty: 'an id that matches no record (a 404 or a clear error, not an empty success)',
  strict: 'input with a field the schema does not declare, and input of the wrong type',
  upsert: 'a record that does not exist yet and one that does',
  paranoid: 'a soft-deleted record, read and counted',
  required: 'a request without the field, and with it empty',
  nullable: 'the field set to null, and left out',
  optional: 'the field left out, and set to undefined',
  unique: 'a second record with the same value',
  cascade: 'a parent deleted while it still has children',
  ignoreDuplicates: 'the same record inserted twice',
  allowUnknown: 'input with a field the schema does not declare',
  stripUnknown: 'input with a field the schema does not declare (is it dropped or kept?)',
  throwHttpErrors: 'a response with status 404 and one with 500',
  followRedirect: 'a response that redirects (301, 302 and 307)',
  // A stream's pipeTo: what an error or an end on one side does to the other.
  preventAbort: 'a source stream that errors while piping (is the destination aborted, or left writable?)',
  preventCancel: 'a destination stream that errors while piping (is the source cancelled, or left readable?)',
  preventClose: 'a source stream that ends (is the destination closed, or left open for more?)',
};

/**
 * What makes an object answer only for its own keys: made without a prototype, or asked with an own-key test (hono's
 * query, header and param records made `Object.create(null)` where they were `{}`).
 */
const OWN_KEYS =
  /\bObject\.create\(\s*null\s*\)|\bObject\.setPrototypeOf\([^,()]+,\s*null\s*\)|\bObject\.hasOwn\(|\.hasOwnProperty(?:\.call)?\(/g;
const PROTOTYPE_VALUES = 'a key named __proto__, one named constructor, and one named toString';

/**
 * The own-key construct a replaced line has and the line it replaced had not (`{}` → `Object.create(null)`, `key in
 * obj` → `Object.hasOwn(obj, key)`): keys an object inherits (`__proto__`, `constructor`, `toString`) are now answered
 * otherwise. Never for a line new to the file.
 */
function findPrototypeChange(base: string | undefined, head: string): string | undefined {
  if (base === undefined) return undefined;
  const spaced = (text: string): string[] => (text.match(OWN_KEYS) ?? []).map((match) => match.replace(/\s+/g, ''));
  const before = new Set(spaced(base));
  return spaced(head).find((construct) => !before.has(construct));
}

const ASSIGN_COPY = /\bObject\.assign\(\s*\{\s*\}\s*,\s*([^()]+?)\s*\)/;
const SPREAD_COPY = /\{\s*\.\.\.\s*([^{},()]+?)\s*\}/;

/**
 * A copy made by `Object.assign({}, source)` replaced by `{ ...source }` of the same source, or the reverse (defu's
 * prototype pollution fix): assign sets an own `__proto__` key of the source through the setter, changing the copy's
 * prototype; spread defines it as an ordinary key. The copy written as it is now, or undefined.
 */
function findCopyChange(base: string | undefined, head: string): string | undefined {
  if (base === undefined) return undefined;
  const assigned = ASSIGN_COPY.exec(base)?.[1];
  const spread = SPREAD_COPY.exec(head);
  if (assigned !== undefined && spread?.[1]?.trim() === assigned.trim() && !ASSIGN_COPY.test(head)) return spread[0];
  const spreadBase = SPREAD_COPY.exec(base)?.[1];
  const assignedHead = ASSIGN_COPY.exec(head);
  if (spreadBase !== undefined && assignedHead?.[1]?.trim() === spreadBase.trim() && !SPREAD_COPY.test(head)) return assignedHead[0];
  return undefined;
}

const FOR_IN = /\bfor\s*\(\s*(?:const|let|var)\s+[\w$]+\s+in\s+(.+?)\s*\)\s*\{?\s*$/;
const OWN_KEY_LIST = /\bObject\.(?:keys|entries|getOwnPropertyNames)\(\s*([^()]+?)\s*\)/;

/**
 * A `for…in` over an object replaced by a loop over `Object.keys`, `Object.entries` or `Object.getOwnPropertyNames` of
 * the same object, or the reverse (defu's `for (const key in baseObject)` → `for (const key of
 * Object.keys(baseObject as Record<string, any>))`): keys the object inherits are no longer listed, or now are.
 */
function findOwnKeysChange(base: string | undefined, head: string): { object: string; ownOnly: boolean } | undefined {
  if (base === undefined) return undefined;
  const bare = (object: string): string =>
    object
      .replace(/\s+as\s+.+$/, '')
      .replace(/^\((.+)\)$/, '$1')
      .trim();
  const inBase = FOR_IN.exec(base)?.[1];
  const listedHead = OWN_KEY_LIST.exec(head)?.[1];
  if (inBase !== undefined && listedHead !== undefined && bare(inBase) === bare(listedHead) && !FOR_IN.test(head))
    return { object: bare(inBase), ownOnly: true };
  const inHead = FOR_IN.exec(head)?.[1];
  const listedBase = OWN_KEY_LIST.exec(base)?.[1];
  if (inHead !== undefined && listedBase !== undefined && bare(inHead) === bare(listedBase) && !OWN_KEY_LIST.test(head))
    return { object: bare(inHead), ownOnly: false };
  return undefined;
}

/** A token of a line as written: a name, a number, a string, or one operator or bracket, with where it stands. */
const READ_TOKEN =
  /\/\/.*$|\/\*.*?\*\/|[A-Za-z_$][\w$]*|\d[\w.]*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`|\?\.|\.\.\.|=>|[^\s\w]/g;
const NAME = /^[A-Za-z_$][\w$]*$/;
const LITERAL = /^(?:\d|["'`])/;
/** Calls whose arguments are only shown (`logger.debug(user.name)` → `logger.debug(user.id)` changes no behaviour). */
const LOGGING_CALLEE = /^(?:console|log|logger|debug|info|warn|trace|print|printf)$/i;
/** Type positions and module lines, where a changed name is a type or a specifier, not a value read. */
const NOT_A_READ_LINE = /^\s*(?:import\b|export\s+(?:type\b|\{[^}]*\}\s*from\b|\*)|type\s|interface\s|declare\s)/;

interface ReadToken {
  text: string;
  start: number;
  end: number;
}

/**
 * A line that reads the same properties from another object, everything else as it was: node-fetch's
 * `if (options.protocol === 'data:')` → `if (parsedURL.protocol === 'data:')` (one name replaced by another wherever
 * it is the root of a property read). Returns the first read as written on each side.
 */
function findSwappedObject(before: string, after: string): { read: string; was: string } | undefined {
  if (NOT_A_READ_LINE.test(before) || NOT_A_READ_LINE.test(after)) return undefined;
  const old = readTokens(before);
  const now = readTokens(after);
  if (old.length !== now.length) return undefined;
  let swap: { from: string; to: string; at: number } | undefined;
  for (let index = 0; index < old.length; index++) {
    const was = old[index]?.text ?? '';
    const read = now[index]?.text ?? '';
    if (was === read) continue;
    const rootRead =
      NAME.test(was) &&
      NAME.test(read) &&
      ['.', '?.'].includes(now[index + 1]?.text ?? '') &&
      NAME.test(now[index + 2]?.text ?? '') &&
      !['.', '?.'].includes(now[index - 1]?.text ?? '');
    if (!rootRead || (swap !== undefined && (swap.from !== was || swap.to !== read))) return undefined;
    swap ??= { from: was, to: read, at: index };
  }
  if (swap === undefined) return undefined;
  const property = `${now[swap.at + 1]?.text ?? '.'}${now[swap.at + 2]?.text ?? ''}`;
  return { read: `${swap.to}${property}`, was: `${swap.from}${property}` };
}

/** The tokens of a line's code: a block comment is passed over, a line comment ends it. */
function readTokens(text: string): ReadToken[] {
  const tokens: ReadToken[] = [];
  for (const match of text.matchAll(READ_TOKEN)) {
    if (match[0].startsWith('//')) break;
    if (!match[0].startsWith('/*')) tokens.push({ text: match[0], start: match.index, end: match.index + match[0].length });
  }
  return tokens;
}

/** Whether the tokens hold no top-level comma and their brackets balance: one argument of a call. */
function isOneArgument(tokens: readonly ReadToken[]): boolean {
  let depth = 0;
  for (const { text } of tokens) {
    if (text === '(' || text === '[' || text === '{') depth += 1;
    else if (text === ')' || text === ']' || text === '}') depth -= 1;
    else if (text === ',' && depth === 0) return false;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** Whether the bracketed list that holds token `at` is a parameter list: `function`/`constructor` before it, `{`, `=>` or `:` after. */
function isDefinition(tokens: readonly ReadToken[], at: number): boolean {
  let open = at;
  for (let depth = 0; open >= 0; open--) {
    const text = tokens[open]?.text ?? '';
    if (text === ')' || text === ']') depth += 1;
    else if (text === '(' || text === '[') {
      if (depth === 0) break;
      depth -= 1;
    }
  }
  let close = at;
  for (let depth = 0; close < tokens.length; close++) {
    const text = tokens[close]?.text ?? '';
    if (text === '(' || text === '[') depth += 1;
    else if (text === ')' || text === ']') {
      if (depth === 0) break;
      depth -= 1;
    }
  }
  const before = [tokens[open - 1]?.text, tokens[open - 2]?.text];
  const after = tokens[close + 1]?.text;
  return before.includes('function') || before[0] === 'constructor' || after === '{' || after === '=>' || after === ':';
}

/** The callee of the call whose argument list opens at `open` (a `(` token): `persist`, `callback?.` → callback. */
function findCallee(tokens: readonly ReadToken[], open: number): string | undefined {
  let depth = 0;
  for (let index = open; index >= 0; index--) {
    const text = tokens[index]?.text ?? '';
    if (text === ')' || text === ']') depth += 1;
    else if (text === '(' || text === '[') {
      if (depth === 0) {
        // An element of an array literal (`return [regexp, handlerMap]`) is passed to nothing.
        if (text === '[') return undefined;
        const before = tokens[index - 1]?.text === '?.' ? tokens[index - 2] : tokens[index - 1];
        return before !== undefined && NAME.test(before.text) ? before.text : undefined;
      }
      depth -= 1;
    }
  }
  return undefined;
}

/**
 * A value read from elsewhere, on a line that is otherwise the same: a property read renamed (`url.path` →
 * `url.pathname`, the last property of its chain), or one whole argument of a call replaced (`callback(stateFromStorage, error)` →
 * `callback(get(), error)`). What was read and what is read now: they differ on some input, and a test must show
 * which the fix meant. A call to another method (`.some(` → `.every(`), an added argument, a literal for a literal
 * and a logging call are other questions or none.
 */
function findReplacedRead(before: string, after: string): { read: string; was: string; callee?: string } | undefined {
  if (NOT_A_READ_LINE.test(before) || NOT_A_READ_LINE.test(after)) return undefined;
  const old = readTokens(before);
  const now = readTokens(after);
  let prefix = 0;
  while (prefix < old.length && prefix < now.length && old[prefix]?.text === now[prefix]?.text) prefix++;
  let suffix = 0;
  while (
    suffix < old.length - prefix &&
    suffix < now.length - prefix &&
    old[old.length - 1 - suffix]?.text === now[now.length - 1 - suffix]?.text
  )
    suffix++;
  const wasSpan = old.slice(prefix, old.length - suffix);
  const readSpan = now.slice(prefix, now.length - suffix);
  if (wasSpan.length === 0 || readSpan.length === 0) return undefined;
  const previous = now[prefix - 1]?.text;
  const next = now[now.length - suffix]?.text;
  const textOf = (line: string, span: readonly ReadToken[]): string => line.slice(span[0]?.start ?? 0, span.at(-1)?.end ?? 0);
  if ((previous === '.' || previous === '?.') && wasSpan.length === 1 && readSpan.length === 1) {
    const [was, read] = [wasSpan[0]?.text ?? '', readSpan[0]?.text ?? ''];
    // The value read is the chain's last property: one on the way (`req.connection.remoteAddress` →
    // `req.socket.remoteAddress`) reaches the same value through an alias more often than not, and a method called is
    // another function, not another value.
    if (!NAME.test(was) || !NAME.test(read) || ['(', '.', '?.', '[', '!.'].includes(next ?? '')) return undefined;
    // Only shown: `logger.debug(user.name)` → `logger.debug(user.id)`.
    const shownBy = findCallee(now, prefix - 1);
    if (shownBy !== undefined && LOGGING_CALLEE.test(shownBy)) return undefined;
    // The object the property is read from, as written: `ctx.request.url` for `.url`.
    let start = prefix - 1;
    while (start > 0 && NAME.test(now[start - 1]?.text ?? '') && ['.', '?.'].includes(now[start - 2]?.text ?? '')) start -= 2;
    const objectStart = start > 0 && NAME.test(now[start - 1]?.text ?? '') ? start - 1 : start;
    const object = after.slice(now[objectStart]?.start ?? 0, now[prefix - 1]?.end ?? 0);
    return { read: `${object}${read}`, was: `${object}${was}` };
  }
  if ((previous === '(' || previous === ',') && (next === ')' || next === ',')) {
    if (!isOneArgument(wasSpan) || !isOneArgument(readSpan)) return undefined;
    // A parameter list (`constructor(private reviver?: Reviver)` → `constructor(opts?: Options)`) declares, it passes
    // nothing: a type annotation in the argument, or a body or arrow after the list.
    if ([...wasSpan, ...readSpan].some((token) => token.text === ':') || isDefinition(now, prefix - 1)) return undefined;
    if (wasSpan.every((token) => LITERAL.test(token.text)) && readSpan.every((token) => LITERAL.test(token.text))) return undefined;
    // An array or object written in place reads no value of its own (jotai's `atom([() => {}, 0] as […])` → `atom(0)`).
    if ([wasSpan, readSpan].some((span) => span[0]?.text === '[' || span[0]?.text === '{')) return undefined;
    // The argument list this one stands in: its `(` is the nearest open bracket before the argument.
    const callee = findCallee(now, prefix - 1);
    if (callee === undefined || LOGGING_CALLEE.test(callee)) return undefined;
    return { read: textOf(after, readSpan), was: textOf(before, wasSpan), callee };
  }
  return undefined;
}

/** Words that declare the name after them. */
const DECLARING = new Set(['const', 'let', 'var', 'function', 'class']);

/**
 * A binding renamed where it is declared, the line otherwise the same (`forEach((query) =>` → `forEach((queryOptions) =>`,
 * `const user =` → `const member =`): the old name and the new, or undefined.
 */
function findRenamedBinding(before: string, after: string): { was: string; now: string } | undefined {
  const old = readTokens(before);
  const now = readTokens(after);
  if (old.length !== now.length) return undefined;
  const differing = now.flatMap((token, index) => (token.text === old[index]?.text ? [] : [index]));
  const [at] = differing;
  if (differing.length !== 1 || at === undefined) return undefined;
  const [was, name] = [old[at]?.text ?? '', now[at]?.text ?? ''];
  if (!NAME.test(was) || !NAME.test(name) || ['.', '?.'].includes(now[at - 1]?.text ?? '')) return undefined;
  const declares = DECLARING.has(now[at - 1]?.text ?? '') || now[at + 1]?.text === '=>' || isDefinition(now, at);
  return declares ? { was, now: name } : undefined;
}

/** A loop's binding: Python's `for name in …`, JavaScript's `for (const name of …)` (or `in`). */
const LOOP_BINDING = /^\s*(?:for\s+([A-Za-z_]\w*)\s+in\b|for\s*\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s+(?:of|in)\b)/;

/** The loop variable a hunk renamed: the one name its removed loops bind and its added loops do not, and the reverse. */
function findRenamedLoopBinding(removed: readonly SourceLine[], added: readonly SourceLine[]): { was: string; now: string } | undefined {
  const bindings = (lines: readonly SourceLine[]): Set<string> =>
    new Set(
      lines.flatMap((line) => {
        const match = line.isComment ? null : LOOP_BINDING.exec(line.code);
        const name = match?.[1] ?? match?.[2];
        return name === undefined ? [] : [name];
      }),
    );
  const old = bindings(removed);
  const now = bindings(added);
  const gone = [...old].filter((name) => !now.has(name));
  const fresh = [...now].filter((name) => !old.has(name));
  const [was] = gone;
  const [name] = fresh;
  return gone.length === 1 && fresh.length === 1 && was !== undefined && name !== undefined ? { was, now: name } : undefined;
}

/** A Go range over a collection: `for _, item := range collection {`, `for i := range collection {`. */
const GO_RANGE = /^for\s+([A-Za-z_]\w*)(?:\s*,\s*([A-Za-z_]\w*))?\s*:=\s*range\s+([\w.]+)\s*\{$/;

/**
 * A Go range whose value binding the hunk dropped for an index read (samber/lo's `for _, item := range collection`
 * became `for i := range collection`, and `predicate(item)` became `predicate(collection[i])`): the same element.
 */
function findRangeValueAsIndex(removed: readonly SourceLine[], added: readonly SourceLine[]): { was: string; now: string } | undefined {
  for (const old of removed) {
    const was = GO_RANGE.exec(old.code.trim());
    const value = was?.[2];
    if (was === null || value === undefined || value === '_') continue;
    for (const line of added) {
      const now = GO_RANGE.exec(line.code.trim());
      const index = now?.[1];
      if (now === null || now[2] !== undefined || now[3] !== was[3] || index === undefined || index === '_') continue;
      return { was: value, now: `${was[3]}[${index}]` };
    }
  }
  return undefined;
}

/** Whether a line of code reads `chain` whole (`options.throwOnError`, not `options.throwOnErrorLater` or `x.options…`). */
function readsChain(code: string, chain: string): boolean {
  return new RegExp(`(?<![\\w$.])${chain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`).test(code);
}

/**
 * A link of a multi-line `&&`/`||` chain that a hunk removed and replaced with nothing (`!this.#combinedResult ||`
 * dropped from an `if`): the condition no longer tests it, so an input it alone decided takes the other branch now.
 * Not when an added line of the change still tests it (moved into a name or another chain). One per hunk.
 */
function findDroppedOperand(removed: readonly SourceLine[], line: number, added: readonly SourceLine[]): SemanticChange | undefined {
  const code = removed.filter((entry) => !entry.isComment && entry.code.trim() !== '');
  if (code.length !== 1 || code[0] === undefined) return undefined;
  const [only] = code;
  const operand = findOperand(only.code) === undefined ? undefined : findOperand(only.text);
  if (operand === undefined || !/[\w$]/.test(operand) || added.some((entry) => toPlainText(entry.text).includes(toPlainText(operand))))
    return undefined;
  return {
    kind: 'condition',
    line,
    before: excerpt(only.raw.trim()),
    after: '',
    subject: excerpt(operand),
    limit: '',
    values: `an input that only ${excerpt(operand)} decided before: the condition no longer tests it`,
  };
}

/** A line that only opens or closes a block: braces with `try`, `else`, `finally` or `do`, nothing else. */
const BLOCK_STRUCTURE = /^(?=.*\S)\s*\}?\s*(?:try|else|finally|do)?\s*\{?\s*\}?\s*;?\s*$/;

/** `key: value,` on a line of its own in an object literal. */
const PROPERTY_LINE = /^(\s*)([A-Za-z_$][\w$]*)\s*:\s*(.+?),?\s*$/;
/** `...source,` on a line of its own. */
const SPREAD_LINE = /^(\s*)\.\.\.(.+?),?\s*$/;

/**
 * The spread at the key's indent within its object, looking from `index` in `direction` (-1 up, 1 down) until a line
 * indented less (the object's edge).
 */
function findSpreadBeside(lines: readonly SourceLine[], index: number, indent: string, direction: -1 | 1): string | undefined {
  for (let at = index + direction; at >= 0 && at < lines.length; at += direction) {
    const text = lines[at]?.code ?? '';
    if (text.trim() === '') continue;
    const lead = /^\s*/.exec(text)?.[0] ?? '';
    if (lead.length < indent.length) return undefined;
    if (lead.length > indent.length) continue;
    const spread = SPREAD_LINE.exec(text);
    if (spread !== null) return spread[2];
  }
  return undefined;
}

/**
 * A property the hunk moved, word for word, from after a spread of its object literal to before it (medusa moved
 * `transactionId: ulid(),` above `...sharedContext,`): the spread's value of that key now wins, and the moved value is
 * only a default. A default case, with an input whose spread holds the key and one whose spread does not.
 */
function findYieldedKey(
  base: readonly SourceLine[],
  head: readonly SourceLine[],
  removedAtByText: () => ReadonlyMap<string, number>,
  line: number,
): SemanticChange | undefined {
  const property = PROPERTY_LINE.exec(head[line - 1]?.code ?? '');
  if (property === null) return undefined;
  const [, indent = '', key = '', value = ''] = property;
  const removedAt = removedAtByText().get(toMovedText(head[line - 1]?.text ?? ''));
  if (removedAt === undefined) return undefined;
  const spreadBelow = findSpreadBeside(head, line - 1, indent, 1);
  const spreadAbove = findSpreadBeside(base, removedAt, indent, -1);
  if (spreadBelow === undefined || spreadBelow !== spreadAbove) return undefined;
  return {
    kind: 'default',
    line,
    // The order is the edit: the key after the spread, then before it.
    before: excerpt(`...${spreadBelow}, ${key}: ${value}`),
    after: excerpt(`${key}: ${value}, ...${spreadBelow}`),
    subject: key,
    limit: excerpt(value),
    values: `a ${excerpt(spreadBelow)} that holds ${key} (its value now wins over ${excerpt(value)}) and one that does not`,
  };
}

/** A value a default option is set to: a number, a string without escapes, a boolean, null, Infinity or undefined. */
const OPTION_VALUE = /^(?:-?\d[\d_]*(?:\.\d+)?(?:\s*[*]\s*\d[\d_]*)*|'[^'\\]*'|"[^"\\]*"|true|false|null|undefined|-?Infinity)$/;
/** The declaration that opens an object of defaults: `const DEFAULT_OPTIONS = {`, `static defaults = {`, `defaults: {`. */
const DEFAULTS_OBJECT =
  /^\s*(?:(?:export\s+)?(?:const|let|var)\s+|static\s+|this\.)?([A-Za-z_$][\w$]*)\s*(?::\s*[^=]+)?(?:=|:)\s*(?:Object\.freeze\(\s*)?\{\s*$/;
/** How far above a property its object's opening line is looked for. */
const MAX_DEFAULTS_DISTANCE = 60;

/**
 * A default option's value changed in place (formidable's `DEFAULT_OPTIONS` gave `maxFiles: Infinity`, now `1000`):
 * every caller that leaves the option out now gets the new value. The property's object must be named for defaults
 * (`DEFAULT_OPTIONS`, `defaults`, `defaultConfig`), and both values literals.
 */
function findDefaultOption(before: SourceLine, after: SourceLine, head: readonly SourceLine[], line: number): SemanticChange | undefined {
  const old = PROPERTY_LINE.exec(withoutLineComment(before.raw));
  const now = PROPERTY_LINE.exec(withoutLineComment(after.raw));
  if (old === null || now === null || old[2] !== now[2] || old[1] !== now[1]) return undefined;
  const [was, value] = [(old[3] ?? '').trim(), (now[3] ?? '').trim()];
  if (was === value || !OPTION_VALUE.test(was) || !OPTION_VALUE.test(value)) return undefined;
  const indent = now[1] ?? '';
  for (let at = line - 2; at >= Math.max(0, line - 1 - MAX_DEFAULTS_DISTANCE); at--) {
    const entry = head[at];
    if (entry === undefined || entry.isComment || entry.code.trim() === '') continue;
    const lead = /^\s*/.exec(entry.raw)?.[0] ?? '';
    if (lead.length >= indent.length) continue;
    const opened = DEFAULTS_OBJECT.exec(entry.code)?.[1];
    if (opened === undefined || !/default/i.test(opened)) return undefined;
    const key = now[2] ?? '';
    const values = `a call that leaves ${key} out (now ${value}, ${was} before), one at the new value and one past it, and one that sets it`;
    return toReplacedDefault(before, after, line, key, value, values);
  }
  return undefined;
}

/** A default a line replaced in place: the two lines as written, what now stands in, and the values to try. */
function toReplacedDefault(
  before: SourceLine,
  after: SourceLine,
  line: number,
  subject: string,
  limit: string,
  values: string,
): SemanticChange {
  return { kind: 'default', line, before: excerpt(before.text.trim()), after: excerpt(after.text.trim()), subject, limit, values };
}

/** A condition's test without the brackets around it: `(ok)` is `ok`. */
const unwrapTest = (test: string): string =>
  test
    .trim()
    .replace(/^\((.*)\)$/, '$1')
    .trim();

/**
 * A ternary that passes an optional value on when it is set and nothing when not (outline's `listStyle ? { listStyle } :
 * undefined`, `name ? encode(name) : null`): both outcomes are the value's own, what the code it is passed to does with
 * it or without it; the ternary decides nothing of its own to ask.
 */
function isOptionalPassThrough(line: string, test: string): boolean {
  const bare = unwrapTest(test);
  if (!/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*$/.test(bare)) return false;
  const name = bare.split(/\??\./).at(-1) ?? bare;
  const escaped = bare.replace(/[$.?]/g, '\\$&');
  const ternary = new RegExp(`(?<![\\w$.])${escaped}\\s*\\?(?![.?])\\s*([^:?]+?)\\s*:\\s*(?:undefined|null)\\b`).exec(line);
  return ternary !== null && new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(ternary[1] ?? '');
}

/**
 * A test of one upper-case constant (`if WIN:`, `if (__DEV__)`, `if (!IS_BROWSER)`): the platform or the build decides
 * it, no input does, so "an input for which it is true and one for which it is false" asks for nothing a test sends.
 * A literal (`while True:`, `while (true)`, rich's segment.py) loops until its body leaves: nothing to ask of it.
 */
function isConstantTest(test: string): boolean {
  const bare = unwrapTest(test).replace(/^(?:not\s+|!\s*)/, '');
  return /^_*[A-Z][A-Z0-9_]*[A-Z0-9]_*$/.test(bare) || /^(?:True|False|true|false|[01])$/.test(bare) || ENVIRONMENT_TEST.test(bare);
}

/** A name bound to a whole module: `const url = require('url')`, `import * as fs from 'node:fs'`, `import url from 'url'`. */
const MODULE_BINDING =
  /^\s*(?:(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)|import\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from\s+['"]([^'"]+)['"])/;

/**
 * The names a file binds to one of Node's own modules (`url`, `node:crypto`): what the runtime provides, not the caller.
 * Not a name the file also binds otherwise (a parameter `url` of a function of a file that requires `url`, a variable
 * given another value): there `url.host` may be the caller's.
 */
function findRuntimeModuleNames(lines: readonly SourceLine[]): ReadonlySet<string> {
  const names = new Set<string>();
  const bindingLines = new Set<SourceLine>();
  for (const line of lines) {
    if (line.isComment) continue;
    const match = MODULE_BINDING.exec(line.raw);
    const name = match?.[1] ?? match?.[3];
    const module = match?.[2] ?? match?.[4];
    if (name !== undefined && module !== undefined && NODE_MODULES.has(module.replace(/^node:/, ''))) {
      names.add(name);
      bindingLines.add(line);
    }
  }
  for (const name of names) {
    const escaped = name.replace(/\$/g, '\\$');
    const rebound = new RegExp(
      `\\b(?:const|let|var|function)\\s+${escaped}\\b|[(,]\\s*${escaped}\\s*(?:[,)=:]|$)|(?<![\\w$.])${escaped}\\s*=>`,
    );
    if (lines.some((line) => !line.isComment && !bindingLines.has(line) && rebound.test(line.code))) names.delete(name);
  }
  return names;
}

/**
 * A test of whether Node's own module has a member (codimd's `if (url.URL)` before `new url.URL(data)`, else
 * `url.parse`): the Node version decides it, no input does, so there is no input for each outcome to ask for.
 */
function isFeatureDetection(test: string, runtimeModules: ReadonlySet<string>): boolean {
  const bare = unwrapTest(test).replace(/^(?:!\s*)/, '');
  const member = /^(?:typeof\s+)?([A-Za-z_$][\w$]*)\.[A-Za-z_$][\w$]*(?:\s*[!=]==?\s*(['"])(?:undefined|function)\2)?$/.exec(bare);
  return member?.[1] !== undefined && runtimeModules.has(member[1]);
}

/**
 * A test of the interpreter or the platform the code runs on (`sys.version_info < (3, 11)`, `sys.platform == "win32"`,
 * `process.platform === 'win32'`, `runtime.GOOS == "windows"`, the build's `process.env.NODE_ENV !== 'production'` or
 * Vite's `import.meta.env?.MODE !== 'production'`): no input reaches it, the test matrix or the build does.
 */
const ENVIRONMENT_TEST =
  /^(?:sys\.(?:version_info|platform|implementation\.name)|os\.name|platform\.system\(\)|process\.(?:platform|arch|versions?(?:\.\w+)?|env\.NODE_ENV)|import\.meta\.env\??\.(?:MODE|DEV|PROD|SSR)|runtime\.(?:GOOS|GOARCH))(?:\s*(?:[<>]=?|[!=]==?|\bin\b|\bnot in\b)\s*[^&|]+|\.startswith\([^)]*\))?$/;

/**
 * Drops comments and the contents of string literals, so a changed message is not a changed decision. A regular
 * expression literal is code, kept as written: its slashes and quotes open no comment and no string (hono's
 * `m[0].match(/\//g)` read as `m[0].match(/\` hid the `g` it gained).
 */
function toCode(line: string): string {
  const literals = scanRegexes(line).filter((regex) => regex.literal && /\/[/*]|["'`]/.test(line.slice(regex.start + 1, regex.end)));
  let held = line;
  for (const [at, regex] of [...literals.entries()].reverse())
    held = `${held.slice(0, regex.start)}\uE000${at}\uE001${held.slice(regex.end)}`;
  const code = held
    .replace(/(["'`])(?:\\.|(?!\1)[^\\\n])*\1/g, '""')
    .replace(/\/\*.*?\*\//g, '')
    .replace(/\/\/.*$/, '')
    .trim();
  return literals.length === 0
    ? code
    : code.replace(/\uE000(\d+)\uE001/g, (_, at: string) => {
        const regex = literals[Number(at)];
        return regex === undefined ? '' : line.slice(regex.start, regex.end);
      });
}

/**
 * `c + 1`, `price * rate`, `a.length - 1`: an operand, an arithmetic operator, an operand, as `toPlainText` writes
 * them; a lookahead, so a chain yields each operation.
 */
const ARITHMETIC_EXPRESSION = /(?=([\w$.\])]+ ?[-+*/%] ?[\w$.(]+))/g;

/** Without TypeScript's non-null assertions, which run nothing: `fns!.size` tests what `fns.size` did (jotai). */
function withoutNonNull(code: string): string {
  // Strings are matched first and kept whole: `'Hi!'` is a message, not an assertion.
  return code.replace(/(["'`])(?:\\.|(?!\1)[^\\\n])*\1|(?<=[\w$)\]])!(?!=)/g, (match) => (match === '!' ? '' : match));
}

/** `throw new XError(…`, `throw Error(…`, `raise XError(…`: a throw that makes its error there. */
const MADE_THROW = /^(?:throw|raise)\s+(?:new\s+)?[\w$.]+\(/;

/** A line that is only a comment (`//`, `/*`, ` * ` inside JSDoc). */
function isCommentLine(line: string): boolean {
  return /^\s*(?:\/\/|\/\*|\*)/.test(line);
}

/** A function or method signature, where `name = value` is a parameter default rather than an assignment. */
const SIGNATURE =
  /\bfunction\b|=>|^\s*(?:(?:public|private|protected|static|async|export|default)\s+)*(?!(?:if|while|for|switch|catch|return)\b)[A-Za-z_$][\w$]*\s*(?:<[^>]*>)?\s*\(/;

/** A subject that counts something (`values.length`, `map.size`, `retryCount`): never below zero. */
const MEASURE = /(?:^|\.)(?:length|size|count)$|[a-z](?:Length|Size|Count)$/;

/** The first regular expression literal of a line, as findRegexes shows it. */
function findRegex(raw: string): string | undefined {
  return findRegexes(raw)[0];
}

/** A regular expression literal or a `new RegExp(…)` call, matched where it starts. */
const REGEX_AT = /\/((?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n[])+)\/([dgimsuyv]*)|new\s+RegExp\(([^)]*)\)/y;
/**
 * Words after which a `/` opens a regular expression, not a division (`return /x/.test(text)`), and an arrow's `=>`
 * (`(text) => /^a/.test(text)`); a `<` or a lone `>` opens none, as JSX closes its tags with `</`.
 */
const REGEX_AFTER_WORD = /(?:\b(?:return|typeof|case|do|else|in|of|delete|void|throw|yield|await)|=>)$/;

/**
 * Every regular expression literal of a line, as findRegex shows one. The line is read as code: a slash inside a
 * string (hono's `'(?:$|/)' : … : '/?$'`) or a comment opens nothing, and a slash after an operand divides.
 */
function findRegexes(raw: string): string[] {
  return scanRegexes(raw).map((regex) => regex.shown);
}

/** What a flag of a regular expression changes, as the strings that show it. */
const REGEX_FLAG_VALUES: Record<string, string> = {
  g: 'a string with two or more matches',
  y: 'a string whose match does not start where the last match ended',
  i: 'the same text in upper and in lower case',
  m: 'a string of several lines with a match at the start or the end of an inner line',
  s: 'a string with a line break where the pattern has a `.`',
  u: 'a string with a character outside the Basic Multilingual Plane (an emoji) where the pattern has `.` or a class',
  v: 'a string with a character outside the Basic Multilingual Plane (an emoji) where the pattern has `.` or a class',
};

/**
 * The strings to try when a pattern kept its text and gained or lost flags (hono's `match(/\//)` made `match(/\//g)`
 * counts every slash, not the first): a string on which each flag decides, not "one the old pattern accepts". A
 * pattern kept in a name that gains `g` or `y` also carries `lastIndex` from one `test` or `exec` to the next.
 */
function toFlagValues(base: string, head: string, line: string): string | undefined {
  const [was, now] = [/^\/(.+)\/([a-z]*)$/s.exec(base), /^\/(.+)\/([a-z]*)$/s.exec(head)];
  if (was === null || now === null) return undefined;
  const [, wasBody = '', wasFlags = ''] = was;
  const [, nowBody = '', nowFlags = ''] = now;
  if (canonicalRegexLiteral(`/${wasBody}/`) !== canonicalRegexLiteral(`/${nowBody}/`)) return undefined;
  const flags = [...new Set([...wasFlags, ...nowFlags])].filter((flag) => wasFlags.includes(flag) !== nowFlags.includes(flag));
  const values = [...new Set(flags.map((flag) => REGEX_FLAG_VALUES[flag]).filter((value) => value !== undefined))];
  if (values.length === 0) return undefined;
  const kept = /[\w$]\s*(?::[^=]+)?=\s*$/.test(line.slice(0, line.indexOf(head)));
  if (kept && flags.some((flag) => (flag === 'g' || flag === 'y') && nowFlags.includes(flag)))
    values.push('the same test or exec called twice in a row (lastIndex carries over)');
  const said = flags.map((flag) => `${nowFlags.includes(flag) ? 'gained' : 'lost'} ${flag}`).join(', ');
  return `${values.join('; ')}: the pattern ${said}`;
}

/** A line without its `//` comment, read as code: a `//` inside a string or a regular expression (`/\//g`) is kept. */
function withoutLineComment(raw: string): string {
  return raw.slice(0, scanLine(raw, []));
}

/** A regular expression of a line: as findRegex shows it, and where its text starts and ends. */
interface RegexAt {
  shown: string;
  start: number;
  end: number;
  /** A `/…/flags` literal, not a `new RegExp(…)` call. */
  literal: boolean;
}

function scanRegexes(raw: string): RegexAt[] {
  const found: RegexAt[] = [];
  scanLine(raw, found);
  return found;
}

/** Reads a line as code, adding its regular expressions to `found`; where its `//` comment starts (its length if none). */
function scanLine(raw: string, found: RegexAt[]): number {
  let previous = '';
  for (let index = 0; index < raw.length; index++) {
    const char = raw[index] ?? '';
    if (char === '"' || char === "'" || char === '`') {
      index = endOfQuoted(raw, index);
      previous = char;
      continue;
    }
    if (char === '/' && raw[index + 1] === '/') return index;
    if (char === '/' && raw[index + 1] === '*') {
      const end = raw.indexOf('*/', index + 2);
      if (end < 0) return raw.length;
      index = end + 1;
      continue;
    }
    const opens =
      char === '/'
        ? previous === '' || '=(,:!&|?{};[+-*%~^'.includes(previous) || REGEX_AFTER_WORD.test(raw.slice(0, index).trimEnd())
        : char === 'n' && !/[\w$]/.test(raw[index - 1] ?? '');
    if (opens) {
      REGEX_AT.lastIndex = index;
      const match = REGEX_AT.exec(raw);
      if (match !== null) {
        const literal = match[1] !== undefined;
        found.push({ shown: literal ? `/${match[1]}/${match[2] ?? ''}` : match[0].trim(), start: index, end: REGEX_AT.lastIndex, literal });
        index = REGEX_AT.lastIndex - 1;
        previous = ')';
        continue;
      }
    }
    if (!/\s/.test(char)) previous = char;
  }
  return raw.length;
}

/** Where the string or template opened at `start` closes (the line's end when it does not). */
function endOfQuoted(raw: string, start: number): number {
  const quote = raw[start];
  for (let index = start + 1; index < raw.length; index++) {
    if (raw[index] === '\\') index++;
    else if (raw[index] === quote) return index;
  }
  return raw.length;
}

/** `a < b` and its negation `a >= b` (findComparisons' form): either one tests the same boundary. */
function withNegation(comparison: string): string[] {
  const parts = comparison.split(' ');
  const [left, operator = '', right] = parts;
  const negated = COMPLEMENT[operator];
  return negated === undefined || parts.length !== 3 ? [comparison] : [comparison, `${left} ${negated} ${right}`];
}

/** Every comparison of a line's code as `left operator right`, single-spaced (`doc.memberships.length > 0`). */
function findComparisons(code: string): string[] {
  return [...code.matchAll(COMPARISONS)].map((match) => `${match[1]} ${match[3]} ${match[5]}`);
}

/** A count: a length or size, a whole number, or a value that starts from 0 (`(counts[key] || 0)`, `(n ?? 0)`). */
const COUNT_TERM = String.raw`[\w$.\]\[]*\.(?:length|size)\b|\d+\b(?!\.\d)|\([^()]*(?:\|\||\?\?)\s*0\s*\)`;
const COUNT_ARITHMETIC = new RegExp(String.raw`(?<![\w$.])(?:${COUNT_TERM})\s*[-+*]\s*(?:${COUNT_TERM})(?![\w$(.])`, 'g');

/**
 * Whether every arithmetic of a line adds, subtracts or multiplies counts (objection's `obj[key] = (obj[key] || 0) + 1`,
 * `items.length + 1`): whole numbers, with no halves to ask about.
 */
function isCountArithmetic(code: string): boolean {
  const counted = [...code.matchAll(COUNT_ARITHMETIC)].length;
  return counted > 0 && counted === operators(code).length;
}

/** `for (let i = 0; i < packets.length; i++)`: an index loop over every element, its bound the list's own length. */
const FULL_INDEX_LOOP =
  /^\s*for\s*\(\s*(?:let|var)\s+([\w$]+)\s*=\s*0\s*;\s*\1\s*<\s*[\w$.]+\.length\s*;\s*(?:\1\+\+|\+\+\1|\1\s*\+=\s*1)\s*\)/;

/** `for (var i = chain.length - 1; i >= 0; --i)` (qs's parseObject): every element, last first. */
const REVERSE_FULL_INDEX_LOOP =
  /^\s*for\s*\(\s*(?:let|var)\s+([\w$]+)\s*=\s*[\w$.]+\.length\s*-\s*1\s*;\s*\1\s*(?:>=\s*0|>\s*-\s*1)\s*;\s*(?:\1--|--\1|\1\s*-=\s*1)\s*\)/;

/**
 * A loop over every element where the old line was no index loop (engine.io's new send loop): its bound is the list's
 * length, no value a test moves across; the empty list is the case, asked where the elements are read. An index loop
 * whose bound changed (`i <= list.length` → `i < list.length`) still asks its boundary.
 */
function isNewFullLoop(head: string, base: string | undefined): boolean {
  const isNew = base === undefined || !/^\s*for\s*\(\s*(?:let|var)\b/.test(base);
  return (
    isNew && (FULL_INDEX_LOOP.test(head) || REVERSE_FULL_INDEX_LOOP.test(head) || FIXED_RANGE_LOOP.test(head.replace(/\/\*.*?\*\//g, '')))
  );
}

/** `for (let i = 0; i < keys.length; i += MAX_BULK_DELETE)`: a list walked in chunks of a size other than one. */
const CHUNK_LOOP =
  /^\s*for\s*\(\s*(?:let|var)\s+([\w$]+)\s*=\s*0\s*;\s*\1\s*<\s*([\w$.]+)\.length\s*;\s*\1\s*\+=\s*([A-Za-z_$][\w$.]*|[2-9]\d*|1\d+)\s*\)/;

/**
 * A new loop over a list in chunks (unstorage's deletes, `i += MAX_BULK_DELETE` with `keys.slice(i, i + MAX_BULK_DELETE)`):
 * no value of the index is a boundary, the list's length against the chunk size is (a last chunk that is partial,
 * exactly full, or none at all).
 */
function findNewChunkLoop(line: string, base: string | undefined): { list: string; size: string; values: string } | undefined {
  if (base !== undefined && CHUNK_LOOP.test(base)) return undefined;
  const found = CHUNK_LOOP.exec(line);
  if (found === null) return undefined;
  const [, , list = '', size = ''] = found;
  return {
    list,
    size,
    values: `0, 1, ${size}, ${size} + 1 and 2 × ${size} + 1 (each item handled once, the last chunk partial, full or none)`,
  };
}

/** `for (let code = 65 /* A *\/; code <= 90 /* Z *\/; code++)` (ohash's collation table): a range no input moves. */
const FIXED_RANGE_LOOP = /^\s*for\s*\(\s*(?:let|var)\s+([\w$]+)\s*=\s*-?\d+\s*;\s*\1\s*(?:<=?|>=?)\s*-?\d+\s*;/;

/** `while (j >= 0 && …)`, `while (i < text.length && …)`: a scan bounded by a list's first or last index. */
const SCAN_BOUND = /^\s*while\s*\(\s*([A-Za-z_$][\w$]*)\s*(?:>=\s*0|>\s*-\s*1|<\s*[\w$.]+\.length)\s*(?:&&|\))/;

/**
 * A new scan that steps its own index one at a time until the list's end (mlly's `while (j >= 0 &&
 * /[A-Za-z0-9_$]/.test(str[j])) j--`): the bound is the list's first or last index, no value a test moves across, and
 * its test holds and fails in every run; where the scan stops is asked where its result is used.
 */
function isNewScanLoop(head: string, base: string | undefined, following: () => readonly string[]): boolean {
  const index = SCAN_BOUND.exec(head)?.[1];
  if (index === undefined || (base !== undefined && /^\s*(?:\}\s*)?(?:while|for|do)\b/.test(base))) return false;
  const name = index.replace(/\$/g, '\\$');
  const step = new RegExp(`(?<![\\w$.])${name}\\s*(?:\\+\\+|--|[-+]=\\s*1\\b)|(?:\\+\\+|--)\\s*${name}(?![\\w$])`);
  return following()
    .slice(0, 8)
    .some((line) => step.test(toCode(line)));
}

/** `while (queue.length)`, `while (stack.length > 0)`, `while (pending.size)`: a loop on whether a list still holds anything. */
const WHILE_NOT_EMPTY = /^\s*while\s*\(\s*([\w$.]+)\.(?:length|size)\s*(?:(?:>|!==?)\s*0\s*)?\)\s*\{?\s*$/;

/**
 * A new loop that drains a list it empties itself (qs's `while (queue.length) { var item = queue.pop(); … }`): it stops
 * when the list is empty by construction, so whether the list is empty is no input a test picks; an empty list at the
 * start is asked where the list comes from, if anywhere. A `while` that replaced another loop test is asked as before.
 */
function isNewDrainLoop(head: string, base: string | undefined, following: () => readonly string[]): boolean {
  const list = WHILE_NOT_EMPTY.exec(head)?.[1];
  if (list === undefined || (base !== undefined && /^\s*(?:\}\s*)?(?:while|for|do)\b/.test(base))) return false;
  const taken = new RegExp(`(?:^|[^\\w$.])${list.replace(/[$.]/g, '\\$&')}\\.(?:pop|shift|splice|delete|clear)\\(`);
  return following()
    .slice(0, 12)
    .some((line) => taken.test(toCode(line)));
}

const LOGICAL_OPERATOR = /&&|\|\||\band\b|\bor\b/;

/** The same code with only its logical operators changed (`a && b` → `a || b`, Python's `and` → `or`). */
function isLogicFlipped(base: string, head: string): boolean {
  const every = new RegExp(LOGICAL_OPERATOR.source, 'g');
  const bare = (code: string): string => code.replace(every, '\0').replace(/\s+/g, ' ').trim();
  return base !== head && LOGICAL_OPERATOR.test(head) && bare(base) === bare(head);
}

/** The expression a flipped operator joins: what the line returns or assigns, else the whole line. */
function findFlippedExpression(written: string): string {
  const returned = /\breturn\s+(.+)$/.exec(written)?.[1];
  const assigned = /^[^=]*?(?::=|(?<![=!<>])=(?![=>]))\s*(.+)$/.exec(written)?.[1];
  return (returned ?? assigned ?? written).replace(/[\s;{}]+$/, '').trim();
}

function operators(code: string): string {
  const withoutRegex = code.replace(new RegExp(REGEX.source, 'g'), ' ');
  return [...withoutRegex.matchAll(ARITHMETIC)].map((match) => match[1]).join('');
}

/** An expression's links at its top level, split at `&&` and `||` outside brackets and strings. */
function splitLinks(expression: string): string[] {
  const links: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let index = 0; index < expression.length; index++) {
    const char = expression[index] ?? '';
    if (quote !== undefined) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"' || char === '`') quote = char;
    else if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
    else if (depth === 0 && (expression.startsWith('&&', index) || expression.startsWith('||', index))) {
      links.push(expression.slice(start, index).trim());
      start = index + 2;
      index += 1;
    }
  }
  links.push(expression.slice(start).trim());
  return links;
}

/** A comparison of equality as one link: `typeof value !== "object"`, `value === null`. */
const EQUALITY_LINK = /^([^=!<>&|?]+?)\s*(===|!==|==|!=)\s*([^=!<>&|?]+)$/;

/**
 * The negation of a test whose links are all joined by `&&` or all by `||`, each an equality or a plain read
 * (`value === null || typeof value !== "object"` → `value !== null && typeof value === "object"`), as De Morgan writes
 * it; undefined for anything else.
 */
function negateCondition(condition: string): string | undefined {
  let expression = condition.trim().replace(/;$/, '');
  while (expression.startsWith('(') && expression.endsWith(')') && isBalanced(expression.slice(1, -1)))
    expression = expression.slice(1, -1).trim();
  const and = expression.includes('&&');
  if (and && expression.includes('||')) return undefined;
  const links = splitLinks(expression).map((link) => {
    const equality = EQUALITY_LINK.exec(link);
    if (equality !== null) return `${equality[1]} ${COMPLEMENT[equality[2] ?? '']} ${equality[3]}`;
    if (/^![A-Za-z_$][\w$.]*$/.test(link)) return link.slice(1);
    return /^[A-Za-z_$][\w$.]*$/.test(link) ? `!${link}` : undefined;
  });
  return links.every((link) => link !== undefined) ? links.join(and ? ' || ' : ' && ') : undefined;
}

/** A link of a fallback chain read as a value: a name or a member read (`ctx.path`, `opts?.routerPath`, `headers['x-id']`). */
const CHAIN_READ = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*|\[(?:'[^']*'|"[^"]*"|\d+)\])*$/;

/**
 * The links of a fallback chain a line assigns or returns (`router.opts.routerPath || ctx.routerPath || ctx.path`), all
 * joined by `||` or all by `??`, when two or more of them are reads.
 */
function readFallbackChain(text: string): string[] | undefined {
  const expression = findFlippedExpression(text.replace(/\/\/.*$/, ''));
  if (!isBalanced(expression) || /&&|\?(?![?.])/.test(expression.replace(/\?\?/g, ''))) return undefined;
  const operators = new Set(expression.match(/\|\||\?\?/g) ?? []);
  if (operators.size !== 1) return undefined;
  const links = (operators.has('??') ? expression.split('??') : splitLinks(expression)).map((link) => link.trim());
  return links.filter((link) => CHAIN_READ.test(link)).length >= 2 ? links : undefined;
}

/**
 * Two links both chains read, now in the other order (koa-router's `… || ctx.routerPath || ctx.path` → `… ||
 * ctx.newRouterPath || ctx.path || ctx.routerPath`): on an input that sets both, the value read changed.
 */
function findReorderedLinks(base: string, head: string): { first: string; second: string; before: string; after: string } | undefined {
  const old = readFallbackChain(base);
  const now = readFallbackChain(head);
  if (old === undefined || now === undefined) return undefined;
  const shared = now.filter((link) => CHAIN_READ.test(link) && old.includes(link));
  for (const [index, first] of shared.entries())
    for (const second of shared.slice(index + 1))
      if (old.indexOf(second) < old.indexOf(first))
        return {
          first,
          second,
          before: old.join(now.includes('??') ? ' ?? ' : ' || '),
          after: now.join(now.includes('??') ? ' ?? ' : ' || '),
        };
  return undefined;
}

/**
 * A test a removed line made, joined on its line by a new `&&` link (`featureNames.includes(feature.name)` in a filter
 * became `featureNames.includes(feature.name) && !feature.archived`): the whole test, or undefined.
 */
function findGrownTest(text: string, removedPlain: readonly string[]): string | undefined {
  const expression = text.trim().replace(/[,;]\s*$/, '');
  if (/^(?:return|const|let|var|if|while)\b|=>|[{};]/.test(expression) || !isBalanced(expression)) return undefined;
  const links = splitLinks(expression);
  if (links.length < 2 || !expression.includes('&&') || links.some((link) => !/[\w$]/.test(link))) return undefined;
  const isOld = (link: string): boolean => removedPlain.some((removed) => removed.includes(toPlainText(link)));
  const old = links.filter(isOld);
  return old.length > 0 && old.length < links.length && !isOld(expression) ? expression : undefined;
}

/** A normalisation called with no argument (`.trim()`, `.toLowerCase()`), as `isOnlyNormalised` takes it out. */
const BARE_NORMALISATION = new RegExp(NORMALISATION.source.replace('\\(', '\\(\\s*\\)'), 'g');

/** Whether the head is the base with normalisations added and nothing else (`has(key)` → `has(key.trim())`). */
function isOnlyNormalised(base: string | undefined, head: string): boolean {
  if (base === undefined) return false;
  const strip = (code: string): string => code.replace(BARE_NORMALISATION, '').replace(/\s+/g, '');
  return strip(base) === strip(head) && base.replace(/\s+/g, '') !== head.replace(/\s+/g, '');
}

const PYTHON_BLOCK = /^(\s*)(?:(if|elif|while)\s+(.+?)|(else))\s*:\s*(?:#.*)?$/;

/** The test of the `if`, `elif`, `else` or `while` block that line `at` sits in (an `else:`'s as `not (…)`). */
function findPythonBlockTest(lines: readonly SourceLine[], at: number): string | undefined {
  const indent = indentOf(lines[at]?.raw ?? '');
  for (let index = at - 1; index >= 0; index--) {
    const line = lines[index];
    if (line === undefined || line.isComment || line.code.trim() === '') continue;
    const own = indentOf(line.raw);
    if (own >= indent) continue;
    const block = PYTHON_BLOCK.exec(line.raw);
    if (block === null) return undefined;
    if (block[4] === undefined) return block[3];
    // An `else:`: the test of the `if` or `elif` it closes, at its indent.
    for (let above = index - 1; above >= 0; above--) {
      const header = lines[above];
      if (header === undefined || header.isComment || header.code.trim() === '' || indentOf(header.raw) > own) continue;
      const opened = PYTHON_BLOCK.exec(header.raw);
      return opened?.[3] === undefined || indentOf(header.raw) < own ? undefined : `not (${opened[3]})`;
    }
    return undefined;
  }
  return undefined;
}

const indentOf = (raw: string): number => raw.length - raw.trimStart().length;

/**
 * A Python line the change only indented into a block (its test, `into`) or out of one (the old block's test): the same
 * text at another depth. Undefined when the text changed, the depth did not, or no `if`/`else`/`while` decides it.
 */
function findReindentedBlock(
  base: readonly SourceLine[],
  head: readonly SourceLine[],
  baseAt: number,
  headAt: number,
): { test: string; into: boolean } | undefined {
  const before = base[baseAt];
  const after = head[headAt];
  if (before === undefined || after === undefined || after.isComment || after.code.trim() === '') return undefined;
  if (before.text.trim() !== after.text.trim() || indentOf(before.raw) === indentOf(after.raw)) return undefined;
  const into = indentOf(after.raw) > indentOf(before.raw);
  const test = into ? findPythonBlockTest(head, headAt) : findPythonBlockTest(base, baseAt);
  return test === undefined ? undefined : { test, into };
}

/** `??` became `||` or the reverse: which values take the fallback changed, not the fallback. */
function isFallbackSwap(was: string | undefined, now: string | undefined): boolean {
  return was !== now && (was === '??' || was === '||') && (now === '??' || now === '||');
}

/** The operand a fallback stands in for: `params?.groupId` in `groupId: params?.groupId || featureName`. */
function findFallbackOperand(code: string, operator: number): string | undefined {
  return /([A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*|\[[^\]]*\]|\(\))*)\s*$/.exec(code.slice(0, operator))?.[1];
}

function toFallbackSwapValues(operand: string, fallback: string, widened: boolean): string {
  const taken = widened ? `now become ${fallback} (?? kept them)` : `are now kept (|| replaced them by ${fallback})`;
  return `${operand} as '', 0 and false, which ${taken}, and ${operand} undefined`;
}

/**
 * A fallback the change adds to a value the line already computed, the line otherwise as it was: find-my-way's
 * `path.replace(OPTIONAL_PARAM_REGEXP, '$2')` became `… || '/'`, so an optional parameter at the root no longer
 * yields an empty path. Undefined for any other edit.
 */
function findAddedFallback(before: string, after: string, fallback: RegExpExecArray): { operand: string; fallback: string } | undefined {
  const operator = fallback[1];
  const value = (fallback[2] ?? '').trim();
  if ((operator !== '||' && operator !== '??') || value === '') return undefined;
  const valueAt = after.indexOf(value, fallback.index + operator.length);
  if (valueAt === -1) return undefined;
  const squash = (text: string): string => text.replace(/\s+/g, '').replace(/;$/, '');
  if (squash(after.slice(0, fallback.index) + after.slice(valueAt + value.length)) !== squash(before)) return undefined;
  const operand =
    /^\s*(?:(?:(?:const|let|var)\s+)?[\w$.]+\s*=(?!=)|return\b|[\w$]+\s*:)?\s*(.*?)\s*$/.exec(
      takeOpenOperand(after.slice(0, fallback.index)),
    )?.[1] ?? '';
  return operand === '' ? undefined : { operand, fallback: value };
}

/**
 * The operand that ends `text`, from the bracket left open before it or the `,` beside it: `matchedParameters[i]` of
 * `params.push(matchedParameters[i]` (find-my-way's `params.push(matchedParameters[i] ?? '')`).
 */
function takeOpenOperand(text: string): string {
  let depth = 0;
  for (let index = text.length - 1; index >= 0; index -= 1) {
    const char = text[index];
    if (char === ')' || char === ']' || char === '}') depth += 1;
    else if (char === '(' || char === '[' || char === '{') {
      if (depth === 0) return text.slice(index + 1);
      depth -= 1;
    } else if (char === ',' && depth === 0) return text.slice(index + 1);
  }
  return text;
}

function toAddedFallbackValues(operand: string, fallback: string, falsy: boolean): string {
  const taken = falsy ? "'' (an empty result), 0, false, undefined and null" : 'undefined and null';
  return `${operand} as ${taken}, which now become ${fallback}, and a value it keeps`;
}

/** A search's index compared with where "not found" starts: `i.indexOf(x) > -1`, `!== -1`, `>= 0`, `=== -1`, `< 0`. */
function isFoundTest(comparison: { subject: string; operator: string; limit: string }): boolean {
  if (!/\.(?:indexOf|lastIndexOf)\([^()]*(?:\([^()]*\))?[^()]*\)$/.test(comparison.subject)) return false;
  const { operator, limit } = comparison;
  return limit === '-1' ? ['>', '!==', '!=', '===', '==', '<='].includes(operator) : limit === '0' && ['>=', '<'].includes(operator);
}

/** A literal a constant may be declared with: a string without escapes, a number, a boolean or null. */
const CONSTANT_LITERAL = /^(?:'[^'\\\n]*'|"[^"\\\n]*"|-?\d+(?:\.\d+)?|true|false|null)$/;

/**
 * The literal a default stands for: itself, or the one value the file's `const` declarations of that name give it
 * (`const DEFAULT_TABLE_NAME = "storage"`), quotes made double; undefined for anything else.
 */
function toConstantValue(value: string, lines: readonly SourceLine[]): string | undefined {
  const text = value.trim();
  const normalize = (literal: string): string => (literal.startsWith("'") ? `"${literal.slice(1, -1)}"` : literal);
  if (CONSTANT_LITERAL.test(text)) return normalize(text);
  if (!/^[A-Za-z_$][\w$]*$/.test(text)) return undefined;
  const declared = new RegExp(`^\\s*(?:export\\s+)?const\\s+${text.replace(/\$/g, '\\$')}\\s*(?::[^=]+)?=\\s*(.+?)\\s*;?\\s*$`);
  const values = new Set<string>();
  for (const line of lines) {
    const match = line.isComment ? null : declared.exec(withoutLineComment(line.raw));
    if (match?.[1] !== undefined) values.add(CONSTANT_LITERAL.test(match[1]) ? normalize(match[1]) : '');
  }
  const [only] = values;
  return values.size === 1 && only !== '' ? only : undefined;
}

/** Whether a removed line's default (`before`) is the one its replacement gives, by the same operator, through a constant or not. */
function isSameDefaultValue(before: SourceLine, after: SourceLine, base: readonly SourceLine[], head: readonly SourceLine[]): boolean {
  const was = findDefault(withoutLineComment(before.raw));
  const now = findDefault(withoutLineComment(after.raw));
  // `??` for `||` keeps the value and changes who takes it: asked.
  if (was?.[2] === undefined || now?.[2] === undefined || was[1] !== now[1]) return false;
  const value = toConstantValue(now[2], head);
  return value !== undefined && value === toConstantValue(was[2], base);
}

/** An `if` or `while` line: its `||` joins tests (`if (!val || !trust(addr))`), it supplies no value. */
const BRANCH = /^\s*(?:\}\s*)?(?:else\s+)?(?:if|while)\s*\(/;

function findDefault(line: string): RegExpExecArray | null {
  const code = line.replace(/\/\/.*$/, '');
  const open = code.indexOf('(');
  const parameter = SIGNATURE.test(code) && open >= 0 ? DEFAULT_PARAM.exec(code.slice(open + 1)) : null;
  if (parameter !== null) return parameter;
  const fallback = FALLBACK.exec(code);
  if (fallback !== null) fallback[2] = takeOperand(code, fallback.index + fallback[0].length - (fallback[2] ?? '').length);
  // `typeof v === 'string' || typeof v === 'number'` tests, one link after another: no value stands in for a missing one;
  // so do `isInteger(value) || (isString(value) && value)` (jsonwebtoken's option check) and `a || b && c`.
  if (
    fallback?.[1] === '||' &&
    (COMPARED.test(fallback[2] ?? '') || PREDICATE_CALL.test(fallback[2] ?? '') || /&&/.test(fallback[2] ?? ''))
  )
    return null;
  // Links of a ternary's test (fast-uri's `return a || b || c ? undefined : normalized`): what follows the `?` is a
  // branch, not a value standing in for a missing one.
  if (fallback?.[1] === '||' && /(?<![?])\?(?![.?])/.test(withoutBrackets(fallback[2] ?? ''))) return null;
  return fallback?.[1] === '||' && BRANCH.test(code) ? null : fallback;
}

/** Text with what its brackets hold taken out (`a || (b ? c : d)` → `a || ()`), nested ones too. */
function withoutBrackets(text: string): string {
  let previous: string;
  let current = text;
  do {
    previous = current;
    current = current.replace(/\([^()]*\)|\[[^[\]]*\]|\{[^{}]*\}/g, '()');
  } while (current !== previous);
  return current;
}

/**
 * The operand that starts at `start`, its brackets balanced: up to a `,` or `;` outside brackets, or the bracket that
 * closes around it (`this.getFreshManager()` whole, where FALLBACK stops at its `(`).
 */
function takeOperand(code: string, start: number): string {
  let depth = 0;
  let end = start;
  for (; end < code.length; end += 1) {
    const char = code[end];
    if (char === '(' || char === '[' || char === '{') depth += 1;
    else if (char === ')' || char === ']' || char === '}') {
      if (depth === 0) break;
      depth -= 1;
    } else if ((char === ',' || char === ';') && depth === 0) break;
  }
  return code.slice(start, end);
}

/**
 * `!~list.indexOf(x)` written as the comparison it is (`list.indexOf(x) === -1`), and `~list.indexOf(x)` as `!== -1`:
 * jsonwebtoken's verify.js spelled the old idiom out and was asked for a boundary at -1.
 */
function withIndexComparisons(code: string): string {
  return code
    .replace(/!\s*~\s*([\w$.]+\.indexOf\([^()]*\))/g, '$1 === -1')
    .replace(/(?<![\w$)!])~\s*([\w$.]+\.indexOf\([^()]*\))/g, '$1 !== -1');
}

/** A comparison or type test: what follows `||` in a chain of tests, never a default value. */
const COMPARED = /[!=]==?|[<>]=?|\binstanceof\b|\bin\s/;
/** A call of a predicate (`isString(value)`, `Array.isArray(x)`, `has(key)`): a test, never a default value. */
const PREDICATE_CALL = /(?<![\w$])(?:is|has|can|should)(?:[A-Z_$][\w$]*)?\s*\(/;

/**
 * The parenthesised group `text` starts with, up to its matching `)`, skipping quoted strings: the condition of
 * `if (a && b) return x;` without the statement after it. Undefined when `text` does not start with `(` or the group
 * does not close on this line.
 */
function takeParenthesised(text: string): string | undefined {
  if (!text.startsWith('(')) return undefined;
  let depth = 0;
  let quote: string | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quote !== undefined) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"' || char === '`') quote = char;
    else if (char === '(') depth += 1;
    else if (char === ')') {
      depth -= 1;
      if (depth === 0) return text.slice(0, index + 1);
    }
  }
  return undefined;
}

/**
 * A condition that opens on its line and closes on a later one, joined into one line (`(` / `a ||` / `b` / `) {`
 * reads `(a || b)`); undefined when it does not close within MAX_CONDITION_LINES lines of code.
 */
function joinCondition(shown: string, following: () => readonly string[]): string | undefined {
  let text = shown;
  let code = 0;
  for (const next of following()) {
    if (isCommentLine(next)) continue;
    const part = next.replace(/\/\/.*$/, '').trim();
    if (part === '') continue;
    code += 1;
    if (code > MAX_CONDITION_LINES) return undefined;
    text += text.endsWith('(') || part.startsWith(')') ? part : ` ${part}`;
    const condition = takeParenthesised(text);
    if (condition !== undefined) return condition;
  }
  return undefined;
}

/** Whether every bracket of `text` that opens closes in it, none before it opens. */
function isBalanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    depth += char === '(' || char === '[' ? 1 : char === ')' || char === ']' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/**
 * The operand a line holds when it is one link of a `&&`/`||` chain written over several lines (`isObject(value) &&`,
 * `|| key in cache`): the chain's operator at its start or end, and no statement of its own.
 */
function findOperand(code: string): string | undefined {
  const trimmed = code.trim();
  const operand = trimmed.replace(/^(?:&&|\|\|)\s*/, '').replace(/\s*(?:&&|\|\|)$/, '');
  // An object's value (`name: options.name ||`) is a default, not a test.
  if (
    operand === trimmed ||
    operand === '' ||
    /[;{}]|=>|^[\w$]+\s*:/.test(operand) ||
    /^(?:return|const|let|var|if|while|throw)\b/.test(operand)
  )
    return undefined;
  // Brackets that open or close on other lines belong to the chain's other links: the operand is one link only.
  return isBalanced(operand) ? operand : undefined;
}

/** How many lines above a line its `if`/`while` may open, for the line to be read as part of that test. */
const MAX_BRANCH_TEST_LINES = 8;

/**
 * Whether the line after `preceding` is inside the test of an `if` or `while` that opened above it and has not closed:
 * `if (` alone, `} else if (arg.match(/^--.+/) || (`, or a chain's first links ending in `&&`.
 */
function isInBranchTest(preceding: readonly string[]): boolean {
  const lines = preceding.slice(-MAX_BRANCH_TEST_LINES).map(toCode);
  for (let at = lines.length - 1; at >= 0; at--) {
    const text = lines[at] ?? '';
    if (!BRANCH.test(text)) {
      // A statement ended or a block opened above: the line is not in a test that opened further up.
      if (/[;{}]\s*$/.test(text)) return false;
      continue;
    }
    const opened = text.search(/\b(?:if|while)\s*\(/);
    let depth = 0;
    for (const char of [text.slice(opened), ...lines.slice(at + 1)].join('\n')) {
      if (char === '(' || char === '[') depth += 1;
      else if (char === ')' || char === ']') depth -= 1;
      if (depth === 0 && char === ')') return false;
    }
    return depth > 0;
  }
  return false;
}

/**
 * The links of a test on a line of its own, without the operator that joins them to the links around them and the
 * brackets that close the test (`a && b)) {` → `a && b`); undefined for anything but a balanced chain of `&&`/`||`.
 */
function findChainOnLine(code: string): string | undefined {
  let chain = code
    .trim()
    .replace(/^(?:&&|\|\|)\s*/, '')
    .replace(/\s*(?:&&|\|\|)\s*\(?$/, '');
  while (/\)\s*\{?$/.test(chain) && !isBalanced(chain)) chain = chain.replace(/\)\s*\{?$/, '').trimEnd();
  if (chain === '' || !/&&|\|\|/.test(chain) || !isBalanced(chain)) return undefined;
  if (/[;{}]|=>|^[\w$]+\s*:/.test(chain) || /^(?:return|const|let|var|if|while|throw)\b/.test(chain)) return undefined;
  return chain;
}

/** Whether a bracket opens `text` and its match closes it: `(a && b)`, not `(a) && (b)`. */
function isWrapped(text: string): boolean {
  if (!text.startsWith('(')) return false;
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === '(') depth++;
    else if (text[index] === ')' && --depth === 0) return index === text.length - 1;
  }
  return false;
}

/**
 * The last link of a `&&`/`||` chain, on a line of its own: an expression with balanced brackets, no statement. A
 * bracketed group is one link, whatever it joins inside (postcss's `|| (child.type === 'decl' && …))`).
 */
function findLastOperand(code: string): string | undefined {
  const operand = code.trim().replace(/\s*\)\s*\{?$/, (closing) => (isBalanced(code.trim()) ? closing : ''));
  if (operand === '' || /^[.?:)\]]/.test(operand) || /[;{}]|=>|^[\w$]+\s*:/.test(operand)) return undefined;
  if (/^(?:return|const|let|var|if|while|throw)\b/.test(operand) || (/(?:&&|\|\|)/.test(operand) && !isWrapped(operand))) return undefined;
  return isBalanced(operand) ? operand : undefined;
}

/**
 * Where the operand that ends `text` starts: after the last bracket left open or comma at the top level (the test of
 * `new URL(path.startsWith('//') ? …` is `path.startsWith('//')`, whose own brackets close).
 */
function findOperandStart(text: string): number {
  let depth = 0;
  for (let index = text.length - 1; index >= 0; index--) {
    const char = text[index];
    if (char === ')' || char === ']' || char === '}') depth += 1;
    else if (char === '(' || char === '[' || char === '{') {
      if (depth === 0) return index + 1;
      depth -= 1;
    } else if (char === ',' && depth === 0) return index + 1;
  }
  return 0;
}

/** The test of a ternary: what stands before its `?`, after the assignment, `return` or bracket that opens it. */
function findTernaryTest(text: string): string | undefined {
  const question = /\?(?![.?])/.exec(text);
  if (question === null) return undefined;
  const before = text.slice(0, question.index);
  const returned = before.search(/\breturn\b(?!.*\breturn\b)/);
  const assigned = [...before.matchAll(/(?<![=!<>])=(?![=>])/g)].at(-1)?.index;
  const key = /^\s*(?:\.\.\.)?[\w$]+\s*:(?!:)/.exec(before)?.[0].length;
  const start = Math.max(
    findOperandStart(before),
    assigned === undefined ? 0 : assigned + 1,
    returned === -1 ? 0 : returned + 'return'.length,
    key ?? 0,
  );
  const test = before.slice(start).trim();
  return test === '' || !isBalanced(test) ? undefined : test;
}

/**
 * The test of a ternary whose `?` opens the next line of code, as prettier lays out a long one: `(status === 'pending'`
 * then `? run()`, or a nested `: subscribed` then `? 'optimistic'`. Undefined when the next line of code is no `?` branch.
 */
function findSplitTernaryTest(shown: string, following: () => readonly string[]): string | undefined {
  const next = following().find((text) => !isCommentLine(text) && text.trim() !== '');
  if (next === undefined || !/^\s*\?(?![.?])/.test(next)) return undefined;
  const test = findTernaryTest(`${shown.replace(/^[:?{]\s*/, '')} ?`);
  return test === undefined || !/[\w$]/.test(test) ? undefined : test;
}

/**
 * Semantic changes of one replaced or added line; `following` gives the head lines after it, read only for a
 * condition that goes on there.
 */
function classifyPair(
  before: string | undefined,
  after: string,
  line: number,
  following: () => readonly string[] = () => [],
  isOldLogic: (condition: string, line?: number, moved?: boolean) => boolean = () => false,
  preceding: () => readonly string[] = () => [],
): SemanticChange[] {
  if (isCommentLine(after)) return [];
  const head = toCode(after);
  const base = before === undefined || isCommentLine(before) ? undefined : toCode(before);
  if (head === '' || after.trim() === before?.trim()) return [];
  if (before !== undefined && withoutNonNull(after.trim()) === withoutNonNull(before.trim())) return [];
  const changes: SemanticChange[] = [];
  // Only a default's literal may differ inside a string (`?? 'anon'` → `?? 'guest'`); anything else must differ in code.
  const codeChanged = head !== base;
  const add = (kind: SemanticKind, subject: string, limit: string, values: string, shownAfter = after): void => {
    // Without the brace that opens a block: the edit is shown in parentheses, where `if (ok) {)` reads as a typo.
    // A comment the line took the place of is no line it replaced: shown as a new line.
    const [shownBase, shownHead] =
      base === undefined ? ['', excerpt(withoutBrace(shownAfter))] : excerptPair(withoutBrace(before ?? ''), withoutBrace(shownAfter));
    changes.push({
      kind,
      line,
      before: shownBase,
      after: shownHead,
      subject: excerpt(subject),
      limit,
      values,
    });
  };
  // A line that makes a removed line's decision, renamed or rewritten (a `for…of` as an index loop), changes nothing.
  if (codeChanged && isOldLogic(after, line)) return [];
  if (isNewDrainLoop(head, base, following) || isNewScanLoop(head, base, following)) return [];
  // An `if` or `while` is a decision whatever line the diff paired it with (joi's `if (rule.args.sign === 'positive') {`
  // in place of a line that read `rule.args.sign`); a ternary only in place of a condition or of nothing.
  // A returned fallback (`return options.timeout || 2000`) is a default, asked as one below, not a test.
  const isReturnedFallback =
    (/(?:^\s*|\{\s*)return\b/.test(head) || OWN_ARROW.test(head)) && !/\?[^?.]/.test(head) && findDefault(after) !== null;
  const isCondition =
    CONDITION.test(head) &&
    !isReturnedFallback &&
    (base === undefined || CONDITION.test(base) || before === undefined || BRANCH.test(head));
  // The same test of a value read from another object: the question is whether the two hold the same value, asked
  // once for every line that swapped them (the read case's key), not a new condition per line.
  const swapped = isCondition && before !== undefined && base !== undefined ? findSwappedObject(before, after) : undefined;
  if (swapped !== undefined) {
    add('read', swapped.read, swapped.was, `an input for which ${swapped.was} and ${swapped.read} hold different values`);
    return changes;
  }
  // Shown as written (strings kept): `head` has its literals emptied, which read as `"" !== method`. A line with a
  // comment is shown as `head`, since a comment marker can also sit inside a string.
  // (Outside strings: hono's `match === '/*'` holds no comment.)
  const written = /\/[/*]/.test(after.replace(/(["'`])(?:\\.|(?!\1)[^\\\n])*\1/g, '""')) ? head : after.trim();
  const shown = written.replace(/^\s*(?:\}\s*)?(?:else\s+)?(?:if|while)\s*/, '');
  // Only an `if` or `while` opens with its condition in brackets: `(hasLocal ? "local" : "nostore")` is a ternary in brackets.
  const isBranch = BRANCH.test(head);
  const onItsLine = isCondition && isBranch ? takeParenthesised(shown) : undefined;
  // A condition that goes on past its line is shown whole, keyword included: `if (` alone says nothing.
  const joined = isCondition && isBranch && onItsLine === undefined ? joinCondition(shown, following) : undefined;
  // A ternary outside an `if` tests what stands before its `?` (`const map = validate ? toMap(list) : null`).
  // A branch of a ternary laid out over lines (`? (Buffer.isBuffer(first) ? first : copy(first))`) tests what its own
  // nested ternary tests, without the mark that opens the branch.
  const ternary =
    isCondition && onItsLine === undefined && joined === undefined
      ? findTernaryTest(shown.replace(/^\s*[?:](?![.?])\s*\(?/, ''))
      : undefined;
  // A returned test is shown without its keyword: `return isInteger(value) || (isString(value) && value);` tests
  // `isInteger(value) || (isString(value) && value)`.
  // A one-line function's (`isValid: function(value) { return … }`) up to the brace that closes it.
  const returned =
    isCondition && !isBranch && ternary === undefined
      ? (/^return\s+(.+?);?$/.exec(shown.trim()) ??
          /\{\s*return\s+([^;{}]+?);?\s*\}/.exec(shown) ??
          new RegExp(`${OWN_ARROW.source}(.+?)[,;]?\\s*$`).exec(shown))?.[1]
      : undefined;
  const condition = onItsLine ?? joined ?? ternary ?? returned ?? shown.replace(/\)\s*\{?\s*$/, ')');
  // The same decision as a removed line made, written differently (an operand given a name, a variable renamed).
  // Or its negation moved from another hunk (defu's new `if (value === null || typeof value !== "object") return false`
  // where the removed `isObject` returned `value !== null && typeof value === "object"`); negated in place, it changed.
  const negated = isCondition ? negateCondition(condition) : undefined;
  const isSameDecision =
    isCondition &&
    (isOldLogic(condition, line) ||
      (negated !== undefined && isOldLogic(negated, line, true)) ||
      (base !== undefined && base !== head && toEmptinessForm(base) === toEmptinessForm(head)));
  const splitTest = isCondition ? undefined : findSplitTernaryTest(written, following);
  // A value made a ternary (`currentValue: "",` → `currentValue: v.secret ? "" : v.currentValue,`): a new decision.
  const newTernary =
    !isCondition && base !== undefined && CONDITION.test(head) && !BRANCH.test(head) && findTernaryTest(base) === undefined
      ? findTernaryTest(written)
      : undefined;
  const chunks = codeChanged ? findNewChunkLoop(written, base) : undefined;
  const compared =
    codeChanged && !isSameDecision && !isNewFullLoop(head, base) && chunks === undefined
      ? findChangedComparison(withIndexComparisons(head), base === undefined ? undefined : withIndexComparisons(base), JS_COMPARISONS)
      : undefined;
  // `text.indexOf(quote) > -1` asks whether the text holds the quote (a membership case below), not what -2, -1 and 0 do.
  const headComparison = compared !== undefined && isFoundTest(compared) ? undefined : compared;
  // Code alike but a literal of the condition changed (`=== 'GET'` → `=== 'POST'`): a decision changed all the same.
  // Not when the old line holds the same test, as written: the literal that changed is elsewhere on the line (a
  // message beside a one-line validator's `return`, a comment).
  const isLiteralChanged =
    !codeChanged && isCondition && before !== undefined && !isSameDecision && !before.replace(/\/\/.*$/, '').includes(condition);
  if (!codeChanged && !isLiteralChanged) {
    // fall through to the default check only
  } else if (chunks !== undefined) {
    add('boundary', `${chunks.list}.length`, chunks.size, chunks.values);
  } else if (headComparison !== undefined) {
    // Shown as written: the code form empties strings (`opts.origin.indexOf("")` for fastify-cors's `indexOf('*')`).
    const subject = asWritten(headComparison.subject, written);
    add('boundary', subject, headComparison.limit, neighbours(headComparison.limit, headComparison.operator, subject, MEASURE));
  } else if (isCondition && !isSameDecision && !isOnlyNormalised(base, head)) {
    add(
      'condition',
      condition,
      '',
      toConditionValues(condition),
      joined === undefined ? after : `${written.slice(0, written.length - shown.length)}${joined}`,
    );
  } else if (newTernary !== undefined && !isOldLogic(newTernary, line)) {
    add('condition', newTernary, '', toConditionValues(newTernary));
  } else if (!isCondition && splitTest !== undefined) {
    if (!isOldLogic(splitTest, line) && (base === undefined || !base.includes(toCode(splitTest))))
      add('condition', splitTest, '', toConditionValues(splitTest));
  } else if (!isCondition && base !== undefined && isLogicFlipped(base, head)) {
    // `return unicode.IsPrint(r) && unicode.IsSpace(r)` → `||` (go-cmp's isPrintSpace): the same operands, joined the
    // other way, decide differently for every input where they disagree.
    const expression = findFlippedExpression(written);
    if (!isOldLogic(expression, line)) add('condition', expression, '', toConditionValues(expression));
  } else if (!isCondition) {
    // An operand of a condition that spans lines (`isObject(value) &&` put first in a returned chain), or the last one,
    // after a line that ends with the chain's operator: a new test.
    const previous = preceding()
      .filter((text) => !isCommentLine(text) && toCode(text).trim() !== '')
      .at(-1);
    const last = previous !== undefined && /(?:&&|\|\|)\s*$/.test(toCode(previous));
    // Links of an `if`'s test on a line of their own (`!configuration['short-option-groups'] && arg.match(/^-[^-]+/)`
    // below `} else if (arg.match(/^--.+/) || (`, given `&& !arg.match(negative)`): the line's own chain.
    // Only a chain that gained, lost or swapped a link: an operand read from another name is a read case, asked below.
    const joins = (code: string): string => (code.match(/&&|\|\|/g) ?? []).join(' ');
    const inBranch =
      findOperand(head) === undefined &&
      (!last || findLastOperand(head) === undefined) &&
      (base === undefined || joins(base) !== joins(head)) &&
      isInBranchTest(preceding());
    const operandOf = (code: string): string | undefined =>
      findOperand(code) ?? (last ? findLastOperand(code) : undefined) ?? (inBranch ? findChainOnLine(code) : undefined);
    const operand =
      findOperand(head) !== undefined
        ? findOperand(written)
        : last && findLastOperand(head) !== undefined
          ? findLastOperand(written)
          : inBranch && findChainOnLine(head) !== undefined
            ? findChainOnLine(written)
            : undefined;
    // A bracketed group that became the last link is compared with the last link it replaced (postcss's `!child.nodes`
    // → `(child.type === 'decl' && child.prop.startsWith('--')))`); another single link read is a read case.
    const grouped = operand !== undefined && findOperand(head) === undefined && isWrapped(operand);
    const changedLink =
      base === undefined || (grouped || inBranch ? operandOf(base) !== operandOf(head) : findOperand(base) !== findOperand(head));
    if (operand !== undefined && changedLink && !isOldLogic(operand, line)) add('condition', operand, '', toConditionValues(operand));
  }
  // A fallback whose value goes on the next line (`options.method ||` then `(hasLocal ? "local" : "nostore")`) is
  // read with it.
  const continued = /(?:\?\?|\|\|)\s*$/.test(head) ? following().find((text) => !isCommentLine(text) && text.trim() !== '') : undefined;
  // A value that goes on the next line (`const path =` then the chain) is read with it.
  const assigned =
    /=\s*$/.test(head) && !/[=!<>]=\s*$/.test(head) ? following().find((text) => !isCommentLine(text) && text.trim() !== '') : undefined;
  const reordered =
    base === undefined || before === undefined
      ? undefined
      : findReorderedLinks(before, assigned === undefined ? after : `${after.trimEnd()} ${assigned.trim()}`);
  if (reordered !== undefined) {
    add(
      'read',
      reordered.after,
      reordered.before,
      `an input that sets both ${reordered.first} and ${reordered.second} (the new order reads ${reordered.first}, the old one read ${reordered.second})`,
      assigned === undefined ? after : `${after.trimEnd()} ${assigned.trim()}`,
    );
    return changes;
  }
  const headDefault = findDefault(continued === undefined ? after : `${after.trimEnd()} ${continued.trim()}`);
  const baseDefault = before === undefined ? null : findDefault(before);
  if (headDefault !== null && baseDefault !== null && headDefault[2]?.trim() !== baseDefault[2]?.trim()) {
    const subject = headDefault[1] === '??' || headDefault[1] === '||' ? 'the missing value' : (headDefault[1] ?? 'the argument');
    add(
      'default',
      subject,
      (headDefault[2] ?? '').trim(),
      `a call without ${subject === 'the missing value' ? 'the value' : subject} (and with undefined and null)`,
    );
  } else if (headDefault !== null && baseDefault !== null && isFallbackSwap(baseDefault[1], headDefault[1])) {
    // `params?.groupId ?? featureName` → `params?.groupId || featureName`: the same fallback, taken now (or no longer)
    // by '', 0 and false.
    const fallback = (headDefault[2] ?? '').trim();
    const operand = findFallbackOperand(after, headDefault.index) ?? 'the value';
    add('default', operand, fallback, toFallbackSwapValues(operand, fallback, headDefault[1] === '||'));
  } else if (headDefault !== null && baseDefault === null && before !== undefined && continued === undefined) {
    const added = findAddedFallback(before, after, headDefault);
    if (added !== undefined)
      add('default', added.operand, added.fallback, toAddedFallbackValues(added.operand, added.fallback, headDefault[1] === '||'));
  }
  if (!codeChanged) return changes;
  // `x.p = x.p || y.p` is `x.p ||= y.p` written out (pino-pretty's colorizer `property`), on a line that adds it.
  const logical = LOGICAL_ASSIGNMENT.exec(head);
  const spelled = logical === null && base === undefined ? SELF_FALLBACK.exec(head) : null;
  const [whole = '', target = '', operator = '', value = ''] =
    logical ?? (spelled === null ? [] : [spelled[0], spelled[1], `${spelled[2] ?? ''}=`, spelled[3]]);
  if (whole !== '' && (base === undefined || !base.includes(whole))) {
    if (operator === '&&=') {
      add('condition', `${target} ${operator} …`, '', `${target} undefined, empty and set, so that the transform runs only when it should`);
    } else {
      const missing = operator === '??=' ? 'undefined and null' : "undefined, null, '' and 0";
      add('default', target, excerpt(value.trim()), `${target} ${missing} (it becomes ${excerpt(value.trim())}), and a value already set`);
    }
  }
  const membership = MEMBERSHIP.exec(head);
  // Shown as written: `head` has its strings emptied (`"alpha" in rgb` read as `"" in rgb`).
  const shownMembership = (membership === null ? null : MEMBERSHIP.exec(written)) ?? membership;
  // `for (const key in object)` iterates; it tests nothing.
  const isIteration = membership?.[5] !== undefined && /\bfor\s*\(/.test(head);
  // A search for a piece of text (`content.indexOf("\\n", from)`, `html.includes("<table")`) looks into a string, not
  // a collection: its argument is a string literal that is no plain word.
  const isTextSearch = shownMembership?.[2] !== undefined && TEXT_PIECE.test(shownMembership[3] ?? '');
  // An index kept for its position (body-parser's `var index = str.indexOf(char)`, then `str.substring(0, index)`)
  // tests nothing on its line; a comparison of it, there or below, is its own question.
  const isPositionLookup =
    membership?.[2] === 'indexOf' &&
    /^\s*(?:(?:const|let|var)\s+)?[A-Za-z_$][\w$]*\s*=(?!=)\s*/.test(head) &&
    head.replace(/^\s*(?:(?:const|let|var)\s+)?[A-Za-z_$][\w$]*\s*=\s*/, '').replace(/;?\s*$/, '') === membership[0];
  // A membership test a removed line already made, now kept in a variable (`const isPresent = key in input`), is old.
  if (
    membership !== null &&
    shownMembership !== null &&
    !isPositionLookup &&
    !isIteration &&
    !isTextSearch &&
    (base === undefined || !base.includes(membership[0])) &&
    !isOldLogic(membership[0], line)
  ) {
    const collection = shownMembership[1] ?? shownMembership[5] ?? '';
    const item = shownMembership[3] ?? shownMembership[4] ?? '';
    add(
      'membership',
      excerpt(shownMembership[0]),
      '',
      `${excerpt(item) || 'a value'} that is in ${excerpt(collection)}, one that is not, and one that differs only in case or type ("1" and 1)`,
    );
    // A ternary testing membership (`"alpha" in rgb ? rgb.alpha : 1`) asks it as membership, not again as a condition.
    const asked = changes.findIndex((change) => change.kind === 'condition' && change.subject === excerpt(shownMembership[0]));
    if (asked !== -1) changes.splice(asked, 1);
  }
  // A normalisation the old line did not make (`name.trim()` → `name.trim().toLowerCase()` adds toLowerCase).
  const normalisations = (code: string | undefined): string[] =>
    code === undefined ? [] : [...code.matchAll(new RegExp(NORMALISATION.source, 'g'))].map((match) => match[1] ?? '');
  const oldNormalisations = new Set(normalisations(base));
  const normalisation = normalisations(head).find((method) => !oldNormalisations.has(method));
  if (normalisation !== undefined) {
    add('normalisation', normalisation, '', getNormalisationValues(normalisation));
  }
  const escaping = findEscapingChange(before === undefined || base === undefined ? undefined : { code: base, text: before }, {
    code: head,
    text: after,
  });
  if (escaping !== undefined) add('escaping', escaping.subject, escaping.was, escaping.values);
  const prototype = findPrototypeChange(base, head);
  if (prototype !== undefined) add('prototype', prototype, '', PROTOTYPE_VALUES);
  const copy = prototype === undefined ? findCopyChange(base, head) : undefined;
  if (copy !== undefined)
    add('prototype', copy, '', `own keys named __proto__ (JSON.parse('{"__proto__": {"polluted": true}}') makes one)`);
  const ownKeys = findOwnKeysChange(base, head);
  if (ownKeys !== undefined)
    add(
      'own-keys',
      ownKeys.object,
      ownKeys.ownOnly ? 'only its own keys are listed now; the inherited one is skipped' : 'the keys it inherits are listed now as well',
      `${ownKeys.object} as an object that inherits an enumerable key (made with Object.create({ inherited: 1 }), or an instance whose prototype has one) beside its own keys`,
    );
  // Each flag the line sets that the line it replaced did not set so (hono's pipeTo kept `preventClose: true` and
  // gained `preventAbort: true`); one set by another removed line of the hunk is moved (findSemanticChanges).
  const oldFlags = new Set(base === undefined ? [] : [...base.matchAll(OPTION_FLAG)].map((match) => match[0].replace(/\s+/g, '')));
  for (const flag of head.matchAll(OPTION_FLAG)) {
    if (oldFlags.has(flag[0].replace(/\s+/g, ''))) continue;
    const [, name = '', value = ''] = flag;
    // `include: [{ model: Document, required: true }]`: an ORM's inner join, not a request's required field.
    const isJoin = name === 'required' && [...preceding(), after].some((text) => INCLUDE_OBJECT.test(text));
    add(
      'option-flag',
      name,
      value,
      isJoin
        ? INCLUDE_REQUIRED_VALUES
        : (FLAG_VALUES[name] ?? `an input for which ${name}: ${value} matters, with the option and without it`),
    );
  }
  // uWebSockets.js writes its status as a string (`writeStatus("400 Bad Request")`), which the code form empties.
  const statusText = WRITTEN_STATUS.exec(after)?.[1];
  if (FINALLY.test(head) && (base === undefined || !FINALLY.test(base))) {
    // A cleanup that now runs however the block ends: the proof makes the block fail.
    add('error-path', 'the cleanup', '', FINALLY_VALUES);
  } else if (ERROR_PATH.test(head) || statusText !== undefined) {
    // A changed HTTP status is the one thing a caller sees: name both values.
    const status = STATUS.exec(head)?.[1] ?? statusText;
    const old = base === undefined ? undefined : (STATUS.exec(base)?.[1] ?? WRITTEN_STATUS.exec(before ?? '')?.[1]);
    // A catch is reached by a failure in what it guards, not by an input that "makes this line run".
    const isCatch = status === undefined && /\bcatch\s*\(|\.catch\(|\}\s*catch\s*\{/.test(head);
    add('error-path', 'the error path', status ?? '', isCatch ? CATCH_VALUES : toStatusValues(status, old));
  } else if (base !== undefined && ERROR_PATH.test(base)) add('error-path', 'the removed error path', '', REMOVED_ERROR_VALUES);
  // A regex or rounding in new code has no old version to compare with: its proof is the new code's test.
  if (before === undefined) return changes;
  const headRegex = findRegex(after);
  const baseRegex = before === undefined ? undefined : findRegex(before);
  if (headRegex !== undefined && (baseRegex === undefined || canonicalRegexLiteral(headRegex) !== canonicalRegexLiteral(baseRegex)))
    add(
      'regex',
      headRegex,
      '',
      (baseRegex === undefined ? undefined : (toFlagValues(baseRegex, headRegex, after) ?? describeClassChange(baseRegex, headRegex))) ??
        REGEX_VALUES,
    );
  const rounding = hasNewRounding(head, base, ROUNDING);
  const modulus = rounding ? undefined : findNewModulus(head, base);
  const order = findSortOrder(head);
  const offset = rounding || base === undefined ? undefined : findNewIndexOffset(head, base, 'javascript');
  const onlyOffset =
    offset !== undefined && base !== undefined && operators(withoutIndexOffsets(base)) === operators(withoutIndexOffsets(head));
  const clamp = rounding || before === undefined ? undefined : findNewClamp(after, before);
  if (modulus !== undefined) add('remainder', `the remainder by ${modulus}`, '', getRemainderValues(modulus, 'javascript'));
  else if (onlyOffset) add('boundary', offset.index, '', offset.values);
  else if (clamp !== undefined) add('boundary', clamp.subject, clamp.limit, clamp.values);
  // luxon's `.sort()` → `.sort((a, b) => a.toMillis() - b.toMillis())`: a comparator's subtraction orders, it rounds nothing.
  else if (order !== undefined && base !== undefined && order !== findSortOrder(base)) add('order', 'the sort order', '', ORDER_VALUES);
  else if (rounding || (base !== undefined && operators(base) !== operators(head) && operators(head) !== '' && !isCountArithmetic(head))) {
    add('arithmetic', rounding ? 'the rounding' : 'the arithmetic', '', ROUNDING_VALUES);
  }
  return changes;
}

/** A line's code without a closing `;`, and what it returns when it is a `return` (undefined when it is not). */
function splitReturn(code: string): { code: string; returned?: string } {
  const bare = code.replace(/;\s*$/, '').trim();
  const returned = /^return\s+(.+)$/.exec(bare)?.[1]?.trim();
  return returned === undefined ? { code: bare } : { code: bare, returned };
}

/** `debug(` (a call whose arguments go on below) opens `debug("", this.uid, e.message)`; a whole line is the same. */
function isSameStatement(opened: string, whole: string): boolean {
  return opened === whole || (opened.endsWith('(') && whole.startsWith(opened));
}

/** A line that opens a function's body: `function f(a) {`, `(a) => {`, a method `abort (reason) {`, not an `if (…) {`. */
const FUNCTION_OPENER =
  /(?:\bfunction\b[^{]*|=>\s*|^(?:(?:async|static|get|set|public|private|protected|override)\s+)*(?:[#\w$]+|\[[^\]]+\])\s*\([^)]*\)\s*(?::[^{]+)?)\{$/;
const BLOCK_KEYWORD = /^(?:if|for|while|switch|catch|with|else|do|try|finally)\b/;

function getIndent(line: SourceLine): number {
  return line.raw.length - line.raw.trimStart().length;
}

/**
 * Whether the line at `index` is the last statement of a function body: the next code line closes the block it sits
 * in, and that block is a function's. Returning there stops nothing that would have run (undici returned the backoff
 * timer, `return setTimeout(…)`, from the end of its retry policy).
 */
function endsFunctionBody(lines: readonly SourceLine[], index: number): boolean {
  const own = lines[index];
  if (own === undefined) return false;
  let next: SourceLine | undefined;
  for (let below = index + 1; below < lines.length && next === undefined; below += 1) {
    const line = lines[below];
    if (line !== undefined && !line.isComment && line.code.trim() !== '') next = line;
  }
  if (next === undefined || !next.code.trim().startsWith('}') || getIndent(next) >= getIndent(own)) return false;
  const closing = getIndent(next);
  for (let above = index - 1; above >= 0; above -= 1) {
    const line = lines[above];
    if (line === undefined || line.isComment || line.code.trim() === '') continue;
    if (getIndent(line) < closing) return false;
    if (getIndent(line) === closing) {
      const code = line.code.trim();
      return !BLOCK_KEYWORD.test(code) && FUNCTION_OPENER.test(code);
    }
  }
  return false;
}

/** `if (test) {`, `if (test) return x;` (JavaScript), `if test:` (Python), `if test {` (Go): the test, and an exit on the line. */
const GUARD_OPENERS: Record<SourceLanguage, RegExp> = {
  javascript: /^if\s*\((.+)\)\s*(?:\{\s*)?((?:return|throw|continue|break)\b.*)?$/,
  python: /^if\s+(.+?):\s*((?:return|raise|continue|break)\b.*)?$/,
  go: /^if\s+(.+?)\s*\{\s*$/,
};
const EXIT_STATEMENT = /^(?:return|throw|raise|continue|break)\b/;
/** A read of the process environment: `process.env.X`, `os.environ[…]`, `os.getenv(…)`. */
const ENVIRONMENT_READ = /\bprocess\.env\b|\bos\.(?:environ|getenv)\b/;

/** A line that opens a function: `func name(…) … {` (Go), `def name(…):` (Python), a JavaScript function or method. */
function opensCallable(code: string, language: SourceLanguage): boolean {
  if (language === 'go') return /^func\b/.test(code);
  if (language === 'python') return /^(?:async\s+)?def\s/.test(code);
  return !BLOCK_KEYWORD.test(code) && FUNCTION_OPENER.test(code);
}

/**
 * A guard clause the change removed whole, and did not write again elsewhere (fastapi dropped
 * `if os.path.splitext(final_segment)[1]: return False` from its navigation check): an input its test held for ran
 * nothing after it, and now runs the rest. `line` is where the guard stood in the head. One per hunk.
 */
function findRemovedGuard(
  removed: readonly SourceLine[],
  line: number,
  language: SourceLanguage,
  addedAgain: (text: string) => boolean,
  added: readonly SourceLine[] = [],
): SemanticChange | undefined {
  const code = removed.filter((entry) => !entry.isComment && entry.code.trim() !== '');
  for (const [index, entry] of code.entries()) {
    const match = GUARD_OPENERS[language].exec(entry.code.trim());
    if (match === null || addedAgain(entry.text)) continue;
    // A guard of a function removed with it (pocketbase deleted `saveViewCollection` and its `if
    // !newCollection.IsView()`): no input runs the code after it any more. Not when the function was written again
    // elsewhere, opener and all.
    const opener = code.slice(0, index).find((above) => getIndent(above) < getIndent(entry) && opensCallable(above.code.trim(), language));
    if (opener !== undefined && !addedAgain(opener.text)) continue;
    const exit = match[2] ?? code[index + 1]?.code.trim();
    if (exit === undefined || !EXIT_STATEMENT.test(exit)) continue;
    const test = GUARD_OPENERS[language].exec(entry.text.trim())?.[1] ?? match[1] ?? '';
    // Its test made again by new code (ky moved `if (!retryMethods.has(this._options.method.toLowerCase())) return fn`
    // into its caller: `const isRetriableMethod = retryMethods.has(…)` and a ternary): the guard moved, it was not dropped.
    const tested = toPlainText(test.trim().replace(/^(?:!\s*|not\s+)/, ''));
    if (
      tested.length >= MIN_MOVED_TEXT &&
      /[.(]/.test(tested) &&
      added.some((other) => !other.isComment && toPlainText(other.text).includes(tested))
    )
      continue;
    // A check the module makes once as it loads, on its own code (find-my-way's `if (!isRegexSafe(FULL_PATH_REGEXP))
    // throw`, removed with the regex it checked): no input reaches it. One on the environment is configuration.
    if (getIndent(entry) === 0 && /^(?:throw|raise)\b/.test(exit) && !ENVIRONMENT_READ.test(test)) continue;
    return {
      kind: 'exit',
      line,
      before: excerpt(withoutBrace(entry.raw)),
      after: '',
      subject: 'no longer returns here',
      limit: '',
      values: `an input for which ${excerpt(test)} holds, asserting what the code after it now does (it stopped there before)`,
    };
  }
  return undefined;
}

/**
 * A default the change removed, made nowhere else (uuid's `options ??= {}` above `if (native.randomUUID && !buf &&
 * !options)`): a caller that omits the value now meets it missing. `line` is where it stood in the head.
 */
function findRemovedDefault(
  removed: readonly SourceLine[],
  line: number,
  added: readonly SourceLine[],
  addedAgain: (text: string) => boolean,
): SemanticChange | undefined {
  for (const entry of removed) {
    if (entry.isComment || addedAgain(entry.text)) continue;
    const logical = LOGICAL_ASSIGNMENT.exec(entry.code);
    const spelled = logical === null ? SELF_FALLBACK.exec(entry.code) : null;
    const [, target = '', operator = '', value = ''] =
      logical ?? (spelled === null ? [] : [spelled[0], spelled[1], `${spelled[2] ?? ''}=`, spelled[3]]);
    if (target === '' || operator === '&&=' || !/^\s*(?:[\w$.?]+)\s*(?:\?\?=|\|\|=|=)/.test(entry.code)) continue;
    // Given another way (`function v4(options = {})`, `const opts = { ...defaults, ...options }`): still a default.
    const assigned = new RegExp(`(?<![\\w$.])${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*(?:\\?\\?|\\|\\|)?=(?![=>])`);
    if (added.some((other) => assigned.test(other.code))) continue;
    const whole = entry.text.trim().replace(/;$/, '');
    const missing = operator === '??=' ? 'undefined and null' : "undefined, null, '' and 0";
    return {
      kind: 'default',
      line,
      before: excerpt(withoutBrace(entry.raw)),
      after: '',
      subject: target,
      // Quoted, not in backticks: the Markdown bundle escapes a backtick inside a task's text.
      limit: `${operator === '??=' ? 'undefined' : 'the value as given'}, now that "${excerpt(whole)}" is removed`,
      values: `${target} ${missing} (no longer made ${excerpt(value.trim())}), and a value already set`,
    };
  }
  return undefined;
}

/**
 * A `return` added as the last statement of an `if` block the change left as it was: chi's RouteHeaders served the
 * request when no routes were set and went on to match routes; the fix added the `return` it lacked. For the inputs
 * that take the branch, the code after the block stops running. Not when nothing follows the block in its function.
 * `isAdded` tells the head's added lines by index.
 */
function findAddedExit(head: readonly SourceLine[], index: number, isAdded: (index: number) => boolean): SemanticChange | undefined {
  const own = head[index];
  if (own === undefined || !/^return\b[^;{]*;?$/.test(own.code.trim())) return undefined;
  const codeAt = (from: number, step: 1 | -1): number => {
    for (let at = from; at >= 0 && at < head.length; at += step) {
      const line = head[at];
      if (line !== undefined && !line.isComment && line.code.trim() !== '') return at;
    }
    return -1;
  };
  const close = codeAt(index + 1, 1);
  const closing = head[close];
  if (closing === undefined || !closing.code.trim().startsWith('}') || getIndent(closing) >= getIndent(own)) return undefined;
  // The block had statements of its own before the new return, none of them added, and its opener is an unchanged `if`.
  const above = codeAt(index - 1, -1);
  const statement = head[above];
  if (statement === undefined || isAdded(above) || getIndent(statement) !== getIndent(own)) return undefined;
  let opener = above;
  while (opener >= 0 && getIndent(head[opener] as SourceLine) >= getIndent(own)) opener = codeAt(opener - 1, -1);
  const open = head[opener];
  if (open === undefined || isAdded(opener) || getIndent(open) !== getIndent(closing)) return undefined;
  if (!/^(?:\}\s*)?(?:else\s+)?if\b/.test(open.code.trim())) return undefined;
  // Something runs after the block, in the same function.
  const after = head[codeAt(close + 1, 1)];
  if (after === undefined || (after.code.trim().startsWith('}') && getIndent(after) < getIndent(closing))) return undefined;
  const line = index + 1;
  return {
    kind: 'exit',
    line,
    before: '',
    after: excerpt(withoutBrace(own.raw)),
    subject: 'now returns here',
    limit: '',
    values: `an input that reaches line ${line}, asserting that the code after it no longer runs, and one that does not reach it`,
  };
}

/**
 * A `continue` made a `break`, or the reverse (negotiator's media-type parser stopped reading parameters at `q`): the
 * items after the one that reaches the line are no longer read, or now are.
 */
function classifyLoopExit(before: SourceLine, after: SourceLine, line: number): SemanticChange | undefined {
  const word = (code: string): string | undefined => /^\s*\{?\s*(continue|break)\s*;?\s*\}?\s*$/.exec(code)?.[1];
  const was = word(before.code);
  const now = word(after.code);
  if (was === undefined || now === undefined || was === now) return undefined;
  const stops = now === 'break';
  return toExitChange(
    before,
    after,
    line,
    stops ? 'now leaves the loop here' : 'now goes on to the next item here',
    `a list with more items after the one that reaches line ${line}, asserting that they ${stops ? 'are no longer read' : 'are read now'}`,
  );
}

/** An exit case on a replaced line, both lines shown. */
function toExitChange(before: SourceLine, after: SourceLine, line: number, subject: string, values: string): SemanticChange {
  return {
    kind: 'exit',
    line,
    before: excerpt(withoutBrace(before.raw)),
    after: excerpt(withoutBrace(after.raw)),
    subject,
    limit: '',
    values,
  };
}

/**
 * The same statement, now or no longer returned: socket.io's adapter turned `return debug(…)` in a catch into
 * `debug(…)`, so the broadcast goes on after a failed publish. The code after the line runs where it did not, or stops
 * running: the input that reaches the line tells.
 */
function classifyExit(
  before: SourceLine,
  after: SourceLine,
  line: number,
  next: SourceLine | undefined,
  /** Whether the line ends its function's body (asked only of a statement now or no longer returned). */
  endsFunction: () => boolean,
): SemanticChange | undefined {
  const old = splitReturn(before.code);
  const now = splitReturn(after.code);
  // A return moved one statement down (`return this.onError(…)` → `this.onError(…); return res.writeHead(400).end();`)
  // still stops there.
  const stopsNext = next !== undefined && /^(?:return|throw)\b/.test(next.code.trim());
  const removed = old.returned !== undefined && now.returned === undefined && isSameStatement(old.returned, now.code) && !stopsNext;
  const added = now.returned !== undefined && old.returned === undefined && isSameStatement(old.code, now.returned);
  if ((!removed && !added) || endsFunction()) return undefined;
  return toExitChange(
    before,
    after,
    line,
    removed ? 'no longer returns here' : 'now returns here',
    removed
      ? `an input that reaches line ${line}, asserting what the code after it now does (it stopped there before)`
      : `an input that reaches line ${line}, asserting that the code after it no longer runs, and one that does not reach it`,
  );
}

/**
 * A link of a query builder's chain that filters rows, on a line of its own (`.andWhere(FieldNameRevision.noteId,
 * noteId)` in knex; `.where(…)`, `.whereIn(…)`, `.orWhere(…)` and their negations): its method and its first argument.
 */
const FILTER_LINK = /^\s*\.((?:and|or)?[wW]here(?:Not)?(?:In|Null|Exists|Between)?)\(\s*([^,)]*)/;
/** What a query chain is built from: knex's `this.knex(Table)`, `.select(`, `.from(`, `.first()`, a query builder. */
const QUERY_CHAIN = /\bknex\b|\.(?:select|from|first|update|delete|del|count|createQueryBuilder|query|innerJoin|leftJoin|join)\(/;

/** How many lines above a chain link its statement's start is looked for. */
const MAX_STATEMENT_LINES = 24;

/**
 * The statement a chain link at `at` (0-based) goes on, from the line after the last one above that ends a statement
 * (`;`, `{`, `}`) to the link: `this.knex(Table)`, `.select(` and its arguments on lines of their own, `.where(…)`.
 */
function readStatementAbove(lines: readonly SourceLine[], at: number): string {
  let start = at;
  while (start > 0 && at - start < MAX_STATEMENT_LINES) {
    const above = lines[start - 1];
    if (above === undefined || (!above.isComment && /[;{}]\s*$/.test(above.code.trimEnd()))) break;
    start--;
  }
  return lines
    .slice(start, at + 1)
    .map((line) => line.code.trim())
    .join(' ');
}

/**
 * A filter link added to a query chain (hedgedoc's `getRevisionDto` gained `.andWhere(FieldNameRevision.noteId, noteId)`,
 * so a revision of another note is no longer found): the rows the query returned before and no longer does, or, for an
 * `orWhere`, the rows it now also returns. The chain above the line must read as a query.
 */
function classifyFilter(head: readonly SourceLine[], line: number): SemanticChange | undefined {
  const after = head[line - 1];
  if (after === undefined || after.isComment) return undefined;
  const link = FILTER_LINK.exec(withoutLineComment(after.raw));
  if (link === null) return undefined;
  if (!QUERY_CHAIN.test(readStatementAbove(head, line - 1))) return undefined;
  const method = link[1] ?? 'where';
  const on = (link[2] ?? '').trim();
  const subject = excerpt(on === '' ? method : on);
  const widens = /^or/.test(method);
  return {
    kind: 'filter',
    line,
    before: '',
    after: excerpt(after.text.trim()),
    subject: widens ? `the query now also returns rows matching ${subject}` : `the query now also filters on ${subject}`,
    limit: method,
    values: widens
      ? `a row the query did not return before and that matches the new ${method} on ${subject} (now returned), and one that matches neither`
      : `a row the query returned before that fails the new ${method} on ${subject} (another owner, parent or state: no longer returned), and one that passes it`,
  };
}

/** `return <literal>;` (or a bare `return;`): the literal as written, `undefined` for none. */
const LITERAL_RETURN = /^\s*(?:\}\s*)?return(?:\s+(true|false|null|undefined|-?\d+(?:\.\d+)?|(['"])[^'"\\]*\2|\[\s*\]|\{\s*\}))?\s*;?\s*$/;

function readLiteralReturn(line: SourceLine): string | undefined {
  if (line.isComment) return undefined;
  const match = LITERAL_RETURN.exec(withoutLineComment(line.raw));
  if (match === null) return undefined;
  return (match[1] ?? 'undefined').replace(/^\[\s*\]$/, '[]').replace(/^\{\s*\}$/, '{}');
}

const isFalsy = (literal: string): boolean => /^(?:false|null|undefined|0|-0|''|"")$/.test(literal);

/**
 * The one removed `return <literal>` among `removed` (a hunk's lines and its neighbours') that an added `return
 * <literal>` of another value replaced: h3's serveStatic turned `if (!options.fallthrough) { throw … } return false;`
 * into `if (options.fallthrough) { return; } throw …`, so a fall-through now gives `undefined`, not `false`. None when
 * they hold several, or none, or the removed one is added again word for word.
 */
function findReplacedReturn(removed: readonly SourceLine[], addedCode: ReadonlySet<string>): SourceLine | undefined {
  const returns = removed.filter((line) => readLiteralReturn(line) !== undefined && !addedCode.has(toMovedText(line.text)));
  return returns.length === 1 ? returns[0] : undefined;
}

/** A literal returned in place of another (`return false` → `return`, `return null` → `return []`): what every caller gets. */
function classifyReturned(before: SourceLine, after: SourceLine, line: number): SemanticChange | undefined {
  const was = readLiteralReturn(before);
  const now = readLiteralReturn(after);
  if (was === undefined || now === undefined || was === now) return undefined;
  const truth =
    isFalsy(was) === isFalsy(now)
      ? `both ${isFalsy(now) ? 'falsy' : 'truthy'}: a caller that compares with ${was} sees the difference, one that tests the result's truth does not`
      : `one truthy, one falsy: a caller that tests the result now takes its other branch`;
  return {
    kind: 'return',
    line,
    before: excerpt(withoutBrace(before.raw)),
    after: excerpt(withoutBrace(after.raw)),
    subject: `now returns ${now} where it returned ${was}`,
    limit: was,
    values: `an input that reaches line ${line}, asserting the value its caller gets (${now}, not ${was}; ${truth})`,
  };
}

/**
 * The question left to a line of code that decides nothing new (classifyPair found nothing) but reads another value
 * than the line of code it replaced (findReplacedRead).
 */
function classifyRead(before: SourceLine, after: SourceLine, line: number): SemanticChange | undefined {
  if (CONDITION.test(after.code) || before.code === after.code) return undefined;
  const read = findReplacedRead(before.text, after.text);
  if (read === undefined) return undefined;
  return {
    kind: 'read',
    line,
    before: excerpt(withoutBrace(before.raw)),
    after: excerpt(withoutBrace(after.raw)),
    subject: excerpt(read.read),
    limit: read.was,
    values:
      read.callee === undefined
        ? `an input for which ${read.was} and ${read.read} hold different values`
        : `an input for which ${read.was} and ${read.read} differ, passed to ${read.callee}`,
  };
}

const KEYWORDS = new Set([
  'async',
  'await',
  'break',
  'case',
  'catch',
  'const',
  'continue',
  'default',
  'delete',
  'do',
  'else',
  'export',
  'false',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'let',
  'new',
  'null',
  'of',
  'return',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'undefined',
  'var',
  'void',
  'while',
  'yield',
]);

function namesOf(code: string, syntax: HunkSyntax): Set<string> {
  return new Set((code.match(/[A-Za-z_$][\w$]*/g) ?? []).filter((name) => !syntax.keywords.has(name)));
}

/** A name declared with a boolean literal: `let x = true;`, Go's `x := true` or `var x = true`, Python's `x = True`. */
const FLAG_DECLARATION: Record<SourceLanguage, RegExp> = {
  javascript: /^\s*(?:let|var|const)\s+([A-Za-z_$][\w$]*)\s*(?::\s*boolean\s*)?=\s*(true|false)\s*;?\s*$/,
  go: /^\s*(?:var\s+)?([A-Za-z_]\w*)\s*(?:bool\s*)?:?=\s*(true|false)\s*$/,
  python: /^\s*([A-Za-z_]\w*)\s*(?::\s*bool\s*)?=\s*(True|False)\s*$/,
};
/** How far below its declaration a flag's test is looked for. */
const FLAG_TEST_DISTANCE = 80;

/**
 * A flag that starts the other way (echo's `pathUnescape := true` → `pathUnescape := false`, its fix for a path
 * unescaped twice): wherever the code below does not set it, the branch it decides flips. Asked as a changed default
 * only when a line below tests the name (an `if`, a `while`, a ternary or a link of `&&`/`||`, `and`/`or`).
 */
function findFlippedFlag(
  before: SourceLine,
  after: SourceLine,
  head: readonly SourceLine[],
  line: number,
  language: SourceLanguage,
): SemanticChange | undefined {
  const pattern = FLAG_DECLARATION[language];
  const old = pattern.exec(before.code);
  const now = pattern.exec(after.code);
  if (old === null || now === null || old[1] !== now[1] || old[2] === now[2]) return undefined;
  const name = now[1] ?? '';
  const word = `(?<![\\w$.])!?${name.replace(/\$/g, '\\$')}(?![\\w$])`;
  const test = new RegExp(
    `^\\s*(?:\\}\\s*)?(?:else\\s+)?(?:if|elif|while)\\b.*${word}|${word}\\s*(?:\\?|&&|\\|\\||\\band\\b|\\bor\\b)|(?:&&|\\|\\||\\band|\\bor|\\bnot)\\s*${word}`,
  );
  const tested = head.slice(line, line + FLAG_TEST_DISTANCE).some((next) => !next.isComment && test.test(next.code));
  if (!tested) return undefined;
  const [was, value] = [old[2] ?? '', now[2] ?? ''];
  const values = `an input that reaches line ${line} and leaves ${name} as it starts (${value} now, ${was} before), and one that sets it`;
  return toReplacedDefault(before, after, line, name, value, values);
}

/**
 * The one removed `if` (or `while`) of a hunk, not paired in place with another added line, that an added one replaced
 * (sharing a name with it), with its offset in the hunk; none when several are.
 */
function findReplacedBranch(
  removed: readonly SourceLine[],
  after: SourceLine,
  syntax: HunkSyntax,
  paired: ReadonlySet<number>,
  isKept: (line: SourceLine) => boolean,
): { line: SourceLine; offset: number } | undefined {
  const branches = removed.flatMap((line, offset) =>
    !paired.has(offset) && BRANCH.test(line.code) && !isKept(line) && isReplacedBy(line, after, syntax) ? [{ line, offset }] : [],
  );
  return branches.length === 1 ? branches[0] : undefined;
}

/**
 * Whether `after` can stand where `removed` was: they share a name, or one of them names nothing (`return null;`), or
 * the removed line was an error path (its removal is a case of its own).
 */
function isReplacedBy(removed: SourceLine, after: SourceLine, syntax: HunkSyntax): boolean {
  if (syntax.isErrorPath(removed.code)) return true;
  // A line of block structure (`try {`, `} else {`, `}`) is not what a line of code replaced: vite wrapped a
  // `try {` in a new `if (!config.resolve?.preserveSymlinks) {`, a new condition, not a rewritten `try`.
  if (BLOCK_STRUCTURE.test(removed.code)) return false;
  const old = namesOf(removed.code, syntax);
  const now = namesOf(after.code, syntax);
  if (old.size === 0 || now.size === 0) return true;
  for (const name of now) if (old.has(name)) return true;
  return false;
}

/**
 * `const name = expression;` (or let, var; a type annotation allowed), and a bare name given a value
 * (`modified = await hook(…)` after `let modified;`): the name and what it holds from there on.
 */
const DECLARATION = /^\s*(?:(?:export\s+)?(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=(?![=>])\s*(.+?);?\s*$/;
/** `for (const item of items)`, and `for (let i = 0; i < items.length; i++)` (or `++i`, `i += 1`): each element in order. */
const FOR_OF = /^\s*for\s*\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s+of\s+([^;]+?)\s*\)\s*\{?\s*$/;
const FOR_INDEX =
  /^\s*for\s*\(\s*(?:let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*0\s*;\s*\1\s*<\s*([^;]+?)\.length\s*;\s*(?:\1\s*\+\+|\+\+\s*\1|\1\s*\+=\s*1)\s*\)\s*\{?\s*$/;

/** `for (let i = 0; i < count; i++)` and `while (count--)`: `count` times, whatever the counter is called. */
const FOR_COUNT =
  /^\s*for\s*\(\s*(?:let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*0\s*;\s*\1\s*<\s*([\w$.]+)\s*;\s*(?:\1\s*\+\+|\+\+\s*\1|\1\s*\+=\s*1)\s*\)\s*\{?\s*$/;
const WHILE_COUNT = /^\s*while\s*\(\s*([\w$.]+)\s*--\s*(?:>\s*0\s*)?\)\s*\{?\s*$/;

function findLoop(text: string): Loop | undefined {
  const code = text.replace(/\/\/.*$/, '');
  const each = FOR_OF.exec(code);
  if (each?.[1] !== undefined && each[2] !== undefined) return { collection: each[2], element: each[1] };
  const indexed = FOR_INDEX.exec(code);
  if (indexed?.[1] !== undefined && indexed[2] !== undefined) return { collection: indexed[2], index: indexed[1] };
  // Counting loops read as `for each count:<n>`: axios rewrote `while (size--)` as `for (let i = 0; i < size; i++)`.
  const count = FOR_COUNT.exec(code)?.[2] ?? WHILE_COUNT.exec(code)?.[1];
  return count === undefined ? undefined : { collection: `count:${count}` };
}

/**
 * A file's lines with their code. A line inside a block comment that does not start with `*` (`NOTE: Use DOMException
 * with AbortError name as specified in MDN docs` between `/*` and `*\/`) is a comment too, not code that says `in`.
 */
function readJavaScriptLines(text: string): SourceLine[] {
  const blanked = blankBlockComments(text);
  return text.split('\n').map((raw, index) => {
    const rest = blanked[index] ?? raw;
    const code = toCode(rest);
    return { raw, text: raw, code, isComment: isCommentLine(raw) || (rest !== raw && code === ''), inSignature: false };
  });
}

const JAVASCRIPT: HunkSyntax = {
  readLines: readJavaScriptLines,
  toCode,
  isErrorPath: (code) => ERROR_PATH.test(code),
  keywords: KEYWORDS,
  // The conditions of removed lines of a hunk (an `if`, `while`, ternary or conditional return).
  findCondition: (line) => {
    if (!CONDITION.test(line.code)) return undefined;
    const shown = line.raw.trim().replace(/^\s*(?:\}\s*)?(?:else\s+)?(?:if|while)\s*/, '');
    return withIndexComparisons(takeParenthesised(shown) ?? shown);
  },
  findDeclaration: (line) => {
    const match = DECLARATION.exec(line.code === '' ? '' : withoutLineComment(line.raw));
    return match?.[1] !== undefined && match[2] !== undefined ? [match[1], match[2]] : undefined;
  },
  findLoop,
  findRegexLiterals: (text) =>
    scanRegexes(text)
      .filter((regex) => regex.literal)
      .map((regex) => ({ start: regex.start, end: regex.end, token: canonicalRegexLiteral(regex.shown) })),
  classify: (before, after, line, following, isOldLogic, preceding) =>
    classifyPair(
      before?.raw,
      after.raw,
      line,
      () => following().map((next) => next.raw),
      isOldLogic,
      () => (preceding?.() ?? []).map((previous) => previous.raw),
    ),
};

/**
 * What the diff changed in the code's decisions: comparisons and their limits, defaults, conditions,
 * error paths, regular expressions and arithmetic or rounding, read in the syntax of the file's language
 * (JavaScript and TypeScript, Python or Go). Lines of a hunk are paired in order (the i-th removed line with the
 * i-th added one); added lines without a partner count as new.
 */
/** A throw, catch or rejection, or an HTTP error status (`res.status(400)`, `ctx.body(null, 400)`) on this line. */
export function isErrorPathLine(line: string): boolean {
  return !isCommentLine(line) && (ERROR_PATH.test(toCode(line)) || WRITTEN_STATUS.test(line));
}

/**
 * The `if` tests a file's hunks removed, as written (`readIfTest`): another file of the change that makes one of them
 * moved it there (`isMovedTest`).
 */
/**
 * A new loop's header that only runs it over a collection or a chain, written the usual way: `for (let i = start; i <
 * list.length; i++)`, Go's `for i := 0; i < n; i++`, or a walk up a chain (`for c := cmd; c != nil; c = c.parent`,
 * `for (let node = head; node; node = node.next)`), or a drain that reads until nothing is left. Its test is the loop's
 * end, not a decision of the change (body-parser's `i < str.length`, urfave/cli's parent walk); `<=`, a step other than
 * one, or a countdown asks as before.
 */
const PLAIN_LOOP_HEADERS = [
  /^\s*for\s*\(\s*(?:let|var)?\s*([A-Za-z_$][\w$]*)\s*=\s*[^;]+;\s*\1\s*<\s*[\w$.]+\s*;\s*(?:\1\+\+|\+\+\1|\1\s*\+=\s*1)\s*\)/,
  /^\s*for\s+([A-Za-z_]\w*)\s*:=\s*[^;]+;\s*\1\s*<\s*[\w.()]+\s*;\s*\1\+\+\s*\{/,
  /^\s*for\s+([A-Za-z_]\w*)\s*:=\s*[^;]+;\s*\1\s*!=\s*nil\s*;\s*\1\s*=\s*\1\.\w+\s*\{/,
  /^\s*for\s*\(\s*(?:let|var)?\s*([A-Za-z_$][\w$]*)\s*=\s*[^;]+;\s*\1(?:\s*!==?\s*(?:null|undefined))?\s*;\s*\1\s*=\s*\1\.[A-Za-z_$][\w$]*\s*\)/,
  // A drain: a read called until it gives nothing, with an empty body (multer's `while (stream.read() !== null) {}`).
  /^\s*while\s*\(\s*[A-Za-z_$][\w$.]*\([^()]*\)\s*!==?\s*(?:null|undefined)\s*\)\s*\{\s*\}\s*;?\s*$/,
];

function isPlainLoopHeader(text: string): boolean {
  return PLAIN_LOOP_HEADERS.some((pattern) => pattern.test(text));
}

/** A loop on one flag: Python's `while changed:`, JavaScript's `while (changed) {`, Go's `for changed {`. */
const FLAG_LOOP =
  /^\s*(?:while\s+(?:not\s+)?([A-Za-z_]\w*)\s*:|while\s*\(\s*!?([A-Za-z_$][\w$]*)\s*\)\s*\{?|for\s+!?([A-Za-z_]\w*)\s*\{)\s*$/;
/** How far into a flag loop's body the assignment of its flag is looked for. */
const MAX_FLAG_LOOP_LINES = 60;

/**
 * A new loop that runs until its own flag says nothing changed (cattrs's `while made_progress:`, whose body sets
 * `made_progress = False` and sets it back when a pass removed something): its test is the loop's end, true then
 * false in every run, not a decision an input picks. The body's decisions are asked.
 */
function isFlagLoopHeader(head: readonly SourceLine[], line: number): boolean {
  const header = head[line - 1];
  const match = header === undefined ? null : FLAG_LOOP.exec(header.code);
  const flag = match?.[1] ?? match?.[2] ?? match?.[3];
  if (header === undefined || flag === undefined) return false;
  const indent = header.raw.length - header.raw.trimStart().length;
  const assigns = new RegExp(`^\\s*${flag.replace(/\$/g, '\\$')}\\s*:?=\\s*(?:True|False|true|false)\\b`);
  for (let at = line; at < head.length && at < line + MAX_FLAG_LOOP_LINES; at++) {
    const next = head[at];
    if (next === undefined || next.isComment || next.code.trim() === '') continue;
    if (next.raw.length - next.raw.trimStart().length <= indent && !/^\s*\}/.test(next.raw)) return false;
    if (assigns.test(next.code)) return true;
  }
  return false;
}

/** A coverage tool's marker for code the tests are not meant to run: istanbul, c8 and v8 ignores, coverage.py's pragma. */
const COVERAGE_IGNORE = /\b(?:istanbul|c8|v8)\s+ignore\b|#\s*pragma:\s*no\s*cover\b/;

/** The lines a block of new code is known by when it is written twice, and the characters they must say together. */
const COPIED_BLOCK_LINES = 3;
const MIN_COPIED_BLOCK = 60;

/**
 * The key of the new code from `line` on (its first COPIED_BLOCK_LINES code lines, as moved text), when those say
 * enough to be a copy rather than an idiom: `if err != nil { return err }` in two hunks checks two different calls.
 */
function toCopiedBlock(head: readonly SourceLine[], line: number): string | undefined {
  const lines: string[] = [];
  for (let at = line - 1; at < head.length && lines.length < COPIED_BLOCK_LINES; at++) {
    const next = head[at];
    if (next !== undefined && !next.isComment && next.code.trim() !== '') lines.push(toMovedText(next.text));
  }
  if (lines.length < COPIED_BLOCK_LINES || lines.join('').replace(/\s/g, '').length < MIN_COPIED_BLOCK) return undefined;
  return `block:${lines.join('\n')}`;
}

/** A call given one name as its first argument: the callee and the name. */
const CALL_WITH_NAME = /([A-Za-z_$][\w$.]*)\(\s*([A-Za-z_$][\w$]*)\s*[,)]/g;
/**
 * A callee that compiles a regular expression: `RegExp` (with or without `new`), Go's `regexp.MustCompile`, Python's
 * `re.compile`, or a helper named for both (go-playground/validator's `lazyRegexCompile`). A template's `compile` is none.
 */
const isRegexCompiler = (callee: string): boolean =>
  /^(?:RegExp|regexp\.(?:Must)?Compile(?:POSIX)?|re\.compile)$/.test(callee) ||
  (/compile/i.test(callee) && /reg(?:ex|exp)?(?![a-z])|Regexp?/i.test(callee));
/** A constant set to a string literal: `name = "…"` in a Go const block, `const name = '…'`, `NAME = r"…"`. */
const STRING_CONSTANT =
  /^\s*(?:(?:export\s+)?(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)(?:\s+string)?\s*(?::\s*string\s*)?=\s*(r?(?:`[^`]*`|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'))\s*[;,]?\s*(?:\/\/.*|#.*)?$/;

/** The names the file passes, alone, to a call that compiles a pattern. */
function findCompiledNames(text: string | undefined): ReadonlySet<string> {
  const names = new Set<string>();
  if (text === undefined) return names;
  for (const match of text.matchAll(CALL_WITH_NAME))
    if (match[1] !== undefined && match[2] !== undefined && isRegexCompiler(match[1])) names.add(match[2]);
  return names;
}

/**
 * A changed pattern kept in a constant the file compiles (go-playground/validator's `e164RegexString = "^\\+?[1-9]\\d{7,14}$"`,
 * compiled by `lazyRegexCompile(e164RegexString)`): the same question as a pattern changed where it is compiled.
 */
function findCompiledConstant(
  before: SourceLine | undefined,
  after: SourceLine,
  line: number,
  compiled: ReadonlySet<string>,
): SemanticChange | undefined {
  if (before === undefined) return undefined;
  const now = STRING_CONSTANT.exec(after.text);
  const was = STRING_CONSTANT.exec(before.text);
  if (now?.[1] === undefined || now[2] === undefined || was?.[1] !== now[1] || was[2] === now[2] || !compiled.has(now[1])) return undefined;
  return {
    kind: 'regex',
    line,
    before: excerpt(before.text.trim()),
    after: excerpt(after.text.trim()),
    subject: excerpt(now[2]),
    limit: '',
    values: REGEX_VALUES,
  };
}

/** A member path of two links or more (`options.signal!.reason`), non-null assertions allowed between links. */
const MEMBER_PATH = /(?<![\w$#.!])[A-Za-z_$#][\w$#]*(?:!?\.[A-Za-z_$#][\w$#]*){2,}/g;

/**
 * Whether a line is a removed one word for word but for a value reached from further out: `reject(signal.reason);`
 * moved out of p-queue's `#throwOnAbort(signal)` and inlined where `options` is at hand, as `reject(options.signal!.reason);`.
 * The same value read by a longer path (its last two links or more kept) decides nothing new.
 */
function isReachedFurther(text: string, removed: ReadonlySet<string>): boolean {
  const moved = toMovedText(text);
  for (const match of moved.matchAll(MEMBER_PATH)) {
    const links = match[0].replace(/!\./g, '.').split('.');
    for (let drop = 1; links.length - drop >= 2; drop++) {
      const shorter = `${moved.slice(0, match.index)}${links.slice(drop).join('.')}${moved.slice(match.index + match[0].length)}`;
      if (removed.has(shorter)) return true;
    }
  }
  return false;
}

export function listRemovedTests(baseText: string | undefined, hunks: readonly Hunk[], language: SourceLanguage = 'javascript'): string[] {
  if (baseText === undefined) return [];
  const base = (language === 'javascript' ? JAVASCRIPT : createPythonOrGoSyntax(language)).readLines(baseText);
  return hunks.flatMap((hunk) => readRemovedTests(base, hunk, language));
}

/** The `if` tests of the base lines a hunk removes (readIfTest, readBranchTest). */
function readRemovedTests(base: readonly SourceLine[], hunk: Hunk, language: SourceLanguage): string[] {
  return base
    .slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines)
    .flatMap((line) =>
      line.isComment ? [] : ((language === 'javascript' ? readIfTest(line.text) : readBranchTest(line.text, language)) ?? []),
    );
}

/** The test of a Python `if`/`elif` line or a Go `if`/`} else if` line, as written, spaces collapsed. */
function readBranchTest(text: string, language: 'python' | 'go'): string | undefined {
  const match = (language === 'python' ? /^(?:el)?if\s+(.+?)\s*:$/ : /^(?:\}\s*else\s+)?if\s+(.+?)\s*\{$/).exec(text.trim());
  return match?.[1]?.replace(/\s+/g, ' ');
}

/**
 * Whether a Python or Go `if` makes a test another file (or hunk) of the change removed, word for word: marshmallow
 * moved `if not isinstance(validator, Validator) and r is False:` from Field into the new validate.And. A bare name
 * or a short test (`if err != nil {`) is tested everywhere and moves nothing.
 */
function isMovedBranchTest(text: string, language: 'python' | 'go', removed: (test: string) => boolean): boolean {
  const test = readBranchTest(text, language);
  return test !== undefined && test.length >= MIN_MOVED_BRANCH_TEST && !/^[\w.]+$/.test(test) && removed(test);
}

/** A moved test must be at least this long (`err != nil` and `not data` are tested everywhere). */
const MIN_MOVED_BRANCH_TEST = 12;

/**
 * A line that opens a function, its name captured: `def name(`, `function name(`, a method's `name(…) {`,
 * `func (r) name(`. (A keyword's `if (x) {` reads as a method named `if`: calls of keywords are never looked up.)
 */
const DEFINITION: Readonly<Record<SourceLanguage, RegExp>> = {
  python: /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/,
  javascript:
    /^\s*(?:export\s+)?(?:async\s+)?(?:function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|(?:(?:static|private|public|protected)\s+)*([A-Za-z_$][\w$]*)\s*\([^;]*\)\s*(?::[^={;]+)?\{\s*$)/,
  go: /^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[[(]/,
};
/** Words that open a call-like form and name no function of the file. */
const NOT_CALLED = /^(?:if|for|while|switch|return|function|catch|elif|def|func|print|len|super|isinstance)$/;
/** How many lines of a called function's body are read, at most. */
const MAX_INLINED_LINES = 120;

/**
 * The body lines of each function of the base file that `removed` lines call by name (`self.with_name(`,
 * `this.build(`, `helper(`), when its definition is not itself among them: the first definition of the name. Python
 * bodies end where the indentation does; JavaScript and Go bodies where their braces close. Parameters are left out.
 */
function findCalledBodies(removed: readonly SourceLine[], base: readonly SourceLine[], language: SourceLanguage): SourceLine[] {
  const names = new Set<string>();
  for (const line of removed) {
    if (line.isComment) continue;
    for (const match of line.code.matchAll(/(?:^|[^\w$.]|(?:\b(?:self|this|cls)\.))([A-Za-z_$][\w$]*)\s*\(/g)) {
      const name = match[1] ?? '';
      if (!NOT_CALLED.test(name)) names.add(name);
    }
  }
  if (names.size === 0) return [];
  const removedSet = new Set(removed);
  const definitions = new Map<string, number>();
  for (const [index, line] of base.entries()) {
    if (line.isComment) continue;
    const match = DEFINITION[language].exec(line.code);
    const name = match?.[1] ?? match?.[2];
    if (name !== undefined && names.has(name) && !definitions.has(name) && !removedSet.has(line)) definitions.set(name, index);
  }
  const bodies: SourceLine[] = [];
  for (const at of definitions.values()) bodies.push(...readBody(base, at, language));
  return bodies;
}

/**
 * The lines, as written, of the functions of the base file that lines the hunks removed call (findCalledBodies): what a
 * change that put a call's body in its place took, for the signals it only moved.
 */
export function listCalledBodyLines(baseText: string, hunks: readonly Hunk[], language: SourceLanguage): string[] {
  const syntax = language === 'javascript' ? JAVASCRIPT : createPythonOrGoSyntax(language);
  const base = syntax.readLines(baseText);
  const removed = hunks.flatMap((hunk) => base.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines));
  return findCalledBodies(removed, base, language).map((line) => line.raw);
}

/** The lines of the body of the function whose definition opens at `at` (0-based), up to MAX_INLINED_LINES. */
function readBody(lines: readonly SourceLine[], at: number, language: SourceLanguage): SourceLine[] {
  const opening = lines[at] as SourceLine;
  const indent = opening.raw.length - opening.raw.trimStart().length;
  const body: SourceLine[] = [];
  let depth = 0;
  let opened = false;
  for (let index = at; index < lines.length && index <= at + MAX_INLINED_LINES; index++) {
    const line = lines[index] as SourceLine;
    if (language === 'python') {
      // The bracket that closes a signature of several lines (`    ) -> "URL":`) stands at the `def`'s indentation.
      const code = line.code.trim();
      const outside = code !== '' && !line.isComment && !/^[)\]]/.test(code) && line.raw.length - line.raw.trimStart().length <= indent;
      if (index > at && outside) break;
      // A parameter's default (`keep_query: bool = False,`) would read as the value the name holds.
      if (index > at && !line.inSignature) body.push(line);
      continue;
    }
    // Past the brace that opens the body: the parameters of a signature of several lines stay out.
    if (opened && index > at) body.push(line);
    for (const char of line.code) depth += char === '{' ? 1 : char === '}' ? -1 : 0;
    if (depth > 0) opened = true;
    else if (opened) break;
  }
  return body;
}

export function findSemanticChanges(
  baseText: string | undefined,
  headText: string | undefined,
  hunks: readonly Hunk[],
  language: SourceLanguage = 'javascript',
  /** Whether another file of the change removed an `if` with this test (listRemovedTests). */
  removedElsewhere: (test: string) => boolean = () => false,
): SemanticChange[] {
  if (headText === undefined) return [];
  const syntax = language === 'javascript' ? JAVASCRIPT : createPythonOrGoSyntax(language);
  const head = syntax.readLines(headText);
  const base = baseText === undefined ? [] : syntax.readLines(baseText);
  const changes: SemanticChange[] = [];
  const seen = new Set<string>();
  const addedHunks = new Set<number>();
  const readsSchemas = language === 'javascript' && importsSchemaLibrary(headText);
  // A decision extracted into a new function or moved to another hunk is the old logic too (koa moved
  // `options.asyncLocalStorage instanceof AsyncLocalStorage` into getAsyncLocalStorage, word for word).
  const isMovedLogic =
    hunks.length > 1
      ? createOldLogicCheck(
          hunks.flatMap((hunk) => base.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines)),
          hunks.flatMap((hunk) => head.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines)),
          base,
          head,
          syntax,
        )
      : () => false;
  // A call the change replaced by the called function's own lines (yarl's with_suffix stopped calling
  // `self.with_name(name, keep_query=keep_query, …)` and took its `query = self._query if keep_query else ""`): the
  // decisions of that body are old.
  const inlined = findCalledBodies(
    hunks.flatMap((hunk) => base.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines)),
    base,
    language,
  );
  const isInlinedLogic =
    inlined.length > 0
      ? createOldLogicCheck(
          inlined,
          hunks.flatMap((hunk) => head.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines)),
          base,
          head,
          syntax,
        )
      : () => false;
  // The `if` tests each hunk removed: one another hunk makes again, or inverted into an early exit, was moved there
  // (p-queue's `if (this.#timeoutId === undefined) { … }` extracted as `#createIntervalTimeout`'s `if (this.#timeoutId
  // !== undefined) { return; }`), as one another file removed is.
  const removedTestsByHunk = hunks.map((hunk) => new Set(readRemovedTests(base, hunk, language)));
  const isRemovedInOtherHunk = (test: string, own: number): boolean =>
    removedTestsByHunk.some((tests, at) => at !== own && tests.has(test));
  // Names whose value the file compiles as a pattern, read once when a changed line may need them.
  let compiled: ReadonlySet<string> | undefined;
  const compiledNames = (): ReadonlySet<string> => (compiled ??= findCompiledNames(headText));
  const removedLines = hunks.flatMap((hunk) =>
    base.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines).filter((line) => !line.isComment),
  );
  // The option flags the removed lines set (`preventClose:true`), read when a changed line sets one.
  let flagsRemoved: ReadonlySet<string> | undefined;
  const removedFlags = (): ReadonlySet<string> =>
    (flagsRemoved ??= new Set(
      removedLines.flatMap((line) => [...line.code.matchAll(OPTION_FLAG)].map((match) => `${match[1]}:${match[2]}`)),
    ));
  // The removed lines as a link is compared with them, read once per file.
  const removedPlain = removedLines.map((line) => toPlainText(line.text));
  const addedCode = new Set(
    hunks.flatMap((hunk) => head.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines).map((line) => toMovedText(line.text))),
  );
  // An `if` the change kept as the `else if` of a branch written above it (execa put `if (next === '\n') {…}` before its
  // `if (next === 'u' && …)`): the new branch is new code, not a rewrite of the one it now precedes.
  const keptAsElse = new Set(
    [...addedCode].flatMap((text) => {
      const kept = /^else\s+(if\b.*)$/.exec(text)?.[1];
      return kept === undefined ? [] : [kept];
    }),
  );
  const isKeptBranch = (line: SourceLine): boolean => keptAsElse.has(toMovedText(line.text));
  const removedCode = new Set(
    removedLines.map((line) => toMovedText(line.text)).filter((text) => /[\w$]/.test(text) && text.length >= MIN_MOVED_TEXT),
  );
  // A line too short to be known by itself (`return err`) moved with the line above it, when that one moved too
  // (gin wrapped `if err = os.Chmod(dir, mode); err != nil {` and its `return err` in a new `if`).
  const removedPairs = new Set(
    hunks.flatMap((hunk) => {
      const lines = base.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines).filter((line) => !line.isComment);
      return lines.slice(1).map((line, index) => `${toMovedText(lines[index]?.text ?? '')}\n${toMovedText(line.text)}`);
    }),
  );
  const movedWithAbove = (above: SourceLine | undefined, line: SourceLine): boolean =>
    above !== undefined &&
    removedCode.has(toMovedText(above.text)) &&
    removedPairs.has(`${toMovedText(above.text)}\n${toMovedText(line.text)}`);
  // A pattern a removed line of any hunk already had is moved, not changed (`.replace(/\\/g, "\\\\")` out of a chain).
  const oldPatterns = new Set(removedLines.flatMap((line) => findRegexes(line.raw)));
  // So is a comparison a removed line made, the same operands and operator (`doc.memberships.length > 0` moved from a
  // filter's clauses into an `if`).
  // Negated too: `charCode >= 48` keeps the boundary of the removed `charCode < 48` (undici named the digit test it
  // inverted, `const startsWithDigit = charCode >= 48 && charCode <= 57`).
  const oldComparisons = new Set(removedLines.flatMap((line) => findComparisons(line.code).flatMap(withNegation)));
  // But a line the diff left as it was but for its comparison operators (`if (n === 1) {` → `if (n !== 1) {`, its
  // block below untouched) flipped its decision in place: the same code now runs for the other inputs.
  const withoutOperators = (code: string): string =>
    code
      .replace(/\s*(?:===|!==|==|!=|<=|>=|<|>)\s*/g, ' ~ ')
      .replace(/\s+/g, ' ')
      .trim();
  const flippedInPlace = new Set(removedLines.map((line) => withoutOperators(line.code)));
  const isFlippedInPlace = (line: number): boolean => {
    const code = head[line - 1]?.code ?? '';
    const next = head[line];
    return (
      flippedInPlace.has(withoutOperators(code)) &&
      !removedLines.some((removed) => removed.code.trim() === code.trim()) &&
      (next === undefined || !addedLines.includes(next))
    );
  };
  // And arithmetic a removed line did, the same operands (jotai moved a counter's `c + 1` into a new callback).
  const isOldArithmetic = (text: string): boolean => {
    // Every operation, overlapping: `amount * 100 + 1` is `amount * 100` and `100 + 1`, the second new.
    const found = [...toPlainText(text).matchAll(ARITHMETIC_EXPRESSION)].map((match) => match[1] ?? '');
    return found.length > 0 && found.every((expression) => removedPlain.some((removed) => removed.includes(expression)));
  };
  // Text joined, not numbers added: a line whose every operator is `+` and one of whose operands the lines above gave a
  // string (postcss's `return name + afterName + params` below `let name = '@' + node.name`). JavaScript only.
  const isJoinedText = (line: number): boolean => {
    const code = head[line - 1]?.code ?? '';
    if (language !== 'javascript' || !/^\++$/.test(operators(code))) return false;
    // A path separator joined on (formidable's `resolvedDir + path.sep`): text.
    if (/\+\s*path\.(?:sep|delimiter)\b|\bpath\.(?:sep|delimiter)\s*\+/.test(code)) return true;
    const operands = new Set(code.match(/(?<![\w$.])[A-Za-z_$][\w$]*(?![\w$.([])/g) ?? []);
    for (let at = line - 2; at >= Math.max(0, line - 1 - STRING_DECLARATION_LINES); at--) {
      const assigned = /^\s*(?:(?:let|const|var)\s+)?([A-Za-z_$][\w$]*)\s*\+?=(?!=)\s*(.*)$/.exec(head[at]?.code ?? '');
      const value = assigned?.[2] ?? '';
      if (assigned !== null && operands.has(assigned[1] ?? '') && (STRING_VALUE.test(value) || PATH_TEXT.test(value))) return true;
    }
    return false;
  };
  // And a normalisation a removed line made (pino-pretty split `.replace(/\s+/g, ' ').trim()` over three lines, the
  // `.trim()` on the last).
  const oldNormalisations = new Set(
    removedLines.flatMap((line) => [...line.code.matchAll(new RegExp(NORMALISATION.source, 'g'))].map((match) => match[1] ?? '')),
  );
  // A read renamed throughout the file (every name it read is gone from the head, every name it reads now was absent
  // from the base) is a rename, not another value.
  const namesIn = (lines: readonly SourceLine[]): Set<string> =>
    new Set(lines.flatMap((line) => (line.isComment ? [] : (line.code.match(/[A-Za-z_$][\w$]*/g) ?? []))));
  let fileNames: { base: Set<string>; head: Set<string> } | undefined;
  const isRenamedRead = (change: SemanticChange): boolean => {
    if (change.kind !== 'read') return false;
    fileNames ??= { base: namesIn(base), head: namesIn(head) };
    // `this` and `self` name the object, not a value: ky's local `mainRequest` became the new field
    // `this._originalRequest`, assigned what the local was.
    const names = (text: string): string[] => (text.match(/[A-Za-z_$][\w$]*/g) ?? []).filter((name) => name !== 'this' && name !== 'self');
    const gone = names(change.limit).filter((name) => !names(change.subject).includes(name));
    const added = names(change.subject).filter((name) => !names(change.limit).includes(name));
    return (
      gone.length > 0 &&
      added.length > 0 &&
      gone.every((name) => !fileNames?.head.has(name)) &&
      added.every((name) => !fileNames?.base.has(name)) &&
      !added.some((name) => isUnsetProperty(name, head))
    );
  };
  // A line that differs from the one it replaced only by names the change renamed throughout the file (gjson fixed the
  // spelling of `modifer`: every `modifer == 0` became `modifier == 0`) decides what it decided.
  // Variables only, declared in their file (`modifer := 0`, `let name =`): a call or a property replaced by another
  // (`Math.round` → `Math.floor`) is no spelling.
  const isDeclared = (name: string, lines: readonly SourceLine[]): boolean => {
    const declared = new RegExp(`(?:^|[^\\w$.])(?:(?:let|const|var)\\s+)?${name.replace(/\$/g, '\\$')}\\s*(?::=|=(?!=))`);
    return lines.some((line) => !line.isComment && declared.test(line.code));
  };
  const isRenamedLine = (before: SourceLine, after: SourceLine): boolean => {
    const split = (code: string): string[] =>
      code
        .replace(/\s+/g, ' ')
        .trim()
        .split(/([A-Za-z_$][\w$]*)/);
    const [was, now] = [split(before.code), split(after.code)];
    if (was.length !== now.length || before.code === after.code) return false;
    fileNames ??= { base: namesIn(base), head: namesIn(head) };
    const names = fileNames;
    // Odd positions hold names, even ones what stands between them.
    return was.every((part, at) => {
      const other = now[at] ?? '';
      if (part === other) return true;
      return at % 2 === 1 && !names.head.has(part) && !names.base.has(other) && isDeclared(part, base) && isDeclared(other, head);
    });
  };
  // A ternary's test a removed line already made, inline (pino-pretty split `${prettifiers.caller ? … : …}` out of a
  // template into a name of its own): the same decision.
  const isOldTernaryTest = (test: string): boolean => {
    const plain = toPlainText(test);
    return removedPlain.some((removed) => removed.includes(`${plain} ?`) || removed.includes(`(${plain}) ?`));
  };
  // The statements the change's added chain links belong to, joined on one line through each link, by moved form: read
  // once, when asked.
  let addedChains: string[] | undefined;
  // A line the change removed that an added chain still writes, broken over lines (`promise.then(resolve).catch(reject)`
  // made `promise` / `.then(resolve)` / `.catch(reject)` / `.then(…)`): moved, not removed.
  const isInAddedChain = (removed: SourceLine): boolean => {
    const text = withoutSemicolon(toMovedText(removed.text));
    if (text.length < MIN_MOVED_TEXT) return false;
    addedChains ??= hunks.flatMap((hunk) => {
      const joined: string[] = [];
      for (let at = hunk.newStart - 1; at < hunk.newStart - 1 + hunk.newLines; at++) {
        if (isChainLink(head[at])) joined.push(toMovedText(joinChainAbove(head, at) ?? ''));
      }
      return joined;
    });
    return addedChains.some((chain) => chain.includes(text));
  };
  // Lines of the head and each with the line below it, by moved form: read once, when a removed error path is asked.
  let headLines: { single: Set<string>; pairs: Set<string> } | undefined;
  // Only a throw that makes its error with a message: a `} catch (e) {` or a bare `throw err` said elsewhere in the head
  // is another function's.
  const isStillInHead = (removed: SourceLine): boolean => {
    const text = toMovedText(removed.text);
    if (!MADE_THROW.test(text) || !(text.endsWith('(') || /["'`]/.test(text))) return false;
    const at = base.indexOf(removed);
    if (at === -1) return false;
    if (headLines === undefined) {
      const moved = head.map((line) => toMovedText(line.text));
      headLines = { single: new Set(moved), pairs: new Set(moved.slice(1).map((text, index) => `${moved[index]}\n${text}`)) };
    }
    // A call whose message goes on below (`throw new TypeORMError(`) is the same only with that message.
    return text.endsWith('(') ? headLines.pairs.has(`${text}\n${toMovedText(base[at + 1]?.text ?? '')}`) : headLines.single.has(text);
  };
  // A guard that throws, made again by an added line with the same test (jose's `if (header.alg !== 'none') throw new
  // Error()` inside a try became `if (header.alg !== 'none') {` / `throw new JWTInvalid(…)` after it), or a catch
  // opened again (`} catch {` → `} catch (cause) {`): the error path moved, its error named anew; no input that used
  // to fail now passes.
  let addedTests: Set<string> | undefined;
  // Go's `return allMethods, err` after a walk made `return allMethods, nil` after a loop that returns `nil, err` itself
  // (gorilla/mux's CORSMethodMiddleware fix): the same error still goes back to the caller, from an added line.
  const isErrorStillReturned = (removed: SourceLine): boolean => {
    const name = language === 'go' ? /^return\b.*?\b(err|\w+Err)\s*$/.exec(removed.code)?.[1] : undefined;
    if (name === undefined) return false;
    const returned = new RegExp(`^return\\b.*\\b${name}\\s*$`);
    return addedLines.some((line) => returned.test(line.code));
  };
  const isGuardStillMade = (removed: SourceLine): boolean => {
    if (language !== 'javascript' || !ERROR_PATH.test(removed.code)) return false;
    if (CATCH_OPENER.test(removed.code))
      return hunks.some((hunk) =>
        head.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines).some((line) => CATCH_OPENER.test(line.code)),
      );
    const test = syntax.findCondition(removed);
    if (test === undefined) return false;
    addedTests ??= new Set(
      hunks.flatMap((hunk) =>
        head.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines).flatMap((line) => {
          const made = syntax.findCondition(line);
          return made === undefined ? [] : [collapseSpaces(made)];
        }),
      ),
    );
    return addedTests.has(collapseSpaces(test));
  };
  // The same error made again by an added line, its arguments changed (a `new DOMException(reason)` made
  // `new DOMException(reason, 'AbortError')` under a new support check): no input that failed there now passes. Its
  // message, where the line or the next one starts one, must start the same: a check dropped while another throws the
  // same type is a removed error path.
  const isErrorStillMade = (removed: SourceLine): boolean => {
    const made = language === 'javascript' ? MADE_ERROR.exec(removed.code)?.[1] : undefined;
    if (made === undefined) return false;
    const again = new RegExp(`(?<![\\w$.])(?:new\\s+)?${made}\\s*\\(`);
    const at = base.indexOf(removed);
    const message = readMessageStart(removed.text, base[at + 1]?.text);
    return addedLines.some((line) => {
      if (!again.test(line.code)) return false;
      if (message === undefined) return true;
      const index = head.indexOf(line);
      return readMessageStart(line.text, head[index + 1]?.text) === message;
    });
  };
  // A throw whose error the change moved into a helper it adds (`throw InvalidRequestError(`DNS lookup …`)` became
  // `throw privateIpError(hostname)`, the helper making the same error): the error path is the old one.
  const isErrorMovedToHelper = (before: SourceLine, after: SourceLine): boolean => {
    const helper = /^throw\s+(?:new\s+)?([A-Za-z_$][\w$]*)\s*\(/.exec(after.code)?.[1];
    if (helper === undefined || helper === MADE_ERROR.exec(before.code)?.[1] || !isErrorStillMade(before)) return false;
    const declared = new RegExp(`\\bfunction\\s+${helper}\\b|\\b(?:const|let)\\s+${helper}\\s*=`);
    return addedLines.some((line) => declared.test(line.code));
  };
  // Where each removed line stood in the base, by its moved form (the first one): read once, on the first property line.
  let removedAt: Map<string, number> | undefined;
  const removedAtByText = (): ReadonlyMap<string, number> => {
    if (removedAt !== undefined) return removedAt;
    removedAt = new Map();
    for (const hunk of hunks) {
      for (let index = hunk.oldStart - 1; index < hunk.oldStart - 1 + hunk.oldLines; index++) {
        const text = toMovedText(base[index]?.text ?? '');
        if (!removedAt.has(text)) removedAt.set(text, index);
      }
    }
    return removedAt;
  };
  const addedLines = hunks.flatMap((hunk) =>
    head.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines).filter((line) => !line.isComment),
  );
  // A value the change keeps under a new name: a removed line assigned it in place (`opts.base = resolve(opts.base)`)
  // and an added one declares the name with the same expression (`const base = resolve(opts.base)`, unstorage's
  // fs-lite, which stopped writing to its caller's options): a read of the new name where the old one stood is the
  // same value.
  let keptNames: Map<string, string> | undefined;
  const isKeptUnderNewName = (change: SemanticChange): boolean => {
    if (change.kind !== 'read') return false;
    if (keptNames === undefined) {
      const declared = new Map<string, string>();
      for (const line of addedLines) {
        const found = /^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=(?![=>])\s*(.+?);?\s*$/.exec(line.text);
        if (found?.[1] !== undefined && found[2] !== undefined) declared.set(toMovedText(found[2]), found[1]);
      }
      keptNames = new Map();
      for (const line of removedLines) {
        const found = /^\s*([A-Za-z_$][\w$.]*)\s*=(?![=>])\s*(.+?);?\s*$/.exec(line.text);
        const name = found?.[2] === undefined ? undefined : declared.get(toMovedText(found[2]));
        if (found?.[1] !== undefined && name !== undefined) keptNames.set(found[1], name);
      }
    }
    return keptNames.get(change.limit.replace(/!$/, '')) === change.subject;
  };
  // A slice a removed line already took, the same collection and bound (cobra copied `args[:len(args)-1]` into a new
  // slice rather than taking it in place). The bound inside that slice's brackets: gjson's `len(value) > 2 &&
  // value[0] == '"'` made `len(value) >= 2` reads `value[0]` and says 2, but took no slice to 2.
  const isOldSlice = (change: SemanticChange): boolean => {
    const collection = /^len\((.+)\)$/.exec(change.subject)?.[1];
    if (collection === undefined) return false;
    const bound = change.limit.replace(/\s+/g, '');
    const quote = (text: string): string => text.replace(/\s+/g, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const [list, limit] = [quote(collection), quote(bound)];
    const slice = new RegExp(`${list}\\[[^\\]]*:[^\\]]*${limit}|${list}\\[${limit}:`);
    return removedLines.some((line) => slice.test(line.code.replace(/\s+/g, '')));
  };
  // An escaping another line of the hunk made or makes (outline's `.replace(/\\/g, …)` joined onto `return query`):
  // moved between lines, not changed.
  const isMovedEscaping = (subject: string): boolean => {
    const removed = subject.endsWith(REMOVED_ESCAPING);
    const lines = removed ? addedLines : removedLines;
    const name = removed ? subject.slice(0, -REMOVED_ESCAPING.length) : subject;
    return lines.some((line) => listEscapings(line.code, line.text).includes(name));
  };
  const isMoved = (change: SemanticChange): boolean =>
    (change.kind === 'option-flag' && removedFlags().has(`${change.subject}:${change.limit}`)) ||
    (change.kind === 'boundary' && isOldSlice(change)) ||
    (change.kind === 'regex' && oldPatterns.has(change.subject)) ||
    (change.kind === 'normalisation' && oldNormalisations.has(change.subject)) ||
    (change.kind === 'escaping' && isMovedEscaping(change.subject)) ||
    (change.kind === 'boundary' &&
      !isFlippedInPlace(change.line) &&
      findComparisons(head[change.line - 1]?.code ?? '').some(
        (comparison) =>
          comparison.startsWith(`${change.subject} `) && comparison.endsWith(` ${change.limit}`) && oldComparisons.has(comparison),
      ));
  // `throw error;` in a catch whose own line already asks its error path (`} catch (error) {`, a hunk earlier when the
  // diff splits the block): the same failure, asked twice.
  const isRethrowOfAskedCatch = (line: number): boolean => {
    const thrown = /^\s*throw\s+([A-Za-z_$][\w$]*)\s*;?\s*$/.exec(head[line - 1]?.code ?? '')?.[1];
    if (thrown === undefined) return false;
    return changes.some(
      (change) =>
        change.kind === 'error-path' &&
        change.line < line &&
        change.line >= line - MAX_CATCH_LINES &&
        CATCH_BINDING.exec(head[change.line - 1]?.code ?? '')?.[1] === thrown,
    );
  };
  let runtimeModuleNames: ReadonlySet<string> | undefined;
  const runtimeModules = (): ReadonlySet<string> => {
    runtimeModuleNames ??= findRuntimeModuleNames(head);
    return runtimeModuleNames;
  };
  for (const [index, hunk] of hunks.entries()) {
    const isHunkLogic = createOldLogicCheck(
      base.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines),
      head.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines),
      base,
      head,
      syntax,
    );
    // Logic the other hunks removed, made on first use: a test moved here from elsewhere, not rewritten in place.
    let isOtherHunkLogic: ((decision: string, at?: number) => boolean) | undefined;
    const isMovedHere = (decision: string, at?: number): boolean => {
      isOtherHunkLogic ??=
        hunks.length > 1
          ? createOldLogicCheck(
              hunks
                .filter((other) => other !== hunk)
                .flatMap((other) => base.slice(other.oldStart - 1, other.oldStart - 1 + other.oldLines)),
              hunks.flatMap((other) => head.slice(other.newStart - 1, other.newStart - 1 + other.newLines)),
              base,
              head,
              syntax,
            )
          : () => false;
      return isOtherHunkLogic(decision, at) || isInlinedLogic(decision, at);
    };
    const isOldLogic = (decision: string, at?: number, moved = false): boolean =>
      moved ? isMovedHere(decision, at) : isHunkLogic(decision, at) || isMovedLogic(decision, at) || isInlinedLogic(decision, at);
    if (hunk.newLines === 0) {
      const removed = base.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines);
      const dropped =
        (language === 'javascript' ? findDroppedOperand(removed, hunk.newStart + 1, addedLines) : undefined) ??
        (language === 'javascript'
          ? findRemovedDefault(removed, hunk.newStart + 1, addedLines, (text) => addedCode.has(toMovedText(text)))
          : undefined) ??
        findRemovedGuard(removed, hunk.newStart + 1, language, (text) => addedCode.has(toMovedText(text)), addedLines);
      if (dropped !== undefined && changes.length < MAX_CHANGES) changes.push(dropped);
      continue;
    }
    // For a changed read, lines of code pair with lines of code in order: a comment removed above the changed line
    // (zustand dropped a TODO over the call it changed) is no line it replaced. The decisions keep pairing by position.
    const isCode = (line: SourceLine): boolean => !line.isComment && line.code !== '';
    const removedInOrder = base.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines).filter(isCode);
    // Bindings the hunk renamed where they are declared: a read of the new name where the old one stood is the same value.
    const renamed = new Set<string>();
    // A read the hunk only reordered: a removed line of this hunk read the value read now, and an added line of the
    // change still reads the one read before (`a || b || c` rewritten `a || c || b`, paired line by line).
    const isReordered = (change: SemanticChange): boolean =>
      change.kind === 'read' &&
      removedInOrder.some((removed) => readsChain(removed.text, change.subject)) &&
      addedLines.some((added) => readsChain(added.text, change.limit));
    // A loop's variable renamed in the hunk (flask's `for bp in request.blueprints:` became `for name in chain([None],
    // reversed(request.blueprints)):`): a test of the new name that a removed line made of the old one is the old test.
    const addedInHunk = head.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newLines);
    const loop =
      findRenamedLoopBinding(removedInOrder, addedInHunk) ??
      (language === 'go' ? findRangeValueAsIndex(removedInOrder, addedInHunk) : undefined);
    const isRenamedLoopTest = (change: SemanticChange): boolean =>
      loop !== undefined &&
      (change.kind === 'condition' || change.kind === 'membership') &&
      removedInOrder.some((removed) =>
        toPlainText(removed.text).includes(
          toPlainText(
            change.subject.replace(new RegExp(`(?<![\\w$.])${loop.now.replace(/[$[\]]/g, '\\$&')}(?![\\w$])`, 'g'), () => loop.was),
          ),
        ),
      );
    const isRenamedBinding = (change: SemanticChange): boolean =>
      change.kind === 'read' &&
      [...renamed].some((pair) => {
        const [was = '', now = ''] = pair.split('\u0000');
        return change.limit.replace(new RegExp(`^${was.replace(/\$/g, '\\$')}(?![\\w$])`), now) === change.subject;
      });
    let paired = 0;
    // The hunk's removed lines by offset, and those an added line has replaced so far.
    const hunkRemoved = base.slice(hunk.oldStart - 1, hunk.oldStart - 1 + hunk.oldLines);
    const pairedOffsets = new Set<number>();
    // Go's `return result, err` made `var zero R` and `return zero, err`: the error returned is the same, the value
    // beside it is now the zero value. One read case, on the new return; its two lines ask nothing else.
    const zeroReturn = language === 'go' ? findZeroValueReturn(hunkRemoved, head, hunk.newStart, hunk.newLines) : undefined;
    if (zeroReturn !== undefined && !seen.has(`read:${zeroReturn.change.subject}:${zeroReturn.change.limit}`)) {
      seen.add(`read:${zeroReturn.change.subject}:${zeroReturn.change.limit}`);
      if (changes.length < MAX_CHANGES) changes.push(zeroReturn.change);
    }
    for (let offset = 0; offset < hunk.newLines && changes.length < MAX_CHANGES; offset++) {
      const line = hunk.newStart + offset;
      const after = head[line - 1];
      const partner = after !== undefined && isCode(after) ? removedInOrder[paired++] : undefined;
      const binding = partner === undefined || after === undefined ? undefined : findRenamedBinding(partner.text, after.text);
      if (binding !== undefined) renamed.add(`${binding.was}\u0000${binding.now}`);
      // A line another hunk removed word for word was moved (a check extracted into a function of its own).
      // A comment asks nothing, a line inside a block comment included (classifyPair reads a line alone).
      if (after === undefined || after.isComment || zeroReturn?.lines.has(line) === true) continue;
      // A key moved above a spread of the same object literal now yields to the spread's value of that key.
      const yielded = language === 'javascript' ? findYieldedKey(base, head, removedAtByText, line) : undefined;
      if (yielded !== undefined && !seen.has(`default:${yielded.subject}:${yielded.limit}`)) {
        seen.add(`default:${yielded.subject}:${yielded.limit}`);
        changes.push(yielded);
      }
      // Paired by position, unless the line there is not what this one replaced and the removed code line in the same
      // order is (nodemailer wrote three lines of comment above a helper whose pattern it widened, where two stood).
      const positional = offset < hunk.oldLines ? base[hunk.oldStart + offset - 1] : undefined;
      const removed =
        partner !== undefined &&
        partner !== positional &&
        (positional === undefined || !isReplacedBy(positional, after, syntax)) &&
        isReplacedBy(partner, after, syntax)
          ? partner
          : positional;
      // A removed line the change adds again was moved, not replaced: knex wrapped `releaseConnection(this.connection)`
      // in a new `if (this.connection) {`, which took its place in the diff.
      const replacedInPlace =
        removed !== undefined &&
        isReplacedBy(removed, after, syntax) &&
        !addedCode.has(toMovedText(removed.text)) &&
        !isKeptBranch(removed);
      if (replacedInPlace) pairedOffsets.add(offset);
      // Python: a line indented into or out of a block runs under another test now (starlette moved
      // `directory = os.path.realpath(directory)` into the `else:` above it).
      const moved =
        language === 'python' && removed !== undefined ? findReindentedBlock(base, head, hunk.oldStart + offset - 1, line - 1) : undefined;
      if (moved !== undefined) {
        // The test the line moved under is asked already where the hunk writes it (tablib's new `if self.headers:` above
        // the loops it now holds): one question.
        const asked = changes.some((change) => change.kind === 'condition' && change.subject === excerpt(moved.test));
        if (!asked && !seen.has(`condition:${index}`) && changes.length < MAX_CHANGES) {
          seen.add(`condition:${index}`);
          changes.push({
            kind: 'condition',
            line,
            before: excerpt(removed?.text.trim() ?? ''),
            after: excerpt(after.text.trim()),
            subject: excerpt(moved.test),
            limit: '',
            values: `an input for which ${excerpt(moved.test)} is true and one for which it is false: the line ${moved.into ? 'now runs in one of them only' : 'now runs in both'}`,
          });
        }
        continue;
      }
      if (removedCode.has(toMovedText(after.text)) || movedWithAbove(head[line - 2], after) || isReachedFurther(after.text, removedCode))
        continue;
      // Code its authors marked as never run by the tests (`/* istanbul ignore next */ throw …`, `# pragma: no cover`)
      // asks for no test that runs it.
      if (COVERAGE_IGNORE.test(after.raw) || (head[line - 2]?.isComment === true && COVERAGE_IGNORE.test(head[line - 2]?.raw ?? '')))
        continue;
      // A rewritten hunk pairs lines by position; a removed line that shares no name with the added one is not what
      // it replaced (`const value = await reader.read();` → `if (values.length > 0) {` is new code, not a new limit).
      // An `if` the hunk rewrote pairs with the removed `if` it replaced when the line at its place is something else
      // (mikro-orm removed `const toOne = …` above its `if` and dropped `|| !toOne` from it).
      // Not one that another added line replaced in place (Unleash's `if` gave way to `const key = …` above its own).
      const branch =
        replacedInPlace || language !== 'javascript' || !BRANCH.test(after.code)
          ? undefined
          : findReplacedBranch(hunkRemoved, after, syntax, pairedOffsets, isKeptBranch);
      if (branch !== undefined) pairedOffsets.add(branch.offset);
      const before = replacedInPlace ? removed : branch?.line;
      if (before !== undefined && isRenamedLine(before, after)) continue;
      const found = syntax.classify(
        before,
        after,
        line,
        () => head.slice(line, line + MAX_CONDITION_LINES * 2),
        isOldLogic,
        () => head.slice(Math.max(0, line - 1 - FLAG_CONTEXT_LINES), line - 1),
      );
      if (found.length === 0 && before !== undefined && language === 'javascript') {
        const option = findDefaultOption(before, after, head, line);
        if (option !== undefined) found.push(option);
      }
      // A default written as a constant the change declares with the old value (unstorage's `opts.table || "storage"` →
      // `opts.table || DEFAULT_TABLE_NAME`, `const DEFAULT_TABLE_NAME = "storage"`) is the same default.
      if (before !== undefined && language === 'javascript') {
        const kept = found.filter((change) => change.kind !== 'default' || !isSameDefaultValue(before, after, base, head));
        found.splice(0, found.length, ...kept);
      }
      const pattern = findCompiledConstant(before ?? partner, after, line, compiledNames());
      if (pattern !== undefined && !found.some((change) => change.kind === 'regex')) found.push(pattern);
      // Paired as code lines too: echo wrote three lines of comment above its flipped flag.
      const flagBefore = before ?? partner;
      const flipped = flagBefore === undefined ? undefined : findFlippedFlag(flagBefore, after, head, line, language);
      if (flipped !== undefined) found.push(flipped);
      if (found.length === 0 && language === 'javascript' && partner !== undefined && !isOldLogic(after.text, line)) {
        const other = isReplacedBy(partner, after, syntax)
          ? (classifyLoopExit(partner, after, line) ??
            classifyExit(
              partner,
              after,
              line,
              head.slice(line).find((next) => !next.isComment && next.code !== ''),
              () => endsFunctionBody(head, line - 1),
            ) ??
            classifyRead(partner, after, line))
          : undefined;
        if (other !== undefined) found.push(other);
      }
      // A filter added to a query chain (`.andWhere(noteId)`): the rows it no longer returns.
      if (found.length === 0 && language === 'javascript' && before === undefined) {
        const filter = classifyFilter(head, line);
        if (filter !== undefined) found.push(filter);
      }
      // A literal returned where the hunk removed a return of another (`return false` → `return`).
      // One per hunk, as every kind (the key below).
      if (found.length === 0 && language === 'javascript' && readLiteralReturn(after) !== undefined) {
        // The hunks around this one too: git splits h3's rewritten guard so that `return;` and the `return false;` it
        // replaced fall in two hunks a few lines apart.
        const near = hunks
          .filter((other) => Math.abs(other.oldStart - hunk.oldStart) <= NEAR_HUNK_LINES)
          .flatMap((other) => base.slice(other.oldStart - 1, other.oldStart - 1 + other.oldLines));
        const replaced = findReplacedReturn(near, addedCode);
        const returned = replaced === undefined ? undefined : classifyReturned(replaced, after, line);
        if (returned !== undefined) found.push(returned);
      }
      // A field added to a schema that was there before (a few lines into an existing object), not a new schema.
      const isFieldInsertion = baseText !== undefined && hunk.newLines - hunk.oldLines <= 3;
      // Each side as the whole chain it starts: `client_name: z` with `.string()`, `.min(1)`, `.optional()` below it.
      const validation =
        readsSchemas && (before !== undefined || isFieldInsertion)
          ? classifyChains(
              before === undefined ? undefined : joinChainBelow(base, base.indexOf(before)),
              joinChainBelow(head, line - 1),
              line,
            )
          : undefined;
      if (validation !== undefined) found.push(validation);
      // A guard clause written from the old test, inverted, decides nothing new (inverted-guard.ts).
      const inverted =
        language === 'javascript' &&
        before !== undefined &&
        (isInvertedGuard(base, hunk.oldStart + offset - 1, after, head[line]) ||
          isUnwrappedGuard(base, base.indexOf(before), head, line - 1));
      // An error path the diff only moved (a `.catch(` put on a line of its own) was not removed; nor one the head still
      // makes word for word, its message with it (typeorm folded increment's checks into a helper the diff matched
      // with decrement's).
      const stays =
        before !== undefined &&
        (addedCode.has(toMovedText(before.text)) ||
          isInAddedChain(before) ||
          isStillInHead(before) ||
          isGuardStillMade(before) ||
          isErrorStillReturned(before) ||
          isErrorStillMade(before));
      // A test another file of the change removed, made here the same way or inverted into an early exit, moved.
      const isRemovedTest = (test: string): boolean => removedElsewhere(test) || isRemovedInOtherHunk(test, index);
      const fromElsewhere =
        language === 'javascript' ? isMovedTest(after, head[line], isRemovedTest) : isMovedBranchTest(after.text, language, isRemovedTest);
      // A link of a chain that a removed line already tested (`type === 'laser'` once returned alone, now joined by
      // `|| type === 'custom'`) is the old test.
      // Read as written: the code form empties strings, and `type === 'laser'` would match `type === 'custom'`.
      const link =
        findOperand(after.code) === undefined && findLastOperand(after.code) === undefined
          ? undefined
          : (findOperand(after.text) ?? findLastOperand(after.text));
      // An optional access the new code no longer needs (`doc.collection?.isPrivate` under a new `if (!doc.collection)`)
      // reads the same.
      const oldLink = link !== undefined && removedPlain.some((removed) => removed.includes(toPlainText(link)));
      // A membership test a removed line of the change made (the line it stood on rewritten around it) is old.
      const isOldMembership = (change: SemanticChange): boolean =>
        change.kind === 'membership' && removedPlain.some((removed) => removed.includes(toPlainText(change.subject)));
      // A catch opened again (`} catch {` → `} catch (cause) {`) is no new error path; the line the diff paired with it
      // may still be one the change removed (a guard that throws, not made again).
      const isReopenedCatch = CATCH_OPENER.test(after.code) && removedLines.some((removed) => CATCH_OPENER.test(removed.code));
      if (isReopenedCatch && before !== undefined && !stays && !CATCH_OPENER.test(before.code) && ERROR_PATH.test(before.code)) {
        found.push({
          kind: 'error-path',
          line,
          before: excerpt(withoutBrace(before.raw)),
          after: excerpt(withoutBrace(after.raw)),
          subject: 'the removed error path',
          limit: '',
          values: REMOVED_ERROR_VALUES,
        });
      }
      const kept = found.filter(
        (change) =>
          !isOldMembership(change) &&
          !(oldLink && change.kind === 'condition') &&
          !(change.kind === 'condition' && isOldTernaryTest(change.subject)) &&
          !(change.kind === 'condition' && isConstantTest(change.subject)) &&
          !(change.kind === 'condition' && language === 'javascript' && isFeatureDetection(change.subject, runtimeModules())) &&
          !(change.kind === 'condition' && isOptionalPassThrough(after.text, change.subject)) &&
          !(change.kind === 'condition' && isWrappedInList(after.text)) &&
          !(before === undefined && (change.kind === 'condition' || change.kind === 'boundary') && isPlainLoopHeader(after.text)) &&
          !(before === undefined && change.kind === 'condition' && isFlagLoopHeader(head, line)) &&
          !isMoved(change) &&
          !(change.kind === 'error-path' && change.subject === 'the error path' && isReopenedCatch) &&
          !(
            change.kind === 'error-path' &&
            change.subject === 'the error path' &&
            before !== undefined &&
            isErrorMovedToHelper(before, after)
          ) &&
          !(change.kind === 'arithmetic' && change.subject === 'the arithmetic' && isOldArithmetic(after.text)) &&
          !(change.kind === 'arithmetic' && change.subject === 'the arithmetic' && isJoinedText(line)) &&
          !isRenamedRead(change) &&
          !isRenamedBinding(change) &&
          !isKeptUnderNewName(change) &&
          !isRenamedLoopTest(change) &&
          !isReordered(change) &&
          !(fromElsewhere && (change.kind === 'condition' || change.kind === 'boundary')) &&
          !(inverted && (change.kind === 'condition' || change.kind === 'boundary')) &&
          !(stays && change.kind === 'error-path' && change.subject === 'the removed error path'),
      );
      // A `return` added at the end of an unchanged `if` block (chi's missing return) stops what followed the block.
      if (before === undefined && kept.length === 0) {
        const exit = findAddedExit(head, line - 1, (at) => at >= hunk.newStart - 1 && at < hunk.newStart - 1 + hunk.newLines);
        if (exit !== undefined) kept.push(exit);
      }
      const grown =
        before === undefined &&
        language === 'javascript' &&
        !kept.some((change) => change.kind === 'condition' || change.kind === 'boundary')
          ? findGrownTest(after.text, removedPlain)
          : undefined;
      if (grown !== undefined && !isOldLogic(grown, line))
        kept.unshift({
          kind: 'condition',
          line,
          before: '',
          after: excerpt(after.text.trim()),
          subject: excerpt(grown),
          limit: '',
          values: toConditionValues(grown),
        });
      // Added lines (new code) give at most one case per hunk: their proof is the new code's test, not a before/after.
      // A library option whose effect is known (`rejectOnEmpty: true`: an unknown id is a 404) asks its own question.
      const added = before === undefined;
      // Such a flag takes no hunk's one case: hono's new `try` around a pipeTo that gained `preventAbort: true` asks both.
      const isKnown = (change: SemanticChange): boolean => change.kind === 'option-flag' && FLAG_VALUES[change.subject] !== undefined;
      const known = kept.filter(isKnown);
      const first = addedHunks.has(index) ? [] : kept.filter((change) => !isKnown(change)).slice(0, 1);
      const chosen = !added ? kept : [...first, ...known];
      if (added && first.length > 0) addedHunks.add(index);
      for (const change of chosen) {
        if (change.kind === 'error-path' && isRethrowOfAskedCatch(change.line)) continue;
        // `.catch(next)` a removed line of the hunk had on the same chain (fastify-cors joined `.then(…)` and
        // `.then(…).catch(next)` onto one line): the same failure goes to the same handler.
        const handler = change.values === CATCH_VALUES ? /\.catch\([^()]*\)/.exec(head[change.line - 1]?.text ?? '')?.[0] : undefined;
        if (handler !== undefined && hunkRemoved.some((removed) => removed.text.includes(handler))) continue;
        // One case per kind and hunk (a rewritten rounding spans lines), except boundaries and defaults, one per subject,
        // and reads, one per value replaced (ky passed `request` for `this.#originalRequest` in two hunks).
        const key =
          change.kind === 'boundary' || change.kind === 'default' || change.kind === 'read'
            ? `${change.kind}:${change.subject}:${change.limit}`
            : `${change.kind}:${index}`;
        if (seen.has(key)) continue;
        // The same edit made in two hunks (a header test given `.trim()` in two loops) asks once; so does a block of new
        // code written twice (viper's `case "durationSlice":` and the three lines below it, in both branches of find).
        const edit = change.before === '' ? toCopiedBlock(head, change.line) : `edit:${change.kind}:${change.before}\u0000${change.after}`;
        if (edit !== undefined && seen.has(edit)) continue;
        // A condition edited alike in functions that differ by a number (lo's Zip2…Zip9 each gained `|| !yield(item)`
        // after `ok == [N]bool{}`) is one question.
        const shape =
          change.kind === 'condition' && change.before !== ''
            ? `shape:${change.before.replace(/\d+/g, '#')}\u0000${change.after.replace(/\d+/g, '#')}`
            : undefined;
        if (shape !== undefined && seen.has(shape)) continue;
        seen.add(key);
        if (edit !== undefined) seen.add(edit);
        if (shape !== undefined) seen.add(shape);
        changes.push(change);
      }
    }
  }
  // A condition or membership test that differs from a removed one only by a value a read case names (`has(token.tokenName)` →
  // `has(key)` beside `add(token.tokenName)` → `add(key)`) asks that case's question again.
  const reads = changes.filter((change) => change.kind === 'read');
  const isReadAgain = (change: SemanticChange): boolean =>
    (change.kind === 'condition' || change.kind === 'membership') &&
    reads.some((read) => {
      const test = change.subject.replace(/^\((.*)\)$/, '$1');
      const swapped = test.replace(new RegExp(`(?<![\\w$.])${read.subject.replace(/[$.?()[\]]/g, '\\$&')}(?![\\w$])`, 'g'), read.limit);
      return swapped !== test && removedPlain.some((removed) => removed.includes(toPlainText(swapped)));
    });
  // An error built by a call that spans lines, with a changed decision among its arguments (ofetch's `new FetchError(`
  // then `message,` and `ctx.error ? { cause: ctx.error } : undefined`): one statement, one question, the decision's.
  const isErrorAroundDecision = (change: SemanticChange): boolean => {
    if (change.kind !== 'error-path') return false;
    const end = findStatementEnd(head, change.line);
    return changes.some((other) => other !== change && other.kind !== 'error-path' && other.line > change.line && other.line <= end);
  };
  // A new raise or throw that is the whole body of a branch whose test is asked on the line above (tomli's `if
  // nested_dict.is_frozen(key):` then `raise TOMLDecodeError(…)`): the condition's true outcome is that error, asked
  // once. An error path that names a status says more, and stays.
  const isBranchBodyError = (change: SemanticChange): boolean => {
    if (change.kind !== 'error-path' || change.subject !== 'the error path' || change.limit !== '') return false;
    let above = change.line - 1;
    while (above >= 1 && (head[above - 1]?.isComment === true || head[above - 1]?.code.trim() === '')) above -= 1;
    const opener = head[above - 1];
    const body = head[change.line - 1];
    if (opener === undefined || body === undefined || getIndent(body) <= getIndent(opener)) return false;
    return changes.some((other) => other.line === above && (other.kind === 'condition' || other.kind === 'boundary'));
  };
  return changes.filter(
    (change) => !(reads.length > 0 && isReadAgain(change)) && !isErrorAroundDecision(change) && !isBranchBodyError(change),
  );
}

/**
 * The last line (1-based) of the statement that opens on `line` and leaves a bracket open: up to MAX_CONDITION_LINES
 * further. The line itself when it closes what it opens.
 */
function findStatementEnd(lines: readonly SourceLine[], line: number): number {
  let depth = 0;
  for (let at = line; at <= lines.length && at <= line + MAX_CONDITION_LINES; at++) {
    const entry = lines[at - 1];
    if (entry === undefined) break;
    if (entry.isComment) continue;
    for (const char of entry.code) depth += '([{'.includes(char) ? 1 : ')]}'.includes(char) ? -1 : 0;
    if (depth <= 0) return at;
  }
  return line;
}
