import type { ChainEntryFact, FileFacts, MountFact, NestModulePathFact, PathPart, RouteFact, Span, UseFact } from '../../model/facts.js';
import { type ChainLink, INLINE_LINK_NAME, type MiddlewareLevel, type RouteGuard, type RouteRegistration } from '../../model/graph.js';
import { type SymbolIndex, toCallableKey } from '../symbol-index.js';
import { joinRoutePaths, NEST_ROUTER_MODULE } from '../parse/route-calls.js';
import { classifyMiddleware, type MiddlewareClass } from './classify-middleware.js';

export interface ComposedRoute {
  file: string;
  route: RouteFact;
  fullPath: string;
  registration: RouteRegistration;
  guards: RouteGuard[];
  /** Files other than `file` where the handler's code lives. */
  handlerFiles: string[];
  /**
   * For a route of a router that no resolved mount reaches, while mounts checker could not resolve sit under known
   * prefixes: the paths it may be served at under each (outline's plugins register their routers through
   * `router.use("/", hook.value.routes())` inside the router served at `/api`, so `POST /files.create` is called as
   * `/api/files.create`). Calls match them; the route keeps its own path.
   */
  servedUnder?: string[];
}

export interface RouteLimitation {
  code: 'routes/unresolved-path' | 'routes/unmatched-mount';
  file: string;
  line: number;
  message: string;
}

export interface UnmatchedMountInfo {
  file: string;
  prefix: string;
  target: string;
  line: number;
  reason: string;
}

interface SourceFile {
  path: string;
  facts: FileFacts;
}

interface IncomingMount {
  from: string;
  keys: string[];
  offset: number;
  line: number;
  prefix: string;
  entries: ChainEntryFact[];
  replacesPrefix: boolean;
  receiverPrefix: string | undefined;
}

interface Context {
  prefix: string;
  chain: LinkDraft[];
  served: { file: string; line: number; span: Span }[];
  /** The mount serves the router at its prefix instead of the router's own: routes drop their `ownPrefix`. */
  replacesPrefix?: boolean;
}

interface LinkDraft {
  level: MiddlewareLevel;
  file: string;
  line: number;
  entry: ChainEntryFact;
}

interface UseLike {
  keys: string[];
  offset: number;
  line: number;
  prefix: string | undefined;
  entries: ChainEntryFact[];
  setting: string | undefined;
  appLevel: boolean;
}

const MAX_MOUNT_DEPTH = 8;
const MAX_CONTEXTS = 16;
const routerKey = (file: string, name: string): string => `${file}\0${name}`;

function keysOf(receiver: string | undefined, scope: string | undefined): string[] {
  const keys: string[] = [];
  if (receiver !== undefined) keys.push(receiver);
  if (scope !== undefined && scope !== receiver) keys.push(scope);
  return keys;
}

function isUnderPrefix(prefix: string | undefined, path: string): boolean {
  if (prefix === undefined || path.includes('{?')) return true;
  const head = joinRoutePaths(prefix);
  const full = joinRoutePaths(path);
  return head === '/' || full === head || full.startsWith(`${head}/`);
}

/**
 * Composes every route's served path through its mounts (any depth, across files), resolves path
 * constants, and builds each registration's handler chain: app- and router-level middleware
 * registered before it, mount middleware, route middleware, then the handler. Middleware is
 * classified by what its code does (classify-middleware.ts).
 */
export function composeRoutes(
  symbols: SymbolIndex,
  files: readonly SourceFile[],
): { routes: ComposedRoute[]; limitations: RouteLimitation[]; unmatchedMounts: UnmatchedMountInfo[] } {
  const limitations: RouteLimitation[] = [];
  const unmatchedMounts: UnmatchedMountInfo[] = [];
  const unmatchedAt: { file: string; keys: string[]; offset: number; prefix: string }[] = [];
  const receivers = new Map<string, Set<string>>();
  const uses = new Map<string, UseLike[]>();
  const incoming = new Map<string, IncomingMount[]>();
  let globalPrefix = '';
  let versioning: UseFact['versioning'];
  const modulePaths = new Map<string, ModulePath[]>();

  for (const { path, facts } of files) {
    const names = new Set<string>();
    for (const route of facts.routes) for (const key of keysOf(route.router, route.scope)) names.add(key);
    for (const mount of facts.mounts) for (const key of keysOf(mount.receiver, mount.scope)) names.add(key);
    for (const use of facts.uses ?? []) for (const key of keysOf(use.receiver, use.scope)) names.add(key);
    receivers.set(path, names);
    const list: UseLike[] = [];
    for (const use of facts.uses ?? []) {
      if (use.setting === 'setGlobalPrefix') {
        if (use.prefix !== undefined) globalPrefix = use.prefix;
        continue;
      }
      if (use.setting === 'enableVersioning') {
        versioning = use.versioning;
        continue;
      }
      if (use.setting === NEST_ROUTER_MODULE) {
        if (use.modulePaths === undefined)
          limitations.push({
            code: 'routes/unmatched-mount',
            file: path,
            line: use.line,
            message: `${path}:${use.line}: RouterModule.register is given routes checker cannot read (not an array written out in the file), so the routes of the modules it lists are listed without their prefixes.`,
          });
        else addModulePaths(symbols, path, use.modulePaths, modulePaths, limitations);
        continue;
      }
      list.push(toUseLike(use));
    }
    uses.set(path, list);
  }

  const resolvePrefix = (file: string, mount: MountFact): string => {
    if (mount.prefixParts === undefined) return mount.prefix;
    const resolved = symbols.resolvePath(file, mount.prefixParts);
    for (const ref of resolved.unresolved) {
      limitations.push({
        code: 'routes/unresolved-path',
        file,
        line: mount.line,
        message: `${file}:${mount.line}: the mount prefix uses ${ref}, which cannot be resolved statically; routes under it show {?${ref}} in their path.`,
      });
    }
    return resolved.text;
  };

  for (const { path, facts } of files) {
    for (const mount of facts.mounts) {
      const prefix = mount.bare === true ? '/' : resolvePrefix(path, mount);
      const found = findMountedRouters(symbols, path, mount, receivers);
      if (found.routers.length > 0) {
        for (const target of found.routers) {
          const key = routerKey(target.file, target.name);
          const list = incoming.get(key) ?? [];
          list.push({
            from: path,
            keys: keysOf(mount.receiver, mount.scope),
            offset: mount.offset ?? 0,
            line: mount.line,
            prefix,
            entries: mount.middlewareEntries ?? [],
            replacesPrefix: mount.replacesPrefix === true,
            receiverPrefix: mount.receiverPrefix,
          });
          incoming.set(key, list);
        }
        continue;
      }
      if (found.middleware) {
        const entries = [...(mount.middlewareEntries ?? []), ...(mount.targetEntry === undefined ? [] : [mount.targetEntry])];
        uses.get(path)?.push({
          keys: keysOf(mount.receiver, mount.scope),
          offset: mount.offset ?? 0,
          line: mount.line,
          prefix: mount.bare === true ? undefined : prefix,
          entries,
          setting: undefined,
          appLevel: mount.appLevel === true,
        });
        continue;
      }
      unmatchedMounts.push({ file: path, prefix, target: mount.target, line: mount.line, reason: found.reason });
      unmatchedAt.push({ file: path, keys: keysOf(mount.receiver, mount.scope), offset: mount.offset ?? 0, prefix });
      limitations.push({
        code: 'routes/unmatched-mount',
        file: path,
        line: mount.line,
        message: `${path}:${mount.line}: the router mounted at "${prefix}" (${mount.target}) could not be found: ${found.reason}. Routes under it are listed without that prefix.`,
      });
    }
  }
  for (const list of uses.values()) list.sort((left, right) => left.offset - right.offset);

  const contextCache = new Map<string, Context[]>();
  const getContexts = (
    file: string,
    keys: string[],
    offset: number,
    localPath: string,
    depth: number,
    visiting: Set<string>,
  ): Context[] => {
    const cacheKey = `${file}\0${keys.join(',')}\0${offset}\0${localPath}`;
    const cached = contextCache.get(cacheKey);
    if (cached !== undefined) return cached;
    const own = getOwnUses(uses.get(file) ?? [], file, keys, offset, localPath);
    const mounts = keys.flatMap((key) => incoming.get(routerKey(file, key)) ?? []);
    const visitKey = `${file}\0${keys.join(',')}`;
    let result: Context[];
    if (mounts.length === 0 || depth > MAX_MOUNT_DEPTH || visiting.has(visitKey)) {
      result = [{ prefix: '', chain: own.links, served: own.served }];
    } else {
      visiting.add(visitKey);
      const byPrefix = new Map<string, Context>();
      for (const mount of mounts) {
        for (const parent of getContexts(mount.from, mount.keys, mount.offset, mount.prefix, depth + 1, visiting)) {
          // The receiver's own prefix is in its routes' paths, not in its contexts: a router mounted on it gets it here.
          const receiverPrefix = parent.replacesPrefix === true ? undefined : mount.receiverPrefix;
          const prefix =
            receiverPrefix === undefined
              ? joinRoutePaths(parent.prefix, mount.prefix)
              : joinRoutePaths(parent.prefix, receiverPrefix, mount.prefix);
          const key = mount.replacesPrefix ? `${prefix}\0replaces` : prefix;
          if (byPrefix.has(key) || byPrefix.size >= MAX_CONTEXTS) continue;
          const mountLinks = mount.entries.map((entry) => ({ level: 'mount' as const, file: mount.from, line: mount.line, entry }));
          const span = { start: mount.line, end: mount.line };
          const context: Context = {
            prefix,
            chain: [...parent.chain, ...mountLinks, ...own.links],
            served: [...parent.served, { file: mount.from, line: mount.line, span }, ...own.served],
          };
          if (mount.replacesPrefix) context.replacesPrefix = true;
          byPrefix.set(key, context);
        }
      }
      visiting.delete(visitKey);
      result = byPrefix.size === 0 ? [{ prefix: '', chain: own.links, served: own.served }] : [...byPrefix.values()];
    }
    contextCache.set(cacheKey, result);
    return result;
  };

  // By what the classification reads, not by fact: each of outline's API files passes the same `auth()` to every
  // route, each its own fact (classifying took half the time).
  const guardCache = new Map<string, MiddlewareClass>();
  const classify = (file: string, entry: ChainEntryFact): MiddlewareClass => {
    const key = [file, entry.callee ?? '', entry.name ?? '', entry.refs.join(' '), entry.statuses?.join(' ') ?? ''].join('\0');
    let known = guardCache.get(key);
    if (known === undefined) {
      known = classifyMiddleware(symbols, file, entry);
      guardCache.set(key, known);
    }
    return known;
  };

  // The full prefixes of the mounts checker could not resolve: where a router it sees mounted nowhere may be served.
  const unresolvedPrefixes = [
    ...new Set(
      unmatchedAt.flatMap((mount) =>
        getContexts(mount.file, mount.keys, mount.offset, mount.prefix, 0, new Set()).map((context) =>
          joinRoutePaths(context.prefix, mount.prefix),
        ),
      ),
    ),
  ].filter((prefix) => prefix !== '/' && !prefix.includes('{?'));
  // A route served at no prefix is on a router nothing resolved mounts; one that mounts and uses nothing itself is no
  // app (an app serves its own routes at their paths), so its mount may be one of those checker could not resolve.
  const factsByPath = new Map(files.map((file) => [file.path, file.facts]));
  const isBareRouter = (path: string, keys: readonly string[]): boolean => {
    const facts = factsByPath.get(path);
    const sameReceiver = (receiver: string | undefined, scope: string | undefined): boolean =>
      keysOf(receiver, scope).some((key) => keys.includes(key));
    return (
      !(facts?.mounts ?? []).some((mount) => sameReceiver(mount.receiver, mount.scope)) &&
      !(facts?.uses ?? []).some((use) => sameReceiver(use.receiver, use.scope))
    );
  };

  const routes: ComposedRoute[] = [];
  for (const { path, facts } of files) {
    for (const route of facts.routes) {
      const declaredPath =
        route.pathParts === undefined
          ? route.path
          : resolvePathParts(
              symbols,
              path,
              route.line,
              route.pathParts,
              limitations,
              (ref, text) =>
                `the path of this ${route.method} route uses ${ref}, which cannot be resolved statically; it is listed as ${text}.`,
            );
      // Nest serves /<global prefix>/<version segment>/<RouterModule path>/<controller path>/<method path>.
      const variants =
        route.framework === 'nestjs'
          ? (modulePaths.get(routerKey(path, route.router ?? '')) ?? [undefined]).map((modulePath) => ({
              localPath: toNestPath(declaredPath, route, modulePath?.path ?? '', globalPrefix, versioning),
              served: modulePath === undefined ? [] : [modulePath.served],
            }))
          : [{ localPath: declaredPath, served: [] }];
      const isCode = !route.framework.startsWith('nextjs') && route.framework !== 'openapi';
      const placed = variants.flatMap((variant) =>
        (isCode
          ? getContexts(path, keysOf(route.router, route.scope), route.offset ?? Number.MAX_SAFE_INTEGER, variant.localPath, 0, new Set())
          : [{ prefix: '', chain: [], served: [] }]
        ).map((context) => ({
          localPath: variant.localPath,
          context: variant.served.length === 0 ? context : { ...context, served: [...variant.served, ...context.served] },
        })),
      );
      for (const { localPath, context } of placed) {
        const servedPath =
          context.replacesPrefix === true && route.ownPrefix !== undefined ? removePrefix(route.ownPrefix, localPath) : localPath;
        const fullPath =
          context.prefix === ''
            ? route.framework.startsWith('nextjs')
              ? route.path
              : joinRoutePaths(servedPath)
            : joinRoutePaths(context.prefix, servedPath);
        const drafts: LinkDraft[] = [
          ...context.chain,
          ...(route.middlewareEntries ?? []).map((entry) => ({ level: 'route' as const, file: path, line: route.line, entry })),
        ];
        const chain: ChainLink[] = drafts.map((draft) => toLink(symbols, draft.level, draft.file, draft.entry));
        const guards: RouteGuard[] = drafts.map((draft) => {
          const result = classify(draft.file, draft.entry);
          const guard: RouteGuard = {
            name: getEntryName(draft.entry),
            role: result.role,
            level: draft.level,
            file: draft.file,
            line: draft.line,
            evidence: result.evidence,
            confidence: result.confidence,
          };
          if (result.definedIn !== undefined) guard.definedIn = result.definedIn;
          if (draft.entry.options !== undefined) guard.options = draft.entry.options;
          return guard;
        });
        const handlerFiles = new Set<string>();
        if (!isCode) chain.push(toFileHandlerLink(symbols, path, route, facts.lines));
        if (route.handlerEntry !== undefined) {
          const handler = toLink(symbols, 'handler', path, route.handlerEntry);
          chain.push(handler);
          // A `handles` edge goes to the file of a named handler (`router.get('/', listUsers)`), not to everything an inline one calls.
          const named = route.handlerEntry.name === undefined || route.handlerEntry.inline ? [] : handler.targets;
          for (const target of named) {
            const file = target.slice(0, target.lastIndexOf('#'));
            if (file !== path) handlerFiles.add(file);
          }
        }
        const span =
          route.span ??
          (isCode ? { start: route.line, end: route.line } : (chain[chain.length - 1]?.span ?? { start: route.line, end: route.line }));
        const composed: ComposedRoute = {
          file: path,
          route,
          fullPath,
          registration: { file: path, line: route.line, span, chain, mounts: context.served },
          guards,
          handlerFiles: [...handlerFiles].sort(),
        };
        if (isCode && unresolvedPrefixes.length > 0 && context.prefix === '' && isBareRouter(path, keysOf(route.router, route.scope)))
          composed.servedUnder = unresolvedPrefixes.map((prefix) => joinRoutePaths(prefix, fullPath));
        routes.push(composed);
      }
    }
  }
  return { routes, limitations, unmatchedMounts };
}

/** A path written with constants, resolved; each constant it cannot resolve a `routes/unresolved-path` limitation. */
function resolvePathParts(
  symbols: SymbolIndex,
  file: string,
  line: number,
  parts: readonly PathPart[],
  limitations: RouteLimitation[],
  say: (ref: string, text: string) => string,
): string {
  const resolved = symbols.resolvePath(file, parts);
  const text = joinRoutePaths(resolved.text);
  for (const ref of resolved.unresolved)
    limitations.push({ code: 'routes/unresolved-path', file, line, message: `${file}:${line}: ${say(ref, text)}` });
  return text;
}

interface ModulePath {
  /** The RouterModule path of the controller's module, resolved. */
  path: string;
  /** Where RouterModule.register says so: a change there moves the route. */
  served: Context['served'][number];
}

/** A Nest route's served path: the global prefix, the URI version's segment, the RouterModule path, then its own. */
function toNestPath(
  declared: string,
  route: RouteFact,
  modulePath: string,
  globalPrefix: string,
  versioning: UseFact['versioning'],
): string {
  let path = modulePath === '' ? declared : joinRoutePaths(modulePath, declared);
  const version = versioning === undefined ? undefined : (route.version ?? versioning.defaultVersion);
  if (versioning !== undefined && version !== undefined && version !== '') path = joinRoutePaths(`${versioning.prefix}${version}`, path);
  return globalPrefix === '' ? path : joinRoutePaths(globalPrefix, path);
}

/**
 * The controllers of each module a `RouterModule.register` tree names, keyed by file and class, with the module's path:
 * the module resolved from the registering file, its `@Module({ controllers })` read, and each controller resolved
 * from the module's file. A module checker cannot find is a limitation naming it; a module of a package, or one that
 * lists no controllers (a parent of `children`), prefixes nothing here.
 */
function addModulePaths(
  symbols: SymbolIndex,
  file: string,
  entries: readonly NestModulePathFact[],
  found: Map<string, ModulePath[]>,
  limitations: RouteLimitation[],
): void {
  for (const entry of entries) {
    const path =
      entry.pathParts === undefined
        ? entry.path
        : resolvePathParts(
            symbols,
            file,
            entry.line,
            entry.pathParts,
            limitations,
            (ref) =>
              `the RouterModule path of ${entry.module} uses ${ref}, which cannot be resolved statically; its routes show {?${ref}} in their path.`,
          );
    const module = findClass(symbols, file, entry.module);
    if (module === undefined) {
      limitations.push({
        code: 'routes/unmatched-mount',
        file,
        line: entry.line,
        message: `${file}:${entry.line}: RouterModule.register serves ${entry.module} at "${path}", but "${entry.module.split('.')[0]}" is neither imported nor declared at the top of ${file}; its routes are listed without that prefix.`,
      });
      continue;
    }
    if (module.file === undefined) continue;
    const declared = symbols.getFacts(module.file)?.nestModules?.find((candidate) => candidate.name === module.name);
    for (const controller of declared?.controllers ?? []) {
      const target = findClass(symbols, module.file, controller);
      if (target?.file === undefined) continue;
      const key = routerKey(target.file, target.name);
      const list = found.get(key) ?? [];
      if (list.some((known) => known.path === path)) continue;
      list.push({ path, served: { file, line: entry.line, span: { start: entry.line, end: entry.line } } });
      found.set(key, list);
    }
  }
}

/**
 * The file and class a name used in `file` stands for: declared there, or imported (through barrels); `file`
 * undefined for a package's. Undefined when the name is neither.
 */
function findClass(symbols: SymbolIndex, file: string, name: string): { file: string | undefined; name: string } | undefined {
  const target = symbols.resolveName(file, name);
  if (target === undefined) {
    const local = symbols.getFacts(file)?.nestModules?.some((module) => module.name === name) === true;
    return local || symbols.getCallable(file, name) !== undefined ? { file, name } : undefined;
  }
  if (target.kind === 'package') return { file: undefined, name };
  if (target.kind === 'callable') return { file: target.file, name: target.name };
  const [root = name, member] = name.split('.');
  const binding = symbols.getBinding(file, root);
  const imported =
    binding === undefined || binding.imported === '*' || binding.imported === 'default' ? (member ?? root) : binding.imported;
  return { file: target.file, name: imported };
}

/** `path` without its leading `prefix` segments (`/orders`, `/orders/:id` → `/:id`); unchanged when it does not start with them. */
function removePrefix(prefix: string, path: string): string {
  const head = joinRoutePaths(prefix);
  if (head === '/') return path;
  const full = joinRoutePaths(path);
  if (full === head) return '/';
  return full.startsWith(`${head}/`) ? full.slice(head.length) : path;
}

/** A file-based route (Next.js): its handler is the exported function (`GET`, the default export), else the whole module. */
function toFileHandlerLink(symbols: SymbolIndex, file: string, route: RouteFact, lines: number): ChainLink {
  const name = route.handler ?? 'default';
  const target = symbols.resolveExport(file, name);
  if (target?.kind === 'callable' && target.file === file) {
    const callable = symbols.getCallable(file, target.name);
    if (callable !== undefined)
      return { role: 'handler', name: target.name, file, span: callable.span, targets: [toCallableKey(file, target.name)], dynamic: false };
  }
  return { role: 'handler', name, file, span: { start: 1, end: Math.max(1, lines) }, targets: [toCallableKey(file, '*')], dynamic: false };
}

function toUseLike(use: UseFact): UseLike {
  return {
    keys: keysOf(use.receiver, use.scope),
    offset: use.offset,
    line: use.line,
    prefix: use.prefix,
    entries: use.entries,
    setting: use.setting,
    appLevel: use.appLevel === true,
  };
}

function getOwnUses(
  list: readonly UseLike[],
  file: string,
  keys: readonly string[],
  offset: number,
  localPath: string,
): { links: LinkDraft[]; served: Context['served'] } {
  const links: LinkDraft[] = [];
  const served: Context['served'] = [];
  for (const use of list) {
    if (!use.keys.some((key) => keys.includes(key))) continue;
    if (use.setting !== undefined) {
      served.push({ file, line: use.line, span: { start: use.line, end: use.line } });
      continue;
    }
    if (use.offset >= offset || !isUnderPrefix(use.prefix, localPath)) continue;
    for (const entry of use.entries) links.push({ level: use.appLevel ? 'app' : 'router', file, line: use.line, entry });
  }
  return { links, served };
}

function getEntryName(entry: ChainEntryFact): string {
  return entry.callee ?? entry.name ?? (entry.inline ? INLINE_LINK_NAME : 'expression');
}

function toLink(symbols: SymbolIndex, role: ChainLink['role'], file: string, entry: ChainEntryFact): ChainLink {
  const targets = new Set<string>();
  let sawPackage = false;
  const names = new Set([
    ...(entry.name === undefined ? [] : [entry.name]),
    ...(entry.callee === undefined ? [] : [entry.callee]),
    ...entry.refs,
  ]);
  for (const name of names) {
    const target = symbols.resolveName(file, name);
    if (target === undefined) continue;
    if (target.kind === 'callable') targets.add(toCallableKey(target.file, target.name));
    else if (target.kind === 'module') targets.add(toCallableKey(target.file, '*'));
    else sawPackage = true;
  }
  const dynamic = role === 'handler' && (entry.dynamic === true || (!entry.inline && targets.size === 0 && !sawPackage));
  return { role, name: getEntryName(entry), file, span: entry.span, targets: [...targets].sort(), dynamic };
}

interface MountedRouters {
  routers: { file: string; name: string }[];
  /** The target is a middleware (a function or a package), not a router. */
  middleware: boolean;
  reason: string;
}

function findMountedRouters(
  symbols: SymbolIndex,
  file: string,
  mount: MountFact,
  receivers: ReadonlyMap<string, Set<string>>,
): MountedRouters {
  const target = mount.target;
  const local = receivers.get(file);
  if (target.startsWith('<plugin:') || (local?.has(target) === true && target !== mount.receiver))
    return { routers: [{ file, name: target }], middleware: false, reason: '' };
  if (target.startsWith('require:')) {
    const specifier = target.slice('require:'.length);
    const facts = symbols.getFacts(file);
    const index = facts?.imports.findIndex((fact) => fact.specifier === specifier) ?? -1;
    const resolved = symbols.resolveModule(file, specifier, index < 0 ? undefined : index);
    if (resolved.file === undefined)
      return {
        routers: [],
        middleware: resolved.packageName !== undefined,
        reason: `"${specifier}" does not resolve to a repository file`,
      };
    const declared = symbols.resolveExport(resolved.file, 'default');
    return routersIn(symbols, resolved.file, declared?.kind === 'callable' ? declared.name : undefined, receivers);
  }
  const resolved = symbols.resolveName(file, target);
  if (resolved === undefined) {
    if (mount.bare === true) return { routers: [], middleware: true, reason: '' };
    return {
      routers: [],
      middleware: false,
      reason: `"${target.split('.')[0] ?? target}" is neither imported nor declared at the top of ${file}`,
    };
  }
  if (resolved.kind === 'package') return { routers: [], middleware: true, reason: '' };
  if (resolved.kind === 'module') {
    const [root = target, member] = target.split('.');
    const binding = symbols.getBinding(file, root);
    const name = binding === undefined ? undefined : binding.imported === '*' ? member : binding.imported;
    return routersIn(symbols, resolved.file, name, receivers);
  }
  return routersIn(symbols, resolved.file, resolved.name, receivers);
}

function routersIn(
  symbols: SymbolIndex,
  file: string,
  name: string | undefined,
  receivers: ReadonlyMap<string, Set<string>>,
): MountedRouters {
  const names = receivers.get(file) ?? new Set<string>();
  if (name !== undefined && names.has(name)) return { routers: [{ file, name }], middleware: false, reason: '' };
  const facts = symbols.getFacts(file);
  // `module.exports = api`, `export { router as documents }`: the export names a local app or router.
  const local = facts?.exports.find((fact) => fact.name === (name ?? 'default'))?.local;
  if (local !== undefined && names.has(local)) return { routers: [{ file, name: local }], middleware: false, reason: '' };
  const routers = new Set((facts?.routes ?? []).map((route) => route.router).filter((router): router is string => router !== undefined));
  const callable = name === undefined ? undefined : symbols.getCallable(file, name);
  const isFunction = callable !== undefined && name !== 'default' && !names.has(name ?? '');
  if (!isFunction && routers.size === 1)
    return { routers: [...routers].map((router) => ({ file, name: router })), middleware: false, reason: '' };
  if (!isFunction && routers.size === 0 && (facts?.mounts.length ?? 0) > 0) {
    const mountReceivers = new Set(
      (facts?.mounts ?? []).map((mount) => mount.receiver).filter((receiver): receiver is string => receiver !== undefined),
    );
    if (mountReceivers.size === 1)
      return { routers: [...mountReceivers].map((receiver) => ({ file, name: receiver })), middleware: false, reason: '' };
  }
  if (callable !== undefined && routers.size === 0) return { routers: [], middleware: true, reason: '' };
  if (isFunction) return { routers: [], middleware: true, reason: '' };
  return {
    routers: [],
    middleware: false,
    reason:
      routers.size === 0
        ? `${file} declares no routes`
        : `${file} declares routes on several routers (${[...routers].sort().join(', ')}) and the mounted one cannot be told apart`,
  };
}
