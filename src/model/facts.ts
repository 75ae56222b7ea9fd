/**
 * Facts extracted from one source file by the parser. Plain JSON data: they are cached by
 * content hash and sent between processes, so no AST nodes, no functions, no classes.
 * Lines are 1-based; spans are inclusive line ranges.
 */
export interface Span {
  start: number;
  end: number;
}

export type ImportKind =
  /** `import x from 'a'`, `import {x} from 'a'`, `import * as ns from 'a'`, `import 'a'` */
  | 'static'
  /** `import('a')` with a string literal (or a template literal without expressions) */
  | 'dynamic'
  /** `require('a')`, `require.resolve` is not an import */
  | 'require'
  /** `export {x} from 'a'`, `export * as ns from 'a'` */
  | 'reexport'
  /** `export * from 'a'` */
  | 'reexport-all'
  /** `import x = require('a')` (TypeScript) */
  | 'import-equals';

export interface ImportedName {
  /** The name in the source module: an export name, `default`, or `*` for a namespace. */
  imported: string;
  /** The local binding (equal to the exported name for re-exports). */
  local: string;
  typeOnly: boolean;
}

export interface ImportFact {
  specifier: string;
  kind: ImportKind;
  /** The whole declaration is type-only (`import type`, `export type {} from`), or every name is. */
  typeOnly: boolean;
  /** Empty for a side-effect import (`import 'a'`); `*` for namespaces, `require`, and dynamic imports whose use is unknown. */
  names: ImportedName[];
  line: number;
}

export type ExportKind = 'function' | 'class' | 'variable' | 'type' | 'interface' | 'enum' | 'namespace' | 'default' | 'reexport' | 'cjs';

export interface ExportFact {
  /** Exported name; `default` for the default export. */
  name: string;
  kind: ExportKind;
  /** Lines of the declaration that carries the export (for `export {a}` the declaration of `a` when local). */
  span: Span;
  typeOnly: boolean;
  /** For re-exports: the specifier they come from. */
  from?: string;
  /** For re-exports: the name in the source module (`*` for `export * as ns from`). */
  imported?: string;
  /** The local binding when it differs from the exported name (`export { app as handlers }` → `app`). */
  local?: string;
}

/** `conditional`: the case runs only where a condition holds (`it.skipIf(!token)`, `describe.runIf(isLinux)`). */
export type TestModifier = 'skip' | 'only' | 'todo' | 'conditional';

export interface TestCaseFact {
  kind: 'suite' | 'test';
  /** Titles from the outermost describe to this case. */
  titlePath: string[];
  span: Span;
  modifiers: TestModifier[];
  /** Assertions inside the callback: expect/assert/t.*, throws/rejects, type-level checks (`expectTypeOf`, `assertType`, `@ts-expect-error`), helper-like names (`assertEqual`, `expectValid`), local helpers that assert, configured helper names. Suites: 0. */
  assertions: number;
  /** Assertions that are trivially true (`expect(true).toBe(true)`, `assert.ok(1)`). */
  trivialAssertions: number;
  /** Snapshot assertions: `toMatchSnapshot()` and empty inline snapshots (an inline snapshot with content is an explicit assertion). */
  snapshotAssertions: number;
  /** Assertions inside callbacks (then/setTimeout/on) whose promise is neither awaited nor returned. */
  unawaitedAssertions: number;
  /** try/catch blocks whose catch has no assertion and no rethrow. */
  swallowedErrors: number;
  /** The test callback takes a `done` argument or is async. */
  isAsync: boolean;
  /**
   * For a test with no assertion counted here: the plain functions it calls that the file neither imports nor declares
   * (`equal(a, b)`), sorted, at most 16. A setup file may put an asserting helper of that name on the global object.
   */
  freeCalls?: string[];
  /**
   * For a test with no assertion counted here: the imported functions it calls, by local name (`test({ valid })` with
   * `import test from './testFunctions'`), sorted, at most 16. The file they come from may export an asserting helper.
   */
  importedCalls?: string[];
}

export interface MockFact {
  specifier: string;
  framework: 'vitest' | 'jest' | 'node';
  line: number;
}

export type RouteFramework =
  | 'express'
  | 'fastify'
  | 'hono'
  | 'koa'
  | 'nestjs'
  | 'nextjs-api'
  | 'nextjs-route'
  | 'nextjs-page'
  | 'openapi'
  | 'flask'
  | 'fastapi'
  | 'django'
  | 'go-http'
  | 'chi'
  | 'gin'
  | 'echo';

/**
 * A piece of a route path or mount prefix: literal text, or a reference to a constant that the graph
 * resolves across files (`API.users`, `BASE`). Unresolvable references become `{?expression}` segments.
 */
export type PathPart = { text: string } | { ref: string };

/**
 * One handler or middleware argument of a route, `use` or mount registration: a named reference
 * (`listUsers`, `users.list`), an inline function, or a call (`rateLimit({...})`, `asyncHandler(list)`).
 */
export interface ChainEntryFact {
  /** The named reference, or for a call the wrapped reference (`asyncHandler(list)` → `list`). */
  name?: string;
  /** For a call: the callee (`rateLimit`, `passport.authenticate`). */
  callee?: string;
  /** The argument is a function literal. */
  inline: boolean;
  /** Chosen at run time (`handlers[name]`, `flag ? a : b`): the chain cannot be followed statically. */
  dynamic?: boolean;
  span: Span;
  /** Names the argument references at run time (import bindings, top-level declarations, `ns.member`). */
  refs: string[];
  /** HTTP statuses the argument responds with (400, 401, 403, 422, 429). */
  statuses?: number[];
  /**
   * For a call given no argument or one object literal: the keys it sets to something other than a false literal
   * (`auth({ optional: true })` → optional), sorted; absent when they cannot be read.
   */
  options?: string[];
}

/**
 * A top-level declaration, class member or object-literal member with what it references at run time:
 * the per-function reference index that handler-level route reach follows.
 */
export interface CallableFact {
  /** `listUsers`, `UsersService.find` (class member), `handlers.list` (object member), `default`. */
  name: string;
  span: Span;
  /** Local names referenced inside (import bindings, top-level declarations, `ns.member`, `Class.member`), sorted. */
  refs: string[];
  /** HTTP statuses it responds with (400, 401, 403, 422, 429). */
  statuses?: number[];
}

/** A top-level string constant (`const BASE = '/api'`) or `as const` object member (`API.users`). */
export interface ConstantFact {
  name: string;
  parts: PathPart[];
}

/** Router- or app-level middleware or setting: `app.use(mw)`, `router.use('/admin', requireAdmin)`, `app.set(...)`. */
export interface UseFact {
  receiver: string;
  /** Path prefix the middleware is limited to (`router.use('/admin', mw)`). */
  prefix?: string;
  entries: ChainEntryFact[];
  line: number;
  /** Source offset: middleware applies to routes registered after it on the same receiver. */
  offset: number;
  /** `app.set`, `app.disable`, …: configuration that applies to every route of the receiver. */
  setting?: string;
  /** When `receiver` is a parameter: the top-level declaration it belongs to. */
  scope?: string;
  /** The receiver is an application (`express()`, `Fastify()`, `new Hono()`), not a router. */
  appLevel?: boolean;
  /**
   * NestJS URI versioning (`app.enableVersioning({ type: VersioningType.URI })`): the segment's prefix (`v`, empty when
   * `prefix: false`) and the version of routes that declare none.
   */
  versioning?: { prefix: string; defaultVersion?: string };
  /**
   * NestJS `RouterModule.register(routes)`: each module it names with the path its controllers are served under, the
   * parents' paths joined in (`children`). Absent when the routes could not be read (a limitation then says so).
   */
  modulePaths?: NestModulePathFact[];
}

/** One module of a Nest `RouterModule.register` tree: `{ path: '/api/v2', module: PublicApiModule }`. */
export interface NestModulePathFact {
  /** The full path, static parts only (`{?NAME}` for a constant). */
  path: string;
  /** Set when the path uses constants: the parts the graph resolves. */
  pathParts?: PathPart[];
  /** The module as the file names it (`PublicApiModule`, `admin.AdminModule`). */
  module: string;
  line: number;
}

/** A Nest module class: `@Module({ controllers: [NotesController] }) class NotesModule {}`. */
export interface NestModuleFact {
  name: string;
  /** The controllers it declares, as the file names them. */
  controllers: string[];
  line: number;
}

export interface RouteFact {
  /** Upper-case HTTP method, `ALL` for catch-all handlers, `PAGE` for UI routes. */
  method: string;
  /** Path as declared, joined with static prefixes known in the same file (router mounts, controller prefix). */
  path: string;
  /** Set when the declared path uses constants: the parts the graph resolves (`path` then shows `{?…}` for them). */
  pathParts?: PathPart[];
  /** Lines of the registration's arguments (path, middleware, handler). */
  span?: Span;
  /** Source offset of the registration, for ordering against `use` and mounts on the same receiver. */
  offset?: number;
  /** The handler argument (last argument; the decorated method for NestJS). */
  handlerEntry?: ChainEntryFact;
  /** Route-level middleware arguments, in order (guards for NestJS). */
  middlewareEntries?: ChainEntryFact[];
  framework: RouteFramework;
  kind: 'api' | 'ui';
  line: number;
  /** Handler identifier when it is a named reference (`router.get('/x', listUsers)`). */
  handler?: string;
  /** Middleware identifiers between path and handler (`requireAuth`). */
  middleware?: string[];
  /** The router variable the route was declared on, for mount resolution across files. */
  router?: string;
  /** When `router` is a parameter: the top-level declaration it belongs to (`export default async function users(fastify)`). */
  scope?: string;
  /**
   * The router's own prefix, already joined into `path` (a Flask `Blueprint(url_prefix=…)`, a FastAPI
   * `APIRouter(prefix=…)`): a mount with `replacesPrefix` serves the route without it.
   */
  ownPrefix?: string;
  /** What an OpenAPI operation declares about itself (OpenAPI routes only). */
  contract?: RouteContract;
  /** A NestJS route's version (`@Controller({ version: '1' })`, `@Version('2')`); empty for VERSION_NEUTRAL. */
  version?: string;
}

/** An OpenAPI operation's declared contract, as far as generated API checks can be judged against it. */
export interface RouteContract {
  /**
   * `required` when the operation (or the document, for an operation that says nothing) lists a security requirement
   * that is not the empty `{}`; `none` when it declares `security: []` or allows `{}`; `unspecified` otherwise.
   */
  security: 'required' | 'none' | 'unspecified';
  /** The response keys it declares, as written (`200`, `4XX`, `default`), sorted. */
  responses: string[];
}

/** A mount of a router under a prefix: `app.use('/api', usersRouter)`. */
export interface MountFact {
  prefix: string;
  /** Set when the prefix uses constants (`prefix` then shows `{?…}` for them). */
  prefixParts?: PathPart[];
  /** Local identifier of the mounted router (`usersRouter`, `accountApp.handlers`); `<inline>` for an inline plugin. */
  target: string;
  line: number;
  /** The router variable the mount is made on (`app` in `app.use('/api', users)`). */
  receiver?: string;
  offset?: number;
  /** Middleware between the prefix and the router (`app.use('/admin', requireAdmin, adminRouter)`). */
  middlewareEntries?: ChainEntryFact[];
  /** `app.use(target)` without a prefix: a router mounted at the receiver's root, or a middleware. */
  bare?: boolean;
  /** When `receiver` is a parameter: the top-level declaration it belongs to. */
  scope?: string;
  /** The mounted argument itself: used as a middleware when it turns out not to be a router. */
  targetEntry?: ChainEntryFact;
  /** The receiver is an application, not a router. */
  appLevel?: boolean;
  /** `prefix` replaces the mounted router's own prefix instead of joining it (Flask `register_blueprint(bp, url_prefix=…)`). */
  replacesPrefix?: boolean;
  /** The receiver's own prefix, which its routes carry in their paths: routers mounted on it are served under it too. */
  receiverPrefix?: string;
}

/** The client library an HTTP call is made with. */
export type HttpClient = 'fetch' | 'axios' | 'ky' | 'ofetch' | 'nuxt' | 'angular' | 'supertest' | 'test-client';

/**
 * An HTTP request made by client code with a path known statically (src/graph/parse/http-call-collector.ts):
 * `fetch('/api/items')`, `axios.post(`/api/items/${id}`)`, `api.get('/items')` on an `axios.create({ baseURL })` instance
 * of the same file, `useFetch`/`$fetch` (Nuxt), `request(app).get('/x')` (supertest). The graph links it to the routes it
 * matches, in any language.
 */
export interface HttpCallFact {
  /** Upper-case method: GET when the call gives none, `*` when it gives one that is not a literal. */
  method: string;
  /**
   * The requested path, with the instance's base URL and same-file string constants applied, the origin, query and hash
   * removed, and always a leading `/`; each other expression part as `{name}` (`/api/items/{item.id}`).
   */
  path: string;
  client: HttpClient;
  /** The host when the URL names one (`https://api.example.com/x` → `api.example.com`): linked only when it is local. */
  host?: string;
  /**
   * The URL starts with this imported name (`${PUBLIC_API_PREFIX}/notes`): `path` is what follows it, and the graph puts
   * the name's value, read where it is declared, in front (a value it cannot read links nothing).
   */
  prefixRef?: string;
  line: number;
}

export type SignalKind =
  | 'parse-number'
  | 'parse-json'
  | 'date-time'
  | 'money'
  | 'collection'
  /** A list whose size the caller decides: a parameter of the enclosing function mapped, filtered or reduced. */
  | 'input-collection'
  | 'optional-access'
  | 'async-failure'
  | 'promise-concurrency'
  | 'pagination'
  | 'auth'
  | 'regex'
  /** A pattern that can backtrack catastrophically: a nested or overlapping unbounded repetition (its detail says which). */
  | 'regex-backtracking'
  | 'env-config'
  | 'sql'
  /** A call that writes stored state (`create`, `insert`, `save`, `update`, `upsert`, `increment`) or SQL INSERT/UPDATE. */
  | 'write'
  /** Code that reads a request's body (`req.body`, `await c.req.json()`, `@Body()`, `request.get_json()`, `c.ShouldBindJSON`). */
  | 'body-read'
  | 'file-io'
  | 'network'
  | 'throw'
  | 'catch';

/** A fact about code that suggests an edge case (`parseInt(x)`, `new Date(...)`, `arr[0]`). */
export interface SignalFact {
  kind: SignalKind;
  line: number;
  /** Short source excerpt or callee name, at most 80 characters. */
  detail: string;
}

/** Cyclomatic complexity per top-level function-like declaration. */
export interface FunctionFact {
  name: string;
  span: Span;
  complexity: number;
  isAsync: boolean;
  params: number;
}

/** The innermost function whose span holds `line` (the shortest), or undefined at module level. */
export function findInnermostFunction<T extends { span: Span }>(functions: readonly T[], line: number): T | undefined {
  let innermost: T | undefined;
  for (const fn of functions) {
    if (fn.span.start > line || line > fn.span.end) continue;
    if (innermost === undefined || fn.span.end - fn.span.start < innermost.span.end - innermost.span.start) innermost = fn;
  }
  return innermost;
}

export interface ParseFailure {
  code: 'parse/syntax' | 'parse/crash' | 'parse/timeout' | 'parse/too-deep';
  message: string;
  line?: number;
  col?: number;
}

/**
 * An authorization rule or a check that consults one (graph/parse/authz-collector.ts): a cancan-style
 * `allow(User, "delete", FileOperation, …)` or CASL `can("read", "Post")` rule, an `authorize(user, "delete", op)` or
 * `ability.can("read", post)` check. A changed rule reaches the routes whose handlers check the same action on the
 * same subject.
 */
export interface AuthzFact {
  kind: 'rule' | 'check';
  /** The actions named, as written (`delete`; a CASL enum member `Action.Read` as `read`); a check names one. */
  actions: string[];
  /** A rule's subject (`FileOperation`, `Post`, `all`); a check's: the model its argument was loaded from, else the argument's name. */
  subject: string;
  span: Span;
}

/**
 * What the parser knows of one file. The fields read only for changed files and route reach (callables, constants,
 * functions, signals) come last, in that order: the facts cache keeps them in a file of their own and appends them on
 * load (src/io/parse-cache.ts), so a loaded file's facts have the same fields in the same order as a parsed one's.
 */
export interface FileFacts {
  imports: ImportFact[];
  exports: ExportFact[];
  tests: TestCaseFact[];
  mocks: MockFact[];
  routes: RouteFact[];
  mounts: MountFact[];
  /** Router- and app-level middleware and settings. */
  uses: UseFact[];
  /** NestJS modules declared in the file that list controllers (their RouterModule path prefixes those controllers' routes). */
  nestModules?: NestModuleFact[];
  /**
   * HTTP requests with a static path, when the file makes any. Kept beside the cache file's inline fields, not with the
   * lists, so the graph reads every file's calls without parsing their lists.
   */
  httpCalls?: HttpCallFact[];
  /** Authorization rules and checks, when the file has any; inline in the cache file like `httpCalls`. */
  authz?: AuthzFact[];
  /** Top-level declarations and members with their run-time references. */
  callables: CallableFact[];
  /** Top-level string constants (and `as const` object members, `API.users`) usable in route paths. */
  constants: ConstantFact[];
  /** Lines of top-level statements with no run-time effect (types, `declare`, overloads, type-only imports). */
  typeSpans?: Span[];
  /**
   * The hash of the file's text without its type syntax (graph/parse/runtime-text.ts): equal on both sides of a change
   * when the change is in types only.
   */
  runtimeHash?: string;
  signals: SignalFact[];
  functions: FunctionFact[];
  /**
   * On facts read for links alone (a focused run's `linkOnly` files, never cached): an upper bound of the summed
   * complexity of `functions` had the file been parsed (graph/history/hotspots.ts boundScriptComplexity), counted
   * while its text was read, so that the hotspot ranking parses only the files that could outrank a changed one.
   */
  complexityBound?: number;
  /** Number of lines in the file. */
  lines: number;
  /** Set when the file could not be parsed; the other lists are then empty. */
  failure?: ParseFailure;
  /**
   * Names the file puts on the global object (`global.equal = equal`, `globalThis.check = check`) whose function
   * asserts: test helpers a runner's setup file hands every test, which call them without importing them.
   */
  globalAssertionHelpers?: string[];
  /**
   * Names the file exports (`default` for its default export) whose function asserts, directly or through its own
   * helpers: a shared test helper (validator.js's `export default function test(options)`) the tests call by import.
   * Read only when the text names an assertion (`assert`, `expect`, `should`).
   */
  assertingExports?: string[];
  /** The file opens with a `#!` line: a program run by hand (`test/scripts/codegen.run.ts`), not a module a runner loads. */
  program?: true;
  /**
   * What the file's text says, as words (src/graph/parse/file-words.ts): what task grounding ranks files by. Absent for
   * facts read for their links alone (a focused run) and for texts parsed off disk; last, kept apart by the facts cache.
   */
  words?: FileWords;
}

/**
 * The words of a file's text by where they stand, each field a space-separated list of lower-case ASCII words sorted by
 * code unit, a word said more than once followed by `*` and its count up to 9 (`token*3`). Words are split on case,
 * digits and separators (src/text/split-words.ts), unstemmed; English stop words, language keywords, numbers and
 * words of one letter or over 32 are left out, and each field keeps at most its 1,024 most frequent words.
 */
export interface FileWords {
  /** Words of the names the file declares: functions, classes, interfaces, types, enums, variables, namespaces. */
  declared: string;
  /** Words of every other identifier and property name. */
  code: string;
  /** Words of string literals and template texts; module specifiers (`from './x'`, `require('x')`) left out. */
  strings: string;
  /** Words of comments. */
  comments: string;
  /**
   * Names of two words or more kept whole, lower-case letters and digits only, without counts: identifiers
   * (`verifyToken` → `verifytoken`) and strings written like one (`'If-None-Match'` → `ifnonematch`).
   */
  names: string;
}

/** The identifier words of one signal class: a word of an identifier (`pageSize` → page, size) equal to one, or starting with a prefix. */
export interface SignalWordList {
  words: string[];
  prefixes: string[];
}

/** The auth, pagination and money identifier words: the classifiers packs' `signals`, built-in and repository, merged. */
export type SignalWordLists = Record<'auth' | 'pagination' | 'money', SignalWordList>;

export interface ParseOptions {
  /** Extra assertion helper names (`expectValid`, `assertSorted`), from config. */
  assertionHelpers: string[];
  /** The merged signal words of the loaded packs; without them the parser uses the built-in classifiers pack's. */
  signalWords?: SignalWordLists;
}

/** The languages checker parses for facts: JavaScript and TypeScript with swc, Python and Go with tree-sitter grammars. */
export type SourceLanguage = 'javascript' | 'python' | 'go';

/** The language a file is parsed as, by extension; undefined for a file checker does not parse. */
export function getSourceLanguage(path: string): SourceLanguage | undefined {
  if (/\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(path)) return 'javascript';
  if (path.endsWith('.py')) return 'python';
  if (path.endsWith('.go')) return 'go';
  return undefined;
}

/** The files checker parses for facts: JavaScript, TypeScript, Python and Go by extension. */
export function isCodeFile(path: string): boolean {
  return getSourceLanguage(path) !== undefined;
}

/**
 * A code file whose edit a kept graph can take by patching that file alone: any but a `conftest.py`, whose `sys.path`
 * entries change how every other Python file resolves (src/graph/resolve/python-sys-path.ts), so its edit rebuilds.
 */
export function isPatchableCodeFile(path: string): boolean {
  return isCodeFile(path) && !/(?:^|\/)conftest\.py$/.test(path);
}

/** The files swc parses: JavaScript and TypeScript (the fast link scanner and the JS-only walks apply to these alone). */
export function isScriptFile(path: string): boolean {
  return getSourceLanguage(path) === 'javascript';
}

/** A test or suite case with nothing counted yet: the collectors of each language fill in its counts. */
export function createTestCase(
  kind: TestCaseFact['kind'],
  titlePath: string[],
  span: Span,
  modifiers: TestCaseFact['modifiers'] = [],
): TestCaseFact {
  return {
    kind,
    titlePath,
    span,
    modifiers,
    assertions: 0,
    trivialAssertions: 0,
    snapshotAssertions: 0,
    unawaitedAssertions: 0,
    swallowedErrors: 0,
    isAsync: false,
  };
}

export function emptyFacts(lines: number, failure?: ParseFailure): FileFacts {
  return {
    imports: [],
    exports: [],
    tests: [],
    mocks: [],
    routes: [],
    mounts: [],
    uses: [],
    lines,
    ...(failure === undefined ? {} : { failure }),
    callables: [],
    constants: [],
    functions: [],
    signals: [],
  };
}

/**
 * A file's links alone: its imports, exports and lines, every other list empty, as the link scanner reads them
 * (src/graph/parse/link-facts.ts). Of full facts, what a graph built from the file's link facts was made of.
 */
export function toLinkFacts(facts: Pick<FileFacts, 'lines' | 'imports' | 'exports' | 'program'>): FileFacts {
  const links: FileFacts = { ...emptyFacts(facts.lines), imports: facts.imports, exports: facts.exports };
  if (facts.program === true) links.program = true;
  return links;
}
