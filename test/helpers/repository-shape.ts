import { analyzeChange } from '../../src/app/analyze.js';
import type { RepositoryGraph } from '../../src/app/build-graph.js';
import type { Env } from '../../src/model/env.js';

// How two builds of one tree are compared whole (a patched graph, a graph loaded from a snapshot, a fresh build).

/** Everything a build yields that a report can see, with maps and node and edge lists in a fixed order. */
export function describeRepository(repository: RepositoryGraph): unknown {
  const { kg } = repository;
  const nodes: [string, unknown][] = [];
  kg.graph.forEachNode((id, attributes) => {
    nodes.push([id, attributes]);
  });
  const edges: string[] = [];
  kg.graph.forEachEdge((_key, attributes, source, target) => {
    edges.push(JSON.stringify([source, target, attributes]));
  });
  const sortedEntries = <T>(map: Map<string, T> | undefined): [string, T][] =>
    [...(map ?? [])].sort(([left], [right]) => (left < right ? -1 : 1));
  return {
    nodes: nodes.sort(([left], [right]) => (left < right ? -1 : 1)),
    edges: edges.sort(),
    fileIds: sortedEntries(kg.fileIds),
    unresolvedImports: kg.unresolvedImports,
    externalImports: kg.externalImports,
    parseFailures: kg.parseFailures,
    unmatchedMounts: kg.unmatchedMounts,
    routeLimitations: kg.routeLimitations ?? [],
    diagnostics: kg.diagnostics,
    reexportBindings: sortedEntries(kg.reexportBindings),
    facts: sortedEntries(repository.parsed.facts),
    skipped: repository.parsed.skipped,
    parseDiagnostics: repository.parsed.diagnostics,
    resolutions: sortedEntries(repository.resolutions),
    limitations: repository.limitations,
    scan: repository.scan.files.map((file) => file.path),
  };
}

/** The analysis of the working tree's change, without its timings. */
export async function analyse(env: Env, repository: RepositoryGraph): Promise<unknown> {
  const analysis = await analyzeChange(env, { repository });
  return JSON.parse(JSON.stringify(analysis, (key, value: unknown) => (key === 'timings' ? undefined : value)));
}
