import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { executeChecks } from '../../src/app/execute.js';
import type { ChangeSet } from '../../src/model/change.js';
import type { ExecutionReport } from '../../src/model/execution.js';
import { getValidator } from '../../src/io/schema.js';
import { memEnv } from '../helpers/memory-env.js';

const CHECKS = [
  'checks:',
  '  unit:',
  '    command: npm test',
  '  lint:',
  '    argv: [npx, biome, check]',
  '  docs:',
  '    command: npm run docs',
  '    paths: ["docs/**"]',
  '  chained:',
  '    command: npm test && rm -rf dist',
  '',
].join('\n');

const CHANGE: ChangeSet = {
  base: { ref: 'main', oid: 'a'.repeat(40) },
  head: { ref: 'WORKTREE' },
  files: [{ path: 'src/a.ts', status: 'modified', hunks: [], additions: 1, deletions: 0, binary: false }],
};

const statuses = (report: ExecutionReport) => Object.fromEntries(report.checks.map((check) => [check.id, check.status]));
const excerpt = (text: string) => ({ head: text, tail: '', bytes: Buffer.byteLength(text), truncated: false });

describe('executeChecks: the gate, selection and results (memEnv, scripted commands)', () => {
  test('gate closed by configuration: nothing starts, nothing is written, and the report says what is missing', async () => {
    const env = memEnv({ files: { '.checker/config.yml': CHECKS }, git: { change: CHANGE } });
    const report = await executeChecks(env, { confirmed: true });
    assert.deepEqual(env.commands, []);
    assert.deepEqual([...env.artifacts.keys()], []);
    assert.equal(report.gate.open, false);
    assert.match(report.gate.explanation, /^closed: safety\.allowCommands is not true \(\.checker\/config\.yml\)/);
    assert.deepEqual(statuses(report), { chained: 'refused', docs: 'skipped', lint: 'skipped', unit: 'skipped' });
    assert.equal(
      report.checks.find((check) => check.id === 'unit')?.reason,
      'not run: safety.allowCommands is not true (.checker/config.yml)',
    );
    assert.equal(report.recordPath, undefined);
    assert.equal(getValidator('execution-report')(report), true);
  });

  test('gate open in configuration but execution not requested (MCP without confirmExecution): nothing starts', async () => {
    const env = memEnv({ files: { '.checker/config.yml': `safety:\n  allowCommands: true\n${CHECKS}` }, git: { change: CHANGE } });
    const report = await executeChecks(env, { confirmed: false });
    assert.deepEqual(env.commands, []);
    assert.equal(report.gate.open, false);
    assert.equal(
      report.checks.find((check) => check.id === 'lint')?.reason,
      'not run: execution was not requested (checker execute, MCP confirmExecution: true)',
    );
  });

  test('gate open: checks run in name order with their real results; paths and shell syntax decide the rest; the run is recorded', async () => {
    const env = memEnv({
      files: { '.checker/config.yml': `safety:\n  allowCommands: true\n${CHECKS}` },
      git: { change: CHANGE },
      runCommand: {
        'npm test': { exitCode: 1, durationMs: 1234, stdout: excerpt('\u001b[31m1 failing\u001b[39m\u001b]0;pwned\u0007\n') },
        'npx biome check': { exitCode: 0, durationMs: 50 },
      },
      now: new Date('2026-11-24T07:00:00.000Z'),
    });
    const report = await executeChecks(env, { confirmed: true });
    assert.deepEqual(
      env.commands.map((spec) => [spec.argv.join(' '), spec.timeoutMs]),
      [
        ['npx biome check', 600_000],
        ['npm test', 600_000],
      ],
    );
    assert.deepEqual(statuses(report), { chained: 'refused', docs: 'skipped', lint: 'passed', unit: 'failed' });
    assert.deepEqual(report.summary, { configured: 4, ran: 2, passed: 1, failed: 1, timedOut: 0 });
    assert.deepEqual(report.changedPaths, ['src/a.ts']);
    const unit = report.checks.find((check) => check.id === 'unit');
    // Colours and a terminal-title escape are gone: a report replayed in a terminal cannot drive it.
    assert.deepEqual([unit?.reason, unit?.exitCode, unit?.stdout?.head], ['exited 1', 1, '1 failing\n']);
    assert.match(
      report.checks.find((check) => check.id === 'chained')?.reason ?? '',
      /^checks\.chained\.command uses the shell operator &&; checker runs commands without a shell/,
    );
    assert.equal(
      report.checks.find((check) => check.id === 'docs')?.reason,
      'the change touches none of its paths (docs/**); --all runs it anyway',
    );
    assert.match(report.runId, /^20261124T070000Z-[0-9a-f]{6}$/);
    assert.equal(report.recordPath, `.checker/local/executions/${report.runId}/result.json`);
    assert.deepEqual(JSON.parse(env.artifacts.get(`executions/${report.runId}/result.json`) ?? 'null'), report);
  });

  test('enabled tool adapters run after the checks with their args, each with its own V8 coverage folder; disabled ones do not', async () => {
    const config = [
      'safety:\n  allowCommands: true',
      'checks:\n  unit:\n    command: npm test\n  slow:\n    command: npm run e2e\n    coverage: false',
      'toolAdapters:',
      '  coverage:\n    enabled: true\n    command: npx c8 --reporter=lcov\n    args: [npm, test]\n    timeoutMs: 9000',
      '  mutationTester:\n    enabled: false\n    command: npx stryker run',
      '  staticAnalyzer:\n    enabled: true\n    command: npx tsc --noEmit $FLAGS',
      '',
    ].join('\n');
    const env = memEnv({
      files: { '.checker/config.yml': config },
      git: { change: CHANGE },
      runCommand: { 'npm test': { exitCode: 0 }, 'npm run e2e': { exitCode: 0 }, 'npx c8 --reporter=lcov npm test': { exitCode: 0 } },
      now: new Date('2026-11-24T07:00:00.000Z'),
    });
    const report = await executeChecks(env, { confirmed: true });
    const folder = (id: string) => `${env.root}/.checker/local/executions/${report.runId}/coverage/${id}`;
    assert.deepEqual(
      env.commands.map((spec) => [spec.argv.join(' '), spec.timeoutMs, spec.v8CoverageDir]),
      [
        ['npm run e2e', 600_000, undefined],
        ['npm test', 600_000, folder('unit')],
        ['npx c8 --reporter=lcov npm test', 9000, folder('toolAdapters.coverage')],
      ],
    );
    assert.deepEqual(statuses(report), {
      slow: 'passed',
      unit: 'passed',
      'toolAdapters.coverage': 'passed',
      'toolAdapters.staticAnalyzer': 'refused',
    });
    assert.match(
      report.checks.find((check) => check.id === 'toolAdapters.staticAnalyzer')?.reason ?? '',
      /^toolAdapters\.staticAnalyzer\.command uses \$FLAGS/,
    );
    assert.equal(getValidator('execution-report')(report), true);
  });

  test('--all runs a check whose paths the change misses; a timeout and a program that cannot start are failures, not passes', async () => {
    const env = memEnv({
      files: {
        '.checker/config.yml':
          'safety:\n  allowCommands: true\nchecks:\n  docs:\n    command: npm run docs\n    paths: ["docs/**"]\n    timeoutMs: 5000\n  ghost:\n    command: no-such-tool --x\n',
      },
      runCommand: {
        'npm run docs': { exitCode: null, signal: 'SIGKILL', timedOut: true, durationMs: 5003 },
        'no-such-tool --x': { exitCode: null, spawnError: 'no-such-tool: not found on PATH' },
      },
    });
    const report = await executeChecks(env, { confirmed: true, all: true });
    assert.equal(report.changedPaths, undefined);
    assert.deepEqual(statuses(report), { docs: 'timed-out', ghost: 'not-started' });
    assert.equal(report.checks[0]?.reason, 'ran past its 5000 ms timeout; its process group was killed');
    assert.deepEqual(report.summary, { configured: 2, ran: 1, passed: 0, failed: 1, timedOut: 1 });
  });

  test('the agent process is reported but not run while the gate is closed; a shell-only command is refused', async () => {
    const closed = memEnv({
      files: { '.checker/config.yml': 'toolAdapters:\n  agentProcess:\n    command: codex exec\n    args: [--full-auto]\n' },
    });
    const report = await executeChecks(closed, { confirmed: true });
    assert.deepEqual(closed.commands, []);
    assert.deepEqual([...closed.artifacts.keys()], []);
    assert.deepEqual(report.agentProcess, {
      id: 'agentProcess',
      evidence: 'untrusted-agent-suggestion',
      argv: ['codex', 'exec', '--full-auto'],
      status: 'skipped',
      reason: 'not run: the gate is closed (see gate)',
    });
    const shell = memEnv({
      files: {
        '.checker/config.yml': 'safety:\n  allowCommands: true\ntoolAdapters:\n  agentProcess:\n    command: codex exec | tee log\n',
      },
    });
    const refused = await executeChecks(shell, { confirmed: true });
    assert.deepEqual(shell.commands, []);
    assert.equal(refused.agentProcess?.status, 'refused');
    assert.match(refused.agentProcess?.reason ?? '', /^toolAdapters\.agentProcess\.command uses the shell operator \|/);
  });

  test('a paths glob checker cannot compile is refused by name; without git, checks with paths wait and a limitation says why', async () => {
    const env = memEnv({
      files: {
        '.checker/config.yml':
          'safety:\n  allowCommands: true\nchecks:\n  odd:\n    command: npm test\n    paths: ["src/**", "!(docs)/**"]\n  api:\n    command: npm run api\n    paths: ["src/api/**"]\n',
      },
    });
    const report = await executeChecks(env, { confirmed: true });
    assert.deepEqual(env.commands, []);
    assert.deepEqual(statuses(report), { api: 'skipped', odd: 'refused' });
    assert.match(
      report.checks.find((check) => check.id === 'odd')?.reason ?? '',
      /^checks\.odd\.paths\[1\] "!\(docs\)\/\*\*" is not a glob checker can compile/,
    );
    assert.deepEqual(
      report.limitations.map((item) => item.code),
      ['execute/no-change'],
    );
  });

  test('a time budget (an MCP deadline) cuts each timeout to what is left and starts nothing with under a second left', async () => {
    const files = { '.checker/config.yml': 'safety:\n  allowCommands: true\nchecks:\n  unit:\n    command: npm test\n' };
    const roomy = memEnv({ files, runCommand: { 'npm test': {} } });
    await executeChecks(roomy, { confirmed: true, all: true, budgetMs: 85_000 });
    assert.deepEqual(
      roomy.commands.map((spec) => spec.timeoutMs),
      [85_000],
    );
    const tight = memEnv({ files, runCommand: { 'npm test': {} } });
    const report = await executeChecks(tight, { confirmed: true, all: true, budgetMs: 500 });
    assert.deepEqual(tight.commands, []);
    assert.match(report.checks[0]?.reason ?? '', /^not started: the call's time budget \(500 ms\) is used up/);
  });
});
