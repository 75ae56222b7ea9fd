import { buildRepositoryGraph, type RepositoryGraph } from '../../src/app/build-graph.js';
import type { ImpactReach } from '../../src/graph/queries/find-route-impacts.js';
import { findReverseReach } from '../../src/graph/queries/reverse-reach.js';
import { createTestEnv } from './test-env.js';
import { createRepo, type FileTree, type TestRepo } from './git-repo.js';

export interface ImpactFixture {
  repo: TestRepo;
  built: RepositoryGraph;
}

/** A committed temporary repository and its knowledge graph, built through the real pipeline. */
export async function buildImpactFixture(files: FileTree): Promise<ImpactFixture> {
  const repo = createRepo(files);
  try {
    const built = await buildRepositoryGraph(createTestEnv(repo.dir));
    return { repo, built };
  } catch (error) {
    repo.cleanup();
    throw error;
  }
}

/** Reverse reach of the changed files as `path → [distance, via, typeOnly]`, for exact comparisons. */
export function describeReach(fixture: ImpactFixture, changed: string[]): Record<string, [number, string[], boolean]> {
  const entries = findReverseReach(fixture.built.kg, changed).map((file): [string, [number, string[], boolean]] => [
    file.path,
    [file.distance, file.via, file.typeOnly],
  ]);
  return Object.fromEntries(entries);
}

export function reachOf(fixture: ImpactFixture, changed: string[]): ImpactReach[] {
  return findReverseReach(fixture.built.kg, changed);
}

export const json = (value: unknown): string => JSON.stringify(value, null, 2);
