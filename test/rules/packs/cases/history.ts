import type { RuleCases } from '../../../helpers/run-rule-cases.js';

const src = { path: 'src/db/migrate.ts', role: 'source', status: 'modified' };
const evidence = 'src/db/schema.ts changed in 4 of the 4 commits that changed src/db/migrate.ts (a1b2c3d, e4f5a6b, 0a1b2c3, 9f8e7d6)';

export const historyCases: Record<string, RuleCases> = {
  'risk/missed-co-change': {
    valid: [
      { ...src, missedPartnerCount: 0 },
      { ...src, missedPartnerCount: 1, status: 'deleted' },
      { ...src, missedPartnerCount: 1, isGenerated: true },
      { ...src, missedPartnerCount: 1, lowSignal: true },
      { ...src, path: 'package-lock.json', missedPartnerCount: 1, changeKind: 'lockfile' },
    ],
    invalid: [
      {
        facts: { ...src, missedPartnerCount: 1, missedPartnerEvidence: evidence },
        message: `${evidence}; this change does not touch it`,
        params: { weight: 4 },
      },
    ],
  },
  'risk/fix-prone': {
    valid: [
      { ...src, fixScore: 1.9, fixRatio: 80 },
      { ...src, fixScore: 3, fixRatio: 29 },
      { ...src, fixScore: 3, fixRatio: 50, lowSignal: true },
      { ...src, fixScore: 3, fixRatio: 50, role: 'test' },
      { ...src, fixScore: 3, fixRatio: 50, role: 'manifest' },
    ],
    invalid: [
      {
        facts: { ...src, fixScore: 2.5, fixRatio: 60, fixEvidence: '3 of its 5 recent commits were fixes or reverts (a1b2c3d)' },
        message: 'src/db/migrate.ts is fix-prone: 3 of its 5 recent commits were fixes or reverts (a1b2c3d)',
        params: { weight: 4 },
      },
    ],
  },
};
