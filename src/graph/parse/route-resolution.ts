import type { ImportFact, MountFact, NestModuleFact, RouteFact, RouteFramework, UseFact } from '../../model/facts.js';
import { isStaticParts, renderParts, toChainEntry } from './reference-frames.js';
import { applyPrefix, getFrameworkOfModule, isRouterLikeName, joinRoutePaths, NEST_ROUTER_MODULE } from './route-calls.js';
import type { MountCandidate, RouteCandidate, RouteCollector } from './route-collector.js';

interface ImportBinding {
  specifier: string;
  imported: string;
}

interface ReceiverCandidate {
  receiver: string;
  isIdentifier: boolean;
  isParameter: boolean;
}

export interface ResolvedRoutes {
  routes: RouteFact[];
  mounts: MountFact[];
  uses: UseFact[];
  nestModules: NestModuleFact[];
}

/** The routes, mounts and middleware of one file, keeping only calls on receivers that are routers. */
export function resolveRoutes(
  collected: RouteCollector,
  imports: readonly ImportFact[],
  importBindings: ReadonlyMap<string, ImportBinding>,
): ResolvedRoutes {
  return new RouteResolver(collected, imports, importBindings).resolve();
}

class RouteResolver {
  private readonly pluginFrameworks = new Map<string, RouteFramework>();

  constructor(
    private readonly collected: RouteCollector,
    private readonly imports: readonly ImportFact[],
    private readonly importBindings: ReadonlyMap<string, ImportBinding>,
  ) {}

  resolve(): ResolvedRoutes {
    const mounts = this.resolveInlinePlugins();
    const routes = this.collected.routeCandidates.flatMap((candidate) => this.toRouteFacts(candidate));
    routes.push(...this.collected.nestRoutes.map((route) => this.finishNestRoute(route)));
    for (const candidate of this.collected.mountCandidates) {
      const framework = this.getReceiverFramework(candidate, candidate.prefix === undefined ? '/' : renderParts(candidate.prefix));
      if (framework === undefined) continue;
      if (candidate.via === 'register' && framework !== 'fastify') continue;
      mounts.push(this.toMountFact(candidate));
    }
    return { routes, mounts, uses: this.resolveUses(), nestModules: this.collected.nestModules };
  }

  /** Routes registered on an inline plugin's parameter belong to a router of their own, mounted where it is registered. */
  private resolveInlinePlugins(): MountFact[] {
    const mounts: MountFact[] = [];
    for (const plugin of this.collected.inlinePlugins) {
      const framework = this.getReceiverFramework(plugin.base, '/');
      if (framework === undefined) continue;
      const target = `<plugin:${plugin.line}>`;
      for (const candidate of this.collected.routeCandidates) {
        if (
          candidate.receiver === plugin.param &&
          candidate.isParameter &&
          candidate.offset >= plugin.start &&
          candidate.offset < plugin.end
        ) {
          candidate.receiver = target;
          candidate.isParameter = false;
          candidate.scope = undefined;
          this.collected.routerDeclarations.set(target, { factory: '', isNew: false, prefix: '', parent: undefined });
          this.pluginFrameworks.set(target, framework);
        }
      }
      mounts.push(
        this.toMountFact({
          ...plugin.base,
          prefix: plugin.prefix ?? [{ text: '/' }],
          target,
          via: 'register',
          middlewareEntries: [],
          targetEntry: undefined,
        }),
      );
    }
    return mounts;
  }

  private toRouteFacts(candidate: RouteCandidate): RouteFact[] {
    const rendered = renderParts(candidate.path);
    const framework = this.getReceiverFramework(candidate, rendered);
    if (framework === undefined) return [];
    const prefix = this.getRouterPrefix(candidate.receiver);
    const path = applyPrefix(prefix, rendered);
    return candidate.methods.map((method) => {
      const route: RouteFact = {
        method,
        path,
        framework,
        kind: 'api',
        line: candidate.line,
        router: candidate.receiver,
        span: candidate.span,
        offset: candidate.offset,
      };
      if (!isStaticParts(candidate.path)) route.pathParts = prefix === '' ? candidate.path : [{ text: `${prefix}/` }, ...candidate.path];
      if (candidate.scope !== undefined) route.scope = candidate.scope;
      if (candidate.handler !== undefined) route.handler = candidate.handler;
      if (candidate.middleware.length > 0) route.middleware = [...candidate.middleware];
      if (candidate.handlerEntry !== undefined) route.handlerEntry = toChainEntry(candidate.handlerEntry);
      if (candidate.middlewareEntries.length > 0) route.middlewareEntries = candidate.middlewareEntries.map(toChainEntry);
      return route;
    });
  }

  private resolveUses(): UseFact[] {
    const uses: UseFact[] = [];
    for (const candidate of this.collected.useCandidates) {
      const isNestSetting =
        candidate.setting === 'setGlobalPrefix' || candidate.setting === 'enableVersioning' || candidate.setting === NEST_ROUTER_MODULE;
      if (!isNestSetting && this.getReceiverFramework(candidate, '/') === undefined) continue;
      const use: UseFact = {
        receiver: candidate.receiver,
        entries: candidate.entries.map(toChainEntry),
        line: candidate.line,
        offset: candidate.offset,
      };
      if (candidate.prefix !== undefined) use.prefix = renderParts(candidate.prefix);
      if (candidate.setting !== undefined) use.setting = candidate.setting;
      if (candidate.versioning !== undefined) use.versioning = candidate.versioning;
      const modulePaths = candidate.routerModuleArg === undefined ? undefined : this.collected.readModulePaths(candidate.routerModuleArg);
      if (modulePaths !== undefined) use.modulePaths = modulePaths;
      if (candidate.scope !== undefined) use.scope = candidate.scope;
      if (this.isApplication(candidate.receiver)) use.appLevel = true;
      uses.push(use);
    }
    return uses;
  }

  private getRouterFramework(name: string, depth = 0): RouteFramework | undefined {
    const plugin = this.pluginFrameworks.get(name);
    if (plugin !== undefined) return plugin;
    const declaration = this.collected.routerDeclarations.get(name);
    if (declaration === undefined || depth > 8) return undefined;
    if (declaration.parent !== undefined) return this.getRouterFramework(declaration.parent, depth + 1);
    const [root = '', member] = declaration.factory.split('.');
    const binding = this.importBindings.get(root);
    if (binding === undefined) return undefined;
    const framework = getFrameworkOfModule(binding.specifier);
    if (framework === 'express') {
      if (
        member === undefined &&
        !declaration.isNew &&
        (binding.imported === 'default' || binding.imported === '*' || binding.imported === 'Router')
      )
        return framework;
      if (member === 'Router' && (binding.imported === 'default' || binding.imported === '*')) return framework;
      // tinyhttp's `new App()` and `new Router()` (json-server's app.ts).
      if (member === undefined && declaration.isNew && (binding.imported === 'App' || binding.imported === 'Router')) return framework;
      return undefined;
    }
    if (framework === 'fastify') return member === undefined && !declaration.isNew ? framework : undefined;
    if (framework === 'hono') return declaration.isNew ? framework : undefined;
    if (framework === 'koa') return declaration.isNew ? framework : undefined;
    return undefined;
  }

  private getRouterPrefix(name: string, depth = 0): string {
    const declaration = this.collected.routerDeclarations.get(name);
    const calls = this.collected.prefixCalls.get(name) ?? [];
    const own = joinRoutePaths(declaration?.prefix ?? '', calls[calls.length - 1] ?? '');
    if (declaration?.parent === undefined || depth > 8) return own === '/' ? '' : own;
    const joined = joinRoutePaths(this.getRouterPrefix(declaration.parent, depth + 1), own);
    return joined === '/' ? '' : joined;
  }

  private getFileFramework(): RouteFramework | undefined {
    const found = new Set<RouteFramework>();
    for (const fact of this.imports) {
      const framework = getFrameworkOfModule(fact.specifier);
      if (framework !== undefined && !fact.typeOnly) found.add(framework);
    }
    if (found.size === 0)
      for (const fact of this.imports) {
        const framework = getFrameworkOfModule(fact.specifier);
        if (framework !== undefined) found.add(framework);
      }
    for (const framework of ['express', 'fastify', 'hono', 'koa'] as const) if (found.has(framework)) return framework;
    return undefined;
  }

  /** Known routers first; otherwise a router-like parameter or import, in a file that imports a framework or with an absolute path. */
  private getReceiverFramework(candidate: ReceiverCandidate, path: string | undefined): RouteFramework | undefined {
    const known = this.getRouterFramework(candidate.receiver);
    if (known !== undefined) return known;
    if (!isRouterLikeName(candidate.receiver)) return undefined;
    const isBinding = !candidate.isIdentifier || candidate.isParameter || this.importBindings.has(candidate.receiver);
    if (!isBinding) return undefined;
    const fileFramework = this.getFileFramework();
    if (fileFramework === undefined && path?.startsWith('/') !== true) return undefined;
    if (candidate.receiver === 'fastify') return 'fastify';
    return fileFramework ?? 'express';
  }

  private toMountFact(candidate: MountCandidate): MountFact {
    const own = candidate.prefix ?? [{ text: '/' }];
    const routerPrefix = this.getRouterPrefix(candidate.receiver);
    const prefix = applyPrefix(routerPrefix, renderParts(own));
    const mount: MountFact = {
      prefix,
      target: candidate.target,
      line: candidate.line,
      receiver: candidate.receiver,
      offset: candidate.offset,
    };
    if (!isStaticParts(own)) mount.prefixParts = routerPrefix === '' ? own : [{ text: `${routerPrefix}/` }, ...own];
    if (candidate.prefix === undefined) mount.bare = true;
    if (candidate.scope !== undefined) mount.scope = candidate.scope;
    if (candidate.middlewareEntries.length > 0) mount.middlewareEntries = candidate.middlewareEntries.map(toChainEntry);
    if (candidate.targetEntry !== undefined) mount.targetEntry = toChainEntry(candidate.targetEntry);
    if (this.isApplication(candidate.receiver)) mount.appLevel = true;
    return mount;
  }

  /** `express()`, `Fastify()`, `new Hono()`, `new Koa()`: an application rather than a router. */
  private isApplication(name: string): boolean {
    const declaration = this.collected.routerDeclarations.get(name);
    if (declaration === undefined || declaration.parent !== undefined) return false;
    return this.getRouterFramework(name) !== undefined && !/Router$/.test(declaration.factory);
  }

  private finishNestRoute(route: RouteFact): RouteFact {
    const entries = this.collected.nestEntries.get(route);
    if (entries === undefined) return route;
    if (entries.handler !== undefined) route.handlerEntry = toChainEntry(entries.handler);
    if (entries.guards.length > 0) route.middlewareEntries = entries.guards.map(toChainEntry);
    return route;
  }
}
