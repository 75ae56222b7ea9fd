import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { buildRealCorpus, DEFAULT_CORPUS, WORKSPACE_CORPUS, type CorpusOptions } from '../../bench/corpus.js';
import { buildRepositoryGraph } from '../../src/app/build-graph.js';
import { extractFacts } from '../../src/graph/parse/extract-facts.js';
import { findChangedExports } from '../../src/graph/queries/find-changed-exports.js';
import { findContractCrossings } from '../../src/graph/queries/find-contract-crossings.js';
import { findImpactedAreas } from '../../src/graph/queries/find-impacted-areas.js';
import { findReachingTests } from '../../src/graph/queries/find-reaching-tests.js';
import { findRouteImpacts } from '../../src/graph/queries/find-route-impacts.js';
import { findSymbolImpacts } from '../../src/graph/queries/find-symbol-impacts.js';
import { findReverseReach } from '../../src/graph/queries/reverse-reach.js';
import { openRepository, readChange, readFileAtRevision } from '../../src/io/git.js';
import { createTestEnv } from '../helpers/test-env.js';
import type { ChangedExport } from '../../src/model/change.js';
import { createOptionsLookup, linkWorkspacePackages } from '../helpers/ts-oracle.js';

/** The 8 JS/TS extensions our graph parses; TypeScript's preProcessFile lists imports, re-exports, import() and require(). */
const SOURCE = /\.(?:[mc]?tsx?|[mc]?jsx?)$/;

/** Reverse closure of `seeds` over the import graph TypeScript's own resolver sees (seeds excluded). */
function computeOracleClosure(root: string, paths: string[], seeds: string[]): { closure: Set<string>; edges: number } {
  const getOptions = createOptionsLookup(root);
  const caches = new Map<string, ts.ModuleResolutionCache>();
  const tracked = new Set(paths);
  const importers = new Map<string, Set<string>>();
  let edges = 0;
  for (const path of paths.filter((candidate) => SOURCE.test(candidate))) {
    const text = readFileSync(join(root, path), 'utf8');
    const { key, options } = getOptions(path);
    let cache = caches.get(key);
    if (cache === undefined) {
      cache = ts.createModuleResolutionCache(root, (name) => name, options);
      caches.set(key, cache);
    }
    const mode = /\.c[jt]s$/.test(path) ? ts.ModuleKind.CommonJS : ts.ModuleKind.ESNext;
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      const resolved = ts.resolveModuleName(fileName, join(root, path), options, ts.sys, cache, undefined, mode).resolvedModule
        ?.resolvedFileName;
      if (resolved === undefined || !resolved.startsWith(`${root}/`)) continue;
      const target = resolved.slice(root.length + 1);
      if (!tracked.has(target) || target.split('/').includes('node_modules')) continue;
      edges += 1;
      const set = importers.get(target) ?? new Set<string>();
      set.add(path);
      importers.set(target, set);
    }
  }
  const closure = new Set<string>();
  const queue = [...seeds];
  const seen = new Set(seeds);
  while (queue.length > 0) {
    const current = queue.shift() ?? '';
    for (const importer of importers.get(current) ?? []) {
      if (seen.has(importer)) continue;
      seen.add(importer);
      closure.add(importer);
      queue.push(importer);
    }
  }
  return { closure, edges };
}

const time = <T>(timings: Record<string, number>, name: string, run: () => T): T => {
  const started = performance.now();
  const result = run();
  timings[name] = Number((performance.now() - started).toFixed(1));
  return result;
};

async function compareImpactWithTypeScript(label: string, options: CorpusOptions): Promise<{ changed: number; impacted: number }> {
  const corpus = await buildRealCorpus(options);
  after(() => rmSync(corpus.dir, { recursive: true, force: true }));
  const repo = await openRepository(corpus.dir);
  const change = await readChange(repo, { base: corpus.baseOid, head: corpus.headOid });
  const built = await buildRepositoryGraph(createTestEnv(corpus.dir));
  const kg = built.kg;
  const changed = change.files.filter((file) => file.status !== 'deleted').map((file) => file.path);
  const changedSet = new Set(changed);

  const timings: Record<string, number> = {};
  const reach = time(timings, 'reverseReach', () => findReverseReach(kg, changed)).filter((file) => !changedSet.has(file.path));
  const ours = new Set(reach.map((file) => file.path));

  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: corpus.dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((path) => path !== '');
  linkWorkspacePackages(corpus.dir, corpus.packages);
  const oracleStarted = performance.now();
  const oracle = computeOracleClosure(corpus.dir, paths, changed);
  const oracleTime = performance.now() - oracleStarted;
  for (const path of changed) oracle.closure.delete(path);

  const missed = [...oracle.closure].filter((path) => !ours.has(path)).sort();
  const extra = [...ours].filter((path) => !oracle.closure.has(path)).sort();
  const recall = oracle.closure.size === 0 ? 1 : (oracle.closure.size - missed.length) / oracle.closure.size;
  const precision = ours.size === 0 ? 1 : (ours.size - extra.length) / ours.size;

  const changedExports: ChangedExport[] = [];
  for (const file of change.files) {
    if (!SOURCE.test(file.path)) continue;
    const headText = file.status === 'deleted' ? '' : readFileSync(join(corpus.dir, file.path), 'utf8');
    const baseText =
      file.status === 'added' ? '' : ((await readFileAtRevision(repo, corpus.baseOid, file.previousPath ?? file.path)) ?? '');
    const exportsOf = (text: string) => (text === '' ? [] : extractFacts(file.path, text, { assertionHelpers: [] }).exports);
    changedExports.push(...findChangedExports(file, exportsOf(baseText), exportsOf(headText)));
  }
  const symbols = time(timings, 'symbolImpacts', () => findSymbolImpacts(kg, changedExports));
  const routes = time(timings, 'routeImpacts', () => findRouteImpacts(kg, changed, reach));
  time(timings, 'impactedAreas', () => findImpactedAreas(kg, changed, [...ours]));
  const reachingTests = time(timings, 'reachingTests', () => changed.map((path) => findReachingTests(kg, path)));
  const crossings = time(timings, 'contractCrossings', () =>
    findContractCrossings(kg, [{ id: 'tests-stay-out', from: ['**/src/**'], to: ['**/tests/**'] }], { files: changed }),
  );

  console.log(
    [
      `impact corpus ${label}: ${corpus.files} files, graph built in ${built.timings.total} ms`,
      `changed files ${change.files.length} (${changed.length} at head), changed exports ${changedExports.length}, importers ${symbols.reduce((sum, impact) => sum + impact.importers.length, 0)}`,
      `impacted: ours ${ours.size}, TypeScript oracle ${oracle.closure.size} (${oracle.edges} in-repo edges, ${oracleTime.toFixed(0)} ms)`,
      `recall ${(recall * 100).toFixed(2)}%, precision ${(precision * 100).toFixed(2)}%`,
      `routes ${routes.length}, reaching tests ${new Set(reachingTests.flat().map((entry) => entry.testFile)).size}, contract crossings ${crossings.length}`,
      `query times (ms) ${JSON.stringify(timings)}`,
      ...missed.slice(0, 30).map((path) => `  missed (TypeScript only): ${path}`),
      ...extra.slice(0, 30).map((path) => `  extra (ours only): ${path}`),
    ].join('\n'),
  );
  assert.deepEqual(missed, [], 'recall must be 100%');
  assert.ok(precision >= 0.99, `precision ${(precision * 100).toFixed(2)}% is below 99%`);
  return { changed: changed.length, impacted: ours.size };
}

test(`impacted files equal TypeScript's reverse closure on ${DEFAULT_CORPUS.name} ${DEFAULT_CORPUS.versions.join(' → ')} (a TypeScript program of each version)`, async () => {
  const { changed, impacted } = await compareImpactWithTypeScript(`${DEFAULT_CORPUS.name}@${DEFAULT_CORPUS.versions.join('→')}`, {});
  assert.ok(
    changed >= 3 && impacted >= 100,
    `the change is too small to be a meaningful oracle test: ${changed} changed, ${impacted} impacted`,
  );
});

test("impacted files equal TypeScript's reverse closure on the workspace corpus (zod, rxjs, tRPC server and client, two versions each)", async () => {
  const { changed, impacted } = await compareImpactWithTypeScript('workspace', { packages: WORKSPACE_CORPUS });
  assert.ok(
    changed >= 100 && impacted >= 300,
    `the change is too small to be a meaningful oracle test: ${changed} changed, ${impacted} impacted`,
  );
});
