import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import fc from 'fast-check';
import { createNodeEnv } from '../../src/io/node-env.js';
import { createExcerptBuffer, runCommand } from '../../src/io/run-command.js';
import type { CommandRun, CommandSpec } from '../../src/model/command.js';
import { makeTempDir } from '../helpers/git-repo.js';
import { areGoneSoon, findProcesses } from '../helpers/processes.js';

const node = process.execPath;

function envIn(root = makeTempDir('checker-run-')) {
  return createNodeEnv(root, { useCache: false });
}

/**
 * A node script, run as `node -e <script> <token>`, that starts a grandchild (stdio as given) carrying `<token>-grandchild`
 * in its arguments and writes `started` into cwd. Processes are found by their token, not by pid: in a pid namespace a
 * process knows itself by another pid than the one this test sees.
 */
function spawningScript(options: { grandchildStdio: string; detached?: boolean; grandchild?: string; afterwards: string }): string {
  const grandchild = JSON.stringify(options.grandchild ?? 'setInterval(() => {}, 1000)');
  return [
    "const { spawn } = require('node:child_process');",
    `const grandchild = spawn(process.execPath, ['-e', ${grandchild}, process.argv[1] + '-grandchild'], { stdio: ${options.grandchildStdio}, detached: ${options.detached === true} });`,
    "require('node:fs').writeFileSync('started', '');",
    options.afterwards,
  ].join('\n');
}

function newToken(): string {
  return `checker-run-${randomBytes(4).toString('hex')}`;
}

/** Kills whatever carries `token` and is still alive, so a failed test leaves nothing behind. */
function killTokened(token: string): void {
  for (const pid of findProcesses(token)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
}

/** A runner that never resolves fails the test here instead of hanging the file (a live grandchild would keep it open). */
async function settleWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`runCommand did not resolve within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

describe('runCommand: exit, output, environment and cwd', () => {
  test('a passing command: exit 0 and its exact stdout and stderr, decoded as UTF-8', async () => {
    const run = await envIn().runCommand({
      argv: [node, '-e', "process.stdout.write('héllo ✓\\nsecond line\\n'); process.stderr.write('a warning\\n')"],
      timeoutMs: 10_000,
    });
    assert.equal(run.exitCode, 0);
    assert.equal(run.signal, null);
    assert.equal(run.timedOut, false);
    assert.equal(run.spawnError, undefined);
    assert.deepEqual(run.stdout, {
      head: 'héllo ✓\nsecond line\n',
      tail: '',
      bytes: Buffer.byteLength('héllo ✓\nsecond line\n'),
      truncated: false,
    });
    assert.deepEqual(run.stderr, { head: 'a warning\n', tail: '', bytes: 10, truncated: false });
    assert.ok(run.durationMs >= 0);
  });

  test('a failing command: its exit code and output, no throw', async () => {
    const run = await envIn().runCommand({
      argv: [node, '-e', "console.log('1 passing'); console.error('1 failing'); process.exitCode = 3"],
      timeoutMs: 10_000,
    });
    assert.equal(run.exitCode, 3);
    assert.equal(run.signal, null);
    assert.equal(run.timedOut, false);
    assert.equal(run.stdout.head, '1 passing\n');
    assert.equal(run.stderr.head, '1 failing\n');
  });

  test('extra env vars reach the child beside the inherited ones, and cwd is the repository root', async () => {
    const root = makeTempDir('checker-run-');
    const run = await envIn(root).runCommand({
      argv: [node, '-e', 'console.log(JSON.stringify([process.cwd(), process.env.CHECKER_RUN_VALUE, typeof process.env.PATH]))'],
      timeoutMs: 10_000,
      env: { CHECKER_RUN_VALUE: 'a b $HOME' },
    });
    assert.deepEqual(JSON.parse(run.stdout.head), [root, 'a b $HOME', 'string']);
  });

  test('the child inherits an allowlist, never the secrets of the shell that started checker (security H29)', async () => {
    const secrets = {
      GITHUB_TOKEN: 'ghp_FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE',
      AWS_SECRET_ACCESS_KEY: 'fake/secret',
      NPM_TOKEN: 'npm_fake',
      OPENAI_API_KEY: 'sk-fake',
    };
    Object.assign(process.env, secrets, { NODE_OPTIONS: '--no-warnings', LC_ALL: 'C.UTF-8' });
    try {
      const run = await envIn().runCommand({
        argv: [node, '-e', 'console.log(JSON.stringify(Object.keys(process.env).sort()))'],
        timeoutMs: 10_000,
        env: { CHECKER_AGENT_BUNDLE_PATH: '/tmp/bundle.md' },
      });
      const keys = JSON.parse(run.stdout.head) as string[];
      for (const name of [...Object.keys(secrets), 'NODE_OPTIONS', 'NODE_TEST_CONTEXT']) assert.equal(keys.includes(name), false, name);
      for (const name of ['PATH', 'LC_ALL', 'CHECKER_AGENT_BUNDLE_PATH']) assert.equal(keys.includes(name), true, name);
    } finally {
      for (const name of [...Object.keys(secrets), 'NODE_OPTIONS', 'LC_ALL']) delete process.env[name];
    }
  });

  test('stdin is closed: a command that reads it sees end of input at once instead of waiting', async () => {
    const run = await envIn().runCommand({
      argv: [
        node,
        '-e',
        "let bytes = 0; process.stdin.on('data', (chunk) => { bytes += chunk.length; }).on('end', () => console.log(`end after ${bytes}`));",
      ],
      timeoutMs: 5000,
    });
    assert.equal(run.timedOut, false);
    assert.equal(run.stdout.head, 'end after 0\n');
  });

  test('no shell: metacharacters in an argument are passed as the literal string', async () => {
    const root = makeTempDir('checker-run-');
    const run = await envIn(root).runCommand({
      argv: ['node', '-e', 'console.log(process.argv[1])', '$HOME && echo hi; touch marker `id` $(id)'],
      timeoutMs: 10_000,
    });
    assert.equal(run.exitCode, 0);
    assert.equal(run.stdout.head, '$HOME && echo hi; touch marker `id` $(id)\n');
    assert.equal(existsSync(join(root, 'marker')), false);
  });
});

describe('runCommand: bounded output', () => {
  const line = (index: number): string => `line ${String(index).padStart(7, '0')}\n`;
  const lines = 80_000;
  const full = Array.from({ length: lines }, (_, index) => line(index)).join('');

  test('1 MB of stdout: every byte counted, the first and last 16 KiB kept exactly, the middle dropped', async () => {
    assert.ok(full.length > 1_000_000);
    const run = await envIn().runCommand({
      argv: [
        node,
        '-e',
        `let out = ''; for (let i = 0; i < ${lines}; i++) out += 'line ' + String(i).padStart(7, '0') + '\\n'; process.stdout.write(out); console.error('done')`,
      ],
      timeoutMs: 20_000,
    });
    assert.equal(run.exitCode, 0);
    assert.equal(run.stdout.bytes, full.length);
    assert.equal(run.stdout.truncated, true);
    assert.equal(run.stdout.head.length, 16 * 1024);
    assert.equal(run.stdout.tail.length, 16 * 1024);
    assert.equal(run.stdout.head, full.slice(0, 16 * 1024));
    assert.equal(run.stdout.tail, full.slice(-16 * 1024));
    assert.deepEqual(run.stderr, { head: 'done\n', tail: '', bytes: 5, truncated: false });
  });

  test('excerptBytes sets the size kept at each end; output within twice that is kept whole', async () => {
    const env = envIn();
    const script = (count: number) => `process.stdout.write('x'.repeat(${count - 1}) + 'y')`;
    const whole = await env.runCommand({ argv: [node, '-e', script(200)], timeoutMs: 10_000, excerptBytes: 100 });
    assert.deepEqual(whole.stdout, { head: `${'x'.repeat(199)}y`, tail: '', bytes: 200, truncated: false });
    const cut = await env.runCommand({ argv: [node, '-e', script(201)], timeoutMs: 10_000, excerptBytes: 100 });
    assert.deepEqual(cut.stdout, { head: 'x'.repeat(100), tail: `${'x'.repeat(99)}y`, bytes: 201, truncated: true });
  });
});

for (const containment of ['auto', 'off'] as const) {
  describe(`runCommand: timeouts and the process group (containment ${containment})`, { concurrency: true }, () => {
    const run = (root: string, spec: CommandSpec): Promise<CommandRun> => runCommand(root, spec, { containment });
    test('a timeout kills the child and its grandchild (the whole group) and says so', async () => {
      const root = makeTempDir('checker-run-');
      const token = newToken();
      try {
        const result = await settleWithin(
          run(root, {
            argv: [node, '-e', spawningScript({ grandchildStdio: "'ignore'", afterwards: 'setInterval(() => {}, 1000);' }), token],
            timeoutMs: 1500,
          }),
          10_000,
        );
        assert.ok(existsSync(join(root, 'started')), 'the script started its grandchild before the timeout');
        assert.equal(result.timedOut, true);
        assert.equal(result.exitCode, null);
        assert.equal(result.signal, 'SIGTERM');
        assert.ok(result.durationMs >= 1500, `took ${result.durationMs} ms`);
        assert.equal(await areGoneSoon(token), true, 'the child and its grandchild are gone');
      } finally {
        killTokened(token);
      }
    });

    test('on timeout the whole group gets SIGTERM first, and what ignores it gets SIGKILL after the grace period', async () => {
      const root = makeTempDir('checker-run-');
      const token = newToken();
      const grandchild = [
        "const fs = require('node:fs');",
        "process.on('SIGTERM', () => { fs.writeFileSync('grandchild-sigterm', ''); process.exit(0); });",
        "fs.writeFileSync('grandchild-ready', '');",
        'setInterval(() => {}, 1000);',
      ].join(' ');
      try {
        const result = await settleWithin(
          run(root, {
            argv: [
              node,
              '-e',
              spawningScript({
                grandchildStdio: "'ignore'",
                grandchild,
                afterwards: "process.on('SIGTERM', () => console.log('ignored')); console.log('ready'); setInterval(() => {}, 1000);",
              }),
              token,
            ],
            timeoutMs: 2000,
          }),
          10_000,
        );
        assert.ok(existsSync(join(root, 'grandchild-ready')), 'the grandchild started before the timeout');
        assert.equal(result.timedOut, true);
        assert.equal(result.signal, 'SIGKILL');
        assert.equal(result.stdout.head, 'ready\nignored\n');
        assert.ok(result.durationMs >= 3900, `took ${result.durationMs} ms`);
        assert.ok(existsSync(join(root, 'grandchild-sigterm')), 'the grandchild got SIGTERM with its parent');
        assert.equal(await areGoneSoon(token), true, 'the child and the grandchild are gone');
      } finally {
        killTokened(token);
      }
    });

    test('a normal exit that leaves a background grandchild: the grandchild is killed too', async () => {
      const root = makeTempDir('checker-run-');
      const token = newToken();
      try {
        const result = await settleWithin(
          run(root, {
            argv: [
              node,
              '-e',
              spawningScript({ grandchildStdio: "'ignore'", afterwards: "grandchild.unref(); console.log('leaving')" }),
              token,
            ],
            timeoutMs: 10_000,
          }),
          10_000,
        );
        assert.equal(result.exitCode, 0);
        assert.equal(result.timedOut, false);
        assert.equal(result.stdout.head, 'leaving\n');
        assert.equal(await areGoneSoon(token), true, 'the grandchild is gone');
      } finally {
        killTokened(token);
      }
    });

    test('a grandchild holding the output pipes open does not hold the run: it is killed and the run ends at once', async () => {
      const root = makeTempDir('checker-run-');
      const token = newToken();
      try {
        const result = await settleWithin(
          run(root, {
            argv: [
              node,
              '-e',
              spawningScript({ grandchildStdio: "'inherit'", afterwards: 'grandchild.unref(); console.log(Date.now())' }),
              token,
            ],
            timeoutMs: 10_000,
          }),
          10_000,
        );
        const ended = Date.now();
        assert.equal(result.exitCode, 0);
        // Measured from the child's last line, not from spawn: start-up time under load must not decide it.
        const waited = ended - Number(result.stdout.head);
        assert.ok(waited < 1500, `the run ended ${waited} ms after the child's last line (the close grace is 2000 ms)`);
        assert.equal(await areGoneSoon(token), true, 'the grandchild is gone');
      } finally {
        killTokened(token);
      }
    });

    test('a grandchild that left the group (its own session) and holds the pipes: the run still ends after a short grace', async () => {
      const root = makeTempDir('checker-run-');
      const token = newToken();
      try {
        const result = await settleWithin(
          run(root, {
            argv: [
              node,
              '-e',
              spawningScript({ grandchildStdio: "'inherit'", detached: true, afterwards: "grandchild.unref(); console.log('leaving')" }),
              token,
            ],
            timeoutMs: 10_000,
          }),
          10_000,
        );
        assert.equal(result.exitCode, 0);
        assert.equal(result.timedOut, false);
        assert.equal(result.stdout.head, 'leaving\n');
        // Only a pid namespace reaches a process that left the group.
        if (result.containment?.mode === 'pid-namespace') assert.equal(await areGoneSoon(token), true, 'the escaped grandchild is gone');
      } finally {
        killTokened(token);
      }
    });
  });
}

describe('runCommand: programs that cannot start', () => {
  const assertNotStarted = (run: CommandRun, pattern: RegExp): void => {
    assert.match(run.spawnError ?? '', pattern);
    assert.equal(run.exitCode, null);
    assert.equal(run.signal, null);
    assert.equal(run.timedOut, false);
    assert.equal(run.stdout.bytes, 0);
  };

  test('a missing program: spawnError names it, no throw', async () => {
    const run = await envIn().runCommand({ argv: ['checker-no-such-program', '--version'], timeoutMs: 10_000 });
    assertNotStarted(run, /^cannot start "checker-no-such-program": not found$/);
  });

  test('a file that is not executable: permission denied', async () => {
    const root = makeTempDir('checker-run-');
    writeFileSync(join(root, 'script.sh'), 'echo hi\n', { mode: 0o644 });
    const run = await envIn(root).runCommand({ argv: ['./script.sh'], timeoutMs: 10_000 });
    assertNotStarted(run, /^cannot start "\.\/script\.sh": permission denied$/);
  });

  test('an empty argv or a NUL byte in an argument: spawnError, no throw', async () => {
    const env = envIn();
    assertNotStarted(await env.runCommand({ argv: [], timeoutMs: 10_000 }), /^cannot start "": /);
    assertNotStarted(await env.runCommand({ argv: [node, '-e', 'a\0b'], timeoutMs: 10_000 }), /^cannot start ".*node": .*null bytes/);
  });
});

describe('createExcerptBuffer', () => {
  test('any chunking of any stream keeps exactly the first and last `limit` bytes, or all of it within 2 × limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.array(fc.uint8Array({ maxLength: 60 }), { maxLength: 12 }), (limit, chunks) => {
        const buffer = createExcerptBuffer(limit);
        for (const chunk of chunks) buffer.push(chunk);
        const all = Buffer.concat(chunks);
        const expected =
          all.length <= 2 * limit
            ? { head: all.toString('utf8'), tail: '', bytes: all.length, truncated: false }
            : {
                head: all.subarray(0, limit).toString('utf8'),
                tail: all.subarray(all.length - limit).toString('utf8'),
                bytes: all.length,
                truncated: true,
              };
        assert.deepEqual(buffer.finish(), expected);
      }),
      { seed: 13, numRuns: 2000 },
    );
  });

  test('a multi-byte character cut at an excerpt edge becomes U+FFFD', () => {
    const buffer = createExcerptBuffer(4);
    buffer.push(Buffer.from('abc€€€xyz'));
    assert.deepEqual(buffer.finish(), { head: 'abc\uFFFD', tail: '\uFFFDxyz', bytes: 15, truncated: true });
  });
});

describe('runCommand: V8 coverage of the command', () => {
  test('each coverage file keeps only the repository scripts outside node_modules; a process that ran none leaves no file', async () => {
    const root = makeTempDir('checker-run-coverage-');
    mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'dep', 'index.js'), 'module.exports = (n) => n + 1;\n');
    writeFileSync(join(root, 'lib.js'), "const dep = require('dep');\nmodule.exports = (n) => dep(n) * 2;\n");
    writeFileSync(
      join(root, 'main.js'),
      "const { execFileSync } = require('node:child_process');\nrequire('./lib.js')(1);\nexecFileSync(process.execPath, ['-e', '1 + 1']);\n",
    );
    const env = envIn(root);
    const dir = await env.createArtifactFolder('executions/run/coverage/unit');
    const run = await env.runCommand({ argv: [node, 'main.js'], timeoutMs: 20_000, v8CoverageDir: dir });
    assert.equal(run.exitCode, 0);
    // Two processes wrote coverage; the `-e` child ran no file of the repository, so its file is gone.
    const files = readdirSync(dir);
    assert.equal(files.length, 1);
    const data = JSON.parse(readFileSync(join(dir, files[0] ?? ''), 'utf8')) as { result: { url: string }[] };
    const real = realpathSync(root);
    assert.deepEqual(data.result.map((script) => script.url).sort(), [
      pathToFileURL(join(real, 'lib.js')).href,
      pathToFileURL(join(real, 'main.js')).href,
    ]);
  });

  test('a coverage folder outside .checker/local/ is refused before anything starts', async () => {
    const root = makeTempDir('checker-run-coverage-');
    const env = envIn(root);
    await assert.rejects(
      env.runCommand({ argv: [node, '-e', "require('fs').writeFileSync('ran', '')"], timeoutMs: 5000, v8CoverageDir: root }),
      { code: 'internal/coverage-dir' },
    );
    assert.equal(existsSync(join(root, 'ran')), false);
  });
});
