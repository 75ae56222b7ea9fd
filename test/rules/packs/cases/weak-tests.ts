import type { RuleCases } from '../../../helpers/run-rule-cases.js';

const base = { file: 'test/cart.test.ts', title: 'cart > adds', titlePath: ['cart', 'adds'] };

export const weakTestCases: Record<string, RuleCases> = {
  'weak-test/no-assertions': {
    valid: [
      { ...base, assertions: 1 },
      { ...base, assertions: 0, modifiers: ['skip'] },
      { ...base, assertions: 0, modifiers: ['todo'] },
    ],
    invalid: [{ facts: { ...base, assertions: 0 }, message: '"cart > adds" in test/cart.test.ts asserts nothing', params: { weight: 5 } }],
  },
  'weak-test/trivial-assertions-only': {
    valid: [
      { ...base, assertions: 2, trivialAssertions: 1 },
      { ...base, assertions: 0, trivialAssertions: 0 },
    ],
    invalid: [{ facts: { ...base, assertions: 2, trivialAssertions: 2 }, params: { weight: 5 } }],
  },
  'weak-test/snapshot-only': {
    valid: [
      { ...base, assertions: 2, snapshotAssertions: 1 },
      { ...base, assertions: 0 },
    ],
    invalid: [
      {
        facts: { ...base, assertions: 1, snapshotAssertions: 1 },
        message: '"cart > adds" in test/cart.test.ts asserts only snapshots',
        params: { weight: 2 },
      },
    ],
  },
  'weak-test/skipped': {
    valid: [
      { ...base, modifiers: [] },
      { ...base, modifiers: ['only'] },
    ],
    invalid: [
      {
        facts: { ...base, modifiers: ['skip'] },
        params: { weight: 3, task: 'make "cart > adds" in test/cart.test.ts pass and remove .skip, or delete it' },
      },
    ],
  },
  'weak-test/todo': {
    valid: [{ ...base, modifiers: ['skip'] }],
    invalid: [{ facts: { ...base, modifiers: ['todo'] }, message: '"cart > adds" in test/cart.test.ts is a todo', params: { weight: 2 } }],
  },
  'weak-test/focused': {
    valid: [{ ...base, modifiers: [] }],
    invalid: [
      {
        facts: { ...base, modifiers: ['only'] },
        message: '"cart > adds" in test/cart.test.ts is focused with .only',
        params: { weight: 6 },
      },
    ],
  },
  'weak-test/unawaited-assertions': {
    valid: [
      { ...base, unawaitedAssertions: 0, assertions: 1 },
      { ...base, unawaitedAssertions: 2, modifiers: ['skip'] },
    ],
    invalid: [
      {
        facts: { ...base, assertions: 2, unawaitedAssertions: 2 },
        message: '"cart > adds" in test/cart.test.ts has 2 assertions never awaited',
        params: { weight: 5 },
      },
    ],
  },
  'weak-test/swallowed-errors': {
    valid: [
      { ...base, swallowedErrors: 0 },
      { ...base, swallowedErrors: 1, modifiers: ['todo'] },
    ],
    invalid: [
      {
        facts: { ...base, swallowedErrors: 1, assertions: 1 },
        message: '"cart > adds" in test/cart.test.ts swallows errors in 1 catch block',
        params: { weight: 4 },
      },
    ],
  },
  'weak-test/mocks-unit-under-test': {
    valid: [
      { ...base, mocksUnitUnderTest: false, mockCount: 2 },
      { ...base, mocksUnitUnderTest: true, modifiers: ['skip'] },
    ],
    invalid: [
      {
        facts: { ...base, mocksUnitUnderTest: true, mockCount: 1 },
        message: '"cart > adds" in test/cart.test.ts mocks the unit it tests',
        params: { weight: 5 },
      },
    ],
  },
};
