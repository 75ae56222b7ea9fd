import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MultiDirectedGraph } from 'graphology';
import type { EdgeAttributes, NodeAttributes } from '../../src/model/graph.js';
import { createGraphStore, type GraphStore } from '../../src/graph/knowledge-graph.js';

/** The same insertions into the knowledge graph's store and into a plain graphology multi-graph. */
function fill(graph: GraphStore): void {
  const ids = ['file:b.ts', 'file:a.ts', 'export:a.ts#x', 'file:c.ts', 'file:constructor', 'file:10'];
  for (const id of ids) graph.addNode(id, { kind: 'file', path: id.slice(5) } as NodeAttributes);
  const edge = (source: string, target: string, kind: string): void => {
    graph.addDirectedEdge(source, target, { kind } as EdgeAttributes);
  };
  edge('file:b.ts', 'file:a.ts', 'imports');
  edge('file:b.ts', 'file:c.ts', 'imports');
  edge('file:b.ts', 'file:a.ts', 'uses');
  edge('file:a.ts', 'export:a.ts#x', 'declares');
  edge('file:c.ts', 'file:a.ts', 'imports');
  edge('file:c.ts', 'file:c.ts', 'imports');
  edge('file:10', 'file:constructor', 'imports');
  edge('file:b.ts', 'file:10', 'imports');
}

function describe(graph: GraphStore): unknown {
  const nodes: unknown[] = [];
  graph.forEachNode((id) => {
    nodes.push({
      id,
      out: graph.outNeighbors(id),
      in: graph.inNeighbors(id),
      outEdges: graph.outEdges(id).map((edge) => [graph.target(edge), graph.getEdgeAttribute(edge, 'kind')]),
      inEdges: graph.inEdges(id).map((edge) => [graph.source(edge), graph.getEdgeAttribute(edge, 'kind')]),
    });
  });
  return nodes;
}

test('the graph store answers every neighbour query as a plain graphology multi-graph does, in the same order', () => {
  const store = createGraphStore();
  const plain = new MultiDirectedGraph<NodeAttributes, EdgeAttributes>({ allowSelfLoops: true });
  fill(store);
  fill(plain);
  assert.deepEqual(describe(store), describe(plain));
  // `hasDirectedEdge` calls the adjacency objects' own `hasOwnProperty`: they keep Object's prototype.
  assert.equal(store.hasDirectedEdge('file:b.ts', 'file:a.ts'), true);
  assert.equal(store.hasDirectedEdge('file:a.ts', 'file:b.ts'), false);
  assert.equal(store.hasDirectedEdge('file:10', 'file:constructor'), true);
  assert.equal(store.edges('file:b.ts', 'file:a.ts').length, 2);
  assert.equal(store.areNeighbors('file:c.ts', 'file:c.ts'), true);

  for (const graph of [store, plain]) {
    graph.dropEdge(graph.edges('file:b.ts', 'file:a.ts')[0] ?? '');
    graph.dropNode('file:c.ts');
  }
  assert.deepEqual(describe(store), describe(plain));
  assert.equal(store.size, plain.size);
  assert.equal(store.order, plain.order);
});
