import type { KnowledgeStore } from '../build.js';
import { createGraphCache } from '../graph-cache.js';

const cache = createGraphCache<ReadonlySet<string>>();

/**
 * The test files as a runner sees them: files that declare tests, and files in a test folder or with a test name that
 * nothing imports (a runner's entry whose tests checker could not read). A file in a test folder that declares no
 * tests and that other files import is test support (a shared server, fixtures, a setup helper): reach passes
 * through it to the tests that use it, and it is never counted or listed as a test itself.
 */
export function listTestFiles(graph: KnowledgeStore): ReadonlySet<string> {
  const cached = cache.get(graph);
  if (cached !== undefined) return cached;
  const declaring = new Set<string>();
  const named: string[] = [];
  graph.forEachNode((id, attributes) => {
    if (attributes.kind === 'test') declaring.add(attributes.file);
    else if (attributes.kind === 'file' && attributes.role === 'test') named.push(id);
  });
  const tests = new Set(declaring);
  for (const id of named) {
    const attributes = graph.getNodeAttributes(id);
    if (attributes.kind !== 'file' || declaring.has(attributes.path)) continue;
    let imported = false;
    graph.forEachInEdge(id, (_edge, edge) => {
      if (edge.kind === 'imports' || edge.kind === 'reexports') imported = true;
    });
    if (!imported) tests.add(attributes.path);
  }
  cache.set(graph, tests);
  return tests;
}
