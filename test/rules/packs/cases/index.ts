import type { RuleCases } from '../../../helpers/run-rule-cases.js';
import { contextWeightCases } from './context-weights.js';
import { decayCases } from './decay.js';
import { edgeCaseCases, routeEdgeCaseCases, semanticEdgeCaseCases } from './edge-cases.js';
import { missingRouteTestCases, missingTestCases } from './missing-tests.js';
import { historyCases } from './history.js';
import { patternCases } from './patterns.js';
import { proofCases } from './proof.js';
import { changeRiskCases, riskCases } from './risk.js';
import { staleAssertionCases } from './stale-assertions.js';
import { toolCases } from './tools.js';
import { weakTestCases } from './weak-tests.js';

/** Rule cases of every built-in pack, keyed by pack id (= folder under rules/). */
export const CASES_BY_PACK: Readonly<Record<string, Record<string, RuleCases>>> = {
  'change-risk': changeRiskCases,
  // Classes only, no rules: test/rules/packs/classifiers.test.ts checks its data.
  classifiers: {},
  'context-weights': contextWeightCases,
  decay: decayCases,
  'edge-cases': edgeCaseCases,
  history: historyCases,
  'missing-route-tests': missingRouteTestCases,
  'missing-tests': missingTestCases,
  patterns: patternCases,
  proof: proofCases,
  risk: riskCases,
  'route-edge-cases': routeEdgeCaseCases,
  'semantic-edge-cases': semanticEdgeCaseCases,
  'stale-assertions': staleAssertionCases,
  tools: toolCases,
  'weak-tests': weakTestCases,
};
