import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliArgv, projectRoot, runCliAsync } from '../helpers/cli.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { SHOP_FILES } from '../helpers/shop-fixture.js';
import { initialize, startStdioSession, textOf } from '../mcp/helpers/stdio-session.js';

const TASK = 'apply the loyalty discount for silver members';
/** Makes every write under `.checker/local/` fail with ENOSPC in the child it is preloaded into. */
const fullDisk = ['--import', fileURLToPath(new URL('../helpers/full-disk.mjs', import.meta.url))];

function runOnFullDisk(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...fullDisk, ...cliArgv(), ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('a full disk under .checker/local/ fails every session operation cleanly and loses nothing', () => {
  let repo: TestRepo;
  let sessionsDir: string;
  before(async () => {
    repo = createRepo(SHOP_FILES);
    sessionsDir = join(repo.dir, '.checker/local/agent-sessions');
    const started = await runCliAsync(['session', 'start', '--cwd', repo.dir, '--session', 's1', '--task', TASK, '--format', 'json']);
    assert.equal(started.code, 0, started.stderr);
  });
  after(() => repo.cleanup());

  for (const command of [
    ['session', 'checkpoint', '--session', 's1', '--kind', 'plan', '--summary', 'change the silver rate'],
    ['session', 'finish', '--session', 's1'],
  ]) {
    it(`${command.slice(0, 2).join(' ')} names the file it could not write, exits 2 and keeps the session`, () => {
      const before = readFileSync(join(sessionsDir, 's1.json'));
      const result = runOnFullDisk([...command, '--cwd', repo.dir]);
      assert.equal(result.code, 2, result.stderr);
      assert.doesNotMatch(result.stderr, /internal error|this is a bug/);
      assert.match(
        result.stderr,
        /^checker: artifact\/write-failed: cannot write \.checker\/local\/agent-sessions\/s1\.json\.lock \(ENOSPC\)/,
      );
      assert.match(result.stderr, /hint: check the permissions and free space of \.checker\/local\//);
      assert.equal(result.stdout, '');
      assert.deepEqual(readFileSync(join(sessionsDir, 's1.json')), before, 'the session file is unchanged');
      assert.deepEqual(readdirSync(sessionsDir), ['s1.json'], 'no lock or temp file is left behind');
    });
  }

  it('the same checkpoint over MCP is an isError result naming the file, and the server keeps serving', async () => {
    const before = readFileSync(join(sessionsDir, 's1.json'));
    const session = startStdioSession([...fullDisk, ...cliArgv(), 'mcp', '--cwd', repo.dir]);
    try {
      await initialize(session);
      session.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'agent_session',
          arguments: { operation: 'checkpoint', sessionId: 's1', checkpointKind: 'plan', summary: 'change the silver rate' },
        },
      });
      const reply = await session.reply(1, 120_000);
      assert.equal(reply.result?.isError, true, JSON.stringify(reply).slice(0, 400));
      assert.match(textOf(reply), /artifact\/write-failed: cannot write \.checker\/local\/agent-sessions\/s1\.json\.lock \(ENOSPC\)/);
      assert.doesNotMatch(textOf(reply), /internal/);
      session.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
      assert.deepEqual((await session.reply(2)).result, {});
      assert.equal(await session.end(), 0);
    } finally {
      session.kill();
    }
    assert.deepEqual(readFileSync(join(sessionsDir, 's1.json')), before);
  });

  it('a checkpoint on the same session still works once there is space again', async () => {
    const result = await runCliAsync([
      'session',
      'checkpoint',
      '--cwd',
      repo.dir,
      '--session',
      's1',
      '--kind',
      'plan',
      '--summary',
      'x',
      '--format',
      'json',
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout) as { checkpoint: { seq: number } }).checkpoint.seq, 1);
  });
});
