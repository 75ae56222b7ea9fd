import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { projectRoot } from '../helpers/cli.js';
import { createRepo } from '../helpers/git-repo.js';
import { cliArgv } from '../helpers/cli.js';

describe('checker mcp when the client closes stdin right after its last request', () => {
  const repo = createRepo({ 'src/orders.ts': 'export const orders = [];\n' });
  after(() => repo.cleanup());

  it('answers the requests under way before it exits', async () => {
    const child = spawn(process.execPath, [...cliArgv(), 'mcp', '--cwd', repo.dir], { cwd: projectRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const frames = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'half-close', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'agent_preflight', arguments: { task: 'fix the api', format: 'json' } },
      },
    ];
    child.stdin.end(`${frames.map((frame) => JSON.stringify(frame)).join('\n')}\n`);
    assert.equal(await exited, 0);
    const answers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id?: number; result?: { structuredContent?: { confidence?: string } } });
    assert.deepEqual(
      answers.map((answer) => answer.id),
      [1, 2],
    );
    assert.equal(answers[1]?.result?.structuredContent?.confidence, 'low');
  });
});
