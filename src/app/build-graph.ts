import { parseStructuredText } from '../docs/structured.js';
import { compileGlobs } from '../text/glob.js';
import { buildKnowledgeGraph, DEFAULT_GRAPH_LIMITS, type KnowledgeGraph } from '../graph/build.js';
import { extractOpenApiRoutes } from '../graph/openapi.js';
import { createResolver, parsePnpmWorkspacePackages, type Resolver } from '../graph/resolve/index.js';
import type { LoadedConfigData } from '../model/config.js';
import type { Env, ParsedSources } from '../model/env.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { FileFacts, ImportFact, RouteFact } from '../model/facts.js';
import type { CheckInput, GraphFileInput, RepoDocsData } from '../model/graph.js';
import type { Resolution } from '../model/resolve.js';
import type { ScanResult, ScannedFile } from '../model/scan.js';
import { mergeClassifiers } from '../rules/classifiers.js';
import { loadConfig } from './load-config.js';
import { loadRulePacks } from './load-rule-packs.js';
import { loadRepoDocs } from './load-repo-docs.js';
import { readRepoText } from './repo-text.js';

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
const CONFIG_TEXT_LIMIT = 1024 * 1024;
const OPENAPI_TEXT_LIMIT = 4 * 1024 * 1024;
const RESOLVER_CONFIG = /(^|\/)(tsconfig[^/]*\.json|jsconfig\.json)$/;
const PACKAGE_JSON = /(^|\/)package\.json$/;
const STRUCTURED_DOC = /\.(ya?ml|json)$/i;
const NOT_OPENAPI =
  /(^|\/)(package(-lock)?\.json|tsconfig[^/]*\.json|jsconfig\.json|pnpm-lock\.yaml|yarn\.lock|\.eslintrc[^/]*|composer\.json|renovate\.json|\.prettierrc[^/]*)$|(^|\/)(\.github|\.checker|\.agents)\//;
const OPENAPI_MARKER = /^\s*["']?(openapi|swagger)["']?\s*:/m;

export type Timings = Record<'config' | 'scan' | 'parse' | 'resolve' | 'docs' | 'build' | 'total', number>;

/** The repository as one knowledge graph, plus everything the build could not see or resolve. */
export interface RepositoryGraph {
  root: string;
  kg: KnowledgeGraph;
  config: LoadedConfigData;
  scan: ScanResult;
  parsed: ParsedSources;
  docs: RepoDocsData;
  /** Per file, the import facts and their resolutions, aligned. */
  resolutions: Map<string, Resolution[]>;
  limitations: Diagnostic[];
  timings: Timings;
}

/**
 * Scans, parses (cached), resolves and builds the knowledge graph of the repository at env.root; `known` hands in a
 * configuration and scan the caller already has (the MCP server's warm graph).
 */
export async function buildRepositoryGraph(
  env: Env,
  known: { config: LoadedConfigData; scan: ScanResult } | undefined = undefined,
): Promise<RepositoryGraph> {
  const clock = createClock(env);
  const config = known?.config ?? (await loadConfig(env));
  clock.lap('config');

  const analysis = config.config.analysis ?? {};
  if (known === undefined) env.reportProgress({ phase: 'scan' });
  const scanned = known?.scan ?? (await env.scan({ maxFileBytes: analysis.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES }));
  const scan = applyConfiguredIgnores(scanned, analysis.ignore ?? []);
  clock.lap('scan');

  // The packs' signal words (built-in and the repository's) decide which identifiers raise auth, pagination and money signals.
  const signalWords = mergeClassifiers((await loadRulePacks(env)).packs).signals;
  const parsed = await env.parseSources(scan.files, { assertionHelpers: [...(analysis.assertionHelpers ?? [])], signalWords });
  clock.lap('parse');

  const paths = scan.files.map((file) => file.path);
  env.reportProgress({ phase: 'resolve', files: paths.length });
  const resolver = await createRepositoryResolver(env, paths);
  const resolutions = resolveAll(resolver, parsed);
  clock.lap('resolve');

  const docs = await loadRepoDocs(env, paths);
  const openApiRoutes = await readOpenApiRoutes(env, scan.files);
  clock.lap('docs');

  const files: GraphFileInput[] = scan.files.map((file) => {
    const entry = parsed.facts.get(file.path);
    return entry === undefined
      ? { path: file.path, size: file.size, hash: '' }
      : { path: file.path, size: file.size, hash: entry.hash, facts: entry.facts };
  });
  env.reportProgress({ phase: 'build', files: files.length });
  const kg = buildKnowledgeGraph(
    {
      files,
      resolutions,
      openApiRoutes: openApiRoutes.routes,
      ...(docs.codeowners === undefined ? {} : { codeowners: docs.codeowners }),
      decisions: docs.decisions,
      memory: docs.memory,
      skills: docs.skills,
      checks: toCheckInputs(config),
      packages: docs.packages,
    },
    { maxElements: analysis.maxGraphElements ?? DEFAULT_GRAPH_LIMITS.maxElements },
  );
  clock.lap('build');
  env.reportProgress({ phase: 'analyse' });

  const limitations = [
    ...config.diagnostics,
    ...scan.skipped.map(
      (skip): Diagnostic => ({
        code: `scan/${skip.reason}`,
        severity: 'warn',
        message: `${skip.path} was not analysed: ${skip.detail}`,
        location: { file: skip.path },
      }),
    ),
    ...parsed.skipped.map(
      (skip): Diagnostic => ({
        code: `scan/${skip.reason}`,
        severity: 'warn',
        message: `${skip.path} was not analysed: ${skip.detail}`,
        location: { file: skip.path },
      }),
    ),
    ...parsed.diagnostics,
    ...resolver.getConfigProblems().map(
      (problem): Diagnostic => ({
        code: 'resolve/config',
        severity: 'warn',
        message: `${problem.path}: ${problem.message}`,
        location: { file: problem.path },
      }),
    ),
    ...openApiRoutes.diagnostics,
    ...docs.diagnostics,
    ...kg.diagnostics,
    ...(kg.routeLimitations ?? []).map(
      (item): Diagnostic => ({
        code: item.code,
        severity: 'warn',
        message: item.message,
        hint:
          item.code === 'routes/unresolved-path'
            ? 'Use a string literal or a constant declared in the repository (a const, a template of consts, an `as const` object member), so the served path can be known.'
            : 'Mount a router that is imported from (or declared in) the repository, so its routes get the prefix.',
        location: { file: item.file, line: item.line },
      }),
    ),
  ];
  return { root: env.root, kg, config, scan, parsed, docs, resolutions, limitations, timings: clock.done() };
}

function createClock(env: Env): { lap(name: keyof Timings): void; done(): Timings } {
  const start = env.now().getTime();
  let last = start;
  const timings: Timings = { config: 0, scan: 0, parse: 0, resolve: 0, docs: 0, build: 0, total: 0 };
  return {
    lap(name) {
      const now = env.now().getTime();
      timings[name] = now - last;
      last = now;
    },
    done() {
      timings.total = last - start;
      return timings;
    },
  };
}

function applyConfiguredIgnores(scan: ScanResult, globs: readonly string[]): ScanResult {
  if (globs.length === 0) return scan;
  const isIgnored = compileGlobs(globs, { dot: true });
  return { ...scan, files: scan.files.filter((file) => !isIgnored(file.path)) };
}

async function createRepositoryResolver(env: Env, paths: string[]): Promise<Resolver> {
  const tsconfigs = new Map<string, string>();
  const packageJsons = new Map<string, string>();
  for (const path of paths) {
    const target = RESOLVER_CONFIG.test(path)
      ? tsconfigs
      : PACKAGE_JSON.test(path) && !path.includes('node_modules/')
        ? packageJsons
        : undefined;
    if (target === undefined) continue;
    const text = await readRepoText(env, path, CONFIG_TEXT_LIMIT);
    if (text !== undefined) target.set(path, text);
  }
  const pnpmText = paths.includes('pnpm-workspace.yaml') ? await readRepoText(env, 'pnpm-workspace.yaml', CONFIG_TEXT_LIMIT) : undefined;
  const pnpmWorkspace = pnpmText === undefined ? {} : { workspaceGlobs: parsePnpmWorkspacePackages(pnpmText) };
  const externalConfigs = new Map<string, string>();
  let resolver = createResolver({ files: new Set(paths), tsconfigs, packageJsons, externalConfigs, ...pnpmWorkspace });
  // `extends` may name configs the scan does not list (node_modules/@tsconfig/…, or a non-tsconfig name):
  // read those that exist and build again, a bounded number of rounds for extends chains.
  for (let round = 0; round < 4; round += 1) {
    const missing = resolver.getMissingConfigs().filter((path) => !externalConfigs.has(path));
    if (missing.length === 0) break;
    let added = 0;
    for (const path of missing) {
      const text = await readRepoText(env, path, CONFIG_TEXT_LIMIT);
      externalConfigs.set(path, text ?? '');
      if (text !== undefined) added += 1;
    }
    if (added === 0) break;
    resolver = createResolver({ files: new Set(paths), tsconfigs, packageJsons, externalConfigs, ...pnpmWorkspace });
  }
  return resolver;
}

function importMode(fact: ImportFact): 'import' | 'require' | undefined {
  return fact.kind === 'require' || fact.kind === 'import-equals' ? 'require' : undefined;
}

/** Resolutions aligned with `facts.imports`, followed by one per mock specifier (the graph resolves mocks from these). */
function resolveAll(resolver: Resolver, parsed: ParsedSources): Map<string, Resolution[]> {
  const resolutions = new Map<string, Resolution[]>();
  const sorted = [...parsed.facts.keys()].sort();
  for (const path of sorted) {
    const facts: FileFacts | undefined = parsed.facts.get(path)?.facts;
    if (facts === undefined) continue;
    const list = facts.imports.map((fact) => resolver.resolve(path, fact.specifier, importMode(fact)));
    for (const mock of facts.mocks) list.push(resolver.resolve(path, mock.specifier));
    resolutions.set(path, list);
  }
  return resolutions;
}

async function readOpenApiRoutes(
  env: Env,
  files: ScannedFile[],
): Promise<{ routes: { path: string; routes: RouteFact[] }[]; diagnostics: Diagnostic[] }> {
  const routes: { path: string; routes: RouteFact[] }[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of files) {
    if (
      !STRUCTURED_DOC.test(file.path) ||
      NOT_OPENAPI.test(file.path) ||
      file.path.includes('node_modules/') ||
      file.size > OPENAPI_TEXT_LIMIT
    )
      continue;
    const text = await readRepoText(env, file.path, OPENAPI_TEXT_LIMIT);
    if (text === undefined || !OPENAPI_MARKER.test(text.slice(0, 4096))) continue;
    try {
      const found = extractOpenApiRoutes(parseStructuredText(file.path, text));
      if (found.length > 0) routes.push({ path: file.path, routes: found });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      diagnostics.push({ code: 'openapi/malformed', severity: 'warn', message, location: { file: file.path } });
    }
  }
  return { routes, diagnostics };
}

function toCheckInputs(config: LoadedConfigData): CheckInput[] {
  const checks = config.config.checks ?? {};
  const source = config.sources[0] ?? 'config';
  return Object.keys(checks)
    .sort()
    .map((name) => {
      const check = checks[name];
      const command = check?.command ?? (check?.argv ?? []).join(' ');
      return { name, command, source };
    });
}
