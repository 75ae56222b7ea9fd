import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ExecutionReport } from '../../src/model/execution.js';
import { renderExecutionMarkdown } from '../../src/report/execution-markdown.js';

const REPORT: ExecutionReport = {
  schemaVersion: 1,
  kind: 'execution',
  runId: '20261124T093812Z-f02102',
  startedAt: '2026-11-24T09:38:12.000Z',
  gate: { requested: true, allowCommands: true, open: true, explanation: 'open' },
  checks: [
    {
      id: 'mocha',
      argv: ['node', 'node_modules/mocha/bin/mocha.js', '--reporter', 'dot'],
      status: 'passed',
      reason: 'exited 0',
      exitCode: 0,
      signal: null,
      durationMs: 9700,
    },
  ],
  summary: { configured: 1, ran: 1, passed: 1, failed: 0, timedOut: 0 },
  runtimeProof: {
    files: [
      {
        path: 'lib/response.js',
        state: 'runtime-unproven',
        coveredLines: [244, 245, 248, 328],
        uncoveredLines: [246, 247],
        checks: ['mocha'],
      },
    ],
    notExecuted: [],
    failedChecks: [],
  },
  limitations: [],
};

test('execution Markdown: table cells are escaped once, and runtime proof names the lines and the check', () => {
  const markdown = renderExecutionMarkdown(REPORT);
  assert.ok(markdown.includes('| mocha | passed | node node\\_modules/mocha/bin/mocha.js --reporter dot | exited 0 | 9.7 s |'), markdown);
  assert.ok(
    markdown.includes('- lib/response.js: runtime-unproven: lines 244-245, 248, 328 ran under mocha; lines 246-247 never ran'),
    markdown,
  );
});

test('execution Markdown: how the checks’ processes were contained, each way once, and why a namespace was missing', () => {
  const check = REPORT.checks[0];
  assert.ok(check !== undefined);
  const namespaced = { mode: 'pid-namespace' as const, detail: 'unshare --pid --mount-proc as root' };
  const grouped = { mode: 'process-group' as const, detail: 'unshare (util-linux) was not found on PATH' };
  const markdown = renderExecutionMarkdown({
    ...REPORT,
    checks: [
      { ...check, containment: namespaced },
      { ...check, id: 'unit', containment: namespaced },
      { ...check, id: 'lint', containment: grouped },
    ],
  });
  assert.ok(
    markdown.includes(
      'Processes: containment: pid-namespace (unshare --pid --mount-proc as root); process-group only: unshare (util-linux) was not found on PATH.',
    ),
    markdown,
  );
  assert.equal(renderExecutionMarkdown(REPORT).includes('Processes:'), false, 'nothing said when no run says how');
});
