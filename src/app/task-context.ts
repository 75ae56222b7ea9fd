import { summariseBuildOutputNotes } from './build-output-notes.js';
import type { KnowledgeGraph } from '../graph/build.js';
import { toFileId } from '../graph/ids.js';
import { DEFAULT_EDGE_WEIGHTS, findImpactClosure, selectContext } from '../ranking/context-select.js';
import { getGroundingSeeds } from '../ranking/grounding.js';
import { createTermNamer } from '../ranking/terms.js';
import { compilePack } from '../rules/pack.js';
import { evaluatePacks } from '../rules/engine.js';
import { toContextWeights } from '../rules/evaluate-analysis.js';
import { deriveEdgeKindSubjects } from '../rules/facts.js';
import {
  DEFAULT_CONTEXT_MAX_NODES,
  MAX_CONTEXT_MAX_NODES,
  TASK_CONTEXT_ARTIFACT,
  type Freshness,
  type PacketNode,
  type PacketTaskEvidence,
  type Provenance,
  type TaskContextPacket,
  type TrustClass,
} from '../model/context-packet.js';
import { CheckerError, isCheckerError, type Diagnostic } from '../model/diagnostic.js';
import type { Env } from '../model/env.js';
import { EDGE_KINDS, type NodeAttributes } from '../model/graph.js';
import type { ContextSeed, EdgeWeights, Grounding } from '../model/grounding.js';
import type { RequirementsInput } from '../model/requirements.js';
import type { Checkpoint } from '../model/session.js';
import { sanitizeUntrustedText } from '../text/redact/redact.js';
import { buildRepositoryGraph, type RepositoryGraph } from './build-graph.js';
import { groundTaskInRepository } from './task-grounding.js';
import { capLimitations, getRequirementsTerms, openGitState, toTaskText, type GitState } from './preflight.js';
import { readRequirements } from './load/read-bundle-inputs.js';
import { compareText } from '../text/compare-text.js';
import { loadConfig } from './load/load-config.js';
import { loadRulePacks } from './load/load-rule-packs.js';
import { countOf } from '../text/plural.js';

const PACK_WEIGHT_SCALE = 10;
const MAX_OMITTED_IDS = 500;
const MAX_EVIDENCE_TEXT = 2000;
const CHANGED_SEED_WEIGHT = 1;

export interface TaskContextInput {
  task: string;
  requirementsPath?: string;
  requirements?: RequirementsInput;
  /** `--max-nodes`; the config's `context.maxNodes`, else 80, when absent. */
  maxNodes?: number;
  sessionId?: string;
  /** The session's base commit; HEAD when absent. Freshness is measured against it. */
  anchor?: string | null;
  /** Files known to have changed (a session's touched files); seeds besides the grounded terms. */
  changedFiles?: string[];
  checkpoints?: Checkpoint[];
  sessionPath?: string;
  repository?: RepositoryGraph;
}

export interface TaskContextComputation {
  packet: TaskContextPacket;
  /** Files changed since the anchor (git), sorted. */
  changedSinceAnchor: string[];
  grounding: Grounding;
  git: GitState;
}

const round = (value: number): number => Math.round(value * 1e6) / 1e6;

/** `--max-nodes` and `context.maxNodes`: an integer from 1 to 1000; anything else is `context/max-nodes`. */
function resolveMaxNodes(requested: unknown, configured: number | undefined): number {
  const value = requested ?? configured ?? DEFAULT_CONTEXT_MAX_NODES;
  const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > MAX_CONTEXT_MAX_NODES) {
    throw new CheckerError(
      'context/max-nodes',
      `--max-nodes (maxNodes) must be an integer from 1 to ${MAX_CONTEXT_MAX_NODES} (got ${JSON.stringify(String(value).slice(0, 40))})`,
      {
        hint: `Pass --max-nodes between 1 and ${MAX_CONTEXT_MAX_NODES} (default ${DEFAULT_CONTEXT_MAX_NODES}, or context.maxNodes in .checker/config.yml).`,
      },
    );
  }
  return number;
}

/** `checker context --task`: the bounded, task-scoped context packet, written to `.checker/local/task-context.json`. */
export async function getTaskContext(env: Env, input: TaskContextInput): Promise<TaskContextPacket> {
  return (await computeTaskContext(env, input)).packet;
}

export async function computeTaskContext(env: Env, input: TaskContextInput): Promise<TaskContextComputation> {
  const task = toTaskText(input.task);
  const config = await loadConfig(env);
  const maxNodes = resolveMaxNodes(input.maxNodes, config.config.context?.maxNodes);
  const requirements =
    input.requirements ?? (input.requirementsPath === undefined ? undefined : await readRequirements(env, input.requirementsPath));
  const repository = input.repository ?? (await buildRepositoryGraph(env, undefined, { moduleLinks: true }));
  const kg = repository.kg;
  const git = await openGitState(env);
  const limitations: Diagnostic[] = git.limitation === undefined ? [] : [git.limitation];
  const anchor = input.anchor === undefined ? git.head : input.anchor;
  const changedSinceAnchor = await readChangedSince(git, anchor, limitations);

  const grounding = await groundTaskInRepository(
    env,
    { repository, git, task, requirementsTerms: getRequirementsTerms(requirements?.data) },
    limitations,
  );
  const seeds: ContextSeed[] = getGroundingSeeds(grounding);
  const changed = [...new Set([...(input.changedFiles ?? []), ...(input.sessionId === undefined ? [] : changedSinceAnchor)])].sort(
    compareText,
  );
  for (const path of changed) {
    if (kg.graph.hasNode(toFileId(path)))
      seeds.push({ nodeId: toFileId(path), weight: CHANGED_SEED_WEIGHT, reason: 'changed in this session' });
  }
  const closure = findImpactClosure(kg, [
    ...grounding.candidateFiles.map((candidate) => candidate.path),
    ...changed.filter((path) => kg.graph.hasNode(toFileId(path))),
  ]);
  const weights = await loadContextWeights(env, limitations);
  const selection = selectContext(kg, seeds, { maxNodes, edgeWeights: weights.edgeWeights, accountFor: closure.ids });

  const termsById = new Map<string, string[]>();
  const toWord = createTermNamer(grounding.terms);
  for (const candidate of [...grounding.candidateFiles, ...grounding.candidateRoutes]) {
    termsById.set(candidate.id, [...new Set(candidate.reasons.map((reason) => toWord(reason.term)))].sort(compareText));
  }
  for (const entry of [...grounding.matchedDecisions, ...Object.values(grounding.matchedMemory).flat()])
    termsById.set(entry.id, entry.matchedTerms);
  const changedSet = new Set(changedSinceAnchor);
  const freshnessContext: FreshnessContext = { isGit: git.access !== undefined, anchor, changed: changedSet };
  // One ranking for preflight and context (issue 40): the seeds come first, pinned, in the grounding's order (its best
  // candidate is rank 1), then the neighbours the walk reached by the relevance it gave them. A barrel or a test that
  // many candidates import gathers more walk relevance than any candidate; ranked by that alone it came first, and
  // the packet's first file was the task's file half as often as preflight's (dev recall@1 0.23 against 0.42).
  const ranked = [...selection.nodes].sort(
    (left, right) =>
      Number(right.pinned) - Number(left.pinned) || (left.pinned ? 0 : right.score - left.score || compareText(left.id, right.id)),
  );
  // A seed's relevance is at least that of every row below it (the neighbours it brought in): the relevance the packet
  // shows then never rises down the ranks; the lift is an explanation entry of its own.
  const shown = new Array<number>(ranked.length);
  for (let index = ranked.length - 1; index >= 0; index--) {
    const node = ranked[index];
    const below = shown[index + 1] ?? 0;
    shown[index] = node === undefined ? below : node.pinned ? Math.max(node.score, below) : node.score;
  }
  const nodes = ranked.map((node, index): PacketNode => {
    const attributes = kg.graph.getNodeAttributes(node.id);
    const provenance = getProvenance(attributes);
    const freshness = getFreshness(kg, node.id, attributes, provenance, freshnessContext);
    if (freshness.state === 'current' && anchor !== null && provenance.file !== undefined) provenance.commit = anchor;
    return {
      id: node.id,
      kind: node.kind,
      rank: index + 1,
      label: getLabel(attributes),
      relevance: round(shown[index] ?? node.score),
      pinned: node.pinned,
      matchedTerms: termsById.get(node.id) ?? [],
      explanation: [
        ...node.explanation.map((entry) => ({ ...entry, contribution: round(entry.contribution) })),
        ...((shown[index] ?? 0) > node.score
          ? [
              {
                via: 'rank',
                detail: 'a seed, ranked in preflight’s order: at least as relevant as the rows it brought in below it',
                contribution: round((shown[index] ?? 0) - node.score),
              },
            ]
          : []),
      ],
      provenance,
      trust: getTrust(attributes),
      freshness,
    };
  });
  const included = closure.ids.length - selection.omitted.accountedFor.length;
  if (selection.omitted.count > 0) {
    limitations.push({
      code: 'context/bounded',
      severity: 'info',
      message: `${selection.omitted.count} of ${countOf(selection.stats.considered, 'considered node')} were left out by --max-nodes ${maxNodes}; ${countOf(selection.omitted.accountedFor.length, 'impacted file')} among them ${selection.omitted.accountedFor.length === 1 ? 'is' : 'are'} named in omitted.impacted`,
    });
  }
  if (grounding.candidateFiles.length === 0 && changed.length === 0) {
    limitations.push({
      code: 'context/ungrounded',
      severity: 'warn',
      message: `the task could not be grounded in the repository, so the packet has no seeds: ${grounding.unresolvedQuestions[0] ?? grounding.confidenceReason}`,
    });
  }
  if (selection.unknownIds.length > 0) {
    limitations.push({
      code: 'context/unknown-ids',
      severity: 'info',
      message: `not in the graph (deleted or not analysed): ${selection.unknownIds.slice(0, 10).join(', ')}${selection.unknownIds.length > 10 ? ', …' : ''}`,
    });
  }
  const packet: TaskContextPacket = {
    schemaVersion: 1,
    kind: 'task-context',
    task,
    ...(input.sessionId === undefined ? {} : { sessionId: input.sessionId }),
    generatedAt: env.now().toISOString(),
    revision: { git: git.access !== undefined, anchor, head: git.head },
    maxNodes,
    considered: selection.stats.considered,
    confidence: grounding.confidence,
    weights: { source: weights.source, edgeWeights: weights.edgeWeights },
    seeds,
    nodes,
    edges: selection.edges,
    taskEvidence: collectTaskEvidence(requirements, input),
    impactClosure: { total: closure.ids.length, included, omitted: selection.omitted.accountedFor.length },
    omitted: {
      count: selection.omitted.count,
      byKind: selection.omitted.byKind,
      top: selection.omitted.top.map((entry) => ({ id: entry.id, relevance: round(entry.score) })),
      ids: selection.omitted.ids.slice(0, MAX_OMITTED_IDS),
      idsTruncated: selection.omitted.ids.length > MAX_OMITTED_IDS,
      impacted: selection.omitted.accountedFor,
    },
    limitations: capLimitations([...limitations, ...summariseBuildOutputNotes(repository.limitations)]),
  };
  env.validate('task-context', packet, { code: 'internal/task-context' });
  await env.writeArtifact(TASK_CONTEXT_ARTIFACT, `${JSON.stringify(packet, null, 2)}\n`, { mode: 'replace' });
  return { packet, changedSinceAnchor, grounding, git };
}

async function readChangedSince(git: GitState, anchor: string | null, limitations: Diagnostic[]): Promise<string[]> {
  if (git.access === undefined || anchor === null) return [];
  try {
    const change = await git.access.readChange({ base: anchor });
    const paths = new Set<string>();
    for (const file of change.files) {
      paths.add(file.path);
      if (file.previousPath !== undefined) paths.add(file.previousPath);
    }
    return [...paths].sort(compareText);
  } catch (error) {
    if (!isCheckerError(error)) throw error;
    limitations.push({
      code: 'context/diff-unavailable',
      severity: 'warn',
      message: `changes since ${anchor.slice(0, 12)} could not be read: ${error.message}`,
    });
    return [];
  }
}

/** Edge weights from the context-weight rule packs (weight 0-10 → 0-1); the built-in defaults when none fires. */
async function loadContextWeights(env: Env, limitations: Diagnostic[]): Promise<{ source: string; edgeWeights: EdgeWeights }> {
  try {
    const loaded = await loadRulePacks(env);
    const packs = loaded.packs.filter((entry) => entry.pack.kind === 'context-weight');
    if (packs.length === 0) return { source: 'defaults (no context-weight pack)', edgeWeights: { ...DEFAULT_EDGE_WEIGHTS } };
    const findings = await evaluatePacks(
      packs.map((entry) => compilePack(entry.pack)),
      deriveEdgeKindSubjects('preflight'),
    );
    const byKind = toContextWeights(findings);
    const edgeWeights: EdgeWeights = { ...DEFAULT_EDGE_WEIGHTS };
    for (const kind of EDGE_KINDS) {
      const weight = byKind.get(`edge-kind:${kind}`);
      if (weight !== undefined) edgeWeights[kind] = Math.min(1, Math.max(0, weight / PACK_WEIGHT_SCALE));
    }
    return { source: `rule packs ${packs.map((entry) => `${entry.pack.id}@${entry.pack.version}`).join(', ')}`, edgeWeights };
  } catch (error) {
    if (!isCheckerError(error)) throw error;
    limitations.push({
      code: 'context/weights',
      severity: 'warn',
      message: `context-weight pack not used (${error.message}); built-in edge weights apply`,
    });
    return { source: 'defaults (context-weight pack failed)', edgeWeights: { ...DEFAULT_EDGE_WEIGHTS } };
  }
}

function collectTaskEvidence(requirements: RequirementsInput | undefined, input: TaskContextInput): PacketTaskEvidence[] {
  const evidence: PacketTaskEvidence[] = [];
  for (const criterion of requirements?.data.acceptanceCriteria ?? []) {
    evidence.push({
      id: `requirement:${requirements?.path ?? ''}#${criterion.id}`,
      trust: 'requirement',
      text: sanitizeUntrustedText(criterion.text, MAX_EVIDENCE_TEXT),
      provenance: { file: requirements?.path ?? '' },
    });
  }
  for (const checkpoint of input.checkpoints ?? []) {
    evidence.push({
      id: `checkpoint:${input.sessionId ?? ''}#${checkpoint.seq}`,
      trust: 'untrusted-agent',
      text: sanitizeUntrustedText(`[${checkpoint.kind}] ${checkpoint.summary}`, MAX_EVIDENCE_TEXT),
      provenance: { file: input.sessionPath ?? '' },
    });
  }
  return evidence;
}

function getProvenance(node: NodeAttributes): Provenance {
  switch (node.kind) {
    case 'file':
      return { file: node.path };
    case 'export':
      return { file: node.path, line: node.span.start };
    case 'route':
      return { file: node.file, line: node.line };
    case 'test':
      return { file: node.file, line: node.span.start };
    case 'decision':
    case 'memory':
    case 'skill':
      return { file: node.path };
    case 'package':
      return node.folder === undefined
        ? {}
        : { file: node.folder === '' || node.folder === '.' ? 'package.json' : `${node.folder}/package.json` };
    case 'check':
      return { file: node.source };
    case 'owner':
    case 'contract':
      return {};
  }
}

function getLabel(node: NodeAttributes): string {
  switch (node.kind) {
    case 'file':
      return node.path;
    case 'export':
      return `${node.path}#${node.name}`;
    case 'route':
      return `${node.method} ${node.path}`;
    case 'test':
      return node.titlePath.join(' > ');
    case 'decision':
      return node.title;
    case 'memory':
      return node.title ?? node.id;
    case 'owner':
      return node.handle;
    case 'contract':
      return node.id;
    case 'package':
    case 'skill':
    case 'check':
      return node.name;
  }
}

function getTrust(node: NodeAttributes): TrustClass {
  if (node.kind === 'memory') return 'memory';
  if (node.kind === 'decision') return 'decision';
  return 'deterministic';
}

interface FreshnessContext {
  isGit: boolean;
  anchor: string | null;
  changed: Set<string>;
}

function getFreshness(kg: KnowledgeGraph, id: string, node: NodeAttributes, provenance: Provenance, context: FreshnessContext): Freshness {
  if (!context.isGit) return { state: 'unknown', reason: 'not a git repository' };
  if (context.anchor === null) return { state: 'unknown', reason: 'the repository has no commits' };
  const file = provenance.file;
  if (file === undefined || node.kind === 'check' || node.kind === 'package')
    return { state: 'unknown', reason: 'no file of its own to compare' };
  if (context.changed.has(file))
    return { state: 'stale', since: context.anchor, reason: `${file} changed since ${context.anchor.slice(0, 12)}` };
  if (node.kind === 'memory' || node.kind === 'decision') {
    const mentioned: string[] = [];
    kg.graph.forEachOutEdge(id, (_edge, attributes, _source, _target, _sourceAttributes, target) => {
      if (attributes.kind !== 'mentions') return;
      const path = target.kind === 'file' || target.kind === 'export' ? target.path : target.kind === 'route' ? target.file : undefined;
      if (path !== undefined && context.changed.has(path)) mentioned.push(path);
    });
    if (mentioned.length > 0) {
      const sorted = [...new Set(mentioned)].sort(compareText);
      return {
        state: 'stale',
        since: context.anchor,
        reason: `mentions ${sorted.slice(0, 3).join(', ')}, changed since ${context.anchor.slice(0, 12)}`,
      };
    }
  }
  return { state: 'current' };
}
