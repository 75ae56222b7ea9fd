import type { RuleCases } from '../../../helpers/run-rule-cases.js';

const asserted = {
  path: 'src/auth.js',
  line: 3,
  testFile: 'test/auth.test.js',
  testLine: 6,
  excerpt: "assert.throws(() => bearerAuth(), { message: 'bearer auth needs a token' });",
  reachesChange: false,
};
const message = {
  ...asserted,
  literalKind: 'message',
  name: '',
  before: 'bearer auth needs a token',
  after: 'a token is required',
  replacement: '"a token is required"',
};
const retries = { ...asserted, literalKind: 'default', name: 'retries', before: '2', after: '3', replacement: '"3"', reachesChange: true };

export const staleAssertionCases: Record<string, RuleCases> = {
  'stale-assertion/old-message-asserted': {
    valid: [retries],
    invalid: [
      {
        facts: message,
        message:
          'test/auth.test.js line 6 asserts the old message "bearer auth needs a token" that src/auth.js:3 replaces with "a token is required"',
        params: {
          weight: 4,
          task: 'update the assertion at test/auth.test.js line 6 to the new message, or confirm the old text "bearer auth needs a token" is no longer promised',
        },
      },
      {
        facts: { ...message, after: '', replacement: 'nothing' },
        message: 'test/auth.test.js line 6 asserts the old message "bearer auth needs a token" that src/auth.js:3 replaces with nothing',
      },
    ],
  },
  'stale-assertion/old-default-asserted': {
    // A short value far from the change is no evidence: only a test of the changed file counts.
    valid: [message, { ...retries, reachesChange: false }],
    invalid: [
      {
        facts: retries,
        message: 'test/auth.test.js line 6 asserts retries is 2, the default src/auth.js:3 changes to 3',
        params: { weight: 4 },
      },
    ],
  },
};
