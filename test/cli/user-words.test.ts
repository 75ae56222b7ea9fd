import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentBundle } from '../../src/model/bundle.js';
import type { TaskContextPacket } from '../../src/model/context-packet.js';
import type { PreflightReport } from '../../src/model/preflight.js';
import { runCliAsync, type CliResult } from '../helpers/cli.js';
import { createRepo, type TestRepo } from '../helpers/git-repo.js';

const TASK = 'parse invoice totals';

function stdoutOf(result: CliResult): string {
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

describe('words users read (issue 42, item 7)', () => {
  let repo: TestRepo;
  before(() => {
    repo = createRepo({
      'package.json': JSON.stringify({ name: 'ledger', type: 'module' }),
      'src/invoice.ts': "export function parseInvoiceTotal(text: string): number {\n  return Number(text.replace(/\\s/g, ''));\n}\n",
      'docs/invoice-requirements.yml':
        'acceptanceCriteria:\n  - id: AC-1\n    text: invoice totals parse with spaces\n    requiredProof: [unit]\n',
      'test/invoice.test.ts':
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('invoice total', () => {\n  assert.equal(1, 1);\n});\n",
      'checker.config.yml': 'checks:\n  unit:\n    command: node --version\n',
    });
    repo.write({
      'src/invoice.ts': "export function parseInvoiceTotal(text: string): number {\n  return Number(text.replace(/\\s+/g, ''));\n}\n",
    });
    repo.commit('spaces in runs');
  });
  after(() => repo.cleanup());

  it("the bundle's checks reason does not say ai/agent never runs commands: it names --with-checks", async () => {
    const bundle = JSON.parse(
      stdoutOf(await runCliAsync(['ai', '--base', 'HEAD~1', '--cwd', repo.dir, '--format', 'json'])),
    ) as AgentBundle;
    assert.equal(bundle.execution.checks.ran, false);
    assert.doesNotMatch(bundle.execution.checks.reason, /never runs commands/);
    assert.match(bundle.execution.checks.reason, /only with --with-checks/);
  });

  it('an edge-case title quoting a changed regex keeps its brackets balanced', async () => {
    const markdown = stdoutOf(await runCliAsync(['ai', '--base', 'HEAD~1', '--cwd', repo.dir, '--format', 'markdown']));
    const titles = markdown.split('\n').filter((line) => line.includes('changes the pattern'));
    assert.ok(titles.length > 0, markdown);
    for (const title of titles) {
      // The pattern alone, followed by the end of the title (":", " (high confidence" or a table cell), never "(/\s+/g".
      assert.match(title, /changes the pattern \/\\{1,2}s\+\/g(?::| \(| \|)/, title);
      assert.doesNotMatch(title, /changes the pattern \(/, title);
    }
  });

  it('preflight says the words of the task, never their stems, and counts without "(s)"', async () => {
    const report = JSON.parse(
      stdoutOf(await runCliAsync(['ai', 'preflight', '--cwd', repo.dir, '--task', TASK, '--format', 'json'])),
    ) as PreflightReport;
    assert.deepEqual(report.repositoryEvidence.terms.domain, ['parse', 'invoice', 'totals']);
    const markdown = stdoutOf(await runCliAsync(['ai', 'preflight', '--cwd', repo.dir, '--task', TASK, '--format', 'markdown']));
    assert.match(markdown, /Domain terms: parse, invoice, totals;/);
    assert.match(markdown, /"invoice" on path \(file:docs\/invoice-requirements\.yml\)/);
    assert.doesNotMatch(markdown, /\binvoic\b|\bpars\b|\(s\)/);
  });

  it('the context packet ranks its rows by the relevance it shows, in the task words', async () => {
    const packet = JSON.parse(
      stdoutOf(await runCliAsync(['context', '--cwd', repo.dir, '--task', TASK, '--format', 'json'])),
    ) as TaskContextPacket;
    assert.ok(packet.nodes.length > 2);
    assert.deepEqual(
      packet.nodes.map((node) => node.rank),
      packet.nodes.map((_node, index) => index + 1),
    );
    const relevance = packet.nodes.map((node) => node.relevance);
    assert.deepEqual(
      relevance,
      [...relevance].sort((left, right) => right - left),
    );
    assert.ok(packet.nodes.some((node) => node.pinned && node.rank > 1 && node.kind === 'file'));
    const markdown = stdoutOf(await runCliAsync(['context', '--cwd', repo.dir, '--task', TASK, '--format', 'markdown']));
    const shown = [...markdown.matchAll(/^\| \d+ \| [^|]+ \| [^|]+ \| (\d\.\d{4}) \|/gm)].map((match) => Number(match[1]));
    assert.ok(shown.length > 2, markdown);
    assert.deepEqual(
      shown,
      [...shown].sort((left, right) => right - left),
    );
    assert.doesNotMatch(markdown, /\binvoic\b|\bpars\b|\(s\)/);
  });

  it('a YAML requirements file with a syntax error says what is wrong and where, without a dangling position', async () => {
    repo.write({ 'docs/broken.yml': 'acceptanceCriteria:\n- id: [\n' });
    try {
      const result = await runCliAsync(['ai', 'preflight', '--cwd', repo.dir, '--task', TASK, '--requirements', 'docs/broken.yml']);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /input\/malformed: docs\/broken\.yml is not valid YAML: \S.* \(line \d+, column \d+\)\n/);
      assert.doesNotMatch(result.stderr, /column \d+:/);
    } finally {
      repo.remove('docs/broken.yml');
    }
  });
});
