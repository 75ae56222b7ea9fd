import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Env } from '../../src/model/env.js';
import auditTests from '../../src/mcp/tools/audit-tests.js';
import impactMap from '../../src/mcp/tools/impact-map.js';
import { createWarmGraph, type WarmGraph } from '../../src/mcp/warm.js';
import { toLcov } from '../helpers/analysis-fixtures.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { createTestEnv } from '../helpers/test-env.js';

const MONEY = 'export function toCents(amount: number): number {\n  const cents = amount * 100;\n  return Math.round(cents);\n}\n';
const TEST =
  "import { it, expect } from 'vitest';\nimport { toCents } from '../src/money';\nit('rounds', () => {\n  expect(toCents(1.005)).toBe(101);\n});\n";

describe('the MCP server memoises the analysis of a range', () => {
  let repo: TestRepo;
  let env: Env;
  let warm: WarmGraph;
  before(() => {
    repo = createRepo({ '.gitignore': 'coverage/\n', 'src/money.ts': MONEY, 'test/money.test.ts': TEST });
    repo.write({ 'src/money.ts': MONEY.replace('amount * 100', 'amount * 100 + 0') });
    env = createTestEnv(repo.dir);
    warm = createWarmGraph(env);
  });
  after(async () => {
    await env.close();
    repo.cleanup();
  });

  it('hands out a copy of the same analysis while nothing it read has changed', async () => {
    const first = await warm.analyze({ base: 'HEAD' });
    const second = await warm.analyze({ base: 'HEAD' });
    assert.deepEqual(second.analysis, first.analysis);
    assert.notEqual(second.analysis, first.analysis);
    assert.equal(second.repository, first.repository);
    assert.deepEqual(
      second.analysis.changedFiles.map((file) => file.path),
      ['src/money.ts'],
    );
    // A caller that changes what it got does not change what the next caller gets.
    second.analysis.changedFiles.length = 0;
    assert.deepEqual((await warm.analyze({ base: 'HEAD' })).analysis, first.analysis);
    assert.deepEqual([warm.getStats().analyses, warm.getStats().analysisReuses], [1, 2]);
  });

  it('analyses again when an input outside the scanned tree changes: a coverage report, then a commit', async () => {
    const before = await warm.analyze({ base: 'HEAD' });
    assert.notEqual(before.analysis.changedPathProof[0]?.state, 'runtime-proven');
    const { analyses, builds } = { analyses: warm.getStats().analyses, builds: warm.getStats().builds };

    // coverage/ is ignored by git, so the scan (and the warm graph) cannot see it.
    repo.write({ 'coverage/lcov.info': toLcov({ 'src/money.ts': { 1: 1, 2: 1, 3: 1 } }) });
    const covered = await warm.analyze({ base: 'HEAD' });
    assert.equal(covered.repository, before.repository);
    assert.equal(covered.analysis.changedPathProof[0]?.state, 'runtime-proven');

    // A commit moves HEAD and leaves every file as it was: the same graph, another change.
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'round');
    const committed = await warm.analyze({ base: 'HEAD' });
    assert.equal(committed.repository, before.repository);
    assert.deepEqual(committed.analysis.changedFiles, []);
    assert.deepEqual([warm.getStats().analyses - analyses, warm.getStats().builds - builds], [2, 0]);
  });

  it('analyses again when a file the scan skips as too large changes, which the graph fingerprint cannot see', async () => {
    repo.write({ '.checker/config.yml': 'analysis:\n  maxFileBytes: 1024\n', 'data/rates.csv': `${'1,2\n'.repeat(300)}` });
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'rates');
    const clean = await warm.analyze({ base: 'HEAD' });
    assert.deepEqual(
      clean.repository.scan.skipped.map((skip) => skip.path),
      ['data/rates.csv'],
    );
    assert.deepEqual(clean.analysis.changedFiles, []);
    repo.write({ 'data/rates.csv': `${'1,3\n'.repeat(300)}` });
    const edited = await warm.analyze({ base: 'HEAD' });
    assert.equal(edited.repository, clean.repository);
    assert.deepEqual(
      edited.analysis.changedFiles.map((file) => file.path),
      ['data/rates.csv'],
    );
  });

  it('drops the analyses of a graph that was rebuilt, and keeps at most four ranges', async () => {
    await warm.analyze({ base: 'HEAD' });
    await warm.analyze({ base: 'HEAD', head: 'HEAD' });
    assert.equal(warm.getStats().keptAnalyses, 2);
    repo.write({ 'src/tax.ts': 'export const rate = 0.2;\n' });
    await warm.analyze({ base: 'HEAD' });
    assert.equal(warm.getStats().keptAnalyses, 1);
    // Four more ranges over the same graph: five asked, the oldest goes.
    for (const head of ['HEAD', 'HEAD~1', 'HEAD~2']) await warm.analyze({ base: 'HEAD~2', head });
    await warm.analyze({ base: 'HEAD~1', head: 'HEAD' });
    assert.equal(warm.getStats().keptAnalyses, 4);
    const reuses = warm.getStats().analysisReuses;
    await warm.analyze({ base: 'HEAD~1', head: 'HEAD' });
    await warm.analyze({ base: 'HEAD' });
    assert.deepEqual([warm.getStats().analysisReuses - reuses, warm.getStats().keptAnalyses], [1, 4]);
  });

  it('a repeat tool call gets the kept result; another format, another tool or a changed input gets its own', async () => {
    const context = { env, warm, log: () => undefined, deadlineMs: 60_000 };
    const first = await impactMap.handler({ base: 'HEAD', format: 'json' }, context);
    assert.equal(first.isError, undefined);
    assert.equal(await impactMap.handler({ base: 'HEAD', format: 'json' }, context), first);
    const markdown = await impactMap.handler({ base: 'HEAD' }, context);
    assert.notEqual(markdown, first);
    assert.deepEqual(markdown.structuredContent, first.structuredContent);
    const audit = await auditTests.handler({ base: 'HEAD', format: 'json' }, context);
    assert.notDeepEqual(audit.structuredContent, first.structuredContent);
    repo.write({ 'coverage/lcov.info': toLcov({ 'src/money.ts': { 1: 0, 2: 0, 3: 0 } }) });
    const afterCoverage = await impactMap.handler({ base: 'HEAD', format: 'json' }, context);
    assert.notEqual(afterCoverage, first);
  });
});
