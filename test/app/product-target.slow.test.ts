import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProductTarget, type ProductTargetRun } from '../../src/app/product/target.js';
import { createNodeEnv } from '../../src/io/node-env.js';
import { CheckerError } from '../../src/model/diagnostic.js';
import { createRepo } from '../helpers/git-repo.js';
import { areGoneSoonIn, isGoneSoon } from '../helpers/processes.js';
import { findFreePort, MARK_SCRIPT, PRODUCT_APP, waitForFile } from '../helpers/product-app.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const node = process.execPath;

/** A repository with the app, the mark script and `.checker/config.yml` holding `targets` (JSON is YAML). */
function productRepo(targets: Record<string, unknown>, options: { allowCommands?: boolean } = {}) {
  const config = { safety: { allowCommands: options.allowCommands ?? true }, products: { targets } };
  const repo = createRepo({ 'app.cjs': PRODUCT_APP, 'mark.cjs': MARK_SCRIPT, '.checker/config.yml': JSON.stringify(config, null, 2) });
  return { repo, env: createNodeEnv(repo.dir, { useCache: false }) };
}

function target(port: number, mode: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    kind: 'ui',
    setup: { command: `${node} mark.cjs setup` },
    start: { command: `${node} app.cjs ${port} ${mode}` },
    teardown: { command: `${node} mark.cjs teardown` },
    healthcheck: { path: '/health', intervalMs: 100, timeoutMs: 1500 },
    ...extra,
  };
}

function readMarks(dir: string): string[] {
  const file = join(dir, 'marks.log');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
}

function phaseNames(run: ProductTargetRun<unknown>): string[] {
  return run.phases.map((phase) => `${phase.name}:${phase.status}`);
}

function startedPid(run: ProductTargetRun<unknown>): number {
  const pid = run.phases.find((phase) => phase.name === 'start')?.pid;
  assert.ok(pid !== undefined, 'the start phase records the pid');
  return pid;
}

describe('runProductTarget', () => {
  it('healthy: setup, start, health, the workflows against the base URL, stop, teardown; nothing left running', async () => {
    const port = await findFreePort();
    const { repo, env } = productRepo({ web: target(port, 'healthy') });
    const run = await runProductTarget(env, { target: 'web', confirmed: true }, async (context) => {
      const page = await env.httpGet(`${context.baseUrl}/orders`, { timeoutMs: 2000 });
      await env.writeArtifact(`${context.artifactFolder}/page.html`, page.ok ? page.body : 'none');
      return { status: page.ok ? page.status : 0, runFolder: context.runFolder, runId: context.runId };
    });
    assert.equal(run.status, 'passed');
    assert.equal(run.failure, undefined);
    assert.deepEqual(phaseNames(run), [
      'setup:passed',
      'start:passed',
      'health:passed',
      'workflows:passed',
      'stop:passed',
      'teardown:passed',
    ]);
    assert.equal(run.result?.status, 200);
    assert.equal(run.runFolder, `.checker/local/product-runs/${run.runId}`);
    assert.equal(run.result?.runId, run.runId);
    assert.equal(readFileSync(join(repo.dir, run.runFolder, 'page.html'), 'utf8'), '<main><h1>Orders</h1></main>');
    assert.equal(run.result?.runFolder, join(repo.dir, run.runFolder));
    assert.deepEqual(readMarks(repo.dir), ['setup', 'teardown']);
    assert.ok(await isGoneSoon(startedPid(run)));
    assert.match(
      run.phases.find((phase) => phase.name === 'health')?.reason ?? '',
      new RegExp(`GET http://127.0.0.1:${port}/health answered 200`),
    );
  });

  it('a start that exits at once is an environment-failure with its exit code and stderr; teardown still runs', async () => {
    const port = await findFreePort();
    const { repo, env } = productRepo({ web: target(port, 'exit') });
    let ran = false;
    const run = await runProductTarget(env, { target: 'web', confirmed: true }, async () => {
      ran = true;
    });
    assert.equal(ran, false, 'the workflows do not run');
    assert.equal(run.status, 'failed');
    assert.equal(run.failure?.classification, 'environment-failure');
    assert.equal(run.failure?.phase, 'start');
    assert.match(run.failure?.evidence.join('\n') ?? '', /the app exited 3 before GET/);
    assert.match(run.failure?.evidence.join('\n') ?? '', /its last stderr line: app: listen EADDRINUSE/);
    assert.deepEqual(phaseNames(run), ['setup:passed', 'start:passed', 'health:failed', 'stop:passed', 'teardown:passed']);
    assert.deepEqual(readMarks(repo.dir), ['setup', 'teardown']);
  });

  it('an app that answers 503 past the 1.5 s healthcheck is an environment-failure naming the last status; it is killed', async () => {
    const port = await findFreePort();
    const { repo, env } = productRepo({ web: target(port, 'unhealthy') });
    const run = await runProductTarget(env, { target: 'web', confirmed: true }, async () => 'ran');
    assert.equal(run.result, undefined);
    assert.equal(run.failure?.classification, 'environment-failure');
    assert.equal(run.failure?.phase, 'health');
    const health = run.phases.find((phase) => phase.name === 'health');
    assert.equal(health?.lastStatus, 503);
    assert.ok((health?.attempts ?? 0) >= 3, 'it polled more than once');
    // It waited the healthcheck out (a poll that never ends is the test runner's timeout to catch, not a bound here).
    assert.ok((health?.durationMs ?? 0) >= 1400);
    assert.match(run.failure?.message ?? '', /did not answer a 2xx or 3xx status within \d+ ms .*the last answer was 503/);
    assert.ok(await isGoneSoon(startedPid(run)));
    assert.deepEqual(readMarks(repo.dir), ['setup', 'teardown']);
  });

  it('an app that never listens is an environment-failure naming the connection error', async () => {
    const port = await findFreePort();
    const { env } = productRepo({ web: target(port, 'silent') });
    const run = await runProductTarget(env, { target: 'web', confirmed: true }, async () => 'ran');
    assert.equal(run.failure?.phase, 'health');
    assert.match(run.failure?.evidence[0] ?? '', /the last attempt got no answer \(ECONNREFUSED/);
    assert.ok(await isGoneSoon(startedPid(run)));
  });

  it('expectStatus is the one healthy status: a 200 does not pass a healthcheck that expects 204', async () => {
    const port = await findFreePort();
    // Long enough for the app to start listening on a busy machine: until it does, the last attempt gets no answer.
    const healthcheck = { path: '/', intervalMs: 100, timeoutMs: 5000, expectStatus: 204 };
    const { env } = productRepo({ web: target(port, 'healthy', { healthcheck }) });
    const run = await runProductTarget(env, { target: 'web', confirmed: true }, async () => 'ran');
    assert.equal(run.failure?.phase, 'health');
    assert.match(run.failure?.message ?? '', /did not answer status 204 within \d+ ms .*the last answer was 200/);
  });

  it('a failing setup starts nothing and is an environment-failure; teardown still runs', async () => {
    const port = await findFreePort();
    const { repo, env } = productRepo({ web: target(port, 'healthy', { setup: { command: node, args: ['-e', 'process.exit(4)'] } }) });
    const run = await runProductTarget(env, { target: 'web', confirmed: true }, async () => 'ran');
    assert.deepEqual(phaseNames(run), ['setup:failed', 'teardown:passed']);
    assert.equal(run.failure?.phase, 'setup');
    assert.match(run.failure?.evidence[0] ?? '', /exited 4/);
    assert.equal(existsSync(join(repo.dir, 'app.pid')), false, 'the app never started');
  });

  it('workflows that throw: the app is stopped, teardown runs, and the error is rethrown', async () => {
    const port = await findFreePort();
    const { repo, env } = productRepo({ web: target(port, 'grandchild') });
    await assert.rejects(
      runProductTarget(env, { target: 'web', confirmed: true }, async () => {
        await waitForFile(join(repo.dir, 'grandchild.pid'));
        throw new Error('browser crashed');
      }),
      /browser crashed/,
    );
    assert.deepEqual(readMarks(repo.dir), ['setup', 'teardown']);
    // Found by their working folder: in a pid namespace the pids they wrote are not the ones this test sees.
    assert.ok(await areGoneSoonIn(repo.dir), 'the app and its grandchild are gone');
  });

  for (const gate of [
    { confirmed: false, allowCommands: true, missing: /execution was not requested/ },
    { confirmed: true, allowCommands: false, missing: /safety.allowCommands is not true/ },
  ]) {
    it(`gate closed (${gate.confirmed ? 'allowCommands false' : 'not requested'}): nothing is spawned or written`, async () => {
      const port = await findFreePort();
      const { repo, env } = productRepo({ web: target(port, 'healthy') }, { allowCommands: gate.allowCommands });
      writeFileSync(join(repo.dir, 'marks.log'), 'canary\n');
      let ran = false;
      const run = await runProductTarget(env, { target: 'web', confirmed: gate.confirmed }, async () => {
        ran = true;
      });
      assert.equal(ran, false);
      assert.equal(run.status, 'not-run');
      assert.deepEqual(run.phases, []);
      assert.equal(run.gate.open, false);
      assert.match(run.gate.explanation, gate.missing);
      assert.equal(readFileSync(join(repo.dir, 'marks.log'), 'utf8'), 'canary\n', 'the canary is untouched');
      assert.equal(existsSync(join(repo.dir, 'app.pid')), false);
      assert.equal(existsSync(join(repo.dir, '.checker/local/product-runs')), false);
    });
  }

  it('an unknown target is product/unknown-target naming the configured ones', async () => {
    const { env } = productRepo({ web: target(1, 'healthy'), api: target(2, 'healthy') });
    await assert.rejects(
      runProductTarget(env, { target: 'shop', confirmed: true }, async () => undefined),
      (error: unknown) =>
        error instanceof CheckerError && error.code === 'product/unknown-target' && /configured: api, web/.test(error.message),
    );
  });

  it('a start command with shell syntax is refused before anything runs', async () => {
    const { repo, env } = productRepo({ web: target(1, 'healthy', { start: { command: 'node app.cjs && rm -rf /' } }) });
    await assert.rejects(
      runProductTarget(env, { target: 'web', confirmed: true }, async () => undefined),
      (error: unknown) => error instanceof CheckerError && error.code === 'product/invalid-command',
    );
    assert.deepEqual(readMarks(repo.dir), []);
  });

  it('Ctrl-C during the workflows kills the app and its grandchild and still runs teardown', async () => {
    const port = await findFreePort();
    const { repo } = productRepo({ web: target(port, 'grandchild') });
    const script = join(repo.dir, 'host.mjs');
    const imports = {
      env: fileURLToPath(new URL('../../src/io/node-env.ts', import.meta.url)),
      target: fileURLToPath(new URL('../../src/app/product/target.ts', import.meta.url)),
    };
    writeFileSync(
      script,
      [
        `import { createNodeEnv } from ${JSON.stringify(imports.env)};`,
        `import { runProductTarget } from ${JSON.stringify(imports.target)};`,
        `const env = createNodeEnv(${JSON.stringify(repo.dir)}, { useCache: false });`,
        "await runProductTarget(env, { target: 'web', confirmed: true }, async (context) => {",
        "  console.log('up ' + context.baseUrl);",
        '  await new Promise(() => setInterval(() => {}, 1000));',
        '});',
      ].join('\n'),
    );
    const host = spawn(node, ['--import', 'tsx', script], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    const ended = new Promise<NodeJS.Signals | null>((resolve) => host.once('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      let stdout = '';
      host.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('up http://')) resolve();
      });
      host.once('exit', () => reject(new Error(`the host ended before the workflows: ${stdout}`)));
    });
    await waitForFile(join(repo.dir, 'grandchild.pid'));
    host.kill('SIGINT');
    assert.equal(await ended, 'SIGINT');
    assert.ok(await areGoneSoonIn(repo.dir), 'the app and its grandchild are gone');
    assert.deepEqual(readMarks(repo.dir), ['setup', 'teardown']);
  });
});
