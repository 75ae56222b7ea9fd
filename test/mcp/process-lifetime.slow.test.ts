import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cliArgv } from '../helpers/cli.js';
import { createRepo, makeTempDir } from '../helpers/git-repo.js';
import { areGoneSoon, findProcesses, waitFor, whatOutlives } from '../helpers/processes.js';
import { initialize, startStdioSession, type StdioSession, textOf } from './helpers/stdio-session.js';

const spinServer = fileURLToPath(new URL('./fixtures/spin-server.mjs', import.meta.url));

const isLinuxRoot = process.platform === 'linux' && process.getuid?.() === 0;

/**
 * A check started through `execute_configured_checks` runs in the server's tool worker (a thread): its processes must
 * still end with the server, whether the client closes stdin and then sends SIGTERM (what MCP clients do on
 * shutdown), or the server is killed outright.
 */
describe('checker mcp: the processes of a running check end with the server', () => {
  const outside = makeTempDir('checker-mcp-lifetime-');
  after(() => rmSync(outside, { recursive: true, force: true }));

  /** Starts a server whose one check (and its background grandchild) sleeps, and returns once both are running. */
  const startSleepingCheck = async (
    env: NodeJS.ProcessEnv = {},
  ): Promise<{ session: StdioSession; token: string; cleanup: () => void }> => {
    const token = `checker-mcp-${randomBytes(4).toString('hex')}`;
    const marker = join(outside, `${token}.started`);
    const script = `sh -c 'sleep 600; :' "$0"-grandchild & echo > "$1"; wait; :`;
    const repo = createRepo({
      'src/orders.ts': 'export const orders = [];\n',
      '.checker/config.yml': [
        'safety:',
        '  allowCommands: true',
        'checks:',
        '  sleepy:',
        `    argv: [sh, -c, ${JSON.stringify(script)}, ${JSON.stringify(`${token}-check`)}, ${JSON.stringify(marker)}]`,
        '    timeoutMs: 600000',
        '',
      ].join('\n'),
    });
    const session = startStdioSession([...cliArgv(), 'mcp', '--cwd', repo.dir], env);
    await initialize(session);
    session.send({
      jsonrpc: '2.0',
      id: 'run',
      method: 'tools/call',
      params: { name: 'execute_configured_checks', arguments: { confirmExecution: true, all: true, format: 'json' } },
    });
    const cleanup = (): void => {
      session.kill();
      for (const pid of findProcesses(token)) process.kill(pid, 'SIGKILL');
      repo.cleanup();
    };
    if (!(await waitFor(() => existsSync(marker), 60_000))) {
      cleanup();
      assert.fail(`the check never started; stderr:\n${session.stderr()}`);
    }
    assert.ok(await waitFor(() => findProcesses(`${token}-check-grandchild`).length === 1, 10_000), 'the grandchild runs');
    return { session, token, cleanup };
  };

  it('client closes stdin, then SIGTERM: the check and its grandchild are gone', async () => {
    const { session, token, cleanup } = await startSleepingCheck();
    try {
      void session.end();
      session.signal('SIGTERM');
      assert.equal((await session.exited).signal, 'SIGTERM');
      assert.equal(await areGoneSoon(token, 30_000), true, 'no process of the check outlived the server');
    } finally {
      cleanup();
    }
  });

  it('with containment turned off (process group only), the protocol thread still kills the worker’s check on SIGTERM', async () => {
    const { session, token, cleanup } = await startSleepingCheck({ CHECKER_CONTAINMENT: 'off' });
    try {
      session.signal('SIGTERM');
      assert.equal((await session.exited).signal, 'SIGTERM');
      const outliving = await whatOutlives(token, 30_000);
      assert.equal(outliving, undefined, `no process of the check outlived the server; server stderr:\n${session.stderr()}`);
    } finally {
      cleanup();
    }
  });

  it('server killed with SIGKILL: with a pid namespace the check dies with it (as root on Linux it must be available)', async (t) => {
    if (process.platform !== 'linux') {
      t.skip('pid namespaces are Linux-only');
      return;
    }
    const { session, token, cleanup } = await startSleepingCheck();
    try {
      session.kill();
      assert.equal((await session.exited).signal, 'SIGKILL');
      const gone = await areGoneSoon(token);
      if (isLinuxRoot) assert.equal(gone, true, 'no process of the check outlived the killed server');
      else if (!gone) t.diagnostic('no pid namespace here: a SIGKILLed server leaves the check running (process group only)');
    } finally {
      cleanup();
    }
  });

  it('a call past its deadline: the worker is replaced, and the protocol thread ends the check it started and removes its worktree', async () => {
    const token = `checker-mcp-${randomBytes(4).toString('hex')}`;
    const started = join(outside, `${token}.started`);
    const repo = createRepo({ 'src/orders.ts': 'export const orders = [];\n' });
    // Process group only: the protocol thread's kill is then the only one (a namespace would also end with the thread).
    const session = startStdioSession(
      [...(process.env.CHECKER_TEST_CLI === 'dist' ? [] : ['--import', 'tsx']), spinServer, repo.dir, '10000'],
      { CHECKER_CONTAINMENT: 'off' },
    );
    const worktree = join(repo.dir, '.checker', 'local', 'worktrees', 'held');
    try {
      await initialize(session);
      const script = `sh -c 'sleep 600; :' "$0"-grandchild & echo > "$1"; wait; :`;
      session.send({
        jsonrpc: '2.0',
        id: 'hold',
        method: 'tools/call',
        params: { name: 'hold', arguments: { started, argv: ['sh', '-c', script, `${token}-check`, started], worktree: true } },
      });
      assert.ok(await waitFor(() => existsSync(started) && existsSync(worktree), 60_000), 'the command started in a worktree');
      assert.ok(await waitFor(() => findProcesses(`${token}-check-grandchild`).length === 1, 10_000), 'the grandchild runs');
      assert.match(textOf(await session.reply('hold', 60_000)), /^limits\/deadline: hold/);
      assert.equal(await areGoneSoon(token), true, 'the check and its grandchild are gone');
      assert.ok(await waitFor(() => !existsSync(worktree), 10_000), 'the worktree the stopped worker wrote is removed');
      assert.equal(await session.end(), 0);
    } finally {
      session.kill();
      for (const pid of findProcesses(token)) process.kill(pid, 'SIGKILL');
      repo.cleanup();
    }
  });
});
