import { describe, it } from 'node:test';
import { runRuleCases } from '../../helpers/run-rule-cases.js';
import { CASES_BY_PACK } from './cases/index.js';

const PACK = 'rules/history/pack.yaml';

describe('history pack', () => {
  for (const [ruleId, cases] of Object.entries(CASES_BY_PACK.history ?? {})) {
    it(ruleId, async () => {
      await runRuleCases(PACK, ruleId, cases);
    });
  }
});
