import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { screenMessage } from './screen-message.js';

/** The SDK's stdio reader allows 10 MiB per message; so does this one. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const NEWLINE = 0x0a;

export interface StdioTransportOptions {
  input: Readable;
  output: Writable;
  maxMessageBytes?: number;
}

/**
 * Newline-delimited JSON-RPC over a pair of streams, like the SDK's StdioServerTransport, except that
 * every line is screened first (`screen-message.ts`) so a request the SDK would silently drop (bad
 * JSON, `params: null`, a bad id) is answered with a JSON-RPC error. A line over the size limit is
 * skipped and answered, not fatal: the SDK closes the whole connection on it.
 */
export function createStdioTransport(options: StdioTransportOptions): Transport {
  const { input, output } = options;
  const maxBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  let pieces: Buffer[] = [];
  let size = 0;
  let isOversized = false;

  const send = (message: JSONRPCMessage): Promise<void> =>
    new Promise((resolve) => {
      if (output.write(`${JSON.stringify(message)}\n`)) resolve();
      else output.once('drain', () => resolve());
    });

  const report = (message: string): void => transport.onerror?.(new Error(message));

  const handleLine = (line: string): void => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      void send({
        jsonrpc: '2.0',
        error: { code: ErrorCode.ParseError, message: `Parse error: a line of input is not JSON (${detail.slice(0, 120)})` },
      });
      report(`a line of input is not JSON: ${detail.slice(0, 120)}`);
      return;
    }
    const screened = screenMessage(value);
    if (screened.kind === 'message') {
      transport.onmessage?.(screened.message);
      return;
    }
    if (screened.kind === 'answered') {
      void send(screened.reply);
      return;
    }
    if (screened.kind === 'rejected') void send(screened.reply);
    report(screened.reason);
  };

  const endLine = (): void => {
    if (isOversized) {
      isOversized = false;
      void send({
        jsonrpc: '2.0',
        error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: a message is larger than ${maxBytes} bytes and was skipped` },
      });
      report(`a message larger than ${maxBytes} bytes was skipped`);
      return;
    }
    const line = Buffer.concat(pieces, size).toString('utf8');
    pieces = [];
    size = 0;
    handleLine(line.endsWith('\r') ? line.slice(0, -1) : line);
  };

  const addPiece = (piece: Buffer): void => {
    if (isOversized || piece.length === 0) return;
    size += piece.length;
    if (size <= maxBytes) {
      pieces.push(piece);
      return;
    }
    isOversized = true;
    pieces = [];
    size = 0;
  };

  const onData = (chunk: Buffer | string): void => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    for (let index = data.indexOf(NEWLINE); index !== -1; index = data.indexOf(NEWLINE, start)) {
      addPiece(data.subarray(start, index));
      start = index + 1;
      endLine();
    }
    addPiece(data.subarray(start));
  };

  const onError = (error: Error): void => transport.onerror?.(error);

  const transport: Transport = {
    start: async () => {
      input.on('data', onData);
      input.on('error', onError);
    },
    send: (message) => send(message),
    close: async () => {
      input.off('data', onData);
      input.off('error', onError);
      if (input.listenerCount('data') === 0) input.pause();
      pieces = [];
      size = 0;
      transport.onclose?.();
    },
  };
  return transport;
}
