import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { cliArgv, projectRoot } from '../helpers/cli.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';

/** A client that sends a progress token (the SDK does when onprogress is given) is told what the graph build is doing. */
describe('MCP notifications/progress', () => {
  let repo: TestRepo;
  let client: Client;
  before(async () => {
    repo = createRepo({
      'src/a.ts': "import { b } from './b.js';\nexport const a = b + 1;\n",
      'src/b.ts': 'export const b = 1;\n',
      'src/c.ts': 'export const c = 3;\n',
    });
    repo.write({ 'src/b.ts': 'export const b = 2;\n' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...cliArgv(), 'mcp', '--cwd', repo.dir],
      cwd: projectRoot,
      stderr: 'pipe',
    });
    client = new Client({ name: 'checker-progress', version: '0.0.0' });
    await client.connect(transport);
  });
  after(async () => {
    await client.close();
    repo.cleanup();
  });

  it('the first call (which builds the graph) reports each phase, with progress rising; a warm call has nothing to build', async () => {
    const seen: Progress[] = [];
    const result = await client.callTool({ name: 'impact_map', arguments: { format: 'json' } }, undefined, {
      onprogress: (progress) => seen.push(progress),
    });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.deepEqual(
      seen.map((item) => item.message),
      [
        // The graph holds modules with their links and words alone (what preflight and context rank by)...
        'reading the imports and exports of 0/3 files',
        // Counts within 250 ms of the last are dropped; the last count is always sent.
        ...seen.map((item) => item.message).filter((message) => /^reading the imports and exports of [12]\/3 files$/.test(message ?? '')),
        'reading the imports and exports of 3/3 files',
        'resolving the imports of 3 files',
        'building the graph of 3 files',
        'analysing',
        // ...and an analysis of the change first reads in full what it needs: the changed b.ts and a.ts, which imports it.
        'parsing 0/2 files',
        ...seen.map((item) => item.message).filter((message) => /^parsing 1\/2 files$/.test(message ?? '')),
        'parsing 2/2 files',
        'analysing',
      ],
    );
    assert.deepEqual(
      seen.map((item) => item.progress),
      seen.map((_item, index) => index + 1),
    );
    const warm: Progress[] = [];
    await client.callTool({ name: 'impact_map', arguments: { format: 'json' } }, undefined, {
      onprogress: (progress) => warm.push(progress),
    });
    assert.deepEqual(warm, []);
  });
});
