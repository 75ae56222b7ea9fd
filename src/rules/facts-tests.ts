import type { KnowledgeGraph } from '../graph/build.js';
import { toFileId } from '../graph/ids.js';
import { getPatchedName, isNamePatch } from '../graph/name-patch.js';
import type { TestNode } from '../model/graph.js';
import { createGraphLookup, type GraphLookup, sortUnique } from './facts-graph.js';

function getStem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base
    .replace(/\.[cm]?[jt]sx?$/i, '')
    .replace(/\.(?:test|spec|e2e|unit|integration)$/i, '')
    .replace(/^(?:test|spec)[._-]/i, '')
    .toLowerCase();
}

type MockTargets = { specifiers: string[]; targets: string[]; frameworks: string[] };

/** A mock as the test file's edge holds it: what it named and the file that resolves to. */
type MockEdge = { specifier: string; target: string };

/**
 * A test file's mock targets and tested files, read from its out-edges once per lookup: the facts of every test case
 * of a file asked them again, walking the file's edges (one per test case among them) per case; quadratic in a file's
 * cases (outline after an edit: 0.7 s of a 4.7 s `ai`, on the kept graph's lists).
 */
interface TestFileEdges {
  mocks: MockTargets;
  mocked: MockEdge[];
  tested: string[];
  /**
   * The local names under which the file imports a function another file exports and that asserts (validator.js's
   * tests call `test({ validator, valid, invalid })`, imported from ./testFunctions, whose body asserts).
   */
  assertingImports: ReadonlySet<string>;
  /**
   * The asserting functions the files it imports export, by their names there: nunjucks's tests `require('./util')` into
   * a variable declared above, then `equal = util.equal`, and call `equal(…)`, which no import binds.
   */
  requiredAssertions: ReadonlySet<string>;
}

const edgesByLookup = new WeakMap<GraphLookup, Map<string, TestFileEdges>>();

function getTestFileEdges(lookup: GraphLookup, testFile: string): TestFileEdges {
  let byFile = edgesByLookup.get(lookup);
  if (byFile === undefined) {
    byFile = new Map();
    edgesByLookup.set(lookup, byFile);
  }
  const known = byFile.get(testFile);
  if (known !== undefined) return known;
  const id = toFileId(testFile);
  const { graph } = lookup.kg;
  const specifiers: string[] = [];
  const targets: string[] = [];
  const frameworks: string[] = [];
  const tested: string[] = [];
  const mocked: MockEdge[] = [];
  const assertingImports = new Set<string>();
  const requiredAssertions = new Set<string>();
  if (graph.hasNode(id)) {
    graph.forEachOutEdge(id, (_edge, attributes, _source, _target, _sourceAttributes, targetAttributes) => {
      if (attributes.kind === 'uses' && targetAttributes.kind === 'export') {
        const owner = toFileId(targetAttributes.path);
        const file = graph.hasNode(owner) ? graph.getNodeAttributes(owner) : undefined;
        if (file?.kind === 'file' && file.assertingExports?.includes(targetAttributes.name) === true)
          for (const local of attributes.locals) assertingImports.add(local);
        return;
      }
      if (targetAttributes.kind !== 'file') return;
      if (attributes.kind === 'imports') for (const name of targetAttributes.assertingExports ?? []) requiredAssertions.add(name);
      if (attributes.kind === 'tests') tested.push(targetAttributes.path);
      else if (attributes.kind === 'mocks') {
        specifiers.push(attributes.specifier);
        targets.push(targetAttributes.path);
        frameworks.push(attributes.framework);
        mocked.push({ specifier: attributes.specifier, target: targetAttributes.path });
      }
    });
  }
  const edges = {
    mocks: { specifiers: sortUnique(specifiers), targets: sortUnique(targets), frameworks: sortUnique(frameworks) },
    mocked,
    tested: sortUnique(tested),
    assertingImports,
    requiredAssertions,
  };
  byFile.set(testFile, edges);
  return edges;
}

function getMockTargets(lookup: GraphLookup, testFile: string): MockTargets {
  const { specifiers, targets, frameworks } = getTestFileEdges(lookup, testFile).mocks;
  return { specifiers: [...specifiers], targets: [...targets], frameworks: [...frameworks] };
}

function getTestedFiles(lookup: GraphLookup, testFile: string): string[] {
  return [...getTestFileEdges(lookup, testFile).tested];
}

/** Whether a title says a name whole: `test_proxy_bypass` says `proxy_bypass`, `test_get_netrc_auth` does not say `get_net`. */
function saysName(title: string, name: string): boolean {
  return new RegExp(`(?<![a-z0-9])${name.replace(/[$]/g, '\\$&')}(?![a-z0-9])`).test(title);
}

/**
 * True when the test file mocks the module it is named after, or the only module it tests. A Python patch of one name
 * counts only for a test named for that name: requests' test_utils.py patches `requests.utils.proxy_bypass` in one
 * test, and every test of the file was said to mock the unit it tests.
 */
function isMockingUnitUnderTest(lookup: GraphLookup, node: TestNode): boolean {
  const testFile = node.file;
  const title = node.titlePath.join(' ').toLowerCase();
  const targets = getTestFileEdges(lookup, testFile)
    .mocked.filter(
      (mock) => !isNamePatch(testFile, mock.specifier, mock.target) || saysName(title, getPatchedName(mock.specifier).toLowerCase()),
    )
    .map((mock) => mock.target);
  if (targets.length === 0) return false;
  const stem = getStem(testFile);
  if (targets.some((target) => getStem(target) === stem)) return true;
  const tested = getTestedFiles(lookup, testFile).filter((path) => !lookup.isTestFile(path));
  return tested.length === 1 && targets.includes(tested[0] ?? '');
}

const suitesByLookup = new WeakMap<GraphLookup, Map<string, TestNode[]>>();

function getSuites(lookup: GraphLookup, file: string): TestNode[] {
  let byFile = suitesByLookup.get(lookup);
  if (byFile === undefined) {
    byFile = new Map();
    for (const { node } of lookup.getTestNodes()) {
      if (node.testKind !== 'suite') continue;
      const suites = byFile.get(node.file);
      if (suites === undefined) byFile.set(node.file, [node]);
      else suites.push(node);
    }
    suitesByLookup.set(lookup, byFile);
  }
  return byFile.get(file) ?? [];
}

/** The test's own modifiers plus those of the suites around it (`describe.skip` skips its tests). */
function getInheritedModifiers(lookup: GraphLookup, node: TestNode): string[] {
  const modifiers = new Set<string>(node.modifiers);
  for (const other of getSuites(lookup, node.file)) {
    if (other.titlePath.length >= node.titlePath.length) continue;
    if (
      other.titlePath.every((title, index) => node.titlePath[index] === title) &&
      other.span.start <= node.span.start &&
      other.span.end >= node.span.end
    ) {
      for (const modifier of other.modifiers) modifiers.add(modifier);
    }
  }
  return sortUnique(modifiers);
}

/** The catalogue facts of one test case node. */
export function deriveTestCaseFacts(
  kg: KnowledgeGraph,
  testId: string,
  options: { changedPaths: readonly string[]; testsReachingChange?: ReadonlySet<string>; lookup?: GraphLookup },
): Record<string, unknown> {
  const lookup = options.lookup ?? createGraphLookup(kg);
  const node = kg.graph.getNodeAttributes(testId);
  if (node.kind !== 'test') throw new Error(`${testId} is not a test node`);
  const changed = new Set(options.changedPaths);
  const reaching = options.testsReachingChange ?? new Set([...changed].flatMap((path) => lookup.getReachingTestFiles(path)));
  return {
    file: node.file,
    title: node.titlePath.join(' > '),
    titlePath: [...node.titlePath],
    assertions: countAssertions(lookup, node),
    trivialAssertions: node.trivialAssertions,
    snapshotAssertions: node.snapshotAssertions,
    unawaitedAssertions: node.unawaitedAssertions,
    swallowedErrors: node.swallowedErrors,
    modifiers: getInheritedModifiers(lookup, node),
    isAsync: node.isAsync,
    mockCount: getMockTargets(lookup, node.file).targets.length,
    mocksUnitUnderTest: isMockingUnitUnderTest(lookup, node),
    coversChangedFile: reaching.has(node.file) || changed.has(node.file),
    lineCount: Math.max(0, node.span.end - node.span.start + 1),
  };
}

const globalHelpersByLookup = new WeakMap<GraphLookup, ReadonlySet<string>>();

/** Asserting functions some file of the repository puts on the global object (a runner's setup file's `global.equal`). */
function getGlobalAssertionHelpers(lookup: GraphLookup): ReadonlySet<string> {
  let helpers = globalHelpersByLookup.get(lookup);
  if (helpers === undefined) {
    const found = new Set<string>();
    lookup.kg.graph.forEachNode((_id, attributes) => {
      if (attributes.kind === 'file') for (const name of attributes.globalAssertionHelpers ?? []) found.add(name);
    });
    helpers = found;
    globalHelpersByLookup.set(lookup, helpers);
  }
  return helpers;
}

/**
 * The assertions of a test case: those its file shows, or, for a test that shows none, one per global asserting helper
 * it calls (parse-server's specs call `equal(a, b)`, which spec/helper.js puts on `global` and which calls `expect`),
 * or per asserting function of that name a module the file imports exports.
 */
function countAssertions(lookup: GraphLookup, node: TestNode): number {
  if (node.assertions > 0) return node.assertions;
  let count = 0;
  if (node.freeCalls !== undefined) {
    const helpers = getGlobalAssertionHelpers(lookup);
    const required = getTestFileEdges(lookup, node.file).requiredAssertions;
    count += node.freeCalls.filter((name) => helpers.has(name) || required.has(name)).length;
  }
  if (node.importedCalls !== undefined) {
    const helpers = getTestFileEdges(lookup, node.file).assertingImports;
    count += node.importedCalls.filter((name) => helpers.has(name)).length;
  }
  return count;
}

const packagesByLookup = new WeakMap<GraphLookup, Map<string, Set<string>>>();
const casesByLookup = new WeakMap<GraphLookup, Map<string, { id: string; node: TestNode }[]>>();

/**
 * The packages each file imports, and the test cases of each file (in id order), indexed once per lookup: filtering
 * every import and every test node per test file was quadratic (2,000 test files reaching a hub change on the 10k
 * synthetic repository: 0.4 s of a 1.6 s analysis).
 */
function getImportedPackages(lookup: GraphLookup, path: string): ReadonlySet<string> {
  let byFile = packagesByLookup.get(lookup);
  if (byFile === undefined) {
    byFile = new Map();
    for (const entry of lookup.kg.externalImports) {
      const packages = byFile.get(entry.from) ?? new Set<string>();
      packages.add(entry.packageName);
      byFile.set(entry.from, packages);
    }
    packagesByLookup.set(lookup, byFile);
  }
  return byFile.get(path) ?? new Set();
}

function getTestCases(lookup: GraphLookup, path: string): { id: string; node: TestNode }[] {
  let byFile = casesByLookup.get(lookup);
  if (byFile === undefined) {
    byFile = new Map();
    for (const entry of lookup.getTestNodes()) {
      if (entry.node.testKind !== 'test') continue;
      const cases = byFile.get(entry.node.file);
      if (cases === undefined) byFile.set(entry.node.file, [entry]);
      else cases.push(entry);
    }
    casesByLookup.set(lookup, byFile);
  }
  return byFile.get(path) ?? [];
}

function getTestFramework(lookup: GraphLookup, path: string): string {
  const packages = getImportedPackages(lookup, path);
  if (packages.has('vitest')) return 'vitest';
  if (packages.has('@jest/globals') || packages.has('jest')) return 'jest';
  if (packages.has('mocha')) return 'mocha';
  const { frameworks } = getMockTargets(lookup, path);
  return frameworks[0] ?? 'unknown';
}

/** The catalogue facts of one test file. */
export function deriveTestFileFacts(lookup: GraphLookup, path: string, changedPaths: ReadonlySet<string>): Record<string, unknown> {
  const cases = getTestCases(lookup, path);
  const mocks = getMockTargets(lookup, path);
  const tested = getTestedFiles(lookup, path);
  return {
    path,
    framework: getTestFramework(lookup, path),
    testCount: cases.length,
    skippedCount: cases.filter((entry) => entry.node.modifiers.includes('skip') || entry.node.modifiers.includes('todo')).length,
    onlyCount: cases.filter((entry) => entry.node.modifiers.includes('only')).length,
    assertionCount: cases.reduce((total, entry) => total + countAssertions(lookup, entry.node), 0),
    mocks: mocks.specifiers,
    mockCount: mocks.targets.length,
    mocksChangedFile: mocks.targets.some((target) => changedPaths.has(target)),
    testedFiles: tested.length,
    isChanged: changedPaths.has(path),
  };
}
