import { describe, it } from 'node:test';
import { runRuleCases } from '../../helpers/run-rule-cases.js';
import { CASES_BY_PACK } from './cases/index.js';

const PACK = 'rules/stale-assertions/pack.yaml';

describe('stale-assertions pack', () => {
  for (const [ruleId, cases] of Object.entries(CASES_BY_PACK['stale-assertions'] ?? {})) {
    it(ruleId, async () => {
      await runRuleCases(PACK, ruleId, cases);
    });
  }
});
