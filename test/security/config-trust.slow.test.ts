import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { diffPowerKeys } from '../../src/app/load/trusted-config.js';
import { getValidator } from '../../src/io/schema.js';
import type { AgentBundle } from '../../src/model/bundle.js';
import type { DifferentialReport } from '../../src/model/differential.js';
import type { ExecutionReport } from '../../src/model/execution.js';
import type { InvestigationReport } from '../../src/model/investigation.js';
import type { SessionResult } from '../../src/model/session.js';
import { isLoopbackHost, isUrlHostAllowed } from '../../src/text/hosts.js';
import { cliArgv, projectRoot, runCliAsync } from '../helpers/cli.js';
import { createRepo, makeTempDir, type TestRepo } from '../helpers/git-repo.js';

/**
 * The trust model (docs/security.md): what may run, and where a secret may go, is the user's choice and the base
 * revision's, never the change's. Each case is a break found by an attacker's review: a commit that opens its own gate
 * and adds a check that writes a canary, a repository that points an investigation at its own endpoint with the key of
 * the user's choosing, a product target on a non-loopback host. Real repositories, the real CLI and MCP server, a
 * loopback sink recording every request and header.
 */
const NODE = JSON.stringify(process.execPath);
const canaryCheck = (name: string): string => `  ${name}:\n    argv: [${NODE}, -e, "require('fs').writeFileSync('${name}.ran', 'x')"]\n`;
const closedConfig = 'safety:\n  allowCommands: false\n';
const openConfig = (checks: string[]): string => `safety:\n  allowCommands: true\nchecks:\n${checks.map(canaryCheck).join('')}`;
const FILES = { 'package.json': '{"name":"app","type":"module"}\n', 'src/app.mjs': 'export const one = 1;\n' };

/** An empty user config, so the machine's own ~/.config/checker never leaks into a test. */
function isolatedUser(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { CHECKER_USER_CONFIG: join(makeTempDir('checker-user-'), 'absent.yml'), ...extra };
}

describe('a change cannot open its own execution gate', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo({ ...FILES, '.checker/config.yml': closedConfig });
    // The change under review: it turns the gate on and adds a check that writes a canary.
    repo.write({ '.checker/config.yml': openConfig(['pwned']), 'src/app.mjs': 'export const one = 2;\n' });
    repo.commit('feat: tweak');
  });
  after(() => repo.cleanup());

  it('execute --base HEAD~1: nothing runs, exit 2, config/changed-by-range names the keys, the report says where the gate came from', async () => {
    const result = await runCliAsync(['execute', '--cwd', repo.dir, '--base', 'HEAD~1', '--all', '--format', 'json'], {
      env: isolatedUser(),
    });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(existsSync(join(repo.dir, 'pwned.ran')), false);
    const report = JSON.parse(result.stdout) as ExecutionReport;
    assert.equal(getValidator('execution-report')(report), true);
    assert.equal(report.gate.open, false);
    assert.equal(report.gate.allowCommands, false);
    assert.deepEqual(report.gate.config?.changedByRange, ['checks.pwned', 'safety.allowCommands']);
    assert.equal(report.gate.config?.from, 'base');
    assert.deepEqual(
      report.checks.map((check) => [check.id, check.status]),
      [],
      'the base configures no check, so none is listed',
    );
    assert.ok(report.limitations.some((item) => item.code === 'config/changed-by-range'));
    assert.match(result.stderr, /checker: config\/changed-by-range: the change under review alters checks\.pwned, safety\.allowCommands/);
    assert.match(result.stderr, /--trust-changed-config/);
  });

  it('ai --with-checks and differential: nothing runs, exit 2', async () => {
    const ai = await runCliAsync(['ai', '--cwd', repo.dir, '--base', 'HEAD~1', '--with-checks', '--format', 'json'], {
      env: isolatedUser(),
    });
    assert.equal(ai.code, 2, ai.stderr);
    const bundle = JSON.parse(ai.stdout) as AgentBundle;
    assert.ok(bundle.limitations.some((item) => item.code === 'config/changed-by-range'));
    assert.deepEqual(bundle.checks, [], 'the agent is not handed the checks the change added');
    const diff = await runCliAsync(['differential', '--cwd', repo.dir, '--base', 'HEAD~1', '--all', '--format', 'json'], {
      env: isolatedUser(),
    });
    assert.equal(diff.code, 2, diff.stderr);
    const report = JSON.parse(diff.stdout) as DifferentialReport;
    assert.deepEqual(report.gate.config?.changedByRange, ['checks.pwned', 'safety.allowCommands']);
    assert.equal(existsSync(join(repo.dir, 'pwned.ran')), false);
    assert.equal(existsSync(join(repo.dir, '.checker/local/worktrees')) && diff.stdout.includes('"worktrees": [{'), false);
  });

  it('a default branch the change names does not move the base it is judged from', async () => {
    const other = createRepo({ ...FILES, '.checker/config.yml': closedConfig });
    try {
      other.git('checkout', '-q', '-b', 'feature');
      other.write({ '.checker/config.yml': `${openConfig(['pwned'])}analysis:\n  defaultBranch: feature\n` });
      other.commit('point the base at myself');
      const result = await runCliAsync(['execute', '--cwd', other.dir, '--all', '--format', 'json'], { env: isolatedUser() });
      assert.equal(result.code, 2, result.stderr);
      const report = JSON.parse(result.stdout) as ExecutionReport;
      assert.deepEqual(report.gate.config?.changedByRange, ['analysis.defaultBranch', 'checks.pwned', 'safety.allowCommands']);
      assert.equal(existsSync(join(other.dir, 'pwned.ran')), false);
    } finally {
      other.cleanup();
    }
  });

  it('an uncommitted edit of the config is a change too; committed to the base branch it runs', async () => {
    const local = createRepo({ ...FILES, '.checker/config.yml': closedConfig });
    try {
      local.write({ '.checker/config.yml': openConfig(['mine']) });
      const blocked = await runCliAsync(['execute', '--cwd', local.dir, '--all', '--format', 'json'], { env: isolatedUser() });
      assert.equal(blocked.code, 2, blocked.stderr);
      assert.equal(existsSync(join(local.dir, 'mine.ran')), false);
      local.commit('chore: allow the checks');
      const ran = await runCliAsync(['execute', '--cwd', local.dir, '--all', '--format', 'json'], { env: isolatedUser() });
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(existsSync(join(local.dir, 'mine.ran')), true);
      const report = JSON.parse(ran.stdout) as ExecutionReport;
      assert.deepEqual(report.gate.config?.changedByRange, []);
      assert.match(report.gate.explanation, /^open: .*\.checker\/config\.yml at base /);
    } finally {
      local.cleanup();
    }
  });

  it('--trust-changed-config is the one way to run what the change configures, and the report says it was used', async () => {
    const result = await runCliAsync(
      ['execute', '--cwd', repo.dir, '--base', 'HEAD~1', '--all', '--trust-changed-config', '--format', 'json'],
      { env: isolatedUser() },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(join(repo.dir, 'pwned.ran')), true);
    const report = JSON.parse(result.stdout) as ExecutionReport;
    assert.equal(report.gate.config?.from, 'change');
    assert.ok(report.limitations.some((item) => item.code === 'config/trusted-change'));
    repo.remove('pwned.ran');
  });

  it('an agent that edits the config during a session is not told it may run what it added', async () => {
    const session = createRepo({ ...FILES, '.checker/config.yml': openConfig(['unit']) });
    try {
      const start = await runCliAsync(['session', 'start', '--cwd', session.dir, '--session', 's1', '--task', 'tweak one'], {
        env: isolatedUser(),
      });
      assert.equal(start.code, 0, start.stderr);
      session.write({ '.checker/config.yml': openConfig(['unit', 'pwned']) });
      const finish = await runCliAsync(['session', 'finish', '--cwd', session.dir, '--session', 's1', '--format', 'json'], {
        env: isolatedUser(),
      });
      assert.equal(finish.code, 0, finish.stderr);
      const boundary = (JSON.parse(finish.stdout) as SessionResult).finish?.verificationBoundary;
      assert.deepEqual(boundary?.allowedChecks, []);
      assert.deepEqual(
        boundary?.blockedChecks.map((check) => [check.name, check.reason]),
        [
          [
            'unit',
            "the session's changes alter checks.pwned of the checker configuration (config/changed-by-range); only what the base revision configures may run",
          ],
        ],
      );
    } finally {
      session.cleanup();
    }
  });

  it('MCP execute_configured_checks with confirmExecution: true runs nothing the change configured', async () => {
    const client = new Client({ name: 'trust-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...cliArgv(), 'mcp', '--cwd', repo.dir],
      cwd: projectRoot,
      env: { ...(process.env as Record<string, string>), ...(isolatedUser() as Record<string, string>) },
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const result = await client.callTool({
        name: 'execute_configured_checks',
        arguments: { base: 'HEAD~1', all: true, confirmExecution: true },
      });
      const report = result.structuredContent as ExecutionReport;
      assert.equal(report.gate.open, false);
      assert.deepEqual(report.gate.config?.changedByRange, ['checks.pwned', 'safety.allowCommands']);
      assert.equal(existsSync(join(repo.dir, 'pwned.ran')), false);
      const tools = await client.listTools();
      const execute = tools.tools.find((tool) => tool.name === 'execute_configured_checks');
      assert.equal(JSON.stringify(execute?.inputSchema).includes('trust'), false, 'MCP offers no way to trust the change');
    } finally {
      await client.close();
    }
  });
});

interface Recorded {
  url: string;
  headers: IncomingHttpHeaders;
}

describe('a repository cannot choose which of your secrets is sent, nor where', () => {
  let sink: Server;
  let sinkUrl: string;
  const requests: Recorded[] = [];
  const SECRET = 'user-secret-token-not-for-repositories';
  let reply = '{}';
  let repo: TestRepo;
  before(async () => {
    sink = createServer((request, response) => {
      requests.push({ url: request.url ?? '', headers: request.headers });
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: reply } }] }));
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/v1`;
    repo = createRepo({
      ...FILES,
      '.checker/config.yml': `investigation:\n  provider:\n    kind: byok\n    endpoint: ${sinkUrl}\n    model: m\n    apiKeyEnv: GITHUB_TOKEN\n`,
    });
    repo.write({ 'src/app.mjs': 'export const one = 3;\n' });
  });
  after(() => {
    sink.close();
    repo.cleanup();
  });
  beforeEach(() => {
    requests.length = 0;
    reply = '{}';
  });

  it('a repository endpoint on loopback is called without any key, and the report says the key was withheld', async () => {
    const result = await runCliAsync(['ai', '--cwd', repo.dir, '--investigate', '--format', 'json'], {
      env: isolatedUser({ GITHUB_TOKEN: SECRET, CHECKER_PROVIDER_KEY_ENV: 'GITHUB_TOKEN' }),
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]?.headers.authorization, undefined);
    const dry = await runCliAsync(['ai', '--cwd', repo.dir, '--investigate', '--format', 'json'], {
      env: isolatedUser({ GITHUB_TOKEN: SECRET }),
    });
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(requests[1]?.headers.authorization, undefined);
    assert.equal(result.stdout.includes(SECRET), false);
  });

  it('a repository endpoint beyond loopback is refused before anything is sent (exit 2, the fix named)', async () => {
    const far = createRepo({
      ...FILES,
      '.checker/config.yml': 'investigation:\n  provider:\n    kind: byok\n    endpoint: http://checker-test.invalid:9/v1\n    model: m\n',
    });
    try {
      const result = await runCliAsync(['ai', '--cwd', far.dir, '--investigate', '--format', 'json'], { env: isolatedUser() });
      assert.equal(result.code, 2);
      assert.match(
        result.stderr,
        /checker: investigation\/endpoint-not-allowed: .*http:\/\/checker-test\.invalid:9, not a loopback address/,
      );
      assert.match(result.stderr, /CHECKER_PROVIDER_ENDPOINT/);
    } finally {
      far.cleanup();
    }
  });

  it('the user chooses: a user config provider (or CHECKER_PROVIDER_*) gets the key the user named', async () => {
    const folder = makeTempDir('checker-user-');
    const file = join(folder, 'config.yml');
    writeFileSync(file, `investigation:\n  provider:\n    kind: byok\n    endpoint: ${sinkUrl}\n    model: mine\n    apiKeyEnv: MY_KEY\n`);
    const fromFile = await runCliAsync(['ai', '--cwd', repo.dir, '--investigate', '--format', 'json'], {
      env: { CHECKER_USER_CONFIG: file, MY_KEY: SECRET },
    });
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal(requests[0]?.headers.authorization, `Bearer ${SECRET}`);
    const fromVariables = await runCliAsync(['ai', '--cwd', repo.dir, '--investigate', '--format', 'json'], {
      env: isolatedUser({
        CHECKER_PROVIDER_ENDPOINT: sinkUrl,
        CHECKER_PROVIDER_MODEL: 'mine',
        CHECKER_PROVIDER_KEY_ENV: 'MY_KEY',
        MY_KEY: SECRET,
      }),
    });
    assert.equal(fromVariables.code, 0, fromVariables.stderr);
    assert.equal(requests[1]?.headers.authorization, `Bearer ${SECRET}`);
    assert.equal(fromFile.stdout.includes(SECRET) || fromVariables.stdout.includes(SECRET), false);
  });

  it('a bad user setting is refused by name: the variable, or the file and field', async () => {
    const bad = await runCliAsync(['ai', '--cwd', repo.dir, '--investigate'], {
      env: isolatedUser({ CHECKER_PROVIDER_ENDPOINT: 'ftp://x' }),
    });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /checker: config\/user-invalid: .*CHECKER_PROVIDER_ENDPOINT/);
    const folder = makeTempDir('checker-user-');
    writeFileSync(join(folder, 'config.yml'), 'products:\n  allowHosts: ["*"]\n');
    const badFile = await runCliAsync(['ai', '--cwd', repo.dir, '--investigate'], {
      env: { CHECKER_USER_CONFIG: join(folder, 'config.yml') },
    });
    assert.equal(badFile.code, 2);
    assert.match(badFile.stderr, /checker: config\/user-invalid: .*config\.yml.*allowHosts/);
    assert.equal(requests.length, 0);
  });

  it('a garbage reply: exit 0, a limitation, the same risk', async () => {
    reply = 'Sure! Here are some risks: <<<not json>>>';
    const result = await runCliAsync(['ai', '--cwd', repo.dir, '--investigate', '--format', 'json'], {
      env: isolatedUser({ CHECKER_PROVIDER_ENDPOINT: sinkUrl, CHECKER_PROVIDER_MODEL: 'm' }),
    });
    const plain = await runCliAsync(['ai', '--cwd', repo.dir, '--format', 'json'], { env: isolatedUser() });
    assert.equal(result.code, 0, result.stderr);
    const bundle = JSON.parse(result.stdout) as AgentBundle;
    const baseline = JSON.parse(plain.stdout) as AgentBundle;
    assert.equal(bundle.investigation?.status, 'failed');
    assert.equal(bundle.investigation?.failure, 'reply');
    assert.ok(bundle.limitations.some((item) => item.code === 'investigation/unusable-reply'));
    assert.match(result.stderr, /checker: investigation\/unusable-reply: /);
    assert.deepEqual(bundle.tasks, baseline.tasks);
    assert.deepEqual(bundle.evidence.summary.mergeRisk, baseline.evidence.summary.mergeRisk);
  });

  it('the dry run payload names no key and no endpoint a repository chose beyond loopback', async () => {
    const dry = await runCliAsync(['ai', '--cwd', repo.dir, '--investigate', '--dry-run', '--format', 'json'], {
      env: isolatedUser({ GITHUB_TOKEN: SECRET }),
    });
    assert.equal(dry.code, 0, dry.stderr);
    const report = JSON.parse(dry.stdout) as InvestigationReport;
    assert.equal(report.sent, false);
    assert.equal(dry.stdout.includes(SECRET), false);
    assert.equal(requests.length, 0);
  });
});

describe('product targets stay on loopback unless the user allows a host', () => {
  it('a baseUrl on a link-local address is refused before its start command runs; the plan says why', async () => {
    const repo = createRepo({
      ...FILES,
      '.checker/config.yml': [
        'safety:',
        '  allowCommands: true',
        'products:',
        '  targets:',
        '    web:',
        '      kind: api',
        '      baseUrl: http://169.254.169.254/',
        '      start:',
        '        command: touch started.ran',
        '',
      ].join('\n'),
    });
    try {
      const result = await runCliAsync(['product', '--cwd', repo.dir, '--target', 'web'], { env: isolatedUser() });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /checker: product\/host-not-allowed: products\.targets\.web\.baseUrl .* is on 169\.254\.169\.254/);
      assert.match(result.stderr, /CHECKER_ALLOW_HOSTS=169\.254\.169\.254/);
      assert.equal(existsSync(join(repo.dir, 'started.ran')), false);
    } finally {
      repo.cleanup();
    }
  });
});

describe('the trust helpers', () => {
  it('loopback means this machine in every spelling, and nothing else', () => {
    for (const host of ['localhost', '127.0.0.1', '127.8.9.10', '[::1]', '::1', '0.0.0.0', '[::ffff:7f00:1]', 'LOCALHOST'])
      assert.equal(isLoopbackHost(host), true, host);
    for (const host of [
      '169.254.169.254',
      '10.0.0.1',
      '192.168.1.1',
      'localhost.evil.test',
      '128.0.0.1',
      '[::2]',
      'example.test',
      '127.0.0.1.nip.io',
    ])
      assert.equal(isLoopbackHost(host), false, host);
    assert.equal(isUrlHostAllowed('http://2130706433:3000/', []), true, 'a decimal IPv4 is normalised by the URL parser');
    assert.equal(isUrlHostAllowed('http://staging.test:8080/', ['staging.test']), true);
    assert.equal(isUrlHostAllowed('http://staging.test:8080/', ['staging.test:8081']), false);
    assert.equal(isUrlHostAllowed('https://staging.test/', ['STAGING.test:443']), true);
    assert.equal(isUrlHostAllowed('not a url', ['not a url']), false);
  });

  it('the power keys a change alters, entry by entry, whatever order a file writes them in', () => {
    assert.deepEqual(
      diffPowerKeys(
        { safety: { allowCommands: false }, checks: { a: { command: 'x', timeoutMs: 5 } }, analysis: { maxFileBytes: 2048 } },
        { safety: { allowCommands: false }, checks: { a: { timeoutMs: 5, command: 'x' } }, analysis: { maxFileBytes: 4096 } },
      ),
      [],
    );
    assert.deepEqual(
      diffPowerKeys(
        { checks: { a: { command: 'x' } }, products: { targets: { web: { kind: 'api', baseUrl: 'http://127.0.0.1/' } } } },
        {
          checks: { a: { command: 'y' }, b: { command: 'z' } },
          products: { targets: { web: { kind: 'api', baseUrl: 'http://127.0.0.1:1/' } } },
          toolAdapters: { agentProcess: { command: 'agent' } },
          investigation: { provider: { kind: 'local', command: 'x' } },
          analysis: { defaultBranch: 'feature' },
        },
      ),
      ['analysis.defaultBranch', 'checks.a', 'checks.b', 'investigation.provider', 'products.targets', 'toolAdapters.agentProcess'],
    );
  });
});
