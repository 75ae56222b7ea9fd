import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { cliArgv, runCli } from '../helpers/cli.js';
import { createRepo } from '../helpers/git-repo.js';
import { initialize, startStdioSession } from './helpers/stdio-session.js';

describe('checker mcp answers every JSON-RPC request', () => {
  const repo = createRepo({ 'src/orders.ts': 'export const orders = [];\n' });
  after(() => repo.cleanup());

  it('replies -32602 to params: null, missing or non-object params on every method, and keeps serving', async () => {
    const session = startStdioSession([...cliArgv(), 'mcp', '--cwd', repo.dir, '--deadline', '90']);
    try {
      await initialize(session);
      const raw = [
        '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":null}',
        '{"jsonrpc":"2.0","id":6,"method":"tools/list","params":null}',
        '{"jsonrpc":"2.0","id":7,"method":"ping","params":null}',
        '{"jsonrpc":"2.0","id":8,"method":"tools/call"}',
        '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":[]}',
        '{"jsonrpc":"2.0","id":"ten","method":"tools/call","params":{"arguments":{}}}',
        '{"jsonrpc":"2.0","id":11,"method":"initialize","params":null}',
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":null}',
      ];
      for (const line of raw) session.send(line);
      session.send({ jsonrpc: '2.0', id: 12, method: 'ping' });
      session.send({
        jsonrpc: '2.0',
        id: 13,
        method: 'tools/call',
        params: { name: 'agent_preflight', arguments: { task: 'list the orders', format: 'json' } },
      });
      for (const id of [5, 6, 7, 8, 9, 'ten', 11]) {
        const reply = await session.reply(id);
        assert.equal(reply.error?.code, -32602, `${id}: ${JSON.stringify(reply)}`);
        assert.match(reply.error?.message ?? '', /^Invalid params: /);
      }
      assert.deepEqual((await session.reply(12)).result, {});
      const preflight = await session.reply(13, 120_000);
      assert.equal(preflight.result?.isError, undefined, JSON.stringify(preflight).slice(0, 400));
      assert.equal(await session.end(), 0);
      assert.deepEqual(session.strays, []);
      assert.deepEqual(
        session.frames.map((frame) => frame.id),
        ['init', 5, 6, 7, 8, 9, 'ten', 11, 12, 13],
        'one reply per request, none to the malformed notification',
      );
      assert.match(session.stderr(), /serving .* over stdio \(tool calls time out after 90 s\)/);
    } finally {
      session.kill();
    }
  });

  it('refuses a --deadline that is not a positive number of seconds before it starts', () => {
    for (const value of ['abc', '0', '-5', '1e3', '90000']) {
      const result = runCli(['mcp', '--cwd', repo.dir, '--deadline', value]);
      assert.equal(result.code, 2, `${value}: ${result.stderr}`);
      assert.match(
        result.stderr,
        /^checker: usage\/invalid-deadline: --deadline must be a number of seconds above 0 and at most 86400/,
        value,
      );
      assert.equal(result.stdout, '');
    }
  });
});
