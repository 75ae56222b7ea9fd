import { createTestCase, type MockFact, type TestCaseFact } from '../../model/facts.js';
import type { ModuleLinks } from './module-links.js';
import type { SourcePositions } from './source-positions.js';
import {
  type AstNode,
  getExpressions,
  getIdentifierName,
  getNode,
  getNodes,
  getSpan,
  getStaticString,
  getString,
  unwrapExpression,
} from './swc-node.js';
import { type AssertionMatch, matchAssertionCall, matchPropertyAssertion } from './assertion-calls.js';
import { collectAssertingHelpers, forEachNode, type LocalHelpers } from './assertion-helpers.js';
import { findShadowedTestNames, type ShadowedName } from './shadowed-test-names.js';
import { findExpectErrorLines, findTestRootName, matchTestCall, TEST_FUNCTION_NAMES, type TestCallMatch } from './test-calls.js';
import { getObjectProperty } from './route-calls.js';
import { getCallbackParams } from './walker-patterns.js';

const doneNames = new Set(['done', 'cb', 'callback', 'next', 'finish', 'end']);
const propagatingCalls = new Set(['done', 'reject', 'fail']);
const COMPARISONS = new Set(['===', '!==', '==', '!=', '<', '<=', '>', '>=']);
/** Functions that only defer a callback: handing them one that ends the test decides nothing. */
const SCHEDULERS = new Set(['setTimeout', 'setImmediate', 'setInterval', 'queueMicrotask']);
/** Array methods whose function argument runs once per item: `cases.forEach(check)` calls the helper. */
const iterationMethods = new Set(['forEach', 'map', 'flatMap', 'every', 'some', 'filter', 'find', 'reduce']);

interface TestFrame {
  fact: TestCaseFact;
  contextName: string | undefined;
  isDoneStyle: boolean;
  /** The test's completion callback (`done`), when it takes one by a name runners use. */
  doneName: string | undefined;
  unawaitedBase: number;
  conditionalBase: number;
  /** swc span of the callback: local helpers declared inside it are counted in place, not per call. */
  callbackStart: number;
  callbackEnd: number;
  /**
   * Assertions made in unawaited callbacks that set a variable of the test (`errorCaught = true`): counted as unawaited
   * when the test ends, unless the test asserts one of those variables after them, which proves the callback ran.
   */
  pending: { flags: ReadonlySet<string>; count: number }[];
  /** Plain functions the test calls that the file does not import (TestCaseFact.freeCalls). */
  freeCalls: Set<string>;
  /** Imported functions the test calls (TestCaseFact.importedCalls). */
  importedCalls: Set<string>;
  /** The test declares how many assertions it makes (`declaresPlan`): its runner fails it when fewer run. */
  planned: boolean;
  /**
   * Trivially true assertions made inside callbacks (`t.pass('booted')` in the callback `boot(…)` is given): under a plan
   * each proves its callback ran, as many times as planned.
   */
  trivialInCallbacks: number;
  /** How many functions held the test's call: its callback is one more, a callback inside it two. */
  functionBase: number;
}

/**
 * A call that declares how many assertions the test makes, in the test's own flow: `t.plan(3)` (node:test, tap, ava),
 * `tspl(t, { plan: 3 })`, jest's `expect.assertions(3)` and `expect.hasAssertions()`. The runner then fails the test
 * when the assertions in its callbacks do not run, so they are checked although nothing awaits them.
 */
function declaresPlan(frame: TestFrame, calleeName: string | undefined, method: string | undefined, args: AstNode[]): boolean {
  if (calleeName === 'expect.assertions' || calleeName === 'expect.hasAssertions') return true;
  if (method === 'plan' && calleeName === `${frame.contextName}.plan`) return true;
  // The test's context handed on with a plan (`tspl(t, { plan: 3 })`); a `{ plan: 'pro' }` of the code under test is data.
  const [context, options] = args.map((arg) => unwrapExpression(arg));
  return (
    frame.contextName !== undefined &&
    getIdentifierName(context) === frame.contextName &&
    options?.type === 'ObjectExpression' &&
    getObjectProperty(options, 'plan') !== undefined
  );
}

/** A test's free calls kept, at most. */
const MAX_FREE_CALLS = 16;

/** Names a callback assigns (`x = …`, `x += …`, `x++`): its flags. */
function findAssignedNames(body: AstNode): Set<string> {
  const names = new Set<string>();
  forEachNode(body, (node) => {
    const target =
      node.type === 'AssignmentExpression'
        ? getNode(node, 'left')
        : node.type === 'UpdateExpression'
          ? getNode(node, 'argument')
          : undefined;
    const name = getIdentifierName(unwrapExpression(target));
    if (name !== undefined) names.add(name);
    return true;
  });
  return names;
}

/** The identifiers an expression names (`errorCaught`, `calls.length` gives `calls`). */
function findNames(expression: AstNode): Set<string> {
  const names = new Set<string>();
  forEachNode(expression, (node) => {
    const name = node.type === 'Identifier' ? getIdentifierName(node) : undefined;
    if (name !== undefined) names.add(name);
    return true;
  });
  return names;
}

/** The title of the case node-tap's assertions outside every test make: tap reports them under the file itself. */
const TOP_LEVEL_TITLE = '(top level)';

/** Test cases, their assertions and the module mocks of one file, counted while the walker passes through them. */
export class TestCollector {
  readonly tests: TestCaseFact[] = [];
  readonly mocks: MockFact[] = [];
  /** How many callbacks that run unawaited (timers, listeners, un-awaited `.then`) the walker is inside. */
  unawaitedDepth = 0;
  /** The variables each unawaited callback the walker is inside assigns (`visitUnawaited`). */
  private readonly unawaitedFlags: ReadonlySet<string>[] = [];
  /** Branches (`if`, `?:`, loops) the walk is inside: a `t.skip()` under one skips only sometimes. */
  conditionalDepth = 0;
  /** How many functions hold the node being visited (the walker enters and leaves each). */
  private functionDepth = 0;
  /** The test of each branch the walk is in, innermost last: an `if`'s or a `?:`'s, undefined for a loop. */
  private readonly branchTests: (AstNode | undefined)[] = [];
  private assertOrThrowCount = 0;
  private readonly frames: TestFrame[] = [];
  private readonly contextNames = new Set<string>();
  /** The case node-tap's top-level assertions make the file (countTopLevelAssertion). */
  private topLevelTest: TestCaseFact | undefined;
  private readonly helpers: ReadonlySet<string>;
  private moduleNode: AstNode | undefined;
  private localHelpers: LocalHelpers | undefined;
  private topLevelNames: Set<string> | undefined;
  private shadowedNames: ShadowedName[] | undefined;
  private expectErrorOffsets: number[] | undefined;
  private readonly claimedExpectErrors = new Set<number>();
  /** `ctx.expect(x)` calls already counted through the matcher chained on them. */
  private readonly expectSubjects = new WeakSet<AstNode>();

  constructor(
    private readonly positions: SourcePositions,
    private readonly links: ModuleLinks,
    assertionHelpers: readonly string[],
    private readonly source: string | undefined,
  ) {
    this.helpers = new Set(assertionHelpers);
  }

  setModule(module: AstNode): void {
    this.moduleNode = module;
  }

  enterFunction(): void {
    this.functionDepth++;
  }

  leaveFunction(): void {
    this.functionDepth--;
  }

  /** Inside a test or a suite callback. */
  isInsideTest(): boolean {
    return this.frames.length > 0;
  }

  /** A test or suite declaration: the runner's function (not one of the file's own named `test`) given a title. */
  matchTest(node: AstNode): TestCallMatch | undefined {
    const root = findTestRootName(node);
    const runner = root === undefined ? undefined : this.getTapBinding(root);
    // node-tap's root test (`const t = require('tap')`, then `t.test('x', …)`) is a context its file opens at the top.
    const opened = runner === 'tap' && root !== undefined && !this.contextNames.has(root);
    if (opened) this.contextNames.add(root);
    const match = matchTestCall(node, this.contextNames, runner === 'tape' && root !== undefined ? new Set([root]) : undefined);
    if (opened) this.contextNames.delete(root);
    return match === undefined || this.isOwnFunctionCall(node) ? undefined : match;
  }

  /**
   * An assertion on node-tap's root test outside every test (`const t = require('tap')`, then `t.equal(…)` at the top
   * of the file, as minimatch's older tests are written): the file is that test, one case named TOP_LEVEL_TITLE.
   */
  private countTopLevelAssertion(node: AstNode, calleeName: string, method: string): void {
    const root = calleeName.slice(0, calleeName.length - method.length - 1);
    if (root.includes('.') || this.getTapBinding(root) !== 'tap') return;
    const match = matchAssertionCall(node, { assertNames: this.links.assertNames, contextName: root, helpers: this.helpers });
    if (match === undefined) return;
    const span = this.positions.spanOf(node);
    if (this.topLevelTest === undefined) {
      this.topLevelTest = createTestCase('test', [TOP_LEVEL_TITLE], span);
      this.tests.push(this.topLevelTest);
    } else this.topLevelTest.span = { start: this.topLevelTest.span.start, end: span.end };
    this.topLevelTest.assertions++;
    if (match.trivial) this.topLevelTest.trivialAssertions++;
    if (match.snapshot) this.topLevelTest.snapshotAssertions++;
  }

  /** `tap` for a binding of node-tap's module object, `tape` for one of tape's test function: the runner it stands for. */
  private getTapBinding(name: string): 'tap' | 'tape' | undefined {
    const binding = this.links.importBindings.get(name);
    if (binding === undefined || (binding.imported !== 'default' && binding.imported !== '*')) return undefined;
    return binding.specifier === 'tap' ? 'tap' : binding.specifier === 'tape' ? 'tape' : undefined;
  }

  /** `function test(n) {…}` … `test('abc')`: a call of the file's own function that shares a runner's name. */
  private isOwnFunctionCall(node: AstNode): boolean {
    const root = findTestRootName(node);
    const span = getSpan(node);
    if (root === undefined || span === undefined || !TEST_FUNCTION_NAMES.has(root) || this.moduleNode === undefined) return false;
    this.shadowedNames ??= findShadowedTestNames(this.moduleNode, TEST_FUNCTION_NAMES);
    return this.shadowedNames.some(
      (shadowed) => shadowed.name === root && shadowed.span.start <= span.start && span.end <= shadowed.span.end,
    );
  }

  /** Records a test or suite and visits its arguments (`visitArguments`) inside its frame. */
  visitTest(node: AstNode, match: TestCallMatch, visitArguments: () => void): void {
    const { kind, callback } = match;
    const parent = this.frames[this.frames.length - 1];
    const params = callback === undefined ? [] : getCallbackParams(callback);
    const contextName = params[0]?.name;
    const doneName = kind === 'test' ? params.find((param) => param.name !== undefined && doneNames.has(param.name))?.name : undefined;
    const isDoneStyle = kind === 'test' && (doneName !== undefined || (params.length >= 2 && this.isNodeTestFile()));
    const fact = createTestCase(kind, [...(parent?.fact.titlePath ?? []), match.title], this.positions.spanOf(node), match.modifiers);
    fact.isAsync = kind === 'test' && (callback?.async === true || isDoneStyle);
    this.tests.push(fact);
    const callbackSpan = callback === undefined ? undefined : getSpan(callback);
    const frame: TestFrame = {
      fact,
      contextName: kind === 'test' ? contextName : undefined,
      isDoneStyle,
      doneName,
      unawaitedBase: this.unawaitedDepth,
      conditionalBase: this.conditionalDepth,
      callbackStart: callbackSpan?.start ?? 0,
      callbackEnd: callbackSpan?.end ?? 0,
      pending: [],
      freeCalls: new Set(),
      importedCalls: new Set(),
      planned: false,
      trivialInCallbacks: 0,
      functionBase: this.functionDepth,
    };
    this.frames.push(frame);
    const addedContext = frame.contextName !== undefined && !this.contextNames.has(frame.contextName);
    if (addedContext && frame.contextName !== undefined) this.contextNames.add(frame.contextName);
    // `it('x', () => expect(p).to.be.fulfilled)`: a property assertion as the arrow's whole body.
    const body = kind === 'test' && callback !== undefined ? unwrapExpression(getNode(callback, 'body')) : undefined;
    if (body?.type === 'MemberExpression') this.countPropertyAssertion(body);
    const firstChild = this.tests.length;
    visitArguments();
    if (kind === 'test') this.countExpectErrors(frame);
    // A planned test fails when its callbacks' assertions do not all run, so none of them goes unchecked.
    if (frame.planned) {
      fact.unawaitedAssertions = 0;
      fact.trivialAssertions -= frame.trivialInCallbacks;
    } else for (const { count } of frame.pending) fact.unawaitedAssertions += count;
    if (fact.kind === 'test' && fact.assertions === 0 && frame.freeCalls.size > 0) {
      const declared = this.getLocalHelpers();
      const free = [...frame.freeCalls].filter((name) => declared.get(name) === undefined && !this.isDeclared(name)).sort();
      if (free.length > 0) fact.freeCalls = free.slice(0, MAX_FREE_CALLS);
    }
    if (fact.kind === 'test' && fact.assertions === 0 && frame.importedCalls.size > 0)
      fact.importedCalls = [...frame.importedCalls].sort().slice(0, MAX_FREE_CALLS);
    // `test('x', async (t) => { await t.test('a', …); await t.test('b', …) })`: a test that only runs subtests
    // (node:test, tap) groups them as a suite does; its subtests assert, it does not.
    if (kind === 'test' && fact.assertions === 0 && this.tests.length > firstChild) {
      fact.kind = 'suite';
      fact.isAsync = false;
    }
    if (addedContext && frame.contextName !== undefined) this.contextNames.delete(frame.contextName);
    this.frames.pop();
  }

  /** A call inside or outside a test: a module mock, `t.skip()`, `done()`, an assertion or an asserting helper. */
  recordCall(
    node: AstNode,
    callee: AstNode,
    calleeName: string | undefined,
    method: string | undefined,
    args: AstNode[],
    /** Whether a name is a parameter of a function around the call (it shadows a helper of that name). */
    isParameter: (name: string) => boolean = () => false,
  ): void {
    const frame = this.currentFrame();
    if (frame === undefined && method !== undefined && calleeName !== undefined) this.countTopLevelAssertion(node, calleeName, method);
    if (calleeName !== undefined) {
      this.recordMock(calleeName, args, node);
      if (frame !== undefined && method !== undefined && (method === 'skip' || method === 'todo')) {
        const object = calleeName.slice(0, calleeName.length - method.length - 1);
        // `if (!hasIPv6) t.skip()` skips where the platform lacks something: the test runs elsewhere.
        const always = this.conditionalDepth === frame.conditionalBase;
        if (always && (object === 'this' || object === frame.contextName)) addModifier(frame.fact, method);
      }
      if (propagatingCalls.has(calleeName)) this.assertOrThrowCount++;
      if (frame !== undefined && callee.type === 'Identifier' && (calleeName === 'reject' || calleeName === frame.doneName)) {
        if (args.length === 0 && calleeName === frame.doneName) this.countConditionalEnd();
        else this.countHandCheck(args[0]);
      }
    }
    if (frame !== undefined && this.unawaitedDepth === frame.unawaitedBase && declaresPlan(frame, calleeName, method, args))
      frame.planned = true;
    if (frame !== undefined && callee.type === 'Identifier' && calleeName !== undefined && !calleeName.includes('.')) {
      if (this.links.importBindings.has(calleeName)) frame.importedCalls.add(calleeName);
      else if (!TEST_FUNCTION_NAMES.has(calleeName) && !propagatingCalls.has(calleeName)) frame.freeCalls.add(calleeName);
    }
    if (frame !== undefined && !this.expectSubjects.has(node)) {
      const match = matchAssertionCall(node, {
        assertNames: this.links.assertNames,
        contextName: frame.contextName,
        helpers: this.helpers,
      });
      if (match !== undefined) {
        this.countMatch(frame, match);
        if (this.unawaitedDepth === frame.unawaitedBase) this.settleFlags(frame, node);
      } else if (this.passesDone(frame, callee, calleeName, args) || waitsForEvent(frame, method, args))
        this.countAssertion(frame, false, false);
      else this.countHelperCall(frame, callee, method, args, isParameter);
    }
  }

  /**
   * A test's completion callback handed to a plain function decides the outcome there: `times(2, done)` passes only
   * when it is called twice, `shouldNotHappen(done)` fails the test if it is called. Handed to a method
   * (`request(app).end(done)`, `server.close(done)`), it only ends the test.
   */
  private passesDone(frame: TestFrame, callee: AstNode, calleeName: string | undefined, args: AstNode[]): boolean {
    if (frame.doneName === undefined || callee.type !== 'Identifier') return false;
    if (calleeName !== undefined && TEST_FUNCTION_NAMES.has(calleeName)) return false;
    const doneName = frame.doneName;
    return args.some((arg) => {
      const value = unwrapExpression(arg);
      if (value === undefined) return false;
      if (getIdentifierName(value) === doneName) return true;
      // `times(3, () => { …; done(); })`: a callback that ends the test, called as the function decides (a timer
      // only defers it).
      if (calleeName !== undefined && SCHEDULERS.has(calleeName)) return false;
      if (value.type !== 'ArrowFunctionExpression' && value.type !== 'FunctionExpression') return false;
      let ends = false;
      forEachNode(value, (node) => {
        if (node.type === 'CallExpression' && getIdentifierName(unwrapExpression(getNode(node, 'callee') ?? node)) === doneName)
          ends = true;
        return !ends;
      });
      return ends;
    });
  }

  /** Chai-style `expect(x).to.be.true;` in the current test. */
  countPropertyAssertion(member: AstNode): void {
    const frame = this.currentFrame();
    const match = frame === undefined ? undefined : matchPropertyAssertion(member);
    if (frame !== undefined && match !== undefined) this.countMatch(frame, match);
  }

  /** `z.string() satisfies z.ZodString;`: a statement that is only a type check asserts a type. */
  countTypeCheck(): void {
    const frame = this.currentFrame();
    if (frame !== undefined) this.countAssertion(frame, false, false);
  }

  enterBranch(test: AstNode | undefined): void {
    this.conditionalDepth++;
    this.branchTests.push(test);
  }

  leaveBranch(): void {
    this.conditionalDepth--;
    this.branchTests.pop();
  }

  countThrow(): void {
    this.assertOrThrowCount++;
  }

  /**
   * A test that fails itself on a condition checks by hand: `if (res.status !== 200) throw new Error(…)`, `else
   * reject(new Error(…))`, `done(new Error(…))`. Only an error made there counts: `if (err) throw err` or `done(err)`
   * passes on a failure of the code under test, as the runner would report it anyway.
   */
  countHandCheck(argument: AstNode | undefined): void {
    const frame = this.currentFrame();
    if (frame === undefined || !isMadeError(argument)) return;
    // Under an `if` or a `?:` of the test itself; a loop alone decides nothing about the result.
    if (this.branchTests.slice(frame.conditionalBase).some((test) => test !== undefined)) this.countAssertion(frame, false, false);
  }

  /**
   * `if (count === 6) done();`: a test that ends only once a comparison holds fails by its timeout otherwise. A flag
   * (`if (!finished) done()`) only keeps it from ending twice.
   */
  private countConditionalEnd(): void {
    const frame = this.currentFrame();
    if (frame === undefined || this.branchTests.length === frame.conditionalBase) return;
    const test = unwrapExpression(this.branchTests[this.branchTests.length - 1]);
    const operator = test?.type === 'BinaryExpression' ? getString(test, 'operator') : undefined;
    if (operator !== undefined && COMPARISONS.has(operator)) this.countAssertion(frame, false, false);
  }

  /** Visits a `catch` block (`visitHandler`); one in a test that neither asserts nor rethrows swallows the error. */
  visitCatch(visitHandler: () => void): void {
    const before = this.assertOrThrowCount;
    visitHandler();
    const frame = this.currentFrame();
    if (frame !== undefined && this.assertOrThrowCount === before) frame.fact.swallowedErrors++;
  }

  private currentFrame(): TestFrame | undefined {
    const frame = this.frames[this.frames.length - 1];
    return frame?.fact.kind === 'test' ? frame : undefined;
  }

  /** Walks an unawaited callback (`visit`): its assertions count as unawaited unless a flag it sets is asserted later. */
  visitUnawaited(callback: AstNode, visit: () => void): void {
    this.unawaitedDepth++;
    const body = getNode(callback, 'body');
    this.unawaitedFlags.push(body === undefined ? new Set() : findAssignedNames(body));
    try {
      visit();
    } finally {
      this.unawaitedFlags.pop();
      this.unawaitedDepth--;
    }
  }

  /** An assertion in the test's own flow names a flag that unawaited callbacks set: their assertions ran. */
  private settleFlags(frame: TestFrame, assertion: AstNode): void {
    if (frame.pending.length === 0) return;
    const named = findNames(assertion);
    frame.pending = frame.pending.filter((entry) => ![...entry.flags].some((flag) => named.has(flag)));
  }

  private countAssertion(frame: TestFrame, trivial: boolean, snapshot: boolean): void {
    frame.fact.assertions++;
    if (trivial) frame.fact.trivialAssertions++;
    if (trivial && this.functionDepth > frame.functionBase + 1) frame.trivialInCallbacks++;
    if (snapshot) frame.fact.snapshotAssertions++;
    if (this.unawaitedDepth > frame.unawaitedBase && !frame.isDoneStyle) {
      // The flags of the callbacks inside this test (those outside it were entered before the test began).
      const flags = new Set(this.unawaitedFlags.slice(frame.unawaitedBase).flatMap((set) => [...set]));
      if (flags.size === 0) frame.fact.unawaitedAssertions++;
      else frame.pending.push({ flags, count: 1 });
    }
    this.assertOrThrowCount++;
  }

  private countMatch(frame: TestFrame, match: AssertionMatch): void {
    if (match.subject !== undefined) this.expectSubjects.add(match.subject);
    this.countAssertion(frame, match.trivial, match.snapshot);
  }

  /**
   * A call of a function declared in this file whose body asserts (`check(input)`), or such a
   * function handed to `cases.forEach(check)`. Helpers declared inside the test itself were already
   * counted where they are written.
   */
  private countHelperCall(
    frame: TestFrame,
    callee: AstNode,
    method: string | undefined,
    args: AstNode[],
    isParameter: (name: string) => boolean,
  ): void {
    const candidates: AstNode[] = [callee];
    if (method !== undefined && iterationMethods.has(method)) candidates.push(...args);
    for (const candidate of candidates) {
      const name = getIdentifierName(unwrapExpression(candidate));
      // `(path, callback) => callback(null, path)` (feathers): the parameter, not another test's asserting `callback`.
      const helper = name === undefined || isParameter(name) ? undefined : this.getLocalHelpers().get(name);
      if (helper === undefined || (helper.start >= frame.callbackStart && helper.end <= frame.callbackEnd)) continue;
      this.countAssertion(frame, helper.trivial, helper.snapshot);
      return;
    }
  }

  /** Whether `name` is a function this file declares and that asserts (a helper it may put on the global object). */
  isAssertingHelper(name: string): boolean {
    return this.getLocalHelpers().get(name) !== undefined;
  }

  /** A function or variable the module declares at its top (its calls are the file's own, asserting or not). */
  private isDeclared(name: string): boolean {
    const body = this.moduleNode === undefined ? [] : getNodes(this.moduleNode, 'body');
    this.topLevelNames ??= new Set(
      body.flatMap((item) => {
        const declaration = item.type === 'ExportDeclaration' ? getNode(item, 'declaration') : item;
        if (declaration?.type === 'FunctionDeclaration' || declaration?.type === 'ClassDeclaration')
          return [getIdentifierName(getNode(declaration, 'identifier')) ?? ''];
        if (declaration?.type === 'VariableDeclaration')
          return getNodes(declaration, 'declarations').map((declarator) => getIdentifierName(getNode(declarator, 'id')) ?? '');
        return [];
      }),
    );
    return this.topLevelNames.has(name);
  }

  private getLocalHelpers(): LocalHelpers {
    this.localHelpers ??=
      this.moduleNode === undefined
        ? new Map<string, never>()
        : collectAssertingHelpers(this.moduleNode, { assertNames: this.links.assertNames, helpers: this.helpers });
    return this.localHelpers;
  }

  /** `// @ts-expect-error` lines inside the callback not already claimed by a nested test, as swc offsets. */
  private countExpectErrors(frame: TestFrame): void {
    if (this.source === undefined) return;
    const { lineIndex, base } = this.positions;
    this.expectErrorOffsets ??= findExpectErrorLines(this.source).map((line) => (lineIndex.lineStarts[line] ?? 0) + base);
    this.expectErrorOffsets.forEach((offset, index) => {
      if (offset < frame.callbackStart || offset >= frame.callbackEnd || this.claimedExpectErrors.has(index)) return;
      this.claimedExpectErrors.add(index);
      frame.fact.assertions++;
    });
  }

  private isNodeTestFile(): boolean {
    for (const binding of this.links.importBindings.values())
      if (binding.specifier === 'node:test' || binding.specifier === 'test') return true;
    return false;
  }

  private recordMock(calleeName: string, args: AstNode[], node: AstNode): void {
    let framework: MockFact['framework'] | undefined;
    if (calleeName === 'vi.mock' || calleeName === 'vi.doMock') framework = 'vitest';
    else if (calleeName === 'jest.mock' || calleeName === 'jest.doMock' || calleeName === 'jest.unstable_mockModule') framework = 'jest';
    else if (calleeName === 'mock.module' || calleeName.endsWith('.mock.module')) framework = 'node';
    if (framework === undefined) return;
    const first = unwrapExpression(args[0]);
    let specifier = getStaticString(first);
    if (specifier === undefined && first?.type === 'CallExpression' && getNode(first, 'callee')?.type === 'Import') {
      specifier = getStaticString(unwrapExpression(getExpressions(first, 'arguments')[0]));
    }
    if (specifier !== undefined) this.mocks.push({ specifier, framework, line: this.positions.startLine(node) });
  }
}

/** Methods that register a listener: the test that ends in one passes only if the event comes. */
const LISTENER_METHODS = new Set(['on', 'once', 'addListener', 'addEventListener', 'prependListener', 'prependOnceListener']);

/**
 * `conn.transport.on("close", done)` (engine.io): the test's completion callback registered as an event's listener ends
 * the test only when the event comes, and times it out otherwise: the event coming is what the test checks.
 */
function waitsForEvent(frame: TestFrame, method: string | undefined, args: readonly AstNode[]): boolean {
  if (frame.doneName === undefined || method === undefined || !LISTENER_METHODS.has(method)) return false;
  return args.slice(1).some((arg) => getIdentifierName(unwrapExpression(arg)) === frame.doneName);
}

function addModifier(fact: TestCaseFact, modifier: 'skip' | 'todo'): void {
  if (!fact.modifiers.includes(modifier)) {
    fact.modifiers.push(modifier);
    fact.modifiers.sort();
  }
}

/** `new Error('…')`, `new AssertionError(…)`, `Error('…')` or a message: an error made where the test fails. */
function isMadeError(node: AstNode | undefined): boolean {
  const value = unwrapExpression(node);
  if (value === undefined) return false;
  if (value.type === 'StringLiteral' || value.type === 'TemplateLiteral') return true;
  if (value.type !== 'NewExpression' && value.type !== 'CallExpression') return false;
  const name = getIdentifierName(unwrapExpression(getNode(value, 'callee')));
  return name?.endsWith('Error') === true;
}
