import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cliArgv } from '../helpers/cli.js';
import { createRepo, makeTempDir, type TestRepo } from '../helpers/git-repo.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const TARGET = 'products:\n  targets:\n    web:\n      kind: api\n      baseUrl: http://127.0.0.1:4999\n';

async function connect(dir: string): Promise<Client> {
  // A user config folder of its own: no investigation provider of the machine's user is ever found.
  const home = makeTempDir('checker-mcp-home-');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...cliArgv(), 'mcp', '--cwd', dir],
    cwd: projectRoot,
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: home },
  });
  const client = new Client({ name: 'checker-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  assert.ok(first !== undefined && first.type === 'text', JSON.stringify(result.content));
  return first.text;
}

describe('MCP words (issue 42, item 7)', () => {
  let repo: TestRepo;
  let client: Client;
  before(async () => {
    repo = createRepo({
      'package.json': JSON.stringify({ name: 'ledger', type: 'module' }),
      'src/invoice.ts': 'export const total = 0;\n',
      'checker.config.yml': `safety:\n  allowCommands: true\n${TARGET}`,
    });
    client = await connect(repo.dir);
  });
  after(async () => {
    await client.close();
    repo.cleanup();
  });

  it('checker_product_plan asks for checker product or checker_product_run, not checker execute', async () => {
    const result = await call(client, 'checker_product_plan', { format: 'json' });
    const plan = result.structuredContent as { gate: { explanation: string } };
    assert.equal(
      plan.gate.explanation,
      'closed: execution was not requested; nothing was started. Run checker product --target <name>, or call checker_product_run with confirmExecution: true',
    );
  });

  it('a product run not confirmed says how to confirm it and does not call its commands configured checks', async () => {
    const result = await call(client, 'checker_product_run', { target: 'web', format: 'markdown' });
    const text = textOf(result);
    assert.match(text, /Run checker product --target \\?<name\\?>, or call checker\\?_product\\?_run with confirmExecution: true/);
    assert.doesNotMatch(text, /configured checks|checker execute/);
  });

  it('a mistyped field of a nested object is named with what was expected and what came', async () => {
    const result = await call(client, 'agent_preflight', {
      task: 'parse invoice totals',
      requirements: { acceptanceCriteria: [{ id: 3, text: 'totals parse', requiredProof: ['unit'] }, { id: 'AC-2' }] },
    });
    assert.equal(result.isError, true);
    const text = textOf(result);
    assert.match(text, /"requirements\.acceptanceCriteria\[0\]\.id": expected a string, got a number/);
    assert.match(text, /"requirements\.acceptanceCriteria\[1\]\.text" is required: expected a string/);
    assert.doesNotMatch(text, /Invalid input|it Invalid/);
  });

  it('agent_investigation without a provider does not name the CLI flag --investigate', async () => {
    const result = await call(client, 'agent_investigation', { confirmInvestigation: true, task: 'parse invoice totals' });
    assert.equal(result.isError, true);
    const text = textOf(result);
    assert.match(text, /^investigation\/no-provider: an investigation was requested, but neither the user config/);
    assert.doesNotMatch(text, /--investigate/);
  });
});

describe('MCP hints name the config file read (issue 42, item 6)', () => {
  it('checker_product_plan with no targets says to add them to checker.config.yml when that is the file read', async () => {
    const repo = createRepo({
      'package.json': JSON.stringify({ name: 'ledger', type: 'module' }),
      'checker.config.yml': 'safety:\n  allowCommands: false\n',
    });
    const client = await connect(repo.dir);
    try {
      const text = textOf(await call(client, 'checker_product_plan', { format: 'markdown' }));
      assert.match(text, /No product targets are configured \(products\.targets in checker\.config\.yml\)/);
      assert.doesNotMatch(text, /\.checker\/config\.yml/);
    } finally {
      await client.close();
      repo.cleanup();
    }
  });
});
