import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyFacts, type FileFacts } from '../../src/model/facts.js';
import type { GraphInput } from '../../src/model/graph.js';
import type { Resolution } from '../../src/model/resolve.js';
import type { ContextSeed, EdgeWeights } from '../../src/model/grounding.js';
import { buildKnowledgeGraph, type KnowledgeGraph } from '../../src/graph/build.js';
import { getGraphCounts } from '../../src/graph/queries/graph-counts.js';
import { DEFAULT_EDGE_WEIGHTS, findImpactClosure, selectContext } from '../../src/ranking/context-select.js';
import { groundTask } from '../../src/ranking/grounding.js';
import { BUILTIN_GROUNDING_WEIGHTS } from '../helpers/grounding-weights.js';
import { withoutDocuments } from '../helpers/graph-input.js';

interface FileSpec {
  path: string;
  imports?: string[];
  /** Per import, the name it takes from the target (none when absent). */
  importNames?: string[];
  exports?: string[];
  tests?: string[];
}

function buildInput(specs: FileSpec[]): GraphInput {
  const resolutions = new Map<string, Resolution[]>();
  const files = specs.map((spec, index) => {
    const facts: FileFacts = {
      ...emptyFacts(10),
      imports: (spec.imports ?? []).map((target, line) => {
        const name = spec.importNames?.[line];
        return {
          specifier: `./${target}`,
          kind: 'static',
          typeOnly: false,
          line: line + 1,
          names: name === undefined ? [] : [{ imported: name, local: name, typeOnly: false }],
        };
      }),
      exports: (spec.exports ?? []).map((name) => ({ name, kind: 'function', span: { start: 1, end: 2 }, typeOnly: false })),
      tests: (spec.tests ?? []).map((title) => ({
        kind: 'test',
        titlePath: [title],
        span: { start: 1, end: 2 },
        modifiers: [],
        assertions: 1,
        trivialAssertions: 0,
        snapshotAssertions: 0,
        unawaitedAssertions: 0,
        swallowedErrors: 0,
        isAsync: false,
      })),
    };
    resolutions.set(
      spec.path,
      (spec.imports ?? []).map((target): Resolution => ({ specifier: `./${target}`, kind: 'relative', target })),
    );
    return { path: spec.path, size: 10, hash: `h${index}`, facts };
  });
  return { files, resolutions, ...withoutDocuments() };
}

/** A chain a → b → c → d → e → f (each imports the next), each file declaring one export, and an unconnected z. */
const chain: KnowledgeGraph = buildKnowledgeGraph(
  buildInput([
    ...['a', 'b', 'c', 'd', 'e', 'f'].map((name, index, all) => ({
      path: `src/${name}.ts`,
      imports: index + 1 < all.length ? [`src/${all[index + 1] ?? ''}.ts`] : [],
      exports: [name],
    })),
    { path: 'src/z.ts', exports: ['z'] },
  ]),
);

const seedA: ContextSeed[] = [{ nodeId: 'file:src/a.ts', weight: 1, reason: 'named in the task' }];
/** Within four hops of a: a, b, c, d, e and the exports of a, b, c, d. */
const reachableFromA = 9;

const options = (maxNodes: number, extra: Partial<Parameters<typeof selectContext>[2]> = {}) => ({
  maxNodes,
  edgeWeights: DEFAULT_EDGE_WEIGHTS,
  ...extra,
});

for (const maxNodes of [1, 5, 50, 0]) {
  test(`selects exactly min(maxNodes, reachable) nodes: maxNodes ${maxNodes}`, () => {
    const selection = selectContext(chain, seedA, options(maxNodes));
    assert.equal(selection.stats.considered, reachableFromA);
    assert.equal(selection.nodes.length, Math.min(maxNodes, reachableFromA));
    assert.equal(selection.nodes.length + selection.omitted.count, reachableFromA);
    assert.equal(
      Object.values(selection.omitted.byKind).reduce((sum, count) => sum + count, 0),
      selection.omitted.count,
    );
    assert.equal(selection.omitted.ids.length, selection.omitted.count);
    assert.deepEqual(
      selection.omitted.top.map((entry) => entry.id),
      selection.omitted.ids.slice(0, 10),
    );
    if (maxNodes > 0) assert.equal(selection.nodes[0]?.id, 'file:src/a.ts');
    const selected = new Set(selection.nodes.map((node) => node.id));
    for (const edge of selection.edges)
      assert.ok(selected.has(edge.source) && selected.has(edge.target), `${edge.source} -> ${edge.target}`);
    assert.equal(selection.unknownIds.length, 0);
  });
}

test('the five best nodes around a seed, with their edges and what was left out', () => {
  const selection = selectContext(chain, seedA, options(5));
  assert.deepEqual(
    selection.nodes.map((node) => [node.id, node.kind, node.pinned]),
    [
      ['file:src/a.ts', 'file', true],
      ['file:src/b.ts', 'file', false],
      ['file:src/c.ts', 'file', false],
      ['file:src/d.ts', 'file', false],
      ['file:src/e.ts', 'file', false],
    ],
  );
  assert.deepEqual(selection.edges, [
    { source: 'file:src/a.ts', target: 'file:src/b.ts', kind: 'imports' },
    { source: 'file:src/b.ts', target: 'file:src/c.ts', kind: 'imports' },
    { source: 'file:src/c.ts', target: 'file:src/d.ts', kind: 'imports' },
    { source: 'file:src/d.ts', target: 'file:src/e.ts', kind: 'imports' },
  ]);
  assert.deepEqual(selection.omitted.byKind, { export: 4 });
  assert.deepEqual(selection.omitted.ids, ['export:src/a.ts#a', 'export:src/b.ts#b', 'export:src/c.ts#c', 'export:src/d.ts#d']);
  const [seed, second] = selection.nodes;
  assert.equal(seed?.explanation[0]?.via, 'seed');
  assert.equal(seed?.explanation[0]?.detail, 'named in the task');
  assert.deepEqual(
    second?.explanation.map((entry) => [entry.via, entry.edgeKind, entry.direction, entry.neighbour]),
    [
      ['imports\u2190 file:src/a.ts', 'imports', 'forward', 'file:src/a.ts'],
      ['imports\u2192 file:src/c.ts', 'imports', 'reverse', 'file:src/c.ts'],
      ['declares\u2192 export:src/b.ts#b', 'declares', 'reverse', 'export:src/b.ts#b'],
    ],
  );
  for (const node of selection.nodes) {
    const contributions = node.explanation.map((entry) => entry.contribution);
    assert.deepEqual(
      contributions,
      [...contributions].sort((left, right) => right - left),
    );
  }
  const scores = selection.nodes.slice(1).map((node) => node.score);
  assert.deepEqual(
    scores,
    [...scores].sort((left, right) => right - left),
  );
});

test('selection is deterministic and independent of seed order', () => {
  const seeds: ContextSeed[] = [
    { nodeId: 'file:src/c.ts', weight: 0.5, reason: 'second' },
    { nodeId: 'file:src/f.ts', weight: 1, reason: 'first' },
  ];
  const once = selectContext(chain, seeds, options(6));
  const twice = selectContext(chain, [...seeds].reverse(), options(6));
  assert.deepEqual(once, twice);
  assert.deepEqual(
    once.nodes.slice(0, 2).map((node) => node.id),
    ['file:src/f.ts', 'file:src/c.ts'],
  );
  assert.deepEqual(selectContext(buildKnowledgeGraph(buildInput([{ path: 'src/x.ts' }])), [], options(3)).nodes, []);
});

test('seeds beyond maxNodes keep their weight order; mustInclude comes before them', () => {
  const seeds: ContextSeed[] = [
    { nodeId: 'file:src/b.ts', weight: 0.2, reason: 'weak' },
    { nodeId: 'file:src/e.ts', weight: 0.9, reason: 'strong' },
  ];
  assert.deepEqual(
    selectContext(chain, seeds, options(1)).nodes.map((node) => node.id),
    ['file:src/e.ts'],
  );
  const pinned = selectContext(chain, seeds, options(2, { mustInclude: ['file:src/z.ts', 'file:src/missing.ts'] }));
  assert.deepEqual(
    pinned.nodes.map((node) => [node.id, node.score]),
    [
      ['file:src/z.ts', 0],
      ['file:src/e.ts', pinned.nodes[1]?.score ?? -1],
    ],
  );
  assert.deepEqual(pinned.unknownIds, ['file:src/missing.ts']);
  assert.equal(pinned.stats.considered, 13);
  assert.equal(pinned.omitted.count, 11);
});

test('every impacted file is either selected or accounted for', () => {
  const closure = findImpactClosure(chain, ['src/e.ts']);
  assert.deepEqual(closure.ids, ['file:src/d.ts', 'file:src/c.ts', 'file:src/b.ts', 'file:src/a.ts']);
  assert.deepEqual(
    closure.files.map((file) => [file.path, file.distance]),
    [
      ['src/d.ts', 1],
      ['src/c.ts', 2],
      ['src/b.ts', 3],
      ['src/a.ts', 4],
    ],
  );
  const selection = selectContext(
    chain,
    [{ nodeId: 'file:src/e.ts', weight: 1, reason: 'grounded' }],
    options(3, { accountFor: closure.ids, maxHops: 1 }),
  );
  const selected = new Set(selection.nodes.map((node) => node.id));
  assert.deepEqual(selection.omitted.accountedFor, ['file:src/a.ts', 'file:src/b.ts', 'file:src/c.ts']);
  for (const id of closure.ids) assert.ok(selected.has(id) || selection.omitted.accountedFor.includes(id), id);
  assert.equal(selection.nodes.length + selection.omitted.count, selection.stats.considered);
});

test('edge kinds weighted zero are not followed', () => {
  const noImports: EdgeWeights = { ...DEFAULT_EDGE_WEIGHTS, imports: 0 };
  const selection = selectContext(chain, seedA, {
    maxNodes: 50,
    edgeWeights: noImports,
    reverseEdgeWeights: { ...noImports, declares: 0.8 },
  });
  assert.deepEqual(
    selection.nodes.map((node) => node.id),
    ['file:src/a.ts', 'export:src/a.ts#a'],
  );
  assert.equal(selection.stats.subgraphNodes, 2);
});

test('the ranked subgraph can be capped, nearest nodes first', () => {
  const selection = selectContext(chain, seedA, options(2, { maxSubgraphNodes: 3 }));
  assert.deepEqual(
    selection.nodes.map((node) => node.id),
    ['file:src/a.ts', 'file:src/b.ts'],
  );
  assert.equal(selection.stats.subgraphNodes, 3);
  assert.deepEqual(selection.omitted.ids, ['export:src/a.ts#a']);
});

test('unknown seeds are reported and ignored', () => {
  const selection = selectContext(chain, [{ nodeId: 'file:nope.ts', weight: 1, reason: 'typo' }, ...seedA], options(2));
  assert.deepEqual(selection.unknownIds, ['file:nope.ts']);
  assert.deepEqual(
    selection.nodes.map((node) => node.id),
    ['file:src/a.ts', 'file:src/b.ts'],
  );
});

/** About 16,000 nodes and 60,000 edges: 7,600 source files with one export each and 400 test files. */
function buildLargeInput(): GraphInput {
  const specs: FileSpec[] = [];
  const areas = ['orders', 'payments', 'users', 'pricing', 'invoices', 'cart', 'auth', 'search', 'reports', 'shipping'];
  let state = 12345;
  const next = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  const sourcePath = (index: number): string => `src/${areas[index % areas.length] ?? ''}/module-${index}.ts`;
  for (let index = 0; index < 8000; index += 1) {
    const isTest = index >= 7600;
    const count = index === 0 ? 0 : 3 + (index % 4 === 0 ? 1 : 0);
    const targets = Array.from({ length: count }, () => (isTest ? next() % 7600 : next() % index));
    const imports = targets.map(sourcePath);
    const importNames = targets.map((target) => `run${target}`);
    specs.push(
      isTest
        ? { path: `test/${areas[index % areas.length] ?? ''}/module-${index}.test.ts`, imports, importNames, tests: [`works ${index}`] }
        : { path: sourcePath(index), imports, importNames, exports: [`run${index}`] },
    );
  }
  return buildInput(specs);
}

test('performance on a 16k-node graph (measured, not asserted)', (t) => {
  let started = performance.now();
  const large = buildKnowledgeGraph(buildLargeInput());
  const buildMs = performance.now() - started;
  const counts = getGraphCounts(large);
  assert.equal(counts.nodes, 16000);
  const seeds: ContextSeed[] = [
    { nodeId: 'file:src/orders/module-500.ts', weight: 1, reason: 'grounded' },
    { nodeId: 'file:src/payments/module-7001.ts', weight: 0.5, reason: 'grounded' },
  ];
  const timings: number[] = [];
  let last: ReturnType<typeof selectContext> | undefined;
  for (let run = 0; run < 5; run += 1) {
    started = performance.now();
    last = selectContext(large, seeds, options(50));
    timings.push(performance.now() - started);
  }
  assert.equal(last?.nodes.length, 50);
  assert.equal((last?.nodes.length ?? 0) + (last?.omitted.count ?? 0), last?.stats.considered);
  const groundings: number[] = [];
  for (let run = 0; run < 2; run += 1) {
    started = performance.now();
    groundTask(large, 'refund payments for shipping invoices', { weights: BUILTIN_GROUNDING_WEIGHTS });
    groundings.push(performance.now() - started);
  }
  t.diagnostic(
    `graph ${counts.nodes} nodes / ${counts.edges} edges built in ${buildMs.toFixed(0)} ms; subgraph ${last?.stats.subgraphNodes} nodes / ${last?.stats.subgraphEdges} edges, ${last?.stats.iterations} iterations; selectContext ms (first includes the adjacency build): ${timings.map((ms) => ms.toFixed(1)).join(', ')}; groundTask ms (first includes the index build): ${groundings.map((ms) => ms.toFixed(1)).join(', ')}`,
  );
});
