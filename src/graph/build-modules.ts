import { compareText } from '../text/compare-text.js';
import { SymbolIndex } from './symbol-index.js';
import { classifyRole, getLanguage } from './roles.js';
import { toExportId, toFileId, toTestId } from './ids.js';
import type { Resolution, UnresolvedImport } from '../model/resolve.js';
import type { GraphFileInput, NodeAttributes } from '../model/graph.js';
import type { ExportFact, ImportFact } from '../model/facts.js';
import {
  addEdge,
  addNodeOnce,
  type Builder,
  type ExportHit,
  getFileId,
  getRepoTarget,
  getResolutionLookup,
  getPackageFiles,
  getRuntimeTarget,
} from './build-context.js';
import type { ExternalImport, KnowledgeGraph, ReexportBinding } from './knowledge-graph.js';

/** File nodes, declarations and the module edges between them: imports, re-exports, uses and the symbol index. */

const MAX_REEXPORT_DEPTH = 16;

export function addFileNodes(builder: Builder): void {
  for (const file of builder.files) {
    const id = toFileId(file.path);
    builder.graph.addNode(id, toFileNode(file));
    builder.fileIds.set(file.path, id);
    if (file.facts !== undefined) builder.factsByPath.set(file.path, file.facts);
  }
  builder.result.parseFailures = listParseFailures(builder.files);
}

export function toFileNode(file: GraphFileInput): NodeAttributes {
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
  if (facts?.failure !== undefined) attributes.parseFailure = facts.failure;
  if (facts?.globalAssertionHelpers !== undefined && attributes.kind === 'file')
    attributes.globalAssertionHelpers = facts.globalAssertionHelpers;
  if (facts?.assertingExports !== undefined && attributes.kind === 'file') attributes.assertingExports = facts.assertingExports;
  if (facts?.program === true && attributes.kind === 'file') attributes.program = true;
  return attributes;
}

export function listParseFailures(files: readonly GraphFileInput[]): KnowledgeGraph['parseFailures'] {
  return files.flatMap((file) => (file.facts?.failure === undefined ? [] : [{ path: file.path, failure: file.facts.failure }]));
}

/**
 * Export and test nodes with their `declares` edges. `kept` (a patch) names export nodes still in the graph from
 * before: each takes its new attributes in place and keeps its edges, so the files using it need no new edges.
 */
export function addDeclarations(builder: Builder, files: readonly GraphFileInput[] = builder.files, kept = new Set<string>()): void {
  for (const file of files) {
    const facts = file.facts;
    if (facts === undefined) continue;
    const fileId = getFileId(builder, file.path);
    for (const fact of facts.exports) {
      const id = toExportId(file.path, fact.name);
      const attributes: NodeAttributes = {
        kind: 'export',
        path: file.path,
        name: fact.name,
        exportKind: fact.kind,
        span: fact.span,
        typeOnly: fact.typeOnly,
      };
      if (kept.delete(id)) builder.graph.replaceNodeAttributes(id, attributes);
      else if (addNodeOnce(builder.graph, id, attributes)) addEdge(builder, fileId, id, { kind: 'declares' });
      else continue;
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
        ...(fact.freeCalls === undefined ? {} : { freeCalls: fact.freeCalls }),
        ...(fact.importedCalls === undefined ? {} : { importedCalls: fact.importedCalls }),
      });
      addEdge(builder, fileId, id, { kind: 'declares' });
    }
  }
}

/**
 * A Python `from pkg import mod` that resolved to the module `pkg/mod.py` (or the package `pkg/mod/__init__.py`): the
 * name is the module, used as a namespace (marshmallow's tests say `fields.TimeDelta(…)` after `from marshmallow import
 * fields`), not a name the module exports.
 */
function isModuleImportedByName(path: string, fact: ImportFact, target: string): boolean {
  if (!path.endsWith('.py') || fact.names.length !== 1) return false;
  const imported = fact.names[0]?.imported;
  if (imported === undefined || imported === '*' || !fact.specifier.endsWith(`.${imported}`)) return false;
  return (
    target.endsWith(`/${imported}.py`) ||
    target === `${imported}.py` ||
    target.endsWith(`/${imported}/__init__.py`) ||
    target === `${imported}/__init__.py`
  );
}

function getImportedNames(fact: ImportFact): string[] {
  return [...new Set(fact.names.map((name) => name.imported))];
}

/**
 * Named re-exports (and `export * as ns`) keyed by the repository file they take the name from, each list in barrel
 * order. Given `changed` (a patch), only those barrels' bindings are made again and merged in; every other barrel's
 * stand as the graph holds them.
 */
export function addReexportBindings(builder: Builder, changed?: ReadonlySet<string>): void {
  const previous = builder.result.reexportBindings;
  if (changed === undefined || previous === undefined) {
    const bindings = new Map<string, ReexportBinding[]>();
    for (const file of builder.files) collectReexportBindings(builder, file, bindings);
    builder.result.reexportBindings = bindings;
    return;
  }
  const added = new Map<string, ReexportBinding[]>();
  for (const file of builder.files) if (changed.has(file.path)) collectReexportBindings(builder, file, added);
  const bindings = new Map<string, ReexportBinding[]>();
  for (const [source, list] of previous) {
    const kept = list.filter((binding) => !changed.has(binding.barrel));
    const merged = mergeByBarrel(kept, added.get(source) ?? []);
    added.delete(source);
    if (merged.length > 0) bindings.set(source, merged);
  }
  for (const [source, list] of added) bindings.set(source, list);
  builder.result.reexportBindings = bindings;
}

function collectReexportBindings(builder: Builder, file: GraphFileInput, bindings: Map<string, ReexportBinding[]>): void {
  const facts = file.facts;
  if (facts === undefined) return;
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

/** Two lists of bindings each in barrel order, with no barrel in both, as one in barrel order. */
function mergeByBarrel(left: ReexportBinding[], right: ReexportBinding[]): ReexportBinding[] {
  if (right.length === 0) return left;
  const merged: ReexportBinding[] = [];
  let index = 0;
  for (const binding of left) {
    while (index < right.length && compareText((right[index] as ReexportBinding).barrel, binding.barrel) < 0)
      merged.push(right[index++] as ReexportBinding);
    merged.push(binding);
  }
  while (index < right.length) merged.push(right[index++] as ReexportBinding);
  return merged;
}

export function addImportEdges(builder: Builder, files: readonly GraphFileInput[] = builder.files): void {
  for (const file of files) {
    const facts = file.facts;
    if (facts === undefined) continue;
    const lookup = getResolutionLookup(builder, file.path);
    const fileId = getFileId(builder, file.path);
    facts.imports.forEach((fact, index) => {
      const resolution = lookup(fact.specifier, index);
      const target = getRepoTarget(builder, resolution);
      if (target === undefined) return;
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
      const edge = {
        kind: 'imports',
        specifier: fact.specifier,
        line: fact.line,
        names: isModuleImportedByName(file.path, fact, target) ? ['*'] : getImportedNames(fact),
        typeOnly: fact.typeOnly,
        dynamic: fact.kind === 'dynamic',
        require: fact.kind === 'require' || fact.kind === 'import-equals',
      } as const;
      addEdge(builder, fileId, targetId, edge);
      // A declaration runs nothing: what Node runs for the same specifier is imported too, so its changes reach this file.
      const runtime = getRuntimeTarget(builder, resolution);
      if (runtime !== undefined && runtime !== target && runtime !== file.path && !fact.typeOnly)
        addEdge(builder, fileId, getFileId(builder, runtime), { ...edge, names: [...edge.names] });
      // A Go package is all of its folder's files: the import reaches each.
      for (const other of getPackageFiles(builder, resolution))
        if (other !== file.path) addEdge(builder, fileId, getFileId(builder, other), { ...edge, names: [...edge.names] });
    });
  }
}

/**
 * The unresolved and external imports of every file, in file order, then the unresolved mocks of test files. Given
 * `changed` (a patch), only those files' entries are made again; every other file's stand as the graph holds them,
 * since its facts and resolutions are the same (so a patch reads no other file's facts).
 */
export function addNonRepoImports(builder: Builder, changed?: ReadonlySet<string>): void {
  const kept = changed === undefined ? undefined : groupNonRepoImports(builder.result);
  const unresolved: UnresolvedImport[] = [];
  const external: ExternalImport[] = [];
  const mocked: UnresolvedImport[] = [];
  for (const file of builder.files) {
    const own =
      kept === undefined || changed?.has(file.path) === true
        ? collectNonRepoImports(builder, file)
        : (kept.get(file.path) ?? { unresolved: [], external: [], mocked: [] });
    unresolved.push(...own.unresolved);
    external.push(...own.external);
    mocked.push(...own.mocked);
  }
  builder.result.unresolvedImports = [...unresolved, ...mocked];
  builder.result.externalImports = external;
}

interface NonRepoImports {
  unresolved: UnresolvedImport[];
  external: ExternalImport[];
  /** Mocked specifiers a test file does not import (listed after every file's unresolved imports). */
  mocked: UnresolvedImport[];
}

const MOCK_REASON = 'mocked specifier has no resolution (the file does not import it)';

function collectNonRepoImports(builder: Builder, file: GraphFileInput): NonRepoImports {
  const own: NonRepoImports = { unresolved: [], external: [], mocked: [] };
  const facts = file.facts;
  if (facts === undefined) return own;
  const lookup = getResolutionLookup(builder, file.path);
  facts.imports.forEach((fact, index) => {
    const resolution = lookup(fact.specifier, index);
    if (getRepoTarget(builder, resolution) === undefined) recordNonRepoImport(own, file.path, fact.specifier, fact.line, resolution);
  });
  if (isTestFile(file)) {
    for (const mock of facts.mocks) {
      if (lookup(mock.specifier) === undefined && /^[./]/.test(mock.specifier))
        own.mocked.push({ from: file.path, specifier: mock.specifier, line: mock.line, reason: MOCK_REASON });
    }
  }
  return own;
}

/** A graph's non-repository imports by the file they are in. */
function groupNonRepoImports(result: KnowledgeGraph): Map<string, NonRepoImports> {
  const byFile = new Map<string, NonRepoImports>();
  const of = (path: string): NonRepoImports => {
    let own = byFile.get(path);
    if (own === undefined) {
      own = { unresolved: [], external: [], mocked: [] };
      byFile.set(path, own);
    }
    return own;
  };
  for (const entry of result.unresolvedImports)
    (entry.reason === MOCK_REASON ? of(entry.from).mocked : of(entry.from).unresolved).push(entry);
  for (const entry of result.externalImports) of(entry.from).external.push(entry);
  return byFile;
}

export function isTestFile(file: GraphFileInput): boolean {
  return classifyRole(file.path) === 'test' || (file.facts?.tests.length ?? 0) > 0;
}

function recordNonRepoImport(own: NonRepoImports, from: string, specifier: string, line: number, resolution: Resolution | undefined): void {
  if (resolution === undefined) {
    own.unresolved.push({ from, specifier, line, reason: 'no resolution was computed for this specifier' });
    return;
  }
  if (resolution.kind === 'builtin') return;
  if (resolution.kind === 'external') {
    own.external.push({ from, specifier, line, packageName: resolution.packageName ?? specifier });
    return;
  }
  const reason =
    resolution.target === undefined
      ? (resolution.reason ?? 'unresolved')
      : `resolved to ${resolution.target}, which is not among the scanned files`;
  own.unresolved.push({ from, specifier, line, reason });
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

/** The names `path` exposes, with the exports each lands on (computed once per file and kept in the builder). */
export function getExportTableOf(builder: Builder, path: string): Map<string, ExportHit[]> {
  return getExportTable(builder, path, 0);
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

export function addUsesEdges(builder: Builder, files: readonly GraphFileInput[] = builder.files): void {
  for (const file of files) {
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

export function createSymbolIndex(builder: Builder): SymbolIndex {
  return new SymbolIndex({
    getFacts: (path) => builder.factsByPath.get(path),
    resolveImport: (path, specifier, index) => {
      const resolution = getResolutionLookup(builder, path)(specifier, index);
      const file = getRepoTarget(builder, resolution);
      const others = getPackageFiles(builder, resolution);
      if (file !== undefined) return others.length === 0 ? { file } : { file, others };
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
