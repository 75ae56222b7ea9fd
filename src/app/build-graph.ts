import { parseStructuredText } from '../repo-text/structured.js';
import { compileGlobs } from '../text/glob.js';
import { buildKnowledgeGraph, DEFAULT_GRAPH_LIMITS, type KnowledgeGraph } from '../graph/build.js';
import { patchKnowledgeGraph, recallExportTables, toRouteFactsDigest } from '../graph/patch.js';
import { extractOpenApiRoutes } from '../graph/openapi.js';
import { createResolver, parsePnpmWorkspacePackages, type Resolver, type ResolverInput } from '../graph/resolve/index.js';
import type { LoadedConfigData } from '../model/config.js';
import type { Env, FocusRead, FocusSelector, LinkKeys, ParsedSources } from '../model/env.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { type FileFacts, type ImportFact, isPatchableCodeFile, type ParseOptions, type RouteFact, toLinkFacts } from '../model/facts.js';
import { compareText } from '../text/compare-text.js';
import { classifyRole } from '../graph/roles.js';
import type { CheckInput, GraphFileInput, GraphInput, RepoDocsData } from '../model/graph.js';
import type { Resolution } from '../model/resolve.js';
import { describeBuildOutputImports } from './build-output-notes.js';
import type { ScanResult, ScannedFile } from '../model/scan.js';
import { countOf } from '../text/plural.js';
import { mergeClassifiers } from '../rules/classifiers.js';
import { loadConfig } from './load/load-config.js';
import { loadRulePacks } from './load/load-rule-packs.js';
import { loadRepoDocs } from './load/load-repo-docs.js';
import { readRepoText, readRepoTexts } from './load/repo-text.js';
import { describeConfig } from './tree-fingerprint.js';
import { type RecordedRead, recordReads } from './recorded-reads.js';
import {
  isSnapshotSafe,
  isSnapshotSettleable,
  type KeptGraph,
  loadGraphSnapshot,
  saveGraphSnapshot,
  toGraphSnapshotId,
} from './graph-snapshot.js';
import { fromKnowledgeGraphSnapshot, toKnowledgeGraphSnapshot } from '../graph/snapshot.js';
import { createLinkIndex, listImporters, selectFocusedFiles } from '../graph/focus.js';
import type { ConfigProblem } from '../graph/resolve/tsconfig.js';

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
const CONFIG_TEXT_LIMIT = 1024 * 1024;
const OPENAPI_TEXT_LIMIT = 4 * 1024 * 1024;
/** The `openapi:`/`swagger:` key is looked for in a description's first 4,096 characters, at most 4 bytes each. */
const OPENAPI_HEAD_CHARACTERS = 4096;
const OPENAPI_HEAD_BYTES = 4 * OPENAPI_HEAD_CHARACTERS;
const OPENAPI_READS_AT_ONCE = 16;
const RESOLVER_CONFIG = /(^|\/)(tsconfig[^/]*\.json|jsconfig\.json)$/;
/** Bundler configs whose bundles tests may import (build-output.ts). */
const BUNDLER_CONFIG = /(?:^|\/)rollup\.config\.[cm]?[jt]s$/;
const PACKAGE_JSON = /(^|\/)package\.json$/;
const GO_MOD = /(^|\/)go\.mod$/;
const CONFTEST = /(^|\/)conftest\.py$/;
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
  /**
   * Where the knowledge graph came from: built, loaded from the snapshot of an earlier run (graph-snapshot.ts), loaded
   * and patched, or a warm graph patched in memory (`updateRepositoryGraph`).
   */
  source?: 'build' | 'snapshot' | 'patched snapshot' | 'patched';
}

/**
 * Scans, parses (cached), resolves and builds the knowledge graph of the repository at env.root; `known` hands in a
 * configuration and scan the caller already has (the MCP server's warm graph, the analysis memo), with the time that
 * scan began when it is known. An unchanged tree loads the graph kept by an earlier process instead of building it,
 * and a tree edited in a few JS/TS files loads and patches it (graph-snapshot.ts). A `patchable` graph (the MCP
 * server's) may be loaded too and stays patchable, but is never kept: the server does not wait for the write.
 */
export async function buildRepositoryGraph(
  env: Env,
  known: { config: LoadedConfigData; scan: ScanResult; scannedAt?: number } | undefined = undefined,
  options: {
    patchable?: { scannedAt: number };
    focus?: BuildFocus;
    /**
     * A build for a task, with no change (preflight, context): modules are read for their links and words alone, tests
     * and files with framework facts in full (ParseSourcesOptions.moduleLinks); what task grounding ranks by is all there.
     */
    moduleLinks?: boolean;
  } = {},
): Promise<RepositoryGraph> {
  const clock = createClock(env);
  const config = known?.config ?? (await loadConfig(env));
  clock.lap('config');

  const analysis = config.config.analysis ?? {};
  if (known === undefined) env.reportProgress({ phase: 'scan' });
  const scannedAt = known === undefined ? env.now().getTime() : known.scannedAt;
  const scanned = known?.scan ?? (await env.scan({ maxFileBytes: analysis.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES }));
  const scan = applyConfiguredIgnores(scanned, analysis.ignore ?? []);
  clock.lap('scan');

  // The packs' signal words (built-in and the repository's) decide which identifiers raise auth, pagination and money signals.
  const signalWords = mergeClassifiers((await loadRulePacks(env)).packs).signals;
  const snapshotId = toGraphSnapshotId(env, config, scan, signalWords);
  let markStarted: (files: number) => void = () => undefined;
  const started = new Promise<number>((resolve) => {
    markStarted = resolve;
  });
  const paths = scan.files.map((file) => file.path);
  const parseOptions = {
    assertionHelpers: [...(analysis.assertionHelpers ?? [])],
    signalWords,
    maxFileBytes: analysis.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
  };
  let early: BuildInputs | undefined;
  const focused =
    options.focus === undefined || options.patchable !== undefined || analysis.coldParse === 'full'
      ? undefined
      : createFocusedParse(() => early?.resolver ?? createRepositoryResolver(env, paths), options.focus);
  const moduleLinks = options.moduleLinks === true && analysis.coldParse !== 'full';
  const parsing = env.parseSources(scan.files, {
    ...parseOptions,
    onStarted: markStarted,
    ...(focused === undefined ? {} : { focus: focused.select }),
    ...(moduleLinks && focused === undefined ? { moduleLinks: { isTest: (path: string) => classifyRole(path) === 'test' } } : {}),
  });
  // The kept graph does not depend on the parse: after a few edits it is read (and its JSON parsed) while the parse
  // children work on the edited files, once they have them. Whether it may stand for this run is asked below, when
  // the parse has answered; a run reading more files than a patch takes reads it after, if at all.
  const reading = await Promise.race([started, parsing.then(noop, noop)]);
  options.focus?.onParseStarted?.();
  const maxPatched = maxPatchedFiles(scan.files.length);
  const keptRead =
    snapshotId === undefined || reading === undefined || reading > maxPatched
      ? undefined
      : loadGraphSnapshot(env, snapshotId, scan, (touched) => touched.length <= maxPatched).catch(() => undefined);
  // A run reading more files than a patch takes builds the graph (unless they all hash as before): the resolver, the
  // documents and the OpenAPI routes do not depend on the parse, so they are read while the children parse.
  if (reading !== undefined && reading > maxPatched) early = readBuildInputs(env, paths, scan.files);
  focused?.prime();
  const parsed = await parsing;
  clock.lap('parse');
  // A focused cold run leaves the files that hold no key of the change unscanned: with their imports unknown, no graph
  // of them is kept. Files read for their links alone are kept (GraphSnapshotData.linkOnly), as the facts cache keeps them.
  const linksKnown = (parsed.unlinked?.size ?? 0) === 0;
  /** The files a focused run read in full after the parse (readFocusInFull): what they parsed counts as parsed. */
  const completions: ParsedSources[] = [];
  const complete = async (resolutions: ReadonlyMap<string, readonly Resolution[]>): Promise<void> => {
    if (options.focus === undefined || !linksKnown) return;
    const read = await readFocusInFull(env, scan, parsed, resolutions, options.focus, parseOptions);
    if (read !== undefined) completions.push(read);
  };
  /** Whether the files read after the parse allow what the parse alone allowed: nothing crashed, nothing to redact, few. */
  const isCompletionKeepable = (): boolean =>
    completions.every((read) => read.stats.crashed === 0 && (read.stats.parsed === 0 || read.unclean?.size === 0)) &&
    completions.reduce((total, read) => total + read.stats.parsed, parsed.stats.parsed) <= maxPatched;

  const graphLimits = { maxElements: analysis.maxGraphElements ?? DEFAULT_GRAPH_LIMITS.maxElements };
  // Written only by a run whose facts all came from the facts cache, and whose tree no edit can race. The tree is the
  // scan after `analysis.ignore` (the configuration is in the id): an ignored file never reaches the graph.
  const mayKeep =
    snapshotId !== undefined &&
    options.patchable === undefined &&
    parsed.stats.parsed === 0 &&
    parsed.stats.crashed === 0 &&
    (parsed.unclean?.size ?? 0) === 0 &&
    linksKnown &&
    scannedAt !== undefined &&
    isSnapshotSafe(scan, scannedAt);
  // A build from the facts cache may keep its graph also after an edit: the files parsed in this run held nothing it redacts
  // (their facts are the cache's as they are), and those modified too close to the scan are kept unsettled, for the
  // next run to hash and patch in. Without it every `ai` after an edit built the whole graph (outline: 5.8 s).
  const mayKeepBuilt =
    snapshotId !== undefined &&
    options.patchable === undefined &&
    parsed.stats.crashed === 0 &&
    linksKnown &&
    scannedAt !== undefined &&
    (parsed.stats.parsed === 0
      ? (parsed.unclean?.size ?? 0) === 0
      : parsed.stats.cached > 0 && parsed.stats.parsed <= maxPatched && parsed.unclean?.size === 0) &&
    // A focused parse's resolver read the tree unrecorded: what it read outside the scan could not be asked again.
    (early !== undefined || focused?.resolver === undefined) &&
    isSnapshotSettleable(scan, scannedAt);
  // A snapshot stands for facts from the facts cache: only the touched files may have been parsed in this run.
  const accepts = (touched: readonly string[]): boolean =>
    parsed.stats.crashed === 0 && linksKnown && parsed.stats.parsed <= touched.length && touched.length <= maxPatched;
  let kept: KeptGraph | undefined;
  if (keptRead !== undefined) {
    const read = await keptRead;
    kept = read !== undefined && accepts(read.touched) ? read : undefined;
  } else if (snapshotId !== undefined) {
    kept = await loadGraphSnapshot(env, snapshotId, scan, accepts);
  }
  if (kept !== undefined) {
    env.reportProgress({ phase: 'build', files: paths.length });
    const loaded = await fromSnapshot(
      env,
      kept,
      config,
      scan,
      parsed,
      { ...graphLimits, maxPatched },
      options.patchable !== undefined,
      complete,
    );
    if (loaded !== undefined) {
      clock.lap('build');
      env.reportProgress({ phase: 'analyse' });
      const { repository, configProblems, reads, resolver } = loaded;
      if (mayKeep && completions.length === 0 && snapshotId !== undefined && loaded.stale) {
        await saveGraphSnapshot(env, snapshotId, reads, scan, {
          graph: toKnowledgeGraphSnapshot(repository.kg),
          resolutions: [...repository.resolutions],
          docs: repository.docs,
          openApiRoutes: kept.data.openApiRoutes,
          configProblems,
          routeDigests: toRouteDigests(parsed),
          ...toLinkOnlyList(parsed),
        });
      }
      const limitations = listLimitations(
        config,
        scan,
        parsed,
        configProblems,
        kept.data.openApiRoutes.diagnostics,
        repository.docs,
        repository.kg,
        repository.resolutions,
      );
      const result: RepositoryGraph = { root: env.root, ...repository, config, scan, parsed, limitations, timings: clock.done() };
      if ((parsed.linkOnly?.size ?? 0) > 0) focusStates.set(result, parseOptions);
      if (options.patchable !== undefined && resolver !== undefined) {
        const openApiRoutes = kept.data.openApiRoutes;
        updateStates.set(result, { resolver, openApiRoutes, scannedAt: options.patchable.scannedAt, signalWords, scanned });
      }
      return result;
    }
  }
  const recorded = mayKeepBuilt ? (early?.recorded ?? recordReads(env)) : undefined;
  const buildEnv = recorded?.env ?? env;

  env.reportProgress({ phase: 'resolve', files: paths.length });
  const resolver = await (early?.resolver ?? focused?.resolver ?? createRepositoryResolver(buildEnv, paths));
  const resolutions = resolveAll(resolver, parsed, focused?.resolved);
  clock.lap('resolve');
  await complete(resolutions);

  const docs = await (early?.docs ?? loadRepoDocs(buildEnv, paths));
  const openApiRoutes = await (early?.openApiRoutes ?? readOpenApiRoutes(buildEnv, scan.files));
  clock.lap('docs');

  const files = toGraphFiles(scan, parsed);
  env.reportProgress({ phase: 'build', files: files.length });
  const kg = buildKnowledgeGraph(toGraphInput(config, files, resolutions, docs, openApiRoutes.routes), graphLimits, {
    patchable: options.patchable !== undefined,
  });
  clock.lap('build');
  env.reportProgress({ phase: 'analyse' });
  const configProblems = resolver.getConfigProblems();
  const limitations = listLimitations(config, scan, parsed, configProblems, openApiRoutes.diagnostics, docs, kg, resolutions);
  if (recorded !== undefined && snapshotId !== undefined && isCompletionKeepable()) {
    await saveGraphSnapshot(
      env,
      snapshotId,
      recorded.log.reads.values(),
      scan,
      {
        graph: toKnowledgeGraphSnapshot(kg),
        resolutions: [...resolutions],
        docs,
        openApiRoutes,
        configProblems,
        routeDigests: toRouteDigests(parsed),
        ...toLinkOnlyList(parsed),
      },
      scannedAt,
    );
  }
  const repository: RepositoryGraph = {
    root: env.root,
    kg,
    config,
    scan,
    parsed,
    docs,
    resolutions,
    limitations,
    timings: clock.done(),
    source: 'build',
  };
  if ((parsed.linkOnly?.size ?? 0) > 0) focusStates.set(repository, parseOptions);
  if (options.patchable !== undefined) {
    updateStates.set(repository, { resolver, openApiRoutes, scannedAt: options.patchable.scannedAt, signalWords, scanned });
  }
  return repository;
}

/** By path, the digest of what routes are made of in each file's facts: a later patch of the kept graph compares it. */
function toRouteDigests(parsed: ParsedSources): [string, string][] {
  return [...parsed.facts].map(([path, entry]) => [path, toRouteFactsDigest(entry.facts)]);
}

/** MAX_PATCHED_FILES, or a tenth of the files when that is more. */
function maxPatchedFiles(files: number): number {
  return Math.max(MAX_PATCHED_FILES, files / 10);
}

/**
 * The graph a snapshot holds, over this run's facts, patched for the files whose facts differ from those it was built
 * from (their imports resolved again); undefined when it does not hold together (the caller builds). A `patchable`
 * graph (the MCP server's) keeps what later patches need, its resolver among it.
 */
async function fromSnapshot(
  env: Env,
  kept: KeptGraph,
  config: LoadedConfigData,
  scan: ScanResult,
  parsed: ParsedSources,
  /** `maxPatched`: past this many files to patch (edited, or read in full since the graph was kept), the caller builds. */
  limits: { maxElements: number; maxPatched: number },
  patchable: boolean,
  /** Reads in full the link-only files the change needs (readFocusInFull), over the resolutions the graph is made of. */
  complete: (resolutions: ReadonlyMap<string, readonly Resolution[]>) => Promise<void>,
): Promise<
  | {
      repository: Pick<RepositoryGraph, 'kg' | 'docs' | 'resolutions' | 'source'>;
      configProblems: ConfigProblem[];
      /** The resolver of this tree, made when files were patched or the graph is patchable. */
      resolver: Resolver | undefined;
      reads: RecordedRead[];
      /** The tree is not the one the snapshot was made of: a run that may keep it writes it anew. */
      stale: boolean;
    }
  | undefined
> {
  const { data } = kept;
  const resolutions = new Map(data.resolutions);
  const graphFiles = toGraphFiles(scan, parsed);
  const keptHashes = new Map<string, string>();
  for (let index = 0; index < data.graph.ids.length; index += 1) {
    const node = data.graph.nodes[index];
    if (node?.kind === 'file') keptHashes.set(node.path, node.hash);
  }
  const changed = new Set(graphFiles.filter((file) => keptHashes.get(file.path) !== file.hash).map((file) => file.path));
  let configProblems = data.configProblems;
  let reads = kept.reads;
  let resolver: Resolver | undefined;
  if (changed.size > 0 || patchable) {
    const recorded = recordReads(env);
    resolver = await createRepositoryResolver(
      recorded.env,
      scan.files.map((file) => file.path),
    );
    for (const file of graphFiles) {
      if (!changed.has(file.path)) continue;
      if (file.facts === undefined) resolutions.delete(file.path);
      else resolutions.set(file.path, resolveFile(resolver, file.path, file.facts));
    }
    configProblems = resolver.getConfigProblems();
    reads = [...kept.reads, ...recorded.log.reads.values()];
  }
  await complete(resolutions);
  // A file the graph holds with its links alone that is read in full now (here, or by an earlier run since the graph was
  // kept) is patched in with the same hash: its tests and the rest of its facts join the graph.
  const linkOnly = parsed.linkOnly ?? new Set<string>();
  const completed = (data.linkOnly ?? []).filter((path) => !linkOnly.has(path) && parsed.facts.has(path) && !changed.has(path));
  for (const path of completed) changed.add(path);
  if (changed.size > limits.maxPatched) return undefined;
  const files = toGraphFiles(scan, parsed);
  const input = toGraphInput(config, files, resolutions, data.docs, data.openApiRoutes.routes);
  // Loaded with the facts it was made of (when the facts cache still held them), the graph tells the patch which
  // exposed names the edits moved; otherwise the patch takes every barrel they reach as changed in every name.
  const previous = new Map(parsed.previous);
  for (const path of completed) {
    const entry = parsed.facts.get(path);
    if (entry !== undefined) previous.set(path, { hash: entry.hash, facts: toLinkFacts(entry.facts) });
  }
  const earlier = changed.size > 0 ? toEarlierFiles(files, changed, keptHashes, previous) : undefined;
  const loadInput =
    earlier === undefined ? input : toGraphInput(config, earlier, new Map(data.resolutions), data.docs, data.openApiRoutes.routes);
  try {
    // The MCP server's graph (`patchable`) is walked on every call and patched in place between them: graphology at
    // once. A CLI run's stays the snapshot's lists, patched and queried as they are.
    const kg = fromKnowledgeGraphSnapshot(data.graph, loadInput, limits, {
      patchable: changed.size > 0 || patchable,
      store: patchable ? 'graphology' : 'lists',
      isBuiltFromFacts: changed.size === 0 || earlier !== undefined,
      ...(data.routeDigests === undefined ? {} : { routeDigests: new Map(data.routeDigests) }),
    });
    if (earlier !== undefined) recallExportTables(kg, changed);
    if (changed.size > 0 && !patchKnowledgeGraph(kg, input, changed)) return undefined;
    return {
      repository: { kg, docs: data.docs, resolutions, source: changed.size > 0 ? 'patched snapshot' : 'snapshot' },
      configProblems,
      resolver,
      reads,
      stale: kept.touched.length > 0 || completed.length > 0,
    };
  } catch {
    return undefined;
  }
}

/**
 * `files` with each changed file as the kept graph saw it (its earlier facts, from `previous`), or undefined when one
 * of them has no earlier facts of the hash the graph holds.
 */
function toEarlierFiles(
  files: GraphFileInput[],
  changed: ReadonlySet<string>,
  keptHashes: ReadonlyMap<string, string>,
  previous: ParsedSources['previous'],
): GraphFileInput[] | undefined {
  const earlier: GraphFileInput[] = [];
  for (const file of files) {
    if (!changed.has(file.path)) {
      earlier.push(file);
      continue;
    }
    const before = previous?.get(file.path);
    if (before === undefined || before.hash !== keptHashes.get(file.path)) return undefined;
    earlier.push({ ...file, hash: before.hash, facts: before.facts });
  }
  return earlier;
}

const noop = (): void => undefined;

/** Past this many changed files (or a tenth of the files, if more) a patch is no cheaper than a build. */
const MAX_PATCHED_FILES = 256;

interface UpdateState {
  resolver: Resolver;
  openApiRoutes: { routes: { path: string; routes: RouteFact[] }[]; diagnostics: Diagnostic[] };
  /** When the scan the graph was built from began. */
  scannedAt: number;
  signalWords: ParseOptions['signalWords'];
  /** That scan before `analysis.ignore`. */
  scanned: ScanResult;
}

/** What `updateRepositoryGraph` needs from a build made `patchable`: the live graph is the only one kept. */
const updateStates = new WeakMap<RepositoryGraph, UpdateState>();

/**
 * The graph of the working tree after some JS/TS files changed, patched from `previous` (built `patchable`) instead of
 * built again: unchanged files keep their facts and resolutions, documents and OpenAPI routes are reused, only the
 * changed files are read and parsed, and the knowledge graph is patched in place (src/graph/patch.ts). The result is
 * what `buildRepositoryGraph` would give for the same tree (test/app/update-graph.test.ts), and is patchable in turn.
 * Undefined, with `previous` untouched, when a patch cannot stand for a build: another configuration, files added,
 * removed or newly skipped, a changed file that is not JS/TS (documents, tsconfig, package.json, packs), or too many.
 * After a patch, `previous` shares the patched graph and must not be used again.
 */
export async function updateRepositoryGraph(
  env: Env,
  previous: RepositoryGraph,
  known: { config: LoadedConfigData; scan: ScanResult; scannedAt: number },
): Promise<RepositoryGraph | undefined> {
  const state = updateStates.get(previous);
  if (state === undefined || describeConfig(known.config) !== describeConfig(previous.config)) return undefined;
  const clock = createClock(env);
  clock.lap('config');
  const config = previous.config;
  const analysis = config.config.analysis ?? {};
  const scan = applyConfiguredIgnores(known.scan, analysis.ignore ?? []);
  const touched = findTouchedFiles(previous.scan, scan, state.scanned, known.scan);
  if (touched === undefined || touched.length > maxPatchedFiles(scan.files.length)) return undefined;
  clock.lap('scan');

  const parsed = await env.parseSources(
    scan.files,
    {
      assertionHelpers: [...(analysis.assertionHelpers ?? [])],
      signalWords: state.signalWords,
      maxFileBytes: analysis.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    },
    { files: previous.scan.files, parsed: previous.parsed, scannedAt: state.scannedAt },
  );
  const changed = new Set(touched.filter((path) => parsed.facts.get(path)?.hash !== previous.parsed.facts.get(path)?.hash));
  clock.lap('parse');

  const resolutions = new Map<string, Resolution[]>();
  for (const path of [...parsed.facts.keys()].sort()) {
    const facts = parsed.facts.get(path)?.facts;
    const kept = changed.has(path) ? undefined : previous.resolutions.get(path);
    if (kept !== undefined) resolutions.set(path, kept);
    else if (facts !== undefined) resolutions.set(path, resolveFile(state.resolver, path, facts));
  }
  clock.lap('resolve');
  clock.lap('docs');

  const files = toGraphFiles(scan, parsed);
  const input = toGraphInput(config, files, resolutions, previous.docs, state.openApiRoutes.routes);
  if (changed.size > 0 && !patchKnowledgeGraph(previous.kg, input, changed)) return undefined;
  clock.lap('build');
  const kg = previous.kg;
  const limitations = listLimitations(
    config,
    scan,
    parsed,
    state.resolver.getConfigProblems(),
    state.openApiRoutes.diagnostics,
    previous.docs,
    kg,
    resolutions,
  );
  const repository: RepositoryGraph = {
    ...previous,
    scan,
    parsed,
    resolutions,
    limitations,
    timings: clock.done(),
    source: changed.size > 0 ? 'patched' : previous.source,
  };
  updateStates.delete(previous);
  updateStates.set(repository, { ...state, scannedAt: known.scannedAt, scanned: known.scan });
  const focus = focusStates.get(previous);
  if (focus !== undefined && (parsed.linkOnly?.size ?? 0) > 0) focusStates.set(repository, focus);
  return repository;
}

/** Paths whose stat changed, when nothing else did (the same files, the same skipped ones) and all are JS/TS. */
function findTouchedFiles(
  before: ScanResult,
  after: ScanResult,
  scannedBefore: ScanResult,
  scannedAfter: ScanResult,
): string[] | undefined {
  if (before.files.length !== after.files.length) return undefined;
  if (JSON.stringify(scannedBefore.skipped) !== JSON.stringify(scannedAfter.skipped)) return undefined;
  if (JSON.stringify(scannedBefore.trackedLocalState ?? []) !== JSON.stringify(scannedAfter.trackedLocalState ?? [])) return undefined;
  const touched: string[] = [];
  for (let index = 0; index < after.files.length; index += 1) {
    const old = before.files[index];
    const now = after.files[index];
    if (old === undefined || now === undefined || old.path !== now.path) return undefined;
    if (old.size === now.size && old.mtimeMs === now.mtimeMs && old.ino === now.ino) continue;
    if (!isPatchableCodeFile(now.path)) return undefined;
    touched.push(now.path);
  }
  return touched;
}

function toGraphFiles(scan: ScanResult, parsed: ParsedSources): GraphFileInput[] {
  return scan.files.map((file) => {
    const entry = parsed.facts.get(file.path);
    return entry === undefined
      ? { path: file.path, size: file.size, hash: '' }
      : { path: file.path, size: file.size, hash: entry.hash, facts: entry.facts };
  });
}

function toGraphInput(
  config: LoadedConfigData,
  files: GraphFileInput[],
  resolutions: Map<string, Resolution[]>,
  docs: RepoDocsData,
  openApiRoutes: { path: string; routes: RouteFact[] }[],
): GraphInput {
  return {
    files,
    resolutions,
    openApiRoutes,
    ...(docs.codeowners === undefined ? {} : { codeowners: docs.codeowners }),
    decisions: docs.decisions,
    memory: docs.memory,
    skills: docs.skills,
    checks: toCheckInputs(config),
    packages: docs.packages,
  };
}

function listLimitations(
  config: LoadedConfigData,
  scan: ScanResult,
  parsed: ParsedSources,
  configProblems: readonly ConfigProblem[],
  openApiDiagnostics: Diagnostic[],
  docs: RepoDocsData,
  kg: KnowledgeGraph,
  resolutions: ReadonlyMap<string, readonly Resolution[]>,
): Diagnostic[] {
  return [
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
    ...configProblems.map(
      (problem): Diagnostic => ({
        code: 'resolve/config',
        severity: 'warn',
        message: `${problem.path}: ${problem.message}`,
        location: { file: problem.path },
      }),
    ),
    ...openApiDiagnostics,
    ...describeBuildOutputImports(resolutions),
    ...describeGoWithoutModule(scan, resolutions),
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
}

/**
 * Go packages and no go.mod anywhere (a tree from before Go modules, golang-jwt's early history): the module path is
 * unknown, so an import of one of the repository's own packages by path reads as an external module, and the tests of
 * an `X_test` package that import X, or another package that imports it, do not reach it. Said once, when any Go file
 * imports a path checker could not tell from an external module.
 */
function describeGoWithoutModule(scan: ScanResult, resolutions: ReadonlyMap<string, readonly Resolution[]>): Diagnostic[] {
  if (!scan.files.some((file) => file.path.endsWith('.go')) || scan.files.some((file) => /(?:^|\/)go\.mod$/.test(file.path))) return [];
  let imports = 0;
  for (const [path, list] of resolutions) {
    if (path.endsWith('.go')) imports += list.filter((resolution) => resolution.kind === 'external').length;
  }
  if (imports === 0) return [];
  return [
    {
      code: 'resolve/go-no-module',
      severity: 'warn',
      message: `The repository has Go packages and no go.mod, so every Go import by path is read as an external module (${countOf(imports, 'such import')}): a package of this repository imported by path (an X_test package importing X included) is not reached through them.`,
      hint: 'Add a go.mod that declares the module path (`go mod init <path>`).',
    },
  ];
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
  const goModules = new Map<string, string>();
  const conftests = new Map<string, string>();
  const bundlerConfigs = new Map<string, string>();
  const configs = paths.filter(
    (path) =>
      RESOLVER_CONFIG.test(path) ||
      ((PACKAGE_JSON.test(path) || GO_MOD.test(path) || CONFTEST.test(path) || BUNDLER_CONFIG.test(path)) &&
        !path.includes('node_modules/')),
  );
  const texts = await readRepoTexts(env, configs, CONFIG_TEXT_LIMIT);
  configs.forEach((path, index) => {
    const text = texts[index];
    if (text === undefined) return;
    if (RESOLVER_CONFIG.test(path)) tsconfigs.set(path, text);
    else if (GO_MOD.test(path)) goModules.set(path, text);
    else if (CONFTEST.test(path)) conftests.set(path, text);
    else if (BUNDLER_CONFIG.test(path)) bundlerConfigs.set(path, text);
    else packageJsons.set(path, text);
  });
  const pnpmText = paths.includes('pnpm-workspace.yaml') ? await readRepoText(env, 'pnpm-workspace.yaml', CONFIG_TEXT_LIMIT) : undefined;
  const pnpmWorkspace = pnpmText === undefined ? {} : { workspaceGlobs: parsePnpmWorkspacePackages(pnpmText) };
  const externalConfigs = new Map<string, string>();
  // The external configs are read into the same map between rounds: each round's resolver sees what the last one missed.
  const input: ResolverInput = {
    files: new Set(paths),
    tsconfigs,
    packageJsons,
    externalConfigs,
    goModules,
    conftests,
    bundlerConfigs,
    ...pnpmWorkspace,
  };
  let resolver = createResolver(input);
  // `extends` may name configs the scan does not list (node_modules/@tsconfig/…, or a non-tsconfig name):
  // read those that exist and build again, a bounded number of rounds for extends chains.
  for (let round = 0; round < 4; round += 1) {
    const missing = resolver.getMissingConfigs().filter((path) => !externalConfigs.has(path));
    if (missing.length === 0) break;
    let added = 0;
    const found = await readRepoTexts(env, missing, CONFIG_TEXT_LIMIT);
    missing.forEach((path, index) => {
      const text = found[index];
      externalConfigs.set(path, text ?? '');
      if (text !== undefined) added += 1;
    });
    if (added === 0) break;
    resolver = createResolver(input);
  }
  return resolver;
}

function importMode(fact: ImportFact): 'import' | 'require' | undefined {
  return fact.kind === 'require' || fact.kind === 'import-equals' ? 'require' : undefined;
}

/**
 * Resolutions aligned with `facts.imports`, followed by one per mock specifier (the graph resolves mocks from these);
 * `known` holds some already made for the very facts objects of this parse.
 */
function resolveAll(resolver: Resolver, parsed: ParsedSources, known?: ReadonlyMap<FileFacts, Resolution[]>): Map<string, Resolution[]> {
  const resolutions = new Map<string, Resolution[]>();
  const sorted = [...parsed.facts.keys()].sort();
  for (const path of sorted) {
    const facts: FileFacts | undefined = parsed.facts.get(path)?.facts;
    if (facts !== undefined) resolutions.set(path, known?.get(facts) ?? resolveFile(resolver, path, facts));
  }
  return resolutions;
}

/** What a build reads besides the facts, read through `recorded` (its reads are the kept graph's to check). */
interface BuildInputs {
  recorded: ReturnType<typeof recordReads>;
  resolver: Promise<Resolver>;
  docs: Promise<RepoDocsData>;
  openApiRoutes: ReturnType<typeof readOpenApiRoutes>;
}

function readBuildInputs(env: Env, paths: string[], files: ScannedFile[]): BuildInputs {
  const recorded = recordReads(env);
  const inputs = {
    recorded,
    resolver: createRepositoryResolver(recorded.env, paths),
    docs: loadRepoDocs(recorded.env, paths),
    openApiRoutes: readOpenApiRoutes(recorded.env, files),
  };
  // Awaited only by a run that builds: a failure is thrown there, never left unhandled here.
  for (const promise of [inputs.resolver, inputs.docs, inputs.openApiRoutes]) promise.catch(noop);
  return inputs;
}

/** What a focused build needs from its caller: the paths of the change, asked only when the parse is focused. */
export interface BuildFocus {
  changedPaths: () => Promise<readonly string[]>;
  /** Called once the parse children have their first files: what the caller reads meanwhile no longer delays them. */
  onParseStarted?: () => void;
  /** FocusSelector.alsoInFull: what the analysis reads in full after the build (completeFacts). */
  alsoInFull?: (read: FocusRead) => Promise<readonly string[]>;
}

/** A focused parse: its selector, and the resolver and resolutions it made on the way, kept for the build. */
interface FocusedParse {
  select: FocusSelector;
  /** The build has its resolver on the way: the first keys may be derived once the parse asks for them. */
  prime(): void;
  resolver?: Promise<Resolver>;
  resolved: Map<FileFacts, Resolution[]>;
}

/**
 * The focus of a run with no facts cache (ParseSourcesOptions.focus). The first pass scans for links only the files
 * whose text holds a key of a changed file (derived once the parse asks and the build is primed). Each step resolves
 * what was read, walks the importers of the change, applies their keys (src/io/parse-files.ts tests the files left
 * unread against those they were not tested against) and names the files an analysis of the change reads in full
 * (src/graph/focus.ts); parse-files scans those never scanned, and parses them once no test or scan is left.
 */
function createFocusedParse(getResolver: () => Promise<Resolver>, focus: BuildFocus): FocusedParse {
  let known = false;
  const applied = { words: [] as string[], seen: new Set<string>(), dots: false };
  const apply = (keys: LinkKeys): void => {
    for (const word of keys.words) {
      if (applied.seen.has(word)) continue;
      applied.seen.add(word);
      applied.words.push(word);
    }
    applied.dots ||= keys.dots;
  };
  let changedKeys: Promise<{ resolver: Resolver; changed: readonly string[] }> | undefined;
  const index = createLinkIndex();
  /** The files whose keys are applied. */
  const keyed = new Set<string>();
  const start = (): Promise<{ resolver: Resolver; changed: readonly string[] }> => {
    state.resolver ??= getResolver();
    changedKeys ??= Promise.all([state.resolver, focus.changedPaths()]).then(([resolver, changed]) => {
      for (const path of changed) {
        keyed.add(path);
        apply(resolver.getLinkKeys(path));
      }
      known = true;
      return { resolver, changed };
    });
    return changedKeys;
  };
  // The keys are derived once the parse asks for them (it is focused: no facts cache) and the caller has the build's
  // resolver on its way (prime): a run that parses from its cache, or loads the kept graph, never creates one.
  let asked = false;
  let primed = false;
  const startOnceAsked = (): void => {
    if (asked && primed) void start().catch(noop);
  };
  const state: FocusedParse = {
    resolved: new Map(),
    prime: () => {
      primed = true;
      startOnceAsked();
    },
    select: {
      firstKeys: () => {
        asked = true;
        startOnceAsked();
        return known ? { words: [...applied.words], dots: applied.dots } : undefined;
      },
      step: async ({ facts, linkOnly, unlinked }) => {
        const { resolver, changed } = await start();
        for (const [path, entry] of facts) {
          if (unlinked.has(path) || state.resolved.has(entry.facts)) continue;
          const resolved = resolveFile(resolver, path, entry.facts);
          state.resolved.set(entry.facts, resolved);
          index.set(path, resolved);
        }
        const seeds = toFocusSeeds(changed, facts, linkOnly);
        // What is read so far names part of the reach at least: its files' keys, and the files it needs in full.
        for (const path of listImporters(index, seeds)) {
          if (keyed.has(path)) continue;
          keyed.add(path);
          apply(resolver.getLinkKeys(path));
        }
        return {
          keys: { words: [...applied.words], dots: applied.dots },
          parse: selectFocusedFiles({ facts, linkOnly, links: index, changed: seeds }),
        };
      },
      ...(focus.alsoInFull === undefined ? {} : { alsoInFull: focus.alsoInFull }),
    },
  };
  return state;
}

/**
 * Where a focused run's reach starts: the change's paths, and every file read in full that makes HTTP calls (it may call
 * a route the change reaches, build-routes.ts links them after the parse, so its importers are reached as the change's
 * are; such a file is never read for its links alone, framework-hints.ts).
 */
function toFocusSeeds(
  changed: readonly string[],
  facts: ReadonlyMap<string, { facts: FileFacts }>,
  linkOnly: ReadonlySet<string>,
): string[] {
  const seeds = [...changed];
  for (const [path, entry] of facts) if ((entry.facts.httpCalls?.length ?? 0) > 0 && !linkOnly.has(path)) seeds.push(path);
  return seeds;
}

/**
 * A focused run that took link entries from its facts cache (the runs after a focused cold run, parse-files.ts'
 * link mode `focus`): the files among `parsed.linkOnly` an analysis of the change reads in full (selectFocusedFiles, walked
 * over `resolutions`, those of the graph), parsed now and put in `parsed` in place, as a focused cold run parses them
 * before its build. The cache keeps them in full from then on. Undefined when none is needed.
 */
async function readFocusInFull(
  env: Env,
  scan: ScanResult,
  parsed: ParsedSources,
  resolutions: ReadonlyMap<string, readonly Resolution[]>,
  focus: BuildFocus,
  options: ParseOptions & { maxFileBytes: number },
  /** Leave a file edited since the graph's scan as `parsed` holds it (asHeldOnly): the MCP server's live graph. */
  live = false,
): Promise<ParsedSources | undefined> {
  const linkOnly = parsed.linkOnly;
  if (linkOnly === undefined || linkOnly.size === 0) return undefined;
  const index = createLinkIndex();
  for (const [path, list] of resolutions) index.set(path, list);
  const changed = await focus.changedPaths();
  const wanted = new Set(
    selectFocusedFiles({ facts: parsed.facts, linkOnly, links: index, changed: toFocusSeeds(changed, parsed.facts, linkOnly) }),
  );
  if (wanted.size === 0) return undefined;
  const read = await env.parseSources(
    scan.files.filter((file) => wanted.has(file.path)),
    { ...options, pruneCache: false },
  );
  mergeRead(parsed, live ? asHeldOnly(parsed, read) : read);
  return read;
}

/**
 * `read` without the files whose text is no longer the one `parsed` holds their link facts of (edited since the
 * graph's scan): a live graph keeps them as they are, and its next update reads them as changed and resolves their
 * imports again (new facts over the old resolutions would join edges the file no longer has).
 */
function asHeldOnly(parsed: ParsedSources, read: ParsedSources): ParsedSources {
  const edited = new Set([...read.facts].filter(([path, entry]) => entry.hash !== parsed.facts.get(path)?.hash).map(([path]) => path));
  for (const path of edited) read.facts.delete(path);
  read.diagnostics = read.diagnostics.filter((diagnostic) => !edited.has(diagnostic.location?.file ?? ''));
  return read;
}

/** Puts the full facts `read` of files `parsed` holds with their links alone in `parsed`, in place. */
function mergeRead(parsed: ParsedSources, read: ParsedSources): void {
  const remaining = new Set(parsed.linkOnly);
  for (const [path, entry] of read.facts) {
    parsed.facts.set(path, entry);
    remaining.delete(path);
  }
  parsed.linkOnly = remaining;
  // As one parse would list them: its own notes first, then parse failures by path (parse-files.ts' finish).
  const isFailure = (diagnostic: Diagnostic): boolean => diagnostic.code.startsWith('parse/') && diagnostic.location?.file !== undefined;
  const failures = [...parsed.diagnostics, ...read.diagnostics].filter(isFailure);
  failures.sort((a, b) => compareText(a.location?.file ?? '', b.location?.file ?? ''));
  parsed.diagnostics = [
    ...parsed.diagnostics.filter((diagnostic) => !isFailure(diagnostic)),
    ...read.diagnostics.filter((diagnostic) => !isFailure(diagnostic)),
    ...failures,
  ];
}

/**
 * The MCP server's graph (built `patchable` with `moduleLinks`) made whole for an analysis of a change: the files among
 * `parsed.linkOnly` it reads in full (readFocusInFull) are parsed now and patched into the graph in place, as a CLI run
 * after a preflight reads them before it loads its kept graph. False when the patch failed part-way: the graph is then
 * half-patched and must be dropped. A graph that is not patchable, or holds no file read for its links alone, is left
 * as it is (a CLI run's focused graph was read in full for its change when it was built).
 */
export async function readChangeInFull(env: Env, repository: RepositoryGraph, changed: readonly string[]): Promise<boolean> {
  const state = updateStates.get(repository);
  const options = focusStates.get(repository);
  if (state === undefined || options === undefined || (repository.parsed.linkOnly?.size ?? 0) === 0) return true;
  const { scan, parsed, resolutions } = repository;
  const read = await readFocusInFull(env, scan, parsed, resolutions, { changedPaths: async () => changed }, options, true);
  if (read === undefined) return true;
  // The parse reported its own progress: what follows it is the analysis again.
  env.reportProgress({ phase: 'analyse' });
  return patchInFull(repository, state, new Set(read.facts.keys()));
}

/**
 * Reads in full `paths` among the files the MCP server's graph holds with their links alone, and patches them into the
 * graph in place, as readChangeInFull does; for the server's reads while it is idle (warm.ts), so it reports no progress
 * and leaves the facts cache as it is. False when the patch failed part-way (the graph must be dropped).
 */
export async function fillInFull(env: Env, repository: RepositoryGraph, paths: readonly string[]): Promise<boolean> {
  const state = updateStates.get(repository);
  const options = focusStates.get(repository);
  const linkOnly = repository.parsed.linkOnly;
  if (state === undefined || options === undefined || linkOnly === undefined) return true;
  const wanted = new Set(paths.filter((path) => linkOnly.has(path)));
  if (wanted.size === 0) return true;
  const files = repository.scan.files.filter((file) => wanted.has(file.path));
  // Facts known to be none: every file is read and parsed in full, and the cache file is neither read nor written.
  const none: ParsedSources = { facts: new Map(), skipped: [], diagnostics: [], stats: { cached: 0, parsed: 0, read: 0, crashed: 0 } };
  const read = asHeldOnly(
    repository.parsed,
    await env.parseSources(files, { ...options, quiet: true }, { files: [], parsed: none, scannedAt: 0 }),
  );
  mergeRead(repository.parsed, read);
  return patchInFull(repository, state, new Set(read.facts.keys()));
}

/** Patches `repository`'s graph for `completed`, files whose full facts replaced their link facts; false if it failed. */
function patchInFull(repository: RepositoryGraph, state: UpdateState, completed: ReadonlySet<string>): boolean {
  if (completed.size === 0) return true;
  const { scan, parsed, resolutions, config, docs, kg } = repository;
  const input = toGraphInput(config, toGraphFiles(scan, parsed), resolutions, docs, state.openApiRoutes.routes);
  try {
    if (!patchKnowledgeGraph(kg, input, completed)) return false;
  } catch {
    return false;
  }
  repository.limitations = listLimitations(
    config,
    scan,
    parsed,
    state.resolver.getConfigProblems(),
    state.openApiRoutes.diagnostics,
    docs,
    kg,
    resolutions,
  );
  return true;
}

/** GraphSnapshotData.linkOnly: the files the graph is built from with their links alone, when there are any. */
function toLinkOnlyList(parsed: ParsedSources): { linkOnly?: string[] } {
  const linkOnly = parsed.linkOnly;
  return linkOnly === undefined || linkOnly.size === 0 ? {} : { linkOnly: [...linkOnly].sort(compareText) };
}

/** The parse options of a graph built with files left `linkOnly` (completeFacts parses them with the same). */
const focusStates = new WeakMap<RepositoryGraph, ParseOptions & { maxFileBytes: number }>();

/**
 * Full facts for those of `paths` a focused build left with their imports and exports alone (ParsedSources.linkOnly),
 * parsed now and put in `repository.parsed` in place (cached like any parse); the graph does not change, as those
 * files hold no tests, routes or mocks. For an analysis that reads more of a file than its links after the build
 * (the complexity of the history's hotspots).
 */
export async function completeFacts(env: Env, repository: RepositoryGraph, paths: readonly string[]): Promise<void> {
  const linkOnly = repository.parsed.linkOnly;
  const options = focusStates.get(repository);
  if (linkOnly === undefined || options === undefined) return;
  const wanted = new Set(paths.filter((path) => linkOnly.has(path)));
  if (wanted.size === 0) return;
  const files = repository.scan.files.filter((file) => wanted.has(file.path));
  const parsed = await env.parseSources(files, { ...options, pruneCache: false });
  const remaining = new Set(linkOnly);
  const completed = completedFacts.get(repository) ?? new Set<string>();
  for (const [path, entry] of parsed.facts) {
    repository.parsed.facts.set(path, entry);
    remaining.delete(path);
    completed.add(path);
  }
  repository.parsed.linkOnly = remaining;
  completedFacts.set(repository, completed);
}

/** Per graph, the files completeFacts read in full after the build: their facts hold more than the graph was made of. */
const completedFacts = new WeakMap<RepositoryGraph, Set<string>>();

/** The files completeFacts read in full after `repository` was built (none for a graph built from full facts). */
export function listCompletedFacts(repository: RepositoryGraph): string[] {
  return [...(completedFacts.get(repository) ?? [])];
}

function resolveFile(resolver: Resolver, path: string, facts: FileFacts): Resolution[] {
  const list = facts.imports.map((fact) => resolver.resolve(path, fact.specifier, importMode(fact)));
  for (const mock of facts.mocks) list.push(resolver.resolve(path, mock.specifier));
  return list;
}

async function readOpenApiRoutes(
  env: Env,
  files: ScannedFile[],
): Promise<{ routes: { path: string; routes: RouteFact[] }[]; diagnostics: Diagnostic[] }> {
  const routes: { path: string; routes: RouteFact[] }[] = [];
  const diagnostics: Diagnostic[] = [];
  const candidates = files.filter(
    (file) =>
      STRUCTURED_DOC.test(file.path) &&
      !NOT_OPENAPI.test(file.path) &&
      !file.path.includes('node_modules/') &&
      file.size <= OPENAPI_TEXT_LIMIT,
  );
  // Whether a file is a description is decided by its start: only those are read whole (outline's 4.5 MB of
  // translations and fixtures were read, decoded and digested on every first run to find none).
  const heads = await readRepoTexts(
    env,
    candidates.map((file) => file.path),
    { maxBytes: OPENAPI_HEAD_BYTES, head: true },
  );
  const described = candidates
    .filter((_, index) => OPENAPI_MARKER.test(heads[index]?.slice(0, OPENAPI_HEAD_CHARACTERS) ?? ''))
    .map((file) => file.path);
  // A chunk at a time: the reads overlap, and at most a chunk of texts (up to 4 MB each) is held at once.
  for (let start = 0; start < described.length; start += OPENAPI_READS_AT_ONCE) {
    const chunk = described.slice(start, start + OPENAPI_READS_AT_ONCE);
    const texts = await readRepoTexts(env, chunk, { maxBytes: OPENAPI_TEXT_LIMIT }, OPENAPI_READS_AT_ONCE);
    chunk.forEach((path, index) => {
      const text = texts[index];
      if (text === undefined) return;
      try {
        const found = extractOpenApiRoutes(parseStructuredText(path, text));
        if (found.length > 0) routes.push({ path, routes: found });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        diagnostics.push({ code: 'openapi/malformed', severity: 'warn', message, location: { file: path } });
      }
    });
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
