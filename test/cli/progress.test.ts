import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CliHost } from '../../src/cli/host.js';
import { startProgressLine, withQuiet } from '../../src/cli/progress.js';
import { runCliAsync } from '../helpers/cli.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';

const CLEAR = '\r\x1b[2K';

function fakeHost(options: { tty: boolean; env?: NodeJS.ProcessEnv }): { host: CliHost; written: string[] } {
  const written: string[] = [];
  const host: CliHost = {
    cwd: () => '/',
    env: options.env ?? {},
    stdoutIsTTY: options.tty,
    stderrIsTTY: options.tty,
    writeStdout: async () => undefined,
    writeStderr: async (text) => {
      written.push(text);
    },
    exitCode: undefined,
  };
  return { host, written };
}

describe('the progress line', () => {
  it('says nothing for the first second, then the phase with counts, rate and time, throttled; cleared once at the end', async () => {
    const { host, written } = fakeHost({ tty: true });
    let clock = 0;
    const line = startProgressLine(host, () => clock);
    assert.ok(line !== undefined);
    line.sink({ phase: 'scan' });
    clock = 400;
    line.sink({ phase: 'parse', done: 0, total: 2000 });
    clock = 900;
    line.sink({ phase: 'parse', done: 500, total: 2000 });
    assert.deepEqual(written, [], 'nothing before a second has passed');
    clock = 1400;
    line.sink({ phase: 'parse', done: 1000, total: 2000 });
    clock = 1450;
    line.sink({ phase: 'parse', done: 1100, total: 2000 });
    clock = 1600;
    line.sink({ phase: 'parse', done: 2000, total: 2000 });
    line.sink({ phase: 'resolve', files: 2400 });
    line.sink({ phase: 'build', files: 2400 });
    line.sink({ phase: 'analyse' });
    await line.finish();
    await line.finish();
    assert.deepEqual(written, [
      `${CLEAR}checker: parsing 1,000/2,000 files (1,000 files/s) · 1.4 s`,
      // 1,100 at 1.45 s is within 100 ms of the last draw: skipped; the last count always draws.
      `${CLEAR}checker: parsing 2,000/2,000 files (1,667 files/s) · 1.6 s`,
      `${CLEAR}checker: resolving the imports of 2,400 files · 1.6 s`,
      `${CLEAR}checker: building the graph of 2,400 files · 1.6 s`,
      `${CLEAR}checker: analysing · 1.6 s`,
      CLEAR,
    ]);
  });

  it('is off on a stderr that is not a terminal, with --quiet, and with CHECKER_PROGRESS=0; CHECKER_PROGRESS=1 forces it on', async () => {
    assert.equal(startProgressLine(fakeHost({ tty: false }).host), undefined);
    assert.equal(startProgressLine(fakeHost({ tty: true, env: { CHECKER_PROGRESS: '0' } }).host), undefined);
    assert.equal(await withQuiet(true, async () => startProgressLine(fakeHost({ tty: true }).host)), undefined);
    assert.ok(startProgressLine(fakeHost({ tty: false, env: { CHECKER_PROGRESS: '1' } }).host) !== undefined);
    // A run that draws nothing clears nothing.
    const quiet = fakeHost({ tty: true });
    await startProgressLine(quiet.host)?.finish();
    assert.deepEqual(quiet.written, []);
  });
});

describe('progress from a real checker ai run', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo({ 'src/a.ts': "import { b } from './b.js';\nexport const a = b + 1;\n", 'src/b.ts': 'export const b = 1;\n' });
    repo.write({ 'src/b.ts': 'export const b = 2;\n' });
  });
  after(() => repo.cleanup());

  it('shows every phase on stderr, clears the line before the report, and leaves stdout the plain report', async () => {
    const result = await runCliAsync(['ai', '--cwd', repo.dir, '--format', 'json'], {
      env: { CHECKER_PROGRESS: '1' },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).kind, 'agent-bundle');
    const phases = result.stderr
      .split(CLEAR)
      .filter((line) => line !== '')
      .map((line) => line.replace(/ · \d+\.\d s$/, '').replace(/ \(\d[\d,]* files\/s\)/, ''));
    const parsed = phases.includes('checker: parsing 0/1 files') ? 1 : 2;
    assert.deepEqual(phases, [
      'checker: scanning files',
      // A first run, with no facts cache, is focused: every file is read (and scanned for its imports and exports when
      // it holds a key of the change), then the two the change reaches (b.ts and a.ts, which imports it) are parsed:
      // both in the parse pass, or one of them alongside the short round before it (not shown), as the children's
      // timing has it.
      'checker: reading the imports and exports of 0/2 files',
      // A count within 100 ms of the last drawn one is skipped; the first and the last always draw.
      ...phases.filter((line) => line === 'checker: reading the imports and exports of 1/2 files'),
      'checker: reading the imports and exports of 2/2 files',
      `checker: parsing 0/${parsed} files`,
      ...phases.filter((line) => parsed === 2 && line === 'checker: parsing 1/2 files'),
      `checker: parsing ${parsed}/${parsed} files`,
      'checker: resolving the imports of 2 files',
      'checker: building the graph of 2 files',
      'checker: analysing',
    ]);
    assert.ok(result.stderr.endsWith(CLEAR), 'the line is cleared');
  });

  it('--quiet (any command, any position before --) turns it off even when forced', async () => {
    const result = await runCliAsync(['ai', '--quiet', '--cwd', repo.dir, '--format', 'json'], {
      env: { CHECKER_PROGRESS: '1' },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
  });
});
