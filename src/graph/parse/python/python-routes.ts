import type { ChainEntryFact, ConstantFact, ImportFact, MountFact, PathPart, RouteFact, UseFact } from '../../../model/facts.js';
import { applyPrefix } from '../route-calls.js';
import { getDefinitionRefs, getParameterNames } from './python-callables.js';
import { getAssignedValue, type ModuleScope } from './python-scope.js';
import {
  type Definition,
  findChild,
  getCallParts,
  getDecoratorExpression,
  getDottedName,
  getKeyword,
  getLine,
  getParts,
  getPositional,
  getSpan,
  getStringValue,
  getText,
  type PyFile,
  type PyNode,
  toDefinition,
  visit,
} from './python-tree.js';

/** An application or router a file creates: `app = Flask(__name__)`, `bp = Blueprint(…, url_prefix='/api')`. */
interface Receiver {
  framework: 'flask' | 'fastapi';
  appLevel: boolean;
  prefix?: string;
}

const receiverFactories = new Map<string, Receiver>([
  ['Flask', { framework: 'flask', appLevel: true }],
  ['Quart', { framework: 'flask', appLevel: true }],
  ['Blueprint', { framework: 'flask', appLevel: false }],
  ['FastAPI', { framework: 'fastapi', appLevel: true }],
  ['APIRouter', { framework: 'fastapi', appLevel: false }],
]);
const methodDecorators = new Set(['get', 'post', 'put', 'delete', 'patch', 'head', 'options']);
/** Decorators that run before every request of their receiver (Flask hooks, FastAPI HTTP middleware). */
const hookDecorators = new Set(['before_request', 'before_app_request', 'middleware']);
const djangoRouteCallees = new Set(['path', 're_path', 'url']);
const dependencyCallees = new Set(['Depends', 'Security']);
const maxConstantLength = 200;

export interface PythonRoutes {
  routes: RouteFact[];
  mounts: MountFact[];
  uses: UseFact[];
  constants: ConstantFact[];
  /** Modules named by Django `include('app.urls')`: links the graph follows to the mounted patterns. */
  imports: ImportFact[];
}

/**
 * The routes of a Flask, FastAPI or Django file: route decorators (`@app.route`, `@bp.get`, `@router.api_route`),
 * `add_url_rule`, Django `urlpatterns`; blueprint and router mounts (`register_blueprint`, `include_router`,
 * `include('app.urls')`); request hooks and middleware. A router's own prefix (`Blueprint(url_prefix=…)`,
 * `APIRouter(prefix=…)`) is joined into its routes' paths and kept as their `ownPrefix`: a blueprint registered with a
 * `url_prefix` is served at that prefix instead (`replacesPrefix`), while an included router's prefix joins its own.
 */
export function collectRoutes(file: PyFile, scope: ModuleScope, imports: readonly ImportFact[]): PythonRoutes {
  const collector = new RouteCollector(file, scope, imports);
  collector.collect();
  return {
    routes: collector.routes,
    mounts: collector.mounts,
    uses: collector.uses,
    constants: collectConstants(file, scope),
    imports: collector.includes,
  };
}

class RouteCollector {
  readonly routes: RouteFact[] = [];
  readonly mounts: MountFact[] = [];
  readonly uses: UseFact[] = [];
  readonly includes: ImportFact[] = [];
  private readonly receivers = new Map<string, Receiver>();
  private readonly importedFramework: Receiver['framework'] | undefined;
  private readonly isDjango: boolean;
  private readonly isStarlette: boolean;

  constructor(
    private readonly file: PyFile,
    private readonly scope: ModuleScope,
    imports: readonly ImportFact[],
  ) {
    const isFlask = imports.some((fact) => /^(flask|quart)(\.|$)/.test(fact.specifier));
    const isFastApi = imports.some((fact) => /^(fastapi|starlette)(\.|$)/.test(fact.specifier));
    this.importedFramework = isFastApi ? 'fastapi' : isFlask ? 'flask' : undefined;
    this.isDjango = imports.some((fact) => /^django(\.|$)/.test(fact.specifier));
    this.isStarlette = imports.some((fact) => /^starlette(\.|$)/.test(fact.specifier));
  }

  collect(): void {
    visit(this.file.root, (node) => {
      if (node.type === 'assignment') this.addReceiver(node);
      return undefined;
    });
    visit(this.file.root, (node) => {
      if (node.type === 'decorated_definition') this.addDecorated(node);
      else if (node.type === 'call') this.addCall(node);
      return undefined;
    });
    if (this.isDjango) this.addUrlPatterns();
    if (this.isStarlette) this.addStarletteRoutes();
  }

  /**
   * Starlette's route lists: `Route('/users/{id}', endpoint, methods=[…])` and `WebSocketRoute` items, `Mount('/api',
   * routes=[…])` joining its prefix into the routes it holds, in a module-level list (`routes = […]`) or inline in
   * `Starlette(routes=[…])` / `Router(routes=[…])`. A `Mount` of another app (`app=…`) is a mount the graph follows.
   */
  private addStarletteRoutes(): void {
    const seen = new Set<number>();
    for (const { node } of this.scope.statements) {
      const statement = node.type === 'expression_statement' ? getParts(node)[0] : undefined;
      if (statement?.type !== 'assignment') continue;
      const [target] = getParts(statement);
      const value = getAssignedValue(statement);
      if (target?.type !== 'identifier' || value === undefined) continue;
      const name = getText(this.file, target);
      if (value.type === 'list') this.addStarletteList(value, undefined, name, seen);
      else if (
        value.type === 'call' &&
        ['Starlette', 'Router'].includes(getLastName(getDottedName(this.file, getCallParts(value).callee)))
      ) {
        const routes = getKeyword(this.file, getCallParts(value).args, 'routes');
        if (routes?.type === 'list') this.addStarletteList(routes, undefined, name, seen);
      }
    }
  }

  private addStarletteList(list: PyNode, prefix: string | undefined, router: string, seen: Set<number>): void {
    if (seen.has(list.start)) return;
    seen.add(list.start);
    const receiver: Receiver = { framework: 'fastapi', appLevel: true, ...(prefix === undefined ? {} : { prefix }) };
    for (const item of getParts(list)) {
      if (item.type !== 'call') continue;
      const { callee, args } = getCallParts(item);
      const name = getLastName(getDottedName(this.file, callee));
      const positional = getPositional(args);
      if (name === 'Route' || name === 'WebSocketRoute') {
        const endpoint = positional[1] ?? getKeyword(this.file, args, 'endpoint');
        const handler = endpoint === undefined ? undefined : this.toExpressionEntry(endpoint);
        if (handler === undefined) continue;
        const added = this.routes.length;
        this.addRoute({
          receiverName: router,
          receiver,
          method: 'route',
          args,
          at: item,
          span: getSpan(this.file, item),
          handler,
          middleware: [],
        });
        // A Mount's prefix is where its routes are served, not a prefix a registration could replace.
        for (const route of this.routes.slice(added)) delete route.ownPrefix;
      } else if (name === 'Mount') {
        const path = getStringValue(this.file, positional[0] ?? getKeyword(this.file, args, 'path'));
        if (path === undefined) continue;
        const joined = applyPrefix(prefix ?? '', normaliseParameters(path));
        const routes = getKeyword(this.file, args, 'routes');
        if (routes?.type === 'list') this.addStarletteList(routes, joined, router, seen);
        const app = positional[1] ?? getKeyword(this.file, args, 'app');
        if (app !== undefined) this.addMount(router, receiver, item, app, positional[0], false);
      }
    }
  }

  private addReceiver(node: PyNode): void {
    const [target] = getParts(node);
    const value = getAssignedValue(node);
    if (target?.type !== 'identifier' || value?.type !== 'call') return;
    const { callee, args } = getCallParts(value);
    const factory = getLastName(getDottedName(this.file, callee));
    const known = receiverFactories.get(factory);
    if (known === undefined) return;
    const receiver: Receiver = { ...known };
    const prefix = getStringValue(this.file, getKeyword(this.file, args, known.framework === 'flask' ? 'url_prefix' : 'prefix'));
    if (prefix !== undefined && prefix !== '') receiver.prefix = prefix;
    this.receivers.set(getText(this.file, target), receiver);
  }

  /** The framework of a receiver: the factory it was made by in this file, else the framework the file imports. */
  private getReceiver(name: string): Receiver | undefined {
    const known = this.receivers.get(name);
    if (known !== undefined) return known;
    return this.importedFramework === undefined ? undefined : { framework: this.importedFramework, appLevel: /^app$/i.test(name) };
  }

  private addDecorated(node: PyNode): void {
    const definition = toDefinition(this.file, node);
    if (definition === undefined || definition.node.type !== 'function_definition') return;
    definition.decorators.forEach((decorator, index) => {
      const expression = getDecoratorExpression(decorator);
      const call = expression?.type === 'call' ? getCallParts(expression) : undefined;
      const target = call === undefined ? expression : call.callee;
      if (target?.type !== 'attribute') return;
      const [object, member] = getParts(target);
      const receiverName = getDottedName(this.file, object);
      const method = member === undefined ? '' : getText(this.file, member);
      const receiver = receiverName === undefined ? undefined : this.getReceiver(receiverName);
      if (receiverName === undefined || receiver === undefined) return;
      if (hookDecorators.has(method)) {
        this.addUse(receiverName, receiver, decorator, [this.toDefinitionEntry(definition)]);
        return;
      }
      if (call === undefined || !(method === 'route' || method === 'api_route' || methodDecorators.has(method))) return;
      const below = definition.decorators.slice(index + 1).flatMap((wrapper) => this.toDecoratorEntry(wrapper));
      const dependencies = [
        ...this.getDependencies(getKeyword(this.file, call.args, 'dependencies')),
        ...this.getParameterDependencies(definition),
      ];
      this.addRoute({
        receiverName,
        receiver,
        method,
        args: call.args,
        at: decorator,
        span: getSpan(this.file, definition.outer),
        handler: this.toDefinitionEntry(definition),
        middleware: [...below, ...dependencies],
      });
    });
  }

  private addCall(node: PyNode): void {
    const { callee, args } = getCallParts(node);
    if (callee?.type !== 'attribute') return;
    const [object, member] = getParts(callee);
    const receiverName = getDottedName(this.file, object);
    const receiver = receiverName === undefined ? undefined : this.getReceiver(receiverName);
    if (receiverName === undefined || receiver === undefined || member === undefined) return;
    const method = getText(this.file, member);
    const positional = getPositional(args);
    switch (method) {
      case 'register_blueprint': {
        // Flask serves a blueprint at the url_prefix it is registered with, instead of (not under) its own.
        const prefix = getKeyword(this.file, args, 'url_prefix');
        this.addMount(receiverName, receiver, node, positional[0], prefix, prefix !== undefined);
        return;
      }
      case 'include_router':
        this.addMount(receiverName, receiver, node, positional[0], getKeyword(this.file, args, 'prefix'), false);
        return;
      case 'mount':
        if (this.receivers.has(receiverName))
          this.addMount(receiverName, receiver, node, positional[1] ?? getKeyword(this.file, args, 'app'), positional[0], false);
        return;
      case 'add_middleware':
      case 'before_request':
      case 'before_app_request': {
        const entry = positional[0] === undefined ? undefined : this.toExpressionEntry(positional[0]);
        if (entry !== undefined) this.addUse(receiverName, receiver, node, [entry]);
        return;
      }
      case 'add_url_rule':
      case 'add_api_route': {
        const view =
          getKeyword(this.file, args, method === 'add_url_rule' ? 'view_func' : 'endpoint') ??
          positional[method === 'add_url_rule' ? 2 : 1];
        const handler = view === undefined ? undefined : this.toExpressionEntry(view);
        if (handler === undefined) return;
        this.addRoute({ receiverName, receiver, method: 'route', args, at: node, span: getSpan(this.file, node), handler, middleware: [] });
        return;
      }
    }
  }

  private addRoute(registration: {
    receiverName: string;
    receiver: Receiver;
    method: string;
    args: PyNode[];
    at: PyNode;
    span: RouteFact['span'];
    handler: ChainEntryFact;
    middleware: ChainEntryFact[];
  }): void {
    const { receiverName, receiver, args, at, handler, middleware } = registration;
    const declared = getPositional(args)[0] ?? getKeyword(this.file, args, 'rule') ?? getKeyword(this.file, args, 'path');
    const path = this.toPath(declared, receiver.prefix);
    if (path === undefined) return;
    const methods =
      registration.method === 'route' || registration.method === 'api_route' ? this.getMethods(args) : [registration.method.toUpperCase()];
    for (const method of methods) {
      const route: RouteFact = {
        method,
        path: path.text,
        ...(path.parts === undefined ? {} : { pathParts: path.parts }),
        ...(registration.span === undefined ? {} : { span: registration.span }),
        offset: at.start,
        handlerEntry: handler,
        framework: receiver.framework,
        kind: 'api',
        line: getLine(this.file, at),
        router: receiverName,
      };
      if (handler.name !== undefined) route.handler = handler.name;
      if (receiver.prefix !== undefined) route.ownPrefix = receiver.prefix;
      if (middleware.length > 0) {
        route.middlewareEntries = middleware;
        route.middleware = middleware.flatMap((entry) => (entry.name === undefined ? [] : [entry.name]));
      }
      this.routes.push(route);
    }
  }

  /** `methods=['GET', 'POST']`; GET when absent. */
  private getMethods(args: readonly PyNode[]): string[] {
    const list = getKeyword(this.file, args, 'methods');
    if (list === undefined) return ['GET'];
    const methods = getParts(list).flatMap((item) => {
      const value = getStringValue(this.file, item);
      return value === undefined ? [] : [value.toUpperCase()];
    });
    return methods.length > 0 ? [...new Set(methods)] : ['GET'];
  }

  /** The route's path, its parameters written `:name`, joined with the receiver's own prefix; parts when it uses constants. */
  private toPath(node: PyNode | undefined, prefix: string | undefined): { text: string; parts?: PathPart[] } | undefined {
    if (node === undefined) return prefix === undefined ? { text: '/' } : { text: applyPrefix(prefix, '/') };
    const literal = getStringValue(this.file, node);
    if (literal !== undefined) return { text: applyPrefix(prefix ?? '', normaliseParameters(literal)) };
    const parts = toPathParts(this.file, node);
    if (parts === undefined) return undefined;
    const withPrefix: PathPart[] = prefix === undefined ? parts : [{ text: prefix }, ...parts];
    return { text: withPrefix.map((part) => ('text' in part ? part.text : `{?${part.ref}}`)).join(''), parts: withPrefix };
  }

  private addMount(
    receiverName: string,
    receiver: Receiver,
    node: PyNode,
    target: PyNode | undefined,
    prefixNode: PyNode | undefined,
    replacesPrefix: boolean,
  ): void {
    const targetName = getDottedName(this.file, target);
    if (targetName === undefined) return;
    const mount: MountFact = {
      prefix: '/',
      target: targetName,
      line: getLine(this.file, node),
      receiver: receiverName,
      offset: node.start,
    };
    const prefix = prefixNode === undefined ? undefined : getStringValue(this.file, prefixNode);
    if (prefixNode !== undefined && prefix === undefined) {
      const parts = toPathParts(this.file, prefixNode);
      if (parts === undefined) return;
      mount.prefix = parts.map((part) => ('text' in part ? part.text : `{?${part.ref}}`)).join('');
      mount.prefixParts = parts;
    } else if (prefix !== undefined && prefix !== '') mount.prefix = prefix;
    if (receiver.appLevel) mount.appLevel = true;
    if (replacesPrefix) mount.replacesPrefix = true;
    if (receiver.prefix !== undefined) mount.receiverPrefix = receiver.prefix;
    this.mounts.push(mount);
  }

  private addUse(receiverName: string, receiver: Receiver, node: PyNode, entries: ChainEntryFact[]): void {
    const use: UseFact = { receiver: receiverName, entries, line: getLine(this.file, node), offset: node.start };
    if (receiver.appLevel) use.appLevel = true;
    this.uses.push(use);
  }

  /** A decorated handler: named when it is a top-level function, else an inline function with what it references. */
  private toDefinitionEntry(definition: Definition): ChainEntryFact {
    const span = getSpan(this.file, definition.outer);
    const isTopLevel = this.scope.declarations.some((declaration) => declaration.definition?.node === definition.node);
    if (isTopLevel) return { name: definition.name, inline: false, span, refs: [definition.name] };
    return { name: definition.name, inline: true, span, refs: getDefinitionRefs(this.file, this.scope, definition) };
  }

  /** A handler or middleware expression: `views.detail`, `UserView.as_view()`, `Depends(get_user)`. */
  private toExpressionEntry(node: PyNode): ChainEntryFact | undefined {
    const span = getSpan(this.file, node);
    const name = getDottedName(this.file, node);
    if (name !== undefined) return { name, inline: false, span, refs: [name] };
    if (node.type === 'lambda') return { inline: true, span, refs: [] };
    if (node.type !== 'call') return undefined;
    const { callee, args } = getCallParts(node);
    const calleeName = getDottedName(this.file, callee);
    if (calleeName === undefined) return undefined;
    const wrapped = calleeName.endsWith('.as_view')
      ? calleeName.slice(0, -'.as_view'.length)
      : getDottedName(this.file, getPositional(args)[0]);
    const entry: ChainEntryFact = { callee: calleeName, inline: false, span, refs: [calleeName] };
    if (wrapped !== undefined) {
      entry.name = wrapped;
      entry.refs = [...new Set([calleeName, wrapped])].sort();
    }
    return entry;
  }

  /** `@login_required` below a route decorator: it wraps the handler the route registers. */
  private toDecoratorEntry(decorator: PyNode): ChainEntryFact[] {
    const expression = getDecoratorExpression(decorator);
    const entry = expression === undefined ? undefined : this.toExpressionEntry(expression);
    return entry === undefined ? [] : [entry];
  }

  /** `dependencies=[Depends(verify_token)]` of a FastAPI route decorator. */
  private getDependencies(list: PyNode | undefined): ChainEntryFact[] {
    if (list === undefined) return [];
    return getParts(list).flatMap((item) => {
      const entry = item.type === 'call' ? this.toExpressionEntry(item) : undefined;
      return entry?.callee !== undefined && dependencyCallees.has(getLastName(entry.callee)) ? [entry] : [];
    });
  }

  /** `user = Depends(get_current_user)` among a FastAPI handler's parameters. */
  private getParameterDependencies(definition: Definition): ChainEntryFact[] {
    if (getParameterNames(this.file, definition).length === 0) return [];
    const parameters = findChild(definition.node, 'parameters');
    const defaults = (parameters?.children ?? []).flatMap((parameter) => {
      const value =
        parameter.type === 'default_parameter' || parameter.type === 'typed_default_parameter' ? getParts(parameter).at(-1) : undefined;
      return value === undefined ? [] : [value];
    });
    return this.getDependencies({ type: 'list', start: 0, end: 0, children: defaults });
  }

  /** Django `urlpatterns = [path('users/<int:id>/', views.detail), path('api/', include('shop.urls'))]`. */
  private addUrlPatterns(): void {
    for (const { node } of this.scope.statements) {
      if (node.type !== 'expression_statement') continue;
      const statement = getParts(node)[0];
      if (statement?.type !== 'assignment' && statement?.type !== 'augmented_assignment') continue;
      const [target] = getParts(statement);
      if (target === undefined || getText(this.file, target) !== 'urlpatterns') continue;
      const value = statement.type === 'assignment' ? getAssignedValue(statement) : getParts(statement)[1];
      this.addPatternList(value);
    }
  }

  private addPatternList(list: PyNode | undefined): void {
    if (list === undefined) return;
    if (list.type === 'binary_operator') {
      for (const part of getParts(list)) this.addPatternList(part);
      return;
    }
    if (list.type !== 'list' && list.type !== 'tuple') return;
    for (const item of getParts(list)) if (item.type === 'call') this.addPattern(item);
  }

  private addPattern(node: PyNode): void {
    const { callee, args } = getCallParts(node);
    const name = getLastName(getDottedName(this.file, callee));
    if (!djangoRouteCallees.has(name)) return;
    const [route, view] = getPositional(args);
    const declared = getStringValue(this.file, route);
    if (declared === undefined || view === undefined) return;
    const path = name === 'path' ? normaliseParameters(declared) : fromRegexPath(declared);
    const text = path.startsWith('/') ? path : `/${path}`;
    const line = getLine(this.file, node);
    if (view.type === 'call' && getLastName(getDottedName(this.file, getCallParts(view).callee)) === 'include') {
      this.addInclude(view, text, line, node.start);
      return;
    }
    const handler = this.toExpressionEntry(view);
    if (handler === undefined) return;
    const fact: RouteFact = {
      method: 'ALL',
      path: text,
      span: getSpan(this.file, node),
      offset: node.start,
      handlerEntry: handler,
      framework: 'django',
      kind: 'api',
      line,
      router: 'urlpatterns',
    };
    if (handler.name !== undefined) fact.handler = handler.name;
    this.routes.push(fact);
  }

  /** `include('shop.urls')` (or `include(('shop.urls', 'shop'))`): a mount of that module's patterns, and a link to it. */
  private addInclude(call: PyNode, prefix: string, line: number, offset: number): void {
    const [first] = getPositional(getCallParts(call).args);
    const module = getStringValue(this.file, first?.type === 'tuple' ? getParts(first)[0] : first);
    const mount: MountFact = { prefix, target: '', line, receiver: 'urlpatterns', offset };
    if (module !== undefined) {
      mount.target = `require:${module}`;
      this.includes.push({
        specifier: module,
        kind: 'dynamic',
        typeOnly: false,
        names: [{ imported: '*', local: '*', typeOnly: false }],
        line,
      });
    } else {
      const name = getDottedName(this.file, first);
      if (name === undefined) return;
      mount.target = name;
    }
    this.mounts.push(mount);
  }
}

function getLastName(name: string | undefined): string {
  return name === undefined ? '' : name.slice(name.lastIndexOf('.') + 1);
}

/** Flask and Django `<int:id>` and `<id>`, FastAPI `{id}` and `{rest:path}` → `:id`, as route paths are compared. */
function normaliseParameters(path: string): string {
  return path.replace(
    /<(?:[^<>:]+:)?(\w+)>|\{(\w+)(?::\w+)?\}/g,
    (_match, angle: string | undefined, brace: string | undefined) => `:${angle ?? brace ?? ''}`,
  );
}

/** A Django `re_path` pattern as a path: anchors dropped, `(?P<id>\d+)` → `:id`. */
function fromRegexPath(pattern: string): string {
  return pattern
    .replace(/^\^/, '')
    .replace(/\$$/, '')
    .replace(/\(\?P<(\w+)>[^()]*(?:\([^()]*\)[^()]*)*\)/g, ':$1');
}

/** A path made of a constant (`BASE`, `paths.USERS`) or an f-string of constants and text. */
function toPathParts(file: PyFile, node: PyNode): PathPart[] | undefined {
  const name = getDottedName(file, node);
  if (name !== undefined) return [{ ref: name }];
  if (node.type !== 'string') return undefined;
  const parts: PathPart[] = [];
  for (const child of node.children) {
    if (child.type === 'string_content') parts.push({ text: normaliseParameters(getText(file, child)) });
    else if (child.type === 'interpolation') {
      const ref = getDottedName(file, getParts(child)[0]);
      if (ref === undefined) return undefined;
      parts.push({ ref });
    }
  }
  return parts;
}

/** Top-level string constants (`API_PREFIX = '/api/v1'`), for paths that use them. */
function collectConstants(file: PyFile, scope: ModuleScope): ConstantFact[] {
  const constants: ConstantFact[] = [];
  for (const { node } of scope.statements) {
    if (node.type !== 'expression_statement') continue;
    const statement = getParts(node)[0];
    if (statement?.type !== 'assignment') continue;
    const [target] = getParts(statement);
    const value = getStringValue(file, getAssignedValue(statement));
    if (target?.type !== 'identifier' || value === undefined || value.length > maxConstantLength) continue;
    constants.push({ name: getText(file, target), parts: [{ text: value }] });
  }
  return constants;
}
