import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { createRepo, makeTempDir } from '../helpers/git-repo.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

interface ActionStep {
  id?: string;
  name?: string;
  uses?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}

interface ActionFile {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

const action = parse(readFileSync(join(projectRoot, 'action.yml'), 'utf8')) as ActionFile;

/** `${{ inputs.x }}` and `${{ github.workspace }}` as the runner expands them in a step's env and working-directory. */
function expand(text: string, inputs: Record<string, string>, workspace: string): string {
  return text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, expression: string) => {
    if (expression.startsWith('inputs.')) return inputs[expression.slice('inputs.'.length)] ?? '';
    if (expression === 'github.workspace') return workspace;
    throw new Error(`the test does not expand \${{ ${expression} }}`);
  });
}

/**
 * GITHUB_ACTION_PATH for the run: the project itself when the suite runs the built CLI (`npm test`), else a folder whose
 * bin/checker.js loads the TypeScript sources through tsx, so a single test file never runs a stale build.
 */
function actionPath(scratch: string): { path: string; nodeOptions?: string } {
  if (process.env.CHECKER_TEST_CLI === 'dist') return { path: projectRoot };
  const path = join(scratch, 'action');
  mkdirSync(join(path, 'bin'), { recursive: true });
  // As in the project's package.json: without it the shim is CommonJS and tsx loads part of the CLI twice.
  writeFileSync(join(path, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(path, 'bin', 'checker.js'), `import ${JSON.stringify(pathToFileURL(join(projectRoot, 'src/cli/main.ts')).href)};\n`);
  return { path, nodeOptions: `--import ${import.meta.resolve('tsx')}` };
}

describe('action.yml: the GitHub Action', () => {
  const repo = createRepo({ 'src/payments/refund.ts': 'export function refund(amount: number): number {\n  return amount;\n}\n' });
  const base = repo.git('rev-parse', 'HEAD');
  repo.write({ 'src/payments/refund.ts': 'export function refund(amount: number): number {\n  return Math.max(0, amount);\n}\n' });
  const head = repo.commit('never refund below zero');
  const scratch = makeTempDir('checker-action-');
  after(() => repo.cleanup());

  it('declares fail-on, profile and the outputs the run step writes, and caches .checker/local/cache', () => {
    assert.equal(action.runs.using, 'composite');
    assert.deepEqual(Object.keys(action.inputs).sort(), [
      'base',
      'fail-on',
      'head',
      'package',
      'profile',
      'upload-sarif',
      'working-directory',
    ]);
    // It installs the packed package (test/cli/install.slow.test.ts runs this step on a tarball), never npm ci and a build.
    const install = action.runs.steps.find((step) => step.id === 'install');
    assert.ok(install?.run !== undefined && !install.run.includes('${{'), 'the package input reaches the script only through env');
    assert.match(install.run, /prefix="\$RUNNER_TEMP\/checker-cli"\nnpm install --prefix "\$prefix"/);
    assert.ok(!action.runs.steps.some((step) => /npm ci|npm run build/.test(step.run ?? '')), 'no npm ci and no build');
    assert.equal(action.inputs.profile?.default, 'generic');
    const cache = action.runs.steps.find((step) => step.uses?.startsWith('actions/cache@'));
    assert.equal(cache?.with?.path, '${{ inputs.working-directory }}/.checker/local/cache');
    for (const [name, output] of Object.entries(action.outputs)) assert.equal(output.value, `\${{ steps.checker.outputs.${name} }}`);
    const run = action.runs.steps.find((step) => step.id === 'checker');
    assert.ok(run?.run !== undefined && !run.run.includes('${{'), 'inputs reach the script only through env');
  });

  const runStep = (inputs: Record<string, string>) => {
    const step = action.runs.steps.find((candidate) => candidate.id === 'checker') as ActionStep;
    const values = { ...Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? ''])), ...inputs };
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, expand(value, values, repo.dir)]));
    const cwd = join(repo.dir, expand(step['working-directory'] ?? '.', values, repo.dir));
    const event = join(scratch, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 42, base: { sha: base }, head: { sha: head } } }));
    const summary = join(scratch, `summary-${Object.keys(inputs).join('-') || 'defaults'}.md`);
    const output = join(scratch, `output-${Object.keys(inputs).join('-') || 'defaults'}.txt`);
    const { path, nodeOptions } = actionPath(scratch);
    // As the runner starts a `shell: bash` step: bash --noprofile --norc -eo pipefail <script>.
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run ?? ''], {
      cwd,
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...(nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions }),
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: event,
        GITHUB_SHA: head,
        GITHUB_BASE_REF: 'main',
        GITHUB_WORKSPACE: repo.dir,
        GITHUB_ACTION_PATH: path,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_OUTPUT: output,
        ...stepEnv,
      },
    });
    const read = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
    return { ...result, summary: read(summary), outputs: parseOutputs(read(output)) };
  };

  it('runs its entry point on a repository with a simulated pull_request: summary file, outputs, exit per fail-on', () => {
    const passed = runStep({ 'fail-on': 'critical' });
    assert.equal(passed.status, 0, passed.stderr);
    assert.match(
      passed.stderr,
      /checker: ci: GitHub Actions, pull-request #42; base [0-9a-f]{12} \(GITHUB_EVENT_PATH pull_request\.base\.sha\), head [0-9a-f]{12} \(GITHUB_SHA\)/,
    );
    assert.match(passed.summary, /^## checker: merge safety\n\nMerge risk \*\*\d+\/100 \((low|medium|high)\)\*\*/);
    assert.match(passed.summary, /GitHub Actions, pull-request #42: `[0-9a-f]{12}` → `[0-9a-f]{12}`/);
    assert.equal(passed.outputs.gate, 'passed');
    assert.match(passed.outputs['risk-level'] ?? '', /^(low|medium|high)$/);
    assert.match(passed.outputs['risk-score'] ?? '', /^\d+$/);
    for (const name of Object.keys(action.outputs)) assert.ok(name in passed.outputs, `output ${name} is written`);
    assert.equal(passed.outputs['sarif-file'], join(repo.dir, '.checker/local/ci/checker.sarif'));
    const record = JSON.parse(readFileSync(join(repo.dir, '.checker/local/ci/ci.json'), 'utf8'));
    assert.deepEqual([record.range.base.oid, record.range.head.oid, record.ci.pullRequest], [base, head, '42']);

    const blocked = runStep({ 'fail-on': 'low', profile: 'codex' });
    assert.equal(blocked.status, 1, blocked.stderr);
    assert.equal(blocked.outputs.gate, 'failed');
    assert.match(blocked.stderr, /at or above --fail-on low/);
    assert.match(blocked.summary, /\*\*Gate failed\*\*/);

    const refused = runStep({ profile: 'robot' });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /usage\/invalid-profile/);
    assert.deepEqual([refused.summary, refused.outputs], ['', {}], 'a refused run writes no summary and no outputs');
  });
});

function parseOutputs(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const match = /^([\w-]+)<<(\S+)$/.exec(lines[index] ?? '');
    if (match === null) continue;
    const body: string[] = [];
    index += 1;
    while (index < lines.length && lines[index] !== match[2]) body.push(lines[index++] ?? '');
    values[match[1] as string] = body.join('\n');
  }
  return values;
}
