import { MultiDirectedGraph } from 'graphology';
import { compileGlobs } from '../text/glob.js';
import { CheckerError, type Diagnostic } from '../model/diagnostic.js';
import type { ExportFact, FileFacts, ImportFact, ParseFailure, RouteFact } from '../model/facts.js';
import type { EdgeAttributes, GraphFileInput, GraphInput, NodeAttributes, RouteNode, RouteSource } from '../model/graph.js';
import type { Resolution, UnresolvedImport } from '../model/resolve.js';
import { parseCodeowners, getOwnerType, type Codeowners } from './codeowners.js';
import {
  toCheckId,
  toContractId,
  toDecisionId,
  toExportId,
  toFileId,
  toMemoryId,
  toOwnerId,
  toPackageId,
  toRouteId,
  toSkillId,
  toTestId,
} from './ids.js';
import { classifyRole, getLanguage } from './roles.js';
import { composeRoutes, type ComposedRoute, type RouteLimitation } from './routes/compose-routes.js';
import { SymbolIndex } from './symbol-index.js';

export type GraphStore = MultiDirectedGraph<NodeAttributes, EdgeAttributes>;

export interface ExternalImport {
  from: string;
  packageName: string;
  specifier: string;
  line: number;
}

export interface UnmatchedMount {
  file: string;
  prefix: string;
  target: string;
  line: number;
  reason: string;
}

export interface KnowledgeGraph {
  graph: GraphStore;
  /** Repository path → `file:` node id, for every file node. */
  fileIds: Map<string, string>;
  unresolvedImports: UnresolvedImport[];
  externalImports: ExternalImport[];
  parseFailures: { path: string; failure: ParseFailure }[];
  /** Cross-file router mounts whose routes could not be found; those routes keep their unprefixed paths. */
  unmatchedMounts: UnmatchedMount[];
  /** Route paths with constants that could not be resolved, and unmatched mounts, as reportable limitations. */
  routeLimitations?: RouteLimitation[];
  /** Name resolution over the parsed facts (callables, imports, constants) for handler-level reach. */
  symbols?: SymbolIndex;
  codeowners?: Codeowners;
  diagnostics: Diagnostic[];
  /**
   * Source repository path → the named re-exports that take a name from it (`export {a as b} from`,
   * `export * as ns from`, `import {a} from …; export {a}`), for symbol-level impact through barrels.
   */
  reexportBindings?: Map<string, ReexportBinding[]>;
}

export interface ReexportBinding {
  /** The re-exporting file and the name it exports. */
  barrel: string;
  name: string;
  /** The name in the source module; `*` when the barrel exports the whole module as a namespace. */
  imported: string;
  typeOnly: boolean;
  line: number;
}

/** Budgets that end a build with a `limits/…` error instead of letting the heap run out. */
export interface GraphLimits {
  /** Most nodes plus edges the knowledge graph may hold. */
  maxElements: number;
}

/**
 * 1.5 million nodes and edges: about 70,000 files of ordinary code (some 21 elements a file) or a
 * 300,000-file import chain (5 a file). An analysis needs about 2 KB of heap per element at its peak
 * (measured with bench/deep-chain.ts: 250,000 elements need 400-600 MB), so this stays inside Node's
 * default heap of 2-4 GB, where going over it ends in a V8 abort with a native stack trace.
 */
export const DEFAULT_GRAPH_LIMITS: GraphLimits = { maxElements: 1_500_000 };

const MAX_REEXPORT_DEPTH = 16;
const MAX_SYMBOL_TARGETS = 3;
const MAX_TERMS = 32;

const compareText = (left: string, right: string): number => (left < right ? -1 : left > right ? 1 : 0);

interface Builder {
  input: GraphInput;
  graph: GraphStore;
  files: GraphFileInput[];
  fileIds: Map<string, string>;
  exportIds: Map<string, Map<string, string>>;
  factsByPath: Map<string, FileFacts>;
  edgeCounts: Map<string, number>;
  lookups: Map<string, ResolutionLookup>;
  exportTables: Map<string, Map<string, ExportHit[]>>;
  chainsInProgress: Set<string>;
  exportFacts: Map<string, Map<string, ExportFact>>;
  result: KnowledgeGraph;
  limits: GraphLimits;
}

type ResolutionLookup = (specifier: string, index?: number) => Resolution | undefined;

function addEdge(builder: Builder, source: string, target: string, attributes: EdgeAttributes): void {
  if (builder.graph.size + builder.graph.order >= builder.limits.maxElements)
    throw createGraphLimitError(builder.limits, builder.files.length, 'would hold');
  const base = `${attributes.kind}:${source}->${target}`;
  const count = builder.edgeCounts.get(base) ?? 0;
  builder.edgeCounts.set(base, count + 1);
  builder.graph.addDirectedEdgeWithKey(count === 0 ? base : `${base}#${count + 1}`, source, target, attributes);
}

function createGraphLimitError(limits: GraphLimits, files: number, verb: 'would hold' | 'needs at least'): CheckerError {
  return new CheckerError(
    'limits/graph-too-large',
    `The knowledge graph of ${files} files ${verb} more than ${limits.maxElements} nodes and edges (the graph limit, maxElements), so checker stops here instead of running out of memory.`,
    {
      hint: 'Leave generated, vendored or fixture folders out with analysis.ignore in .checker/config.yml, run checker on one package or sub-folder with --cwd <folder>, or raise analysis.maxGraphElements if the machine has the memory (about 2 KB per element).',
    },
  );
}

/** Files, exports and imports: a floor for the graph's size, known before any node is added. */
function countElementsAtLeast(files: readonly GraphFileInput[]): number {
  let count = files.length;
  for (const file of files) count += (file.facts?.exports.length ?? 0) + (file.facts?.imports.length ?? 0);
  return count;
}

/** Reuses the id string stored at node creation: graphology hashes flat, already-seen strings much faster. */
function getFileId(builder: Builder, path: string): string {
  return builder.fileIds.get(path) ?? toFileId(path);
}

function addNodeOnce(graph: GraphStore, id: string, attributes: NodeAttributes): boolean {
  if (graph.hasNode(id)) return false;
  graph.addNode(id, attributes);
  return true;
}

function getResolutionLookup(builder: Builder, path: string): ResolutionLookup {
  const cached = builder.lookups.get(path);
  if (cached !== undefined) return cached;
  const list = builder.input.resolutions.get(path) ?? [];
  const bySpecifier = new Map<string, Resolution>();
  for (const resolution of list) {
    const known = bySpecifier.get(resolution.specifier);
    if (known === undefined || (known.target === undefined && resolution.target !== undefined)) {
      bySpecifier.set(resolution.specifier, resolution);
    }
  }
  const lookup: ResolutionLookup = (specifier, index) => {
    const aligned = index === undefined ? undefined : list[index];
    if (aligned !== undefined && aligned.specifier === specifier) return aligned;
    return bySpecifier.get(specifier);
  };
  builder.lookups.set(path, lookup);
  return lookup;
}

function getRepoTarget(builder: Builder, resolution: Resolution | undefined): string | undefined {
  const target = resolution?.target;
  return target !== undefined && builder.fileIds.has(target) ? target : undefined;
}

function addFileNodes(builder: Builder): void {
  for (const file of builder.files) {
    const id = toFileId(file.path);
    const facts = file.facts;
    const attributes: NodeAttributes = {
      kind: 'file',
      path: file.path,
      language: getLanguage(file.path),
      size: file.size,
      hash: file.hash,
      role: classifyRole(file.path),
      lines: facts?.lines ?? 0,
    };
    if (facts?.failure !== undefined) {
      attributes.parseFailure = facts.failure;
      builder.result.parseFailures.push({ path: file.path, failure: facts.failure });
    }
    builder.graph.addNode(id, attributes);
    builder.fileIds.set(file.path, id);
    if (facts !== undefined) builder.factsByPath.set(file.path, facts);
  }
}

function addDeclarations(builder: Builder): void {
  for (const file of builder.files) {
    const facts = file.facts;
    if (facts === undefined) continue;
    const fileId = getFileId(builder, file.path);
    for (const fact of facts.exports) {
      const id = toExportId(file.path, fact.name);
      const added = addNodeOnce(builder.graph, id, {
        kind: 'export',
        path: file.path,
        name: fact.name,
        exportKind: fact.kind,
        span: fact.span,
        typeOnly: fact.typeOnly,
      });
      if (!added) continue;
      addEdge(builder, fileId, id, { kind: 'declares' });
      const byName = builder.exportIds.get(file.path) ?? new Map<string, string>();
      byName.set(fact.name, id);
      builder.exportIds.set(file.path, byName);
    }
    const seen = new Map<string, number>();
    for (const fact of facts.tests) {
      const baseId = toTestId(file.path, fact.titlePath);
      const occurrence = (seen.get(baseId) ?? 0) + 1;
      seen.set(baseId, occurrence);
      const id = occurrence === 1 ? baseId : `${baseId} [${occurrence}]`;
      builder.graph.addNode(id, {
        kind: 'test',
        file: file.path,
        testKind: fact.kind,
        titlePath: fact.titlePath,
        span: fact.span,
        modifiers: fact.modifiers,
        assertions: fact.assertions,
        trivialAssertions: fact.trivialAssertions,
        snapshotAssertions: fact.snapshotAssertions,
        unawaitedAssertions: fact.unawaitedAssertions,
        swallowedErrors: fact.swallowedErrors,
        isAsync: fact.isAsync,
      });
      addEdge(builder, fileId, id, { kind: 'declares' });
    }
  }
}

function getImportedNames(fact: ImportFact): string[] {
  return [...new Set(fact.names.map((name) => name.imported))];
}

/** Named re-exports (and `export * as ns`) keyed by the repository file they take the name from. */
function addReexportBindings(builder: Builder): void {
  const bindings = new Map<string, ReexportBinding[]>();
  for (const file of builder.files) {
    const facts = file.facts;
    if (facts === undefined) continue;
    const lookup = getResolutionLookup(builder, file.path);
    const seen = new Set<string>();
    for (const fact of facts.exports) {
      if (seen.has(fact.name)) continue;
      seen.add(fact.name);
      if (fact.from === undefined || fact.imported === undefined) continue;
      const source = getRepoTarget(builder, lookup(fact.from));
      if (source === undefined) continue;
      const list = bindings.get(source) ?? [];
      list.push({ barrel: file.path, name: fact.name, imported: fact.imported, typeOnly: fact.typeOnly, line: fact.span.start });
      bindings.set(source, list);
    }
  }
  builder.result.reexportBindings = bindings;
}

function addImportEdges(builder: Builder): void {
  for (const file of builder.files) {
    const facts = file.facts;
    if (facts === undefined) continue;
    const lookup = getResolutionLookup(builder, file.path);
    const fileId = getFileId(builder, file.path);
    facts.imports.forEach((fact, index) => {
      const resolution = lookup(fact.specifier, index);
      const target = getRepoTarget(builder, resolution);
      if (target === undefined) {
        recordNonRepoImport(builder, file.path, fact.specifier, fact.line, resolution);
        return;
      }
      const targetId = getFileId(builder, target);
      if (fact.kind === 'reexport' || fact.kind === 'reexport-all') {
        addEdge(builder, fileId, targetId, {
          kind: 'reexports',
          specifier: fact.specifier,
          line: fact.line,
          names: getImportedNames(fact),
          typeOnly: fact.typeOnly,
          all: fact.kind === 'reexport-all',
        });
        return;
      }
      addEdge(builder, fileId, targetId, {
        kind: 'imports',
        specifier: fact.specifier,
        line: fact.line,
        names: getImportedNames(fact),
        typeOnly: fact.typeOnly,
        dynamic: fact.kind === 'dynamic',
        require: fact.kind === 'require' || fact.kind === 'import-equals',
      });
    });
  }
}

function recordNonRepoImport(builder: Builder, from: string, specifier: string, line: number, resolution: Resolution | undefined): void {
  if (resolution === undefined) {
    builder.result.unresolvedImports.push({ from, specifier, line, reason: 'no resolution was computed for this specifier' });
    return;
  }
  if (resolution.kind === 'builtin') return;
  if (resolution.kind === 'external') {
    builder.result.externalImports.push({ from, specifier, line, packageName: resolution.packageName ?? specifier });
    return;
  }
  const reason =
    resolution.target === undefined
      ? (resolution.reason ?? 'unresolved')
      : `resolved to ${resolution.target}, which is not among the scanned files`;
  builder.result.unresolvedImports.push({ from, specifier, line, reason });
}

interface ExportHit {
  id: string;
  through: string[];
}

/**
 * Follows a named import through re-exports (`export {x} from`, `export * from`) to every export it
 * lands on, via a per-file table of the names the file exposes. Tables are built once per file:
 * searching each name through nested `export *` barrels separately made a million calls on a
 * 10,000-file repository and dominated the whole build.
 */
function findExportChain(builder: Builder, path: string, name: string): ExportHit[] {
  return getExportTable(builder, path, 0).get(name) ?? [];
}

function getExportTable(builder: Builder, path: string, depth: number): Map<string, ExportHit[]> {
  const known = builder.exportTables.get(path);
  if (known !== undefined) return known;
  if (builder.chainsInProgress.has(path) || depth > MAX_REEXPORT_DEPTH) return new Map();
  builder.chainsInProgress.add(path);
  const table = new Map<string, ExportHit[]>();
  const lookup = getResolutionLookup(builder, path);
  const prefixed = (found: ExportHit[], own: ExportHit[]): ExportHit[] => {
    const ids = new Set(own.map((hit) => hit.id));
    const merged = [...own];
    for (const hit of found) {
      if (ids.has(hit.id)) continue;
      ids.add(hit.id);
      merged.push({ id: hit.id, through: [path, ...hit.through] });
    }
    return merged;
  };
  for (const [name, id] of builder.exportIds.get(path) ?? []) {
    let hits: ExportHit[] = [{ id, through: [] }];
    const declaration = getExportFacts(builder, path).get(name);
    if (declaration?.from !== undefined && declaration.imported !== undefined && declaration.imported !== '*') {
      const next = getRepoTarget(builder, lookup(declaration.from));
      if (next !== undefined) hits = prefixed(getExportTable(builder, next, depth + 1).get(declaration.imported) ?? [], hits);
    }
    table.set(name, hits);
  }
  const own = new Set(table.keys());
  builder.factsByPath.get(path)?.imports.forEach((fact, index) => {
    if (fact.kind !== 'reexport-all') return;
    const next = getRepoTarget(builder, lookup(fact.specifier, index));
    if (next === undefined) return;
    for (const [name, hits] of getExportTable(builder, next, depth + 1)) {
      if (name === 'default' || own.has(name)) continue;
      table.set(name, prefixed(hits, table.get(name) ?? []));
    }
  });
  builder.chainsInProgress.delete(path);
  builder.exportTables.set(path, table);
  return table;
}

function getExportFacts(builder: Builder, path: string): Map<string, ExportFact> {
  let byName = builder.exportFacts.get(path);
  if (byName === undefined) {
    byName = new Map();
    for (const fact of builder.factsByPath.get(path)?.exports ?? []) if (!byName.has(fact.name)) byName.set(fact.name, fact);
    builder.exportFacts.set(path, byName);
  }
  return byName;
}

function addUsesEdges(builder: Builder): void {
  for (const file of builder.files) {
    const facts = file.facts;
    if (facts === undefined) continue;
    const lookup = getResolutionLookup(builder, file.path);
    const fileId = getFileId(builder, file.path);
    facts.imports.forEach((fact, index) => {
      if (fact.kind === 'reexport' || fact.kind === 'reexport-all') return;
      const target = getRepoTarget(builder, lookup(fact.specifier, index));
      if (target === undefined) return;
      const grouped = new Map<string, { locals: string[]; typeOnly: boolean; through: string[] }>();
      for (const name of fact.names) {
        if (name.imported === '*') continue;
        for (const hit of findExportChain(builder, target, name.imported)) {
          const entry = grouped.get(hit.id);
          const typeOnly = fact.typeOnly || name.typeOnly;
          if (entry === undefined) grouped.set(hit.id, { locals: [name.local], typeOnly, through: hit.through });
          else {
            if (!entry.locals.includes(name.local)) entry.locals.push(name.local);
            entry.typeOnly = entry.typeOnly && typeOnly;
          }
        }
      }
      for (const [exportId, entry] of grouped) {
        addEdge(builder, fileId, exportId, {
          kind: 'uses',
          locals: entry.locals,
          typeOnly: entry.typeOnly,
          line: fact.line,
          through: entry.through,
        });
      }
    });
  }
}

function isTestFile(file: GraphFileInput): boolean {
  return classifyRole(file.path) === 'test' || (file.facts?.tests.length ?? 0) > 0;
}

function addTestEdges(builder: Builder): void {
  for (const file of builder.files) {
    const facts = file.facts;
    if (facts === undefined || !isTestFile(file)) continue;
    const lookup = getResolutionLookup(builder, file.path);
    const fileId = getFileId(builder, file.path);
    const tested = new Set<string>();
    facts.imports.forEach((fact, index) => {
      const target = getRepoTarget(builder, lookup(fact.specifier, index));
      if (target === undefined || target === file.path || tested.has(target)) return;
      tested.add(target);
      addEdge(builder, fileId, getFileId(builder, target), { kind: 'tests', line: fact.line });
    });
    const mocked = new Set<string>();
    for (const mock of facts.mocks) {
      const resolution = lookup(mock.specifier);
      const target = getRepoTarget(builder, resolution);
      if (target === undefined) {
        if (resolution === undefined && /^[./]/.test(mock.specifier)) {
          builder.result.unresolvedImports.push({
            from: file.path,
            specifier: mock.specifier,
            line: mock.line,
            reason: 'mocked specifier has no resolution (the file does not import it)',
          });
        }
        continue;
      }
      if (mocked.has(target)) continue;
      mocked.add(target);
      addEdge(builder, fileId, getFileId(builder, target), {
        kind: 'mocks',
        specifier: mock.specifier,
        line: mock.line,
        framework: mock.framework,
      });
    }
  }
}

function createSymbolIndex(builder: Builder): SymbolIndex {
  return new SymbolIndex({
    getFacts: (path) => builder.factsByPath.get(path),
    resolveImport: (path, specifier, index) => {
      const resolution = getResolutionLookup(builder, path)(specifier, index);
      const file = getRepoTarget(builder, resolution);
      if (file !== undefined) return { file };
      return resolution?.kind === 'external' ? { packageName: resolution.packageName ?? specifier } : {};
    },
    findExport: (path, name) =>
      findExportChain(builder, path, name).map((hit) => {
        const rest = hit.id.slice('export:'.length);
        const hash = rest.lastIndexOf('#');
        return { file: rest.slice(0, hash), name: rest.slice(hash + 1) };
      }),
  });
}

interface RouteDeclaration {
  file: string;
  route: RouteFact;
  fullPath: string;
  composed?: ComposedRoute;
}

function addRoutes(builder: Builder): void {
  const symbols = createSymbolIndex(builder);
  builder.result.symbols = symbols;
  const sources = builder.files.flatMap((file) =>
    file.facts === undefined || (file.facts.routes.length === 0 && file.facts.mounts.length === 0 && (file.facts.uses ?? []).length === 0)
      ? []
      : [{ path: file.path, facts: file.facts }],
  );
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
  for (const [id, list] of grouped) {
    const primary = list.find((declaration) => declaration.route.framework !== 'openapi') ?? list[0];
    if (primary === undefined) continue;
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
    const guards = primary.composed?.guards ?? [];
    const middleware = guards.length > 0 ? guards.map((guard) => guard.name) : primary.route.middleware;
    if (middleware !== undefined && middleware.length > 0) attributes.middleware = middleware;
    if (guards.length > 0) attributes.guards = guards;
    const registrations = list.flatMap((declaration) => (declaration.composed === undefined ? [] : [declaration.composed.registration]));
    if (registrations.length > 0) attributes.registrations = registrations;
    builder.graph.addNode(id, attributes);
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
}

function addOwners(builder: Builder): void {
  const source = builder.input.codeowners;
  if (source === undefined) return;
  const codeowners = parseCodeowners(source.path, source.text);
  builder.result.codeowners = codeowners;
  builder.result.diagnostics.push(...codeowners.diagnostics);
  const handles = [...new Set(codeowners.rules.flatMap((rule) => rule.owners))].sort(compareText);
  for (const handle of handles) {
    const ownerType = getOwnerType(handle);
    if (ownerType !== undefined) builder.graph.addNode(toOwnerId(handle), { kind: 'owner', handle, ownerType });
  }
  for (const file of builder.files) {
    const match = codeowners.matchPath(file.path);
    if (match === undefined) continue;
    for (const owner of match.owners) {
      addEdge(builder, toOwnerId(owner), getFileId(builder, file.path), {
        kind: 'owns',
        pattern: match.rule.pattern,
        line: match.rule.line,
      });
    }
  }
}

function addPackages(builder: Builder): void {
  const packages = [...builder.input.packages].sort(
    (left, right) => compareText(left.name, right.name) || compareText(left.folder, right.folder),
  );
  const folders: { folder: string; id: string }[] = [];
  for (const manifest of packages) {
    const id = toPackageId(manifest.name);
    const attributes: NodeAttributes = { kind: 'package', name: manifest.name, folder: manifest.folder, workspace: true };
    if (manifest.version !== undefined) attributes.version = manifest.version;
    if (addNodeOnce(builder.graph, id, attributes)) folders.push({ folder: manifest.folder, id });
  }
  const external = [...new Set(packages.flatMap((manifest) => manifest.dependencies))]
    .filter((name) => !builder.graph.hasNode(toPackageId(name)))
    .sort(compareText);
  for (const name of external) builder.graph.addNode(toPackageId(name), { kind: 'package', name, workspace: false });
  for (const manifest of packages) {
    const id = toPackageId(manifest.name);
    const node = builder.graph.getNodeAttributes(id);
    if (node.kind !== 'package' || node.folder !== manifest.folder) continue;
    for (const dependency of [...new Set(manifest.dependencies)].sort(compareText)) {
      if (dependency !== manifest.name) addEdge(builder, id, toPackageId(dependency), { kind: 'depends' });
    }
  }
  folders.sort((left, right) => right.folder.length - left.folder.length || compareText(left.folder, right.folder));
  for (const file of builder.files) {
    const owner = folders.find(({ folder }) => folder === '' || file.path.startsWith(`${folder}/`));
    if (owner !== undefined) addEdge(builder, getFileId(builder, file.path), owner.id, { kind: 'belongs' });
  }
}

const STOP_WORDS = new Set(
  (
    'the and for are but not you all any can had her was one our out has have this that with from they will would there their what ' +
    'which when where who why how into than then them these those been being also such only other some more most very just should ' +
    'could must may might each both does did doing over under about after before while because between through during without within ' +
    "use used uses using see its it's our ours your yours we us via per new old true false null undefined"
  ).split(' '),
);

/** The most frequent distinctive words of a text, lower-cased (ties broken alphabetically). */
export function extractTerms(text: string, limit = MAX_TERMS): string[] {
  const counts = new Map<string, number>();
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .match(/[a-z][a-z0-9]{2,}/g);
  for (const word of words ?? []) {
    if (STOP_WORDS.has(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts]
    .sort((left, right) => right[1] - left[1] || compareText(left[0], right[0]))
    .slice(0, limit)
    .map(([word]) => word);
}

interface MentionIndex {
  exportsByName: Map<string, string[]>;
}

function buildMentionIndex(builder: Builder): MentionIndex {
  const exportsByName = new Map<string, string[]>();
  builder.graph.forEachNode((id, attributes) => {
    if (attributes.kind !== 'export' || attributes.name === 'default') return;
    const list = exportsByName.get(attributes.name) ?? [];
    list.push(id);
    exportsByName.set(attributes.name, list);
  });
  return { exportsByName };
}

function addTextMentions(builder: Builder, index: MentionIndex, source: string, text: string, added: Set<string>): void {
  const mention = (target: string, match: 'path' | 'symbol' | 'route'): void => {
    if (added.has(target)) return;
    added.add(target);
    addEdge(builder, source, target, { kind: 'mentions', match });
  };
  for (const token of text.match(/[A-Za-z0-9_@.\-/[\]()]+\.[A-Za-z0-9]+/g) ?? []) {
    const path = token.replace(/^\.?\//, '');
    if (builder.fileIds.has(path)) mention(getFileId(builder, path), 'path');
  }
  for (const match of text.matchAll(/\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|ALL)\s+(\/[^\s`'"),;]*)/g)) {
    const id = toRouteId(match[1] ?? '', match[2] ?? '');
    if (builder.graph.hasNode(id)) mention(id, 'route');
  }
  for (const match of text.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`/g)) {
    const targets = index.exportsByName.get(match[1] ?? '') ?? [];
    if (targets.length > 0 && targets.length <= MAX_SYMBOL_TARGETS) for (const target of targets) mention(target, 'symbol');
  }
}

function addKnowledge(builder: Builder): void {
  const index = buildMentionIndex(builder);
  const decisions = [...builder.input.decisions].sort((left, right) => compareText(left.path, right.path));
  for (const decision of decisions) {
    const id = toDecisionId(decision.path);
    const terms = extractTerms(`${decision.title}\n${decision.text}`);
    if (!addNodeOnce(builder.graph, id, { kind: 'decision', path: decision.path, title: decision.title, terms })) continue;
    addTextMentions(builder, index, id, decision.text, new Set());
  }
  const memory = [...builder.input.memory].sort((left, right) => compareText(left.path, right.path) || compareText(left.id, right.id));
  const paths = builder.files.map((file) => file.path);
  for (const entry of memory) {
    const id = toMemoryId(entry.path, entry.id);
    const terms = entry.terms.length > 0 ? entry.terms : extractTerms(`${entry.title ?? ''}\n${entry.text}`);
    const attributes: NodeAttributes = {
      kind: 'memory',
      path: entry.path,
      id: entry.id,
      memoryKind: entry.kind,
      text: entry.text,
      paths: entry.paths,
      terms,
    };
    if (entry.title !== undefined) attributes.title = entry.title;
    if (!addNodeOnce(builder.graph, id, attributes)) continue;
    const added = new Set<string>();
    if (entry.paths.length > 0) {
      const isMatch = compileGlobs(entry.paths, { dot: true });
      for (const path of paths) {
        if (!isMatch(path)) continue;
        added.add(getFileId(builder, path));
        addEdge(builder, id, getFileId(builder, path), { kind: 'mentions', match: 'glob' });
      }
    }
    addTextMentions(builder, index, id, `${entry.title ?? ''}\n${entry.text}`, added);
  }
  const skills = [...builder.input.skills].sort((left, right) => compareText(left.name, right.name) || compareText(left.path, right.path));
  for (const skill of skills) {
    addNodeOnce(builder.graph, toSkillId(skill.name), {
      kind: 'skill',
      name: skill.name,
      description: skill.description,
      path: skill.path,
    });
  }
  const checks = [...builder.input.checks].sort((left, right) => compareText(left.name, right.name));
  for (const check of checks) {
    addNodeOnce(builder.graph, toCheckId(check.name), { kind: 'check', name: check.name, command: check.command, source: check.source });
  }
  const contracts = [...(builder.input.contracts ?? [])].sort((left, right) => compareText(left.id, right.id));
  for (const contract of contracts) {
    const attributes: NodeAttributes = { kind: 'contract', id: contract.id, from: contract.from, to: contract.to };
    if (contract.description !== undefined) attributes.description = contract.description;
    addNodeOnce(builder.graph, toContractId(contract.id), attributes);
  }
}

/**
 * Builds the knowledge graph from scanned files, their facts and resolutions, and the documents around
 * the code. Inputs are sorted first, so the same repository state always yields the same node ids,
 * edge keys and insertion order. Throws `limits/graph-too-large` (a CheckerError) when the graph would
 * exceed `limits.maxElements`, before the heap gives out.
 */
export function buildKnowledgeGraph(input: GraphInput, limits: GraphLimits = DEFAULT_GRAPH_LIMITS): KnowledgeGraph {
  const byPath = new Map<string, GraphFileInput>();
  for (const file of input.files) if (!byPath.has(file.path)) byPath.set(file.path, file);
  const files = [...byPath.values()].sort((left, right) => compareText(left.path, right.path));
  if (countElementsAtLeast(files) > limits.maxElements) throw createGraphLimitError(limits, files.length, 'needs at least');
  const result: KnowledgeGraph = {
    graph: new MultiDirectedGraph<NodeAttributes, EdgeAttributes>({ allowSelfLoops: true }),
    fileIds: new Map(),
    unresolvedImports: [],
    externalImports: [],
    parseFailures: [],
    unmatchedMounts: [],
    diagnostics: [],
  };
  const builder: Builder = {
    input,
    graph: result.graph,
    files,
    fileIds: result.fileIds,
    exportIds: new Map(),
    factsByPath: new Map(),
    edgeCounts: new Map(),
    lookups: new Map(),
    exportTables: new Map(),
    chainsInProgress: new Set(),
    exportFacts: new Map(),
    result,
    limits,
  };
  addFileNodes(builder);
  addDeclarations(builder);
  addImportEdges(builder);
  addReexportBindings(builder);
  addUsesEdges(builder);
  addTestEdges(builder);
  addRoutes(builder);
  addOwners(builder);
  addPackages(builder);
  addKnowledge(builder);
  return result;
}
