import assert from 'node:assert/strict';
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildRepositoryGraph, type RepositoryGraph } from '../../src/app/build-graph.js';
import { getGraphCounts } from '../../src/graph/queries/graph-counts.js';
import { peekGraphLists } from '../../src/graph/snapshot.js';
import { createWarmGraph } from '../../src/mcp/warm.js';
import type { Env } from '../../src/model/env.js';
import { ageFiles } from '../helpers/age-files.js';
import { createRepo, type FileTree, type TestRepo } from '../helpers/git-repo.js';
import { analyse, describeRepository } from '../helpers/repository-shape.js';
import { createTestEnv } from '../helpers/test-env.js';
import { SHOP_EDITS, SHOP_FILES } from '../helpers/shop-repo.js';

// The CLI's warm graph (src/app/graph-snapshot.ts): a run on a tree that an earlier run kept loads the graph instead
// of building it, and a run after an edit of a few source files loads it and patches those files. Either way the
// result must be what a build of the same tree gives: the same nodes, edges, attributes, lists, limitations and
// analysis. Every other change builds.

const SNAPSHOT = '.checker/local/cache/graph-v1.json';
const SNAPSHOT_DATA = '.checker/local/cache/graph-v1.data.json';

const FILES: FileTree = {
  ...SHOP_FILES,
  '.gitignore': 'node_modules/\n',
  // Extends a file the scan does not list (git ignores node_modules): the snapshot must notice when it changes.
  'tsconfig.json': JSON.stringify({ extends: './node_modules/@acme/tsconfig/base.json', compilerOptions: { strict: true } }),
  'node_modules/@acme/tsconfig/base.json': JSON.stringify({ compilerOptions: { module: 'NodeNext' } }),
  '.checker/memory/pricing.yml':
    'entries:\n  - id: rounding\n    kind: invariant\n    text: Totals are rounded to cents once, in roundCents.\n    paths: [src/shared/**]\n',
  'docs/openapi.yaml':
    'openapi: 3.0.0\ninfo: {title: shop, version: "1"}\npaths:\n  /orders/list:\n    get:\n      responses:\n        "200": {description: ok}\n',
};

/** The real-disk Env of a built CLI: only a build id lets a snapshot stand for a build. */
function envOf(repo: TestRepo, buildId: string | undefined = 'snapshot-test'): Env {
  const env = createTestEnv(repo.dir);
  return buildId === undefined ? env : { ...env, buildId };
}

async function run(repo: TestRepo, buildId?: string): Promise<RepositoryGraph> {
  return buildRepositoryGraph(envOf(repo, buildId));
}

/** A build of the same tree that no snapshot or facts cache can stand in for. */
async function freshBuild(repo: TestRepo): Promise<{ env: Env; repository: RepositoryGraph }> {
  const env = createTestEnv(repo.dir, { useCache: false });
  return { env, repository: await buildRepositoryGraph(env) };
}

/** Node ids and edges in the graph's own iteration order, which queries walk. */
function iterationOrder(repository: RepositoryGraph): string[] {
  const order: string[] = [];
  repository.kg.graph.forEachNode((id) => {
    order.push(id);
  });
  repository.kg.graph.forEachEdge((_edge, attributes, source, target) => {
    order.push(JSON.stringify([source, target, attributes]));
  });
  // Each node's edges, in the order queries meet them (a loaded graph's lists give graphology's).
  repository.kg.graph.forEachNode((id) => {
    repository.kg.graph.forEachOutEdge(id, (_edge, attributes, _source, target) => order.push(`${id} > ${target} ${attributes.kind}`));
    repository.kg.graph.forEachInEdge(id, (_edge, attributes, source) => order.push(`${id} < ${source} ${attributes.kind}`));
  });
  return order;
}

async function assertSameAsFreshBuild(repo: TestRepo, repository: RepositoryGraph): Promise<void> {
  const fresh = await freshBuild(repo);
  assert.deepEqual(describeRepository(repository), describeRepository(fresh.repository));
  assert.deepEqual(await analyse(envOf(repo), repository), await analyse(fresh.env, fresh.repository));
}

/** Cold, then warm (which keeps the graph), then loaded: the state every case below starts from. */
async function warmUp(repo: TestRepo): Promise<RepositoryGraph> {
  repo.remove('.checker/local/cache');
  ageFiles(repo);
  assert.equal((await run(repo)).source, 'build');
  assert.equal(existsSync(join(repo.dir, SNAPSHOT)), false, 'a run that parsed files keeps no graph');
  const warm = await run(repo);
  assert.equal(warm.source, 'build');
  assert.ok(existsSync(join(repo.dir, SNAPSHOT)), 'a run whose facts all came from the cache keeps its graph');
  return warm;
}

describe('the warm graph kept across runs (graph-snapshot)', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo(FILES);
  });
  after(() => repo.cleanup());

  it('a run on an unchanged tree loads the graph, equal to the build it replaces, in the same order', async () => {
    const built = await warmUp(repo);
    const loaded = await run(repo);
    assert.equal(loaded.source, 'snapshot');
    // A CLI run keeps the loaded graph as the snapshot's lists, and every query reads them (graphology is never filled).
    assert.ok(peekGraphLists(loaded.kg) !== undefined, 'the graph stays the snapshot lists');
    const routeKinds = (repository: RepositoryGraph): string[] => {
      const kinds: string[] = [];
      repository.kg.graph.forEachNode((_id, attributes) => {
        if (attributes.kind === 'route') kinds.push(`${attributes.method} ${attributes.path} ${attributes.routeKind}`);
      });
      return kinds;
    };
    assert.deepEqual(getGraphCounts(loaded.kg), getGraphCounts(built.kg));
    assert.deepEqual(routeKinds(loaded), routeKinds(built));
    assert.deepEqual(describeRepository(loaded), describeRepository(built));
    assert.ok(peekGraphLists(loaded.kg) !== undefined, 'walking the graph filled nothing');
    assert.deepEqual(getGraphCounts(loaded.kg), getGraphCounts(built.kg));
    assert.deepEqual(iterationOrder(loaded), iterationOrder(built));
    const nodesOf = (repository: RepositoryGraph): string[] => {
      const nodes: string[] = [];
      repository.kg.graph.forEachNode((id, attributes) => {
        nodes.push(JSON.stringify([id, attributes]));
      });
      return nodes;
    };
    assert.deepEqual(nodesOf(loaded), nodesOf(built));
    // A route's guards, chain links and mounts are kept once, in a table, and named by position in the route nodes.
    const stored = JSON.parse(readFileSync(join(repo.dir, SNAPSHOT_DATA), 'utf8')).data.graph;
    const parts: unknown[] = stored.routeParts;
    assert.equal(new Set(parts.map((part) => JSON.stringify(part))).size, parts.length, 'each part once');
    const chains = stored.nodes.flatMap((node: { kind: string; registrations?: { chain: unknown[] }[] }) =>
      node.kind === 'route' ? (node.registrations ?? []).map((registration) => registration.chain) : [],
    );
    assert.ok(chains.length > 0 && chains.flat().every((position: unknown) => Number.isInteger(position)), JSON.stringify(chains));
    assert.deepEqual(await analyse(envOf(repo), loaded), await analyse(envOf(repo), built));
    // The route kept its mount prefix and its handler chain, which the symbol index rebuilt on load follows.
    assert.ok(loaded.kg.graph.hasNode('route:GET /orders/list'));
    assert.ok(loaded.kg.symbols !== undefined && loaded.kg.codeowners !== undefined);
    assert.equal(loaded.kg.codeowners.matchPath('src/pricing/discount.ts')?.owners.join(), '@acme/pricing');
  });

  it('stands only for facts from the facts cache: with that cache gone, the run parses and builds', async () => {
    await warmUp(repo);
    for (const name of readdirSync(join(repo.dir, '.checker/local/cache'))) {
      if (name.startsWith('facts-')) repo.remove(`.checker/local/cache/${name}`);
    }
    const rebuilt = await run(repo);
    assert.ok(rebuilt.parsed.stats.parsed > 0);
    assert.equal(rebuilt.source, 'build');
  });

  it('another build of checker, or none (from sources), builds', async () => {
    await warmUp(repo);
    assert.equal((await run(repo, 'another-build')).source, 'build');
    assert.equal((await run(repo, undefined)).source, 'build');
  });

  it('after source edits it loads and patches, equal to a fresh build; the next run keeps the patched graph', async () => {
    await warmUp(repo);
    for (const [what, files] of SHOP_EDITS) {
      repo.write(files);
      ageFiles(repo, Object.keys(files));
      const patched = await run(repo);
      assert.equal(patched.source, 'patched snapshot', what);
      assert.equal(patched.parsed.stats.parsed, Object.keys(files).length, `${what}: only the edited files are parsed`);
      // Patched as the snapshot's lists: graphology is filled only by the walk below, from the patched lists.
      assert.ok(peekGraphLists(patched.kg) !== undefined, `${what}: patched without filling graphology`);
      await assertSameAsFreshBuild(repo, patched);
      // Nothing parsed now: this run keeps the patched graph, and the next loads it as it is.
      const again = await run(repo);
      assert.equal(again.source, 'patched snapshot', what);
      const loaded = await run(repo);
      assert.equal(loaded.source, 'snapshot', what);
      assert.deepEqual(describeRepository(loaded), describeRepository(again), what);
    }
    assert.ok((await run(repo)).kg.graph.hasNode('route:POST /orders/refund'), 'the kept graph holds the route a patch added');
  });

  it("the MCP server's first call loads the kept graph, and later edits patch it in memory as they patch a built one", async () => {
    await warmUp(repo);
    const warm = createWarmGraph(envOf(repo));
    const first = await warm.getRepository();
    assert.equal(first.source, 'snapshot');
    // The server walks its graph on every call and patches it in place: graphology at once.
    assert.equal(peekGraphLists(first.kg), undefined);
    assert.deepEqual(describeRepository(first), describeRepository(await freshBuild(repo).then((built) => built.repository)));
    for (const [what, files] of SHOP_EDITS.slice(0, 3)) {
      repo.write(files);
      ageFiles(repo, Object.keys(files));
      const edited = await warm.getRepository();
      assert.equal(warm.getStats().last, 'patched', what);
      assert.equal(edited.source, 'patched', what);
      await assertSameAsFreshBuild(repo, edited);
    }
  });

  it('edits made one after the other with no run keeping the graph between them patch it from further back', async () => {
    // A file imports through a barrel a name the barrel does not expose yet, and that graph is kept. Then the barrel
    // re-exports the file that has it (that run parses the barrel, so it keeps no graph), then another file is edited:
    // the facts cache no longer holds the barrel as the kept graph saw it, so the patch cannot recall its earlier
    // table and must take every name of it as changed, or the importer would miss its new use.
    repo.write({
      'src/pricing/index.ts': "export * from './discount.js';\n",
      'src/pricing/tax.ts': SHOP_FILES['src/pricing/tax.ts'] ?? '',
      'src/orders/routes.ts': SHOP_FILES['src/orders/routes.ts'] ?? '',
    });
    await warmUp(repo);
    const routes = [
      "import { Router } from 'express';",
      "import { round } from '../pricing/index.js';",
      'export const orders = Router();',
      "orders.get('/list', async (_req, res) => { res.json([round(1.234)]); });",
      '',
    ].join('\n');
    const steps: [string, FileTree][] = [
      ['an import of a name the barrel does not expose', { 'src/orders/routes.ts': routes }],
      ['the same tree again: this run keeps the patched graph', {}],
      [
        'the barrel re-exporting the file with that name',
        { 'src/pricing/index.ts': "export * from './discount.js';\nexport * from './tax.js';\n" },
      ],
      [
        'another file edited',
        { 'src/pricing/tax.ts': "export { roundCents as round } from '../shared/money.js';\nexport const VAT = 0.21;\n" },
      ],
    ];
    for (const [what, files] of steps) {
      repo.write(files);
      ageFiles(repo, Object.keys(files));
      const patched = await run(repo);
      assert.equal(patched.source, 'patched snapshot', what);
      await assertSameAsFreshBuild(repo, patched);
      if (Object.keys(files).length === 0) assert.equal((await run(repo)).source, 'snapshot', 'the patched graph was kept');
    }
    const uses: unknown[] = [];
    (await run(repo)).kg.graph.forEachOutEdge('file:src/orders/routes.ts', (_edge, attributes) => {
      if (attributes.kind === 'uses') uses.push(attributes.locals);
    });
    // `round` lands on tax.ts's re-export and on money.ts's roundCents behind it.
    assert.deepEqual(uses, [['round'], ['round']]);
  });

  it('a touched file whose content is the same loads the kept graph as it is, and keeps it with the new stats', async () => {
    await warmUp(repo);
    ageFiles(repo, ['src/orders/service.ts']);
    const mtimeMs = statSync(join(repo.dir, 'src/orders/service.ts')).mtimeMs;
    const keptStats = (): unknown =>
      (JSON.parse(readFileSync(join(repo.dir, SNAPSHOT), 'utf8')) as { files: [string, number, number, number][] }).files.find(
        ([path]) => path === 'src/orders/service.ts',
      )?.[2];
    assert.notEqual(keptStats(), mtimeMs);
    const loaded = await run(repo);
    assert.equal(loaded.parsed.stats.parsed, 0);
    assert.equal(loaded.source, 'snapshot');
    assert.equal(keptStats(), mtimeMs);
  });

  it('any change other than source edits builds: documents, configs, files added, inputs outside the scan', async () => {
    const changes: [string, FileTree | string][] = [
      [
        'the extended tsconfig the scan does not list',
        { 'node_modules/@acme/tsconfig/base.json': JSON.stringify({ compilerOptions: {} }) },
      ],
      ['CODEOWNERS', { '.github/CODEOWNERS': '/src/ @acme/all\n' }],
      ['a decision record', { 'docs/adr/0002-orders.md': '# Orders\n\nOrders are listed by `listOrders`.\n' }],
      ['a memory file', { '.checker/memory/pricing.yml': 'entries:\n  - id: rounding\n    kind: note\n    text: Round once.\n' }],
      ['the OpenAPI document', { 'docs/openapi.yaml': 'openapi: 3.0.0\ninfo: {title: shop, version: "2"}\npaths: {}\n' }],
      ['the package manifest', { 'package.json': JSON.stringify({ name: 'shop', version: '1.0.1', type: 'module' }) }],
      ['the tsconfig', { 'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true } }) }],
      ['a source file added', { 'src/shared/percent.ts': 'export const percent = (value: number): number => value / 100;\n' }],
      ['a source file removed', 'src/shared/percent.ts'],
      ['the checker configuration', { '.checker/config.yml': 'analysis:\n  ignore: ["docs/adr/**"]\n' }],
    ];
    for (const [what, change] of changes) {
      await warmUp(repo);
      assert.equal((await run(repo)).source, 'snapshot', what);
      if (typeof change === 'string') repo.remove(change);
      else {
        repo.write(change);
        ageFiles(repo, Object.keys(change));
      }
      const rebuilt = await run(repo);
      assert.equal(rebuilt.source, 'build', what);
      await assertSameAsFreshBuild(repo, rebuilt);
    }
  });

  it('a file that analysis.ignore leaves out can change without a build', async () => {
    const ignoring = createRepo({
      ...FILES,
      '.checker/config.yml': 'analysis:\n  ignore: ["generated/**"]\n',
      'generated/schema.json': '{"version": 1}\n',
      'generated/client.ts': 'export const version = 1;\n',
    });
    try {
      await warmUp(ignoring);
      assert.equal((await run(ignoring)).source, 'snapshot');
      ignoring.write({ 'generated/schema.json': '{"version": 2}\n', 'generated/client.ts': 'export const version = 2;\n' });
      ageFiles(ignoring, ['generated/schema.json', 'generated/client.ts']);
      const loaded = await run(ignoring);
      assert.equal(loaded.source, 'snapshot');
      assert.equal(loaded.parsed.stats.parsed, 0);
      await assertSameAsFreshBuild(ignoring, loaded);
    } finally {
      ignoring.cleanup();
    }
  });

  it('keeps no graph of a tree edited within two seconds of the scan (coarse timestamps could hide the next edit)', async () => {
    const fresh = createRepo(FILES);
    try {
      fresh.write({ 'src/shared/money.ts': `${FILES['src/shared/money.ts']}// edited\n` });
      await run(fresh);
      await run(fresh);
      assert.equal(existsSync(join(fresh.dir, SNAPSHOT)), false);
      ageFiles(fresh);
      await run(fresh);
      assert.ok(existsSync(join(fresh.dir, SNAPSHOT)));
    } finally {
      fresh.cleanup();
    }
  });

  it('an edit run with no kept graph keeps one, the edited file unsettled; later edits load and patch it', async () => {
    await warmUp(repo);
    rmSync(join(repo.dir, SNAPSHOT));
    rmSync(join(repo.dir, SNAPSHOT_DATA));
    const service = String(SHOP_FILES['src/orders/service.ts'] ?? '');
    const money = String(SHOP_FILES['src/shared/money.ts'] ?? '');
    try {
      // Edited just now (within the racy window of the scan): kept with a stat no scan matches.
      repo.write({ 'src/orders/service.ts': `${service}// Orders are listed newest first.\n` });
      const built = await run(repo);
      assert.equal(built.source, 'build');
      assert.equal(built.parsed.stats.parsed, 1);
      await assertSameAsFreshBuild(repo, built);
      const index = JSON.parse(readFileSync(join(repo.dir, SNAPSHOT), 'utf8')) as { files: [string, number, number, number][] };
      assert.equal(index.files.find(([path]) => path === 'src/orders/service.ts')?.[2], -1, 'the edited file is kept unsettled');
      const again = await run(repo);
      assert.equal(again.source, 'snapshot', 'the unsettled file hashes as kept: the graph stands as it is');
      await assertSameAsFreshBuild(repo, again);
      // No run keeps the graph between these edits: each patches from the graph of the first edit run, the routes
      // standing or composed again by the digests the snapshot kept of what they were made of.
      const steps: [string, FileTree][] = [
        ['a comment in a file routes call into', { 'src/shared/money.ts': `${money}// Cents.\n` }],
        ["a handler's callee renamed", { 'src/orders/service.ts': service.replace('listOrders', 'listAllOrders') }],
        ['a comment in the route file', { 'src/orders/routes.ts': `${SHOP_FILES['src/orders/routes.ts'] ?? ''}// Routes.\n` }],
      ];
      for (const [what, files] of steps) {
        repo.write(files);
        const patched = await run(repo);
        assert.equal(patched.source, 'patched snapshot', what);
        await assertSameAsFreshBuild(repo, patched);
      }
    } finally {
      repo.write({
        'src/orders/service.ts': service,
        'src/shared/money.ts': money,
        'src/orders/routes.ts': SHOP_FILES['src/orders/routes.ts'] ?? '',
      });
    }
  });

  it('a damaged or foreign snapshot is built over; a symlinked one is neither read nor written through', async () => {
    await warmUp(repo);
    const damages: [string, (index: string, data: string) => string][] = [
      [SNAPSHOT, () => '{"version":1'],
      [SNAPSHOT, () => '[]'],
      [SNAPSHOT, (index) => index.replace(/"id":"[0-9a-f]+"/, '"id":"0"')],
      // The data of another write (an index written over, a data file left from before).
      [SNAPSHOT, (index) => index.replace(/"dataId":"[^"]+"/, '"dataId":"another"')],
      [SNAPSHOT_DATA, (_index, data) => data.slice(0, data.length / 2)],
      [SNAPSHOT_DATA, (_index, data) => data.replace('"ends":[', '"ends":[999999,')],
      [SNAPSHOT_DATA, (_index, data) => data.replace('"ends":[', '"ends":[999999,999999,')],
      // Checked on load, though the store is filled later: a node named twice, an edge end that is no position, an
      // edge without a kind.
      [SNAPSHOT_DATA, (_index, data) => data.replace(/"ids":\["([^"]+)","([^"]+)"/, '"ids":["$1","$1"')],
      [SNAPSHOT_DATA, (_index, data) => data.replace(/"ends":\[\d+,/, '"ends":[0.5,')],
      [SNAPSHOT_DATA, (_index, data) => data.replace(/"edges":\["\w+"/, '"edges":[{"line":1}')],
      // A route's chain link named by a position the table of route parts does not have, or no table at all.
      [SNAPSHOT_DATA, (_index, data) => data.replace(/"chain":\[\d+/, '"chain":[999999')],
      [SNAPSHOT_DATA, (_index, data) => data.replace('"routeParts":[', '"routeParts":7,"unused":[')],
    ];
    for (const [file, damage] of damages) {
      const index = readFileSync(join(repo.dir, SNAPSHOT), 'utf8');
      const data = readFileSync(join(repo.dir, SNAPSHOT_DATA), 'utf8');
      writeFileSync(join(repo.dir, file), damage(index, data));
      assert.equal((await run(repo)).source, 'build', damage.toString());
      assert.equal((await run(repo)).source, 'snapshot', 'the build wrote a good one');
    }
    const path = join(repo.dir, SNAPSHOT_DATA);
    const good = readFileSync(path, 'utf8');
    const outside = join(repo.dir, '..', `${repo.dir.split('/').pop()}-outside.json`);
    writeFileSync(outside, good);
    const before = statSync(outside).mtimeMs;
    repo.remove(SNAPSHOT_DATA);
    repo.symlink(outside, SNAPSHOT_DATA);
    assert.equal((await run(repo)).source, 'build');
    // The write replaced the link with a file of its own; what it pointed at is untouched.
    assert.equal(lstatSync(path).isSymbolicLink(), false);
    assert.equal(readFileSync(outside, 'utf8'), good);
    assert.equal(statSync(outside).mtimeMs, before);
    assert.equal((await run(repo)).source, 'snapshot');
    rmSync(outside);
  });

  it('is written redacted: a secret in a document the graph holds never reaches the disk', async () => {
    const secret = 'ghp_FAKEfake0TEST1test2EXAMPLE3example4X';
    const leaky = createRepo({ ...FILES, 'docs/adr/0002-deploys.md': `# Deploys\n\nThe deploy bot logs in with ${secret}.\n` });
    try {
      await warmUp(leaky);
      const kept = readFileSync(join(leaky.dir, SNAPSHOT_DATA), 'utf8');
      assert.ok(kept.includes('0002-deploys.md'));
      assert.equal(kept.includes(secret), false);
      assert.equal((await run(leaky)).source, 'snapshot');
    } finally {
      leaky.cleanup();
    }
  });

  it('an edit behind a named re-export reaches the importers of the name; a file that gains a route gets it', async () => {
    // use.ts imports alpha from a barrel that re-exports it by name; impl.ts, the barrel's source, now takes alpha from
    // another file. Only impl.ts changed, yet use.ts must now use other.ts's beta too, through impl.ts.
    const named = createRepo({
      ...FILES,
      'src/named/other.ts': 'export function beta(): number {\n  return 2;\n}\n',
      'src/named/impl.ts': 'export function alpha(): number {\n  return 1;\n}\n',
      'src/named/index.ts': "export { alpha } from './impl.js';\n",
      'src/named/use.ts': "import { alpha } from './index.js';\nexport const value = alpha();\n",
    });
    try {
      await warmUp(named);
      named.write({ 'src/named/impl.ts': "import { beta } from './other.js';\nexport { beta as alpha };\n" });
      ageFiles(named, ['src/named/impl.ts']);
      const patched = await run(named);
      assert.equal(patched.source, 'patched snapshot');
      const uses: string[] = [];
      patched.kg.graph.forEachOutEdge('file:src/named/use.ts', (_edge, attributes, _source, target) => {
        if (attributes.kind === 'uses') uses.push(target);
      });
      // Every export the name passes through, the barrel's and impl.ts's included.
      assert.deepEqual(uses.sort(), [
        'export:src/named/impl.ts#alpha',
        'export:src/named/index.ts#alpha',
        'export:src/named/other.ts#beta',
      ]);
      await assertSameAsFreshBuild(named, patched);
      // A file that declared no route now does: a patch composes routes from the files that did and the edited ones.
      named.write({
        'src/orders/service.ts': `${SHOP_FILES['src/orders/service.ts']}import { Router } from 'express';\nexport const admin = Router();\nadmin.get('/stats', (_req, res) => { res.json([]); });\n`,
      });
      ageFiles(named, ['src/orders/service.ts']);
      const routed = await run(named);
      assert.equal(routed.source, 'patched snapshot');
      assert.ok(routed.kg.graph.hasNode('route:GET /stats'), 'the route of a file that had none');
      await assertSameAsFreshBuild(named, routed);
    } finally {
      named.cleanup();
    }
  });

  it('is not used when git tracks files under .checker/local/ (a committed snapshot could forge a graph)', async () => {
    const tracked = createRepo({ ...FILES, '.checker/local/notes.txt': 'committed by mistake\n' });
    try {
      ageFiles(tracked);
      await run(tracked);
      await run(tracked);
      await run(tracked);
      assert.equal(existsSync(join(tracked.dir, SNAPSHOT)), false);
    } finally {
      tracked.cleanup();
    }
  });
});
