import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runCli, runCliAsync } from '../helpers/cli.js';
import { createRepo } from '../helpers/git-repo.js';

describe('--fail-on: a CI gate on the merge risk level', () => {
  const repo = createRepo({
    'src/payments/refund.ts': 'export function refund(amount: number): number {\n  return amount;\n}\n',
    'src/checkout.ts': "import { refund } from './payments/refund.js';\nexport const undo = (total: number) => refund(total);\n",
  });
  repo.write({
    'src/payments/refund.ts':
      'export function refund(amount: number): number {\n  return Math.max(0, Math.round(amount * 100) / 100);\n}\n',
  });
  repo.commit('round refunds');
  after(() => repo.cleanup());

  const level = async (): Promise<string> => {
    const result = await runCliAsync(['redteam', '--cwd', repo.dir, '--base', 'HEAD~1', '--head', 'HEAD', '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout).summary.mergeRisk.level;
  };

  it('exits 1 after printing the report when the level reaches the threshold, 0 below it', async () => {
    assert.equal(await level(), 'medium');
    // A real process: the exit code a CI job sees.
    const blocked = runCli(['redteam', '--cwd', repo.dir, '--base', 'HEAD~1', '--head', 'HEAD', '--fail-on', 'medium']);
    assert.equal(blocked.code, 1);
    assert.match(blocked.stdout, /^# /, 'the report is still printed');
    assert.match(blocked.stderr, /merge risk is medium \(\d+\/100\), at or above --fail-on medium/);
    assert.equal((await runCliAsync(['redteam', '--cwd', repo.dir, '--base', 'HEAD~1', '--head', 'HEAD', '--fail-on', 'high'])).code, 0);
    assert.equal((await runCliAsync(['ai', '--cwd', repo.dir, '--base', 'HEAD~1', '--head', 'HEAD', '--fail-on', 'low'])).code, 1);
  });

  it('refuses an unknown level before doing any work', async () => {
    const result = await runCliAsync(['analyze', '--cwd', repo.dir, '--base', 'HEAD~1', '--fail-on', 'severe']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /usage\/invalid-fail-on: --fail-on must be one of low, medium, high, critical \(got "severe"\)/);
    assert.equal(result.stdout, '');
  });
});
