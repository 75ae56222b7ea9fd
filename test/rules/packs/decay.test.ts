import { describe, it } from 'node:test';
import { runRuleCases } from '../../helpers/run-rule-cases.js';
import { CASES_BY_PACK } from './cases/index.js';

const PACK = 'rules/decay/pack.yaml';

describe('decay pack', () => {
  for (const [ruleId, cases] of Object.entries(CASES_BY_PACK.decay ?? {})) {
    it(ruleId, async () => {
      await runRuleCases(PACK, ruleId, cases);
    });
  }
});
