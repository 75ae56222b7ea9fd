import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BundleTask } from '../../src/model/bundle.js';
import { rankTasks, type TaskCandidate } from '../../src/ranking/rank-tasks.js';

const candidate = (
  id: string,
  subject: string,
  action: string,
  weight: number,
  closeness = 1,
  evidenceIds = [`ev:${id}`],
): TaskCandidate => ({
  task: { id: `task:${id}`, kind: 'proof', title: id, detail: '', evidenceIds } satisfies BundleTask,
  subject,
  action,
  weight,
  closeness,
});

describe('rankTasks', () => {
  test('one task per subject and action: the stronger keeps its wording, evidence ids are united', () => {
    const ranked = rankTasks(
      [
        candidate('proof', 'src/money.ts', 'test', 60, 1, ['proof:src/money.ts']),
        candidate('missing', 'src/money.ts', 'test', 58, 1, ['export:src/money.ts#toCents', 'proof:src/money.ts']),
      ],
      12,
    );
    assert.deepEqual(
      ranked.top.map((task) => [task.id, task.evidenceIds]),
      [['task:proof', ['proof:src/money.ts', 'export:src/money.ts#toCents']]],
    );
    assert.equal(ranked.merged, 1);
  });

  test('different actions on one subject stay two tasks', () => {
    const ranked = rankTasks([candidate('proof', 'src/a.test.ts', 'test', 60), candidate('weak', 'src/a.test.ts', 'strengthen', 35)], 12);
    assert.deepEqual(
      ranked.top.map((task) => task.id),
      ['task:proof', 'task:weak'],
    );
  });

  test('ordered by weight × closeness, ties by id; the limit cuts into a ranked overflow', () => {
    const ranked = rankTasks(
      [
        candidate('b', 'b', 'test', 50),
        candidate('a', 'a', 'test', 50),
        candidate('far', 'far', 'test', 90, 0.5),
        candidate('near', 'near', 'test', 60),
        candidate('last', 'last', 'test', 10),
      ],
      3,
    );
    assert.deepEqual(
      ranked.top.map((task) => task.id),
      ['task:near', 'task:a', 'task:b'],
    );
    assert.deepEqual(
      ranked.overflow.map((task) => task.id),
      ['task:far', 'task:last'],
    );
  });
});
