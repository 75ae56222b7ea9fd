import type {
  AnalysisSummary,
  ChangeAnalysis,
  RepositoryShape,
  ChangedFileEvidence,
  ImpactedFile,
  ImpactedRoute,
  ReviewContext,
} from '../model/analysis.js';
import type { ChangeSet } from '../model/change.js';
import type { ChangedPathProof, ReachingTest } from '../model/coverage.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Env, HistoryEntry } from '../model/env.js';
import type { HistoryInsights } from '../model/history.js';
import type { FileFacts } from '../model/facts.js';
import type { MemoryNode } from '../model/graph.js';
import type { FactSubject, Finding, LoadedPack } from '../model/rules.js';
import { rankEdgeCases } from '../ranking/rank-edge-cases.js';
import { scoreDecay, scoreMergeRisk } from '../ranking/score.js';
import {
  evaluateAnalysis,
  toDecayContributors,
  toEdgeCases,
  toMissingTests,
  toPatternMatches,
  toRiskContributors,
  toToolRecommendations,
  toStaleAssertions,
  toWeakTests,
} from '../rules/evaluate-analysis.js';
import type { AssertedLiteral } from '../rules/replaced-literals.js';
import { buildAnalysisSubjects, type ChangedFileInput } from '../rules/facts.js';
import { createPathClassifier, mergeClassifiers } from '../rules/classifiers.js';
import { compilePack } from '../rules/pack.js';
import { createRegexBudget } from '../rules/operators/regex-budget.js';
import type { RepositoryGraph } from './build-graph.js';
import { loadRulePacks } from './load/load-rule-packs.js';

export interface ChangeRuleInput {
  repository: RepositoryGraph;
  change: ChangeSet;
  sides: {
    headText: Map<string, string>;
    baseText: Map<string, string>;
    headFacts: Map<string, FileFacts>;
    baseFacts: Map<string, FileFacts>;
  };
  changedFiles: ChangedFileEvidence[];
  impactedFiles: ImpactedFile[];
  impactedRoutes: ImpactedRoute[];
  reachingTestsByPath: Map<string, ReachingTest[]>;
  proofByPath: Map<string, ChangedPathProof>;
  history: HistoryEntry[];
  historyInsights?: HistoryInsights;
  memory: { id: string; node: MemoryNode }[];
  hasCoverage: boolean;
  /** Test lines holding the old value of a literal the change replaced. */
  assertedLiterals: AssertedLiteral[];
  /** The packs when the caller loaded them already (analyzeChange does, for the path classes). */
  packs?: { packs: LoadedPack[]; diagnostics: Diagnostic[] };
}

export interface ChangeRuleResult {
  findings: Finding[];
  weakTests: ChangeAnalysis['weakTests'];
  missingTests: ChangeAnalysis['missingTests'];
  staleAssertions: ChangeAnalysis['staleAssertions'];
  edgeCases: ChangeAnalysis['edgeCases'];
  patterns: ReviewContext['patterns'];
  tools: ReviewContext['tools'];
  mergeRisk: AnalysisSummary['mergeRisk'];
  mergeRiskBreakdown: AnalysisSummary['mergeRiskBreakdown'];
  decay: AnalysisSummary['decay'];
  decayBreakdown: AnalysisSummary['decayBreakdown'];
  repositoryShape?: RepositoryShape;
  /** Paths whose change is documentation, comments or formatting only. */
  lowSignalPaths: Set<string>;
  diagnostics: Diagnostic[];
}

/**
 * Builds the fact subjects of the change, evaluates every rule pack (built-in and repository) with
 * json-rules-engine, and turns the findings into the analysis shapes. Test cases, test files and
 * routes are evaluated only where they touch the change, so a large repository's unrelated tests
 * neither slow the run nor crowd the report.
 */
export async function evaluateChangeRules(env: Env, input: ChangeRuleInput): Promise<ChangeRuleResult> {
  const { packs, diagnostics } = input.packs ?? (await loadRulePacks(env));
  // A repository's patterns are its code: their matching is charged to one budget per run (docs/rule-packs.md).
  const regexBudget = createRegexBudget();
  const compiled = packs.map((loaded) =>
    compilePack(loaded.pack, loaded.source === 'repository' ? { operators: { matchesRegex: regexBudget.matchesRegex } } : {}),
  );
  const scope = getSubjectScope(input);
  const subjects = selectRelevantSubjects(
    buildAnalysisSubjects({
      scope,
      kg: input.repository.kg,
      changedFiles: input.changedFiles.map((file) => toChangedFileInput(file, input.sides)),
      impacted: input.impactedFiles.map((file) => ({ path: file.path, distance: file.distance, via: file.via, typeOnly: file.typeOnly })),
      impactedRoutes: input.impactedRoutes,
      reachingTestsByPath: input.reachingTestsByPath,
      proofByPath: input.proofByPath,
      history: input.history,
      ...(input.historyInsights === undefined ? {} : { historyInsights: input.historyInsights }),
      memoryMatches: input.memory.map((entry) => ({ id: entry.id, kind: entry.node.memoryKind, paths: entry.node.paths })),
      config: { assertionHelpers: [...(input.repository.config.config.analysis?.assertionHelpers ?? [])] },
      repository: { hasCoverage: input.hasCoverage },
      pathClasses: createPathClassifier(mergeClassifiers(packs)),
      assertedLiterals: input.assertedLiterals,
    }),
    scope,
  );
  const findings = await evaluateAnalysis(compiled, subjects);
  const mergeRisk = scoreMergeRisk(toRiskContributors(findings));
  const decay = scoreDecay(toDecayContributors(findings));
  const lowSignalPaths = new Set<string>();
  for (const subject of subjects) {
    if (subject.subject === 'changed-file' && subject.facts.lowSignal === true && typeof subject.facts.path === 'string')
      lowSignalPaths.add(subject.facts.path);
  }
  const repositoryFacts = subjects.find((subject) => subject.subject === 'repository')?.facts;
  return {
    ...(repositoryFacts === undefined ? {} : { repositoryShape: toRepositoryShape(repositoryFacts) }),
    findings,
    weakTests: toWeakTests(findings, subjects),
    missingTests: toMissingTests(findings, subjects),
    staleAssertions: toStaleAssertions(findings, subjects),
    edgeCases: rankEdgeCases(toEdgeCases(findings, subjects)),
    patterns: toPatternMatches(findings, subjects),
    tools: toToolRecommendations(findings),
    mergeRisk: { score: mergeRisk.score, level: mergeRisk.level },
    mergeRiskBreakdown: mergeRisk.breakdown,
    decay: { score: decay.score, level: decay.level },
    decayBreakdown: decay.breakdown,
    lowSignalPaths,
    diagnostics: [...diagnostics, ...regexBudget.getDiagnostics()],
  };
}

function toChangedFileInput(file: ChangedFileEvidence, sides: ChangeRuleInput['sides']): ChangedFileInput {
  const head = sides.headFacts.get(file.path);
  const base = sides.baseFacts.get(file.path);
  const input: ChangedFileInput = {
    path: file.path,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    hunks: file.hunks,
    binary: file.binary,
    changedExports: file.changedExports,
    changeKind: file.changeKind,
  };
  if (file.previousPath !== undefined) input.previousPath = file.previousPath;
  if (file.compiledFrom !== undefined) input.compiledFrom = file.compiledFrom;
  const headText = sides.headText.get(file.path);
  if (headText !== undefined) input.headText = headText;
  const baseText = sides.baseText.get(file.path);
  if (baseText !== undefined) input.baseText = baseText;
  if (head !== undefined) {
    input.headFunctions = head.functions;
    input.headSignals = head.signals;
    if (head.typeSpans !== undefined) input.headTypeSpans = head.typeSpans;
  }
  if (base !== undefined) input.baseFunctions = base.functions;
  return input;
}

interface SubjectScope {
  testFiles: Set<string>;
  /**
   * The test files whose cases are judged (weak tests): changed tests, and per changed file the few reaching tests that
   * name what changed most (their path, titles or code say the changed file's or callables' names:
   * ReachingTest.relevance; selectNamingTests). A test that reaches the
   * change only through the app, a barrel or a shared helper is no proof of it either way: asking to strengthen it
   * fills the tasks with clean-up the change does not need.
   */
  caseFiles: Set<string>;
  routeIds: Set<string>;
}

/** How many of a changed file's reaching tests have their cases judged: those that name its code the most. */
const MAX_JUDGED_TEST_FILES = 3;

/**
 * The reaching tests that name what changed most (ReachingTest.relevance), nearest first among equals: a test that only
 * mentions the package's name, as every test of a framework does, names the change no more than its neighbours.
 */
function selectNamingTests(tests: readonly ReachingTest[]): ReachingTest[] {
  return tests
    .filter((test) => (test.relevance ?? 0) > 0)
    .sort((left, right) => (right.relevance ?? 0) - (left.relevance ?? 0) || left.distance - right.distance)
    .slice(0, MAX_JUDGED_TEST_FILES);
}

/** Test files that reach (or are) changed code, and the routes the change reaches: the only ones worth evaluating. */
function getSubjectScope(input: ChangeRuleInput): SubjectScope {
  const testFiles = new Set<string>();
  const caseFiles = new Set<string>();
  for (const tests of input.reachingTestsByPath.values()) {
    for (const test of tests) testFiles.add(test.testFile);
    for (const test of selectNamingTests(tests)) caseFiles.add(test.testFile);
  }
  for (const file of input.changedFiles) {
    if (file.role !== 'test') continue;
    testFiles.add(file.path);
    caseFiles.add(file.path);
  }
  return { testFiles, caseFiles, routeIds: new Set(input.impactedRoutes.map((route) => route.id)) };
}

function selectRelevantSubjects(subjects: FactSubject[], scope: SubjectScope): FactSubject[] {
  return subjects.filter((subject) => {
    if (subject.subject === 'test-case') return typeof subject.facts.file === 'string' && scope.caseFiles.has(subject.facts.file);
    if (subject.subject === 'test-file') return scope.testFiles.has(subject.id.replace(/^file:/, ''));
    if (subject.subject === 'route') return scope.routeIds.has(subject.id);
    return true;
  });
}

function toRepositoryShape(facts: Record<string, unknown>): RepositoryShape {
  const number = (key: string): number => {
    const value = facts[key];
    return typeof value === 'number' ? value : 0;
  };
  const text = (key: string): string => {
    const value = facts[key];
    return typeof value === 'string' ? value : '';
  };
  const flag = (key: string): boolean => facts[key] === true;
  const list = (key: string): string[] => {
    const value = facts[key];
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  };
  return {
    fileCount: number('fileCount'),
    sourceFileCount: number('sourceFileCount'),
    testFileCount: number('testFileCount'),
    routeCount: number('routeCount'),
    languages: list('languages'),
    frameworks: list('frameworks'),
    testRunner: text('testRunner'),
    packageManager: text('packageManager'),
    hasTypeScript: flag('hasTypeScript'),
    hasCoverage: flag('hasCoverage'),
    hasLockfile: flag('hasLockfile'),
    hasCi: flag('hasCi'),
    hasCodeowners: flag('hasCodeowners'),
    hasLinter: flag('hasLinter'),
    workspaceCount: number('workspaceCount'),
  };
}
