import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeChange } from '../../src/app/analyze.js';
import { buildRepositoryGraph } from '../../src/app/build-graph.js';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import type { Env } from '../../src/model/env.js';
import { createRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

/**
 * A change's analysis lists the graph's gaps that could hide a dependent of the change or a route it reaches: unresolved
 * imports whose specifier could name a changed or impacted file, parse failures of files whose text could import one,
 * route limitations of changed or impacted files. The others are the graph's (`checker graph` lists them), and a
 * focused cold run, which never reads those files in full, answers the same.
 */
const FILES = {
  'package.json': JSON.stringify({ name: 'gaps', dependencies: { express: '4.0.0' } }),
  'src/b.ts': 'export const b = 1;\n',
  // Imports b twice: one importer for a deleted b, not two.
  'src/a.ts': "import { b } from './b.js';\nimport type { B } from './b.js';\nexport const a: B = b + 1;\n",
  // Unresolved: one names a `b` (it could be the changed file, moved), the other names nothing the change reaches.
  'src/near.ts': "import { b } from '../lib/b.js';\nexport const near = b;\n",
  'src/far.ts': "import { z } from './zzz.js';\nexport const far = z;\n",
  // Syntax errors: one file's text names `b`, the other's does not.
  'src/broken-near.ts': "import { b } from './b.js';\nexport const = b;\n",
  'src/broken-far.ts': 'export const = 1;\n',
  // Routes whose paths cannot be resolved: one file imports the change, the other does not.
  'src/routes-near.ts':
    "import express from 'express';\nimport { a } from './a.js';\nconst app = express();\napp.get(process.env.P, (req, res) => res.json(a));\n",
  'src/routes-far.ts': "import express from 'express';\nconst app = express();\napp.get(process.env.Q, (req, res) => res.json(1));\n",
};

function gaps(analysis: ChangeAnalysis): string[] {
  return analysis.limitations
    .filter((item) => /^(resolve|parse|routes|analysis\/unresolved)/.test(item.code))
    .map((item) => `${item.code} ${item.location?.file ?? ''}`.trim())
    .sort();
}

function withoutTimes(analysis: ChangeAnalysis): unknown {
  return JSON.parse(JSON.stringify(analysis, (key, value: unknown) => (key === 'durationMs' ? undefined : value)));
}

/** A focused cold run over the same change (src/b.ts) must answer what the full analysis answered. */
async function assertFocusedAgrees(env: Env, full: ChangeAnalysis): Promise<void> {
  const focus = { changedPaths: async () => ['src/b.ts'] };
  const focused = await analyzeChange(env, { repository: await buildRepositoryGraph(env, undefined, { focus }) });
  assert.deepEqual(withoutTimes(focused), withoutTimes(full));
}

test('an analysis lists the gaps that bear on its change; a focused cold run lists the same', async () => {
  const repo = createRepo(FILES);
  const env = createTestEnv(repo.dir, { useCache: false });
  try {
    repo.write({ 'src/b.ts': 'export const b = 2;\n' });
    const repository = await buildRepositoryGraph(env);
    assert.deepEqual(repository.kg.unresolvedImports.map((item) => item.from).sort(), ['src/far.ts', 'src/near.ts']);
    const full = await analyzeChange(env, { repository });
    assert.deepEqual(gaps(full), [
      'analysis/unresolved-imports',
      'parse/syntax src/broken-near.ts',
      'routes/unresolved-path src/routes-near.ts',
    ]);
    assert.deepEqual(
      full.unresolvedImports?.map((item) => item.from),
      ['src/near.ts'],
    );
    await assertFocusedAgrees(env, full);
  } finally {
    await env.close();
    repo.cleanup();
  }
});

test('a deleted file: the imports left pointing at it are listed, with the file that still imports it; a focused run agrees', async () => {
  const repo = createRepo(FILES);
  const env = createTestEnv(repo.dir, { useCache: false });
  try {
    repo.remove('src/b.ts');
    const full = await analyzeChange(env, { repository: await buildRepositoryGraph(env) });
    assert.deepEqual(full.unresolvedImports?.map((item) => `${item.from} ${item.specifier}`).sort(), [
      'src/a.ts ./b.js',
      'src/a.ts ./b.js',
      'src/near.ts ../lib/b.js',
    ]);
    const deleted = full.limitations.find((item) => item.code === 'analysis/deleted-file');
    assert.match(deleted?.message ?? '', /^src\/b\.ts was deleted but 1 file still imports it: src\/a\.ts\.$/);
    await assertFocusedAgrees(env, full);
  } finally {
    await env.close();
    repo.cleanup();
  }
});
