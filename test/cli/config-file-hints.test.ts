import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ExecutionReport } from '../../src/model/execution.js';
import { runCliAsync } from '../helpers/cli.js';
import { createRepo, type FileTree } from '../helpers/git-repo.js';

const SOURCE: FileTree = {
  'package.json': JSON.stringify({ name: 'ledger', type: 'module' }),
  'src/ledger.ts': 'export const balance = 0;\n',
};
const CHECKS = 'checks:\n  unit:\n    command: node --version\n';
const TARGETS = 'products:\n  targets:\n    web:\n      kind: api\n      baseUrl: http://127.0.0.1:4999\n';

async function runIn(files: FileTree, args: string[]) {
  const repo = createRepo({ ...SOURCE, ...files });
  try {
    return await runCliAsync([...args, '--cwd', repo.dir]);
  } finally {
    repo.cleanup();
  }
}

describe('hints name the config file checker read', () => {
  it('a closed gate with only checker.config.yml tells to set safety.allowCommands there, on stderr and in the report', async () => {
    const result = await runIn({ 'checker.config.yml': CHECKS }, ['execute', '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as ExecutionReport;
    assert.match(report.gate.explanation, /Set safety\.allowCommands: true in checker\.config\.yml and commit it to the base branch/);
    assert.match(result.stderr, /Set safety\.allowCommands: true in checker\.config\.yml /);
    assert.doesNotMatch(`${result.stderr}${result.stdout}`, /\.checker\/config\.yml/);
  });

  it('the hint names the file that already sets safety.allowCommands, not the higher-precedence file that does not', async () => {
    const result = await runIn({ '.checker/config.yml': CHECKS, 'checker.config.yml': 'safety:\n  allowCommands: false\n' }, [
      'execute',
      '--format',
      'json',
    ]);
    const report = JSON.parse(result.stdout) as ExecutionReport;
    assert.match(report.gate.explanation, /Set safety\.allowCommands: true in checker\.config\.yml and commit it/);
  });

  it('an unknown product target is to be added to checker.config.yml when that is the file read', async () => {
    const result = await runIn({ 'checker.config.yml': TARGETS }, ['product', '--target', 'shop']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /product\/unknown-target: no product target "shop" in checker\.config\.yml at base /);
    assert.match(result.stderr, /hint: Add it under products\.targets in checker\.config\.yml \(/);
    assert.doesNotMatch(result.stderr, /\.checker\/config\.yml/);
  });

  it("a product run the gate closes names the file to edit and calls the target's commands neither checks nor configured checks", async () => {
    const result = await runIn({ 'checker.config.yml': TARGETS }, ['product', '--target', 'web']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /checker: product: closed: safety\.allowCommands is not true \(checker\.config\.yml at base [^)]+\)\); nothing was started\. Set safety\.allowCommands: true in checker\.config\.yml and commit it to the base branch to let checker run the commands its configuration names/,
    );
    assert.doesNotMatch(`${result.stdout}${result.stderr}`, /configured checks/);
  });

  it('with no config file the hints name the default one, .checker/config.yml', async () => {
    const product = await runIn({}, ['product', '--target', 'shop']);
    assert.match(product.stderr, /hint: Add it under products\.targets in \.checker\/config\.yml \(/);
  });

  it('two config files that disagree on safety.allowCommands: stderr says the conflict, not only "is not true"', async () => {
    const result = await runIn(
      { '.checker/config.yml': 'safety:\n  allowCommands: true\n', 'checker.config.yml': `safety:\n  allowCommands: false\n${CHECKS}` },
      ['execute', '--format', 'json'],
    );
    assert.equal(result.code, 0, result.stderr);
    const conflict =
      /\.checker\/config\.yml and checker\.config\.yml at base \S+ \(\w+\) disagree on safety\.allowCommands \(config\/safety-conflict\), so its fail-closed value false is used/;
    assert.match(result.stderr, conflict);
    assert.match(result.stderr, /Keep safety\.allowCommands in one config file only \(\.checker\/config\.yml or checker\.config\.yml\)/);
    assert.doesNotMatch(result.stderr, /allowCommands is not true/);
    const report = JSON.parse(result.stdout) as ExecutionReport;
    assert.match(report.checks[0]?.reason ?? '', conflict);
  });

  it('an execute or differential report with no checks says to add them to the config file read', async () => {
    const files = { 'checker.config.yml': 'safety:\n  allowCommands: true\n' };
    for (const command of ['execute', 'differential']) {
      const result = await runIn(files, [command, '--format', 'markdown']);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /No checks are configured \(add them under `checks:` in checker\.config\.yml\)/, command);
      assert.doesNotMatch(result.stdout, /\.checker\/config\.yml/, command);
    }
  });

  it("preflight's follow-up checks name a safety conflict, not only that allowCommands is not true", async () => {
    const result = await runIn(
      { '.checker/config.yml': 'safety:\n  allowCommands: true\n', 'checker.config.yml': `safety:\n  allowCommands: false\n${CHECKS}` },
      ['ai', 'preflight', '--task', 'change the ledger balance', '--format', 'json'],
    );
    assert.equal(result.code, 0, result.stderr);
    const reasons = JSON.stringify(JSON.parse(result.stdout));
    assert.match(
      reasons,
      /\.checker\/config\.yml and checker\.config\.yml disagree on safety\.allowCommands \(config\/safety-conflict\), so its fail-closed value false is used; preflight runs nothing/,
    );
    assert.doesNotMatch(reasons, /allowCommands is not true/);
  });
});
