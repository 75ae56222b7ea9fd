import { z } from 'zod';

/**
 * Investigation on request (spec 1, 2.11, 4.1 rule 2, 4.2 agent_investigation, 5.6): the payload checker sends to the
 * configured local or bring-your-own-key provider, the provider's reply as it must come back, and what checker keeps
 * of it. Everything a provider says is untrusted model output: it is redacted, fenced in Markdown, marked
 * `trust: untrusted-model` in JSON, never changes merge risk or a proof state, and becomes a task only as a
 * "verify: …" item tied to a verifier that exists in this run.
 */
const str = z.string();
const nonEmpty = z.string().min(1);
const count = z.int().min(0);
const strings = z.array(str);

export const PROVIDER_KINDS = ['local', 'byok'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** What can confirm or refute a hypothesis (spec 2.11). */
const VERIFIER_KINDS = [
  'configured-check',
  'tool-adapter',
  'product-probe',
  'differential-check',
  'static-analyzer',
  'human-decision',
] as const;

/** Longest text kept from one field of a provider's reply; longer text is cut with a marker. */
export const MAX_REPLY_TEXT_CHARS = 2000;
/** Items kept per list of a provider's reply; the rest are dropped with the reason. */
export const MAX_REPLY_ITEMS = 20;

// ---- the provider's reply (validated item by item; unknown fields are dropped with the reason) ----

const evidenceIdList = z.array(z.string().min(1).max(300)).max(50);
// Sanitizing (controls, escapes) never removes a letter or digit, so a kept text is never blank.
const replyText = z.string().regex(/[\p{L}\p{N}]/u, { error: 'must contain a letter or digit' });

const replyRisk = z.object({ title: replyText, detail: z.string().optional(), evidenceIds: evidenceIdList.optional() });
const replyFlow = z.object({ name: replyText, detail: z.string().optional(), evidenceIds: evidenceIdList.optional() });
const replyEdgeCase = z.object({
  trigger: replyText,
  expectedBehavior: z.string().optional(),
  userVisibleFailure: z.string().optional(),
  evidenceIds: evidenceIdList.optional(),
});
const replyProofProposal = z.object({ description: replyText, verifier: replyText, evidenceIds: evidenceIdList.optional() });
const replyHypothesis = z.object({
  hypothesis: replyText,
  evidenceIds: evidenceIdList,
  userVisibleConsequence: z.string(),
  disconfirmingResult: z.string(),
  verifier: z.string(),
});

/** One list of the reply and the schema each of its items must match. */
export const REPLY_SECTIONS = {
  candidateRisks: replyRisk,
  affectedFlows: replyFlow,
  edgeCases: replyEdgeCase,
  proofProposals: replyProofProposal,
  unresolvedQuestions: replyText,
  consequenceHypotheses: replyHypothesis,
} as const;
export type ReplySection = keyof typeof REPLY_SECTIONS;

/**
 * The reply a provider must return, as one JSON object (sent as the chat-completions `response_format` JSON Schema
 * and shown to a local command in the request). Every list is optional; evidence ids and verifier ids must be ones
 * the request listed.
 */
export const investigationReplySchema = z
  .strictObject({
    candidateRisks: z.array(replyRisk).optional(),
    affectedFlows: z.array(replyFlow).optional(),
    edgeCases: z.array(replyEdgeCase).optional(),
    proofProposals: z.array(replyProofProposal).optional(),
    unresolvedQuestions: z.array(replyText).optional(),
    consequenceHypotheses: z.array(replyHypothesis).optional(),
  })
  .describe('The reply of an investigation provider: untrusted proposals that cite evidence ids and verifier ids of the request.');

// ---- the request checker sends ----

const verifier = z.strictObject({ id: nonEmpty, kind: z.enum(VERIFIER_KINDS), description: str });
export type InvestigationVerifier = z.infer<typeof verifier>;

const evidenceItem = z.strictObject({ id: nonEmpty, kind: nonEmpty, summary: str });
export type InvestigationEvidence = z.infer<typeof evidenceItem>;

const requestRequirements = z.strictObject({
  acceptanceCriteria: z.array(z.strictObject({ id: nonEmpty, text: str, requiredProof: strings })),
  affectedFlows: z.array(z.strictObject({ name: str, kind: str })),
  currentBehavior: strings,
  expectedBehavior: strings,
  nonGoals: strings,
  invariants: strings,
  architectureConstraints: strings,
  unresolvedQuestions: strings,
});

export const investigationRequestSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('checker-investigation-request'),
  subject: z.enum(['change', 'preflight']),
  task: str.optional(),
  requirements: requestRequirements.optional(),
  /** Deterministic impact: changed files, impacted files and routes (change), candidate files and routes (preflight). */
  impact: z.array(evidenceItem),
  changedPathProof: z.array(evidenceItem),
  memory: z.array(evidenceItem),
  skills: z.array(evidenceItem),
  verification: z.array(evidenceItem),
  verifiers: z.array(verifier),
  limitations: strings,
  mergeRisk: z.strictObject({ level: nonEmpty, score: z.number() }).optional(),
  budget: z.strictObject({
    maxTokens: count,
    estimatedTokens: count,
    estimate: nonEmpty,
    omitted: z.array(z.strictObject({ section: nonEmpty, items: count })),
  }),
});
export type InvestigationRequest = z.infer<typeof investigationRequestSchema>;

// ---- what checker keeps ----

const providerInfo = z.strictObject({
  kind: z.enum(PROVIDER_KINDS),
  model: str.optional(),
  /** BYOK: the endpoint's origin (scheme, host, port); never a path, query or key. */
  endpoint: str.optional(),
  /** Local: the program (argv[0]) of the configured command. */
  command: str.optional(),
});
export type ProviderInfo = z.infer<typeof providerInfo>;

const risk = z.strictObject({ title: nonEmpty, detail: str, evidenceIds: strings });
const flow = z.strictObject({ name: nonEmpty, detail: str, evidenceIds: strings });
const edgeCase = z.strictObject({ trigger: nonEmpty, expectedBehavior: str, userVisibleFailure: str, evidenceIds: strings });
const proofProposal = z.strictObject({ description: nonEmpty, verifier: nonEmpty, evidenceIds: strings });
const hypothesis = z.strictObject({
  id: nonEmpty,
  hypothesis: nonEmpty,
  evidenceIds: z.array(nonEmpty).min(1),
  userVisibleConsequence: nonEmpty,
  disconfirmingResult: nonEmpty,
  verifier: nonEmpty,
  verifierKind: z.enum(VERIFIER_KINDS),
});
const verifyTask = z.strictObject({
  id: nonEmpty,
  text: z.string().regex(/^verify: /),
  verifier: nonEmpty,
  verifierKind: z.enum(VERIFIER_KINDS),
  from: nonEmpty,
});
const dropped = z.strictObject({ section: nonEmpty, item: str, reason: nonEmpty });

export const investigationResultSchema = z
  .strictObject({
    trust: z.literal('untrusted-model'),
    provider: providerInfo,
    status: z.enum(['answered', 'failed']),
    /** failed: `call` (no answer: timeout, HTTP error, the command failed) or `reply` (an answer with nothing usable in it). */
    failure: z.enum(['call', 'reply']).optional(),
    reason: nonEmpty,
    durationMs: count,
    attempts: count,
    request: z.strictObject({ estimatedTokens: count, maxTokens: count, evidenceIds: count, omitted: count }),
    candidateRisks: z.array(risk),
    affectedFlows: z.array(flow),
    edgeCases: z.array(edgeCase),
    proofProposals: z.array(proofProposal),
    unresolvedQuestions: strings,
    consequenceHypotheses: z.array(hypothesis),
    verifyTasks: z.array(verifyTask),
    dropped: z.array(dropped),
    note: nonEmpty,
  })
  .meta({ id: 'investigationResult' });
export type InvestigationResult = z.infer<typeof investigationResultSchema>;
export type InvestigationHypothesis = z.infer<typeof hypothesis>;
export type InvestigationDropped = z.infer<typeof dropped>;
export type VerifyTask = z.infer<typeof verifyTask>;

/** The execution record's line on investigation: not run (and why), or which provider answered and how long it took. */
export const investigationNotRunSchema = z.strictObject({ ran: z.literal(false), reason: str });
/** A provider of `kind` was called: its status and duration. */
export const investigationRanSchema = <K extends ProviderKind>(kind: K) =>
  z.strictObject({
    ran: z.literal(true),
    reason: nonEmpty,
    provider: z.literal(kind),
    status: z.enum(['answered', 'failed']),
    durationMs: count,
  });
export const investigationRecordSchema = z
  .union([investigationNotRunSchema, investigationRanSchema('local'), investigationRanSchema('byok')])
  .meta({ id: 'investigationRecord' });
export type InvestigationRecord = z.infer<typeof investigationRecordSchema>;
export type InvestigationRanRecord<K extends ProviderKind> = z.infer<ReturnType<typeof investigationRanSchema<K>>>;

/** Set only by the MCP server when it caps long lists (as report-schemas' `truncated`; not imported, to keep model acyclic). */
const truncated = z
  .record(z.string(), z.strictObject({ shown: count, total: count }))
  .optional()
  .describe(
    "Present only in MCP results whose lists were capped: JSON path of each capped list, with how many items are shown and how many exist (the CLI's --format json keeps every item).",
  );

/** `checker ai|agent [preflight] --investigate --dry-run` and MCP agent_investigation: the payload, and the result when sent. */
export const investigationReportSchema = z
  .strictObject({
    schemaVersion: z.literal(1),
    kind: z.literal('investigation-report'),
    subject: z.enum(['change', 'preflight']),
    sent: z.boolean(),
    reason: nonEmpty,
    provider: providerInfo.optional(),
    /** The fixed instructions sent as the system message (byok) or the `instructions` field (local). */
    instructions: nonEmpty,
    request: investigationRequestSchema,
    execution: investigationRecordSchema,
    result: investigationResultSchema.optional(),
    /** The deterministic merge risk of the same run (a change), unchanged by anything the provider said. */
    mergeRisk: z.strictObject({ level: nonEmpty, score: z.number() }).optional(),
    /** What the call left out and why (a key not sent to a repository's endpoint, a configuration the change alters). */
    limitations: z.array(z.strictObject({ code: nonEmpty, message: nonEmpty })).optional(),
    truncated,
  })
  .describe('Investigation payload (exactly what is, or would be, sent) and the untrusted result when a provider was called.');
export type InvestigationReport = Omit<z.infer<typeof investigationReportSchema>, 'truncated'>;
