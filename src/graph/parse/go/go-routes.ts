import type { ChainEntryFact, MountFact, PathPart, RouteFact, UseFact } from '../../../model/facts.js';
import { type GoDeclarations, type GoFunction, toPathParts } from './go-declarations.js';
import { joinRoutePaths } from '../route-calls.js';
import { collectLocals, collectOwnerTypes, collectReferences, type GoScope } from './go-references.js';
import { isStatic, joinPattern, renderParts, splitMethodPattern, toRoutePattern } from './go-route-paths.js';
import { type GoLines, type GoNode, getChild, getChildren } from './go-tree.js';

type GoFramework = 'go-http' | 'chi' | 'gin' | 'echo';

/** One router value: an application, a router, or a group of one (chi `Route`/`Group`/`With`, gin and echo `Group`). */
interface Router {
  /** What routes, mounts and middleware on it are keyed by (see `getRouterKey`). */
  key: string;
  /** The router a group belongs to: what mounts of it reach. */
  rootKey: string;
  framework: GoFramework;
  prefix: PathPart[];
  isApp: boolean;
  /** Middleware of the enclosing groups below the root: the root's own reach the group through `rootKey`. */
  groupUses: PendingUse[];
}

interface PendingUse {
  entries: ChainEntryFact[];
  line: number;
  offset: number;
}

interface FunctionScope {
  name: string;
  env: Map<string, Router>;
  refs: GoScope;
  parameters: Set<string>;
  returned: Set<string>;
}

const CHI_METHODS: ReadonlySet<string> = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'Head', 'Options', 'Connect', 'Trace']);
const UPPER_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT', 'TRACE']);
/** An HTTP method given as a string (`"GET"`) or as net/http's constant (`http.MethodGet`), upper-cased. */
function toHttpMethod(node: GoNode, source: string): string | undefined {
  const method =
    toStringLiteral(node, source)?.toUpperCase() ??
    /^(?:\w+\.)?Method([A-Z][a-z]+)$/.exec(source.slice(node.start, node.end))?.[1]?.toUpperCase();
  return method !== undefined && UPPER_METHODS.has(method) ? method : undefined;
}

const ROUTER_TYPES: Readonly<Record<GoFramework, ReadonlySet<string>>> = {
  chi: new Set(['Router', 'Mux']),
  gin: new Set(['Engine', 'RouterGroup', 'IRouter', 'IRoutes']),
  echo: new Set(['Echo', 'Group']),
  'go-http': new Set(['ServeMux']),
};
const CONSTRUCTORS: Readonly<Record<GoFramework, ReadonlySet<string>>> = {
  chi: new Set(['NewRouter', 'NewMux']),
  gin: new Set(['Default', 'New']),
  echo: new Set(['New']),
  'go-http': new Set(['NewServeMux']),
};

function getFrameworkOfPath(path: string): GoFramework | undefined {
  if (path === 'net/http') return 'go-http';
  if (/^github\.com\/go-chi\/chi(?:\/v\d+)?$/.test(path)) return 'chi';
  if (path === 'github.com/gin-gonic/gin') return 'gin';
  if (/^github\.com\/labstack\/echo(?:\/v\d+)?$/.test(path)) return 'echo';
  return undefined;
}

/**
 * Routes, mounts and middleware of a Go file (net/http, chi, gin, echo). Group prefixes are joined into route paths
 * here; mounts (`r.Mount`, a router handed to a function) are left to the graph, which joins them across files.
 *
 * Keys: a router that is a parameter of its function or returned by it is keyed by the function's name (`NewRouter`,
 * `Server.routes`), so a mount that names the function (`r.Mount("/admin", admin.NewRouter())`) reaches it; another
 * local router by `Function.variable`, so two functions' `r` stay apart; a package-level one by its name; a receiver's
 * field by `Type.field`; a group by its parent's key and line, with its root's key as `scope`.
 */
export function collectRoutes(
  declarations: GoDeclarations,
  source: string,
  lines: GoLines,
): { routes: RouteFact[]; mounts: MountFact[]; uses: UseFact[] } {
  const collector = new RouteCollector(declarations, source, lines);
  if (collector.frameworks.size === 0) return { routes: [], mounts: [], uses: [] };
  collector.collect();
  return { routes: collector.routes, mounts: collector.mounts, uses: collector.uses };
}

class RouteCollector {
  readonly routes: RouteFact[] = [];
  readonly mounts: MountFact[] = [];
  readonly uses: UseFact[] = [];
  /** Import local → the framework it is. */
  readonly frameworks = new Map<string, GoFramework>();
  private readonly globals = new Map<string, Router>();
  private readonly fields = new Map<string, Router>();

  constructor(
    private readonly declarations: GoDeclarations,
    private readonly source: string,
    private readonly lines: GoLines,
  ) {
    for (const [local, path] of declarations.importPaths) {
      const framework = getFrameworkOfPath(path);
      if (framework !== undefined) this.frameworks.set(local, framework);
    }
  }

  collect(): void {
    for (const [name, value] of this.declarations.variables) {
      const constructed = value === undefined ? undefined : this.getConstructed(value);
      if (constructed !== undefined) this.globals.set(name, this.createRouter(name, constructed.framework, constructed.isApp));
    }
    for (const fn of this.declarations.functions) {
      const body = getChild(fn.node, 'body');
      if (body === undefined) continue;
      const scope = this.createScope(fn);
      for (const declaration of getChild(fn.node, 'parameters')?.children ?? []) this.bindTypedParameters(declaration, scope);
      this.walk(body, scope);
    }
  }

  private text(node: GoNode): string {
    return this.source.slice(node.start, node.end);
  }

  private createScope(fn: GoFunction): FunctionScope {
    const locals = collectLocals(fn.node, this.source);
    const returned = new Set<string>();
    const parameters = new Set<string>();
    for (const declaration of getChild(fn.node, 'parameters')?.children ?? [])
      for (const name of getChildren(declaration, 'name')) parameters.add(this.text(name));
    const stack = [fn.node];
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      if (node.type === 'return_statement')
        for (const value of node.children[0]?.children ?? []) if (value.type === 'identifier') returned.add(this.text(value));
      if (node.type !== 'func_literal') stack.push(...node.children);
    }
    const refs: GoScope = {
      source: this.source,
      importPaths: this.declarations.importPaths,
      locals,
      ownerTypes: collectOwnerTypes(fn.node, this.source),
    };
    return { name: fn.name, env: new Map(), refs, parameters, returned };
  }

  private createRouter(key: string, framework: GoFramework, isApp: boolean): Router {
    return { key, rootKey: key, framework, prefix: [], isApp, groupUses: [] };
  }

  private getRouterKey(scope: FunctionScope, variable: string): string {
    return scope.parameters.has(variable) || scope.returned.has(variable) ? scope.name : `${scope.name}.${variable}`;
  }

  /** `func routes(r chi.Router)`, `func setup(g *gin.RouterGroup)`: a router parameter. */
  private bindTypedParameters(declaration: GoNode, scope: FunctionScope): void {
    const type = getChild(declaration, 'type');
    const framework = type === undefined ? undefined : this.getRouterType(type);
    if (framework === undefined) return;
    for (const name of getChildren(declaration, 'name')) {
      const variable = this.text(name);
      scope.env.set(variable, this.createRouter(this.getRouterKey(scope, variable), framework, false));
    }
  }

  private getRouterType(type: GoNode): GoFramework | undefined {
    const [owner, name] = this.text(type).replace(/[\s*]/g, '').split('.');
    const framework = owner === undefined ? undefined : this.frameworks.get(owner);
    return framework !== undefined && name !== undefined && ROUTER_TYPES[framework].has(name) ? framework : undefined;
  }

  /** `chi.NewRouter()`, `gin.Default()`, `echo.New()`, `http.NewServeMux()`. */
  private getConstructed(node: GoNode): { framework: GoFramework; isApp: boolean } | undefined {
    const call = node.type === 'unary_expression' ? node.children[0] : node;
    if (call?.type !== 'call_expression') return undefined;
    const callee = getChild(call, 'function');
    if (callee?.type !== 'selector_expression') return undefined;
    const owner = getChild(callee, 'operand');
    const field = getChild(callee, 'field');
    const framework = owner === undefined ? undefined : this.frameworks.get(this.text(owner));
    if (framework === undefined || field === undefined || !CONSTRUCTORS[framework].has(this.text(field))) return undefined;
    return { framework, isApp: framework === 'gin' || framework === 'echo' };
  }

  private walk(node: GoNode, scope: FunctionScope): void {
    switch (node.type) {
      case 'short_var_declaration':
      case 'assignment_statement':
        this.bindAssignment(getChild(node, 'left')?.children ?? [], getChild(node, 'right')?.children ?? [], scope);
        break;
      case 'var_spec':
        this.bindAssignment(getChildren(node, 'name'), getChild(node, 'value')?.children ?? [], scope);
        break;
      case 'expression_statement': {
        const call = node.children[0];
        if (call?.type === 'call_expression' && this.visitCall(call, scope, true)) return;
        if (call?.type === 'call_expression') {
          for (const child of call.children) this.walk(child, scope);
          return;
        }
        break;
      }
      case 'call_expression':
        if (this.visitCall(node, scope, false)) return;
        break;
      case 'func_literal':
        this.walkClosure(node, scope);
        return;
    }
    for (const child of node.children) this.walk(child, scope);
  }

  /** A closure's parameters hide the routers of the same name (`func(w http.ResponseWriter, r *http.Request)`). */
  private walkClosure(node: GoNode, scope: FunctionScope): void {
    const inner: FunctionScope = { ...scope, env: new Map(scope.env) };
    for (const declaration of getChild(node, 'parameters')?.children ?? []) {
      for (const name of getChildren(declaration, 'name')) inner.env.delete(this.text(name));
      this.bindTypedParameters(declaration, inner);
    }
    const body = getChild(node, 'body');
    if (body !== undefined) this.walk(body, inner);
  }

  /** `r := chi.NewRouter()`, `v1 := r.Group("/v1", auth)`, `admin := r.With(requireAdmin)`. */
  private bindAssignment(left: GoNode[], right: GoNode[], scope: FunctionScope): void {
    if (left.length !== right.length) return;
    left.forEach((target, index) => {
      const value = right[index];
      if (target.type !== 'identifier' || value === undefined) return;
      const variable = this.text(target);
      const constructed = this.getConstructed(value);
      if (constructed !== undefined) {
        scope.env.set(variable, this.createRouter(this.getRouterKey(scope, variable), constructed.framework, constructed.isApp));
        return;
      }
      const group = value.type === 'call_expression' ? this.getGroup(value, scope, this.getRouterKey(scope, variable)) : undefined;
      if (group !== undefined) scope.env.set(variable, group);
    });
  }

  /** A gin or echo `Group("/v1", mw...)`, or chi's `With(mw...)`, as a router of its own. */
  private getGroup(call: GoNode, scope: FunctionScope, key?: string): Router | undefined {
    const callee = getChild(call, 'function');
    if (callee?.type !== 'selector_expression') return undefined;
    const method = this.text(getChild(callee, 'field') ?? callee);
    const operand = getChild(callee, 'operand');
    const parent = operand === undefined ? undefined : this.resolveRouter(operand, scope);
    if (parent === undefined) return undefined;
    const args = getChild(call, 'arguments')?.children ?? [];
    if (method === 'Group' && (parent.framework === 'gin' || parent.framework === 'echo')) {
      const prefix = args[0] === undefined ? undefined : toPathParts(args[0], this.source);
      if (prefix === undefined) return undefined;
      return this.createGroup(parent, prefix, args.slice(1), call, scope, key);
    }
    if (method === 'With' && parent.framework === 'chi') return this.createGroup(parent, [], args, call, scope, key);
    return undefined;
  }

  private createGroup(parent: Router, prefix: PathPart[], middleware: GoNode[], call: GoNode, scope: FunctionScope, key?: string): Router {
    const group: Router = {
      key: key ?? `${parent.key}@${this.lines.lineOf(call.start)}`,
      rootKey: parent.rootKey,
      framework: parent.framework,
      prefix: [...parent.prefix, ...normaliseParts(prefix)],
      isApp: false,
      groupUses: parent.key === parent.rootKey ? [] : [...parent.groupUses],
    };
    for (const use of group.groupUses) this.pushUse(group, use);
    if (middleware.length > 0) this.addUse(group, middleware, call, scope);
    return group;
  }

  private resolveRouter(node: GoNode, scope: FunctionScope): Router | undefined {
    if (node.type === 'identifier') {
      const name = this.text(node);
      return scope.env.get(name) ?? this.globals.get(name);
    }
    if (node.type === 'selector_expression') {
      const key = this.getFieldKey(node, scope);
      return key === undefined ? undefined : this.fields.get(key);
    }
    if (node.type === 'call_expression') return this.getGroup(node, scope);
    return undefined;
  }

  /** `s.router` with `s *Server`: `Server.router`, the same router in every method. */
  private getFieldKey(node: GoNode, scope: FunctionScope): string | undefined {
    const operand = getChild(node, 'operand');
    const field = getChild(node, 'field');
    const owner = operand?.type === 'identifier' ? scope.refs.ownerTypes.get(this.text(operand)) : undefined;
    return owner === undefined || field === undefined ? undefined : `${owner}.${this.text(field)}`;
  }

  /** A router method call, or a router handed to a function; true when the call's children were walked here. */
  private visitCall(call: GoNode, scope: FunctionScope, isStatement: boolean): boolean {
    const callee = getChild(call, 'function');
    const args = getChild(call, 'arguments')?.children ?? [];
    if (callee?.type !== 'selector_expression') {
      if (isStatement) this.addHandedRouters(call, callee, args, scope);
      return false;
    }
    const operand = getChild(callee, 'operand');
    const field = getChild(callee, 'field');
    if (operand === undefined || field === undefined) return false;
    const method = this.text(field);
    const router = this.resolveRouter(operand, scope) ?? this.guessRouter(operand, method, scope);
    if (router === undefined) {
      if (isStatement) this.addHandedRouters(call, callee, args, scope);
      return false;
    }
    switch (router.framework) {
      case 'chi':
        return this.visitChiCall(router, method, args, call, scope);
      case 'go-http':
        if (method === 'Handle' || method === 'HandleFunc') this.addPatternRoute(router, args, call, scope);
        return false;
      default:
        this.visitGinOrEchoCall(router, method, args, call, scope);
        return false;
    }
  }

  /**
   * A receiver the file does not declare as a router (`s.router`, an untyped parameter): one when its method is a
   * router's and the file imports exactly the framework that has it.
   */
  private guessRouter(operand: GoNode, method: string, scope: FunctionScope): Router | undefined {
    const imported = new Set(this.frameworks.values());
    let framework: GoFramework | undefined;
    if (operand.type === 'identifier' && this.frameworks.get(this.text(operand)) === 'go-http') {
      if (method !== 'Handle' && method !== 'HandleFunc') return undefined;
      const key = this.text(operand);
      let mux = this.globals.get(`${key}.DefaultServeMux`);
      if (mux === undefined) {
        mux = this.createRouter(key, 'go-http', false);
        this.globals.set(`${key}.DefaultServeMux`, mux);
      }
      return mux;
    }
    if (CHI_METHODS.has(method) || method === 'Route' || method === 'Mount' || method === 'Use' || method === 'Group') {
      if (imported.has('chi')) framework = 'chi';
      else if (method === 'Use' || method === 'Group') framework = imported.has('gin') ? 'gin' : imported.has('echo') ? 'echo' : undefined;
    } else if (UPPER_METHODS.has(method) || method === 'Any')
      framework = imported.has('gin') ? 'gin' : imported.has('echo') ? 'echo' : undefined;
    else if (method === 'Handle' || method === 'HandleFunc')
      framework = imported.has('chi') ? 'chi' : imported.has('go-http') ? 'go-http' : undefined;
    if (framework === undefined || (imported.has('gin') && imported.has('echo') && framework !== 'chi' && framework !== 'go-http'))
      return undefined;
    if (operand.type === 'selector_expression') {
      const key = this.getFieldKey(operand, scope);
      if (key === undefined) return undefined;
      const router = this.createRouter(key, framework, false);
      this.fields.set(key, router);
      return router;
    }
    if (operand.type !== 'identifier' || !scope.refs.locals.has(this.text(operand))) return undefined;
    const variable = this.text(operand);
    const router = this.createRouter(this.getRouterKey(scope, variable), framework, false);
    scope.env.set(variable, router);
    return router;
  }

  private visitChiCall(router: Router, method: string, args: GoNode[], call: GoNode, scope: FunctionScope): boolean {
    const [first, second] = args;
    if (CHI_METHODS.has(method) && first !== undefined && args.length >= 2)
      this.addRoute(router, method.toUpperCase(), first, args.slice(1), call, scope, 'last');
    else if ((method === 'Handle' || method === 'HandleFunc') && args.length >= 2) this.addPatternRoute(router, args, call, scope);
    else if ((method === 'Method' || method === 'MethodFunc') && args.length >= 3 && first !== undefined && second !== undefined) {
      const verb = toStringLiteral(first, this.source);
      if (verb !== undefined) this.addRoute(router, verb.toUpperCase(), second, args.slice(2), call, scope, 'last');
    } else if (method === 'Use') this.addUse(router, args, call, scope);
    else if (method === 'Mount' && first !== undefined && second !== undefined) this.addMount(router, first, second, call, scope);
    else if ((method === 'Route' || method === 'Group') && args.length >= 1)
      return this.visitChiSubrouter(router, method, args, call, scope);
    return false;
  }

  /** `r.Route("/api", func(r chi.Router) {...})`, `r.Group(func(r chi.Router) {...})`, `r.Route("/users", users.Routes)`. */
  private visitChiSubrouter(router: Router, method: string, args: GoNode[], call: GoNode, scope: FunctionScope): boolean {
    const prefixNode = method === 'Route' ? args[0] : undefined;
    const callback = method === 'Route' ? args[1] : args[0];
    const prefix = prefixNode === undefined ? [] : toPathParts(prefixNode, this.source);
    if (callback === undefined || prefix === undefined) return false;
    if (callback.type !== 'func_literal') {
      if (prefixNode !== undefined) this.addMount(router, prefixNode, callback, call, scope);
      return false;
    }
    const group = this.createGroup(router, prefix, [], call, scope);
    const inner: FunctionScope = { ...scope, env: new Map(scope.env) };
    for (const declaration of getChild(callback, 'parameters')?.children ?? [])
      for (const name of getChildren(declaration, 'name')) inner.env.set(this.text(name), group);
    const body = getChild(callback, 'body');
    if (body !== undefined) this.walk(body, inner);
    return true;
  }

  private visitGinOrEchoCall(router: Router, method: string, args: GoNode[], call: GoNode, scope: FunctionScope): void {
    const handlerAt = router.framework === 'gin' ? 'last' : 'first';
    const [first, second] = args;
    if ((UPPER_METHODS.has(method) || method === 'Any') && first !== undefined && args.length >= 2)
      this.addRoute(router, method === 'Any' ? 'ALL' : method, first, args.slice(1), call, scope, handlerAt);
    else if ((method === 'Handle' || method === 'Add') && first !== undefined && second !== undefined && args.length >= 3) {
      const verb = toStringLiteral(first, this.source);
      if (verb !== undefined) this.addRoute(router, verb.toUpperCase(), second, args.slice(2), call, scope, handlerAt);
    } else if (method === 'Use') this.addUse(router, args, call, scope);
  }

  /**
   * net/http's `mux.HandleFunc("GET /items/{id}", h)` and chi's `r.Handle("/x", h)`. A method before the path
   * (httprouter's `r.Handle(http.MethodGet, path, handle)`) is read as gin's `Handle`; a path that is a parameter of the
   * function around the call is a registration helper's (httprouter's own `func (r *Router) GET(path string, …)`), no
   * route of the application.
   */
  private addPatternRoute(router: Router, args: GoNode[], call: GoNode, scope: FunctionScope): void {
    const [patternNode, ...rest] = args;
    if (patternNode === undefined || rest.length === 0) return;
    const verb = toHttpMethod(patternNode, this.source);
    const pathNode = verb === undefined ? patternNode : rest[0];
    if (pathNode?.type === 'identifier' && scope.parameters.has(this.text(pathNode))) return;
    if (verb !== undefined && pathNode !== undefined && rest.length >= 2) {
      this.addRoute(router, verb, pathNode, rest.slice(1), call, scope, 'last');
      return;
    }
    const pattern = toStringLiteral(patternNode, this.source);
    if (pattern === undefined) {
      this.addRoute(router, 'ALL', patternNode, rest, call, scope, 'last');
      return;
    }
    const { method, path } = splitMethodPattern(pattern);
    this.addRoute(router, method, patternNode, rest, call, scope, 'last', path);
  }

  private addRoute(
    router: Router,
    method: string,
    pathNode: GoNode,
    rest: GoNode[],
    call: GoNode,
    scope: FunctionScope,
    handlerAt: 'first' | 'last',
    pattern?: string,
  ): void {
    const declared = pattern === undefined ? toPathParts(pathNode, this.source) : [{ text: pattern }];
    if (declared === undefined || !isPathLike(declared)) return;
    const path = normaliseParts(declared);
    const handlerNode = handlerAt === 'last' ? rest[rest.length - 1] : rest[0];
    if (handlerNode === undefined) return;
    const middlewareNodes = handlerAt === 'last' ? rest.slice(0, -1) : rest.slice(1);
    const handlerEntry = this.toEntry(handlerNode, scope);
    const middlewareEntries = middlewareNodes.map((node) => this.toEntry(node, scope));
    const line = this.lines.lineOf(call.start);
    const route: RouteFact = {
      method,
      path: joinPattern(router.prefix, path),
      span: { start: line, end: this.lines.lineOf(Math.max(call.start, call.end - 1)) },
      // The method's name, not the call's start: `r.With(audit).Get(...)` starts with the `With` that comes before it.
      offset: getChild(getChild(call, 'function') ?? call, 'field')?.start ?? call.start,
      handlerEntry,
      framework: router.framework,
      kind: 'api',
      line,
      router: router.key,
    };
    if (!isStatic(router.prefix) || !isStatic(path)) route.pathParts = [...router.prefix, { text: '/' }, ...path];
    if (middlewareEntries.length > 0) {
      route.middlewareEntries = middlewareEntries;
      route.middleware = middlewareEntries.flatMap((entry) => {
        const name = entry.callee ?? entry.name;
        return name === undefined ? [] : [name];
      });
    }
    if (handlerEntry.name !== undefined && !handlerEntry.inline) route.handler = handlerEntry.name;
    if (router.rootKey !== router.key) route.scope = router.rootKey;
    this.routes.push(route);
  }

  private addUse(router: Router, args: GoNode[], call: GoNode, scope: FunctionScope): void {
    if (args.length === 0) return;
    const use: PendingUse = {
      entries: args.map((arg) => this.toEntry(arg, scope)),
      line: this.lines.lineOf(call.start),
      offset: call.start,
    };
    if (router.key !== router.rootKey) router.groupUses.push(use);
    this.pushUse(router, use);
  }

  private pushUse(router: Router, use: PendingUse): void {
    const fact: UseFact = { receiver: router.key, entries: use.entries, line: use.line, offset: use.offset };
    if (router.isApp) fact.appLevel = true;
    this.uses.push(fact);
  }

  /** `r.Mount("/admin", adminRouter())`, `r.Route("/users", users.Routes)`: a router the graph finds by name. */
  private addMount(router: Router, prefixNode: GoNode, target: GoNode, call: GoNode, scope: FunctionScope): void {
    const declared = toPathParts(prefixNode, this.source);
    const name = this.getTargetName(target, scope);
    if (declared === undefined || name === undefined) return;
    const prefix = [...router.prefix, ...normaliseParts(declared)];
    this.pushMount(router, prefix, name, call, false);
  }

  /** `routes.Register(v1)`, `s.registerAPI(r)`: a function given a router registers on it, under the router's prefix. */
  private addHandedRouters(call: GoNode, callee: GoNode | undefined, args: GoNode[], scope: FunctionScope): void {
    if (callee === undefined || args.length === 0 || this.isLibraryCall(callee)) return;
    for (const arg of args) {
      const router = arg.type === 'identifier' ? (scope.env.get(this.text(arg)) ?? this.globals.get(this.text(arg))) : undefined;
      if (router === undefined) continue;
      const name = this.getTargetName(callee, scope);
      if (name !== undefined) this.pushMount(router, router.prefix, name, call, router.prefix.length === 0);
      return;
    }
  }

  /** `http.ListenAndServe(addr, r)`, `chi.Walk(r, fn)`: a standard library or framework function serves, not registers. */
  private isLibraryCall(callee: GoNode): boolean {
    const operand = callee.type === 'selector_expression' ? getChild(callee, 'operand') : undefined;
    const path = operand?.type === 'identifier' ? this.declarations.importPaths.get(this.text(operand)) : undefined;
    if (path === undefined) return false;
    return !(path.split('/')[0] ?? '').includes('.') || getFrameworkOfPath(path) !== undefined;
  }

  private pushMount(router: Router, prefix: PathPart[], target: string, call: GoNode, bare: boolean): void {
    const mount: MountFact = {
      prefix: isStatic(prefix) ? joinRoutePaths(renderParts(prefix)) : renderParts(prefix),
      target,
      line: this.lines.lineOf(call.start),
      receiver: router.key,
      offset: call.start,
    };
    if (!isStatic(prefix)) mount.prefixParts = prefix;
    if (bare) mount.bare = true;
    if (router.rootKey !== router.key) mount.scope = router.rootKey;
    if (router.isApp) mount.appLevel = true;
    this.mounts.push(mount);
  }

  /** What a mount names: a router variable's key, a called function (`adminRouter()` → `adminRouter`), a reference. */
  private getTargetName(node: GoNode, scope: FunctionScope): string | undefined {
    if (node.type === 'identifier') {
      const name = this.text(node);
      return scope.env.get(name)?.key ?? this.globals.get(name)?.key ?? name;
    }
    if (node.type === 'call_expression') {
      const callee = getChild(node, 'function');
      return callee === undefined ? undefined : this.getTargetName(callee, scope);
    }
    if (node.type === 'selector_expression') return this.toOwnName(node, scope);
    return undefined;
  }

  /** `s.handleList` with `s *Server` (a receiver or a parameter) names `Server.handleList`; other selectors stay as written. */
  private toOwnName(node: GoNode, scope: FunctionScope): string | undefined {
    const operand = getChild(node, 'operand');
    const field = getChild(node, 'field');
    if (operand === undefined || field === undefined) return undefined;
    const ownerType = operand.type === 'identifier' ? scope.refs.ownerTypes.get(this.text(operand)) : undefined;
    if (ownerType !== undefined) return `${ownerType}.${this.text(field)}`;
    if (operand.type !== 'identifier' && operand.type !== 'selector_expression') return undefined;
    return this.text(node).replace(/\s+/g, '');
  }

  private toEntry(node: GoNode, scope: FunctionScope): ChainEntryFact {
    const entry: ChainEntryFact = { inline: node.type === 'func_literal', span: this.lines.spanOf(node), refs: [] };
    if (node.type === 'identifier' || node.type === 'selector_expression') {
      const name = node.type === 'identifier' ? this.text(node) : this.toOwnName(node, scope);
      if (name !== undefined) {
        entry.name = name;
        entry.refs = [name];
      }
      return entry;
    }
    if (node.type === 'call_expression') {
      const callee = getChild(node, 'function');
      const calleeName =
        callee === undefined
          ? undefined
          : callee.type === 'identifier'
            ? this.text(callee)
            : callee.type === 'selector_expression'
              ? this.toOwnName(callee, scope)
              : undefined;
      if (calleeName !== undefined) entry.callee = calleeName;
      const args = getChild(node, 'arguments')?.children ?? [];
      const last = args[args.length - 1];
      const wrapped =
        last === undefined
          ? undefined
          : last.type === 'identifier'
            ? this.text(last)
            : last.type === 'selector_expression'
              ? this.toOwnName(last, scope)
              : undefined;
      if (wrapped !== undefined && wrapped !== calleeName) entry.name = wrapped;
    } else if (node.type === 'index_expression' || node.type === 'conditional_expression') entry.dynamic = true;
    const references = collectReferences(node, scope.refs);
    entry.refs = references.refs;
    if (references.statuses.length > 0) entry.statuses = references.statuses;
    return entry;
  }
}

function toStringLiteral(node: GoNode, source: string): string | undefined {
  if (node.type === 'interpreted_string_literal' || node.type === 'raw_string_literal') return source.slice(node.start + 1, node.end - 1);
  return undefined;
}

/** A route path: text that starts with `/` (or is empty, a group's own path), or a constant. */
function isPathLike(parts: readonly PathPart[]): boolean {
  const first = parts[0];
  if (first === undefined) return false;
  return !('text' in first) || first.text === '' || first.text.startsWith('/') || first.text.startsWith('*');
}

function normaliseParts(parts: readonly PathPart[]): PathPart[] {
  return parts.map((part) => ('text' in part ? { text: toRoutePattern(part.text) } : part));
}
