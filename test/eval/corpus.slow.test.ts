/**
 * The evaluation corpus: real published code, real changes, hand-written expectations of the advice
 * (test/eval/cases/). Each case is analysed as `checker ai` analyses a range, and the agent bundle is
 * held to what a careful reviewer would and would not want to read: the right change kinds, at most
 * 12 tasks, runtime proof only for code that runs, the test file the proof task names, the semantic
 * edge case of the changed line, a risk band, the exact routes reached, and no redaction at all.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CaseRepo, EvalCase } from './case.js';
import { CASES } from './cases/index.js';
import { allTasks, runCase, SEMANTIC_PACK, taskText, type CaseRun } from './run-case.js';

const KIND_TITLE: Record<string, RegExp> = {
  boundary: /changes a comparison|changes the limit|boundary/i,
  default: /default/i,
  condition: /changes a condition/i,
  'error-path': /error path/i,
  regex: /regular expression|pattern/i,
  arithmetic: /rounding|arithmetic/i,
};

function describeCase(evalCase: EvalCase): void {
  describe(`${evalCase.kind}: ${evalCase.description}`, () => {
    let repo: CaseRepo | undefined;
    let run: CaseRun;
    const { expect } = evalCase;
    before(async () => {
      repo = await evalCase.build();
      run = await runCase(repo.dir, repo.base, repo.head);
    });
    after(() => repo?.cleanup());

    test('classifies each changed file as a reviewer would', () => {
      const kinds = Object.fromEntries(run.bundle.evidence.changedFiles.map((file) => [file.path, file.changeKind]));
      const actual = Object.fromEntries(Object.keys(expect.changeKinds).map((path) => [path, kinds[path] ?? '(not changed)']));
      assert.deepEqual(actual, expect.changeKinds);
    });

    test(`carries at most ${expect.maxTasks} tasks in the prompt, ${expect.proofTasks} of them runtime proof`, () => {
      const tasks = run.bundle.tasks.map(taskText);
      assert.ok(run.bundle.tasks.length <= Math.min(12, expect.maxTasks), `${run.bundle.tasks.length} tasks:\n${tasks.join('\n')}`);
      const proof = allTasks(run.bundle)
        .filter((task) => task.kind === 'proof')
        .map(taskText);
      assert.equal(proof.length, expect.proofTasks, `proof tasks:\n${proof.join('\n')}`);
    });

    test('puts the tasks a reviewer wants in the prompt', () => {
      const tasks = run.bundle.tasks.map((task) => ({ kind: task.kind, text: `${task.title} — ${task.detail}` }));
      const missing = expect.mustTasks
        .filter((wanted) => !tasks.some((task) => task.kind === wanted.kind && wanted.text.test(task.text)))
        .map((wanted) => `${wanted.kind} ${wanted.text}: ${wanted.why}`);
      assert.deepEqual(missing, [], `tasks in the prompt:\n${run.bundle.tasks.map(taskText).join('\n')}`);
    });

    test('carries no task a reviewer would reject', () => {
      const rejected = allTasks(run.bundle).flatMap((task) =>
        expect.mustNotTasks
          .filter((unwanted) => unwanted.text.test(`${task.title} — ${task.detail}`))
          .map((unwanted) => `${taskText(task)}\n   ✗ ${unwanted.why}`),
      );
      assert.deepEqual(rejected, []);
    });

    test(`scores the merge risk ${expect.riskLevels.join(' or ')}`, () => {
      const { mergeRisk, mergeRiskBreakdown } = run.bundle.evidence.summary;
      assert.ok(
        expect.riskLevels.includes(mergeRisk.level),
        `${mergeRisk.score} ${mergeRisk.level}:\n${mergeRiskBreakdown.map((entry) => `${entry.contributor} ${entry.weight} ${entry.detail}`).join('\n')}`,
      );
    });

    test('redacts nothing: the corpus holds no secret', () => {
      assert.equal(
        run.signals.redactions,
        0,
        run.markdown
          .split('\n')
          .filter((line) => line.includes('[REDACTED'))
          .join('\n'),
      );
    });

    const semantic = expect.semanticEdgeCase;
    if (semantic !== undefined) {
      test(`gives the ${semantic.kind} edge case of ${semantic.file}:${semantic.line}`, () => {
        const edgeCases = [...run.bundle.evidence.edgeCases.top, ...run.bundle.evidence.edgeCases.overflow];
        const found = edgeCases.filter(
          (edgeCase) =>
            edgeCase.provenance.startsWith(SEMANTIC_PACK) &&
            edgeCase.scope === `${semantic.file}:${semantic.line}` &&
            KIND_TITLE[semantic.kind]?.test(edgeCase.title) === true,
        );
        assert.ok(
          found.length > 0,
          `edge cases:\n${edgeCases.map((edgeCase) => `${edgeCase.provenance} ${edgeCase.scope}: ${edgeCase.title}`).join('\n')}`,
        );
        if (semantic.values !== undefined)
          assert.match(found.map((edgeCase) => `${edgeCase.title} ${edgeCase.trigger}`).join('\n'), semantic.values);
        // Semantic cases rank above every generic one.
        const first = run.bundle.evidence.edgeCases.top[0];
        assert.ok(first?.provenance.startsWith(SEMANTIC_PACK), `first edge case: ${first?.provenance}`);
      });
    }

    const routes = expect.impactedRoutes;
    if (routes !== undefined) {
      test(`reaches exactly ${routes.join(', ')}`, () => {
        assert.deepEqual(run.bundle.evidence.impactedRoutes.map((route) => route.id).sort(), [...routes].sort());
      });
    }
  });
}

for (const evalCase of CASES) describeCase(evalCase);
