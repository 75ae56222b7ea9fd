import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '../helpers/git-repo.js';
import { findProcesses, waitFor, whatOutlives } from '../helpers/processes.js';

const fixture = fileURLToPath(new URL('./fixtures/spawn-in-flight.mjs', import.meta.url));

describe('process groups shared by a worker thread', () => {
  const outside = makeTempDir('checker-process-groups-');
  after(() => rmSync(outside, { recursive: true, force: true }));

  it('a SIGTERM that arrives while the worker is between spawning a group leader and listing it still ends the group', async (t) => {
    if (process.platform === 'win32') {
      t.skip('process groups and SIGTERM handlers are POSIX');
      return;
    }
    const token = `checker-spawn-${randomBytes(4).toString('hex')}`;
    const marker = join(outside, `${token}.spawned`);
    const child = spawn(
      process.execPath,
      [...(process.env.CHECKER_TEST_CLI === 'dist' ? [] : ['--import', 'tsx']), fixture, marker, token, '700'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    try {
      assert.ok(await waitFor(() => existsSync(marker), 30_000), `the worker spawned the leader; stderr:\n${stderr}`);
      assert.ok(await waitFor(() => findProcesses(`${token}-leader`).length === 1, 10_000), 'the leader runs');
      // The worker now stalls for 700 ms before it lists the group: the signal lands in that gap.
      child.kill('SIGTERM');
      assert.equal(await exited, 'SIGTERM', 'the process still ends as the signal says');
      assert.equal(await whatOutlives(token, 5000), undefined, 'the leader’s group was killed');
    } finally {
      child.kill('SIGKILL');
      for (const pid of findProcesses(token)) process.kill(pid, 'SIGKILL');
    }
  });
});
