import { z } from 'zod';
import { EDGE_KINDS, type EdgeKind, type NodeKind } from './graph.js';
import type { Provenance, TaskContextPacket, TrustClass } from './context-packet.js';
import { MAX_CONTEXT_MAX_NODES } from './context-packet.js';
import { dateTimeField } from './date-time.js';
import { diagnosticSchema, truncated } from './report-schemas.js';
import { SESSION_ID_PATTERN } from './session.js';

/**
 * The source of schemas/task-context.schema.json (`npm run schemas`): the task context packet (spec 2.7) that
 * `checker context`, the MCP task_context tool and sessions return. `TaskContextPacket` (context-packet.ts) is
 * asserted equal to its z.infer below.
 */
const NODE_KINDS = ['file', 'export', 'route', 'test', 'owner', 'decision', 'memory', 'contract', 'package', 'skill', 'check'] as const;
const TRUST_CLASSES = ['deterministic', 'requirement', 'memory', 'decision', 'untrusted-agent'] as const;

const count = z.int().min(0);
const edgeKind = z.enum(EDGE_KINDS).meta({ id: 'edgeKind' });
const trust = z.enum(TRUST_CLASSES).meta({ id: 'trust' });
const provenance = z
  .strictObject({
    file: z.string().optional(),
    line: count.optional(),
    commit: z
      .string()
      .regex(/^[0-9a-f]{40}$/)
      .optional(),
  })
  .meta({ id: 'provenance' });
const weight = z.number().min(0);
const edgeWeights = z.strictObject(Object.fromEntries(EDGE_KINDS.map((kind) => [kind, weight])) as Record<EdgeKind, typeof weight>);

const node = z
  .strictObject({
    id: z.string().regex(new RegExp(`^(${NODE_KINDS.join('|')}):`)),
    kind: z.enum(NODE_KINDS),
    rank: z.int().min(1),
    label: z.string(),
    relevance: z.number().min(0),
    pinned: z.boolean(),
    matchedTerms: z.array(z.string()),
    explanation: z.array(
      z.strictObject({
        via: z.string(),
        edgeKind: edgeKind.optional(),
        neighbour: z.string().optional(),
        direction: z.enum(['forward', 'reverse']).optional(),
        detail: z.string().optional(),
        contribution: z.number(),
      }),
    ),
    provenance,
    trust,
    freshness: z.strictObject({
      state: z.enum(['current', 'stale', 'unknown']),
      since: z.string().optional(),
      reason: z.string().optional(),
    }),
  })
  .meta({ id: 'node' });

export const taskContextSchema = z
  .strictObject({
    schemaVersion: z.literal(1),
    kind: z.literal('task-context'),
    task: z.string().min(1),
    sessionId: z.string().regex(SESSION_ID_PATTERN).optional(),
    generatedAt: dateTimeField,
    revision: z.strictObject({ git: z.boolean(), anchor: z.string().nullable(), head: z.string().nullable() }),
    maxNodes: z.int().min(1).max(MAX_CONTEXT_MAX_NODES),
    considered: count,
    confidence: z.enum(['low', 'medium', 'high']),
    weights: z.strictObject({ source: z.string(), edgeWeights }),
    seeds: z.array(z.strictObject({ nodeId: z.string(), weight: z.number(), reason: z.string() })),
    nodes: z.array(node).max(MAX_CONTEXT_MAX_NODES),
    edges: z.array(z.strictObject({ source: z.string(), target: z.string(), kind: edgeKind })),
    taskEvidence: z.array(z.strictObject({ id: z.string(), trust, text: z.string(), provenance })),
    impactClosure: z.strictObject({ total: count, included: count, omitted: count }),
    omitted: z.strictObject({
      count,
      byKind: z.record(z.string(), count),
      top: z.array(z.strictObject({ id: z.string(), relevance: z.number() })),
      ids: z.array(z.string()).max(500),
      idsTruncated: z.boolean(),
      impacted: z.array(z.string()),
    }),
    limitations: z.array(diagnosticSchema),
    truncated,
  })
  .describe(
    'A bounded, task-scoped subgraph: nodes (at most maxNodes) with relevance, explanation, provenance, trust class and freshness; the edges among them; what the bound left out.',
  );

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<NodeKind, (typeof NODE_KINDS)[number]>;
true satisfies Same<EdgeKind, (typeof EDGE_KINDS)[number]>;
true satisfies Same<TrustClass, (typeof TRUST_CLASSES)[number]>;
true satisfies Same<Provenance, z.infer<typeof provenance>>;
true satisfies Same<TaskContextPacket, Omit<z.infer<typeof taskContextSchema>, 'truncated'>>;
