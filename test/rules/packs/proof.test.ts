import { describe, it } from 'node:test';
import { runRuleCases } from '../../helpers/run-rule-cases.js';
import { CASES_BY_PACK } from './cases/index.js';

const PACK = 'rules/proof/pack.yaml';

describe('proof pack', () => {
  for (const [ruleId, cases] of Object.entries(CASES_BY_PACK.proof ?? {})) {
    it(ruleId, async () => {
      await runRuleCases(PACK, ruleId, cases);
    });
  }
});
