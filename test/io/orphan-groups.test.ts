import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { killOrphanedGroups, openGroupRecorder } from '../../src/io/orphan-groups.js';
import { childModuleUrl, childNodeArgs } from '../helpers/child-module.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { findProcesses, whatOutlives } from '../helpers/processes.js';

/** A `sleep` leading its own process group, found by `token` in its arguments. */
function startGroup(token: string): number {
  const child = spawn('sh', ['-c', 'sleep 600; :', token], { detached: true, stdio: 'ignore' });
  child.unref();
  assert.ok(child.pid !== undefined, 'sh started');
  return child.pid;
}

/** Runs `body` with a repository and a running group found by its token; skipped off Linux; the group is always ended. */
async function withGroup(t: TestContext, body: (repo: TestRepo, pgid: number, token: string) => Promise<void>): Promise<void> {
  if (process.platform !== 'linux') {
    t.skip('records need /proc for the leader start time');
    return;
  }
  const repo = createRepo({ 'a.txt': 'a\n' });
  const token = `checker-record-${randomBytes(4).toString('hex')}`;
  const pgid = startGroup(token);
  try {
    await body(repo, pgid, token);
  } finally {
    await whatOutlives(token, 0);
    repo.cleanup();
  }
}

describe('process-group records: the fallback that kills what a SIGKILLed checker left running', () => {
  it('a record names the group and the live process that owns it, is kept while that owner lives, and its removal deletes it', (t) =>
    withGroup(t, async (repo, pgid) => {
      const recorder = await openGroupRecorder(repo.dir);
      const remove = recorder.prepare().record(pgid);
      const folder = join(repo.dir, '.checker', 'local', 'process-groups');
      assert.deepEqual(readdirSync(folder), [String(pgid)], 'one record under the group id, no partial or pending file beside it');
      const record = JSON.parse(readFileSync(join(folder, String(pgid)), 'utf8')) as { pgid: number; owner: { pid: number } };
      assert.equal(record.pgid, pgid);
      assert.equal(record.owner.pid, process.pid);
      assert.deepEqual(await killOrphanedGroups(repo.dir), [], 'a live owner’s group is left alone');
      assert.ok(existsSync(join(folder, String(pgid))), 'and its record kept');
      remove();
      assert.deepEqual(readdirSync(folder), []);
    }));

  it('a group recorded by a process that has died is killed by the next call, and its record removed; a partial record is ignored', (t) =>
    withGroup(t, async (repo, pgid, token) => {
      // Another process records the group and exits without removing the record, as a checker killed with SIGKILL does.
      const script = `const { openGroupRecorder } = await import(${JSON.stringify(childModuleUrl('io/orphan-groups'))}); (await openGroupRecorder(process.argv[1])).prepare().record(Number(process.argv[2]));`;
      execFileSync(process.execPath, [...childNodeArgs(), '--input-type=module', '-e', script, repo.dir, String(pgid)]);
      const folder = join(repo.dir, '.checker', 'local', 'process-groups');
      // What a checker killed between writing a record aside and renaming it leaves: never read as a record.
      writeFileSync(join(folder, `.${pgid}.partial`), '');
      assert.equal(findProcesses(token).length, 1, 'the group still runs');
      assert.deepEqual(await killOrphanedGroups(repo.dir), [pgid]);
      assert.equal(await whatOutlives(token), undefined, 'the group was killed');
      assert.deepEqual(readdirSync(folder), [`.${pgid}.partial`]);
    }));

  it('a checker killed between spawning a command and recording it leaves a pending record: the next call finds the group by its token', async (t) => {
    if (process.platform !== 'linux') {
      t.skip('tokens are read from /proc');
      return;
    }
    const repo = createRepo({ 'a.txt': 'a\n' });
    const marker = `checker-pending-${randomBytes(4).toString('hex')}`;
    try {
      // Another process prepares a group (its pending record and token) and dies before recording it.
      const script = `const { openGroupRecorder } = await import(${JSON.stringify(childModuleUrl('io/orphan-groups'))}); process.stdout.write(JSON.stringify((await openGroupRecorder(process.argv[1])).prepare().env));`;
      const env = JSON.parse(
        execFileSync(process.execPath, [...childNodeArgs(), '--input-type=module', '-e', script, repo.dir], { encoding: 'utf8' }),
      ) as Record<string, string>;
      assert.deepEqual(Object.keys(env), ['CHECKER_GROUP_TOKEN']);
      const folder = join(repo.dir, '.checker', 'local', 'process-groups');
      assert.deepEqual(readdirSync(folder), [`pending-${env.CHECKER_GROUP_TOKEN}`]);
      // The command it spawned, carrying the token, still runs in a group of its own; an unrelated group does not carry it.
      const child = spawn('sh', ['-c', 'sleep 600; :', `${marker}-pending`], {
        detached: true,
        stdio: 'ignore',
        env: { ...process.env, ...env },
      });
      child.unref();
      startGroup(`${marker}-other`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(await killOrphanedGroups(repo.dir), [child.pid]);
      assert.equal(await whatOutlives(`${marker}-pending`, 2000), undefined, 'the pending group was killed');
      assert.equal(findProcesses(`${marker}-other`).length, 1, 'the other group still runs');
      assert.deepEqual(readdirSync(folder), []);
    } finally {
      await whatOutlives(marker, 0);
      repo.cleanup();
    }
  });
});
