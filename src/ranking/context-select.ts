import { createGraphCache } from '../graph/graph-cache.js';
import type { KnowledgeGraph, KnowledgeStore } from '../graph/build.js';
import { toFileId } from '../graph/ids.js';
import { findReverseReach, type ReachedFile } from '../graph/queries/reverse-reach.js';
import { EDGE_KINDS, type NodeKind } from '../model/graph.js';
import type { ContextEdge, ContextExplanation, ContextNode, ContextSeed, ContextSelection, EdgeWeights } from '../model/grounding.js';
import { compareText } from '../text/compare-text.js';

/**
 * Relevance flowing along an edge in its own direction (importer → imported, route → handler, test file →
 * tested file, decision → mentioned file, owner → owned file, HTTP caller → route). Used when no context-weight pack says otherwise.
 * `declares` is low forward so a file's many exports and test cases do not crowd out its neighbours.
 */
export const DEFAULT_EDGE_WEIGHTS: EdgeWeights = {
  imports: 1,
  reexports: 0.9,
  declares: 0.3,
  uses: 0.5,
  tests: 0.9,
  mocks: 0.5,
  handles: 1,
  owns: 0.3,
  mentions: 0.7,
  belongs: 0.2,
  depends: 0.2,
  guards: 0.6,
  calls: 0.7,
};

/**
 * Relevance flowing against an edge (imported → importer, handler → route, tested file → its tests,
 * file → decisions and memory that mention it, file → owner). Importers matter less than imports; a
 * file's tests, routes and the knowledge about it matter as much in both directions.
 */
const DEFAULT_REVERSE_EDGE_WEIGHTS: EdgeWeights = {
  imports: 0.6,
  reexports: 0.6,
  declares: 0.8,
  uses: 0.4,
  tests: 0.9,
  mocks: 0.3,
  handles: 1,
  owns: 0.3,
  mentions: 0.7,
  belongs: 0.1,
  depends: 0.1,
  guards: 0.5,
  calls: 0.7,
};

export interface SelectContextOptions {
  maxNodes: number;
  /** Forward weights per edge kind (a context-weight pack); `DEFAULT_EDGE_WEIGHTS` when none is loaded. */
  edgeWeights: EdgeWeights;
  /** Reverse weights; by default each kind's forward weight scaled by the default reverse/forward ratio. */
  reverseEdgeWeights?: EdgeWeights;
  /** Selected before anything else, in this order. */
  mustInclude?: string[];
  /** Ids (impacted files, say) that must be either selected or listed in `omitted.accountedFor`. */
  accountFor?: string[];
  /** Only nodes within this many hops of a seed are ranked (default 4). */
  maxHops?: number;
  /** At most this many nodes are ranked, nearest first (default the larger of 4,000 and 50 × maxNodes). */
  maxSubgraphNodes?: number;
  /** Default 0.85. */
  damping?: number;
  /** Default 30. */
  maxIterations?: number;
  /** L1 change below which iteration stops (default 1e-6). */
  tolerance?: number;
}

const DEFAULT_MAX_HOPS = 4;
const MIN_SUBGRAPH_NODES = 4000;
const SUBGRAPH_NODES_PER_SELECTED = 50;
const DEFAULT_DAMPING = 0.85;
const DEFAULT_MAX_ITERATIONS = 30;
const DEFAULT_TOLERANCE = 1e-6;
const EXPLANATIONS = 3;
const OMITTED_TOP = 10;
const FORWARD = 0;
const REVERSE = 1;

/** Both-direction adjacency of the whole graph in compressed rows, built once per graph state. */
interface Adjacency {
  order: number;
  size: number;
  ids: string[];
  kinds: NodeKind[];
  indexById: Map<string, number>;
  offsets: Int32Array;
  neighbours: Int32Array;
  edgeKinds: Uint8Array;
  directions: Uint8Array;
}

const adjacencyCache = createGraphCache<Adjacency>();

function getAdjacency(graph: KnowledgeStore): Adjacency {
  const cached = adjacencyCache.get(graph);
  if (cached !== undefined && cached.order === graph.order && cached.size === graph.size) return cached;
  const ids: string[] = [];
  const kinds: NodeKind[] = [];
  const indexById = new Map<string, number>();
  graph.forEachNode((id, attributes) => {
    indexById.set(id, ids.length);
    ids.push(id);
    kinds.push(attributes.kind);
  });
  const kindIndex = new Map(EDGE_KINDS.map((kind, index) => [kind, index]));
  const sources = new Int32Array(graph.size);
  const targets = new Int32Array(graph.size);
  const edgeKindOf = new Uint8Array(graph.size);
  const degree = new Int32Array(ids.length + 1);
  let count = 0;
  graph.forEachEdge((_edge, attributes, source, target) => {
    const from = indexById.get(source) ?? 0;
    const to = indexById.get(target) ?? 0;
    sources[count] = from;
    targets[count] = to;
    edgeKindOf[count] = kindIndex.get(attributes.kind) ?? 0;
    degree[from] = (degree[from] ?? 0) + 1;
    degree[to] = (degree[to] ?? 0) + 1;
    count += 1;
  });
  const offsets = new Int32Array(ids.length + 1);
  for (let index = 0; index < ids.length; index += 1) offsets[index + 1] = (offsets[index] ?? 0) + (degree[index] ?? 0);
  const cursor = offsets.slice(0, ids.length);
  const neighbours = new Int32Array(count * 2);
  const edgeKinds = new Uint8Array(count * 2);
  const directions = new Uint8Array(count * 2);
  for (let edge = 0; edge < count; edge += 1) {
    const from = sources[edge] ?? 0;
    const to = targets[edge] ?? 0;
    const kind = edgeKindOf[edge] ?? 0;
    const out = cursor[from] ?? 0;
    neighbours[out] = to;
    edgeKinds[out] = kind;
    directions[out] = FORWARD;
    cursor[from] = out + 1;
    const back = cursor[to] ?? 0;
    neighbours[back] = from;
    edgeKinds[back] = kind;
    directions[back] = REVERSE;
    cursor[to] = back + 1;
  }
  const adjacency: Adjacency = { order: graph.order, size: graph.size, ids, kinds, indexById, offsets, neighbours, edgeKinds, directions };
  adjacencyCache.set(graph, adjacency);
  return adjacency;
}

function toWeightTable(weights: EdgeWeights): Float64Array {
  return Float64Array.from(EDGE_KINDS, (kind) => Math.max(0, weights[kind]));
}

function getReverseWeights(options: SelectContextOptions): EdgeWeights {
  if (options.reverseEdgeWeights !== undefined) return options.reverseEdgeWeights;
  const reverse = { ...DEFAULT_REVERSE_EDGE_WEIGHTS };
  for (const kind of EDGE_KINDS) {
    const base = DEFAULT_EDGE_WEIGHTS[kind];
    reverse[kind] = base === 0 ? 0 : (options.edgeWeights[kind] * DEFAULT_REVERSE_EDGE_WEIGHTS[kind]) / base;
  }
  return reverse;
}

interface Subgraph {
  /** Global node indexes, in discovery order. */
  nodes: number[];
  /** Global index → local index, -1 outside. */
  local: Int32Array;
  rowStart: Int32Array;
  targets: Int32Array;
  /** Transition probability of each local entry (weight / out-weight of its row). */
  probabilities: Float64Array;
  /** Summed weight of each row's entries inside the subgraph. */
  outWeights: Float64Array;
  /** Rows with no positive-weight entry inside the subgraph. */
  dangling: Uint8Array;
  edgeCount: number;
}

function buildSubgraph(
  adjacency: Adjacency,
  seeds: number[],
  limits: { maxHops: number; maxNodes: number },
  forward: Float64Array,
  reverse: Float64Array,
): Subgraph {
  const { maxHops, maxNodes } = limits;
  const local = new Int32Array(adjacency.ids.length).fill(-1);
  const nodes: number[] = [];
  const hops: number[] = [];
  for (const seed of seeds) {
    if (local[seed] !== -1) continue;
    local[seed] = nodes.length;
    nodes.push(seed);
    hops.push(0);
  }
  const { offsets, neighbours, directions, edgeKinds } = adjacency;
  for (let head = 0; head < nodes.length && nodes.length < maxNodes; head += 1) {
    const current = nodes[head] ?? 0;
    const hop = hops[head] ?? 0;
    if (hop >= maxHops) continue;
    const end = offsets[current + 1] ?? 0;
    for (let entry = offsets[current] ?? 0; entry < end; entry += 1) {
      const next = neighbours[entry] ?? 0;
      if (local[next] !== -1) continue;
      const kind = edgeKinds[entry] ?? 0;
      const weight = (directions[entry] === FORWARD ? forward[kind] : reverse[kind]) ?? 0;
      if (weight <= 0) continue;
      local[next] = nodes.length;
      nodes.push(next);
      hops.push(hop + 1);
      if (nodes.length >= maxNodes) break;
    }
  }
  let entries = 0;
  for (const current of nodes) entries += (offsets[current + 1] ?? 0) - (offsets[current] ?? 0);
  const rowStart = new Int32Array(nodes.length + 1);
  const targets = new Int32Array(entries);
  const probabilities = new Float64Array(entries);
  const outWeights = new Float64Array(nodes.length);
  const dangling = new Uint8Array(nodes.length);
  let edgeCount = 0;
  let cursor = 0;
  for (let row = 0; row < nodes.length; row += 1) {
    const current = nodes[row] ?? 0;
    const end = offsets[current + 1] ?? 0;
    const first = cursor;
    let total = 0;
    for (let entry = offsets[current] ?? 0; entry < end; entry += 1) {
      const target = local[neighbours[entry] ?? 0] ?? -1;
      if (target === -1) continue;
      const isForward = directions[entry] === FORWARD;
      if (isForward) edgeCount += 1;
      const kind = edgeKinds[entry] ?? 0;
      const weight = (isForward ? forward[kind] : reverse[kind]) ?? 0;
      if (weight <= 0) continue;
      targets[cursor] = target;
      probabilities[cursor] = weight;
      cursor += 1;
      total += weight;
    }
    if (total === 0) dangling[row] = 1;
    else for (let index = first; index < cursor; index += 1) probabilities[index] = (probabilities[index] ?? 0) / total;
    outWeights[row] = total;
    rowStart[row + 1] = cursor;
  }
  return { nodes, local, rowStart, targets, probabilities, outWeights, dangling, edgeCount };
}

/** Personalized PageRank by power iteration: teleport to the seeds by weight, dangling mass back to the seeds. */
function rank(subgraph: Subgraph, teleport: Float64Array, damping: number, maxIterations: number, tolerance: number) {
  const size = subgraph.nodes.length;
  const { rowStart, targets, probabilities } = subgraph;
  let scores = Float64Array.from(teleport);
  let next = new Float64Array(size);
  let iterations = 0;
  let residual = Number.POSITIVE_INFINITY;
  while (iterations < maxIterations && residual >= tolerance) {
    let danglingMass = 0;
    for (let row = 0; row < size; row += 1) if (subgraph.dangling[row] === 1) danglingMass += scores[row] ?? 0;
    const base = 1 - damping + damping * danglingMass;
    for (let row = 0; row < size; row += 1) next[row] = base * (teleport[row] ?? 0);
    for (let row = 0; row < size; row += 1) {
      const share = damping * (scores[row] ?? 0);
      if (share === 0) continue;
      const end = rowStart[row + 1] ?? 0;
      for (let entry = rowStart[row] ?? 0; entry < end; entry += 1) {
        const target = targets[entry] ?? 0;
        next[target] = (next[target] ?? 0) + share * (probabilities[entry] ?? 0);
      }
    }
    residual = 0;
    for (let row = 0; row < size; row += 1) residual += Math.abs((next[row] ?? 0) - (scores[row] ?? 0));
    [scores, next] = [next, scores];
    iterations += 1;
  }
  let danglingMass = 0;
  for (let row = 0; row < size; row += 1) if (subgraph.dangling[row] === 1) danglingMass += scores[row] ?? 0;
  return { scores, iterations, residual: Number.isFinite(residual) ? residual : 0, danglingMass };
}

interface ValidSeed {
  index: number;
  weight: number;
  reasons: string[];
}

function collectSeeds(adjacency: Adjacency, seeds: ContextSeed[], unknown: Set<string>): ValidSeed[] {
  const byIndex = new Map<number, ValidSeed>();
  for (const seed of seeds) {
    const index = adjacency.indexById.get(seed.nodeId);
    if (index === undefined) {
      unknown.add(seed.nodeId);
      continue;
    }
    const weight = Number.isFinite(seed.weight) ? Math.max(0, seed.weight) : 0;
    const known = byIndex.get(index);
    if (known === undefined) byIndex.set(index, { index, weight, reasons: [seed.reason] });
    else {
      known.weight += weight;
      if (!known.reasons.includes(seed.reason)) known.reasons.push(seed.reason);
    }
  }
  return [...byIndex.values()].sort(
    (left, right) => right.weight - left.weight || compareText(adjacency.ids[left.index] ?? '', adjacency.ids[right.index] ?? ''),
  );
}

function explain(
  adjacency: Adjacency,
  subgraph: Subgraph,
  scores: Float64Array,
  row: number,
  seed: { share: number; reason: string | undefined },
  forward: Float64Array,
  reverse: Float64Array,
  damping: number,
): ContextExplanation[] {
  const byKey = new Map<string, ContextExplanation>();
  const node = subgraph.nodes[row] ?? 0;
  const end = adjacency.offsets[node + 1] ?? 0;
  for (let entry = adjacency.offsets[node] ?? 0; entry < end; entry += 1) {
    const neighbour = adjacency.neighbours[entry] ?? 0;
    const from = subgraph.local[neighbour] ?? -1;
    const outWeight = from === -1 ? 0 : (subgraph.outWeights[from] ?? 0);
    if (outWeight === 0) continue;
    // An entry stored as FORWARD here means this node is the edge's source, so relevance arrived against the edge.
    const direction = adjacency.directions[entry] === FORWARD ? 'reverse' : 'forward';
    const kindIndex = adjacency.edgeKinds[entry] ?? 0;
    const weight = (direction === 'forward' ? forward[kindIndex] : reverse[kindIndex]) ?? 0;
    if (weight <= 0) continue;
    const contribution = (damping * (scores[from] ?? 0) * weight) / outWeight;
    const edgeKind = EDGE_KINDS[kindIndex] ?? 'imports';
    const neighbourId = adjacency.ids[neighbour] ?? '';
    const key = `${edgeKind}\u0000${direction}\u0000${neighbourId}`;
    const known = byKey.get(key);
    if (known !== undefined) {
      known.contribution += contribution;
      continue;
    }
    byKey.set(key, {
      via: `${edgeKind}${direction === 'forward' ? '\u2190' : '\u2192'} ${neighbourId}`,
      edgeKind,
      neighbour: neighbourId,
      direction,
      contribution,
    });
  }
  const explanations = [...byKey.values()];
  if (seed.share > 0) {
    const entry: ContextExplanation = { via: 'seed', contribution: seed.share };
    if (seed.reason !== undefined) entry.detail = seed.reason;
    explanations.push(entry);
  }
  return explanations
    .sort((left, right) => right.contribution - left.contribution || compareText(left.via, right.via))
    .slice(0, EXPLANATIONS);
}

/**
 * A bounded, task-scoped context (spec 2.7): personalized PageRank from the seeds over the subgraph within
 * `maxHops` of them (and at most `maxSubgraphNodes`, nearest first), edges followed both ways with per-kind weights. Returns exactly
 * `min(maxNodes, considered)` nodes, `mustInclude` and seeds first, then by score desc then id; the edges
 * among them; and what the bound left out.
 */
export function selectContext(knowledge: KnowledgeGraph, seeds: ContextSeed[], options: SelectContextOptions): ContextSelection {
  const adjacency = getAdjacency(knowledge.graph);
  const maxNodes = Math.max(0, Math.floor(options.maxNodes));
  const damping = options.damping ?? DEFAULT_DAMPING;
  const forward = toWeightTable(options.edgeWeights);
  const reverse = toWeightTable(getReverseWeights(options));
  const unknown = new Set<string>();
  const validSeeds = collectSeeds(adjacency, seeds, unknown);
  const subgraph = buildSubgraph(
    adjacency,
    validSeeds.map((seed) => seed.index),
    {
      maxHops: Math.max(0, Math.floor(options.maxHops ?? DEFAULT_MAX_HOPS)),
      maxNodes: Math.max(
        maxNodes,
        validSeeds.length,
        Math.floor(options.maxSubgraphNodes ?? Math.max(MIN_SUBGRAPH_NODES, SUBGRAPH_NODES_PER_SELECTED * maxNodes)),
      ),
    },
    forward,
    reverse,
  );
  const teleport = new Float64Array(subgraph.nodes.length);
  const totalWeight = validSeeds.reduce((sum, seed) => sum + seed.weight, 0);
  for (const seed of validSeeds) {
    const row = subgraph.local[seed.index] ?? -1;
    if (row !== -1) teleport[row] = totalWeight > 0 ? seed.weight / totalWeight : 1 / validSeeds.length;
  }
  const ranked = rank(subgraph, teleport, damping, options.maxIterations ?? DEFAULT_MAX_ITERATIONS, options.tolerance ?? DEFAULT_TOLERANCE);
  const scoreOf = (index: number): number => {
    const row = subgraph.local[index] ?? -1;
    return row === -1 ? 0 : (ranked.scores[row] ?? 0);
  };

  const considered = new Set<number>(subgraph.nodes);
  const pinned: number[] = [];
  const pinnedSet = new Set<number>();
  const pin = (index: number): void => {
    if (pinnedSet.has(index)) return;
    pinnedSet.add(index);
    pinned.push(index);
  };
  for (const id of options.mustInclude ?? []) {
    const index = adjacency.indexById.get(id);
    if (index === undefined) unknown.add(id);
    else {
      considered.add(index);
      pin(index);
    }
  }
  for (const seed of validSeeds) pin(seed.index);
  const accountFor: number[] = [];
  for (const id of options.accountFor ?? []) {
    const index = adjacency.indexById.get(id);
    if (index === undefined) unknown.add(id);
    else {
      considered.add(index);
      accountFor.push(index);
    }
  }
  const byScore = (left: number, right: number): number =>
    scoreOf(right) - scoreOf(left) || compareText(adjacency.ids[left] ?? '', adjacency.ids[right] ?? '');
  const rest = [...considered].filter((index) => !pinnedSet.has(index)).sort(byScore);
  const selected = [...pinned, ...rest].slice(0, maxNodes);
  const selectedSet = new Set(selected);
  const omittedList = pinned.length <= maxNodes ? rest.slice(maxNodes - pinned.length) : [...pinned.slice(maxNodes), ...rest].sort(byScore);

  const seedReasons = new Map(validSeeds.map((seed) => [seed.index, seed.reasons.join('; ')]));
  const nodes: ContextNode[] = selected.map((index) => {
    const row = subgraph.local[index] ?? -1;
    const seedShare = row === -1 ? 0 : (1 - damping + damping * ranked.danglingMass) * (teleport[row] ?? 0);
    return {
      id: adjacency.ids[index] ?? '',
      kind: adjacency.kinds[index] ?? 'file',
      score: scoreOf(index),
      pinned: pinnedSet.has(index),
      explanation:
        row === -1
          ? []
          : explain(
              adjacency,
              subgraph,
              ranked.scores,
              row,
              { share: seedShare, reason: seedReasons.get(index) },
              forward,
              reverse,
              damping,
            ),
    };
  });
  const edges = collectEdges(adjacency, selected, selectedSet);
  const byKind: Record<string, number> = {};
  for (const index of omittedList) {
    const kind = adjacency.kinds[index] ?? 'file';
    byKind[kind] = (byKind[kind] ?? 0) + 1;
  }
  return {
    nodes,
    edges,
    omitted: {
      count: omittedList.length,
      byKind,
      top: omittedList.slice(0, OMITTED_TOP).map((index) => ({ id: adjacency.ids[index] ?? '', score: scoreOf(index) })),
      ids: omittedList.map((index) => adjacency.ids[index] ?? ''),
      accountedFor: [...new Set(accountFor.filter((index) => !selectedSet.has(index)).map((index) => adjacency.ids[index] ?? ''))].sort(
        compareText,
      ),
    },
    unknownIds: [...unknown].sort(compareText),
    stats: {
      considered: considered.size,
      subgraphNodes: subgraph.nodes.length,
      subgraphEdges: subgraph.edgeCount,
      iterations: ranked.iterations,
      residual: ranked.residual,
    },
  };
}

function collectEdges(adjacency: Adjacency, selected: number[], selectedSet: Set<number>): ContextEdge[] {
  const seen = new Set<string>();
  const edges: ContextEdge[] = [];
  for (const index of selected) {
    const end = adjacency.offsets[index + 1] ?? 0;
    for (let entry = adjacency.offsets[index] ?? 0; entry < end; entry += 1) {
      if (adjacency.directions[entry] !== FORWARD) continue;
      const target = adjacency.neighbours[entry] ?? 0;
      if (!selectedSet.has(target)) continue;
      const edge: ContextEdge = {
        source: adjacency.ids[index] ?? '',
        target: adjacency.ids[target] ?? '',
        kind: EDGE_KINDS[adjacency.edgeKinds[entry] ?? 0] ?? 'imports',
      };
      const key = `${edge.source}\u0000${edge.target}\u0000${edge.kind}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push(edge);
    }
  }
  return edges.sort(
    (left, right) => compareText(left.source, right.source) || compareText(left.target, right.target) || compareText(left.kind, right.kind),
  );
}

export interface ImpactClosure {
  /** Files that depend on the given files through imports and re-exports, by distance then path. */
  files: ReachedFile[];
  /** Their `file:` ids, for `selectContext`'s `accountFor`. */
  ids: string[];
}

/** The files the given (grounded) files impact: their reverse import reach, seeds excluded. */
export function findImpactClosure(knowledge: KnowledgeGraph, files: string[]): ImpactClosure {
  const reached = findReverseReach(knowledge, files);
  return { files: reached, ids: reached.map((file) => toFileId(file.path)) };
}
