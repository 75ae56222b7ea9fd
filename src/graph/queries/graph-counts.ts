import type { EdgeKind, NodeKind } from '../../model/graph.js';
import type { KnowledgeGraph } from '../build.js';
import { ListGraph } from '../list-graph.js';

export interface GraphCounts {
  nodes: number;
  edges: number;
  nodesByKind: Record<NodeKind, number>;
  edgesByKind: Record<EdgeKind, number>;
}

/** Counts of nodes and edges, in total and by kind (every kind present, zero when absent). */
export function getGraphCounts(knowledge: KnowledgeGraph): GraphCounts {
  const nodesByKind: Record<NodeKind, number> = {
    file: 0,
    export: 0,
    route: 0,
    test: 0,
    owner: 0,
    decision: 0,
    memory: 0,
    contract: 0,
    package: 0,
    skill: 0,
    check: 0,
  };
  const edgesByKind: Record<EdgeKind, number> = {
    imports: 0,
    reexports: 0,
    declares: 0,
    uses: 0,
    tests: 0,
    mocks: 0,
    handles: 0,
    owns: 0,
    mentions: 0,
    belongs: 0,
    depends: 0,
    guards: 0,
    calls: 0,
  };
  const graph = knowledge.graph;
  graph.forEachNode((_id, attributes) => {
    nodesByKind[attributes.kind] += 1;
  });
  // A loaded graph's lists give each edge's kind without an edge key and attributes object per edge.
  if (graph instanceof ListGraph) {
    graph.forEachEdgeKind((kind) => {
      edgesByKind[kind] += 1;
    });
  } else {
    graph.forEachEdge((_id, attributes) => {
      edgesByKind[attributes.kind] += 1;
    });
  }
  return { nodes: graph.order, edges: graph.size, nodesByKind, edgesByKind };
}
