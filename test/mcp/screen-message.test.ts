import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { screenMessage } from '../../src/mcp/screen-message.js';

const CALL = { name: 'analyze_pr', arguments: { format: 'json' } };

describe('screenMessage', () => {
  it('answers -32602 with the request id when params is null, missing where required, not an object, or wrong', () => {
    const cases: { message: Record<string, unknown>; expected: RegExp }[] = [
      {
        message: { jsonrpc: '2.0', id: 5, method: 'tools/call', params: null },
        expected: /^Invalid params: "params" of tools\/call must be an object when present \(got null\)$/,
      },
      {
        message: { jsonrpc: '2.0', id: 5, method: 'tools/list', params: null },
        expected: /"params" of tools\/list must be an object when present \(got null\)/,
      },
      {
        message: { jsonrpc: '2.0', id: 5, method: 'ping', params: null },
        expected: /"params" of ping must be an object when present \(got null\)/,
      },
      { message: { jsonrpc: '2.0', id: 5, method: 'initialize', params: null }, expected: /"params" of initialize must be an object/ },
      {
        message: { jsonrpc: '2.0', id: 5, method: 'resources/list', params: null },
        expected: /"params" of resources\/list must be an object/,
      },
      { message: { jsonrpc: '2.0', id: 5, method: 'ping', params: [1, 2] }, expected: /\(got an array\)/ },
      { message: { jsonrpc: '2.0', id: 5, method: 'tools/call', params: 'analyze_pr' }, expected: /\(got a string\)/ },
      { message: { jsonrpc: '2.0', id: 5, method: 'tools/call' }, expected: /^Invalid params: params: / },
      { message: { jsonrpc: '2.0', id: 5, method: 'tools/call', params: {} }, expected: /^Invalid params: params\.name: / },
      { message: { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 42 } }, expected: /^Invalid params: params\.name: / },
      {
        message: { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'analyze_pr', arguments: 'x' } },
        expected: /^Invalid params: params\.arguments: /,
      },
      {
        message: { jsonrpc: '2.0', id: 5, method: 'initialize', params: { protocolVersion: '2025-06-18' } },
        expected: /^Invalid params: params\.(capabilities|clientInfo): /,
      },
    ];
    for (const { message, expected } of cases) {
      const screened = screenMessage(message);
      assert.equal(screened.kind, 'rejected', JSON.stringify(message));
      if (screened.kind !== 'rejected') continue;
      assert.equal(screened.reply.id, 5);
      assert.equal(screened.reply.error.code, -32602, JSON.stringify(message));
      assert.match(screened.reply.error.message, expected);
    }
  });

  it('answers -32600 for requests that are not valid, with the id when it is usable', () => {
    const cases: { message: unknown; id: string | number | undefined }[] = [
      { message: { jsonrpc: '2.0', id: null, method: 'ping' }, id: undefined },
      { message: { jsonrpc: '2.0', id: 1.5, method: 'ping' }, id: undefined },
      { message: { jsonrpc: '2.0', id: { x: 1 }, method: 'ping' }, id: undefined },
      { message: { jsonrpc: '2.0', id: 'a', method: 42 }, id: 'a' },
      { message: { jsonrpc: '1.0', id: 'b', method: 'ping' }, id: 'b' },
      { message: { id: 'c', method: 'ping' }, id: 'c' },
      { message: { jsonrpc: '2.0', id: 'd', method: 'ping', extra: true }, id: 'd' },
      { message: { jsonrpc: '2.0', id: 7 }, id: 7 },
      { message: { hello: 'world' }, id: undefined },
      { message: [{ jsonrpc: '2.0', id: 1, method: 'ping' }], id: undefined },
      { message: 5, id: undefined },
      { message: null, id: undefined },
    ];
    for (const { message, id } of cases) {
      const screened = screenMessage(message);
      assert.equal(screened.kind, 'rejected', JSON.stringify(message));
      if (screened.kind !== 'rejected') continue;
      assert.equal(screened.reply.error.code, -32600, JSON.stringify(message));
      assert.equal(screened.reply.id, id, JSON.stringify(message));
      assert.equal('id' in screened.reply, id !== undefined);
    }
  });

  it('passes valid requests, notifications and responses through unchanged', () => {
    const valid: unknown[] = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 'x', method: 'ping', params: {} },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'next' } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: CALL },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'analyze_pr', _meta: { progressToken: 1 } } },
      {
        jsonrpc: '2.0',
        id: 5,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      },
      { jsonrpc: '2.0', id: 6, method: 'resources/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'stop' } },
      { jsonrpc: '2.0', id: 9, result: {} },
      { jsonrpc: '2.0', id: 9, error: { code: -32601, message: 'Method not found' } },
    ];
    for (const message of valid) {
      const screened = screenMessage(message);
      assert.equal(screened.kind, 'message', JSON.stringify(message));
      if (screened.kind === 'message') assert.deepEqual(screened.message, message);
    }
  });

  it('drops malformed notifications and responses without answering them', () => {
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: null },
      { jsonrpc: '2.0', method: 'notifications/initialized', params: 3 },
      { jsonrpc: '2.0', id: 1, result: 5 },
      { jsonrpc: '2.0', id: 1, error: 'bad' },
    ]) {
      const screened = screenMessage(message);
      assert.equal(screened.kind, 'dropped', JSON.stringify(message));
    }
  });
});
