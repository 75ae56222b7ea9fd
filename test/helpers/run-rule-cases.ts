import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { validatePackData, validatePackFile } from './packs.js';
import { FACT_CATALOGUE, type RuleEventParams, type RulePack } from '../../src/model/rules.js';
import { evaluatePacks, type Evaluator } from '../../src/rules/engine.js';
import { compilePack, getDefaultFactValue } from '../../src/rules/pack.js';

export type FactsObject = Record<string, unknown>;

export interface InvalidCase {
  facts: FactsObject;
  messageId?: string;
  /** Expected params; only the keys given are compared. */
  params?: Partial<RuleEventParams>;
  /** Expected rendered message. */
  message?: string;
}

export interface RuleCases {
  valid: FactsObject[];
  invalid: InvalidCase[];
}

function loadPack(packPathOrObject: string | unknown): RulePack {
  if (typeof packPathOrObject === 'string') {
    return validatePackFile(relative(process.cwd(), packPathOrObject), readFileSync(packPathOrObject, 'utf8'));
  }
  return validatePackData('<inline pack>', packPathOrObject);
}

/** Fills facts a case leaves out with neutral values (``, 0, false, []) and refuses names the subject lacks. */
function completeFacts(pack: RulePack, facts: FactsObject, label: string): FactsObject {
  const declared = FACT_CATALOGUE[pack.subject];
  const unknown = Object.keys(facts).filter((name) => !Object.hasOwn(declared, name));
  assert.deepEqual(unknown, [], `${label}: facts not in the ${pack.subject} catalogue`);
  const complete: FactsObject = {};
  for (const [name, declaration] of Object.entries(declared)) {
    complete[name] = Object.hasOwn(facts, name) ? facts[name] : getDefaultFactValue(declaration.type);
  }
  return complete;
}

/**
 * Runs only `ruleId` of the pack (ESLint RuleTester style): it must not fire on any valid case and must fire
 * exactly once, with the given messageId, params and message, on every invalid case. Runs both evaluators.
 */
export async function runRuleCases(packPathOrObject: string | unknown, ruleId: string, cases: RuleCases): Promise<void> {
  const pack = loadPack(packPathOrObject);
  const rule = pack.rules.find((candidate) => candidate.id === ruleId);
  assert.ok(rule !== undefined, `pack "${pack.id}" has no rule "${ruleId}"`);
  const single = compilePack({ ...pack, rules: [rule] });
  const evaluators: Evaluator[] = ['json-rules-engine', 'compiled'];
  for (const evaluator of evaluators) {
    for (const [index, facts] of cases.valid.entries()) {
      const label = `${ruleId} valid[${index}] (${evaluator})`;
      const subject = { subject: pack.subject, id: `case:valid-${index}`, facts: completeFacts(pack, facts, label) };
      const findings = await evaluatePacks([single], [subject], { evaluator });
      assert.deepEqual(
        findings.map((finding) => finding.message),
        [],
        `${label} should not fire`,
      );
    }
    for (const [index, expected] of cases.invalid.entries()) {
      const label = `${ruleId} invalid[${index}] (${evaluator})`;
      const subject = { subject: pack.subject, id: `case:invalid-${index}`, facts: completeFacts(pack, expected.facts, label) };
      const findings = await evaluatePacks([single], [subject], { evaluator });
      assert.equal(findings.length, 1, `${label} should fire once`);
      const [finding] = findings;
      if (finding === undefined) continue;
      if (expected.messageId !== undefined) assert.equal(finding.messageId, expected.messageId, `${label} messageId`);
      if (expected.message !== undefined) assert.equal(finding.message, expected.message, `${label} message`);
      for (const [key, value] of Object.entries(expected.params ?? {})) {
        assert.deepEqual(Reflect.get(finding.params, key), value, `${label} params.${key}`);
      }
    }
  }
}

/** Fails when a rule of the pack lacks a valid or an invalid case, or when cases name a rule the pack lacks. */
export function assertPackCoverage(pack: RulePack, casesByRuleId: Readonly<Record<string, RuleCases | undefined>>): void {
  const ruleIds = pack.rules.map((rule) => rule.id);
  const uncovered = ruleIds.filter((id) => {
    const cases = casesByRuleId[id];
    return cases === undefined || cases.valid.length === 0 || cases.invalid.length === 0;
  });
  assert.deepEqual(uncovered, [], `pack "${pack.id}": rules without at least one valid and one invalid case`);
  const unknown = Object.keys(casesByRuleId)
    .filter((id) => !ruleIds.includes(id))
    .sort();
  assert.deepEqual(unknown, [], `pack "${pack.id}": cases for rules the pack does not have`);
}
