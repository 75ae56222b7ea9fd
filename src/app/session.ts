import { createHash } from 'node:crypto';
import { compileGlobs } from '../text/glob.js';
import { TASK_CONTEXT_ARTIFACT } from '../model/context-packet.js';
import { CheckerError, isCheckerError } from '../model/diagnostic.js';
import type { Env } from '../model/env.js';
import type { FollowUpCheck } from '../model/preflight.js';
import type { RequirementsInput } from '../model/requirements.js';
import {
  MAX_CHECKPOINTS,
  MAX_SUMMARY_CHARS,
  SESSION_ID_PATTERN,
  SESSIONS_FOLDER,
  type AgentSession,
  type Checkpoint,
  type CheckpointKind,
  type ProofObligation,
  type SessionOperation,
  type SessionResult,
  type StaleState,
  type TreeObservation,
  type VerificationBoundary,
} from '../model/session.js';
import { sanitizeUntrustedText } from '../text/redact/redact.js';
import { DEFAULT_MAX_FILE_BYTES } from './build-graph.js';
import { computePreflight, openGitState, type GitState } from './preflight.js';
import { computeTaskContext } from './task-context.js';
import { clipRedacted } from '../text/clip.js';
import { compareText } from '../text/compare-text.js';
import { loadConfig } from './load/load-config.js';
import { describeCommandsNotAllowed, loadTrustedConfig, type TrustedConfigData } from './load/trusted-config.js';
import { readRepoText } from './load/repo-text.js';
import { countOf } from '../text/plural.js';

const WINDOWS_RESERVED = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\..*)?$/i;
const SHORT_HASH = 16;
export interface StartSessionInput {
  sessionId: unknown;
  task: string;
  requirementsPath?: string;
  requirements?: RequirementsInput;
}

export interface SessionContextInput {
  sessionId: unknown;
  maxNodes?: number;
}

export interface CheckpointInput {
  sessionId: unknown;
  kind: unknown;
  summary: unknown;
}

export interface FinishSessionInput {
  sessionId: unknown;
}

/**
 * A session id becomes a file name, so it must match `^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`, must not be a Windows
 * device name and must not end with a dot. Checked before anything touches the disk (`session/invalid-id`).
 */
function assertSessionId(value: unknown): string {
  const shown = typeof value === 'string' ? JSON.stringify(clipRedacted(value, 40)) : String(value);
  const isValid = typeof value === 'string' && SESSION_ID_PATTERN.test(value) && !WINDOWS_RESERVED.test(value) && !value.endsWith('.');
  if (!isValid) {
    throw new CheckerError('session/invalid-id', `session id ${shown} is not allowed`, {
      hint: 'Use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit, not a device name such as CON (e.g. --session fix-discount-1, or sessionId over MCP).',
    });
  }
  return value;
}

function toSessionArtifact(id: string): string {
  return `${SESSIONS_FOLDER}/${id}.json`;
}

function toSessionPath(id: string): string {
  return `.checker/local/${toSessionArtifact(id)}`;
}

/** A content fingerprint of the working tree: every scanned file's path and content SHA-1 (never mtimes alone). */
async function observeTree(env: Env): Promise<TreeObservation> {
  const config = await loadConfig(env);
  const maxFileBytes = config.config.analysis?.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const scan = await env.scan({ maxFileBytes });
  const files: Record<string, string> = {};
  const paths = scan.files.map((file) => file.path).sort(compareText);
  const byPath = new Map(scan.files.map((file) => [file.path, file]));
  for (const path of paths) {
    const text = await readRepoText(env, path, maxFileBytes);
    const file = byPath.get(path);
    files[path] =
      text === undefined
        ? `stat:${file?.size ?? 0}:${file?.mtimeMs ?? 0}`
        : createHash('sha1').update(text).digest('hex').slice(0, SHORT_HASH);
  }
  for (const skipped of [...scan.skipped].sort((left, right) => compareText(left.path, right.path))) {
    if (files[skipped.path] === undefined) files[skipped.path] = `skipped:${skipped.reason}`;
  }
  const fingerprint = createHash('sha256');
  for (const path of Object.keys(files).sort(compareText)) fingerprint.update(`${path}\0${files[path] ?? ''}\n`);
  return { fingerprint: fingerprint.digest('hex'), observedAt: env.now().toISOString(), fileCount: Object.keys(files).length, files };
}

/** Paths added, removed or with other content between two observations, sorted. */
function compareObservations(before: TreeObservation, after: TreeObservation): string[] {
  if (before.fingerprint === after.fingerprint) return [];
  const changed = new Set<string>();
  for (const [path, hash] of Object.entries(after.files)) if (before.files[path] !== hash) changed.add(path);
  for (const path of Object.keys(before.files)) if (!(path in after.files)) changed.add(path);
  return [...changed].sort(compareText);
}

function union(...lists: readonly string[][]): string[] {
  return [...new Set(lists.flat())].sort(compareText);
}

/** `session start`: grounds the task (preflight), records base revision, memory, constraints and proof obligations; never overwrites. */
export async function startSession(env: Env, input: StartSessionInput): Promise<SessionResult> {
  const id = assertSessionId(input.sessionId);
  const artifact = toSessionArtifact(id);
  const existing = await env.readArtifact(artifact);
  // An empty file is no session but the leftover of an older version killed mid-write; the create below removes it.
  if (existing !== undefined && existing.length > 0) throw sessionExists(id);
  const { report, requirements, git } = await computePreflight(env, {
    task: input.task,
    ...(input.requirementsPath === undefined ? {} : { requirementsPath: input.requirementsPath }),
    ...(input.requirements === undefined ? {} : { requirements: input.requirements }),
  });
  const observation = await observeTree(env);
  const now = env.now().toISOString();
  const evidence = report.repositoryEvidence;
  const session: AgentSession = {
    schemaVersion: 1,
    kind: 'agent-session',
    id,
    status: 'active',
    createdAt: now,
    updatedAt: now,
    revision: 1,
    task: report.task,
    requirements: requirements ?? null,
    base: { git: git.access !== undefined, oid: git.head, ...(git.limitation === undefined ? {} : { reason: git.limitation.message }) },
    preflight: {
      confidence: report.confidence,
      confidenceReason: report.confidenceReason,
      candidateFiles: evidence.candidateFiles,
      candidateRoutes: evidence.candidateRoutes,
      unresolvedQuestions: report.unresolvedQuestions,
      proofPlan: report.suggestions.proofPlan,
      nonGoals: report.suggestions.nonGoals,
      followUpChecks: report.suggestions.followUpChecks,
    },
    memory: [...evidence.memory.invariants, ...evidence.memory.architecture, ...evidence.memory.regressions, ...evidence.memory.notes],
    designConstraints: {
      contracts: evidence.contracts,
      decisions: evidence.decisions,
      architecture: evidence.memory.architecture,
      invariants: evidence.memory.invariants,
    },
    contextEvidence: null,
    checkpoints: [],
    proofObligations: buildObligations(requirements, report.suggestions.proofPlan),
    observation,
    touchedFiles: [],
    stale: { isStale: false, changedFiles: [] },
    finish: null,
  };
  env.validate('agent-session', session, { code: 'internal/agent-session' });
  try {
    await env.writeArtifact(artifact, serialize(session), { mode: 'create' });
  } catch (error) {
    if (isCheckerError(error) && error.code === 'artifact/exists') throw sessionExists(id);
    throw error;
  }
  return toResult(session, 'start', {
    message: `session ${id} started at ${session.base.oid === null ? 'no base revision' : `base ${session.base.oid.slice(0, 12)}`}; ${countOf(session.proofObligations.length, 'proof obligation')} recorded`,
    preflight: session.preflight,
    limitations: report.limitations,
  });
}

function buildObligations(requirements: RequirementsInput | undefined, plan: AgentSession['preflight']['proofPlan']): ProofObligation[] {
  const obligations: ProofObligation[] = [];
  for (const criterion of requirements?.data.acceptanceCriteria ?? []) {
    obligations.push({
      id: `obligation:acceptance:${criterion.id}`,
      source: 'acceptance-criterion',
      text: criterion.text,
      requiredProof: criterion.requiredProof,
      evidenceIds: [`requirement:${requirements?.path ?? ''}#${criterion.id}`],
      status: 'open',
    });
  }
  for (const step of plan) {
    if (step.kind === 'acceptance-criterion' || step.kind === 'configured-check') continue;
    obligations.push({
      id: `obligation:${step.id.replace(/^proof:/, '')}`,
      source: 'preflight',
      text: step.text,
      requiredProof: step.requiredProof ?? [],
      evidenceIds: step.evidenceIds,
      status: 'open',
    });
  }
  return obligations;
}

/** `session context`: detects files changed since the last observation (stale → asks for a checkpoint) and writes the context packet. */
export async function refreshSessionContext(env: Env, input: SessionContextInput): Promise<SessionResult> {
  const id = assertSessionId(input.sessionId);
  const current = await readSession(env, id);
  const observation = await observeTree(env);
  const observed = compareObservations(current.observation, observation);
  const computed = await computeTaskContext(env, {
    task: current.task,
    ...(current.requirements === null ? {} : { requirements: current.requirements }),
    ...(input.maxNodes === undefined ? {} : { maxNodes: input.maxNodes }),
    sessionId: id,
    anchor: current.base.oid,
    changedFiles: union(current.touchedFiles, observed),
    checkpoints: current.checkpoints,
    sessionPath: toSessionPath(id),
  });
  const packet = computed.packet;
  const session = await updateSession(env, id, (session) => {
    const diff = compareObservations(session.observation, observation);
    session.touchedFiles = union(session.touchedFiles, diff, computed.changedSinceAnchor);
    if (diff.length > 0) {
      session.stale = {
        isStale: true,
        since: session.observation.observedAt,
        detectedAt: env.now().toISOString(),
        changedFiles: union(session.stale.changedFiles, diff),
        reason: `${countOf(diff.length, 'file')} changed since the last session observation; record a checkpoint`,
      };
    }
    session.contextEvidence = {
      generatedAt: packet.generatedAt,
      maxNodes: packet.maxNodes,
      nodeIds: packet.nodes.map((node) => node.id),
      omittedCount: packet.omitted.count,
      packetPath: `.checker/local/${TASK_CONTEXT_ARTIFACT}`,
    };
  });
  const message = session.stale.isStale
    ? `session ${id} is stale: ${describeFiles(session.stale.changedFiles)} changed since the last observation; record a checkpoint (checker session checkpoint --session ${id} --kind diff --summary "…")`
    : `session ${id} is current; context packet written to .checker/local/${TASK_CONTEXT_ARTIFACT} (${countOf(packet.nodes.length, 'node')})`;
  return toResult(session, 'context', { message, context: packet, limitations: [] });
}

/** `session checkpoint`: records a `plan` or `diff` checkpoint; the summary is redacted, capped and stored as untrusted agent data. */
export async function recordCheckpoint(env: Env, input: CheckpointInput): Promise<SessionResult> {
  const id = assertSessionId(input.sessionId);
  const kind = toCheckpointKind(input.kind);
  if (typeof input.summary !== 'string' || input.summary.trim() === '') {
    throw new CheckerError('session/missing-summary', 'a checkpoint needs a summary (--summary "<what was planned or changed>")', {
      hint: 'Describe the plan or the diff in a few sentences; it is stored as untrusted agent data.',
    });
  }
  const summary = sanitizeUntrustedText(input.summary, MAX_SUMMARY_CHARS);
  const existing = await readSession(env, id);
  if (existing.status === 'finished') throw sessionFinished(id);
  const observation = await observeTree(env);
  const git = await openGitState(env);
  const sinceBase = kind === 'diff' ? await readChangedSince(git, existing.base.oid) : [];
  let recorded: Checkpoint | undefined;
  const session = await updateSession(env, id, (session) => {
    if (session.status === 'finished') throw sessionFinished(id);
    if (session.checkpoints.length >= MAX_CHECKPOINTS) {
      throw new CheckerError('session/too-many-checkpoints', `session ${id} already has ${MAX_CHECKPOINTS} checkpoints`, {
        hint: 'finish this session and start a new one.',
      });
    }
    const diff = compareObservations(session.observation, observation);
    const touched = union(session.touchedFiles, diff, sinceBase);
    const checkpoint: Checkpoint = {
      seq: session.checkpoints.length + 1,
      kind,
      createdAt: env.now().toISOString(),
      summary,
      truncated: /…\[truncated \d+ chars\]$/.test(summary),
      redactions: countRedactions(summary),
      trust: 'untrusted-agent',
      changedFiles: diff,
      treeFingerprint: observation.fingerprint,
    };
    if (kind === 'diff') {
      checkpoint.diffFiles = touched;
      checkpoint.diffFingerprint = fingerprintDiff(touched, observation);
    }
    session.checkpoints.push(checkpoint);
    session.touchedFiles = touched;
    session.observation = observation;
    session.stale = { isStale: false, changedFiles: [] };
    recorded = checkpoint;
  });
  if (recorded === undefined) throw new Error('internal: checkpoint not recorded');
  return toResult(session, 'checkpoint', {
    message: `checkpoint ${recorded.seq} (${kind}) recorded as untrusted agent data; it changes no deterministic evidence and closes no proof obligation`,
    checkpoint: recorded,
    limitations: [],
  });
}

/** `session finish`: records the current tree and returns the verification boundary (allowed checks, criteria needing proof); runs nothing. */
export async function finishSession(env: Env, input: FinishSessionInput): Promise<SessionResult> {
  const id = assertSessionId(input.sessionId);
  const existing = await readSession(env, id);
  if (existing.status === 'finished') throw sessionFinished(id);
  // What the agent may run is what the session's base allowed: an agent cannot widen it by editing the config.
  const config = await loadTrustedConfig(env, existing.base.oid === null ? {} : { base: existing.base.oid });
  const observation = await observeTree(env);
  const git = await openGitState(env);
  const sinceBase = await readChangedSince(git, existing.base.oid);
  const session = await updateSession(env, id, (session) => {
    if (session.status === 'finished') throw sessionFinished(id);
    const unobserved = compareObservations(session.observation, observation);
    const changedFiles = union(session.touchedFiles, unobserved, sinceBase);
    const now = env.now().toISOString();
    session.touchedFiles = changedFiles;
    session.observation = observation;
    session.status = 'finished';
    session.stale = { isStale: false, changedFiles: [] };
    session.finish = {
      finishedAt: now,
      tree: {
        fingerprint: observation.fingerprint,
        fileCount: observation.fileCount,
        head: git.head,
        changedFiles,
        diffFingerprint: fingerprintDiff(changedFiles, observation),
      },
      verificationBoundary: buildBoundary(session, config, changedFiles, unobserved),
    };
  });
  const boundary = session.finish?.verificationBoundary;
  return toResult(session, 'finish', {
    message: `session ${id} finished: ${countOf(boundary?.allowedChecks.length ?? 0, 'configured check')} allowed, ${boundary?.blockedChecks.length ?? 0} blocked, ${countOf(boundary?.acceptanceCriteria.length ?? 0, 'acceptance criterion', 'acceptance criteria')} still ${(boundary?.acceptanceCriteria.length ?? 0) === 1 ? 'needs' : 'need'} proof`,
    ...(session.finish === null ? {} : { finish: session.finish }),
    limitations: git.limitation === undefined ? [] : [git.limitation],
  });
}

function buildBoundary(
  session: AgentSession,
  config: TrustedConfigData,
  changedFiles: string[],
  unobserved: string[],
): VerificationBoundary {
  const { blocked: changedConfig, changedByRange } = config.trust;
  const allowCommands = config.config.safety?.allowCommands === true && !changedConfig;
  const source = config.sources.length === 0 && config.trust.from === 'working-tree' ? null : config.trust.source;
  const checks = config.config.checks ?? {};
  const allowed: FollowUpCheck[] = [];
  const blocked: FollowUpCheck[] = [];
  for (const name of Object.keys(checks).sort(compareText)) {
    const check = checks[name];
    const command = check?.command ?? (check?.argv ?? []).join(' ');
    const scope = check?.paths;
    const applies = scope === undefined || scope.length === 0 || changedFiles.some(compileGlobs(scope, { dot: true }));
    if (allowCommands) {
      allowed.push({
        name,
        command,
        source: source ?? 'configuration',
        willRun: false,
        allowedByPolicy: true,
        reason: `allowed by safety.allowCommands: true in ${source ?? 'configuration'}${applies ? '' : '; its paths match none of the changed files'}; run it with checker execute`,
      });
    } else {
      blocked.push({
        name,
        command,
        source: source ?? 'configuration',
        willRun: false,
        allowedByPolicy: false,
        reason: changedConfig
          ? `the session's changes alter ${changedByRange.join(', ')} of the checker configuration (config/changed-by-range); only what the base revision configures may run`
          : source === null
            ? 'no configuration file sets safety.allowCommands: true'
            : describeCommandsNotAllowed(config.trust),
      });
    }
  }
  const notes = [
    'session finish runs nothing: run the allowed checks with checker execute, and the tests named by the proof obligations.',
    'checkpoint summaries are untrusted agent claims; they close no proof obligation and change no deterministic evidence.',
  ];
  if (unobserved.length > 0)
    notes.push(`${describeFiles(unobserved)} changed after the last checkpoint and are described by no checkpoint.`);
  if (!session.base.git) notes.push('no git base revision: changed files are those observed during the session.');
  return {
    allowCommands,
    policySource: source,
    allowedChecks: allowed,
    blockedChecks: blocked,
    acceptanceCriteria: (session.requirements?.data.acceptanceCriteria ?? []).map((criterion) => ({
      id: criterion.id,
      text: criterion.text,
      requiredProof: criterion.requiredProof,
      status: 'needs-proof',
    })),
    openObligations: session.proofObligations.filter((obligation) => obligation.status === 'open').length,
    changedFiles,
    notes,
  };
}

async function readChangedSince(git: GitState, base: string | null): Promise<string[]> {
  if (git.access === undefined || base === null) return [];
  const change = await git.access.readChange({ base });
  return union(change.files.flatMap((file) => (file.previousPath === undefined ? [file.path] : [file.path, file.previousPath])));
}

function fingerprintDiff(paths: string[], observation: TreeObservation): string {
  const hash = createHash('sha256');
  for (const path of [...paths].sort(compareText)) hash.update(`${path}\0${observation.files[path] ?? 'deleted'}\n`);
  return hash.digest('hex');
}

function countRedactions(summary: string): { rule: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const match of summary.matchAll(/\[REDACTED:([a-z0-9-]+)\]/g)) {
    const rule = match[1] ?? 'secret';
    counts.set(rule, (counts.get(rule) ?? 0) + 1);
  }
  return [...counts].sort((left, right) => compareText(left[0], right[0])).map(([rule, count]) => ({ rule, count }));
}

function toCheckpointKind(value: unknown): CheckpointKind {
  if (value === 'plan' || value === 'diff') return value;
  throw new CheckerError('session/invalid-kind', `--kind must be plan or diff (got ${JSON.stringify(String(value).slice(0, 40))})`, {
    hint: 'Use --kind plan (MCP checkpointKind "plan") before coding and --kind diff after changing files.',
  });
}

function describeFiles(paths: string[]): string {
  return `${countOf(paths.length, 'file')} (${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ', …' : ''})`;
}

function serialize(session: AgentSession): string {
  return `${JSON.stringify(session, null, 2)}\n`;
}

function sessionExists(id: string): CheckerError {
  return new CheckerError(
    'session/exists',
    `session "${id}" already exists (${toSessionPath(id)}); an existing session is never overwritten`,
    {
      hint: `Continue it with checker session context --session ${id} (MCP: agent_session operation "context"), or start a new one with another id.`,
    },
  );
}

function sessionFinished(id: string): CheckerError {
  return new CheckerError('session/finished', `session "${id}" is finished; it accepts no further checkpoints or finish`, {
    hint: 'Start a new session for further work (checker session start --session <new-id> --task "…", or agent_session operation "start" over MCP).',
  });
}

/** Reads and validates a session file (`session/not-found`, `session/corrupt`). */
async function readSession(env: Env, id: string): Promise<AgentSession> {
  const text = await env.readArtifact(toSessionArtifact(id));
  if (text === undefined) {
    throw new CheckerError('session/not-found', `session "${id}" does not exist (${toSessionPath(id)})`, {
      hint: `Start it first: checker session start --session ${id} --task "…" (MCP: agent_session operation "start").`,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CheckerError('session/corrupt', `${toSessionPath(id)} is not valid JSON`, {
      hint: 'The file was edited or truncated by hand; start a new session.',
      cause: error,
    });
  }
  return env.validate<AgentSession>('agent-session', data, { code: 'session/corrupt', file: toSessionPath(id) });
}

/** Read-modify-write under the session's lock, so concurrent operations on one session lose nothing. */
async function updateSession(env: Env, id: string, mutate: (session: AgentSession) => void): Promise<AgentSession> {
  const artifact = toSessionArtifact(id);
  return env.withArtifactLock(artifact, async () => {
    const session = await readSession(env, id);
    const revision = session.revision;
    mutate(session);
    session.revision = revision + 1;
    session.updatedAt = env.now().toISOString();
    env.validate('agent-session', session, { code: 'internal/agent-session' });
    await env.writeArtifact(artifact, serialize(session), { mode: 'replace' });
    return session;
  });
}

function toResult(
  session: AgentSession,
  operation: SessionOperation,
  extra: Pick<SessionResult, 'message' | 'limitations'> & Partial<Pick<SessionResult, 'preflight' | 'context' | 'checkpoint' | 'finish'>>,
): SessionResult {
  const stale: StaleState = session.stale;
  return {
    schemaVersion: 1,
    kind: 'session-result',
    operation,
    sessionId: session.id,
    status: session.status,
    sessionPath: toSessionPath(session.id),
    stale,
    checkpointRequested: stale.isStale,
    ...extra,
  };
}
