import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generateDeepChainRepo, type DeepChainRepo } from '../../bench/deep-chain.js';
import { childModuleUrl, childNodeArgs } from '../helpers/child-module.js';
import { makeTempDir } from '../helpers/git-repo.js';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** src/<path>.ts by hand, the built dist/<path>.js under npm test (see test/helpers/child-module.ts). */
const moduleUrl = (path: string): string => childModuleUrl(path.replace(/^src\//, '').replace(/\.ts$/, ''));

/** What the child process reports about one `checker ai` run (analysis plus bundle) on a chain repository. */
interface ChainRun {
  maxRssBytes: number;
  bundleBytes: number;
  /** Entries of every `via`, route `steps`/`chain` and reaching-test `via`: the paths the report carries. */
  pathEntries: number;
  impacted: { path: string; distance: number; via: string[] }[];
  routes: { id: string; reach: string; steps: string[]; chain: string[]; reason: string }[];
  reachingTests: { testFile: string; distance: number; via: string[] }[];
  proof: { path: string; state: string; reachingTests: string[] }[];
  limitations: { code: string; message: string }[];
}

// The analysis runs in a fresh process so its peak RSS is its own, not this test runner's.
const CHILD = `
const [{ createNodeEnv }, { buildRepositoryGraph }, { analyzeChange }, { buildAgentBundle }, { readBundleInputs }, { renderJson }, { findReachingTests }] = await Promise.all([
  import(${JSON.stringify(moduleUrl('src/io/node-env.ts'))}),
  import(${JSON.stringify(moduleUrl('src/app/build-graph.ts'))}),
  import(${JSON.stringify(moduleUrl('src/app/analyze.ts'))}),
  import(${JSON.stringify(moduleUrl('src/app/agent-bundle.ts'))}),
  import(${JSON.stringify(moduleUrl('src/app/load/read-bundle-inputs.ts'))}),
  import(${JSON.stringify(moduleUrl('src/report/json.ts'))}),
  import(${JSON.stringify(moduleUrl('src/graph/queries/find-reaching-tests.ts'))}),
]);
const env = createNodeEnv(process.argv[1], { useCache: false });
const repository = await buildRepositoryGraph(env);
const analysis = await analyzeChange(env, { base: 'HEAD~1', repository });
const bundle = buildAgentBundle(analysis, await readBundleInputs(env, { profile: 'codex' }));
const bundleBytes = renderJson(bundle).length;
await env.close();
const reachingTests = findReachingTests(repository.kg, analysis.changedFiles[0].path);
let pathEntries = 0;
for (const file of analysis.impactedFiles) pathEntries += file.via.length;
for (const route of analysis.impactedRoutes) pathEntries += route.steps.length + route.chain.length;
for (const test of reachingTests) pathEntries += test.via.length;
process.stdout.write(JSON.stringify({
  maxRssBytes: process.resourceUsage().maxRSS * 1024,
  bundleBytes,
  pathEntries,
  impacted: analysis.impactedFiles.map(({ path, distance, via }) => ({ path, distance, via })),
  routes: analysis.impactedRoutes.map(({ id, reach, steps, chain, reason }) => ({ id, reach, steps, chain, reason })),
  reachingTests: reachingTests.map(({ testFile, distance, via }) => ({ testFile, distance, via })),
  proof: analysis.changedPathProof.map(({ path, state, reachingTests }) => ({ path, state, reachingTests })),
  limitations: analysis.limitations.map(({ code, message }) => ({ code, message })),
}));
`;

function runChain(repo: DeepChainRepo): ChainRun {
  const stdout = execFileSync(process.execPath, [...childNodeArgs(), '--input-type=module', '-e', CHILD, repo.dir], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(stdout) as ChainRun;
}

const SMALL = 2000;
const LARGE = 4000;

describe('a deep import chain stays linear (src/chain/m0.ts → m1.ts → … the deepest file changed)', () => {
  const workDir = makeTempDir('checker-deep-chain-');
  let small: { repo: DeepChainRepo; run: ChainRun };
  let large: { repo: DeepChainRepo; run: ChainRun };
  before(() => {
    const smallRepo = generateDeepChainRepo(join(workDir, 'small'), { files: SMALL });
    small = { repo: smallRepo, run: runChain(smallRepo) };
    const largeRepo = generateDeepChainRepo(join(workDir, 'large'), { files: LARGE });
    large = { repo: largeRepo, run: runChain(largeRepo) };
  });
  after(() => rmSync(workDir, { recursive: true, force: true }));

  test('every other file of the chain, the test and the server are impacted, at their exact distances', () => {
    const { repo, run } = large;
    assert.equal(run.impacted.length, LARGE + 1);
    const byPath = new Map(run.impacted.map((file) => [file.path, file]));
    for (let index = 0; index < LARGE - 1; index += 1)
      assert.equal(byPath.get(repo.chain[index] ?? '')?.distance, LARGE - 1 - index, repo.chain[index]);
    assert.equal(byPath.get(repo.testFile)?.distance, LARGE);
    assert.equal(byPath.get('src/server.ts')?.distance, LARGE);
    assert.equal(byPath.has(repo.changed), false);
  });

  test('a chain of up to 33 files is shown whole; a longer one keeps 16 files at each end around a marker', () => {
    const { repo, run } = large;
    const byPath = new Map(run.impacted.map((file) => [file.path, file]));
    const fromChange = [...repo.chain].reverse();
    const whole = byPath.get(repo.chain[LARGE - 34] ?? '');
    assert.equal(whole?.distance, 33);
    assert.deepEqual(whole?.via, fromChange.slice(0, 33));
    const shortest = byPath.get(repo.chain[LARGE - 35] ?? '');
    assert.equal(shortest?.distance, 34);
    assert.deepEqual(shortest?.via, [...fromChange.slice(0, 16), '… 2 more files …', ...fromChange.slice(18, 34)]);
    const test = byPath.get(repo.testFile);
    assert.deepEqual(test?.via, [...fromChange.slice(0, 16), `… ${LARGE - 32} more files …`, ...fromChange.slice(LARGE - 16)]);
    for (const file of run.impacted) assert.ok(file.via.length <= 33, `${file.path} carries ${file.via.length} via entries`);
  });

  test('the route is reached through the whole call chain, shown shortened with its true length', () => {
    const { repo, run } = large;
    assert.equal(run.routes.length, 1);
    const route = run.routes[0];
    assert.equal(route?.id, 'route:GET /chain');
    assert.equal(route?.reach, 'handler');
    assert.equal(route?.steps[0], 'handler GET /chain (src/server.ts:6)');
    assert.equal(route?.steps[1], 'calls step0 (src/chain/m0.ts)');
    assert.equal(route?.steps.at(-1), `changed step${LARGE - 1} (${repo.changed}:2)`);
    assert.ok(route?.steps.includes(`… ${LARGE - 32} more calls …`), route?.steps.join(' | '));
    assert.equal(route?.steps.length, 1 + 16 + 1 + 16);
    assert.deepEqual(route?.chain.slice(0, 2), [repo.changed, repo.chain[LARGE - 2]]);
    assert.equal(route?.chain.at(-1), 'src/server.ts');
    assert.ok(route?.chain.includes(`… ${LARGE - 32} more files …`), route?.chain.join(' | '));
  });

  test('the test at the top of the chain is found as proof, and the shortening is named as a limitation', () => {
    const { repo, run } = large;
    assert.equal(run.reachingTests.length, 1);
    assert.equal(run.reachingTests[0]?.testFile, repo.testFile);
    assert.equal(run.reachingTests[0]?.distance, LARGE);
    assert.equal(run.reachingTests[0]?.via.length, 33);
    assert.equal(run.reachingTests[0]?.via[16], `… ${LARGE - 32} more files …`);
    assert.deepEqual(run.proof, [{ path: repo.changed, state: 'static-only', reachingTests: [repo.testFile] }]);
    const note = run.limitations.find((item) => item.code === 'limits/path-shortened');
    assert.ok(note, JSON.stringify(run.limitations));
    assert.match(
      note.message,
      new RegExp(
        `^Chains longer than 33 files or calls are shortened \\(${LARGE - 32} impacted files, 1 reaching test, 1 route; the deepest file is ${LARGE} imports away`,
      ),
    );
  });

  test('paths carried grow linearly: at most 33 entries per impacted file and route', () => {
    for (const { run } of [small, large])
      assert.ok(
        run.pathEntries <= 33 * (run.impacted.length + 2 * run.routes.length + run.reachingTests.length),
        `${run.pathEntries} path entries`,
      );
    const ratio = large.run.pathEntries / small.run.pathEntries;
    assert.ok(ratio < 2.2, `path entries grew ${ratio.toFixed(2)}x when the chain doubled`);
  });

  test('peak memory and output grow linearly, not with the square of the chain', (context) => {
    const rss = large.run.maxRssBytes / small.run.maxRssBytes;
    const output = large.run.bundleBytes / small.run.bundleBytes;
    context.diagnostic(
      `peak RSS ${small.run.maxRssBytes} → ${large.run.maxRssBytes} bytes (${rss.toFixed(2)}x), bundle JSON ${small.run.bundleBytes} → ${large.run.bundleBytes} bytes (${output.toFixed(2)}x)`,
    );
    // Doubling the chain doubles the work at most (ratio 2 plus start-up); a quadratic run quadruples it.
    assert.ok(rss < 2.5, `peak RSS grew ${rss.toFixed(2)}x (${small.run.maxRssBytes} → ${large.run.maxRssBytes} bytes)`);
    assert.ok(output < 2.5, `bundle JSON grew ${output.toFixed(2)}x (${small.run.bundleBytes} → ${large.run.bundleBytes} bytes)`);
  });
});
