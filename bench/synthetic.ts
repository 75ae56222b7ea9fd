import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

export interface SyntheticOptions {
  files: number;
  seed?: number;
}

export interface SyntheticSummary {
  files: number;
  bytes: number;
}

export interface TouchResult {
  paths: string[];
  commit: string | undefined;
}

export const minimumSyntheticFiles = 80;

interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

function createRng(seed: number): Rng {
  let state = (seed ^ 0x9e3779b9) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => at(items, int(0, items.length - 1)),
    chance: (probability) => next() < probability,
  };
}

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`index ${index} outside 0..${items.length - 1}`);
  return item;
}

function shuffle<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = rng.int(0, i);
    const a = at(items, i);
    items[i] = at(items, j);
    items[j] = a;
  }
  return items;
}

const toPascal = (words: string[]): string => words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
const toCamel = (words: string[]): string => {
  const pascal = toPascal(words);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
};
const toKebab = (words: string[]): string => words.join('-');
const toUpperSnake = (words: string[]): string => words.map((word) => word.toUpperCase()).join('_');

const areaNames = [
  'accounts',
  'catalog',
  'checkout',
  'inventory',
  'orders',
  'payments',
  'pricing',
  'reports',
  'search',
  'sessions',
  'shipping',
  'tenants',
  'users',
  'webhooks',
  'audit',
  'caching',
  'email',
  'files',
  'jobs',
  'metrics',
  'plans',
  'quotas',
  'teams',
  'tokens',
  'exports',
] as const;

const nounWords = [
  'invoice',
  'customer',
  'order',
  'ledger',
  'refund',
  'coupon',
  'cart',
  'shipment',
  'address',
  'session',
  'token',
  'webhook',
  'report',
  'metric',
  'plan',
  'quota',
  'team',
  'member',
  'role',
  'permission',
  'product',
  'variant',
  'price',
  'discount',
  'payment',
  'payout',
  'receipt',
  'subscription',
  'trial',
  'job',
  'queue',
  'event',
  'note',
  'comment',
  'upload',
  'asset',
  'channel',
  'message',
  'template',
  'digest',
  'schedule',
  'region',
  'tenant',
  'account',
  'profile',
  'device',
  'credential',
  'policy',
  'rule',
  'limit',
  'batch',
  'cursor',
  'snapshot',
  'entry',
  'record',
  'warehouse',
  'carrier',
  'parcel',
  'voucher',
  'bundle',
] as const;

const qualifierWords = [
  'pending',
  'active',
  'draft',
  'bulk',
  'scheduled',
  'cached',
  'remote',
  'local',
  'legacy',
  'primary',
  'shadow',
  'daily',
  'monthly',
  'external',
  'internal',
  'default',
  'partial',
  'archived',
  'signed',
  'shared',
] as const;

const roleWords = [
  'store',
  'client',
  'mapper',
  'builder',
  'handler',
  'worker',
  'view',
  'adapter',
  'sync',
  'loader',
  'policy',
  'queue',
] as const;

function chooseModuleWords(rng: Rng): string[] {
  const roll = rng.next();
  if (roll < 0.08) return [rng.pick(nounWords)];
  if (roll < 0.45) return [rng.pick(qualifierWords), rng.pick(nounWords)];
  if (roll < 0.7) return [rng.pick(nounWords), rng.pick(roleWords)];
  return [rng.pick(qualifierWords), rng.pick(nounWords), rng.pick(roleWords)];
}

type ImportStyle = 'js' | 'bare';

interface WorkspacePackage {
  name: string;
  root: string;
  srcDir: string;
  modulesDir: string;
  style: ImportStyle;
  layer: number;
  weight: number;
  aliases: ReadonlyArray<{ prefix: string; dir: string }>;
}

const rootAliases = [
  { prefix: '@app/', dir: 'apps/api/src/' },
  { prefix: '@core/', dir: 'packages/core/src/' },
  { prefix: '@shared/', dir: 'packages/shared/src/' },
];
const webAliases = [
  { prefix: '@web/', dir: 'apps/web/' },
  { prefix: '@shared/', dir: 'packages/shared/src/' },
];

const workspacePackages: readonly WorkspacePackage[] = [
  {
    name: '@acme/shared',
    root: 'packages/shared',
    srcDir: 'packages/shared/src',
    modulesDir: 'packages/shared/src',
    style: 'bare',
    layer: 0,
    weight: 10,
    aliases: rootAliases,
  },
  {
    name: '@acme/core',
    root: 'packages/core',
    srcDir: 'packages/core/src',
    modulesDir: 'packages/core/src',
    style: 'js',
    layer: 1,
    weight: 12,
    aliases: rootAliases,
  },
  {
    name: '@acme/db',
    root: 'packages/db',
    srcDir: 'packages/db/src',
    modulesDir: 'packages/db/src',
    style: 'js',
    layer: 2,
    weight: 12,
    aliases: rootAliases,
  },
  {
    name: '@acme/auth',
    root: 'packages/auth',
    srcDir: 'packages/auth/src',
    modulesDir: 'packages/auth/src',
    style: 'bare',
    layer: 3,
    weight: 8,
    aliases: rootAliases,
  },
  {
    name: '@acme/billing',
    root: 'packages/billing',
    srcDir: 'packages/billing/src',
    modulesDir: 'packages/billing/src',
    style: 'js',
    layer: 3,
    weight: 14,
    aliases: rootAliases,
  },
  {
    name: '@acme/notifications',
    root: 'packages/notifications',
    srcDir: 'packages/notifications/src',
    modulesDir: 'packages/notifications/src',
    style: 'bare',
    layer: 3,
    weight: 10,
    aliases: rootAliases,
  },
  {
    name: '@acme/api',
    root: 'apps/api',
    srcDir: 'apps/api/src',
    modulesDir: 'apps/api/src/services',
    style: 'bare',
    layer: 4,
    weight: 20,
    aliases: rootAliases,
  },
  {
    name: '@acme/web',
    root: 'apps/web',
    srcDir: 'apps/web/lib',
    modulesDir: 'apps/web/lib',
    style: 'bare',
    layer: 4,
    weight: 14,
    aliases: webAliases,
  },
];

const hubSpecs = [
  { pkg: '@acme/core', file: 'logger', words: ['logger'] },
  { pkg: '@acme/shared', file: 'types', words: ['shared', 'types'] },
  { pkg: '@acme/core', file: 'errors', words: ['app', 'error'] },
  { pkg: '@acme/shared', file: 'result', words: ['result'] },
  { pkg: '@acme/core', file: 'config', words: ['app', 'config'] },
] as const;

type ExportKind = 'function' | 'async-function' | 'class' | 'interface' | 'type' | 'const';

interface PlannedExport {
  name: string;
  kind: ExportKind;
}

type BarrelMembership = 'star' | 'named' | 'none';

interface PlannedModule {
  index: number;
  path: string;
  pkg: WorkspacePackage;
  area: string | undefined;
  pascal: string;
  camel: string;
  upper: string;
  plural: string;
  exports: PlannedExport[];
  lines: number;
  barrel: BarrelMembership;
  isHub: boolean;
  targets: PlannedModule[];
}

const isTypeKind = (kind: ExportKind): boolean => kind === 'interface' || kind === 'type';

interface Allocation {
  tests: number;
  express: number;
  fastify: number;
  hono: number;
  next: number;
  cjs: number;
  components: number;
  areasByPackage: number[];
  modulesByPackage: number[];
}

const fixedFileCount = 8 + workspacePackages.length * 3 + 1;

function allocate(total: number): Allocation {
  const rest = total - fixedFileCount;
  const tests = Math.floor(rest * 0.2);
  const express = Math.max(2, Math.floor(rest * 0.02));
  const fastify = Math.max(1, Math.floor(rest * 0.006));
  const hono = Math.max(1, Math.floor(rest * 0.006));
  const next = Math.max(2, Math.floor(rest * 0.02));
  const cjs = Math.max(2, Math.floor(rest * 0.004));
  const components = Math.max(2, Math.floor(rest * 0.03));
  const remaining = rest - tests - express - fastify - hono - next - cjs - components;
  const weightSum = workspacePackages.reduce((sum, pkg) => sum + pkg.weight, 0);
  const areasByPackage = workspacePackages.map((pkg) =>
    Math.min(areaNames.length, Math.max(1, Math.round(((pkg.weight / weightSum) * remaining * 0.97) / 40))),
  );
  const moduleCount = remaining - areasByPackage.reduce((sum, count) => sum + count, 0);
  const baseByPackage = workspacePackages.map(
    (pkg, index) => at(areasByPackage, index) + hubSpecs.filter((spec) => spec.pkg === pkg.name).length,
  );
  const extra = moduleCount - baseByPackage.reduce((sum, count) => sum + count, 0);
  if (extra < 0) throw new RangeError(`synthetic repository of ${total} files is too small for its layout`);
  const modulesByPackage = workspacePackages.map((pkg, index) => at(baseByPackage, index) + Math.floor((extra * pkg.weight) / weightSum));
  let leftover = moduleCount - modulesByPackage.reduce((sum, count) => sum + count, 0);
  for (let i = 0; leftover > 0; i = (i + 1) % modulesByPackage.length, leftover -= 1) {
    modulesByPackage[i] = at(modulesByPackage, i) + 1;
  }
  return { tests, express, fastify, hono, next, cjs, components, areasByPackage, modulesByPackage };
}

class NameRegistry {
  private readonly used = new Set<string>();

  claim(words: string[]): string[] {
    const base = toCamel(words);
    if (!this.used.has(base)) {
      this.used.add(base);
      return words;
    }
    for (let suffix = 2; ; suffix += 1) {
      const candidate = [...words.slice(0, -1), `${at(words, words.length - 1)}${suffix}`];
      const key = toCamel(candidate);
      if (!this.used.has(key)) {
        this.used.add(key);
        return candidate;
      }
    }
  }
}

function pluralize(word: string): string {
  if (word.endsWith('y') && !/[aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

function planExports(words: string[], rng: Rng, isHub: boolean): PlannedExport[] {
  const pascal = toPascal(words);
  const exports: PlannedExport[] = [
    { name: `${pascal}Record`, kind: 'interface' },
    { name: `create${pascal}`, kind: 'function' },
  ];
  if (isHub || rng.chance(0.7)) exports.push({ name: `load${pascal}`, kind: 'async-function' });
  if (isHub || rng.chance(0.5)) exports.push({ name: `validate${pascal}`, kind: 'function' });
  if (isHub || rng.chance(0.45)) exports.push({ name: `${pascal}Service`, kind: 'class' });
  if (isHub || rng.chance(0.6)) exports.push({ name: `${pascal}Status`, kind: 'type' });
  if (isHub || rng.chance(0.4)) exports.push({ name: `${toUpperSnake(words)}_DEFAULTS`, kind: 'const' });
  return exports;
}

function chooseLineCount(rng: Rng): number {
  const r = rng.next();
  return 50 + Math.floor(350 * r * r);
}

function buildModule(
  index: number,
  path: string,
  pkg: WorkspacePackage,
  area: string | undefined,
  words: string[],
  rng: Rng,
  isHub: boolean,
): PlannedModule {
  const barrelRoll = rng.next();
  return {
    index,
    path,
    pkg,
    area,
    pascal: toPascal(words),
    camel: toCamel(words),
    upper: toUpperSnake(words),
    plural: pluralize(toKebab(words)),
    exports: planExports(words, rng, isHub),
    lines: isHub ? 120 : chooseLineCount(rng),
    barrel: isHub ? 'star' : barrelRoll < 0.6 ? 'star' : barrelRoll < 0.8 ? 'named' : 'none',
    isHub,
    targets: [],
  };
}

function planModules(allocation: Allocation, rng: Rng, names: NameRegistry): PlannedModule[] {
  const modules: PlannedModule[] = [];
  for (const spec of hubSpecs) {
    const pkg = workspacePackages.find((candidate) => candidate.name === spec.pkg);
    if (pkg === undefined) throw new Error(`unknown hub package ${spec.pkg}`);
    const words = names.claim([...spec.words]);
    modules.push(buildModule(modules.length, `${pkg.srcDir}/${spec.file}.ts`, pkg, undefined, words, rng, true));
  }
  workspacePackages.forEach((pkg, packageIndex) => {
    const areaCount = at(allocation.areasByPackage, packageIndex);
    const hubCount = hubSpecs.filter((spec) => spec.pkg === pkg.name).length;
    const moduleCount = at(allocation.modulesByPackage, packageIndex) - hubCount;
    const areas = shuffle([...areaNames], rng)
      .slice(0, areaCount)
      .sort();
    const filesByArea = new Map<string, Set<string>>();
    for (let i = 0; i < moduleCount; i += 1) {
      const area = i < areas.length ? at(areas, i) : rng.pick(areas);
      const taken = filesByArea.get(area) ?? new Set<string>();
      filesByArea.set(area, taken);
      let words = names.claim(chooseModuleWords(rng));
      while (taken.has(toKebab(words)) || toKebab(words) === 'index') words = names.claim([...words, 'v']);
      taken.add(toKebab(words));
      modules.push(buildModule(modules.length, `${pkg.modulesDir}/${area}/${toKebab(words)}.ts`, pkg, area, words, rng, false));
    }
  });
  return modules;
}

function createZipfSampler(size: number, exponent: number, rng: Rng): () => number {
  const cumulative = new Float64Array(size);
  let sum = 0;
  for (let rank = 0; rank < size; rank += 1) {
    sum += 1 / (rank + 1) ** exponent;
    cumulative[rank] = sum;
  }
  return () => {
    const target = rng.next() * sum;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((cumulative[mid] ?? 0) < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

function chooseFanOut(rng: Rng): number {
  const roll = rng.next();
  if (roll < 0.08) return rng.int(0, 2);
  if (roll < 0.95) return rng.int(3, 10);
  return rng.int(11, 18);
}

function linkModules(modules: PlannedModule[], rng: Rng): void {
  const hubs = modules.filter((module) => module.isHub);
  const ranked = [
    ...hubs,
    ...shuffle(
      modules.filter((module) => !module.isHub),
      rng,
    ),
  ];
  const sampleRank = createZipfSampler(ranked.length, 1.05, rng);
  const byPackage = new Map<string, PlannedModule[]>();
  const byArea = new Map<string, PlannedModule[]>();
  for (const module of modules) {
    byPackage.set(module.pkg.name, [...(byPackage.get(module.pkg.name) ?? []), module]);
    const areaKey = `${module.pkg.name}/${module.area ?? ''}`;
    byArea.set(areaKey, [...(byArea.get(areaKey) ?? []), module]);
  }
  const isAllowed = (from: PlannedModule, to: PlannedModule): boolean =>
    from !== to && (to.pkg === from.pkg || to.pkg.layer < from.pkg.layer);
  for (const module of modules) {
    const fanOut = module.isHub ? rng.int(0, 2) : chooseFanOut(rng);
    const chosen = new Set<PlannedModule>();
    for (let attempt = 0; chosen.size < fanOut && attempt < fanOut * 6; attempt += 1) {
      let target: PlannedModule | undefined;
      if (!module.isHub && rng.chance(0.35)) {
        for (let retry = 0; retry < 8 && target === undefined; retry += 1) {
          const candidate = at(ranked, sampleRank());
          if (isAllowed(module, candidate)) target = candidate;
        }
      }
      if (target === undefined) {
        const local = rng.chance(0.6) ? byArea.get(`${module.pkg.name}/${module.area ?? ''}`) : byPackage.get(module.pkg.name);
        const candidate = local === undefined || local.length === 0 ? undefined : rng.pick(local);
        if (candidate !== undefined && isAllowed(module, candidate) && !(module.isHub && !candidate.isHub)) target = candidate;
      }
      if (target !== undefined) chosen.add(target);
    }
    module.targets = [...chosen];
  }
}

function stripExtension(path: string): string {
  return path.replace(/\.(ts|tsx|mts|cts)$/, '');
}

function toRelativeSpecifier(fromPath: string, toPath: string, style: ImportStyle): string {
  let relative = posix.relative(posix.dirname(fromPath), toPath);
  if (!relative.startsWith('.')) relative = `./${relative}`;
  if (style === 'js') return relative.replace(/\.(ts|tsx)$/, '.js');
  const bare = stripExtension(relative);
  return bare.endsWith('/index') ? bare.slice(0, -'/index'.length) : bare;
}

function getAreaBarrelPath(module: PlannedModule): string | undefined {
  return module.area === undefined ? undefined : `${module.pkg.modulesDir}/${module.area}/index.ts`;
}

function chooseSpecifier(fromPath: string, fromPkg: WorkspacePackage, target: PlannedModule, rng: Rng): string {
  if (target.pkg === fromPkg) {
    const alias = fromPkg.aliases.find((candidate) => target.path.startsWith(candidate.dir));
    if (alias !== undefined && fromPkg.layer === 4 && rng.chance(0.5)) {
      return alias.prefix + stripExtension(target.path.slice(alias.dir.length));
    }
    const barrel = getAreaBarrelPath(target);
    const sameArea = posix.dirname(fromPath) === posix.dirname(target.path);
    if (barrel !== undefined && target.barrel === 'star' && !sameArea && rng.chance(0.3)) {
      return toRelativeSpecifier(fromPath, barrel, fromPkg.style);
    }
    return toRelativeSpecifier(fromPath, target.path, fromPkg.style);
  }
  const roll = rng.next();
  if (target.barrel === 'star' && roll < 0.45) return target.pkg.name;
  const alias = fromPkg.aliases.find((candidate) => target.path.startsWith(candidate.dir));
  if (alias !== undefined && roll < 0.8) {
    if (fromPkg.name === '@acme/web' && target.pkg.name === '@acme/shared' && roll > 0.7) return stripExtension(target.path);
    return alias.prefix + stripExtension(target.path.slice(alias.dir.length));
  }
  return `${target.pkg.name}/${stripExtension(target.path.slice(target.pkg.srcDir.length + 1))}`;
}

interface ImportContext {
  lines: string[];
  values: string[];
  functions: string[];
  classes: string[];
  constants: string[];
  types: string[];
  dynamic: { specifier: string; name: string } | undefined;
}

function renderImports(module: PlannedModule, rng: Rng): ImportContext {
  const context: ImportContext = { lines: [], values: [], functions: [], classes: [], constants: [], types: [], dynamic: undefined };
  const targets = [...module.targets];
  if (module.index % 13 === 5 && targets.length >= 2) {
    const target = at(targets, targets.length - 1);
    targets.pop();
    const fn = target.exports.find((entry) => entry.kind === 'function');
    if (fn !== undefined) context.dynamic = { specifier: chooseSpecifier(module.path, module.pkg, target, rng), name: fn.name };
  }
  if (!module.isHub && rng.chance(0.15)) context.lines.push("import { z } from 'zod';");
  if (!module.isHub && rng.chance(0.05)) context.lines.push("import { readFile } from 'node:fs/promises';");
  for (const target of targets) {
    const specifier = chooseSpecifier(module.path, module.pkg, target, rng);
    const count = Math.min(target.exports.length, rng.int(1, 3));
    const names = shuffle([...target.exports], rng)
      .slice(0, count)
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    const typeNames = names.filter((entry) => isTypeKind(entry.kind)).map((entry) => entry.name);
    const valueNames = names.filter((entry) => !isTypeKind(entry.kind)).map((entry) => entry.name);
    for (const entry of names) {
      if (entry.kind === 'function' || entry.kind === 'async-function') context.functions.push(entry.name);
      else if (entry.kind === 'class') context.classes.push(entry.name);
      else if (entry.kind === 'const') context.constants.push(entry.name);
      else context.types.push(entry.name);
    }
    context.values.push(...valueNames);
    if (valueNames.length === 0) {
      context.lines.push(`import type { ${typeNames.join(', ')} } from '${specifier}';`);
    } else if (typeNames.length === 0) {
      context.lines.push(`import { ${valueNames.join(', ')} } from '${specifier}';`);
    } else if (rng.chance(0.5)) {
      context.lines.push(`import { ${[...typeNames.map((name) => `type ${name}`), ...valueNames].join(', ')} } from '${specifier}';`);
    } else {
      context.lines.push(`import type { ${typeNames.join(', ')} } from '${specifier}';`);
      context.lines.push(`import { ${valueNames.join(', ')} } from '${specifier}';`);
    }
  }
  return context;
}

const fieldTypes = ['string', 'number', 'boolean', 'string[]', 'Date', 'Record<string, string>', 'number | null'] as const;
const fieldNames = [
  'label',
  'amount',
  'currency',
  'enabled',
  'tags',
  'expiresAt',
  'metadata',
  'retries',
  'ownerId',
  'region',
  'priority',
  'notes',
  'version',
  'checksum',
  'quantity',
  'sortKey',
] as const;
const statusWords = ['pending', 'active', 'failed', 'archived', 'processing', 'cancelled', 'scheduled', 'expired'] as const;

function renderInterface(module: PlannedModule, context: ImportContext, rng: Rng): string[] {
  const fields = shuffle([...fieldNames], rng).slice(0, rng.int(3, 8));
  const lines = [`export interface ${module.pascal}Record {`, '  id: string;', '  createdAt: string;', '  attempts?: number;'];
  for (const field of fields) lines.push(`  ${field}${rng.chance(0.3) ? '?' : ''}: ${rng.pick(fieldTypes)};`);
  if (context.types.length > 0) lines.push(`  related?: ${rng.pick(context.types)};`);
  lines.push('}', '');
  return lines;
}

function renderStatusType(module: PlannedModule, rng: Rng): string[] {
  const states = shuffle([...statusWords], rng).slice(0, rng.int(2, 5));
  return [`export type ${module.pascal}Status = ${states.map((state) => `'${state}'`).join(' | ')};`, ''];
}

function renderDefaults(module: PlannedModule, rng: Rng): string[] {
  return [
    `export const ${module.upper}_DEFAULTS = {`,
    `  pageSize: ${rng.int(10, 200)},`,
    `  timeoutMs: ${rng.int(1, 30) * 1000},`,
    `  retryLimit: ${rng.int(1, 9)},`,
    `  endpoint: '/${module.plural}',`,
    '} as const;',
    '',
  ];
}

function renderCreate(module: PlannedModule, context: ImportContext, rng: Rng): string[] {
  const lines = [
    `export function create${module.pascal}(input: Partial<${module.pascal}Record>, now: Date = new Date()): ${module.pascal}Record {`,
    '  if (!input.id) {',
    `    throw new Error('${module.camel} id is required');`,
    '  }',
    "  const attempts = Number.parseInt(String(input.attempts ?? '0'), 10);",
    '  const createdAt = input.createdAt ?? now.toISOString();',
  ];
  if (context.functions.length > 0 && rng.chance(0.7)) {
    lines.push(
      `  const upstream = ${rng.pick(context.functions)}(input);`,
      '  if (upstream === undefined) {',
      `    return { ...input, id: input.id, createdAt, attempts: 0 } as ${module.pascal}Record;`,
      '  }',
    );
  }
  lines.push(
    `  return { ...input, id: input.id, createdAt, attempts: Number.isNaN(attempts) ? 0 : attempts } as ${module.pascal}Record;`,
    '}',
    '',
  );
  return lines;
}

function renderLoad(module: PlannedModule, context: ImportContext, rng: Rng): string[] {
  const lines = [
    `export async function load${module.pascal}(id: string, baseUrl = 'https://api.example.test'): Promise<${module.pascal}Record | undefined> {`,
  ];
  if (context.dynamic !== undefined && rng.chance(0.5)) {
    lines.push(`  const { ${context.dynamic.name} } = await import('${context.dynamic.specifier}');`, `  ${context.dynamic.name}({ id });`);
    context.dynamic = undefined;
  }
  lines.push(
    `  const response = await fetch(\`\${baseUrl}/${module.plural}/\${encodeURIComponent(id)}\`);`,
    '  if (response.status === 404) {',
    '    return undefined;',
    '  }',
    '  if (!response.ok) {',
    `    throw new Error(\`failed to load ${module.camel} \${id}: \${response.status}\`);`,
    '  }',
    `  const body = (await response.json()) as ${module.pascal}Record;`,
    '  const createdAt = new Date(body.createdAt);',
    '  if (Number.isNaN(createdAt.getTime())) {',
    `    return { ...body, createdAt: new Date(0).toISOString() };`,
    '  }',
    '  return body;',
    '}',
    '',
  );
  return lines;
}

function renderValidate(module: PlannedModule, rng: Rng): string[] {
  const limit = rng.int(2, 50);
  return [
    `export function validate${module.pascal}(value: unknown): value is ${module.pascal}Record {`,
    "  if (typeof value !== 'object' || value === null) {",
    '    return false;',
    '  }',
    '  const candidate = value as { id?: unknown; attempts?: unknown };',
    "  if (typeof candidate.id !== 'string' || candidate.id.length === 0) {",
    '    return false;',
    '  }',
    `  return candidate.attempts === undefined || (typeof candidate.attempts === 'number' && candidate.attempts <= ${limit});`,
    '}',
    '',
  ];
}

function renderClass(module: PlannedModule, context: ImportContext, rng: Rng): string[] {
  const lines = [
    `export class ${module.pascal}Service {`,
    `  private readonly cache = new Map<string, ${module.pascal}Record>();`,
    '',
    `  constructor(private readonly baseUrl: string, private readonly ttlMs = ${rng.int(1, 60) * 1000}) {}`,
    '',
    `  async get(id: string): Promise<${module.pascal}Record | undefined> {`,
    '    const cached = this.cache.get(id);',
    '    if (cached !== undefined && Date.now() - Date.parse(cached.createdAt) < this.ttlMs) {',
    '      return cached;',
    '    }',
    `    const response = await fetch(\`\${this.baseUrl}/${module.plural}/\${id}\`);`,
    '    if (!response.ok) {',
    '      return undefined;',
    '    }',
    `    const record = (await response.json()) as ${module.pascal}Record;`,
    '    this.cache.set(id, record);',
    '    return record;',
    '  }',
    '',
    `  list(filter?: (record: ${module.pascal}Record) => boolean): ${module.pascal}Record[] {`,
    '    const all = [...this.cache.values()];',
    '    return filter ? all.filter(filter) : all;',
    '  }',
  ];
  if (context.classes.length > 0 && rng.chance(0.6)) {
    const dependency = rng.pick(context.classes);
    lines.push('', `  createDependency(): ${dependency} {`, `    return new ${dependency}(this.baseUrl);`, '  }');
  }
  lines.push('', '  clear(): void {', '    this.cache.clear();', '  }', '}', '');
  return lines;
}

function renderHelper(module: PlannedModule, context: ImportContext, rng: Rng, ordinal: number): string[] {
  const name = `${module.camel}Step${ordinal}`;
  const variant = rng.int(0, 5);
  if (variant === 0) {
    const cases = shuffle([...statusWords], rng).slice(0, rng.int(2, 5));
    return [
      `function ${name}(status: string): number {`,
      '  switch (status) {',
      ...cases.flatMap((state, index) => [`    case '${state}':`, `      return ${index * 10 + rng.int(0, 9)};`]),
      '    default:',
      '      return -1;',
      '  }',
      '}',
      '',
    ];
  }
  if (variant === 1) {
    return [
      `async function ${name}(ids: string[]): Promise<number> {`,
      '  const results = await Promise.all(',
      '    ids.map(async (id) => {',
      '      try {',
      `        const response = await fetch(\`/internal/${module.plural}/\${id}\`);`,
      '        return response.ok ? 1 : 0;',
      '      } catch {',
      '        return 0;',
      '      }',
      '    }),',
      '  );',
      '  return results.reduce((sum, value) => sum + value, 0);',
      '}',
      '',
    ];
  }
  if (variant === 2) {
    const threshold = rng.int(1, 1000);
    return [
      `function ${name}(values: readonly number[]): { total: number; above: number } {`,
      '  let total = 0;',
      '  let above = 0;',
      '  for (const value of values) {',
      '    total += value;',
      `    if (value > ${threshold}) {`,
      '      above += 1;',
      '    } else if (value < 0) {',
      `      throw new RangeError('negative value in ${module.camel}');`,
      '    }',
      '  }',
      '  return { total, above };',
      '}',
      '',
    ];
  }
  if (variant === 3) {
    return [
      `function ${name}(raw: string | undefined): Date | undefined {`,
      "  if (raw === undefined || raw.trim() === '') {",
      '    return undefined;',
      '  }',
      '  const seconds = Number.parseInt(raw, 10);',
      '  const parsed = Number.isNaN(seconds) ? new Date(raw) : new Date(seconds * 1000);',
      '  return Number.isNaN(parsed.getTime()) ? undefined : parsed;',
      '}',
      '',
    ];
  }
  if (variant === 4 && context.constants.length > 0) {
    const constant = rng.pick(context.constants);
    return [
      `function ${name}(page?: number): { offset: number; limit: number } {`,
      `  const limit = ${constant}.pageSize;`,
      '  const safePage = page !== undefined && page > 0 ? page : 1;',
      '  return { offset: (safePage - 1) * limit, limit };',
      '}',
      '',
    ];
  }
  const key = rng.pick(fieldNames);
  return [
    `function ${name}(records: ${module.pascal}Record[]): Map<string, ${module.pascal}Record[]> {`,
    `  const groups = new Map<string, ${module.pascal}Record[]>();`,
    '  for (const record of records) {',
    `    const key = String(record.${key} ?? record.createdAt.slice(0, 10));`,
    '    const group = groups.get(key) ?? [];',
    '    group.push(record);',
    '    groups.set(key, group);',
    '  }',
    '  return groups;',
    '}',
    '',
  ];
}

function renderModule(module: PlannedModule, rng: Rng): string {
  const context = renderImports(module, rng);
  const lines = [...context.lines];
  if (lines.length > 0) lines.push('');
  if (lines.some((line) => line.includes("from 'zod'"))) {
    lines.push(
      `export const ${module.camel}Schema = z.object({ id: z.string().min(1), attempts: z.number().int().nonnegative().optional() });`,
      '',
    );
  }
  for (const entry of module.exports) {
    if (entry.kind === 'interface') lines.push(...renderInterface(module, context, rng));
    else if (entry.kind === 'type') lines.push(...renderStatusType(module, rng));
    else if (entry.kind === 'const') lines.push(...renderDefaults(module, rng));
  }
  for (const entry of module.exports) {
    if (entry.name === `create${module.pascal}`) lines.push(...renderCreate(module, context, rng));
    else if (entry.kind === 'async-function') lines.push(...renderLoad(module, context, rng));
    else if (entry.kind === 'function') lines.push(...renderValidate(module, rng));
    else if (entry.kind === 'class') lines.push(...renderClass(module, context, rng));
  }
  if (context.dynamic !== undefined) {
    lines.push(
      `export async function warm${module.pascal}(): Promise<void> {`,
      `  const { ${context.dynamic.name} } = await import('${context.dynamic.specifier}');`,
      `  ${context.dynamic.name}({ id: 'warmup' });`,
      '}',
      '',
    );
  }
  if (lines.some((line) => line.includes("from 'node:fs/promises'"))) {
    lines.push(
      `export async function read${module.pascal}Fixture(path: string): Promise<${module.pascal}Record[]> {`,
      "  const text = await readFile(path, 'utf8');",
      `  return JSON.parse(text) as ${module.pascal}Record[];`,
      '}',
      '',
    );
  }
  for (let ordinal = 1; lines.length < module.lines; ordinal += 1) lines.push(...renderHelper(module, context, rng, ordinal));
  return `${lines.join('\n').trimEnd()}\n`;
}

function renderAreaBarrel(path: string, members: PlannedModule[], style: ImportStyle): string {
  const lines: string[] = [];
  for (const member of members) {
    const specifier = toRelativeSpecifier(path, member.path, style);
    if (member.barrel === 'star') {
      lines.push(`export * from '${specifier}';`);
    } else if (member.barrel === 'named') {
      const record = `${member.pascal}Record`;
      lines.push(`export { create${member.pascal} as new${member.pascal}, type ${record} } from '${specifier}';`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function renderPackageBarrel(pkg: WorkspacePackage, modules: PlannedModule[], areas: string[]): string {
  const path = `${pkg.srcDir}/index.ts`;
  const lines: string[] = [];
  for (const hub of modules.filter((module) => module.isHub && module.pkg === pkg)) {
    lines.push(`export * from '${toRelativeSpecifier(path, hub.path, pkg.style)}';`);
  }
  for (const area of areas) lines.push(`export * from '${toRelativeSpecifier(path, `${pkg.modulesDir}/${area}/index.ts`, pkg.style)}';`);
  if (pkg.name === '@acme/api') lines.push(`export { app } from '${toRelativeSpecifier(path, 'apps/api/src/app.ts', pkg.style)}';`);
  return `${lines.join('\n')}\n`;
}

function renderPackageJson(pkg: WorkspacePackage): string {
  const exportsField: Record<string, string> =
    pkg.srcDir === pkg.modulesDir || pkg.name === '@acme/api'
      ? { '.': `./${posix.relative(pkg.root, pkg.srcDir)}/index.ts`, './*': `./${posix.relative(pkg.root, pkg.srcDir)}/*.ts` }
      : { '.': `./${posix.relative(pkg.root, pkg.srcDir)}/index.ts` };
  const lower = workspacePackages.filter((candidate) => candidate.layer < pkg.layer).map((candidate) => candidate.name);
  const dependencies: Record<string, string> = Object.fromEntries(lower.map((name) => [name, 'workspace:*']));
  dependencies.zod = '^3.23.8';
  if (pkg.name === '@acme/api') Object.assign(dependencies, { express: '^4.19.2', fastify: '^4.28.1', hono: '^4.5.1' });
  if (pkg.name === '@acme/web') Object.assign(dependencies, { next: '^14.2.5', react: '^18.3.1' });
  const manifest = {
    name: pkg.name,
    version: '1.4.0',
    private: true,
    type: pkg.style === 'js' ? 'module' : undefined,
    exports: exportsField,
    scripts: { test: 'vitest run', build: 'tsc -p tsconfig.json' },
    dependencies,
    devDependencies: { vitest: '^2.0.5', typescript: '^5.5.4' },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function renderPackageTsconfig(pkg: WorkspacePackage): string {
  const config =
    pkg.name === '@acme/web'
      ? {
          extends: '../../tsconfig.json',
          compilerOptions: { jsx: 'preserve', paths: { '@web/*': ['apps/web/*'], '@shared/*': ['packages/shared/src/*'] } },
          include: ['**/*.ts', '**/*.tsx'],
        }
      : { extends: '../../tsconfig.json', compilerOptions: { outDir: 'dist', rootDir: 'src' }, include: ['src'] };
  return `${JSON.stringify(config, null, 2)}\n`;
}

function renderRootFiles(routeLines: string[]): Record<string, string> {
  const rootManifest = {
    name: 'acme-platform',
    private: true,
    workspaces: ['packages/*', 'apps/*'],
    scripts: { test: 'vitest run', build: 'tsc -b', lint: 'eslint .' },
    devDependencies: { typescript: '^5.5.4', vitest: '^2.0.5' },
  };
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      baseUrl: '.',
      paths: Object.fromEntries(rootAliases.map((alias) => [`${alias.prefix}*`, [`${alias.dir}*`]])),
    },
    exclude: ['node_modules', 'dist'],
  };
  return {
    'package.json': `${JSON.stringify(rootManifest, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
    '.gitignore': ['node_modules/', 'dist/', 'coverage/', '.env', '*.log', '.next/', ''].join('\n'),
    '.github/CODEOWNERS': [
      '# Default owners',
      '*                       @acme/platform',
      '/packages/core/         @acme/core-team @alice',
      '/packages/shared/       @acme/core-team',
      '/packages/db/           @acme/data',
      '/packages/billing/      @acme/payments @bob',
      '/packages/auth/         @acme/identity',
      '/apps/api/              @acme/api-team',
      '/apps/web/              @acme/frontend',
      '*.cjs                   @acme/tooling',
      '/docs/                  @acme/architects',
      '',
    ].join('\n'),
    'docs/openapi.yaml': `${['openapi: 3.0.3', 'info:', '  title: Acme API', '  version: 1.4.0', 'paths:', ...routeLines].join('\n')}\n`,
    'docs/adr/0001-workspace-layout.md': [
      '# 1. Workspace layout',
      '',
      'Status: accepted',
      '',
      '## Context',
      '',
      'Shared code lives in `packages/*`; deployable apps live in `apps/*`. Every package logs through',
      '`packages/core/src/logger.ts` and reports failures with the error types in `packages/core/src/errors.ts`.',
      '',
      '## Decision',
      '',
      'Packages may import only packages of a lower layer: shared, then core, then db, then the domain packages.',
      'Apps import packages through their `exports` map or the `@core/*` and `@shared/*` aliases.',
      '',
      '## Consequences',
      '',
      'A change to `packages/shared/src/types.ts` touches almost everything; it needs a review by @acme/core-team.',
      '',
    ].join('\n'),
    'docs/adr/0002-http-frameworks.md': [
      '# 2. HTTP frameworks',
      '',
      'Status: accepted',
      '',
      'The public API is Express (`apps/api/src/app.ts` mounts one router per resource). Fastify serves the v2',
      'endpoints and Hono the edge endpoints. The web app uses Next.js route handlers under `apps/web/app/api`.',
      'Every route is documented in `docs/openapi.yaml`.',
      '',
    ].join('\n'),
    'README.md': [
      '# Acme platform',
      '',
      'A synthetic monorepo generated for benchmarks.',
      '',
      '```sh',
      'npm install',
      'npm test',
      '```',
      '',
    ].join('\n'),
  };
}

interface RouteSpec {
  method: string;
  path: string;
}

const expressRouteShapes: readonly RouteSpec[] = [
  { method: 'get', path: '/' },
  { method: 'get', path: '/:id' },
  { method: 'post', path: '/' },
  { method: 'put', path: '/:id' },
  { method: 'patch', path: '/:id/status' },
  { method: 'delete', path: '/:id' },
];

function pickHandlerNames(services: PlannedModule[]): string[] {
  return services.flatMap((service) => service.exports.filter((entry) => entry.kind === 'function').map((entry) => entry.name)).slice(0, 3);
}

function renderExpressRouter(
  path: string,
  resource: string,
  services: PlannedModule[],
  routes: RouteSpec[],
  namedExport: boolean,
  rng: Rng,
): string {
  const routerName = `${toCamel(resource.split('-'))}Router`;
  const lines = ["import { Router } from 'express';", "import type { NextFunction, Request, Response } from 'express';"];
  const handlers = pickHandlerNames(services);
  for (const service of services) {
    const names = service.exports.filter((entry) => entry.kind === 'function').map((entry) => entry.name);
    if (names.length > 0)
      lines.push(`import { ${names.join(', ')} } from '${chooseSpecifier(path, at(workspacePackages, 6), service, rng)}';`);
  }
  lines.push('', namedExport ? `export const ${routerName} = Router();` : `const ${routerName} = Router();`, '');
  for (const route of routes) {
    const handler = handlers.length > 0 ? rng.pick(handlers) : undefined;
    lines.push(`${routerName}.${route.method}('${route.path}', async (req: Request, res: Response, next: NextFunction) => {`, '  try {');
    if (route.path.includes(':id')) {
      lines.push(
        '    const id = req.params.id;',
        '    if (!id) {',
        "      res.status(400).json({ error: 'missing id' });",
        '      return;',
        '    }',
      );
    }
    if (handler !== undefined)
      lines.push(`    const result = ${handler}(${route.method === 'get' ? '{ id: req.params.id }' : 'req.body'});`);
    else lines.push('    const result = { ok: true };');
    lines.push(
      `    res.status(${route.method === 'post' ? 201 : 200}).json(result);`,
      '  } catch (error) {',
      '    next(error);',
      '  }',
      '});',
      '',
    );
  }
  if (!namedExport) lines.push(`export default ${routerName};`);
  return `${lines.join('\n').trimEnd()}\n`;
}

function getOperationSuffix(path: string): string {
  if (path.endsWith('/status')) return 'Status';
  return path.includes('{id}') ? 'ById' : 'Collection';
}

function renderExpressApp(routers: Array<{ path: string; resource: string; named: boolean }>): string {
  const lines = ["import express from 'express';", "import type { NextFunction, Request, Response } from 'express';"];
  for (const router of routers) {
    const name = `${toCamel(router.resource.split('-'))}Router`;
    const specifier = toRelativeSpecifier('apps/api/src/app.ts', router.path, 'bare');
    lines.push(router.named ? `import { ${name} } from '${specifier}';` : `import ${name} from '${specifier}';`);
  }
  lines.push('', 'export const app = express();', '', 'app.use(express.json());', '');
  for (const router of routers) lines.push(`app.use('/api/${router.resource}', ${toCamel(router.resource.split('-'))}Router);`);
  lines.push(
    '',
    "app.get('/health', (_req: Request, res: Response) => {",
    "  res.json({ status: 'ok', uptime: process.uptime() });",
    '});',
    '',
    'app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {',
    '  res.status(500).json({ error: error.message });',
    '});',
    '',
    "export function startServer(port = Number.parseInt(process.env.PORT ?? '3000', 10)): void {",
    '  app.listen(port);',
    '}',
  );
  return `${lines.join('\n')}\n`;
}

function renderFastify(resource: string, pascal: string, service: PlannedModule | undefined, path: string, rng: Rng): string {
  const lines = ["import type { FastifyInstance } from 'fastify';"];
  const loader = service?.exports.find((entry) => entry.kind === 'function');
  if (service !== undefined && loader !== undefined)
    lines.push(`import { ${loader.name} } from '${chooseSpecifier(path, at(workspacePackages, 6), service, rng)}';`);
  lines.push(
    '',
    `export async function register${pascal}Routes(app: FastifyInstance): Promise<void> {`,
    `  app.get('/v2/${resource}', async () => {`,
    `    return { items: [], total: 0 };`,
    '  });',
    `  app.get<{ Params: { id: string } }>('/v2/${resource}/:id', async (request, reply) => {`,
    '    const id = request.params.id;',
    '    if (id.length === 0) {',
    "      return reply.code(400).send({ error: 'missing id' });",
    '    }',
    loader !== undefined ? `    return ${loader.name}({ id });` : '    return { id };',
    '  });',
    `  app.post('/v2/${resource}', async (request, reply) => {`,
    '    reply.code(201);',
    '    return request.body;',
    '  });',
    '}',
  );
  return `${lines.join('\n')}\n`;
}

function renderHono(resource: string, camel: string): string {
  return [
    "import { Hono } from 'hono';",
    '',
    `export const ${camel}Edge = new Hono();`,
    '',
    `${camel}Edge.get('/edge/${resource}/:id', (c) => {`,
    "  const id = c.req.param('id');",
    "  const limit = Number.parseInt(c.req.query('limit') ?? '20', 10);",
    '  return c.json({ id, limit: Number.isNaN(limit) ? 20 : limit });',
    '});',
    '',
    `${camel}Edge.delete('/edge/${resource}/:id', async (c) => {`,
    `  await fetch(\`https://internal.example.test/${resource}/\${c.req.param('id')}\`, { method: 'DELETE' });`,
    '  return c.body(null, 204);',
    '});',
    '',
  ].join('\n');
}

function renderNextRoute(path: string, resource: string, withId: boolean, service: PlannedModule | undefined, rng: Rng): string {
  const lines = ["import { NextResponse } from 'next/server';"];
  const fn = service?.exports.find((entry) => entry.kind === 'function');
  if (service !== undefined && fn !== undefined)
    lines.push(`import { ${fn.name} } from '${chooseSpecifier(path, at(workspacePackages, 7), service, rng)}';`);
  lines.push('');
  if (withId) {
    lines.push(
      'export async function GET(_request: Request, { params }: { params: { id: string } }): Promise<Response> {',
      fn !== undefined ? `  const record = ${fn.name}({ id: params.id });` : '  const record = { id: params.id };',
      '  return NextResponse.json(record);',
      '}',
      '',
      'export async function DELETE(_request: Request, { params }: { params: { id: string } }): Promise<Response> {',
      '  if (!params.id) {',
      "    return NextResponse.json({ error: 'missing id' }, { status: 400 });",
      '  }',
      '  return new Response(null, { status: 204 });',
      '}',
    );
  } else {
    lines.push(
      'export async function GET(request: Request): Promise<Response> {',
      '  const url = new URL(request.url);',
      "  const page = Number.parseInt(url.searchParams.get('page') ?? '1', 10);",
      `  return NextResponse.json({ resource: '${resource}', page: Number.isNaN(page) ? 1 : page, items: [] });`,
      '}',
      '',
      'export async function POST(request: Request): Promise<Response> {',
      '  const body: unknown = await request.json();',
      "  if (typeof body !== 'object' || body === null) {",
      "    return NextResponse.json({ error: 'invalid body' }, { status: 422 });",
      '  }',
      fn !== undefined
        ? `  return NextResponse.json(${fn.name}(body), { status: 201 });`
        : '  return NextResponse.json(body, { status: 201 });',
      '}',
    );
  }
  return `${lines.join('\n')}\n`;
}

function renderComponent(path: string, pascal: string, service: PlannedModule | undefined, rng: Rng): string {
  const lines = ["import { useEffect, useState } from 'react';"];
  if (service !== undefined)
    lines.push(`import type { ${service.pascal}Record } from '${chooseSpecifier(path, at(workspacePackages, 7), service, rng)}';`);
  const recordType = service !== undefined ? `${service.pascal}Record` : '{ id: string }';
  lines.push(
    '',
    `export interface ${pascal}CardProps {`,
    `  record: ${recordType};`,
    '  onSelect?: (id: string) => void;',
    '}',
    '',
    `export function ${pascal}Card({ record, onSelect }: ${pascal}CardProps) {`,
    '  const [expanded, setExpanded] = useState(false);',
    '  useEffect(() => {',
    '    if (expanded) {',
    '      document.title = `Details ${record.id}`;',
    '    }',
    '  }, [expanded, record.id]);',
    '  return (',
    '    <div className="card" data-id={record.id}>',
    `      <h3>{record.id}</h3>`,
    '      {expanded ? <pre>{JSON.stringify(record, null, 2)}</pre> : null}',
    '      <button type="button" onClick={() => { setExpanded(!expanded); onSelect?.(record.id); }}>',
    "        {expanded ? 'Hide' : 'Show'}",
    '      </button>',
    '    </div>',
    '  );',
    '}',
  );
  return `${lines.join('\n')}\n`;
}

function renderCjsScript(index: number, name: string): string {
  if (index === 0) {
    return [
      "'use strict';",
      "const path = require('node:path');",
      '',
      'function resolveFromRoot(...parts) {',
      "  return path.join(__dirname, '..', ...parts);",
      '}',
      '',
      'function parseFlag(argv, flag, fallback) {',
      '  const index = argv.indexOf(flag);',
      '  return index === -1 ? fallback : argv[index + 1];',
      '}',
      '',
      'module.exports = { resolveFromRoot, parseFlag };',
      '',
    ].join('\n');
  }
  return [
    "'use strict';",
    "const fs = require('node:fs');",
    "const { resolveFromRoot, parseFlag } = require('./shared-helpers.cjs');",
    '',
    `function run${toPascal(name.split('-'))}(argv) {`,
    "  const target = parseFlag(argv, '--out', 'dist');",
    '  const dir = resolveFromRoot(target);',
    '  if (!fs.existsSync(dir)) {',
    '    fs.mkdirSync(dir, { recursive: true });',
    '  }',
    `  fs.writeFileSync(resolveFromRoot(target, '${name}.json'), JSON.stringify({ generatedAt: new Date().toISOString() }));`,
    '}',
    '',
    `module.exports = { run${toPascal(name.split('-'))} };`,
    '',
    'if (require.main === module) {',
    `  run${toPascal(name.split('-'))}(process.argv.slice(2));`,
    '}',
    '',
  ].join('\n');
}

function renderTest(index: number, testPath: string, module: PlannedModule, rng: Rng): string {
  const isMocked = index % 4 === 1;
  const isSkipped = index % 10 === 3;
  const isAssertionFree = index % 10 === 6;
  const specifier = toRelativeSpecifier(testPath, module.path, module.pkg.style);
  const functions = module.exports.filter((entry) => entry.kind === 'function').map((entry) => entry.name);
  const lines = [
    `import { describe, it, expect${isMocked ? ', vi' : ''} } from 'vitest';`,
    `import { ${functions.join(', ')} } from '${specifier}';`,
  ];
  if (isMocked) {
    const dependency = module.targets[0];
    const mocked =
      dependency === undefined
        ? 'node:fs'
        : dependency.pkg === module.pkg
          ? toRelativeSpecifier(testPath, dependency.path, module.pkg.style)
          : dependency.pkg.name;
    lines.push(
      '',
      `vi.mock('${mocked}', () => ({ ${dependency === undefined ? 'readFileSync' : `create${dependency.pascal}`}: vi.fn(() => undefined) }));`,
    );
  }
  lines.push('', `describe('${module.camel}', () => {`);
  const cases = rng.int(2, 6);
  for (let i = 0; i < cases; i += 1) {
    const skip = isSkipped && i === 0 ? '.skip' : '';
    const id = `${module.camel}-${i + 1}`;
    lines.push(`  it${skip}('handles case ${i + 1} for ${module.plural}', () => {`);
    lines.push(`    const record = create${module.pascal}({ id: '${id}', attempts: ${i} });`);
    if (!isAssertionFree) {
      lines.push(`    expect(record.id).toBe('${id}');`, `    expect(record.attempts).toBe(${i});`);
      if (functions.includes(`validate${module.pascal}`)) lines.push(`    expect(validate${module.pascal}(record)).toBe(true);`);
    } else {
      lines.push('    void record;');
    }
    lines.push('  });', '');
  }
  if (!isAssertionFree) {
    lines.push(
      `  it('rejects a ${module.camel} without id', () => {`,
      `    expect(() => create${module.pascal}({})).toThrow('id is required');`,
      '  });',
    );
  }
  lines.push('});');
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Renders the whole synthetic repository as a map of repository-relative path to content, in path order. */
export function renderSyntheticRepo(options: SyntheticOptions): Map<string, string> {
  const total = options.files;
  if (!Number.isInteger(total) || total < minimumSyntheticFiles) {
    throw new RangeError(`synthetic repository needs an integer of at least ${minimumSyntheticFiles} files, got ${total}`);
  }
  const rng = createRng(options.seed ?? 1);
  const names = new NameRegistry();
  const allocation = allocate(total);
  const modules = planModules(allocation, rng, names);
  linkModules(modules, rng);
  const files = new Map<string, string>();
  for (const module of modules) files.set(module.path, renderModule(module, rng));

  const areasByPackage = new Map<WorkspacePackage, string[]>();
  for (const pkg of workspacePackages) {
    const members = modules.filter((module) => module.pkg === pkg && module.area !== undefined);
    const areas = [...new Set(members.map((module) => module.area ?? ''))].sort();
    areasByPackage.set(pkg, areas);
    for (const area of areas) {
      const path = `${pkg.modulesDir}/${area}/index.ts`;
      files.set(
        path,
        renderAreaBarrel(
          path,
          members.filter((module) => module.area === area),
          pkg.style,
        ),
      );
    }
    files.set(`${pkg.srcDir}/index.ts`, renderPackageBarrel(pkg, modules, areas));
    files.set(`${pkg.root}/package.json`, renderPackageJson(pkg));
    files.set(`${pkg.root}/tsconfig.json`, renderPackageTsconfig(pkg));
  }

  const apiServices = modules.filter((module) => module.pkg.name === '@acme/api' || module.pkg.layer < 4);
  const webServices = modules.filter((module) => module.pkg.name === '@acme/web' || module.pkg.layer < 4);
  const resources = new NameRegistry();
  const nextResource = (): string[] => resources.claim([pluralize(rng.pick(nounWords))]);

  const routers: Array<{ path: string; resource: string; named: boolean }> = [];
  const openApiLines: string[] = [];
  for (let i = 0; i < allocation.express; i += 1) {
    const resource = toKebab(nextResource());
    const path = `apps/api/src/routes/${resource}.ts`;
    const named = i % 3 === 2;
    const services = [rng.pick(apiServices), rng.pick(apiServices)].filter((value, index, all) => all.indexOf(value) === index);
    const routes = shuffle([...expressRouteShapes], rng).slice(0, rng.int(2, 5));
    files.set(path, renderExpressRouter(path, resource, services, routes, named, rng));
    routers.push({ path, resource, named });
    const byPath = new Map<string, string[]>();
    for (const route of routes) {
      const fullPath = `/api/${resource}${route.path === '/' ? '' : route.path.replace(/:(\w+)/g, '{$1}')}`;
      byPath.set(fullPath, [...(byPath.get(fullPath) ?? []), route.method]);
    }
    for (const [fullPath, methods] of byPath) {
      openApiLines.push(`  ${fullPath}:`);
      for (const method of methods) {
        const operationId = `${method}${toPascal(resource.split('-'))}${getOperationSuffix(fullPath)}`;
        openApiLines.push(
          `    ${method}:`,
          `      operationId: ${operationId}`,
          '      responses:',
          "        '200':",
          '          description: OK',
        );
      }
    }
  }
  openApiLines.push(
    '  /api/legacy/export:',
    '    get:',
    '      operationId: legacyExport',
    '      responses:',
    "        '200':",
    '          description: OK',
  );
  files.set('apps/api/src/app.ts', renderExpressApp(routers));
  for (let i = 0; i < allocation.fastify; i += 1) {
    const words = nextResource();
    const path = `apps/api/src/fastify/${toKebab(words)}-routes.ts`;
    files.set(path, renderFastify(toKebab(words), toPascal(words), rng.pick(apiServices), path, rng));
  }
  for (let i = 0; i < allocation.hono; i += 1) {
    const words = nextResource();
    files.set(`apps/api/src/edge/${toKebab(words)}.ts`, renderHono(toKebab(words), toCamel(words)));
  }
  let lastNextResource = '';
  for (let i = 0; i < allocation.next; i += 1) {
    const withId = i % 2 === 1;
    if (!withId) lastNextResource = toKebab(nextResource());
    const path = withId ? `apps/web/app/api/${lastNextResource}/[id]/route.ts` : `apps/web/app/api/${lastNextResource}/route.ts`;
    files.set(path, renderNextRoute(path, lastNextResource, withId, rng.pick(webServices), rng));
  }
  const components = new NameRegistry();
  for (let i = 0; i < allocation.components; i += 1) {
    const words = components.claim([rng.pick(qualifierWords), rng.pick(nounWords)]);
    const path = `apps/web/components/${toPascal(words)}Card.tsx`;
    files.set(path, renderComponent(path, toPascal(words), rng.pick(webServices), rng));
  }
  const scripts = new NameRegistry();
  for (let i = 0; i < allocation.cjs; i += 1) {
    const name = i === 0 ? 'shared-helpers' : toKebab(scripts.claim(['build', rng.pick(nounWords)]));
    files.set(`scripts/${name}.cjs`, renderCjsScript(i, name));
  }
  const testable = modules.filter((module) => !module.isHub);
  for (let i = 0; i < allocation.tests; i += 1) {
    const module = at(testable, Math.floor((i * testable.length) / allocation.tests));
    const base = posix.basename(module.path, '.ts');
    const testPath =
      i % 5 === 4 ? `${module.pkg.root}/test/${module.area ?? 'root'}-${base}.test.ts` : `${posix.dirname(module.path)}/${base}.test.ts`;
    files.set(testPath, renderTest(i, testPath, module, rng));
  }
  for (const [path, content] of Object.entries(renderRootFiles(openApiLines))) files.set(path, content);

  if (files.size !== total) throw new Error(`synthetic plan produced ${files.size} files instead of ${total}`);
  return new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const gitEnvironment = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/tmp',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Synthetic Author',
  GIT_AUTHOR_EMAIL: 'synthetic@example.test',
  GIT_COMMITTER_NAME: 'Synthetic Author',
  GIT_COMMITTER_EMAIL: 'synthetic@example.test',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  LANG: 'C',
});

/** Runs git against exactly `dir`'s own repository, never a parent one. */
export function runGit(dir: string, args: string[], env: NodeJS.ProcessEnv = gitEnvironment()): string {
  return execFileSync('git', ['--git-dir', join(dir, '.git'), '--work-tree', dir, ...args], {
    cwd: dir,
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** Writes a deterministic synthetic TypeScript monorepo of exactly `options.files` files into `dir` and commits it. */
export async function generateSyntheticRepo(dir: string, options: SyntheticOptions): Promise<SyntheticSummary> {
  const files = renderSyntheticRepo(options);
  mkdirSync(dir, { recursive: true });
  const made = new Set<string>();
  let bytes = 0;
  for (const [path, content] of files) {
    const full = join(dir, path);
    const parent = dirname(full);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(full, content);
    bytes += Buffer.byteLength(content);
  }
  execFileSync('git', ['init', '-q', '-b', 'main', dir], { env: gitEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
  if (!existsSync(join(dir, '.git'))) throw new Error(`git init did not create ${join(dir, '.git')}`);
  runGit(dir, ['add', '-A']);
  runGit(dir, [
    '-c',
    'commit.gpgsign=false',
    'commit',
    '-q',
    '-m',
    `synthetic repository (${files.size} files, seed ${options.seed ?? 1})`,
  ]);
  return { files: files.size, bytes };
}

function editSource(text: string, ordinal: number, salt: number): string {
  const lines = text.split('\n');
  if (ordinal % 2 === 0) {
    const start = lines.findIndex((line) => /^export (async )?function /.test(line));
    if (start !== -1) {
      for (let i = start + 1; i < lines.length; i += 1) {
        const line = lines[i] ?? '';
        if (line.startsWith('}')) break;
        const match = /^(\s+)return /.exec(line);
        if (match !== null) {
          const indent = match[1] ?? '  ';
          lines.splice(
            i,
            0,
            `${indent}if (Date.now() < ${salt}) {`,
            `${indent}  throw new Error('clock before touch ${salt}');`,
            `${indent}}`,
          );
          return lines.join('\n');
        }
      }
    }
  }
  const suffix = text.endsWith('\n') ? '' : '\n';
  return `${text}${suffix}\nexport function touched${salt}(value: number): number {\n  return value > ${ordinal} ? value * ${salt % 97} : value;\n}\n`;
}

/**
 * Edits `count` tracked TypeScript source files of the repository in `dir` (a new exported function, or a new guard
 * inside an exported function), chosen by `seed`; commits the edit unless `options.commit` is false.
 */
export async function touchFiles(dir: string, count: number, seed: number, options: { commit?: boolean } = {}): Promise<TouchResult> {
  if (!existsSync(join(dir, '.git'))) throw new Error(`${dir} is not the root of a git repository`);
  const candidates = runGit(dir, ['ls-files', '-z'])
    .split('\0')
    .filter((path) => /\.(ts|tsx|mts)$/.test(path) && !/\.d\.[cm]?ts$/.test(path) && !/\.(test|spec)\.[cm]?tsx?$/.test(path))
    .filter((path) => !path.split('/').includes('node_modules'))
    .sort();
  if (candidates.length < count) throw new RangeError(`cannot touch ${count} files: only ${candidates.length} TypeScript sources`);
  const rng = createRng(seed);
  const chosen = shuffle([...candidates], rng)
    .slice(0, count)
    .sort();
  chosen.forEach((path, ordinal) => {
    const full = join(dir, path);
    writeFileSync(full, editSource(readFileSync(full, 'utf8'), ordinal, seed * 1000 + ordinal));
  });
  if (options.commit === false) return { paths: chosen, commit: undefined };
  runGit(dir, ['add', '--', ...chosen]);
  runGit(dir, ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', `touch ${count} files (seed ${seed})`]);
  return { paths: chosen, commit: runGit(dir, ['rev-parse', 'HEAD']) };
}
