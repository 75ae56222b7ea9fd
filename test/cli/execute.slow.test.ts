import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ExecutionReport } from '../../src/model/execution.js';
import { getValidator } from '../../src/io/schema.js';
import { cliArgv, projectRoot, runCli, runCliAsync } from '../helpers/cli.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';
import { areGoneSoonIn } from '../helpers/processes.js';

/**
 * checker execute on a real repository with a real node:test suite: a canary check proves whether anything ran,
 * `unit` passes, `broken` fails on a planted bug, and `sleepy` outlives its timeout. The gate is the configuration's
 * safety.allowCommands (toggled by rewriting .checker/config.yml) and, over MCP, confirmExecution.
 */
const NODE = JSON.stringify(process.execPath);
const checks = (allow: boolean): string =>
  [
    `safety:\n  allowCommands: ${allow}`,
    'checks:',
    `  canary:\n    argv: [${NODE}, -e, "require('fs').writeFileSync('canary.txt', 'ran')"]`,
    `  unit:\n    argv: [${NODE}, --test, test/sum.test.mjs]`,
    `  broken:\n    argv: [${NODE}, --test, test/half.test.mjs]`,
    `  sleepy:\n    argv: [${NODE}, -e, "setTimeout(() => {}, 60000)"]\n    timeoutMs: 1500`,
    '',
  ].join('\n');

const FILES = {
  'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', type: 'module' }),
  'src/sum.mjs': 'export const sum = (a, b) => a + b;\n',
  'src/half.mjs': 'export const half = (n) => n / 3;\n',
  'test/sum.test.mjs':
    "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { sum } from '../src/sum.mjs';\ntest('sum', () => assert.equal(sum(2, 3), 5));\n",
  'test/half.test.mjs':
    "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { half } from '../src/half.mjs';\ntest('half', () => assert.equal(half(8), 4));\n",
};

describe('checker execute runs what the repository allows, and only that', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo({ ...FILES, '.checker/config.yml': checks(false) });
  });
  after(() => repo.cleanup());

  it('gate closed: exit 0, every check reported as not run, the canary untouched, nothing recorded', async () => {
    const result = await runCliAsync(['execute', '--cwd', repo.dir, '--all', '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as ExecutionReport;
    assert.equal(getValidator('execution-report')(report), true);
    assert.equal(report.gate.open, false);
    assert.deepEqual(
      report.checks.map((check) => [check.id, check.status]),
      [
        ['broken', 'skipped'],
        ['canary', 'skipped'],
        ['sleepy', 'skipped'],
        ['unit', 'skipped'],
      ],
    );
    assert.match(result.stderr, /^checker: execute: closed: safety\.allowCommands is not true/);
    assert.equal(existsSync(join(repo.dir, 'canary.txt')), false);
    assert.equal(existsSync(join(repo.dir, '.checker/local/executions')), false);
  });

  it('a switch given a value other than true or false is a usage error naming it, before anything runs', async () => {
    const result = await runCliAsync(['execute', '--cwd', repo.dir, '--all=maybe']);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /^checker: usage\/invalid-value: Option --all is a switch: give it alone, or =true \/ =false \(got "maybe"\)/,
    );
  });

  it('gate open: the real exit codes and output, the timeout killed, exit 1 for the failures, and the run recorded', async () => {
    repo.commitFiles({ '.checker/config.yml': checks(true) });
    // A real process: the exit code a CI job sees. NODE_TEST_CONTEXT (set by this test runner) would make the nested
    // `node --test` report to us instead of exiting 1 on a failure.
    const result = runCli(['execute', '--cwd', repo.dir, '--all', '--format', 'json'], { env: { NODE_TEST_CONTEXT: undefined } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /^checker: 2 checks did not pass: broken, sleepy$/m);
    const report = JSON.parse(result.stdout) as ExecutionReport;
    assert.equal(getValidator('execution-report')(report), true);
    const byId = Object.fromEntries(report.checks.map((check) => [check.id, check]));
    assert.deepEqual(Object.fromEntries(Object.entries(byId).map(([id, check]) => [id, [check.status, check.exitCode]])), {
      broken: ['failed', 1],
      canary: ['passed', 0],
      sleepy: ['timed-out', null],
      unit: ['passed', 0],
    });
    assert.match(byId.broken?.stdout?.head ?? '', /not ok 1 - half/);
    assert.match(byId.unit?.stdout?.head ?? '', /ok 1 - sum/);
    assert.ok((byId.sleepy?.durationMs ?? 0) >= 1500, String(byId.sleepy?.durationMs));
    assert.equal(readFileSync(join(repo.dir, 'canary.txt'), 'utf8'), 'ran');
    const record = JSON.parse(readFileSync(join(repo.dir, report.recordPath ?? 'missing'), 'utf8')) as ExecutionReport;
    assert.deepEqual(record, report);
    repo.remove('canary.txt');
  });

  it('a secret a check prints is redacted in JSON, Markdown and the stored record', async () => {
    // Synthetic fake from security.md §6. gitleaks:allow
    const token = 'ghp_FAKEfake0TEST1test2EXAMPLE3example4X';
    const leaky = createRepo({
      '.checker/config.yml': `safety:\n  allowCommands: true\nchecks:\n  leaky:\n    argv: [${NODE}, -e, "console.log('token=${token}')"]\n`,
    });
    try {
      const json = await runCliAsync(['execute', '--cwd', leaky.dir, '--format', 'json']);
      const markdown = await runCliAsync(['execute', '--cwd', leaky.dir]);
      const report = JSON.parse(json.stdout) as ExecutionReport;
      assert.equal(report.checks[0]?.status, 'passed');
      const record = readFileSync(join(leaky.dir, report.recordPath ?? 'missing'), 'utf8');
      for (const [where, text] of [
        ['json', json.stdout],
        ['markdown', markdown.stdout],
        ['record', record],
      ] as const) {
        assert.equal(text.includes('FAKEfake0TEST1test2EXAMPLE3'), false, where);
        assert.match(text, /REDACTED/, where);
      }
    } finally {
      leaky.cleanup();
    }
  });

  it('the configured agent process gets the task bundle at CHECKER_AGENT_BUNDLE_PATH; its output is untrusted suggestion, never proof', async () => {
    const agentRepo = createRepo({
      ...FILES,
      'agent.mjs':
        "import { readFileSync } from 'node:fs';\nconst bundle = readFileSync(process.env.CHECKER_AGENT_BUNDLE_PATH, 'utf8');\nconsole.log('SUGGESTION: add a test for half(8); bundle starts ' + JSON.stringify(bundle.split('\\n')[0]));\n",
      '.checker/config.yml': `safety:\n  allowCommands: true\ntoolAdapters:\n  agentProcess:\n    command: ${NODE}\n    args: [agent.mjs]\n    profile: codex\n    timeoutMs: 20000\n`,
    });
    try {
      agentRepo.write({ 'src/half.mjs': 'export const half = (n) => n / 2;\n' });
      agentRepo.commit('fix half');
      const result = await runCliAsync(['execute', '--cwd', agentRepo.dir, '--base', 'HEAD~1', '--head', 'HEAD', '--format', 'json']);
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout) as ExecutionReport;
      assert.equal(getValidator('execution-report')(report), true);
      const agent = report.agentProcess;
      assert.equal(agent?.status, 'passed', agent?.reason);
      assert.equal(agent?.evidence, 'untrusted-agent-suggestion');
      assert.equal(agent?.bundlePath, join(agentRepo.dir, '.checker/local/agent-process/bundle.md'));
      const bundleStart = readFileSync(agent?.bundlePath ?? 'missing', 'utf8').split('\n')[0];
      assert.equal(agent?.stdout?.head, `SUGGESTION: add a test for half(8); bundle starts ${JSON.stringify(bundleStart)}\n`);
      assert.deepEqual(report.checks, []);
      const markdown = await runCliAsync(['execute', '--cwd', agentRepo.dir, '--base', 'HEAD~1', '--head', 'HEAD']);
      const section = markdown.stdout.slice(markdown.stdout.indexOf('## Agent process'));
      assert.match(section, /^## Agent process \(untrusted agent suggestion: never proof, never a task\)/);
      assert.match(section, /Untrusted repository text \(agentProcess stdout\)[^\n]*\n\n```+text untrusted-repository-text\nSUGGESTION: /);
    } finally {
      agentRepo.cleanup();
    }
  });

  it('Ctrl-C on checker execute kills the running check too (it leads its own process group)', async () => {
    const sleeper = createRepo({
      '.checker/config.yml': `safety:\n  allowCommands: true\nchecks:\n  sleepy:\n    argv: [${NODE}, -e, "require('fs').writeFileSync('pid.txt', String(process.pid)); setInterval(() => {}, 1000)"]\n`,
    });
    try {
      const cli = spawn(process.execPath, [...cliArgv(), 'execute', '--cwd', sleeper.dir, '--all'], { cwd: projectRoot, stdio: 'ignore' });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => cli.once('exit', (_code, signal) => resolve(signal)));
      const pidFile = join(sleeper.dir, 'pid.txt');
      for (let waited = 0; !existsSync(pidFile) && waited < 20_000; waited += 50) await sleep(50);
      cli.kill('SIGINT');
      assert.equal(await exited, 'SIGINT');
      // Found by its working folder: in a pid namespace the pid it wrote is not the one this test sees.
      assert.equal(await areGoneSoonIn(sleeper.dir), true, 'the check outlived an interrupted checker');
    } finally {
      sleeper.cleanup();
    }
  });

  it('MCP: a check is cut to the call deadline (--deadline 8: 3 s after the 5 s margin), killed, and the call is answered', async () => {
    const slow = createRepo({
      '.checker/config.yml': `safety:\n  allowCommands: true\nchecks:\n  slow:\n    argv: [${NODE}, -e, "setTimeout(() => {}, 60000)"]\n`,
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...cliArgv(), 'mcp', '--cwd', slow.dir, '--deadline', '8'],
      cwd: projectRoot,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'checker-deadline', version: '0.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({
        name: 'execute_configured_checks',
        arguments: { confirmExecution: true, all: true, format: 'json' },
      });
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      const check = (result.structuredContent as ExecutionReport).checks[0];
      assert.equal(check?.status, 'timed-out');
      assert.ok((check?.timeoutMs ?? 0) <= 3000 && (check?.timeoutMs ?? 0) > 1000, String(check?.timeoutMs));
    } finally {
      await client.close();
      slow.cleanup();
    }
  });

  it('MCP execute_configured_checks: confirmExecution false or a closed gate starts nothing; both open runs the checks', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...cliArgv(), 'mcp', '--cwd', repo.dir],
      cwd: projectRoot,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'checker-execute', version: '0.0.0' });
    await client.connect(transport);
    try {
      const tools = await client.listTools();
      const tool = tools.tools.find((item) => item.name === 'execute_configured_checks');
      assert.deepEqual(tool?.annotations, {
        title: 'Run the configured checks',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
      const call = async (allow: boolean, confirmExecution: boolean | undefined) => {
        repo.commitFiles({ '.checker/config.yml': checks(allow) });
        const result = await client.callTool({
          name: 'execute_configured_checks',
          arguments: { all: true, format: 'json', ...(confirmExecution === undefined ? {} : { confirmExecution }) },
        });
        assert.equal(result.isError, undefined, JSON.stringify(result.content));
        const report = result.structuredContent as ExecutionReport;
        const ran = existsSync(join(repo.dir, 'canary.txt'));
        if (ran) repo.remove('canary.txt');
        return [report.gate.open, report.summary.ran, ran];
      };
      assert.deepEqual(await call(true, undefined), [false, 0, false]);
      assert.deepEqual(await call(true, false), [false, 0, false]);
      assert.deepEqual(await call(false, true), [false, 0, false]);
      assert.deepEqual(await call(true, true), [true, 4, true]);
      const refused = await client.callTool({
        name: 'execute_configured_checks',
        arguments: { confirmExecution: true, command: 'rm -rf /' },
      });
      assert.equal(refused.isError, true);
      assert.match(JSON.stringify(refused.content), /command/);
      const notBoolean = await client.callTool({ name: 'execute_configured_checks', arguments: { confirmExecution: 'yes' } });
      assert.equal(notBoolean.isError, true);
      assert.match(JSON.stringify(notBoolean.content), /confirmExecution/);
      assert.equal(existsSync(join(repo.dir, 'canary.txt')), false);
    } finally {
      await client.close();
    }
  });
});
