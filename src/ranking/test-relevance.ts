import type { FileFacts, FileWords } from '../model/facts.js';
import { blankBlockComments } from '../text/block-comments.js';
import { splitWords, STOP_WORDS } from '../text/split-words.js';
import { compareText } from '../text/compare-text.js';
import { pluralize } from '../text/plural.js';
import { decodeWords } from '../text/word-field.js';
import { NAME_LIKE, toCompactName } from '../graph/parse/file-words.js';
import { escapeRegExp } from '../text/escape-regexp.js';

/** What a test file says of itself: its path, its test titles and, when it was parsed in full, the words of its code. */
export interface TestText {
  path: string;
  /** Every test and suite title of the file. */
  titles: readonly string[];
  words?: Pick<FileWords, 'code' | 'names'>;
  /** The paths of the routes the test requests over HTTP (its `calls` edges): one of the changed routes says it whole. */
  calledRoutes?: readonly string[];
}

/** One changed file as its tests would name it: its path, and the callables and exports the change touched. */
export interface ChangedTarget {
  path: string;
  /** `send`, `res.redirect`, `Application.callback`, `deepMerge`: the last segment of a member is what a test names. */
  names: readonly string[];
  /**
   * The lines that open the code around each change (findContextLines): `defineGetter(req, 'fresh', function(){`
   * names `fresh` where no declaration does.
   */
  context?: readonly string[];
  /**
   * The string literals the changed lines say (`'CONNECT'` of `request.method === 'CONNECT' && !response.ok`): the case
   * a changed condition is about, which the test of that case names (`http-connect.test.ts`).
   */
  literals?: readonly string[];
  /** The functions the changed lines call (findChangedCallees): a test named for one is about that call. */
  callees?: readonly string[];
  /**
   * The other cases of the family a changed line adds to (findSiblingLiterals): `LIMIT_FILE_SIZE` beside a new
   * `abortWithCode('MISSING_FIELD_NAME')`. A test that checks them is where the new case's test goes.
   */
  siblings?: readonly string[];
  /**
   * The paths of the routes whose registration holds a changed line (`/api/userMemberships.list`): a test whose titles
   * say one (`#userMemberships.list`) is that route's test.
   */
  routes?: readonly string[];
  /**
   * Every callable of the changed file (`OrmUtils.mergeDeep`), changed or not: a title that says a class and another
   * of its members (`OrmUtils > mergeDeep`) is about that member.
   */
  members?: readonly string[];
  /**
   * Names of two words or more the changed lines say and the base text never did (findIntroducedNames): undici's
   * `maxResponseSize`, read for the first time in its HTTP/2 client. A test named for one (test/max-response-size.js)
   * is about what the change starts to honour.
   */
  introduced?: readonly string[];
  /**
   * The exports of the file that call a changed private helper (findExportedCallers): more-itertools's `running_min` for
   * its `_windowed_running_min`. A test says these, never the helper; they weigh as whole names and nothing else.
   */
  callers?: readonly string[];
}

/** Words of JavaScript itself: they name no code. */
const LANGUAGE = new Set(
  'function return var let const class extends export import from async await new this true false null undefined typeof instanceof void delete module exports require prototype static public private protected readonly interface type enum'.split(
    ' ',
  ),
);
/** What `typeof` answers: a literal that says one compares a type, it names no case. */
const TYPE_NAMES = new Set(['string', 'number', 'bigint', 'boolean', 'symbol', 'object', 'function', 'undefined']);

/** A quoted string on a line: single or double quotes, no escapes or template parts. */
const QUOTED = /'([^'\\\n]*)'|"([^"\\\n]*)"/g;

/**
 * The string literals of the changed lines of a text, distinct, in order: what a changed condition compares with
 * (`'CONNECT'`), a header or an event it names. Comment lines are passed over.
 */
export function findChangedLiterals(text: string, changedLines: readonly number[]): string[] {
  const lines = blankBlockComments(text);
  const found = new Set<string>();
  for (const line of changedLines) {
    const code = (lines[line - 1] ?? '').trim();
    if (/^(?:\/\/|\/\*|\*)/.test(code)) continue;
    for (const match of code.matchAll(QUOTED)) {
      const literal = match[1] ?? match[2] ?? '';
      if (literal !== '' && !TYPE_NAMES.has(literal)) found.add(literal);
    }
  }
  return [...found];
}

/**
 * Words that open a call-like form without calling a function of the repository: keywords, and the built-ins of
 * JavaScript, Python and Go a test is never named for by what it tests (zod's `throw new Error()` is no call of
 * error.test.ts's subject).
 */
const CALL_KEYWORDS = new Set(
  (
    'if for while switch catch function return typeof await new super elif import require ' +
    'Array Object String Number Boolean Symbol BigInt Date Promise Map Set WeakMap WeakSet RegExp JSON Math Reflect Proxy ' +
    'parseInt parseFloat isNaN isFinite setTimeout clearTimeout setImmediate queueMicrotask structuredClone ' +
    'print len range isinstance issubclass getattr setattr hasattr str int float bool list dict tuple type super ' +
    'make append panic recover ' +
    // Keywords that a parenthesis may follow: `except (KeyError, TypeError):`, `not (a or b)`, `func (c *Ctx)`.
    'except and or not in is assert del yield raise with lambda throw delete void of case func defer'
  ).split(' '),
);
/** A constructor of an error: `Error`, `TypeError`, `ValueError`, `HTTPException`. */
const ERROR_CONSTRUCTOR = /(?:Error|Exception)$/;

/**
 * The functions the changed lines call, by name, distinct (`mixin` and `mixinMergeStrategy` of pino's `obj =
 * mixinMergeStrategy(obj, mixin(obj, num, this))`): a test named for one is about what the changed line does with it.
 * Comment lines and words of the language are passed over.
 */
export function findChangedCallees(text: string, changedLines: readonly number[]): string[] {
  const lines = blankBlockComments(text);
  const found = new Set<string>();
  for (const line of changedLines) {
    const code = (lines[line - 1] ?? '').trim();
    if (/^(?:\/\/|\/\*|\*|#)/.test(code)) continue;
    // A name starts where no name character stands before it: tried from inside a long run (a template literal's
    // base64), the pattern backtracks over the rest of the run at every character of it.
    for (const match of code.replace(QUOTED, '""').matchAll(/(?<![\w$])([A-Za-z_$][\w$]*)\s*\(/g)) {
      const name = match[1] ?? '';
      if (!CALL_KEYWORDS.has(name) && !LANGUAGE.has(name) && !ERROR_CONSTRUCTOR.test(name)) found.add(name);
    }
  }
  return [...found];
}

/** `this.#completion?.completionKey`, `this.router.match(`: a member of `this` whose own member is read. */
const COLLABORATOR = /\bthis\.#?([A-Za-z_$][\w$]*)\??\.[A-Za-z_$#]/g;

/**
 * The objects a class's changed lines work through (`completion` of yargs's `this.#completion?.completionKey`), by
 * name, distinct: a test named for one (completion.mjs) is about what the change does with it, as for a callee.
 * Comment lines are passed over.
 */
export function findChangedCollaborators(text: string, changedLines: readonly number[]): string[] {
  const lines = blankBlockComments(text);
  const found = new Set<string>();
  for (const line of changedLines) {
    const code = (lines[line - 1] ?? '').trim();
    if (/^(?:\/\/|\/\*|\*)/.test(code)) continue;
    for (const match of code.replace(QUOTED, '""').matchAll(COLLABORATOR)) found.add(match[1] ?? '');
  }
  return [...found];
}

const IDENTIFIER = /(?<![\w$])[A-Za-z_$][\w$]*/g;

/**
 * Identifiers of two words or more (`maxResponseSize`, `MAX_RESPONSE_SIZE`) on the changed lines of `text` that `base`
 * never says, as their words joined lower-case (`maxresponsesize`), distinct; a leading one-letter word (`kMaxResponseSize`'s
 * `k`) is dropped. Comment lines and strings are passed over.
 */
export function findIntroducedNames(text: string, base: string | undefined, changedLines: readonly number[]): string[] {
  if (base === undefined) return [];
  const lines = blankBlockComments(text);
  const said = new Set(base.match(IDENTIFIER) ?? []);
  const found = new Set<string>();
  for (const line of changedLines) {
    const code = (lines[line - 1] ?? '').trim();
    if (/^(?:\/\/|\/\*|\*|#)/.test(code)) continue;
    for (const name of code.replace(QUOTED, '""').match(IDENTIFIER) ?? []) {
      if (said.has(name) || LANGUAGE.has(name)) continue;
      const words = splitWords(name);
      const kept = words[0]?.length === 1 ? words.slice(1) : words;
      if (kept.length > 1 && kept.every((word) => !/^\d+$/.test(word)) && kept.some(isTerm)) found.add(kept.join(''));
    }
  }
  return [...found].sort(compareText);
}

/**
 * Python's protocol methods, by the word a test of the protocol is named for: nothing calls `__getstate__` but
 * `pickle`, and its test is test_pickle.py. Only protocols whose name is not the method's own word.
 */
const PROTOCOL_TESTS: ReadonlyMap<string, string> = new Map([
  ['__getstate__', 'pickle'],
  ['__setstate__', 'pickle'],
  ['__reduce__', 'pickle'],
  ['__reduce_ex__', 'pickle'],
  ['__getnewargs__', 'pickle'],
  ['__getnewargs_ex__', 'pickle'],
  ['__copy__', 'copy'],
  ['__deepcopy__', 'copy'],
]);

/** A call whose first argument is a quoted literal: `abortWithCode('LIMIT_FILE_SIZE'`, `emitter.emit("close"`. */
const LITERAL_CALL = /(?<![\w$.])([A-Za-z_$][\w$.]*)\s*\(\s*(['"])([^'"\\\n]+)\2/g;
/** An object entry's key, quoted or not: `LIMIT_FIELD_KEY: 'Field name too long',`. */
const ENTRY_KEY = /^\s*(['"]?)([A-Za-z_$][\w$-]*)\1\s*:(?!:)/;
/** How many lines around a changed entry its object's other entries are looked for. */
const MAX_ENTRY_DISTANCE = 100;

/**
 * The literals of the family each changed line adds a case to, distinct and not themselves changed: the first
 * arguments of other calls of a callee a changed line calls with a literal (multer's `abortWithCode('LIMIT_PART_COUNT')`
 * and seven more beside a new `abortWithCode('MISSING_FIELD_NAME')`), and the other keys of an object a changed line
 * adds an entry to (its `errorMessages` map). Only names of several words (`LIMIT_PART_COUNT`, `fieldName`): a test
 * says one of those only to check that case.
 */
export function findSiblingLiterals(text: string, changedLines: readonly number[]): string[] {
  const lines = blankBlockComments(text);
  const changed = new Set(changedLines);
  const own = new Set<string>();
  const callees = new Set<string>();
  const entries: { line: number; indent: number }[] = [];
  for (const line of changedLines) {
    const code = lines[line - 1] ?? '';
    if (/^\s*(?:\/\/|\/\*|\*|#)/.test(code)) continue;
    for (const match of code.matchAll(LITERAL_CALL)) {
      callees.add(match[1] ?? '');
      own.add(match[3] ?? '');
    }
    const key = ENTRY_KEY.exec(code);
    if (key !== null) {
      own.add(key[2] ?? '');
      entries.push({ line, indent: code.length - code.trimStart().length });
    }
  }
  const found = new Set<string>();
  const add = (literal: string): void => {
    if (!own.has(literal) && NAME_LIKE.test(literal)) found.add(literal);
  };
  if (callees.size > 0) {
    for (const [index, code] of lines.entries()) {
      if (changed.has(index + 1)) continue;
      for (const match of code.matchAll(LITERAL_CALL)) if (callees.has(match[1] ?? '')) add(match[3] ?? '');
    }
  }
  // The entries of the same object: the lines at the entry's indentation, up and down until one indented less.
  for (const { line, indent } of entries) {
    for (const step of [-1, 1]) {
      for (let at = line + step; at >= 1 && at <= lines.length && Math.abs(at - line) <= MAX_ENTRY_DISTANCE; at += step) {
        const code = lines[at - 1] ?? '';
        if (code.trim() === '') continue;
        const depth = code.length - code.trimStart().length;
        if (depth < indent) break;
        const key = depth === indent && !changed.has(at) ? ENTRY_KEY.exec(code) : null;
        if (key !== null) add(key[2] ?? '');
      }
    }
  }
  return [...found];
}

/** How far above a changed line the line that opens its code is looked for. */
const MAX_CONTEXT_DISTANCE = 200;

/** How many enclosing lines are kept per changed line, innermost first. */
const MAX_CONTEXT_DEPTH = 4;

function getIndent(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * For each changed line, the lines that open the code it sits in: going up, each line indented less than any below it
 * (a member `set body (val) {` inside `module.exports = {`), up to one in the first column (what git shows after a
 * hunk's `@@`, `defineGetter(req, 'fresh', function(){`). Blank lines, comments and closing brackets are passed over.
 * Distinct lines, in text order.
 */
export function findContextLines(text: string, changedLines: readonly number[]): string[] {
  const lines = text.split('\n');
  const found = new Set<number>();
  for (const line of changedLines) {
    const start = Math.min(line, lines.length) - 1;
    let indent = getIndent(lines[start] ?? '');
    let depth = 0;
    for (let index = start - 1; index >= 0 && index >= start - MAX_CONTEXT_DISTANCE && depth < MAX_CONTEXT_DEPTH; index -= 1) {
      const candidate = lines[index] ?? '';
      const trimmed = candidate.trim();
      if (trimmed === '' || /^(?:\/\/|\/\*|\*|[}\])])/.test(trimmed) || getIndent(candidate) >= indent) continue;
      found.add(index);
      depth += 1;
      indent = getIndent(candidate);
      if (indent === 0) break;
    }
  }
  return [...found].sort((a, b) => a - b).map((index) => lines[index] ?? '');
}

/** Words every codebase uses for its plumbing: they name no particular code. */
const PLUMBING = new Set([
  'index',
  'default',
  'main',
  'constructor',
  'init',
  'handler',
  'handle',
  'run',
  'test',
  'tests',
  'spec',
  'specs',
  'lib',
  'src',
  'source',
  'util',
  'utils',
  'helper',
  'helpers',
  'common',
  'core',
  'module',
  'mod',
  'js',
  'ts',
  'mjs',
  'cjs',
  'jsx',
  'tsx',
]);
/**
 * A word a test says in its path or titles names what it tests; one its code merely uses, less so; a changed name its
 * code uses whole (`deepMerge`), more than its words apart; a changed route its titles say whole, most: in an app whose
 * tests all reach every route through one harness, it is the one thing that tells the route's own test apart, and the
 * words of the code around the change, said by many tests, must not outweigh it. The test named for the changed file
 * (`client.test.ts` beside `client.ts`) weighs as much: a framework's catch-all test says every word of its code. A test
 * named for the changed callable (`utc-utcOffset.test.js`) weighs more than the file's: it is about that callable alone.
 * A test named for a function the changed lines call (pino's `mixin.test.js` for `mixin(obj, num, this)`) weighs
 * between the two: it is about what the line does with that function.
 */
const WEIGHT = { path: 2, title: 2, code: 1, name: 3, route: 12, pair: 12, callableFile: 16, goPackage: 6, callee: 6, sibling: 6 } as const;

function isTerm(word: string): boolean {
  return word.length >= 3 && !STOP_WORDS.has(word) && !PLUMBING.has(word) && !/^\d+$/.test(word);
}

/** The file's own name (its folder's for an index file or a package's `__init__.py`), without extension or `.test`-style suffixes. */
function getFileStem(path: string): string {
  const segments = path.split('/');
  const base = (segments.at(-1) ?? '').replace(/\..*$/, '');
  return base.toLowerCase() === 'index' || base === '__init__' ? (segments.at(-2) ?? '') : base;
}

/**
 * A path's folder and its file name without the extension and a test suffix (`src/client/client.test.ts` → src/client,
 * client; `tests/command.action.test.js` → tests, command.action).
 */
function splitStem(path: string): { folder: string; stem: string } {
  const slash = path.lastIndexOf('/');
  return { folder: slash < 0 ? '' : path.slice(0, slash), stem: getTestName(path).toLowerCase() };
}

/** A file's name without the extension and a test suffix, its case kept (`command.positionalOptions`). */
function getTestName(path: string): string {
  const name = path
    .slice(path.lastIndexOf('/') + 1)
    // A declaration file is named as its module (`route` of `types/route.d.ts`), as its type test is (`route.test-d.ts`).
    .replace(/(?:\.d(?=\.[cm]?ts$))?\.[^.]*$/, '')
    // jsonwebtoken names its tests `verify.tests.js`: the plural suffix is the same mark.
    .replace(/[.\-_](?:test|spec)s?$/i, '');
  // pytest's `test_make.py` is the test of `_make.py`: the prefix and a private module's underscores are no part of it.
  return path.endsWith('.py') ? name.replace(/^test_/i, '').replace(/^_+/, '') : name;
}

/**
 * Whether a test is named for the changed file and one changed callable of it: the file's words and then words of the
 * callable only (commander's `tests/command.positionalOptions.test.js` for `Command.enablePositionalOptions` in
 * lib/command.js, fastify's `test/reply-trailers.test.js` for `sendTrailer` in lib/reply.js), each word by its root.
 * Its name says which part of the file it is about, where the file's own test (`test/internals/reply.test.js`) covers
 * all of it.
 */
function isNamedForFileAndCallable(testPath: string, terms: TermHits): boolean {
  if (terms.callableRoots.length === 0) return false;
  const { fileRoots } = terms;
  const testWords = splitWords(getTestName(testPath)).filter(isTerm).map(toRoot);
  const rest = testWords.filter((word) => !fileRoots.includes(word));
  if (fileRoots.length === 0 || rest.length === 0 || !fileRoots.every((word) => testWords.includes(word))) return false;
  return terms.callableRoots.some((roots) => rest.every((word) => roots.has(word)));
}

/**
 * Whether two lower-cased stems name the same thing, whichever separators spell them: immer tests
 * `src/plugins/mapset.ts` in `__tests__/map-set.js`, and a `mapSet.ts` would say the same.
 */
function isSameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const bare = a.replace(STEM_SEPARATORS, '');
  return bare !== '' && bare === b.replace(STEM_SEPARATORS, '');
}

const STEM_SEPARATORS = /[-_]/g;

/** The stem a test file is named by, lower-cased: `ru` of `test/locale/ru.test.js`, `make` of pytest's `tests/test_make.py`. */
export function getTestedStem(path: string): string {
  return splitStem(path).stem;
}

/** Folders a source file's own test sits in by convention, as the source's folder with each prefix it takes. */
const TEST_FOLDERS = /^(?:__tests__|tests?|spec)$/;

/**
 * Whether `testPath` is the test named for `sourcePath`: the same file name (`client.test.ts`, `client.spec.ts` for
 * `client.ts`) beside it, in a test folder under it (`__tests__/client.test.ts`), or in a test tree that mirrors the
 * source tree (`test/client/client.test.ts` for `src/client/client.ts`).
 */
export function isNamedTestOf(testPath: string, sourcePath: string, allowPlural = false): boolean {
  if (isTestNamedFor(testPath, sourcePath, allowPlural)) return true;
  // An index file is its folder's module: knex tests `lib/dialects/mssql/index.js` in `test/unit/dialects/mssql.js`;
  // so is a package's `__init__.py` (CTFd tests CTFd/utils/validators/__init__.py in tests/utils/test_validators.py).
  const folder = /^(.+)\/index\.[^/]+$/.exec(sourcePath)?.[1];
  if (folder !== undefined) return isTestNamedFor(testPath, `${folder}.js`, allowPlural);
  const pythonPackage = /^(.+)\/__init__\.py$/.exec(sourcePath)?.[1];
  return pythonPackage !== undefined && isTestNamedFor(testPath, `${pythonPackage}.py`, allowPlural);
}

function isTestNamedFor(testPath: string, sourcePath: string, allowPlural: boolean): boolean {
  const test = splitStem(testPath);
  const source = splitStem(sourcePath);
  if (
    testPath.endsWith('.py') &&
    sourcePath.endsWith('.py') &&
    test.stem === source.stem &&
    test.stem !== '' &&
    isBesidePackage(test.folder, source.folder)
  )
    return true;
  if (testPath.endsWith('.py') && sourcePath.endsWith('.py') && isFolderQualifiedTest(test, source)) return true;
  // With `allowPlural`, `mutations.test.tsx` is the test of `mutation.ts` (callers allow it when no test has the exact
  // name: `useQueries.test.tsx` is another hook's test beside `useQuery.test.tsx`), and zod's `tests/error.test.ts` the
  // test of `errors.ts`.
  const plural = allowPlural && (isSameStem(test.stem, pluralize(source.stem)) || isSameStem(pluralize(test.stem), source.stem));
  if ((!isSameStem(test.stem, source.stem) && !plural) || test.stem === '') return false;
  if (test.folder === source.folder) return true;
  const testFolders = test.folder === '' ? [] : test.folder.split('/');
  const sourceFolders = source.folder === '' ? [] : source.folder.split('/');
  if (testFolders.length === sourceFolders.length + 1 && TEST_FOLDERS.test(testFolders.at(-1) ?? ''))
    return testFolders.slice(0, -1).join('/') === source.folder;
  // `test/a/b` beside `src/a/b`, at the root or inside a package (`packages/core/test/lib/tracing/trace.test.ts` is
  // the test of `packages/core/src/tracing/trace.ts`): the same folders up to the test folder, the source's folders
  // below its own root ending the test's, with at most two more on the test's side (`lib`, `unit`).
  if (!testPath.endsWith('.py') && isFlatTestOf(testFolders, sourceFolders, test.stem)) return true;
  if (!testPath.endsWith('.py') && isRootTestOfPackageFolder(testFolders, sourceFolders, test.stem)) return true;
  return testFolders.some((folder, index) => {
    if (!TEST_FOLDERS.test(folder) || index > sourceFolders.length) return false;
    if (testFolders.slice(0, index).join('/') !== sourceFolders.slice(0, index).join('/')) return false;
    const below = testFolders.slice(index + 1);
    // The test folder put in front of the tree it mirrors (node-semver's `test/classes/range.js` for `classes/range.js`).
    if (below.join('/') === sourceFolders.slice(index).join('/')) return true;
    const sourceBelow = sourceFolders.slice(index + 1);
    const extra = below.length - sourceBelow.length;
    // Beside the root's (`test/a` for `src/a`, or `lib/a`), the tree mirrored is a source root: in vite's
    // `src/node/__tests__/environment.spec.ts`, `__tests__` stands beside `server/`, and tests `node/environment.ts`.
    if ((index > 0 || extra > 0) && !SOURCE_ROOTS.test(sourceFolders[index] ?? '')) return false;
    return extra >= 0 && extra <= MAX_EXTRA_TEST_FOLDERS && below.slice(extra).join('/') === sourceBelow.join('/');
  });
}

/**
 * pytest's module named for its source's folder and name joined (falcon's `tests/test_media_handlers.py` for
 * `falcon/media/handlers.py`), in a test folder at the root or in a folder the source's path starts with.
 */
function isFolderQualifiedTest(test: { folder: string; stem: string }, source: { folder: string; stem: string }): boolean {
  const sourceFolders = source.folder === '' ? [] : source.folder.split('/');
  const parent = sourceFolders.at(-1);
  if (parent === undefined || source.stem === '' || test.stem !== `${parent.toLowerCase()}_${source.stem}`) return false;
  const testFolders = test.folder === '' ? [] : test.folder.split('/');
  if (!TEST_FOLDERS.test(testFolders.at(-1) ?? '')) return false;
  return testFolders.slice(0, -1).every((folder, index) => index < sourceFolders.length - 1 && sourceFolders[index] === folder);
}

/**
 * Whether a Python test folder stands beside the package a module is in: `tests/` for `src/attr/` (the src layout) or
 * `attr/`, `lib/tests/` for `lib/attr/`.
 */
function isBesidePackage(testFolder: string, sourceFolder: string): boolean {
  const testFolders = testFolder === '' ? [] : testFolder.split('/');
  if (!TEST_FOLDERS.test(testFolders.at(-1) ?? '')) return false;
  const root = testFolders.slice(0, -1);
  const packageFolders = (sourceFolder === '' ? [] : sourceFolder.split('/')).filter((folder, index) => index > 0 || folder !== 'src');
  return packageFolders.length === root.length + 1 && root.every((folder, index) => packageFolders[index] === folder);
}

/** Names many folders of a tree each have a file of: a flat test folder's file of such a name is no one file's test. */
const SHARED_STEMS = new Set(['index', 'utils', 'util', 'helpers', 'helper', 'types', 'common', 'main', 'constants', 'config', 'errors']);

/**
 * A flat test folder beside a source root whose tree goes deeper (body-parser's `test/json.js` for
 * `lib/types/json.js`, at the root or in a package): the same name, the test folder where the source root stands.
 */
function isFlatTestOf(testFolders: readonly string[], sourceFolders: readonly string[], stem: string): boolean {
  const root = testFolders.length - 1;
  if (root < 0 || !TEST_FOLDERS.test(testFolders[root] ?? '') || SHARED_STEMS.has(stem)) return false;
  if (sourceFolders.length < root + 2 || !SOURCE_ROOTS.test(sourceFolders[root] ?? '')) return false;
  return testFolders.slice(0, root).every((folder, index) => sourceFolders[index] === folder);
}

/**
 * The repository's root test folder for a source root one folder down (nunjucks keeps its code in `nunjucks/src/` and
 * tests `nunjucks/src/runtime.js` in `tests/runtime.js`): the same name, at any depth below that source root. Not a
 * monorepo's `packages/<name>/src/`, whose package folder stands two down.
 */
function isRootTestOfPackageFolder(testFolders: readonly string[], sourceFolders: readonly string[], stem: string): boolean {
  if (testFolders.length !== 1 || !TEST_FOLDERS.test(testFolders[0] ?? '') || SHARED_STEMS.has(stem)) return false;
  const [top = '', root = ''] = sourceFolders;
  return !TEST_FOLDERS.test(top) && !SOURCE_ROOTS.test(top) && SOURCE_ROOTS.test(root);
}

/** Folders a package keeps its code in, which a test tree beside them mirrors. */
const SOURCE_ROOTS = /^(?:src|lib|source|sources)$/;

/** Folders a test tree may add above the source tree it mirrors (`test/lib/…` or `test/unit/…` for `src/…`). */
const MAX_EXTRA_TEST_FOLDERS = 2;

interface TermHits {
  /** The changed file. */
  path: string;
  /** Single words: the changed file's stem and the changed names, split on case. */
  words: Set<string>;
  /** Callables the change is inside, assigned to a member, by their paths lower-cased (`app.listen`). */
  memberPaths: Set<string>;
  /** The functions the changed lines call, their words joined (`mixinmergestrategy`). */
  callees: Set<string>;
  /** The compact names of the changed lines' sibling literals (`limitfilesize`). */
  siblings: Set<string>;
  /** The roots of each changed innermost callable's words, for callables of two words or more (`enabl`, `positional`, `option`). */
  callableRoots: Set<string>[];
  /** The roots of the words of the changed file's name (`command` of lib/command.js). */
  fileRoots: string[];
  /** Words of the changed lines' string literals that are not among `words`: counted only in a test's path. */
  literalWords: Set<string>;
  /** Names of two words or more kept whole (`deepMerge` → `deepmerge`), matched against what the test's code names. */
  wholeNames: Set<string>;
  /** Names of two words or more the change introduced (`maxresponsesize`): a test file named for one is about it. */
  introduced: Set<string>;
  /** The changed routes' last fixed segments as words (`userMemberships.list` → user memberships list), by segment. */
  routes: Map<string, string[]>;
  /** The changed routes' full paths, as a test that requests one calls it. */
  routePaths: Set<string>;
  /**
   * Changed callables of two words or more, whole (`utcoffset`): the changed ones and those whose code holds a changed
   * line (`proto.utcOffset = function (input) {` above it). A test file named for one is that callable's own test.
   */
  callables: Set<string>;
  /**
   * The roots (toRoot) of changed callables named by one word, the innermost only: marshmallow's `Schema._deserialize`
   * is tested in tests/test_deserialization.py, beside test_schema.py.
   */
  rootCallables: Set<string>;
}

/** Endings a word takes for the act it names or its doing (`deserialize`, `deserialization`; `parse`, `parsing`), longest first. */
const ROOT_ENDINGS = /(?:ization|isation|ation|ition|ing|ion|ize|ise|ate|es|e|s)$/;

/** How short a root may be and still name a callable (`load`). */
const MIN_ROOT = 4;

/** A word without the ending of its act or its doing, when what is left is long enough to name something. */
export function toRoot(word: string): string {
  const root = word.toLowerCase().replace(ROOT_ENDINGS, '');
  return root.length >= MIN_ROOT ? root : word.toLowerCase();
}

/** The callable a line opens: `proto.utcOffset = function (`, `deepMerge = (…) =>`, `function deepMerge(`, `deepMerge(a, b) {`. */
const OPENS_CALLABLE =
  /^\s*(?:(?:export\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)\s*\(|(?:(?:const|let|var)\s+)?(?:[\w$]+\.)*([\w$]+)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)|(?:(?:static|async|get|set|public|private|protected)\s+)*([\w$]+)\s*\([^)]*\)\s*\{|([\w$]+)\s*:\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>))/;

/** A callable assigned to a member, its path whole: `app.listen` of `app.listen = function listen () {`. */
const OPENS_MEMBER = /^\s*((?:[\w$]+\.)+[\w$]+)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)/;

/** A segment of a route path that stands for a value (`:id`, `{id}`, `[id]`, `*`), or is empty. */
const PARAMETER_SEGMENT = /^(?:$|[:{[*])/;

/** The last segment of a route path that is not a parameter, as a title would say it (`/users/:id` → users). */
function toRouteSegment(path: string): { segment: string; words: string[] } | undefined {
  const segment = path
    .split('/')
    .filter((part) => !PARAMETER_SEGMENT.test(part))
    .at(-1);
  if (segment === undefined) return undefined;
  const words = splitWords(segment);
  return words.some(isTerm) ? { segment, words } : undefined;
}

function toTerms(target: ChangedTarget): TermHits {
  const words = new Set(splitWords(getFileStem(target.path)).filter(isTerm));
  for (const line of target.context ?? []) for (const word of splitWords(line)) if (isTerm(word) && !LANGUAGE.has(word)) words.add(word);
  // A literal names a case only where a test's file is named for it: titles and code say `GET` and `HEAD` everywhere.
  const literalWords = new Set<string>();
  for (const literal of target.literals ?? [])
    for (const word of splitWords(literal)) if (isTerm(word) && !LANGUAGE.has(word) && !words.has(word)) literalWords.add(word);
  const wholeNames = new Set<string>();
  const callables = new Set<string>();
  const rootCallables = new Set<string>();
  for (const name of target.names) {
    const last = name.slice(name.lastIndexOf('.') + 1);
    // A protocol method is called by what its tests are named for: `__getstate__` by pickle (yarl's test_pickle.py).
    const protocol = PROTOCOL_TESTS.get(last);
    if (protocol !== undefined && !target.names.some((other) => other.startsWith(`${name}.`))) rootCallables.add(toRoot(protocol));
    const parts = splitWords(last);
    for (const word of parts) if (isTerm(word)) words.add(word);
    const innermost = !target.names.some((other) => other.startsWith(`${name}.`));
    if (parts.length === 1 && innermost && isTerm(parts[0] ?? '') && !LANGUAGE.has(parts[0] ?? ''))
      rootCallables.add(toRoot(parts[0] ?? ''));
    if (parts.length > 1) {
      wholeNames.add(parts.join(''));
      // The innermost callable only: `FetchResponse` holds the changed `FetchResponse.clone`, and a test named for the
      // class (`fetch-response-non-configurable.test.ts`) is about some other part of it.
      if (innermost) callables.add(parts.join(''));
    }
  }
  for (const caller of target.callers ?? []) {
    const parts = splitWords(caller.slice(caller.lastIndexOf('.') + 1));
    if (parts.length > 1) wholeNames.add(parts.join(''));
  }
  const memberPaths = new Set<string>();
  for (const line of target.context ?? []) {
    const opened = OPENS_CALLABLE.exec(line);
    const name = opened?.[1] ?? opened?.[2] ?? opened?.[3] ?? opened?.[4];
    const parts = name === undefined || LANGUAGE.has(name) ? [] : splitWords(name);
    if (parts.length > 1) callables.add(parts.join(''));
    // A method of an object literal holds the change (handlebars's `strict: function (obj, name, loc) {` inside
    // template's `container`): no declaration names it, and its test (spec/strict.js) is named for it.
    const method = opened?.[4];
    if (method !== undefined && parts.length === 1 && isTerm(parts[0] ?? '')) rootCallables.add(toRoot(parts[0] ?? ''));
    const member = OPENS_MEMBER.exec(line)?.[1];
    if (member !== undefined) memberPaths.add(member.toLowerCase());
  }
  const routes = new Map<string, string[]>();
  for (const path of target.routes ?? []) {
    const found = toRouteSegment(path);
    if (found !== undefined) routes.set(found.segment, found.words);
  }
  const callableRoots = target.names
    .filter((name) => !target.names.some((other) => other.startsWith(`${name}.`)))
    .map((name) => splitWords(name.slice(name.lastIndexOf('.') + 1)).filter(isTerm))
    .filter((parts) => parts.length > 1)
    .map((parts) => new Set(parts.map(toRoot)));
  const callees = new Set(
    (target.callees ?? []).map((name) => splitWords(name).join('')).filter((name) => name.length >= MIN_ROOT && isTerm(name)),
  );
  const fileRoots = splitWords(getFileStem(target.path)).filter(isTerm).map(toRoot);
  return {
    path: target.path,
    words,
    literalWords,
    wholeNames,
    routes,
    routePaths: new Set(target.routes ?? []),
    callables,
    rootCallables,
    callableRoots,
    fileRoots,
    memberPaths,
    callees,
    introduced: new Set(target.introduced ?? []),
    // As a test's names hold a string that reads as a name (`'LIMIT_FILE_SIZE'` → `limitfilesize`).
    siblings: new Set((target.siblings ?? []).flatMap((literal) => toCompactName(literal) ?? [])),
  };
}

/** A private helper called by more of its file's exports than this is the file's plumbing: its callers name nothing. */
const MAX_HELPER_CALLERS = 3;

/**
 * The exported callables of a file that call one of `changed` that the file does not export, directly or through other
 * private callables of it (more-itertools's `running_min` for a change to its `_windowed_running_min`): a test calls
 * the export, never the helper, so the export is what a test of the change says. A helper more than
 * `MAX_HELPER_CALLERS` exports call adds none.
 */
export function findExportedCallers(facts: Pick<FileFacts, 'exports' | 'callables'> | undefined, changed: ReadonlySet<string>): string[] {
  if (facts === undefined) return [];
  const exported = new Set(facts.exports.map((fact) => fact.local ?? fact.name));
  const callables = facts.callables ?? [];
  const found = new Set<string>();
  for (const helper of changed) {
    if (exported.has(helper) || !callables.some((callable) => callable.name === helper)) continue;
    const callers = new Set<string>();
    const seen = new Set([helper]);
    const queue = [helper];
    while (queue.length > 0) {
      const callee = queue.shift() ?? '';
      for (const callable of callables) {
        if (seen.has(callable.name) || !callable.refs.includes(callee)) continue;
        seen.add(callable.name);
        if (exported.has(callable.name)) callers.add(callable.name);
        else queue.push(callable.name);
      }
    }
    if (callers.size <= MAX_HELPER_CALLERS) for (const caller of callers) if (!changed.has(caller)) found.add(caller);
  }
  return [...found];
}

/** How strongly one test file names each term: its best weight per term, 0 when it never does. */
function weighTerms(
  test: TestText,
  names: ReadonlySet<string>,
  terms: TermHits,
  allowPlural: boolean,
  othersSay: { change: boolean; route: boolean },
): Map<string, number> {
  const pathWords = new Set(splitWords(test.path));
  const titleWords = new Set(test.titles.flatMap((title) => splitWords(title)));
  const titleSayings = terms.routes.size === 0 ? [] : test.titles.map((title) => toTitleSaying(title));
  const codeWords = decodeWords(test.words?.code);
  const weights = new Map<string, number>();
  // dayjs's test/plugin/utc-utcOffset.test.js for a change inside `proto.utcOffset = function`, beside utc.test.js: a
  // file named for the changed callable is more its test than the one named for the file that holds it.
  const testStem = splitStem(test.path).stem;
  const compact = splitWords(testStem).join('');
  const stem = terms.callables.size === 0 && terms.rootCallables.size === 0 ? '' : compact;
  const namedCallables = [...terms.callables].filter((name) => stem.includes(name));
  if (stem !== '' && terms.rootCallables.has(toRoot(stem))) namedCallables.push(toRoot(stem));
  if (isNamedForFileAndCallable(test.path, terms)) namedCallables.push(stem);
  // express's test/app.listen.js for a change inside `app.listen = function listen () {` of lib/application.js.
  if (terms.memberPaths.has(testStem)) namedCallables.push(testStem);
  // The test named for the changed file, or for a changed callable, speaks for all of it: each word of the change
  // counts as said in its path.
  // A test named for the file that says none of the changed callables, where another test does, is about the file's
  // other code (more-itertools's test_recipes.py, beside test_more.py calling the changed `running_min` twelve times);
  // so is one whose titles say none of the changed routes where another's do (outline's oauth/index.test.ts, about
  // revoke and token, beside oauth.test.ts's `#oauth.register` for a change in the register handler).
  const named =
    isNamedTestOf(test.path, terms.path, allowPlural) &&
    !(othersSay.change && !saysWholeName(names, terms)) &&
    !(othersSay.route && !saysChangedRoute(test, terms));
  for (const word of terms.words) {
    const weight =
      named || namedCallables.length > 0 || pathWords.has(word)
        ? WEIGHT.path
        : titleWords.has(word)
          ? WEIGHT.title
          : codeWords.has(word)
            ? WEIGHT.code
            : 0;
    if (weight > 0) weights.set(word, weight);
  }
  for (const word of terms.literalWords) if (pathWords.has(word)) weights.set(`'${word}`, WEIGHT.code);
  for (const name of terms.wholeNames) if (names.has(name)) weights.set(`=${name}`, WEIGHT.name);
  for (const [segment, words] of terms.routes)
    if (titleSayings.some((said) => says(said, words))) weights.set(`route:${segment}`, WEIGHT.route);
  if (callsChangedRoute(test, terms)) weights.set('calls-route', WEIGHT.route);
  if (named) weights.set('pair', WEIGHT.pair);
  // A Go test file beside the changed file is compiled into its package and tests its internals; a test of another
  // package sees only what it exports (go-playground/validator's validator_test.go for regexes.go, against 23
  // translations/*_test.go and non-standard tests at the same distance).
  if (test.path.endsWith('_test.go') && terms.path.endsWith('.go') && splitStem(test.path).folder === splitStem(terms.path).folder)
    weights.set('package', WEIGHT.goPackage);
  for (const name of namedCallables) weights.set(`file:${name}`, WEIGHT.callableFile);
  if (terms.introduced.has(compact)) weights.set(`introduced:${compact}`, WEIGHT.callableFile);
  if (terms.callees.has(compact)) weights.set(`callee:${compact}`, WEIGHT.callee);
  // By the share of the family the test checks: multer's error-handling.js says all eight error codes, a test of the
  // express integration says one of them.
  const siblingsSaid = [...terms.siblings].filter((sibling) => names.has(sibling)).length;
  if (siblingsSaid > 0) weights.set('siblings', (WEIGHT.sibling * siblingsSaid) / terms.siblings.size);
  return weights;
}

/** Whether one of a test's titles says a changed route (`#oauth.register` for `/oauth/register`). */
function saysChangedRoute(test: TestText, terms: TermHits): boolean {
  if (callsChangedRoute(test, terms)) return true;
  const sayings = test.titles.map((title) => toTitleSaying(title));
  return [...terms.routes.values()].some((words) => sayings.some((said) => says(said, words)));
}

/**
 * Whether a test requests a changed route over HTTP: hedgedoc's public and private notes controllers serve the same
 * `notes/:noteAlias/revisions/:revisionUuid` under `/api/v2` and `/api/private`, and every e2e test reaches both
 * through the app module; only the path a test requests tells the public controller's test from the private one's.
 */
function callsChangedRoute(test: TestText, terms: TermHits): boolean {
  return terms.routePaths.size > 0 && (test.calledRoutes ?? []).some((path) => terms.routePaths.has(path));
}

/** Whether a test's names say a changed callable or export by its whole name of several words (`runningmin`). */
function saysWholeName(names: ReadonlySet<string>, terms: TermHits): boolean {
  for (const name of terms.wholeNames) if (names.has(name)) return true;
  return false;
}

/**
 * How closely each test that reaches a changed file names what changed: the file's own name, the changed callables'
 * and exports' names and the changed routes, in the test's path, titles and code, each term weighted by how few of
 * these tests name it (a word every test of a shared app harness says tells none of them apart). Tests that only reach the file through a
 * shared helper, a barrel or the whole app score 0; those that say `redirect` in `test/res.redirect.js` for a change
 * to `res.redirect` score highest. The score only orders tests that reach the change through imports: it never adds
 * one.
 */
export function scoreTestRelevance(tests: readonly TestText[], target: ChangedTarget): Map<string, number> {
  const terms = toTerms(target);
  const allowPlural = !tests.some((test) => isNamedTestOf(test.path, target.path));
  const names = tests.map((test) => decodeWords(test.words?.names));
  const othersSay = {
    change: names.some((said) => saysWholeName(said, terms)),
    route: terms.routes.size > 0 && tests.some((test) => saysChangedRoute(test, terms)),
  };
  const weighed = tests.map((test, index) => ({
    path: test.path,
    weights: weighTerms(test, names[index] ?? new Set(), terms, allowPlural, othersSay),
  }));
  const frequency = new Map<string, number>();
  for (const { weights } of weighed) for (const term of weights.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const scores = new Map<string, number>();
  for (const { path, weights } of weighed) {
    let score = 0;
    for (const [term, weight] of weights) score += weight * Math.log(1 + tests.length / (frequency.get(term) ?? 1));
    scores.set(path, Math.round(score * 1000) / 1000);
  }
  return scores;
}

/** A name tells a test case apart only when few test titles say it: at most this share of them, or `MIN_NAMING_TITLES`. */
const MAX_NAMING_SHARE = 0.1;
const MIN_NAMING_TITLES = 3;

/** The last segment of a changed name (`res.redirect` → `redirect`), as the words a title would say it in, joined. */
function toSaidName(name: string): { name: string; words: string[] } | undefined {
  const last = name.slice(name.lastIndexOf('.') + 1);
  const words = splitWords(last);
  if (!words.some(isTerm) || PLUMBING.has(last.toLowerCase()) || LANGUAGE.has(last)) return undefined;
  return { name: last, words };
}

/**
 * Which test cases name a change by their titles. `titles` are the full title paths (`renderList > should warn when
 * given a non-integer N`) of every test case of the repository. A title names the change when it says a changed
 * callable or export (`renderList`, `res.body=` for a changed `body` setter; a name of several words said in a row)
 * that few titles say: `fastify` or `ctx`, said by most titles of their repositories, tell no case apart. Words of the
 * changed file's name or of the code around the change are not enough: too many titles say them for other reasons.
 * Returns, per title, the changed names it says, sorted.
 */
export function createTitleNamer(titles: readonly string[]): (title: string, targets: readonly ChangedTarget[]) => string[] {
  const saying = titles.map((title) => toTitleSaying(title));
  const counts = new Map<string, number>();
  const countSaying = (words: readonly string[]): number => {
    const key = words.join(' ');
    let count = counts.get(key);
    if (count === undefined) {
      count = saying.filter((said) => says(said, words)).length;
      counts.set(key, count);
    }
    return count;
  };
  const limit = Math.max(MIN_NAMING_TITLES, titles.length * MAX_NAMING_SHARE);
  return (title, targets) => {
    const said = toTitleSaying(title);
    const named = new Set<string>();
    for (const target of targets)
      for (const name of target.names) {
        const found = toSaidName(name);
        if (found !== undefined && says(said, found.words) && countSaying(found.words) <= limit && !saysOtherMember(said, name, target))
          named.add(found.name);
      }
    return [...named].sort(compareText);
  };
}

/** Whether a title that says `container` says a member of it the change left alone (`OrmUtils > mergeDeep`). */
function saysOtherMember(said: TitleSaying, container: string, target: ChangedTarget): boolean {
  const prefix = `${container}.`;
  return (target.members ?? []).some((member) => {
    if (!member.startsWith(prefix) || target.names.includes(member)) return false;
    const found = toSaidName(member);
    return found !== undefined && says(said, found.words);
  });
}

interface TitleSaying {
  words: ReadonlySet<string>;
  joined: string;
}

function toTitleSaying(title: string): TitleSaying {
  const words = splitWords(title);
  return { words: new Set(words), joined: words.join(' ') };
}

/**
 * Whether `name` is a class or object whose changed lines all lie in members the names list (`Router` beside
 * `Router.use`): a case that only constructs it (koa-router's `new Router()` with no assertions) never runs the changed
 * member. A changed constructor runs on every construction, so the class keeps its name then.
 */
function isOnlyItsMembersChanged(name: string, names: readonly string[]): boolean {
  const members = names.filter((other) => other.startsWith(`${name}.`));
  return members.length > 0 && !members.some((member) => member.endsWith('.constructor'));
}

/**
 * Whether the code calls a changed member of one word on its owner (`Router.use` as `router.use(…)` after `const router
 * = new Router()`, `new Router().use(…)`, `Router.use`, `this.use`): koa-router's test of `allowedMethods` says
 * `app.use(router.routes())`, Koa's `use`, not the router's.
 */
function isCalledOnOwner(code: string, name: string): boolean {
  const dot = name.lastIndexOf('.');
  const owner = name.slice(name.lastIndexOf('.', dot - 1) + 1, dot);
  const member = escapeRegExp(name.slice(dot + 1));
  const ownerPattern = escapeRegExp(owner);
  const receivers = new Set([owner, `${owner.charAt(0).toLowerCase()}${owner.slice(1)}`, 'this']);
  for (const bound of code.matchAll(new RegExp(`([A-Za-z_$][\\w$]*)\\s*=\\s*(?:await\\s+)?(?:new\\s+)?${ownerPattern}\\b`, 'g')))
    if (bound[1] !== undefined) receivers.add(bound[1]);
  const on = [...receivers].map(escapeRegExp).join('|');
  return new RegExp(`(?:(?<![\\w$.])(?:${on})|new\\s+${ownerPattern}\\s*\\([^()]*\\))\\s*\\??\\.\\s*${member}(?![\\w$])`).test(code);
}

/** One word said as a word; several said in a row (`deep merge`, `deepMerge`). */
function says(said: TitleSaying, words: readonly string[]): boolean {
  if (words.length === 1) return said.words.has(words[0] ?? '');
  return ` ${said.joined} `.includes(` ${words.join(' ')} `);
}

/**
 * The changed callables and exports a test case's code says whole, as identifiers (`renderList(3.1, …)`), when the test
 * file is the changed file's own (`renderList.spec.ts` for `renderList.ts`): a weak case there that runs what changed
 * is about the change even when its title says nothing of it. In any other file, a case that calls the changed factory
 * (`fastify()`, `axios.get`) says nothing about which change it proves.
 */
export function findSaidNames(code: string, testPath: string, targets: readonly ChangedTarget[]): string[] {
  const identifiers = new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const testStem = getFileStem(testPath)
    .replace(/[.-](?:test|spec)s?$/i, '')
    .toLowerCase();
  const said = new Set<string>();
  for (const target of targets) {
    if (getFileStem(target.path).toLowerCase() !== testStem) continue;
    for (const name of target.names) {
      if (isOnlyItsMembersChanged(name, target.names)) continue;
      const found = toSaidName(name);
      if (found === undefined || !identifiers.has(found.name)) continue;
      if (found.words.length === 1 && name.includes('.') && !isCalledOnOwner(code, name)) continue;
      said.add(found.name);
    }
  }
  return [...said].sort(compareText);
}
