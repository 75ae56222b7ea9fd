import { summariseBuildOutputNotes } from './build-output-notes.js';
import { getGraphCounts } from '../graph/queries/graph-counts.js';
import type { Env } from '../model/env.js';
import type { GraphReport } from '../model/graph-report.js';
import { countSourceLanguages } from '../model/languages.js';
import { buildRepositoryGraph, type RepositoryGraph } from './build-graph.js';
import { compareText } from '../text/compare-text.js';

/** `checker graph`: counts by kind, parse failures, skipped files, unresolved imports and timings. */
export async function getGraphReport(env: Env): Promise<GraphReport> {
  return toGraphReport(await buildRepositoryGraph(env));
}

function toGraphReport(repo: RepositoryGraph): GraphReport {
  const counts = getGraphCounts(repo.kg);
  let api = 0;
  let ui = 0;
  repo.kg.graph.forEachNode((_id, attributes) => {
    if (attributes.kind !== 'route') return;
    if (attributes.routeKind === 'ui') ui += 1;
    else api += 1;
  });
  const skipped = [...repo.scan.skipped, ...repo.parsed.skipped].sort((left, right) => compareText(left.path, right.path));
  const skippedCodes = new Set(skipped.map((skip) => `scan/${skip.reason}`));
  return {
    schemaVersion: 1,
    kind: 'graph-report',
    files: {
      scanned: repo.scan.files.length,
      parsed: repo.parsed.facts.size,
      cached: repo.parsed.stats.cached,
      reparsed: repo.parsed.stats.parsed,
    },
    languages: countSourceLanguages(repo.scan.files.map((file) => file.path)),
    nodes: { total: counts.nodes, byKind: sortRecord(counts.nodesByKind) },
    edges: { total: counts.edges, byKind: sortRecord(counts.edgesByKind) },
    parseFailures: repo.kg.parseFailures.map(({ path, failure }) => ({
      path,
      code: failure.code,
      message: failure.message,
      ...(failure.line === undefined ? {} : { line: failure.line }),
    })),
    skipped,
    unresolvedImports: repo.kg.unresolvedImports.map((item) => ({
      from: item.from,
      specifier: item.specifier,
      line: item.line,
      reason: item.reason,
    })),
    routes: { api, ui, unmatchedMounts: repo.kg.unmatchedMounts.length },
    diagnostics: summariseBuildOutputNotes(repo.limitations).filter(
      (diagnostic) => !skippedCodes.has(diagnostic.code) || diagnostic.location === undefined,
    ),
    ...(repo.source === undefined ? {} : { graphSource: repo.source }),
    timings: { ...repo.timings },
  };
}

function sortRecord(record: Record<string, number>): Record<string, number> {
  const sorted: Record<string, number> = {};
  for (const key of Object.keys(record).sort()) sorted[key] = record[key] ?? 0;
  return sorted;
}
