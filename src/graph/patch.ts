import { createHash } from 'node:crypto';
import type { FileFacts } from '../model/facts.js';
import type { GraphInput } from '../model/graph.js';
import { type Builder, type ExportHit, getFileId, sortGraphFiles } from './build-context.js';
import { addMentions } from './build-knowledge.js';
import {
  addDeclarations,
  addImportEdges,
  addNonRepoImports,
  addReexportBindings,
  addUsesEdges,
  createSymbolIndex,
  getExportTableOf,
  listParseFailures,
  toFileNode,
} from './build-modules.js';
import { addRoutes } from './build-routes.js';
import { addTestEdges } from './build-tests.js';
import { forgetGraphCaches } from './graph-cache.js';
import { toExportId } from './ids.js';
import type { KnowledgeGraph } from './knowledge-graph.js';

/**
 * Patching a built graph in place after some files' facts changed, instead of building it again: what the MCP server
 * does between two tool calls when an agent edited a few source files. The patched graph holds exactly the nodes,
 * edges and attributes a fresh build of the same input would (test/app/update-graph.test.ts compares them); only the
 * insertion order of what was replaced differs, and no query depends on it.
 */

interface PatchState {
  builder: Builder;
  /** The inputs other than files and resolutions, as text: a patch needs them unchanged. */
  surroundings: string;
  /** The builder's facts are those the graph was made of (not newer ones a snapshot was loaded with). */
  isBuiltFromFacts: boolean;
  /** Otherwise, by path, `toRouteFactsDigest` of the facts the graph was made of, when its snapshot kept them. */
  routeDigests?: ReadonlyMap<string, string>;
}

const states = new WeakMap<KnowledgeGraph, PatchState>();

/**
 * Keeps what a later patch of `knowledge` needs (the build's lookups and tables); only graphs that may be patched.
 * `isBuiltFromFacts` says the builder holds the facts the graph was made of: a patch then recomposes the routes only
 * when a changed file's facts differ in what routes are made of.
 */
export function keepPatchState(
  knowledge: KnowledgeGraph,
  builder: Builder,
  isBuiltFromFacts: boolean,
  routeDigests?: ReadonlyMap<string, string>,
): void {
  states.set(knowledge, {
    builder,
    surroundings: describeSurroundings(builder.input),
    isBuiltFromFacts,
    ...(routeDigests === undefined ? {} : { routeDigests }),
  });
}

/** Edge kinds a file's own facts decide, dropped and added again for a changed file (`declares` is handled apart). */
const OWN_EDGE_KINDS = new Set(['imports', 'reexports', 'uses', 'tests', 'mocks']);

/**
 * Brings `knowledge` (built with `keepPatchState`) to `input`, where only the facts of the files in `changed` differ
 * and those files' resolutions were computed again. Returns false, touching nothing, when that does not hold: a
 * different set of files, or other inputs (documents, routes of OpenAPI files, packages, checks) that changed. On an
 * error part-way (the graph limit) the graph is left half-patched: the caller must drop it.
 */
export function patchKnowledgeGraph(knowledge: KnowledgeGraph, input: GraphInput, changed: ReadonlySet<string>): boolean {
  const state = states.get(knowledge);
  if (state === undefined) return false;
  const builder = state.builder;
  const files = sortGraphFiles(input.files);
  if (files.length !== builder.files.length || files.some((file, index) => file.path !== builder.files[index]?.path)) return false;
  if (describeSurroundings(input) !== state.surroundings) return false;
  const graph = builder.graph;
  forgetGraphCaches(graph);

  const changedFiles = files.filter((file) => changed.has(file.path));
  const isRoutesStanding = changedFiles.every((file) =>
    state.isBuiltFromFacts
      ? toRouteFactsDigest(builder.factsByPath.get(file.path)) === toRouteFactsDigest(file.facts)
      : state.routeDigests?.get(file.path) === toRouteFactsDigest(file.facts),
  );
  state.isBuiltFromFacts = true;
  delete state.routeDigests;
  builder.input = input;
  builder.files = files;
  for (const file of changedFiles) {
    builder.lookups.delete(file.path);
    builder.exportFacts.delete(file.path);
    builder.exportIds.delete(file.path);
    if (file.facts === undefined) builder.factsByPath.delete(file.path);
    else builder.factsByPath.set(file.path, file.facts);
  }
  // Barrels whose table of exposed names may change; files importing one whose table did change get new uses edges.
  const barrels = findReexportingClosure(builder, changed);
  const tablesBefore = new Map<string, Map<string, ExportHit[]>>();
  for (const path of barrels) {
    const table = builder.exportTables.get(path);
    if (table !== undefined) tablesBefore.set(path, table);
    builder.exportTables.delete(path);
  }
  builder.chainsInProgress.clear();

  // An export declared before and after keeps its node (and the uses edges into it); the others go, with their edges.
  const kept = new Set<string>();
  for (const file of changedFiles) {
    const id = getFileId(builder, file.path);
    const exportsNow = new Set((file.facts?.exports ?? []).map((fact) => toExportId(file.path, fact.name)));
    const dropped: string[] = [];
    const owned: string[] = [];
    graph.forEachOutEdge(id, (edge, attributes, _source, target, _sourceAttributes, targetAttributes) => {
      if (attributes.kind === 'declares') {
        if (targetAttributes.kind === 'export' && exportsNow.has(target)) kept.add(target);
        else dropped.push(target);
      } else if (OWN_EDGE_KINDS.has(attributes.kind)) owned.push(edge);
    });
    for (const edge of owned) graph.dropEdge(edge);
    for (const node of dropped) graph.dropNode(node);
    graph.replaceNodeAttributes(id, toFileNode(file));
  }
  addDeclarations(builder, changedFiles, kept);
  const users = findUsers(builder, findChangedTables(builder, tablesBefore, barrels), changed);
  for (const path of users) {
    if (changed.has(path)) continue;
    const uses: string[] = [];
    graph.forEachOutEdge(getFileId(builder, path), (edge, attributes) => {
      if (attributes.kind === 'uses') uses.push(edge);
    });
    for (const edge of uses) graph.dropEdge(edge);
  }
  if (!isRoutesStanding) {
    const routes: string[] = [];
    graph.forEachNode((id, attributes) => {
      if (attributes.kind === 'route') routes.push(id);
    });
    for (const id of routes) graph.dropNode(id);
  }
  const mentions: string[] = [];
  graph.forEachEdge((edge, attributes) => {
    if (attributes.kind === 'mentions') mentions.push(edge);
  });
  for (const edge of mentions) graph.dropEdge(edge);

  const result = builder.result;
  result.parseFailures = listParseFailures(files);
  if (isRoutesStanding) result.symbols = createSymbolIndex(builder);
  else {
    result.unmatchedMounts = [];
    delete result.routeLimitations;
    delete result.symbols;
  }
  // The route files before, and the changed files: no other file's facts are read (nor below, for the lists of
  // non-repository imports and re-export bindings, which keep the other files' entries).
  const routeCandidates = result.routeSources === undefined ? undefined : new Set([...result.routeSources, ...changed]);
  addImportEdges(builder, changedFiles);
  addNonRepoImports(builder, changed);
  addReexportBindings(builder, changed);
  addUsesEdges(
    builder,
    files.filter((file) => users.has(file.path)),
  );
  addTestEdges(builder, changedFiles);
  if (!isRoutesStanding) addRoutes(builder, routeCandidates);
  addMentions(builder);
  return true;
}

/**
 * A digest of what route composition reads of a file's facts: its own routes, mounts, middleware and Nest modules (and
 * its line count when it declares any), and, through the symbol index, its imports, exports, callables and constants;
 * its HTTP calls link it to routes. When a patch finds it the same for every changed file, the route nodes, their edges
 * and the mounts left unmatched stand: an edit to a file that serves no route does not compose every route of the tree
 * again (0.35 s of an `ai` after a one-line edit on outline).
 */
export function toRouteFactsDigest(facts: FileFacts | undefined): string {
  if (facts === undefined) return '';
  const uses = facts.uses ?? [];
  const isRouteFile = facts.routes.length > 0 || facts.mounts.length > 0 || uses.length > 0;
  const text = JSON.stringify([
    isRouteFile ? facts.lines : 0,
    facts.routes,
    facts.mounts,
    uses,
    facts.nestModules ?? [],
    facts.imports,
    facts.exports,
    facts.callables,
    facts.constants,
    facts.httpCalls ?? [],
    facts.failure ?? null,
  ]);
  return createHash('sha256').update(text).digest('base64');
}

/**
 * On a patchable graph just loaded with the facts it was built from, computes the export tables of `changed` and of
 * every barrel that re-exports from them: the tables a later `patchKnowledgeGraph` to newer facts of `changed`
 * compares against, so that only the files importing a name whose exports did move get their `uses` edges again. A
 * graph loaded from a snapshot has no tables of its build; without this a patch takes each such barrel as changed in
 * every name. The tables of other files made on the way are kept too: a file outside that closure neither changed
 * nor re-exports from one that did, so its table is the same under the newer facts, and the patch, which makes the
 * closure's tables anew, reads it instead of making it again (74 -> 31 ms for 50 edits of the 10k synthetic repository).
 */
export function recallExportTables(knowledge: KnowledgeGraph, changed: ReadonlySet<string>): void {
  const builder = states.get(knowledge)?.builder;
  if (builder === undefined) return;
  for (const path of findReexportingClosure(builder, changed)) {
    if (builder.fileIds.has(path)) getExportTableOf(builder, path);
  }
  builder.chainsInProgress.clear();
}

/**
 * `changed` and every file that re-exports from one of them, directly or through other barrels: by name (the graph's
 * re-export bindings: `export {a} from`, `export * as ns from`, `import {a} from …; export {a}`) or by `export * from`
 * (its `reexports` edges marked `all`). Both are the graph's as it stands before this patch, which gives the closure
 * the facts would (a file re-exporting a changed one is unchanged, or changed itself) without walking every file's
 * imports and exports, which parsed every file's facts (160 ms at 10,000 files). A name exported twice is bound to its
 * first source only, as export tables take the first.
 */
function findReexportingClosure(builder: Builder, changed: ReadonlySet<string>): Set<string> {
  const bindings = builder.result.reexportBindings;
  const closure = new Set(changed);
  const queue = [...changed];
  for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
    const reexporters = (bindings?.get(path) ?? []).map((binding) => binding.barrel);
    if (builder.fileIds.has(path)) {
      builder.graph.forEachInEdge(getFileId(builder, path), (_edge, attributes, _source, _target, sourceAttributes) => {
        if (attributes.kind === 'reexports' && attributes.all && sourceAttributes.kind === 'file') reexporters.push(sourceAttributes.path);
      });
    }
    for (const from of reexporters) {
      if (closure.has(from)) continue;
      closure.add(from);
      queue.push(from);
    }
  }
  return closure;
}

/**
 * The barrels whose table of exposed names differs from before, each with the names whose exports differ (added,
 * removed, or landing elsewhere); `all` for a barrel whose earlier table is unknown.
 */
function findChangedTables(
  builder: Builder,
  before: Map<string, Map<string, ExportHit[]>>,
  barrels: ReadonlySet<string>,
): Map<string, ReadonlySet<string> | 'all'> {
  const changedTables = new Map<string, ReadonlySet<string> | 'all'>();
  for (const path of barrels) {
    const old = before.get(path);
    if (old === undefined) {
      changedTables.set(path, 'all');
      continue;
    }
    const names = findChangedNames(old, getExportTableOf(builder, path));
    if (names.size > 0) changedTables.set(path, names);
  }
  return changedTables;
}

function findChangedNames(left: Map<string, ExportHit[]>, right: Map<string, ExportHit[]>): Set<string> {
  const names = new Set<string>();
  for (const [name, hits] of left) if (!isSameHits(hits, right.get(name))) names.add(name);
  for (const name of right.keys()) if (!left.has(name)) names.add(name);
  return names;
}

function isSameHits(hits: ExportHit[], other: ExportHit[] | undefined): boolean {
  if (other === undefined || other.length !== hits.length) return false;
  for (let index = 0; index < hits.length; index += 1) {
    const hit = hits[index];
    const match = other[index];
    if (hit === undefined || match === undefined || hit.id !== match.id || hit.through.join('\0') !== match.through.join('\0'))
      return false;
  }
  return true;
}

/**
 * The files whose `uses` edges may change: the changed ones, and every file importing from one of `barrels` a name
 * whose exports moved (a file's `uses` edges into a barrel come from the names it imports from it, and nothing else).
 */
function findUsers(builder: Builder, barrels: ReadonlyMap<string, ReadonlySet<string> | 'all'>, changed: ReadonlySet<string>): Set<string> {
  const users = new Set(changed);
  for (const [path, names] of barrels) {
    if (!builder.fileIds.has(path)) continue;
    builder.graph.forEachInEdge(getFileId(builder, path), (_edge, attributes, _source, _target, sourceAttributes) => {
      if (attributes.kind !== 'imports' || sourceAttributes.kind !== 'file') return;
      if (names === 'all' || attributes.names.some((name) => names.has(name))) users.add(sourceAttributes.path);
    });
  }
  return users;
}

function describeSurroundings(input: GraphInput): string {
  return JSON.stringify([
    input.openApiRoutes,
    input.codeowners ?? null,
    input.decisions,
    input.memory,
    input.skills,
    input.checks,
    input.packages,
    input.contracts ?? null,
  ]);
}
