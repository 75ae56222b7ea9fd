/**
 * Real-application evaluation: the published Express server @actual-app/sync-server@25.6.0 (tsc output,
 * unbundled ES modules), committed into a temporary git repository, then two hand-made one-line changes.
 * Every expectation is hand-labelled in ./cases/actual-sync-server.ts (read the code, not checker's output):
 * the full route set behind eight cross-file sub-app mounts, the middleware guarding each route, the exact
 * routes each change reaches through its handler, and the auth edge cases a reviewer expects.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeChange } from '../../src/app/analyze.js';
import { buildRepositoryGraph, type RepositoryGraph } from '../../src/app/build-graph.js';
import type { ChangeAnalysis, EdgeCase, ImpactedRoute } from '../../src/model/analysis.js';
import type { RouteNode } from '../../src/model/graph.js';
import { getFindingId } from '../../src/rules/engine.js';
import { checkout, commitLineEdit, createPackageRepo, readPackageFiles, withNodeEnv, type PackageRepo } from '../helpers/eval-corpus.js';
import {
  AUTH_EDGE_CASE_RULES,
  AUTH_GUARDED_ROUTES,
  EXPECTED_ROUTES,
  FORBIDDEN_LIMITATION_CODES,
  HANDLER_AUTH_ROUTES,
  HELPER_CHANGE,
  INCLUDE,
  MOUNTS,
  PACKAGE,
  SYNC_HANDLER_CHANGE,
  SYNC_ROUTE_GUARDS,
} from './cases/actual-sync-server.js';

const sorted = (values: Iterable<string>): string[] => [...values].sort();

const allEdgeCases = (analysis: ChangeAnalysis): EdgeCase[] => [...analysis.edgeCases.top, ...analysis.edgeCases.overflow];

/** High-confidence edge cases about authentication that cite a route without evidence-backed auth middleware. */
function findUnfoundedAuthEdgeCases(analysis: ChangeAnalysis): string[] {
  return allEdgeCases(analysis)
    .filter((edgeCase) => edgeCase.confidence === 'high' && AUTH_EDGE_CASE_RULES.authRule.test(edgeCase.provenance))
    .flatMap((edgeCase) =>
      edgeCase.evidenceIds
        .filter((id) => id.startsWith('route:') && AUTH_GUARDED_ROUTES[id] === undefined)
        .map((id) => `${edgeCase.provenance} on ${id}: ${edgeCase.title}`),
    )
    .sort();
}

function checkRouteLimitations(analysis: ChangeAnalysis): void {
  const forbidden = analysis.limitations.filter((limitation) => FORBIDDEN_LIMITATION_CODES.includes(limitation.code));
  assert.deepEqual(
    forbidden.map((limitation) => `${limitation.code}: ${limitation.message}`),
    [],
    'all eight sub-app mounts of app.js must be matched',
  );
  // Every relative import of build/src resolves to a committed file (checked by hand, file by file).
  assert.deepEqual(analysis.unresolvedImports ?? [], []);
}

describe(`${PACKAGE.name}@${PACKAGE.version}: routes, guards and change reach on a real Express app`, () => {
  let corpus: PackageRepo;
  let syncHead: string;
  let helperHead: string;

  before(() => {
    corpus = createPackageRepo(readPackageFiles(PACKAGE.name, PACKAGE.version, INCLUDE));
    syncHead = commitLineEdit(corpus.repo, SYNC_HANDLER_CHANGE, 'sync: rename the since-required detail').oid;
    helperHead = commitLineEdit(corpus.repo, HELPER_CHANGE, 'sync: rename the file-has-reset upload reason').oid;
  });
  after(() => corpus?.repo.cleanup());

  // Tests in a file run one after another: each checks out the revision it builds from.
  let baseGraph: Promise<RepositoryGraph> | undefined;
  const getBaseGraph = (): Promise<RepositoryGraph> => {
    baseGraph ??= (async () => {
      checkout(corpus.repo, corpus.baseOid);
      return withNodeEnv(corpus.repo.dir, (env) => buildRepositoryGraph(env));
    })();
    return baseGraph;
  };
  const routeNodes = async (): Promise<Map<string, RouteNode>> => {
    const { kg } = await getBaseGraph();
    const routes = new Map<string, RouteNode>();
    kg.graph.forEachNode((id, attributes) => {
      if (attributes.kind === 'route') routes.set(id, attributes);
    });
    return routes;
  };

  let syncAnalysis: Promise<ChangeAnalysis> | undefined;
  const getSyncAnalysis = async (): Promise<ChangeAnalysis> => {
    // Only for ordering (the base graph checks out its own revision first); its failure is reported by its own tests.
    await getBaseGraph().catch(() => undefined);
    syncAnalysis ??= (async () => {
      checkout(corpus.repo, syncHead);
      return withNodeEnv(corpus.repo.dir, (env) => analyzeChange(env, { base: corpus.baseOid, head: syncHead }));
    })();
    return syncAnalysis;
  };

  test(`serves exactly the ${EXPECTED_ROUTES.length} hand-labelled routes, with full mount paths`, async () => {
    const routes = await routeNodes();
    assert.deepEqual(sorted(routes.keys()), sorted(EXPECTED_ROUTES.map((route) => route.id)));
    const declared = sorted([...routes.entries()].map(([id, route]) => `${id} @ ${route.file}:${route.line}`));
    assert.deepEqual(declared, sorted(EXPECTED_ROUTES.map((route) => `${route.id} @ ${route.file}:${route.line}`)));
    for (const route of routes.values()) assert.equal(route.framework, 'express', `${route.method} ${route.path}`);
  });

  test(`matches all ${MOUNTS.length} sub-app mounts (\`app.use('/sync', syncApp.handlers)\`, export { app as handlers })`, async () => {
    const { kg, limitations } = await getBaseGraph();
    assert.deepEqual(
      kg.unmatchedMounts.map((mount) => `${mount.file}:${mount.line} ${mount.prefix} → ${mount.target}: ${mount.reason}`),
      [],
    );
    assert.deepEqual(
      limitations.filter((limitation) => FORBIDDEN_LIMITATION_CODES.includes(limitation.code)).map((limitation) => limitation.message),
      [],
    );
    // Every mount contributes routes under its prefix (none of them keeps unprefixed paths).
    const ids = [...(await routeNodes()).keys()];
    for (const mount of MOUNTS)
      assert.ok(
        ids.some((id) => id.includes(` ${mount.prefix}`)),
        `no route under ${mount.prefix} (${mount.target}, app.js:${mount.line})`,
      );
  });

  test(`classifies validateSessionMiddleware as evidence-backed auth on exactly the ${Object.keys(AUTH_GUARDED_ROUTES).length} routes it guards`, async () => {
    const routes = await routeNodes();
    const guarded: Record<string, string> = {};
    for (const [id, route] of routes) {
      const auth = (route.guards ?? []).filter((guard) => guard.role === 'auth' && guard.confidence === 'high');
      if (auth.length === 0) continue;
      guarded[id] = auth
        .map((guard) => `${guard.name}@${guard.level}`)
        .sort()
        .join(', ');
    }
    const expected = Object.fromEntries(
      Object.entries(AUTH_GUARDED_ROUTES).map(([id, level]) => [id, `validateSessionMiddleware@${level}`]),
    );
    assert.deepEqual(guarded, expected);
    // validateSession called inside a handler is not a middleware guard.
    for (const id of HANDLER_AUTH_ROUTES) assert.equal(guarded[id], undefined, id);
  });

  test("applies the root app's rateLimit(...) to every route, as an app-level rate-limit guard", async () => {
    const routes = await routeNodes();
    const missing = sorted(
      [...routes.entries()]
        .filter(
          ([, route]) =>
            !(route.guards ?? []).some(
              (guard) =>
                guard.role === 'rate-limit' && guard.level === 'app' && guard.confidence === 'high' && /rateLimit/.test(guard.name),
            ),
        )
        .map(([id]) => id),
    );
    assert.deepEqual(missing, []);
  });

  describe(`change 1: ${SYNC_HANDLER_CHANGE.description}`, () => {
    test(`reaches exactly ${SYNC_HANDLER_CHANGE.impactedRoutes.join(', ')}, through its handler`, async () => {
      const analysis = await getSyncAnalysis();
      assert.deepEqual(
        analysis.changedFiles.map((file) => `${file.path} +${file.additions} -${file.deletions}`),
        [`${SYNC_HANDLER_CHANGE.path} +1 -1`],
      );
      assert.deepEqual(sorted(analysis.impactedRoutes.map((route) => route.id)), sorted(SYNC_HANDLER_CHANGE.impactedRoutes));
      const route = analysis.impactedRoutes.find((entry) => entry.id === 'route:POST /sync/sync');
      assert.ok(route !== undefined);
      assert.deepEqual(
        {
          method: route.method,
          path: route.path,
          file: route.file,
          line: route.line,
          reach: route.reach,
          direct: route.direct,
          chain: route.chain,
        },
        {
          method: 'POST',
          path: '/sync/sync',
          file: 'build/src/app-sync.js',
          line: 41,
          reach: 'handler',
          direct: true,
          chain: ['build/src/app-sync.js'],
        },
      );
    });

    test('the reached route carries validateSessionMiddleware (auth, app, high) and rateLimit (rate-limit, app, high), and no validation guard', async () => {
      const analysis = await getSyncAnalysis();
      const route = analysis.impactedRoutes.find((entry) => entry.id === 'route:POST /sync/sync');
      assert.ok(route !== undefined, 'POST /sync/sync is not reached');
      const guards = route.guards ?? [];
      const byRole = (role: string) => guards.filter((guard) => guard.role === role);
      assert.deepEqual(
        byRole('auth').map(({ name, level, confidence }) => ({ name, level, confidence })),
        SYNC_ROUTE_GUARDS.auth.map(({ name, level, confidence }) => ({ name, level, confidence })),
      );
      const auth = byRole('auth')[0];
      assert.ok(
        auth?.evidence.some((line) => /401|validateSession\b/.test(line)),
        `auth evidence should cite validateSession or its 401: ${JSON.stringify(auth?.evidence)}`,
      );
      const rateLimits = byRole('rate-limit');
      assert.equal(rateLimits.length, SYNC_ROUTE_GUARDS.rateLimit.length, JSON.stringify(rateLimits));
      for (const [index, expected] of SYNC_ROUTE_GUARDS.rateLimit.entries()) {
        const actual = rateLimits[index];
        assert.ok(actual !== undefined && expected.name.test(actual.name), `rate-limit guard ${JSON.stringify(actual)}`);
        assert.deepEqual(
          { level: actual.level, confidence: actual.confidence },
          { level: expected.level, confidence: expected.confidence },
        );
      }
      assert.deepEqual(byRole('validation'), [...SYNC_ROUTE_GUARDS.validation]);
    });

    test('asks no auth case of POST /sync/sync, whose handler body changed behind an unchanged guard, and no unfounded one', async () => {
      const analysis = await getSyncAnalysis();
      const edgeCases = allEdgeCases(analysis);
      // The change is a 422 message inside the handler: validateSessionMiddleware runs before it and is as it was, so
      // "call it without credentials" tests nothing this change did (route-edge-cases 3.5.0).
      const expectedId = getFindingId(AUTH_EDGE_CASE_RULES.pack, AUTH_EDGE_CASE_RULES.protectedRoute, 'route:POST /sync/sync');
      assert.equal(
        edgeCases.find((edgeCase) => edgeCase.id === expectedId),
        undefined,
        JSON.stringify(edgeCases.map((edgeCase) => `${edgeCase.provenance} ${edgeCase.scope}`)),
      );
      // The route is protected: "writes data and no auth middleware is declared" must not be said of it.
      const unprotectedId = getFindingId(AUTH_EDGE_CASE_RULES.pack, AUTH_EDGE_CASE_RULES.unprotectedMutation, 'route:POST /sync/sync');
      assert.equal(
        edgeCases.find((edgeCase) => edgeCase.id === unprotectedId),
        undefined,
      );
      assert.deepEqual(findUnfoundedAuthEdgeCases(analysis), []);
    });

    test('leaves no unmatched mount and no unresolved import behind', async () => {
      checkRouteLimitations(await getSyncAnalysis());
    });
  });

  describe(`change 2: ${HELPER_CHANGE.description}`, () => {
    test(`reaches exactly ${HELPER_CHANGE.impactedRoutes.join(', ')}, the one route whose handler calls validateUploadedFile`, async () => {
      await getSyncAnalysis().catch(() => undefined);
      checkout(corpus.repo, helperHead);
      const analysis = await withNodeEnv(corpus.repo.dir, (env) => analyzeChange(env, { base: syncHead, head: helperHead }));
      assert.deepEqual(
        analysis.changedFiles.map((file) => `${file.path} +${file.additions} -${file.deletions}`),
        [`${HELPER_CHANGE.path} +1 -1`],
      );
      assert.deepEqual(sorted(analysis.impactedRoutes.map((route) => route.id)), sorted(HELPER_CHANGE.impactedRoutes));
      const pick = (route: ImpactedRoute) => ({
        id: route.id,
        reach: route.reach,
        direct: route.direct,
        file: route.file,
        line: route.line,
        chain: route.chain,
      });
      assert.deepEqual(analysis.impactedRoutes.map(pick), [
        {
          id: 'route:POST /sync/upload-user-file',
          reach: 'handler',
          direct: false,
          file: 'build/src/app-sync.js',
          line: 135,
          chain: [HELPER_CHANGE.path, 'build/src/app-sync.js'],
        },
      ]);
      assert.deepEqual(findUnfoundedAuthEdgeCases(analysis), []);
      checkRouteLimitations(analysis);
    });
  });
});
