import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { projectRoot } from '../helpers/cli.js';
import { ageFiles } from '../helpers/age-files.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { SHOP_FILES } from '../helpers/shop-repo.js';

// Issue 18: the same JSON from a cold run, a warm run that builds, a run that loads the kept graph and a run that
// loads and patches it. Only the bundled CLI has a build id, and only a build id lets a kept graph stand for a build,
// so this suite runs bin/checker.js (`npm test` builds it first).

const bin = join(projectRoot, 'bin/checker.js');

function checker(repo: TestRepo, ...args: string[]): unknown {
  const result = spawnSync(process.execPath, [bin, ...args, '--cwd', repo.dir, '--format', 'json'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/** The report without what differs by design between runs: timings, where the graph came from, cache counts. */
function comparable(report: unknown): unknown {
  return JSON.parse(
    JSON.stringify(report, (key, value: unknown) =>
      key === 'timings' || key === 'graphSource' || key === 'cached' || key === 'reparsed' ? undefined : value,
    ),
  );
}

describe('checker graph and analyze: cold, warm, kept and patched runs give the same JSON', () => {
  let repo: TestRepo;
  before(() => {
    assert.ok(existsSync(join(projectRoot, 'dist/bundle/build-id.json')), 'this suite runs the bundled CLI: npm run build first');
    repo = createRepo(SHOP_FILES);
    ageFiles(repo);
  });
  after(() => repo.cleanup());

  it('graph: cold, then warm (keeps the graph), then loaded', () => {
    const cold = checker(repo, 'graph') as { graphSource: string };
    const warm = checker(repo, 'graph') as { graphSource: string };
    const loaded = checker(repo, 'graph') as { graphSource: string };
    assert.deepEqual([cold.graphSource, warm.graphSource, loaded.graphSource], ['build', 'build', 'snapshot']);
    assert.deepEqual(comparable(warm), comparable(cold));
    assert.deepEqual(comparable(loaded), comparable(cold));
    const markdown = spawnSync(process.execPath, [bin, 'graph', '--cwd', repo.dir], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(markdown.status, 0, markdown.stderr);
    assert.match(markdown.stdout, /The graph was loaded as an earlier run kept it \(nothing changed since\)\./);
  });

  it('after a source edit: the patched graph and the analysis over it equal a run that builds from nothing', () => {
    repo.write({
      'src/orders/routes.ts': [
        "import { Router } from 'express';",
        "import { listOrders } from './service.js';",
        'export const orders = Router();',
        "orders.get('/list', async (_req, res) => { res.json(await listOrders()); });",
        "orders.delete('/:id', async (_req, res) => { res.json(await listOrders()); });",
        '',
      ].join('\n'),
    });
    ageFiles(repo, ['src/orders/routes.ts']);
    const patched = checker(repo, 'graph') as { graphSource: string; nodes: { byKind: Record<string, number> } };
    assert.equal(patched.graphSource, 'patched snapshot');
    assert.equal(patched.nodes.byKind.route, 2);
    const analysis = checker(repo, 'analyze', '--base', 'HEAD');
    repo.remove('.checker/local/cache');
    const fresh = checker(repo, 'graph') as { graphSource: string };
    assert.equal(fresh.graphSource, 'build');
    assert.deepEqual(comparable(patched), comparable(fresh));
    repo.remove('.checker/local/cache');
    assert.deepEqual(comparable(checker(repo, 'analyze', '--base', 'HEAD')), comparable(analysis));
  });
});
