import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeEnv } from '../../src/io/node-env.js';
import type { Env } from '../../src/model/env.js';
import { makeTempDir } from '../helpers/git-repo.js';
import { areGoneSoonIn, findProcessesIn, isGoneSoon } from '../helpers/processes.js';
import { findFreePort, PRODUCT_APP, waitForFile } from '../helpers/product-app.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

function appFolder(): { root: string; env: Env } {
  const root = makeTempDir('checker-service-');
  writeFileSync(join(root, 'app.cjs'), PRODUCT_APP);
  return { root, env: createNodeEnv(root, { useCache: false }) };
}

function readPid(root: string, file: string): number {
  return Number(readFileSync(join(root, file), 'utf8'));
}

/**
 * The pid a process writes to `file`, once written whole: the file exists before its content does (writeFileSync
 * opens, then writes), and a loaded machine showed the gap (an empty read, pid 0, the service never stopped).
 */
async function waitForPid(root: string, file: string, timeoutMs = 5000): Promise<number> {
  await waitForFile(join(root, file), timeoutMs);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pid = readPid(root, file);
    if (Number.isInteger(pid) && pid > 0) return pid;
    if (Date.now() > deadline) assert.fail(`${file} held no pid within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function waitForListening(env: Env, url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if ((await env.httpGet(url, { timeoutMs: 500 })).ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`${url} never answered`);
}

describe('startService', () => {
  it('runs the app until stop, which ends its group with SIGTERM and keeps its output', async () => {
    const { root, env } = appFolder();
    const port = await findFreePort();
    const service = await env.startService({ argv: [process.execPath, 'app.cjs', String(port)] });
    assert.ok(service.pid !== undefined);
    await waitForListening(env, `http://127.0.0.1:${port}/`);
    // It wrote app.pid into the repository root, its cwd; in a pid namespace it knows itself by another pid than the group's.
    if (service.containment?.mode === 'process-group') assert.equal(readPid(root, 'app.pid'), service.pid);
    else assert.ok(readPid(root, 'app.pid') > 0);
    const stopped = await service.stop();
    assert.equal(stopped.exitedBeforeStop, false);
    assert.equal(stopped.signal, 'SIGTERM');
    assert.match(stopped.stdout.head, new RegExp(`listening on ${port}`));
    assert.ok(await isGoneSoon(service.pid));
    assert.ok(await areGoneSoonIn(root), 'nothing of the app is left');
    assert.deepEqual(await service.stop(), stopped, 'a second stop returns the same result');
  });

  it('a grandchild that ignores SIGTERM is gone after stop as well', async () => {
    const { root, env } = appFolder();
    const port = await findFreePort();
    const service = await env.startService({ argv: [process.execPath, 'app.cjs', String(port), 'grandchild'] });
    await waitForPid(root, 'grandchild.pid');
    await service.stop();
    assert.ok(service.pid !== undefined && (await isGoneSoon(service.pid)), 'the app is gone');
    assert.ok(await areGoneSoonIn(root), 'its grandchild is gone');
  });

  it('an app that ignores SIGTERM is killed after the grace', async () => {
    const { env } = appFolder();
    const port = await findFreePort();
    const service = await env.startService({ argv: [process.execPath, 'app.cjs', String(port), 'stubborn'] });
    await waitForListening(env, `http://127.0.0.1:${port}/`);
    const stopped = await service.stop();
    assert.equal(stopped.signal, 'SIGKILL');
    assert.match(stopped.stdout.head, /ignoring SIGTERM/);
    assert.ok(service.pid !== undefined && (await isGoneSoon(service.pid)));
  });

  it('an app that dies early settles `exited`; stop then says it had already ended', async () => {
    const { env } = appFolder();
    const service = await env.startService({ argv: [process.execPath, 'app.cjs', '1', 'exit'] });
    assert.deepEqual(await service.exited, { exitCode: 3, signal: null });
    const stopped = await service.stop();
    assert.equal(stopped.exitedBeforeStop, true);
    assert.equal(stopped.exitCode, 3);
    assert.match(stopped.stderr.head, /EADDRINUSE/);
  });

  it('a program that does not exist is a settled exit with spawnError, not a throw', async () => {
    const { env } = appFolder();
    const service = await env.startService({ argv: ['checker-no-such-program-zz'] });
    assert.equal(service.pid, undefined);
    const exit = await service.exited;
    assert.match(exit.spawnError ?? '', /cannot start "checker-no-such-program-zz": not found/);
  });

  it('the service does not inherit secrets from the environment', async () => {
    const { root, env } = appFolder();
    writeFileSync(join(root, 'print-env.cjs'), 'console.log(JSON.stringify(Object.keys(process.env)))');
    process.env.CHECKER_TEST_SECRET_TOKEN = 'FAKE-not-a-secret';
    try {
      const service = await env.startService({ argv: [process.execPath, 'print-env.cjs'], env: { APP_PORT: '1' } });
      await service.exited;
      const keys: string[] = JSON.parse((await service.stop()).stdout.head);
      assert.ok(keys.includes('APP_PORT'));
      assert.ok(!keys.includes('CHECKER_TEST_SECRET_TOKEN'));
    } finally {
      delete process.env.CHECKER_TEST_SECRET_TOKEN;
    }
  });

  for (const how of ['exit', 'SIGTERM', 'SIGINT'] as const) {
    it(`checker's ${how === 'exit' ? 'exit' : how} kills a running service and runs the registered teardown`, async () => {
      const { root } = appFolder();
      writeFileSync(join(root, 'mark.cjs'), "require('node:fs').appendFileSync('marks.log', process.argv[2] + '\\n');");
      const port = await findFreePort();
      const script = join(root, 'host.mjs');
      const source = fileURLToPath(new URL('../../src/io/node-env.ts', import.meta.url));
      writeFileSync(
        script,
        [
          "import { existsSync, readFileSync } from 'node:fs';",
          `import { createNodeEnv } from ${JSON.stringify(source)};`,
          `const env = createNodeEnv(${JSON.stringify(root)}, { useCache: false });`,
          `env.runCommandOnExit({ argv: [process.execPath, 'mark.cjs', 'teardown'], timeoutMs: 10000 });`,
          `const service = await env.startService({ argv: [process.execPath, 'app.cjs', '${port}', 'grandchild'] });`,
          "console.log('started ' + service.pid);",
          // The host exits only once the grandchild has written its pid: a fixed delay lost that race on a loaded CI
          // machine, and so did the file's mere existence (exiting between its creation and its write left it empty).
          how === 'exit'
            ? `const file = ${JSON.stringify(join(root, 'grandchild.pid'))}; const up = setInterval(() => { if (existsSync(file) && readFileSync(file, 'utf8').trim() !== '') { clearInterval(up); process.exit(0); } }, 20);`
            : 'setInterval(() => {}, 1000);',
        ].join('\n'),
      );
      const host = spawn(process.execPath, ['--import', 'tsx', script], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      host.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        host.once('exit', (code, signal) => resolve({ code, signal })),
      );
      await waitForPid(root, 'grandchild.pid', 15_000);
      await waitForPid(root, 'app.pid', 15_000);
      // (On 'exit' the host may already be ending them: it exits as soon as the grandchild is up.)
      if (how !== 'exit') assert.ok(findProcessesIn(root).length >= 2, 'the app and its grandchild run');
      if (how !== 'exit') host.kill(how);
      const { code, signal } = await ended;
      assert.deepEqual(how === 'exit' ? { code, signal } : { signal }, how === 'exit' ? { code: 0, signal: null } : { signal: how });
      assert.match(stdout, /started \d+/);
      assert.ok(await areGoneSoonIn(root), 'the app and its grandchild are gone');
      assert.equal(readFileSync(join(root, 'marks.log'), 'utf8'), 'teardown\n');
    });
  }
});

describe('httpGet', () => {
  it('returns status, headers and a capped body, never follows a redirect, and turns a refused connection into data', async () => {
    const { env } = appFolder();
    const port = await findFreePort();
    const service = await env.startService({ argv: [process.execPath, 'app.cjs', String(port)] });
    try {
      await waitForListening(env, `http://127.0.0.1:${port}/`);
      const page = await env.httpGet(`http://127.0.0.1:${port}/`, { timeoutMs: 2000 });
      assert.ok(page.ok);
      assert.equal(page.status, 200);
      assert.equal(page.headers['x-app-mode'], 'healthy');
      assert.equal(page.body, '<main><h1>Orders</h1></main>');
      const big = await env.httpGet(`http://127.0.0.1:${port}/big`, { timeoutMs: 2000, maxBodyBytes: 1000 });
      assert.ok(big.ok);
      assert.equal(big.body.length, 1000);
      assert.equal(big.bodyTruncated, true);
      const moved = await env.httpGet(`http://127.0.0.1:${port}/moved`, { timeoutMs: 2000 });
      assert.ok(moved.ok);
      assert.equal(moved.status, 302);
      assert.equal(moved.headers.location, 'http://example.invalid/');
    } finally {
      await service.stop();
    }
    const refused = await env.httpGet(`http://127.0.0.1:${port}/`, { timeoutMs: 2000 });
    assert.equal(refused.ok, false);
    assert.match(refused.ok ? '' : refused.error, /ECONNREFUSED/);
    const notHttp = await env.httpGet('file:///etc/passwd', { timeoutMs: 2000 });
    assert.deepEqual(notHttp, { ok: false, error: 'not an http(s) URL: "file:///etc/passwd"' });
  });
});
