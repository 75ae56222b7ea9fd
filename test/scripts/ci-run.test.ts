import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { makeTempDir } from '../helpers/git-repo.js';

/**
 * CI's script (.ci/run) on a copy in a temporary folder, with npm, git, chromium, python3, go and apt-get replaced by
 * stand-ins on PATH that record their arguments: `npm test` and then `npm run test:slow` both run whichever fails, and
 * the script fails when either did.
 */
const ciRun = fileURLToPath(new URL('../../.ci/run', import.meta.url));

function runCi(npmFailsOn: string[]): { status: number | null; stderr: string; calls: string[] } {
  const dir = makeTempDir('checker-ci-run-');
  mkdirSync(join(dir, '.ci'));
  copyFileSync(ciRun, join(dir, '.ci', 'run'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const log = join(dir, 'calls.log');
  writeFileSync(log, '');
  const standIn = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s\\n' "${name} $*" >> "${log}"\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  const failing = npmFailsOn.map((args) => `[ "$*" = "${args}" ] && exit 1`).join('\n');
  standIn('npm', `${failing}\nexit 0`);
  for (const name of ['git', 'chromium', 'python3', 'go']) standIn(name, 'exit 0');
  standIn('apt-get', 'exit 1');
  const result = spawnSync('bash', [join(dir, '.ci', 'run')], {
    encoding: 'utf8',
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir },
  });
  const calls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { status: result.status, stderr: result.stderr, calls };
}

const ALL = ['npm ci --no-audit --no-fund', 'npm test', 'npm run test:slow'];

describe('.ci/run', () => {
  test('installs the lockfile, then runs npm test and the slow tier; passes when both pass', () => {
    const run = runCi([]);
    assert.deepEqual(run.calls, ALL);
    assert.equal(run.status, 0);
    assert.equal(run.stderr, '');
  });

  test('a failing npm test still runs the slow tier, and CI fails', () => {
    const run = runCi(['test']);
    assert.deepEqual(run.calls, ALL);
    assert.equal(run.status, 1);
    assert.equal(run.stderr, 'ci: failed: npm test\n');
  });

  test('a failing slow tier fails CI after a passing npm test; both failing name both', () => {
    const slow = runCi(['run test:slow']);
    assert.deepEqual(slow.calls, ALL);
    assert.equal(slow.status, 1);
    assert.equal(slow.stderr, 'ci: failed: npm run test:slow\n');
    const both = runCi(['test', 'run test:slow']);
    assert.deepEqual(both.calls, ALL);
    assert.equal(both.status, 1);
    assert.equal(both.stderr, 'ci: failed: npm test\nci: failed: npm run test:slow\n');
  });

  test('a failing install stops CI before any test', () => {
    const run = runCi(['ci --no-audit --no-fund']);
    assert.deepEqual(run.calls, ['npm ci --no-audit --no-fund']);
    assert.notEqual(run.status, 0);
  });
});
