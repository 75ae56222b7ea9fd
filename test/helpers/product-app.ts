import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A small product app without a framework: `node app.cjs <port> [mode]`. It writes its pid to `app.pid` and answers
 * every path with a page, except in its faulty modes: `exit` dies at once (exit 3, a line on stderr), `unhealthy`
 * answers 503, `silent` never listens, `grandchild` also starts a child that ignores SIGTERM (it writes
 * `grandchild.pid` once it does), `stubborn` ignores SIGTERM itself.
 */
export const PRODUCT_APP = `
const http = require('node:http');
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const [port, mode = 'healthy'] = process.argv.slice(2);
fs.writeFileSync('app.pid', String(process.pid));
if (mode === 'exit') {
  process.stderr.write('app: listen EADDRINUSE on ' + port + '\\n');
  process.exit(3);
}
if (mode === 'grandchild') {
  // The grandchild writes its pid once its SIGTERM handler is in place, so a test that saw the file knows it ignores SIGTERM.
  const grandchild = "process.on('SIGTERM', () => {}); require('node:fs').writeFileSync('grandchild.pid', String(process.pid)); setInterval(() => {}, 1000)";
  spawn(process.execPath, ['-e', grandchild], { stdio: 'ignore' });
}
if (mode === 'stubborn') process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
if (mode === 'silent') {
  setInterval(() => {}, 1000);
} else {
  const server = http.createServer((request, response) => {
    if (mode === 'unhealthy') {
      response.writeHead(503, { 'content-type': 'text/plain' });
      response.end('still starting');
      return;
    }
    if (request.url === '/moved') {
      response.writeHead(302, { location: 'http://example.invalid/' });
      response.end();
      return;
    }
    if (request.url === '/big') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('x'.repeat(100000));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html', 'x-app-mode': mode });
    response.end('<main><h1>Orders</h1></main>');
  });
  server.listen(Number(port), '127.0.0.1', () => console.log('listening on ' + port));
}
`;

/** \`node mark.cjs <word>\`: appends the word to \`marks.log\` (what setup and teardown ran, in order). */
export const MARK_SCRIPT = `require('node:fs').appendFileSync('marks.log', process.argv[2] + '\\n');\n`;

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls until `path` exists; throws when it does not within `timeoutMs`. */
export async function waitForFile(path: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} was not written within ${timeoutMs} ms`);
    await sleep(20);
  }
}
