import type { TestModifier } from '../../model/facts.js';
import {
  type AstNode,
  getDottedName,
  getExpressions,
  getIdentifierName,
  getKeyName,
  getNode,
  getNodes,
  getPropertyName,
  getStaticString,
  getString,
  isFunctionNode,
  unwrapExpression,
} from './swc-node.js';

export interface TestCallMatch {
  kind: 'suite' | 'test';
  title: string;
  modifiers: TestModifier[];
  callback: AstNode | undefined;
}

const baseNames = new Map<string, { kind: 'suite' | 'test'; modifier?: TestModifier }>([
  ['describe', { kind: 'suite' }],
  ['suite', { kind: 'suite' }],
  ['context', { kind: 'suite' }],
  ['it', { kind: 'test' }],
  ['test', { kind: 'test' }],
  ['specify', { kind: 'test' }],
  ['xit', { kind: 'test', modifier: 'skip' }],
  ['xtest', { kind: 'test', modifier: 'skip' }],
  ['xspecify', { kind: 'test', modifier: 'skip' }],
  ['xdescribe', { kind: 'suite', modifier: 'skip' }],
  ['xcontext', { kind: 'suite', modifier: 'skip' }],
  ['xsuite', { kind: 'suite', modifier: 'skip' }],
  ['fit', { kind: 'test', modifier: 'only' }],
  ['fdescribe', { kind: 'suite', modifier: 'only' }],
]);

const chainModifiers = new Map<string, TestModifier | undefined>([
  ['skip', 'skip'],
  ['only', 'only'],
  ['todo', 'todo'],
  ['fixme', 'skip'],
  ['concurrent', undefined],
  ['sequential', undefined],
  ['serial', undefined],
  ['parallel', undefined],
  ['fails', undefined],
  ['each', undefined],
  ['for', undefined],
  ['skipIf', undefined],
  ['runIf', undefined],
  ['shuffle', undefined],
]);

const curriedModifiers = new Set(['each', 'for', 'skipIf', 'runIf']);

/**
 * Recognises `describe/it/test` calls with their modifier chains (`it.skip`, `test.each(t)(…)`,
 * `xit`, `describe.only`), Playwright's `test.describe`, and node:test subtests `t.test(…)` where
 * `t` is one of `contextNames`.
 */
export function matchTestCall(call: AstNode, contextNames: ReadonlySet<string>): TestCallMatch | undefined {
  const rootName = findRootName(getNode(call, 'callee'));
  if (rootName === undefined || (!baseNames.has(rootName) && !contextNames.has(rootName))) return undefined;
  let callee = unwrapExpression(getNode(call, 'callee'));
  const modifiers = new Set<TestModifier>();
  const properties: string[] = [];
  let root: string | undefined;
  for (let depth = 0; callee !== undefined && depth < 8 && root === undefined; depth++) {
    if (callee.type === 'CallExpression' || callee.type === 'TaggedTemplateExpression') {
      const inner = unwrapExpression(getNode(callee, callee.type === 'CallExpression' ? 'callee' : 'tag'));
      if (inner === undefined || inner.type !== 'MemberExpression') return undefined;
      const property = getPropertyName(inner);
      if (property === undefined || !curriedModifiers.has(property)) return undefined;
      callee = inner;
    } else if (callee.type === 'MemberExpression') {
      const property = getPropertyName(callee);
      if (property === undefined) return undefined;
      properties.unshift(property);
      callee = unwrapExpression(getNode(callee, 'object'));
    } else if (callee.type === 'Identifier') {
      root = getString(callee, 'value');
    } else return undefined;
  }
  if (root === undefined) return undefined;
  let kind: 'suite' | 'test';
  const base = baseNames.get(root);
  if (contextNames.has(root) && properties[0] === 'test') {
    kind = 'test';
    properties.shift();
  } else if (base !== undefined) {
    kind = base.kind;
    if (base.modifier !== undefined) modifiers.add(base.modifier);
  } else return undefined;
  for (const property of properties) {
    if (property === 'describe' && (root === 'test' || root === 'it')) {
      kind = 'suite';
      continue;
    }
    if (!chainModifiers.has(property)) return undefined;
    const modifier = chainModifiers.get(property);
    if (modifier !== undefined) modifiers.add(modifier);
  }
  const args = getExpressions(call, 'arguments');
  const title = getTitle(args[0]);
  if (title === undefined) return undefined;
  let callback: AstNode | undefined;
  for (const arg of args.slice(1)) {
    const value = unwrapExpression(arg);
    if (isFunctionNode(value)) callback = value;
    else if (value?.type === 'ObjectExpression') addOptionModifiers(value, modifiers);
  }
  const isStaticTitle = getStaticString(args[0]) !== undefined;
  if (callback === undefined && !modifiers.has('todo') && !(kind === 'test' && isStaticTitle)) return undefined;
  return { kind, title, modifiers: [...modifiers].sort(), callback };
}

/** Cheap pre-check: the identifier at the root of a callee chain, without allocating. */
function findRootName(node: AstNode | undefined): string | undefined {
  let current = node;
  for (let depth = 0; current !== undefined && depth < 12; depth++) {
    switch (current.type) {
      case 'Identifier':
        return getString(current, 'value');
      case 'MemberExpression':
      case 'ParenthesisExpression':
        current = getNode(current, current.type === 'MemberExpression' ? 'object' : 'expression');
        break;
      case 'CallExpression':
        current = getNode(current, 'callee');
        break;
      case 'TaggedTemplateExpression':
        current = getNode(current, 'tag');
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

function getTitle(node: AstNode | undefined): string | undefined {
  const value = unwrapExpression(node);
  if (value === undefined) return undefined;
  const text = getStaticString(value);
  if (text !== undefined) return text;
  if (value.type === 'TemplateLiteral') {
    const quasis = getNodes(value, 'quasis').map((quasi) => getString(quasi, 'cooked') ?? getString(quasi, 'raw') ?? '');
    return quasis.join('${…}');
  }
  if (value.type === 'Identifier' || value.type === 'MemberExpression') return getDottedName(value);
  return undefined;
}

function addOptionModifiers(options: AstNode, modifiers: Set<TestModifier>): void {
  for (const property of getNodes(options, 'properties')) {
    if (property.type !== 'KeyValueProperty') continue;
    const key = getKeyName(getNode(property, 'key'));
    if (key !== 'skip' && key !== 'todo' && key !== 'only') continue;
    const value = unwrapExpression(getNode(property, 'value'));
    const isSet =
      (value?.type === 'BooleanLiteral' && value.value === true) ||
      (value?.type === 'StringLiteral' && getString(value, 'value') !== '');
    if (isSet) modifiers.add(key);
  }
}

export interface AssertionMatch {
  trivial: boolean;
  snapshot: boolean;
}

export interface AssertionContext {
  /** Local names bound to an assert module or its functions (`assert`, `strictEqual`). */
  assertNames: ReadonlySet<string>;
  /** The innermost test callback's context parameter (`t`), if any. */
  contextName: string | undefined;
  helpers: ReadonlySet<string>;
}

const expectRoots = new Set(['expect', 'expectTypeOf', 'assertType']);
const snapshotMatchers = new Set([
  'toMatchSnapshot',
  'toMatchInlineSnapshot',
  'toMatchFileSnapshot',
  'toThrowErrorMatchingSnapshot',
  'toThrowErrorMatchingInlineSnapshot',
  'matchSnapshot',
  'snapshot',
]);
const contextAssertions = new Set([
  'ok', 'notOk', 'equal', 'notEqual', 'equals', 'not', 'same', 'notSame', 'strictSame', 'strictEqual',
  'notStrictEqual', 'deepEqual', 'notDeepEqual', 'deepStrictEqual', 'match', 'notMatch', 'throws',
  'doesNotThrow', 'rejects', 'resolves', 'resolveMatch', 'type', 'has', 'hasStrict', 'error', 'fail',
  'is', 'isNot', 'truthy', 'falsy', 'true', 'false', 'like', 'unlike', 'regex', 'notRegex',
  'matchSnapshot', 'snapshot', 'assert', 'pass',
]);
const literalMatchers = new Set(['toBe', 'toEqual', 'toStrictEqual', 'equal', 'equals', 'eql', 'eq']);
const literalAssertMethods = new Set(['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual', 'is', 'same', 'strictSame']);
const truthyAssertMethods = new Set(['ok', 'true', 'truthy', 'isTrue', 'isOk']);

/** Classifies one call as an assertion; `expect.assertions(n)` and bare `expect(x)` are not. */
export function matchAssertionCall(call: AstNode, context: AssertionContext): AssertionMatch | undefined {
  const callee = unwrapExpression(getNode(call, 'callee'));
  if (callee === undefined) return undefined;
  const args = getExpressions(call, 'arguments');
  if (callee.type === 'Identifier') {
    const name = getString(callee, 'value') ?? '';
    if (context.assertNames.has(name)) return { trivial: isTruthyLiteral(args[0]), snapshot: false };
    if (name === 'should' || context.helpers.has(name)) return { trivial: false, snapshot: false };
    return undefined;
  }
  if (callee.type !== 'MemberExpression') return undefined;
  const method = getPropertyName(callee) ?? '';
  if (context.helpers.has(method)) return { trivial: false, snapshot: false };
  const expectCall = findExpectCall(callee);
  if (expectCall !== undefined) {
    return { trivial: isTrivialExpect(expectCall, method, args), snapshot: snapshotMatchers.has(method) };
  }
  if (hasShouldLink(callee)) return { trivial: false, snapshot: false };
  const object = unwrapExpression(getNode(callee, 'object'));
  if (object === undefined) return undefined;
  const objectName = getDottedName(object);
  const rootName = objectName?.split('.')[0] ?? '';
  const isAssertObject =
    context.assertNames.has(rootName) ||
    rootName === 'should' ||
    (object.type === 'MemberExpression' && getPropertyName(object) === 'assert');
  if (isAssertObject && method !== 'AssertionError') {
    return { trivial: isTrivialAssert(method, args), snapshot: snapshotMatchers.has(method) };
  }
  if (context.contextName !== undefined && objectName === context.contextName && contextAssertions.has(method)) {
    return { trivial: method === 'pass' || isTrivialAssert(method, args), snapshot: snapshotMatchers.has(method) };
  }
  return undefined;
}

/** Chai property assertions used as statements: `expect(x).to.be.true;`, `x.should.exist;`. */
export function matchPropertyAssertion(member: AstNode): AssertionMatch | undefined {
  const expectCall = findExpectCall(member);
  if (expectCall !== undefined) {
    const property = getPropertyName(member) ?? '';
    const subject = literalOf(getExpressions(expectCall, 'arguments')[0]);
    const trivial = subject !== undefined && ((property === 'true' && subject.value === true) || (property === 'ok' && Boolean(subject.value)));
    return { trivial, snapshot: false };
  }
  return hasShouldLink(member) ? { trivial: false, snapshot: false } : undefined;
}

/** Walks down `expect(x).not.resolves.toBe` to the `expect(x)` call. */
function findExpectCall(member: AstNode): AstNode | undefined {
  let current = unwrapExpression(getNode(member, 'object'));
  for (let depth = 0; current !== undefined && depth < 12; depth++) {
    if (current.type === 'MemberExpression') {
      current = unwrapExpression(getNode(current, 'object'));
      continue;
    }
    if (current.type !== 'CallExpression') return undefined;
    const callee = unwrapExpression(getNode(current, 'callee'));
    if (callee?.type === 'Identifier') return expectRoots.has(getString(callee, 'value') ?? '') ? current : undefined;
    if (callee?.type === 'MemberExpression') {
      const property = getPropertyName(callee);
      const object = unwrapExpression(getNode(callee, 'object'));
      if ((property === 'soft' || property === 'poll') && getIdentifierName(object) === 'expect') return current;
      if (property === 'expect') return current;
    }
    return undefined;
  }
  return undefined;
}

function hasShouldLink(member: AstNode): boolean {
  let current: AstNode | undefined = member;
  for (let depth = 0; current?.type === 'MemberExpression' && depth < 12; depth++) {
    if (getPropertyName(current) === 'should') return true;
    current = unwrapExpression(getNode(current, 'object'));
  }
  return false;
}

interface LiteralValue {
  value: string | number | boolean | null;
}

function literalOf(node: AstNode | undefined): LiteralValue | undefined {
  const value = unwrapExpression(node);
  if (value === undefined) return undefined;
  switch (value.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral': {
      const literal = value.value;
      return typeof literal === 'string' || typeof literal === 'number' || typeof literal === 'boolean' ? { value: literal } : undefined;
    }
    case 'NullLiteral':
      return { value: null };
    case 'UnaryExpression': {
      const argument = literalOf(getNode(value, 'argument'));
      if (getString(value, 'operator') === '-' && typeof argument?.value === 'number') return { value: -argument.value };
      return undefined;
    }
  }
  const text = getStaticString(value);
  return text === undefined ? undefined : { value: text };
}

function isTruthyLiteral(node: AstNode | undefined): boolean {
  const literal = literalOf(node);
  return literal !== undefined && Boolean(literal.value);
}

function isTrivialExpect(expectCall: AstNode, matcher: string, args: AstNode[]): boolean {
  const subject = literalOf(getExpressions(expectCall, 'arguments')[0]);
  if (subject === undefined) return false;
  if (literalMatchers.has(matcher)) {
    const expected = literalOf(args[0]);
    return expected !== undefined && expected.value === subject.value;
  }
  if (matcher === 'toBeTruthy') return Boolean(subject.value);
  if (matcher === 'toBeFalsy') return !subject.value;
  if (matcher === 'toBeDefined') return true;
  if (matcher === 'toBeNull') return subject.value === null;
  return false;
}

function isTrivialAssert(method: string, args: AstNode[]): boolean {
  if (truthyAssertMethods.has(method)) return isTruthyLiteral(args[0]);
  if (literalAssertMethods.has(method)) {
    const actual = literalOf(args[0]);
    const expected = literalOf(args[1]);
    return actual !== undefined && expected !== undefined && actual.value === expected.value;
  }
  return false;
}
