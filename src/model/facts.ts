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

export type ExportKind =
  | 'function'
  | 'class'
  | 'variable'
  | 'type'
  | 'interface'
  | 'enum'
  | 'namespace'
  | 'default'
  | 'reexport'
  | 'cjs';

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
}

export type TestModifier = 'skip' | 'only' | 'todo';

export interface TestCaseFact {
  kind: 'suite' | 'test';
  /** Titles from the outermost describe to this case. */
  titlePath: string[];
  span: Span;
  modifiers: TestModifier[];
  /** Assertions counted inside the callback (expect/assert/t.*, configured helper names). Suites: 0. */
  assertions: number;
  /** Assertions that are trivially true (`expect(true).toBe(true)`, `assert.ok(1)`). */
  trivialAssertions: number;
  /** Snapshot assertions (`toMatchSnapshot`, `toMatchInlineSnapshot`). */
  snapshotAssertions: number;
  /** Assertions inside callbacks (then/setTimeout/on) whose promise is neither awaited nor returned. */
  unawaitedAssertions: number;
  /** try/catch blocks whose catch has no assertion and no rethrow. */
  swallowedErrors: number;
  /** The test callback takes a `done` argument or is async. */
  isAsync: boolean;
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
  | 'openapi';

export interface RouteFact {
  /** Upper-case HTTP method, `ALL` for catch-all handlers, `PAGE` for UI routes. */
  method: string;
  /** Path as declared, joined with static prefixes known in the same file (router mounts, controller prefix). */
  path: string;
  framework: RouteFramework;
  kind: 'api' | 'ui';
  line: number;
  /** Handler identifier when it is a named reference (`router.get('/x', listUsers)`). */
  handler?: string;
  /** Middleware identifiers between path and handler (`requireAuth`). */
  middleware?: string[];
  /** The router variable the route was declared on, for mount resolution across files. */
  router?: string;
}

/** A mount of a router under a prefix: `app.use('/api', usersRouter)`. */
export interface MountFact {
  prefix: string;
  /** Local identifier of the mounted router. */
  target: string;
  line: number;
}

export type SignalKind =
  | 'parse-number'
  | 'parse-json'
  | 'date-time'
  | 'money'
  | 'collection'
  | 'optional-access'
  | 'async-failure'
  | 'promise-concurrency'
  | 'pagination'
  | 'auth'
  | 'regex'
  | 'env-config'
  | 'sql'
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

export interface ParseFailure {
  code: 'parse/syntax' | 'parse/crash' | 'parse/timeout' | 'parse/too-deep';
  message: string;
  line?: number;
  col?: number;
}

export interface FileFacts {
  imports: ImportFact[];
  exports: ExportFact[];
  tests: TestCaseFact[];
  mocks: MockFact[];
  routes: RouteFact[];
  mounts: MountFact[];
  signals: SignalFact[];
  functions: FunctionFact[];
  /** Number of lines in the file. */
  lines: number;
  /** Set when the file could not be parsed; the other lists are then empty. */
  failure?: ParseFailure;
}

export interface ParseOptions {
  /** Extra assertion helper names (`expectValid`, `assertSorted`), from config. */
  assertionHelpers: string[];
}

export function emptyFacts(lines: number, failure?: ParseFailure): FileFacts {
  const facts: FileFacts = {
    imports: [],
    exports: [],
    tests: [],
    mocks: [],
    routes: [],
    mounts: [],
    signals: [],
    functions: [],
    lines,
  };
  if (failure !== undefined) facts.failure = failure;
  return facts;
}
