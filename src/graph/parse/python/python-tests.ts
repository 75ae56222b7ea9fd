import { createTestCase, type MockFact, type TestCaseFact, type TestModifier } from '../../../model/facts.js';
import { getMembers } from './python-callables.js';
import type { ModuleScope } from './python-scope.js';
import {
  type Definition,
  findChild,
  getCallParts,
  getDecoratorExpression,
  getDottedName,
  getLine,
  getParts,
  getPositional,
  getSpan,
  getStringValue,
  getText,
  isAsyncDefinition,
  type PyFile,
  type PyNode,
  visit,
} from './python-tree.js';

/** Calls that patch the object a dotted string names. */
const patchCallees = new Set(['patch', 'mock.patch', 'unittest.mock.patch', 'mocker.patch', 'monkeypatch.setattr']);
/**
 * Context managers and calls that assert an exception or a warning; pytest 8.4's `RaisesGroup` and `RaisesExc` assert
 * an exception group and its members (anyio's `with pytest.RaisesGroup(pytest.RaisesExc(TypeError, match=…))`).
 */
const raisesCallees = new Set([
  'pytest.raises',
  'pytest.warns',
  'pytest.deprecated_call',
  'pytest.RaisesGroup',
  'pytest.RaisesExc',
  'raises',
  'warns',
  'RaisesGroup',
  'RaisesExc',
]);
const failCallees = new Set(['self.fail', 'pytest.fail']);
const skipDecorators = new Set(['mark.skip', 'skip']);
/**
 * Skips on a condition (`@pytest.mark.skipif(sys.implementation.name != "cpython")`, `@unittest.skipIf(…)`): the test
 * runs where the condition does not hold (packaging's CPython-only test runs on CPython), so it is no skipped test,
 * unless the condition is the literal `True`.
 */
const conditionalSkipDecorators = new Set(['mark.skipif', 'skipIf', 'skipUnless']);

/**
 * The files whose tests are collected: pytest's `test_*.py` and `*_test.py`, unittest's and Django's `test*.py`
 * (`tests.py`). A `test_connection` function in any other module is code, and `conftest.py` holds fixtures, not tests.
 */
const TEST_MODULE = /^test.*\.py$|_test\.py$/;
/** pytest's default `python_files`: only these modules have their `test*` functions and plain `Test*` classes collected. */
const PYTEST_MODULE = /^test_.*\.py$|_test\.py$/;

/**
 * The tests of a Python test module as pytest and unittest discover them: top-level `test*` functions, and `test*`
 * methods of classes named `Test*` without `__init__` or deriving from a `…TestCase`, each class a suite.
 */
export function isTestModule(path: string): boolean {
  return TEST_MODULE.test(path.slice(path.lastIndexOf('/') + 1));
}

export function collectTests(path: string, file: PyFile, scope: ModuleScope): TestCaseFact[] {
  if (!isTestModule(path)) return [];
  // unittest's discovery (`test*.py`) collects TestCase classes alone: werkzeug's src/werkzeug/testapp.py, a demo app
  // whose `def test_app(req)` is the app, is no test module to pytest and holds no TestCase.
  const pytest = PYTEST_MODULE.test(path.slice(path.lastIndexOf('/') + 1));
  const context: TestContext = { file, pytest, isAsserting: findAssertingHelpers(file, scope) };
  const tests: TestCaseFact[] = [];
  for (const declaration of scope.declarations) {
    const definition = declaration.definition;
    if (definition === undefined) continue;
    if (declaration.kind === 'function' && pytest && isTestFunction(file, definition)) tests.push(toTestCase(context, definition, []));
    else if (declaration.kind === 'class') addTestClass(context, definition, [], tests);
  }
  return tests;
}

interface TestContext {
  file: PyFile;
  pytest: boolean;
  /** Whether a call's dotted callee is one of the module's own helpers that assert (findAssertingHelpers). */
  isAsserting: (callee: string) => boolean;
}

/** How many rounds of helpers calling helpers are followed: a helper that asserts through three others is rare. */
const HELPER_ROUNDS = 3;

/**
 * The module's own functions and methods that assert, so that a test calling them asserts: tenacity's
 * `self._assert_inclusive_range(fn(state), 5, 5)`, a method of the TestCase that calls `self.assertLessEqual`, or a
 * module-level `check_roundtrip(value)` whose body says `assert`. By what each body does, not by its name; a helper
 * that calls another asserting helper asserts too. A method counts through `self.`/`cls.` (it may be a base class's of
 * the same module), a function by its bare name.
 */
function findAssertingHelpers(file: PyFile, scope: ModuleScope): (callee: string) => boolean {
  const functions: Definition[] = [];
  const methods: Definition[] = [];
  const addMembers = (definition: Definition): void => {
    for (const member of getMembers(file, definition)) {
      if (member.node.type === 'class_definition') addMembers(member);
      else if (member.node.type === 'function_definition') methods.push(member);
    }
  };
  for (const declaration of scope.declarations) {
    const definition = declaration.definition;
    if (definition === undefined) continue;
    if (declaration.kind === 'function') functions.push(definition);
    else if (declaration.kind === 'class') addMembers(definition);
  }
  const functionNames = new Set<string>();
  const methodNames = new Set<string>();
  const isAsserting = (callee: string): boolean => {
    const method = /^(?:self|cls)\.([A-Za-z_]\w*)$/.exec(callee)?.[1];
    return method === undefined ? functionNames.has(callee) : methodNames.has(method);
  };
  for (let round = 0; round < HELPER_ROUNDS; round += 1) {
    const before = functionNames.size + methodNames.size;
    for (const [definitions, names] of [
      [functions, functionNames],
      [methods, methodNames],
    ] as const) {
      for (const definition of definitions) {
        const body = findChild(definition.node, 'block');
        if (!names.has(definition.name) && body !== undefined && countAssertions(file, body, isAsserting).assertions > 0)
          names.add(definition.name);
      }
    }
    if (functionNames.size + methodNames.size === before) break;
  }
  return isAsserting;
}

function addTestClass(context: TestContext, definition: Definition, titles: readonly string[], tests: TestCaseFact[]): void {
  const { file, pytest } = context;
  const members = getMembers(file, definition);
  if (!isTestClass(file, definition, members, pytest)) return;
  const titlePath = [...titles, definition.name];
  tests.push({ ...toEmptyCase(file, definition, titlePath), kind: 'suite' });
  for (const member of members) {
    if (member.node.type === 'class_definition') addTestClass(context, member, titlePath, tests);
    else if (isTestFunction(file, member)) tests.push(toTestCase(context, member, titlePath));
  }
}

/**
 * A function pytest or unittest collects: named `test…`, and no fixture (webargs' `@pytest.fixture def testapp(self,
 * loop)` builds the app its tests take; pytest never runs it as a test).
 */
function isTestFunction(file: PyFile, definition: Definition): boolean {
  if (!definition.name.startsWith('test')) return false;
  return !definition.decorators.some((decorator) => {
    const decorated = getDecoratorExpression(decorator);
    const expression = decorated?.type === 'call' ? getCallParts(decorated).callee : decorated;
    return /(?:^|\.)(?:yield_)?fixture$/.test(getDottedName(file, expression) ?? '');
  });
}

/** A `…TestCase` subclass (unittest and pytest), or a `Test*` class without `__init__` in a module pytest collects. */
function isTestClass(file: PyFile, definition: Definition, members: readonly Definition[], pytest: boolean): boolean {
  const bases = findChild(definition.node, 'argument_list');
  const isTestCase = getPositional(bases === undefined ? [] : getParts(bases)).some((base) =>
    /TestCase$/.test(getDottedName(file, base) ?? ''),
  );
  return isTestCase || (pytest && definition.name.startsWith('Test') && !members.some((member) => member.name === '__init__'));
}

function toEmptyCase(file: PyFile, definition: Definition, titlePath: string[]): TestCaseFact {
  return createTestCase('test', titlePath, getSpan(file, definition.outer), getModifiers(file, definition));
}

function toTestCase(context: TestContext, definition: Definition, titles: readonly string[]): TestCaseFact {
  const { file } = context;
  const fact = toEmptyCase(file, definition, [...titles, definition.name]);
  const body = findChild(definition.node, 'block');
  if (body !== undefined) {
    const counted = countAssertions(file, body, context.isAsserting);
    fact.assertions = counted.assertions;
    fact.trivialAssertions = counted.trivial;
    visit(body, (node) => {
      if (node.type === 'try_statement' && isSwallowingTry(file, node, context.isAsserting)) fact.swallowedErrors++;
      return undefined;
    });
  }
  fact.isAsync = isAsyncDefinition(file, definition.node);
  return fact;
}

/** Whether a skip's condition always skips: `True` (`skipUnless`: `False`). */
function isAlwaysTrue(file: PyFile, condition: PyNode | undefined, negated: boolean): boolean {
  const text = condition === undefined ? '' : getText(file, condition).trim();
  return text === (negated ? 'False' : 'True');
}

function getModifiers(file: PyFile, definition: Definition): TestModifier[] {
  const modifiers = new Set<TestModifier>();
  for (const decorator of definition.decorators) {
    const decorated = getDecoratorExpression(decorator);
    const call = decorated?.type === 'call' ? getCallParts(decorated) : undefined;
    const expression = call === undefined ? decorated : call.callee;
    const name = (getDottedName(file, expression) ?? '').replace(/^(?:pytest|unittest)\./, '');
    if (skipDecorators.has(name)) modifiers.add('skip');
    else if (conditionalSkipDecorators.has(name) && isAlwaysTrue(file, call?.args[0], name === 'skipUnless')) modifiers.add('skip');
    // `@pytest.mark.xfail` and `@unittest.expectedFailure` run the test and report its outcome, like vitest's
    // `it.fails`: no placeholder (check 140, dateutil: `test_YmdH_M_S`, a full body, was "write the body … or remove
    // the placeholder").
  }
  return [...modifiers];
}

/**
 * `assert` statements, `assert*` calls (`self.assertEqual`, `mock.assert_called_once`), fails and raises checks, calls
 * of the module's own helpers that assert (`isAsserting`), and a `try` whose `else` raises: `try: … except
 * CustomError: pass else: raise Exception` (tenacity) fails the test when the expected error does not come, as
 * `pytest.raises` would.
 */
function countAssertions(file: PyFile, node: PyNode, isAsserting: (callee: string) => boolean): { assertions: number; trivial: number } {
  let assertions = 0;
  let trivial = 0;
  visit(node, (child) => {
    if (child.type === 'assert_statement') {
      assertions++;
      if (isTriviallyTrue(file, getParts(child)[0])) trivial++;
    } else if (child.type === 'try_statement') {
      const orElse = child.children.find((part) => part.type === 'else_clause');
      if (orElse !== undefined && hasRaise(file, orElse)) assertions++;
    } else if (child.type === 'call') {
      const { callee, args } = getCallParts(child);
      const name = getCalleeName(file, callee);
      const last = name.slice(name.lastIndexOf('.') + 1);
      if (last.startsWith('assert') || failCallees.has(name) || raisesCallees.has(name) || isAsserting(name)) {
        assertions++;
        if ((last === 'assertTrue' || last === 'assert_') && isTriviallyTrue(file, getPositional(args)[0])) trivial++;
      }
    }
    return undefined;
  });
  return { assertions, trivial };
}

/** The dotted callee, or `.method` when the receiver is no plain name (`client.get().assert_ok()` → `.assert_ok`). */
function getCalleeName(file: PyFile, callee: PyNode | undefined): string {
  const dotted = getDottedName(file, callee);
  if (dotted !== undefined) return dotted;
  const member = callee?.type === 'attribute' ? getParts(callee)[1] : undefined;
  return member === undefined ? '' : `.${getText(file, member)}`;
}

function isTriviallyTrue(file: PyFile, node: PyNode | undefined): boolean {
  if (node === undefined) return false;
  if (node.type === 'true') return true;
  return node.type === 'integer' && Number(getText(file, node)) !== 0;
}

/** A `try` with an `except` that neither asserts nor raises: a failure there passes the test silently. */
function isSwallowingTry(file: PyFile, node: PyNode, isAsserting: (callee: string) => boolean): boolean {
  // `try: 1 / 0` then `except: logger.exception(…)` (loguru): the test raises on purpose to have an error to handle.
  const body = node.children.find((child) => child.type === 'block');
  if (body?.children.some((statement) => isDeliberateRaise(file, statement)) === true) return false;
  // `try: parse(data) except ParsingError: pass else: self.assertTrue(False)` (waitress): the test expects the error,
  // and fails when it does not come; the same with the failing assertion last in the `try` body.
  const orElse = node.children.find((child) => child.type === 'else_clause');
  if (orElse !== undefined && (hasRaise(file, orElse) || countAssertions(file, orElse, isAsserting).assertions > 0)) return false;
  // An assertion last in the body fails the test only past excepts that let AssertionError through.
  const last = body?.children.filter((statement) => statement.type !== 'comment').at(-1);
  const excepts = node.children.filter((child) => child.type === 'except_clause');
  const letsAssertionsThrough = excepts.every((clause) => {
    const caught =
      getText(file, clause)
        .split(':')[0]
        ?.replace(/^except\s*/, '')
        .trim() ?? '';
    return caught !== '' && !/\b(?:Exception|BaseException|AssertionError)\b/.test(caught);
  });
  if (last !== undefined && letsAssertionsThrough && countAssertions(file, last, isAsserting).assertions > 0) return false;
  // `try: c = headers.get_all(…) except: c = headers.get(…).split(',')` (bottle's test_cookie): the except computes the
  // same value another way, and what follows the try checks it either way. A fallback, not a swallowed failure.
  const assigned = listAssignedNames(file, body);
  const fallsBack = (clause: PyNode): boolean =>
    [
      ...listAssignedNames(
        file,
        clause.children.find((child) => child.type === 'block'),
      ),
    ].some((name) => assigned.has(name));
  return node.children.some(
    (clause) =>
      clause.type === 'except_clause' &&
      !hasRaise(file, clause) &&
      countAssertions(file, clause, isAsserting).assertions === 0 &&
      !fallsBack(clause),
  );
}

/** The plain names a block's own statements assign (`c = …`, `c: str = …`), not those of nested blocks. */
function listAssignedNames(file: PyFile, block: PyNode | undefined): Set<string> {
  const names = new Set<string>();
  for (const statement of block?.children ?? []) {
    const assignment = statement.type === 'expression_statement' ? getParts(statement)[0] : undefined;
    const target = assignment?.type === 'assignment' ? getParts(assignment)[0] : undefined;
    if (target?.type === 'identifier') names.add(getText(file, target));
  }
  return names;
}

/**
 * Whether `node` raises: a `raise` statement, or a call that re-raises by what it is named (`retry_err.reraise()` in
 * tenacity's tests, six's `reraise(tp, value, tb)`, `raise_from(…)`).
 */
function hasRaise(file: PyFile, node: PyNode): boolean {
  let found = false;
  visit(node, (child) => {
    if (child.type === 'raise_statement') found = true;
    else if (child.type === 'call') {
      const name = getCalleeName(file, getCallParts(child).callee);
      if (/^(?:re)?raise(?:_from)?$/.test(name.slice(name.lastIndexOf('.') + 1))) found = true;
    }
    return !found;
  });
  return found;
}

/** A statement that always raises: `raise X(…)`, or a division by a literal zero (`1 / 0`). */
function isDeliberateRaise(file: PyFile, statement: PyNode): boolean {
  if (statement.type === 'raise_statement') return true;
  if (statement.type !== 'expression_statement') return false;
  return /^[\w.()]+\s*(?:\/\/?|%)\s*0$/.test(getText(file, statement).replace(/#.*$/, '').trim());
}

/** `patch('a.b.c')`, `mocker.patch(…)`, `monkeypatch.setattr('a.b.c', …)`: the dotted target of each, as a mock. */
export function collectMocks(file: PyFile): MockFact[] {
  const mocks: MockFact[] = [];
  visit(file.root, (node) => {
    if (node.type !== 'call') return undefined;
    const { callee, args } = getCallParts(node);
    const name = getDottedName(file, callee);
    if (name === undefined || !patchCallees.has(name)) return undefined;
    const target = getStringValue(file, getPositional(args)[0]);
    if (target !== undefined && /^[A-Za-z_][\w.]*$/.test(target) && (name !== 'monkeypatch.setattr' || target.includes('.'))) {
      mocks.push({ specifier: target, framework: 'node', line: getLine(file, node) });
    }
    return undefined;
  });
  return mocks;
}
