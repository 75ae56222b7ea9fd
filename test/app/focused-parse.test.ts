import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeChange } from '../../src/app/analyze.js';
import { buildRepositoryGraph } from '../../src/app/build-graph.js';
import type { ChangeAnalysis } from '../../src/model/analysis.js';
import type { FocusRead } from '../../src/model/env.js';
import { createRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

/**
 * A run with no facts cache parses in full only what an analysis of the change reads (src/graph/focus.ts) and reads the
 * other files for their imports and exports alone: small trees here; the same on a published Express app, edit by edit
 * and through the CLI, is test/app/focused-parse-corpus.slow.test.ts.
 */
function withoutTimes(analysis: ChangeAnalysis): unknown {
  return JSON.parse(JSON.stringify(analysis, (key, value: unknown) => (key === 'durationMs' ? undefined : value)));
}

test('a route reached by the change is shown with what its file imports: the path constant and the middleware', async () => {
  // auth.ts and paths.ts hold nothing a text hint sees; only the route file imports them, and the change does not reach
  // them: read for their links alone, the route's path would show `{?USERS}` and its middleware no 401.
  const repo = createRepo({
    'package.json': JSON.stringify({ name: 'users-api', type: 'module', dependencies: { express: '^4.21.0' } }),
    'src/app.ts': [
      "import express from 'express';",
      "import { requireAuth } from './auth.js';",
      "import { USERS } from './paths.js';",
      "import { listUsers } from './users.js';",
      'const app = express();',
      'app.get(USERS, requireAuth, listUsers);',
      'export default app;',
      '',
    ].join('\n'),
    'src/auth.ts':
      'export function requireAuth(req: any, res: any, next: () => void) {\n  if (!req.headers.authorization) return res.status(401).end();\n  next();\n}\n',
    'src/paths.ts': "export const USERS = '/api/users';\n",
    'src/users.ts':
      "import { findUsers } from './db.js';\nexport function listUsers(_req: unknown, res: any) {\n  res.json(findUsers());\n}\n",
    'src/db.ts': 'export function findUsers(): string[] {\n  return [];\n}\n',
  });
  repo.write({ 'src/db.ts': "export function findUsers(): string[] {\n  return ['root'];\n}\n" });
  const env = createTestEnv(repo.dir, { useCache: false });
  try {
    const full = await analyzeChange(env, { repository: await buildRepositoryGraph(env) });
    const repository = await buildRepositoryGraph(env, undefined, { focus: { changedPaths: async () => ['src/db.ts'] } });
    assert.deepEqual([...(repository.parsed.linkOnly ?? [])], []);
    assert.deepEqual(
      full.impactedRoutes.map((route) => [route.method, route.path]),
      [['GET', '/api/users']],
    );
    assert.deepEqual(withoutTimes(await analyzeChange(env, { repository })), withoutTimes(full));
  } finally {
    await env.close();
    repo.cleanup();
  }
});

test('analysis.coldParse: full parses every file in full; an unknown value is refused, naming the key', async () => {
  const files = {
    'src/a.ts': "import { b } from './b.js';\nexport const a = b + 1;\n",
    'src/b.ts': 'export const b = 1;\n',
    'src/c.ts': 'export const c = 2;\n',
  };
  const repo = createRepo({ ...files, '.checker/config.yml': 'analysis:\n  coldParse: full\n' });
  const env = createTestEnv(repo.dir, { useCache: false });
  try {
    const focus = { changedPaths: async () => ['src/b.ts'] };
    const full = await buildRepositoryGraph(env, undefined, { focus });
    assert.deepEqual([...(full.parsed.linkOnly ?? [])], []);
    repo.write({ '.checker/config.yml': 'analysis:\n  coldParse: focused\n' });
    const focused = await buildRepositoryGraph(env, undefined, { focus });
    assert.deepEqual([...(focused.parsed.linkOnly ?? [])], ['src/c.ts']);
    repo.write({ '.checker/config.yml': 'analysis:\n  coldParse: partial\n' });
    await assert.rejects(buildRepositoryGraph(env, undefined, { focus }), (error: Error) => /analysis\.coldParse/.test(error.message));
  } finally {
    await env.close();
    repo.cleanup();
  }
});

test('a build that starts from the facts cache does not ask for the change: nothing is focused, no keys derived', async () => {
  const repo = createRepo({
    'src/a.ts': "import { b } from './b.js';\nexport const a = b + 1;\n",
    'src/b.ts': 'export const b = 1;\n',
  });
  const env = createTestEnv(repo.dir);
  try {
    await buildRepositoryGraph(env);
    repo.write({ 'src/b.ts': 'export const b = 2;\n' });
    let asked = 0;
    const focus = {
      changedPaths: async () => {
        asked += 1;
        return ['src/b.ts'];
      },
    };
    const repository = await buildRepositoryGraph(env, undefined, { focus });
    assert.equal(asked, 0);
    assert.deepEqual([...(repository.parsed.linkOnly ?? [])], []);
    assert.equal(repository.parsed.stats.parsed, 1);
  } finally {
    await env.close();
    repo.cleanup();
  }
});

test('files the analysis reads in full after the build (alsoInFull) are asked once the change is read in full, and parsed in the same pass', async () => {
  const files = {
    'src/a.ts': "import { b } from './b.js';\nexport const a = b + 1;\n",
    'src/b.ts': 'export const b = 1;\n',
    // Neither imports the change: the focus never parses them in full.
    'src/c.ts': "// the format of './b.js', not imported\nexport function c(x: number) {\n  if (x > 1) return 2;\n  return 3;\n}\n",
    'src/d.ts': 'export function d(y: number) {\n  return y > 0 ? 1 : 0;\n}\n',
    'src/e.ts': 'export const e = 5;\n',
  };
  const repo = createRepo(files);
  const env = createTestEnv(repo.dir, { useCache: false });
  try {
    const changedPaths = async (): Promise<string[]> => ['src/b.ts'];
    const plain = await buildRepositoryGraph(env, undefined, { focus: { changedPaths } });
    assert.deepEqual([...(plain.parsed.linkOnly ?? [])].sort(), ['src/c.ts', 'src/d.ts', 'src/e.ts']);
    let asked = 0;
    const alsoInFull = async ({ facts, linkOnly }: FocusRead): Promise<string[]> => {
      asked += 1;
      // The change's own file is read in full by then (its score sets the hotspot bar); the others hold a bound of
      // their complexity, counted from their text.
      assert.equal(linkOnly.has('src/b.ts'), false);
      assert.deepEqual(facts.get('src/b.ts')?.facts.functions, []);
      assert.ok((facts.get('src/c.ts')?.facts.complexityBound ?? 0) >= 2, 'c: a function and an if');
      assert.equal(facts.get('src/e.ts')?.facts.complexityBound, 0);
      return ['src/c.ts', 'src/d.ts', 'src/a.ts', 'gone.ts'];
    };
    const repository = await buildRepositoryGraph(env, undefined, { focus: { changedPaths, alsoInFull } });
    assert.equal(asked, 1);
    assert.deepEqual([...(repository.parsed.linkOnly ?? [])], ['src/e.ts']);
    // Their full facts: the complexity the hotspot ranking reads.
    assert.deepEqual(
      ['src/c.ts', 'src/d.ts'].map((path) => repository.parsed.facts.get(path)?.facts.functions.map((fn) => fn.name)),
      [['c'], ['d']],
    );
    // A selector that fails to say is a focused parse without it.
    const failing = await buildRepositoryGraph(env, undefined, {
      focus: { changedPaths, alsoInFull: () => Promise.reject(new Error('no history')) },
    });
    assert.deepEqual([...(failing.parsed.linkOnly ?? [])].sort(), ['src/c.ts', 'src/d.ts', 'src/e.ts']);
    const full = await analyzeChange(env, { repository: await buildRepositoryGraph(createTestEnv(repo.dir, { useCache: false })) });
    assert.deepEqual(withoutTimes(await analyzeChange(env, { repository })), withoutTimes(full));
  } finally {
    await env.close();
    repo.cleanup();
  }
});

test('a test that reaches the change only through its runner setup file is read in full: a suite to run, not a type test', async () => {
  // outline's shape: vitest's setupFiles import the server's models, the suites use vitest's globals and import nothing
  // the change touches. A first run read such a suite for its links alone, found no test case in it, and told the
  // agent to type-check 75 of them with tsc, where the next run listed them to run.
  const repo = createRepo({
    'package.json': JSON.stringify({ name: 'wiki', type: 'module', devDependencies: { vitest: '^3.0.0' } }),
    'vitest.config.ts': "export default { test: { globals: true, setupFiles: ['./test/setup.ts'] } };\n",
    'test/setup.ts': "import { connect } from '../src/db.js';\nconnect();\n",
    'src/db.ts': 'export function connect(): number {\n  return 1;\n}\n',
    'src/math.ts': 'export const add = (a: number, b: number): number => a + b;\n',
    'src/math.test.ts':
      "import { add } from './math.js';\n\ndescribe('add', () => {\n  it('adds', () => {\n    expect(add(1, 2)).toBe(3);\n  });\n});\n",
    // axios's test/specs/helpers/*.spec.js: a suite in a `helpers/` folder is a test only by the cases it declares.
    'test/helpers/sum.test.ts':
      "import { add } from '../../src/math.js';\n\ndescribe('sum', () => {\n  it('sums', () => {\n    expect(add(2, 2)).toBe(4);\n  });\n});\n",
  });
  repo.write({ 'src/db.ts': 'export function connect(): number {\n  return 2;\n}\n' });
  const env = createTestEnv(repo.dir, { useCache: false });
  try {
    const full = await analyzeChange(env, { repository: await buildRepositoryGraph(env) });
    const repository = await buildRepositoryGraph(env, undefined, { focus: { changedPaths: async () => ['src/db.ts'] } });
    assert.ok(repository.parsed.linkOnly?.has('src/math.test.ts'), 'the suite was read for its links alone');
    assert.ok(repository.parsed.linkOnly?.has('test/helpers/sum.test.ts'), 'the helpers-folder suite too');
    const focused = await analyzeChange(env, { repository });
    assert.deepEqual(
      focused.testRun.commands.map((command) => command.command),
      ['npx vitest run src/math.test.ts test/helpers/sum.test.ts'],
    );
    assert.deepEqual(withoutTimes(focused), withoutTimes(full));
  } finally {
    await env.close();
    repo.cleanup();
  }
});

test('a reaching test that asserts through an imported helper is not said to assert nothing', async () => {
  // helpers.ts imports nothing the change reaches: read for its links alone, its asserting export was unknown.
  const repo = createRepo({
    'package.json': JSON.stringify({ name: 'helpers', type: 'module', devDependencies: { vitest: '^2.0.0' } }),
    'src/a.ts': 'export function a(): number {\n  return 1;\n}\n',
    'test/helpers.ts': "import { expect } from 'vitest';\nexport function checkOne(value: number): void {\n  expect(value).toBe(1);\n}\n",
    'test/a.test.ts':
      "import { it } from 'vitest';\nimport { a } from '../src/a.js';\nimport { checkOne } from './helpers.js';\nit('is one', () => {\n  checkOne(a());\n});\n",
  });
  repo.write({ 'src/a.ts': 'export function a(): number {\n  return 2 - 1;\n}\n' });
  const env = createTestEnv(repo.dir, { useCache: false });
  try {
    const full = await analyzeChange(env, { repository: await buildRepositoryGraph(env) });
    const repository = await buildRepositoryGraph(env, undefined, { focus: { changedPaths: async () => ['src/a.ts'] } });
    assert.equal(repository.parsed.linkOnly?.has('test/helpers.ts'), false);
    const focused = await analyzeChange(env, { repository });
    assert.deepEqual(
      focused.findings.filter((finding) => finding.ruleId.startsWith('weak-test')).map((finding) => finding.ruleId),
      [],
    );
    assert.deepEqual(withoutTimes(focused), withoutTimes(full));
  } finally {
    await env.close();
    repo.cleanup();
  }
});
