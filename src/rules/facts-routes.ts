import { findInnermostFunction, type FunctionFact, type SignalFact, type SignalKind, type Span } from '../model/facts.js';
import type { RouteNode } from '../model/graph.js';
import { type GraphLookup, sortUnique } from './facts-graph.js';

const MUTATION_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Path parameter names: `:id`, `{id}`, `[id]`, `[...slug]`. */
export function getRouteParams(path: string): string[] {
  const names: string[] = [];
  for (const match of path.matchAll(/:([A-Za-z_][\w]*)|\{([A-Za-z_][\w]*)\}|\[(?:\.\.\.)?([A-Za-z_][\w]*)\]/g)) {
    const name = match[1] ?? match[2] ?? match[3];
    if (name !== undefined) names.push(name);
  }
  return names;
}

/** What the head side of a changed file says: its signals and functions (what a handler's writes are read from). */
export interface HeadCode {
  signals: readonly SignalFact[];
  functions: readonly FunctionFact[];
  /** The file's changed lines (head side). */
  changedLines?: ReadonlySet<number>;
  /** Those of them that are an error path: a throw, a rejection, an HTTP error status. */
  errorPathLines?: ReadonlySet<number>;
}

/**
 * The first signal of `kind` (a `write`: `db.pin.create`, SQL INSERT; a `body-read`: `req.body`) the route's handler
 * makes, in its own code or in a function it calls directly, as far as the changed files show it; undefined when none is
 * seen. Only changed files are read: a handler the change did not touch is no evidence either way, and no template fires
 * on it.
 */
function findHandlerSignal(
  route: RouteNode,
  headCode: ReadonlyMap<string, HeadCode>,
  kind: SignalKind,
  onChangedLine = false,
  accepts: (signal: SignalFact, code: HeadCode, span: Span, handlerChanged: boolean) => boolean = () => true,
): string | undefined {
  let handlerChanged = false;
  const signalIn = (file: string, span: Span): string | undefined => {
    const code = headCode.get(file);
    // Or an answer to a bad request changed in the same code (Hono's `ctx.body(null, 500)` → 400 for a body that is no
    // stack trace): how it takes its body changed all the same.
    const answerChanged = [...(code?.errorPathLines ?? [])].some((line) => line >= span.start && line <= span.end);
    const signal = code?.signals.find(
      (candidate) =>
        candidate.kind === kind &&
        accepts(candidate, code, span, handlerChanged) &&
        candidate.line >= span.start &&
        candidate.line <= span.end &&
        (!onChangedLine || answerChanged || code.changedLines?.has(candidate.line) === true),
    );
    return signal === undefined ? undefined : `${signal.detail} at ${file}:${signal.line}`;
  };
  for (const registration of route.registrations ?? []) {
    for (const link of registration.chain) {
      if (link.role !== 'handler') continue;
      handlerChanged = isInChangedCode(link.span.start, headCode.get(link.file), link.span, false);
      const own = signalIn(link.file, link.span);
      if (own !== undefined) return own;
      for (const target of link.targets) {
        const hash = target.lastIndexOf('#');
        const file = target.slice(0, hash);
        const name = target.slice(hash + 1);
        const callee = headCode.get(file)?.functions.find((fn) => fn.name === name);
        const called = callee === undefined ? undefined : signalIn(file, callee.span);
        if (called !== undefined) return called;
      }
    }
  }
  return undefined;
}

/** A test that sends the route's request (its `calls` edge), and the tests of client code that sends it. */
export function getRouteCallingTests(lookup: GraphLookup, routeId: string): Set<string> {
  const tests = new Set<string>();
  if (!lookup.kg.graph.hasNode(routeId)) return tests;
  lookup.kg.graph.forEachInEdge(routeId, (_edge, attributes, _source, _target, sourceAttributes) => {
    if (attributes.kind !== 'calls' || sourceAttributes.kind !== 'file') return;
    if (lookup.isTestFile(sourceAttributes.path)) tests.add(sourceAttributes.path);
    else for (const test of lookup.getReachingTestFiles(sourceAttributes.path)) tests.add(test);
  });
  return tests;
}

/** The catalogue facts of one route. */
export function deriveRouteFacts(
  lookup: GraphLookup,
  id: string,
  route: RouteNode,
  changedRouteIds: ReadonlySet<string>,
  headCode: ReadonlyMap<string, HeadCode> = new Map(),
): Record<string, unknown> {
  const handlerFiles = new Set<string>([route.file]);
  lookup.kg.graph.forEachOutEdge(id, (_edge, attributes, _source, _target, _sourceAttributes, targetAttributes) => {
    if (attributes.kind === 'handles' && targetAttributes.kind === 'file') handlerFiles.add(targetAttributes.path);
  });
  const tests = new Set<string>();
  for (const file of handlerFiles) for (const test of lookup.getReachingTestFiles(file)) tests.add(test);
  for (const test of getRouteCallingTests(lookup, id)) tests.add(test);
  const middleware = [...(route.middleware ?? [])];
  const guards = route.guards ?? [];
  const auth = guards.filter((guard) => guard.role === 'auth' && guard.confidence === 'high');
  const nameOnly = guards.filter((guard) => guard.role === 'auth' && guard.confidence === 'low');
  return {
    method: route.method,
    path: route.path,
    framework: route.framework,
    kind: route.routeKind,
    file: route.file,
    middleware,
    hasAuthMiddleware: auth.length > 0,
    authMiddleware: sortUnique(auth.map((guard) => guard.name)),
    authEvidence: auth[0]?.evidence.join('; ') ?? '',
    hasNameOnlyAuth: auth.length === 0 && nameOnly.length > 0,
    nameOnlyAuth: auth.length === 0 ? sortUnique(nameOnly.map((guard) => guard.name)) : [],
    hasRateLimit: guards.some((guard) => guard.role === 'rate-limit' && guard.confidence === 'high'),
    hasValidation: guards.some((guard) => guard.role === 'validation' && guard.confidence === 'high'),
    isMutation: MUTATION_METHODS.has(route.method),
    params: getRouteParams(route.path),
    paramCount: getRouteParams(route.path).length,
    request:
      route.method === 'ALL'
        ? 'a request of any method'
        : route.method === 'PAGE'
          ? 'a page visit'
          : `${/^[AEIOU]/.test(route.method) ? 'an' : 'a'} ${route.method} request`,
    changed: changedRouteIds.has(id),
    reachingTests: tests.size,
    ...describeWrite(findHandlerSignal(route, headCode, 'write')),
    // The handler's own code, or the function around the write, must have changed: a write in another function of a
    // changed file repeats as it did before (outline's EditorState.create beside a changed ProsemirrorHelper method).
    ...describeCreate(
      findHandlerSignal(
        route,
        headCode,
        'write',
        false,
        (signal, code, span, handlerChanged) => isRepeatedWrite(signal) && (handlerChanged || isInChangedCode(signal.line, code, span)),
      ),
    ),
    // The body's reading (or its declaration: `@Body() dto`), or the handler's answer to a bad request, must have
    // changed: a handler that changed elsewhere takes its body as before (nestjs-boilerplate's login lost a call
    // argument, not its @Body()).
    ...describeBodyRead(findHandlerSignal(route, headCode, 'body-read', true)),
  };
}

function describeWrite(write: string | undefined): { handlerWrites: boolean; handlerWrite: string } {
  return { handlerWrites: write !== undefined, handlerWrite: write ?? '' };
}

function describeCreate(write: string | undefined): { handlerCreates: boolean; handlerCreate: string } {
  return { handlerCreates: write !== undefined, handlerCreate: write ?? '' };
}

/** Write methods a second identical call adds to: a row, a document, a counter step (JavaScript and Python spellings). */
const ADDING_WRITES = new Set([
  'create',
  'createMany',
  'bulkCreate',
  'bulk_create',
  'insert',
  'insertOne',
  'insert_one',
  'insertMany',
  'insert_many',
  'save',
  'increment',
  'decrement',
]);

/**
 * A write that a repeat adds to (`db.order.create`, `INSERT INTO`, `counter.increment`), not one that ends in the same
 * state when sent twice (`Document.update({ parentDocumentId: null })`, an upsert, `findOrCreate`).
 */
function isRepeatedWrite(signal: SignalFact): boolean {
  if (/^\s*INSERT\s/i.test(signal.detail)) return true;
  const method = /\.([\w$]+)$/.exec(signal.detail)?.[1];
  return method !== undefined && ADDING_WRITES.has(method);
}

/** The innermost function around `line` (else `span`; `span` itself when `innermost` is false) holds a changed line. */
function isInChangedCode(line: number, code: HeadCode | undefined, span: Span, innermost = true): boolean {
  if (code === undefined) return false;
  const around = innermost ? findInnermostFunction(code.functions, line) : undefined;
  const { start, end } = around?.span ?? span;
  for (const changed of code.changedLines ?? []) if (changed >= start && changed <= end) return true;
  return false;
}

function describeBodyRead(read: string | undefined): { readsBody: boolean; bodyRead: string } {
  return { readsBody: read !== undefined, bodyRead: read ?? '' };
}
