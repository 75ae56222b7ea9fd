import { summariseBuildOutputNotes } from './build-output-notes.js';
import { blankBlockComments } from '../text/block-comments.js';
import { readContracts } from './load/contracts.js';
import { getUnparsedLanguage } from '../model/languages.js';
import { toTestRun } from './test-run.js';
import {
  type ChangedTarget,
  findChangedCallees,
  findChangedCollaborators,
  findIntroducedNames,
  findChangedLiterals,
  findSiblingLiterals,
  findContextLines,
  findExportedCallers,
  isNamedTestOf,
  scoreTestRelevance,
  type TestText,
  toRoot,
} from '../ranking/test-relevance.js';
import { createTestPlacer } from '../ranking/test-placement.js';
import { compileGlobs } from '../text/glob.js';
import { hashContent } from '../text/content-hash.js';
import type { KnowledgeGraph } from '../graph/build.js';
import { toFileId } from '../graph/ids.js';
import { findChangedExports } from '../graph/queries/find-changed-exports.js';
import { findContractCrossings } from '../graph/queries/find-contract-crossings.js';
import { findImpactedAreas } from '../graph/queries/find-impacted-areas.js';
import { findReachingTests } from '../graph/queries/find-reaching-tests.js';
import { findReverseReach } from '../graph/queries/reverse-reach.js';
import { findRouteImpacts, type RouteChange } from '../graph/queries/find-route-impacts.js';
import { findChangedRoutes } from '../graph/queries/find-changed-routes.js';
import { findCallingTests, findHttpImpactedFiles, findRouteCallers } from '../graph/queries/find-route-callers.js';
import { findSymbolImpacts } from '../graph/queries/find-symbol-impacts.js';
import { isOmittedMarker, isShownWhole, MAX_SHOWN_PATH, SHOWN_PATH_END } from '../graph/queries/shown-path.js';
import { classifyRole, getLanguage, isRunnerNamedTest } from '../graph/roles.js';
import { getCommentSyntax } from '../rules/facts-text.js';
import { createPythonOrGoSyntax } from '../rules/semantic-languages.js';
import { isMessageTextOnly } from '../rules/message-text.js';
import type { SkipReason } from '../model/scan.js';
import type { ChangeAnalysis, ChangedFileEvidence, ImpactedFile, ImpactedRoute, ReviewContext, SymbolImpact } from '../model/analysis.js';
import type { ChangeSet, ChangedExport, ChangedFile } from '../model/change.js';
import type { ChangedPathProof, ChangedSymbol, CoverageEvidence, ReachingTest } from '../model/coverage.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Env, GitAccess, HistoryEntry, LinkKeys, RevisionRange } from '../model/env.js';
import { MAX_FUNCTION_REFS } from '../graph/parse/go/go-references.js';
import { type ExportFact, type FileFacts, type FunctionFact, getSourceLanguage, isCodeFile, type SignalWordLists } from '../model/facts.js';
import type { MemoryNode } from '../model/graph.js';
import type { Config } from '../model/config.js';
import { classifyChangeKind, NON_RUNTIME_KINDS } from '../rules/change-kind.js';
import { findCompiledSource } from '../graph/resolve/compiled-source.js';
import { createPathClassifier, mergeClassifiers, type PathClassifier } from '../rules/classifiers.js';
import { deriveChangedPathProof, isCoverageFreshFor, namesChangedSymbol, summarizeTestEvidence, toChangedLines } from '../rules/proof.js';
import { type ProofMessages, renderChangedPathProof, toProofMessages } from '../rules/proof-messages.js';
import { buildRepositoryGraph, completeFacts, DEFAULT_MAX_FILE_BYTES, type RepositoryGraph } from './build-graph.js';
import { evaluateChangeRules } from './evaluate-change.js';
import { findStaleAssertionEvidence } from './asserted-literals.js';
import { loadConfig } from './load/load-config.js';
import { loadDecayHistory, type LoadedHistory, loadMinedHistory } from './load/history.js';
import { findCoChangePartners } from '../graph/history/co-change.js';
import { deriveHistoryInsights, keepJudgedInsights } from '../graph/history/insights.js';
import { listHotspotCandidates, planComplexityReads, toHotspotField } from '../graph/history/hotspots.js';
import type { CoChangePartner, HistoryInsights } from '../model/history.js';
import { loadRulePacks } from './load/load-rule-packs.js';
import { readRepoText, readRepoTexts } from './load/repo-text.js';
import { markStaleUses } from './stale-uses.js';
import {
  createDeclaredTests,
  createSetupFileTests,
  createSpawningTests,
  findEachFileRouteCallers,
  listUnreadUnseenTests,
} from './unseen-reach.js';
import { linkWeakTests } from './weak-test-links.js';
import { loadRunnerSelectors } from './load/runner-configs.js';
import type { RunnerSelectors, UnreadRunnerConfig } from './test-runners.js';
import { compileLinkTest, deriveLinkKeys } from '../graph/resolve/link-keys.js';
import { loadCoverage } from './load/load-coverage.js';
import { readLatestExecution } from './load/execution-evidence.js';
import { countOf } from '../text/plural.js';
import { splitWords } from '../text/split-words.js';
import { decodeWords } from '../text/word-field.js';

const MAX_TEXT_BYTES = 2 * 1024 * 1024;
const HISTORY_COMMITS = 200;
const BASE_SIDE_PREFIX = 'base-side-of/';

export interface AnalyzeOptions extends RevisionRange {
  /** Reuse an already built graph (the MCP server keeps one warm). */
  repository?: RepositoryGraph;
  /** The change of exactly this range (with the configured default branch), when the caller read it already. */
  change?: ChangeSet;
  /** `startHistoryReads` of that change, when the caller started them while it built the graph. */
  historyReads?: HistoryReads;
}

/** A read whose failures became diagnostics, kept apart until the analysis reaches the place it would have read. */
interface Gathered<T> {
  value: T;
  diagnostics: Diagnostic[];
}

/** The history a change's analysis reads (decay window, mined window): they need the change and the configuration, not the graph. */
export interface HistoryReads {
  decay: Promise<Gathered<HistoryEntry[]>>;
  mined: Promise<Gathered<LoadedHistory | undefined>>;
}

/**
 * Starts the change's history reads. analyzeChange starts them once it has the change, so that git's object reads
 * overlap its own work; a caller that reads the change before building the graph (analysis-memo.ts, a focused cold
 * run) starts them then, while the parse children work. Their diagnostics land where the analysis reads them.
 */
export function startHistoryReads(env: Env, git: GitAccess, change: ChangeSet, config: Config): HistoryReads {
  const gather = <T>(read: (diagnostics: Diagnostic[]) => Promise<T>): Promise<Gathered<T>> => {
    const diagnostics: Diagnostic[] = [];
    const gathered = read(diagnostics).then((value) => ({ value, diagnostics }));
    // Awaited later (or never, when the build fails first): a failure is the analysis's to throw, not an unhandled rejection.
    gathered.catch(() => undefined);
    return gathered;
  };
  return {
    decay: gather((diagnostics) => readBoundedHistory(env, git, change, diagnostics)),
    mined: gather((diagnostics) => readMinedWindow(env, git, change, config, diagnostics)),
  };
}

async function take<T>(read: Promise<Gathered<T>>, limitations: Diagnostic[]): Promise<T> {
  const { value, diagnostics } = await read;
  limitations.push(...diagnostics);
  return value;
}

/** The range analyzeChange reads: the one asked, with the configured default branch. */
export function toChangeRange(range: RevisionRange, defaultBranch: string | undefined): RevisionRange {
  return { ...pickRange(range), ...(defaultBranch === undefined ? {} : { defaultBranch }) };
}

/** Every path of the change, both sides of a rename: what a focused build (build-graph.ts) starts from. */
export function listChangePaths(change: ChangeSet): string[] {
  return [...new Set(change.files.flatMap((file) => (file.previousPath === undefined ? [file.path] : [file.path, file.previousPath])))];
}

/** Everything a change needs beyond the graph: the git range, both sides' texts and facts. */
interface ChangeSides {
  change: ChangeSet;
  headText: Map<string, string>;
  baseText: Map<string, string>;
  headFacts: Map<string, FileFacts>;
  baseFacts: Map<string, FileFacts>;
  /** Changed files with a side over `analysis.maxFileBytes`: diffed and classified, but that side is not parsed. */
  unparsed: string[];
}

/** The deterministic evidence of a git range: impact, proof, weak and missing tests, risk, edge cases, context. */
export async function analyzeChange(env: Env, options: AnalyzeOptions = {}): Promise<ChangeAnalysis> {
  const git = await env.openGit();
  const defaultBranch = (options.repository?.config ?? (await loadConfig(env))).config.analysis?.defaultBranch;
  const change = options.change ?? (await git.readChange(toChangeRange(options, defaultBranch)));
  const repository =
    options.repository ?? (await buildRepositoryGraph(env, undefined, { focus: { changedPaths: async () => listChangePaths(change) } }));
  const historyReads = options.historyReads ?? startHistoryReads(env, git, change, repository.config.config);
  // Loaded once: the signal words parse the changed sides, the path classes decide change kinds, and the rules run on the same packs below.
  const packs = await loadRulePacks(env);
  const classifiers = mergeClassifiers(packs.packs);
  const sides = await readChangeSides(env, git, repository, change, classifiers.signals);
  const worktreeDrift = await countWorktreeDrift(git, change);
  const seeds = change.files.filter((file) => file.status !== 'deleted').map((file) => file.path);
  const reached = findReverseReach(repository.kg, seeds);
  const bearing = await selectBearingGaps(env, repository, [...listChangePaths(change), ...reached.map((item) => item.path)]);
  const limitations: Diagnostic[] = [...bearing.limitations, ...describeRangeLimits(change, bearing.unresolvedImports, worktreeDrift)];
  if (sides.unparsed.length > 0) limitations.push(describeUnparsedSides(sides.unparsed, repository));
  if (change.files.length === 0) {
    limitations.push({
      code: 'analysis/no-changes',
      severity: 'info',
      message: `No file differs between ${change.base.ref} and ${change.head.ref}: there is nothing to analyse.`,
      hint: 'Choose the range with --base (and --head), e.g. --base main or --base HEAD~1.',
    });
  }

  const trackedPaths = new Set(await git.listTrackedFiles());
  const pathClasses = createPathClassifier(classifiers);
  const proofMessages = toProofMessages(packs.packs);
  const changedFiles = change.files.map((file) => toChangedFileEvidence(repository.kg, file, sides, trackedPaths, pathClasses));
  const changedExports = changedFiles.flatMap((file) => file.changedExports);
  const impactedFiles: ImpactedFile[] = reached.map((item) => ({
    id: toFileId(item.path),
    path: item.path,
    distance: item.distance,
    via: item.via,
    typeOnly: item.typeOnly,
    role: classifyRole(item.path),
  }));
  limitations.push(...describeDeletedDependents(repository, change));
  const routeChanges = toRouteChanges(change, sides);
  const impactedRoutes = findRouteImpacts(repository.kg, routeChanges, reached);
  // Client code that calls a reached route over HTTP is impacted too, whatever language serves the route.
  const routeCallers = findRouteCallers(repository.kg, impactedRoutes);
  impactedFiles.push(...findHttpImpactedFiles(repository.kg, routeCallers, new Set([...seeds, ...impactedFiles.map((file) => file.path)])));
  const testRouteCallers = [...routeCallers, ...findEachFileRouteCallers(repository, routeChanges, routeCallers)];
  // A Go package's files all import one another: a file of the package uses a changed member only where its code says
  // it (`binder_test.go` cannot call the `BindingError.MarshalJSON` the change adds; gin's `auth.go` does not call
  // `Context.SaveUploadedFile`). The proof's test and the bundle's list of users both read this.
  const readText = (path: string): Promise<string | undefined> =>
    change.head.oid === undefined ? readRepoText(env, path, MAX_TEXT_BYTES) : git.readFileAtRevision(change.head.oid, path);
  const impacts = findSymbolImpacts(repository.kg, changedExports).map((impact) => ({
    ...impact,
    importers: impact.importers.filter(
      (importer) =>
        getLanguage(importer.path) !== 'go' ||
        importer.use !== 'namespace' ||
        saysMember(repository, importer.path, impact.name, impact.path),
    ),
  }));
  // An export the change removes that an importer still names breaks it: the bundle asks for the importer's update.
  const symbolImpacts = await markStaleUses(impacts, {
    facts: repository.parsed.facts,
    baseFacts: sides.baseFacts,
    changedExports,
    readText,
  });
  const impactedAreas = findImpactedAreas(
    repository.kg,
    change.files.map((file) => file.path),
    impactedFiles.map((file) => file.path),
  );

  // The latest checker execute run's passing checks wrote V8 coverage under .checker/local/: runtime proof with the check named.
  const execution = await readLatestExecution(env, limitations);
  const coverage = await loadCoverage(env, { trackedPaths, paths: execution?.folders ?? [] });
  limitations.push(...coverage.diagnostics);
  const newestChange = await findNewestChangeTime(env, git, change);
  const reachingTestsByPath = new Map<string, ReachingTest[]>();
  const proofByPath = new Map<string, ChangedPathProof>();
  const updatedTests = changedFiles.filter((file) => file.changeKind === 'test' && file.status !== 'deleted').map((file) => file.path);
  // Tests of a package that ships its build output often import the output (`zod/v4` → v4/index.js): a test
  // that reaches the compiled mirror of a changed source reaches that source's code too.
  const mirrors = new Map<string, string[]>();
  for (const { compiledFrom, path } of changedFiles)
    if (compiledFrom !== undefined) mirrors.set(compiledFrom, [...(mirrors.get(compiledFrom) ?? []), path]);
  const runnerSelectors = await loadRunnerSelectors(
    env,
    repository.scan.files.map((file) => file.path),
  );
  // A focused build read some suites for their links alone: those a reached setup file or a declared dependency makes
  // tests of the change are read in full first, as a build from full facts reads them.
  const unseen = listUnreadUnseenTests(repository, runnerSelectors.setup, listChangePaths(change));
  if (unseen.length > 0) await completeFacts(env, repository, unseen);
  const findDeclaredTests = createDeclaredTests(repository);
  const findSpawningTests = await createSpawningTests(env, repository);
  const findSetupTests = createSetupFileTests(repository, runnerSelectors.setup);
  // A runner's setup file declares no test of its own: it is run with the tests, never listed as one.
  const isSetupFile = (path: string): boolean => runnerSelectors.setup.some((setup) => setup.isSetupFile(path));
  // Asked once per reaching test file, however many changed files it reaches (a release range has thousands).
  const noTestToExtend = new Map<string, boolean>();
  const isNoTestToExtend = (path: string): boolean => {
    let known = noTestToExtend.get(path);
    if (known === undefined) {
      const facts = repository.parsed.facts.get(path)?.facts;
      // A case, not a suite: socket.io's test/index.ts is one `describe` that requires every suite file. A file other
      // tests import is their helper when it exports something to them (h3's describeMatrix); one that exports nothing
      // is a suite an aggregating file includes (`require("./messaging-many")`), and a test of its own.
      known =
        !isRunnerNamedTest(path) &&
        (facts?.tests.every((test) => test.kind !== 'test') === true ||
          ((facts?.exports.length ?? 0) > 0 && isImportedByTest(repository.kg, path)));
      noTestToExtend.set(path, known);
    }
    return known;
  };
  // Where a new test of a changed file goes, as the repository's own source and test pairs place theirs.
  const placeTest = createTestPlacer(repository.scan.files.map((file) => file.path));
  const declaredPaths = new Set(change.files.filter((file) => findDeclaredTests(file.path).length > 0).map((file) => file.path));
  const changedTargets = new Map<string, ChangedTarget>();
  // The tests that changed with each changed file in the history (tomlkit's tests/test_toml_document.py in 17 of the 23
  // commits that changed container.py): the proof extends one of them before a test that only says the file's words.
  const history = await take(historyReads.decay, limitations);
  const mined = await take(historyReads.mined, limitations);
  // Found once: the proofs weigh the test partners, the history insights name the partners the change missed.
  const coChange = mined === undefined ? undefined : findCoChangePartners(mined.history, listChangePaths(change));
  const testPartners = findTestPartners(coChange, (path) => classifyRole(path) === 'test');
  // Every test that reaches a changed file, found before any is read: a focused cold run read some of them for their
  // links alone (tests reached through a route's callers or a declared dependency import nothing the change touches),
  // and their cases, titles and words must be what a later run reads (outline's 75 such tests were taken for type
  // tests, and the proof's order changed, between a first run and the next).
  const foundTests = new Map<string, ReachingTest[]>();
  for (const file of change.files) {
    const imported = findReachingTests(repository.kg, file.status === 'deleted' ? (file.previousPath ?? file.path) : file.path);
    const own = [
      ...imported,
      ...findCallingTests(repository.kg, testRouteCallers, file.path).filter(
        (test) => !imported.some((known) => known.testFile === test.testFile),
      ),
    ];
    const all = [
      ...own,
      ...(mirrors.get(file.path) ?? []).flatMap((mirror) => findReachingTests(repository.kg, mirror)),
      ...[...findDeclaredTests(file.path), ...findSpawningTests(file.path), ...findSetupTests(file.path)].filter(
        (test) => !own.some((reached) => reached.testFile === test.testFile),
      ),
    ].filter((test) => !isSetupFile(test.testFile));
    foundTests.set(file.path, all);
  }
  const linkOnly = repository.parsed.linkOnly;
  const unread = [...foundTests.values()]
    .flatMap((tests) => tests.map((test) => test.testFile))
    .filter((path) => linkOnly?.has(path) === true);
  if (unread.length > 0) await completeFacts(env, repository, [...new Set(unread)]);
  for (const file of change.files) {
    const all = foundTests.get(file.path) ?? [];
    const changedLines = toChangedLines(file.hunks);
    const routes = findChangedRoutes(repository.kg, file.path, changedLines);
    const target: ChangedTarget = {
      path: file.path,
      names: findChangedNames(file, sides, changedExports),
      context: findContextLines(sides.headText.get(file.path) ?? '', changedLines),
      literals: findChangedLiterals(sides.headText.get(file.path) ?? '', changedLines),
      callees: [
        ...findChangedCallees(sides.headText.get(file.path) ?? '', changedLines),
        ...findChangedCollaborators(sides.headText.get(file.path) ?? '', changedLines),
      ],
      siblings: findSiblingLiterals(sides.headText.get(file.path) ?? '', changedLines),
      introduced: findIntroducedNames(sides.headText.get(file.path) ?? '', sides.baseText.get(file.path), changedLines),
      ...(routes.length === 0 ? {} : { routes }),
      members: (sides.headFacts.get(file.path)?.callables ?? []).map((callable) => callable.name),
    };
    const callers = findExportedCallers(sides.headFacts.get(file.path), new Set(target.names));
    if (callers.length > 0) target.callers = callers;
    changedTargets.set(file.path, target);
    const reachingTests = scoreReachingTests(repository, all, target, testPartners.get(file.path));
    reachingTestsByPath.set(file.path, reachingTests);
    proofByPath.set(
      file.path,
      deriveProof(
        file,
        reachingTests,
        coverage,
        newestChange,
        changedExports,
        symbolImpacts,
        sides.headFacts.get(file.path) ?? { exports: [], functions: [] },
        updatedTests,
        proofMessages,
        sides.headText.get(file.path),
        findBrowserRunTests(sides.headText.get(file.path), reachingTests, runnerSelectors),
        isSetupFile,
        // A file under a test folder that is not named as a test is no test to extend when it declares no test case
        // (msw's `*.mocks.ts`, a page script a browser test loads by path) or other tests import it (h3's
        // test/_setup.ts, whose `describeMatrix` calls `it` for them). A test-named file may declare its cases through
        // a helper checker does not follow: it stays one.
        // The same for a file that imports the changed symbol without reaching as a test (a fixture a test spawns).
        [
          ...new Set([
            ...reachingTests.map((test) => test.testFile),
            ...symbolImpacts
              .filter((impact) => impact.path === file.path)
              .flatMap((impact) => impact.importers.map((importer) => importer.path)),
          ]),
        ].filter(isNoTestToExtend),
        placeTest(file.path),
        isMessageTextOnly(sides.baseText.get(file.path), sides.headText.get(file.path), file.hunks, getLanguage(file.path) === 'python'),
        reachingTests.map((test) => test.testFile).filter((path) => isConditionalTestFile(repository.parsed.facts.get(path)?.facts)),
      ),
    );
  }
  limitations.push(...describeShortenedChains(impactedFiles, impactedRoutes, reachingTestsByPath));
  const testEvidence = summarizeTestEvidence(coverage, newestChange === undefined ? undefined : new Date(newestChange).toISOString());

  const historyInsights = await readHistoryInsights(env, repository, change, trackedPaths, mined, coChange);
  const contracts = await readContracts(env, limitations);
  const memory = matchMemory(
    repository.kg,
    change.files.map((file) => file.path),
  );
  const assertedLiterals = await findStaleAssertionEvidence(
    env,
    { repository, changedFiles, headText: sides.headText, baseText: sides.baseText, reachingTestsByPath },
    limitations,
  );
  const evaluated = await evaluateChangeRules(env, {
    assertedLiterals,
    repository,
    change,
    sides,
    changedFiles,
    impactedFiles,
    impactedRoutes,
    reachingTestsByPath,
    proofByPath,
    history,
    ...(historyInsights === undefined ? {} : { historyInsights }),
    memory,
    hasCoverage: coverage.sources.length > 0,
    packs,
  });
  limitations.push(...evaluated.diagnostics);
  for (const file of changedFiles) file.lowSignal = evaluated.lowSignalPaths.has(file.path);

  const context: ReviewContext = {
    owners: collectOwners(repository.kg, changedFiles, impactedFiles),
    decisions: matchDecisions(repository.kg, [...seeds, ...impactedFiles.map((file) => file.path)]),
    memory: memory.map((entry) => ({
      id: entry.id,
      kind: entry.node.memoryKind,
      ...(entry.node.title === undefined ? {} : { title: entry.node.title }),
      text: entry.node.text,
      matchedBy: entry.matchedBy,
    })),
    contracts: findContractCrossings(repository.kg, contracts, { files: seeds }),
    patterns: evaluated.patterns,
    tools: evaluated.tools,
    ...(evaluated.repositoryShape === undefined ? {} : { repositoryShape: evaluated.repositoryShape }),
    ...(historyInsights === undefined ? {} : { history: historyInsights }),
  };

  // Docs, config, lockfiles, generated files, renames, comment and type-only changes do not run, and a changed test is
  // itself proof: no proof obligation for any of them, and the proof-state counts are those of this table.
  // A file in a language checker does not parse has no import graph here: no proof obligation, one limitation per language.
  // Nor has a file that is no code at all (a fixture without an extension, a template, a stylesheet): no test imports it.
  limitations.push(...describeUnparsedLanguages(changedFiles));
  limitations.push(...describeUnreadRunnerConfigs(runnerSelectors.unread));
  const changedPathProof = changedFiles
    .filter(
      (file) =>
        !NON_RUNTIME_KINDS.has(file.changeKind) &&
        file.changeKind !== 'test' &&
        getUnparsedLanguage(file.path) === undefined &&
        classifyRole(file.path) !== 'other',
    )
    .map((file) => proofByPath.get(file.path))
    .filter((proof): proof is ChangedPathProof => proof !== undefined);
  const proofStates: Record<string, number> = {};
  for (const proof of changedPathProof) proofStates[proof.state] = (proofStates[proof.state] ?? 0) + 1;
  const reachingTests = new Set([...reachingTestsByPath.values()].flat().map((test) => test.testFile));
  const weakTests = await linkWeakTests(repository, change, evaluated.weakTests, {
    reachingTestsByPath,
    targets: changedTargets,
    readText,
  });
  return {
    range: { base: change.base, head: change.head },
    changedFiles,
    impactedFiles,
    impactedRoutes,
    symbolImpacts,
    impactedAreas,
    changedPathProof,
    testEvidence,
    testRun: toTestRun(repository.kg, repository.parsed.facts, changedFiles, reachingTestsByPath, declaredPaths, runnerSelectors),
    weakTests,
    missingTests: evaluated.missingTests,
    staleAssertions: evaluated.staleAssertions,
    summary: {
      changedFiles: changedFiles.length,
      impactedFiles: impactedFiles.length,
      impactedRoutes: impactedRoutes.length,
      reachingTests: reachingTests.size,
      mergeRisk: evaluated.mergeRisk,
      mergeRiskBreakdown: evaluated.mergeRiskBreakdown,
      decay: evaluated.decay,
      decayBreakdown: evaluated.decayBreakdown,
      proofStates,
    },
    edgeCases: evaluated.edgeCases,
    context,
    findings: evaluated.findings,
    unresolvedImports: bearing.unresolvedImports.map(({ from, specifier, line, reason }) => ({ from, specifier, line, reason })),
    limitations: dedupeDiagnostics(limitations),
  };
}

/** At most this many files are named in the unparsed-language limitation. */
const UNPARSED_NAMED = 5;

/**
 * One limitation per language checker reads as text only (Ruby, Java, …) among the changed source files: their
 * imports, tests and proof are not analysed, so no test task is made for them.
 */
function describeUnparsedLanguages(changedFiles: readonly ChangedFileEvidence[]): Diagnostic[] {
  const byLanguage = new Map<string, string[]>();
  for (const file of changedFiles) {
    if (file.status === 'deleted' || (file.changeKind !== 'runtime' && file.changeKind !== 'test')) continue;
    const language = getUnparsedLanguage(file.path);
    if (language !== undefined) byLanguage.set(language, [...(byLanguage.get(language) ?? []), file.path]);
  }
  return [...byLanguage].map(([language, paths]) => {
    const named = paths.slice(0, UNPARSED_NAMED);
    const more = paths.length > named.length ? ` and ${paths.length - named.length} more` : '';
    return {
      code: 'analysis/language-not-parsed',
      severity: 'warn',
      message: `${countOf(paths.length, 'changed file')} in ${language} (${named.join(', ')}${more}): checker parses JavaScript, TypeScript, Python and Go only, so their imports, reaching tests and proof are not analysed and no test task is made for them.`,
      hint: `Run the ${language} tests that cover these files yourself; their merge risk here rests on their paths and changed lines alone.`,
      location: { file: paths[0] ?? '' },
      evidenceIds: paths.map((path) => `file:${path}`),
    };
  });
}

/**
 * The names a test of `file` would say: the callables whose lines the change touched (head side, and base side for
 * deleted lines) and its changed exports.
 */
function findChangedNames(file: ChangedFile, sides: ChangeSides, changedExports: readonly ChangedExport[]): string[] {
  const names = new Set(changedExports.filter((changed) => changed.path === file.path).map((changed) => changed.name));
  // A binding an import makes (`const ExceptionStream = require('./exception-stream')`) is another module's code: a
  // changed import line names no callable of this file, and a test named for the import tests that module (winston's
  // rejection-handler.js swapped ExceptionStream for RejectionStream; its proof went to exception-stream.test.js).
  const touch = (facts: FileFacts | undefined, lines: readonly number[]): void => {
    const imported = new Set(facts?.imports.flatMap((fact) => fact.names.map((name) => name.local)));
    const within = (span: { start: number; end: number }) => (line: number) => line >= span.start && line <= span.end;
    const named = new Set<number>();
    for (const callable of facts?.callables ?? []) {
      const inside = lines.filter(within(callable.span));
      if (imported.has(callable.name) || inside.length === 0) continue;
      names.add(callable.name);
      for (const line of inside) named.add(line);
    }
    // A line no callable holds may sit in a function assigned to a member (find-my-way's `Router.prototype.findRoute =
    // function findNode (…)`, which its test find-route.test.js names): the outermost such function names it.
    const rest = lines.filter((line) => !named.has(line));
    if (rest.length === 0) return;
    const outermost = (facts?.functions ?? []).filter(
      (fn, _index, all) =>
        rest.some(within(fn.span)) &&
        !all.some(
          (other) => other !== fn && other.span.start <= fn.span.start && other.span.end >= fn.span.end && rest.some(within(other.span)),
        ),
    );
    for (const fn of outermost) if (!imported.has(fn.name) && fn.name !== 'default') names.add(fn.name);
  };
  touch(sides.headFacts.get(file.path), toChangedLines(file.hunks));
  touch(
    sides.baseFacts.get(file.path),
    file.hunks.flatMap((hunk) => Array.from({ length: hunk.oldLines }, (_, index) => hunk.oldStart + index)),
  );
  return [...names];
}

/** Whether another test file imports `path`: it is then a helper of those tests, whatever it calls itself. */
function isImportedByTest(kg: RepositoryGraph['kg'], path: string): boolean {
  const id = toFileId(path);
  if (!kg.graph.hasNode(id)) return false;
  let imported = false;
  kg.graph.forEachInEdge(id, (_edge, attributes, _source, _target, sourceAttributes) => {
    if (attributes.kind === 'imports' && sourceAttributes.kind === 'file' && sourceAttributes.role === 'test') imported = true;
  });
  return imported;
}

/**
 * Whether a file's code says the last segment of `name` (`MarshalJSON` of `BindingError.MarshalJSON`): as one whole
 * name when it has several words, else as a word. A method named by one word (`HeaderRouter.Handler`) is said by
 * files that never touch its type (chi's `strip_test.go` says `http.Handler`): the file must also say the receiver,
 * or another name of several words that `declaredIn` exports (`RouteHeaders()`, which builds one). A file whose words
 * were not kept is taken to say it.
 */
function saysMember(repository: RepositoryGraph, path: string, name: string, declaredIn: string): boolean {
  const facts = repository.parsed.facts.get(path)?.facts;
  const words = facts?.words;
  if (facts === undefined || words === undefined) return true;
  const exported = repository.parsed.facts.get(declaredIn)?.facts.exports ?? [];
  // A file of the same package names the package's declarations unqualified, as its functions' references keep them.
  if (getFolder(path) === getFolder(declaredIn) && refersToOwner(facts, name, exported) === false) return false;
  const dot = name.lastIndexOf('.');
  const parts = splitWords(name.slice(dot + 1));
  const names = decodeWords(words.names);
  if (parts.length > 1) return names.has(parts.join(''));
  const code = decodeWords(words.code);
  if (!parts.every((part) => code.has(part))) return false;
  if (dot === -1) return true;
  const receiver = splitWords(name.slice(0, dot));
  if (receiver.length === 1 ? code.has(receiver[0] ?? '') : names.has(receiver.join(''))) return true;
  // A constructor names what it builds: `RouteHeaders()` a HeaderRouter (a word's root shared). Any other export of the
  // file is no evidence: go-resty's client_test.go says util.go's exports and `err.Error()`, and never a restyError.
  const receiverRoots = new Set(receiver.map(toRoot));
  return exported.some((item) => {
    const said = splitWords(item.name);
    return said.length > 1 && said.some((word) => receiverRoots.has(toRoot(word))) && names.has(said.join(''));
  });
}

function getFolder(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf('/')));
}

/**
 * Whether a Go file's functions refer to what `name` is declared on (`Handler` of `Handler.WithAttrs`, or `NewHandler`
 * itself): by name (`Handler{}`, `*Handler`, `NewHandler()`), through a member (`Handler.x`), or through a constructor
 * the declaring file exports that shares a word root with it (`NewHandler()` builds a Handler). logrus's slog_test.go
 * says `slog.Handler` and declares its own `WithAttrs`, and never names the package's Handler. Undefined when the
 * file's references are not all known: no function of it was read, or one's list is full.
 */
function refersToOwner(facts: FileFacts, name: string, exported: readonly ExportFact[]): boolean | undefined {
  const refs = readFunctionRefs(facts);
  if (refs === undefined) return undefined;
  const owner = name.slice(0, name.includes('.') ? name.indexOf('.') : undefined);
  if (refs.names.has(owner) || refs.owners.has(owner)) return true;
  const ownerRoots = new Set(splitWords(owner).map(toRoot));
  return exported.some(
    (item) => refs.names.has(item.name) && item.name !== owner && splitWords(item.name).some((word) => ownerRoots.has(toRoot(word))),
  );
}

/** Per file's facts, what its functions refer to, once: asked for every changed export and every file of its package. */
const functionRefs = new WeakMap<FileFacts, { names: Set<string>; owners: Set<string> } | undefined>();

/** The names a file's functions refer to and the owners of the members among them (`Handler` of `Handler.x`). */
function readFunctionRefs(facts: FileFacts): { names: Set<string>; owners: Set<string> } | undefined {
  if (functionRefs.has(facts)) return functionRefs.get(facts);
  const callables = facts.callables ?? [];
  const complete = callables.length > 0 && callables.every((callable) => (callable.refs?.length ?? 0) < MAX_FUNCTION_REFS);
  const names = new Set(callables.flatMap((callable) => callable.refs ?? []));
  const refs = complete ? { names, owners: new Set([...names].map((ref) => ref.split('.')[0] ?? ref)) } : undefined;
  functionRefs.set(facts, refs);
  return refs;
}

/** Per changed file, the test files that changed with it in the mined history, strongest first (co-change partners). */
function findTestPartners(
  coChange: ReadonlyMap<string, readonly CoChangePartner[]> | undefined,
  isTest: (path: string) => boolean,
): Map<string, ReadonlyMap<string, number>> {
  const partners = new Map<string, ReadonlyMap<string, number>>();
  for (const [path, found] of coChange ?? []) {
    if (isTest(path)) continue;
    const tests = found.filter((partner) => isTest(partner.partner));
    if (tests.length > 0) partners.set(path, new Map(tests.map((partner) => [partner.partner, partner.confidence])));
  }
  return partners;
}

/** What a test's history with the file weighs among the words it says (a named test's name weighs 3 a term). */
const PARTNER_WEIGHT = 6;

/**
 * Each reaching test with how closely it names what changed in `target` (ranking/test-relevance.ts). When no reaching
 * test is named for the file, a test that changed with it in the history (`partners`, with the share of the file's
 * commits it changed in) weighs as a few words said.
 */
function scoreReachingTests(
  repository: RepositoryGraph,
  tests: readonly ReachingTest[],
  target: ChangedTarget,
  partners: ReadonlyMap<string, number> = new Map(),
): ReachingTest[] {
  if (tests.length === 0) return [];
  const routesCalled = (target.routes?.length ?? 0) > 0;
  const texts = [...new Set(tests.map((test) => test.testFile))].map((path): TestText => {
    const facts = repository.parsed.facts.get(path)?.facts;
    const titles = [...new Set(facts?.tests.flatMap((test) => test.titlePath) ?? [])];
    const text: TestText = facts?.words === undefined ? { path, titles } : { path, titles, words: facts.words };
    if (routesCalled) text.calledRoutes = listCalledRoutes(repository.kg, path);
    return text;
  });
  const scores = scoreTestRelevance(texts, target);
  if (!texts.some((text) => isNamedTestOf(text.path, target.path)))
    for (const [path, confidence] of partners)
      if (scores.has(path)) scores.set(path, (scores.get(path) ?? 0) + PARTNER_WEIGHT * confidence);
  return tests.map((test) => ({ ...test, relevance: scores.get(test.testFile) ?? 0 }));
}

/**
 * Whether every test case of a file runs only where a condition holds: its own `it.skipIf(…)`, or a suite around it
 * (`describe.runIf(…)`) by span and title.
 */
function isConditionalTestFile(facts: Pick<FileFacts, 'tests'> | undefined): boolean {
  const cases = facts?.tests.filter((test) => test.kind === 'test') ?? [];
  const conditions = facts?.tests.filter((test) => test.modifiers.includes('conditional')) ?? [];
  if (cases.length === 0 || conditions.length === 0) return false;
  return cases.every((test) =>
    conditions.some(
      (around) =>
        around.span.start <= test.span.start &&
        test.span.end <= around.span.end &&
        around.titlePath.every((title, index) => test.titlePath[index] === title),
    ),
  );
}

/** The paths of the routes a file requests over HTTP: its `calls` edges. */
function listCalledRoutes(kg: KnowledgeGraph, path: string): string[] {
  const id = toFileId(path);
  const paths: string[] = [];
  if (!kg.graph.hasNode(id)) return paths;
  kg.graph.forEachOutEdge(id, (_edge, attributes, _source, _target, _sourceAttributes, targetAttributes) => {
    if (attributes.kind === 'calls' && targetAttributes.kind === 'route') paths.push(targetAttributes.path);
  });
  return paths;
}

/**
 * The changed lines that hold code: blank and comment-only lines run nothing (commented-out code is removed code), so
 * the proof never asks whether they execute. Without the head text, every line.
 */
function dropCommentLines(lines: readonly number[], headText: string | undefined, path: string): number[] {
  if (headText === undefined) return [...lines];
  // A Python docstring's lines (and a Go raw string's) are no code to cover: the line reader knows where they span.
  const language = getSourceLanguage(path);
  if (language === 'python' || language === 'go') {
    const read = createPythonOrGoSyntax(language).readLines(headText);
    return lines.filter((line) => {
      const entry = read[line - 1];
      return entry !== undefined && !entry.isComment && entry.raw.trim() !== '';
    });
  }
  const syntax = getCommentSyntax(getLanguage(path), path);
  if (syntax === 'none') return [...lines];
  // A line inside a block comment is no code, whether or not it starts with `*`.
  const text = syntax === 'c' ? blankBlockComments(headText) : headText.split('\n');
  const comment = syntax === 'c' ? /^(?:\/\/|\/\*|\*)/ : /^#/;
  return lines.filter((line) => {
    const trimmed = (text[line - 1] ?? '').trim();
    return trimmed !== '' && !comment.test(trimmed);
  });
}

/** Changed and deleted lines per changed file, with both sides' facts, for handler-level route reach. */
function toRouteChanges(change: ChangeSet, sides: ChangeSides): RouteChange[] {
  const routeChanges: RouteChange[] = [];
  for (const file of change.files) {
    if (file.status === 'deleted') continue;
    const routeChange: RouteChange = { path: file.path };
    if (file.status !== 'added' && !file.binary) {
      routeChange.changedLines = toChangedLines(file.hunks);
      routeChange.deletedLines = file.hunks.flatMap((hunk) => Array.from({ length: hunk.oldLines }, (_, index) => hunk.oldStart + index));
    }
    const headFacts = sides.headFacts.get(file.path);
    const baseFacts = sides.baseFacts.get(file.path);
    if (headFacts !== undefined) routeChange.headFacts = headFacts;
    if (baseFacts !== undefined) routeChange.baseFacts = baseFacts;
    routeChanges.push(routeChange);
  }
  return routeChanges;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Partial<Record<K, V>>);
}

function pickRange(options: AnalyzeOptions): RevisionRange {
  const range: RevisionRange = {};
  if (options.base !== undefined) range.base = options.base;
  if (options.head !== undefined) range.head = options.head;
  return range;
}

async function readChangeSides(
  env: Env,
  git: GitAccess,
  repository: RepositoryGraph,
  change: ChangeSet,
  signalWords: SignalWordLists,
): Promise<ChangeSides> {
  const headText = new Map<string, string>();
  const baseText = new Map<string, string>();
  const headFacts = new Map<string, FileFacts>();
  const toParse: { path: string; text: string }[] = [];
  const baseJobs: { path: string; text: string }[] = [];
  const headOid = change.head.oid;
  const baseOid = change.base.oid;
  // The scan's limit: a side larger than the files the graph parses (bundles, vendored compilers) is diffed, not parsed.
  const maxBytes = repository.config.config.analysis?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const isOver = (text: string | undefined): boolean =>
    text !== undefined && text.length > maxBytes / 3 && Buffer.byteLength(text) > maxBytes;
  const unparsed: string[] = [];
  for (const file of change.files) {
    if (file.binary) continue;
    if (file.status !== 'deleted') {
      const text =
        headOid === undefined ? await readRepoText(env, file.path, MAX_TEXT_BYTES) : await git.readFileAtRevision(headOid, file.path);
      if (text !== undefined) {
        headText.set(file.path, text);
        // The graph's facts stand for the head side when it is the working tree, or a commit whose text the working
        // tree holds (a clean checkout of the head, as in CI): the facts cache hashes the file's bytes the same way.
        const cached = repository.parsed.facts.get(file.path);
        if (cached !== undefined && (headOid === undefined || cached.hash === hashContent(text))) headFacts.set(file.path, cached.facts);
        else toParse.push({ path: file.path, text });
      }
    }
    if (file.status !== 'added' && baseOid !== undefined) {
      const basePath = file.previousPath ?? file.path;
      const text = await git.readFileAtRevision(baseOid, basePath);
      if (text !== undefined) {
        baseText.set(file.path, text);
        baseJobs.push({ path: file.path, text });
      }
    }
    // Both sides or neither: one side's exports alone would read as all added or all removed. Only code is parsed at
    // all, so only code is named (a source map over the limit loses nothing).
    if (isCodeFile(file.path) && (isOver(headText.get(file.path)) || isOver(baseText.get(file.path)))) unparsed.push(file.path);
  }
  // A file the scan left out as minified, generated or too deeply nested (mustache.min.js, committed beside its source)
  // is not parsed here either: its exports are a bundle's, and a test task for them asks for something nobody writes.
  // The scan's own limitation names it.
  const leftOut = new Set(
    [...repository.scan.skipped, ...repository.parsed.skipped].filter((skip) => LEFT_OUT_REASONS.has(skip.reason)).map((skip) => skip.path),
  );
  const skipped = new Set([...unparsed, ...change.files.map((file) => file.path).filter((path) => leftOut.has(path))]);
  if (skipped.size > 0) {
    toParse.splice(0, toParse.length, ...toParse.filter((job) => !skipped.has(job.path)));
    baseJobs.splice(0, baseJobs.length, ...baseJobs.filter((job) => !skipped.has(job.path)));
    for (const path of skipped) headFacts.delete(path);
  }
  const assertionHelpers = [...(repository.config.config.analysis?.assertionHelpers ?? [])];
  // One parse call (one pool start) for both sides; base-side paths get a prefix so they cannot
  // collide with the head side. Only their exports and functions are used, which the prefix leaves alone.
  const parsed = await env.parseTexts(
    [...toParse, ...baseJobs.map((job) => ({ path: `${BASE_SIDE_PREFIX}${job.path}`, text: job.text }))],
    { assertionHelpers, signalWords },
  );
  const baseFacts = new Map<string, FileFacts>();
  for (const [path, facts] of parsed) {
    if (path.startsWith(BASE_SIDE_PREFIX)) baseFacts.set(path.slice(BASE_SIDE_PREFIX.length), facts);
    else headFacts.set(path, facts);
  }
  return { change, headText, baseText, headFacts, baseFacts, unparsed };
}

/** Why the scan leaves a file out that says what the file is, not that it could not be read. */
const LEFT_OUT_REASONS: ReadonlySet<SkipReason> = new Set(['minified', 'generated', 'nesting-too-deep']);

function toChangedFileEvidence(
  kg: KnowledgeGraph,
  file: ChangedFile,
  sides: ChangeSides,
  trackedPaths: ReadonlySet<string>,
  pathClasses: PathClassifier,
): ChangedFileEvidence {
  const baseExports: ExportFact[] = sides.baseFacts.get(file.path)?.exports ?? [];
  const headExports: ExportFact[] = sides.headFacts.get(file.path)?.exports ?? [];
  const changedExports: ChangedExport[] = findChangedExports(file, baseExports, headExports);
  const compiledFrom = file.status === 'deleted' ? undefined : findCompiledSource(file.path, (path) => trackedPaths.has(path));
  const evidence: ChangedFileEvidence = {
    id: toFileId(file.path),
    path: file.path,
    status: file.status,
    role: classifyRole(file.path),
    additions: file.additions,
    deletions: file.deletions,
    hunks: file.hunks,
    binary: file.binary,
    changedExports,
    owners: kg.codeowners?.ownersOf(file.path) ?? [],
    lowSignal: false,
    changeKind: classifyChangeKind({
      path: file.path,
      status: file.status,
      binary: file.binary,
      hunks: file.hunks,
      additions: file.additions,
      deletions: file.deletions,
      ...optional('baseText', sides.baseText.get(file.path)),
      ...optional('headText', sides.headText.get(file.path)),
      ...optional('baseTypeSpans', sides.baseFacts.get(file.path)?.typeSpans),
      ...optional('headTypeSpans', sides.headFacts.get(file.path)?.typeSpans),
      ...optional('baseRuntimeHash', sides.baseFacts.get(file.path)?.runtimeHash),
      ...optional('headRuntimeHash', sides.headFacts.get(file.path)?.runtimeHash),
      ...optional('compiledFrom', compiledFrom),
      pathClasses: pathClasses(file.path),
    }),
  };
  if (compiledFrom !== undefined) evidence.compiledFrom = compiledFrom;
  if (file.previousPath !== undefined) evidence.previousPath = file.previousPath;
  return evidence;
}

/**
 * A capability check for a browser API: the module has code that runs only where that API exists. One that picks a
 * value (`typeof window !== 'undefined' ? window : global`, axios's lib/utils.js finding the global object) guards nothing.
 */
const BROWSER_GUARD =
  /\btypeof\s+(?:XMLHttpRequest|window|document|navigator|localStorage|HTMLElement)\s*[!=]==?\s*['"]undefined['"](?!\s*\)*\s*\?)/;

/**
 * For a module whose code a browser capability check guards (axios's `typeof XMLHttpRequest !== 'undefined'` before its
 * XHR adapter), the reaching tests a browser runner (karma) runs: a Node test that reaches the module through the
 * package's entry never runs that code. Empty for any other module, or when no browser runner runs a reaching test.
 */
function findBrowserRunTests(headText: string | undefined, reachingTests: readonly ReachingTest[], selectors: RunnerSelectors): string[] {
  if (headText === undefined || selectors.karma.length === 0 || !BROWSER_GUARD.test(headText)) return [];
  return reachingTests.map((test) => test.testFile).filter((path) => selectors.karma.some((suite) => suite.select(path)));
}

function deriveProof(
  file: ChangedFile,
  reachingTests: ReachingTest[],
  coverage: CoverageEvidence,
  newestChange: number | undefined,
  changedExports: ChangedExport[],
  symbolImpacts: readonly SymbolImpact[],
  head: Pick<FileFacts, 'exports' | 'functions'>,
  updatedTests: readonly string[],
  proofMessages: ProofMessages,
  headText?: string,
  runnableTests: readonly string[] = [],
  isSetupFile: (path: string) => boolean = () => false,
  caselessTests: readonly string[] = [],
  newTestPath?: string,
  messageOnly = false,
  conditionalTests: readonly string[] = [],
): ChangedPathProof {
  const fileCoverage = coverage.files[file.path];
  const judgement = deriveChangedPathProof({
    path: file.path,
    status: file.status,
    changedLines: dropCommentLines(toChangedLines(file.hunks), headText, file.path),
    reachingTests,
    ...(fileCoverage === undefined ? {} : { coverage: { lines: fileCoverage.lines } }),
    coverageFresh: isCoverageFreshFor(coverage, file.path, newestChange === undefined ? undefined : new Date(newestChange).toISOString()),
    changedSymbols: toChangedSymbols(file.path, changedExports, head.exports, head.functions, headText),
    updatedTests: [...updatedTests],
    runnableTests: [...runnableTests],
    caselessTests: [...caselessTests],
    ...(conditionalTests.length === 0 ? {} : { conditionalTests: [...conditionalTests] }),
    ...optional('newTestPath', newTestPath),
    ...(messageOnly ? { messageOnly } : {}),
    symbolTests: symbolImpacts
      .filter((impact) => impact.path === file.path && impact.change !== 'removed')
      .flatMap((impact) =>
        impact.importers
          // A runner's setup file (karma's helper that imports the package) is run with the tests, not extended as one.
          .filter((importer) => namesChangedSymbol(importer) && classifyRole(importer.path) === 'test' && !isSetupFile(importer.path))
          .map((importer) => ({
            path: importer.path,
            name: impact.name,
            whole: importer.use === 'namespace' && getLanguage(importer.path) !== 'go',
          })),
      )
      .reduce<{ path: string; names: string[]; whole: boolean }[]>((tests, entry) => {
        const known = tests.find((test) => test.path === entry.path);
        if (known === undefined) tests.push({ path: entry.path, names: [entry.name], whole: entry.whole });
        else {
          if (!known.names.includes(entry.name)) known.names.push(entry.name);
          known.whole &&= entry.whole;
        }
        return tests;
      }, [])
      .sort((left, right) => right.names.length - left.names.length || (left.path < right.path ? -1 : left.path > right.path ? 1 : 0)),
  });
  const proof = renderChangedPathProof(judgement, proofMessages);
  const checks = fileCoverage?.checks ?? [];
  if (checks.length === 0 || (proof.state !== 'runtime-proven' && proof.state !== 'runtime-unproven')) return proof;
  const named = checks.map((check) => `check ${check}`).join(', ');
  return {
    ...proof,
    reason: `${proof.reason.replace(/\.$/, '')}; runtime evidence from ${named} (checker execute)`,
    runtimeChecks: checks,
  };
}

/** Changed runtime exports of a file with the verb a test uses on each; type-only exports are left out (they do not run). */
function toChangedSymbols(
  path: string,
  changedExports: readonly ChangedExport[],
  headExports: readonly ExportFact[],
  headFunctions: readonly FunctionFact[],
  headText = '',
): ChangedSymbol[] {
  const kinds = new Map(headExports.map((fact) => [fact.name, fact]));
  const lines = headText.split('\n');
  // `export default class Request` (node-fetch): a test constructs it.
  const isClass = (fact: ExportFact | undefined): boolean =>
    fact?.kind === 'default' && /(?:^|\s)class\s/.test(lines[fact.span.start - 1] ?? '');
  // `export default locale` of an object (dayjs's locales): a test uses it; only a function is called.
  const isValue = (fact: ExportFact | undefined): boolean =>
    fact?.kind === 'default' && fact.local !== undefined && !headFunctions.some((declared) => declared.name === fact.local);
  const symbols: ChangedSymbol[] = [];
  for (const item of changedExports) {
    if (item.path !== path || item.change === 'removed') continue;
    const fact = kinds.get(item.name);
    if (fact?.typeOnly === true || fact?.kind === 'type' || fact?.kind === 'interface') continue;
    const component = /\.[jt]sx$/.test(path) && /^[A-Z]/.test(item.name) && (fact?.kind === 'function' || fact?.kind === 'variable');
    const verb: ChangedSymbol['verb'] = component
      ? 'renders'
      : fact?.kind === 'class' || isClass(fact)
        ? 'constructs'
        : fact?.kind === 'variable' || fact?.kind === 'enum' || fact?.kind === 'cjs' || isValue(fact)
          ? 'uses'
          : 'calls';
    symbols.push({ name: item.name, verb });
  }
  return symbols;
}

/** The time of the newest change: the head commit's time, or the newest modified working-tree file. */
async function findNewestChangeTime(env: Env, git: GitAccess, change: ChangeSet): Promise<number | undefined> {
  if (change.head.oid !== undefined) return git.commitTime(change.head.oid);
  let newest: number | undefined;
  for (const file of change.files) {
    if (file.status === 'deleted') continue;
    const found = await env.files.stat(file.path);
    if (!found.ok || found.kind !== 'file' || found.isSymlink) continue;
    if (newest === undefined || found.mtimeMs > newest) newest = found.mtimeMs;
  }
  return newest;
}

/** A runner configuration that could not be read: the runners of the tests under it were chosen by convention. */
function describeUnreadRunnerConfigs(unread: readonly UnreadRunnerConfig[]): Diagnostic[] {
  return unread.map(
    ({ path, reason }): Diagnostic => ({
      code: 'tests/runner-config-unread',
      severity: 'info',
      message: `The test runner configuration ${path} could not be read: ${reason}. Tests under ${path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : 'the repository root'} that it does not select get their runner by convention.`,
      hint: 'Make the file valid JSON, or list its test files as literal patterns, so that the test plan runs each test under the runner that selects it.',
      location: { file: path },
    }),
  );
}

function describeUnparsedSides(paths: string[], repository: RepositoryGraph): Diagnostic {
  const maxBytes = repository.config.config.analysis?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const shown = paths.slice(0, 5).join(', ');
  const more = paths.length > 5 ? ` and ${paths.length - 5} more` : '';
  return {
    code: 'analysis/unparsed-sides',
    severity: 'info',
    message: `${paths.length} changed file${paths.length === 1 ? ' is' : 's are'} larger than analysis.maxFileBytes (${maxBytes} bytes) on at least one side, so ${paths.length === 1 ? 'it was' : 'they were'} diffed but not parsed: ${paths.length === 1 ? 'its' : 'their'} changed exports, functions and type-only lines are not known (${shown}${more}).`,
    hint: 'Raise analysis.maxFileBytes in .checker/config.yml to compare them; a bundle or vendored compiler usually is not worth it.',
    location: { file: paths[0] ?? '' },
  };
}

async function readBoundedHistory(env: Env, git: GitAccess, change: ChangeSet, limitations: Diagnostic[]): Promise<HistoryEntry[]> {
  if (change.files.length === 0) return [];
  try {
    return await loadDecayHistory(
      env,
      git,
      change.files.map((file) => file.previousPath ?? file.path),
      HISTORY_COMMITS,
    );
  } catch (error) {
    limitations.push({
      code: 'git/history-unavailable',
      severity: 'info',
      message: `History for decay analysis could not be read: ${error instanceof Error ? error.message : String(error)}`,
    });
    return [];
  }
}

/** The mined (and cached) history window the change's insights come from; it ends at the base, so the change does not vote on its own partners. */
async function readMinedWindow(
  env: Env,
  git: GitAccess,
  change: ChangeSet,
  config: Config,
  limitations: Diagnostic[],
): Promise<LoadedHistory | undefined> {
  const fromOid = change.base.oid;
  if (change.files.length === 0 || fromOid === undefined) return undefined;
  return loadMinedHistory(env, git, fromOid, config, limitations);
}

/** Co-change partners, fix-prone files and hotspots of the change, from the mined history window. */
async function readHistoryInsights(
  env: Env,
  repository: RepositoryGraph,
  change: ChangeSet,
  trackedPaths: ReadonlySet<string>,
  loaded: LoadedHistory | undefined,
  partners?: ReadonlyMap<string, readonly CoChangePartner[]>,
): Promise<HistoryInsights | undefined> {
  if (loaded === undefined) return undefined;
  const deleted = new Set(change.files.filter((file) => file.status === 'deleted').map((file) => file.path));
  const changedPaths = listChangePaths(change);
  const scanned = new Set(repository.scan.files.map((file) => file.path));
  const field = toHotspotField(scanned, deleted, repository.parsed.facts, repository.parsed.linkOnly);
  // A focused build read the files whose complexity could outrank a changed candidate in its parse (the memo's
  // BuildFocus.alsoInFull); any other build reads them here, the candidates first.
  const candidates = listHotspotCandidates(loaded.history, changedPaths, field.isRanked);
  if (candidates.length > 0) {
    await completeFacts(env, repository, candidates);
    const reads = toHotspotField(scanned, deleted, repository.parsed.facts, repository.parsed.linkOnly);
    await completeFacts(env, repository, planComplexityReads(loaded.history, candidates, reads));
  }
  const read = toHotspotField(scanned, deleted, repository.parsed.facts, repository.parsed.linkOnly);
  const insights = deriveHistoryInsights({
    history: loaded.history,
    changedPaths,
    exists: (path) => trackedPaths.has(path) && !deleted.has(path),
    isRanked: read.isRanked,
    complexity: read.complexity,
    ...(partners === undefined ? {} : { partners }),
  });
  return keepJudgedInsights(insights);
}

interface MemoryHit {
  id: string;
  node: MemoryNode;
  matchedBy: string[];
}

/** Memory entries that apply to the changed files: by their `paths` globs, by a `mentions` edge, or by shared terms. */
function matchMemory(kg: KnowledgeGraph, changedPaths: string[]): MemoryHit[] {
  const hits: MemoryHit[] = [];
  const changedIds = new Set(changedPaths.map((path) => toFileId(path)));
  const pathTerms = new Set(
    changedPaths.flatMap((path) =>
      path
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((term) => term.length > 3),
    ),
  );
  kg.graph.forEachNode((id, attributes) => {
    if (attributes.kind !== 'memory') return;
    const matchedBy: string[] = [];
    if (attributes.paths.length > 0) {
      const isMatch = compileGlobs(attributes.paths, { dot: true });
      for (const path of changedPaths) if (isMatch(path)) matchedBy.push(`path ${path}`);
    }
    kg.graph.forEachOutEdge(id, (_edge, edge, _source, target) => {
      if (edge.kind === 'mentions' && changedIds.has(target)) matchedBy.push(`mentions ${target.slice('file:'.length)}`);
    });
    for (const term of attributes.terms) if (pathTerms.has(term.toLowerCase())) matchedBy.push(`term ${term}`);
    if (matchedBy.length > 0) hits.push({ id, node: attributes, matchedBy: [...new Set(matchedBy)].sort() });
  });
  return hits.sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
}

function matchDecisions(kg: KnowledgeGraph, paths: string[]): ReviewContext['decisions'] {
  const wanted = new Set(paths.map((path) => toFileId(path)));
  const decisions: ReviewContext['decisions'] = [];
  kg.graph.forEachNode((id, attributes) => {
    if (attributes.kind !== 'decision') return;
    const matchedBy = new Set<string>();
    kg.graph.forEachOutEdge(id, (_edge, edge, _source, target) => {
      if (edge.kind === 'mentions' && wanted.has(target)) matchedBy.add(`mentions ${target.replace(/^file:/, '')}`);
    });
    if (matchedBy.size > 0) decisions.push({ id, path: attributes.path, title: attributes.title, matchedBy: [...matchedBy].sort() });
  });
  return decisions.sort((left, right) => (left.id < right.id ? -1 : 1));
}

function collectOwners(kg: KnowledgeGraph, changed: ChangedFileEvidence[], impacted: ImpactedFile[]): ReviewContext['owners'] {
  const byOwner = new Map<string, Set<string>>();
  for (const path of [...changed.map((file) => file.path), ...impacted.map((file) => file.path)]) {
    for (const owner of kg.codeowners?.ownersOf(path) ?? []) {
      const files = byOwner.get(owner) ?? new Set<string>();
      files.add(path);
      byOwner.set(owner, files);
    }
  }
  return [...byOwner.entries()]
    .map(([owner, files]) => ({ owner, files: [...files].sort() }))
    .sort((left, right) => right.files.length - left.files.length || (left.owner < right.owner ? -1 : 1));
}

/**
 * The graph is always the working tree's. When --head is a commit, how many files the working tree
 * differs from it in (0 on a clean checkout of that commit, the usual CI case); undefined when the
 * head is the working tree itself.
 */
async function countWorktreeDrift(git: GitAccess, change: ChangeSet): Promise<number | undefined> {
  if (change.head.oid === undefined) return undefined;
  return (await git.readChange({ base: change.head.oid })).files.length;
}

/**
 * The graph's gaps that bear on this change: the unresolved imports whose specifier could name a changed or impacted
 * file, the parse failures of files whose text could import one (LinkKeys of those files: their names, their folders
 * when an index, dots), or that are one, and the route limitations of changed or impacted files (a route the change
 * reaches is registered, and mounted, in files that import it). A gap elsewhere cannot hide a dependent of this change;
 * a focused cold run never reads such files in full (src/app/build-graph.ts), and a full run answers the same.
 */
async function selectBearingGaps(
  env: Env,
  repository: RepositoryGraph,
  paths: readonly string[],
): Promise<{ limitations: Diagnostic[]; unresolvedImports: RepositoryGraph['kg']['unresolvedImports'] }> {
  const own = new Set(paths);
  // Compiled only when there is a gap to test (a reach of thousands of files makes a large pattern).
  let test: ((text: string) => boolean) | undefined;
  const holdsKey = (text: string): boolean => {
    test ??= compileLinkTest(mergeNameKeys(paths));
    return test(text);
  };
  const unresolvedImports = repository.kg.unresolvedImports.filter(
    (item) => own.has(item.from) || holdsKey(`from ${JSON.stringify(item.specifier)}`),
  );
  // The texts of the files that failed to parse elsewhere, read together (a tree of generated files may hold hundreds).
  const failed = [
    ...new Set(
      repository.limitations.flatMap((diagnostic) => {
        const file = diagnostic.location?.file;
        return PARSE_FAILURE_CODES.has(diagnostic.code) && file !== undefined && !own.has(file) ? [file] : [];
      }),
    ),
  ];
  const maxBytes = repository.config.config.analysis?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const texts = new Map((await readRepoTexts(env, failed, maxBytes)).map((text, index) => [failed[index] as string, text]));
  const limitations: Diagnostic[] = [];
  for (const diagnostic of repository.limitations) {
    const file = diagnostic.location?.file;
    if (file !== undefined && !own.has(file)) {
      // A route limitation, or build output mapped to its source, in a file the change does not reach.
      if (ROUTE_LIMITATION.test(diagnostic.code) || diagnostic.code === 'resolve/build-output') continue;
      const text = PARSE_FAILURE_CODES.has(diagnostic.code) ? texts.get(file) : undefined;
      if (text !== undefined && !holdsKey(text)) continue;
    }
    limitations.push(diagnostic);
  }
  return { limitations: summariseBuildOutputNotes(limitations), unresolvedImports };
}

const PARSE_FAILURE_CODES = new Set(['parse/syntax', 'parse/crash', 'parse/timeout']);
const ROUTE_LIMITATION = /^routes\//;

/** The keys of `paths` by their names alone (no package or alias keys: a subset of what a focused run looked for). */
function mergeNameKeys(paths: readonly string[]): LinkKeys {
  const words = new Set<string>();
  let dots = false;
  for (const path of paths) {
    const keys = deriveLinkKeys(path, NAME_KEYS_ONLY);
    for (const word of keys.words) words.add(word);
    dots ||= keys.dots;
  }
  return { words: [...words].sort(), dots };
}

const NAME_KEYS_ONLY = { packages: [], aliasPrefixes: [] };

function describeRangeLimits(
  change: ChangeSet,
  unresolvedImports: RepositoryGraph['kg']['unresolvedImports'],
  worktreeDrift: number | undefined,
): Diagnostic[] {
  const notes: Diagnostic[] = [];
  if (worktreeDrift !== undefined && worktreeDrift > 0) {
    notes.push({
      code: 'analysis/graph-from-worktree',
      severity: 'warn',
      message: `Dependents, routes and tests come from the working tree's graph, but the working tree differs from ${change.head.ref} in ${worktreeDrift} file${worktreeDrift === 1 ? '' : 's'}; the changed lines come from ${change.head.ref}, so impact may not match that commit exactly.`,
      hint: `Check out ${change.head.ref} (or omit --head to analyse the working tree) for an exact answer.`,
    });
  }
  const unresolved = unresolvedImports.length;
  if (unresolved > 0) {
    notes.push({
      code: 'analysis/unresolved-imports',
      severity: 'warn',
      message: `${unresolved} import${unresolved === 1 ? '' : 's'} could not be resolved to a repository file; files reached only through them are missing from the impact, so the impacted set may be incomplete.`,
      evidenceIds: unresolvedImports.slice(0, 50).map((item) => toFileId(item.from)),
    });
  }
  return notes;
}

/**
 * One note when some chains were shown shortened (over `MAX_SHOWN_PATH` files or calls): the impact is
 * complete, only the chain printed per file, test or route is cut in the middle.
 */
function describeShortenedChains(
  impactedFiles: readonly ImpactedFile[],
  impactedRoutes: readonly ImpactedRoute[],
  reachingTestsByPath: ReadonlyMap<string, readonly ReachingTest[]>,
): Diagnostic[] {
  const files = impactedFiles.filter((file) => !isShownWhole(file.distance)).length;
  const tests = new Set<string>();
  for (const reaching of reachingTestsByPath.values())
    for (const test of reaching) if (!isShownWhole(test.distance)) tests.add(test.testFile);
  const routes = impactedRoutes.filter((route) => route.steps.some(isOmittedMarker) || route.chain.some(isOmittedMarker)).length;
  if (files + tests.size + routes === 0) return [];
  const count = (value: number, one: string, many: string): string => (value === 0 ? '' : `${value} ${value === 1 ? one : many}`);
  const parts = [
    count(files, 'impacted file', 'impacted files'),
    count(tests.size, 'reaching test', 'reaching tests'),
    count(routes, 'route', 'routes'),
  ].filter((part) => part !== '');
  let longest = 0;
  for (const file of impactedFiles) longest = Math.max(longest, file.distance);
  return [
    {
      code: 'limits/path-shortened',
      severity: 'info',
      message: `Chains longer than ${MAX_SHOWN_PATH} files or calls are shortened (${parts.join(', ')}${files > 0 ? `; the deepest file is ${longest} imports away` : ''}): via, steps and chain keep their first and last ${SHOWN_PATH_END} entries around a "… N more files …" or "… N more calls …" entry, and distance counts the whole chain.`,
      hint: 'Nothing is missing from the impact: every file in the left-out middle is an impacted file of its own, listed with its distance. Chains this deep usually come from generated or machine-chained modules; analysis.ignore in .checker/config.yml can leave those out.',
    },
  ];
}

/** A deleted file has no node any more; its former importers now hold unresolved imports, named here. */
function describeDeletedDependents(repository: RepositoryGraph, change: ChangeSet): Diagnostic[] {
  const deleted = change.files.filter((file) => file.status === 'deleted');
  if (deleted.length === 0) return [];
  const notes: Diagnostic[] = [];
  for (const file of deleted) {
    const stem = file.path.replace(/\.[cm]?[jt]sx?$/, '');
    // A file importing it twice counts once.
    const importers = [
      ...new Set(repository.kg.unresolvedImports.filter((item) => item.reason.includes(stem)).map((item) => item.from)),
    ].sort();
    const count = importers.length;
    notes.push({
      code: 'analysis/deleted-file',
      severity: count > 0 ? 'warn' : 'info',
      message:
        count > 0
          ? `${file.path} was deleted but ${count === 1 ? '1 file still imports' : `${count} files still import`} it: ${importers.slice(0, 10).join(', ')}.`
          : `${file.path} was deleted; no remaining file imports it.`,
      evidenceIds: importers.map((path) => toFileId(path)),
    });
  }
  return notes;
}

function dedupeDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((item) => {
    const key = `${item.code}|${item.location?.file ?? ''}|${item.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
