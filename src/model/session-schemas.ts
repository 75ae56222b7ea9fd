import { z } from 'zod';
import { MAX_CONTEXT_MAX_NODES, TASK_CONTEXT_ARTIFACT } from './context-packet.js';
import { dateTimeField } from './date-time.js';
import { GROUNDING_MATCHES, type MatchedDecision, type MatchedOwner } from './grounding.js';
import type {
  EvidenceReason,
  FollowUpCheck,
  NonGoal,
  PreflightArea,
  PreflightCandidateFile,
  PreflightCandidateTest,
  PreflightCandidateRoute,
  PreflightContract,
  PreflightImpactedFile,
  PreflightMemoryEntry,
  PreflightReport,
  ProofStep,
  RepositoryEvidence,
  RequirementEvidence,
  Suggestions,
} from './preflight.js';
import { diagnosticSchema, truncated } from './report-schemas.js';
import { investigationResultSchema } from './investigation.js';
import { requirementsSchema } from './requirements.js';
import type {
  AgentSession,
  Checkpoint,
  SessionFinish,
  SessionPreflight,
  SessionResult,
  StaleState,
  VerificationBoundary,
} from './session.js';
import { MAX_CHECKPOINTS, SESSION_ID_PATTERN, SESSIONS_FOLDER } from './session.js';
import { taskContextSchema } from './task-context-schema.js';

/**
 * The source of schemas/agent-session.schema.json, session-result.schema.json and preflight-report.schema.json
 * (`npm run schemas`): the durable agent session (spec 2.6) at `.checker/local/agent-sessions/<id>.json`, what a
 * session operation returns, and the before-coding brief. The model types in session.ts and preflight.ts are
 * asserted equal to these schemas below; the preflight pieces are shared by all three.
 */
const def = <T extends z.ZodType>(id: string, schema: T): T => schema.meta({ id });
const str = z.string();
const count = z.int().min(0);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const strings = def('strings', z.array(str));

const reason = def(
  'reason',
  z.strictObject({
    term: str,
    matchedOn: z.enum(GROUNDING_MATCHES),
    evidenceId: str,
    line: z.int().min(1).optional(),
  }),
);
const candidateFile = def(
  'candidateFile',
  z.strictObject({ id: z.string().regex(/^file:/), path: str, score: z.number(), why: str, reasons: z.array(reason), tests: strings }),
);
const candidateTest = def(
  'candidateTest',
  z.strictObject({
    id: z.string().regex(/^file:/),
    path: str,
    score: z.number(),
    why: str,
    reasons: z.array(reason),
    testedFiles: strings,
  }),
);
const candidateRoute = def(
  'candidateRoute',
  z.strictObject({
    id: z.string().regex(/^route:/),
    method: str,
    path: str,
    file: str,
    score: z.number(),
    why: str,
    reasons: z.array(reason),
  }),
);
const memoryEntry = def(
  'memoryEntry',
  z.strictObject({
    id: str,
    kind: z.enum(['invariant', 'architecture', 'regression', 'note']),
    title: str.optional(),
    text: str,
    matchedTerms: strings,
    mentionedFiles: strings,
  }),
);
const decision = def('decision', z.strictObject({ id: str, path: str, title: str, matchedTerms: strings, mentionedFiles: strings }));
const contract = def(
  'contract',
  z.strictObject({ id: str, description: str.optional(), from: strings, to: strings, fromFiles: strings, toFiles: strings }),
);
const followUpCheck = def(
  'followUpCheck',
  z.strictObject({ name: str, command: str, source: str, willRun: z.literal(false), allowedByPolicy: z.boolean(), reason: str }),
);
const staleState = def(
  'staleState',
  z.strictObject({
    isStale: z.boolean(),
    since: dateTimeField.optional(),
    detectedAt: dateTimeField.optional(),
    changedFiles: strings,
    reason: str.optional(),
  }),
);
const checkpoint = def(
  'checkpoint',
  z.strictObject({
    seq: z.int().min(1),
    kind: z.enum(['plan', 'diff']),
    createdAt: dateTimeField,
    summary: z.string().max(8300),
    truncated: z.boolean(),
    redactions: z.array(z.strictObject({ rule: str, count: z.int().min(1) })),
    trust: z.literal('untrusted-agent'),
    changedFiles: strings,
    treeFingerprint: sha256,
    diffFingerprint: sha256.optional(),
    diffFiles: strings.optional(),
  }),
);
const proofStep = z.strictObject({
  id: str,
  kind: z.enum(['acceptance-criterion', 'existing-tests', 'missing-test', 'route', 'invariant', 'contract', 'configured-check']),
  text: str,
  evidenceIds: strings,
  requiredProof: strings.optional(),
});
const nonGoal = z.strictObject({ text: str, source: z.enum(['requirements', 'checker']) });
const sessionPreflight = def(
  'sessionPreflight',
  z.strictObject({
    confidence: z.enum(['low', 'medium', 'high']),
    confidenceReason: str,
    candidateFiles: z.array(candidateFile),
    candidateRoutes: z.array(candidateRoute),
    unresolvedQuestions: strings,
    proofPlan: z.array(proofStep),
    nonGoals: z.array(nonGoal),
    followUpChecks: z.array(followUpCheck),
  }),
);
const verificationBoundary = def(
  'verificationBoundary',
  z.strictObject({
    allowCommands: z.boolean(),
    policySource: str.nullable(),
    allowedChecks: z.array(followUpCheck),
    blockedChecks: z.array(followUpCheck),
    acceptanceCriteria: z.array(z.strictObject({ id: str, text: str, requiredProof: strings, status: z.literal('needs-proof') })),
    openObligations: count,
    changedFiles: strings,
    notes: strings,
  }),
);
const finish = def(
  'finish',
  z.strictObject({
    finishedAt: dateTimeField,
    tree: z.strictObject({ fingerprint: sha256, fileCount: count, head: str.nullable(), changedFiles: strings, diffFingerprint: sha256 }),
    verificationBoundary,
  }),
);

export const agentSessionSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('agent-session'),
  id: z.string().regex(SESSION_ID_PATTERN),
  status: z.enum(['active', 'finished']),
  createdAt: dateTimeField,
  updatedAt: dateTimeField,
  revision: z.int().min(1),
  task: z.string().min(1),
  requirements: z.strictObject({ path: str, hash: sha256, data: requirementsSchema.meta({ id: 'requirements' }) }).nullable(),
  base: z.strictObject({ git: z.boolean(), oid: str.nullable(), reason: str.optional() }),
  preflight: sessionPreflight,
  memory: z.array(memoryEntry),
  designConstraints: z.strictObject({
    contracts: z.array(contract),
    decisions: z.array(decision),
    architecture: z.array(memoryEntry),
    invariants: z.array(memoryEntry),
  }),
  contextEvidence: z
    .strictObject({
      generatedAt: dateTimeField,
      maxNodes: z.int().min(1).max(MAX_CONTEXT_MAX_NODES),
      nodeIds: z.array(str).max(MAX_CONTEXT_MAX_NODES),
      omittedCount: count,
      packetPath: z.literal(`.checker/local/${TASK_CONTEXT_ARTIFACT}`),
    })
    .nullable(),
  checkpoints: z.array(checkpoint).max(MAX_CHECKPOINTS),
  proofObligations: z.array(
    z.strictObject({
      id: str,
      source: z.enum(['acceptance-criterion', 'preflight']),
      text: str,
      requiredProof: strings,
      evidenceIds: strings,
      status: z.literal('open'),
    }),
  ),
  observation: z.strictObject({
    fingerprint: sha256,
    observedAt: dateTimeField,
    fileCount: count,
    files: z.record(z.string(), z.string().max(80)),
  }),
  touchedFiles: strings,
  stale: staleState,
  finish: finish.nullable(),
});

/** What `checker session <operation> --format json` prints and the agent_session MCP tool returns. */
export const sessionResultSchema = z
  .strictObject({
    schemaVersion: z.literal(1),
    kind: z.literal('session-result'),
    operation: z.enum(['start', 'context', 'checkpoint', 'finish']),
    sessionId: z.string().regex(SESSION_ID_PATTERN),
    status: z.enum(['active', 'finished']),
    sessionPath: z.string().regex(new RegExp(`^\\.checker/local/${SESSIONS_FOLDER}/${SESSION_ID_PATTERN.source.slice(1, -1)}\\.json$`)),
    stale: staleState,
    checkpointRequested: z.boolean(),
    message: str,
    preflight: sessionPreflight.optional(),
    context: taskContextSchema.omit({ truncated: true }).meta({ id: 'taskContext' }).optional(),
    checkpoint: checkpoint.optional(),
    finish: finish.optional(),
    limitations: z.array(diagnosticSchema),
    truncated,
  })
  .describe(
    'What checker session <operation> --format json prints and the agent_session MCP tool returns. context embeds the task context packet.',
  );

const owner = def('owner', z.strictObject({ id: str, handle: str, matchedTerms: strings, ownedFiles: strings }));
const area = def('area', z.strictObject({ name: str, candidates: count, impacted: count }));
const acceptanceCriterion = def('acceptanceCriterion', z.strictObject({ id: str, text: str, requiredProof: strings }));
const affectedFlow = z.strictObject({ name: str, kind: str, route: str.optional(), matchedRoutes: strings });
const requirementEvidence = def(
  'requirementEvidence',
  z.strictObject({
    provided: z.boolean(),
    source: z.strictObject({ path: str, hash: sha256 }).optional(),
    title: str.optional(),
    acceptanceCriteria: z.array(acceptanceCriterion),
    affectedFlows: z.array(affectedFlow),
    currentBehavior: strings,
    expectedBehavior: strings,
    nonGoals: strings,
    invariants: strings,
    architectureConstraints: strings,
    unresolvedQuestions: strings,
  }),
);
const impactedFile = z.strictObject({ path: str, distance: count, via: strings, typeOnly: z.boolean() });
const repositoryEvidence = def(
  'repositoryEvidence',
  z.strictObject({
    terms: z.strictObject({ domain: strings, generic: strings, unmatched: strings }),
    candidateFiles: z.array(candidateFile),
    omittedCandidates: count,
    candidateTests: z.array(candidateTest),
    candidateRoutes: z.array(candidateRoute),
    impactedAreas: z.strictObject({ folders: z.array(area), packages: z.array(area), owners: z.array(area) }),
    impactedFiles: z.array(impactedFile),
    impactedFilesTotal: count,
    memory: z.strictObject({
      invariants: z.array(memoryEntry),
      architecture: z.array(memoryEntry),
      regressions: z.array(memoryEntry),
      notes: z.array(memoryEntry),
    }),
    decisions: z.array(decision),
    owners: z.array(owner),
    contracts: z.array(contract),
  }),
);
const suggestions = def(
  'suggestions',
  z.strictObject({ proofPlan: z.array(proofStep), nonGoals: z.array(nonGoal), followUpChecks: z.array(followUpCheck) }),
);

/** `checker ai preflight` / `checker agent preflight` and the MCP preflight tool: the before-coding brief. */
export const preflightReportSchema = z
  .strictObject({
    schemaVersion: z.literal(1),
    kind: z.literal('preflight-report'),
    task: z.string().min(1),
    generatedAt: dateTimeField,
    revision: z.strictObject({ git: z.boolean(), head: str.nullable() }),
    requirementEvidence,
    repositoryEvidence,
    suggestions,
    candidateFiles: z.array(z.string().min(1)).describe('Candidate file paths, best first; details in repositoryEvidence.candidateFiles'),
    confidence: z.enum(['low', 'medium', 'high']),
    confidenceReason: str,
    unresolvedQuestions: strings,
    // Nothing ran unless --investigate called a provider: a local one is a command, a byok one uses the network.
    execution: z.union([
      z.strictObject({
        modelCalled: z.literal(false),
        commandsRun: z.literal(false),
        network: z.literal(false),
        investigation: z.literal(false),
      }),
      z.strictObject({
        modelCalled: z.literal(true),
        commandsRun: z.literal(true),
        network: z.literal(false),
        investigation: z.literal(true),
      }),
      z.strictObject({
        modelCalled: z.literal(true),
        commandsRun: z.literal(false),
        network: z.literal(true),
        investigation: z.literal(true),
      }),
    ]),
    limitations: z.array(diagnosticSchema),
    truncated,
    investigation: investigationResultSchema.optional(),
  })
  .describe(
    "Before-coding brief. requirementEvidence (the requirements file), repositoryEvidence (deterministic) and suggestions (checker's proposals) are kept apart.",
  );

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<EvidenceReason, z.infer<typeof reason>>;
true satisfies Same<PreflightCandidateFile, z.infer<typeof candidateFile>>;
true satisfies Same<PreflightCandidateTest, z.infer<typeof candidateTest>>;
true satisfies Same<PreflightCandidateRoute, z.infer<typeof candidateRoute>>;
true satisfies Same<PreflightMemoryEntry, z.infer<typeof memoryEntry>>;
true satisfies Same<MatchedDecision, z.infer<typeof decision>>;
true satisfies Same<PreflightContract, z.infer<typeof contract>>;
true satisfies Same<FollowUpCheck, z.infer<typeof followUpCheck>>;
true satisfies Same<ProofStep, z.infer<typeof proofStep>>;
true satisfies Same<NonGoal, z.infer<typeof nonGoal>>;
true satisfies Same<StaleState, z.infer<typeof staleState>>;
true satisfies Same<Checkpoint, z.infer<typeof checkpoint>>;
true satisfies Same<SessionPreflight, z.infer<typeof sessionPreflight>>;
true satisfies Same<VerificationBoundary, z.infer<typeof verificationBoundary>>;
true satisfies Same<SessionFinish, z.infer<typeof finish>>;
/** One way only: the file pins contextEvidence.packetPath to the one path, the model type says string. */
type SessionFitsModel = z.infer<typeof agentSessionSchema> extends AgentSession ? true : false;
true satisfies SessionFitsModel;
true satisfies Same<SessionResult, Omit<z.infer<typeof sessionResultSchema>, 'truncated'>>;
true satisfies Same<MatchedOwner, z.infer<typeof owner>>;
true satisfies Same<PreflightArea, z.infer<typeof area>>;
true satisfies Same<PreflightImpactedFile, z.infer<typeof impactedFile>>;
true satisfies Same<RequirementEvidence, z.infer<typeof requirementEvidence>>;
true satisfies Same<RepositoryEvidence, z.infer<typeof repositoryEvidence>>;
true satisfies Same<Suggestions, z.infer<typeof suggestions>>;
true satisfies Same<PreflightReport, Omit<z.infer<typeof preflightReportSchema>, 'truncated'>>;
