import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DifferentialReport } from '../../src/model/differential.js';
import { cliArgv, projectRoot, spawnCliAsync } from '../helpers/cli.js';
import { createRepo, makeTempDir } from '../helpers/git-repo.js';
import { areGoneSoon, findProcesses, waitFor, whatOutlives } from '../helpers/processes.js';

const isLinuxRoot = process.platform === 'linux' && process.getuid?.() === 0;

/**
 * `kill -9` of `checker differential` while a check runs on the base worktree: nothing of checker can clean up. The
 * check must not outlive it (its pid namespace dies with checker), and the next run must remove the worktree at once,
 * since its owner is dead, not an hour later: test runners that search the repository would otherwise run its copy.
 */
/** The process-group records in `folder`, name and text, for a failure message. */
function readRecords(folder: string): string {
  if (!existsSync(folder)) return 'no folder';
  const names = readdirSync(folder);
  return names.length === 0 ? 'none' : names.map((name) => `${name}: ${readFileSync(join(folder, name), 'utf8').trim()}`).join(' | ');
}

describe('checker differential killed with SIGKILL mid-check', () => {
  const outside = makeTempDir('checker-differential-orphans-');
  after(() => rmSync(outside, { recursive: true, force: true }));

  /** A repository whose one check sleeps on base unless `stop` exists, and a `checker differential` killed with SIGKILL while it runs. */
  const killMidCheck = async (env: NodeJS.ProcessEnv) => {
    const token = `checker-orphan-${randomBytes(4).toString('hex')}`;
    const marker = join(outside, `${token}.started`);
    const stop = join(outside, `${token}.stop`);
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
    const cleanup = (): void => {
      for (const pid of findProcesses(token)) process.kill(pid, 'SIGKILL');
      repo.cleanup();
    };
    const worktreesDir = join(repo.dir, '.checker', 'local', 'worktrees');
    repo.write({ 'src/orders.mjs': 'export const orders = [1];\n' });
    const cli = spawn(process.execPath, [...cliArgv(), 'differential', '--cwd', repo.dir, '--all'], {
      cwd: projectRoot,
      stdio: 'ignore',
      env: { ...process.env, ...env },
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => cli.once('exit', (_code, signal) => resolve(signal)));
    if (!(await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8').endsWith('\n'), 60_000))) {
      cli.kill('SIGKILL');
      cleanup();
      assert.fail('the check never started');
    }
    const worktree = readFileSync(marker, 'utf8').trim();
    if (env.CHECKER_CONTAINMENT === 'off') {
      // checker records the group right after spawn, but a loaded machine can run the check (and this test) first:
      // kill it only once the record the next run relies on is written, as a user's kill -9 almost always is.
      const records = join(repo.dir, '.checker', 'local', 'process-groups');
      assert.ok(await waitFor(() => existsSync(records) && readdirSync(records).length > 0, 30_000), 'the group of the check was recorded');
    }
    cli.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');
    return { repo, token, stop, worktree, worktreesDir, cleanup };
  };

  /** The next run, once the check has been told to pass: the stale worktree must be gone and the check compared. */
  const runAgain = async (left: Awaited<ReturnType<typeof killMidCheck>>): Promise<DifferentialReport> => {
    writeFileSync(left.stop, '');
    const next = await spawnCliAsync(['differential', '--cwd', left.repo.dir, '--all', '--format', 'json']);
    const report = JSON.parse(next.stdout) as DifferentialReport;
    assert.equal(existsSync(left.worktree), false, 'the next run removed the dead run’s worktree');
    assert.deepEqual(readdirSync(left.worktreesDir), []);
    const stale = report.limitations.find((item) => item.code === 'differential/stale-worktrees');
    assert.ok(stale?.message.includes(left.worktree.split('/').pop() ?? '?'), JSON.stringify(report.limitations));
    assert.deepEqual(
      report.checks.map((check) => [check.id, check.verdict]),
      [['sleepy', 'passing']],
    );
    return report;
  };

  it('the orphan check does not survive, and the next run removes the worktree it left at once', async (t) => {
    const left = await killMidCheck({});
    try {
      assert.ok(left.worktree.startsWith(left.worktreesDir), `the check ran in a base worktree (${left.worktree})`);
      assert.ok(existsSync(left.worktree), 'the killed run could not remove its worktree');
      const gone = await areGoneSoon(left.token);
      if (isLinuxRoot) assert.equal(gone, true, 'the check did not outlive the killed checker');
      else if (!gone) t.diagnostic('no pid namespace here: the orphan check outlived checker until it was killed by this test');
      const report = await runAgain(left);
      const containment = report.checks[0]?.base[0]?.containment;
      if (isLinuxRoot) assert.equal(containment?.mode, 'pid-namespace', JSON.stringify(containment));
      else assert.ok(containment !== undefined, 'each run says how its processes were contained');
    } finally {
      left.cleanup();
    }
  });

  it('process group only (CHECKER_CONTAINMENT=off): the orphan outlives checker, and the next run kills it by its record', async () => {
    const left = await killMidCheck({ CHECKER_CONTAINMENT: 'off' });
    try {
      assert.ok(findProcesses(left.token).length > 0, 'nothing could kill the check when checker was killed');
      const records = join(left.repo.dir, '.checker', 'local', 'process-groups');
      const before = readRecords(records);
      await runAgain(left);
      const outlived = await whatOutlives(left.token);
      // On a failure, the group records before and after the next run tell whether it saw the orphan's record at all.
      assert.equal(
        outlived,
        undefined,
        `the next run killed the orphan (owner dead, same leader); records before: ${before}; after: ${readRecords(records)}`,
      );
    } finally {
      left.cleanup();
    }
  });
});
