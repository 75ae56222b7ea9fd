import type { GraphFileInput } from '../model/graph.js';
import {
  addEdge,
  type Builder,
  getFileId,
  getPackageFiles,
  getRepoTarget,
  getResolutionLookup,
  getRuntimeTarget,
} from './build-context.js';
import { isTestFile } from './build-modules.js';

/** Test nodes and their edges: which files and symbols a test covers, and what it mocks. */

export function addTestEdges(builder: Builder, files: readonly GraphFileInput[] = builder.files): void {
  for (const file of files) {
    const facts = file.facts;
    if (facts === undefined || !isTestFile(file)) continue;
    const lookup = getResolutionLookup(builder, file.path);
    const fileId = getFileId(builder, file.path);
    const tested = new Set<string>();
    facts.imports.forEach((fact, index) => {
      const resolution = lookup(fact.specifier, index);
      for (const target of [
        getRepoTarget(builder, resolution),
        getRuntimeTarget(builder, resolution),
        ...getPackageFiles(builder, resolution),
      ]) {
        if (target === undefined || target === file.path || tested.has(target)) continue;
        tested.add(target);
        addEdge(builder, fileId, getFileId(builder, target), { kind: 'tests', line: fact.line });
      }
    });
    const mocked = new Set<string>();
    for (const mock of facts.mocks) {
      const target = getRepoTarget(builder, lookup(mock.specifier));
      if (target === undefined || mocked.has(target)) continue;
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
