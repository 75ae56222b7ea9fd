import type { StaleAssertion } from '../model/analysis.js';
import type { Hunk } from '../model/change.js';
import type { FactSubject } from '../model/rules.js';
import { compareText } from '../text/compare-text.js';
import { escapeRegExp } from '../text/escape-regexp.js';

/**
 * A string or default value the change removed from a source file, read from the base side of a hunk: the fields a
 * stale assertion reports of it (model StaleAssertion), and the texts a test must hold to assert it.
 */
export interface ReplacedLiteral extends Pick<StaleAssertion, 'path' | 'line' | 'literalKind' | 'name' | 'before' | 'after'> {
  /** For a message: the texts a test must hold, in order (a template's parts between its interpolations). */
  staticParts: string[];
  /**
   * For a message: the head's messages in the same file that share words with it, each as a pattern of its whole text
   * (an interpolation any text). A test line that holds one may assert what the new code says (path-to-regexp's
   * `Expected "b" to be a string` matches the head's `` `Expected "${token.name}" to be a string` `` as much as the
   * removed `to be ${typeOfMessage}`).
   */
  headMessages?: RegExp[];
  /**
   * For a message: the name of the function that said it (`onClose` of `Boot.prototype.onClose = function (func) {`).
   * Where some test lines that hold the old text call it, the others assert another function's message (avvio's
   * `app.close({})` tests, whose own message is alike).
   */
  callable?: string;
}

export interface TestText {
  path: string;
  text: string;
  /** The changed files this test file reaches (through imports, routes or declared dependencies). */
  reaches: ReadonlySet<string>;
}

/** A test line that holds the old value of a replaced literal: the evidence of a stale assertion. */
export interface AssertedLiteral {
  literal: ReplacedLiteral;
  testFile: string;
  testLine: number;
  /** The test line, trimmed and cut to 160 characters. */
  excerpt: string;
  /** The test file reaches the file of the literal. */
  reachesChange: boolean;
}

interface Literal {
  quote: string;
  /** Source text between the quotes. */
  raw: string;
  /** `raw` with quote and backslash escapes undone. */
  value: string;
}

const MIN_MESSAGE_CHARS = 12;
const MIN_MESSAGE_WORDS = 3;
/** A template's static text below this length matches too much on its own (`${a}: ${b}`). */
const MIN_STATIC_CHARS = 8;
/** How far from the option's name, on the same line, a test may hold the old default. */
const DEFAULT_NEAR_CHARS = 40;
/** Lines above a default's match that may hold the assertion call (`expect(options).toEqual({` … `retries: 2`). */
const ASSERTION_LOOKBACK = 3;
const MAX_EXCERPT = 160;

const SPECIFIER_BEFORE = /(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*$/;
const INTERPOLATION = /\$\{[^}]*\}/g;
const VALUE = String.raw`(-?\d+(?:\.\d+)?|true|false|null|'[^'\n]{0,40}'|"[^"\n]{0,40}")`;
const DEFAULT_PATTERNS = [
  new RegExp(String.raw`(?<![\w$])([A-Za-z_$][\w$]*)\s*(?:\?\?|\|\|)\s*${VALUE}\s*(?=[,;)}\]]|$)`, 'g'),
  new RegExp(
    String.raw`(?<![\w$])([A-Za-z_$][\w$]*)(?:\??\s*:\s*[\w$.<>[\]]+(?:\s*\|\s*[\w$.<>[\]]+)*)?\s*=\s*${VALUE}\s*(?=[,;)}\]]|$)`,
    'g',
  ),
  new RegExp(String.raw`(?<![\w$])([A-Za-z_$][\w$]*)\s*:\s*${VALUE}\s*(?=[,;)}\]]|$)`, 'g'),
];
const TYPE_NAMES = new Set(['number', 'string', 'boolean', 'bigint', 'any', 'unknown', 'object', 'undefined', 'never', 'void']);
const COMMENT_LINE = /^\s*(?:\*|\/\*|#)/;
/** A test's title names what it tests, it asserts nothing: `it('unknown id throws', …`. */
const TEST_TITLE = /^\s*(?:it|test|describe|context|suite|specify)(?:\.\w+)*\s*\(\s*(['"`])(?:\\.|(?!\1)[^\\\n])*\1/;
const ASSERTION_CALL =
  /\b(?:expect|assert\w*|should|toBe|toEqual|toStrictEqual|deepEqual|strictEqual|equal|toMatchObject|toHaveProperty|assertEqual)\b/;

/** What stands before a `/` that opens a regex literal rather than a division: an operator, a bracket, `return`, nothing. */
const REGEX_BEFORE = /(?:^|[(,=:[!&|?{};]|\breturn)\s*$/;

/**
 * The index of the `/` that closes the regex literal opening at `start` (its classes and escapes passed over), or
 * `start` when it does not close on the line (a division after all). A markdown escaper's `/[`*_]/g` opens no
 * template literal.
 */
function skipRegex(line: string, start: number): number {
  let inClass = false;
  for (let index = start + 1; index < line.length; index++) {
    const char = line[index];
    if (char === '\\') index++;
    else if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (char === '/' && !inClass) return index;
  }
  return start;
}

/**
 * Per line of `text`, whether it opens inside a backquoted literal that an earlier line began (a template literal, a Go
 * raw string): cobra's `Long: \`Help provides …` then `Simply type \` + c.Name() + \` help …\``, whose first backquote
 * closes the literal. Quotes, `//` and block comments are passed over as the scan goes.
 */
function findBackquoteStarts(text: string): boolean[] {
  const starts: boolean[] = [];
  let inBackquote = false;
  let inBlock = false;
  for (const line of text.split('\n')) {
    starts.push(inBackquote);
    for (let index = 0; index < line.length; index++) {
      const char = line[index];
      if (inBackquote) {
        if (char === '\\') index++;
        else if (char === '`') inBackquote = false;
      } else if (inBlock) {
        if (char === '*' && line[index + 1] === '/') {
          inBlock = false;
          index++;
        }
      } else if (char === '/' && line[index + 1] === '/') break;
      else if (char === '/' && line[index + 1] === '*') {
        inBlock = true;
        index++;
      } else if (char === '/' && REGEX_BEFORE.test(line.slice(0, index))) index = skipRegex(line, index);
      else if (char === '`') inBackquote = true;
      else if (char === "'" || char === '"') {
        let end = index + 1;
        while (end < line.length && line[end] !== char) end += line[end] === '\\' ? 2 : 1;
        index = end;
      }
    }
  }
  return starts;
}

/**
 * The string literals of one line of code, outside `//` comments; a line that opens inside a backquoted literal an
 * earlier line began (`insideBackquote`) is scanned from where that literal closes.
 */
function scanLiterals(line: string, insideBackquote = false): Literal[] {
  const literals: Literal[] = [];
  if (COMMENT_LINE.test(line)) return literals;
  let index = 0;
  if (insideBackquote) {
    while (index < line.length && line[index] !== '`') index += line[index] === '\\' ? 2 : 1;
    index++;
  }
  while (index < line.length) {
    const char = line[index];
    if (char === '/' && line[index + 1] === '/') break;
    if (char !== "'" && char !== '"' && char !== '`') {
      index++;
      continue;
    }
    let end = index + 1;
    while (end < line.length && line[end] !== char) end += line[end] === '\\' ? 2 : 1;
    if (end >= line.length) break;
    const raw = line.slice(index + 1, end);
    if (!SPECIFIER_BEFORE.test(line.slice(0, index))) literals.push({ quote: char, raw, value: raw.replace(/\\(.)/g, '$1') });
    index = end + 1;
  }
  return literals;
}

/** What compares a value with the literal beside it: `=== 'x'`, `indexOf('x')`, `includes('x')`, `'x' !==`. */
const COMPARED_BEFORE = /(?:[=!]==?|\.(?:indexOf|includes|startsWith|endsWith|has|test|match)\()\s*$/;
const COMPARED_AFTER = /^\s*(?:[=!]==?|\)\s*(?:[<>]=?|[=!]==?))/;

/**
 * A literal of one word that the line compares a value with (light-my-request's `indexOf('application/json') < 0`) or
 * reads a key by: a value tested, not a message said, whatever tests elsewhere hold the same media type or name.
 */
function isComparedWord(line: string, literal: Literal): boolean {
  if (/\s/.test(literal.value)) return false;
  const at = line.indexOf(`${literal.quote}${literal.raw}${literal.quote}`);
  if (at === -1) return false;
  const before = line.slice(0, at);
  const after = line.slice(at + literal.raw.length + 2);
  // A key read (`res.headers['content-type']`) names a property, it says nothing either.
  return COMPARED_BEFORE.test(before) || COMPARED_AFTER.test(after) || (/\[\s*$/.test(before) && /^\s*\]/.test(after));
}

function isMessage(literal: Literal): boolean {
  if (literal.raw.length >= MIN_MESSAGE_CHARS) return true;
  return literal.raw.split(/\s+/).filter((word) => word !== '').length >= MIN_MESSAGE_WORDS;
}

function getStaticParts(literal: Literal): string[] {
  if (literal.quote !== '`') return [literal.value];
  return literal.value
    .split(INTERPOLATION)
    .map((part) => part.trim())
    .filter((part) => part.length >= 3);
}

/** A file's lines with where each opens (findBackquoteStarts), read once per file rather than once per hunk. */
interface ReadText {
  lines: string[];
  starts: boolean[];
}

function readText(text: string): ReadText {
  return { lines: text.split('\n'), starts: findBackquoteStarts(text) };
}

function getLines(text: ReadText, start: number, count: number): { line: number; text: string; insideBackquote: boolean }[] {
  return Array.from({ length: count }, (_, offset) => ({
    line: start + offset,
    text: text.lines[start + offset - 1] ?? '',
    insideBackquote: text.starts[start + offset - 1] ?? false,
  }));
}

/** Head messages kept beside a replaced one, and the words they must share with it. */
const MAX_HEAD_MESSAGES = 20;
const MIN_SHARED_WORDS = 2;

/**
 * Every message literal of a text as a pattern of its whole text, an interpolation standing for any text (commander's
 * `` `… but got ${received}: ${details}.` `` does not say `but got 1.`); those with too little static text to tell a
 * test line apart are left out.
 */
function listMessages(text: ReadText): { value: string; pattern: RegExp }[] {
  return text.lines.flatMap((line, index) =>
    scanLiterals(line, text.starts[index] ?? false)
      .filter((literal) => isMessage(literal) && getStaticParts(literal).join('').length >= MIN_STATIC_CHARS)
      .map((literal) => ({
        value: literal.value,
        pattern: new RegExp((literal.quote === '`' ? literal.value.split(INTERPOLATION) : [literal.value]).map(escapeRegExp).join('[^]*?')),
      })),
  );
}

function countSharedWords(left: string, right: string): number {
  const words = new Set(left.toLowerCase().split(/\W+/));
  return right
    .toLowerCase()
    .split(/\W+/)
    .filter((word) => word !== '' && words.has(word)).length;
}

function findDefaults(line: string): { name: string; value: string }[] {
  const found: { name: string; value: string }[] = [];
  for (const pattern of DEFAULT_PATTERNS) {
    for (const match of line.matchAll(pattern)) {
      const [, name, value] = match;
      if (name !== undefined && value !== undefined && !TYPE_NAMES.has(name) && !found.some((item) => item.name === name))
        found.push({ name, value });
    }
  }
  return found;
}

/**
 * The messages and defaults a change's hunks replace in one file: a message whose text is gone from the head side
 * (a literal only moved is not replaced), and a default whose name is given another literal on the head side of the
 * same hunk, and not its old one on any other line of it. The replacement of a message is the added literal that shares the most words with it.
 */
export function findReplacedLiterals(file: {
  path: string;
  hunks: readonly Hunk[];
  baseText: string;
  headText: string;
}): ReplacedLiteral[] {
  const replaced: ReplacedLiteral[] = [];
  let base: ReadText | undefined;
  let head: ReadText | undefined;
  let headMessages: { value: string; pattern: RegExp }[] | undefined;
  for (const hunk of file.hunks) {
    if (hunk.oldLines === 0) continue;
    base ??= readText(file.baseText);
    head ??= readText(file.headText);
    const removed = getLines(base, hunk.oldStart, hunk.oldLines);
    const added = getLines(head, hunk.newStart, hunk.newLines);
    const addedLiterals = added.flatMap((line) =>
      scanLiterals(line.text, line.insideBackquote)
        .filter((literal) => isMessage(literal) && !file.baseText.includes(literal.raw))
        .map((literal) => ({ line: line.line, literal })),
    );
    const firstLine = Math.max(1, hunk.newStart);
    for (const { text, insideBackquote, line: removedAt } of removed) {
      for (const literal of scanLiterals(text, insideBackquote)) {
        if (!isMessage(literal) || file.headText.includes(literal.raw) || file.headText.includes(literal.value)) continue;
        if (isSpelledByHead(literal.value, file.headText) || isComparedWord(text, literal)) continue;
        const staticParts = getStaticParts(literal);
        if (staticParts.join('').length < MIN_STATIC_CHARS) continue;
        // The new text is most of the old one, whole (`'[MSW] Failed to apply…'` → `'Failed to apply…'` inside
        // `devUtils.formatMessage(…)`, which adds the prefix back): the code may still say what the test asserts.
        if (
          added.some((line) =>
            scanLiterals(line.text, line.insideBackquote).some((now) => isMessage(now) && isKeptWhole(literal.value, now.value)),
          )
        )
          continue;
        headMessages ??= listMessages(head);
        const sayings = headMessages
          .filter((now) => countSharedWords(literal.value, now.value) >= MIN_SHARED_WORDS)
          .map((now) => now.pattern)
          .slice(0, MAX_HEAD_MESSAGES);
        const best = [...addedLiterals].sort(
          (left, right) => countSharedWords(literal.value, right.literal.value) - countSharedWords(literal.value, left.literal.value),
        )[0];
        replaced.push({
          path: file.path,
          line: best?.line ?? firstLine,
          literalKind: 'message',
          name: '',
          before: literal.raw,
          after: best?.literal.raw ?? '',
          staticParts,
          ...(sayings.length === 0 ? {} : { headMessages: sayings }),
          ...optionalCallable(findEnclosingCallable(base.lines, removedAt)),
        });
      }
      for (const old of findDefaults(text)) {
        // A branch of the new code still gives the old value (`type = 'Array'` if an index, else `type = 'Object'`):
        // what asserted it can still hold.
        if (added.some((line) => findDefaults(line.text).some((item) => item.name === old.name && item.value === old.value))) continue;
        for (const line of added) {
          const now = findDefaults(line.text).find((item) => item.name === old.name);
          if (now === undefined || now.value === old.value) continue;
          replaced.push({
            path: file.path,
            line: line.line,
            literalKind: 'default',
            name: old.name,
            before: old.value,
            after: now.value,
            staticParts: [],
          });
          break;
        }
      }
    }
  }
  return dedupeLiterals(replaced);
}

/** `name =` or `name:` before a function, `function name(`, a method `name(…) {`: the name that opens a callable. */
const CALLABLE_OPENING =
  /(?:\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(|([A-Za-z_$][\w$]*)\s*[:=]\s*(?:async\s+)?(?:function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)|^\s*(?:(?:static|async|get|set|public|private|protected)\s+)*([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*\{)/;
const NOT_CALLABLE_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'function', 'return', 'constructor']);
/** How far above a line its function's opening is looked for. */
const MAX_CALLABLE_DISTANCE = 200;

/** The name of the innermost function that holds line `at` (1-based) of `lines`, by indentation; undefined at module level. */
function findEnclosingCallable(lines: readonly string[], at: number): string | undefined {
  let indent = /^\s*/.exec(lines[at - 1] ?? '')?.[0].length ?? 0;
  for (let index = at - 2; index >= Math.max(0, at - 1 - MAX_CALLABLE_DISTANCE); index--) {
    const text = lines[index] ?? '';
    if (text.trim() === '') continue;
    const lead = /^\s*/.exec(text)?.[0].length ?? 0;
    if (lead >= indent) continue;
    indent = lead;
    const found = CALLABLE_OPENING.exec(text);
    const name = found?.[1] ?? found?.[2] ?? found?.[3];
    if (name !== undefined && !NOT_CALLABLE_NAMES.has(name)) return name;
    if (lead === 0) return undefined;
  }
  return undefined;
}

function optionalCallable(name: string | undefined): { callable?: string } {
  return name === undefined ? {} : { callable: name };
}

/** A piece of an old message the head must say whole, between two ends of its strings or interpolations. */
const MIN_PIECE_CHARS = 6;
const MAX_PIECES = 6;
/** What stands before a piece of a string in code: the quote that opens it, or the `}` that closes an interpolation. */
const PIECE_OPENS = new Set(['"', "'", '`', '}']);
/** What stands after one: the quote that closes it, or the `$` that opens an interpolation. */
const PIECE_CLOSES = new Set(['"', "'", '`', '$']);

/**
 * Whether the head's strings and templates can still say a removed message whole, piece after piece, each piece a
 * whole string or a template's text between interpolations: helmet replaced `"hidePoweredBy does not take options.
 * Remove the property to silence this warning."` (and three like it) with `` `${name} does not take options. ${
 * enabledByDefault ? "Remove the property" : "Set the property to `true`" } to silence this warning.` `` and a `name:
 * "hidePoweredBy"`; the tests asserting the old text still pass. A word put into a message breaks a piece off inside a
 * string, which no piece may do.
 */
function isSpelledByHead(message: string, headText: string): boolean {
  // Every word of it must be said somewhere: most reworded messages stop here, before any piece is looked for.
  if (!message.split(/[^\p{L}\p{N}_]+/u).every((word) => word === '' || headText.includes(word))) return false;
  let at = 0;
  let pieces = 0;
  while (at < message.length) {
    if (++pieces > MAX_PIECES) return false;
    // The longest piece from here the head holds anywhere (a piece held means its prefixes are), then the longest of
    // those that stands between a string's ends.
    let low = 0;
    let high = message.length - at;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (headText.includes(message.slice(at, at + middle))) low = middle;
      else high = middle - 1;
    }
    let taken = 0;
    for (let length = low; length >= MIN_PIECE_CHARS && taken === 0; length--) {
      const piece = message.slice(at, at + length);
      for (let found = headText.indexOf(piece); found !== -1; found = headText.indexOf(piece, found + 1)) {
        if (PIECE_OPENS.has(headText[found - 1] ?? '') && PIECE_CLOSES.has(headText[found + length] ?? '')) {
          taken = length;
          break;
        }
      }
    }
    if (taken === 0) return false;
    at += taken;
  }
  return pieces > 1;
}

/** Whether `now` is a part of `old` at least half its length: a prefix or suffix dropped, not a message rewritten. */
function isKeptWhole(old: string, now: string): boolean {
  return now.trim().length >= MIN_STATIC_CHARS && now.length * 2 >= old.length && old.includes(now);
}

function dedupeLiterals(literals: readonly ReplacedLiteral[]): ReplacedLiteral[] {
  const seen = new Set<string>();
  return literals.filter((literal) => {
    const key = `${literal.literalKind}|${literal.name}|${literal.before}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function holdsMessage(testLine: string, parts: readonly string[]): boolean {
  const line = testLine.replace(TEST_TITLE, '');
  const texts = [line, ...scanLiterals(line).map((literal) => literal.value)];
  return texts.some((text) => {
    let from = 0;
    for (const part of parts) {
      const at = text.indexOf(part, from);
      if (at === -1) return false;
      from = at + part.length;
    }
    return true;
  });
}

/** Whether a test line, or one of its strings, says a message of the head whole. */
function saysMessage(testLine: string, pattern: RegExp): boolean {
  const line = testLine.replace(TEST_TITLE, '');
  return [line, ...scanLiterals(line).map((literal) => literal.value)].some((text) => pattern.test(text));
}

function createDefaultMatcher(literal: ReplacedLiteral): (lines: readonly string[], index: number) => boolean {
  const name = new RegExp(String.raw`(?<![\w$])${escapeRegExp(literal.name)}(?![\w$])`);
  const value = escapeRegExp(literal.before);
  const near = new RegExp(
    String.raw`(?<![\w$])${escapeRegExp(literal.name)}(?![\w$]).{0,${DEFAULT_NEAR_CHARS}}(?<![\w$.])${value}(?![\w$.])|(?<![\w$.])${value}(?![\w$.]).{0,${DEFAULT_NEAR_CHARS}}(?<![\w$])${escapeRegExp(literal.name)}(?![\w$])`,
  );
  return (lines, index) => {
    const line = lines[index] ?? '';
    if (!name.test(line) || !near.test(line)) return false;
    for (let back = index; back >= Math.max(0, index - ASSERTION_LOOKBACK); back--) if (ASSERTION_CALL.test(lines[back] ?? '')) return true;
    return false;
  };
}

/** The longest piece of a literal's expected text that a test holds as written whatever its quoting: a cheap filter of whole files. */
function getNeedle(literal: ReplacedLiteral): string {
  if (literal.literalKind === 'default') return literal.name;
  const pieces = literal.staticParts.flatMap((part) => part.split(/['"`\\]/));
  return pieces.reduce((longest, piece) => (piece.length > longest.length ? piece : longest), '');
}

/**
 * The test lines that hold the old value of a replaced literal: a message's text (a template's static parts, in
 * order) anywhere in a test, a default's old value next to its name on an assertion (the line or the few above it
 * call one). Tests that reach a changed file come first, then by path and line; at most `limit` lines, one literal
 * per line; `found` counts them all.
 */
export function findAssertedLiterals(
  literals: readonly ReplacedLiteral[],
  tests: readonly TestText[],
  limit: number,
): { asserted: AssertedLiteral[]; found: number } {
  const matchers = literals.map((literal) => ({
    literal,
    needle: getNeedle(literal),
    matches:
      literal.literalKind === 'message'
        ? (lines: readonly string[], index: number) =>
            holdsMessage(lines[index] ?? '', literal.staticParts) &&
            !(literal.headMessages ?? []).some((pattern) => saysMessage(lines[index] ?? '', pattern))
        : createDefaultMatcher(literal),
  }));
  const asserted: AssertedLiteral[] = [];
  const ordered = [...tests].sort(
    (left, right) => Number(right.reaches.size > 0) - Number(left.reaches.size > 0) || compareText(left.path, right.path),
  );
  for (const test of ordered) {
    const candidates = matchers.filter((matcher) => test.text.includes(matcher.needle));
    if (candidates.length === 0) continue;
    const lines = test.text.split('\n');
    for (const [index, line] of lines.entries()) {
      const hit = candidates.find((matcher) => matcher.matches(lines, index));
      if (hit === undefined) continue;
      asserted.push({
        literal: hit.literal,
        testFile: test.path,
        testLine: index + 1,
        excerpt: line.trim().slice(0, MAX_EXCERPT),
        reachesChange: test.reaches.has(hit.literal.path),
      });
    }
  }
  const kept = asserted.filter((hit) => !isAnotherCallablesMessage(hit, asserted));
  return { asserted: kept.slice(0, limit), found: kept.length };
}

/**
 * Whether a test line holds a message its function's own tests assert elsewhere: some test lines that hold it call the
 * function that said it, and this one does not.
 */
function isAnotherCallablesMessage(hit: AssertedLiteral, all: readonly AssertedLiteral[]): boolean {
  const name = hit.literal.callable;
  if (name === undefined) return false;
  const calls = new RegExp(String.raw`(?<![\w$])${escapeRegExp(name)}\s*\(`);
  return !calls.test(hit.excerpt) && all.some((other) => other.literal === hit.literal && calls.test(other.excerpt));
}

const MAX_FACT_TEXT = 120;

/** One `asserted-literal` subject per test line that holds the old value of a replaced literal. */
export function deriveAssertedLiteralSubjects(asserted: readonly AssertedLiteral[]): FactSubject[] {
  return asserted.map(({ literal, testFile, testLine, excerpt, reachesChange }) => {
    const before = literal.before.slice(0, MAX_FACT_TEXT);
    const after = literal.after.slice(0, MAX_FACT_TEXT);
    return {
      subject: 'asserted-literal',
      id: `stale-assertion:${testFile}:${testLine}`,
      facts: {
        path: literal.path,
        line: literal.line,
        literalKind: literal.literalKind,
        name: literal.name,
        before,
        after,
        replacement: after === '' ? 'nothing' : `"${after}"`,
        testFile,
        testLine,
        excerpt,
        reachesChange,
      },
    };
  });
}
