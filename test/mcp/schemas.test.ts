import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getValidator } from '../../src/io/schema.js';
import { agentSessionInputSchema, analysisInputSchema, describeInputIssues, requirementsField } from '../../src/mcp/schemas.js';

const criterion = { id: 'AC-1', text: 'Totals are whole cents', requiredProof: ['unit test of toCents'] };

describe('MCP input schemas', () => {
  it('accept and refuse the same requirements objects as schemas/requirements.schema.json', () => {
    const validate = getValidator('requirements');
    const samples: [string, unknown, boolean][] = [
      ['empty', {}, true],
      [
        'every field',
        {
          schemaVersion: 1,
          title: 'Rounding',
          acceptanceCriteria: [criterion],
          currentBehavior: 'rounds twice',
          expectedBehavior: ['rounds once'],
          affectedFlows: [{ name: 'Checkout', kind: 'api', route: 'POST /checkout' }],
          nonGoals: [],
          invariants: 'cents are integers',
          architectureConstraints: ['no new deps'],
          unresolvedQuestions: 'which currency?',
        },
        true,
      ],
      ['id with a space', { acceptanceCriteria: [{ ...criterion, id: 'AC 1' }] }, false],
      ['empty text', { acceptanceCriteria: [{ ...criterion, text: '' }] }, false],
      ['missing requiredProof', { acceptanceCriteria: [{ id: 'AC-1', text: 'x' }] }, false],
      [
        '51 proofs',
        { acceptanceCriteria: [{ ...criterion, requiredProof: Array.from({ length: 51 }, (_, index) => `proof ${index}`) }] },
        false,
      ],
      ['extra criterion field', { acceptanceCriteria: [{ ...criterion, run: 'rm -rf /' }] }, false],
      ['extra top-level field', { path: '../../etc/passwd' }, false],
      ['upper-case flow kind', { affectedFlows: [{ name: 'Checkout', kind: 'API' }] }, false],
      ['schemaVersion 2', { schemaVersion: 2 }, false],
      ['301-character title', { title: 'x'.repeat(301) }, false],
      ['statement as number', { nonGoals: 3 }, false],
    ];
    for (const [label, sample, expected] of samples) {
      assert.equal(validate(sample), expected, `ajv: ${label}`);
      assert.equal(requirementsField.safeParse(sample).success, expected, `zod: ${label}`);
    }
  });

  it('describe each problem with the field and the fix, never echoing control characters or long keys', () => {
    const unknown = { ['k'.repeat(200)]: 1, 'a\u202Eb': 2, format: 'json' };
    const parsed = analysisInputSchema.safeParse(unknown);
    assert.equal(parsed.success, false);
    const lines = parsed.success ? [] : describeInputIssues(parsed.error.issues, ['format', 'base', 'head'], unknown);
    assert.deepEqual(lines, [
      `unknown fields "${'k'.repeat(80)}…", "a?b": this tool does not accept them; remove them. Accepted fields: format, base, head.`,
    ]);

    const session = { operation: 'finish', sessionId: 'fix-1', summary: 'done', maxNodes: 5 };
    const refined = agentSessionInputSchema.safeParse(session);
    assert.equal(refined.success, false);
    assert.deepEqual(refined.success ? [] : describeInputIssues(refined.error.issues, [], session), [
      '"summary" does not apply to operation "finish" (only to checkpoint); remove it',
      '"maxNodes" does not apply to operation "finish" (only to context); remove it',
    ]);

    const wrongType = { operation: 'start', sessionId: 7 };
    const typed = agentSessionInputSchema.safeParse(wrongType);
    assert.deepEqual(typed.success ? [] : describeInputIssues(typed.error.issues, [], wrongType), [
      '"sessionId" must be a string such as "fix-checkout-rounding"',
    ]);
    const missing = { operation: 'start' };
    const absent = agentSessionInputSchema.safeParse(missing);
    assert.deepEqual(absent.success ? [] : describeInputIssues(absent.error.issues, [], missing), [
      '"sessionId" is required: it must be a string such as "fix-checkout-rounding"',
    ]);
  });
});
