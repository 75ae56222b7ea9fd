import { classifyRole } from './roles.js';
import type { GraphFileInput } from '../model/graph.js';
import { addEdge, type Builder, getFileId, getRepoTarget, getResolutionLookup } from './build-context.js';

/** Test nodes and their edges: which files and symbols a test covers, and what it mocks. */

function isTestFile(file: GraphFileInput): boolean {
  return classifyRole(file.path) === 'test' || (file.facts?.tests.length ?? 0) > 0;
}

export function addTestEdges(builder: Builder): void {
  for (const file of builder.files) {
    const facts = file.facts;
    if (facts === undefined || !isTestFile(file)) continue;
    const lookup = getResolutionLookup(builder, file.path);
    const fileId = getFileId(builder, file.path);
    const tested = new Set<string>();
    facts.imports.forEach((fact, index) => {
      const target = getRepoTarget(builder, lookup(fact.specifier, index));
      if (target === undefined || target === file.path || tested.has(target)) return;
      tested.add(target);
      addEdge(builder, fileId, getFileId(builder, target), { kind: 'tests', line: fact.line });
    });
    const mocked = new Set<string>();
    for (const mock of facts.mocks) {
      const resolution = lookup(mock.specifier);
      const target = getRepoTarget(builder, resolution);
      if (target === undefined) {
        if (resolution === undefined && /^[./]/.test(mock.specifier)) {
          builder.result.unresolvedImports.push({
            from: file.path,
            specifier: mock.specifier,
            line: mock.line,
            reason: 'mocked specifier has no resolution (the file does not import it)',
          });
        }
        continue;
      }
      if (mocked.has(target)) continue;
      mocked.add(target);
      addEdge(builder, fileId, getFileId(builder, target), {
        kind: 'mocks',
        specifier: mock.specifier,
        line: mock.line,
        framework: mock.framework,
      });
    }
  }
}
