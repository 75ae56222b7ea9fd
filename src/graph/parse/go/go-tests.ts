import { createTestCase, type TestCaseFact } from '../../../model/facts.js';
import type { GoFunction } from './go-declarations.js';
import { type GoLines, type GoNode, getChild, getChildren, toStringValue } from './go-tree.js';

const TEST_PREFIXES = ['Test', 'Benchmark', 'Fuzz', 'Example'];
const FAILING_METHODS: ReadonlySet<string> = new Set(['Error', 'Errorf', 'Fatal', 'Fatalf', 'Fail', 'FailNow']);
const SKIPPING_METHODS: ReadonlySet<string> = new Set(['Skip', 'Skipf', 'SkipNow']);
const TESTIFY_PACKAGES: ReadonlySet<string> = new Set(['github.com/stretchr/testify/assert', 'github.com/stretchr/testify/require']);
/** `assertEqual(t, ...)`, `checkStatus(t, ...)`: helpers named for asserting. */
const HELPER_LIKE = /^(?:assert|require|expect|check|verify|must)[A-Z_]/;
/** The comment that makes `go test` run an example and compare what it prints. */
const EXAMPLE_OUTPUT = /\/\/\s*(?:Unordered output|Output):/;
/** `*testing.T`, `*testing.B`, `*testing.F`, `testing.TB`. */
const TESTING_TYPE = /^\*?testing\.(?:T|B|F|TB)$/;

interface OpenCase {
  fact: TestCaseFact;
}

interface TestContext {
  source: string;
  lines: GoLines;
  testifyLocals: Set<string>;
  /** Top-level helpers of the file that fail the test they are given. */
  helpers: Set<string>;
  cases: TestCaseFact[];
  /**
   * Variables the test made from its `t` (`c := qt.New(t)`, `is := is.New(t)`, `a := assert.New(t)`): their methods
   * are the assertions of the library that wraps `t`. Reset for each test and helper.
   */
  standIns: Set<string>;
}

/** Methods of a wrapped `t` that assert nothing: logging, cleanup, naming, subtests. */
const NON_ASSERTING_METHODS: ReadonlySet<string> = new Set([
  'Helper',
  'Cleanup',
  'Log',
  'Logf',
  'Name',
  'Parallel',
  'Run',
  'Setenv',
  'TempDir',
  'Skip',
  'Skipf',
  'SkipNow',
  'Defer',
  'Done',
  'Context',
]);

/** Whether `name` is one `go test` runs: `TestXxx`, `BenchmarkXxx`, `FuzzXxx`, `ExampleXxx` (`Testable` is not one). */
function isTestName(name: string): boolean {
  for (const prefix of TEST_PREFIXES) {
    if (!name.startsWith(prefix)) continue;
    const next = name.charCodeAt(prefix.length);
    return Number.isNaN(next) || next < 97 || next > 122;
  }
  return false;
}

/** The names of the parameters typed `*testing.T` (or B, F, TB) of a function or closure. */
function getTestingParameters(fn: GoNode, source: string): string[] {
  const names: string[] = [];
  for (const declaration of getChild(fn, 'parameters')?.children ?? []) {
    const type = getChild(declaration, 'type');
    if (type === undefined || !TESTING_TYPE.test(source.slice(type.start, type.end).replace(/\s+/g, ''))) continue;
    for (const name of getChildren(declaration, 'name')) names.push(source.slice(name.start, name.end));
  }
  return names;
}

/** Test cases of a `_test.go` file: top-level tests, benchmarks, fuzz tests and examples, and their `t.Run` subtests. */
export function collectTests(
  functions: readonly GoFunction[],
  source: string,
  lines: GoLines,
  importPaths: ReadonlyMap<string, string>,
): TestCaseFact[] {
  const testifyLocals = new Set<string>(['assert', 'require']);
  for (const [local, path] of importPaths) if (TESTIFY_PACKAGES.has(path)) testifyLocals.add(local);
  const context: TestContext = { source, lines, testifyLocals, helpers: new Set(), cases: [], standIns: new Set() };
  const tests: GoFunction[] = [];
  for (const fn of functions) {
    if (fn.receiverType !== undefined) continue;
    const parameters = getTestingParameters(fn.node, source);
    const count = getChild(fn.node, 'parameters')?.children.length ?? 0;
    const isTest = isTestName(fn.name) && (fn.name.startsWith('Example') ? count === 0 : count === 1 && parameters.length === 1);
    if (isTest) tests.push(fn);
    else if (parameters.length > 0 && countAssertions(fn.node, new Set(parameters), context) > 0) context.helpers.add(fn.name);
  }
  for (const fn of tests) {
    // `go test` runs a benchmark only under `-bench`, and an example only when it states its output: neither is a
    // case of the default run, and a benchmark asserts nothing by design. An example's `// Output:` is its assertion.
    if (fn.name.startsWith('Benchmark')) continue;
    const body = getChild(fn.node, 'body');
    const isExample = fn.name.startsWith('Example');
    if (isExample && (body === undefined || !EXAMPLE_OUTPUT.test(source.slice(body.start, body.end)))) continue;
    const fact = createCase([fn.name], lines.spanOf(fn.node));
    if (isExample) fact.assertions = 1;
    context.cases.push(fact);
    context.standIns.clear();
    if (body !== undefined) visit(body, new Set(getTestingParameters(fn.node, source)), [{ fact }], context);
  }
  return context.cases;
}

function createCase(titlePath: string[], span: TestCaseFact['span']): TestCaseFact {
  return createTestCase('test', titlePath, span);
}

/** Assertion calls anywhere below `node` (a helper's body), for deciding whether a helper asserts. */
function countAssertions(node: GoNode, testVars: Set<string>, context: TestContext): number {
  const probe = createCase([], { start: 0, end: 0 });
  visit(node, testVars, [{ fact: probe }], { ...context, cases: [], standIns: new Set() });
  return probe.assertions;
}

/** `isStatement`: `node` is the whole of an expression statement (its result, if any, is dropped). */
function visit(node: GoNode, testVars: ReadonlySet<string>, open: OpenCase[], context: TestContext, isStatement = false): void {
  if (node.type === 'func_literal') {
    const parameters = getTestingParameters(node, context.source);
    if (parameters.length > 0) testVars = new Set([...testVars, ...parameters]);
  } else if (node.type === 'short_var_declaration') addStandIns(node, testVars, context);
  else if (node.type === 'call_expression' && visitCall(node, testVars, open, context, isStatement)) return;
  for (const child of node.children) visit(child, testVars, open, context, node.type === 'expression_statement');
}

/** `c := qt.New(t)`: each name given a wrapper of the test's `t` stands in for it. */
function addStandIns(node: GoNode, testVars: ReadonlySet<string>, context: TestContext): void {
  const [left, right] = [getChild(node, 'left'), getChild(node, 'right')];
  const values = right?.children.filter((child) => child.type !== ',') ?? [];
  const [value] = values;
  if (left === undefined || values.length !== 1 || value === undefined || !isHandedTest(value, testVars, context)) return;
  for (const name of left.children) if (name.type === 'identifier') context.standIns.add(context.source.slice(name.start, name.end));
}

/** The constructors assertion libraries wrap `t` with: `qt.New(t)`, `assert.New(t)`, `is.New(t)`, gomega's `NewWithT(t)`. */
const WRAPPER_CONSTRUCTOR = /(?:^|\.)(?:New|NewWithT|NewGomegaWithT)$/;

/** A wrapper of the test's `t` (or of a stand-in for it): `qt.New(t)`; `NewServer(t)` builds a server, no assertion. */
function isHandedTest(node: GoNode, testVars: ReadonlySet<string>, context: TestContext): boolean {
  const callee = node.type === 'call_expression' ? getChild(node, 'function') : undefined;
  if (callee === undefined || !WRAPPER_CONSTRUCTOR.test(context.source.slice(callee.start, callee.end))) return false;
  if (callee.type === 'identifier' && context.source.slice(callee.start, callee.end) === 'New') return false;
  return (getChild(node, 'arguments')?.children ?? []).some((arg) => isTestValue(arg, testVars, context, false));
}

/** The test's `t`, a stand-in for it, or (`deep`) a wrapper of one (`runNumberTest(qt.New(t), …)`). */
function isTestValue(node: GoNode | undefined, testVars: ReadonlySet<string>, context: TestContext, deep: boolean): boolean {
  if (node === undefined) return false;
  if (node.type === 'identifier') {
    const name = context.source.slice(node.start, node.end);
    return testVars.has(name) || context.standIns.has(name);
  }
  return deep && isHandedTest(node, testVars, context);
}

/**
 * Records what one call says about the open cases; true when it opened a subtest and walked it. A call made as a
 * statement that hands the test its `t` first may fail it, whoever declares it: testify's own tests call their
 * package's `Contains(t, …)` unqualified, and a suite's `helpers.CheckRows(t, …)` lives in another package. A call
 * whose result is kept (`srv := newServer(t)`) builds something and asserts nothing.
 */
function visitCall(call: GoNode, testVars: ReadonlySet<string>, open: OpenCase[], context: TestContext, isStatement: boolean): boolean {
  const { source } = context;
  const callee = getChild(call, 'function');
  const args = getChild(call, 'arguments')?.children ?? [];
  const current = open[open.length - 1]?.fact;
  if (callee === undefined || current === undefined) return false;
  const first = args[0];
  const handsTest = isStatement && isTestValue(first, testVars, context, true);
  if (callee.type === 'identifier') {
    const name = source.slice(callee.start, callee.end);
    if (context.helpers.has(name) || HELPER_LIKE.test(name) || handsTest) addAssertion(open, false);
    return false;
  }
  if (callee.type !== 'selector_expression') return false;
  const operand = getChild(callee, 'operand');
  const field = getChild(callee, 'field');
  if (operand?.type !== 'identifier' || field === undefined) return false;
  const owner = source.slice(operand.start, operand.end);
  const method = source.slice(field.start, field.end);
  if (testVars.has(owner)) {
    if (FAILING_METHODS.has(method)) addAssertion(open, false);
    else if (SKIPPING_METHODS.has(method) && !current.modifiers.includes('skip')) current.modifiers.push('skip');
    else if (method === 'Parallel') current.isAsync = true;
    else if (method === 'Run') return openSubtest(call, args, testVars, open, context);
  } else if (context.standIns.has(owner)) {
    if (!NON_ASSERTING_METHODS.has(method)) addAssertion(open, isTrivialAssertion(method, args, source));
  } else if (context.testifyLocals.has(owner)) addAssertion(open, isTrivialAssertion(method, args, source));
  else if (handsTest) addAssertion(open, false);
  return false;
}

function openSubtest(call: GoNode, args: GoNode[], testVars: ReadonlySet<string>, open: OpenCase[], context: TestContext): boolean {
  const [titleNode, callback] = args;
  const parent = open[open.length - 1]?.fact;
  if (titleNode === undefined || callback === undefined || parent === undefined) return false;
  const title = getTitle(titleNode, context.source);
  if (title === undefined) return false;
  const fact = createCase([...parent.titlePath, title], context.lines.spanOf(call));
  context.cases.push(fact);
  visit(titleNode, testVars, open, context);
  visit(callback, testVars, [...open, { fact }], context);
  return true;
}

/** A subtest's title: a string, or the name that holds it (`tt.name` in a table-driven test). */
function getTitle(node: GoNode, source: string): string | undefined {
  const literal = toStringValue(node, source);
  if (literal !== undefined) return literal;
  if (node.type === 'identifier' || node.type === 'selector_expression') return source.slice(node.start, node.end).replace(/\s+/g, '');
  return undefined;
}

/** Every open case counts the assertion: a test holds the assertions of its subtests. */
function addAssertion(open: OpenCase[], isTrivial: boolean): void {
  for (const { fact } of open) {
    fact.assertions++;
    if (isTrivial) fact.trivialAssertions++;
  }
}

/** `assert.True(t, true)`, `assert.False(t, false)`, `assert.Equal(t, 1, 1)`: true whatever the code does. */
function isTrivialAssertion(method: string, args: GoNode[], source: string): boolean {
  const values = args.slice(1).map((arg) => source.slice(arg.start, arg.end));
  if (method === 'True') return values[0] === 'true';
  if (method === 'False') return values[0] === 'false';
  if (method !== 'Equal' && method !== 'EqualValues') return false;
  const [expected, actual] = args.slice(1);
  const isLiteral = (arg: GoNode | undefined): boolean =>
    arg !== undefined && /^(?:int_literal|float_literal|interpreted_string_literal|raw_string_literal|true|false|nil)$/.test(arg.type);
  return isLiteral(expected) && isLiteral(actual) && values[0] === values[1];
}
