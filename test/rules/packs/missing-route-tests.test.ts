import { describe, it } from 'node:test';
import { runRuleCases } from '../../helpers/run-rule-cases.js';
import { CASES_BY_PACK } from './cases/index.js';

const PACK = 'rules/missing-route-tests/pack.yaml';

describe('missing-route-tests pack', () => {
  for (const [ruleId, cases] of Object.entries(CASES_BY_PACK['missing-route-tests'] ?? {})) {
    it(ruleId, async () => {
      await runRuleCases(PACK, ruleId, cases);
    });
  }
});
