import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DifferentialReport } from '../../src/model/differential.js';
import { cliArgv, projectRoot, spawnCliAsync } from '../helpers/cli.js';
import { createRepo, makeTempDir } from '../helpers/git-repo.js';
import { areGoneSoon, findProcesses, waitFor } from '../helpers/processes.js';

const isLinuxRoot = process.platform === 'linux' && process.getuid?.() === 0;

/**
 * `kill -9` of `checker differential` while a check runs on the base worktree: nothing of checker can clean up. The
 * check must not outlive it (its pid namespace dies with checker), and the next run must remove the worktree at once,
 * since its owner is dead, not an hour later: test runners that search the repository would otherwise run its copy.
 */
describe('checker differential killed with SIGKILL mid-check', () => {
  const outside = makeTempDir('checker-differential-orphans-');
  after(() => rmSync(outside, { recursive: true, force: true }));

  it('the orphan check does not survive, and the next run removes the worktree it left at once', async (t) => {
    const token = `checker-orphan-${randomBytes(4).toString('hex')}`;
    const marker = join(outside, 'started');
    const stop = join(outside, 'stop');
    const script = `if [ -f "$2" ]; then exit 0; fi; pwd > "$1"; sleep 600; :`;
    const repo = createRepo({
      'src/orders.mjs': 'export const orders = [];\n',
      '.checker/config.yml': [
        'safety:',
        '  allowCommands: true',
        'checks:',
        '  sleepy:',
        `    argv: [sh, -c, ${JSON.stringify(script)}, ${JSON.stringify(`${token}-check`)}, ${JSON.stringify(marker)}, ${JSON.stringify(stop)}]`,
        '',
      ].join('\n'),
    });
    const worktreesDir = join(repo.dir, '.checker', 'local', 'worktrees');
    try {
      repo.write({ 'src/orders.mjs': 'export const orders = [1];\n' });
      const cli = spawn(process.execPath, [...cliArgv(), 'differential', '--cwd', repo.dir, '--all'], {
        cwd: projectRoot,
        stdio: 'ignore',
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => cli.once('exit', (_code, signal) => resolve(signal)));
      assert.ok(await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8').endsWith('\n'), 60_000), 'the check started');
      const worktree = readFileSync(marker, 'utf8').trim();
      assert.ok(worktree.startsWith(worktreesDir), `the check runs in a base worktree (${worktree})`);
      cli.kill('SIGKILL');
      assert.equal(await exited, 'SIGKILL');
      assert.ok(existsSync(worktree), 'the killed run could not remove its worktree');

      const gone = await areGoneSoon(token);
      if (isLinuxRoot) assert.equal(gone, true, 'the check did not outlive the killed checker');
      else if (!gone) t.diagnostic('no pid namespace here: the orphan check outlived checker until it was killed by this test');

      writeFileSync(stop, '');
      const next = await spawnCliAsync(['differential', '--cwd', repo.dir, '--all', '--format', 'json']);
      const report = JSON.parse(next.stdout) as DifferentialReport;
      assert.equal(existsSync(worktree), false, 'the next run removed the dead run’s worktree');
      assert.deepEqual(readdirSync(worktreesDir), []);
      const stale = report.limitations.find((item) => item.code === 'differential/stale-worktrees');
      assert.ok(stale?.message.includes(worktree.split('/').pop() ?? '?'), JSON.stringify(report.limitations));
      assert.deepEqual(
        report.checks.map((check) => [check.id, check.verdict]),
        [['sleepy', 'passing']],
      );
      const containment = report.checks[0]?.base[0]?.containment;
      if (isLinuxRoot) assert.equal(containment?.mode, 'pid-namespace', JSON.stringify(containment));
      else assert.ok(containment !== undefined, 'each run says how its processes were contained');
    } finally {
      for (const pid of findProcesses(token)) process.kill(pid, 'SIGKILL');
      repo.cleanup();
    }
  });
});
