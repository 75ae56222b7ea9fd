import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { installPackages } from '../../bench/corpus.js';
import type { ExecutionReport } from '../../src/model/execution.js';
import { getValidator } from '../../src/io/schema.js';
import { runCliAsync } from '../helpers/cli.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';

/**
 * checker execute with a real vitest suite: vitest 3.2.7 installed from the registry into bench/corpus-cache/installs/
 * (once; later runs reuse it) and linked as the fixture's node_modules. The report carries vitest's real exit code and
 * output: a passing suite passes, a planted bug fails with the failing test named in the captured output.
 */
const VITEST = '3.2.7';
const NODE = JSON.stringify(process.execPath);

describe('checker execute runs a real vitest suite', () => {
  let repo: TestRepo;
  before(() => {
    const modules = installPackages([`vitest@${VITEST}`]);
    repo = createRepo({
      'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }),
      '.gitignore': 'node_modules\n',
      'src/price.ts': 'export function total(cents: number[]): number {\n  return cents.reduce((sum, value) => sum + value, 0);\n}\n',
      'test/price.test.ts':
        "import { expect, test } from 'vitest';\nimport { total } from '../src/price.ts';\ntest('sums cents', () => expect(total([100, 250])).toBe(350));\n",
      '.checker/config.yml': [
        'safety:\n  allowCommands: true',
        'checks:',
        `  vitest:\n    argv: [${NODE}, node_modules/vitest/vitest.mjs, run, --reporter=verbose]\n    timeoutMs: 120000`,
        '',
      ].join('\n'),
    });
    repo.symlink(modules, 'node_modules');
  });
  after(() => repo.cleanup());

  it('a passing suite is passed with exit code 0 and the test named in its output', async () => {
    const result = await runCliAsync(['execute', '--cwd', repo.dir, '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as ExecutionReport;
    assert.equal(getValidator('execution-report')(report), true);
    const check = report.checks[0];
    assert.deepEqual([check?.id, check?.status, check?.exitCode], ['vitest', 'passed', 0]);
    assert.match(check?.stdout?.head ?? '', /✓ test\/price\.test\.ts > sums cents/);
  });

  it('a planted bug fails: exit 1 from vitest, the failing assertion in the captured output, exit 1 from checker', async () => {
    repo.write({
      'src/price.ts': 'export function total(cents: number[]): number {\n  return cents.reduce((sum, value) => sum + value, 1);\n}\n',
    });
    const result = await runCliAsync(['execute', '--cwd', repo.dir, '--format', 'json']);
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as ExecutionReport;
    const check = report.checks[0];
    assert.deepEqual([check?.status, check?.exitCode, check?.reason], ['failed', 1, 'exited 1']);
    const output = `${check?.stdout?.head ?? ''}${check?.stdout?.tail ?? ''}${check?.stderr?.head ?? ''}${check?.stderr?.tail ?? ''}`;
    assert.match(output, /× test\/price\.test\.ts > sums cents/);
    assert.match(output, /expected 351 to be 350/);
  });
});
