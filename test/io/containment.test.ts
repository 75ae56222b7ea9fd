import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { runCommand } from '../../src/io/run-command.js';
import type { CommandRun, CommandSpec } from '../../src/model/command.js';
import { makeTempDir } from '../helpers/git-repo.js';
import { areGoneSoon, findProcesses, waitFor } from '../helpers/processes.js';

const isLinuxRoot = process.platform === 'linux' && process.getuid?.() === 0;
const newToken = (label: string): string => `checker-${label}-${randomBytes(4).toString('hex')}`;

describe('containment: a check that leaves its process group', () => {
  test('a setsid grandchild that would write a canary later is killed at the timeout; the canary never appears', async () => {
    const root = makeTempDir('checker-contain-');
    const token = newToken('escape');
    const started = join(root, 'escapee-started');
    const canary = join(root, 'canary');
    // The escapee leaves the group and session (setsid), says it started, and writes the canary 20 s later; the check
    // waits until it started, then sleeps past its 3 s timeout.
    const script = [
      `setsid sh -c 'echo > "$1"; sleep 20; echo > "$2"; :' "$0"-escapee "$1" "$2" &`,
      'while [ ! -f "$1" ]; do sleep 0.05; done',
      'sleep 600; :',
    ].join('\n');
    try {
      const run = await runCommand(root, { argv: ['sh', '-c', script, `${token}-check`, started, canary], timeoutMs: 3000 });
      assert.equal(run.timedOut, true);
      assert.ok(existsSync(started), 'the escapee started before the timeout');
      if (!isLinuxRoot && run.containment?.mode !== 'pid-namespace') {
        // Without a namespace the escape is not contained: the report must say so, and why.
        assert.equal(run.containment?.mode, 'process-group');
        assert.ok((run.containment?.detail ?? '').length > 0);
        return;
      }
      assert.equal(await areGoneSoon(token), true, 'no process of the check is left, the escapee included');
      // Whatever is gone writes nothing; a last look after a short wait, in case a write was under way.
      assert.equal(await waitFor(() => existsSync(canary), 500), false, 'the canary never appears');
      assert.equal(run.containment?.mode, 'pid-namespace', JSON.stringify(run.containment));
    } finally {
      for (const pid of findProcesses(token)) process.kill(pid, 'SIGKILL');
    }
  });

  test('turned off (CHECKER_CONTAINMENT=off, or the runner option): process group only, and the run says why', async () => {
    const root = makeTempDir('checker-contain-');
    const run = await runCommand(root, { argv: ['sh', '-c', 'exit 0'], timeoutMs: 10_000 }, { containment: 'off' });
    assert.equal(run.exitCode, 0);
    assert.deepEqual(run.containment, { mode: 'process-group', detail: 'containment turned off (CHECKER_CONTAINMENT=off)' });
  });

  test('the escapee of a normal exit is gone with the check too', async () => {
    const root = makeTempDir('checker-contain-');
    const token = newToken('leaver');
    const script = `setsid sh -c 'sleep 600; :' "$0"-escapee & sleep 0.2; :`;
    try {
      const run = await runCommand(root, { argv: ['sh', '-c', script, `${token}-check`], timeoutMs: 10_000 });
      assert.equal(run.exitCode, 0);
      if (run.containment?.mode !== 'pid-namespace') return;
      assert.equal(await areGoneSoon(token), true, 'the escapee is gone');
    } finally {
      for (const pid of findProcesses(token)) process.kill(pid, 'SIGKILL');
      await sleep(0);
    }
  });
});

/** What a command sees of itself: cwd, environment, arguments, open descriptors, stdin, and whether /proc/self is itself. */
const SELF_REPORT = [
  "const fs = require('node:fs');",
  'const stdin = fs.readFileSync(0, "utf8");',
  'const fds = fs.readdirSync("/proc/self/fd").map(Number).sort((a, b) => a - b);',
  'const procPid = Number(fs.readlinkSync("/proc/self"));',
  'console.log(JSON.stringify({ cwd: process.cwd(), env: process.env, argv: process.argv.slice(1), fds, stdin, procIsSelf: procPid === process.pid }));',
  'console.error("to stderr");',
  'const [how, value] = process.argv.slice(1);',
  'if (how === "exit") process.exitCode = Number(value);',
  'if (how === "signal") process.kill(process.pid, value);',
].join('\n');

describe('containment changes nothing the command can see or report', { skip: process.platform !== 'linux' }, () => {
  const both = async (root: string, spec: CommandSpec): Promise<{ contained: CommandRun; plain: CommandRun }> => {
    const [contained, plain] = await Promise.all([runCommand(root, spec), runCommand(root, spec, { containment: 'off' })]);
    return { contained, plain };
  };
  const seen = (
    run: CommandRun,
  ): { cwd: string; env: Record<string, string>; argv: string[]; fds: number[]; stdin: string; procIsSelf: boolean } =>
    JSON.parse(run.stdout.head);

  test('exit code, stdout, stderr, cwd, environment, arguments, stdin and open descriptors are the same; /proc/self is itself', async () => {
    const root = makeTempDir('checker-contain-');
    const { contained, plain } = await both(root, {
      argv: [process.execPath, '-e', SELF_REPORT, 'exit', '7', '$HOME; `id`', '--flag'],
      timeoutMs: 20_000,
      env: { CHECKER_RUN_VALUE: 'a b', NODE_OPTIONS: '--no-warnings' },
      stdin: 'some input\n',
    });
    if (isLinuxRoot) assert.equal(contained.containment?.mode, 'pid-namespace');
    assert.equal(plain.containment?.mode, 'process-group');
    for (const run of [contained, plain]) {
      assert.equal(run.exitCode, 7);
      assert.equal(run.signal, null);
      assert.equal(run.stderr.head, 'to stderr\n');
    }
    // A command in a process group alone carries the token of its pending record (src/io/orphan-groups.ts), a
    // different one per run: the one difference, left out of the comparison.
    const withoutToken = (run: CommandRun): ReturnType<typeof seen> => {
      const { CHECKER_GROUP_TOKEN: _token, ...env } = seen(run).env;
      return { ...seen(run), env };
    };
    assert.match(seen(plain).env.CHECKER_GROUP_TOKEN ?? '', /^[0-9a-f]{24}$/);
    assert.deepEqual(withoutToken(contained), withoutToken(plain));
    assert.equal(seen(contained).cwd, realpathSync(root));
    assert.equal(seen(contained).stdin, 'some input\n');
    assert.equal(seen(contained).procIsSelf, true);
  });

  test('a command that kills itself with a signal reports that signal (as pid 1 of its namespace it would ignore it)', async () => {
    const root = makeTempDir('checker-contain-');
    for (const signal of ['SIGTERM', 'SIGSEGV', 'SIGINT'] as const) {
      const { contained, plain } = await both(root, { argv: [process.execPath, '-e', SELF_REPORT, 'signal', signal], timeoutMs: 20_000 });
      for (const run of [contained, plain]) assert.deepEqual([run.exitCode, run.signal, run.timedOut], [null, signal, false], signal);
    }
  });

  test('a program that is missing or not executable: the same spawnError, and nothing ran', async () => {
    const root = makeTempDir('checker-contain-');
    writeFileSync(join(root, 'script.sh'), 'echo hi\n', { mode: 0o644 });
    for (const [argv, message] of [
      [['checker-no-such-program-zz'], 'cannot start "checker-no-such-program-zz": not found'],
      [['./script.sh'], 'cannot start "./script.sh": permission denied'],
    ] as const) {
      const { contained, plain } = await both(root, { argv, timeoutMs: 10_000 });
      for (const run of [contained, plain]) {
        assert.equal(run.spawnError, message);
        assert.deepEqual([run.exitCode, run.signal, run.stdout.bytes], [null, null, 0]);
      }
    }
  });
});
