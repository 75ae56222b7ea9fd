import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createStdioTransport } from '../../src/mcp/stdio-transport.js';

async function open(maxMessageBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = createStdioTransport({ input, output, ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }) });
  const received: JSONRPCMessage[] = [];
  const errors: string[] = [];
  let written = '';
  output.setEncoding('utf8').on('data', (chunk: string) => {
    written += chunk;
  });
  transport.onmessage = (message) => received.push(message);
  transport.onerror = (error) => errors.push(error.message);
  await transport.start();
  const replies = async (): Promise<unknown[]> => {
    await new Promise((resolve) => setImmediate(resolve));
    return written
      .split('\n')
      .filter((line) => line !== '')
      .map((line): unknown => JSON.parse(line));
  };
  return { input, transport, received, errors, replies };
}

describe('createStdioTransport', () => {
  it('reads messages split across chunks, several in one chunk, multi-byte characters cut in two, and CRLF endings', async () => {
    const { input, received } = await open();
    const bytes = Buffer.from(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'analyze_pr', arguments: { task: 'café ✓' } } })}\r\n`,
    );
    const cut = bytes.indexOf(Buffer.from('✓')) + 1;
    input.write(bytes.subarray(0, cut));
    input.write(bytes.subarray(cut));
    input.write(
      '{"jsonrpc":"2.0","id":2,"method":"ping"}\n\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":3,',
    );
    input.write('"method":"ping"}\n');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(received, [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'analyze_pr', arguments: { task: 'café ✓' } } },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
    ]);
  });

  it('answers params: null and lines that are not JSON, and keeps reading', async () => {
    const { input, received, errors, replies } = await open();
    input.write('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":null}\nnot json\n{"jsonrpc":"2.0","id":6,"method":"ping"}\n');
    const [nullParams, notJson, ...rest] = await replies();
    assert.deepEqual(nullParams, {
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32602, message: 'Invalid params: "params" of tools/call must be an object when present (got null)' },
    });
    assert.match(
      JSON.stringify(notJson),
      /^\{"jsonrpc":"2\.0","error":\{"code":-32700,"message":"Parse error: a line of input is not JSON \(/,
    );
    assert.deepEqual(rest, []);
    assert.deepEqual(received, [{ jsonrpc: '2.0', id: 6, method: 'ping' }]);
    assert.equal(errors.length, 2);
  });

  it('skips and answers a message over the size limit instead of closing the connection', async () => {
    const { input, transport, received, replies } = await open(64);
    let isClosed = false;
    transport.onclose = () => {
      isClosed = true;
    };
    input.write(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${'x'.repeat(40)}`);
    input.write(`${'y'.repeat(40)}"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    assert.deepEqual(await replies(), [
      { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: a message is larger than 64 bytes and was skipped' } },
    ]);
    assert.deepEqual(received, [{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
    assert.equal(isClosed, false);
    await transport.close();
    assert.equal(isClosed, true);
    assert.equal(input.isPaused(), true);
  });
});
