/**
 * Tests that reach a changed file in ways its imports do not show: declared in `tests.dependsOn`, running a repository
 * file as a program, loaded after a runner's setup file, or calling a route that each changed file reaches on its own.
 */
import type { Env } from '../model/env.js';
import type { ReachingTest } from '../model/coverage.js';
import { toFileId } from '../graph/ids.js';
import { listTestFiles } from '../graph/queries/test-files.js';
import { findSpawnedFiles, PROCESS_MODULES } from '../graph/queries/spawned-files.js';
import { findReachingFiles, findReverseReach } from '../graph/queries/reverse-reach.js';
import { findRouteCallers, type RouteCaller } from '../graph/queries/find-route-callers.js';
import { findRouteImpacts, type RouteChange } from '../graph/queries/find-route-impacts.js';
import { compileGlobs } from '../text/glob.js';
import { compareText } from '../text/compare-text.js';
import { listCompletedFacts, type RepositoryGraph } from './build-graph.js';
import { readRepoTexts } from './load/repo-text.js';
import type { RunnerSetup } from './test-runners.js';
import { classifyRole } from '../graph/roles.js';

/**
 * The graph's test files less those the scan found generated or minified: a test folder's generated client
 * (`client.gen.ts` beside trpc's OpenAPI tests) declares no test a runner would run, and was not read to say so.
 */
function listWrittenTests(repository: RepositoryGraph): string[] {
  const unread = new Set(
    repository.parsed.skipped.filter((skip) => skip.reason === 'generated' || skip.reason === 'minified').map((skip) => skip.path),
  );
  // With the tests a focused build read for their links alone and completeFacts read in full since: the graph was
  // built without their cases, which make them tests (a spec in a `helpers/` folder declares its own).
  const completed = listCompletedFacts(repository).filter((path) => {
    const facts = repository.parsed.facts.get(path)?.facts;
    return facts !== undefined && facts.tests.length > 0 && facts.program !== true;
  });
  return [...new Set([...listTestFiles(repository.kg.graph), ...completed])].filter((path) => !unread.has(path)).sort(compareText);
}

/**
 * The files a focused build read for their links alone that a runner setup file or a `tests.dependsOn` rule makes
 * tests of the change: the runner loads the setup file the change reaches before each of them (or the rule says they
 * use a changed file), whatever they import. Their cases decide whether they are tests at all, so they must be read in
 * full before the tests are listed (outline's and axios's suites under `helpers/` folders were left out of a first run
 * and listed by the next).
 */
export function listUnreadUnseenTests(repository: RepositoryGraph, setups: readonly RunnerSetup[], changed: readonly string[]): string[] {
  const linkOnly = repository.parsed.linkOnly;
  if (linkOnly === undefined || linkOnly.size === 0) return [];
  const candidates = [...linkOnly].filter((path) => classifyRole(path) === 'test');
  if (candidates.length === 0) return [];
  const rules = compileDependsOn(repository).filter((rule) => changed.some((path) => rule.isFile(path)));
  let live: RunnerSetup[] = [];
  if (setups.length > 0) {
    const reached = [
      ...changed,
      ...findReverseReach(repository.kg, [...changed], { includeVia: false, includeTypeOnly: false }).map((file) => file.path),
    ].filter((path) => repository.parsed.facts.has(path));
    live = setups.filter((setup) => reached.some((path) => setup.isSetupFile(path)));
  }
  if (rules.length === 0 && live.length === 0) return [];
  return candidates.filter((path) => rules.some((rule) => rule.isTest(path)) || live.some((setup) => setup.runsFor(path)));
}

/** The `tests.dependsOn` rules of the configuration, their globs compiled. */
function compileDependsOn(repository: RepositoryGraph): { isFile: (path: string) => boolean; isTest: (path: string) => boolean }[] {
  return (repository.config.config.tests?.dependsOn ?? []).map((rule) => ({
    isFile: compileGlobs(rule.files, { dot: true }),
    isTest: compileGlobs(rule.tests, { dot: true }),
  }));
}

/** Texts of the tests read for the paths they run, at most this many bytes each. */
const MAX_TEXT_BYTES = 2 * 1024 * 1024;

/**
 * The tests `tests.dependsOn` declares for a changed path (fixtures, `.env`, spawned CLIs: what imports cannot show), as
 * reaching tests at distance 1. Test files are those of the graph (listTestFiles).
 */
export function createDeclaredTests(repository: RepositoryGraph): (path: string) => ReachingTest[] {
  const rules = compileDependsOn(repository);
  if (rules.length === 0) return () => [];
  const testFiles = listWrittenTests(repository);
  return (path) => {
    const found = new Set<string>();
    for (const rule of rules) if (rule.isFile(path)) for (const test of testFiles) if (rule.isTest(test) && test !== path) found.add(test);
    return [...found].map((testFile) => ({ testFile, distance: 1, via: [path], mocksChangedModule: false }));
  };
}

/**
 * The tests that run a repository file as a program (graph/queries/spawned-files.ts: `execFileSync(tsx, [cliPath])`
 * with `cliPath = path.resolve(__dirname, '../src/cli.ts')`): they reach that file and everything it imports, one step
 * further than the file. Only tests that import a process module are read.
 */
export async function createSpawningTests(env: Env, repository: RepositoryGraph): Promise<(path: string) => ReachingTest[]> {
  const spawners = [...listTestFiles(repository.kg.graph)]
    .filter((path) => repository.parsed.facts.get(path)?.facts.imports.some((item) => PROCESS_MODULES.has(item.specifier)) === true)
    .sort(compareText);
  if (spawners.length === 0) return () => [];
  const texts = await readRepoTexts(env, spawners, MAX_TEXT_BYTES);
  const isFile = (path: string): boolean => repository.kg.graph.hasNode(toFileId(path));
  const spawned: { program: string; test: string }[] = [];
  for (const [index, test] of spawners.entries())
    for (const program of findSpawnedFiles(test, texts[index] ?? '', isFile)) spawned.push({ program, test });
  if (spawned.length === 0) return () => [];
  return (path) => {
    const reaching = new Set([path, ...findReachingFiles(repository.kg, path)]);
    const found = new Map<string, ReachingTest>();
    for (const { program, test } of spawned)
      if (reaching.has(program) && test !== path && !found.has(test))
        found.set(test, { testFile: test, distance: 1, via: program === path ? [path] : [path, program], mocksChangedModule: false });
    return [...found.values()];
  };
}

/**
 * The tests a runner loads a setup file for (jasmine's helpers, mocha's `require` and `file`, jest's and vitest's
 * `setupFiles`; test-runners.ts): they run it, and what it imports, before their own code, so each reaches what the
 * setup file reaches, one step further. parse-server's `spec/helper.js` starts the whole server for every spec.
 */
export function createSetupFileTests(repository: RepositoryGraph, setups: readonly RunnerSetup[]): (path: string) => ReachingTest[] {
  if (setups.length === 0) return () => [];
  const files = [...repository.parsed.facts.keys()].sort(compareText);
  const tests = listWrittenTests(repository);
  const loaded = setups
    .map((setup) => ({ files: files.filter(setup.isSetupFile), tests: tests.filter(setup.runsFor) }))
    .filter((setup) => setup.files.length > 0 && setup.tests.length > 0);
  if (loaded.length === 0) return () => [];
  return (path) => {
    const distances = new Map(
      findReverseReach(repository.kg, [path], { includeVia: false, includeTypeOnly: false }).map((file) => [file.path, file.distance]),
    );
    distances.set(path, 0);
    const found = new Map<string, ReachingTest>();
    for (const setup of loaded) {
      for (const file of setup.files) {
        const distance = distances.get(file);
        if (distance === undefined) continue;
        for (const test of setup.tests) {
          const known = found.get(test);
          if (test === path || test === file || (known !== undefined && known.distance <= distance + 1)) continue;
          found.set(test, {
            testFile: test,
            distance: distance + 1,
            via: file === path ? [path] : [path, file],
            mocksChangedModule: false,
          });
        }
      }
    }
    return [...found.values()];
  };
}

/** Above this many changed files, a test that calls a route reaches only the changed file nearest to it. */
const MAX_EACH_FILE_ROUTE_CHANGES = 12;

/**
 * The callers of the routes each changed file reaches on its own. The change's routes keep one chain each, from the
 * nearest changed file: a controller and the service its handler calls both change, the route's chain starts at the
 * controller, and the e2e test that calls the route must reach the service too.
 */
export function findEachFileRouteCallers(
  repository: RepositoryGraph,
  routeChanges: readonly RouteChange[],
  changeCallers: readonly RouteCaller[],
): RouteCaller[] {
  // Each file's routes are among the change's: with no caller of those, none of theirs (and no walk per file).
  if (changeCallers.length === 0 || routeChanges.length < 2 || routeChanges.length > MAX_EACH_FILE_ROUTE_CHANGES) return [];
  return routeChanges.flatMap((routeChange) =>
    findRouteCallers(repository.kg, findRouteImpacts(repository.kg, [routeChange], findReverseReach(repository.kg, [routeChange.path]))),
  );
}
