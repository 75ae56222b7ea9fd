import { z } from 'zod';
import type { AgentBundle, ProofEntry } from './bundle.js';
import { AGENT_PROFILES } from './config.js';
import { investigationNotRunSchema, investigationRanSchema, investigationResultSchema } from './investigation.js';
import { REPORT_PARTS, truncated } from './report-schemas.js';

/**
 * The source of schemas/agent-bundle.schema.json (`npm run schemas`): the agent task bundle of `checker ai`,
 * `checker agent` and the MCP agent_task_bundle tool. Its evidence is the analysis report's parts (the same zod
 * objects as analysis-report.schema.json); `AgentBundle` is asserted equal to its z.infer below.
 */
const str = z.string();
const nonEmpty = z.string().min(1);
const count = z.int().min(0);
const strings = z.array(str);
const {
  range,
  changedFile,
  impactedFile,
  impactedRoute,
  symbolImpact,
  impactedAreas,
  changedPathProof,
  weakTest,
  missingTest,
  staleAssertion,
  edgeCase,
  analysisSummary,
  testEvidence,
  testRun,
  reviewContext,
} = REPORT_PARTS;

const TOOL_ADAPTER_KINDS = [
  'agentProcess',
  'browserTestRunner',
  'coverage',
  'mutationTester',
  'staticAnalyzer',
  'apiFuzzer',
  'contractTester',
] as const;
const TASK_KINDS = [
  'check-failure',
  'product-failure',
  'requirement',
  'proof',
  'missing-test',
  'weak-test',
  'stale-assertion',
  'edge-case',
  'review',
] as const;

// Checks ran only with --with-checks, and then the run is named and recorded.
const checks = z.union([
  z.strictObject({ ran: z.literal(false), reason: str, runId: nonEmpty.optional(), recordPath: nonEmpty.optional() }),
  z.strictObject({ ran: z.literal(true), reason: str, runId: nonEmpty, recordPath: nonEmpty }),
]);
const proofEntry = changedPathProof.extend({ id: nonEmpty }).meta({ id: 'proofEntry' });
const artifact = z
  .strictObject({ kind: nonEmpty, path: nonEmpty.optional(), label: str.optional(), description: str.optional() })
  .meta({ id: 'artifact' });
const productFailure = z
  .strictObject({
    id: nonEmpty,
    checkId: nonEmpty,
    checkKind: z.enum(['ui', 'api', 'workflow']),
    target: nonEmpty,
    title: str,
    expected: str.optional(),
    actual: str.optional(),
    impactedFiles: strings,
    artifacts: z.array(artifact),
    rerunCommand: nonEmpty,
  })
  .meta({ id: 'productFailure' });
const location = z.strictObject({ file: str, line: count.optional(), col: count.optional() }).meta({ id: 'location' });
const { owners, decisions, memory, contracts, patterns, tools, history } = reviewContext.shape;
const evidence = z
  .strictObject({
    changedFiles: z.array(changedFile),
    impactedFiles: z.array(impactedFile),
    impactedRoutes: z.array(impactedRoute),
    symbolImpacts: z.array(symbolImpact),
    impactedAreas,
    changedPathProof: z.array(proofEntry),
    weakTests: z.array(weakTest),
    missingTests: z.array(missingTest),
    staleAssertions: z.array(staleAssertion),
    edgeCases: z.strictObject({ top: z.array(edgeCase).max(8), overflow: z.array(edgeCase) }),
    summary: analysisSummary,
    testEvidence,
    testRun,
    productFailures: z.array(productFailure),
    owners,
    decisions,
    memory,
    contracts,
    patterns,
    toolRecommendations: tools,
    history,
  })
  .meta({ id: 'evidence' });
const requirements = z
  .strictObject({
    path: nonEmpty,
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    title: str.optional(),
    acceptanceCriteria: z.array(z.strictObject({ id: nonEmpty, criterionId: nonEmpty, text: str, requiredProof: strings })),
    affectedFlows: z.array(z.strictObject({ id: nonEmpty, name: str, kind: str, route: str.optional(), matchedRoutes: strings })),
    currentBehavior: strings,
    expectedBehavior: strings,
    nonGoals: strings,
    invariants: strings,
    architectureConstraints: strings,
    unresolvedQuestions: strings,
  })
  .meta({ id: 'requirements' });
const task = z.strictObject({
  id: nonEmpty,
  kind: z.enum(TASK_KINDS),
  title: nonEmpty,
  detail: str,
  evidenceIds: z.array(nonEmpty).min(1),
});

export const agentBundleSchema = z.strictObject({
  schemaVersion: z.literal(1),
  kind: z.literal('agent-bundle'),
  profile: z.enum(AGENT_PROFILES),
  range,
  task: nonEmpty.optional(),
  requirements: requirements.optional(),
  evidence,
  checks: z.array(z.strictObject({ id: nonEmpty, name: nonEmpty, command: str, source: str, willRun: z.literal(false), reason: nonEmpty })),
  toolAdapters: z.array(
    z.strictObject({ kind: z.enum(TOOL_ADAPTER_KINDS), command: str.optional(), enabled: z.boolean(), willRun: z.literal(false) }),
  ),
  skills: z.array(z.strictObject({ id: nonEmpty, name: nonEmpty, description: str, path: nonEmpty })),
  tasks: z.array(task),
  proofObligations: z.array(
    z.strictObject({ id: nonEmpty, criterionId: nonEmpty, requiredProof: strings, routes: strings, status: z.literal('open') }),
  ),
  handoff: z.strictObject({
    profile: z.enum(AGENT_PROFILES),
    audience: nonEmpty,
    deliver: nonEmpty,
    runTests: nonEmpty,
    reportBack: nonEmpty,
  }),
  prompt: nonEmpty,
  limitations: z.array(z.strictObject({ code: nonEmpty, message: str, hint: str.optional(), location: location.optional() })),
  safety: z.array(nonEmpty),
  // Investigation and checks ran only on request, and then the record names what ran; a bare claim is refused.
  execution: z.union([
    z.strictObject({
      investigation: investigationNotRunSchema,
      checks,
      modelCalled: z.literal(false),
      network: z.literal(false),
      agentCalled: z.literal(false),
    }),
    z.strictObject({
      investigation: investigationRanSchema('local'),
      checks,
      modelCalled: z.literal(true),
      network: z.literal(false),
      agentCalled: z.literal(false),
    }),
    z.strictObject({
      investigation: investigationRanSchema('byok'),
      checks,
      modelCalled: z.literal(true),
      network: z.literal(true),
      agentCalled: z.literal(false),
    }),
  ]),
  verification: z.strictObject({
    checks: z
      .strictObject({
        runId: nonEmpty,
        gateOpen: z.boolean(),
        results: z.array(
          z.strictObject({
            id: nonEmpty,
            status: z.enum(['passed', 'failed', 'timed-out', 'not-started', 'skipped', 'refused']),
            reason: str,
            durationMs: z.number().min(0).optional(),
            output: str.optional(),
          }),
        ),
      })
      .optional(),
    testEvidence: z.strictObject({ found: z.boolean(), freshness: z.enum(['fresh', 'stale', 'unknown']), sources: count }),
    proofStates: z.record(z.string(), count),
    reachingTests: count,
    productRun: z.strictObject({
      status: z.enum(['absent', 'read', 'malformed']),
      generatedAt: str.optional(),
      target: str.optional(),
      passed: count,
      failed: count,
      skipped: count,
    }),
    requirements: z.strictObject({ given: z.boolean(), criteria: count, flowsMatched: count, flowsUnmatched: count }),
  }),
  truncated,
  taskOverflow: z.array(task),
  investigation: investigationResultSchema.optional(),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<ProofEntry, z.infer<typeof proofEntry>>;
true satisfies Same<AgentBundle, Omit<z.infer<typeof agentBundleSchema>, 'truncated'>>;
