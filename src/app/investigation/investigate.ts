import type { AgentBundle, BundleExecution } from '../../model/bundle.js';
import type { Env } from '../../model/env.js';
import type { SkillSummary } from '../../model/graph.js';
import type { InvestigationRecord, InvestigationReport, InvestigationResult } from '../../model/investigation.js';
import type { PreflightReport } from '../../model/preflight.js';
import { loadTrustedConfig } from '../load/trusted-config.js';
import { loadUserSettings } from '../load/user-config.js';
import { buildChangeRequest, buildPreflightRequest, type BuiltRequest } from './build-request.js';
import { callProvider, INSTRUCTIONS, type ProviderRefusal, resolveProvider } from './provider.js';
import { noReplyItems, readReply } from './read-reply.js';
import { countOf } from '../../text/plural.js';

/** What an investigation looks at: a change (its agent bundle) or a task before coding (its preflight report). */
export type InvestigationSubject =
  | { kind: 'change'; bundle: AgentBundle }
  | { kind: 'preflight'; report: PreflightReport; skills: readonly SkillSummary[] };

export interface InvestigationRun {
  report: InvestigationReport;
  /** Set when the provider could not be called for a configuration reason (no provider, an incomplete one, the gate). */
  refusal?: ProviderRefusal;
}

const UNTRUSTED_NOTE =
  'Untrusted model output: proposals to verify, not evidence. It never changes merge risk, a proof state or the tasks above; each proposal becomes work only as a "verify: …" item tied to a verifier of this run.';

/**
 * Builds the redacted, bounded request for `subject` and, only when `send` is true, calls the configured provider
 * and reads its reply. With `send` false (`--dry-run`, MCP without confirmInvestigation) nothing is selected to be
 * called and nothing leaves the machine: the report holds exactly the payload that would be sent.
 */
export async function investigate(
  env: Env,
  subject: InvestigationSubject,
  options: { send: boolean; deadline?: number },
): Promise<InvestigationRun> {
  const loaded = await loadTrustedConfig(env, subject.kind === 'change' ? toRange(subject.bundle) : {});
  const { config } = loaded;
  const built =
    subject.kind === 'change' ? buildChangeRequest(subject.bundle, config) : buildPreflightRequest(subject.report, subject.skills, config);
  const mergeRisk = subject.kind === 'change' ? { ...subject.bundle.evidence.summary.mergeRisk } : undefined;
  const base = {
    schemaVersion: 1 as const,
    kind: 'investigation-report' as const,
    subject: subject.kind,
    instructions: INSTRUCTIONS,
    request: built.request,
    ...(mergeRisk === undefined ? {} : { mergeRisk }),
  };
  if (!options.send) {
    const reason = 'not sent: this is the exact payload an investigation would send (--dry-run, or MCP without confirmInvestigation: true)';
    return { report: { ...base, sent: false, reason, execution: { ran: false, reason } } };
  }
  const user = await loadUserSettings(env);
  const resolved = resolveProvider({ config, trust: loaded.trust, user });
  if (!resolved.ok) {
    const reason = resolved.refusal.message;
    return { report: { ...base, sent: false, reason, execution: { ran: false, reason } }, refusal: resolved.refusal };
  }
  const { provider } = resolved;
  const limitations = [
    ...loaded.diagnostics
      .filter((item) => item.code === 'config/changed-by-range')
      .map((item) => ({ code: item.code, message: item.message })),
    ...resolved.notes,
  ];
  const budgetMs = options.deadline === undefined ? undefined : Math.max(1000, options.deadline - env.now().getTime());
  const answer = await callProvider(env, provider, built.request, budgetMs);
  const result = toResult(answer, built, provider.info);
  const execution: InvestigationRecord = {
    ran: true,
    reason: `${provider.kind} provider ${describeProvider(result.provider)} was called on request: ${result.reason}`,
    provider: provider.kind,
    status: result.status,
    durationMs: result.durationMs,
  };
  return {
    report: {
      ...base,
      provider: provider.info,
      sent: true,
      reason: result.reason,
      execution,
      result,
      ...(limitations.length === 0 ? {} : { limitations }),
    },
  };
}

/** The range the bundle analysed: power keys are read from its base. */
function toRange(bundle: AgentBundle): { base?: string; head?: string } {
  const { base, head } = bundle.range;
  return { ...(base?.oid === undefined ? {} : { base: base.oid }), ...(head?.oid === undefined ? {} : { head: head.oid }) };
}

function toResult(
  answer: Awaited<ReturnType<typeof callProvider>>,
  built: BuiltRequest,
  provider: InvestigationResult['provider'],
): InvestigationResult {
  const request = {
    estimatedTokens: built.request.budget.estimatedTokens,
    maxTokens: built.request.budget.maxTokens,
    evidenceIds: built.evidenceIds.size,
    omitted: built.request.budget.omitted.reduce((sum, entry) => sum + entry.items, 0),
  };
  const empty = noReplyItems();
  const common = {
    trust: 'untrusted-model' as const,
    provider,
    durationMs: answer.durationMs,
    attempts: answer.attempts,
    request,
    note: UNTRUSTED_NOTE,
  };
  if (!answer.ok)
    return { ...common, status: 'failed', failure: answer.unusable === true ? 'reply' : 'call', reason: answer.reason, ...empty };
  const reply = readReply(answer.content, built.evidenceIds, built.verifiers);
  if (!reply.ok) return { ...common, status: 'failed', failure: 'reply', reason: reply.reason, ...empty };
  const kept = reply.items.candidateRisks.length + reply.items.affectedFlows.length + reply.items.edgeCases.length;
  const reason = `answered in ${answer.durationMs} ms: kept ${countOf(kept, 'risk/flow/edge-case item')}, ${countOf(reply.items.consequenceHypotheses.length, 'hypothesis', 'hypotheses')}, ${countOf(reply.items.proofProposals.length, 'proof proposal')}; dropped ${reply.items.dropped.length}`;
  return { ...common, status: 'answered', reason, ...reply.items };
}

function describeProvider(provider: InvestigationResult['provider']): string {
  if (provider.kind === 'local') return JSON.stringify(provider.command ?? '');
  return `${provider.model ?? '?'} at ${provider.endpoint ?? '?'}`;
}

/** The bundle with the investigation attached: its execution record says which provider ran; evidence, tasks and prompt are untouched. */
export function attachToBundle(bundle: AgentBundle, run: InvestigationRun): AgentBundle {
  const { result, execution } = run.report;
  const { checks, agentCalled } = bundle.execution;
  const record: BundleExecution = !execution.ran
    ? { checks, agentCalled, investigation: execution, modelCalled: false, network: false }
    : execution.provider === 'local'
      ? { checks, agentCalled, investigation: execution, modelCalled: true, network: false }
      : { checks, agentCalled, investigation: execution, modelCalled: true, network: true };
  const unusable =
    result?.failure === 'reply'
      ? [
          {
            code: 'investigation/unusable-reply',
            message: `the investigation provider's reply was not used (${result.reason}); the deterministic evidence, risk and tasks stand alone`,
          },
        ]
      : [];
  return {
    ...bundle,
    execution: record,
    ...(result === undefined ? {} : { investigation: result }),
    ...(unusable.length === 0 ? {} : { limitations: [...bundle.limitations, ...unusable] }),
  };
}

/** The preflight report with the investigation attached; its evidence and suggestions are untouched. */
export function attachToPreflight(report: PreflightReport, run: InvestigationRun): PreflightReport {
  const { result, execution } = run.report;
  const record: PreflightReport['execution'] = !execution.ran
    ? { modelCalled: false, commandsRun: false, network: false, investigation: false }
    : execution.provider === 'local'
      ? { modelCalled: true, commandsRun: true, network: false, investigation: true }
      : { modelCalled: true, commandsRun: false, network: true, investigation: true };
  return { ...report, execution: record, ...(result === undefined ? {} : { investigation: result }) };
}
