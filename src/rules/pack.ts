import { Engine } from 'json-rules-engine';
import {
  FACT_CATALOGUE,
  type Condition,
  type CustomOperatorName,
  PLACEHOLDER_PATTERN,
  type FactCatalogue,
  type FactType,
  type Rule,
  type RuleEventParams,
  type RulePack,
  type SubjectKind,
  type TopLevelCondition,
} from '../model/rules.js';
import { buildOperatorTable, type OperatorEvaluator, type OperatorTable, operatorDecorators, resolveOperator } from './operators/index.js';
import { countOf, pluralize } from '../text/plural.js';
import { showName } from '../text/safe-name.js';

export type { FactCatalogue, FactType };

export type FactPredicate = (facts: Record<string, unknown>) => boolean;

export interface CompiledRule {
  rule: Rule;
  priority: number;
  /** The rule's conditions as a synchronous predicate with json-rules-engine's semantics and operators. */
  test: FactPredicate;
  renderMessage: Template;
  renderParams: ParamsRenderer;
}

/** A pack ready to run: each rule's conditions compiled to a predicate over one operator table. */
export interface CompiledPack {
  pack: RulePack;
  /** The operators the predicates use; buildEngine registers the same table on a json-rules-engine Engine. */
  operators: OperatorTable;
  rules: ReadonlyMap<string, CompiledRule>;
  /** Every fact a condition names; each subject must supply them all (json-rules-engine's allowUndefinedFacts: false). */
  requiredFacts: readonly string[];
}

interface PredicateContext {
  operators: OperatorTable;
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
  const operator = resolveOperator(condition.operator, context.operators);
  if (operator === null) throw new Error(`pack "${context.packId}": unknown operator "${condition.operator}"`);
  context.facts.add(condition.fact);
  const readFact = buildFactReader(condition.fact, condition.path);
  const { value } = condition;
  if (isFactReference(value)) {
    context.facts.add(value.fact);
    const readValue = buildFactReader(value.fact, value.path);
    return (facts) => operator(readFact(facts), readValue(facts));
  }
  return (facts) => operator(readFact(facts), value);
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
function compileTemplate(template: string): Template {
  if (!template.includes('{{')) return () => template;
  const texts: string[] = [];
  const names: string[] = [];
  const nouns: (string | undefined)[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER_PATTERN)) {
    texts.push(template.slice(last, match.index));
    names.push(match[1] ?? '');
    nouns.push(match[2]);
    last = match.index + match[0].length;
  }
  const tail = template.slice(last);
  return (facts, subjectId) => {
    let out = '';
    for (let index = 0; index < names.length; index += 1) {
      const name = names[index] ?? '';
      const value = name === 'subjectId' ? subjectId : Object.hasOwn(facts, name) ? facts[name] : undefined;
      const noun = nouns[index];
      out +=
        (texts[index] ?? '') +
        (noun !== undefined && typeof value === 'number' ? countOf(value, noun, pluralize(noun)) : formatFactValue(value));
    }
    return out + tail;
  };
}

export type ParamsRenderer = (facts: Record<string, unknown>, subjectId: string) => RuleEventParams;

/** Renders placeholders in every string param; params without any are shared, not copied. */
/**
 * The renderer of a rule's event params. `evidence` stays with the pack (it says what a rule needs, for `rules list`
 * and pack authors): a finding carries what was found, not the statement of what it takes.
 */
function compileParams(declared: RuleEventParams): ParamsRenderer {
  const { evidence: _evidence, ...params } = declared;
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

/**
 * Compiles a validated pack (src/rules/validate-pack.ts validates) to synchronous predicates with
 * json-rules-engine's semantics: all/any/not, shared conditions, fact paths and fact references, over
 * one operator table (test/rules/engine-parity.test.ts proves them equal to buildEngine's Engine).
 */
export function compilePack(pack: RulePack, options: CompilePackOptions = {}): CompiledPack {
  const operators = buildOperatorTable(options.operators);
  const context: PredicateContext = {
    operators,
    shared: pack.sharedConditions ?? {},
    compiledShared: new Map(),
    facts: new Set(),
    packId: pack.id,
  };
  const rules = new Map<string, CompiledRule>();
  for (const rule of pack.rules) {
    if (rules.has(rule.id)) throw new Error(`pack "${pack.id}": duplicate rule id "${rule.id}"`);
    const { messageId, message } = rule.event.params;
    const template = (messageId === undefined ? undefined : pack.messages?.[messageId]) ?? message ?? rule.description;
    rules.set(rule.id, {
      rule,
      priority: rule.priority ?? 1,
      test: compileCondition(context, rule.conditions),
      renderMessage: compileTemplate(template),
      renderParams: compileParams(rule.event.params),
    });
  }
  return { pack, operators, rules, requiredFacts: [...context.facts].sort() };
}

/**
 * The same pack as a json-rules-engine Engine, through its public API only: every operator and
 * decorator of the compiled pack's table is registered with addOperator/addOperatorDecorator, so
 * json-rules-engine's own built-ins are replaced by ours. The reference the predicates are proven against.
 */
export function buildEngine(compiled: CompiledPack): Engine {
  const engine = new Engine([], {
    allowUndefinedFacts: false,
    allowUndefinedConditions: false,
    pathResolver: resolveFactPath,
  });
  for (const [name, evaluate] of Object.entries(compiled.operators)) engine.addOperator(name, evaluate);
  for (const [name, decorate] of Object.entries(operatorDecorators)) engine.addOperatorDecorator(name, decorate);
  for (const [name, condition] of Object.entries(compiled.pack.sharedConditions ?? {})) engine.setCondition(name, condition);
  for (const { rule, priority } of compiled.rules.values()) {
    // The event carries only the type: json-rules-engine deep-clones events on every run, and the
    // params are read from the compiled rule instead.
    engine.addRule({ name: rule.id, priority, conditions: rule.conditions, event: { type: rule.id } });
  }
  return engine;
}
