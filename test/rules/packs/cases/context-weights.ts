import type { RuleCases } from '../../../helpers/run-rule-cases.js';

const WEIGHTS: readonly [string, string, number, boolean][] = [
  ['context-weight/imports', 'imports', 8, false],
  ['context-weight/type-only-import', 'imports', 3, true],
  ['context-weight/reexports', 'reexports', 6, false],
  ['context-weight/declares', 'declares', 7, false],
  ['context-weight/uses', 'uses', 9, false],
  ['context-weight/tests', 'tests', 9, false],
  ['context-weight/mocks', 'mocks', 4, false],
  ['context-weight/handles', 'handles', 8, false],
  ['context-weight/owns', 'owns', 2, false],
  ['context-weight/mentions', 'mentions', 5, false],
  ['context-weight/belongs', 'belongs', 1, false],
  ['context-weight/depends', 'depends', 1, false],
  ['context-weight/guards', 'guards', 6, false],
];

export const contextWeightCases: Record<string, RuleCases> = Object.fromEntries(
  WEIGHTS.map(([ruleId, edgeKind, weight, typeOnly]): [string, RuleCases] => [
    ruleId,
    {
      valid: [
        { edgeKind: edgeKind === 'owns' ? 'uses' : 'owns', typeOnly },
        ...(edgeKind === 'imports' ? [{ edgeKind, typeOnly: !typeOnly }] : []),
      ],
      invalid: [
        { facts: { edgeKind, typeOnly, taskKind: 'change' }, message: `${edgeKind} edges weigh ${weight}`, params: { weight, edgeKind } },
      ],
    },
  ]),
);
