import type { NestModuleFact, NestModulePathFact, PathPart, RouteFact, Span } from '../../model/facts.js';
import type { ModuleLinks } from './module-links.js';
import { type PendingEntry, getPathParts, isStaticParts, RefFrame, renderParts } from './reference-frames.js';
import {
  findDecoratorCall,
  getGuardArguments,
  getHandlerName,
  getMethodList,
  getMiddlewareNames,
  getMountTarget,
  getObjectProperty,
  getOptionsPrefix,
  httpMethods,
  isHandlerLike,
  isPathExpression,
  isPrefixExpression,
  joinRoutePaths,
  NEST_ROUTER_MODULE,
  resolveReceiver,
} from './route-calls.js';
import type { SourcePositions } from './source-positions.js';
import {
  type AstNode,
  getDottedName,
  getExpressions,
  getIdentifierName,
  getKeyName,
  getNode,
  getNodes,
  getObject,
  getPropertyName,
  getSpan,
  getStaticString,
  isAstNode,
  isFunctionNode,
  isRecord,
  unwrapExpression,
} from './swc-node.js';
import { getCallbackParams } from './walker-patterns.js';

const nestRouteDecorators = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'All', 'Options', 'Head']);
const settingMethods = new Set(['set', 'disable', 'enable', 'engine', 'setGlobalPrefix', 'enableVersioning']);

export interface CallBase {
  receiver: string;
  isIdentifier: boolean;
  isParameter: boolean;
  line: number;
  offset: number;
  /** The top-level declaration the call sits in (for routes registered on a parameter). */
  scope: string | undefined;
}

export interface RouteCandidate extends CallBase {
  methods: string[];
  path: PathPart[];
  span: Span;
  handler: string | undefined;
  middleware: string[];
  handlerEntry: PendingEntry | undefined;
  middlewareEntries: PendingEntry[];
}

export interface MountCandidate extends CallBase {
  prefix: PathPart[] | undefined;
  target: string;
  via: 'use' | 'route' | 'register';
  middlewareEntries: PendingEntry[];
  targetEntry: PendingEntry | undefined;
}

export interface UseCandidate extends CallBase {
  prefix: PathPart[] | undefined;
  entries: PendingEntry[];
  setting: string | undefined;
  versioning?: { prefix: string; defaultVersion?: string };
  /** The argument of a Nest `RouterModule.register(…)`: the routes tree, read when the file's declarations are known. */
  routerModuleArg?: AstNode;
}

export interface InlinePlugin {
  receiver: string;
  param: string;
  start: number;
  end: number;
  line: number;
  prefix: PathPart[] | undefined;
  base: CallBase;
}

export interface RouterDeclaration {
  factory: string;
  isNew: boolean;
  prefix: string;
  parent: string | undefined;
}

export interface NestEntries {
  handler: PendingEntry | undefined;
  guards: PendingEntry[];
}

/** What route recording needs from the walker: where the call sits and the entries it tracks. */
export interface RouteHost {
  readonly positions: SourcePositions;
  readonly links: ModuleLinks;
  makeEntry(arg: AstNode): PendingEntry;
  isParameter(name: string): boolean;
  isConstantName(name: string): boolean;
  getTopLevelName(): string | undefined;
}

/**
 * Route, mount and middleware calls as the walker meets them (`app.get`, `router.use`,
 * `fastify.register`, Nest decorators). Which receivers are routers is decided at the end, in
 * `resolveRoutes`, once every import and declaration of the file is known.
 */
export class RouteCollector {
  readonly routeCandidates: RouteCandidate[] = [];
  readonly mountCandidates: MountCandidate[] = [];
  readonly useCandidates: UseCandidate[] = [];
  readonly inlinePlugins: InlinePlugin[] = [];
  readonly routerDeclarations = new Map<string, RouterDeclaration>();
  readonly prefixCalls = new Map<string, string[]>();
  readonly nestRoutes: RouteFact[] = [];
  readonly nestEntries = new Map<RouteFact, NestEntries>();
  readonly nestModules: NestModuleFact[] = [];
  /** Arrays declared by name (`const routes: Routes = [...]`): what `RouterModule.register(routes)` passes. */
  private readonly declaredArrays = new Map<string, AstNode>();

  constructor(private readonly host: RouteHost) {}

  recordCall(node: AstNode, callee: AstNode, method: string, args: AstNode[]): void {
    const receiver = resolveReceiver(getNode(callee, 'object'));
    if (receiver === undefined) return;
    const isParameter = receiver.isIdentifier && this.host.isParameter(receiver.root);
    const base: CallBase = {
      receiver: receiver.root,
      isIdentifier: receiver.isIdentifier,
      isParameter,
      line: this.host.positions.startLine(node),
      offset: this.host.positions.offsetOf(node),
      scope: isParameter ? this.host.getTopLevelName() : undefined,
    };
    if (httpMethods.has(method)) {
      this.recordMethodCall(base, method, receiver.routePath, args);
      return;
    }
    if (settingMethods.has(method)) {
      const prefix = method === 'setGlobalPrefix' ? getPathParts(args[0]) : undefined;
      const versioning = method === 'enableVersioning' ? getUriVersioning(args[0]) : undefined;
      if (method === 'enableVersioning' && versioning === undefined) return;
      this.useCandidates.push({ ...base, prefix, entries: [], setting: method, ...(versioning === undefined ? {} : { versioning }) });
      return;
    }
    // Nest's `RouterModule.register(routes)` prefixes the controllers of the modules it lists.
    if (method === 'register' && receiver.isIdentifier && receiver.root === 'RouterModule') {
      const candidate: UseCandidate = { ...base, prefix: undefined, entries: [], setting: NEST_ROUTER_MODULE };
      if (args[0] !== undefined) candidate.routerModuleArg = args[0];
      this.useCandidates.push(candidate);
      return;
    }
    switch (method) {
      case 'on':
        this.recordOn(base, args);
        return;
      case 'route':
        this.recordRoute(base, args);
        return;
      case 'use':
        this.recordUse(base, args);
        return;
      case 'register':
        this.recordRegister(base, args);
        return;
      case 'prefix':
        this.recordPrefix(base.receiver, args);
        return;
    }
  }

  /** `app.get('/x', handler)`, `router.route('/x').get(handler)`, koa-router's `get('name', '/x', handler)`. */
  private recordMethodCall(base: CallBase, method: string, routePath: string | undefined, args: AstNode[]): void {
    const methods = [method === 'del' ? 'DELETE' : method.toUpperCase()];
    if (routePath !== undefined) {
      this.pushRouteCandidate(base, methods, [{ text: routePath }], args);
      return;
    }
    const path = getStaticString(unwrapExpression(args[0]));
    const namedPath = getStaticString(unwrapExpression(args[1]));
    if (path !== undefined && namedPath?.startsWith('/') === true && !path.startsWith('/') && args.length >= 3) {
      this.pushRouteCandidate(base, methods, [{ text: namedPath }], args.slice(2));
    } else if (args.length >= 2) {
      const parts = getPathParts(args[0]);
      if (parts !== undefined && isPathExpression(args[0])) this.pushRouteCandidate(base, methods, parts, args.slice(1));
    }
  }

  /** Hono's `app.on(['GET', 'POST'], '/x', handler)`. */
  private recordOn(base: CallBase, args: AstNode[]): void {
    const methods = getMethodList(args[0]);
    const pathArg = unwrapExpression(args[1]);
    const paths =
      pathArg?.type === 'ArrayExpression'
        ? getExpressions(pathArg, 'elements').map((element) => getPathParts(element))
        : [getPathParts(pathArg)];
    for (const path of paths) if (path !== undefined && methods.length > 0) this.pushRouteCandidate(base, methods, path, args.slice(2));
  }

  /** Fastify's `route({method, url, handler})` or Hono's `app.route('/prefix', sub)`. */
  private recordRoute(base: CallBase, args: AstNode[]): void {
    const first = unwrapExpression(args[0]);
    if (first?.type === 'ObjectExpression') {
      const url = getPathParts(getObjectProperty(first, 'url') ?? getObjectProperty(first, 'path'));
      const methods = getMethodList(getObjectProperty(first, 'method'));
      if (url === undefined || methods.length === 0) return;
      const handler = getObjectProperty(first, 'handler');
      const middleware = ['onRequest', 'preValidation', 'preHandler']
        .map((key) => getObjectProperty(first, key))
        .filter((value): value is AstNode => value !== undefined);
      this.routeCandidates.push({
        ...base,
        methods,
        path: url,
        span: this.host.positions.spanOf(first),
        handler: getHandlerName(handler),
        middleware: getMiddlewareNames(middleware),
        handlerEntry: handler === undefined ? undefined : this.host.makeEntry(handler),
        middlewareEntries: middleware
          .flatMap((value) => (value.type === 'ArrayExpression' ? getExpressions(value, 'elements') : [value]))
          .map((value) => this.host.makeEntry(value)),
      });
      return;
    }
    const prefix = getPathParts(first);
    const target = getMountTarget(args[1]);
    if (prefix !== undefined && isPathExpression(args[0]) && target !== undefined && args.length === 2) {
      this.mountCandidates.push({ ...base, prefix, target, via: 'route', middlewareEntries: [], targetEntry: undefined });
    }
  }

  /** `app.use([prefix], ...middleware, router)`: a mount when the last argument names a router, else middleware. */
  private recordUse(base: CallBase, args: AstNode[]): void {
    const first = unwrapExpression(args[0]);
    const hasPrefix = args.length >= 2 && isPrefixExpression(first, (name) => this.host.isConstantName(name));
    let prefix = hasPrefix ? getPathParts(first) : undefined;
    const rest = hasPrefix ? args.slice(1) : args;
    let last = rest[rest.length - 1];
    if (last === undefined) return;
    // `app.use(mount('/api', api))` (koa-mount and its kind): a call given a path and a router or app mounts it there.
    const mounted = this.unwrapMountCall(last);
    if (mounted !== undefined) {
      prefix = prefix === undefined ? mounted.prefix : [...prefix, ...mounted.prefix];
      last = mounted.target;
    }
    const target = getMountTarget(last);
    const inline = unwrapExpression(last);
    if (target !== undefined && !isFunctionNode(inline)) {
      this.mountCandidates.push({
        ...base,
        prefix,
        target,
        via: 'use',
        middlewareEntries: rest.slice(0, -1).map((arg) => this.host.makeEntry(arg)),
        targetEntry: this.host.makeEntry(last),
      });
      return;
    }
    this.useCandidates.push({ ...base, prefix, entries: rest.map((arg) => this.host.makeEntry(arg)), setting: undefined });
  }

  /**
   * A call whose arguments are a path prefix and one router or app (`mount('/api', api)`, `mount('/v1', router.routes())`):
   * the prefix and the mounted node. Undefined for anything else (`rateLimit({...})`, `passport.authenticate('jwt')`,
   * `serve('/public')`), which stays middleware.
   */
  private unwrapMountCall(node: AstNode): { prefix: PathPart[]; target: AstNode } | undefined {
    const call = unwrapExpression(node);
    if (call?.type !== 'CallExpression') return undefined;
    const callee = unwrapExpression(getNode(call, 'callee'));
    if (callee === undefined || (callee.type !== 'Identifier' && callee.type !== 'MemberExpression')) return undefined;
    const args = getExpressions(call, 'arguments');
    if (args.length !== 2) return undefined;
    const prefixNode = unwrapExpression(args[0]);
    const prefix = getStaticString(prefixNode);
    if (prefix === undefined || !prefix.startsWith('/')) return undefined;
    const target = args[1];
    const value = unwrapExpression(target);
    if (target === undefined || value === undefined || isFunctionNode(value) || getMountTarget(target) === undefined) return undefined;
    const parts = getPathParts(prefixNode);
    return parts === undefined ? undefined : { prefix: parts, target };
  }

  /** Fastify's `register(plugin, {prefix})`: an inline plugin's routes are resolved against its parameter. */
  private recordRegister(base: CallBase, args: AstNode[]): void {
    const plugin = unwrapExpression(args[0]);
    const options = unwrapExpression(args[1]);
    const prefix = options?.type === 'ObjectExpression' ? getPathParts(getObjectProperty(options, 'prefix')) : undefined;
    if (plugin !== undefined && isFunctionNode(plugin)) {
      const param = getCallbackParams(plugin)[0]?.name;
      const span = getSpan(plugin);
      if (param !== undefined && span !== undefined) {
        const origin = this.host.positions.base;
        this.inlinePlugins.push({
          receiver: base.receiver,
          param,
          start: span.start - origin,
          end: span.end - origin,
          line: base.line,
          prefix,
          base,
        });
      }
      return;
    }
    const target = getMountTarget(args[0]);
    if (target !== undefined)
      this.mountCandidates.push({
        ...base,
        prefix: prefix ?? [{ text: '/' }],
        target,
        via: 'register',
        middlewareEntries: [],
        targetEntry: undefined,
      });
  }

  /** koa-router's `router.prefix('/api')`: the last call wins. */
  private recordPrefix(receiver: string, args: AstNode[]): void {
    const prefix = getStaticString(unwrapExpression(args[0]));
    if (prefix !== undefined && args.length === 1) {
      const list = this.prefixCalls.get(receiver) ?? [];
      list.push(prefix);
      this.prefixCalls.set(receiver, list);
    }
  }

  private pushRouteCandidate(base: CallBase, methods: string[], path: PathPart[], rest: AstNode[]): void {
    const last = rest[rest.length - 1];
    if (!isHandlerLike(last) || last === undefined) return;
    const middlewareArgs = rest.slice(0, -1);
    const first = getSpan(rest[0] ?? last);
    const lastSpan = getSpan(last);
    const positions = this.host.positions;
    const span =
      first === undefined || lastSpan === undefined
        ? { start: base.line, end: base.line }
        : {
            start: Math.min(base.line, positions.lineOf(first.start)),
            end: positions.lineOf(Math.max(lastSpan.start, lastSpan.end - 1)),
          };
    this.routeCandidates.push({
      ...base,
      methods,
      path,
      span,
      handler: getHandlerName(last),
      middleware: getMiddlewareNames(middlewareArgs),
      handlerEntry: this.host.makeEntry(last),
      middlewareEntries: middlewareArgs
        .flatMap((arg) => {
          const value = unwrapExpression(arg);
          return value?.type === 'ArrayExpression' ? getExpressions(value, 'elements') : [arg];
        })
        .map((arg) => this.host.makeEntry(arg)),
    });
  }

  /** `const router = express.Router()`, `new Hono().basePath('/api')`, `app.basePath('/v1')`. */
  recordRouterDeclaration(name: string, init: AstNode): void {
    if (init.type === 'ArrayExpression') this.declaredArrays.set(name, init);
    let value = init;
    if (value.type === 'AwaitExpression') value = unwrapExpression(getNode(value, 'argument')) ?? value;
    if (value.type === 'CallExpression') {
      const callee = unwrapExpression(getNode(value, 'callee'));
      const args = getExpressions(value, 'arguments');
      if (callee?.type === 'MemberExpression' && getPropertyName(callee) === 'basePath') {
        this.recordBasePath(name, callee, args);
        return;
      }
      const factory = getDottedName(callee);
      if (factory !== undefined)
        this.routerDeclarations.set(name, { factory, isNew: false, prefix: getOptionsPrefix(args[0]), parent: undefined });
      return;
    }
    if (value.type === 'NewExpression') {
      const factory = getDottedName(getNode(value, 'callee'));
      if (factory !== undefined) {
        this.routerDeclarations.set(name, {
          factory,
          isNew: true,
          prefix: getOptionsPrefix(getExpressions(value, 'arguments')[0]),
          parent: undefined,
        });
      }
    }
  }

  private recordBasePath(name: string, callee: AstNode, args: AstNode[]): void {
    const prefix = getStaticString(unwrapExpression(args[0])) ?? '';
    const object = unwrapExpression(getNode(callee, 'object'));
    if (object?.type === 'NewExpression') {
      const factory = getDottedName(getNode(object, 'callee'));
      if (factory !== undefined) this.routerDeclarations.set(name, { factory, isNew: true, prefix, parent: undefined });
    } else {
      const parent = getIdentifierName(object);
      if (parent !== undefined) this.routerDeclarations.set(name, { factory: '', isNew: false, prefix, parent });
    }
  }

  /** `@Module({ controllers: [UsersController] })` classes: which controllers a RouterModule path would prefix. */
  collectNestModule(node: AstNode, className: string): void {
    const call = findDecoratorCall(getNodes(node, 'decorators'), 'Module');
    const options = call === undefined ? undefined : unwrapExpression(getExpressions(call, 'arguments')[0]);
    if (options?.type !== 'ObjectExpression') return;
    const list = getObjectProperty(options, 'controllers');
    if (list?.type !== 'ArrayExpression') return;
    const controllers = getExpressions(list, 'elements').flatMap((element) => getDottedName(unwrapExpression(element)) ?? []);
    if (controllers.length > 0) this.nestModules.push({ name: className, controllers, line: this.host.positions.startLine(node) });
  }

  /**
   * The modules a `RouterModule.register(routes)` argument names, each with its full path (`children` joined under
   * their parent's): an array literal, or an array the file declares by name. Undefined when any part of the tree is
   * not written out (a spread of a call, a computed module), so that the whole call stays a limitation.
   */
  readModulePaths(arg: AstNode): NestModulePathFact[] | undefined {
    const found: NestModulePathFact[] = [];
    return this.readRouteTree(arg, [], found, 0) ? found : undefined;
  }

  private readRouteTree(node: AstNode | undefined, parent: PathPart[], found: NestModulePathFact[], depth: number): boolean {
    let list = unwrapExpression(node);
    const name = getIdentifierName(list);
    if (name !== undefined) list = this.declaredArrays.get(name);
    if (list?.type !== 'ArrayExpression' || depth > 8) return false;
    const elements = Array.isArray(list.elements) ? (list.elements as unknown[]) : [];
    for (const element of elements) {
      if (!isRecord(element)) continue;
      const expression = unwrapExpression(isAstNode(element.expression) ? element.expression : undefined);
      if (expression === undefined) continue;
      if (isRecord(element.spread)) {
        if (!this.readRouteTree(expression, parent, found, depth + 1)) return false;
        continue;
      }
      const line = this.host.positions.startLine(expression);
      if (expression.type !== 'ObjectExpression') {
        // A module given as a child on its own is served at its parent's path.
        const module = getDottedName(expression);
        if (module === undefined) return false;
        found.push(toModulePath(parent, module, line));
        continue;
      }
      const pathNode = getObjectProperty(expression, 'path');
      const own = pathNode === undefined ? [] : getPathParts(pathNode);
      if (own === undefined) return false;
      const parts = [...parent, { text: '/' }, ...own];
      const moduleNode = getObjectProperty(expression, 'module');
      const module = getDottedName(moduleNode);
      if (moduleNode !== undefined && module === undefined) return false;
      if (module !== undefined) found.push(toModulePath(parts, module, line));
      const children = getObjectProperty(expression, 'children');
      if (children !== undefined && !this.readRouteTree(children, parts, found, depth + 1)) return false;
    }
    return true;
  }

  /** `@Controller('users')` classes: one route per `@Get()`/`@Post()`… decorator and path, with `@UseGuards` as middleware. */
  collectNestRoutes(node: AstNode, className: string): void {
    const controller = findDecoratorCall(getNodes(node, 'decorators'), 'Controller');
    if (controller === undefined) return;
    const firstArg = unwrapExpression(getExpressions(controller, 'arguments')[0]);
    const prefixParts =
      (firstArg?.type === 'ObjectExpression' ? getPathParts(getObjectProperty(firstArg, 'path')) : getPathParts(firstArg)) ?? [];
    const versions = firstArg?.type === 'ObjectExpression' ? getVersions(getObjectProperty(firstArg, 'version')) : undefined;
    const classGuardArgs = getGuardArguments(getNodes(node, 'decorators'));
    for (const member of getNodes(node, 'body')) {
      if (member.type === 'ClassMethod') this.collectNestMethod(member, className, prefixParts, classGuardArgs, versions);
    }
  }

  private collectNestMethod(
    member: AstNode,
    className: string,
    prefixParts: PathPart[],
    classGuardArgs: AstNode[],
    classVersions: string[] | undefined,
  ): void {
    const positions = this.host.positions;
    const prefix = renderParts(prefixParts);
    const fn = getObject(member, 'function');
    const decoratorList = fn === undefined || !Array.isArray(fn.decorators) ? [] : fn.decorators.filter(isAstNode);
    const handler = getKeyName(getNode(member, 'key'));
    const methodGuardArgs = getGuardArguments(decoratorList);
    const guards = [...getMiddlewareNames(classGuardArgs), ...getMiddlewareNames(methodGuardArgs)];
    const guardEntries = [...classGuardArgs, ...methodGuardArgs].map((arg) => this.host.makeEntry(arg));
    const memberSpan = positions.spanOf(member, decoratorList[0] ?? member);
    const versionCall = findDecoratorCall(decoratorList, 'Version');
    const versions = (versionCall === undefined ? undefined : getVersions(getExpressions(versionCall, 'arguments')[0])) ?? classVersions;
    for (const decorator of decoratorList) {
      const call = unwrapExpression(getNode(decorator, 'expression'));
      const callee = call?.type === 'CallExpression' ? getIdentifierName(unwrapExpression(getNode(call, 'callee'))) : undefined;
      if (call === undefined || callee === undefined || !nestRouteDecorators.has(callee)) continue;
      const arg = unwrapExpression(getExpressions(call, 'arguments')[0]);
      const paths =
        arg?.type === 'ArrayExpression'
          ? getExpressions(arg, 'elements').map((element) => getPathParts(element))
          : [arg === undefined ? [] : getPathParts(arg)];
      for (const pathParts of paths) {
        if (pathParts === undefined) continue;
        const route: RouteFact = {
          method: callee.toUpperCase(),
          path: joinRoutePaths(prefix, renderParts(pathParts)),
          framework: 'nestjs',
          kind: 'api',
          line: positions.startLine(decorator),
          router: className,
          span: memberSpan,
          offset: positions.offsetOf(member),
        };
        if (!isStaticParts(prefixParts) || !isStaticParts(pathParts)) route.pathParts = [...prefixParts, { text: '/' }, ...pathParts];
        if (handler !== undefined) route.handler = handler;
        if (guards.length > 0) route.middleware = guards;
        const handlerEntry: PendingEntry | undefined =
          handler === undefined
            ? undefined
            : {
                entry: { name: `${className}.${handler}`, inline: false, span: memberSpan, refs: [`${className}.${handler}`] },
                frame: new RefFrame(undefined),
              };
        for (const version of versions ?? [undefined]) {
          const versioned: RouteFact = version === undefined ? route : { ...route, version };
          this.nestEntries.set(versioned, { handler: handlerEntry, guards: guardEntries });
          this.nestRoutes.push(versioned);
        }
      }
    }
  }
}

function toModulePath(parts: PathPart[], module: string, line: number): NestModulePathFact {
  const path = joinRoutePaths(renderParts(parts));
  const fact: NestModulePathFact = { path, module, line };
  if (!isStaticParts(parts)) fact.pathParts = parts;
  return fact;
}

/**
 * The versions a NestJS `version` option or `@Version()` names: `'1'`, `['1', '2']`, and `VERSION_NEUTRAL` as the empty
 * version (served without a version segment); undefined when it names none statically.
 */
function getVersions(node: AstNode | undefined): string[] | undefined {
  const value = unwrapExpression(node);
  if (value === undefined) return undefined;
  if (value.type === 'ArrayExpression') {
    const versions = getExpressions(value, 'elements').flatMap((element) => getVersions(element) ?? []);
    return versions.length === 0 ? undefined : versions;
  }
  if (getDottedName(value)?.endsWith('VERSION_NEUTRAL') === true) return [''];
  const text = getStaticString(value);
  return text === undefined ? undefined : [text];
}

/**
 * `app.enableVersioning({ type: VersioningType.URI, prefix?, defaultVersion? })`: URI versioning puts `/v1` (the prefix,
 * `v` unless set, then the version) between the global prefix and a controller's path. Header and media-type
 * versioning leave paths alone: undefined.
 */
function getUriVersioning(node: AstNode | undefined): { prefix: string; defaultVersion?: string } | undefined {
  const options = unwrapExpression(node);
  if (options?.type !== 'ObjectExpression') return undefined;
  const type = getObjectProperty(options, 'type');
  const isUri = getDottedName(type)?.endsWith('.URI') === true || (type?.type === 'NumericLiteral' && type.value === 0);
  if (!isUri) return undefined;
  const prefixNode = getObjectProperty(options, 'prefix');
  const prefix = prefixNode?.type === 'BooleanLiteral' ? '' : (getStaticString(prefixNode) ?? 'v');
  const defaultVersion = getVersions(getObjectProperty(options, 'defaultVersion'))?.[0];
  return defaultVersion === undefined ? { prefix } : { prefix, defaultVersion };
}
