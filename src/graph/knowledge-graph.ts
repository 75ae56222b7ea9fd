import type { SymbolIndex } from './symbol-index.js';
import type { RouteLimitation } from './routes/compose-routes.js';
import type { Codeowners } from './codeowners.js';
import type { UnresolvedImport } from '../model/resolve.js';
import type { EdgeAttributes, NodeAttributes } from '../model/graph.js';
import type { ParseFailure } from '../model/facts.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { MultiDirectedGraph } from 'graphology';

export type GraphStore = MultiDirectedGraph<NodeAttributes, EdgeAttributes>;

export type EdgeCallback = (
  edge: string,
  attributes: EdgeAttributes,
  source: string,
  target: string,
  sourceAttributes: NodeAttributes,
  targetAttributes: NodeAttributes,
) => void;

/**
 * What a knowledge graph's nodes and edges are kept in, as every stage of a build and every query uses it: graphology's
 * store (`GraphStore`: a graph built from facts, and the MCP server's, which it patches in place), or the lists a kept
 * graph was loaded into (`ListGraph`, src/graph/list-graph.ts), which answer the same calls with the same nodes, edges
 * and order. An edge's key names it only within its store.
 */
export interface KnowledgeStore {
  readonly order: number;
  readonly size: number;
  hasNode(node: string): boolean;
  addNode(node: string, attributes: NodeAttributes): string;
  addDirectedEdge(source: string, target: string, attributes: EdgeAttributes): string;
  dropNode(node: string): void;
  dropEdge(edge: string): unknown;
  getNodeAttributes(node: string): NodeAttributes;
  replaceNodeAttributes(node: string, attributes: NodeAttributes): unknown;
  forEachNode(callback: (node: string, attributes: NodeAttributes) => void): void;
  forEachEdge(callback: EdgeCallback): void;
  forEachOutEdge(node: string, callback: EdgeCallback): void;
  forEachInEdge(node: string, callback: EdgeCallback): void;
}

/** What graphology keeps per node: its neighbours in two objects keyed by neighbour id (a private of graphology 0.26). */
interface NodeAdjacency {
  in: Record<string, unknown>;
  out: Record<string, unknown>;
}

/**
 * The knowledge graph's store: graphology's multi-graph whose nodes keep their neighbours in objects made in V8's
 * dictionary mode. graphology makes them as `{}`, and V8 gives a plain object a new hidden class for each key it is
 * given: filling a graph of 235k edges made as many hidden classes, a third of the fill's time and much of its
 * garbage collection (650 -> 370 ms for the 10k synthetic repository's kept graph). The objects hold the same keys in
 * the same order, so every query answers as before. A graphology without that private (`_nodes`) leaves them as made.
 */
class KnowledgeGraphStore extends MultiDirectedGraph<NodeAttributes, EdgeAttributes> {
  override addNode(node: string, attributes?: NodeAttributes): string {
    const key = super.addNode(node, attributes);
    const nodes = (this as unknown as { _nodes?: Map<string, Partial<NodeAdjacency>> })._nodes;
    const adjacency = nodes?.get(key);
    if (adjacency?.in !== undefined && adjacency.out !== undefined) {
      adjacency.in = createDictionary();
      adjacency.out = createDictionary();
    }
    return key;
  }
}

/** An empty object in V8's dictionary mode: deleting a property other than the last one added leaves it there. */
function createDictionary(): Record<string, unknown> {
  const object: Record<string, unknown> = { first: 0, second: 0 };
  delete object.first;
  delete object.second;
  return object;
}

export function createGraphStore(): GraphStore {
  return new KnowledgeGraphStore({ allowSelfLoops: true });
}

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
  graph: KnowledgeStore;
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
  /** The files routes were composed from (those declaring routes, mounts or middleware), in file order. */
  routeSources?: string[];
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
 * 2 million nodes and edges: a 50,000-file tree of the synthetic corpus holds 1,501,593 (30 a file, bench/scale.ts),
 * just over the old default of 1.5 million, which refused `ai` there. This admits ~65,000 such files, ~95,000 files of
 * ordinary code (some 21 a file) or a 400,000-file import chain (5 a file). An analysis needs about 2 KB of heap per
 * element at its peak (bench/deep-chain.ts: 250,000 elements need 400-600 MB; `ai` on the 50,000 files, 3.3 GB RSS),
 * so this stays inside Node's default heap of 4 GB on a machine of 16 GB or more, where going over it ends in a V8
 * abort with a native stack trace.
 */
export const DEFAULT_GRAPH_LIMITS: GraphLimits = { maxElements: 2_000_000 };
