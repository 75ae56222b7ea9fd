import type { RuleCases } from '../../../helpers/run-rule-cases.js';

const src = { path: 'src/orders.ts', role: 'source', status: 'modified', changedHunks: 'lines 3-4' };

export const riskCases: Record<string, RuleCases> = {
  'risk/large-diff': {
    valid: [
      { ...src, changedLines: 199 },
      { ...src, changedLines: 400, lowSignal: true },
      { ...src, changedLines: 400, isGenerated: true },
    ],
    invalid: [
      {
        facts: { ...src, changedLines: 250, additions: 200, deletions: 50 },
        message: 'src/orders.ts changed by 250 lines (+200 -50)',
        params: { weight: 5 },
      },
    ],
  },
  'risk/fan-in-reached': {
    valid: [
      { ...src, reachedFiles: 9 },
      { ...src, reachedFiles: 20, role: 'test' },
      { ...src, reachedFiles: 20, status: 'deleted' },
    ],
    invalid: [
      {
        facts: { ...src, reachedFiles: 12, fanIn: 3 },
        message: 'src/orders.ts (lines 3-4) is reached by 12 files (3 direct importers)',
        params: { weight: 5 },
      },
    ],
  },
  'risk/route-touched': {
    valid: [
      { ...src, reachedRoutes: 0 },
      { ...src, reachedRoutes: 2, isTest: true },
      { ...src, reachedRoutes: 2, lowSignal: true },
    ],
    invalid: [
      {
        facts: { ...src, reachedRoutes: 2, reachedRoutesLabel: '2 routes' },
        message: 'src/orders.ts (lines 3-4) reaches 2 routes through the handler chain',
        params: { weight: 5 },
      },
    ],
  },
  'risk/auth-path': {
    // On an auth path, but no changed line uses auth data: a path word is no evidence.
    valid: [
      { ...src },
      { ...src, isAuthPath: true, lowSignal: true },
      { ...src, isAuthPath: true, isTest: true },
      { ...src, isAuthPath: true, signals: ['collection'] },
    ],
    invalid: [
      {
        facts: { ...src, path: 'src/auth/session.ts', isAuthPath: true, signals: ['auth'] },
        message: 'src/auth/session.ts (lines 3-4) touches authentication or authorisation',
        params: { weight: 8 },
      },
    ],
  },
  'risk/payment-path': {
    // A `pricing` page that only renders text is on a payment path, but computes no money.
    valid: [
      { ...src },
      { ...src, isPaymentPath: true, lowSignal: true },
      { ...src, path: 'src/pricing/page.ts', isPaymentPath: true, signals: [] },
    ],
    invalid: [
      {
        facts: { ...src, path: 'src/billing/charge.ts', isPaymentPath: true, signals: ['money', 'parse-number'] },
        params: {
          weight: 8,
          proof: 'test rounding, negative amounts and currency handling in src/billing/charge.ts, and a refund end to end',
        },
      },
    ],
  },
  'risk/data-migration': {
    valid: [{ ...src }, { ...src, isMigration: true, lowSignal: true }],
    invalid: [
      {
        facts: { path: 'db/migrations/001.sql', role: 'other', status: 'added', isMigration: true, changedHunks: 'lines 1-12' },
        message: 'db/migrations/001.sql (lines 1-12) changes the data model or migrates data',
        params: { weight: 8 },
      },
    ],
  },
  'risk/config-change': {
    valid: [{ ...src }, { path: 'tsconfig.json', role: 'config', isConfig: true, lowSignal: true }],
    invalid: [{ facts: { path: 'tsconfig.json', role: 'config', isConfig: true }, params: { weight: 3 } }],
  },
  'risk/dependency-manifest': {
    valid: [
      { ...src },
      {
        path: 'package.json',
        role: 'manifest',
        isManifest: true,
        lowSignal: true,
        manifestChanges: ['dependencies'],
        manifestChangeCount: 1,
      },
      { path: 'package.json', role: 'manifest', isManifest: true, manifestChanges: [], manifestChangeCount: 0 },
    ],
    invalid: [
      {
        facts: {
          path: 'package-lock.json',
          role: 'manifest',
          isManifest: true,
          manifestChanges: ['locked versions'],
          manifestChangeCount: 1,
        },
        message: 'package-lock.json changes locked versions',
        params: { weight: 4 },
      },
      {
        facts: {
          path: 'package.json',
          role: 'manifest',
          isManifest: true,
          manifestChanges: ['dependencies', 'engines'],
          manifestChangeCount: 2,
        },
        message: 'package.json changes dependencies, engines',
      },
    ],
  },
  'risk/missing-proof': {
    valid: [
      { ...src, proofState: 'runtime-proven' },
      { ...src, proofState: 'static-only' },
      { ...src, proofState: 'unproven', role: 'doc', lowSignal: true },
      { ...src, proofState: 'unproven', status: 'deleted' },
      // Only message text changed and no test reaches the file: a proof without a task is no missing proof.
      { ...src, proofState: 'unproven', proofTask: '' },
    ],
    invalid: [
      {
        facts: { ...src, proofState: 'unproven', proofTask: 'Add a test in src/orders.test.ts' },
        message: 'src/orders.ts (lines 3-4) has no test proof (unproven)',
        params: { weight: 6, proof: 'Add a test in src/orders.test.ts' },
      },
      { facts: { ...src, proofState: 'mocked-boundary', proofTask: 'Add a test.' }, params: { weight: 6 } },
    ],
  },
  'risk/weak-proof': {
    valid: [
      { ...src, proofState: 'runtime-proven' },
      { ...src, proofState: 'unproven' },
      { ...src, proofState: 'static-only', role: 'config' },
    ],
    invalid: [
      {
        facts: { ...src, proofState: 'static-only' },
        message: 'src/orders.ts (lines 3-4) is only weakly proven (static-only)',
        params: { weight: 3 },
      },
      { facts: { ...src, proofState: 'runtime-unproven' }, params: { weight: 3 } },
    ],
  },
  'risk/owners-spread': {
    valid: [
      { ...src, ownerCount: 2 },
      { ...src, ownerCount: 3, lowSignal: true },
    ],
    invalid: [
      {
        facts: { ...src, ownerCount: 3, owners: ['@a', '@b', '@c'] },
        message: 'src/orders.ts has 3 owners (@a, @b, @c)',
        params: { weight: 3 },
      },
    ],
  },
  'risk/invariants-touched': {
    valid: [
      { ...src, invariantsTouched: 0 },
      { ...src, invariantsTouched: 1, lowSignal: true },
    ],
    invalid: [
      {
        facts: { ...src, invariantsTouched: 2 },
        message: 'src/orders.ts (lines 3-4) is named by 2 recorded invariants',
        params: { weight: 6 },
      },
    ],
  },
  'risk/regressions-touched': {
    valid: [
      { ...src, regressionsTouched: 0 },
      { ...src, regressionsTouched: 1, lowSignal: true },
    ],
    invalid: [
      {
        facts: { ...src, regressionsTouched: 1 },
        message: 'src/orders.ts (lines 3-4) is named by 1 recorded regression',
        params: { weight: 6 },
      },
    ],
  },
  'risk/low-signal-change': {
    valid: [{ ...src }, { ...src, commentOnly: true }],
    invalid: [
      {
        facts: { path: 'README.md', role: 'doc', isDocOnly: true, lowSignal: true, lowSignalReason: 'documentation' },
        message: 'README.md changed only documentation',
        params: { weight: 0 },
      },
    ],
  },
};

export const changeRiskCases: Record<string, RuleCases> = {
  'risk/many-files': {
    valid: [{ signalFileCount: 19 }, { signalFileCount: 30, lowSignal: true }],
    invalid: [{ facts: { signalFileCount: 25 }, message: '25 files changed', params: { weight: 5 } }],
  },
  'risk/large-change': {
    valid: [{ changedLines: 499 }, { changedLines: 900, lowSignal: true }],
    invalid: [{ facts: { changedLines: 600, signalFileCount: 4 }, message: '600 lines changed over 4 files', params: { weight: 6 } }],
  },
  'risk/change-owners-spread': {
    valid: [{ ownerCount: 2 }, { ownerCount: 5, lowSignal: true }],
    invalid: [
      { facts: { ownerCount: 3, owners: ['@a', '@b', '@c'] }, message: 'the change spans 3 owners (@a, @b, @c)', params: { weight: 4 } },
    ],
  },
  'risk/areas-spread': {
    valid: [{ areaCount: 3 }, { areaCount: 6, lowSignal: true }],
    invalid: [{ facts: { areaCount: 4 }, message: 'the change touches 4 top-level areas', params: { weight: 3 } }],
  },
  'risk/wide-impact': {
    valid: [{ impactedFiles: 49 }, { impactedFiles: 80, lowSignal: true }],
    invalid: [{ facts: { impactedFiles: 50 }, message: '50 files are impacted through imports', params: { weight: 5 } }],
  },
};
