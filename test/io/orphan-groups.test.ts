import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { killOrphanedGroups, openGroupRecorder } from '../../src/io/orphan-groups.js';
import { childModuleUrl, childNodeArgs } from '../helpers/child-module.js';
import { createRepo } from '../helpers/git-repo.js';
import { findProcesses, whatOutlives } from '../helpers/processes.js';

/** A `sleep` leading its own process group, found by `token` in its arguments. */
function startGroup(token: string): number {
  const child = spawn('sh', ['-c', 'sleep 600; :', token], { detached: true, stdio: 'ignore' });
  child.unref();
  assert.ok(child.pid !== undefined, 'sh started');
  return child.pid;
}

describe('process-group records: the fallback that kills what a SIGKILLed checker left running', () => {
  it('a record names the group and the live process that owns it, is kept while that owner lives, and its removal deletes it', async (t) => {
    if (process.platform !== 'linux') {
      t.skip('records need /proc for the leader start time');
      return;
    }
    const repo = createRepo({ 'a.txt': 'a\n' });
    const token = `checker-record-${randomBytes(4).toString('hex')}`;
    const pgid = startGroup(token);
    try {
      const recorder = await openGroupRecorder(repo.dir);
      const remove = recorder.record(pgid);
      const folder = join(repo.dir, '.checker', 'local', 'process-groups');
      assert.deepEqual(readdirSync(folder), [String(pgid)], 'one record under the group id, no partial file beside it');
      const record = JSON.parse(readFileSync(join(folder, String(pgid)), 'utf8')) as { pgid: number; owner: { pid: number } };
      assert.equal(record.pgid, pgid);
      assert.equal(record.owner.pid, process.pid);
      assert.deepEqual(await killOrphanedGroups(repo.dir), [], 'a live owner’s group is left alone');
      assert.ok(existsSync(join(folder, String(pgid))), 'and its record kept');
      remove();
      assert.deepEqual(readdirSync(folder), []);
    } finally {
      await whatOutlives(token, 0);
      repo.cleanup();
    }
  });

  it('a group recorded by a process that has died is killed by the next call, and its record removed', async (t) => {
    if (process.platform !== 'linux') {
      t.skip('records need /proc for the leader start time');
      return;
    }
    const repo = createRepo({ 'a.txt': 'a\n' });
    const token = `checker-record-${randomBytes(4).toString('hex')}`;
    const pgid = startGroup(token);
    try {
      // Another process records the group and exits without removing the record, as a checker killed with SIGKILL does.
      const script = `const { openGroupRecorder } = await import(${JSON.stringify(childModuleUrl('io/orphan-groups'))}); (await openGroupRecorder(process.argv[1])).record(Number(process.argv[2]));`;
      execFileSync(process.execPath, [...childNodeArgs(), '--input-type=module', '-e', script, repo.dir, String(pgid)]);
      assert.equal(findProcesses(token).length, 1, 'the group still runs');
      assert.deepEqual(await killOrphanedGroups(repo.dir), [pgid]);
      assert.equal(await whatOutlives(token), undefined, 'the group was killed');
      assert.deepEqual(readdirSync(join(repo.dir, '.checker', 'local', 'process-groups')), []);
    } finally {
      repo.cleanup();
    }
  });
});
