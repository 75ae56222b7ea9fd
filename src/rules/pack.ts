import { Engine } from 'json-rules-engine';
import {
  FACT_CATALOGUE,
  type Condition,
  type CustomOperatorName,
  PLACEHOLDER_PATTERN,
  type FactCatalogue,
  type FactDeclaration,
  type FactType,
  type Rule,
  type RuleEventParams,
  type RulePack,
  type SubjectKind,
  type TopLevelCondition,
} from '../model/rules.js';
import { customOperators, type OperatorEvaluator } from './operators/index.js';
import { showName } from '../text/safe-name.js';

export { FACT_CATALOGUE };
export type { FactCatalogue, FactDeclaration, FactType };

export type FactPredicate = (facts: Record<string, unknown>) => boolean;

export interface CompiledRule {
  rule: Rule;
  priority: number;
  /** The rule's conditions as a synchronous predicate with json-rules-engine's semantics and operators. */
  test: FactPredicate;
  renderMessage: Template;
  renderParams: ParamsRenderer;
}

/** A pack ready to run: one json-rules-engine Engine, reused for every subject of the pack's kind. */
export interface CompiledPack {
  pack: RulePack;
  engine: Engine;
  rules: ReadonlyMap<string, CompiledRule>;
  /** Every fact a condition names; each subject must supply them all (json-rules-engine's allowUndefinedFacts: false). */
  requiredFacts: readonly string[];
}

interface EngineOperator {
  evaluate(factValue: unknown, value: unknown): boolean;
}

interface OperatorLookup {
  get(name: string): EngineOperator | null;
}

function isOperatorLookup(value: unknown): value is OperatorLookup {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'get') === 'function';
}

/** The engine's own operator map (decorators included), so both evaluators share one operator implementation. */
function getOperatorLookup(engine: Engine): OperatorLookup {
  const operators: unknown = Reflect.get(engine, 'operators');
  if (!isOperatorLookup(operators)) throw new Error('json-rules-engine: Engine#operators is not an operator map');
  return operators;
}

interface PredicateContext {
  operators: OperatorLookup;
  shared: Readonly<Record<string, TopLevelCondition>>;
  compiledShared: Map<string, FactPredicate>;
  facts: Set<string>;
  packId: string;
}

function buildFactReader(name: string, path: string | undefined): (facts: Record<string, unknown>) => unknown {
  if (path === undefined) return (facts) => facts[name];
  return (facts) => {
    const value = facts[name];
    return value !== null && typeof value === 'object' ? resolveFactPath(value, path) : value;
  };
}

function isFactReference(value: unknown): value is { fact: string; path?: string } {
  return isPlainObject(value) && Object.hasOwn(value, 'fact') && typeof value.fact === 'string';
}

function compileCondition(context: PredicateContext, condition: Condition): FactPredicate {
  if ('all' in condition) {
    const children = condition.all.map((child) => compileCondition(context, child));
    return (facts) => children.every((child) => child(facts));
  }
  if ('any' in condition) {
    const children = condition.any.map((child) => compileCondition(context, child));
    return (facts) => children.some((child) => child(facts));
  }
  if ('not' in condition) {
    const child = compileCondition(context, condition.not);
    return (facts) => !child(facts);
  }
  if ('condition' in condition) {
    const name = condition.condition;
    const existing = context.compiledShared.get(name);
    if (existing !== undefined) return existing;
    const target = context.shared[name];
    if (target === undefined) throw new Error(`pack "${context.packId}": unknown shared condition "${name}"`);
    let compiled: FactPredicate | undefined;
    const lazy: FactPredicate = (facts) => (compiled ?? lazy)(facts);
    context.compiledShared.set(name, lazy);
    compiled = compileCondition(context, target);
    context.compiledShared.set(name, compiled);
    return compiled;
  }
  const operator = context.operators.get(condition.operator);
  if (operator === null) throw new Error(`pack "${context.packId}": unknown operator "${condition.operator}"`);
  context.facts.add(condition.fact);
  const readFact = buildFactReader(condition.fact, condition.path);
  const { value } = condition;
  if (isFactReference(value)) {
    context.facts.add(value.fact);
    const readValue = buildFactReader(value.fact, value.path);
    return (facts) => operator.evaluate(readFact(facts), readValue(facts));
  }
  return (facts) => operator.evaluate(readFact(facts), value);
}

export function getFactNames(subject: SubjectKind, catalogue: FactCatalogue = FACT_CATALOGUE): string[] {
  return Object.keys(catalogue[subject]).sort();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const PATH_TOKEN = /\.([A-Za-z_][A-Za-z0-9_]*)|\[([0-9]{1,4})\]/y;

/**
 * Resolves the restricted JSONPath the schema allows (`$.a.b`, `$.list[0]`) over own properties only.
 * Replaces json-rules-engine's jsonpath-plus resolver so repository packs cannot reach filter scripts.
 */
export function resolveFactPath(value: unknown, path: string): unknown {
  if (!path.startsWith('$')) return undefined;
  let current: unknown = value;
  PATH_TOKEN.lastIndex = 1;
  while (PATH_TOKEN.lastIndex < path.length) {
    const match = PATH_TOKEN.exec(path);
    if (match === null) return undefined;
    const key = match[1] ?? match[2];
    if (key === undefined) return undefined;
    if (match[2] !== undefined) {
      if (!Array.isArray(current)) return undefined;
      current = current[Number(key)];
    } else {
      if (!isPlainObject(current) || !Object.hasOwn(current, key)) return undefined;
      current = current[key];
    }
  }
  return current;
}

function isFactOfType(type: FactType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string[]':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
    case 'number[]':
      return Array.isArray(value) && value.every((item) => typeof item === 'number');
    case 'object':
      return isPlainObject(value);
    case 'object[]':
      return Array.isArray(value) && value.every(isPlainObject);
  }
}

/** Lists facts that are missing, undeclared or of the wrong type for the subject (for fact-builder tests). */
export function findFactProblems(
  subject: SubjectKind,
  facts: Record<string, unknown>,
  catalogue: FactCatalogue = FACT_CATALOGUE,
): string[] {
  const declared = catalogue[subject];
  const problems: string[] = [];
  for (const name of Object.keys(declared).sort()) {
    const declaration = declared[name];
    if (declaration === undefined) continue;
    if (!Object.hasOwn(facts, name)) problems.push(`${name}: missing (${declaration.type})`);
    else if (!isFactOfType(declaration.type, facts[name])) problems.push(`${name}: must be ${declaration.type}`);
  }
  for (const name of Object.keys(facts).sort()) {
    if (!Object.hasOwn(declared, name)) problems.push(`${name}: not a ${subject} fact`);
  }
  return problems;
}

/** A neutral value of each fact type, for filling facts a test case leaves out. */
export function getDefaultFactValue(type: FactType): unknown {
  switch (type) {
    case 'string':
      return '';
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'object':
      return {};
    case 'string[]':
    case 'number[]':
    case 'object[]':
      return [];
  }
}

function formatFactValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return showName(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(formatFactValue).join(', ');
  return JSON.stringify(value);
}

export type Template = (facts: Record<string, unknown>, subjectId: string) => string;

/** Splits a `{{fact}}` template once, so rendering is a join; `{{subjectId}}` is the subject id. */
export function compileTemplate(template: string): Template {
  if (!template.includes('{{')) return () => template;
  const texts: string[] = [];
  const names: string[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER_PATTERN)) {
    texts.push(template.slice(last, match.index));
    names.push(match[1] ?? '');
    last = match.index + match[0].length;
  }
  const tail = template.slice(last);
  return (facts, subjectId) => {
    let out = '';
    for (let index = 0; index < names.length; index += 1) {
      const name = names[index] ?? '';
      const value = name === 'subjectId' ? subjectId : Object.hasOwn(facts, name) ? facts[name] : undefined;
      out += (texts[index] ?? '') + formatFactValue(value);
    }
    return out + tail;
  };
}

export function renderTemplate(template: string, facts: Record<string, unknown>, subjectId: string): string {
  return compileTemplate(template)(facts, subjectId);
}

export type ParamsRenderer = (facts: Record<string, unknown>, subjectId: string) => RuleEventParams;

/** Renders placeholders in every string param; params without any are shared, not copied. */
export function compileParams(params: RuleEventParams): ParamsRenderer {
  const templated = Object.entries(params).flatMap(([key, value]) =>
    typeof value === 'string' && value.includes('{{') ? [{ key, render: compileTemplate(value) }] : [],
  );
  if (templated.length === 0) return () => params;
  return (facts, subjectId) => {
    const rendered: RuleEventParams = { ...params };
    for (const { key, render } of templated) Reflect.set(rendered, key, render(facts, subjectId));
    return rendered;
  };
}

export interface CompilePackOptions {
  /** Replacements for custom operators: a repository pack's matchesRegex is charged to the run's regex budget. */
  operators?: Partial<Record<CustomOperatorName, OperatorEvaluator>>;
}

/** Builds the Engine (and the matching predicates) for a validated pack; src/io/rule-packs.ts validates. */
export function compilePack(pack: RulePack, options: CompilePackOptions = {}): CompiledPack {
  const engine = new Engine([], {
    allowUndefinedFacts: false,
    allowUndefinedConditions: false,
    pathResolver: resolveFactPath,
  });
  for (const [name, evaluate] of Object.entries({ ...customOperators, ...options.operators })) engine.addOperator(name, evaluate);
  const shared = pack.sharedConditions ?? {};
  for (const [name, condition] of Object.entries(shared)) engine.setCondition(name, condition);
  const context: PredicateContext = {
    operators: getOperatorLookup(engine),
    shared,
    compiledShared: new Map(),
    facts: new Set(),
    packId: pack.id,
  };
  const rules = new Map<string, CompiledRule>();
  for (const rule of pack.rules) {
    if (rules.has(rule.id)) throw new Error(`pack "${pack.id}": duplicate rule id "${rule.id}"`);
    const priority = rule.priority ?? 1;
    const { messageId, message } = rule.event.params;
    const template = (messageId === undefined ? undefined : pack.messages?.[messageId]) ?? message ?? rule.description;
    rules.set(rule.id, {
      rule,
      priority,
      test: compileCondition(context, rule.conditions),
      renderMessage: compileTemplate(template),
      renderParams: compileParams(rule.event.params),
    });
    // The engine event carries only the type: json-rules-engine deep-clones events on every run,
    // and the params are read from the compiled rule instead.
    engine.addRule({ name: rule.id, priority, conditions: rule.conditions, event: { type: rule.id } });
  }
  return { pack, engine, rules, requiredFacts: [...context.facts].sort() };
}
