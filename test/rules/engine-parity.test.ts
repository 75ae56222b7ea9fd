import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { Engine } from 'json-rules-engine';
import {
  CUSTOM_OPERATORS,
  type Condition,
  ENGINE_OPERATORS,
  type FactCondition,
  type FactSubject,
  type JsonValue,
  OPERATOR_DECORATORS,
  type RulePack,
  type TopLevelCondition,
} from '../../src/model/rules.js';
import { evaluatePacks } from '../../src/rules/engine.js';
import { buildOperatorTable, resolveOperator } from '../../src/rules/operators/index.js';
import { compilePack } from '../../src/rules/pack.js';

const FACT_NAMES = ['path', 'count', 'flag', 'tags', 'sizes', 'meta', 'other'] as const;
const SHARED_NAMES = ['sharedA', 'sharedB'] as const;

const scalar = fc.oneof(
  fc.constantFrom('src/a.ts', 'src/api/b.test.ts', 'docs/c.md', '', '3', '3abc', 'abc', 'skip', 'b'),
  fc.integer({ min: -3, max: 5 }),
  fc.constantFrom(0.5, -0),
  fc.boolean(),
  fc.constant(null),
);
const list = fc.array(scalar, { maxLength: 4 });
const jsonValue: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 2, arbitrary: list },
  { weight: 1, arbitrary: fc.record({ name: scalar, items: list }) },
);
const factValues = fc.record({
  path: jsonValue,
  count: jsonValue,
  flag: jsonValue,
  tags: fc.oneof(list, jsonValue),
  sizes: fc.array(fc.integer({ min: -2, max: 6 }), { maxLength: 4 }),
  meta: fc.record({ name: scalar, items: list, nested: fc.record({ level: scalar }) }),
  other: jsonValue,
});
const factPath = fc.constantFrom('$.name', '$.items[0]', '$.items[2]', '$.nested.level', '$[0]', '$[1]', '$.missing');
const operatorName = fc
  .tuple(
    fc.array(fc.constantFrom(...OPERATOR_DECORATORS), { maxLength: 2 }),
    fc.constantFrom(...ENGINE_OPERATORS, ...CUSTOM_OPERATORS.filter((name) => name !== 'matchesRegex'), 'matchesRegex'),
  )
  .map(([decorators, operator]) => [...decorators, operator].join(':'));
const operand = fc.oneof(
  { weight: 3, arbitrary: jsonValue },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.constantFrom('src/**', '**/*.test.ts', '^src/', 'test\\.ts$'),
      fc.array(fc.constantFrom('src/**', 'docs/**', 'skip', 'src/', '.ts'), { maxLength: 3 }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({ fact: fc.constantFrom(...FACT_NAMES), path: factPath }, { requiredKeys: ['fact'] }),
  },
);
const factCondition: fc.Arbitrary<FactCondition> = fc.record(
  { fact: fc.constantFrom(...FACT_NAMES), operator: operatorName, value: operand, path: factPath },
  { requiredKeys: ['fact', 'operator', 'value'] },
);

function buildConditions(sharedNames: readonly string[]): fc.Arbitrary<TopLevelCondition> {
  const tree = fc.letrec<{ condition: Condition; top: TopLevelCondition }>((tie) => ({
    condition: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 3, arbitrary: factCondition },
      { weight: 2, arbitrary: tie('top') },
    ),
    top: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ all: fc.array(tie('condition'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ any: fc.array(tie('condition'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ not: tie('condition') }),
      ...(sharedNames.length === 0 ? [] : [fc.record({ condition: fc.constantFrom(...sharedNames) })]),
    ),
  }));
  return tree.top;
}

const arbitraryPack: fc.Arbitrary<RulePack> = fc
  .tuple(buildConditions([]), buildConditions(['sharedA']), fc.array(buildConditions(SHARED_NAMES), { minLength: 1, maxLength: 4 }))
  .map(([sharedA, sharedB, ruleConditions]) => ({
    schemaVersion: 1,
    id: 'parity',
    version: '1.0.0',
    kind: 'risk',
    subject: 'changed-file',
    description: 'random conditions',
    sharedConditions: { sharedA, sharedB },
    rules: ruleConditions.map((conditions, index) => ({
      id: `risk/rule-${index}`,
      description: 'd',
      rationale: 'r',
      priority: 1 + (index % 3),
      conditions,
      event: { type: `risk/rule-${index}`, params: { weight: 1 } },
    })),
  }));

async function settle<T>(run: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await run() };
  } catch {
    return { ok: false };
  }
}

describe('one evaluator: compiled predicates equal json-rules-engine', () => {
  test('on random packs (all/any/not, shared conditions, every operator and decorator, fact paths and fact references) and random facts', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryPack, fc.array(factValues, { minLength: 1, maxLength: 4 }), async (pack, factsList) => {
        const compiled = compilePack(pack);
        const subjects: FactSubject[] = factsList.map((facts, index) => ({ subject: 'changed-file', id: `file:f${index}.ts`, facts }));
        const viaEngine = await settle(() => evaluatePacks([compiled], subjects, { evaluator: 'json-rules-engine' }));
        const viaPredicates = await settle(() => evaluatePacks([compiled], subjects));
        assert.deepEqual(viaPredicates, viaEngine);
      }),
      { numRuns: 400, seed: 20260612 },
    );
  });

  test('a fact a condition names but the subject lacks fails both, as json-rules-engine does (allowUndefinedFacts: false)', async () => {
    const pack: RulePack = {
      schemaVersion: 1,
      id: 'missing',
      version: '1.0.0',
      kind: 'risk',
      subject: 'changed-file',
      description: 'd',
      rules: [
        {
          id: 'risk/uses-count',
          description: 'd',
          rationale: 'r',
          conditions: { all: [{ fact: 'count', operator: 'greaterThan', value: 1 }] },
          event: { type: 'risk/uses-count', params: { weight: 1 } },
        },
      ],
    };
    const subjects: FactSubject[] = [{ subject: 'changed-file', id: 'file:a.ts', facts: { path: 'a.ts' } }];
    for (const evaluator of ['json-rules-engine', 'compiled'] as const) {
      await assert.rejects(evaluatePacks([compilePack(pack)], subjects, { evaluator }), /Undefined fact: count/);
    }
  });
});

describe("our operator table matches json-rules-engine's own operators", () => {
  const table = buildOperatorTable();
  const builtinName = fc
    .tuple(fc.array(fc.constantFrom(...OPERATOR_DECORATORS), { maxLength: 2 }), fc.constantFrom(...ENGINE_OPERATORS))
    .map(([decorators, operator]) => [...decorators, operator].join(':'));

  test('wherever json-rules-engine answers (it throws where a list or string is needed and missing; ours answers false there)', async () => {
    await fc.assert(
      fc.asyncProperty(builtinName, jsonValue, jsonValue, async (operator, factValue, value) => {
        const engine = new Engine([{ conditions: { all: [{ fact: 'x', operator, value }] }, event: { type: 'fired' } }], {
          allowUndefinedFacts: false,
        });
        const reference = await settle(async () => (await engine.run({ x: factValue })).events.length === 1);
        const evaluate = resolveOperator(operator, table);
        assert.notEqual(evaluate, null);
        const ours = evaluate?.(factValue, value);
        assert.equal(typeof ours, 'boolean');
        if (reference.ok) assert.equal(ours, reference.value, `${JSON.stringify(factValue)} ${operator} ${JSON.stringify(value)}`);
      }),
      { numRuns: 1500, seed: 20260613 },
    );
  });

  test('resolves decorated names as OperatorMap#get does and refuses unknown ones', () => {
    assert.equal(resolveOperator('not:someFact:equal', table)?.(['a', 'b'], 'a'), false);
    assert.equal(resolveOperator('swap:contains', table)?.('a', ['a']), true);
    assert.equal(resolveOperator('everyValue:matchesGlob', table)?.('src/a.ts', ['src/**', '**/*.ts']), true);
    assert.equal(resolveOperator('sometimes:equal', table), null);
    assert.equal(resolveOperator('not:unknown', table), null);
    assert.equal(resolveOperator(':equal', table), null);
  });
});
