import type { GraphReport } from '../model/graph-report.js';
import { renderMore, renderTable } from './markdown-table.js';

const LIST_LIMIT = 25;

const GRAPH_SOURCES: Record<NonNullable<GraphReport['graphSource']>, string> = {
  build: 'The graph was built in this run.',
  snapshot: 'The graph was loaded as an earlier run kept it (nothing changed since).',
  'patched snapshot': 'The graph was loaded as an earlier run kept it and patched for the source files edited since.',
  patched: "The server's warm graph was patched for the source files edited since.",
};

export function renderGraphMarkdown(report: GraphReport): string {
  const sections: string[] = ['# Repository knowledge graph', ''];
  sections.push(
    `${report.files.scanned} files scanned, ${report.files.parsed} parsed (${report.files.cached} from cache, ${report.files.reparsed} parsed now); ` +
      `${report.nodes.total} nodes and ${report.edges.total} edges; ${report.routes.api} API and ${report.routes.ui} UI routes.` +
      (report.graphSource === undefined ? '' : ` ${GRAPH_SOURCES[report.graphSource]}`),
    '',
  );
  sections.push(
    '## Languages',
    '',
    report.languages.length === 0
      ? 'No source files.'
      : renderTable(
          ['language', 'files', 'analysed'],
          report.languages.map((item) => [item.language, String(item.files), item.parsed ? 'parsed' : 'not parsed: text only']),
        ),
    '',
  );
  sections.push('## Nodes by kind', '', renderTable(['kind', 'count'], Object.entries(report.nodes.byKind)), '');
  sections.push('## Edges by kind', '', renderTable(['kind', 'count'], Object.entries(report.edges.byKind)), '');
  sections.push(`## Parse failures (${report.parseFailures.length})`, '');
  sections.push(
    report.parseFailures.length === 0
      ? 'None.'
      : renderTable(
          ['file', 'code', 'message'],
          report.parseFailures
            .slice(0, LIST_LIMIT)
            .map((item) => [`${item.path}${item.line === undefined ? '' : `:${item.line}`}`, item.code, item.message]),
        ) + renderMore(LIST_LIMIT, report.parseFailures.length, 'parse failures'),
    '',
  );
  sections.push(`## Skipped files (${report.skipped.length})`, '');
  sections.push(
    report.skipped.length === 0
      ? 'None.'
      : renderTable(
          ['file', 'reason', 'detail'],
          report.skipped.slice(0, LIST_LIMIT).map((item) => [item.path, item.reason, item.detail]),
        ) + renderMore(LIST_LIMIT, report.skipped.length, 'skipped files'),
    '',
  );
  sections.push(`## Unresolved imports (${report.unresolvedImports.length})`, '');
  sections.push(
    report.unresolvedImports.length === 0
      ? 'None: every local-looking import resolved to a file of the repository.'
      : 'Imports that look local but lead to no file: impact through them cannot be followed, so reports may miss dependents.\n\n' +
          renderTable(
            ['from', 'specifier', 'reason'],
            report.unresolvedImports.slice(0, LIST_LIMIT).map((item) => [`${item.from}:${item.line}`, item.specifier, item.reason]),
          ) +
          renderMore(LIST_LIMIT, report.unresolvedImports.length, 'unresolved imports'),
    '',
  );
  if (report.diagnostics.length > 0) {
    sections.push(`## Notes (${report.diagnostics.length})`, '');
    sections.push(
      ...report.diagnostics.slice(0, LIST_LIMIT).map((item) => `- ${item.severity}: ${item.code}: ${item.message.replace(/\s+/g, ' ')}`),
    );
    sections.push(renderMore(LIST_LIMIT, report.diagnostics.length, 'notes'), '');
  }
  sections.push(
    '## Timings (ms)',
    '',
    renderTable(
      ['stage', 'ms'],
      Object.entries(report.timings).map(([stage, ms]) => [stage, Math.round(ms)]),
    ),
    '',
  );
  return `${sections
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
