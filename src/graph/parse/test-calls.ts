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
  getSpan,
  getStaticString,
  getString,
  isAstNode,
  isFunctionNode,
  isRecord,
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
      (value?.type === 'BooleanLiteral' && value.value === true) || (value?.type === 'StringLiteral' && getString(value, 'value') !== '');
    if (isSet) modifiers.add(key);
  }
}

export interface AssertionMatch {
  trivial: boolean;
  snapshot: boolean;
  /**
   * The `ctx.expect(x)` / `chai.expect(x)` call this matcher asserts on: a subject, not an assertion
   * of its own, so callers skip it when they reach it (a lone `test.expect(413, done)` is supertest's).
   */
  subject?: AstNode;
}

export interface AssertionContext {
  /** Local names bound to an assert module or its functions (`assert`, `strictEqual`). */
  assertNames: ReadonlySet<string>;
  /** The innermost test callback's context parameter (`t`), if any. */
  contextName: string | undefined;
  helpers: ReadonlySet<string>;
}

const expectRoots = new Set(['expect', 'expectTypeOf', 'expectAsync', 'assertType']);
/** `expect(x)` on its own only names the subject; the matcher after it is the assertion. */
const subjectCallees = new Set(['expect', 'expectTypeOf', 'expectAsync']);
/** `assertEqual`, `expectValid`, `assert_ok`, `assert`: not `expected`, `assertions` (`expect.assertions(n)`). */
const helperNamePattern = /^(?:assert|expect)(?:[A-Z0-9_$]|$)/;
const inlineSnapshotMatchers = new Set(['toMatchInlineSnapshot', 'toThrowErrorMatchingInlineSnapshot']);
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
  'ok',
  'notOk',
  'equal',
  'notEqual',
  'equals',
  'not',
  'same',
  'notSame',
  'strictSame',
  'strictEqual',
  'notStrictEqual',
  'deepEqual',
  'notDeepEqual',
  'deepStrictEqual',
  'match',
  'notMatch',
  'throws',
  'doesNotThrow',
  'rejects',
  'resolves',
  'resolveMatch',
  'type',
  'has',
  'hasStrict',
  'error',
  'fail',
  'is',
  'isNot',
  'truthy',
  'falsy',
  'true',
  'false',
  'like',
  'unlike',
  'regex',
  'notRegex',
  'matchSnapshot',
  'snapshot',
  'assert',
  'pass',
  'throwsAsync',
  'notThrows',
  'notThrowsAsync',
  'doesNotReject',
  'strictNotSame',
  'matchOnly',
  'matchStrict',
  'hasProp',
  'hasProps',
  'hasOwnProp',
  'emits',
  'expectUncaughtException',
]);
const literalMatchers = new Set(['toBe', 'toEqual', 'toStrictEqual', 'equal', 'equals', 'eql', 'eq']);
const literalAssertMethods = new Set(['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual', 'is', 'same', 'strictSame']);
const truthyAssertMethods = new Set(['ok', 'true', 'truthy', 'isTrue', 'isOk']);

/**
 * Classifies one call as an assertion; `expect.assertions(n)` and bare `expect(x)` are not.
 * Besides expect/assert/context forms, any call whose callee's last segment is named like an
 * assertion helper (`assertEqual`, `util.assertEqual<A, B>(true)`, `assertType<T>(x)`,
 * `h.expectValid()`) counts, as does supertest's chained `request(app).get('/').expect(200)`.
 */
export function matchAssertionCall(call: AstNode, context: AssertionContext): AssertionMatch | undefined {
  const callee = unwrapExpression(getNode(call, 'callee'));
  if (callee === undefined) return undefined;
  const args = getExpressions(call, 'arguments');
  if (callee.type === 'Identifier') {
    const name = getString(callee, 'value') ?? '';
    if (context.assertNames.has(name)) return { trivial: isTruthyLiteral(args[0]), snapshot: false };
    if (name === 'should' || context.helpers.has(name) || isAssertionHelperName(name)) return { trivial: false, snapshot: false };
    return undefined;
  }
  if (callee.type !== 'MemberExpression') return undefined;
  const method = getPropertyName(callee) ?? '';
  if (context.helpers.has(method)) return { trivial: false, snapshot: false };
  const expectCall = findExpectCall(callee);
  if (expectCall !== undefined) {
    const match: AssertionMatch = { trivial: isTrivialExpect(expectCall, method, args), snapshot: isSnapshotAssertion(method, args) };
    // `request(app).get('/').expect(200).expect('Content-Type', /json/)`: both expectations count.
    if (method !== 'expect') match.subject = expectCall;
    return match;
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
    return { trivial: isTrivialAssert(method, args), snapshot: isSnapshotAssertion(method, args) };
  }
  if (context.contextName !== undefined && objectName === context.contextName && contextAssertions.has(method)) {
    return { trivial: method === 'pass' || isTrivialAssert(method, args), snapshot: isSnapshotAssertion(method, args) };
  }
  // supertest's `request(app).get('/').expect(200)` and `test.expect(413, done)`; `ctx.expect(x)`
  // before a matcher was already claimed as that matcher's subject.
  if (isAssertionHelperName(method) || method === 'expect') return { trivial: false, snapshot: false };
  return undefined;
}

/** `assertEqual`, `assertType`, `expectValid`: a callee named like an assertion helper, not the bare subject `expect`. */
export function isAssertionHelperName(name: string): boolean {
  return helperNamePattern.test(name) && !subjectCallees.has(name);
}

/**
 * `toMatchSnapshot()`, `toMatchFileSnapshot(…)`, `t.snapshot(x)` and an empty `toMatchInlineSnapshot()`
 * are snapshots. An inline snapshot with content spells out the expected value: an explicit assertion.
 */
function isSnapshotAssertion(method: string, args: AstNode[]): boolean {
  if (!snapshotMatchers.has(method)) return false;
  if (!inlineSnapshotMatchers.has(method)) return true;
  return !hasInlineContent(args[args.length - 1]);
}

function hasInlineContent(node: AstNode | undefined): boolean {
  const value = unwrapExpression(node);
  if (value === undefined) return false;
  if (value.type === 'StringLiteral') return (getString(value, 'value') ?? '').trim() !== '';
  if (value.type !== 'TemplateLiteral') return false;
  if (getExpressions(value, 'expressions').length > 0) return true;
  return getNodes(value, 'quasis').some((quasi) => (getString(quasi, 'cooked') ?? getString(quasi, 'raw') ?? '').trim() !== '');
}

/** Chai language chains and jest modifiers: `expect(p).resolves;` and `expect(x).to.be;` assert nothing. */
const chainWords = new Set([
  'to',
  'be',
  'been',
  'is',
  'that',
  'which',
  'and',
  'has',
  'have',
  'with',
  'at',
  'of',
  'same',
  'but',
  'does',
  'still',
  'also',
  'not',
  'deep',
  'nested',
  'own',
  'ordered',
  'any',
  'all',
  'eventually',
  'resolves',
  'rejects',
]);

/** Chai property assertions used as statements: `expect(x).to.be.true;`, `x.should.exist;`. */
export function matchPropertyAssertion(member: AstNode): AssertionMatch | undefined {
  const expectCall = findExpectCall(member);
  if (expectCall !== undefined) {
    const property = getPropertyName(member) ?? '';
    if (chainWords.has(property)) return undefined;
    const subject = literalOf(getExpressions(expectCall, 'arguments')[0]);
    const trivial =
      subject !== undefined && ((property === 'true' && subject.value === true) || (property === 'ok' && Boolean(subject.value)));
    return { trivial, snapshot: false, subject: expectCall };
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

/** What a call to a function declared in the test file proves, judged from its body. */
export interface LocalHelper {
  /** swc span of the declaration, to tell helpers declared inside the calling test (counted in place) from shared ones. */
  start: number;
  end: number;
  /** Every assertion the helper makes (directly or through other local helpers) is trivial / a snapshot. */
  trivial: boolean;
  snapshot: boolean;
}

interface HelperBody {
  assertions: number;
  trivial: number;
  snapshot: number;
  calls: string[];
}

const typeKeys = new Set([
  'span',
  'ctxt',
  'typeAnnotation',
  'returnType',
  'typeParameters',
  'typeArguments',
  'typeParams',
  'superTypeParams',
  'implements',
]);
const noContextNames: ReadonlySet<string> = new Set();
const maxHelperDepth = 32;

/** Local assertion helpers by name, each judged on first use. */
export interface LocalHelpers {
  get(name: string): LocalHelper | undefined;
}

interface HelperDefinition {
  fn: AstNode;
  span: { start: number; end: number };
}

/**
 * Functions declared anywhere in the file (`function check(x) {…}`, `const check = (x) => …`) whose
 * body asserts, directly or by calling another such function. Test callbacks inside a body
 * (`function itParses() { it(…) }`) are not the helper's own assertions. One pass finds the
 * declarations; a body is scanned only when a test calls its name.
 */
export function collectAssertingHelpers(module: AstNode, context: Omit<AssertionContext, 'contextName'>): LocalHelpers {
  const definitions = new Map<string, HelperDefinition[]>();
  const define = (name: string | undefined, fn: AstNode | undefined, spanNode: AstNode): void => {
    const span = getSpan(spanNode);
    if (name === undefined || fn === undefined || span === undefined) return;
    const list = definitions.get(name);
    if (list === undefined) definitions.set(name, [{ fn, span }]);
    else list.push({ fn, span });
  };
  forEachNode(module, (node) => {
    if (node.type === 'FunctionDeclaration') define(getIdentifierName(getNode(node, 'identifier')), node, node);
    else if (node.type === 'VariableDeclarator') {
      const init = unwrapExpression(getNode(node, 'init'));
      if (isFunctionNode(init)) define(getIdentifierName(getNode(node, 'id')), init, node);
    }
    return true;
  });

  const resolved = new Map<string, LocalHelper | null>();
  const resolve = (name: string, depth: number): LocalHelper | undefined => {
    const known = resolved.get(name);
    if (known !== undefined) return known ?? undefined;
    const list = definitions.get(name);
    if (list === undefined || depth > maxHelperDepth) return undefined;
    resolved.set(name, null); // cycle guard: a recursive helper proves nothing through itself
    let best: LocalHelper | undefined;
    for (const { fn, span } of list) {
      const contextName = getCallbackParamName(fn) === 't' ? 't' : undefined;
      const body = scanHelperBody(fn, { ...context, contextName });
      let { assertions, trivial, snapshot } = body;
      for (const callee of body.calls) {
        const inner = resolve(callee, depth + 1);
        if (inner === undefined) continue;
        assertions++;
        if (inner.trivial) trivial++;
        if (inner.snapshot) snapshot++;
      }
      if (assertions === 0) continue;
      const helper = { start: span.start, end: span.end, trivial: trivial === assertions, snapshot: snapshot === assertions };
      if (best === undefined || (best.trivial && !helper.trivial) || (best.snapshot && !helper.snapshot)) best = helper;
    }
    resolved.set(name, best ?? null);
    return best;
  };
  return { get: (name) => (definitions.has(name) ? resolve(name, 0) : undefined) };
}

function scanHelperBody(fn: AstNode, context: AssertionContext): HelperBody {
  const body: HelperBody = { assertions: 0, trivial: 0, snapshot: 0, calls: [] };
  const subjects = new Set<AstNode>();
  const count = (match: AssertionMatch): void => {
    body.assertions++;
    if (match.trivial) body.trivial++;
    if (match.snapshot) body.snapshot++;
    if (match.subject !== undefined) subjects.add(match.subject);
  };
  const root = getNode(fn, 'body');
  if (root === undefined) return body;
  if (root.type !== 'BlockStatement') {
    const member = unwrapExpression(root);
    const match = member?.type === 'MemberExpression' ? matchPropertyAssertion(member) : undefined;
    if (match !== undefined) count(match);
  }
  forEachNode(root, (node) => {
    if (node.type === 'CallExpression') {
      if (matchTestCall(node, noContextNames) !== undefined) return false;
      const match = subjects.has(node) ? undefined : matchAssertionCall(node, context);
      if (match !== undefined) count(match);
      else {
        const name = getIdentifierName(unwrapExpression(getNode(node, 'callee')));
        if (name !== undefined) body.calls.push(name);
      }
    } else if (node.type === 'ExpressionStatement') {
      let expression = unwrapExpression(getNode(node, 'expression'));
      if (expression?.type === 'AwaitExpression') expression = unwrapExpression(getNode(expression, 'argument'));
      const match = expression?.type === 'MemberExpression' ? matchPropertyAssertion(expression) : undefined;
      if (match !== undefined) count(match);
    }
    return true;
  });
  return body;
}

function getCallbackParamName(fn: AstNode): string | undefined {
  const first = getNodes(fn, 'params')[0];
  if (first === undefined) return undefined;
  return getIdentifierName(first.type === 'Parameter' ? getNode(first, 'pat') : first);
}

/** Depth-first over every AST node under `root` (itself included), skipping type annotations; `visit` returns false to skip a subtree. */
function forEachNode(root: AstNode, visit: (node: AstNode) => boolean): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    if (!isRecord(value) || (isAstNode(value) && !visit(value))) continue;
    for (const key in value) {
      const child = value[key];
      if (typeof child === 'object' && child !== null && !typeKeys.has(key)) stack.push(child);
    }
  }
}

const expectErrorDirective = /^\s*\{?\s*(?:\/\/+|\/\*+)\s*@ts-expect-error(?![\w-])/;

/**
 * 0-based lines holding a `// @ts-expect-error` (or `/* @ts-expect-error *\/`) directive. The
 * directive fails type-checking when the next line has no type error, so in a test it is an
 * assertion about types. `@ts-ignore` never fails and is not one.
 */
export function findExpectErrorLines(source: string): number[] {
  const lines: number[] = [];
  if (!source.includes('@ts-expect-error')) return lines;
  let line = 0;
  let lineStart = 0;
  for (let hit = source.indexOf('@ts-expect-error'); hit !== -1; hit = source.indexOf('@ts-expect-error', hit + 1)) {
    for (let newline = source.indexOf('\n', lineStart); newline !== -1 && newline < hit; newline = source.indexOf('\n', lineStart)) {
      lineStart = newline + 1;
      line++;
    }
    if (lines[lines.length - 1] === line) continue;
    const newline = source.indexOf('\n', hit);
    if (expectErrorDirective.test(source.slice(lineStart, newline === -1 ? source.length : newline))) lines.push(line);
  }
  return lines;
}
