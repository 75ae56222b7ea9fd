import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadBuiltinPacks } from '../helpers/packs.js';
import { findRegexProblem } from '../../src/rules/validate-pack.js';
import type { Condition, LoadedPack } from '../../src/model/rules.js';
import { getCompiledPattern } from '../../src/rules/operators/matches-regex.js';
import { projectRoot } from '../helpers/cli.js';
import { CASES_BY_PACK } from './packs/cases/index.js';

interface RegexUse {
  packId: string;
  ruleId: string;
  fact: string;
  pattern: string;
}

function collectRegexUses(packId: string, ruleId: string, condition: Condition, uses: RegexUse[]): void {
  if ('all' in condition) {
    for (const child of condition.all) collectRegexUses(packId, ruleId, child, uses);
  } else if ('any' in condition) {
    for (const child of condition.any) collectRegexUses(packId, ruleId, child, uses);
  } else if ('not' in condition) collectRegexUses(packId, ruleId, condition.not, uses);
  else if ('fact' in condition && condition.operator.endsWith('matchesRegex')) {
    const patterns: unknown[] = Array.isArray(condition.value) ? condition.value : [condition.value];
    for (const pattern of patterns) if (typeof pattern === 'string') uses.push({ packId, ruleId, fact: condition.fact, pattern });
  }
}

function findRegexUses(packs: readonly LoadedPack[]): RegexUse[] {
  const uses: RegexUse[] = [];
  for (const { pack } of packs) {
    for (const rule of pack.rules) collectRegexUses(pack.id, rule.id, rule.conditions, uses);
    for (const [name, condition] of Object.entries(pack.sharedConditions ?? {}))
      collectRegexUses(pack.id, `sharedConditions.${name}`, condition, uses);
  }
  return uses;
}

/** Every line of checker's own TypeScript sources: thousands of real code lines beside the pack cases. */
function readSourceLines(): string[] {
  const lines: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts')) lines.push(...readFileSync(path, 'utf8').split('\n'));
    }
  };
  visit(join(projectRoot, 'src'));
  visit(join(projectRoot, 'test', 'rules'));
  return lines;
}

describe('built-in matchesRegex patterns on RE2', async () => {
  const uses = findRegexUses(await loadBuiltinPacks());

  test('the built-in packs use matchesRegex, and every pattern passes validation and compiles on RE2', () => {
    assert.ok(uses.length >= 12, `found ${uses.length} patterns`);
    for (const use of uses) {
      assert.equal(findRegexProblem(use.pattern), undefined, `${use.ruleId}: ${use.pattern}`);
      assert.notEqual(getCompiledPattern(use.pattern), null, `${use.ruleId}: ${use.pattern}`);
    }
  });

  test('every pattern gives the answer a JavaScript RegExp gave on its own pack cases', () => {
    let compared = 0;
    for (const use of uses) {
      const cases = CASES_BY_PACK[use.packId]?.[use.ruleId];
      assert.ok(cases !== undefined, `${use.ruleId} has no case table`);
      const factsList = [...cases.valid, ...cases.invalid.map((entry) => entry.facts)];
      const native = new RegExp(use.pattern, 'u');
      const re2 = getCompiledPattern(use.pattern);
      for (const facts of factsList) {
        const value = facts[use.fact];
        if (typeof value !== 'string') continue;
        assert.equal(re2?.regex.test(value), native.test(value), `${use.ruleId}: ${use.pattern} on ${JSON.stringify(value)}`);
        compared += 1;
      }
    }
    assert.ok(compared >= 2 * uses.length, `compared ${compared} values`);
  });

  test("every pattern gives the answer a JavaScript RegExp gives on every line of checker's own sources", () => {
    const lines = readSourceLines();
    assert.ok(lines.length > 10_000);
    for (const use of uses) {
      const native = new RegExp(use.pattern, 'u');
      const re2 = getCompiledPattern(use.pattern);
      const differing = lines.filter((line) => re2?.regex.test(line) !== native.test(line));
      assert.deepEqual(differing.slice(0, 3), [], `${use.ruleId}: ${use.pattern}`);
    }
  });
});
