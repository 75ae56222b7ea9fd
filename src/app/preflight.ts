import { summariseBuildOutputNotes } from './build-output-notes.js';
import { readContracts } from './load/contracts.js';
import { compileGlobs } from '../text/glob.js';
import type { KnowledgeGraph } from '../graph/build.js';
import { toFileId } from '../graph/ids.js';
import { findImpactedAreas } from '../graph/queries/find-impacted-areas.js';
import { findImpactClosure } from '../ranking/context-select.js';
import { CheckerError, isCheckerError, type Diagnostic } from '../model/diagnostic.js';
import type { Env, GitAccess } from '../model/env.js';
import type { ContractInput } from '../model/graph.js';
import type { Grounding, GroundingReason, MatchedMemoryEntry } from '../model/grounding.js';
import type {
  FollowUpCheck,
  NonGoal,
  PreflightCandidateFile,
  PreflightCandidateRoute,
  PreflightCandidateTest,
  PreflightContract,
  PreflightMemoryEntry,
  PreflightReport,
  ProofStep,
  RepositoryEvidence,
  RequirementEvidence,
} from '../model/preflight.js';
import type { Requirements, RequirementsInput, RequirementStatement } from '../model/requirements.js';
import type { FileRole } from '../model/scan.js';
import { sanitizeUntrustedText } from '../text/redact/redact.js';
import { buildRepositoryGraph, type RepositoryGraph } from './build-graph.js';
import { groundTaskInRepository } from './task-grounding.js';
import { createTermNamer } from '../ranking/terms.js';
import { readRequirements } from './load/read-bundle-inputs.js';
import { describeCommandsNotAllowed } from './load/trusted-config.js';
import { compareText } from '../text/compare-text.js';
import { MAX_TASK_CHARS } from '../model/input-fields.js';
import { countOf } from '../text/plural.js';

const MAX_MEMORY_TEXT = 2000;
const MAX_IMPACTED_FILES = 50;
const MAX_LIMITATIONS = 50;
const PLAN_FILES = 5;
const PLAN_ROUTES = 5;

export interface PreflightInput {
  task: string;
  /** Repository-relative path of a JSON or YAML requirements file (`--requirements`). */
  requirementsPath?: string;
  /** Requirements already read (a session, or an MCP object validated by the adapter). */
  requirements?: RequirementsInput;
  /** Reuse an already built graph. */
  repository?: RepositoryGraph;
}

/** What preflight computed, for callers (sessions, context) that need more than the report. */
export interface PreflightComputation {
  report: PreflightReport;
  repository: RepositoryGraph;
  grounding: Grounding;
  requirements: RequirementsInput | undefined;
  git: GitState;
}

export interface GitState {
  access: GitAccess | undefined;
  head: string | null;
  limitation?: Diagnostic;
}

/** The task text as stored and shown: required, control characters stripped, secrets redacted, capped. */
export function toTaskText(task: unknown): string {
  const text = typeof task === 'string' ? sanitizeUntrustedText(task, MAX_TASK_CHARS).trim() : '';
  if (text === '') {
    throw new CheckerError('usage/missing-task', 'a task description is required (--task "<text>")', {
      hint: 'Describe the change in words, e.g. --task "apply the loyalty discount at checkout".',
    });
  }
  return text;
}

/** Opens git when there is one; a folder without git (or without commits) still gets preflight and sessions. */
export async function openGitState(env: Env): Promise<GitState> {
  try {
    const access = await env.openGit();
    const head = (await access.headOid()) ?? null;
    if (head === null) {
      return {
        access,
        head,
        limitation: {
          code: 'git/no-commits',
          severity: 'info',
          message: 'the repository has no commits yet; there is no base revision and freshness is unknown',
        },
      };
    }
    return { access, head };
  } catch (error) {
    if (!isCheckerError(error) || !error.code.startsWith('git/')) throw error;
    return {
      access: undefined,
      head: null,
      limitation: {
        code: 'git/unavailable',
        severity: 'info',
        message: `${error.message}; no base revision is recorded and freshness is unknown`,
        ...(error.hint === undefined ? {} : { hint: error.hint }),
      },
    };
  }
}

/** Texts of the requirements whose terms help grounding (what should change), not non-goals. */
export function getRequirementsTerms(requirements: Requirements | undefined): string[] {
  if (requirements === undefined) return [];
  return [
    ...(requirements.title === undefined ? [] : [requirements.title]),
    ...(requirements.acceptanceCriteria ?? []).map((criterion) => criterion.text),
    ...toStatements(requirements.expectedBehavior),
    ...toStatements(requirements.currentBehavior),
    ...(requirements.affectedFlows ?? []).flatMap((flow) => [flow.name, ...(flow.route === undefined ? [] : [flow.route])]),
  ];
}

function toStatements(statement: RequirementStatement | undefined): string[] {
  if (statement === undefined) return [];
  return (Array.isArray(statement) ? statement : [statement]).filter((text) => text.trim() !== '');
}

/** `checker ai preflight` / `agent preflight`: a before-coding brief that needs no diff; runs nothing. */
export async function getPreflightReport(env: Env, input: PreflightInput): Promise<PreflightReport> {
  return (await computePreflight(env, input)).report;
}

export async function computePreflight(env: Env, input: PreflightInput): Promise<PreflightComputation> {
  const task = toTaskText(input.task);
  const requirements =
    input.requirements ?? (input.requirementsPath === undefined ? undefined : await readRequirements(env, input.requirementsPath));
  const repository = input.repository ?? (await buildRepositoryGraph(env, undefined, { moduleLinks: true }));
  const git = await openGitState(env);
  const kg = repository.kg;
  const limitations: Diagnostic[] = git.limitation === undefined ? [] : [git.limitation];
  const grounding = await groundTaskInRepository(
    env,
    { repository, git, task, requirementsTerms: getRequirementsTerms(requirements?.data) },
    limitations,
  );
  const contracts = await readContracts(env, limitations);

  // Reasons keep matching keys (stems) inside checker; what the report says uses the task's own words.
  const toWord = createTermNamer(grounding.terms);
  const toReasons = (reasons: GroundingReason[]): GroundingReason[] => reasons.map((reason) => ({ ...reason, term: toWord(reason.term) }));
  const candidateFiles = grounding.candidateFiles.map((candidate): PreflightCandidateFile => {
    const tests = findTestFiles(kg, candidate.path);
    const reasons = toReasons(candidate.reasons);
    return {
      id: candidate.id,
      path: candidate.path,
      score: candidate.score,
      why: describeReasons(reasons, tests, getFileRole(kg, candidate.path), candidate.churn),
      reasons,
      tests,
    };
  });
  const candidateTests = grounding.candidateTests.map((candidate): PreflightCandidateTest => {
    const testedFiles = findTestedFiles(kg, candidate.path);
    const reasons = toReasons(candidate.reasons);
    return {
      id: candidate.id,
      path: candidate.path,
      score: candidate.score,
      why: describeTestReasons(reasons, testedFiles),
      reasons,
      testedFiles,
    };
  });
  const candidateRoutes = grounding.candidateRoutes.map((route): PreflightCandidateRoute => {
    const reasons = toReasons(route.reasons);
    return { ...route, reasons, why: `${describeMatches(reasons)}; handled in ${route.file}` };
  });
  const candidatePaths = candidateFiles.map((candidate) => candidate.path);
  const closure = findImpactClosure(kg, candidatePaths);
  const areas = findImpactedAreas(
    kg,
    candidatePaths,
    closure.files.map((file) => file.path),
  );
  const memory = {
    invariants: grounding.matchedMemory.invariants.map(toMemoryEntry),
    architecture: grounding.matchedMemory.architecture.map(toMemoryEntry),
    regressions: grounding.matchedMemory.regressions.map(toMemoryEntry),
    notes: grounding.matchedMemory.notes.map(toMemoryEntry),
  };
  const matchedContracts = matchContracts(contracts, candidatePaths);
  const repositoryEvidence: RepositoryEvidence = {
    terms: {
      domain: [...new Set(grounding.domainTerms.map(toWord))],
      generic: [...new Set(grounding.terms.filter((term) => term.generic).map((term) => toWord(term.term)))],
      unmatched: [...new Set(grounding.unmatchedTerms.map(toWord))],
    },
    candidateFiles,
    omittedCandidates: grounding.omittedCandidates,
    candidateTests,
    candidateRoutes,
    impactedAreas: {
      folders: areas.folders.map((area) => ({ name: area.path, candidates: area.changed, impacted: area.impacted })),
      packages: areas.packages.map((area) => ({ name: area.name, candidates: area.changed, impacted: area.impacted })),
      owners: areas.owners.map((area) => ({ name: area.owner, candidates: area.changed, impacted: area.impacted })),
    },
    impactedFiles: closure.files
      .slice(0, MAX_IMPACTED_FILES)
      .map((file) => ({ path: file.path, distance: file.distance, via: file.via, typeOnly: file.typeOnly })),
    impactedFilesTotal: closure.files.length,
    memory,
    decisions: grounding.matchedDecisions,
    owners: grounding.matchedOwners,
    contracts: matchedContracts,
  };
  const requirementEvidence = toRequirementEvidence(kg, requirements);
  const followUpChecks = toFollowUpChecks(repository);
  const report: PreflightReport = {
    schemaVersion: 1,
    kind: 'preflight-report',
    task,
    generatedAt: env.now().toISOString(),
    revision: { git: git.access !== undefined, head: git.head },
    requirementEvidence,
    repositoryEvidence,
    suggestions: {
      proofPlan: buildProofPlan(requirements, repositoryEvidence, followUpChecks, (path) => getFileRole(kg, path)),
      nonGoals: buildNonGoals(requirementEvidence, repositoryEvidence, grounding),
      followUpChecks,
    },
    candidateFiles: repositoryEvidence.candidateFiles.map((candidate) => candidate.path),
    confidence: grounding.confidence,
    confidenceReason: grounding.confidenceReason,
    unresolvedQuestions: grounding.unresolvedQuestions,
    execution: { modelCalled: false, commandsRun: false, network: false, investigation: false },
    limitations: capLimitations([...limitations, ...summariseBuildOutputNotes(repository.limitations)]),
  };
  env.validate('preflight-report', report, { code: 'internal/preflight-report' });
  return { report, repository, grounding, requirements, git };
}

export function capLimitations(limitations: Diagnostic[]): Diagnostic[] {
  if (limitations.length <= MAX_LIMITATIONS) return limitations;
  const kept = limitations.slice(0, MAX_LIMITATIONS - 1);
  kept.push({
    code: 'limitations/truncated',
    severity: 'info',
    message: `${countOf(limitations.length - kept.length, 'more limitation')} left out; run checker graph for the full list`,
  });
  return kept;
}

function describeMatches(reasons: GroundingReason[]): string {
  const parts = reasons
    .slice(0, 4)
    .map((reason) =>
      reason.matchedOn === 'co-change'
        ? `usually changes with ${reason.term} in the history (${reason.evidenceId})`
        : reason.matchedOn === 'history'
          ? `"${reason.term}" in the subjects of commits that changed it`
          : `"${reason.term}" on ${reason.matchedOn} (${reason.evidenceId}${reason.line === undefined ? '' : `:${reason.line}`})`,
    );
  return parts.length === 0 ? 'supporting evidence only' : `matches ${parts.join(', ')}`;
}

function describeTestReasons(reasons: GroundingReason[], testedFiles: string[]): string {
  const text = describeMatches(reasons);
  return testedFiles.length === 0 ? text : `${text}; tests ${testedFiles.slice(0, 3).join(', ')}${testedFiles.length > 3 ? ', …' : ''}`;
}

function describeReasons(reasons: GroundingReason[], tests: string[], role: FileRole | undefined, churn?: number): string {
  const changed = churn === undefined ? '' : `; changed in ${countOf(churn, 'commit')} of the history window, which weighs it up`;
  const text = `${describeMatches(reasons)}${changed}`;
  if (tests.length > 0) return `${text}; tested by ${tests.slice(0, 3).join(', ')}${tests.length > 3 ? ', …' : ''}`;
  if (role === 'test') return `${text}; a test file itself`;
  return role === 'source' ? `${text}; no test file tests it` : text;
}

/** The role of a repository file in the graph (source, test, config, doc, manifest, other); undefined when it is no file node. */
function getFileRole(kg: KnowledgeGraph, path: string): FileRole | undefined {
  const id = toFileId(path);
  if (!kg.graph.hasNode(id)) return undefined;
  const node = kg.graph.getNodeAttributes(id);
  return node.kind === 'file' ? node.role : undefined;
}

function findTestFiles(kg: KnowledgeGraph, path: string): string[] {
  const id = toFileId(path);
  if (!kg.graph.hasNode(id)) return [];
  const tests = new Set<string>();
  kg.graph.forEachInEdge(id, (_edge, attributes, _source, _target, sourceAttributes) => {
    if (attributes.kind === 'tests' && sourceAttributes.kind === 'file') tests.add(sourceAttributes.path);
  });
  return [...tests].sort(compareText);
}

function findTestedFiles(kg: KnowledgeGraph, path: string): string[] {
  const id = toFileId(path);
  if (!kg.graph.hasNode(id)) return [];
  const tested = new Set<string>();
  kg.graph.forEachOutEdge(id, (_edge, attributes, _source, _target, _sourceAttributes, targetAttributes) => {
    if (attributes.kind === 'tests' && targetAttributes.kind === 'file' && targetAttributes.role !== 'test')
      tested.add(targetAttributes.path);
  });
  return [...tested].sort(compareText);
}

function toMemoryEntry(entry: MatchedMemoryEntry): PreflightMemoryEntry {
  return {
    id: entry.id,
    kind: entry.memoryKind,
    ...(entry.title === undefined ? {} : { title: sanitizeUntrustedText(entry.title, 200) }),
    text: sanitizeUntrustedText(entry.text, MAX_MEMORY_TEXT),
    matchedTerms: entry.matchedTerms,
    mentionedFiles: entry.mentionedFiles,
  };
}

function matchContracts(contracts: ContractInput[], paths: string[]): PreflightContract[] {
  const matched: PreflightContract[] = [];
  for (const contract of contracts) {
    const isFrom = compileGlobs(contract.from, { dot: true });
    const isTo = compileGlobs(contract.to, { dot: true });
    const fromFiles = paths.filter((path) => isFrom(path));
    const toFiles = paths.filter((path) => isTo(path));
    if (fromFiles.length === 0 && toFiles.length === 0) continue;
    matched.push({
      id: `contract:${contract.id}`,
      ...(contract.description === undefined ? {} : { description: sanitizeUntrustedText(contract.description, 500) }),
      from: contract.from,
      to: contract.to,
      fromFiles,
      toFiles,
    });
  }
  return matched.sort((left, right) => compareText(left.id, right.id));
}

function toRequirementEvidence(kg: KnowledgeGraph, requirements: RequirementsInput | undefined): RequirementEvidence {
  const data = requirements?.data;
  const routes: { id: string; method: string; path: string }[] = [];
  kg.graph.forEachNode((id, node) => {
    if (node.kind === 'route') routes.push({ id, method: node.method, path: node.path });
  });
  return {
    provided: requirements !== undefined,
    ...(requirements === undefined ? {} : { source: { path: requirements.path, hash: requirements.hash } }),
    ...(data?.title === undefined ? {} : { title: data.title }),
    acceptanceCriteria: data?.acceptanceCriteria ?? [],
    affectedFlows: (data?.affectedFlows ?? []).map((flow) => ({ ...flow, matchedRoutes: matchFlowRoutes(flow.route, routes) })),
    currentBehavior: toStatements(data?.currentBehavior),
    expectedBehavior: toStatements(data?.expectedBehavior),
    nonGoals: toStatements(data?.nonGoals),
    invariants: toStatements(data?.invariants),
    architectureConstraints: toStatements(data?.architectureConstraints),
    unresolvedQuestions: toStatements(data?.unresolvedQuestions),
  };
}

function matchFlowRoutes(route: string | undefined, routes: { id: string; method: string; path: string }[]): string[] {
  if (route === undefined) return [];
  const match = /^\s*(?:([A-Za-z]+)\s+)?(\/\S*)\s*$/.exec(route);
  if (match === null) return [];
  const method = match[1]?.toUpperCase();
  const path = (match[2] ?? '').replace(/\/+$/, '') || '/';
  return routes
    .filter((candidate) => (candidate.path.replace(/\/+$/, '') || '/') === path && (method === undefined || candidate.method === method))
    .map((candidate) => candidate.id)
    .sort(compareText);
}

function toFollowUpChecks(repository: RepositoryGraph): FollowUpCheck[] {
  const config = repository.config;
  const checks = config.config.checks ?? {};
  const source = config.sources[0] ?? 'no configuration file';
  const allowed = config.config.safety?.allowCommands === true;
  return Object.keys(checks)
    .sort(compareText)
    .map((name) => {
      const check = checks[name];
      return {
        name,
        command: check?.command ?? (check?.argv ?? []).join(' '),
        source,
        willRun: false,
        allowedByPolicy: allowed,
        reason: allowed
          ? `allowed by safety.allowCommands: true in ${source}; preflight runs nothing, run it with checker execute after the change`
          : `${describeCommandsNotAllowed({ from: 'working-tree', source, files: config.files ?? [] })}; preflight runs nothing and checker execute would skip it`,
      };
    });
}

function buildProofPlan(
  requirements: RequirementsInput | undefined,
  evidence: RepositoryEvidence,
  checks: FollowUpCheck[],
  getRole: (path: string) => FileRole | undefined,
): ProofStep[] {
  const steps: ProofStep[] = [];
  for (const criterion of requirements?.data.acceptanceCriteria ?? []) {
    steps.push({
      id: `proof:acceptance:${criterion.id}`,
      kind: 'acceptance-criterion',
      text: `Prove acceptance criterion ${criterion.id}: ${criterion.text}`,
      evidenceIds: [`requirement:${requirements?.path ?? ''}#${criterion.id}`],
      requiredProof: criterion.requiredProof,
    });
  }
  for (const candidate of evidence.candidateFiles.slice(0, PLAN_FILES)) {
    const role = getRole(candidate.path);
    if (candidate.tests.length > 0) {
      steps.push({
        id: `proof:tests:${candidate.path}`,
        kind: 'existing-tests',
        text: `Run and extend ${candidate.tests.join(', ')} so they cover the new behaviour of ${candidate.path}`,
        evidenceIds: [candidate.id, ...candidate.tests.map((path) => toFileId(path))],
      });
    } else if (role === 'test') {
      // A task only tests match keeps them as its candidates: the test is the proof to run, not code to test.
      steps.push({
        id: `proof:tests:${candidate.path}`,
        kind: 'existing-tests',
        text: `Run and extend ${candidate.path} so it covers the new behaviour`,
        evidenceIds: [candidate.id],
      });
    } else if (role === 'source') {
      // Docs, config, manifests and data files are read, not executed: no test can exercise them.
      steps.push({
        id: `proof:missing-test:${candidate.path}`,
        kind: 'missing-test',
        text: `Add a test that exercises ${candidate.path}; no test file tests it today`,
        evidenceIds: [candidate.id],
      });
    }
  }
  for (const route of evidence.candidateRoutes.slice(0, PLAN_ROUTES)) {
    steps.push({
      id: `proof:route:${route.method} ${route.path}`,
      kind: 'route',
      text: `Exercise ${route.method} ${route.path} end to end (handler in ${route.file}), including an invalid input`,
      evidenceIds: [route.id],
    });
  }
  for (const entry of evidence.memory.invariants) {
    steps.push({
      id: `proof:invariant:${entry.id}`,
      kind: 'invariant',
      text: `Show that the invariant "${entry.title ?? entry.id}" still holds`,
      evidenceIds: [entry.id],
    });
  }
  for (const contract of evidence.contracts) {
    steps.push({
      id: `proof:contract:${contract.id}`,
      kind: 'contract',
      text: `Keep the design contract ${contract.id}: files matching ${contract.from.join(', ')} must not import ${contract.to.join(', ')}`,
      evidenceIds: [contract.id],
    });
  }
  for (const check of checks) {
    steps.push({
      id: `proof:check:${check.name}`,
      kind: 'configured-check',
      text: `After the change, run the configured check ${check.name} (${check.allowedByPolicy ? 'allowed by policy' : 'blocked until safety.allowCommands is true'})`,
      evidenceIds: [`check:${check.name}`],
    });
  }
  return steps;
}

function buildNonGoals(requirements: RequirementEvidence, evidence: RepositoryEvidence, grounding: Grounding): NonGoal[] {
  const nonGoals: NonGoal[] = requirements.nonGoals.map((text) => ({ text, source: 'requirements' }));
  if (evidence.candidateFiles.length === 0) {
    nonGoals.push({
      text: 'Inventing scope: the task could not be grounded in this repository; answer the unresolved question before changing code',
      source: 'checker',
    });
  } else {
    nonGoals.push({
      text: 'Changing files outside the candidate files, their tests and impacted files without new evidence that they must change',
      source: 'checker',
    });
  }
  for (const contract of evidence.contracts) nonGoals.push({ text: `Crossing the design contract ${contract.id}`, source: 'checker' });
  nonGoals.push({
    text: 'Treating agent claims ("tests pass") as proof: only tests, configured checks and review verify',
    source: 'checker',
  });
  const unmatched = new Set(grounding.unmatchedTerms);
  const originals = [
    ...new Set(grounding.terms.filter((term) => !term.generic && unmatched.has(term.term)).map((term) => term.original.toLowerCase())),
  ];
  if (originals.length > 0) {
    nonGoals.push({ text: `Guessing where ${originals.join(', ')} live: they match nothing in this repository`, source: 'checker' });
  }
  return nonGoals;
}
