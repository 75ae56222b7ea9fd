import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse } from 'yaml';
import { createRepo, makeTempDir, type TestRepo } from '../helpers/git-repo.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const INSTALL_TIMEOUT = 300_000;

/**
 * The environment a user's shell would give npm and the installed CLI: without what `npm test` sets for its own
 * package (its prefix, its package.json) and without NODE_OPTIONS, so nothing reaches back into this checkout.
 */
function getUserEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const isOwnRun = /^npm_(package_|lifecycle_|command$|config_(local_)?prefix$)/.test(key) || key === 'NODE_OPTIONS';
    if (!isOwnRun) env[key] = value;
  }
  return env;
}

function run(command: string, args: string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, {
    cwd,
    env: getUserEnv(),
    encoding: 'utf8',
    timeout: INSTALL_TIMEOUT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface ActionStep {
  id?: string;
  run?: string;
}

/** Runs one `shell: bash` step of action.yml as the runner does (bash --noprofile --norc -eo pipefail), with `env`. */
function runActionStep(id: string, cwd: string, env: Record<string, string>): { code: number | null; stdout: string; stderr: string } {
  const action = parse(readFileSync(join(projectRoot, 'action.yml'), 'utf8')) as { runs: { steps: ActionStep[] } };
  const step = action.runs.steps.find((candidate) => candidate.id === id);
  assert.ok(step?.run !== undefined, `action.yml has no run step ${id}`);
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
    cwd,
    env: { ...getUserEnv(), ...env },
    encoding: 'utf8',
    timeout: INSTALL_TIMEOUT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function createShopRepo(): TestRepo {
  const repo = createRepo({
    'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }),
    'src/money.ts': 'export function toCents(amount: number): number {\n  return Math.round(amount * 100);\n}\n',
    'src/order.ts': "import { toCents } from './money.js';\nexport const orderTotal = (amount: number): number => toCents(amount);\n",
    'api/pricing.py': 'def price(x):\n    return x * 2\n',
    'api/test_pricing.py': 'from api.pricing import price\n\n\ndef test_price():\n    assert price(1) == 2\n',
  });
  repo.write({
    'src/money.ts': 'export function toCents(amount: number): number {\n  const cents = amount * 100;\n  return Math.round(cents);\n}\n',
    'api/pricing.py': 'def price(x):\n    if x < 0:\n        raise ValueError("negative")\n    return x * 2\n',
  });
  repo.commit('round once');
  return repo;
}

// The dist/ that `npm test` has just built is packed as it is (--ignore-scripts): a prepare run here would rebuild
// dist/ under the other test files that run it.
describe('checker-cli packed and installed into an empty prefix (a registry install of its dependencies: minutes)', {
  timeout: INSTALL_TIMEOUT * 2,
}, () => {
  let prefix: string;
  let bin: string;
  let repo: TestRepo;

  before(
    () => {
      assert.ok(existsSync(join(projectRoot, 'dist/bundle/main.js')), 'dist/bundle/main.js is missing: run npm run build first');
      const packDir = makeTempDir('checker-pack-');
      const packed = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], projectRoot);
      assert.equal(packed.code, 0, packed.stderr);
      const [tarball] = JSON.parse(packed.stdout) as { filename: string }[];
      assert.ok(tarball !== undefined, packed.stdout);
      // Installed as the GitHub Action installs it: its own install step, given the tarball as its `package` input.
      const runnerTemp = makeTempDir('checker-runner-');
      const githubEnv = join(runnerTemp, 'github-env');
      writeFileSync(githubEnv, '');
      const installed = runActionStep('install', runnerTemp, {
        CHECKER_PACKAGE: join(packDir, tarball.filename),
        RUNNER_TEMP: runnerTemp,
        GITHUB_ACTION_PATH: projectRoot,
        GITHUB_ENV: githubEnv,
      });
      assert.equal(installed.code, 0, installed.stderr);
      prefix = join(runnerTemp, 'checker-cli');
      bin = join(prefix, 'node_modules/.bin/checker');
      assert.equal(readFileSync(githubEnv, 'utf8'), `CHECKER_BIN=${bin}\n`);
      repo = createShopRepo();
    },
    { timeout: INSTALL_TIMEOUT },
  );
  after(() => repo?.cleanup());

  it('installs the bundle and its externals only: one bin named checker (what npx -y checker-cli runs), no unbundled dist/', () => {
    const packageDir = join(prefix, 'node_modules/checker-cli');
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    assert.deepEqual(Object.keys(manifest.bin), ['checker']);
    // The licence the manifest names ships with the code.
    assert.match(readFileSync(join(packageDir, 'LICENSE'), 'utf8'), /^MIT License\n/);
    assert.deepEqual(readdirSync(join(packageDir, 'dist')).sort(), ['bundle', 'grammars', 'rules-compiled', 'schemas-compiled', 'worker']);
    assert.deepEqual(readdirSync(join(packageDir, 'dist/worker')).sort(), ['change-worker.js', 'parse-worker.js']);
    for (const bundled of ['@modelcontextprotocol', 'zod', 'citty', 'graphology', 'yaml', '@vscode/tree-sitter-wasm']) {
      assert.equal(existsSync(join(prefix, 'node_modules', bundled)), false, `${bundled} is bundled, not installed`);
    }
  });

  it('node_modules/.bin/checker --help exits 0 with the usage', () => {
    const result = run(bin, ['--help'], prefix);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Usage: checker <command>/);
  });

  it('checker ai --format json prints an agent bundle for a real repository', () => {
    const result = run(bin, ['ai', '--format', 'json', '--cwd', repo.dir, '--base', 'HEAD~1'], prefix);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { kind: string; evidence: { testRun: { commands: { command: string }[] } } };
    assert.equal(report.kind, 'agent-bundle');
    // The Python grammar comes from the package's own dist/grammars: the changed module's test is found and run.
    assert.ok(
      report.evidence.testRun.commands.some((command) => command.command === 'python -m pytest api/test_pricing.py'),
      JSON.stringify(report.evidence.testRun),
    );
  });

  it("the Action's checker step runs the installed package: checker ci on a pull request's range, outputs and summary written", () => {
    const scratch = makeTempDir('checker-action-run-');
    const output = join(scratch, 'output.txt');
    const summary = join(scratch, 'summary.md');
    const result = runActionStep('checker', repo.dir, {
      CHECKER_BIN: bin,
      CHECKER_PROFILE: 'generic',
      CHECKER_FAIL_ON: '',
      CHECKER_BASE: repo.git('rev-parse', 'HEAD~1'),
      CHECKER_HEAD: repo.git('rev-parse', 'HEAD'),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(readFileSync(output, 'utf8'), /^gate<<\S+\npassed\n/m);
    assert.match(readFileSync(summary, 'utf8'), /^## checker: merge safety/);
  });

  it('checker mcp answers an SDK client over stdio: lists its tools and runs impact_map', async () => {
    const transport = new StdioClientTransport({ command: bin, args: ['mcp', '--cwd', repo.dir], cwd: prefix, stderr: 'pipe' });
    const client = new Client({ name: 'checker-install-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(
        tools.some((tool) => tool.name === 'impact_map'),
        tools.map((tool) => tool.name).join(', '),
      );
      const result = await client.callTool({ name: 'impact_map', arguments: { base: 'HEAD~1', head: 'HEAD' } }, undefined, {
        timeout: 120_000,
      });
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      assert.equal((result.structuredContent as { kind?: string } | undefined)?.kind, 'impact');
    } finally {
      await client.close();
    }
  });
});
