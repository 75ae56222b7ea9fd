import type { ENGINE_OPERATORS, OPERATOR_DECORATORS } from '../../model/rules.js';

type EngineOperatorName = (typeof ENGINE_OPERATORS)[number];
type OperatorDecoratorName = (typeof OPERATOR_DECORATORS)[number];

export type OperatorEvaluator = (factValue: unknown, value: unknown) => boolean;
export type DecoratorEvaluator = (factValue: unknown, value: unknown, next: OperatorEvaluator) => boolean;

type Primitive = string | number | bigint | boolean | symbol | null | undefined;

function isPrimitive(value: unknown): value is Primitive {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

/**
 * ECMAScript ToPrimitive with hint "number", as the relational operators apply it; undefined (NaN as a
 * number) where JavaScript would throw (an object without valueOf/toString, a symbol), so no operator throws.
 */
function toPrimitive(value: unknown): Exclude<Primitive, symbol> {
  if (isPrimitive(value)) return typeof value === 'symbol' ? undefined : value;
  const exotic: unknown = Reflect.get(value, Symbol.toPrimitive);
  const keys = typeof exotic === 'function' ? [] : ['valueOf', 'toString'];
  const calls = typeof exotic === 'function' ? [() => Reflect.apply(exotic, value, ['number'])] : [];
  for (const key of keys) {
    const method: unknown = Reflect.get(value, key);
    if (typeof method === 'function') calls.push(() => Reflect.apply(method, value, []));
  }
  for (const call of calls) {
    const result: unknown = call();
    if (isPrimitive(result)) return typeof result === 'symbol' ? undefined : result;
  }
  return undefined;
}

/** `a < b` for any two values (the Abstract Relational Comparison): strings compare as text, everything else as numbers. */
function isLess(a: unknown, b: unknown): boolean {
  const left = toPrimitive(a);
  const right = toPrimitive(b);
  if (typeof left === 'string' && typeof right === 'string') return left < right;
  return Number(left) < Number(right);
}

/** `a <= b`: false when either side is NaN, as in JavaScript. */
function isLessOrEqual(a: unknown, b: unknown): boolean {
  const left = toPrimitive(a);
  const right = toPrimitive(b);
  if (typeof left === 'string' && typeof right === 'string') return left <= right;
  return Number(left) <= Number(right);
}

/**
 * `container.indexOf(item)` for a list or a string (a string finds substrings, as json-rules-engine's `in` does);
 * -1 for anything else, where json-rules-engine throws a TypeError and fails the whole run.
 */
function indexOf(container: unknown, item: unknown): number {
  if (Array.isArray(container)) return container.indexOf(item);
  if (typeof container === 'string') return container.indexOf(toText(item));
  return -1;
}

/** json-rules-engine's number validator, `parseFloat(factValue)` not NaN (ToString is ToPrimitive with hint "string"). */
function isNumeric(factValue: unknown): boolean {
  return Number.parseFloat(toText(factValue)).toString() !== 'NaN';
}

function toText(value: unknown): string {
  if (typeof value === 'symbol') return '';
  if (isPrimitive(value)) return String(value);
  const method: unknown = Reflect.get(value, 'toString');
  const result: unknown = typeof method === 'function' ? Reflect.apply(method, value, []) : undefined;
  return typeof result === 'symbol' || !isPrimitive(result) ? '' : String(result);
}

/**
 * json-rules-engine 7's default operators with its semantics (src/engine-default-operators.js): the
 * same comparisons and the same fact-value validators (lists for contains, numbers for the orderings).
 * One deliberate difference: where its `indexOf` would throw (`in` against a value that is neither a
 * list nor a string) these answer false, so a malformed repository pack cannot abort a run.
 */
export const engineOperators: Readonly<Record<EngineOperatorName, OperatorEvaluator>> = {
  equal: (a, b) => a === b,
  notEqual: (a, b) => a !== b,
  in: (a, b) => indexOf(b, a) > -1,
  notIn: (a, b) => (Array.isArray(b) || typeof b === 'string' ? indexOf(b, a) === -1 : false),
  contains: (a, b) => Array.isArray(a) && a.indexOf(b) > -1,
  doesNotContain: (a, b) => Array.isArray(a) && a.indexOf(b) === -1,
  lessThan: (a, b) => isNumeric(a) && isLess(a, b),
  lessThanInclusive: (a, b) => isNumeric(a) && isLessOrEqual(a, b),
  greaterThan: (a, b) => isNumeric(a) && isLess(b, a),
  greaterThanInclusive: (a, b) => isNumeric(a) && isLessOrEqual(b, a),
};

/**
 * json-rules-engine 7's operator decorators (src/engine-default-operator-decorators.js), written
 * `decorator:operator`. `someValue`/`everyValue` answer false for a value that is not a list.
 */
export const operatorDecorators: Readonly<Record<OperatorDecoratorName, DecoratorEvaluator>> = {
  someFact: (factValue, value, next) => Array.isArray(factValue) && factValue.some((item: unknown) => next(item, value)),
  someValue: (factValue, value, next) => Array.isArray(value) && value.some((item: unknown) => next(factValue, item)),
  everyFact: (factValue, value, next) => Array.isArray(factValue) && factValue.every((item: unknown) => next(item, value)),
  everyValue: (factValue, value, next) => Array.isArray(value) && value.every((item: unknown) => next(factValue, item)),
  swap: (factValue, value, next) => next(value, factValue),
  not: (factValue, value, next) => !next(factValue, value),
};
