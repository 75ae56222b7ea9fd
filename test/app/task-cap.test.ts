import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AgentBundle } from '../../src/model/bundle.js';
import { createChangeFixture, runJsonReport, type ChangeFixture } from '../helpers/analysis-fixtures.js';
import { runCli } from '../helpers/cli.js';

/** Five changed source files with no test: five proof tasks. */
const BASE: Record<string, string> = { 'package.json': JSON.stringify({ name: 'caps', version: '1.0.0', type: 'module' }) };
const CHANGE: Record<string, string> = {};
for (const name of ['alpha', 'bravo', 'charlie', 'delta', 'echo']) {
  BASE[`src/${name}.ts`] = `export function ${name}(value: number): number {\n  return value;\n}\n`;
  CHANGE[`src/${name}.ts`] = `export function ${name}(value: number): number {\n  return value + 1;\n}\n`;
}

describe('analysis.maxPromptTasks', () => {
  let capped: ChangeFixture;
  let invalid: ChangeFixture;
  before(() => {
    capped = createChangeFixture({ ...BASE, '.checker/config.yml': 'analysis:\n  maxPromptTasks: 2\n' }, CHANGE);
    invalid = createChangeFixture({ ...BASE, '.checker/config.yml': 'analysis:\n  maxPromptTasks: 0\n' }, CHANGE);
  });
  after(() => {
    capped.repo.cleanup();
    invalid.repo.cleanup();
  });

  test('the bundle lists the configured number of ranked tasks; the rest are overflow, counted in the prompt', async () => {
    const { report } = await runJsonReport<AgentBundle>(capped, ['ai'], 'agent-bundle');
    assert.equal(report.tasks.length, 2);
    assert.ok(report.taskOverflow.length >= 3, `overflow ${report.taskOverflow.length}`);
    assert.equal(
      new Set([...report.tasks, ...report.taskOverflow].map((task) => task.id)).size,
      report.tasks.length + report.taskOverflow.length,
      'no task twice',
    );
    assert.match(report.prompt, /^2\. /m);
    assert.doesNotMatch(report.prompt, /^3\. /m);
    assert.match(report.prompt, new RegExp(`^Lower-ranked and not listed here: ${report.taskOverflow.length} tasks`, 'm'));
  });

  test('an out-of-range value is refused, naming the key', () => {
    const result = runCli(['ai', '--cwd', invalid.repo.dir, '--base', invalid.base, '--head', invalid.head ?? 'HEAD', '--format', 'json']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /maxPromptTasks/);
  });
});
