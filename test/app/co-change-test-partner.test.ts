import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { AgentBundle } from '../../src/model/bundle.js';
import { runJsonReport } from '../helpers/analysis-fixtures.js';
import { commitAt } from '../helpers/dated-git.js';
import { createRepo } from '../helpers/git-repo.js';

// Check 141 (light-my-request): test/test.js, which the proof of lib/request.js says to extend, was also a review task
// "Check whether test/test.js needs the matching change" as the file's co-change partner: one question asked twice.

const lib = (step: number): string => `export function scale(x) {\n  return x * ${step};\n}\n`;
const spec = (step: number): string =>
  `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { scale } from '../src/lib.js';\n\ntest('scale', () => assert.equal(scale(1), ${step}));\n`;
const other = (step: number): string => `export const version = ${step};\n`;

const repo = createRepo();
after(() => repo.cleanup());

test('a test partner the proof task already says to extend is no co-change review; another partner is', async () => {
  repo.write({
    'package.json': JSON.stringify({ name: 'lib', type: 'module' }),
    'src/lib.js': lib(1),
    'test/lib.test.js': spec(1),
    'src/version.js': other(1),
  });
  commitAt(repo, 'initial', '2025-01-01T00:00:00Z');
  for (let step = 2; step <= 5; step += 1) {
    repo.write({ 'src/lib.js': lib(step), 'test/lib.test.js': spec(step), 'src/version.js': other(step) });
    commitAt(repo, `feat: scale ${step}`, `2025-02-0${step}T00:00:00Z`);
  }
  // Commits of other code, so that changing with src/lib.js says something (lift).
  for (let step = 1; step <= 4; step += 1) {
    repo.write({ 'src/util.js': `export const util = ${step};\n` });
    commitAt(repo, `chore: util ${step}`, `2025-02-1${step}T00:00:00Z`);
  }
  repo.write({ 'README.md': '# lib\n' });
  const base = commitAt(repo, 'docs', '2025-03-01T00:00:00Z');
  repo.write({ 'src/lib.js': lib(6) });
  const head = commitAt(repo, 'feat: scale 6', '2025-03-02T00:00:00Z');
  const { report } = await runJsonReport<AgentBundle>({ repo, base, head }, ['ai'], 'agent-bundle');
  const proof = report.tasks.find((task) => task.kind === 'proof');
  assert.match(proof?.detail ?? '', /test\/lib\.test\.js/);
  const reviews = [...report.tasks, ...report.taskOverflow]
    .filter((task) => task.id.startsWith('task:co-change:'))
    .map((task) => task.title);
  assert.deepEqual(reviews, ['Check whether src/version.js needs the matching change']);
});
