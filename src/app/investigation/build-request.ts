import type { AgentBundle } from '../../model/bundle.js';
import type { Config } from '../../model/config.js';
import type { SkillSummary } from '../../model/graph.js';
import type { InvestigationEvidence, InvestigationRequest, InvestigationVerifier } from '../../model/investigation.js';
import type { PreflightReport } from '../../model/preflight.js';
import { sanitizeUntrustedText } from '../../text/redact/redact.js';
import { redactTree } from '../../text/redact/tree.js';
import { countOf } from '../../text/plural.js';

/** Default bound of a request, in estimated tokens (`investigation.maxRequestTokens`). */
const DEFAULT_MAX_REQUEST_TOKENS = 12_000;
/** The documented estimate: one token per four characters of the request's JSON (no tokenizer is shipped). */
const TOKEN_ESTIMATE = 'ceil(characters of the request JSON / 4)';
/** Characters kept of one summary or statement; longer text is cut with a marker. */
const MAX_SUMMARY_CHARS = 400;
/** Items a section may hold before the token budget is applied. */
const MAX_SECTION_ITEMS = 200;

/** Sections cut to fit the budget, first cut first: their last (lowest-ranked) items go. */
const CUT_ORDER = ['skills', 'memory', 'verification', 'impact', 'changedPathProof'] as const;
type CutSection = (typeof CUT_ORDER)[number];

/** A request, every evidence id the run holds (cited ids are checked against it) and the verifiers it offers. */
export interface BuiltRequest {
  request: InvestigationRequest;
  evidenceIds: Set<string>;
  verifiers: InvestigationVerifier[];
}

/** The request for a change: the bundle's deterministic evidence, redacted and bounded. */
export function buildChangeRequest(bundle: AgentBundle, config: Config): BuiltRequest {
  const { evidence } = bundle;
  const impact: InvestigationEvidence[] = [
    ...evidence.changedFiles.map((file) =>
      item(
        file.id,
        'changed-file',
        `${file.status} ${file.path} (+${file.additions} -${file.deletions}; ${file.role}, ${file.changeKind})`,
      ),
    ),
    ...evidence.impactedRoutes.map((route) =>
      item(route.id, 'impacted-route', `${route.method} ${route.path} in ${route.file}: ${route.reason}`),
    ),
    ...evidence.impactedFiles.map((file) =>
      item(
        file.id,
        'impacted-file',
        `${file.path}, ${countOf(file.distance, 'import hop')} from the change${file.typeOnly ? ' (type-only)' : ''}`,
      ),
    ),
    ...evidence.edgeCases.top.map((edge) => item(edge.id, 'edge-case', `${edge.title}: ${edge.trigger}`)),
    ...evidence.summary.mergeRiskBreakdown.flatMap((part) =>
      part.evidenceIds.slice(0, 1).map((id) => item(id, 'merge-risk-contributor', `${part.contributor} (+${part.weight}): ${part.detail}`)),
    ),
  ];
  const changedPathProof = [
    ...evidence.changedPathProof.map((proof) => item(proof.id, 'changed-path-proof', `${proof.path}: ${proof.state}. ${proof.reason}`)),
    ...evidence.weakTests.map((test) => item(test.id, 'weak-test', `${test.file} "${test.title}": ${test.message}`)),
    ...evidence.missingTests.map((test) => item(test.id, 'missing-test', test.message)),
  ];
  const memory = [
    ...evidence.memory.map((entry) =>
      item(entry.id, `memory-${entry.kind}`, entry.title === undefined ? entry.text : `${entry.title}: ${entry.text}`),
    ),
    ...evidence.decisions.map((decision) => item(decision.id, 'decision', `${decision.path}: ${decision.title}`)),
  ];
  const skills = bundle.skills.map((skill) => item(skill.id, 'skill', `${skill.name}: ${skill.description}`));
  const verification = [
    ...(bundle.verification.checks?.results ?? []).map((check) =>
      item(`check:${check.id}`, 'check-result', `${check.status}: ${check.reason}`),
    ),
    ...evidence.productFailures.map((failure) =>
      item(failure.id, 'product-failure', `${failure.checkKind} check ${failure.checkId} failed: ${failure.title}`),
    ),
    item(
      'verification:test-evidence',
      'test-evidence',
      bundle.verification.testEvidence.found
        ? `runtime test evidence found (${bundle.verification.testEvidence.freshness}, ${countOf(bundle.verification.testEvidence.sources, 'source')})`
        : 'no runtime test evidence (coverage) was found',
    ),
  ];
  const requirements = bundle.requirements;
  return finish(
    {
      subject: 'change',
      ...(bundle.task === undefined ? {} : { task: text(bundle.task) }),
      ...(requirements === undefined
        ? {}
        : {
            requirements: toRequestRequirements(requirements, (id) => id),
          }),
      sections: { impact, changedPathProof, memory, skills, verification },
      limitations: bundle.limitations.map((limitation) => text(limitation.message)),
      mergeRisk: { ...evidence.summary.mergeRisk },
      extraIds: [
        ...(requirements?.acceptanceCriteria.map((criterion) => criterion.id) ?? []),
        ...(requirements?.affectedFlows.map((flow) => flow.id) ?? []),
        ...bundle.checks.map((check) => check.id),
      ],
    },
    buildVerifiers(config, 'change'),
    config,
  );
}

/** The request before coding: the preflight's requirement and repository evidence, skills, redacted and bounded. */
export function buildPreflightRequest(report: PreflightReport, skillSummaries: readonly SkillSummary[], config: Config): BuiltRequest {
  const repo = report.repositoryEvidence;
  const impact = [
    ...repo.candidateFiles.map((file) => item(file.id, 'candidate-file', `${file.path}: ${file.why}`)),
    ...repo.candidateRoutes.map((route) =>
      item(route.id, 'candidate-route', `${route.method} ${route.path} in ${route.file}: ${route.why}`),
    ),
    ...repo.impactedFiles.map((file) =>
      item(`file:${file.path}`, 'impacted-file', `${file.path}, ${countOf(file.distance, 'import hop')} from a candidate`),
    ),
    ...repo.contracts.map((contract) =>
      item(contract.id, 'contract', contract.description ?? `${contract.from.join(', ')} must not import ${contract.to.join(', ')}`),
    ),
  ];
  const memory = [
    ...[...repo.memory.invariants, ...repo.memory.architecture, ...repo.memory.regressions, ...repo.memory.notes].map((entry) =>
      item(entry.id, `memory-${entry.kind}`, entry.title === undefined ? entry.text : `${entry.title}: ${entry.text}`),
    ),
    ...repo.decisions.map((decision) => item(decision.id, 'decision', `${decision.path}: ${decision.title}`)),
  ];
  const skills = [...skillSummaries]
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
    .map((skill) => item(`skill:${skill.name}`, 'skill', `${skill.name}: ${skill.description}`));
  const verification = [
    ...report.suggestions.followUpChecks.map((check) =>
      item(
        `check:${check.name}`,
        'configured-check',
        `not run (willRun=false); ${check.allowedByPolicy ? 'allowed' : 'not allowed'} by safety.allowCommands`,
      ),
    ),
    ...report.suggestions.proofPlan.map((step) => item(step.id, `proof-step-${step.kind}`, step.text)),
  ];
  const requirements = report.requirementEvidence;
  return finish(
    {
      subject: 'preflight',
      task: text(report.task),
      ...(requirements.provided
        ? {
            requirements: toRequestRequirements(requirements, (id) => `requirement:${id}`),
          }
        : {}),
      sections: { impact, changedPathProof: [], memory, skills, verification },
      limitations: [
        'preflight: nothing has changed yet, so there is no changed-path proof',
        ...report.limitations.map((limitation) => text(limitation.message)),
      ],
      extraIds: requirements.acceptanceCriteria.map((criterion) => `requirement:${criterion.id}`),
    },
    buildVerifiers(config, 'preflight'),
    config,
  );
}

/** What can confirm or refute a hypothesis here: configured checks, enabled adapters, product targets, differential, a human. */
function buildVerifiers(config: Config, subject: 'change' | 'preflight'): InvestigationVerifier[] {
  const verifiers: InvestigationVerifier[] = [];
  for (const name of Object.keys(config.checks ?? {}).sort()) {
    const check = config.checks?.[name];
    verifiers.push({ id: `check:${name}`, kind: 'configured-check', description: text(check?.description ?? `configured check ${name}`) });
  }
  const adapters = config.toolAdapters ?? {};
  for (const kind of ['apiFuzzer', 'browserTestRunner', 'contractTester', 'coverage', 'mutationTester', 'staticAnalyzer'] as const) {
    if (adapters[kind]?.enabled !== true) continue;
    verifiers.push({
      id: `adapter:${kind}`,
      kind: kind === 'staticAnalyzer' ? 'static-analyzer' : 'tool-adapter',
      description: `tool adapter ${kind}`,
    });
  }
  for (const name of Object.keys(config.products?.targets ?? {}).sort()) {
    verifiers.push({
      id: `product:${name}`,
      kind: 'product-probe',
      description: `generated UI/API checks of product target ${name} (checker product --target ${name})`,
    });
  }
  if (subject === 'change') {
    verifiers.push({
      id: 'differential',
      kind: 'differential-check',
      description: 'checker differential: the configured checks on the base and the head revision',
    });
  }
  verifiers.push({ id: 'human-decision', kind: 'human-decision', description: 'a reviewer decides, from the evidence cited' });
  return verifiers;
}

interface Draft {
  subject: 'change' | 'preflight';
  task?: string;
  requirements?: InvestigationRequest['requirements'];
  sections: Record<CutSection, InvestigationEvidence[]>;
  limitations: string[];
  mergeRisk?: { level: string; score: number };
  extraIds: string[];
}

/** Redacts the draft, cuts it to the token budget (lowest-ranked items first) and records what the cut left out. */
function finish(draft: Draft, verifiers: InvestigationVerifier[], config: Config): BuiltRequest {
  const maxTokens = config.investigation?.maxRequestTokens ?? DEFAULT_MAX_REQUEST_TOKENS;
  const evidenceIds = new Set<string>(draft.extraIds);
  const sections = { ...draft.sections };
  const omitted = new Map<string, number>();
  for (const section of CUT_ORDER) {
    const unique = dedupe(sections[section]);
    for (const entry of unique) evidenceIds.add(entry.id);
    sections[section] = unique.slice(0, MAX_SECTION_ITEMS);
    if (unique.length > MAX_SECTION_ITEMS) omitted.set(section, unique.length - MAX_SECTION_ITEMS);
  }
  const build = (): InvestigationRequest =>
    redactTree({
      schemaVersion: 1 as const,
      kind: 'checker-investigation-request' as const,
      subject: draft.subject,
      ...(draft.task === undefined ? {} : { task: draft.task }),
      ...(draft.requirements === undefined ? {} : { requirements: draft.requirements }),
      ...sections,
      verifiers,
      limitations: draft.limitations.slice(0, 50),
      ...(draft.mergeRisk === undefined ? {} : { mergeRisk: draft.mergeRisk }),
      budget: {
        maxTokens,
        estimatedTokens: 0,
        estimate: TOKEN_ESTIMATE,
        omitted: CUT_ORDER.filter((section) => omitted.has(section)).map((section) => ({ section, items: omitted.get(section) ?? 0 })),
      },
    });
  let request = build();
  let chars = JSON.stringify(request).length;
  // Cut item by item, counting each item's characters, so a large request costs one walk, not one render per item.
  let over = estimateTokens(chars) - maxTokens;
  for (const section of CUT_ORDER) {
    while (over > 0 && sections[section].length > 0) {
      const dropped = sections[section][sections[section].length - 1];
      sections[section] = sections[section].slice(0, -1);
      omitted.set(section, (omitted.get(section) ?? 0) + 1);
      chars -= JSON.stringify(dropped).length + 1;
      over = estimateTokens(chars) - maxTokens;
    }
  }
  // The count above leaves out the `omitted` entries and the estimate itself: re-render and cut until it truly fits.
  for (;;) {
    request = build();
    request.budget.estimatedTokens = estimateTokens(JSON.stringify(request).length);
    request.budget.estimatedTokens = estimateTokens(JSON.stringify(request).length);
    const section = CUT_ORDER.find((name) => sections[name].length > 0);
    if (request.budget.estimatedTokens <= maxTokens || section === undefined) break;
    sections[section] = sections[section].slice(0, -1);
    omitted.set(section, (omitted.get(section) ?? 0) + 1);
  }
  return { request, evidenceIds, verifiers };
}

function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

function item(id: string, kind: string, summary: string): InvestigationEvidence {
  return { id, kind, summary: text(summary) };
}

function text(value: string): string {
  return sanitizeUntrustedText(value, MAX_SUMMARY_CHARS);
}

function dedupe(entries: InvestigationEvidence[]): InvestigationEvidence[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = `${entry.id}\u0000${entry.kind}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

interface RequirementTexts {
  acceptanceCriteria: readonly { id: string; text: string; requiredProof: readonly string[] }[];
  affectedFlows: readonly { name: string; kind: string }[];
  currentBehavior: readonly string[];
  expectedBehavior: readonly string[];
  nonGoals: readonly string[];
  invariants: readonly string[];
  architectureConstraints: readonly string[];
  unresolvedQuestions: readonly string[];
}

/** The requirement as the request carries it: every text cleaned and redacted, criterion ids as the run cites them. */
function toRequestRequirements(requirements: RequirementTexts, criterionId: (id: string) => string) {
  return {
    acceptanceCriteria: requirements.acceptanceCriteria.map((criterion) => ({
      id: criterionId(criterion.id),
      text: text(criterion.text),
      requiredProof: criterion.requiredProof.map(text),
    })),
    affectedFlows: requirements.affectedFlows.map((flow) => ({ name: text(flow.name), kind: flow.kind })),
    currentBehavior: requirements.currentBehavior.map(text),
    expectedBehavior: requirements.expectedBehavior.map(text),
    nonGoals: requirements.nonGoals.map(text),
    invariants: requirements.invariants.map(text),
    architectureConstraints: requirements.architectureConstraints.map(text),
    unresolvedQuestions: requirements.unresolvedQuestions.map(text),
  };
}
