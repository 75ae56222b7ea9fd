import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { classify, differential } from '../../src/app/differential.js';
import type { ChangeSet } from '../../src/model/change.js';
import type { DifferentialRun } from '../../src/model/differential.js';
import type { Env } from '../../src/model/env.js';
import { getValidator } from '../../src/io/schema.js';
import { createRepo, makeTempDir, type TestRepo } from '../helpers/git-repo.js';
import { memEnv } from '../helpers/memory-env.js';
import { createTestEnv } from '../helpers/test-env.js';

const CHANGE: ChangeSet = {
  base: { ref: 'main', oid: 'a'.repeat(40) },
  head: { ref: 'WORKTREE' },
  files: [{ path: 'src/a.ts', status: 'modified', hunks: [], additions: 1, deletions: 0, binary: false }],
};
const CHECKS = 'checks:\n  unit:\n    command: npm test\n  docs:\n    command: npm run docs\n    paths: ["docs/**"]\n';

describe('differential: the gate (memEnv: createWorktree throws, so any worktree would fail the test)', () => {
  test('safety.allowCommands missing: nothing spawned, no worktree, nothing written; every check not-run with the reason', async () => {
    const env = memEnv({ files: { '.checker/config.yml': CHECKS }, git: { change: CHANGE } });
    const report = await differential(env, { confirmed: true });
    assert.deepEqual(env.commands, []);
    assert.deepEqual([...env.artifacts.keys()], []);
    assert.equal(report.gate.open, false);
    assert.deepEqual(
      report.checks.map((check) => [check.id, check.verdict, check.reason]),
      [
        ['docs', 'not-run', 'the change touches none of its paths (docs/**); --all runs it anyway'],
        ['unit', 'not-run', 'not run: safety.allowCommands is not true (.checker/config.yml)'],
      ],
    );
    assert.deepEqual(report.base, { ref: 'main', oid: 'a'.repeat(40) });
    assert.deepEqual(report.changedPaths, ['src/a.ts']);
    assert.equal(report.recordPath, undefined);
    assert.equal(getValidator('differential-report')(report), true);
  });

  test('allowed in configuration but not requested: nothing spawned, no worktree', async () => {
    const env = memEnv({ files: { '.checker/config.yml': `safety:\n  allowCommands: true\n${CHECKS}` }, git: { change: CHANGE } });
    const report = await differential(env, { confirmed: false, all: true });
    assert.deepEqual(env.commands, []);
    assert.deepEqual(report.worktrees, []);
    assert.equal(report.changedPaths, undefined);
    assert.equal(
      report.checks.find((check) => check.id === 'unit')?.reason,
      'not run: execution was not requested (checker execute, MCP confirmExecution: true)',
    );
  });
});

const run = (status: DifferentialRun['status'], reason = status === 'passed' ? 'exited 0' : 'exited 1'): DifferentialRun => ({
  status,
  reason,
});

describe('differential: classify', () => {
  const cases: [string, DifferentialRun[], DifferentialRun[], string, string?][] = [
    ['pass, pass', [run('passed')], [run('passed')], 'passing'],
    ['fail, fail', [run('failed')], [run('failed')], 'still-failing'],
    ['pass→fail twice', [run('passed'), run('passed')], [run('failed'), run('failed')], 'regression'],
    ['fail→pass twice', [run('failed'), run('failed')], [run('passed'), run('passed')], 'fixed'],
    ['head passes on rerun', [run('passed'), run('passed')], [run('failed'), run('passed')], 'flaky', 'head'],
    ['base fails on rerun', [run('passed'), run('failed')], [run('failed'), run('failed')], 'flaky', 'base'],
    ['both change', [run('passed'), run('failed')], [run('failed'), run('passed')], 'flaky', 'both'],
    ['base timed out', [run('timed-out', 'ran past its 1000 ms timeout')], [run('passed')], 'not-comparable'],
    ['head did not start', [run('passed')], [run('not-started', 'cannot start "x": not found')], 'not-comparable'],
    ['rerun timed out', [run('passed'), run('timed-out')], [run('failed'), run('failed')], 'not-comparable'],
  ];
  for (const [name, base, head, verdict, flakySide] of cases) {
    test(name, () => {
      const result = classify(base, head);
      assert.equal(result.verdict, verdict);
      assert.equal(result.flakySide, flakySide);
    });
  }
  test('a timeout names its side', () => {
    assert.equal(
      classify([run('timed-out', 'ran past its 1000 ms timeout')], [run('passed')]).reason,
      'it timed out on base: ran past its 1000 ms timeout',
    );
  });
});

describe('differential: the base worktree on a real repository', () => {
  let repo: TestRepo;
  let outside: string;
  before(() => {
    outside = makeTempDir('checker-differential-secret-');
    repo = createRepo({
      '.checker/config.yml': 'safety:\n  allowCommands: true\nchecks:\n  look:\n    argv: [node, -e, "0"]\n',
      'bin/run.sh': '#!/bin/sh\nexit 0\n',
      'docs/guide.md': '# guide\n',
    });
    repo.symlink(join(outside, 'secret.txt'), 'leak');
    repo.symlink('../docs/guide.md', 'bin/guide.md');
    repo.symlink('../../..', 'bin/up');
    repo.symlink('.', 'bin/here');
    repo.symlink('here/../..', 'bin/chain');
    chmodSync(join(repo.dir, 'bin/run.sh'), 0o755);
    repo.commit('links');
    mkdirSync(join(repo.dir, 'node_modules/dep'), { recursive: true });
  });
  after(() => {
    repo.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });
  const worktrees = (): string[] => {
    const dir = join(repo.dir, '.checker/local/worktrees');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  test('files keep their executable bit; a symlink inside is written, ones leading outside are not (and are said); node_modules is linked', async () => {
    const env = createTestEnv(repo.dir);
    const seen: Record<string, unknown> = {};
    const spy: Env = {
      ...env,
      runCommand: async (spec) => {
        const cwd = spec.cwd;
        if (cwd !== undefined) {
          seen.exec = (statSync(join(cwd, 'bin/run.sh')).mode & 0o111) !== 0;
          seen.doc = (statSync(join(cwd, 'docs/guide.md')).mode & 0o111) !== 0;
          seen.inside = readlinkSync(join(cwd, 'bin/guide.md'));
          seen.leak = existsSync(join(cwd, 'leak')) || lstatSync(join(cwd, 'leak'), { throwIfNoEntry: false }) !== undefined;
          seen.up = lstatSync(join(cwd, 'bin/up'), { throwIfNoEntry: false }) !== undefined;
          seen.chain = lstatSync(join(cwd, 'bin/chain'), { throwIfNoEntry: false }) !== undefined;
          seen.here = readlinkSync(join(cwd, 'bin/here'));
          seen.nodeModules = readlinkSync(join(cwd, 'node_modules'));
        }
        return env.runCommand(spec);
      },
    };
    const report = await differential(spy, { confirmed: true });
    assert.deepEqual(seen, {
      exec: true,
      doc: false,
      inside: '../docs/guide.md',
      leak: false,
      up: false,
      chain: false,
      here: '.',
      nodeModules: join(repo.dir, 'node_modules'),
    });
    assert.equal(report.checks[0]?.verdict, 'passing');
    const skipped = report.limitations.find((item) => item.code === 'differential/worktree-skipped')?.message ?? '';
    assert.match(
      skipped,
      /leaves out 3 entries: bin\/up \(a symlink to "\.\.\/\.\.\/\.\.", outside the worktree\); leak \(a symlink to ".*secret\.txt", outside the worktree\); bin\/chain \(a symlink to "here\/\.\.\/\.\.", which resolves outside the worktree\)/,
    );
    assert.deepEqual(
      report.worktrees.map((worktree) => [worktree.linkedNodeModules, worktree.removed]),
      [[true, true]],
    );
    assert.equal(existsSync(join(repo.dir, 'node_modules/dep')), true);
    assert.equal(existsSync(join(outside, 'secret.txt')), false);
    assert.deepEqual(worktrees(), []);
  });

  test('a tree past the file or byte cap is written incompletely and says so; removal leaves nothing', async () => {
    const env = createTestEnv(repo.dir);
    const commit = repo.git('rev-parse', 'HEAD');
    const byFiles = await env.createWorktree({ name: 'capped-files', commit, maxFiles: 2, maxBytes: 1 << 20 });
    assert.match(byFiles.incomplete ?? '', /^the tree of [0-9a-f]{12} has more than 2 files; writing stopped at 0 files/);
    assert.equal(byFiles.linkedNodeModules, false);
    const byBytes = await env.createWorktree({ name: 'capped-bytes', commit, maxFiles: 100, maxBytes: 10 });
    assert.match(byBytes.incomplete ?? '', /has more than 10 bytes/);
    assert.deepEqual(await env.removeWorktrees({ names: ['capped-bytes', 'capped-files'] }), ['capped-bytes', 'capped-files']);
    assert.deepEqual(worktrees(), []);
  });

  test('a check that throws: the error reaches the caller and the worktree is removed', async () => {
    const env = createTestEnv(repo.dir);
    const broken: Env = {
      ...env,
      runCommand: async () => {
        throw new Error('runner bug');
      },
    };
    await assert.rejects(differential(broken, { confirmed: true }), /runner bug/);
    assert.deepEqual(worktrees(), []);
  });

  test('a command may run only in the root or a worktree: any other cwd throws', async () => {
    const env = createTestEnv(repo.dir);
    await assert.rejects(env.runCommand({ argv: ['node', '-e', '0'], timeoutMs: 5000, cwd: outside }), { code: 'internal/command-cwd' });
    await assert.rejects(env.runCommand({ argv: ['node', '-e', '0'], timeoutMs: 5000, cwd: 'docs' }), { code: 'internal/command-cwd' });
    assert.equal((await env.runCommand({ argv: ['node', '-e', '0'], timeoutMs: 5000, cwd: '.' })).exitCode, 0);
  });

  test('a worktree older than an hour, left by a killed run, is swept at the start; a young one is left alone', async () => {
    const env = createTestEnv(repo.dir);
    const dir = join(repo.dir, '.checker/local/worktrees');
    mkdirSync(join(dir, 'old-base/src'), { recursive: true });
    mkdirSync(join(dir, 'young-base'), { recursive: true });
    const { utimesSync } = await import('node:fs');
    const hoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(join(dir, 'old-base'), hoursAgo, hoursAgo);
    const report = await differential(env, { confirmed: true });
    assert.deepEqual(readdirSync(dir), ['young-base']);
    assert.match(
      report.limitations.map((item) => item.message).join('\n'),
      /removed 1 worktree a killed run left in \.checker\/local\/worktrees\/ \(old-base\)/,
    );
    rmSync(join(dir, 'young-base'), { recursive: true });
  });
});
