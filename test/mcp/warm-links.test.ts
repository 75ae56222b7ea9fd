import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { analyzeChange } from '../../src/app/analyze.js';
import { buildRepositoryGraph } from '../../src/app/build-graph.js';
import { getPreflightReport } from '../../src/app/preflight.js';
import type { Env } from '../../src/model/env.js';
import { createWarmGraph, type WarmGraph } from '../../src/mcp/warm.js';
import { ageFiles } from '../helpers/age-files.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

// The MCP server's graph holds modules with their links and words alone, as a CLI preflight reads them (build-graph.ts'
// `moduleLinks`); an analysis of a change first reads in full what it needs and patches it in (readChangeInFull), and
// a patch after an edit keeps the link entries. Each answer is what a build from every file's full facts gives.

const FILES = {
  'package.json': JSON.stringify({ name: 'shop', type: 'module', scripts: { test: 'vitest run' } }),
  'src/db.ts': 'export function findUsers(): string[] {\n  return [];\n}\n',
  'src/users.ts':
    "import { findUsers } from './db.js';\nexport function listUsers(limit: number): string[] {\n  return findUsers().slice(0, limit);\n}\n",
  'src/report.ts': 'export function total(values: number[]): number {\n  return values.reduce((a, b) => a + b, 0);\n}\n',
  'src/format.ts': 'export function formatTotal(value: number): string {\n  return value.toFixed(2);\n}\n',
  'src/price.ts': 'export function priceOf(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n',
  'src/orders.ts':
    "import { priceOf } from './price.js';\nexport function describeOrder(cents: number): string {\n  return `order ${priceOf(cents)}`;\n}\n",
  'test/users.test.ts':
    "import { listUsers } from '../src/users.js';\nimport { describe, expect, it } from 'vitest';\ndescribe('users', () => {\n  it('lists none', () => {\n    expect(listUsers(10)).toEqual([]);\n  });\n});\n",
  'test/orders.test.ts':
    "import { describeOrder } from '../src/orders.js';\nimport { describe, expect, it } from 'vitest';\ndescribe('orders', () => {\n  it('prices an order', () => {\n    expect(describeOrder(150)).toBe('order 1.50');\n  });\n});\n",
};

/** A report as JSON, without its timings and the time it was made. */
function toComparable(report: unknown): unknown {
  return JSON.parse(JSON.stringify(report, (key, value: unknown) => (key === 'timings' || key === 'generatedAt' ? undefined : value)));
}

/** The working tree's analysis from every file's full facts, with no cache to stand in. */
async function fullAnalysis(repo: TestRepo): Promise<unknown> {
  const env = createTestEnv(repo.dir, { useCache: false });
  return toComparable(await analyzeChange(env, { repository: await buildRepositoryGraph(env) }));
}

describe('the MCP server graph holds modules with their links alone', () => {
  let repo: TestRepo;
  let env: Env;
  let warm: WarmGraph;
  before(() => {
    repo = createRepo(FILES);
    ageFiles(repo);
    repo.write({ 'src/db.ts': "export function findUsers(): string[] {\n  return ['root'];\n}\n" });
    ageFiles(repo, ['src/db.ts']);
    env = createTestEnv(repo.dir);
    warm = createWarmGraph(env);
  });
  after(async () => {
    await env.close();
    repo.cleanup();
  });

  it('answers a preflight from the modules as read for their links and words, as a build from full facts does', async () => {
    const repository = await warm.getRepository();
    assert.deepEqual([...(repository.parsed.linkOnly ?? [])].sort(), [
      'src/db.ts',
      'src/format.ts',
      'src/orders.ts',
      'src/price.ts',
      'src/report.ts',
      'src/users.ts',
    ]);
    const task = 'list users with a limit';
    const full = createTestEnv(repo.dir, { useCache: false });
    const expected = await getPreflightReport(full, { task, repository: await buildRepositoryGraph(full) });
    assert.deepEqual(toComparable(await getPreflightReport(env, { task, repository })), toComparable(expected));
  });

  it('reads in full what the change needs before it analyses it, and answers as a build from full facts', async () => {
    const warmed = await warm.analyze({});
    assert.deepEqual(toComparable(warmed.analysis), await fullAnalysis(repo));
    // db.ts changed; users.ts imports it (and the test reaching both was read in full from the start).
    assert.deepEqual([...(warmed.repository.parsed.linkOnly ?? [])].sort(), [
      'src/format.ts',
      'src/orders.ts',
      'src/price.ts',
      'src/report.ts',
    ]);
    assert.equal(warm.getStats().builds, 1);
  });

  it('patches the graph after an edit with the link entries kept, and reads in full what the next change needs', async () => {
    repo.write({ 'src/price.ts': 'export function priceOf(cents: number): string {\n  return `${(cents / 100).toFixed(2)} EUR`;\n}\n' });
    ageFiles(repo, ['src/price.ts']);
    const warmed = await warm.analyze({});
    assert.equal(warm.getStats().last, 'patched');
    assert.deepEqual(toComparable(warmed.analysis), await fullAnalysis(repo));
    assert.deepEqual([...(warmed.repository.parsed.linkOnly ?? [])].sort(), ['src/format.ts', 'src/report.ts']);
    assert.equal(warm.getStats().builds, 1);
  });

  it('reads the rest in full while idle, not while busy, leaves a file edited meanwhile to the patch, and answers as before', async () => {
    const repository = await warm.getRepository();
    await warm.fill(() => false);
    assert.deepEqual([...(repository.parsed.linkOnly ?? [])].sort(), ['src/format.ts', 'src/report.ts'], 'busy: nothing read');
    // Edited while the server is idle: its new text read in full over its old imports' resolutions would be wrong.
    repo.write({
      'src/report.ts':
        "import { formatTotal } from './format.js';\nexport function total(values: number[]): string {\n  return formatTotal(values.reduce((a, b) => a + b, 0));\n}\n",
    });
    ageFiles(repo, ['src/report.ts']);
    await warm.fill(() => true);
    assert.deepEqual([...(repository.parsed.linkOnly ?? [])], ['src/report.ts'], 'format.ts read in full, the edited file left');
    const warmed = await warm.analyze({});
    assert.equal(warm.getStats().last, 'patched');
    assert.deepEqual([...(warmed.repository.parsed.linkOnly ?? [])], []);
    assert.deepEqual(toComparable(warmed.analysis), await fullAnalysis(repo));
    const task = 'format the total of values';
    const full = createTestEnv(repo.dir, { useCache: false });
    const expected = await getPreflightReport(full, { task, repository: await buildRepositoryGraph(full) });
    assert.deepEqual(toComparable(await getPreflightReport(env, { task, repository: warmed.repository })), toComparable(expected));
    assert.equal(warm.getStats().builds, 1);
  });
});
