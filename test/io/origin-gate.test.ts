import assert from 'node:assert/strict';
import { connect, createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type OriginGate, startOriginGate } from '../../src/io/origin-gate.js';

function portOf(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/** Sends `chunks` to the gate one write at a time, each after the previous reply; returns every byte it answered. */
async function talk(proxyPort: number, chunks: Buffer[]): Promise<Buffer> {
  const socket = connect({ host: '127.0.0.1', port: proxyPort });
  const received: Buffer[] = [];
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (data) => {
    received.push(data);
    const next = chunks.shift();
    if (next !== undefined) socket.write(next);
  });
  socket.once('connect', () => socket.write(chunks.shift() ?? Buffer.alloc(0)));
  await closed;
  return Buffer.concat(received);
}

function connectRequest(port: number): Buffer {
  return Buffer.from([0x05, 0x01, 0x00, 0x01, 127, 0, 0, 1, port >> 8, port & 0xff]);
}

describe('startOriginGate', () => {
  let sink: Server;
  let connections = 0;
  let gate: OriginGate;

  before(async () => {
    sink = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    gate = await startOriginGate(new URL('http://127.0.0.1:3000/'));
  });

  after(async () => {
    await gate.close();
    sink.close();
  });

  test('tells Chromium to reach the target directly, loopback included, and everything else through the gate', () => {
    const [proxy, bypass] = gate.chromiumArgs;
    assert.match(proxy ?? '', /^--proxy-server=socks5:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(bypass, '--proxy-bypass-list=<-loopback>;127.0.0.1:3000');
  });

  test('names the default port and keeps IPv6 brackets in the bypass rule', async () => {
    for (const [origin, rule] of [
      ['https://shop.example', 'shop.example:443'],
      ['http://localhost', 'localhost:80'],
      ['http://[::1]:8080', '[::1]:8080'],
    ] as const) {
      const other = await startOriginGate(new URL(origin));
      assert.equal(other.chromiumArgs[1], `--proxy-bypass-list=<-loopback>;${rule}`);
      await other.close();
    }
  });

  test('refuses a connection to another port without opening it', async () => {
    const proxyPort = Number(new URL(gate.chromiumArgs[0]?.split('=')[1] ?? '').port);
    const answer = await talk(proxyPort, [Buffer.from([0x05, 0x01, 0x00]), connectRequest(portOf(sink))]);
    assert.deepEqual([...answer.subarray(0, 4)], [0x05, 0x00, 0x05, 0x02], 'no authentication, then "not allowed by ruleset"');
    assert.equal(connections, 0);
  });

  test('refuses a greeting and request sent in one write too', async () => {
    const proxyPort = Number(new URL(gate.chromiumArgs[0]?.split('=')[1] ?? '').port);
    const answer = await talk(proxyPort, [Buffer.concat([Buffer.from([0x05, 0x01, 0x00]), connectRequest(portOf(sink))])]);
    assert.deepEqual([...answer.subarray(0, 4)], [0x05, 0x00, 0x05, 0x02]);
    assert.equal(connections, 0);
  });
});
