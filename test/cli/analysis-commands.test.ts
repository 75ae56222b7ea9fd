import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getValidator } from '../../src/io/schema.js';
import type { AnalysisReport, ImpactReport } from '../../src/model/reports.js';
import { createChangeFixture, type ChangeFixture } from '../helpers/analysis-fixtures.js';
import { runCliAsync, type CliResult } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/git-repo.js';
import { rmSync } from 'node:fs';

const money = (digits: number): string =>
  `export function formatPrice(cents: number): string {\n  return (cents / 100).toFixed(${digits});\n}\n`;
const BASE = {
  '.gitignore': 'coverage/\nnode_modules/\n',
  'package.json': JSON.stringify({
    name: 'cli',
    type: 'module',
    dependencies: { express: '^4.19.0' },
    devDependencies: { vitest: '^1.6.0' },
  }),
  'src/money.ts': money(2),
  'src/money.test.ts':
    "import { it, expect } from 'vitest';\nimport { formatPrice } from './money';\nit('formats', () => {\n  expect(formatPrice(100)).toBe('1.00');\n});\n",
  'src/routes/orders.ts':
    "import { Router } from 'express';\nimport { formatPrice } from '../money';\nexport const orders = Router();\norders.get('/orders/:id', (req, res) => {\n  res.send(formatPrice(Number.parseInt(req.params.id, 10)));\n});\n",
  'src/server.ts':
    "import express from 'express';\nimport { orders } from './routes/orders';\nconst app = express();\napp.use('/api', orders);\n",
};
const CHANGE = { 'src/money.ts': `${money(3).replace('  return', '  console.log(cents);\n  return')}` };

const COMMANDS = [
  {
    command: 'analyze',
    schema: 'analysis-report',
    title: '# Merge-safety analysis',
    mermaid: true,
    headings: [
      'Change map',
      'Risk',
      'Changed files',
      'Impacted files',
      'Impacted routes',
      'Symbol impacts',
      'Impacted areas',
      'Changed-path proof',
      'Test evidence',
      'Weak tests',
      'Missing tests',
      'Edge cases',
      'Owners',
      'Decisions',
      'Memory',
      'Design contracts crossed',
      'History',
      'Pattern matches',
      'Tool recommendations',
      'Findings',
      'Limitations',
    ],
  },
  {
    command: 'impact',
    schema: 'impact-report',
    title: '# Change impact',
    mermaid: true,
    headings: ['Change map', 'Changed files', 'Impacted files', 'Impacted routes', 'Symbol impacts', 'Impacted areas', 'Limitations'],
  },
  {
    command: 'audit-tests',
    schema: 'audit-tests-report',
    title: '# Test audit',
    mermaid: false,
    headings: ['Changed-path proof', 'Test evidence', 'Weak tests', 'Missing tests', 'Recommended checks', 'Limitations'],
  },
  { command: 'edge-cases', schema: 'edge-cases-report', title: '# Edge cases', mermaid: false, headings: ['Scenarios', 'Limitations'] },
  {
    command: 'tools',
    schema: 'tools-report',
    title: '# Tool recommendations',
    mermaid: false,
    headings: ['Recommendations', 'Repository shape', 'Limitations'],
  },
  {
    command: 'patterns',
    schema: 'patterns-report',
    title: '# Pattern matches',
    mermaid: false,
    headings: ['Matches by rule', 'Limitations'],
  },
  {
    command: 'redteam',
    schema: 'redteam-report',
    title: '# Red-team merge-safety report',
    mermaid: false,
    headings: [
      'Merge risk',
      'Fix tasks',
      'Impacted areas',
      'Changed-path proof',
      'Weak tests',
      'Missing tests',
      'Edge cases',
      'Configured checks',
      'Memory',
      'Safety',
      'Limitations',
    ],
  },
] as const;

/** `## ` headings with their counts (` (3)`) removed. */
const toHeadings = (markdown: string): string[] =>
  markdown
    .split('\n')
    .filter((line) => line.startsWith('## '))
    .map((line) => line.slice(3).replace(/ \(\d+\)$/, ''));

describe('the seven analysis commands on one fixture, in both formats', () => {
  let fixture: ChangeFixture;
  const results = new Map<string, CliResult>();
  before(async () => {
    fixture = createChangeFixture(BASE, CHANGE);
    const queue = COMMANDS.flatMap(({ command }) => (['json', 'markdown'] as const).map((format) => ({ command, format })));
    // Two at a time: the machine has two cores and each run starts its own parse workers.
    const work = async (): Promise<void> => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const { command, format } = next;
        results.set(
          `${command} ${format}`,
          await runCliAsync([command, '--cwd', fixture.repo.dir, '--base', 'HEAD~1', '--head', 'HEAD', '--format', format]),
        );
      }
    };
    await Promise.all([work(), work()]);
  });
  after(() => fixture.repo.cleanup());

  for (const { command, schema, title, mermaid, headings } of COMMANDS) {
    test(`checker ${command} --format json exits 0 and validates against ${schema}`, () => {
      const result = results.get(`${command} json`);
      assert.ok(result !== undefined);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, '');
      const report: unknown = JSON.parse(result.stdout);
      const validate = getValidator(schema);
      assert.equal(validate(report), true, JSON.stringify(validate.errors));
    });

    test(`checker ${command} --format markdown exits 0 with its headings${mermaid ? ' and a mermaid block' : ''}`, () => {
      const result = results.get(`${command} markdown`);
      assert.ok(result !== undefined);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.split('\n')[0], title);
      assert.deepEqual(toHeadings(result.stdout), headings);
      assert.equal(result.stdout.includes('```mermaid\n'), mermaid);
    });
  }

  test('the impact of the range is the same in every view', () => {
    const impact = JSON.parse(results.get('impact json')?.stdout ?? '{}') as ImpactReport;
    const analysis = JSON.parse(results.get('analyze json')?.stdout ?? '{}') as AnalysisReport;
    assert.deepEqual(
      impact.impactedFiles.map((file) => file.path),
      ['src/money.test.ts', 'src/routes/orders.ts', 'src/server.ts'],
    );
    assert.deepEqual(
      impact.impactedRoutes.map((route) => route.id),
      ['route:GET /api/orders/:id'],
    );
    assert.deepEqual(analysis.impactedFiles, impact.impactedFiles);
    assert.deepEqual(
      analysis.context.patterns.map((match) => [match.path, match.line, match.provenance]),
      [['src/money.ts', 2, 'patterns@1.0.0#pattern/console-log']],
    );
    assert.deepEqual(
      analysis.changedPathProof.map((proof) => [proof.path, proof.state]),
      [['src/money.ts', 'static-only']],
    );
  });
});

describe('analysis command errors and the working tree as head', () => {
  let fixture: ChangeFixture;
  let plain: string;
  before(() => {
    fixture = createChangeFixture(BASE, CHANGE, { worktree: true });
    plain = makeTempDir('checker-not-git-');
  });
  after(() => {
    fixture.repo.cleanup();
    rmSync(plain, { recursive: true, force: true });
  });

  const expectError = (result: CliResult, code: string): void => {
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, new RegExp(`^checker: ${code}: `));
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  };

  test('errors: unknown ref, invalid ref, not a repository; the uncommitted change is analysed', async () => {
    const [missing, invalid, notRepo, worktree] = await Promise.all([
      runCliAsync(['analyze', '--cwd', fixture.repo.dir, '--base', 'no-such-branch', '--format', 'json']),
      runCliAsync(['impact', '--cwd', fixture.repo.dir, '--base', '-x']),
      runCliAsync(['audit-tests', '--cwd', plain]),
      runCliAsync(['analyze', '--cwd', fixture.repo.dir, '--base', 'HEAD', '--format', 'json']),
    ]);
    expectError(missing, 'git/ref-not-found');
    assert.match(missing.stderr, /no-such-branch/);
    expectError(invalid, 'git/ref-invalid');
    assert.match(invalid.stderr, /"-x"/);
    expectError(notRepo, 'git/not-a-repository');

    assert.equal(worktree.code, 0, worktree.stderr);
    const report = JSON.parse(worktree.stdout) as AnalysisReport;
    assert.equal(getValidator('analysis-report')(report), true);
    assert.deepEqual(report.range.head, { ref: 'WORKTREE' });
    assert.equal(report.range.base.oid, fixture.base);
    assert.deepEqual(
      report.changedFiles.map((file) => [file.path, file.status, file.additions, file.deletions]),
      [['src/money.ts', 'modified', 2, 1]],
    );
    assert.deepEqual(
      report.impactedRoutes.map((route) => route.id),
      ['route:GET /api/orders/:id'],
    );
  });
});
