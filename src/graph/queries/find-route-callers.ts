import type { ImpactedFile, ImpactedRoute } from '../../model/analysis.js';
import type { ReachingTest } from '../../model/coverage.js';
import type { KnowledgeGraph } from '../build.js';
import { findReachingTests, type ReachingTestsOptions } from './find-reaching-tests.js';
import { findReverseReach } from './reverse-reach.js';
import { listTestFiles } from './test-files.js';
import { toFileId } from '../ids.js';
import { classifyRole } from '../roles.js';
import { compareText } from '../../text/compare-text.js';

/** A file that makes an HTTP call to a route the change reaches (a `calls` edge). */
export interface RouteCaller {
  /** The calling file. */
  path: string;
  /** The route's evidence id, `route:POST /api/orders`. */
  route: string;
  /** `POST /api/orders`. */
  label: string;
  /** The file's first call to the route. */
  line: number;
  /** The impacted route's chain: the changed file first, the route's file last. */
  via: string[];
  /** `via.length`: the files from the change to the route, the call one more step. */
  distance: number;
  /** The changed file the route's reach starts from. */
  changed: string;
}

/**
 * The files that call the impacted routes (their `calls` edges), each by the route reached nearest (then by route id),
 * sorted by distance then path. `routes` are those `findRouteImpacts` gives, in its order.
 */
export function findRouteCallers(knowledge: KnowledgeGraph, routes: readonly ImpactedRoute[]): RouteCaller[] {
  const best = new Map<string, RouteCaller>();
  for (const route of routes) {
    if (!knowledge.graph.hasNode(route.id)) continue;
    const changed = route.chain[0];
    if (changed === undefined) continue;
    knowledge.graph.forEachInEdge(route.id, (_edge, attributes, _source, _target, source) => {
      if (attributes.kind !== 'calls' || source.kind !== 'file') return;
      const caller: RouteCaller = {
        path: source.path,
        route: route.id,
        label: `${route.method} ${route.path}`,
        line: attributes.line,
        via: route.chain,
        distance: route.chain.length,
        changed,
      };
      const known = best.get(`${caller.path}\0${changed}`);
      if (
        known === undefined ||
        caller.distance < known.distance ||
        (caller.distance === known.distance && compareText(caller.route, known.route) < 0)
      )
        best.set(`${caller.path}\0${changed}`, caller);
    });
  }
  return [...best.values()].sort(
    (left, right) => left.distance - right.distance || compareText(left.path, right.path) || compareText(left.changed, right.changed),
  );
}

/** What an impacted file says of its HTTP call: `calls POST /api/orders on line 2, a route the change reaches`. */
function describeRouteCall(caller: RouteCaller): string {
  return `calls ${caller.label} on line ${caller.line}, a route the change reaches`;
}

/**
 * The files reached over HTTP that imports do not reach (`known`: the changed and import-reached files): each caller of
 * an impacted route, then the files that import a caller, their chains continuing the route's. Sorted by distance, then
 * path; each file once, by its nearest chain.
 */
export function findHttpImpactedFiles(
  knowledge: KnowledgeGraph,
  callers: readonly RouteCaller[],
  known: ReadonlySet<string>,
): ImpactedFile[] {
  const best = new Map<string, ImpactedFile>();
  const offer = (file: ImpactedFile): void => {
    const current = best.get(file.path);
    if (!known.has(file.path) && (current === undefined || file.distance < current.distance)) best.set(file.path, file);
  };
  const role = (path: string): string => classifyRole(path);
  for (const caller of callers) {
    const reason = describeRouteCall(caller);
    offer({
      id: toFileId(caller.path),
      path: caller.path,
      distance: caller.distance,
      via: caller.via,
      typeOnly: false,
      role: role(caller.path),
      route: caller.route,
      reason,
    });
    for (const importer of findReverseReach(knowledge, [caller.path])) {
      offer({
        id: toFileId(importer.path),
        path: importer.path,
        distance: caller.distance + importer.distance,
        via: [...caller.via, ...importer.via],
        typeOnly: importer.typeOnly,
        role: role(importer.path),
        route: caller.route,
        reason: `imports ${caller.path}, which ${reason}`,
      });
    }
  }
  return [...best.values()].sort((left, right) => left.distance - right.distance || compareText(left.path, right.path));
}

/**
 * The tests a change to `path` reaches through HTTP calls: a test file that calls a route the change to `path` reaches
 * (a supertest test), and the tests that import a file that does. `distance` counts the route's chain, the call, and the
 * test's imports; `via` is the route's chain then the test's import chain from the caller; `route` names the route.
 * Sorted by distance, then test file.
 */
export function findCallingTests(
  knowledge: KnowledgeGraph,
  callers: readonly RouteCaller[],
  path: string,
  options: ReachingTestsOptions = {},
): ReachingTest[] {
  const testFiles = listTestFiles(knowledge.graph);
  const best = new Map<string, ReachingTest>();
  const offer = (test: ReachingTest): void => {
    const known = best.get(test.testFile);
    if (known === undefined || test.distance < known.distance) best.set(test.testFile, test);
  };
  for (const caller of callers) {
    if (caller.changed !== path) continue;
    if (testFiles.has(caller.path))
      offer({ testFile: caller.path, distance: caller.distance, via: caller.via, mocksChangedModule: false, route: caller.route });
    for (const test of findReachingTests(knowledge, caller.path, options)) {
      if (test.testFile === path) continue;
      offer({
        testFile: test.testFile,
        distance: caller.distance + test.distance,
        via: [...caller.via, ...test.via],
        mocksChangedModule: test.mocksChangedModule,
        route: caller.route,
      });
    }
  }
  return [...best.values()].sort((left, right) => left.distance - right.distance || compareText(left.testFile, right.testFile));
}
