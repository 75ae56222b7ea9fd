import type { Diagnostic } from './diagnostic.js';
import type { SkippedFile } from './scan.js';

/** `checker graph`: what the knowledge graph holds and what it could not see. */
export interface GraphReport {
  schemaVersion: 1;
  kind: 'graph-report';
  files: { scanned: number; parsed: number; cached: number; reparsed: number };
  nodes: { total: number; byKind: Record<string, number> };
  edges: { total: number; byKind: Record<string, number> };
  parseFailures: { path: string; code: string; message: string; line?: number }[];
  skipped: SkippedFile[];
  unresolvedImports: { from: string; specifier: string; line: number; reason: string }[];
  routes: { api: number; ui: number; unmatchedMounts: number };
  diagnostics: Diagnostic[];
  /** Milliseconds per stage. */
  timings: Record<string, number>;
}
