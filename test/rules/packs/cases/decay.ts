import type { RuleCases } from '../../../helpers/run-rule-cases.js';

const src = { path: 'src/cart.ts', role: 'source', status: 'modified' };

export const decayCases: Record<string, RuleCases> = {
  'decay/high-churn': {
    valid: [
      { ...src, churn: 9 },
      { ...src, churn: 20, lowSignal: true },
      { ...src, churn: 20, role: 'test' },
    ],
    invalid: [{ facts: { ...src, churn: 12 }, message: 'src/cart.ts changed in 12 recent commits', params: { weight: 5 } }],
  },
  'decay/author-spread': {
    valid: [
      { ...src, authorCount: 3 },
      { ...src, authorCount: 6, status: 'deleted' },
    ],
    invalid: [{ facts: { ...src, authorCount: 4 }, message: 'src/cart.ts was changed by 4 authors recently', params: { weight: 3 } }],
  },
  'decay/stale-tests': {
    valid: [
      { ...src, testsStale: false },
      { ...src, testsStale: true, isGenerated: true },
    ],
    invalid: [
      {
        facts: { ...src, testsStale: true, reachingTests: 2, reachingTestsLabel: '2 test files' },
        message: 'src/cart.ts changed after every test that reaches it (2 test files)',
        params: { weight: 4 },
      },
    ],
  },
  'decay/tests-not-updated': {
    valid: [
      { ...src, reachingTests: 0, additions: 5 },
      { ...src, reachingTests: 2, testsUpdated: true, additions: 5 },
      { ...src, reachingTests: 2, additions: 0, deletions: 4 },
    ],
    invalid: [
      {
        facts: { ...src, reachingTests: 1, reachingTestsLabel: '1 test file', additions: 5 },
        message: 'src/cart.ts changed but no test that reaches it did (1 test file)',
        params: { weight: 3 },
      },
    ],
  },
  'decay/complexity-growth': {
    valid: [
      { ...src, complexityDelta: 4 },
      { ...src, complexityDelta: -10 },
      { ...src, complexityDelta: 9, lowSignal: true },
    ],
    invalid: [
      {
        facts: { ...src, complexityDelta: 7 },
        message: 'the changed functions of src/cart.ts grew by 7 complexity points',
        params: { weight: 4 },
      },
    ],
  },
  'decay/hotspot': {
    valid: [
      { ...src, isHotspot: false },
      { ...src, isHotspot: true, role: 'test' },
    ],
    invalid: [
      {
        facts: { ...src, isHotspot: true, hotspotEvidence: 'churn 6 × complexity 12 = 72, rank 1 of 9 files' },
        message: 'src/cart.ts is a hotspot: churn 6 × complexity 12 = 72, rank 1 of 9 files',
        params: { weight: 4 },
      },
    ],
  },
};
