import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validatePackData, validatePackFile } from '../helpers/packs.js';
import { CheckerError } from '../../src/model/diagnostic.js';
import { CUSTOM_OPERATORS, FACT_CATALOGUE, SUBJECT_KINDS, type RulePack } from '../../src/model/rules.js';
import { customOperators } from '../../src/rules/operators/index.js';
import { compilePack, findFactProblems, getFactNames, resolveFactPath } from '../../src/rules/pack.js';

const FILE = '.checker/rules/team.yml';

const goodYaml = `schemaVersion: 1
id: team-risk
version: 1.2.0
kind: risk
subject: changed-file
description: Risks our team cares about.
messages:
  paymentsTouched: "{{path}} touches payments ({{additions}} lines added)"
rules:
  - id: risk/payments-touched
    description: Payments code changed.
    rationale: Money paths break loudly.
    since: 1.0.0
    priority: 10
    conditions:
      all:
        - { fact: path, operator: matchesGlob, value: "src/payments/**" }
        - { fact: additions, operator: greaterThan, value: 0 }
    event:
      type: risk/payments-touched
      params: { weight: 3, messageId: paymentsTouched, proof: "run the tests of {{path}}" }
  - id: risk/auth-touched
    description: Authentication code changed.
    rationale: Auth regressions lock users out.
    conditions:
      any:
        - { fact: isAuthPath, operator: equal, value: true }
        - { fact: signals, operator: contains, value: auth }
    event:
      type: risk/auth-touched
      params: { weight: 2, message: "{{path}} changes authentication" }
`;

function errorOf(run: () => unknown): CheckerError {
  try {
    run();
  } catch (error) {
    if (error instanceof CheckerError) return error;
    throw error;
  }
  assert.fail('expected a CheckerError');
}

function messageFor(text: string, file = FILE): string {
  const error = errorOf(() => validatePackFile(file, text));
  assert.equal(error.code, 'pack/invalid');
  return error.message;
}

function replaceOnce(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `fixture lacks ${from}`);
  return text.replace(from, to);
}

describe('rule-pack schema and validation', () => {
  test('accepts a complete pack and returns it typed', () => {
    const pack = validatePackFile(FILE, goodYaml);
    assert.equal(pack.id, 'team-risk');
    assert.deepEqual(
      pack.rules.map((rule) => rule.id),
      ['risk/payments-touched', 'risk/auth-touched'],
    );
    assert.equal(pack.rules[0]?.event.params.weight, 3);
  });

  test('accepts the same pack as JSON', () => {
    const pack = validatePackFile(FILE, goodYaml);
    assert.deepEqual(validatePackFile('.checker/rules/team.json', JSON.stringify(pack, null, 2)), pack);
  });

  const cases: Array<{ name: string; from: string; to: string; message: string }> = [
    {
      name: 'missing rule id',
      from: '  - id: risk/auth-touched\n    description',
      to: '  - description',
      message: `${FILE}: pack "team-risk" rules[1]: missing required key id`,
    },
    {
      name: 'wrong weight type',
      from: 'weight: 3,',
      to: 'weight: "3",',
      message: `${FILE}: pack "team-risk" rule "risk/payments-touched": event.params.weight must be a number (got string "3")`,
    },
    {
      name: 'unknown fact',
      from: '{ fact: additions,',
      to: '{ fact: addedLines,',
      message: `${FILE}: pack "team-risk" rule "risk/payments-touched": conditions.all[1].fact names unknown fact "addedLines" for subject changed-file`,
    },
    {
      name: 'unknown operator',
      from: 'operator: matchesGlob',
      to: 'operator: globMatches',
      message: `${FILE}: pack "team-risk" rule "risk/payments-touched": conditions.all[0].operator names unknown operator "globMatches"`,
    },
    {
      name: 'unknown operator decorator',
      from: 'operator: contains',
      to: 'operator: someThing:equal',
      message: `${FILE}: pack "team-risk" rule "risk/auth-touched": conditions.any[1].operator names unknown operator decorator "someThing"`,
    },
    {
      name: 'bad semver',
      from: 'version: 1.2.0',
      to: 'version: "1.2"',
      message: `${FILE}: pack "team-risk": version must be a semver version such as 1.0.0`,
    },
    {
      name: 'bad semver in since',
      from: 'since: 1.0.0',
      to: 'since: v1',
      message: `${FILE}: pack "team-risk" rule "risk/payments-touched": since must be a semver version such as 1.0.0`,
    },
    {
      name: 'duplicate rule id',
      from: '  - id: risk/auth-touched\n',
      to: '  - id: risk/payments-touched\n',
      message: `${FILE}: pack "team-risk" rule "risk/payments-touched": id is a duplicate of rules[0]`,
    },
    {
      name: 'kind and rule-id prefix mismatch',
      from: 'kind: risk',
      to: 'kind: decay',
      message: `${FILE}: pack "team-risk" rule "risk/payments-touched": id must start with "decay/" in a decay pack`,
    },
    {
      name: 'placeholder in a message that is not a fact',
      from: '({{additions}} lines added)',
      to: '({{linesAdded}} lines added)',
      message: `${FILE}: pack "team-risk": messages.paymentsTouched has placeholder {{linesAdded}}, which is not a changed-file fact`,
    },
    {
      name: 'placeholder in params that is not a fact',
      from: 'message: "{{path}} changes authentication"',
      to: 'message: "{{file}} changes authentication"',
      message: `${FILE}: pack "team-risk" rule "risk/auth-touched": event.params.message has placeholder {{file}}, which is not a changed-file fact`,
    },
    {
      name: 'event type that is not the rule id',
      from: 'type: risk/auth-touched',
      to: 'type: risk/other',
      message: `${FILE}: pack "team-risk" rule "risk/auth-touched": event.type must equal the rule id "risk/auth-touched"`,
    },
    {
      name: 'messageId without a message',
      from: 'messageId: paymentsTouched',
      to: 'messageId: paymentsChanged',
      message: `${FILE}: pack "team-risk" rule "risk/payments-touched": event.params.messageId names message "paymentsChanged", which is not under messages`,
    },
    {
      name: 'unknown key in a condition',
      from: '{ fact: isAuthPath, operator: equal, value: true }',
      to: '{ fact: isAuthPath, operator: equal, value: true, params: {} }',
      message: `${FILE}: pack "team-risk" rule "risk/auth-touched": unknown key conditions.any[0].params`,
    },
    {
      name: 'unknown kind',
      from: 'kind: risk',
      to: 'kind: danger',
      message: `${FILE}: pack "team-risk": kind must be one of "risk", "decay", "weak-test", "missing-test", "stale-assertion", "proof", "edge-case", "pattern", "tool", "context-weight" (got string "danger")`,
    },
    {
      name: 'priority out of range',
      from: 'priority: 10',
      to: 'priority: 500',
      message: `${FILE}: pack "team-risk" rule "risk/payments-touched": priority must be <= 100 (got number 500)`,
    },
    {
      name: 'unsafe regex',
      from: '{ fact: path, operator: matchesGlob, value: "src/payments/**" }',
      to: '{ fact: path, operator: matchesRegex, value: "secret(?!_test)" }',
      message: `${FILE}: pack "team-risk" rule "risk/payments-touched": conditions.all[0].value pattern "secret(?!_test)" uses lookahead ((?!), which is not supported: rewrite without lookahead; repository patterns run on a linear-time engine (RE2 syntax)`,
    },
    {
      name: 'a scalar value for a list operator',
      from: '{ fact: signals, operator: contains, value: auth }',
      to: '{ fact: role, operator: in, value: source }',
      message: `${FILE}: pack "team-risk" rule "risk/auth-touched": conditions.any[1].value must be a list for in`,
    },
    {
      name: 'JSONPath filter expression',
      from: '{ fact: isAuthPath, operator: equal, value: true }',
      to: '{ fact: isAuthPath, operator: equal, value: true, path: "$..[?(@.x)]" }',
      message: `${FILE}: pack "team-risk" rule "risk/auth-touched": conditions.any[0].path must match ^\\$(?:\\.[A-Za-z_][A-Za-z0-9_]*|\\[[0-9]{1,4}\\])+$`,
    },
    {
      name: 'repository pack that claims a namespaced id',
      from: 'id: team-risk',
      to: 'id: "repo:team-risk"',
      message: `${FILE}: pack "repo:team-risk": id must be kebab-case (lower-case words joined by -)`,
    },
  ];
  for (const { name, from, to, message } of cases) {
    test(`rejects ${name}`, () => {
      assert.equal(messageFor(replaceOnce(goodYaml, from, to)), message);
    });
  }

  test('rejects a YAML syntax error with line and column and without quoting the source', () => {
    const text = replaceOnce(goodYaml, 'rules:\n', 'rules:\n  broken: [\n');
    const error = errorOf(() => validatePackFile(FILE, text));
    assert.equal(error.code, 'pack/invalid');
    assert.equal(
      error.message,
      `${FILE}:11:3: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]`,
    );
    assert.deepEqual(error.location, { file: FILE, line: 11, col: 3 });
  });

  test('rejects duplicate YAML keys with their position', () => {
    const text = replaceOnce(goodYaml, 'kind: risk\n', 'kind: risk\nkind: decay\n');
    assert.equal(messageFor(text), `${FILE}:5:1: YAML syntax error: Map keys must be unique`);
  });

  test('rejects a JSON syntax error with line and column', () => {
    assert.equal(
      messageFor('{\n  "schemaVersion": 1,\n  "id": }\n', '.checker/rules/team.json'),
      '.checker/rules/team.json:3:9: JSON syntax error: ValueExpected',
    );
  });

  test('rejects a YAML alias bomb', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let level = 1; level < 9; level += 1) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      lines.push(`${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(',')}]`);
    }
    assert.equal(
      messageFor(lines.join('\n')),
      `${FILE}: YAML could not be expanded: Excessive alias count indicates a resource exhaustion attack`,
    );
  });

  test('rejects an edge-case pack whose rule lacks the scenario field trigger', () => {
    const pack = {
      schemaVersion: 1,
      id: 'edge-cases',
      version: '1.0.0',
      kind: 'edge-case',
      subject: 'changed-file',
      description: 'Edge cases.',
      rules: [
        {
          id: 'edge-case/number-parsing',
          description: 'Parses numbers.',
          rationale: 'parseInt returns NaN on bad input.',
          conditions: { all: [{ fact: 'signals', operator: 'contains', value: 'parse-number' }] },
          event: {
            type: 'edge-case/number-parsing',
            params: {
              weight: 2,
              message: '{{path}} parses numbers',
              expectedBehavior: 'invalid input is rejected with a message',
              userVisibleFailure: 'NaN shown as a price',
              scope: '{{path}}',
              recommendedProof: 'a test with "12abc" and ""',
              confidence: 'medium',
            },
          },
        },
      ],
    };
    const error = errorOf(() => validatePackData('rules/edge-cases/pack.yaml', pack));
    assert.equal(
      error.message,
      'rules/edge-cases/pack.yaml: pack "edge-cases" rule "edge-case/number-parsing": missing required key event.params.trigger',
    );
    const withTrigger = structuredClone(pack);
    const params = withTrigger.rules[0]?.event.params;
    assert.ok(params !== undefined);
    Object.assign(params, { trigger: 'a value such as "12abc" reaches parseInt' });
    assert.equal(validatePackData('rules/edge-cases/pack.yaml', withTrigger).rules.length, 1);
  });

  test('requires tool fields in tool packs and an edge kind in context-weight packs', () => {
    const base = { schemaVersion: 1, version: '1.0.0', description: 'd' };
    const toolPack = {
      ...base,
      id: 'tools',
      kind: 'tool',
      subject: 'repository',
      rules: [
        {
          id: 'tool/knip',
          description: 'd',
          rationale: 'r',
          conditions: { all: [{ fact: 'hasTypeScript', operator: 'equal', value: true }] },
          event: { type: 'tool/knip', params: { weight: 1, tool: 'knip', why: 'finds unused exports' } },
        },
      ],
    };
    assert.equal(
      errorOf(() => validatePackData('t.yml', toolPack)).message,
      't.yml: pack "tools" rule "tool/knip": missing required key event.params.install',
    );
    const weightPack = {
      ...base,
      id: 'context',
      kind: 'context-weight',
      subject: 'edge-kind',
      rules: [
        {
          id: 'context-weight/imports',
          description: 'd',
          rationale: 'r',
          conditions: { all: [{ fact: 'edgeKind', operator: 'equal', value: 'imports' }] },
          event: { type: 'context-weight/imports', params: { weight: 0.8, edgeKind: 'calls' } },
        },
      ],
    };
    assert.equal(
      errorOf(() => validatePackData('c.yml', weightPack)).message,
      'c.yml: pack "context" rule "context-weight/imports": event.params.edgeKind must be one of "imports", "reexports", "declares", "uses", "tests", "mocks", "handles", "owns", "mentions", "belongs", "depends", "guards" (got string "calls")',
    );
  });

  test('checks shared-condition references and cycles', () => {
    const pack = validatePackFile(FILE, goodYaml);
    const unknownRef = { ...pack, rules: [{ ...pack.rules[1], conditions: { condition: 'isPayments' } }] };
    assert.equal(
      errorOf(() => validatePackData(FILE, unknownRef)).message,
      `${FILE}: pack "team-risk" rule "risk/auth-touched": conditions.condition refers to unknown shared condition "isPayments"`,
    );
    const cyclic = {
      ...unknownRef,
      sharedConditions: { isPayments: { not: { condition: 'isMoney' } }, isMoney: { any: [{ condition: 'isPayments' }] } },
    };
    assert.equal(
      errorOf(() => validatePackData(FILE, cyclic)).message,
      `${FILE}: pack "team-risk": sharedConditions.isMoney refers to itself through a cycle of shared conditions`,
    );
  });

  test('refuses data nested deeper than the depth limit before ajv sees it', () => {
    let condition: Record<string, unknown> = { fact: 'path', operator: 'equal', value: 'x' };
    for (let level = 0; level < 70; level += 1) condition = { not: condition };
    const pack = { ...validatePackFile(FILE, goodYaml), sharedConditions: { deep: condition } };
    assert.equal(errorOf(() => validatePackData(FILE, pack)).message, `${FILE} is nested deeper than 64 levels`);
  });
});

describe('fact catalogue', () => {
  test('declares facts for every subject kind', () => {
    assert.deepEqual(Object.keys(FACT_CATALOGUE).sort(), [...SUBJECT_KINDS].sort());
    assert.deepEqual(getFactNames('edge-kind'), ['edgeKind', 'fromKind', 'taskKind', 'toKind', 'typeOnly']);
  });

  test('every declared custom operator has an implementation', () => {
    assert.deepEqual(Object.keys(customOperators).sort(), [...CUSTOM_OPERATORS].sort());
  });

  test('findFactProblems reports missing, mistyped and undeclared facts', () => {
    const facts = { edgeKind: 'imports', fromKind: 'file', toKind: 3, typeOnly: false, colour: 'red' };
    assert.deepEqual(findFactProblems('edge-kind', facts), [
      'taskKind: missing (string)',
      'toKind: must be string',
      'colour: not a edge-kind fact',
    ]);
  });
});

describe('compilePack', () => {
  test('collects the facts the pack names, fact references included', () => {
    const pack = validatePackFile(FILE, goodYaml);
    const withReference: RulePack = {
      ...pack,
      rules: [
        ...pack.rules,
        {
          id: 'risk/more-deleted',
          description: 'd',
          rationale: 'r',
          conditions: { all: [{ fact: 'deletions', operator: 'greaterThan', value: { fact: 'additions' } }] },
          event: { type: 'risk/more-deleted', params: { weight: 1 } },
        },
      ],
    };
    assert.deepEqual(compilePack(withReference).requiredFacts, ['additions', 'deletions', 'isAuthPath', 'path', 'signals']);
  });

  test('resolveFactPath reads own properties and array items only', () => {
    const value = { owner: { handle: '@pay' }, list: ['a', 'b'] };
    assert.equal(resolveFactPath(value, '$.owner.handle'), '@pay');
    assert.equal(resolveFactPath(value, '$.list[1]'), 'b');
    assert.equal(resolveFactPath(value, '$.owner.constructor'), undefined);
    assert.equal(resolveFactPath(value, '$.list.length'), undefined);
    assert.equal(resolveFactPath(value, '$..handle'), undefined);
  });
});
