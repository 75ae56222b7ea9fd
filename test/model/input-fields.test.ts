import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toFailOn, toFormat, toRange, toSessionId, toTask } from '../../src/cli/args.js';
import { toMaxNodes } from '../../src/cli/commands/context.js';
import { agentSessionInputSchema, analysisInputSchema, describeInputIssues, taskContextInputSchema } from '../../src/mcp/schemas.js';
import type { z } from 'zod';

function cliRefusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof Error);
    return { code: Reflect.get(error, 'code'), message: error.message };
  }
  assert.fail('the flag was accepted');
}

function mcpRefusal(schema: z.ZodObject, input: Record<string, unknown>): string {
  const parsed = schema.safeParse(input);
  assert.equal(parsed.success, false);
  return describeInputIssues(parsed.error?.issues ?? [], Object.keys(schema.shape), input)[0] ?? '';
}

describe('input fields shared by the CLI flags and the MCP tools', () => {
  it('--format and the format field refuse with the same words', () => {
    const cli = cliRefusal(() => toFormat('xml'));
    assert.equal(cli.code, 'usage/invalid-format');
    assert.equal(cli.message, '--format must be markdown or json; leave it out for markdown (got "xml")');
    assert.equal(mcpRefusal(analysisInputSchema, { format: 'xml' }), '"format" must be markdown or json; leave it out for markdown');
    assert.equal(toFormat('json'), 'json');
  });

  it('--base/--head and the ref fields refuse an option-like revision with the same words, before git runs', () => {
    const cli = cliRefusal(() => toRange({ base: '--upload-pack=x' }));
    assert.equal(cli.code, 'git/ref-invalid');
    const mcp = mcpRefusal(analysisInputSchema, { base: '--upload-pack=x' });
    assert.equal(cli.message, `${mcp.replace('"base"', '--base')} (got "--upload-pack=x")`);
    assert.deepEqual(toRange({ base: 'main', head: 'HEAD~1' }), { base: 'main', head: 'HEAD~1' });
    assert.deepEqual(toRange({ base: '' }), {});
  });

  it('--max-nodes and the maxNodes field refuse with the same words', () => {
    for (const value of ['0', '1001', '2.5', 'ten']) {
      const cli = cliRefusal(() => toMaxNodes(value));
      assert.equal(cli.code, 'context/max-nodes');
      assert.equal(cli.message, `--max-nodes (maxNodes) must be an integer from 1 to 1000 (got ${JSON.stringify(value)})`);
    }
    assert.equal(mcpRefusal(taskContextInputSchema, { task: 'x', maxNodes: 1001 }), '"maxNodes" must be an integer from 1 to 1000');
    assert.equal(toMaxNodes('7'), 7);
    assert.equal(toMaxNodes(undefined), undefined);
  });

  it('--fail-on names the levels', () => {
    assert.equal(cliRefusal(() => toFailOn('severe')).message, '--fail-on must be one of low, medium, high, critical (got "severe")');
    assert.equal(toFailOn('high'), 'high');
    assert.equal(toFailOn(undefined), undefined);
  });

  it('--task and the task field refuse an empty or too long task with the same words, never echoing the text', () => {
    for (const task of ['   ', 'x'.repeat(4001)]) {
      const cli = cliRefusal(() => toTask(task));
      assert.equal(cli.code, 'usage/invalid-task');
      const mcp = mcpRefusal(taskContextInputSchema, { task });
      assert.equal(cli.message, `${mcp.replace('"task"', '--task')} (got "${task.length} characters")`);
    }
    assert.match(cliRefusal(() => toTask('x'.repeat(4001))).message, /^--task is longer than 4000 characters; summarise/);
    assert.equal(toTask('  apply the discount \n'), 'apply the discount');
  });

  it('--session and the sessionId field refuse with the same words', () => {
    for (const id of ['../x', 'a b', '-lead', 'x'.repeat(65)]) {
      const cli = cliRefusal(() => toSessionId(id));
      assert.equal(cli.code, 'session/invalid-id');
      const mcp = mcpRefusal(agentSessionInputSchema, { operation: 'finish', sessionId: id });
      assert.equal(cli.message, `${mcp.replace('"sessionId"', '--session')} (got ${JSON.stringify(id.slice(0, 80))})`);
    }
    assert.equal(toSessionId('fix-discount-1'), 'fix-discount-1');
  });
});
