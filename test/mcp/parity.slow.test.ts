import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runCli, projectRoot } from '../helpers/cli.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { cliArgv } from '../helpers/cli.js';

const TIME_KEYS = new Set(['generatedAt']);
const TASK = 'round order totals to whole cents';

/** The report with every timestamp field removed: the only thing allowed to differ between two runs. */
function withoutTimestamps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimestamps);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !TIME_KEYS.has(key))
      .map(([key, item]) => [key, withoutTimestamps(item)]),
  );
}

describe('parity: CLI --format json equals the MCP tool structuredContent', () => {
  let repo: TestRepo;
  let client: Client;
  before(async () => {
    repo = createRepo({
      'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module', dependencies: { express: '^4.0.0' } }),
      'src/lib/money.ts': 'export function toCents(amount: number): number {\n  return Math.round(amount * 100);\n}\n',
      'src/routes/orders.ts':
        "import express from 'express';\nimport { toCents } from '../lib/money.js';\nexport const router = express.Router();\nrouter.get('/orders/:id/total', (req, res) => {\n  res.json({ cents: toCents(Number(req.params.id)) });\n});\n",
      'src/lib/money.test.ts':
        "import { test } from 'node:test';\nimport { toCents } from './money.js';\ntest('toCents', () => { toCents(1.5); });\n",
      '.checker/config.yml': 'checks:\n  unit:\n    command: node --test\n',
      '.checker/memory/rounding.md': '# Rounding\n\nOrder totals are rounded once, at checkout.\n',
    });
    repo.write({
      'src/lib/money.ts':
        'export function toCents(amount: number): number {\n  const cents = amount * 100;\n  return Math.round(cents);\n}\n',
    });
    repo.commit('round once');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...cliArgv(), 'mcp', '--cwd', repo.dir],
      cwd: projectRoot,
      stderr: 'pipe',
    });
    client = new Client({ name: 'checker-parity', version: '0.0.0' });
    await client.connect(transport);
  });
  after(async () => {
    await client.close();
    repo.cleanup();
  });

  async function assertParity(cliArgs: string[], tool: string, args: Record<string, unknown>): Promise<void> {
    const cli = runCli([...cliArgs, '--cwd', repo.dir, '--format', 'json']);
    assert.equal(cli.code, 0, cli.stderr);
    const result = await client.callTool({ name: tool, arguments: { ...args, format: 'json' } });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.deepEqual(withoutTimestamps(result.structuredContent), withoutTimestamps(JSON.parse(cli.stdout)));
  }

  it('analyze_pr equals checker analyze', async () => {
    await assertParity(['analyze', '--base', 'HEAD~1', '--head', 'HEAD'], 'analyze_pr', { base: 'HEAD~1', head: 'HEAD' });
  });

  it('redteam_report equals checker redteam, on the default range', async () => {
    await assertParity(['redteam'], 'redteam_report', {});
  });

  it('agent_task_bundle equals checker agent with the same profile and task', async () => {
    await assertParity(['agent', '--base', 'HEAD~1', '--head', 'HEAD', '--profile', 'cursor', '--task', TASK], 'agent_task_bundle', {
      base: 'HEAD~1',
      head: 'HEAD',
      profile: 'cursor',
      task: TASK,
    });
  });

  it('agent_preflight equals checker agent preflight, and task_context equals checker context', async () => {
    await assertParity(['agent', 'preflight', '--task', TASK], 'agent_preflight', { task: TASK });
    await assertParity(['context', '--task', TASK, '--max-nodes', '7'], 'task_context', { task: TASK, maxNodes: 7 });
  });
});
