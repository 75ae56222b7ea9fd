import { createServer, type Socket } from 'node:net';

/** SOCKS5 bytes (RFC 1928): version, "no authentication", and the reply "connection not allowed by ruleset". */
const VERSION = 0x05;
const NO_AUTHENTICATION = 0x00;
const NOT_ALLOWED = 0x02;

/** How Chromium reports a connection the gate refused; nothing else answers it that way, as the target is reached directly. */
export const GATE_REFUSAL = 'net::ERR_SOCKS_CONNECTION_FAILED';

export interface OriginGate {
  /** Chromium switches: connect to the target directly, send every other connection to the gate. */
  chromiumArgs: string[];
  close(): Promise<void>;
}

/** `host:port` as Chromium's proxy bypass rules spell it (`127.0.0.1:3000`, `[::1]:3000`), the default port made explicit. */
function toBypassRule(origin: URL): string {
  const port = origin.port === '' ? (origin.protocol === 'https:' ? '443' : '80') : origin.port;
  return `${origin.hostname}:${port}`;
}

/** Answers the greeting, then refuses whatever the client asks to reach (without reading it) and hangs up. */
function refuse(client: Socket): void {
  let greeted = false;
  client.on('data', (chunk: Buffer) => {
    if (!greeted) {
      greeted = true;
      client.write(Buffer.from([VERSION, NO_AUTHENTICATION]));
      // The greeting is version, method count, methods; anything after it is already the connect request.
      if (chunk.length <= 2 + (chunk[1] ?? 0)) return;
    }
    client.end(Buffer.from([VERSION, NOT_ALLOWED, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
  });
}

/**
 * Keeps Chromium on `origin`, redirects included: request interception never sees a redirect hop, but the network
 * stack does. Chromium is told to reach the target's host and port directly (the one bypass rule; `<-loopback>` drops
 * the implicit bypass of loopback addresses) and to send every other connection through a SOCKS5 proxy on 127.0.0.1
 * that refuses all of them, so no byte reaches another host or port, whatever asked for it (a redirect, a preconnect,
 * a WebSocket). The browser sees such a connection fail with GATE_REFUSAL.
 */
export async function startOriginGate(origin: URL): Promise<OriginGate> {
  const clients = new Set<Socket>();
  const server = createServer((client) => {
    clients.add(client);
    client.once('close', () => clients.delete(client));
    client.on('error', () => client.destroy());
    refuse(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    // The last matching bypass rule wins: the target's own rule must come after `<-loopback>`.
    chromiumArgs: [`--proxy-server=socks5://127.0.0.1:${port}`, `--proxy-bypass-list=<-loopback>;${toBypassRule(origin)}`],
    close: async () => {
      for (const client of clients) client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
