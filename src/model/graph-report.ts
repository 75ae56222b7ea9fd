import { z } from 'zod';
import { diagnosticSchema } from './report-schemas.js';
import { SKIP_REASONS } from './scan.js';

/**
 * `checker graph`: what the knowledge graph holds and what it could not see. `graphReportSchema` is the source
 * of schemas/graph-report.schema.json (`npm run schemas`); `GraphReport` is its type.
 */
const count = z.int().min(0);
const nonEmpty = z.string().min(1);
const counts = z.strictObject({ total: count, byKind: z.record(z.string(), count) }).meta({ id: 'counts' });

export const graphReportSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('graph-report'),
  files: z.strictObject({ scanned: count, parsed: count, cached: count, reparsed: count }),
  languages: z
    .array(z.strictObject({ language: nonEmpty, files: count, parsed: z.boolean() }))
    .describe(
      'Source files by language: JavaScript, TypeScript, Python and Go are parsed (imports, tests, routes, proof); any other language is read as text only (change kinds and history).',
    ),
  nodes: counts,
  edges: counts,
  parseFailures: z.array(z.strictObject({ path: nonEmpty, code: nonEmpty, message: z.string(), line: z.int().min(1).optional() })),
  skipped: z.array(z.strictObject({ path: nonEmpty, reason: z.enum(SKIP_REASONS), detail: z.string() })),
  unresolvedImports: z.array(z.strictObject({ from: nonEmpty, specifier: z.string(), line: count, reason: z.string() })),
  routes: z.strictObject({ api: count, ui: count, unmatchedMounts: count }),
  diagnostics: z.array(diagnosticSchema),
  graphSource: z
    .enum(['build', 'snapshot', 'patched snapshot', 'patched'])
    .optional()
    .describe(
      "Where the knowledge graph came from: built from the facts, loaded from the graph an earlier run kept (.checker/local/cache/graph-v1.json), loaded and patched for the source files edited since, or the MCP server's warm graph patched in memory.",
    ),
  timings: z.record(z.string(), z.number().min(0)).describe('Milliseconds per stage.'),
});

export type GraphReport = z.infer<typeof graphReportSchema>;
