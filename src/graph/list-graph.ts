import type { EdgeAttributes, EdgeKind, NodeAttributes } from '../model/graph.js';
import { createGraphStore, type EdgeCallback, type GraphStore, type KnowledgeStore } from './knowledge-graph.js';

/** A graph as lists: node ids and attributes, and edges as positions into them (graph/snapshot.ts). */
export interface GraphLists {
  ids: string[];
  nodes: NodeAttributes[];
  /** Source and target positions in `ids`, two numbers an edge. */
  ends: number[];
  /** An edge's attributes, or only its kind where that is all they hold. */
  edges: (EdgeAttributes | EdgeKind)[];
}

/**
 * A knowledge graph kept as the lists of the snapshot it was loaded from, written to and read as graphology would be:
 * what a CLI run that loads the kept graph builds on, patches and queries, so that it never fills graphology
 * (`toGraphStore`, the MCP server's store).
 *
 * Nodes and edges keep graphology's order: insertion order, a dropped one leaving it, one added again going last; a
 * node's edges come by neighbour, newest first (`births`); an edge's key is its position. The lists handed in are the
 * caller's checked snapshot (fromKnowledgeGraphSnapshot); they are copied, not changed.
 */
export class ListGraph implements KnowledgeStore {
  private readonly ids: string[];
  private readonly nodes: NodeAttributes[];
  private readonly ends: number[];
  private readonly edges: (EdgeAttributes | EdgeKind)[];
  /** Live nodes by id. */
  private readonly positions = new Map<string, number>();
  private readonly deadNodes = new Set<number>();
  private readonly deadEdges = new Set<number>();
  /** Nodes and edges the snapshot held: the adjacency of these edges is kept in `loaded`, of later ones in `added`. */
  private readonly loadedNodes: number;
  private readonly loadedEdges: number;
  private loaded: { outStart: Int32Array; out: Int32Array; inStart: Int32Array; in: Int32Array } | undefined;
  private readonly addedOut = new Map<number, number[]>();
  private readonly addedIn = new Map<number, number[]>();
  /** Attributes that hold only a kind, one frozen object per kind (as graph/snapshot.ts fills graphology). */
  private readonly bare = new Map<string, EdgeAttributes>();
  /**
   * graphology lists a node's edges by neighbour, neighbours in the order their first edge made them one (a neighbour
   * whose last edge went and who came back goes last), and each neighbour's edges newest first. The edges from one node
   * to another form that group on both sides (the source's out-edges, the target's in-edges): by source, then target,
   * here once written to since the load, the position of the edge that made the group, or -1 while it has no live
   * edge. A group not here was made by its first loaded edge.
   */
  private readonly births = new Map<number, Map<number, number>>();

  constructor(lists: GraphLists) {
    this.ids = lists.ids.slice();
    this.nodes = lists.nodes.slice();
    this.ends = lists.ends.slice();
    this.edges = lists.edges.slice();
    this.loadedNodes = this.ids.length;
    this.loadedEdges = this.edges.length;
    for (let position = 0; position < this.ids.length; position += 1) this.positions.set(this.ids[position] as string, position);
  }

  get order(): number {
    return this.ids.length - this.deadNodes.size;
  }

  get size(): number {
    return this.edges.length - this.deadEdges.size;
  }

  hasNode(node: string): boolean {
    return this.positions.has(node);
  }

  addNode(node: string, attributes: NodeAttributes): string {
    if (this.positions.has(node)) throw new Error(`ListGraph.addNode: the node "${node}" already exists`);
    this.positions.set(node, this.ids.length);
    this.ids.push(node);
    this.nodes.push(attributes);
    return node;
  }

  addDirectedEdge(source: string, target: string, attributes: EdgeAttributes): string {
    const from = this.positionOf(source, 'addDirectedEdge');
    const to = this.positionOf(target, 'addDirectedEdge');
    const edge = this.edges.length;
    const births = this.touchPair(from, to);
    if (births.get(to) === -1) births.set(to, edge);
    this.ends.push(from, to);
    this.edges.push(attributes);
    append(this.addedOut, from, edge);
    append(this.addedIn, to, edge);
    return String(edge);
  }

  dropNode(node: string): void {
    const position = this.positionOf(node, 'dropNode');
    const incident: number[] = [];
    this.visitEdges(position, 'out', (edge) => incident.push(edge));
    this.visitEdges(position, 'in', (edge) => incident.push(edge));
    for (const edge of incident) this.deadEdges.add(edge);
    this.deadNodes.add(position);
    this.positions.delete(node);
  }

  dropEdge(edge: string): void {
    const position = Number(edge);
    if (!Number.isInteger(position) || position < 0 || position >= this.edges.length || this.deadEdges.has(position))
      throw new Error(`ListGraph.dropEdge: no edge "${edge}"`);
    const source = this.ends[position * 2] as number;
    const target = this.ends[position * 2 + 1] as number;
    const births = this.touchPair(source, target);
    this.deadEdges.add(position);
    if (this.getPairEdges(source, target).length === 0) births.set(target, -1);
  }

  getNodeAttributes(node: string): NodeAttributes {
    return this.nodes[this.positionOf(node, 'getNodeAttributes')] as NodeAttributes;
  }

  replaceNodeAttributes(node: string, attributes: NodeAttributes): void {
    this.nodes[this.positionOf(node, 'replaceNodeAttributes')] = attributes;
  }

  forEachNode(callback: (node: string, attributes: NodeAttributes) => void): void {
    for (let position = 0; position < this.ids.length; position += 1) {
      if (!this.deadNodes.has(position)) callback(this.ids[position] as string, this.nodes[position] as NodeAttributes);
    }
  }

  forEachEdge(callback: EdgeCallback): void {
    for (let edge = 0; edge < this.edges.length; edge += 1) if (!this.deadEdges.has(edge)) this.callEdge(edge, callback);
  }

  /** Each live edge's kind, in edge order: what counting needs, without an edge key or attributes object per edge. */
  forEachEdgeKind(callback: (kind: EdgeKind) => void): void {
    for (let edge = 0; edge < this.edges.length; edge += 1) {
      if (this.deadEdges.has(edge)) continue;
      const stored = this.edges[edge] as EdgeAttributes | EdgeKind;
      callback(typeof stored === 'string' ? stored : stored.kind);
    }
  }

  forEachOutEdge(node: string, callback: EdgeCallback): void {
    this.forEachIncident(node, 'out', callback);
  }

  forEachInEdge(node: string, callback: EdgeCallback): void {
    this.forEachIncident(node, 'in', callback);
  }

  /** graphology's store of this graph: the same nodes and edges with the same attributes, in the same order. */
  toGraphStore(): GraphStore {
    const graph = createGraphStore();
    this.forEachNode((node, attributes) => {
      graph.addNode(node, attributes);
    });
    this.forEachEdge((_edge, attributes, source, target) => {
      graph.addDirectedEdge(source, target, attributes);
    });
    return graph;
  }

  /** The live graph as lists again, positions counted afresh (what a snapshot of it holds). */
  toLists(): GraphLists {
    const renumbered = new Map<number, number>();
    const ids: string[] = [];
    const nodes: NodeAttributes[] = [];
    for (let position = 0; position < this.ids.length; position += 1) {
      if (this.deadNodes.has(position)) continue;
      renumbered.set(position, ids.length);
      ids.push(this.ids[position] as string);
      nodes.push(this.nodes[position] as NodeAttributes);
    }
    const ends: number[] = [];
    const edges: (EdgeAttributes | EdgeKind)[] = [];
    for (let edge = 0; edge < this.edges.length; edge += 1) {
      if (this.deadEdges.has(edge)) continue;
      ends.push(renumbered.get(this.ends[edge * 2] as number) ?? -1, renumbered.get(this.ends[edge * 2 + 1] as number) ?? -1);
      edges.push(this.edges[edge] as EdgeAttributes | EdgeKind);
    }
    return { ids, nodes, ends, edges };
  }

  private positionOf(node: string, method: string): number {
    const position = this.positions.get(node);
    if (position === undefined) throw new Error(`ListGraph.${method}: no node "${node}"`);
    return position;
  }

  private attributesOf(edge: number): EdgeAttributes {
    const stored = this.edges[edge] as EdgeAttributes | EdgeKind;
    if (typeof stored !== 'string') return stored;
    let attributes = this.bare.get(stored);
    if (attributes === undefined) {
      attributes = Object.freeze({ kind: stored }) as EdgeAttributes;
      this.bare.set(stored, attributes);
    }
    return attributes;
  }

  private forEachIncident(node: string, direction: 'out' | 'in', callback: EdgeCallback): void {
    const position = this.positionOf(node, direction === 'out' ? 'forEachOutEdge' : 'forEachInEdge');
    for (const edge of this.getIncidentEdges(position, direction)) this.callEdge(edge, callback);
  }

  /** Calls `callback` as graphology would for the edge at `edge`: its key, attributes, ends and their attributes. */
  private callEdge(edge: number, callback: EdgeCallback): void {
    const source = this.ends[edge * 2] as number;
    const target = this.ends[edge * 2 + 1] as number;
    callback(
      String(edge),
      this.attributesOf(edge),
      this.ids[source] as string,
      this.ids[target] as string,
      this.nodes[source] as NodeAttributes,
      this.nodes[target] as NodeAttributes,
    );
  }

  /** The live edges at `position` in graphology's order (see `births`). */
  private getIncidentEdges(position: number, direction: 'out' | 'in'): number[] {
    const groups = new Map<number, number[]>();
    let isSingles = true;
    this.visitEdges(position, direction, (edge) => {
      const neighbor = this.ends[edge * 2 + (direction === 'out' ? 1 : 0)] as number;
      const group = groups.get(neighbor);
      if (group === undefined) groups.set(neighbor, [edge]);
      else {
        group.push(edge);
        isSingles = false;
      }
    });
    // Edges come in position order, so groups come in the order of their first live edge: graphology's, unless a group
    // lost its first edge or was emptied and made again since the load.
    let ordered = [...groups];
    if (this.births.size > 0) {
      const own = direction === 'out' ? this.births.get(position) : undefined;
      const birthOf = ([neighbor, edges]: [number, number[]]): number =>
        (direction === 'out' ? own?.get(neighbor) : this.births.get(neighbor)?.get(position)) ?? (edges[0] as number);
      const keyed = ordered.map((group) => ({ group, birth: birthOf(group) }));
      keyed.sort((left, right) => left.birth - right.birth);
      ordered = keyed.map(({ group }) => group);
    } else if (isSingles) return ordered.map(([, edges]) => edges[0] as number);
    const incident: number[] = [];
    for (const [, edges] of ordered) for (let index = edges.length - 1; index >= 0; index -= 1) incident.push(edges[index] as number);
    return incident;
  }

  /** The live edges from `source` to `target`, by position: read from the shorter of the two adjacency lists. */
  private getPairEdges(source: number, target: number): number[] {
    const fromSource = this.countEdges(source, 'out') <= this.countEdges(target, 'in');
    const edges: number[] = [];
    this.visitEdges(fromSource ? source : target, fromSource ? 'out' : 'in', (edge) => {
      if (this.ends[edge * 2] === source && this.ends[edge * 2 + 1] === target) edges.push(edge);
    });
    return edges;
  }

  /** How many edges (live or not) the adjacency of `position` in `direction` holds. */
  private countEdges(position: number, direction: 'out' | 'in'): number {
    let count = (direction === 'out' ? this.addedOut : this.addedIn).get(position)?.length ?? 0;
    if (position < this.loadedNodes) {
      const loaded = this.getLoadedAdjacency();
      const start = direction === 'out' ? loaded.outStart : loaded.inStart;
      count += (start[position + 1] as number) - (start[position] as number);
    }
    return count;
  }

  /** The births of `source`'s groups, that of the group of edges to `target` recorded before its first write. */
  private touchPair(source: number, target: number): Map<number, number> {
    let births = this.births.get(source);
    if (births === undefined) {
      births = new Map();
      this.births.set(source, births);
    }
    if (!births.has(target)) births.set(target, this.getPairEdges(source, target)[0] ?? -1);
    return births;
  }

  /** The live edges leaving (`out`) or reaching (`in`) the node at `position`: the snapshot's, then those added. */
  private visitEdges(position: number, direction: 'out' | 'in', visit: (edge: number) => void): void {
    if (position < this.loadedNodes) {
      const loaded = this.getLoadedAdjacency();
      const start = direction === 'out' ? loaded.outStart : loaded.inStart;
      const list = direction === 'out' ? loaded.out : loaded.in;
      for (let index = start[position] as number; index < (start[position + 1] as number); index += 1) {
        const edge = list[index] as number;
        if (!this.deadEdges.has(edge)) visit(edge);
      }
    }
    for (const edge of (direction === 'out' ? this.addedOut : this.addedIn).get(position) ?? []) {
      if (!this.deadEdges.has(edge)) visit(edge);
    }
  }

  /** The snapshot's edges by source and by target, counted out once (two passes over the edges, no objects). */
  private getLoadedAdjacency(): NonNullable<ListGraph['loaded']> {
    if (this.loaded !== undefined) return this.loaded;
    const nodes = this.loadedNodes;
    const outStart = new Int32Array(nodes + 1);
    const inStart = new Int32Array(nodes + 1);
    for (let edge = 0; edge < this.loadedEdges; edge += 1) {
      const source = (this.ends[edge * 2] as number) + 1;
      const target = (this.ends[edge * 2 + 1] as number) + 1;
      outStart[source] = (outStart[source] as number) + 1;
      inStart[target] = (inStart[target] as number) + 1;
    }
    for (let position = 0; position < nodes; position += 1) {
      outStart[position + 1] = (outStart[position + 1] as number) + (outStart[position] as number);
      inStart[position + 1] = (inStart[position + 1] as number) + (inStart[position] as number);
    }
    const out = new Int32Array(this.loadedEdges);
    const into = new Int32Array(this.loadedEdges);
    const outNext = outStart.slice(0, nodes);
    const inNext = inStart.slice(0, nodes);
    for (let edge = 0; edge < this.loadedEdges; edge += 1) {
      const source = this.ends[edge * 2] as number;
      const target = this.ends[edge * 2 + 1] as number;
      const outAt = outNext[source] as number;
      const inAt = inNext[target] as number;
      out[outAt] = edge;
      into[inAt] = edge;
      outNext[source] = outAt + 1;
      inNext[target] = inAt + 1;
    }
    this.loaded = { outStart, out, inStart, in: into };
    return this.loaded;
  }
}

function append(map: Map<number, number[]>, key: number, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
