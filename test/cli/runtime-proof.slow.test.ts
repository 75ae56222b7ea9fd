import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AuditTestsReport } from '../../src/model/reports.js';
import type { ExecutionReport } from '../../src/model/execution.js';
import type { AgentBundle } from '../../src/model/bundle.js';
import { getValidator } from '../../src/io/schema.js';
import { runCliAsync } from '../helpers/cli.js';
import { isOnlyInsideFences } from '../helpers/markdown-fences.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';

/**
 * Runtime proof from a real run: `checker execute` runs a TypeScript node:test suite through tsx with V8 coverage
 * into .checker/local/executions/<run>/coverage/<check>, maps it through tsx's source maps onto the change's lines,
 * and the next analysis (audit-tests here; ai and redteam read the same) says runtime-proven or runtime-unproven
 * with the check named. A failing suite is a failure, never proof.
 */
const NODE = JSON.stringify(process.execPath);
const TSX = JSON.stringify(import.meta.resolve('tsx/esm'));
const CONFIG = [
  'safety:\n  allowCommands: true',
  'checks:',
  `  unit:\n    argv: [${NODE}, --import, ${TSX}, --test, test/divide.test.ts]`,
  '',
].join('\n');

const DIVIDE = [
  'export interface Options {',
  '  strict: boolean;',
  '}',
  'export function divide(a: number, b: number, options?: Options): number {',
  '  if (b === 0) return 0;',
  '  return a / b;',
  '}',
  '',
].join('\n');

const TEST = [
  "import { test } from 'node:test';",
  "import assert from 'node:assert';",
  "import { divide } from '../src/divide.ts';",
  "test('divides', () => assert.equal(divide(8, 2), 4));",
  '',
].join('\n');

async function execute(repo: TestRepo): Promise<ExecutionReport> {
  const result = await runCliAsync(['execute', '--cwd', repo.dir, '--base', 'HEAD', '--format', 'json']);
  const report = JSON.parse(result.stdout) as ExecutionReport;
  assert.equal(getValidator('execution-report')(report), true);
  return report;
}

async function auditProof(repo: TestRepo): Promise<AuditTestsReport> {
  const result = await runCliAsync(['audit-tests', '--cwd', repo.dir, '--base', 'HEAD', '--format', 'json']);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as AuditTestsReport;
}

describe('runtime proof from checker execute (real test runs with V8 coverage)', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo({
      'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', type: 'module' }),
      'src/divide.ts': DIVIDE,
      'test/divide.test.ts': TEST,
      '.checker/config.yml': CONFIG,
    });
  });
  after(() => repo.cleanup());

  it('a changed line the passing suite ran is runtime-proven, a new branch it never takes is runtime-unproven, both naming the check', async () => {
    // Line 5 gains a strict branch no test takes; line 6 (always run for b != 0) is modified.
    repo.write({
      'src/divide.ts': DIVIDE.replace(
        '  if (b === 0) return 0;\n  return a / b;',
        "  if (b === 0) {\n    if (options?.strict) throw new Error('zero');\n    return 0;\n  }\n  return (a / b) * 1;",
      ),
    });
    const report = await execute(repo);
    assert.deepEqual(
      report.checks.map((check) => [check.id, check.status]),
      [['unit', 'passed']],
    );
    assert.ok((report.checks[0]?.coverage?.files ?? 0) > 0, 'the suite wrote V8 coverage');
    // New lines 5-9: `if (b === 0) {` ran (count 1), its body (6-8) never did, `return (a / b) * 1;` ran.
    assert.deepEqual(report.runtimeProof, {
      files: [{ path: 'src/divide.ts', state: 'runtime-unproven', coveredLines: [5, 9], uncoveredLines: [6, 7, 8], checks: ['unit'] }],
      notExecuted: [],
      failedChecks: [],
    });

    const audit = await auditProof(repo);
    const proof = audit.changedPathProof.find((entry) => entry.path === 'src/divide.ts');
    assert.equal(proof?.state, 'runtime-unproven');
    assert.deepEqual(proof?.runtimeChecks, ['unit']);
    assert.deepEqual(
      [proof?.coveredChangedLines, proof?.uncoveredChangedLines],
      [
        [5, 9],
        [6, 7, 8],
      ],
    );
    assert.match(proof?.reason ?? '', /; runtime evidence from check unit \(checker execute\)$/);
    assert.equal(audit.testEvidence.freshness, 'fresh');
    assert.match(audit.testEvidence.note, /check unit \(checker execute run /);
  });

  it('when the suite also takes the new branch, every changed line ran: runtime-proven', async () => {
    repo.write({
      'test/divide.test.ts': `${TEST}test('strict zero', () => assert.throws(() => divide(1, 0, { strict: true })));\ntest('zero', () => assert.equal(divide(1, 0), 0));\n`,
    });
    const report = await execute(repo);
    assert.deepEqual(report.runtimeProof?.files, [
      { path: 'src/divide.ts', state: 'runtime-proven', coveredLines: [5, 6, 7, 8, 9], uncoveredLines: [], checks: ['unit'] },
    ]);
    const proof = (await auditProof(repo)).changedPathProof.find((entry) => entry.path === 'src/divide.ts');
    assert.equal(proof?.state, 'runtime-proven');
    assert.deepEqual(proof?.runtimeChecks, ['unit']);
  });

  it('a failing suite is a failure: exit 1, its coverage is not proof, and the analysis says the check failed', async () => {
    repo.write({ 'test/divide.test.ts': `${TEST}test('wrong', () => assert.equal(divide(9, 3), 4));\n` });
    const result = await runCliAsync(['execute', '--cwd', repo.dir, '--base', 'HEAD', '--format', 'json']);
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as ExecutionReport;
    assert.deepEqual(
      report.checks.map((check) => [check.id, check.status]),
      [['unit', 'failed']],
    );
    assert.deepEqual(report.runtimeProof, { files: [], notExecuted: [], failedChecks: ['unit'] });
    assert.match(result.stderr, /checker: running unit \(1\/1\): /);
    assert.match(result.stderr, /checker: unit: failed \(exited 1\) in \d+\.\d s/);

    const audit = await auditProof(repo);
    const proof = audit.changedPathProof.find((entry) => entry.path === 'src/divide.ts');
    assert.notEqual(proof?.state, 'runtime-proven');
    assert.notEqual(proof?.state, 'runtime-unproven');
    assert.equal(proof?.runtimeChecks, undefined);
    assert.ok(audit.limitations.some((item) => item.code === 'execute/failed-checks' && item.message.includes('unit did not pass')));
  });

  it('ai --with-checks runs the checks first: the bundle holds their results and output (untrusted), a fix task for the failure, and the run in its execution record', async () => {
    // The suite still has the failing test from the case above.
    const result = await runCliAsync(['ai', '--cwd', repo.dir, '--base', 'HEAD', '--with-checks', '--format', 'json']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /checker: 1 check did not pass: unit/);
    const bundle = JSON.parse(result.stdout) as AgentBundle;
    assert.equal(getValidator('agent-bundle')(bundle), true);
    assert.equal(bundle.execution.checks.ran, true);
    assert.match(bundle.execution.checks.reason, /^--with-checks: 1 of 1 ran, 0 passed, 1 failed, 0 timed out$/);
    assert.match(bundle.execution.checks.recordPath ?? '', /^\.checker\/local\/executions\/.+\/result\.json$/);
    const unit = bundle.verification.checks?.results.find((check) => check.id === 'unit');
    assert.equal(unit?.status, 'failed');
    assert.match(unit?.output ?? '', /# fail 1/);
    assert.deepEqual(bundle.tasks[0] && [bundle.tasks[0].kind, bundle.tasks[0].id, bundle.tasks[0].evidenceIds], [
      'check-failure',
      'task:check:unit',
      ['check:unit'],
    ]);

    const markdown = await runCliAsync(['ai', '--cwd', repo.dir, '--base', 'HEAD', '--with-checks']);
    assert.match(markdown.stdout, /## Verification results \(--with-checks, run /);
    assert.match(markdown.stdout, /Checks ran: yes \(run /);
    // The suite's output sits only inside fences marked untrusted.
    assert.ok(markdown.stdout.includes('# fail 1'));
    assert.equal(isOnlyInsideFences(markdown.stdout, '# fail 1'), true);
  });

  it('ai --with-checks with the gate closed runs nothing and says why; without the flag nothing runs either', async () => {
    repo.commitFiles({ '.checker/config.yml': CONFIG.replace('allowCommands: true', 'allowCommands: false') });
    const result = await runCliAsync(['ai', '--cwd', repo.dir, '--base', 'HEAD', '--with-checks', '--format', 'json']);
    assert.equal(result.code, 0, result.stderr);
    const bundle = JSON.parse(result.stdout) as AgentBundle;
    assert.equal(bundle.execution.checks.ran, false);
    assert.match(bundle.execution.checks.reason, /^--with-checks was given, but closed: safety\.allowCommands is not true/);
    assert.deepEqual(
      bundle.verification.checks?.results.map((check) => [check.id, check.status]),
      [['unit', 'skipped']],
    );
    assert.match(result.stderr, /checker: --with-checks: --with-checks was given, but closed/);
    repo.commitFiles({ '.checker/config.yml': CONFIG });
    const plain = JSON.parse((await runCliAsync(['ai', '--cwd', repo.dir, '--base', 'HEAD', '--format', 'json'])).stdout) as AgentBundle;
    assert.equal(plain.execution.checks.ran, false);
    assert.equal(plain.verification.checks, undefined);
  });
});
