import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createGraphStore, type GraphStore, type KnowledgeStore } from '../../src/graph/knowledge-graph.js';
import { type GraphLists, ListGraph } from '../../src/graph/list-graph.js';
import type { EdgeAttributes, EdgeKind, NodeAttributes } from '../../src/model/graph.js';

// A CLI run that loads the kept graph patches and queries it as lists (src/graph/list-graph.ts). Every answer the lists
// give must be what graphology itself gives after the same writes: the same nodes and edges, attributes and order, a
// node's edges included; the graphology they fill (the MCP server's) holds the same graph.

/** A small deterministic generator (mulberry32), so that a failing sequence can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const fileNode = (path: string): NodeAttributes => ({ kind: 'file', path, language: 'ts', size: 1, hash: path, role: 'source', lines: 1 });

function toEdge(next: () => number, line: number): EdgeAttributes | EdgeKind {
  const pick = next();
  if (pick < 0.3) return 'declares';
  if (pick < 0.4) return 'belongs';
  return { kind: 'imports', specifier: `./f${line}`, line, names: ['default'], typeOnly: false, dynamic: false, require: false };
}

function randomLists(next: () => number, nodes: number, edges: number): GraphLists {
  const lists: GraphLists = { ids: [], nodes: [], ends: [], edges: [] };
  for (let index = 0; index < nodes; index += 1) {
    lists.ids.push(`file:f${index}`);
    lists.nodes.push(fileNode(`f${index}`));
  }
  for (let index = 0; index < edges; index += 1) {
    lists.ends.push(Math.floor(next() * nodes), Math.floor(next() * nodes));
    lists.edges.push(toEdge(next, index));
  }
  return lists;
}

function fill(lists: GraphLists): GraphStore {
  const graph = createGraphStore();
  lists.ids.forEach((id, index) => {
    graph.addNode(id, lists.nodes[index]);
  });
  lists.edges.forEach((stored, index) => {
    const attributes = typeof stored === 'string' ? ({ kind: stored } as EdgeAttributes) : stored;
    graph.addDirectedEdge(
      lists.ids[lists.ends[index * 2] as number] as string,
      lists.ids[lists.ends[index * 2 + 1] as number] as string,
      attributes,
    );
  });
  return graph;
}

/**
 * Everything a query can ask of a store, in the store's own order: a node's edges too (by neighbour, newest first),
 * unless `order` is 'sets': a store filled or loaded from lists has no history of writes, so its per-node order is
 * that of the lists (as a run that loads a kept graph sees it), not that of the store the writes went to.
 */
function describeStore(graph: KnowledgeStore, probes: readonly string[], order: 'ordered' | 'sets' = 'ordered'): unknown {
  const nodes: unknown[] = [];
  graph.forEachNode((id, attributes) => nodes.push([id, attributes]));
  const edges: string[] = [];
  graph.forEachEdge((_edge, attributes, source, target) => edges.push(JSON.stringify([source, target, attributes])));
  if (graph instanceof ListGraph) {
    const kinds: string[] = [];
    graph.forEachEdgeKind((kind) => kinds.push(kind));
    assert.deepEqual(
      kinds,
      edges.map((edge) => (JSON.parse(edge) as [string, string, EdgeAttributes])[2].kind),
      'the kinds, in edge order',
    );
  }
  const incident = probes.map((id) => {
    if (!graph.hasNode(id)) return [id, 'absent'];
    const out: string[] = [];
    const into: string[] = [];
    graph.forEachOutEdge(id, (_edge, attributes, source, target, sourceAttributes, targetAttributes) =>
      out.push(JSON.stringify([source, target, attributes, sourceAttributes.kind, targetAttributes.kind])),
    );
    graph.forEachInEdge(id, (_edge, attributes, source, target) => into.push(JSON.stringify([source, target, attributes])));
    return [id, graph.getNodeAttributes(id), ...(order === 'sets' ? [out.sort(), into.sort()] : [out, into])];
  });
  return { order: graph.order, size: graph.size, nodes, edges, incident };
}

describe('ListGraph: a snapshot patched as lists answers as graphology does', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    test(`random writes (seed ${seed}): same answers after every step, and the graphology it fills is the same`, () => {
      const next = random(seed);
      const lists = randomLists(next, 40, 160);
      const listGraph = new ListGraph(lists);
      const graph = fill(lists);
      // Keys differ between the two: the i-th live edge of one is the i-th of the other.
      const liveKeys = (store: KnowledgeStore): string[] => {
        const keys: string[] = [];
        store.forEachEdge((edge) => keys.push(edge));
        return keys;
      };
      const probes = Array.from({ length: 45 }, (_, index) => `file:f${index}`);
      let added = 0;
      for (let step = 0; step < 120; step += 1) {
        const pick = next();
        const liveNodes: string[] = [];
        graph.forEachNode((id) => liveNodes.push(id));
        const someNode = (): string => liveNodes[Math.floor(next() * liveNodes.length)] as string;
        if (pick < 0.25 && graph.size > 0) {
          const index = Math.floor(next() * graph.size);
          listGraph.dropEdge(liveKeys(listGraph)[index] as string);
          graph.dropEdge(liveKeys(graph)[index] as string);
        } else if (pick < 0.35 && liveNodes.length > 2) {
          const node = someNode();
          listGraph.dropNode(node);
          graph.dropNode(node);
        } else if (pick < 0.45) {
          // A new node, or one dropped earlier added again (patches drop and add route nodes under the same ids).
          const id = next() < 0.5 ? `file:f${40 + (added % 5)}` : (probes[Math.floor(next() * 40)] as string);
          added += 1;
          if (!graph.hasNode(id)) {
            listGraph.addNode(id, fileNode(`re-${id}`));
            graph.addNode(id, fileNode(`re-${id}`));
          }
        } else if (pick < 0.55 && liveNodes.length > 0) {
          const node = someNode();
          listGraph.replaceNodeAttributes(node, fileNode(`replaced-${step}`));
          graph.replaceNodeAttributes(node, fileNode(`replaced-${step}`));
        } else if (liveNodes.length > 0) {
          const [source, target] = [someNode(), someNode()];
          const stored = toEdge(next, 1000 + step);
          const attributes = typeof stored === 'string' ? ({ kind: stored } as EdgeAttributes) : stored;
          listGraph.addDirectedEdge(source, target, attributes);
          graph.addDirectedEdge(source, target, attributes);
        }
        assert.deepEqual(describeStore(listGraph, probes), describeStore(graph, probes), `after step ${step}`);
      }
      const asSets = describeStore(graph, probes, 'sets');
      assert.deepEqual(describeStore(listGraph.toGraphStore(), probes, 'sets'), asSets, 'the graphology it fills');
      assert.deepEqual(describeStore(new ListGraph(listGraph.toLists()), probes, 'sets'), asSets, 'its lists, loaded again');
    });
  }

  test('refuses what graphology refuses: a node added twice, an edge to no node, an edge dropped twice', () => {
    const listGraph = new ListGraph({ ids: ['file:a'], nodes: [fileNode('a')], ends: [0, 0], edges: ['declares'] });
    assert.throws(() => listGraph.addNode('file:a', fileNode('a')), /already exists/);
    assert.throws(() => listGraph.addDirectedEdge('file:a', 'file:b', { kind: 'declares' }), /no node "file:b"/);
    listGraph.dropEdge('0');
    assert.throws(() => listGraph.dropEdge('0'), /no edge "0"/);
    assert.throws(() => listGraph.dropNode('file:b'), /no node "file:b"/);
    assert.deepEqual([listGraph.order, listGraph.size], [1, 0]);
  });

  test('a bare kind is one frozen object per kind, as the snapshot fills graphology', () => {
    const listGraph = new ListGraph({
      ids: ['file:a', 'file:b'],
      nodes: [fileNode('a'), fileNode('b')],
      ends: [0, 1, 1, 0],
      edges: ['belongs', 'belongs'],
    });
    const seen: EdgeAttributes[] = [];
    listGraph.forEachEdge((_edge, attributes) => seen.push(attributes));
    assert.equal(seen[0], seen[1]);
    assert.ok(Object.isFrozen(seen[0]));
    assert.deepEqual(seen[0], { kind: 'belongs' });
  });
});
