import { compareText } from '../text/compare-text.js';
import { toFileId } from './ids.js';
import type { Resolution } from '../model/resolve.js';
import type { EdgeAttributes, GraphFileInput, GraphInput, NodeAttributes } from '../model/graph.js';
import type { ExportFact, FileFacts } from '../model/facts.js';
import { CheckerError } from '../model/diagnostic.js';
import type { GraphLimits, KnowledgeGraph, KnowledgeStore } from './knowledge-graph.js';

/** The state one build threads through its stages, and the node and edge primitives every stage shares. */

export interface Builder {
  input: GraphInput;
  /** The store stages write to: `result.graph` for a build, the snapshot's lists for a graph loaded from one. */
  graph: KnowledgeStore;
  files: GraphFileInput[];
  fileIds: Map<string, string>;
  exportIds: Map<string, Map<string, string>>;
  factsByPath: Map<string, FileFacts>;
  lookups: Map<string, ResolutionLookup>;
  exportTables: Map<string, Map<string, ExportHit[]>>;
  chainsInProgress: Set<string>;
  exportFacts: Map<string, Map<string, ExportFact>>;
  result: KnowledgeGraph;
  limits: GraphLimits;
}

/** A builder over `graph` with nothing derived yet: every table a stage or a query fills on first use starts empty. */
export function createBuilder(
  input: GraphInput,
  files: GraphFileInput[],
  result: KnowledgeGraph,
  limits: GraphLimits,
  graph: KnowledgeStore = result.graph,
): Builder {
  return {
    input,
    graph,
    files,
    fileIds: result.fileIds,
    exportIds: new Map(),
    factsByPath: new Map(),
    lookups: new Map(),
    exportTables: new Map(),
    chainsInProgress: new Set(),
    exportFacts: new Map(),
    result,
    limits,
  };
}

type ResolutionLookup = (specifier: string, index?: number) => Resolution | undefined;

export function addEdge(builder: Builder, source: string, target: string, attributes: EdgeAttributes): void {
  if (builder.graph.size + builder.graph.order >= builder.limits.maxElements)
    throw createGraphLimitError(builder.limits, builder.files.length, 'would hold');
  // graphology's own short keys: nothing looks an edge up by key, and a `kind:source->target` key per edge cost
  // ~100 bytes and a hash of a long string each (235,000 edges at 10,000 files), and could not survive a patch.
  builder.graph.addDirectedEdge(source, target, attributes);
}

export function createGraphLimitError(limits: GraphLimits, files: number, verb: 'would hold' | 'needs at least'): CheckerError {
  return new CheckerError(
    'limits/graph-too-large',
    `The knowledge graph of ${files} files ${verb} more than ${limits.maxElements} nodes and edges (the graph limit, analysis.maxGraphElements), so checker stops here instead of running out of memory.`,
    {
      hint: 'Leave generated, vendored or fixture folders out with analysis.ignore in .checker/config.yml, run checker on one package or sub-folder with --cwd <folder>, or raise analysis.maxGraphElements if the machine has the memory (about 2 KB per element).',
    },
  );
}

/** The input files by path, the first of each path only: the order every build stage walks. */
export function sortGraphFiles(files: readonly GraphFileInput[]): GraphFileInput[] {
  const byPath = new Map<string, GraphFileInput>();
  for (const file of files) if (!byPath.has(file.path)) byPath.set(file.path, file);
  return [...byPath.values()].sort((left, right) => compareText(left.path, right.path));
}

/** Files, exports and imports: a floor for the graph's size, known before any node is added. */
export function countElementsAtLeast(files: readonly GraphFileInput[]): number {
  let count = files.length;
  for (const file of files) count += (file.facts?.exports.length ?? 0) + (file.facts?.imports.length ?? 0);
  return count;
}

/** Reuses the id string stored at node creation: graphology hashes flat, already-seen strings much faster. */
export function getFileId(builder: Builder, path: string): string {
  return builder.fileIds.get(path) ?? toFileId(path);
}

export function addNodeOnce(graph: KnowledgeStore, id: string, attributes: NodeAttributes): boolean {
  if (graph.hasNode(id)) return false;
  graph.addNode(id, attributes);
  return true;
}

export function getResolutionLookup(builder: Builder, path: string): ResolutionLookup {
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

export function getRepoTarget(builder: Builder, resolution: Resolution | undefined): string | undefined {
  const target = resolution?.target;
  return target !== undefined && builder.fileIds.has(target) ? target : undefined;
}

/** The file Node runs when the resolution landed on a declaration (`Resolution.runtimeTarget`), when it is a repository file. */
export function getRuntimeTarget(builder: Builder, resolution: Resolution | undefined): string | undefined {
  const target = resolution?.runtimeTarget;
  return target !== undefined && builder.fileIds.has(target) ? target : undefined;
}

/** The other files of a Go package the import lands on (`Resolution.packageFiles`) that are repository files. */
export function getPackageFiles(builder: Builder, resolution: Resolution | undefined): string[] {
  return resolution?.packageFiles?.filter((path) => builder.fileIds.has(path)) ?? [];
}

export interface ExportHit {
  id: string;
  through: string[];
}
