import {
  type AstNode,
  getDottedName,
  getExpressions,
  getIdentifierName,
  getNode,
  getNodes,
  getPropertyName,
  getStaticString,
  getString,
  unwrapExpression,
} from './swc-node.js';

/** Assertion calls and statements inside a test (`expect(x).toBe(y)`, `assert.equal`, `t.ok`, chai properties), and whether they are trivial or snapshots. */

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
    // `fail(e)`: jasmine's and jest's global that fails the test (parse-server's specs call it from a catch).
    if (name === 'should' || name === 'fail' || context.helpers.has(name) || isAssertionHelperName(name))
      return { trivial: false, snapshot: false };
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
