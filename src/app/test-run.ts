import type { KnowledgeGraph } from '../graph/build.js';
import { toFileId } from '../graph/ids.js';
import { isNamedConfig, isTypeTestPath } from '../graph/roles.js';
import { findReachingTests } from '../graph/queries/find-reaching-tests.js';
import { listTestFiles } from '../graph/queries/test-files.js';
import type { ChangedFileEvidence } from '../model/analysis.js';
import type { ReachingTest } from '../model/coverage.js';
import { type FileFacts, getSourceLanguage } from '../model/facts.js';
import { getUnparsedLanguage } from '../model/languages.js';
import type { TestRun, TestRunner } from '../model/test-run.js';
import { planTestRun, type TestToRun } from '../ranking/test-run.js';
import { type RunnerSelectors, selectConfiguredRunner } from './test-runners.js';

/** Dependencies that name a runner, in the order they win when a package declares several. */
const RUNNER_DEPENDENCIES: readonly [string, TestRunner][] = [
  ['vitest', 'vitest'],
  ['jest', 'jest'],
  ['@jest/globals', 'jest'],
  ['ts-jest', 'jest'],
  ['mocha', 'mocha'],
  ['jasmine', 'jasmine'],
  ['ava', 'ava'],
  ['@hapi/lab', 'lab'],
  ['uvu', 'uvu'],
  ['@playwright/test', 'playwright'],
  ['cypress', 'cypress'],
];
/**
 * Imports in a test file that name its runner, whatever the package declares. node-tap and tape are runners by import
 * alone: their tests require them, and a `describe`/`it` file of a package that also declares tape (MQTT.js's browser
 * tests, run by wtr) is none of theirs.
 */
const RUNNER_IMPORTS: ReadonlyMap<string, TestRunner> = new Map([
  ['vitest', 'vitest'],
  ['@jest/globals', 'jest'],
  ['node:test', 'node'],
  ['ava', 'ava'],
  ['tap', 'tap'],
  ['tape', 'tape'],
  ['@hapi/lab', 'lab'],
  ['uvu', 'uvu'],
  ['@playwright/test', 'playwright'],
]);
const LOCKFILES: readonly [string, string][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
];
const TYPESCRIPT = /\.[cm]?tsx?$/;
/** Files at the root of a Python project: its suite runs under pytest when no changed code says otherwise. */
const PYTHON_PROJECT_FILES = ['pyproject.toml', 'setup.py', 'setup.cfg', 'manage.py', 'pytest.ini', 'tox.ini'];
/** Change kinds that reach every test: what the packages install or how the tools build and run. */
const WHOLE_SUITE_KINDS = new Set(['manifest', 'lockfile', 'config']);
/** CI and editor settings: they change how a CI service or an editor runs, not how the tests build or run here. */
const CI_CONFIG = /^(?:\.github|\.circleci|\.gitlab|\.husky|\.vscode|\.devcontainer)\/|^\.gitlab-ci\.ya?ml$/;
/**
 * Linter and formatter settings, and what git or a package registry ignores: they change what a lint or format check
 * reports or what is committed and published, not how a test builds or runs (nock's .eslintrc.yml and golang-jwt's
 * .gitignore, changed beside a fix, sent the whole suite instead of the tests that reach the fix).
 */
const NO_TEST_SETTINGS =
  /(?:^|\/)(?:\.gitignore|\.gitattributes|\.npmignore|\.mailmap|\.eslintrc(?:\.[a-z]+)?|\.eslintignore|eslint\.config\.[cm]?[jt]s|biome\.jsonc?|\.oxlintrc\.json|\.prettierrc(?:\.[a-z]+)?|\.prettierignore|prettier\.config\.[cm]?js|\.editorconfig|\.stylelintrc(?:\.[a-z]+)?|\.markdownlint(?:-cli2)?\.(?:jsonc?|ya?ml)|\.commitlintrc(?:\.[a-z]+)?|commitlint\.config\.[cm]?[jt]s|\.lintstagedrc(?:\.[a-z]+)?|\.?cspell\.json)$/i;

/**
 * A JSON, YAML or TOML file at the root of the repository or of one of its packages: a setting the tools may read. One
 * deeper is data (uptime-kuma's `src/lang/en.json`, a translation), which reaches the tests that read it, not all of them.
 */
function isAtPackageRoot(kg: KnowledgeGraph, path: string): boolean {
  const slash = path.lastIndexOf('/');
  return slash === -1 || findPackage(kg, path)?.folder === path.slice(0, slash);
}

/** Whether a file of the repository imports `path` (a JSON module read by `import en from './lang/en.json'`). */
function isImported(kg: KnowledgeGraph, path: string): boolean {
  const id = toFileId(path);
  if (!kg.graph.hasNode(id)) return false;
  let found = false;
  kg.graph.forEachInEdge(id, (_edge, attributes) => {
    if (attributes.kind === 'imports') found = true;
  });
  return found;
}

interface PackageInfo {
  folder: string;
  dependencies: Set<string>;
}

function findPackage(kg: KnowledgeGraph, path: string): PackageInfo | undefined {
  const id = toFileId(path);
  if (!kg.graph.hasNode(id)) return undefined;
  let found: PackageInfo | undefined;
  kg.graph.forEachOutEdge(id, (_edge, attributes, _source, target, _sourceAttributes, targetAttributes) => {
    if (attributes.kind !== 'belongs' || targetAttributes.kind !== 'package') return;
    found = { folder: targetAttributes.folder ?? '', dependencies: getDependencies(kg, target) };
  });
  return found;
}

function getDependencies(kg: KnowledgeGraph, packageId: string): Set<string> {
  const names = new Set<string>();
  kg.graph.forEachOutEdge(packageId, (_edge, attributes, _source, _target, _sourceAttributes, targetAttributes) => {
    if (attributes.kind === 'depends' && targetAttributes.kind === 'package') names.add(targetAttributes.name);
  });
  return names;
}

function findRootPackage(kg: KnowledgeGraph): PackageInfo | undefined {
  let found: PackageInfo | undefined;
  kg.graph.forEachNode((id, attributes) => {
    if (found === undefined && attributes.kind === 'package' && attributes.workspace && (attributes.folder ?? '') === '')
      found = { folder: '', dependencies: getDependencies(kg, id) };
  });
  return found;
}

function runnerOf(dependencies: ReadonlySet<string>): TestRunner | undefined {
  return RUNNER_DEPENDENCIES.find(([name]) => dependencies.has(name))?.[1];
}

const VITEST_TYPE_TEST = /\.(?:test|spec)-d\.[cm]?tsx?$/;
const TSTYCHE_TYPE_TEST = /\.tst\.[cm]?tsx?$/;

/**
 * A type test runs under what the repository has for it: vitest with `--typecheck` when its config turns type checking
 * on (for `*.test-d.ts`), else tsd (`*.test-d.ts`), tstyche (`*.tst.ts`) when declared; else no runner, and the plan
 * says to type-check it. Never under the package's runtime runner, which would not check its types.
 */
function toTypeTestToRun(
  selectors: RunnerSelectors,
  own: PackageInfo | undefined,
  root: PackageInfo | undefined,
  test: { path: string; distance: number; relevance?: number },
): TestToRun {
  const base = {
    path: test.path,
    distance: test.distance,
    typeTest: true,
    ...(test.relevance === undefined ? {} : { relevance: test.relevance }),
  };
  const ownFolder = own?.folder ?? '';
  const declares = (name: string): string | undefined =>
    own?.dependencies.has(name) === true ? ownFolder : root?.dependencies.has(name) === true ? '' : undefined;
  if (VITEST_TYPE_TEST.test(test.path)) {
    const vitestFolder = [ownFolder, ''].find((folder) => selectors.vitestTypecheck.has(folder));
    if (vitestFolder !== undefined) return { ...base, runner: 'vitest', cwd: vitestFolder, typecheck: true };
    const tsd = declares('tsd');
    if (tsd !== undefined) return { ...base, runner: 'tsd', cwd: tsd };
  }
  const tstyche = TSTYCHE_TYPE_TEST.test(test.path) ? declares('tstyche') : undefined;
  if (tstyche !== undefined) return { ...base, runner: 'tstyche', cwd: tstyche };
  return { ...base, runner: undefined, cwd: ownFolder };
}

/**
 * A mocha or `node --test` run with the load flags its package's script gives the runner (`--require @babel/register`,
 * `-r esbuild-register`).
 */
function withScriptFlags(selectors: RunnerSelectors, test: TestToRun): TestToRun {
  const flags =
    test.runner === 'mocha'
      ? selectors.mochaFlags?.get(test.cwd)
      : test.runner === 'node'
        ? selectors.nodeTestFlags?.get(test.cwd)
        : test.runner === 'lab' || test.runner === 'uvu'
          ? selectors.runnerFlags?.get(test.runner)?.get(test.cwd)
          : undefined;
  return flags === undefined ? test : { ...test, flags };
}

/**
 * How a test file is run: a type test by its type-test runner; else the runner whose configuration selects it (karma's
 * `files`, mocha's spec globs, a config a package script names); else the runner its imports name (`node:test`,
 * `vitest`, …), else the one its package declares, else the root's; from the root when the root declares that runner
 * (a workspace-wide config), else from its package.
 */
function toTestToRun(
  kg: KnowledgeGraph,
  facts: ReadonlyMap<string, { facts: FileFacts }>,
  root: PackageInfo | undefined,
  selectors: RunnerSelectors,
  test: { path: string; distance: number; relevance?: number },
  goPackageTests: (folder: string) => readonly string[] = () => [],
): TestToRun {
  const language = getSourceLanguage(test.path);
  if (language === 'python' || language === 'go') return toOtherTestToRun(kg, facts, language, test, goPackageTests);
  const own = findPackage(kg, test.path);
  if (isTypeTestPath(test.path)) return toTypeTestToRun(selectors, own, root, test);
  const configured = selectConfiguredRunner(selectors, test.path);
  if (configured !== undefined)
    return {
      path: test.path,
      distance: test.distance,
      runner: configured.runner,
      cwd: configured.cwd,
      ...(configured.config === undefined ? {} : { config: configured.config }),
      ...(test.relevance === undefined ? {} : { relevance: test.relevance }),
    };
  const fileFacts = facts.get(test.path)?.facts;
  const imported = fileFacts?.imports.map((item) => RUNNER_IMPORTS.get(item.specifier)).find((runner) => runner !== undefined);
  // A file that declares no test case is no suite of the runner its package depends on (jest fails on it): a
  // TypeScript one is a type test of a script run by ts-node or tsc, to type-check; a JavaScript one has no runner.
  if (imported === undefined && fileFacts !== undefined && fileFacts.tests.length === 0)
    return TYPESCRIPT.test(test.path)
      ? toTypeTestToRun(selectors, own, root, test)
      : {
          path: test.path,
          distance: test.distance,
          runner: undefined,
          cwd: own?.folder ?? '',
          ...(test.relevance === undefined ? {} : { relevance: test.relevance }),
        };
  const declared =
    imported ??
    (own === undefined ? undefined : runnerOf(own.dependencies)) ??
    (root === undefined ? undefined : runnerOf(root.dependencies));
  // Mocha runs only what its spec globs select, where the repository states them (axios: `mocha test/unit/**/*.js`):
  // a jasmine-style file that karma's `files` skip too is run by no runner.
  const runner = imported === undefined && declared === 'mocha' && isOutsideMochaSpecs(selectors, test.path) ? undefined : declared;
  const rootRuns = root !== undefined && runner !== undefined && (runnerOf(root.dependencies) === runner || runner === 'node');
  const cwd = rootRuns || own === undefined ? '' : own.folder;
  const hasTsx = (own?.dependencies.has('tsx') ?? false) || (root?.dependencies.has('tsx') ?? false);
  return {
    path: test.path,
    distance: test.distance,
    runner,
    cwd,
    viaTsx: runner === 'node' && TYPESCRIPT.test(test.path) && hasTsx,
    ...(test.relevance === undefined ? {} : { relevance: test.relevance }),
  };
}

/** Whether mocha spec globs are stated for the file's folder (or one above it), and none selects it. */
function isOutsideMochaSpecs(selectors: RunnerSelectors, path: string): boolean {
  const inside = selectors.mocha.filter((specs) => specs.folder === '' || path.startsWith(`${specs.folder}/`));
  return inside.length > 0 && !inside.some((specs) => specs.select(path));
}

/** Files that mark where pytest runs from (its rootdir and configuration); Go runs from the module's go.mod. */
const PYTEST_ROOT_FILES = ['pytest.ini', 'pyproject.toml', 'tox.ini', 'setup.cfg'];

/**
 * A Python test runs under pytest (which runs unittest cases too) from the nearest folder above it holding pytest's
 * configuration (pytest.ini, pyproject.toml, tox.ini, setup.cfg), else the root; a Go test from its module's folder,
 * selected by its top-level test functions.
 */
function toOtherTestToRun(
  kg: KnowledgeGraph,
  facts: ReadonlyMap<string, { facts: FileFacts }>,
  language: 'python' | 'go',
  test: { path: string; distance: number; relevance?: number },
  goPackageTests: (folder: string) => readonly string[],
): TestToRun {
  const markers = language === 'go' ? ['go.mod'] : PYTEST_ROOT_FILES;
  let cwd = test.path.includes('/') ? test.path.slice(0, test.path.lastIndexOf('/')) : '';
  for (;;) {
    if (markers.some((name) => kg.graph.hasNode(toFileId(cwd === '' ? name : `${cwd}/${name}`)))) break;
    if (cwd === '') break;
    cwd = cwd.includes('/') ? cwd.slice(0, cwd.lastIndexOf('/')) : '';
  }
  const testNames =
    language === 'go'
      ? [
          ...new Set(
            (facts.get(test.path)?.facts.tests ?? []).filter((item) => item.titlePath.length === 1).map((item) => item.titlePath[0] ?? ''),
          ),
        ]
      : [];
  return {
    path: test.path,
    distance: test.distance,
    runner: language === 'go' ? 'go' : 'pytest',
    cwd,
    ...(test.relevance === undefined ? {} : { relevance: test.relevance }),
    ...(testNames.length === 0 ? {} : { testNames: testNames.filter((name) => name !== '') }),
    ...(language === 'go'
      ? { packageTests: goPackageTests(test.path.includes('/') ? test.path.slice(0, test.path.lastIndexOf('/')) : '') }
      : {}),
  };
}

/** The ecosystem whose whole suite a change runs: Go or Python when every changed runtime file is one, else the package manager's. */
function getSuiteManager(kg: KnowledgeGraph, changedFiles: readonly ChangedFileEvidence[]): string {
  // Only code says which language's runner: a Django template changed beside a form (healthchecks) is no JavaScript.
  const languages = new Set(
    changedFiles
      .filter((file) => file.changeKind === 'runtime' || file.changeKind === 'test')
      .flatMap((file) => getSourceLanguage(file.path) ?? []),
  );
  if (languages.size === 1 && languages.has('python')) return 'pytest';
  if (languages.size === 1 && languages.has('go')) return 'go';
  const holds = (name: string): boolean => kg.graph.hasNode(toFileId(name));
  // No changed code, and no package.json at the root: the repository's own language says.
  if (languages.size === 0 && !holds('package.json')) {
    if (holds('go.mod')) return 'go';
    if (PYTHON_PROJECT_FILES.some(holds)) return 'pytest';
  }
  return LOCKFILES.find(([name]) => holds(name))?.[1] ?? 'npm';
}

/** The tests to run for a change (analysis → bundle and audit-tests): planTestRun over what the graph says of each test. */
export function toTestRun(
  kg: KnowledgeGraph,
  facts: ReadonlyMap<string, { facts: FileFacts }>,
  changedFiles: readonly ChangedFileEvidence[],
  reachingTestsByPath: ReadonlyMap<string, readonly ReachingTest[]>,
  /** Changed paths whose tests `tests.dependsOn` declares: their tests run, whatever the file's kind, not the whole suite. */
  declaredPaths: ReadonlySet<string> = new Set(),
  /** What the repository's runner configs select (test-runners.ts). */
  selectors: RunnerSelectors = { karma: [], mocha: [], vitestTypecheck: new Set(), unread: [], setup: [], scripted: [] },
): TestRun {
  const root = findRootPackage(kg);
  const packageManager = getSuiteManager(kg, changedFiles);
  // A JSON, YAML or TOML file below a package's root is data (uptime-kuma's `src/lang/en.json`): code that imports it
  // reaches its tests; read some other way, any test may read it, and the whole suite runs, saying why.
  const isData = (file: ChangedFileEvidence): boolean =>
    file.changeKind === 'config' && !isNamedConfig(file.path) && !isAtPackageRoot(kg, file.path);
  const importedData = changedFiles.filter((file) => isData(file) && file.status !== 'deleted' && isImported(kg, file.path));
  const wholeSuite = changedFiles.find(
    (file) =>
      WHOLE_SUITE_KINDS.has(file.changeKind) &&
      !declaredPaths.has(file.path) &&
      !CI_CONFIG.test(file.path) &&
      !NO_TEST_SETTINGS.test(file.path) &&
      !importedData.includes(file),
  );
  // A changed test-support file (a conftest.py, a shared server helper) runs no test itself: the tests it reaches run.
  const testFiles = listTestFiles(kg.graph);
  // Each Go package's test files, by folder: a command that runs them all needs no `-run` (test-run.ts).
  let goTests: Map<string, string[]> | undefined;
  const goPackageTests = (folder: string): readonly string[] => {
    if (goTests === undefined) {
      goTests = new Map();
      for (const path of testFiles) {
        if (!path.endsWith('_test.go')) continue;
        const at = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
        goTests.set(at, [...(goTests.get(at) ?? []), path]);
      }
    }
    return goTests.get(folder) ?? [];
  };
  const isSupport = (file: ChangedFileEvidence): boolean => file.changeKind === 'test' && !testFiles.has(file.path);
  const tests: { path: string; distance: number; relevance?: number }[] = changedFiles
    .filter(
      (file) => file.changeKind === 'test' && file.status !== 'deleted' && getUnparsedLanguage(file.path) === undefined && !isSupport(file),
    )
    .map((file) => ({ path: file.path, distance: 0 }));
  for (const [changed, reaching] of reachingTestsByPath) {
    const file = changedFiles.find((entry) => entry.path === changed);
    if (file === undefined || (file.changeKind !== 'runtime' && !isSupport(file) && !declaredPaths.has(changed))) continue;
    for (const test of reaching)
      tests.push({ path: test.testFile, distance: test.distance, ...(test.relevance === undefined ? {} : { relevance: test.relevance }) });
  }
  for (const file of importedData)
    for (const test of findReachingTests(kg, file.path)) tests.push({ path: test.testFile, distance: test.distance });
  // A type-only change (a .d.ts, an interface) runs no runtime test, but the type tests that read it, through type
  // imports too, check it.
  for (const file of changedFiles) {
    if (file.changeKind !== 'type-only' || file.status === 'deleted') continue;
    for (const test of findReachingTests(kg, file.path, { includeTypeOnly: true }))
      if (isTypeTestPath(test.testFile)) tests.push({ path: test.testFile, distance: test.distance });
  }
  // A Python file of the test folder that pytest does not collect by name (test_*.py, *_test.py) and that declares no
  // test (bottle's test/__init__.py, which sets up coverage) takes no place in the command.
  const declaresNoTests = (path: string): boolean =>
    getSourceLanguage(path) === 'python' &&
    !/(?:^|\/)(?:test_[^/]*|[^/]*_test)\.py$/.test(path) &&
    facts.get(path)?.facts.tests.length === 0;
  return planTestRun({
    tests: tests
      .filter((test) => !declaresNoTests(test.path))
      .map((test) => withScriptFlags(selectors, toTestToRun(kg, facts, root, selectors, test, goPackageTests))),
    ...(wholeSuite === undefined
      ? {}
      : {
          fullSuiteReason: isData(wholeSuite)
            ? `${wholeSuite.path} changed (data no code imports): any test may read it; tests.dependsOn can say which`
            : `${wholeSuite.path} changed (${wholeSuite.changeKind}): it can change how every test builds or runs`,
        }),
    hasRuntimeChange:
      importedData.length > 0 ||
      changedFiles.some(
        (file) => (file.changeKind === 'runtime' || file.changeKind === 'test') && getUnparsedLanguage(file.path) === undefined,
      ),
    unparsedLanguages: [
      ...new Set(
        changedFiles
          .filter((file) => file.changeKind === 'runtime' || file.changeKind === 'test')
          .flatMap((file) => getUnparsedLanguage(file.path) ?? []),
      ),
    ],
    packageManager,
  });
}
