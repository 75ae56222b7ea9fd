import type { GraphInput } from '../../src/model/graph.js';

/** The parts of a graph input that come from documents, all empty: for tests whose graph is only files and imports. */
export function withoutDocuments(): Omit<GraphInput, 'files' | 'resolutions'> {
  return { openApiRoutes: [], decisions: [], memory: [], skills: [], checks: [], packages: [] };
}
