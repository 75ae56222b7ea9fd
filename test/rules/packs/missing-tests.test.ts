import { describe, it } from 'node:test';
import { runRuleCases } from '../../helpers/run-rule-cases.js';
import { CASES_BY_PACK } from './cases/index.js';

const PACK = 'rules/missing-tests/pack.yaml';

describe('missing-tests pack', () => {
  for (const [ruleId, cases] of Object.entries(CASES_BY_PACK['missing-tests'] ?? {})) {
    it(ruleId, async () => {
      await runRuleCases(PACK, ruleId, cases);
    });
  }
});
