import assert from 'node:assert/strict';
import { MultiDirectedGraph } from 'graphology';
import type { GraphStore, KnowledgeGraph, KnowledgeStore } from '../../src/graph/knowledge-graph.js';

/** The graphology store of a graph built from facts, for assertions that use graphology's own API. */
export function graphologyOf(knowledge: KnowledgeGraph): GraphStore {
  const graph = knowledge.graph;
  assert.ok(graph instanceof MultiDirectedGraph, 'a built graph is kept in graphology');
  return graph as GraphStore;
}

/** Every edge's key, in the store's order. */
export function edgeKeys(graph: KnowledgeStore): string[] {
  const keys: string[] = [];
  graph.forEachEdge((key) => keys.push(key));
  return keys;
}
