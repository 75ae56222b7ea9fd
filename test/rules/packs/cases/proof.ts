import type { RuleCases } from '../../../helpers/run-rule-cases.js';

const src = {
  path: 'src/cart.ts',
  role: 'source',
  status: 'modified',
  changeKind: 'runtime',
  proofReason: 'why',
  proofTask: 'Add a test.',
};

function forState(state: string, weight: number, message: string): RuleCases {
  const other = state === 'unproven' ? 'static-only' : 'unproven';
  return {
    valid: [
      { ...src, proofState: 'runtime-proven', proofTask: '' },
      { ...src, proofState: other },
      { ...src, proofState: state, role: 'doc', lowSignal: true },
      { ...src, proofState: state, role: 'test' },
      { ...src, proofState: state, changeKind: 'type-only' },
    ],
    invalid: [{ facts: { ...src, proofState: state }, message, params: { weight, task: 'Add a test.' } }],
  };
}

export const proofCases: Record<string, RuleCases> = {
  'proof/runtime-unproven': forState('runtime-unproven', 3, 'src/cart.ts: changed lines did not run under test (why)'),
  'proof/static-only': forState('static-only', 2, 'src/cart.ts: only static proof (why)'),
  'proof/mocked-boundary': forState('mocked-boundary', 4, 'src/cart.ts: tests mock it instead of running it (why)'),
  'proof/unproven': (() => {
    const cases = forState('unproven', 5, 'src/cart.ts: no test reaches it (why)');
    // Only message text changed and no test reaches the file: the proof asks nothing (unproven-message-only).
    return { ...cases, valid: [...cases.valid, { ...src, proofState: 'unproven', proofTask: '' }] };
  })(),
};
