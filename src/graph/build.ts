import type { GraphInput } from '../model/graph.js';
import { countElementsAtLeast, createBuilder, createGraphLimitError, sortGraphFiles } from './build-context.js';
import { addKnowledge } from './build-knowledge.js';
import { addDeclarations, addFileNodes, addImportEdges, addNonRepoImports, addReexportBindings, addUsesEdges } from './build-modules.js';
import { addOwners, addPackages } from './build-owners.js';
import { addRoutes } from './build-routes.js';
import { addTestEdges } from './build-tests.js';
import { keepPatchState } from './patch.js';
import { createGraphStore, DEFAULT_GRAPH_LIMITS, type GraphLimits, type KnowledgeGraph } from './knowledge-graph.js';

export type { GraphLimits, KnowledgeGraph, KnowledgeStore } from './knowledge-graph.js';
export { DEFAULT_GRAPH_LIMITS } from './knowledge-graph.js';

/**
 * Builds the knowledge graph from scanned files, their facts and resolutions, and the documents around
 * the code. Inputs are sorted first, so the same repository state always yields the same node ids and
 * insertion order (edge keys are graphology's own). Throws `limits/graph-too-large` (a CheckerError)
 * when the graph would exceed `limits.maxElements`, before the heap gives out. A `patchable` graph
 * keeps the build's tables for `patchKnowledgeGraph` (patch.ts).
 */
export function buildKnowledgeGraph(
  input: GraphInput,
  limits: GraphLimits = DEFAULT_GRAPH_LIMITS,
  options: { patchable?: boolean } = {},
): KnowledgeGraph {
  const files = sortGraphFiles(input.files);
  if (countElementsAtLeast(files) > limits.maxElements) throw createGraphLimitError(limits, files.length, 'needs at least');
  const result: KnowledgeGraph = {
    graph: createGraphStore(),
    fileIds: new Map(),
    unresolvedImports: [],
    externalImports: [],
    parseFailures: [],
    unmatchedMounts: [],
    diagnostics: [],
  };
  const builder = createBuilder(input, files, result, limits);
  addFileNodes(builder);
  addDeclarations(builder);
  addImportEdges(builder);
  addNonRepoImports(builder);
  addReexportBindings(builder);
  addUsesEdges(builder);
  addTestEdges(builder);
  addRoutes(builder);
  addOwners(builder);
  addPackages(builder);
  addKnowledge(builder);
  if (options.patchable === true) keepPatchState(result, builder, true);
  return result;
}
