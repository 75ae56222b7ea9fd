import type { EdgeAttributes, EdgeKind, GraphInput, NodeAttributes, RouteNode, RouteRegistration } from '../model/graph.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { UnresolvedImport } from '../model/resolve.js';
import { createBuilder, sortGraphFiles } from './build-context.js';
import { createSymbolIndex } from './build-modules.js';
import { parseCodeowners } from './codeowners.js';
import { type GraphLists, ListGraph } from './list-graph.js';
import { keepPatchState } from './patch.js';
import type { ExternalImport, GraphLimits, KnowledgeGraph, KnowledgeStore, ReexportBinding, UnmatchedMount } from './knowledge-graph.js';
import type { RouteLimitation } from './routes/compose-routes.js';

/**
 * A built knowledge graph as plain data, for a later process to load instead of building it again (the CLI's warm
 * runs, src/app/graph-snapshot.ts). Node ids are listed once and edges refer to them by position, so loading hashes
 * each id once and allocates no edge keys; attributes are kept as they are, but for the parts route nodes share
 * (`routeParts`). What a graph derives from its input without walking it (the symbol index, parsed CODEOWNERS) is
 * made again on load from the same input.
 */
export interface KnowledgeGraphSnapshot {
  ids: string[];
  nodes: StoredNode[];
  /** Source and target positions in `ids`, two numbers an edge, in the graph's edge order. */
  ends: number[];
  /** An edge's attributes, or only its kind where that is all they hold (`declares`, `belongs`, `depends`). */
  edges: (EdgeAttributes | EdgeKind)[];
  unresolvedImports: UnresolvedImport[];
  externalImports: ExternalImport[];
  parseFailures: KnowledgeGraph['parseFailures'];
  unmatchedMounts: UnmatchedMount[];
  routeLimitations?: RouteLimitation[];
  diagnostics: Diagnostic[];
  reexportBindings?: [string, ReexportBinding[]][];
  routeSources?: string[];
  /**
   * The guards, chain links and mounts of the route nodes, each stored once and named by its position: a router's
   * chain is repeated on every route it serves (1.57 of outline's 1.7 MB of route nodes), and loading shares one object
   * between them (nothing changes a node's attributes in place: a patch replaces them).
   */
  routeParts: unknown[];
}

/** A node as a snapshot keeps it: a route node's guards, chain links and mounts as positions in `routeParts`. */
type StoredNode = Exclude<NodeAttributes, RouteNode> | StoredRouteNode;

interface StoredRouteNode extends Omit<RouteNode, 'guards' | 'registrations'> {
  guards?: number[];
  registrations?: (Omit<RouteRegistration, 'chain' | 'mounts'> & { chain: number[]; mounts: number[] })[];
}

export function toKnowledgeGraphSnapshot(knowledge: KnowledgeGraph): KnowledgeGraphSnapshot {
  const lists = peekGraphLists(knowledge);
  const { ids, nodes, ends, edges } = lists === undefined ? toLists(knowledge.graph) : lists.toLists();
  const routeParts: unknown[] = [];
  const positions = new Map<string, number>();
  const place = (part: unknown): number => {
    const key = JSON.stringify(part);
    let position = positions.get(key);
    if (position === undefined) {
      position = routeParts.push(part) - 1;
      positions.set(key, position);
    }
    return position;
  };
  return {
    ids,
    nodes: nodes.map((node) => (node.kind === 'route' ? toStoredRoute(node, place) : node)),
    ends,
    edges: edges.map((stored) => (typeof stored !== 'string' && Object.keys(stored).length === 1 ? stored.kind : stored)),
    unresolvedImports: knowledge.unresolvedImports,
    externalImports: knowledge.externalImports,
    parseFailures: knowledge.parseFailures,
    unmatchedMounts: knowledge.unmatchedMounts,
    ...(knowledge.routeLimitations === undefined ? {} : { routeLimitations: knowledge.routeLimitations }),
    diagnostics: knowledge.diagnostics,
    ...(knowledge.reexportBindings === undefined ? {} : { reexportBindings: [...knowledge.reexportBindings] }),
    ...(knowledge.routeSources === undefined ? {} : { routeSources: knowledge.routeSources }),
    routeParts,
  };
}

/** The route node with its parts replaced by their positions, its keys in the same order. */
function toStoredRoute(node: RouteNode, place: (part: unknown) => number): StoredRouteNode {
  const stored: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'guards') stored[key] = node.guards?.map(place);
    else if (key === 'registrations')
      stored[key] = node.registrations?.map((registration) => ({
        ...registration,
        chain: registration.chain.map(place),
        mounts: registration.mounts.map(place),
      }));
    else stored[key] = value;
  }
  return stored as unknown as StoredRouteNode;
}

/** The route node a stored one stands for, each part the one object `parts` holds; throws when a position is not one. */
function toRouteNode(node: StoredRouteNode, parts: readonly unknown[], index: number): RouteNode {
  const malformed = (): Error => new Error(`snapshot: node ${index} is malformed`);
  const take = (positions: unknown): unknown[] => {
    if (!Array.isArray(positions)) throw malformed();
    return positions.map((position) => {
      if (!isPosition(position, parts.length)) throw malformed();
      return parts[position];
    });
  };
  const route: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'guards') route[key] = take(value);
    else if (key === 'registrations') {
      if (!Array.isArray(value)) throw malformed();
      route[key] = value.map((registration: unknown) => {
        if (typeof registration !== 'object' || registration === null) throw malformed();
        const copy: Record<string, unknown> = {};
        for (const [field, held] of Object.entries(registration)) copy[field] = field === 'chain' || field === 'mounts' ? take(held) : held;
        return copy;
      });
    } else route[key] = value;
  }
  return route as unknown as RouteNode;
}

/**
 * The knowledge graph a snapshot holds, for the `input` it was built from: the same nodes and edges with the same
 * attributes, in the same order, so every query answers as it would on the built graph (test/app/graph-snapshot.slow.test.ts
 * compares them). Throws when the snapshot does not hold together (an edge naming no node, a node without a kind or
 * named twice, more elements than `limits` allow): the caller builds instead. A `patchable` graph keeps what
 * `patchKnowledgeGraph` needs; its builder's lazily made tables start empty, so a patch treats every barrel it reaches
 * as changed.
 *
 * With `store: 'graphology'` (the MCP server, which keeps the graph, patches it in place and walks it on every call)
 * the graphology store is filled at once. Otherwise the graph stays the snapshot's lists (`ListGraph`): a patch writes
 * to them and every query reads them as it would graphology, so a CLI run never fills graphology (a third of a warm
 * run; 0.22 s of an `ai` after a one-line edit on the 17k-file tree). Everything a fill could throw on is checked here.
 */
export function fromKnowledgeGraphSnapshot(
  snapshot: KnowledgeGraphSnapshot,
  input: GraphInput,
  limits: GraphLimits,
  options: {
    patchable?: boolean;
    store?: 'graphology' | 'lists';
    isBuiltFromFacts?: boolean;
    routeDigests?: ReadonlyMap<string, string>;
  } = {},
): KnowledgeGraph {
  const { ids, ends, edges } = snapshot;
  const parts = snapshot.routeParts;
  if (!Array.isArray(parts)) throw new Error('snapshot: no route parts');
  const nodes = snapshot.nodes.map((node, index) => (isKindRecord(node) && node.kind === 'route' ? toRouteNode(node, parts, index) : node));
  if (ids.length !== nodes.length || ends.length !== edges.length * 2) throw new Error('snapshot: node or edge lists differ in length');
  if (ids.length + edges.length > limits.maxElements) throw new Error('snapshot: more elements than the graph limit');
  const fileIds = new Map<string, string>();
  const exportIds = new Map<string, Map<string, string>>();
  for (let index = 0; index < ids.length; index += 1) {
    const id = ids[index];
    const attributes = nodes[index];
    if (typeof id !== 'string' || !isKindRecord(attributes)) throw new Error(`snapshot: node ${index} is malformed`);
    if (attributes.kind === 'file') fileIds.set(attributes.path, id);
    else if (attributes.kind === 'export') {
      const byName = exportIds.get(attributes.path) ?? new Map<string, string>();
      byName.set(attributes.name, id);
      exportIds.set(attributes.path, byName);
    }
  }
  if (new Set(ids).size !== ids.length) throw new Error('snapshot: a node id is listed twice');
  for (let index = 0; index < edges.length; index += 1) {
    const source = ends[index * 2];
    const target = ends[index * 2 + 1];
    const stored = edges[index];
    if (!isPosition(source, ids.length) || !isPosition(target, ids.length) || !(typeof stored === 'string' || isKindRecord(stored)))
      throw new Error(`snapshot: edge ${index} is malformed`);
  }
  const result = {
    fileIds,
    unresolvedImports: snapshot.unresolvedImports,
    externalImports: snapshot.externalImports,
    parseFailures: snapshot.parseFailures,
    unmatchedMounts: snapshot.unmatchedMounts,
    diagnostics: snapshot.diagnostics,
    ...(snapshot.routeLimitations === undefined ? {} : { routeLimitations: snapshot.routeLimitations }),
    ...(snapshot.reexportBindings === undefined ? {} : { reexportBindings: new Map(snapshot.reexportBindings) }),
    // A list of paths, or none (a patch then reads every file's facts to find the route files).
    ...(isStringList(snapshot.routeSources) ? { routeSources: snapshot.routeSources } : {}),
  } as KnowledgeGraph;
  // The codeowners' own diagnostics are already among the snapshot's.
  if (input.codeowners !== undefined) result.codeowners = parseCodeowners(input.codeowners.path, input.codeowners.text);
  const lists = new ListGraph({ ids, nodes: nodes as NodeAttributes[], ends, edges });
  result.graph = options.store === 'graphology' ? lists.toGraphStore() : lists;
  const builder = createBuilder(input, sortGraphFiles(input.files), result, limits);
  builder.exportIds = exportIds;
  for (const file of builder.files) if (file.facts !== undefined) builder.factsByPath.set(file.path, file.facts);
  // A build makes the symbol index while it composes routes, whatever the repository holds.
  result.symbols = createSymbolIndex(builder);
  if (options.patchable === true) keepPatchState(result, builder, options.isBuiltFromFacts === true, options.routeDigests);
  return result;
}

/** A store as lists: ids once, edges as positions into them, in the store's order. */
function toLists(graph: KnowledgeStore): GraphLists {
  const ids: string[] = [];
  const nodes: NodeAttributes[] = [];
  const positions = new Map<string, number>();
  graph.forEachNode((id, attributes) => {
    positions.set(id, ids.length);
    ids.push(id);
    nodes.push(attributes);
  });
  const ends: number[] = [];
  const edges: EdgeAttributes[] = [];
  graph.forEachEdge((_edge, attributes, source, target) => {
    ends.push(positions.get(source) ?? -1, positions.get(target) ?? -1);
    edges.push(attributes);
  });
  return { ids, nodes, ends, edges };
}

/**
 * The lists `knowledge` is kept in when it was loaded from a snapshot for the CLI; undefined for a graphology store (a
 * built graph, the MCP server's). They answer what graphology would, and some questions (counts) more cheaply.
 */
export function peekGraphLists(knowledge: KnowledgeGraph): ListGraph | undefined {
  return knowledge.graph instanceof ListGraph ? knowledge.graph : undefined;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isPosition(value: unknown, length: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < length;
}

function isKindRecord(value: unknown): value is { kind: string } {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}
