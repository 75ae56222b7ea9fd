import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { DifferentialReport } from '../../src/model/differential.js';
import { getValidator } from '../../src/io/schema.js';
import { cliArgv, projectRoot, runCliAsync } from '../helpers/cli.js';
import { createRepo, makeTempDir, type TestRepo } from '../helpers/git-repo.js';
import { areGoneSoonIn } from '../helpers/processes.js';

/**
 * checker differential on a real repository with a real node:test suite. The committed tree (the base) has a working
 * `half`, a broken `double` and a slow script; the working tree (head) breaks `half`, fixes `double` and makes the
 * script quick. `flaky` fails on its second run only, counted in a file outside the repository.
 */
const testFile = (name: string, body: string): string =>
  `import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { ${name} } from '../src/${name}.mjs';\ntest('${name}', () => ${body});\n`;

const BASE = {
  'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', type: 'module' }),
  'src/half.mjs': 'export const half = (n) => n / 2;\n',
  'src/double.mjs': 'export const double = (n) => n * 3;\n',
  'src/sum.mjs': 'export const sum = (a, b) => a + b;\n',
  'test/half.test.mjs': testFile('half', 'assert.equal(half(8), 4)'),
  'test/double.test.mjs': testFile('double', 'assert.equal(double(4), 8)'),
  'test/sum.test.mjs': testFile('sum', 'assert.equal(sum(2, 3), 5)'),
  'test/flaky.test.mjs': [
    "import { test } from 'node:test';",
    "import assert from 'node:assert';",
    "import { existsSync, readFileSync, writeFileSync } from 'node:fs';",
    'const file = process.argv[2];',
    "const run = (existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0) + 1;",
    'writeFileSync(file, String(run));',
    "test('flaky', () => assert.notEqual(run, 2));",
    '',
  ].join('\n'),
  'scripts/slow.mjs': 'setTimeout(() => {}, 60000);\n',
  '.checker/config.yml': 'checks: {}\n',
};

const config = (allow: boolean, checks: Record<string, string[]>, extra = ''): string =>
  [
    `safety:\n  allowCommands: ${allow}`,
    'checks:',
    ...Object.entries(checks).map(([id, argv]) => `  ${id}:\n    argv: [${argv.map((word) => JSON.stringify(word)).join(', ')}]${extra}`),
    '',
  ].join('\n');

const verdicts = (report: DifferentialReport) => Object.fromEntries(report.checks.map((check) => [check.id, check.verdict]));

describe('checker differential compares the configured checks on base and head', () => {
  let repo: TestRepo;
  let outside: string;
  const worktrees = (): string[] => {
    const dir = join(repo.dir, '.checker/local/worktrees');
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  before(() => {
    repo = createRepo(BASE);
    repo.write({
      'src/half.mjs': 'export const half = (n) => n / 3;\n',
      'src/double.mjs': 'export const double = (n) => n * 2;\n',
      'scripts/slow.mjs': 'process.exit(0);\n',
    });
    outside = makeTempDir('checker-differential-outside-');
  });
  after(() => {
    repo.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  it('gate closed: nothing is spawned, no worktree is written, and each check says what is missing', async () => {
    const canary = join(outside, 'canary.txt');
    repo.commitFiles({
      '.checker/config.yml': config(false, {
        canary: [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(canary)}, 'ran')`],
      }),
    });
    const result = await runCliAsync(['differential', '--cwd', repo.dir, '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as DifferentialReport;
    assert.equal(getValidator('differential-report')(report), true);
    assert.equal(report.gate.open, false);
    assert.deepEqual(verdicts(report), { canary: 'not-run' });
    assert.match(
      report.checks[0]?.reason ?? '',
      /^not run: safety\.allowCommands is not true \(\.checker\/config\.yml at base HEAD \([0-9a-f]{7}\)\)$/,
    );
    assert.deepEqual(report.worktrees, []);
    assert.match(result.stderr, /^checker: differential: Nothing ran: closed: safety\.allowCommands is not true/);
    assert.equal(existsSync(canary), false);
    assert.equal(existsSync(join(repo.dir, '.checker/local/worktrees')), false);
    assert.equal(existsSync(join(repo.dir, '.checker/local/differentials')), false);
  });

  it('a planted regression is a regression (exit 1), a fix is fixed, a second-run failure is flaky on head; worktrees gone', async () => {
    const counter = join(outside, 'flaky-count');
    repo.commitFiles({
      '.checker/config.yml': config(true, {
        regress: [process.execPath, '--test', 'test/half.test.mjs'],
        fix: [process.execPath, '--test', 'test/double.test.mjs'],
        flaky: [process.execPath, 'test/flaky.test.mjs', counter],
        steady: [process.execPath, '--test', 'test/sum.test.mjs'],
      }),
    });
    const result = await runCliAsync(['differential', '--cwd', repo.dir, '--format', 'json']);
    assert.equal(result.code, 1, result.stderr);
    const report = JSON.parse(result.stdout) as DifferentialReport;
    assert.equal(getValidator('differential-report')(report), true);
    assert.deepEqual(verdicts(report), { fix: 'fixed', flaky: 'flaky', regress: 'regression', steady: 'passing' });
    const byId = new Map(report.checks.map((check) => [check.id, check]));
    const regress = byId.get('regress');
    assert.deepEqual(
      [regress?.base.map((run) => run.status), regress?.head.map((run) => run.status)],
      [
        ['passed', 'passed'],
        ['failed', 'failed'],
      ],
    );
    assert.match(regress?.head[0]?.stdout?.head ?? '', /not ok 1 - half/);
    assert.ok((regress?.base[0]?.durationMs ?? -1) >= 0);
    assert.equal(byId.get('flaky')?.flakySide, 'head');
    assert.equal(byId.get('flaky')?.reason, 'the outcome changed on rerun: on head it failed, then passed');
    assert.equal(readFileSync(counter, 'utf8'), '4');
    assert.deepEqual(byId.get('steady')?.base.length, 1);
    assert.deepEqual(report.summary, {
      configured: 4,
      compared: 4,
      regressions: 1,
      fixed: 1,
      stillFailing: 0,
      passing: 1,
      flaky: 1,
      notComparable: 0,
      notRun: 0,
    });
    assert.deepEqual(
      report.worktrees.map((worktree) => [worktree.name.replace(report.runId, '<run>'), worktree.removed]),
      [
        ['<run>-base', true],
        ['<run>-base-rerun', true],
      ],
    );
    assert.match(result.stderr, /^checker: differential: 1 regression: regress passed on base and fails on head\.$/m);
    assert.deepEqual(worktrees(), []);
    const record = JSON.parse(readFileSync(join(repo.dir, `.checker/local/differentials/${report.runId}/result.json`), 'utf8'));
    assert.deepEqual(record, report);

    const markdown = await runCliAsync(['differential', '--cwd', repo.dir, '--format', 'markdown']);
    assert.match(markdown.stdout, /^# checker differential\n\n\*\*1 regression: regress passed on base and fails on head\.\*\*/);
    assert.match(markdown.stdout, /```text untrusted-repository-text\n[\s\S]*not ok 1 - half/);
    assert.deepEqual(worktrees(), []);
  });

  it('a fix alone exits 0', async () => {
    repo.commitFiles({ '.checker/config.yml': config(true, { fix: [process.execPath, '--test', 'test/double.test.mjs'] }) });
    const result = await runCliAsync(['differential', '--cwd', repo.dir, '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(verdicts(JSON.parse(result.stdout) as DifferentialReport), { fix: 'fixed' });
    assert.deepEqual(worktrees(), []);
  });

  it('a check that times out on base is not comparable, and its worktree is still removed', async () => {
    // Base sleeps 60 s; head exits at once. The timeout leaves head's node start-up room on a loaded machine (1.5 s did not).
    repo.commitFiles({ '.checker/config.yml': config(true, { slow: [process.execPath, 'scripts/slow.mjs'] }, '\n    timeoutMs: 15000') });
    const result = await runCliAsync(['differential', '--cwd', repo.dir, '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as DifferentialReport;
    const slow = report.checks[0];
    assert.equal(slow?.verdict, 'not-comparable');
    assert.match(slow?.reason ?? '', /^it timed out on base: ran past its 15000 ms timeout/);
    assert.deepEqual([slow?.base[0]?.status, slow?.head[0]?.status, slow?.base.length], ['timed-out', 'passed', 1]);
    assert.equal(report.worktrees[0]?.removed, true);
    assert.match(result.stderr, /not comparable: slow/);
    assert.deepEqual(worktrees(), []);
  });

  it('interrupted (SIGINT) while a check runs on base: the check is killed and the worktree removed', async () => {
    const marker = join(outside, 'sleeper.pid');
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, String(process.pid)); setTimeout(() => {}, 60000)`;
    repo.commitFiles({ '.checker/config.yml': config(true, { sleeper: [process.execPath, '-e', script] }) });
    const child = spawn(process.execPath, [...cliArgv(), 'differential', '--cwd', repo.dir], { cwd: projectRoot, stdio: 'ignore' });
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    const deadline = Date.now() + 60_000;
    while (!existsSync(marker) || readFileSync(marker, 'utf8') === '') {
      assert.ok(Date.now() < deadline, 'the check never started');
      await sleep(50);
    }
    assert.equal(worktrees().length, 1);
    child.kill('SIGINT');
    const { signal } = await closed;
    assert.equal(signal, 'SIGINT');
    // Found by its working folder (the worktree): in a pid namespace the pid it wrote is not the one this test sees.
    assert.equal(await areGoneSoonIn(repo.dir), true);
    assert.deepEqual(worktrees(), []);
  });
});
