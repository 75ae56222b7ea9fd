import { composeRoutes, type ComposedRoute } from './routes/compose-routes.js';
import { toRouteId } from './ids.js';
import type { RouteGuard, RouteNode, RouteSource } from '../model/graph.js';
import type { FileFacts, HttpCallFact, RouteFact } from '../model/facts.js';
import { compareText } from '../text/compare-text.js';
import { classifyRole } from './roles.js';
import { addEdge, type Builder, getFileId } from './build-context.js';
import { createSymbolIndex } from './build-modules.js';
import type { SymbolIndex } from './symbol-index.js';
import { createNextRouteFilter } from './routes/next-packages.js';
import { createHttpCallMatcher, type MatchableRoute } from './routes/match-http-calls.js';

/** Route nodes: every framework route of every file, composed across router mounts. */

interface RouteDeclaration {
  file: string;
  route: RouteFact;
  fullPath: string;
  composed?: ComposedRoute;
}

/**
 * Route nodes and their edges, composed from the files that declare routes, mounts or middleware. Given `candidates`
 * (a patch: the files that did before, and the changed ones), only those files' facts are read.
 */
export function addRoutes(builder: Builder, candidates?: ReadonlySet<string>): void {
  // Where a route of a router mounted nowhere checker could resolve may be served, by route id (compose-routes.ts).
  const servedUnder = new Map<string, string[]>();
  for (const [id, list] of groupRouteDeclarations(builder, candidates)) {
    const under = list.flatMap((declaration) => declaration.composed?.servedUnder ?? []);
    if (under.length > 0) servedUnder.set(id, [...new Set(under)]);
    const primary = list.find((declaration) => declaration.route.framework !== 'openapi') ?? list[0];
    if (primary === undefined) continue;
    const guards = primary.composed?.guards ?? [];
    builder.graph.addNode(id, toRouteNode(primary, list, guards));
    addHandlesEdges(builder, id, list);
    addGuardsEdges(builder, id, guards);
  }
  addCallsEdges(builder, servedUnder);
}

/**
 * An edge from each file that makes HTTP calls to each API route a call matches, at the file's first such call. Every
 * file's calls are read, also in a patch: they are kept beside the facts' inline fields (model/facts.ts), and a patch
 * makes every route node, and so every edge into one, anew.
 */
function addCallsEdges(builder: Builder, servedUnder: ReadonlyMap<string, readonly string[]>): void {
  const routes: MatchableRoute[] = [];
  builder.graph.forEachNode((id, attributes) => {
    if (attributes.kind !== 'route' || attributes.routeKind !== 'api') return;
    routes.push({ id, method: attributes.method, path: attributes.path });
    for (const path of servedUnder.get(id) ?? []) routes.push({ id, method: attributes.method, path });
  });
  if (routes.length === 0) return;
  const match = createHttpCallMatcher(routes);
  const symbols = builder.result.symbols ?? createSymbolIndex(builder);
  for (const file of builder.files) {
    const calls = file.facts?.httpCalls;
    if (calls === undefined || calls.length === 0 || !builder.fileIds.has(file.path)) continue;
    const linked = new Set<string>();
    for (const fact of calls) {
      const call = fact.prefixRef === undefined ? fact : withImportedPrefix(symbols, file.path, fact);
      if (call === undefined) continue;
      for (const route of match(call)) {
        if (linked.has(route.id)) continue;
        linked.add(route.id);
        addEdge(builder, getFileId(builder, file.path), route.id, { kind: 'calls', method: call.method, path: call.path, line: call.line });
      }
    }
  }
}

/**
 * A call whose URL starts with an imported name (`${PUBLIC_API_PREFIX}/notes/x`), with the name's value in front of its
 * path: a constant path (`'/api/v2'`) wherever it is declared, through barrels. Undefined when the value is not one.
 */
function withImportedPrefix(symbols: SymbolIndex, file: string, call: HttpCallFact): HttpCallFact | undefined {
  const resolved = symbols.resolvePath(file, [{ ref: call.prefixRef ?? '' }]);
  if (resolved.unresolved.length > 0 || !resolved.text.startsWith('/')) return undefined;
  const prefix = resolved.text.replace(/\/+$/, '');
  return { ...call, path: call.path === '/' ? prefix || '/' : `${prefix}${call.path}` };
}

/** Framework routes composed across mounts, then OpenAPI operations, grouped by route id (method and full path). */
function groupRouteDeclarations(builder: Builder, candidates: ReadonlySet<string> | undefined): Map<string, RouteDeclaration[]> {
  const symbols = createSymbolIndex(builder);
  builder.result.symbols = symbols;
  // A route a test file registers (`fastify.get('/a', …)` inside a test) is the test's fixture, not one the product
  // serves: a change would otherwise "reach" it and ask for a test of it.
  const servesNext = createNextRouteFilter(
    builder.input.packages,
    builder.files.map((file) => file.path),
  );
  const sources = builder.files.flatMap((file) => {
    if ((candidates !== undefined && !candidates.has(file.path)) || file.facts === undefined || classifyRole(file.path) === 'test')
      return [];
    const facts = withoutUnservedNextRoutes(file.path, file.facts, servesNext);
    return facts.routes.length === 0 && facts.mounts.length === 0 && (facts.uses ?? []).length === 0 ? [] : [{ path: file.path, facts }];
  });
  builder.result.routeSources = sources.map((source) => source.path);
  const composed = composeRoutes(symbols, sources);
  builder.result.unmatchedMounts.push(...composed.unmatchedMounts);
  builder.result.routeLimitations = composed.limitations;
  const declarations: RouteDeclaration[] = composed.routes.map((entry) => ({
    file: entry.file,
    route: entry.route,
    fullPath: entry.fullPath,
    composed: entry,
  }));
  const documents = [...builder.input.openApiRoutes].sort((left, right) => compareText(left.path, right.path));
  for (const document of documents) {
    for (const route of document.routes) declarations.push({ file: document.path, route, fullPath: route.path });
  }
  const grouped = new Map<string, RouteDeclaration[]>();
  for (const declaration of declarations) {
    const id = toRouteId(declaration.route.method, declaration.fullPath);
    const list = grouped.get(id) ?? [];
    list.push(declaration);
    grouped.set(id, list);
  }
  return grouped;
}

/** The file's facts without the Next.js routes its package does not serve (routes/next-packages.ts). */
function withoutUnservedNextRoutes(path: string, facts: FileFacts, servesNext: (path: string) => boolean): FileFacts {
  if (!facts.routes.some((route) => route.framework.startsWith('nextjs-')) || servesNext(path)) return facts;
  return { ...facts, routes: facts.routes.filter((route) => !route.framework.startsWith('nextjs-')) };
}

function toRouteNode(primary: RouteDeclaration, list: RouteDeclaration[], guards: RouteGuard[]): RouteNode {
  const sources: RouteSource[] = list
    .map((declaration) => ({
      file: declaration.file,
      line: declaration.route.line,
      framework: declaration.route.framework,
      declaredPath: declaration.route.path,
    }))
    .sort((left, right) => compareText(left.file, right.file) || left.line - right.line);
  const attributes: RouteNode = {
    kind: 'route',
    method: primary.route.method,
    path: primary.fullPath,
    framework: primary.route.framework,
    routeKind: primary.route.kind,
    file: primary.file,
    line: primary.route.line,
    sources,
  };
  if (primary.route.handler !== undefined) attributes.handler = primary.route.handler;
  const middleware = guards.length > 0 ? guards.map((guard) => guard.name) : primary.route.middleware;
  if (middleware !== undefined && middleware.length > 0) attributes.middleware = middleware;
  if (guards.length > 0) attributes.guards = guards;
  const registrations = list.flatMap((declaration) => (declaration.composed === undefined ? [] : [declaration.composed.registration]));
  if (registrations.length > 0) attributes.registrations = registrations;
  const declared = list.find((declaration) => declaration.route.contract !== undefined);
  if (declared?.route.contract !== undefined) attributes.contract = { document: declared.file, ...declared.route.contract };
  return attributes;
}

/** The declaring file of each code route, and the files its handlers are imported from. */
function addHandlesEdges(builder: Builder, id: string, list: RouteDeclaration[]): void {
  const handled = new Set<string>();
  for (const declaration of list) {
    if (declaration.route.framework === 'openapi' || !builder.fileIds.has(declaration.file)) continue;
    const declaredKey = `${declaration.file}|declaration`;
    if (!handled.has(declaredKey)) {
      handled.add(declaredKey);
      addEdge(builder, id, getFileId(builder, declaration.file), { kind: 'handles', via: 'declaration', line: declaration.route.line });
    }
    for (const handlerFile of declaration.composed?.handlerFiles ?? []) {
      if (handled.has(`${handlerFile}|handler-import`) || !builder.fileIds.has(handlerFile)) continue;
      handled.add(`${handlerFile}|handler-import`);
      addEdge(builder, id, getFileId(builder, handlerFile), { kind: 'handles', via: 'handler-import', line: declaration.route.line });
    }
  }
}

function addGuardsEdges(builder: Builder, id: string, guards: RouteGuard[]): void {
  const guarded = new Set<string>();
  for (const guard of guards) {
    const file = guard.definedIn?.file ?? guard.file;
    const key = `${file}|${guard.name}|${guard.level}`;
    if (guarded.has(key) || !builder.fileIds.has(file)) continue;
    guarded.add(key);
    addEdge(builder, id, getFileId(builder, file), {
      kind: 'guards',
      name: guard.name,
      role: guard.role,
      level: guard.level,
      line: guard.line,
    });
  }
}
