import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { validatePackData } from '../helpers/packs.js';
import { CheckerError } from '../../src/model/diagnostic.js';
import type { FactSubject, RulePack } from '../../src/model/rules.js';
import { evaluatePacks, getFindingId, type Evaluator } from '../../src/rules/engine.js';
import { endsWithAny } from '../../src/rules/operators/ends-with-any.js';
import { intersects } from '../../src/rules/operators/intersects.js';
import { matchesGlob } from '../../src/rules/operators/matches-glob.js';
import { matchesRegex } from '../../src/rules/operators/matches-regex.js';
import { startsWithAny } from '../../src/rules/operators/starts-with-any.js';
import { compilePack } from '../../src/rules/pack.js';
import { assertPackCoverage, runRuleCases } from '../helpers/run-rule-cases.js';

const EVALUATORS: Evaluator[] = ['json-rules-engine', 'compiled'];

const routePack: RulePack = validatePackData('inline', {
  schemaVersion: 1,
  id: 'route-risk',
  version: '2.1.0',
  kind: 'risk',
  subject: 'route',
  description: 'Route risks.',
  messages: { unauthenticated: '{{method}} {{path}} has no auth middleware ({{middleware}})' },
  sharedConditions: {
    isApiMutation: {
      all: [
        { fact: 'kind', operator: 'equal', value: 'api' },
        { fact: 'isMutation', operator: 'equal', value: true },
      ],
    },
  },
  rules: [
    {
      id: 'risk/unauthenticated-mutation',
      description: 'A mutating API route without auth middleware.',
      rationale: 'Anyone can call it.',
      priority: 5,
      conditions: { all: [{ condition: 'isApiMutation' }, { fact: 'hasAuthMiddleware', operator: 'equal', value: false }] },
      event: {
        type: 'risk/unauthenticated-mutation',
        params: { weight: 4, messageId: 'unauthenticated', proof: 'call {{subjectId}} without a session' },
      },
    },
    {
      id: 'risk/changed-route',
      description: 'A changed route.',
      rationale: 'Changed handlers break callers.',
      conditions: { all: [{ fact: 'changed', operator: 'equal', value: true }] },
      event: { type: 'risk/changed-route', params: { weight: 1 } },
    },
    {
      id: 'risk/admin-route',
      description: 'An admin route.',
      rationale: 'Admin routes are privileged.',
      conditions: {
        any: [
          { fact: 'path', operator: 'startsWithAny', value: ['/admin', '/internal'] },
          { fact: 'middleware', operator: 'intersects', value: ['requireAdmin'] },
        ],
      },
      event: { type: 'risk/admin-route', params: { weight: 2, message: 'admin route {{path}}', signal: 'auth' } },
    },
  ],
});

function buildRoute(id: string, facts: Record<string, unknown>): FactSubject {
  return {
    subject: 'route',
    id,
    facts: {
      method: 'GET',
      path: '/',
      framework: 'express',
      kind: 'api',
      file: 'src/app.ts',
      middleware: [],
      hasAuthMiddleware: false,
      isMutation: false,
      params: [],
      changed: false,
      reachingTests: 0,
      ...facts,
    },
  };
}

const routes: FactSubject[] = [
  buildRoute('route:POST /orders', { method: 'POST', path: '/orders', isMutation: true, changed: true, middleware: ['rateLimit'] }),
  buildRoute('route:GET /admin/users', { path: '/admin/users', changed: true }),
  buildRoute('route:DELETE /admin/users/:id', {
    method: 'DELETE',
    path: '/admin/users/:id',
    isMutation: true,
    hasAuthMiddleware: true,
    middleware: ['requireAuth', 'requireAdmin'],
  }),
  buildRoute('route:GET /health', { path: '/health' }),
];

describe('evaluatePacks', () => {
  for (const evaluator of EVALUATORS) {
    test(`builds findings with rendered messages and provenance (${evaluator})`, async () => {
      const findings = await evaluatePacks([compilePack(routePack)], routes, { evaluator });
      assert.deepEqual(
        findings.map((finding) => [finding.ruleId, finding.subjectId]),
        [
          ['risk/unauthenticated-mutation', 'route:POST /orders'],
          ['risk/admin-route', 'route:DELETE /admin/users/:id'],
          ['risk/admin-route', 'route:GET /admin/users'],
          ['risk/changed-route', 'route:GET /admin/users'],
          ['risk/changed-route', 'route:POST /orders'],
        ],
      );
      assert.deepEqual(findings[0], {
        id: getFindingId('route-risk', 'risk/unauthenticated-mutation', 'route:POST /orders'),
        packId: 'route-risk',
        packVersion: '2.1.0',
        ruleId: 'risk/unauthenticated-mutation',
        kind: 'risk',
        subject: 'route',
        subjectId: 'route:POST /orders',
        priority: 5,
        weight: 4,
        messageId: 'unauthenticated',
        message: 'POST /orders has no auth middleware (rateLimit)',
        proof: 'call route:POST /orders without a session',
        params: { weight: 4, messageId: 'unauthenticated', proof: 'call route:POST /orders without a session' },
        provenance: 'route-risk@2.1.0#risk/unauthenticated-mutation',
      });
      assert.equal(findings[1]?.message, 'admin route /admin/users/:id');
      assert.equal(findings[3]?.message, 'A changed route.');
      assert.match(findings[0]?.id ?? '', /^finding:[0-9a-f]{16}$/);
    });

    test(`orders findings the same way whatever the subject and pack order (${evaluator})`, async () => {
      const compiled = compilePack(routePack);
      const second = compilePack({ ...routePack, id: 'route-risk-copy' });
      const expected = await evaluatePacks([compiled, second], routes, { evaluator });
      assert.equal(expected.length, 10);
      for (let run = 0; run < 5; run += 1) {
        const shuffled = [...routes].sort(() => (run % 2 === 0 ? -1 : 1));
        const packs = run % 2 === 0 ? [second, compiled] : [compiled, second];
        assert.deepEqual(await evaluatePacks(packs, shuffled, { evaluator }), expected);
      }
    });

    test(`skips subjects of other kinds and fails loudly on a missing fact (${evaluator})`, async () => {
      const compiled = compilePack(routePack);
      const other: FactSubject = { subject: 'changed-file', id: 'file:src/a.ts', facts: {} };
      assert.deepEqual(await evaluatePacks([compiled], [other], { evaluator }), []);
      const incomplete: FactSubject = { subject: 'route', id: 'route:GET /x', facts: { path: '/x' } };
      await assert.rejects(evaluatePacks([compiled], [incomplete], { evaluator }), (error: unknown) => {
        assert.ok(error instanceof CheckerError);
        assert.equal(error.code, 'rules/evaluation-failed');
        assert.match(error.message, /^pack "route-risk" failed on route "route:GET \/x": Undefined fact: \w+$/);
        return true;
      });
    });
  }

  test('the compiled evaluator agrees with json-rules-engine on random facts', async () => {
    const pack: RulePack = validatePackData('inline', {
      schemaVersion: 1,
      id: 'parity',
      version: '1.0.0',
      kind: 'weak-test',
      subject: 'test-case',
      description: 'Operators and decorators.',
      rules: [
        {
          id: 'weak-test/no-assertions',
          description: 'd',
          rationale: 'r',
          conditions: { all: [{ fact: 'assertions', operator: 'lessThanInclusive', value: { fact: 'trivialAssertions' } }] },
          event: { type: 'weak-test/no-assertions', params: { weight: 1 } },
        },
        {
          id: 'weak-test/skipped',
          description: 'd',
          rationale: 'r',
          conditions: {
            any: [
              { fact: 'modifiers', operator: 'contains', value: 'skip' },
              { fact: 'modifiers', operator: 'someFact:in', value: ['todo', 'only'] },
            ],
          },
          event: { type: 'weak-test/skipped', params: { weight: 1 } },
        },
        {
          id: 'weak-test/odd-title',
          description: 'd',
          rationale: 'r',
          conditions: {
            not: {
              any: [
                { fact: 'title', operator: 'matchesRegex', value: '^[a-z ]+$' },
                { fact: 'file', operator: 'matchesGlob', value: ['**/*.spec.ts'] },
              ],
            },
          },
          event: { type: 'weak-test/odd-title', params: { weight: 1 } },
        },
        {
          id: 'weak-test/deep',
          description: 'd',
          rationale: 'r',
          priority: 3,
          conditions: {
            all: [
              { fact: 'titlePath', operator: 'equal', value: 'login', path: '$[0]' },
              { fact: 'unawaitedAssertions', operator: 'not:equal', value: 0 },
              { fact: 'titlePath', operator: 'everyFact:notEqual', value: '' },
            ],
          },
          event: { type: 'weak-test/deep', params: { weight: 1 } },
        },
        {
          id: 'weak-test/async-swallow',
          description: 'd',
          rationale: 'r',
          conditions: {
            all: [
              { fact: 'isAsync', operator: 'equal', value: true },
              { fact: 'swallowedErrors', operator: 'greaterThan', value: 0 },
              { fact: 'file', operator: 'endsWithAny', value: ['.test.ts', '.test.js'] },
            ],
          },
          event: { type: 'weak-test/async-swallow', params: { weight: 1 } },
        },
      ],
    });
    const compiled = compilePack(pack);
    const word = fc.constantFrom('login', 'logout', '', 'Checkout', 'cart total');
    const arbitraryFacts = fc.record({
      file: fc.constantFrom('src/a.test.ts', 'src/b.spec.ts', 'test/c.test.js', 'd.ts'),
      title: word,
      titlePath: fc.array(word, { maxLength: 3 }),
      assertions: fc.integer({ min: 0, max: 3 }),
      trivialAssertions: fc.integer({ min: 0, max: 3 }),
      snapshotAssertions: fc.constant(0),
      unawaitedAssertions: fc.integer({ min: 0, max: 2 }),
      swallowedErrors: fc.integer({ min: 0, max: 2 }),
      modifiers: fc.subarray(['skip', 'only', 'todo']),
      isAsync: fc.boolean(),
      mockCount: fc.constant(0),
      mocksUnitUnderTest: fc.boolean(),
      coversChangedFile: fc.boolean(),
      lineCount: fc.constant(3),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(arbitraryFacts, { minLength: 1, maxLength: 8 }), async (factsList) => {
        const subjects: FactSubject[] = factsList.map((facts, index) => ({ subject: 'test-case', id: `test:case-${index}`, facts }));
        const viaEngine = await evaluatePacks([compiled], subjects, { evaluator: 'json-rules-engine' });
        const viaPredicates = await evaluatePacks([compiled], subjects, { evaluator: 'compiled' });
        assert.deepEqual(viaPredicates, viaEngine);
      }),
      { numRuns: 150, seed: 20260101 },
    );
  });

  test('measures 10,000 subjects x 30 rules', async (t) => {
    const rules = Array.from({ length: 30 }, (_, index) => ({
      id: `risk/rule-${index}`,
      description: 'd',
      rationale: 'r',
      priority: 1 + (index % 3),
      conditions: {
        all: [
          { fact: 'additions', operator: 'greaterThan', value: 40 + index },
          {
            any: [
              { fact: 'path', operator: 'matchesGlob', value: 'src/**/*.ts' },
              { fact: 'isAuthPath', operator: 'equal', value: true },
            ],
          },
        ],
      },
      event: { type: `risk/rule-${index}`, params: { weight: 1, message: '{{path}} changed' } },
    }));
    const pack = compilePack(
      validatePackData('inline', {
        schemaVersion: 1,
        id: 'bench',
        version: '1.0.0',
        kind: 'risk',
        subject: 'changed-file',
        description: 'b',
        rules,
      }),
    );
    const subjects: FactSubject[] = Array.from({ length: 10_000 }, (_, index) => ({
      subject: 'changed-file',
      id: `file:src/f${index}.ts`,
      facts: { path: `src/f${index}.ts`, additions: index % 100, isAuthPath: index % 7 === 0 },
    }));
    const figures: string[] = [];
    for (const [evaluator, count] of [
      ['compiled', 10_000],
      ['json-rules-engine', 1_000],
    ] as const) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const findings = await evaluatePacks([pack], subjects.slice(0, count), { evaluator });
      const used = process.cpuUsage(cpu);
      figures.push(
        `${evaluator}: ${count} subjects x 30 rules, ${findings.length} findings, ${Math.round(performance.now() - started)} ms wall, ${Math.round((used.user + used.system) / 1000)} ms cpu`,
      );
      assert.equal(findings.length, count === 10_000 ? 133_500 : 13_350);
    }
    t.diagnostic(figures.join('; '));
  });
});

describe('custom operators', () => {
  test('matchesGlob matches one glob or any of a list, dotfiles included', () => {
    assert.equal(matchesGlob('src/payments/charge.ts', 'src/payments/**'), true);
    assert.equal(matchesGlob('src/.hidden/x.ts', 'src/**/*.ts'), true);
    assert.equal(matchesGlob('docs/a.md', ['src/**', '**/*.md']), true);
    assert.equal(matchesGlob('docs/a.md', ['src/**']), false);
    assert.equal(matchesGlob(42, 'src/**'), false);
    assert.equal(matchesGlob('a'.repeat(10), `${'*'.repeat(501)}`), false);
  });

  test('matchesRegex caps the tested text and ignores invalid patterns', () => {
    assert.equal(matchesRegex('src/api/users.ts', '^src/(api|routes)/'), true);
    assert.equal(matchesRegex('lib/users.ts', '^src/'), false);
    assert.equal(matchesRegex(`${'a'.repeat(5000)}END`, 'END$'), false);
    assert.equal(matchesRegex('x', '('), false);
    assert.equal(matchesRegex(['x'], 'x'), false);
  });

  test('intersects, startsWithAny and endsWithAny', () => {
    assert.equal(intersects(['auth', 'money'], ['money']), true);
    assert.equal(intersects(['auth'], ['money']), false);
    assert.equal(intersects([], []), false);
    assert.equal(intersects('auth', ['auth']), false);
    assert.equal(startsWithAny('/admin/users', ['/internal', '/admin']), true);
    assert.equal(startsWithAny('/users', ['/admin']), false);
    assert.equal(startsWithAny('/admin', '/admin'), false);
    assert.equal(endsWithAny('a.test.ts', ['.spec.ts', '.test.ts']), true);
    assert.equal(endsWithAny('a.ts', ['.test.ts']), false);
  });
});

describe('runRuleCases and assertPackCoverage', () => {
  test('run only the named rule over valid and invalid cases', async () => {
    await runRuleCases(routePack, 'risk/unauthenticated-mutation', {
      valid: [
        { kind: 'api', isMutation: true, hasAuthMiddleware: true },
        { kind: 'ui', isMutation: true },
        { kind: 'api', changed: true },
      ],
      invalid: [
        {
          facts: { kind: 'api', isMutation: true, method: 'PUT', path: '/cart' },
          messageId: 'unauthenticated',
          message: 'PUT /cart has no auth middleware ()',
          params: { weight: 4 },
        },
      ],
    });
  });

  test('fail when a valid case fires or an invalid case does not', async () => {
    await assert.rejects(
      runRuleCases(routePack, 'risk/changed-route', { valid: [{ changed: true }], invalid: [] }),
      /risk\/changed-route valid\[0\] \(json-rules-engine\) should not fire/,
    );
    await assert.rejects(
      runRuleCases(routePack, 'risk/changed-route', { valid: [], invalid: [{ facts: { changed: false } }] }),
      /risk\/changed-route invalid\[0\] \(json-rules-engine\) should fire once/,
    );
    await assert.rejects(
      runRuleCases(routePack, 'risk/changed-route', { valid: [{ colour: 'red' }], invalid: [] }),
      /facts not in the route catalogue/,
    );
    await assert.rejects(
      runRuleCases(routePack, 'risk/missing', { valid: [], invalid: [] }),
      /pack "route-risk" has no rule "risk\/missing"/,
    );
  });

  test('coverage fails for rules without a valid and an invalid case', () => {
    const covered = { valid: [{}], invalid: [{ facts: {} }] };
    assertPackCoverage(routePack, { 'risk/unauthenticated-mutation': covered, 'risk/changed-route': covered, 'risk/admin-route': covered });
    assert.throws(
      () => assertPackCoverage(routePack, { 'risk/unauthenticated-mutation': covered, 'risk/changed-route': { valid: [{}], invalid: [] } }),
      (error: unknown) => {
        assert.ok(error instanceof assert.AssertionError);
        assert.deepEqual(error.actual, ['risk/changed-route', 'risk/admin-route']);
        return true;
      },
    );
    assert.throws(
      () =>
        assertPackCoverage(routePack, {
          'risk/unauthenticated-mutation': covered,
          'risk/changed-route': covered,
          'risk/admin-route': covered,
          'risk/gone': covered,
        }),
      (error: unknown) => error instanceof assert.AssertionError && JSON.stringify(error.actual) === '["risk/gone"]',
    );
  });
});
