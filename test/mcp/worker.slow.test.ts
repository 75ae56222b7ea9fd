import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createRepo, makeTempDir } from '../helpers/git-repo.js';
import { initialize, startStdioSession, textOf, type StdioSession } from './helpers/stdio-session.js';

const spinServer = fileURLToPath(new URL('./fixtures/spin-server.mjs', import.meta.url));
/** Under `npm test` (CHECKER_TEST_CLI=dist) the spin server runs the built server with plain node; by hand, the sources through tsx. */
const startSpinServer = (args: string[]): StdioSession =>
  startStdioSession([...(process.env.CHECKER_TEST_CLI === 'dist' ? [] : ['--import', 'tsx']), spinServer, ...args]);

async function waitForFile(path: string, session: StdioSession, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > end) throw new Error(`${path} never appeared; stderr:\n${session.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function arrivalOf(session: StdioSession, id: string | number): number {
  return session.frames.findIndex((frame) => frame.id === id);
}

describe('checker mcp runs tool calls off the protocol thread', () => {
  const repo = createRepo({ 'src/orders.ts': 'export const orders = [];\n' });
  const signals = makeTempDir('checker-spin-');
  const released = join(signals, 'released');
  writeFileSync(released, '');
  after(() => repo.cleanup());

  const spin = (session: StdioSession, id: number, name: string): void => {
    session.send({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'spin', arguments: { started: join(signals, `${name}.started`), release: join(signals, `${name}.release`) } },
    });
  };

  it('answers ping and tools/list while a call holds the tool thread in synchronous code', async (t) => {
    const session = startSpinServer([repo.dir, '60000']);
    try {
      await initialize(session);
      spin(session, 2, 'held');
      await waitForFile(join(signals, 'held.started'), session);
      const pingSent = performance.now();
      session.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
      assert.deepEqual((await session.reply(3)).result, {});
      const pingMs = performance.now() - pingSent;
      session.send({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
      assert.equal(((await session.reply(4)).result?.tools as unknown[] | undefined)?.length, 19);
      assert.equal(arrivalOf(session, 2), -1, 'the held call has not been answered yet');
      writeFileSync(join(signals, 'held.release'), '');
      const held = await session.reply(2);
      assert.equal(textOf(held), 'spin: released');
      assert.ok(arrivalOf(session, 3) < arrivalOf(session, 2) && arrivalOf(session, 4) < arrivalOf(session, 2));
      assert.equal(await session.end(), 0);
      assert.deepEqual(session.strays, []);
      assert.match(session.stderr(), /tool output \(kept off stdout\): spin: started/);
      t.diagnostic(`ping answered in ${pingMs.toFixed(1)} ms while the tool thread was held`);
    } finally {
      session.kill();
    }
  });

  it('answers a call past its deadline with limits/deadline, the call sharing its worker with worker/restarted, and serves the next call', async () => {
    const session = startSpinServer([repo.dir, '1000']);
    try {
      await initialize(session);
      spin(session, 2, 'stuck');
      await waitForFile(join(signals, 'stuck.started'), session);
      spin(session, 3, 'queued');
      session.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
      const [late, queued, ping] = await Promise.all([session.reply(2), session.reply(3), session.reply(4)]);
      assert.deepEqual(ping.result, {});
      assert.ok(arrivalOf(session, 4) < arrivalOf(session, 2), 'ping is answered before the deadline passes');
      assert.equal(late.result?.isError, true);
      assert.match(
        textOf(late),
        /^limits\/deadline: spin \(request 2\) ran past its deadline of 1 s and was stopped\nhint: .*checker mcp --deadline <seconds>/,
      );
      assert.equal(queued.result?.isError, true);
      assert.match(
        textOf(queued),
        /^worker\/restarted: spin \(request 3\) was stopped: the tool worker was restarted because spin \(request 2\) ran past its deadline of 1 s\n/,
      );
      assert.equal(existsSync(join(signals, 'queued.started')), false, 'the queued call never ran');

      session.send({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'spin', arguments: { started: join(signals, 'next.started'), release: released } },
      });
      const next = await session.reply(5);
      assert.equal(next.result?.isError, undefined, textOf(next));
      assert.equal(textOf(next), 'spin: released');
      assert.equal(await session.end(), 0);
      assert.deepEqual(session.strays, []);
      assert.match(session.stderr(), /restarting the tool worker: spin \(request 2\) ran past its deadline of 1 s/);
    } finally {
      session.kill();
    }
  });

  it('drops a cancelled call without a reply and replaces the worker it left stuck', async () => {
    const session = startSpinServer([repo.dir, '600000']);
    try {
      await initialize(session);
      spin(session, 2, 'cancelled');
      await waitForFile(join(signals, 'cancelled.started'), session);
      session.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'the user gave up' } });
      session.send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'spin', arguments: { started: join(signals, 'after.started'), release: released } },
      });
      const next = await session.reply(3);
      assert.equal(textOf(next), 'spin: released');
      assert.equal(await session.end(), 0);
      assert.equal(arrivalOf(session, 2), -1, 'a cancelled request gets no reply (MCP cancellation)');
      assert.deepEqual(session.strays, []);
      assert.match(session.stderr(), /restarting the tool worker: spin \(request 2\) was cancelled while stuck in synchronous code/);
    } finally {
      session.kill();
    }
  });
});
