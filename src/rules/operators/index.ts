import type { CustomOperatorName } from '../../model/rules.js';
import { endsWithAny } from './ends-with-any.js';
import { type DecoratorEvaluator, engineOperators, type OperatorEvaluator, operatorDecorators } from './engine-operators.js';
import { intersects } from './intersects.js';
import { matchesGlob } from './matches-glob.js';
import { matchesRegex } from './matches-regex.js';
import { startsWithAny } from './starts-with-any.js';

export type { OperatorEvaluator };
export { operatorDecorators };

/** Every custom operator the model declares, by name; the Record type keeps the two lists in step. */
export const customOperators: Readonly<Record<CustomOperatorName, OperatorEvaluator>> = {
  matchesGlob,
  matchesRegex,
  intersects,
  startsWithAny,
  endsWithAny,
};

/** The one operator table: json-rules-engine's operators (our implementation of them) and ours. */
export type OperatorTable = Readonly<Record<string, OperatorEvaluator>>;

export function buildOperatorTable(overrides: Partial<Record<CustomOperatorName, OperatorEvaluator>> = {}): OperatorTable {
  return { ...engineOperators, ...customOperators, ...overrides };
}

/**
 * The evaluator for an operator name, decorators applied (`not:someFact:equal`), or null for an unknown
 * name; resolves names the way json-rules-engine's OperatorMap#get does, outermost decorator first.
 */
export function resolveOperator(name: string, table: OperatorTable): OperatorEvaluator | null {
  if (Object.hasOwn(table, name)) return table[name] ?? null;
  const colon = name.indexOf(':');
  if (colon <= 0) return null;
  const decoratorName = name.slice(0, colon);
  if (!Object.hasOwn(operatorDecorators, decoratorName)) return null;
  const decorate: DecoratorEvaluator | undefined = Reflect.get(operatorDecorators, decoratorName);
  const next = resolveOperator(name.slice(colon + 1), table);
  if (decorate === undefined || next === null) return null;
  return (factValue, value) => decorate(factValue, value, next);
}
